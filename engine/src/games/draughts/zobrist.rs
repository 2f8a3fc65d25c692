//! Zobrist keys for draughts positions.
//!
//! Scheme: one random 64-bit number per (piece kind, bit of the layout) and one for Black to
//! move, generated at compile time by splitmix64 from a fixed seed, so keys are the same in
//! every build and thread. The key covers the pieces and the side to move; the rule counters
//! (25-move and lone-king counts) are left out on purpose, as chess leaves out its 50-move
//! counter, so that repeated positions have equal keys.

use super::squares::BITS;
use crate::hash::splitmix;

/// Piece kinds indexing [`PIECES`].
pub const WHITE_MAN: usize = 0;
pub const BLACK_MAN: usize = 1;
pub const WHITE_KING: usize = 2;
pub const BLACK_KING: usize = 3;

/// `PIECES[kind][bit]`.
pub static PIECES: [[u64; BITS]; 4] = {
    let mut t = [[0u64; BITS]; 4];
    let mut state = 0x7E7A_A2C4_D2A7_5EEDu64;
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < BITS {
            let (s, v) = splitmix(state);
            state = s;
            t[k][b] = v;
            b += 1;
        }
        k += 1;
    }
    t
};

/// Toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x5151_DA5A_0000_0001).1;
