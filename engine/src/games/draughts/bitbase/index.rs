//! The index of a position inside its material class, and the colour mirror.
//!
//! Scheme: a class is the count of White men, White kings, Black men and Black kings. The
//! tables store White-to-move positions only; a Black-to-move position is first mirrored
//! (the board turned half round, square `s` to `51 - s`, and the colours swapped), which makes
//! it a White-to-move position of the mirrored class with the same value. Inside a class the
//! four piece groups are each ranked as a set in the combinatorial number system over the
//! squares that group may stand on (White men on 6-50, since a White man on 1-5 would have
//! been crowned; Black men on 1-45; kings anywhere), and the index is the mixed-radix number
//! `((wm * |wk| + wk) * |bm| + bm) * |bk| + bk` of the four ranks. Sets that overlap (two
//! groups on one square) get an index too; those slots are never probed and hold a draw.

use super::super::eval::rotate;
use super::super::squares::{bit_of_square, Bits, VALID};

/// Most pieces a class of these tables can hold (the index arithmetic and the binomial table
/// are sized for it).
pub const MAX_PIECES: usize = 7;

/// The counts of each kind of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Class {
    pub white_men: u8,
    pub white_kings: u8,
    pub black_men: u8,
    pub black_kings: u8,
}

/// `BINOM[n][k]` for `n <= 50`, `k <= MAX_PIECES`.
static BINOM: [[u64; MAX_PIECES + 1]; 51] = {
    let mut t = [[0u64; MAX_PIECES + 1]; 51];
    let mut n = 0;
    while n <= 50 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The squares a group may stand on, as bits in ascending order, and each bit's place in it.
struct Domain {
    bits: [u8; 50],
    len: usize,
    /// Place of each layout bit in `bits` (255 when outside the domain).
    place: [u8; 64],
}

const fn domain(first: u8, last: u8) -> Domain {
    let mut d = Domain {
        bits: [0; 50],
        len: 0,
        place: [255; 64],
    };
    let mut s = first;
    while s <= last {
        let b = bit_of_square(s);
        d.bits[d.len] = b as u8;
        d.place[b as usize] = d.len as u8;
        d.len += 1;
        s += 1;
    }
    d
}

static WHITE_MEN: Domain = domain(6, 50);
static BLACK_MEN: Domain = domain(1, 45);
static KINGS: Domain = domain(1, 50);

/// The colex rank of a set inside a domain (every bit of `set` must be in it).
#[inline]
fn rank(d: &Domain, set: u64) -> u64 {
    let mut r = 0;
    for (i, b) in Bits(set).enumerate() {
        r += BINOM[d.place[b as usize] as usize][i + 1];
    }
    r
}

/// The set of `k` squares with colex rank `r` in a domain.
#[inline]
fn unrank(d: &Domain, mut r: u64, k: usize) -> u64 {
    let mut set = 0u64;
    let mut top = d.len;
    for i in (1..=k).rev() {
        // The largest place p below `top` with C(p, i) <= r.
        let mut p = top - 1;
        while BINOM[p][i] > r {
            p -= 1;
        }
        r -= BINOM[p][i];
        set |= 1u64 << d.bits[p];
        top = p;
    }
    set
}

/// A position as the tables see it: White to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pieces {
    pub white: u64,
    pub black: u64,
    pub kings: u64,
}

impl Pieces {
    /// The position with the board turned half round and the colours swapped: Black's
    /// position seen as White's.
    #[inline]
    pub fn mirror(self) -> Pieces {
        Pieces {
            white: rotate(self.black),
            black: rotate(self.white),
            kings: rotate(self.kings),
        }
    }

    /// The class of the position.
    #[inline]
    pub fn class(self) -> Class {
        Class {
            white_men: (self.white & !self.kings).count_ones() as u8,
            white_kings: (self.white & self.kings).count_ones() as u8,
            black_men: (self.black & !self.kings).count_ones() as u8,
            black_kings: (self.black & self.kings).count_ones() as u8,
        }
    }

    /// Whether the pieces stand where the tables can hold them: no overlap, on playable
    /// squares, no man on the row where it would have been crowned.
    pub fn is_well_placed(self) -> bool {
        let w_men = self.white & !self.kings;
        let b_men = self.black & !self.kings;
        self.white & self.black == 0
            && (self.white | self.black) & !VALID == 0
            && self.kings & !(self.white | self.black) == 0
            && w_men & super::super::squares::WHITE_PROMOTION == 0
            && b_men & super::super::squares::BLACK_PROMOTION == 0
    }
}

