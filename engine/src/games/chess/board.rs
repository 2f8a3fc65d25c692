//! The chess position: piece bitboards plus a mailbox, side to move, castling rights, the
//! en-passant square, clocks, the Zobrist keys, the check state and the game's key history.
//!
//! Scheme: pieces are kept three ways that make/unmake update together: one bitboard per kind,
//! one per colour, and a 64-entry mailbox for "what stands on this square". After every move the
//! board also stores `checkers` (enemy pieces giving check) and `pinned` (the mover's pieces
//! pinned to its king), which the legal generator, `in_check` and `is_pseudo_legal` all need,
//! and which are cheaper to restore from the undo record than to recompute. Castling geometry
//! (which rook each right belongs to, which squares must be empty and safe) is fixed by the
//! starting position, so Chess960 and standard chess share one code path. The en-passant square
//! is stored only when an en-passant capture is actually legal. `history` holds the keys of
//! earlier positions of the game (one per move made, including moves given to the board before
//! the search started), for repetition.

use super::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use super::bitboard::{lsb, more_than_one, squares, Bitboard, FILE_A, FILE_H};
use super::types::{code_color, code_kind, Color, PieceCode, PieceKind, Square, NO_PIECE};
use super::zobrist::KEYS;

/// Castling-right bits: White king side, White queen side, Black king side, Black queen side.
/// The right with bit `1 << i` has index `i = color * 2 + side`, side 0 = towards the h-file.
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

/// Where each castling right's king and rook start and what the castle needs; fixed for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CastlingSetup {
    /// The rook of each right (meaningful only while the right is held).
    pub rook: [Square; 4],
    /// The king's start square per colour (meaningful only while that colour has a right).
    pub king: [Square; 2],
    /// Squares that must be empty, apart from the castling king and rook themselves.
    pub empty: [Bitboard; 4],
    /// Squares the king stands on, crosses or reaches: none may be attacked.
    pub safe: [Bitboard; 4],
    /// Rights kept when a move starts or ends on the square (ANDed into the rights).
    pub keep: [u8; 64],
}

impl CastlingSetup {
    pub(crate) const NONE: CastlingSetup = CastlingSetup {
        rook: [Square::new(0); 4],
        king: [Square::new(0); 2],
        empty: [0; 4],
        safe: [0; 4],
        keep: [0xF; 64],
    };

    /// The king's and the rook's destination squares for right `index`.
    #[inline(always)]
    pub(crate) const fn destinations(index: usize) -> (Square, Square) {
        let rank = if index < 2 { 0 } else { 7 };
        if index & 1 == 0 {
            (
                Square::from_file_rank(6, rank),
                Square::from_file_rank(5, rank),
            )
        } else {
            (
                Square::from_file_rank(2, rank),
                Square::from_file_rank(3, rank),
            )
        }
    }

    /// Records right `index` for a king on `king` and a rook on `rook`.
    pub(crate) fn add(&mut self, index: usize, king: Square, rook: Square) {
        let (kto, rto) = CastlingSetup::destinations(index);
        let color_rights = if index < 2 { 3 } else { 12 };
        self.rook[index] = rook;
        self.king[index / 2] = king;
        let path = between(king, kto) | kto.bb() | between(rook, rto) | rto.bb();
        self.empty[index] = path & !(king.bb() | rook.bb());
        self.safe[index] = between(king, kto) | kto.bb() | king.bb();
        self.keep[king.index()] &= !color_rights;
        self.keep[rook.index()] &= !(1u8 << index);
    }
}

/// What [`Board::unmake`] needs to restore the position.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    pub(crate) captured: PieceCode,
    pub(crate) castling: u8,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) plies_from_null: u32,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

/// The squares one side attacks, in all and by its lesser pieces (see [`Board::threats_by`]).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Threats {
    pub all: Bitboard,
    /// Attacked by a pawn.
    pub pawn: Bitboard,
    /// Attacked by a pawn, knight or bishop.
    pub minor: Bitboard,
    /// Attacked by a pawn, minor piece or rook.
    pub rook: Bitboard,
}

