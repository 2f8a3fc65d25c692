//! Points of the xiangqi board and the geometry tables move generation reads.
//!
//! Scheme: two numberings. The public [`Square`] numbers the 90 points `rank * 9 + file`
//! (file 0 = `a` on Red's left, rank 0 = Red's back rank), which is what evaluation tables
//! want. Inside the rules every point is a `u8` index into a 16 x 16 padded mailbox: point
//! (file, rank) lives at `(rank + 3) * 16 + file + 3`. Three padding files and at least three
//! padding ranks on every side mean any step a piece can take (at most two ranks or two files)
//! from a real point lands inside the array, on a sentinel cell, so generators never test
//! bounds; and indexing a `[_; 256]` array by a `u8` needs no bounds check at all. Rank and
//! file of a mailbox point are a shift and a mask.

use crate::game::Side;

/// A point of the board, numbered `rank * 9 + file` (0..90). File 0 is `a`, Red's left;
/// rank 0 is Red's back rank, rank 9 Black's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of points.
    pub const COUNT: usize = 90;

    /// The point on `file` (0..9, `a`..`i`) and `rank` (0..10, from Red's side).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The point with index `index` (0..90).
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 90 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (`a`) ..= 8 (`i`), left to right as Red sees the board.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// 0 ..= 9, counted from Red's back rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The same point seen from Black's side (ranks and files mirrored), so one table written
    /// for Red serves Black: `relative(side)` is the identity for Red.
    #[inline]
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// The point as seen by `side`: unchanged for Red, [`flip`](Square::flip)ped for Black.
    #[inline]
    pub const fn relative(self, side: Side) -> Square {
        match side {
            Side::First => self,
            Side::Second => self.flip(),
        }
    }

    /// Whether the point is on `side`'s own half of the river.
    #[inline]
    pub const fn on_own_half(self, side: Side) -> bool {
        match side {
            Side::First => self.rank() <= 4,
            Side::Second => self.rank() >= 5,
        }
    }

    /// Every point, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    #[inline]
    pub(crate) const fn mailbox(self) -> u8 {
        TO_MAILBOX[self.0 as usize]
    }

    /// The point of a mailbox index that is on the board.
    #[inline]
    pub(crate) fn from_mailbox(sq: u8) -> Square {
        debug_assert!(TO_SQUARE[sq as usize] != NO_SQUARE);
        Square(TO_SQUARE[sq as usize])
    }
}

/// A point as a mailbox index (see the module doc).
pub(crate) type Sq = u8;

/// Steps in the mailbox, as wrapping `u8` offsets: `N` is toward Black (rank + 1).
pub(crate) const N: u8 = 16;
pub(crate) const S: u8 = 16u8.wrapping_neg();
pub(crate) const E: u8 = 1;
pub(crate) const W: u8 = 1u8.wrapping_neg();
pub(crate) const DIAG: [u8; 4] = [17, 15, 15u8.wrapping_neg(), 17u8.wrapping_neg()];

/// `(target, leg)` offsets of the horse's eight moves: one orthogonal step (the leg, which
/// must be empty) then one diagonal step outward.
pub(crate) const HORSE_STEPS: [(u8, u8); 8] = [
    (33, N),
    (31, N),
    (33u8.wrapping_neg(), S),
    (31u8.wrapping_neg(), S),
    (18, E),
    (14u8.wrapping_neg(), E),
    (14, W),
    (18u8.wrapping_neg(), W),
];

/// `(horse, leg)` offsets, seen from the point a horse attacks: a horse on `target + horse`
/// reaches `target` when `target + leg` (a diagonal neighbour of the target) is empty.
pub(crate) const HORSE_ATTACKS: [(u8, u8); 8] = [
    (33, 17),
    (31, 15),
    (33u8.wrapping_neg(), 17u8.wrapping_neg()),
    (31u8.wrapping_neg(), 15u8.wrapping_neg()),
    (18, 17),
    (14, 15),
    (14u8.wrapping_neg(), 15u8.wrapping_neg()),
    (18u8.wrapping_neg(), 17u8.wrapping_neg()),
];

/// `(target, eye)` offsets of the elephant's four moves.
pub(crate) const ELEPHANT_STEPS: [(u8, u8); 4] = [
    (34, 17),
    (30, 15),
    (30u8.wrapping_neg(), 15u8.wrapping_neg()),
    (34u8.wrapping_neg(), 17u8.wrapping_neg()),
];

/// The mailbox index of (file, rank); both must be in range.
#[inline]
pub(crate) const fn mb(file: u8, rank: u8) -> Sq {
    (rank + 3) * 16 + file + 3
}

/// File (0..9) of an on-board mailbox index.
#[inline]
pub(crate) const fn file_of(sq: Sq) -> u8 {
    (sq & 15) - 3
}

