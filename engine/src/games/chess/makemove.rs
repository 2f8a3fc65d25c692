//! Make and unmake: playing a legal move in place and taking it back from an undo record.
//!
//! Scheme: `make` saves the state that cannot be recomputed cheaply (captured piece, rights,
//! en-passant square, clocks, keys, check state) in a small `Copy` record, pushes the old key
//! onto the history, moves the pieces and updates the Zobrist keys by XOR as it goes, then
//! computes the new side's `checkers` and `pinned`. `unmake` moves the pieces back and copies
//! the rest from the record, so it never recomputes keys or attacks. After a double push the
//! en-passant square is recorded (and hashed) only if an en-passant capture is legal, so
//! transpositions meet in one key.

use super::bitboard::{squares, Bitboard};
use super::board::{Board, CastlingSetup, Undo};
use super::types::{code_kind, piece_code, Color, Move, PieceKind, Square, NO_PIECE};
use super::zobrist::KEYS;

impl Board {
    /// Plays a legal move (one this position generated, or that `is_pseudo_legal` accepted).
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: NO_PIECE,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            plies_from_null: self.plies_from_null,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
            pinned: self.pinned,
        };
        self.history.push(self.key);
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let code = self.mailbox[from.index()];
        let mut key = self.key ^ KEYS.side;
        if let Some(ep) = self.ep.take() {
            key ^= KEYS.ep_file[ep.file() as usize];
        }
        self.halfmove += 1;
        self.plies_from_null += 1;
        self.game_ply += 1;
        let mut captured = NO_PIECE;
        let mut double_push = None;

        match m.flag() {
            Move::CASTLE => {
                let index = us.index() * 2 + usize::from(to.file() < from.file());
                let (kto, rto) = CastlingSetup::destinations(index);
                let rook = piece_code(us, PieceKind::Rook);
                self.remove(code, from);
                self.remove(rook, to);
                self.put(code, kto);
                self.put(rook, rto);
                key ^= KEYS.piece[code as usize][from.index()]
                    ^ KEYS.piece[code as usize][kto.index()]
                    ^ KEYS.piece[rook as usize][to.index()]
                    ^ KEYS.piece[rook as usize][rto.index()];
            }
            Move::EN_PASSANT => {
                let cap_sq = Square::from_file_rank(to.file(), from.rank());
                captured = piece_code(!us, PieceKind::Pawn);
                self.remove(captured, cap_sq);
                self.shift_piece(code, from, to);
                let k = KEYS.piece[captured as usize][cap_sq.index()]
                    ^ KEYS.piece[code as usize][from.index()]
                    ^ KEYS.piece[code as usize][to.index()];
                key ^= k;
                self.pawn_key ^= k;
                self.halfmove = 0;
            }
            flag => {
                captured = self.mailbox[to.index()];
                if captured != NO_PIECE {
                    self.remove(captured, to);
                    let k = KEYS.piece[captured as usize][to.index()];
                    key ^= k;
                    if code_kind(captured) == PieceKind::Pawn.index() {
                        self.pawn_key ^= k;
                    }
                    self.halfmove = 0;
                }
                if code_kind(code) == PieceKind::Pawn.index() {
                    self.halfmove = 0;
                    let from_key = KEYS.piece[code as usize][from.index()];
                    if flag >= Move::PROMOTION {
                        let promoted = piece_code(us, PieceKind::ALL[(flag - 3) as usize]);
                        self.remove(code, from);
                        self.put(promoted, to);
                        key ^= from_key ^ KEYS.piece[promoted as usize][to.index()];
                        self.pawn_key ^= from_key;
                    } else {
                        self.shift_piece(code, from, to);
                        let k = from_key ^ KEYS.piece[code as usize][to.index()];
                        key ^= k;
                        self.pawn_key ^= k;
                        if from.index() ^ to.index() == 16 {
                            double_push =
                                Some(Square::new(((from.index() + to.index()) / 2) as u8));
                        }
                    }
                } else {
                    self.shift_piece(code, from, to);
                    key ^= KEYS.piece[code as usize][from.index()]
                        ^ KEYS.piece[code as usize][to.index()];
                }
            }
        }

        let rights = self.castling & self.setup.keep[from.index()] & self.setup.keep[to.index()];
        if rights != self.castling {
            key ^= KEYS.castling[self.castling as usize] ^ KEYS.castling[rights as usize];
            self.castling = rights;
        }

        self.side = !us;
        if let Some(ep) = double_push {
            if self.any_legal_en_passant(ep) {
                self.ep = Some(ep);
                key ^= KEYS.ep_file[ep.file() as usize];
            }
        }
        self.key = key;
        self.update_check_info();
        Undo { captured, ..undo }
    }

    /// Takes back `m`, which produced `undo`.
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        let them = self.side;
        let us = !them;
        self.side = us;
        let from = m.from();
        let to = m.to();
        match m.flag() {
            Move::CASTLE => {
                let index = us.index() * 2 + usize::from(to.file() < from.file());
                let (kto, rto) = CastlingSetup::destinations(index);
                let king = piece_code(us, PieceKind::King);
                let rook = piece_code(us, PieceKind::Rook);
                self.remove(king, kto);
                self.remove(rook, rto);
                self.put(king, from);
                self.put(rook, to);
            }
            Move::EN_PASSANT => {
                let code = self.mailbox[to.index()];
                self.shift_piece(code, to, from);
                self.put(
                    undo.captured,
                    Square::from_file_rank(to.file(), from.rank()),
                );
            }
            flag => {
                let code = self.mailbox[to.index()];
                if flag >= Move::PROMOTION {
                    self.remove(code, to);
                    self.put(piece_code(us, PieceKind::Pawn), from);
                } else {
                    self.shift_piece(code, to, from);
                }
                if undo.captured != NO_PIECE {
                    self.put(undo.captured, to);
                }
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.plies_from_null = undo.plies_from_null;
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
        self.game_ply -= 1;
        self.history.pop();
    }

    /// Passes the turn (for null-move pruning; never call it in check).
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: NO_PIECE,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            plies_from_null: self.plies_from_null,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
            pinned: self.pinned,
        };
        self.history.push(self.key);
        let mut key = self.key ^ KEYS.side;
        if let Some(ep) = self.ep.take() {
            key ^= KEYS.ep_file[ep.file() as usize];
        }
        self.key = key;
        self.halfmove += 1;
        // Repetitions are not counted across a null move: it is no move of the game.
        self.plies_from_null = 0;
        self.game_ply += 1;
        self.side = !self.side;
        self.update_check_info();
        undo
    }

    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = !self.side;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.plies_from_null = undo.plies_from_null;
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
        self.game_ply -= 1;
        self.history.pop();
    }

    /// What [`gives_check_with`](Board::gives_check_with) needs to know about this position,
    /// computed once for all the moves of a search node.
    pub fn check_info(&self) -> CheckInfo {
        use super::attacks::{between, bishop_attacks, bishop_rays, knight_attacks, pawn_attacks};
        use super::attacks::{rook_attacks, rook_rays};
        let us = self.side;
        let king = self.king_square(!us);
        let occ = self.occupied();
        let diagonal = bishop_attacks(king, occ);
        let straight = rook_attacks(king, occ);
        let k = &self.by_kind;
        let own = self.by_color[us.index()];
        let queens = k[PieceKind::Queen.index()];
        let snipers = ((k[PieceKind::Bishop.index()] | queens) & bishop_rays(king)
            | (k[PieceKind::Rook.index()] | queens) & rook_rays(king))
            & own;
        let mut discoverers = 0;
        for s in squares(snipers) {
            let blockers = between(king, s) & occ;
            if blockers & (blockers.wrapping_sub(1)) == 0 {
                discoverers |= blockers & own;
            }
        }
        CheckInfo {
            king,
            direct: [
                pawn_attacks(!us, king),
                knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                0,
            ],
            discoverers,
        }
    }

    /// [`gives_check`](Board::gives_check) with the node's [`CheckInfo`]: a table lookup for a
    /// direct check and one for a discovered one. Exact for every move that changes only its
    /// origin and target (all but promotions, castling and en passant, which take the general
    /// path): a slider that moves away from the enemy king along the line it attacks along
    /// cannot uncover its own check, since it would then have been giving check already.
    #[inline]
    pub fn gives_check_with(&self, info: &CheckInfo, m: Move) -> bool {
        if m.is_castle() || m.is_en_passant() || m.is_promotion() {
            return self.gives_check_by_occupancy(m);
        }
        let from = m.from();
        let to = m.to();
        let code = self.mailbox[from.index()];
        if code == NO_PIECE {
            return false;
        }
        info.direct[code_kind(code).min(5)] & to.bb() != 0
            || (info.discoverers & from.bb() != 0
                && super::attacks::line(info.king, from) & to.bb() == 0)
    }

    /// Whether the legal move `m` gives check, told before it is made: direct, discovered,
    /// promotion, en-passant and castling checks. A search asks about many moves of one
    /// position, and takes [`check_info`](Board::check_info) once for all of them.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_with(&self.check_info(), m)
    }

    /// Whether the legal move `m` gives check, tested on the occupancy after the move, so
    /// direct, discovered, castling-rook, promotion and en-passant checks are all seen. The
    /// general path of [`gives_check_with`](Board::gives_check_with), and its test oracle.
    pub fn gives_check_by_occupancy(&self, m: Move) -> bool {
        use super::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let eksq = self.king_square(!us);
        let k = &self.by_kind;
        let own = self.by_color[us.index()];
        let mut bq = (k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()]) & own;
        let mut rq = (k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]) & own;
        let mut occ = self.occupied() ^ from.bb();
        bq &= !from.bb();
        rq &= !from.bb();
        let mut lands = to;
        let mut kind = match self.kind_at(from) {
            Some(kind) => kind,
            None => return false,
        };
        match m.flag() {
            Move::CASTLE => {
                let index = us.index() * 2 + usize::from(to.file() < from.file());
                let (kto, rto) = CastlingSetup::destinations(index);
                occ = (occ ^ to.bb()) | kto.bb() | rto.bb();
                rq = (rq & !to.bb()) | rto.bb();
                lands = kto;
            }
            Move::EN_PASSANT => {
                occ = (occ ^ Square::from_file_rank(to.file(), from.rank()).bb()) | to.bb();
            }
            _ => {
                occ |= to.bb();
                if let Some(promoted) = m.promotion_kind() {
                    kind = promoted;
                }
            }
        }
        match kind {
            PieceKind::Bishop => bq |= lands.bb(),
            PieceKind::Rook => rq |= lands.bb(),
            PieceKind::Queen => {
                bq |= lands.bb();
                rq |= lands.bb();
            }
            PieceKind::Knight if knight_attacks(lands) & eksq.bb() != 0 => return true,
            PieceKind::Pawn if pawn_attacks(us, lands) & eksq.bb() != 0 => return true,
            _ => {}
        }
        bishop_attacks(eksq, occ) & bq != 0 || rook_attacks(eksq, occ) & rq != 0
    }
}

impl Color {
    /// Square delta of a pawn step forward for this colour.
    #[inline(always)]
    pub const fn pawn_push(self) -> i8 {
        match self {
            Color::White => 8,
            Color::Black => -8,
        }
    }
}

/// A position's check geometry from the mover's side, for telling cheaply which of its moves
/// give check: the squares from which each kind of piece would attack the enemy king over the
/// present occupancy, and the mover's pieces that alone block one of its own sliders from it.
#[derive(Clone, Copy, Default, Debug)]
pub struct CheckInfo {
    king: Square,
    /// By landing kind, pawn to king (a king never checks directly).
    direct: [Bitboard; 6],
    discoverers: Bitboard,
}
