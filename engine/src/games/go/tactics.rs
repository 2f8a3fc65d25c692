//! Local tactics: ladders (reading ahead on copies of the board) and nakade self-ataris.
//!
//! Scheme: a group with two liberties, the attacker to move, is *in a ladder* when the
//! attacker can atari it on one liberty, the defender's only answer is to extend on the other,
//! and that repeats until the group is captured: the defender never captures an attacking
//! stone and never reaches three liberties. The reader plays the sequence out on one copy of
//! the board, and copies again only where both ataris at a step are worth trying (a
//! per-thread stack of scratch boards, so nothing is allocated after the first use), within a
//! small node budget; an unfinished read counts as an escape.
//!
//! A *nakade* self-atari is a move that puts a small group (at most three stones) into atari
//! inside a space the opponent encloses on its own: the group's last liberty touches nothing
//! but the group, opponent stones and the edge. Captured, it leaves the opponent an eye space
//! of at most three points, one eye at best; so the sacrifice is how such a space is killed,
//! and the playouts and priors must not refuse it as they refuse other self-ataris. Under area
//! scoring the stones given up cost nothing when the opponent lives anyway.

use std::cell::RefCell;

use super::board::{stone, Board};
use crate::game::Side;

thread_local! {
    static STACK: RefCell<Vec<Box<Board>>> = const { RefCell::new(Vec::new()) };
}

/// Nodes (ataris tried) one ladder read may visit.
const BUDGET: u32 = 48;

impl Board {
    /// Whether `side` playing at empty `p` is a nakade self-atari (see the module doc) of a
    /// group of at most `max_stones` stones: no capture, one liberty left, and that liberty
    /// next to nothing but the group, opponent stones and the edge. Cheap enough for the
    /// playouts, which ask only about moves already known to be self-ataris.
    pub fn is_nakade(&self, p: usize, side: Side, max_stones: usize) -> bool {
        let me = stone(side);
        let enemy = stone(side.flip());
        // The group after the move: p and the own groups next to it.
        let mut stones: [u16; 8] = [0; 8];
        let mut n = 1;
        stones[0] = p as u16;
        let mut heads: [u16; 4] = [0; 4];
        let mut nh = 0;
        for q in self.neighbours(p) {
            let c = self.at(q);
            if c == enemy && self.in_atari(self.group_of(q)) {
                return false; // a capture, not a sacrifice
            }
            if c != me {
                continue;
            }
            let g = self.group_of(q);
            if heads[..nh].contains(&(g as u16)) {
                continue;
            }
            heads[nh] = g as u16;
            nh += 1;
            if n + self.group_size(g) > max_stones.min(stones.len()) {
                return false;
            }
            for s in self.group_stones(g) {
                stones[n] = s as u16;
                n += 1;
            }
        }
        let stones = &stones[..n];
        // Its one liberty.
        let mut lib = None;
        for &s in stones {
            for q in self.neighbours(s as usize) {
                if self.at(q) != super::board::EMPTY || q == p {
                    continue;
                }
                match lib {
                    None => lib = Some(q),
                    Some(l) if l == q => {}
                    Some(_) => return false, // two liberties: no self-atari
                }
            }
        }
        let Some(lib) = lib else {
            return false; // suicide
        };
        // The space is closed: the liberty touches only the group, the opponent, the edge.
        self.neighbours(lib).iter().all(|&q| {
            let c = self.at(q);
            c == enemy || c == super::board::BORDER || stones.contains(&(q as u16))
        })
    }

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
            let (b, rest) = stack.split_first_mut().unwrap();
            b.copy_position_from(self);
            ladder(rest, b, g, side.flip(), &mut budget)
        })
    }
}

/// Scratch boards a read can use: the starting copy, and one for each atari tried with
/// another still to try, which the budget bounds.
const SCRATCH_BOARDS: usize = BUDGET as usize + 1;

/// Runs `f` with this thread's scratch boards (created on first use).
fn with_stack<T>(f: impl FnOnce(&mut [Box<Board>]) -> T) -> T {
    STACK.with(|stack| {
        let mut stack = stack.borrow_mut();
        while stack.len() < SCRATCH_BOARDS {
            stack.push(Box::new(Board::scratch()));
        }
        f(&mut stack)
    })
}

/// With the defender's group at `g` on two liberties and the attacker to move on `b`: the
/// atari that leads to capture, if any. `b` is a scratch board the read may play on: the last
/// atari tried is played on `b` itself, and only an atari with another still to try after it
/// is read on a copy (`stack[0]`, deeper branches on the rest). Most ladders have one atari
/// worth trying at each step, so a read of any length costs about one copy of the board.
fn ladder(
    stack: &mut [Box<Board>],
    b: &mut Board,
    g: usize,
    defender: Side,
    budget: &mut u32,
) -> Option<usize> {
    let attacker = defender.flip();
    let (tries, n) = ataris_to_read(b, g, attacker);
    for (i, &a) in tries[..n].iter().enumerate() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let works = if i + 1 < n {
            let (c, rest) = stack.split_first_mut()?;
            c.copy_position_from(b);
            c.set_to_move(attacker);
            c.play_fast(super::Move::at(a));
            defender_loses(c, g, defender, |c| ladder(rest, c, g, defender, budget))
        } else {
            b.set_to_move(attacker);
            b.play_fast(super::Move::at(a));
            defender_loses(b, g, defender, |b| ladder(stack, b, g, defender, budget))
        };
        if works {
            return Some(a);
        }
    }
    None
}