/// A chess position with its game history. Implements [`crate::game::Position`] and
/// [`crate::game::Notation`].
#[derive(Clone)]
pub struct Board {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) mailbox: [PieceCode; 64],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) game_ply: u32,
    pub(crate) plies_from_null: u32,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
    pub(crate) setup: CastlingSetup,
    pub(crate) chess960: bool,
    pub(crate) history: Vec<u64>,
}

/// Material values used by SEE, MVV/LVA and the material helpers (centipawns).
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// Game-phase weights per kind (knight 1, bishop 1, rook 2, queen 4): 24 at the start.
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];

impl Board {
    /// An empty board, White to move, no rights: the starting point of the FEN reader.
    pub(crate) fn empty() -> Board {
        Board {
            by_kind: [0; 6],
            by_color: [0; 2],
            mailbox: [NO_PIECE; 64],
            side: Color::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            game_ply: 0,
            plies_from_null: 0,
            key: 0,
            pawn_key: 0,
            checkers: 0,
            pinned: 0,
            setup: CastlingSetup::NONE,
            chess960: false,
            history: Vec::with_capacity(256),
        }
    }

    // ----- placement (no key updates: make/unmake keep the keys themselves) -----

    #[inline(always)]
    pub(crate) fn put(&mut self, code: PieceCode, sq: Square) {
        let b = sq.bb();
        self.by_kind[code_kind(code)] |= b;
        self.by_color[code_color(code)] |= b;
        self.mailbox[sq.index()] = code;
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, code: PieceCode, sq: Square) {
        let b = sq.bb();
        self.by_kind[code_kind(code)] ^= b;
        self.by_color[code_color(code)] ^= b;
        self.mailbox[sq.index()] = NO_PIECE;
    }

    #[inline(always)]
    pub(crate) fn shift_piece(&mut self, code: PieceCode, from: Square, to: Square) {
        let b = from.bb() | to.bb();
        self.by_kind[code_kind(code)] ^= b;
        self.by_color[code_color(code)] ^= b;
        self.mailbox[from.index()] = NO_PIECE;
        self.mailbox[to.index()] = code;
    }

