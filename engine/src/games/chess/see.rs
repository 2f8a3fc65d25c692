//! Static exchange evaluation and capture ordering values.
//!
//! Scheme: `see_value` plays out the captures on the target square, each side always
//! recapturing with its least valuable attacker. It keeps a list of speculative gains
//! (`gain[d]` = what the side making capture `d` has won if the exchange stops after it) and
//! folds it back with the rule that either side may stop capturing when continuing loses.
//! Sliders hidden behind a capturer (x-rays) join as the pieces in front leave the occupancy. A
//! king recaptures only onto a square the other side no longer attacks. Pins are ignored, as
//! usual for SEE. `see_ge` asks whether the mover ends at least `threshold` up; two bounds on
//! the exchange decide most of its calls before any attacker is looked up.

use super::attacks::{bishop_attacks, rook_attacks};
use super::bitboard::{lsb, Bitboard};
use super::board::{Board, PIECE_VALUES};
use super::types::{Move, PieceKind, Square};

impl Board {
    /// Value of the piece the move captures (a pawn for en passant, nothing for castling).
    #[inline]
    fn captured_value(&self, m: Move) -> i32 {
        if m.is_en_passant() {
            PIECE_VALUES[PieceKind::Pawn.index()]
        } else if m.is_castle() {
            0
        } else {
            match self.kind_at(m.to()) {
                Some(k) => PIECE_VALUES[k.index()],
                None => 0,
            }
        }
    }

    /// Material the move adds by promotion (new piece less the pawn).
    #[inline]
    fn promotion_gain(m: Move) -> i32 {
        match m.promotion_kind() {
            Some(k) => PIECE_VALUES[k.index()] - PIECE_VALUES[PieceKind::Pawn.index()],
            None => 0,
        }
    }

    /// MVV/LVA: the victim's value (plus any promotion gain) less a sixteenth of the attacker's.
    /// Zero for quiet moves.
    pub fn mvv_lva(&self, m: Move) -> i32 {
        let gain = self.captured_value(m) + Board::promotion_gain(m);
        if gain == 0 {
            return 0;
        }
        let attacker = self
            .kind_at(m.from())
            .map_or(0, |k| PIECE_VALUES[k.index()].min(1000));
        gain - attacker / 16
    }

    /// Whether `m` wins at least `threshold` after the exchanges on its target square.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.is_castle() {
            return threshold <= 0;
        }
        let Some(moving) = self.kind_at(m.from()) else {
            return threshold <= 0;
        };
        // The exchange is worth at most what the first capture wins (the other side may
        // always decline to recapture) and at least that less the piece now on the square
        // (we may always stop after their recapture): most calls are decided by these two
        // bounds, with no attacker looked up.
        let first = self.captured_value(m) + Board::promotion_gain(m);
        if first < threshold {
            return false;
        }
        let on_square = m.promotion_kind().unwrap_or(moving);
        if first - PIECE_VALUES[on_square.index()] >= threshold {
            return true;
        }
        self.see_value(m) >= threshold
    }

    /// What `m` wins after the exchanges on its target square, both sides capturing with
    /// their least valuable attacker and stopping when going on would lose.
    pub fn see_value(&self, m: Move) -> i32 {
        if m.is_castle() {
            return 0;
        }
        let from = m.from();
        let to = m.to();
        let Some(mut on_square) = self.kind_at(from) else {
            return 0;
        };
        let mut occ = self.occupied() ^ from.bb();
        if m.is_en_passant() {
            occ ^= Square::from_file_rank(to.file(), from.rank()).bb();
        }
        let mut gain = [0i32; 34];
        gain[0] = self.captured_value(m) + Board::promotion_gain(m);
        if let Some(k) = m.promotion_kind() {
            on_square = k;
        }
        let k = &self.by_kind;
        let bq = k[PieceKind::Bishop.index()] | k[PieceKind::Queen.index()];
        let rq = k[PieceKind::Rook.index()] | k[PieceKind::Queen.index()];
        let mut attackers = self.attackers_to(to, occ) & occ;
        let mut side = !self.side;
        let mut d = 0;
        loop {
            let mine = attackers & self.by_color[side.index()];
            if mine == 0 {
                break;
            }
            let Some((kind, sq)) = self.least_valuable(mine) else {
                break;
            };
            if kind == PieceKind::King && attackers & !mine & occ != 0 {
                break; // the king may not capture into an attacked square
            }
            d += 1;
            gain[d] = PIECE_VALUES[on_square.index()] - gain[d - 1];
            on_square = kind;
            occ ^= sq.bb();
            attackers &= occ;
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
                attackers |= bishop_attacks(to, occ) & bq & occ;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
                attackers |= rook_attacks(to, occ) & rq & occ;
            }
            side = !side;
            if d == gain.len() - 1 {
                break;
            }
        }
        // Fold back: at each step the capturing side may decline (keep -gain[d-1]).
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// The least valuable piece in `set` and its square.
    #[inline]
    fn least_valuable(&self, set: Bitboard) -> Option<(PieceKind, Square)> {
        for kind in PieceKind::ALL {
            let b = set & self.by_kind[kind.index()];
            if b != 0 {
                return Some((kind, lsb(b)));
            }
        }
        None
    }
}
