//! Chess perft: the generic `crate::perft` with the last ply counted by popcount.
//!
//! Scheme: at depth 1 the generator runs with a counting sink, which adds the size of each
//! piece's target set instead of listing moves, so the leaves are never made, listed or even
//! enumerated. Counts are identical to the generic perft (tests check both).
//!
//! The counting is popcount-bound, and a baseline x86-64 build has no POPCNT instruction (Rust
//! then emits a ~12-instruction bit-twiddling sequence). So on x86-64 the recursion is compiled a
//! second time with POPCNT enabled and chosen at run time when the CPU has it. Measured on the
//! development machine: 178 M -> 133 M instructions for perft 5 (callgrind), perft 6 from the
//! start 0.62-0.72 s -> 0.42-0.48 s. That call is `unsafe`, see below.

use super::board::Board;
use super::movegen::CountSink;
use crate::game::{GenKind, MoveList};

/// One perft recursion, instantiated per CPU feature set; `$recurse` names the instance.
macro_rules! perft_body {
    ($board:ident, $depth:ident, $recurse:ident) => {
        match $depth {
            0 => 1,
            1 => {
                let mut sink = CountSink(0);
                $board.generate_into(GenKind::All, &mut sink);
                sink.0
            }
            _ => {
                let mut moves = MoveList::new();
                $board.legal_moves(GenKind::All, &mut moves);
                let mut nodes = 0;
                for &m in moves.iter() {
                    let undo = $board.make(m);
                    nodes += $board.$recurse($depth - 1);
                    $board.unmake(m, undo);
                }
                nodes
            }
        }
    };
}

impl Board {
    /// The number of legal move sequences of length `depth`.
    pub fn perft(&mut self, depth: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: `perft_popcnt` only differs from `perft_plain` in that it may execute
                // the POPCNT instruction, which the CPU was just found to support; that is the
                // whole precondition of calling a `#[target_feature(enable = "popcnt")]` fn.
                return unsafe { self.perft_popcnt(depth) };
            }
        }
        self.perft_plain(depth)
    }

    fn perft_plain(&mut self, depth: u32) -> u64 {
        perft_body!(self, depth, perft_plain)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn perft_popcnt(&mut self, depth: u32) -> u64 {
        perft_body!(self, depth, perft_popcnt)
    }

    /// Perft split by root move: (UCI text, count) per legal move, in generation order.
    pub fn divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        let mut moves = MoveList::new();
        self.legal_moves(GenKind::All, &mut moves);
        moves
            .iter()
            .map(|&m| {
                let text = self.uci(m);
                let undo = self.make(m);
                let n = self.perft(depth.saturating_sub(1));
                self.unmake(m, undo);
                (text, n)
            })
            .collect()
    }

    /// Perft without the POPCNT instance, for tests of both code paths.
    #[doc(hidden)]
    pub fn perft_portable(&mut self, depth: u32) -> u64 {
        self.perft_plain(depth)
    }
}
