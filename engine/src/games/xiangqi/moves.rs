//! The xiangqi move: a from-point and a to-point.
//!
//! Scheme: 16 bits, the mailbox index of the origin in the high byte and of the target in the
//! low byte. Xiangqi has no promotions, drops or castling, so two points say everything; a
//! capture is told by what stands on the target. The packing is also the transposition-table
//! form; `Move::NONE` (0, both points off the board) is never a real move.

use std::fmt;

use super::geometry::{point_name, Sq, Square, IN_BOARD};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// No move (the result of a null move, or an empty slot).
    pub const NONE: Move = Move(0);

    /// The move from `from` to `to` (whether it is legal is up to the position).
    #[inline]
    pub fn new(from: Square, to: Square) -> Move {
        Move::mb(from.mailbox(), to.mailbox())
    }

    #[inline]
    pub(crate) const fn mb(from: Sq, to: Sq) -> Move {
        Move(((from as u16) << 8) | to as u16)
    }

    #[inline]
    pub(crate) const fn src(self) -> Sq {
        (self.0 >> 8) as u8
    }

    #[inline]
    pub(crate) const fn dst(self) -> Sq {
        self.0 as u8
    }

    /// The origin. Only meaningful for a real move (not [`Move::NONE`]).
    #[inline]
    pub fn from(self) -> Square {
        Square::from_mailbox(self.src())
    }

    /// The target. Only meaningful for a real move (not [`Move::NONE`]).
    #[inline]
    pub fn to(self) -> Square {
        Square::from_mailbox(self.dst())
    }

    /// Whether both points are on the board (true of every move a position produces).
    #[inline]
    pub fn is_on_board(self) -> bool {
        IN_BOARD[self.src() as usize] && IN_BOARD[self.dst() as usize]
    }

    /// The 16-bit form (transposition tables).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move of a 16-bit form; `None` unless both points are on the board.
    #[inline]
    pub fn from_bits(bits: u16) -> Option<Move> {
        let m = Move(bits);
        m.is_on_board().then_some(m)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_on_board() {
            write!(
                f,
                "{}{}",
                point_name(self.from(), 0),
                point_name(self.to(), 0)
            )
        } else {
            write!(f, "Move({:#06x})", self.0)
        }
    }
}
