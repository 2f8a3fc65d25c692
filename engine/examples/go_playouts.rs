//! Playouts per second of the Go playout policy, one thread: `cargo run --release --example
//! go_playouts -p tetrarch-engine [size] [seconds]`.
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrarch::game::MctsState;
use tetrarch::games::go::Board;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let root = Board::new(size);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut b = root.clone();
    let mut trace = Vec::with_capacity(4096);
    let start = Instant::now();
    let mut n = 0u64;
    let mut moves = 0u64;
    let mut black = 0.0;
    while start.elapsed().as_secs_f64() < secs {
        for _ in 0..100 {
            b.clone_from(&root);
            trace.clear();
            black += b.playout(&mut rng, &mut trace).value as f64;
            moves += trace.len() as u64;
            n += 1;
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{size}x{size}: {:.0} playouts/s, {:.1} stone moves per playout, black wins {:.3}",
        n as f64 / t,
        moves as f64 / n as f64,
        black / n as f64
    );
}