/// Rank (0..10) of an on-board mailbox index.
#[cfg(test)]
pub(crate) const fn rank_of(sq: Sq) -> u8 {
    (sq >> 4) - 3
}

/// A side's bit in the [`PALACE`] and [`HALF`] tables.
#[inline]
pub(crate) const fn side_bit(side: Side) -> u8 {
    1 << side as u8
}

/// "Forward" for a side's soldiers.
#[inline]
pub(crate) const fn forward(side: Side) -> u8 {
    match side {
        Side::First => N,
        Side::Second => S,
    }
}

const NO_SQUARE: u8 = 255;

const fn build_to_mailbox() -> [u8; 90] {
    let mut t = [0u8; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = mb((i % 9) as u8, (i / 9) as u8);
        i += 1;
    }
    t
}

const fn build_to_square() -> [u8; 256] {
    let mut t = [NO_SQUARE; 256];
    let mut i = 0;
    while i < 90 {
        t[mb((i % 9) as u8, (i / 9) as u8) as usize] = i as u8;
        i += 1;
    }
    t
}

const fn build_palace() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r <= 2 {
            t[mb(f, r) as usize] |= 1;
            t[mb(f, 9 - r) as usize] |= 2;
            r += 1;
        }
        f += 1;
    }
    t
}

const fn build_half() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 10 {
            t[mb(f, r) as usize] = if r <= 4 { 1 } else { 2 };
            r += 1;
        }
        f += 1;
    }
    t
}

const fn build_in_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 90 {
        t[mb((i % 9) as u8, (i / 9) as u8) as usize] = true;
        i += 1;
    }
    t
}

pub(crate) static TO_MAILBOX: [u8; 90] = build_to_mailbox();
pub(crate) static TO_SQUARE: [u8; 256] = build_to_square();
/// Bit 1: Red's palace; bit 2: Black's.
pub(crate) static PALACE: [u8; 256] = build_palace();
/// Bit 1: Red's half (ranks 0-4); bit 2: Black's half (ranks 5-9); 0 off the board.
pub(crate) static HALF: [u8; 256] = build_half();
/// Whether a mailbox index is a point of the board.
pub(crate) static IN_BOARD: [bool; 256] = build_in_board();

/// Name of a point in coordinates: file letter and rank, ranks counted from `rank_base`
/// (0 for UCCI, 1 for Fairy-Stockfish's UCI).
pub(crate) fn point_name(sq: Square, rank_base: u8) -> String {
    format!("{}{}", (b'a' + sq.file()) as char, sq.rank() + rank_base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numberings_agree() {
        for sq in Square::all() {
            let m = sq.mailbox();
            assert!(IN_BOARD[m as usize]);
            assert_eq!(Square::from_mailbox(m), sq);
            assert_eq!(file_of(m), sq.file());
            assert_eq!(rank_of(m), sq.rank());
        }
        assert_eq!(IN_BOARD.iter().filter(|&&b| b).count(), 90);
    }

    #[test]
    fn every_step_from_the_board_stays_in_the_array() {
        for sq in Square::all() {
            let m = sq.mailbox() as i32;
            for d in [
                -34, -33, -32, -31, -30, -18, -17, -16, -15, -14, -2, -1, 1, 2, 14, 15, 16, 17, 18,
                30, 31, 32, 33, 34,
            ] {
                assert!((0..256).contains(&(m + d)));
            }
        }
    }

    #[test]
    fn palaces_and_halves() {
        assert_eq!(PALACE.iter().filter(|&&b| b == 1).count(), 9);
        assert_eq!(PALACE.iter().filter(|&&b| b == 2).count(), 9);
        assert_eq!(PALACE[mb(4, 0) as usize], 1);
        assert_eq!(PALACE[mb(4, 9) as usize], 2);
        assert_eq!(HALF[mb(0, 4) as usize], 1);
        assert_eq!(HALF[mb(0, 5) as usize], 2);
        assert!(Square::new(0, 4).unwrap().on_own_half(Side::First));
        assert!(!Square::new(0, 5).unwrap().on_own_half(Side::First));
        assert_eq!(
            Square::new(0, 0).unwrap().flip(),
            Square::new(8, 9).unwrap()
        );
    }

    #[test]
    fn horse_tables_are_inverse() {
        // A horse on h reaching t with leg l (move table) is found from t (attack table).
        for (step, leg) in HORSE_STEPS {
            let back = step.wrapping_neg();
            let found = HORSE_ATTACKS.iter().find(|&&(h, _)| h == back);
            let (_, attack_leg) = found.expect("every horse step has an attack entry");
            // From the target, the leg is (horse + leg_from_horse) - target.
            assert_eq!(back.wrapping_add(leg), *attack_leg);
        }
    }
}