    // ----- accessors -----

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.side
    }

    /// The pieces of one colour and kind.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// The pieces of one kind, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// What stands on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, PieceKind)> {
        let code = self.mailbox[sq.index()];
        if code == NO_PIECE {
            None
        } else {
            Some((
                Color::from_index(code_color(code)),
                PieceKind::ALL[code_kind(code)],
            ))
        }
    }

    /// The kind of piece on `sq`, if any.
    #[inline(always)]
    pub fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        PieceKind::from_index(code_kind(self.mailbox[sq.index()]))
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        lsb(self.pieces(color, PieceKind::King))
    }

    /// Plies since the last capture or pawn move (the 50-move rule counts to 100).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Plies played since the game's start (0 in the initial position, 1 after White's move).
    #[inline(always)]
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// The FEN full-move number.
    pub fn fullmove_number(&self) -> u32 {
        self.game_ply / 2 + 1
    }

    /// The castling rights as bits ([`WHITE_KINGSIDE`] ...).
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant target square, present only when an en-passant capture is legal.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The side to move's pieces pinned to its king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers != 0
    }

    /// Zobrist key of the pawns alone (both colours), for pawn-structure caches.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Whether moves and FEN are written in Chess960 form (castling as king takes rook,
    /// Shredder-FEN castling letters).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Chooses the text form (the UCI option `UCI_Chess960`). Both move forms are always read.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Keys of the earlier positions of the game, oldest first (one per move made).
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The sum of piece values (kings excluded) of one colour, in [`PIECE_VALUES`] units.
    pub fn material(&self, color: Color) -> i32 {
        PieceKind::ALL[..5]
            .iter()
            .map(|&k| self.pieces(color, k).count_ones() as i32 * PIECE_VALUES[k.index()])
            .sum()
    }

    /// Game phase from the pieces on the board: 24 with all pieces (knight and bishop 1, rook 2,
    /// queen 4), 0 with kings and pawns only; capped at 24 when promotions add material.
    pub fn phase(&self) -> i32 {
        let p: i32 = PieceKind::ALL
            .iter()
            .map(|&k| self.by_kind[k.index()].count_ones() as i32 * PHASE_WEIGHTS[k.index()])
            .sum();
        p.min(24)
    }

    /// Whether `color` has a piece other than pawns and king (null-move zugzwang guard).
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        self.by_color[color.index()]
            & !(self.by_kind[PieceKind::Pawn.index()] | self.by_kind[PieceKind::King.index()])
            != 0
    }

    // ----- attacks -----

    /// Every piece of either colour attacking `sq` with the board occupied by `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let bq = k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()];
        let rq = k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()];
        (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (knight_attacks(sq) & k[PieceKind::Knight.index()])
            | (king_attacks(sq) & k[PieceKind::King.index()])
            | (bishop_attacks(sq, occ) & bq)
            | (rook_attacks(sq, occ) & rq)
    }

    /// Whether a piece of colour `by` attacks `sq` with the board occupied by `occ`.
    #[inline(always)]
    pub fn is_attacked_by(&self, sq: Square, occ: Bitboard, by: Color) -> bool {
        let k = &self.by_kind;
        let them = self.by_color[by.index()];
        if (knight_attacks(sq) & k[PieceKind::Knight.index()]
            | pawn_attacks(!by, sq) & k[PieceKind::Pawn.index()]
            | king_attacks(sq) & k[PieceKind::King.index()])
            & them
            != 0
        {
            return true;
        }
        let bq = (k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()]) & them;
        let rq = (k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]) & them;
        (bishop_rays(sq) & bq != 0 && bishop_attacks(sq, occ) & bq != 0)
            || (rook_rays(sq) & rq != 0 && rook_attacks(sq, occ) & rq != 0)
    }

    /// Every square a piece of colour `by` attacks over the present occupancy (pawns
    /// diagonally forward, whether or not the square is occupied; the king's own squares too),
    /// and those its pawns, its pawns and minor pieces, and its pawns, minor pieces and rooks
    /// attack: a piece standing on a square attacked by a lesser piece is threatened whatever
    /// defends it. The search asks it once per node, for the side not to move.
    pub fn threats_by(&self, by: Color) -> Threats {
        let k = &self.by_kind;
        let them = self.by_color[by.index()];
        let occ = self.occupied();
        let pawns = k[PieceKind::Pawn.index()] & them;
        let pawn = match by {
            Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
            Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
        };
        let mut minor = pawn;
        for s in squares(k[PieceKind::Knight.index()] & them) {
            minor |= knight_attacks(s);
        }
        for s in squares(k[PieceKind::Bishop.index()] & them) {
            minor |= bishop_attacks(s, occ);
        }
        let mut rook = minor;
        for s in squares(k[PieceKind::Rook.index()] & them) {
            rook |= rook_attacks(s, occ);
        }
        let mut all = rook | king_attacks(self.king_square(by));
        for s in squares(k[PieceKind::Queen.index()] & them) {
            all |= bishop_attacks(s, occ) | rook_attacks(s, occ);
        }
        Threats {
            all,
            pawn,
            minor,
            rook,
        }
    }

    /// Recomputes `checkers` and `pinned` for the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let k = &self.by_kind;
        let their = self.by_color[them.index()];
        let bq = (k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()]) & their;
        let rq = (k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]) & their;
        let mut checkers = (pawn_attacks(us, ksq) & k[PieceKind::Pawn.index()]
            | knight_attacks(ksq) & k[PieceKind::Knight.index()])
            & their;
        let mut pinned = 0;
        let own = self.by_color[us.index()];
        let snipers = (bishop_rays(ksq) & bq) | (rook_rays(ksq) & rq);
        for s in squares(snipers) {
            let blockers = between(ksq, s) & occ;
            if blockers == 0 {
                checkers |= s.bb();
            } else if !more_than_one(blockers) {
                pinned |= blockers & own;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// The Zobrist key computed from scratch (the board keeps it incrementally).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in squares(self.occupied()) {
            key ^= KEYS.piece[self.mailbox[sq.index()] as usize][sq.index()];
        }
        key ^= KEYS.castling[self.castling as usize];
        if let Some(ep) = self.ep {
            key ^= KEYS.ep_file[ep.file() as usize];
        }
        if self.side == Color::Black {
            key ^= KEYS.side;
        }
        key
    }

    /// A key of where one side's pieces other than pawns stand (king included), for the
    /// correction history. It is hashed from the bitboards when asked rather than kept
    /// up to date on every move: the search asks once per evaluated node, and a few
    /// multiplications cost less than an incremental key in make and unmake.
    #[inline]
    pub fn piece_key(&self, color: Color) -> u64 {
        // Each kind's bitboard is folded in with its own odd multiplier, so that two kinds
        // on the same squares do not cancel out.
        const MUL: [u64; 5] = [
            0x9e37_79b9_7f4a_7c15,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
            0xd6e8_feb8_6659_fd93,
            0xff51_afd7_ed55_8ccd,
        ];
        let own = self.by_color[color.index()];
        let mut key = color.index() as u64;
        for (i, mul) in MUL.iter().enumerate() {
            let bb = self.by_kind[i + 1] & own;
            key = (key.rotate_left(23) ^ bb).wrapping_mul(*mul);
        }
        // A final mix, so that the low bits that pick a bucket hear every square.
        crate::hash::finalize(key)
    }

    /// The pawn key computed from scratch.
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = 0;
        for sq in squares(self.by_kind[PieceKind::Pawn.index()]) {
            key ^= KEYS.piece[self.mailbox[sq.index()] as usize][sq.index()];
        }
        key
    }

    /// Whether an en-passant capture onto `ep` by the side to move is legal somewhere.
    pub(crate) fn any_legal_en_passant(&self, ep: Square) -> bool {
        let us = self.side;
        let capturers = pawn_attacks(!us, ep) & self.pieces(us, PieceKind::Pawn);
        squares(capturers).any(|from| self.en_passant_is_legal(from, ep))
    }

    /// Whether the pawn on `from` may capture en passant onto `ep` without leaving its king
    /// attacked. Tested on the occupancy after the capture, which covers pins along diagonals
    /// and the rank case where both pawns leave the king's rank at once.
    #[inline]
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let them = !us;
        let captured = Square::from_file_rank(ep.file(), from.rank());
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | ep.bb();
        let ksq = self.king_square(us);
        let k = &self.by_kind;
        let their = self.by_color[them.index()];
        let bq = (k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()]) & their;
        let rq = (k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]) & their;
        let attackers = (bishop_attacks(ksq, occ) & bq)
            | (rook_attacks(ksq, occ) & rq)
            | (knight_attacks(ksq) & k[PieceKind::Knight.index()] & their)
            | (pawn_attacks(us, ksq) & k[PieceKind::Pawn.index()] & their & !captured.bb());
        attackers == 0
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", super::fen::write_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Position, STRUCTURE_KEYS};

    #[test]
    fn threats_agree_with_the_square_test() {
        for fen in crate::games::chess::bench::POSITIONS {
            let b = Board::from_text(fen).unwrap();
            for by in Color::BOTH {
                let t = b.threats_by(by);
                // Each lesser class's squares lie inside the next one's.
                assert_eq!(t.pawn & !t.minor, 0, "{fen}");
                assert_eq!(t.minor & !t.rook, 0, "{fen}");
                assert_eq!(t.rook & !t.all, 0, "{fen}");
                let set = t.all;
                for i in 0..64 {
                    let sq = Square::new(i);
                    assert_eq!(
                        set & sq.bb() != 0,
                        b.is_attacked_by(sq, b.occupied(), by),
                        "{fen}: {sq:?} by {by:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn threat_buckets_tell_attacked_origins_and_targets() {
        // The knight on e4 stands attacked by the d5 pawn; the bishop on h8 covers f6, the
        // rook on b8 the b-file.
        let b = Board::from_text("1r2k2b/8/8/3p4/4N3/R7/8/6K1 w - - 0 1").unwrap();
        let threats = Position::threat_info(&b);
        let bucket = |text: &str| {
            let m = b.parse_move(text).unwrap();
            assert!(!b.is_noisy(m), "{text}");
            b.threat_bucket(&threats, m)
        };
        assert_eq!(bucket("e4c5"), 2, "flees to a safe square");
        assert_eq!(bucket("e4f6"), 3, "flees into another attack");
        assert_eq!(bucket("a3b3"), 1, "walks into an attack");
        assert_eq!(bucket("a3a2"), 0, "neither");
        assert_eq!(<Board as Position>::THREAT_BUCKETS, 4);
    }

    #[test]
    fn quiet_order_bonus_tells_fleeing_from_walking_into_lesser_attacks() {
        // The knight on e4 stands attacked by the d5 pawn; the b4 pawn covers a3 and c3, the
        // black bishop on h8 the long diagonal.
        let b = Board::from_text("4k2b/8/8/3p4/1p2N3/8/Q7/6K1 w - - 0 1").unwrap();
        let threats = Position::threat_info(&b);
        let bonus = |text: &str| {
            let m = b.parse_move(text).unwrap();
            assert!(!b.is_noisy(m), "{text}");
            b.quiet_order_bonus(&threats, m)
        };
        assert!(bonus("e4c5") > 0, "the knight flees the pawn");
        assert_eq!(bonus("e4c3"), 0, "onto another pawn attack: no gain");
        assert!(bonus("a2a3") < 0, "the queen walks into a pawn's attack");
        assert!(bonus("a2b2") < 0, "and into the bishop's diagonal");
        assert_eq!(bonus("a2b1"), 0, "safe to safe");
        assert_eq!(bonus("g1f1"), 0, "kings are not scored");
    }

    #[test]
    fn noisy_indices_tell_the_kind_captured() {
        // The noisy index of `text` in `fen`, checked to be a noisy move in range.
        let index = |fen: &str, text: &str| {
            let b = Board::from_text(fen).unwrap();
            let m = b.parse_move(text).unwrap();
            assert!(b.is_noisy(m), "{fen}: {text}");
            let i = b.noisy_index(m);
            assert!(i < <Board as Position>::NOISY_INDEX_SPACE, "{fen}: {text}");
            (b.move_index(m), i)
        };
        // The same rook onto the same square, taking a rook or a knight: one move index, two
        // capture history entries.
        let rook = index("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8");
        let knight = index("n3k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8");
        assert_eq!(rook.0, knight.0);
        assert_ne!(rook.1, knight.1);
        // En passant takes a pawn, as the same capture of a pawn standing on the target would.
        let ep = index("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6");
        let plain = index("4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 1", "e5d6");
        assert_eq!(ep, plain);
        // A promotion that takes nothing is told from a capture of any kind.
        let (push, i) = index("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q");
        assert!(PieceKind::ALL.iter().all(|k| i != push * 8 + k.index()));
    }

    fn keys(fen: &str) -> [Option<u64>; STRUCTURE_KEYS] {
        Board::from_text(fen).unwrap().structure_keys()
    }

    #[test]
    fn structure_keys_split_pawns_and_each_sides_pieces() {
        let start = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // A pawn move changes the pawn key only.
        let e4 = keys("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_ne!(start[0], e4[0]);
        assert_eq!(start[1..], e4[1..]);
        // A white knight move changes White's piece key only.
        let nf3 = keys("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!((start[0], start[2]), (nf3[0], nf3[2]));
        assert_ne!(start[1], nf3[1]);
        // The black king on its back rank still reaches the bucket bits.
        let a = keys("4k3/8/8/8/8/8/8/4K3 w - - 0 1")[2].unwrap();
        let b = keys("5k2/8/8/8/8/8/8/4K3 w - - 0 1")[2].unwrap();
        assert_ne!(a & 0x3fff, b & 0x3fff);
        // The same pieces of the two colours on mirrored squares are not the same key.
        let k = keys("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_ne!(k[1], k[2]);
    }
}
