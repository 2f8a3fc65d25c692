//! Go: one playout of the playout policy from fixed positions (empty and middle game, 9x9
//! and 19x19). Playouts per second = 1 / time per iteration.
use criterion::{criterion_group, criterion_main, Criterion};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrarch::game::MctsState;
use tetrarch::games::go::positions;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("go_playout");
    for (name, sgf) in positions::BENCH {
        let root = positions::board(sgf);
        let mut b = root.clone();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut trace = Vec::with_capacity(4096);
        group.bench_function(*name, |bench| {
            bench.iter(|| {
                b.clone_from(&root);
                trace.clear();
                b.playout(&mut rng, &mut trace)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
