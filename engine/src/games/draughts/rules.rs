//! Game results by rule: no pieces, repetition, the 25-move rule and the 16- and 5-move rules
//! against a lone king (the FMJD rules of international draughts).
//!
//! Scheme: the board keeps the counters current in `make` so that [`Board::rule_result`] only
//! compares numbers and scans the few keys since the last irreversible move.
//!
//! - No pieces: the side to move has none and loses. (No legal move loses too, but that needs
//!   generation and is `no_move_outcome`.)
//! - 25-move rule: 50 consecutive plies of non-capturing king moves draw.
//! - Repetition: the same position with the same side to move for the third time draws. Only
//!   positions since the last man move or capture can recur, and only every second ply; within
//!   the search (an earlier occurrence at most `ply` plies back) the first recurrence already
//!   counts, since the side that allowed it can repeat again.
//! - Lone king: one side has a single piece, a king; the other has three pieces with at least
//!   one king (three kings, two kings and a man, a king and two men): draw after 16 more moves
//!   each (32 plies); at most two pieces with a king (two kings, a king and a man, one king):
//!   draw after 5 more moves each (10 plies). The count starts when the configuration arises. A
//!   capture or crowning inside it does not restart the 16-move count ("the maximum of 16 moves
//!   remains valid"), and reaching a 5-move configuration from a 16-move one starts the 5-move
//!   count, so whichever limit comes first ends the game. The counts are not reset by moving
//!   within one configuration (a king and a man that becomes two kings keeps counting).

use super::board::{Board, State};
use crate::game::{Outcome, Reason};

/// Which lone-king rule applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lone {
    None,
    /// Three pieces with a king against a lone king: 16 moves each.
    Sixteen,
    /// One or two pieces with a king against a lone king: 5 moves each.
    Five,
}

/// Plies allowed by the 25-move rule.
pub const KING_MOVE_LIMIT: u16 = 50;
/// Plies allowed by the 16-move rule.
pub const SIXTEEN_LIMIT: u16 = 32;
/// Plies allowed by the 5-move rule.
pub const FIVE_LIMIT: u16 = 10;

/// The lone-king configuration of a state.
pub(crate) fn lone_category(st: &State) -> Lone {
    // Neither side down to a single piece: the common case, without counting.
    let [w, b] = st.pieces;
    if w & w.wrapping_sub(1) != 0 && b & b.wrapping_sub(1) != 0 {
        return Lone::None;
    }
    let mut cat = Lone::None;
    for us in 0..2 {
        let own = st.pieces[us];
        if own.count_ones() == 1 && own & st.kings != 0 {
            let other = st.pieces[1 - us];
            let n = other.count_ones();
            if other & st.kings != 0 {
                let this = if n == 3 {
                    Lone::Sixteen
                } else if n <= 2 {
                    Lone::Five
                } else {
                    Lone::None
                };
                // King against king reads as Five from both sides.
                if this != Lone::None {
                    cat = this;
                }
            }
        }
    }
    cat
}

/// Advances the lone-king counters after a move; `material_changed` when it captured or
/// crowned (otherwise the configuration cannot change).
#[inline]
pub(crate) fn update_lone(st: &mut State, material_changed: bool) {
    let old = st.lone;
    let new = if material_changed {
        lone_category(st)
    } else {
        old
    };
    st.lone = new;
    if new == Lone::None {
        st.lone_plies = 0;
        st.five_plies = 0;
        return;
    }
    st.lone_plies = if old == Lone::None {
        0
    } else {
        st.lone_plies.saturating_add(1)
    };
    st.five_plies = if new != Lone::Five || old != Lone::Five {
        0
    } else {
        st.five_plies.saturating_add(1)
    };
}

impl Board {
    /// The rule result of the position, if any (see the module doc); `ply` is the distance
    /// from the search root.
    pub(crate) fn rule_result(&self, ply: usize) -> Option<Outcome> {
        let st = &self.st;
        if st.pieces[st.side.index()] == 0 {
            return Some(Outcome::loss(Reason::NoPieces));
        }
        if st.quiet_plies >= KING_MOVE_LIMIT {
            return Some(Outcome::draw(Reason::MoveLimit));
        }
        match st.lone {
            Lone::None => {}
            Lone::Sixteen => {
                if st.lone_plies >= SIXTEEN_LIMIT {
                    return Some(Outcome::draw(Reason::EndgameRule));
                }
            }
            Lone::Five => {
                if st.lone_plies >= SIXTEEN_LIMIT || st.five_plies >= FIVE_LIMIT {
                    return Some(Outcome::draw(Reason::EndgameRule));
                }
            }
        }
        if self.is_repetition(ply) {
            return Some(Outcome::draw(Reason::Repetition));
        }
        None
    }

    /// Whether the position counts as repeated (third occurrence, or a recurrence inside the
    /// search).
    fn is_repetition(&self, ply: usize) -> bool {
        let reach = (self.st.quiet_plies as usize).min(self.history.len());
        if reach < 4 {
            // A king needs at least four plies to come back with the same side to move.
            return false;
        }
        let len = self.history.len();
        let mut seen = 0;
        let mut i = 4;
        while i <= reach {
            if self.history[len - i] == self.st.key {
                if i <= ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }
}
