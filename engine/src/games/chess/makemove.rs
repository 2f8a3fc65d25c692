//! Make and unmake: playing a legal move in place and taking it back from an undo record.
//!
//! Scheme: `make` saves the state that cannot be recomputed cheaply (captured piece, rights,
//! en-passant square, clocks, keys, check state) in a small `Copy` record, pushes the old key
//! onto the history, moves the pieces and updates the Zobrist keys by XOR as it goes, then
//! computes the new side's `checkers` and `pinned`. `unmake` moves the pieces back and copies
//! the rest from the record, so it never recomputes keys or attacks. After a double push the
//! en-passant square is recorded (and hashed) only if an en-passant capture is legal, so
//! transpositions meet in one key.

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

    /// Whether the legal move `m` gives check, told before it is made.
    ///
    /// Ordinary moves and promotions (all but a few per cent of moves) take the fast path: a
    /// direct check by the piece as it lands (a promoted pawn as its new kind), tested with a
    /// table lookup and, for a slider, one `between` mask against the occupancy after the move;
    /// then a discovered check, which is possible only when the origin shares a line with the
    /// enemy king and the target leaves that line, and which costs one slider lookup from the
    /// king. Castling and en passant, whose occupancy changes on more than two squares (the
    /// castling rook, the pawn taken en passant), take [`gives_check_by_occupancy`]
    /// (Board::gives_check_by_occupancy).
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        use super::attacks::{between, bishop_rays, knight_attacks, line, pawn_attacks, rook_rays};
        if m.is_castle() || m.is_en_passant() {
            return self.gives_check_by_occupancy(m);
        }
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let code = self.mailbox[from.index()];
        if code == NO_PIECE {
            return false;
        }
        let eksq = self.king_square(!us);
        let ek = eksq.bb();
        let occ = (self.occupied() ^ from.bb()) | to.bb();
        let kind = m
            .promotion_kind()
            .unwrap_or(PieceKind::ALL[code_kind(code).min(5)]);
        let direct = match kind {
            PieceKind::Pawn => pawn_attacks(us, to) & ek != 0,
            PieceKind::Knight => knight_attacks(to) & ek != 0,
            PieceKind::Bishop => bishop_rays(to) & ek != 0 && between(to, eksq) & occ == 0,
            PieceKind::Rook => rook_rays(to) & ek != 0 && between(to, eksq) & occ == 0,
            PieceKind::Queen => {
                (bishop_rays(to) | rook_rays(to)) & ek != 0 && between(to, eksq) & occ == 0
            }
            PieceKind::King => false,
        };
        if direct {
            return true;
        }
        // Discovered: the origin must lie on a line through the enemy king, and the target off
        // it (a piece moving along the line still blocks it). Only a slider of ours on that
        // line, looking along it, can be uncovered.
        let ray = line(eksq, from);
        if ray == 0 || ray & to.bb() != 0 {
            return false;
        }
        let k = &self.by_kind;
        let own = self.by_color[us.index()] & !from.bb();
        let queens = k[PieceKind::Queen.index()];
        if bishop_rays(eksq) & from.bb() != 0 {
            let bq = (k[PieceKind::Bishop.index()] | queens) & own & ray;
            bq != 0 && super::attacks::bishop_attacks(eksq, occ) & bq != 0
        } else {
            let rq = (k[PieceKind::Rook.index()] | queens) & own & ray;
            rq != 0 && super::attacks::rook_attacks(eksq, occ) & rq != 0
        }
    }

    /// Whether the legal move `m` gives check, tested on the occupancy after the move, so
    /// direct, discovered, castling-rook, promotion and en-passant checks are all seen. The
    /// general path of [`gives_check`](Board::gives_check), and its test oracle.
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
