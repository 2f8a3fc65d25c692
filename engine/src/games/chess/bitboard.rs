//! Bitboards: a set of squares as a `u64`, bit `s` for square `s` (a1 = bit 0, h8 = bit 63).
//!
//! Scheme: plain `u64` with free functions and constants rather than a wrapper type, so every
//! set operation is the native integer operation and const tables can be built with them.

use super::types::{Color, Square};

/// A set of squares.
pub type Bitboard = u64;

pub const EMPTY: Bitboard = 0;
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;
pub const RANK_1: Bitboard = 0xFF;
pub const RANK_2: Bitboard = RANK_1 << 8;
pub const RANK_3: Bitboard = RANK_1 << 16;
pub const RANK_6: Bitboard = RANK_1 << 40;
pub const RANK_7: Bitboard = RANK_1 << 48;
pub const RANK_8: Bitboard = RANK_1 << 56;
/// The dark squares (a1 is dark).
pub const DARK_SQUARES: Bitboard = 0xAA55_AA55_AA55_AA55;

#[inline(always)]
pub const fn file_bb(file: u8) -> Bitboard {
    FILE_A << (file & 7)
}

#[inline(always)]
pub const fn rank_bb(rank: u8) -> Bitboard {
    RANK_1 << ((rank & 7) * 8)
}

/// `rank` (0..8) as `color` counts it: the first rank is White's 0 and Black's 7.
#[inline(always)]
pub const fn relative_rank_bb(color: Color, rank: u8) -> Bitboard {
    match color {
        Color::White => rank_bb(rank),
        Color::Black => rank_bb(7 - (rank & 7)),
    }
}

/// The lowest square of a non-empty set.
#[inline(always)]
pub const fn lsb(b: Bitboard) -> Square {
    Square::new(b.trailing_zeros() as u8)
}

/// Whether the set has two or more squares.
#[inline(always)]
pub const fn more_than_one(b: Bitboard) -> bool {
    b & b.wrapping_sub(1) != 0
}

/// Iterates the squares of a set, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = lsb(self.0);
            self.0 &= self.0 - 1;
            Some(s)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// The squares of `b`, lowest first.
#[inline(always)]
pub const fn squares(b: Bitboard) -> Squares {
    Squares(b)
}

/// Shifts every square by `delta` (positive: towards h8). Callers mask off file wrap-around.
#[inline(always)]
pub const fn shift(b: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        b << delta
    } else {
        b >> -delta
    }
}

/// Text diagram for debugging: rank 8 first, `x` for members.
pub fn diagram(b: Bitboard) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        for file in 0..8 {
            s.push(if b & Square::from_file_rank(file, rank).bb() != 0 {
                'x'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_helpers() {
        let b = (1u64 << 3) | (1 << 40) | (1 << 63);
        let v: Vec<usize> = squares(b).map(|s| s.index()).collect();
        assert_eq!(v, vec![3, 40, 63]);
        assert!(more_than_one(b) && !more_than_one(1 << 9) && !more_than_one(0));
        assert_eq!(relative_rank_bb(Color::Black, 1), RANK_7);
        assert_eq!(shift(RANK_2, 8), RANK_3);
        assert_eq!(shift(RANK_7, -8), RANK_6);
        assert_eq!(DARK_SQUARES & 1, 1);
        assert!(diagram(FILE_H).starts_with(".......x"));
    }
}
