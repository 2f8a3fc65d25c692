//! Patterns of men in 4x4 regions of the board, for the evaluation's learned pattern term.
//!
//! Scheme: the board (10 rows by 10 columns) is covered by sixteen overlapping 4x4 regions
//! whose top-left corners sit at rows and columns 0, 2, 4 and 6. Since the offsets are even,
//! every region holds the same shape of playable squares: two in each of its four rows, which
//! in the ghost-bit layout are two adjacent bits of that row's five. A region's contents are
//! its eight squares, each empty, an own man or an enemy man (kings count as empty: they are
//! scored by the king terms), so a region is one of 3^8 = 6561 states, numbered base 3 in
//! square order (top row left, top row right, next row ...; digit 1 = own man, 2 = enemy man).
//!
//! The term is scored from each player's own side, like every draughts term: the evaluation
//! turns Black's pieces half a board round, so "own" men move towards row 0. Each player scores
//! the eight regions of its own half (top rows 4 and 6: rows 4-7 and 6-9 as it sees the
//! board); the other eight are the opponent's own half seen from there, so every region of the
//! board is scored exactly once, by the player in whose half it lies, and the colour-flip
//! symmetry (a position and its colour-swapped rotation score opposite) holds by construction
//! with one table per region class. The classes are the region's row (4 or 6) and its column:
//! left edge (0), centre (2 and 4, which differ by a translation only) and right edge (6), so
//! six tables of 6561 (midgame, endgame) pairs. Left and right are not shared: the board has no
//! mirror symmetry (a mirror moves playable squares onto unplayable ones).
//!
//! Cost: a region's index is four two-bit extractions per colour and one lookup in a 256-entry
//! table that reads a byte of bits as base-3 digits ([`TERNARY`]); no incremental state.

/// States of a region: 3^8.
pub const STATES: usize = 6561;

/// Region classes (the weight tables): 2 rows by 3 columns.
pub const CLASSES: usize = 6;

/// Regions each player scores: the eight of its own half.
pub const REGIONS: usize = 8;

/// A byte of bits read as base-3 digits of ones: bit `i` set adds `3^i`.
static TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// One region: the bit of the left square of each of its four rows, and its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub shifts: [u8; 4],
    pub class: u8,
}

/// The bit of the first square of `row` (0..=9) in the ghost-bit layout.
const fn row_base(row: usize) -> usize {
    5 * row + row / 2
}

/// The regions a player scores, in its own orientation (top rows 4 and 6, columns 0-6).
pub static OWN_REGIONS: [Region; REGIONS] = {
    let mut t = [Region {
        shifts: [0; 4],
        class: 0,
    }; REGIONS];
    let mut k = 0;
    while k < REGIONS {
        let row = 4 + 2 * (k / 4);
        let col = 2 * (k % 4);
        let mut shifts = [0u8; 4];
        let mut r = 0;
        while r < 4 {
            // Both parities of row hold the playable columns `col..col+3` at positions
            // col/2 and col/2 + 1 of the row's five.
            shifts[r] = (row_base(row + r) + col / 2) as u8;
            r += 1;
        }
        let column_class = match col {
            0 => 0,
            6 => 2,
            _ => 1,
        };
        t[k] = Region {
            shifts,
            class: ((k / 4) * 3 + column_class) as u8,
        };
        k += 1;
    }
    t
};

/// The region's eight squares of `bits` as a byte (square order of the module doc).
#[inline(always)]
fn gather(bits: u64, r: &Region) -> usize {
    let s = r.shifts;
    ((bits >> s[0]) & 3
        | ((bits >> s[1]) & 3) << 2
        | ((bits >> s[2]) & 3) << 4
        | ((bits >> s[3]) & 3) << 6) as usize
}

/// The state (0..6561) of region `r` with `own` and `their` men (disjoint, own orientation).
#[inline(always)]
pub fn state(own: u64, their: u64, r: &Region) -> usize {
    TERNARY[gather(own, r)] as usize + 2 * TERNARY[gather(their, r)] as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::squares::{mask_of_square, VALID};

    #[test]
    fn regions_hold_eight_playable_squares_and_cover_the_own_half() {
        let mut covered = 0u64;
        for r in &OWN_REGIONS {
            let mut m = 0u64;
            for &s in &r.shifts {
                m |= 3u64 << s;
            }
            assert_eq!(m & VALID, m, "{r:?}");
            assert_eq!(m.count_ones(), 8);
            covered |= m;
        }
        // Rows 4-9 as the player sees them: squares 21-50.
        let half = (21..=50).fold(0u64, |m, s| m | mask_of_square(s));
        assert_eq!(covered, half);
        // The class of each region: the row band, then left edge, centre, right edge.
        let classes: Vec<u8> = OWN_REGIONS.iter().map(|r| r.class).collect();
        assert_eq!(classes, vec![0, 1, 1, 2, 3, 4, 4, 5]);
        assert!(OWN_REGIONS.iter().all(|r| (r.class as usize) < CLASSES));
    }

    #[test]
    fn states_are_base_three_in_square_order() {
        // Region 0 (rows 4-7, columns 0-3): squares 21, 22 / 26, 27 / 31, 32 / 36, 37.
        let r = &OWN_REGIONS[0];
        let sq = mask_of_square;
        assert_eq!(state(0, 0, r), 0);
        assert_eq!(state(sq(21), 0, r), 1);
        assert_eq!(state(0, sq(21), r), 2);
        assert_eq!(state(sq(22), 0, r), 3);
        assert_eq!(state(0, sq(37), r), 2 * 2187);
        assert_eq!(state(sq(26) | sq(36), sq(27), r), 9 + 729 + 2 * 27);
        let all = [21, 22, 26, 27, 31, 32, 36, 37]
            .iter()
            .fold(0, |m, &s| m | sq(s));
        assert_eq!(state(0, all, r), STATES - 1);
        // Squares outside the region do not count.
        assert_eq!(state(sq(23) | sq(46), sq(16), r), 0);
    }
}
