//! `Board` behind the seam: the `Position` and `Notation` traits of `crate::game`.
//!
//! Scheme: thin delegation to the inherent methods of the other files, so the chess code can be
//! used directly (by the evaluation, tests, perft) and through the traits (by the search and
//! the protocols) with the same behaviour. The generator is legal, so `is_legal` is always
//! true and `is_pseudo_legal` is a full legality test. Moves pack into the low 16 bits.

use super::board::{Board, Threats, Undo, PIECE_VALUES};
use super::fen::{parse_fen, write_fen, START_FEN};
use super::makemove::CheckInfo;
use super::movegen::ListSink;
use super::types::{code_kind, Color, Move, PieceKind};
use crate::game::{
    GenKind, MoveList, Notation, Outcome, Position, Side, TextError, STRUCTURE_KEYS,
};

impl Position for Board {
    type Move = Move;
    type Undo = Undo;
    type CheckInfo = CheckInfo;
    /// Every square the side not to move attacks.
    type ThreatInfo = Threats;

    const NULL_MOVE_OK: bool = true;
    const HAS_CHECKS: bool = true;
    /// Mailbox piece code (colour * 8 + kind, below 16) times 64 target squares.
    const MOVE_INDEX_SPACE: usize = 16 * 64;
    /// Whether the opponent attacks the move's origin, and whether it attacks its target.
    const THREAT_BUCKETS: usize = 4;
    /// A move index times 8 kinds captured (see `noisy_index`).
    const NOISY_INDEX_SPACE: usize = 16 * 64 * 8;

    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.side.into()
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    /// The pawns, the structure that most decides how far the static evaluation errs, and
    /// the placement of each side's pieces (king included), which decides most of the rest.
    #[inline(always)]
    fn structure_keys(&self) -> [Option<u64>; STRUCTURE_KEYS] {
        [
            Some(self.pawn_key),
            Some(self.piece_key(Color::White)),
            Some(self.piece_key(Color::Black)),
        ]
    }

    #[inline]
    fn generate(&self, kind: GenKind, out: &mut MoveList<Move>) {
        self.generate_into(kind, &mut ListSink(out));
    }

    #[inline]
    fn is_pseudo_legal(&self, m: Move) -> bool {
        Board::is_pseudo_legal(self, m)
    }

    /// Always true: every generated move is legal already.
    #[inline(always)]
    fn is_legal(&self, _m: Move) -> bool {
        true
    }

    #[inline]
    fn is_noisy(&self, m: Move) -> bool {
        m.is_promotion()
            || m.is_en_passant()
            || (!m.is_castle() && self.occupied() & m.to().bb() != 0)
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers != 0
    }

    #[inline]
    fn check_info(&self) -> CheckInfo {
        Board::check_info(self)
    }

    #[inline]
    fn gives_check(&self, info: &CheckInfo, m: Move) -> bool {
        Board::gives_check_with(self, info, m)
    }

    #[inline]
    fn threat_info(&self) -> Threats {
        self.threats_by(!self.side)
    }

    /// 2 if the origin is attacked (the move may flee a threat), plus 1 if the target is (it
    /// may walk into one). Castling, as the king taking its own rook, counts the rook's square,
    /// the target square of its `move_index`.
    #[inline(always)]
    fn threat_bucket(&self, threats: &Threats, m: Move) -> usize {
        2 * (threats.all & m.from().bb() != 0) as usize + (threats.all & m.to().bb() != 0) as usize
    }

    /// A piece that flees an attack by a lesser piece to a square no lesser piece attacks
    /// gains its value, one that walks into such an attack from safety loses it.
    #[inline(always)]
    fn quiet_order_bonus(&self, threats: &Threats, m: Move) -> i32 {
        let (by_lesser, value) = match self.kind_at(m.from()) {
            Some(PieceKind::Queen) => (threats.rook, 25_000),
            Some(PieceKind::Rook) => (threats.minor, 12_500),
            Some(PieceKind::Knight | PieceKind::Bishop) => (threats.pawn, 7_500),
            _ => return 0,
        };
        let from = by_lesser & m.from().bb() != 0;
        let to = by_lesser & m.to().bb() != 0;
        match (from, to) {
            (true, false) => value,
            (false, true) => -value,
            _ => 0,
        }
    }

    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        Board::make(self, m)
    }

    #[inline]
    fn unmake(&mut self, m: Move, undo: Undo) {
        Board::unmake(self, m, undo)
    }

    #[inline]
    fn null_move_sound(&self) -> bool {
        self.checkers == 0 && self.has_non_pawn_material(self.side)
    }

    fn make_null(&mut self) -> Undo {
        Board::make_null(self)
    }

    fn unmake_null(&mut self, undo: Undo) {
        Board::unmake_null(self, undo)
    }

    #[inline]
    fn rule_outcome(&self, ply: usize) -> Option<Outcome> {
        self.rule_draw(ply).map(Outcome::draw)
    }

    fn no_move_outcome(&self) -> Outcome {
        self.no_move_result()
    }

    fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    #[inline(always)]
    fn move_index(&self, m: Move) -> usize {
        (self.mailbox[m.from().index()] as usize & 15) * 64 + m.to().index()
    }

    /// `move_index * 8` plus the kind captured: pawn to queen (0 to 4; en passant a pawn), or
    /// the empty square's code (6) for a promotion that captures nothing, so that it is told
    /// from a capture of a pawn.
    #[inline(always)]
    fn noisy_index(&self, m: Move) -> usize {
        let captured = if m.is_en_passant() {
            PieceKind::Pawn.index()
        } else {
            code_kind(self.mailbox[m.to().index()])
        };
        self.move_index(m) * 8 + captured
    }

    #[inline]
    fn noisy_value(&self, m: Move) -> i32 {
        self.mvv_lva(m)
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        Board::see_ge(self, m, threshold)
    }

    #[inline(always)]
    fn pack(m: Move) -> u32 {
        m.bits() as u32
    }

    #[inline]
    fn unpack(&self, bits: u32) -> Option<Move> {
        if bits > u16::MAX as u32 {
            return None;
        }
        let m = Move::from_bits(bits as u16);
        Board::is_pseudo_legal(self, m).then_some(m)
    }
}

impl Notation for Board {
    fn start() -> Board {
        parse_fen(START_FEN).expect("the start position is valid")
    }

    fn from_text(text: &str) -> Result<Board, TextError> {
        parse_fen(text)
    }

    fn to_text(&self) -> String {
        write_fen(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, TextError> {
        self.parse_uci(text)
    }

    fn move_text(&self, m: Move) -> String {
        self.uci(m)
    }
}

impl Board {
    /// The value of the piece that moves (for ordering heuristics).
    pub fn moving_value(&self, m: Move) -> i32 {
        PIECE_VALUES[code_kind(self.mailbox[m.from().index()]).min(PieceKind::King.index())]
    }
}
