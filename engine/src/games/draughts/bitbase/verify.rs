//! A check of loaded tables by forward generation: every sampled position's value must be
//! the best over its successors' values (no move: a loss), read through the board's own move
//! generator and make, and through [`Bitbases::probe`] with the side to move as it comes.
//! With exact values of the smaller classes this pins each value down except in cycles of
//! draws, which the forward-search test (`tests`) covers on small classes.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::super::board::Board;
use super::{Bitbases, Class, Wdl};
use crate::game::{GenKind, MoveList, Position, Side};

/// The best value over the successors of `b` for its side to move, or `None` when a
/// successor's class is not loaded.
pub fn forward_value(db: &Bitbases, b: &mut Board) -> Option<Wdl> {
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    let mut best = Wdl::Loss;
    for &m in moves.iter() {
        let u = b.make(m);
        let v = db.probe(b).map(Wdl::flip);
        b.unmake(m, u);
        match v? {
            Wdl::Win => return Some(Wdl::Win),
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Loss => {}
        }
    }
    Some(best)
}

/// Checks `samples` random positions of `class` (each both with White to move and, mirrored,
/// with Black to move). Returns how many were checked, or the first position that fails.
pub fn verify_class(db: &Bitbases, class: Class, samples: u64, seed: u64) -> Result<u64, String> {
    let table = db
        .table(class)
        .ok_or_else(|| format!("no table for {class}"))?;
    let mut rng = SmallRng::seed_from_u64(seed ^ class.key() as u64);
    let mut checked = 0;
    let mut tries = 0;
    while checked < samples && tries < samples * 4 {
        tries += 1;
        let i = rng.gen_range(0..class.size());
        let Some(p) = class.unindex(i) else {
            continue;
        };
        let want = table.get(i);
        for (q, side) in [(p, Side::First), (p.mirror(), Side::Second)] {
            let mut b = Board::from_parts(q.white, q.black, q.kings, side);
            let got = forward_value(db, &mut b);
            if db.probe(&b) != Some(want) || got != Some(want) {
                return Err(format!(
                    "{class}: {} holds {want:?}, its successors say {got:?}",
                    crate::game::Notation::to_text(&b)
                ));
            }
        }
        checked += 1;
    }
    Ok(checked)
}
