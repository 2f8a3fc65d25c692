//! Debug probe: mean playout result of every legal move from a position given as SGF.
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrarch::game::MctsState;
use tetrarch::games::go::{Move, Record};

fn main() {
    let sgf = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let rec = Record::from_sgf(&sgf, None, None, 7.5).unwrap();
    let root = rec.board().clone();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    let mut res = Vec::new();
    let mut trace = Vec::new();
    for m in moves {
        let mut after = root.clone();
        after.play(m);
        let mut sum = 0.0;
        for _ in 0..n {
            let mut b = after.clone();
            trace.clear();
            sum += 1.0 - b.playout(&mut rng, &mut trace).value;
        }
        res.push((sum / n as f32, root.vertex(m)));
    }
    res.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for (v, m) in res
        .iter()
        .filter(|(_, m)| m == "F5")
        .chain(res.iter().take(12))
    {
        println!("{m} {v:.3}");
    }
    let _ = Move::PASS;
}
