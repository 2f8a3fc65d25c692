//! Chess perft: the generic `crate::perft` with the last ply counted by popcount.
//!
//! Scheme: at depth 1 the generator runs with a counting sink, which adds the size of each
//! piece's target set instead of listing moves, so the leaves are never made, listed or even
//! enumerated. Counts are identical to the generic perft (tests check both).

use super::board::Board;
use crate::game::{GenKind, MoveList};

impl Board {
    /// The number of legal move sequences of length `depth`.
    pub fn perft(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut moves = MoveList::new();
                self.legal_moves(GenKind::All, &mut moves);
                let mut nodes = 0;
                for &m in moves.iter() {
                    let undo = self.make(m);
                    nodes += self.perft(depth - 1);
                    self.unmake(m, undo);
                }
                nodes
            }
        }
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
}