/// The ataris worth reading against the group at `g` on two liberties, `attacker` to move on
/// `b`, and how many there are (0 to 2): legal, not capturable at once, and not answered by
/// three liberties. An atari whose escape point has three empty neighbours besides the atari
/// itself gives the defender three liberties when it extends: no ladder there, and nothing to
/// read to see it. The atari with the more closed escape comes first.
fn ataris_to_read(b: &Board, g: usize, attacker: Side) -> ([usize; 2], usize) {
    let mut tries = [0usize; 2];
    let mut libs = [0u16; 2];
    if b.liberties(b.group_of(g), 2, &mut libs) != 2 {
        return (tries, 0);
    }
    let open = |a: u16, e: u16| {
        b.neighbours(e as usize)
            .iter()
            .filter(|&&q| q != a as usize && b.at(q) == super::board::EMPTY)
            .count()
    };
    let (o0, o1) = (open(libs[0], libs[1]), open(libs[1], libs[0]));
    if o1 < o0 {
        libs.swap(0, 1);
    }
    let mut n = 0;
    for (&a, open) in libs.iter().zip([o0.min(o1), o0.max(o1)]) {
        let a = a as usize;
        if open < 3 && b.is_legal_fast(a, attacker) && b.libs_after(a, attacker, 2).0 >= 2 {
            tries[n] = a;
            n += 1;
        }
    }
    (tries, n)
}

/// The defender's group at `g` is in atari on `c` (defender to move): whether every answer
/// fails (it cannot capture an attacker, and extending gives at most a further ladder, which
/// `read_on` reads on `c` with the attacker to move).
fn defender_loses(
    c: &mut Board,
    g: usize,
    defender: Side,
    read_on: impl FnOnce(&mut Board) -> Option<usize>,
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
        2 => read_on(c).is_some(),
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
    fn nakade_self_ataris_are_told_from_other_self_ataris() {
        // The game that showed the need (GNU Go as Black against Tetrarch, 9x9): White's
        // corner group shares A9 and B7 with Black's A7-A8. Black B7 is a three-stone
        // self-atari; White's capture at A9 leaves it a bent three, which Black kills at A7.
        let b = board(
            9,
            &[
                "A8", "A7", "D8", "E8", "E9", "F8", "F7", "D6", "E6", "B5", "C5", "D5", "A4",
            ],
            &[
                "B9", "C9", "D9", "B8", "C8", "C7", "D7", "E7", "A6", "B6", "C6", "A5",
            ],
        );
        assert!(b.is_self_atari(pt(&b, "B7"), Side::First));
        assert!(b.is_nakade(pt(&b, "B7"), Side::First, 3));
        assert!(!b.is_nakade(pt(&b, "B7"), Side::First, 2), "three stones");
        // A9 is a self-atari too, and as closed: a nakade as well.
        assert!(b.is_nakade(pt(&b, "A9"), Side::First, 3));
        // White filling its own liberty is a self-atari of its big group: no nakade.
        assert!(!b.is_nakade(pt(&b, "B7"), Side::Second, 3));
        // A two-stone self-atari whose liberty opens onto empty points is no nakade.
        let open = board(9, &["D5"], &["C5", "E5", "D6", "C4", "E4", "E3"]);
        assert!(open.is_self_atari(pt(&open, "D4"), Side::First));
        assert!(!open.is_nakade(pt(&open, "D4"), Side::First, 3));
        // Not a self-atari at all: two liberties.
        assert!(!b.is_nakade(pt(&b, "J1"), Side::First, 3));
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

/// The reader against a plain one that reads every atari on a fresh copy of the board, with
/// the same choices and the same budget: playing the last atari on the board itself must not
/// change any answer.
#[cfg(test)]
mod reference {
    use super::*;
    use crate::games::go::board::EMPTY;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn ladder_ref(b: &Board, g: usize, defender: Side, budget: &mut u32) -> Option<usize> {
        let attacker = defender.flip();
        let (tries, n) = ataris_to_read(b, g, attacker);
        for &a in &tries[..n] {
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let mut c = b.clone();
            c.set_to_move(attacker);
            c.play_fast(super::super::Move::at(a));
            if defender_loses(&mut c, g, defender, |c| ladder_ref(c, g, defender, budget)) {
                return Some(a);
            }
        }
        None
    }

    #[test]
    fn reading_on_the_board_itself_answers_as_reading_on_copies() {
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut groups, mut ladders) = (0, 0);
        for game in 0..60 {
            let size = [9, 13, 19][game % 3];
            let mut b = Board::new(size);
            let moves = rng.gen_range(10..size * size * 2 / 3);
            for _ in 0..moves {
                let side = b.to_move();
                let legal: Vec<usize> = b
                    .board_points()
                    .filter(|&p| b.at(p) == EMPTY && b.is_legal_fast(p, side) && !b.is_eye(p, side))
                    .collect();
                if legal.is_empty() {
                    break;
                }
                b.play_fast(super::super::Move::at(legal[rng.gen_range(0..legal.len())]));
            }
            for p in b.board_points() {
                let c = b.at(p);
                if c == EMPTY || b.group_of(p) != p {
                    continue;
                }
                if b.liberty_count(p, 3) != 2 {
                    continue;
                }
                groups += 1;
                let defender = if c == stone(Side::First) {
                    Side::First
                } else {
                    Side::Second
                };
                let fast = with_stack(|stack| {
                    let mut budget = BUDGET;
                    let (s, rest) = stack.split_first_mut().unwrap();
                    s.copy_position_from(&b);
                    ladder(rest, s, p, defender, &mut budget)
                });
                let mut budget = BUDGET;
                let plain = ladder_ref(&b, p, defender, &mut budget);
                assert_eq!(fast, plain, "game {game}, group at {p}\n{b:?}");
                ladders += fast.is_some() as usize;
            }
        }
        // The positions must hold both kinds of answer for the comparison to mean anything.
        assert!(
            groups > 200 && ladders > 20,
            "{groups} groups, {ladders} ladders"
        );
    }
}
