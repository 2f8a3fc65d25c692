//! Checks of the generated tables by other means than the generator's: the forward move
//! generator and make of the board (every value is the best over its successors), a plain
//! forward search on sampled positions, and known endgame facts.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::game::{GenKind, MoveList, Notation, Position};

/// The tables of up to 3 pieces, generated once for all the tests here.
static THREE: once_cell::sync::Lazy<Bitbases> = once_cell::sync::Lazy::new(|| build(3));

/// Tables of every class of up to `max` pieces, generated in memory.
pub(crate) fn build(max: usize) -> Bitbases {
    let mut db = Bitbases::new();
    for c in order(max) {
        for t in generate(c, &db, 2, &|_| {}) {
            db.insert(t);
        }
    }
    db
}

fn board_of(p: Pieces, side: Side) -> Board {
    Board::from_parts(p.white, p.black, p.kings, side)
}

/// The best successor value by forward generation, as the side to move of `b` sees it.
fn forward_value(db: &Bitbases, b: &mut Board) -> Wdl {
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    let mut best = Wdl::Loss;
    for &m in moves.iter() {
        let u = b.make(m);
        let v = db.probe(b).expect("successor class loaded").flip();
        b.unmake(m, u);
        if v == Wdl::Win {
            return Wdl::Win;
        }
        if v == Wdl::Draw {
            best = Wdl::Draw;
        }
    }
    best
}

/// A forced result within `depth` plies by plain negamax, or `None`.
fn search(b: &mut Board, depth: u32) -> Option<Wdl> {
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    if moves.is_empty() {
        return Some(Wdl::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut all_lost = true;
    for &m in moves.iter() {
        let u = b.make(m);
        let v = search(b, depth - 1).map(Wdl::flip);
        b.unmake(m, u);
        match v {
            Some(Wdl::Win) => return Some(Wdl::Win),
            Some(Wdl::Loss) => {}
            _ => all_lost = false,
        }
    }
    all_lost.then_some(Wdl::Loss)
}

#[test]
fn every_value_is_the_best_over_its_successors() {
    let db = &*THREE;
    assert_eq!(db.len(), 4 + 12);
    let mut checked = 0;
    for n in 2..=3 {
        for c in Class::all_with(n) {
            let t = db.table(c).expect("generated");
            for i in 0..c.size() {
                let Some(p) = c.unindex(i) else { continue };
                let mut b = board_of(p, Side::First);
                assert_eq!(t.get(i), forward_value(db, &mut b), "{c} {}", b.to_text());
                // The Black-to-move position reads the mirror's table.
                let mut bb = board_of(p.mirror(), Side::Second);
                assert_eq!(db.probe(&bb), Some(t.get(i)));
                assert_eq!(forward_value(db, &mut bb), t.get(i));
                checked += 1;
            }
        }
    }
    assert!(checked > 800_000, "{checked}");
}

#[test]
fn forward_search_agrees_on_sampled_positions() {
    let db = &*THREE;
    let mut rng = SmallRng::seed_from_u64(17);
    let classes = Class::all_with(3);
    let mut decided = [0u32; 3];
    for _ in 0..3000 {
        let c = classes[rng.gen_range(0..classes.len())];
        let Some(p) = c.unindex(rng.gen_range(0..c.size())) else {
            continue;
        };
        let side = if rng.gen_bool(0.5) {
            Side::First
        } else {
            Side::Second
        };
        let mut b = board_of(p, side);
        let want = db.probe(&b).expect("loaded");
        if let Some(v) = search(&mut b, 5) {
            assert_eq!(v, want, "{}", b.to_text());
            decided[(v == Wdl::Loss) as usize] += 1;
        } else {
            decided[2] += 1;
        }
    }
    // The sample must prove both wins and losses, or the test checks nothing.
    assert!(decided[0] > 100 && decided[1] > 100, "{decided:?}");
}

#[test]
fn known_endgames() {
    let db = &*THREE;
    let probe = |fen: &str| db.probe(&Board::from_text(fen).unwrap()).unwrap();
    // Two kings against one, nothing en prise: a draw (the lone king runs the long diagonal).
    assert_eq!(probe("W:WK1,K2:BK46"), Wdl::Draw);
    // A king takes a lone man on an open diagonal.
    let b = Board::from_text("W:WK46:B23").unwrap();
    assert_eq!(b.to_text(), "W:WK46:B23");
    assert_eq!(probe("W:WK46:B23"), Wdl::Win);
    // Man against man: wins, draws and losses all occur (races to the far row, opposition).
    let one_each = Table::tally(db.table(Class::new(1, 0, 1, 0)).unwrap());
    assert!(one_each[0] > 0 && one_each[2] > 0 && one_each[1] > 0);
    // King against king: mostly drawn, but a king in the single corner (square 5, one
    // diagonal only) facing the enemy king in the other corner must step into its capture,
    // and so must the other king in its corner (46): whoever moves loses.
    let kk = Table::tally(db.table(Class::new(0, 1, 0, 1)).unwrap());
    assert!(kk[0] > 0 && kk[2] > 0 && kk[1] > kk[0] + kk[2], "{kk:?}");
    assert_eq!(probe("W:WK5:BK46"), Wdl::Loss);
    assert_eq!(probe("B:WK5:BK46"), Wdl::Loss);
    assert_eq!(probe("W:WK5:BK41"), Wdl::Win);
    assert_eq!(probe("W:WK1:BK50"), Wdl::Draw);
}

#[test]
fn no_bitbases_no_probe() {
    let empty = Bitbases::new();
    assert_eq!(empty.probe(&Board::start()), None);
    let db = build(2);
    assert_eq!(db.probe(&Board::start()), None);
    assert!(db.probe(&Board::from_text("W:WK1:BK50").unwrap()).is_some());
}
