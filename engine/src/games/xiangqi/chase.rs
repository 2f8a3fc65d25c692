//! Perpetual chase: which side, in a repeated cycle, chased with every move.
//!
//! The Asian (AXF) and Chinese rules forbid chasing an unprotected piece move after move; the
//! full rule book has dozens of special cases. Tetrarch implements this well-defined subset:
//!
//! A move of side X that does not give check **chases** if, in the position after it, X has a
//! *chase pair* (attacker, victim) that it did not have in the position before it (pieces keep
//! their identity as they move). (a, v) is a chase pair of X in a position when:
//! 1. `a` is X's advisor, elephant, horse, chariot or cannon: captures threatened by the
//!    general or by soldiers are allowed;
//! 2. `v` is the opponent's piece other than the general, and not a soldier still on its own
//!    side of the river;
//! 3. X could legally capture `v` with `a` there (X to move; its general safe afterwards);
//! 4. `v` is unprotected: after that capture the opponent has no legal recapture on the point.
//!    A chariot attacked by a horse or a cannon counts as chased even when protected;
//! 5. it is not an offer to exchange: `v` is not of `a`'s value class (chariot; horse and
//!    cannon; the rest) while able to capture `a` legally itself.
//!
//! A side **violates** in a cycle when each of its moves gives check or chases (so "one check,
//! one chase" is forbidden too). Checks are judged first (see `rules`); this module is asked
//! only when neither side checked with every move.
//!
//! Chase information is computed when a repetition is found, not at every move: the cycle is
//! replayed on a stack copy of the placement, so ordinary nodes pay nothing for it.

use arrayvec::ArrayVec;

use crate::game::Side;

use super::board::{Board, Core};
use super::geometry::{side_bit, HALF};
use super::piece::{side_mask, Kind, KIND_OF};
use super::rules::state_at;

/// Chase pairs (attacker id, victim id).
type Pairs = ArrayVec<(u8, u8), 160>;

/// For the cycle from history index `start` to the current position: `[side to move, other]`,
/// whether each side's every move in the cycle checked or chased.
pub(crate) fn violations(board: &Board, start: usize) -> [bool; 2] {
    let n = board.hist.len();
    let mut core = board.core;
    for j in (start + 1..=n).rev() {
        let st = state_at(board, j);
        core.unmove_piece(st.mv.src(), st.mv.dst(), st.captured);
    }
    let mut violates = [true; 2];
    for j in start + 1..=n {
        let st = state_at(board, j);
        let x = core.side;
        let (from, to) = (st.mv.src(), st.mv.dst());
        if violates[x.index()] && st.guard.checkers == 0 {
            let before = pairs(&core, x);
            core.move_piece(from, to);
            let after = pairs(&core, x);
            if after.iter().all(|p| before.contains(p)) {
                violates[x.index()] = false;
            }
        } else {
            core.move_piece(from, to);
        }
    }
    let us = board.core.side;
    [violates[us.index()], violates[us.flip().index()]]
}

/// Value classes for the exchange exemption.
fn class(kind: Kind) -> u8 {
    match kind {
        Kind::Chariot => 3,
        Kind::Horse | Kind::Cannon => 2,
        _ => 1,
    }
}

/// Whether the opponent of `x` could legally recapture on `to` after `x` captures there from
/// `from`.
fn protected(core: &Core, x: Side, from: u8, to: u8) -> bool {
    let mut after = *core;
    after.move_piece(from, to);
    let o = x.flip();
    let base = side_mask(o);
    (base..base + 16).any(|id| {
        let sq = after.sq_of[id as usize];
        sq != 0 && after.can_move(o, sq, to)
    })
}

/// The chase pairs of `x` in this placement (see the module doc), whoever is to move.
pub(crate) fn pairs(core: &Core, x: Side) -> Pairs {
    let mut out = Pairs::new();
    let o = x.flip();
    let (xb, ob) = (side_mask(x), side_mask(o));
    for a in xb + 1..xb + 11 {
        let from = core.sq_of[a as usize];
        if from == 0 {
            continue;
        }
        let ak = KIND_OF[a as usize];
        for v in ob + 1..ob + 16 {
            let to = core.sq_of[v as usize];
            if to == 0 {
                continue;
            }
            let vk = KIND_OF[v as usize];
            if vk == Kind::Soldier && HALF[to as usize] & side_bit(o) != 0 {
                continue;
            }
            if !core.can_move(x, from, to) {
                continue;
            }
            if class(ak) == class(vk) && core.can_move(o, to, from) {
                continue;
            }
            let always = vk == Kind::Chariot && matches!(ak, Kind::Horse | Kind::Cannon);
            if !always && protected(core, x, from, to) {
                continue;
            }
            out.push((a, v));
        }
    }
    out
}