impl Class {
    pub const fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Class {
        Class {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }

    pub fn pieces(self) -> usize {
        (self.white_men + self.white_kings + self.black_men + self.black_kings) as usize
    }

    pub fn men(self) -> usize {
        (self.white_men + self.black_men) as usize
    }

    /// The class with the colours swapped.
    pub fn mirror(self) -> Class {
        Class::new(
            self.black_men,
            self.black_kings,
            self.white_men,
            self.white_kings,
        )
    }

    /// Whether each side has a piece (the only classes the tables hold).
    pub fn both_sides(self) -> bool {
        self.white_men + self.white_kings > 0 && self.black_men + self.black_kings > 0
    }

    fn radices(self) -> [u64; 4] {
        [
            BINOM[45][self.white_men as usize],
            BINOM[50][self.white_kings as usize],
            BINOM[45][self.black_men as usize],
            BINOM[50][self.black_kings as usize],
        ]
    }

    /// Number of index slots (overlapping placements included).
    pub fn size(self) -> u64 {
        self.radices().iter().product()
    }

    /// A dense key for per-class lookup tables: counts up to `MAX_PIECES` in base 8.
    pub fn key(self) -> usize {
        ((self.white_men as usize * 8 + self.white_kings as usize) * 8 + self.black_men as usize)
            * 8
            + self.black_kings as usize
    }

    /// The file-name stem of the class: the four counts, for example `1102`.
    pub fn name(self) -> String {
        format!(
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }

    /// Every class with each side having a piece and `pieces` in all.
    pub fn all_with(pieces: usize) -> Vec<Class> {
        let mut out = Vec::new();
        let n = pieces as u8;
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    let c = Class::new(wm, wk, bm, n - wm - wk - bm);
                    if c.both_sides() {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// The index of a position of this class (the caller has checked both).
    #[inline]
    pub fn index(self, p: Pieces) -> u64 {
        let [_, r1, r2, r3] = self.radices();
        let wm = rank(&WHITE_MEN, p.white & !p.kings);
        let wk = rank(&KINGS, p.white & p.kings);
        let bm = rank(&BLACK_MEN, p.black & !p.kings);
        let bk = rank(&KINGS, p.black & p.kings);
        ((wm * r1 + wk) * r2 + bm) * r3 + bk
    }

    /// The placement of an index, or `None` when its groups overlap.
    pub fn unindex(self, mut i: u64) -> Option<Pieces> {
        let [_, r1, r2, r3] = self.radices();
        let bk = unrank(&KINGS, i % r3, self.black_kings as usize);
        i /= r3;
        let bm = unrank(&BLACK_MEN, i % r2, self.black_men as usize);
        i /= r2;
        let wk = unrank(&KINGS, i % r1, self.white_kings as usize);
        i /= r1;
        let wm = unrank(&WHITE_MEN, i, self.white_men as usize);
        let white = wm | wk;
        let black = bm | bk;
        if wm & wk != 0 || bm & bk != 0 || white & black != 0 {
            return None;
        }
        Some(Pieces {
            white,
            black,
            kings: wk | bk,
        })
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // White men and kings against Black's, e.g. "1m2k-0m1k".
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips() {
        for c in [
            Class::new(1, 0, 0, 1),
            Class::new(1, 1, 1, 0),
            Class::new(2, 0, 1, 1),
            Class::new(0, 2, 2, 0),
        ] {
            let mut valid = 0;
            for i in 0..c.size() {
                if let Some(p) = c.unindex(i) {
                    valid += 1;
                    assert!(p.is_well_placed());
                    assert_eq!(p.class(), c);
                    assert_eq!(c.index(p), i);
                    let m = p.mirror();
                    assert_eq!(m.class(), c.mirror());
                    assert!(m.is_well_placed());
                    assert_eq!(m.mirror(), p);
                }
            }
            assert!(valid > 0 && valid < c.size() + 1);
        }
        // One man per side: 45 * 45 slots, 44 * 45 of them without overlap... minus the 40
        // squares both may use: 45 * 45 - 40.
        assert_eq!(
            (0..2025)
                .filter(|&i| Class::new(1, 0, 1, 0).unindex(i).is_some())
                .count(),
            2025 - 40
        );
    }

    #[test]
    fn class_lists() {
        assert_eq!(Class::all_with(2).len(), 4);
        assert_eq!(Class::all_with(3).len(), 12);
        assert!(Class::all_with(3)
            .iter()
            .all(|c| c.pieces() == 3 && c.both_sides()));
        assert_eq!(Class::new(2, 1, 0, 1).mirror(), Class::new(0, 1, 2, 1));
    }
}
