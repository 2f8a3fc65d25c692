//! Legal move generation: pins, checks and king safety are handled while generating, so every
//! move produced is legal and nothing is made and taken back to test it.
//!
//! Scheme: with the board's `checkers` and `pinned` sets (kept by make/unmake):
//! - the king goes to adjacent squares not attacked once the king itself is lifted off the
//!   board (so it cannot step back along a checking ray);
//! - in double check nothing else moves;
//! - in single check other pieces must capture the checker or block between it and the king
//!   (the "check mask"); pinned pieces cannot help then;
//! - a pinned piece moves only along the line through its king;
//! - en passant is tested on the occupancy after the capture, which catches the rare rank case
//!   (king, both pawns and an enemy rook or queen on one rank) and diagonal pins alike;
//! - castling needs the right, an empty path and no attacked square from the king's start to
//!   its target, with king and rook lifted off (Chess960: a rook leaving can open a line).
//!
//! Output goes to a [`Sink`] as (from, target set) pairs, so one generator fills a move list or
//! just counts (perft's last ply, `has_legal_move`) with popcounts, monomorphised per sink.

use arrayvec::ArrayVec;

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::{
    lsb, more_than_one, relative_rank_bb, shift, squares, Bitboard, FILE_A, FILE_H,
};
use super::board::Board;
use super::types::{Color, Move, PieceKind, Square};
use crate::game::GenKind;

/// Where generated moves go.
pub(crate) trait Sink {
    /// Ordinary moves of the piece on `from` to each square of `targets`.
    fn add(&mut self, from: Square, targets: Bitboard);
    /// Ordinary pawn moves onto each square of `targets`, from `to - delta`.
    fn add_pawns(&mut self, targets: Bitboard, delta: i8);
    /// The four promotions onto each square of `targets`, from `to - delta`.
    fn add_promotions(&mut self, targets: Bitboard, delta: i8);
    /// One special move (castling, en passant).
    fn add_move(&mut self, m: Move);
}

