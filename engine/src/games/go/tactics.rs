//! Reading ahead on copies of the board: ladders.
//!
//! Scheme: a group with two liberties, the attacker to move, is *in a ladder* when the
//! attacker can atari it on one liberty, the defender's only answer is to extend on the other,
//! and that repeats until the group is captured: the defender never captures an attacking
//! stone and never reaches three liberties. The reader tries both ataris at each step on
//! copies of the board (a per-thread stack of scratch boards, so nothing is allocated after
//! the first use) within a small node budget; an unfinished read counts as an escape.

use std::cell::RefCell;

use super::board::{stone, Board};
use crate::game::Side;

thread_local! {
    static STACK: RefCell<Vec<Box<Board>>> = const { RefCell::new(Vec::new()) };
}

/// Nodes (ataris tried) one ladder read may visit.
const BUDGET: u32 = 48;

impl Board {
    /// Whether `side` playing at empty `p` leaves a group with exactly two liberties that the
    /// opponent captures in a ladder. False when the move gives more or fewer liberties.
    pub fn extends_into_ladder(&self, p: usize, side: Side) -> bool {
        if self.libs_after(p, side, 3).0 != 2 {
            return false;
        }
        with_stack(|stack| {
            let mut budget = BUDGET;
            let (b, rest) = stack.split_first_mut().unwrap();
            b.copy_position_from(self);
            b.set_to_move(side);
            b.play_fast(super::Move::at(p));
            ladder(rest, b, p, side, &mut budget).is_some()
        })
    }

    /// Whether the opponent's group at `g` (a stone), holding two liberties, is captured in a
    /// ladder with `side` (the attacker) to move.
    pub fn is_laddered(&self, g: usize, side: Side) -> bool {
        self.ladder_atari(g, side).is_some()
    }

    /// The atari that starts a working ladder against the opponent's group at `g` (two
    /// liberties), `side` to move.
    pub fn ladder_atari(&self, g: usize, side: Side) -> Option<usize> {
        let head = self.group_of(g);
        let mut libs = [0u16; 3];
        if self.liberties(head, 3, &mut libs) != 2 {
            return None;
        }
        // Quick exits: an atari the defender answers with three liberties at once is no
        // ladder, and most candidates end there without reading. First by counting the
        // escape point's empty neighbours, then by its liberties after extending.
        let promising = (0..2).any(|i| {
            let (a, e) = (libs[i] as usize, libs[1 - i] as usize);
            let open = self
                .neighbours(e)
                .iter()
                .filter(|&&q| q != a && self.at(q) == super::board::EMPTY)
                .count();
            open < 3 && self.is_legal_fast(a, side) && self.libs_after(e, side.flip(), 4).0 <= 3
        });
        if !promising {
            return None;
        }
        with_stack(|stack| {
            let mut budget = BUDGET;
            ladder(stack, self, g, side.flip(), &mut budget)
        })
    }
}

/// Longest ladder read, in atari-extension pairs.
const MAX_LADDER: usize = 30;

/// Runs `f` with this thread's scratch boards (created on first use, one per ply a ladder
/// read can reach).
fn with_stack<T>(f: impl FnOnce(&mut [Box<Board>]) -> T) -> T {
    STACK.with(|stack| {
        let mut stack = stack.borrow_mut();
        while stack.len() < 2 * MAX_LADDER + 4 {
            stack.push(Box::new(Board::scratch()));
        }
        f(&mut stack)
    })
}

