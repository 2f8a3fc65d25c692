//! Playouts per second on the benchmark positions, one thread: the bare playout policy, and
//! the whole search (tree descent, expansion with priors, playout, backup).
//!
//! `cargo run --release -p tetrarch-engine --example go_playouts [seconds] [knob=value ...]`
//!
//! Rates are per second of the thread's own CPU time (from `/proc/thread-self/schedstat`,
//! where available, else wall time), so a busy machine disturbs them less.
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrarch::game::MctsState;
use tetrarch::games::go::positions;
use tetrarch::mcts::{Config, Mcts, PlayoutLimits};
use tetrarch::time::TimeBudget;

/// Nanoseconds this thread has run on a CPU, if the kernel tells.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Seconds of this thread's CPU time (or wall time) since `(wall, cpu)`.
fn seconds_since(start: (Instant, Option<u64>)) -> f64 {
    match (start.1, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => start.0.elapsed().as_secs_f64(),
    }
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    for arg in std::env::args().skip(2) {
        let (name, value) = arg.split_once('=').expect("knob=value");
        assert!(
            tetrarch::games::go::knobs::set(name, value.parse().expect("an integer")),
            "no knob {name}"
        );
    }
    for (name, sgf) in positions::BENCH {
        let root = positions::board(sgf);
        // Bare playouts.
        let mut rng = SmallRng::seed_from_u64(1);
        let mut b = root.clone();
        let mut trace = Vec::with_capacity(4096);
        let start = (Instant::now(), cpu_ns());
        let mut n = 0u64;
        while seconds_since(start) < secs {
            for _ in 0..20 {
                b.clone_from(&root);
                trace.clear();
                b.playout(&mut rng, &mut trace);
                n += 1;
            }
        }
        let bare = n as f64 / seconds_since(start);
        // The search.
        // As the engine sets it: expansion after 2 visits up to 9x9, 8 above.
        let mut mcts: Mcts<tetrarch::games::go::Board> = Mcts::new(Config {
            threads: 1,
            expand_visits: if root.size() <= 9 { 2 } else { 8 },
            ..Config::default()
        });
        let ms = (secs * 1000.0) as u64;
        let limits = PlayoutLimits {
            time: Some(TimeBudget {
                optimum_ms: ms,
                maximum_ms: ms,
            }),
            ..PlayoutLimits::default()
        };
        let start = (Instant::now(), cpu_ns());
        let snap = mcts.search(&root, &limits, &AtomicBool::new(false), &mut |_| {});
        let search = snap.playouts as f64 / seconds_since(start);
        println!(
            "{name:>18}: {bare:>7.0} playouts/s bare, {search:>7.0} in the search ({} nodes)",
            mcts.tree_size()
        );
    }
}