/// Collects moves into a list. A list never overflows: legal positions have at most 218 moves
/// and the FEN reader rejects impossible material; should it ever fill, further moves are
/// dropped rather than panicking.
pub(crate) struct ListSink<'a>(pub &'a mut ArrayVec<Move, { crate::game::MAX_MOVES }>);

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn add(&mut self, from: Square, targets: Bitboard) {
        for to in squares(targets) {
            let _ = self.0.try_push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn add_pawns(&mut self, targets: Bitboard, delta: i8) {
        for to in squares(targets) {
            let from = Square::new((to.index() as i8 - delta) as u8);
            let _ = self.0.try_push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn add_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in squares(targets) {
            let from = Square::new((to.index() as i8 - delta) as u8);
            for kind in [
                PieceKind::Queen,
                PieceKind::Knight,
                PieceKind::Rook,
                PieceKind::Bishop,
            ] {
                let _ = self.0.try_push(Move::promotion(from, to, kind));
            }
        }
    }

    #[inline(always)]
    fn add_move(&mut self, m: Move) {
        let _ = self.0.try_push(m);
    }
}

/// Counts moves without listing them.
pub(crate) struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline(always)]
    fn add(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn add_pawns(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn add_promotions(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += 4 * targets.count_ones() as u64;
    }

    #[inline(always)]
    fn add_move(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Board {
    /// Generates the legal moves of `kind` into `sink`.
    #[inline(always)]
    pub(crate) fn generate_into<S: Sink>(&self, kind: GenKind, sink: &mut S) {
        let us = self.side;
        let them = !us;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let ksq = self.king_square(us);
        let filter = match kind {
            GenKind::All => !own,
            GenKind::Noisy => enemy,
            GenKind::Quiet => !occ,
        };

        // King: to squares that stay unattacked with the king lifted off the board.
        let mut king_targets = 0;
        let lifted = occ ^ ksq.bb();
        for to in squares(king_attacks(ksq) & filter) {
            if !self.is_attacked_by(to, lifted, them) {
                king_targets |= to.bb();
            }
        }
        sink.add(ksq, king_targets);

        let checkers = self.checkers;
        if more_than_one(checkers) {
            return;
        }
        let check_mask = if checkers != 0 {
            between(ksq, lsb(checkers)) | checkers
        } else {
            !0
        };
        let target = filter & check_mask;
        let pinned = self.pinned;
        let k = &self.by_kind;

        for from in squares(k[PieceKind::Knight.index()] & own & !pinned) {
            sink.add(from, knight_attacks(from) & target);
        }
        let bq = (k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()]) & own;
        let rq = (k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()]) & own;
        for from in squares(bq & !pinned) {
            sink.add(from, bishop_attacks(from, occ) & target);
        }
        for from in squares(rq & !pinned) {
            sink.add(from, rook_attacks(from, occ) & target);
        }
        let pawns = k[PieceKind::Pawn.index()] & own;
        if checkers == 0 && pinned != 0 {
            // Pinned sliders keep to the pin line; pinned knights never move.
            for from in squares(bq & pinned) {
                sink.add(from, bishop_attacks(from, occ) & target & line(ksq, from));
            }
            for from in squares(rq & pinned) {
                sink.add(from, rook_attacks(from, occ) & target & line(ksq, from));
            }
            for from in squares(pawns & pinned) {
                self.pawn_moves(
                    kind,
                    from.bb(),
                    enemy,
                    occ,
                    check_mask & line(ksq, from),
                    sink,
                );
            }
        }
        self.pawn_moves(kind, pawns & !pinned, enemy, occ, check_mask, sink);

        if kind != GenKind::Quiet {
            if let Some(ep) = self.ep {
                for from in squares(pawn_attacks(them, ep) & pawns) {
                    if self.en_passant_is_legal(from, ep) {
                        sink.add_move(Move::en_passant(from, ep));
                    }
                }
            }
        }

        if kind != GenKind::Noisy && checkers == 0 {
            let base = us.index() * 2;
            for index in [base, base + 1] {
                // The cheap tests inline; the attack tests only when the path is clear.
                if self.castling & (1 << index) != 0
                    && occ & self.setup.empty[index] == 0
                    && self.castle_is_legal(index)
                {
                    sink.add_move(Move::castle(ksq, self.setup.rook[index]));
                }
            }
        }
    }

    /// Pawn pushes, captures and promotions of the pawns in `pawns`, to squares in `allowed`.
    /// Set-wise: every pawn's single push is one shift of the whole set.
    #[inline(always)]
    fn pawn_moves<S: Sink>(
        &self,
        kind: GenKind,
        pawns: Bitboard,
        enemy: Bitboard,
        occ: Bitboard,
        allowed: Bitboard,
        sink: &mut S,
    ) {
        if pawns == 0 {
            return;
        }
        let us = self.side;
        let (up, left, right): (i8, i8, i8) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let last = relative_rank_bb(us, 7);
        let third = relative_rank_bb(us, 2);
        let empty = !occ;
        let single = shift(pawns, up) & empty;
        if kind != GenKind::Noisy {
            let double = shift(single & third, up) & empty & allowed;
            sink.add_pawns(single & allowed & !last, up);
            sink.add_pawns(double, 2 * up);
        }
        if kind != GenKind::Quiet {
            sink.add_promotions(single & allowed & last, up);
            let targets = enemy & allowed;
            let to_left = shift(pawns & !FILE_A, left) & targets;
            let to_right = shift(pawns & !FILE_H, right) & targets;
            sink.add_pawns(to_left & !last, left);
            sink.add_pawns(to_right & !last, right);
            sink.add_promotions(to_left & last, left);
            sink.add_promotions(to_right & last, right);
        }
    }

    /// Whether castling right `index` (held, not in check) can be used now.
    #[inline]
    pub(crate) fn castle_is_legal(&self, index: usize) -> bool {
        let setup = &self.setup;
        let occ = self.occupied();
        if occ & setup.empty[index] != 0 {
            return false;
        }
        let us = self.side;
        let lifted = occ ^ setup.king[us.index()].bb() ^ setup.rook[index].bb();
        !squares(setup.safe[index]).any(|s| self.is_attacked_by(s, lifted, !us))
    }

    /// The number of legal moves.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate_into(GenKind::All, &mut sink);
        sink.0
    }

    /// Appends the legal moves of `kind` to `out`.
    #[inline]
    pub fn legal_moves(&self, kind: GenKind, out: &mut ArrayVec<Move, { crate::game::MAX_MOVES }>) {
        self.generate_into(kind, &mut ListSink(out));
    }
}
