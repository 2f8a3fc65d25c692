//! Zobrist keys for xiangqi positions.
//!
//! Scheme: one random 64-bit key per (piece code, mailbox point) and one for "Black to move",
//! XORed together. The tables are built at compile time from a fixed SplitMix64 sequence, so
//! keys are the same in every run and every build (transposition tables and tests can rely on
//! that). Nothing else decides xiangqi legality: there is no castling or en passant state.

use crate::hash::splitmix;

/// Keys of the 14 piece codes (`side * 7 + kind`) on each mailbox point (off-board entries
/// are never used).
pub(crate) static PIECE_KEYS: [[u64; 256]; 14] = build_piece_keys();

/// XORed in when Black is to move.
pub(crate) const SIDE_KEY: u64 = splitmix(0x5851_F42D_4C95_7F2D).1;

const fn build_piece_keys() -> [[u64; 256]; 14] {
    let mut t = [[0u64; 256]; 14];
    let mut state = 0x7E7A_A2C4_0000_0001u64;
    let mut c = 0;
    while c < 14 {
        let mut s = 0;
        while s < 256 {
            let (next, value) = splitmix(state);
            state = next;
            t[c][s] = value;
            s += 1;
        }
        c += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(SIDE_KEY);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
