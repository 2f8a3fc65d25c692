//! Static exchange evaluation for xiangqi.
//!
//! Definition: after the move, the sides alternately capture on its target, each with its
//! least valuable piece that can capture there (ties: the lowest mailbox point), and either
//! side may stop when capturing no longer pays. Pins are ignored, as in chess SEE, except that
//! a general may only capture onto a point the other side no longer attacks (the facing
//! general counts). The value is what the mover gains ([`Kind::value`]).
//!
//! Cannons are why this cannot be done with fixed attacker sets: every capture empties a point
//! and fills the target, so a cannon can gain or lose its screen, a chariot behind a cannon
//! becomes an attacker, and a horse's leg or an elephant's eye can open. So the attackers are
//! found afresh on a copy of the placement after each capture, with the same pseudo-legality
//! test the move generator's table lookups answer to. It costs a few hundred nanoseconds when
//! the quick bounds do not decide, which is rare.

use arrayvec::ArrayVec;

use super::board::Core;
use super::moves::Move;
use super::piece::{general_id, side_mask, CODE, KIND_OF, NO_CODE};

fn value_of(id: u8) -> i32 {
    if CODE[id as usize] == NO_CODE {
        0
    } else {
        KIND_OF[id as usize].value()
    }
}

/// The cheapest piece of the side to move that can capture on `to`: (value, point).
fn least_attacker(core: &Core, to: u8) -> Option<(i32, u8)> {
    let us = core.side;
    let base = side_mask(us);
    let mut best: Option<(i32, u8)> = None;
    for id in base..base + 16 {
        let sq = core.sq_of[id as usize];
        if sq == 0 || !core.pseudo_legal_for(us, Move::mb(sq, to)) {
            continue;
        }
        let v = KIND_OF[id as usize].value();
        if best.is_none_or(|b| (v, sq) < b) {
            best = Some((v, sq));
        }
    }
    best
}

/// The exchange result on the target of `m`, for the mover (see the module doc).
pub(crate) fn see(core: &Core, m: Move) -> i32 {
    let (from, to) = (m.src(), m.dst());
    let mut scratch = *core;
    let mut gains: ArrayVec<i32, 34> = ArrayVec::new();
    gains.push(value_of(core.cells[to as usize]));
    let mut on_target = value_of(core.cells[from as usize]);
    scratch.move_piece(from, to);
    while let Some((value, sq)) = least_attacker(&scratch, to) {
        let us = scratch.side;
        if scratch.cells[sq as usize] == general_id(us) {
            let mut after = scratch;
            after.move_piece(sq, to);
            if after.attacked_after(to, 0, 0, us) {
                break;
            }
        }
        let last = *gains.last().unwrap_or(&0);
        if gains.try_push(on_target - last).is_err() {
            break;
        }
        on_target = value;
        scratch.move_piece(sq, to);
    }
    while gains.len() > 1 {
        let g = gains.pop().unwrap_or(0);
        if let Some(prev) = gains.last_mut() {
            *prev = -(-*prev).max(g);
        }
    }
    gains[0]
}

/// Whether the exchange started by `m` gains at least `threshold` for the mover.
pub(crate) fn see_ge(core: &Core, m: Move, threshold: i32) -> bool {
    if !core.is_pseudo_legal(m) {
        return threshold <= 0;
    }
    let victim = value_of(core.cells[m.dst() as usize]);
    if victim < threshold {
        return false;
    }
    if victim - value_of(core.cells[m.src() as usize]) >= threshold {
        return true;
    }
    see(core, m) >= threshold
}