/// With the defender's group at `g` on two liberties and the attacker to move on `b`: the
/// atari that leads to capture, if any. Positions after each atari go to `stack[0]`, deeper
/// reading to the rest.
fn ladder(
    stack: &mut [Box<Board>],
    b: &Board,
    g: usize,
    defender: Side,
    budget: &mut u32,
) -> Option<usize> {
    let attacker = defender.flip();
    let mut libs = [0u16; 2];
    if b.liberties(b.group_of(g), 2, &mut libs) != 2 {
        return None;
    }
    let (c, rest) = stack.split_first_mut()?;
    for &a in &libs {
        if *budget == 0 || rest.is_empty() {
            return None;
        }
        *budget -= 1;
        let a = a as usize;
        // The atari must be legal and must not itself be capturable at once.
        if !b.is_legal_fast(a, attacker) || b.libs_after(a, attacker, 2).0 < 2 {
            continue;
        }
        c.copy_position_from(b);
        c.set_to_move(attacker);
        c.play_fast(super::Move::at(a));
        if defender_loses(rest, c, g, defender, budget) {
            return Some(a);
        }
    }
    None
}

/// The defender's group at `g` is in atari on `c` (defender to move): whether every answer
/// fails (it cannot capture an attacker, and extending gives at most a further ladder).
fn defender_loses(
    stack: &mut [Box<Board>],
    c: &mut Board,
    g: usize,
    defender: Side,
    budget: &mut u32,
) -> bool {
    let head = c.group_of(g);
    if !c.in_atari(head) {
        return false;
    }
    // Capturing any attacking group in atari next to the defender breaks the ladder.
    let enemy = stone(defender.flip());
    for s in c.group_stones(head) {
        for q in c.neighbours(s) {
            if c.at(q) == enemy && c.in_atari(c.group_of(q)) {
                return false;
            }
        }
    }
    let lib = c.atari_liberty(head);
    if !c.is_legal_fast(lib, defender) {
        return true;
    }
    c.set_to_move(defender);
    c.play_fast(super::Move::at(lib));
    match c.liberty_count(c.group_of(g), 3) {
        0 | 1 => true,
        2 => ladder(stack, c, g, defender, budget).is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(size: usize, black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new(size);
        for (list, side) in [(black, Side::First), (white, Side::Second)] {
            for v in list {
                let p = b.parse_vertex(v).unwrap().point().unwrap();
                b.setup_stone(p, side).unwrap();
            }
        }
        b
    }

    fn pt(b: &Board, v: &str) -> usize {
        b.parse_vertex(v).unwrap().point().unwrap()
    }

    #[test]
    fn ladder_on_an_open_board_works_and_a_breaker_stops_it() {
        // White D4-E4 on two liberties (E5, F4), black C4, D5, D3, E3, black to move.
        let open = board(9, &["C4", "D5", "D3", "E3"], &["D4", "E4"]);
        assert!(open.is_laddered(pt(&open, "D4"), Side::First));
        // A white stone on the ladder's diagonal path breaks it.
        for breaker in ["G6", "F6", "H7"] {
            let b = board(9, &["C4", "D5", "D3", "E3"], &["D4", "E4", breaker]);
            assert!(!b.is_laddered(pt(&b, "D4"), Side::First), "{breaker}");
        }
        // A black stone there makes it work all the more; Black to move only.
        let b = board(9, &["C4", "D5", "D3", "E3", "G6"], &["D4", "E4"]);
        assert!(b.is_laddered(pt(&b, "E4"), Side::First));
    }

    #[test]
    fn three_liberties_are_no_ladder() {
        let b = board(9, &["C4"], &["D4"]);
        assert!(!b.is_laddered(pt(&b, "D4"), Side::First));
        assert!(!b.extends_into_ladder(pt(&b, "E4"), Side::Second));
    }

    #[test]
    fn extension_into_a_ladder_is_seen() {
        // White D4 in atari (black C4, D5, D3): extending at E4 gives E5, F4, E3: three
        // liberties, no ladder. With black E3 too, the extension has two and is laddered.
        let b = board(9, &["C4", "D5", "D3"], &["D4"]);
        assert!(!b.extends_into_ladder(pt(&b, "E4"), Side::Second));
        let b = board(9, &["C4", "D5", "D3", "E3"], &["D4"]);
        assert!(b.extends_into_ladder(pt(&b, "E4"), Side::Second));
    }
}
