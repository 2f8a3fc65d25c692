//! The xiangqi board behind the search's [`Position`] and the protocols' [`Notation`].
//!
//! Scheme: thin forwarding to the modules that hold each concern (generation and legality in
//! `movegen`, rule results in `rules`, exchange evaluation in `see`, text in `fen` and
//! `notation`). Generation is pseudo-legal and [`Position::is_legal`] filters, cheaply for
//! almost every move (see `movegen`).

use crate::game::{GenKind, MoveList, Notation, Outcome, Position, Reason, Side, TextError};

use super::board::{Board, Undo};
use super::fen;
use super::geometry::TO_SQUARE;
use super::moves::Move;
use super::notation;
use super::piece::{Kind, CODE, KIND_OF, NO_CODE, OFF};
use super::rules;

/// Piece codes times points: the size of [`Position::move_index`]'s range.
const MOVE_INDEX_SPACE: usize = 14 * 90;

impl Position for Board {
    type Move = Move;
    type CheckInfo = ();
    type ThreatInfo = ();
    type Undo = Undo;

    const NULL_MOVE_OK: bool = true;
    const HAS_CHECKS: bool = true;
    const MOVE_INDEX_SPACE: usize = MOVE_INDEX_SPACE;
    const QUIESCENCE_CHECKS: bool = true;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.core.side
    }

    #[inline]
    fn key(&self) -> u64 {
        self.cur.key
    }

    #[inline]
    fn generate(&self, kind: GenKind, out: &mut MoveList<Move>) {
        match kind {
            GenKind::All => self.core.generate::<true, true>(out),
            GenKind::Noisy => self.core.generate::<true, false>(out),
            GenKind::Quiet => self.core.generate::<false, true>(out),
        }
    }

    #[inline]
    fn is_pseudo_legal(&self, m: Move) -> bool {
        self.core.is_pseudo_legal(m)
    }

    #[inline]
    fn is_legal(&self, m: Move) -> bool {
        self.core.is_legal(&self.cur.guard, m)
    }

    #[inline]
    fn is_noisy(&self, m: Move) -> bool {
        let c = self.core.cells[m.dst() as usize];
        c != 0 && c != OFF
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.cur.guard.checkers > 0
    }

    #[inline]
    fn gives_check(&self, _info: &(), m: Move) -> bool {
        self.core.gives_check(m)
    }

    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        self.do_move(m);
        Board::new_undo()
    }

    #[inline]
    fn unmake(&mut self, m: Move, _undo: Undo) {
        self.undo_move(m);
    }

    fn make_null(&mut self) -> Undo {
        self.do_null();
        Board::new_undo()
    }

    fn unmake_null(&mut self, _undo: Undo) {
        self.undo_null();
    }

    #[inline]
    fn rule_outcome(&self, ply: usize) -> Option<Outcome> {
        rules::rule_outcome(self, ply)
    }

    fn no_move_outcome(&self) -> Outcome {
        // Xiangqi: having no legal move loses, in check or not.
        if self.in_check() {
            Outcome::loss(Reason::Checkmate)
        } else {
            Outcome::loss(Reason::Stalemate)
        }
    }

    fn has_legal_move(&self) -> bool {
        self.core.has_legal_move(&self.cur.guard)
    }

    /// Piece code (side and kind, 0..14) times 90 plus the target point.
    #[inline]
    fn move_index(&self, m: Move) -> usize {
        let code = CODE[self.core.cells[m.src() as usize] as usize];
        let to = TO_SQUARE[m.dst() as usize];
        if code == NO_CODE || to as usize >= 90 {
            return 0;
        }
        code as usize * 90 + to as usize
    }

    /// Victim value less a 64th of the attacker's (MVV/LVA: the victim decides, the attacker
    /// breaks ties, and even the general's captures stay positive); 0 for a quiet move.
    fn noisy_value(&self, m: Move) -> i32 {
        let victim = self.core.cells[m.dst() as usize];
        let attacker = self.core.cells[m.src() as usize];
        if CODE[victim as usize] == NO_CODE || CODE[attacker as usize] == NO_CODE {
            return 0;
        }
        KIND_OF[victim as usize].value() - KIND_OF[attacker as usize].value() / 64
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        super::see::see_ge(&self.core, m, threshold)
    }

    #[inline]
    fn pack(m: Move) -> u32 {
        m.bits() as u32
    }

    fn unpack(&self, bits: u32) -> Option<Move> {
        let bits = u16::try_from(bits).ok()?;
        let m = Move::from_bits(bits)?;
        self.core.is_pseudo_legal(m).then_some(m)
    }
}

impl Notation for Board {
    fn start() -> Board {
        fen::parse(fen::START_FEN).expect("the start position is valid")
    }

    fn from_text(text: &str) -> Result<Board, TextError> {
        fen::parse(text)
    }

    fn to_text(&self) -> String {
        fen::write(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, TextError> {
        notation::parse_move(self, text)
    }

    fn move_text(&self, m: Move) -> String {
        notation::coordinates(m, self.style)
    }
}

impl Board {
    /// The kind of the piece a move moves, if a piece stands on its origin.
    pub fn moving_kind(&self, m: Move) -> Option<Kind> {
        let id = self.core.cells[m.src() as usize];
        (CODE[id as usize] != NO_CODE).then(|| KIND_OF[id as usize])
    }
}
