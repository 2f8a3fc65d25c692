//! Checking a move that did not come from this position's generator: a transposition-table
//! move, a killer, a countermove, or a 16-bit value read back from the table.
//!
//! Scheme: since the generator produces only legal moves, "could `generate` have produced it"
//! means "is it legal here". The test decodes the move, rejects impossible flags, checks that
//! the mover is ours and the move has the shape its piece allows (targets from the attack
//! tables, pawn pushes through empty squares, promotions exactly on the last rank), then applies
//! the generator's own legality rules: king targets unattacked with the king lifted, single
//! check answered by capture or block, pinned pieces on their line, en passant and castling by
//! the same functions the generator uses. Every path is total: no value can panic.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::{lsb, more_than_one, relative_rank_bb};
use super::board::Board;
use super::types::{code_color, code_kind, Move, PieceKind, Square, NO_PIECE};

impl Board {
    /// Whether `m` is a legal move here (equivalently: one the generator would produce).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let from = m.from();
        let to = m.to();
        let code = self.mailbox[from.index()];
        let us = self.side;
        if code == NO_PIECE || code_color(code) != us.index() || from == to {
            return false;
        }
        let kind = code_kind(code);
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let ksq = self.king_square(us);
        match m.flag() {
            Move::CASTLE => {
                if kind != PieceKind::King.index() || self.checkers != 0 {
                    return false;
                }
                let index = us.index() * 2 + usize::from(to.file() < from.file());
                self.castling & (1 << index) != 0
                    && self.setup.rook[index] == to
                    && self.setup.king[us.index()] == from
                    && self.castle_is_legal(index)
            }
            Move::EN_PASSANT => {
                kind == PieceKind::Pawn.index()
                    && self.ep == Some(to)
                    && pawn_attacks(us, from) & to.bb() != 0
                    && self.en_passant_is_legal(from, to)
            }
            Move::NORMAL | 4..=7 => {
                if own & to.bb() != 0 {
                    return false;
                }
                if kind == PieceKind::Pawn.index() {
                    let last = relative_rank_bb(us, 7) & to.bb() != 0;
                    if last != m.is_promotion() || !self.pawn_shape_ok(from, to) {
                        return false;
                    }
                } else {
                    if m.is_promotion() {
                        return false;
                    }
                    let reach = match kind {
                        1 => knight_attacks(from),
                        2 => bishop_attacks(from, occ),
                        3 => rook_attacks(from, occ),
                        4 => bishop_attacks(from, occ) | rook_attacks(from, occ),
                        _ => king_attacks(from),
                    };
                    if reach & to.bb() == 0 {
                        return false;
                    }
                    if kind == PieceKind::King.index() {
                        return !self.is_attacked_by(to, occ ^ from.bb(), !us);
                    }
                }
                if self.checkers != 0 {
                    if more_than_one(self.checkers) {
                        return false;
                    }
                    let checker = lsb(self.checkers);
                    if (between(ksq, checker) | checker.bb()) & to.bb() == 0 {
                        return false;
                    }
                }
                self.pinned & from.bb() == 0 || line(ksq, from) & to.bb() != 0
            }
            _ => false,
        }
    }

    /// A pawn's push, double push or capture shape from `from` to `to` (not en passant).
    fn pawn_shape_ok(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let occ = self.occupied();
        let up = us.pawn_push() as i32;
        let diff = to.index() as i32 - from.index() as i32;
        if diff == up {
            occ & to.bb() == 0
        } else if diff == 2 * up {
            let mid = Square::new((from.index() as i32 + up) as u8);
            relative_rank_bb(us, 1) & from.bb() != 0 && occ & (mid.bb() | to.bb()) == 0
        } else {
            pawn_attacks(us, from) & to.bb() & self.by_color[(!us).index()] != 0
        }
    }
}
