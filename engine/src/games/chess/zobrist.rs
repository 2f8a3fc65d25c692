//! Zobrist keys: one random 64-bit number per (piece, square), per castling-rights set, per
//! en-passant file, and for the side to move; a position's key is the XOR of those that apply.
//!
//! Scheme: the numbers come from a fixed-seed SplitMix64 stream evaluated at compile time, so
//! keys are identical in every build and across runs (opening books and test expectations can
//! rely on them). Castling keys are indexed by the whole 4-bit rights set, so a rights change is
//! one XOR pair. The en-passant file enters the key only when an en-passant capture is legal
//! (the board stores the square only then), so transpositions that differ in a useless
//! en-passant square share a key, as FIDE's repetition rule wants.

use crate::hash::splitmix;

pub(crate) struct Keys {
    /// Indexed by mailbox piece code (`kind | color << 3`, so 14 rows used) and square.
    pub piece: [[u64; 64]; 16],
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
    pub side: u64,
}

const fn keys() -> Keys {
    let mut k = Keys {
        piece: [[0; 64]; 16],
        castling: [0; 16],
        ep_file: [0; 8],
        side: 0,
    };
    let mut state = 0x5445_5452_4152_4348; // "TETRARCH"
    let mut code = 0;
    while code < 16 {
        // Only real piece codes get keys; the rest stay zero.
        if (code & 7) < 6 && code < 14 {
            let mut sq = 0;
            while sq < 64 {
                let (s, v) = splitmix(state);
                state = s;
                k.piece[code][sq] = v;
                sq += 1;
            }
        }
        code += 1;
    }
    // Each right has its own number and a set's key is the XOR of its members, so the key of
    // "no rights" is zero and the formula is the same as per-right hashing.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (s, v) = splitmix(state);
        state = s;
        single[i] = v;
        i += 1;
    }
    let mut set = 0;
    while set < 16 {
        let mut bit = 0;
        while bit < 4 {
            if set & (1 << bit) != 0 {
                k.castling[set] ^= single[bit];
            }
            bit += 1;
        }
        set += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, v) = splitmix(state);
        state = s;
        k.ep_file[f] = v;
        f += 1;
    }
    let (_, v) = splitmix(state);
    k.side = v;
    k
}

pub(crate) static KEYS: Keys = keys();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS
            .piece
            .iter()
            .enumerate()
            .filter(|(c, _)| (c & 7) < 6 && *c < 14)
            .flat_map(|(_, row)| row.iter().copied())
            .collect();
        all.extend(&KEYS.castling[1..]);
        all.extend(&KEYS.ep_file);
        all.push(KEYS.side);
        assert_eq!(all.len(), 12 * 64 + 15 + 8 + 1);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(KEYS.castling[0], 0);
    }
}
