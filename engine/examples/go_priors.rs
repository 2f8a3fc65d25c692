//! The cost of the learned move priors on the benchmark positions: one call computes the
//! strength of every candidate move (what a tree node gets when it reaches
//! `prior_learned_visits`), and the context it needs (ladder reading included).
//!
//! `cargo run --release -p tetrarch-engine --example go_priors [calls]`
//!
//! Times are per call, in this thread's own CPU time where the kernel tells it
//! (`/proc/thread-self/schedstat`), so a busy machine disturbs them less; for a figure that
//! load cannot touch, count instructions with `valgrind --tool=callgrind`.
use std::time::Instant;

use tetrarch::games::go::move_features::{candidates, move_strengths};
use tetrarch::games::go::positions;

fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let calls: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    for (name, sgf) in positions::BENCH {
        let b = positions::board(sgf);
        let mut moves = Vec::new();
        candidates(&b, &mut moves);
        let mut out: Vec<f32> = Vec::with_capacity(moves.len());
        let mut checksum = 0.0f64;
        let (wall, cpu) = (Instant::now(), cpu_ns());
        for _ in 0..calls {
            out.clear();
            move_strengths(&b, &moves, &mut out);
            checksum += out.iter().map(|&s| s as f64).sum::<f64>();
        }
        let secs = match (cpu, cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 / 1e9,
            _ => wall.elapsed().as_secs_f64(),
        };
        println!(
            "{name:>18}: {:>4} moves, {:>8.1} us a call (checksum {:.6e})",
            moves.len(),
            secs * 1e6 / calls as f64,
            checksum / calls as f64
        );
    }
}
