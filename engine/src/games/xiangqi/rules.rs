//! Xiangqi rule results: repetition with perpetual check and chase, and the natural move limit.
//!
//! Scheme: every position's [`State`](super::board::State) records whether the side to move is
//! in check, i.e. whether the move that produced it gave check, so judging a cycle of
//! positions is a scan of the history. A repetition is the current position's key found an
//! even number of plies back, within the plies since the last capture and null move.
//!
//! When a repetition counts (the rule a referee and the search share):
//! - the game (a referee, `rule_outcome(0)`) ends when a position occurs for the **third**
//!   time; the verdict is judged over all the moves since its first occurrence;
//! - inside a search (`ply` > 0), a cycle whose earlier occurrence lies within the last `ply`
//!   plies, that is inside the searched line (the root included), counts at its **first**
//!   recurrence and is judged over that one cycle: the search assumes the players go round the
//!   same cycle again, which gives the referee's verdict for that cycle. A recurrence of a
//!   position from before the root needs the third occurrence, as for the referee.
//!
//! The verdict, from the side to move's view (checks first, as the Asian and Chinese rules do):
//! 1. a side that gave check with every one of its moves in the cycle while the other did not
//!    loses (`PerpetualCheck`); if both did, it is a draw;
//! 2. otherwise a side each of whose moves in the cycle checked or chased (see `chase`) while
//!    the other side's did not loses (`PerpetualChase`);
//! 3. otherwise the repetition is a draw (`Repetition`).
//!
//! The natural limit: once `move_limit` plies (120 = 60 moves by default) pass without a
//! capture, the game is drawn (`MoveLimit`), unless the side to move has no legal move then,
//! which loses as always. A repetition verdict takes precedence over the limit.

use crate::game::{Outcome, Reason};

use super::board::{Board, State};
use super::chase;

/// The rule result of the position, if the game is over by rule (see the module doc).
pub(crate) fn rule_outcome(board: &Board, ply: usize) -> Option<Outcome> {
    let cur = &board.cur;
    let n = board.hist.len();
    let window = (cur.halfmove.min(cur.from_null) as usize).min(n);
    let mut earlier = false;
    let mut d = 4;
    while d <= window {
        if board.hist[n - d].key == cur.key {
            if d <= ply || earlier {
                return Some(verdict(board, n - d));
            }
            earlier = true;
        }
        d += 2;
    }
    if board.move_limit > 0
        && cur.halfmove >= board.move_limit
        && board.core.has_legal_move(&cur.guard)
    {
        return Some(Outcome::draw(Reason::MoveLimit));
    }
    None
}

/// The state of the position with history index `j` (the current one is index `hist.len()`).
#[inline]
pub(crate) fn state_at(board: &Board, j: usize) -> &State {
    board.hist.get(j).unwrap_or(&board.cur)
}

/// The verdict for the cycle from history index `start` to the current position, which repeats
/// it (see the module doc).
fn verdict(board: &Board, start: usize) -> Outcome {
    let n = board.hist.len();
    // checks[0]: the side to move now, whose moves produced positions n-1, n-3, ...;
    // checks[1]: the other side, whose moves produced n, n-2, ...
    let mut checks = [true; 2];
    for j in start + 1..=n {
        if state_at(board, j).guard.checkers == 0 {
            checks[(n - j + 1) % 2] = false;
        }
    }
    match checks {
        [true, false] => Outcome::loss(Reason::PerpetualCheck),
        [false, true] => Outcome::win(Reason::PerpetualCheck),
        [true, true] => Outcome::draw(Reason::Repetition),
        [false, false] => match chase::violations(board, start) {
            [true, false] => Outcome::loss(Reason::PerpetualChase),
            [false, true] => Outcome::win(Reason::PerpetualChase),
            _ => Outcome::draw(Reason::Repetition),
        },
    }
}
