//! Game results by rule: checkmate and stalemate, threefold repetition, the 50-move rule and
//! dead positions (the FIDE Laws of Chess, articles 5 and 9).
//!
//! Scheme: `rule_outcome(ply)` answers what can be told without generating moves (except the
//! rare case of a 100-ply clock in check, where mate takes precedence over the 50-move draw):
//! - repetition scans the key history back two plies at a time, no further than the last
//!   capture or pawn move (the halfmove clock) or null move. Inside the search a position that
//!   recurs once is already scored a draw when its earlier occurrence lies after the root
//!   (fewer than `ply` plies back): the side that could avoid it will. An occurrence at or
//!   before the root is game history and needs the full threefold count.
//! - 50 moves: a halfmove clock of 100 or more is a draw unless the side to move is mated.
//! - dead positions: no pawns, rooks or queens, and either at most one knight or bishop on the
//!   whole board, or only bishops, all on squares of one colour. (K v K, K+B v K, K+N v K and
//!   K+B v K+B with same-coloured bishops, and their obvious generalisation.)

use super::bitboard::DARK_SQUARES;
use super::board::Board;
use super::types::PieceKind;
use crate::game::{Outcome, Reason};

impl Board {
    /// Rule draws that need no move generation (see the module doc); `ply` = plies since the
    /// search root.
    #[inline]
    pub fn rule_draw(&self, ply: usize) -> Option<Reason> {
        if self.halfmove >= 100 && (self.checkers == 0 || self.count_legal_moves() > 0) {
            return Some(Reason::MoveLimit);
        }
        if self.is_repetition(ply) {
            return Some(Reason::Repetition);
        }
        if self.is_dead_position() {
            return Some(Reason::DeadPosition);
        }
        None
    }

    /// Whether the current position is a repetition draw: the third occurrence, or the second
    /// when the earlier one is less than `ply` plies back (inside the search tree).
    pub fn is_repetition(&self, ply: usize) -> bool {
        let window = self.halfmove.min(self.plies_from_null) as usize;
        let n = self.history.len();
        let window = window.min(n);
        let mut seen = 0;
        let mut back = 4;
        while back <= window {
            if self.history[n - back] == self.key {
                if back < ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Whether neither side can ever checkmate, whatever is played.
    pub fn is_dead_position(&self) -> bool {
        let k = &self.by_kind;
        if k[PieceKind::Pawn.index()] | k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]
            != 0
        {
            return false;
        }
        let knights = k[PieceKind::Knight.index()];
        let bishops = k[PieceKind::Bishop.index()];
        let minors = (knights | bishops).count_ones();
        if minors <= 1 {
            return true;
        }
        knights == 0 && (bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0)
    }

    /// The result when the side to move has no legal move.
    pub fn no_move_result(&self) -> Outcome {
        if self.checkers != 0 {
            Outcome::loss(Reason::Checkmate)
        } else {
            Outcome::draw(Reason::Stalemate)
        }
    }
}
