//! Draughts: move generation (perft), evaluation, and the shared search to a fixed depth on one
//! thread from a fresh table (the draughts part of the bench until `tetrarch bench` covers it).

use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use crossbeam::channel;
use tetrarch::game::{Evaluator, Notation};
use tetrarch::games::draughts::{Board, Eval, Move};
use tetrarch::limits::Limits;
use tetrarch::perft::perft;
use tetrarch::report::{Iteration, Reporter};
use tetrarch::search::Engine;

const POSITIONS: [(&str, &str); 3] = [
    ("start", "W:W31-50:B1-20"),
    (
        "middlegame",
        "W:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,44:B3,6,7,8,9,11,12,13,14,16,17,18,19,21,26",
    ),
    (
        "kings",
        "W:WK2,K19,K28,K37,K46,31,33,35:BK5,K14,K23,K41,K50,16,18,20",
    ),
];

struct Done(channel::Sender<Option<Move>>);

impl Reporter<Board> for Done {
    fn iteration(&self, _: &Iteration<'_, Board>) {}
    fn best_move(&self, _: &Board, best: Option<Move>, _: Option<Move>) {
        let _ = self.0.send(best);
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("draughts");
    g.sample_size(10);
    let start = Board::start();
    g.bench_function("perft_start_6", |b| {
        b.iter(|| perft(&mut black_box(start.clone()), 6))
    });
    for (name, fen) in POSITIONS {
        let pos = Board::from_text(fen).expect("bench position");
        let mut eval = Eval::default();
        g.bench_function(format!("eval_{name}"), |b| {
            b.iter(|| eval.evaluate(black_box(&pos)))
        });
        let mut engine = Engine::new(pos.clone(), Eval::default());
        g.bench_function(format!("search_{name}_depth_9"), |b| {
            b.iter(|| {
                engine.new_game();
                engine.set_position(pos.clone(), &[]);
                let (tx, rx) = channel::bounded(1);
                engine.go(Limits::depth(9), Arc::new(Done(tx)));
                let best = rx.recv().expect("a best move");
                engine.wait();
                best
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
