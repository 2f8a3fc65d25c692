//! UCI move text: `e2e4`, `e7e8q`, and castling either as the king's two-square move (`e1g1`,
//! standard) or as king takes own rook (`e1h1`, Chess960).
//!
//! Scheme: writing follows the board's Chess960 flag. Reading accepts both castling forms in
//! either mode: the text is matched against the legal moves' texts in the board's own form
//! first, then in the other form, so in Chess960 a king step such as `f1g1` stays a king step
//! even where castling would also put the king on g1. Anything else (wrong length, bad squares,
//! a move that is not legal here) is an error naming the text.

use super::board::{Board, CastlingSetup};
use super::types::Move;
use crate::game::{GenKind, MoveList, TextError};

impl Board {
    /// The move in UCI form, castling as this board's mode prints it.
    pub fn uci(&self, m: Move) -> String {
        move_text(m, self.chess960)
    }

    /// Reads a UCI move and checks that it is legal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, TextError> {
        let t = text.trim();
        if !(4..=5).contains(&t.len()) || !t.is_ascii() {
            return Err(TextError::new(format!(
                "'{text}' is not a move in UCI form (like e2e4 or e7e8q)"
            )));
        }
        let t = t.to_ascii_lowercase();
        let mut moves = MoveList::new();
        self.legal_moves(GenKind::All, &mut moves);
        for mode in [self.chess960, !self.chess960] {
            if let Some(&m) = moves.iter().find(|&&m| move_text(m, mode) == t) {
                return Ok(m);
            }
        }
        Err(TextError::new(format!(
            "'{text}' is not a legal move in this position"
        )))
    }
}

/// The UCI text of a move; castling as king takes rook when `chess960`, else the king's move.
pub fn move_text(m: Move, chess960: bool) -> String {
    let from = m.from();
    let mut to = m.to();
    if m.is_castle() && !chess960 {
        let index = usize::from(from.rank() == 7) * 2 + usize::from(to.file() < from.file());
        to = CastlingSetup::destinations(index).0;
    }
    let mut s = format!("{from}{to}");
    if let Some(kind) = m.promotion_kind() {
        s.push(kind.letter());
    }
    s
}
