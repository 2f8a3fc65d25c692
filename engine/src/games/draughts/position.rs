//! `Position` and `Notation` for the draughts board: the glue between the rules and the search.
//!
//! Scheme: the generator produces legal moves only (so `is_legal` is always true); captures are
//! `Noisy`, and because capturing is compulsory `Quiet` is empty whenever a capture exists and
//! `All` is the captures if any, else the quiet moves. A move's table packing is exact for quiet
//! moves and a hash for captures (see `moves`); `unpack` and `is_pseudo_legal` check against the
//! position and, for captures, against the generated list, so neither can accept a move that is
//! not legal here or panic on any value.

use super::board::{flip_side, Board, Undo};
use super::movegen::{king_ray_moves, promotion_row};
use super::moves::Move;
use super::squares::{shift, square_of_bit, DIRS, VALID};
use crate::game::{GenKind, MoveList, Notation, Outcome, Position, Reason, Side, TextError};

/// Value of a captured man for `noisy_value`, in the centipawn-like units of the search.
pub const MAN_VALUE: i32 = 100;
/// Value of a captured king for `noisy_value`.
pub const KING_VALUE: i32 = 300;

impl Position for Board {
    type Move = Move;
    type CheckInfo = ();
    type ThreatInfo = ();
    type Undo = Undo;

    const NULL_MOVE_OK: bool = false;
    const HAS_CHECKS: bool = false;
    /// Off: at 10,000 nodes a move it lost 61-160-179 (-87.8 +/- 25.2 Elo) in 400 games.
    const MOVE_FEEDBACK: bool = false;
    /// Start square times 50 plus end square.
    const MOVE_INDEX_SPACE: usize = 2500;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.st.side
    }

    #[inline]
    fn key(&self) -> u64 {
        self.st.key
    }

    #[inline]
    fn generate(&self, kind: GenKind, out: &mut MoveList<Move>) {
        match kind {
            GenKind::All => {
                let start = out.len();
                self.gen_distinct_captures(out);
                if out.len() == start {
                    self.gen_quiet(out);
                }
            }
            GenKind::Noisy => self.gen_distinct_captures(out),
            GenKind::Quiet => {
                if !self.has_capture() {
                    self.gen_quiet(out);
                }
            }
        }
    }

    fn is_pseudo_legal(&self, m: Move) -> bool {
        if !m.is_well_formed() {
            return false;
        }
        let us = self.st.side.index();
        let own = self.st.pieces[us];
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        if own & from == 0 {
            return false;
        }
        let occ = own | self.st.pieces[1 - us];
        let is_king = self.st.kings & from != 0;
        if m.captured == 0 {
            if occ & to != 0 || m.promotes != (!is_king && to & promotion_row(self.st.side) != 0) {
                return false;
            }
            let reachable = if is_king {
                (0..4).any(|d| king_ray_moves(m.from as u32, d, occ) & to != 0)
            } else {
                let fwd = match self.st.side {
                    Side::First => [DIRS[0], DIRS[1]],
                    Side::Second => [DIRS[2], DIRS[3]],
                };
                fwd.iter().any(|&d| shift(from, d) == to)
            };
            reachable && !self.has_capture()
        } else {
            if m.captured & !self.st.pieces[1 - us] != 0 || (occ & !from) & to != 0 {
                return false;
            }
            let mut moves = MoveList::new();
            self.gen_distinct_captures(&mut moves);
            moves.contains(&m)
        }
    }

    #[inline]
    fn is_legal(&self, _m: Move) -> bool {
        true
    }

    #[inline]
    fn is_noisy(&self, m: Move) -> bool {
        m.captured != 0
    }

    /// A capture exists, so one must be played.
    #[inline]
    fn noisy_forced(&self) -> bool {
        self.has_capture()
    }

    /// No capture for the mover, but the opponent has one waiting.
    #[inline]
    fn quiet_threat(&self) -> bool {
        !self.has_capture() && self.has_capture_for(self.st.side.flip())
    }

    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        self.do_move(m)
    }

    #[inline]
    fn unmake(&mut self, _m: Move, undo: Undo) {
        self.undo_move(undo)
    }

    fn make_null(&mut self) -> Undo {
        let undo = self.st;
        self.history.push(self.st.key);
        flip_side(&mut self.st);
        undo
    }

    fn unmake_null(&mut self, undo: Undo) {
        self.undo_move(undo)
    }

    #[inline]
    fn rule_outcome(&self, ply: usize) -> Option<Outcome> {
        self.rule_result(ply)
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::loss(Reason::NoLegalMove)
    }

    fn has_legal_move(&self) -> bool {
        if self.has_capture() {
            return true;
        }
        let mut moves = MoveList::new();
        self.gen_quiet(&mut moves);
        !moves.is_empty()
    }

    #[inline]
    fn move_index(&self, m: Move) -> usize {
        square_index(m.from) * 50 + square_index(m.to)
    }

    fn noisy_value(&self, m: Move) -> i32 {
        let caps = m.captured & VALID;
        let kings = (caps & self.st.kings).count_ones() as i32;
        let men = caps.count_ones() as i32 - kings;
        men * MAN_VALUE + kings * KING_VALUE
    }

    fn pack(m: Move) -> u32 {
        m.pack()
    }

    fn unpack(&self, bits: u32) -> Option<Move> {
        let (from, to, capture) = Move::unpack_squares(bits)?;
        if capture {
            let own = self.st.pieces[self.st.side.index()];
            if own & (1u64 << from) == 0 {
                return None;
            }
            let mut moves = MoveList::new();
            self.gen_distinct_captures(&mut moves);
            moves.into_iter().find(|m| m.pack() == bits)
        } else {
            let is_king = self.st.kings & (1u64 << from) != 0;
            let promotes = !is_king && (1u64 << to) & promotion_row(self.st.side) != 0;
            let m = Move::new(from, to, 0, promotes);
            self.is_pseudo_legal(m).then_some(m)
        }
    }
}

/// 0-based square index of a move field, clamped so a malformed value cannot index out of range.
#[inline]
fn square_index(bit: u8) -> usize {
    if (bit as usize) < 64 && VALID & (1u64 << bit) != 0 {
        square_of_bit(bit as u32) as usize - 1
    } else {
        49
    }
}

impl Notation for Board {
    fn start() -> Board {
        Board::start_position()
    }

    /// A FEN or a Hub `pos=` string.
    fn from_text(text: &str) -> Result<Board, TextError> {
        Board::parse(text)
    }

    /// The FEN.
    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn parse_move(&self, text: &str) -> Result<Move, TextError> {
        self.parse_move_text(text)
    }

    fn move_text(&self, m: Move) -> String {
        self.short_move_text(m)
    }
}
