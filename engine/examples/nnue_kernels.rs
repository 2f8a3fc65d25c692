//! A fixed workload of the network's inner loops at one instruction set level, for counting
//! instructions (`perf stat -e instructions`), which unlike wall time does not depend on the
//! machine's load.
//!
//! Usage: `nnue_kernels <portable|avx2|avx512> [hidden] [iterations]`. Runs `iterations`
//! (default 2,000,000) accumulator updates (a capture: one row added, two taken off) and half
//! as many output dot products, and prints a checksum so the work cannot be optimised away.

use tetrarch::nnue::simd::{screlu_dot, update, Level};

fn main() {
    let mut args = std::env::args().skip(1);
    let level = match args.next().as_deref() {
        Some("portable") => Level::Portable,
        Some("avx2") => Level::Avx2,
        Some("avx512") => Level::Avx512,
        _ => {
            eprintln!("usage: nnue_kernels <portable|avx2|avx512> [hidden]");
            std::process::exit(2);
        }
    };
    if !Level::available().contains(&level) {
        eprintln!("{level:?} is not available on this CPU");
        std::process::exit(1);
    }
    let hidden: usize = args.next().and_then(|h| h.parse().ok()).unwrap_or(256);
    let iterations: usize = args
        .next()
        .and_then(|h| h.parse().ok())
        .unwrap_or(2_000_000);
    let rows: Vec<Vec<i16>> = (0..8)
        .map(|r| {
            (0..hidden)
                .map(|i| ((i * 7 + r * 13) % 61) as i16 - 30)
                .collect()
        })
        .collect();
    let mut a = vec![100i16; hidden];
    let mut b = vec![0i16; hidden];
    let mut check = 0i64;
    for n in 0..iterations {
        let (x, y, z) = (&rows[n % 8], &rows[(n + 3) % 8], &rows[(n + 5) % 8]);
        if n % 2 == 0 {
            update(level, &mut b, &a, &[x], &[y, z]);
        } else {
            update(level, &mut a, &b, &[y, z], &[x]);
        }
        if n % 2 == 1 {
            check = check.wrapping_add(screlu_dot(level, &a, &rows[n % 8], 181) as i64);
        }
    }
    println!("{level:?} hidden {hidden} checksum {check}");
}
