//! The draughts move: start, end, captured set and promotion, plus its 32-bit table packing.
//!
//! Scheme: a move is identified by its start square, its end square and the set of pieces it
//! captures (a bitboard in the layout of `squares`); two capture paths with the same three are
//! the same move because they leave the same position. `promotes` is implied by the position
//! (a man ending on its far row) and stored so `make` need not look it up.
//!
//! Packing for the transposition table: bits 0-5 the start square index (0..50), bits 6-11 the
//! end square index, bit 12 set for a capture, bits 13-31 a 19-bit hash of the captured set. A
//! quiet move therefore packs exactly and a capture up to a hash collision between captures with
//! the same start and end, which `Board::unpack` resolves by matching against the generated
//! moves, so it only ever returns a legal move of the position. No legal move packs to 0.

use super::squares::{bit_of_square, square_of_bit, VALID};

/// A draughts move. Build one by generating the moves of a position or by parsing text.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) captured: u64,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) promotes: bool,
}

impl Move {
    #[inline]
    pub(crate) const fn new(from: u32, to: u32, captured: u64, promotes: bool) -> Move {
        Move {
            captured,
            from: from as u8,
            to: to as u8,
            promotes,
        }
    }

    /// The start square, 1..=50.
    pub fn from_square(self) -> u8 {
        square_of_bit(self.from as u32)
    }

    /// The end square, 1..=50 (equal to the start when a capture returns to it).
    pub fn to_square(self) -> u8 {
        square_of_bit(self.to as u32)
    }

    /// The captured pieces as a bitboard (layout of `squares`); 0 for a quiet move.
    pub fn captured(self) -> u64 {
        self.captured
    }

    /// The captured squares, ascending.
    pub fn captured_squares(self) -> impl Iterator<Item = u8> {
        super::squares::squares(self.captured)
    }

    /// How many pieces the move captures.
    pub fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }

    pub fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// Whether a man is crowned by this move (it ends on the far row).
    pub fn promotes(self) -> bool {
        self.promotes
    }

    /// Whether the fields name real squares (a guard for values of unknown origin).
    pub(crate) fn is_well_formed(self) -> bool {
        (self.from as usize) < 64
            && (self.to as usize) < 64
            && VALID & (1u64 << self.from) != 0
            && VALID & (1u64 << self.to) != 0
            && self.captured & !VALID == 0
    }

    /// The 32-bit packing described in the module doc.
    pub fn pack(self) -> u32 {
        let from = square_index(self.from);
        let to = square_index(self.to);
        let mut bits = from | (to << 6);
        if self.captured != 0 {
            bits |= 1 << 12;
            // Fold the 54-bit set into 19 bits through a multiplicative hash.
            let h = self.captured.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            bits |= ((h >> 45) as u32) << 13;
        }
        bits
    }

    /// Start and end square bits of a packed quiet or capture move, or `None` when the fields
    /// are out of range.
    pub(crate) fn unpack_squares(bits: u32) -> Option<(u32, u32, bool)> {
        let from = bits & 63;
        let to = (bits >> 6) & 63;
        if from >= 50 || to >= 50 {
            return None;
        }
        let capture = bits & (1 << 12) != 0;
        if !capture && bits >> 13 != 0 {
            return None;
        }
        Some((
            bit_of_square(from as u8 + 1),
            bit_of_square(to as u8 + 1),
            capture,
        ))
    }
}

/// The 0-based square index of a bit (its square number minus one); 63 for a non-square.
fn square_index(bit: u8) -> u32 {
    if (bit as usize) < 64 && VALID & (1u64 << bit) != 0 {
        square_of_bit(bit as u32) as u32 - 1
    } else {
        63
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.is_well_formed() {
            return write!(
                f,
                "Move(bad {} {} {:#x})",
                self.from, self.to, self.captured
            );
        }
        if self.captured == 0 {
            write!(f, "{}-{}", self.from_square(), self.to_square())?;
        } else {
            write!(f, "{}x{}", self.from_square(), self.to_square())?;
            for s in self.captured_squares() {
                write!(f, "x{s}")?;
            }
        }
        if self.promotes {
            write!(f, "(K)")?;
        }
        Ok(())
    }
}
