//! Draughts: perft in both counting conventions (last ply counted in bulk), move generation
//! and counting per position, evaluation, and the shared search to a fixed depth on one
//! thread from a fresh table (the draughts part of the bench until `tetrarch bench` covers it).
//! The positions: the start, a middlegame, a king ending, and a long king capture with many
//! paths.

use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use crossbeam::channel;
use tetrarch::game::{Evaluator, GenKind, MoveList, Notation, Position};
use tetrarch::games::draughts::{perft_distinct, perft_paths, Board, Eval, Move};
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

/// From the perft file (random178): Black's king takes 15 pieces in 436 paths, which make 14
/// distinct moves; the worst case for the capture search and its duplicate check.
const CAPTURES: &str = "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24";

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
    // The generic perft (every leaf listed) beside the bulk-counting ones.
    g.bench_function("perft_start_6", |b| {
        b.iter(|| perft(&mut black_box(start.clone()), 6))
    });
    g.bench_function("perft_distinct_start_7", |b| {
        b.iter(|| perft_distinct(&mut black_box(start.clone()), 7))
    });
    g.bench_function("perft_paths_start_7", |b| {
        b.iter(|| perft_paths(&mut black_box(start.clone()), 7))
    });
    let kings = Board::from_text(POSITIONS[2].1).expect("bench position");
    g.bench_function("perft_distinct_kings_4", |b| {
        b.iter(|| perft_distinct(&mut black_box(kings.clone()), 4))
    });
    for (name, fen) in POSITIONS.iter().chain(&[("captures", CAPTURES)]) {
        let pos = Board::from_text(fen).expect("bench position");
        g.bench_function(format!("generate_{name}"), |b| {
            b.iter(|| {
                let mut moves = MoveList::new();
                black_box(&pos).generate(GenKind::All, &mut moves);
                moves.len()
            })
        });
        g.bench_function(format!("count_{name}"), |b| {
            b.iter(|| black_box(&pos).count_moves())
        });
        if *name == "captures" {
            continue;
        }
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
