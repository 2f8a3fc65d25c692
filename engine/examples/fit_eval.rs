//! Fits the chess evaluation's weights to reference evaluations of positions.
//!
//! Usage: `cargo run --release -p tetrarch-engine --example fit_eval -- LABELS [PASSES] [STEPS]`
//! where LABELS has one `FEN;score` line per position, the score in centipawns from White's
//! view (for example a reference engine's shallow search). Prints the fitted table as Rust
//! source (the `FITTED` table `weights::fitted` reads) on stdout, progress on stderr.
//!
//! Scheme: a local linear model, refreshed each pass. For every weight component (midgame or
//! endgame half of each pair) the evaluation of every position is recomputed with that
//! component raised by a step, which gives the evaluation's slope in it (exact for the linear
//! terms, a local slope for king danger and the drawish scaling). The slopes are kept sparse.
//! Adam then minimises the mean squared difference of the win probabilities
//! `1 / (1 + 10^(-cp/400))` of the model and the reference, plus a small pull towards the
//! starting weights, and the rounded result starts the next pass.

use std::sync::Arc;

use tetrarch::game::Notation;
use tetrarch::games::chess::eval::ChessEval;
use tetrarch::games::chess::weights::{Weights, S};
use tetrarch::games::chess::Board;

const STEP: i32 = 16;

fn flatten(w: &Weights) -> Vec<(String, usize, S)> {
    let mut out = Vec::new();
    w.clone()
        .visit_mut(|name, i, s| out.push((name.to_string(), i, *s)));
    out
}

fn set_component(w: &mut Weights, index: usize, half: usize, value: i32) {
    let mut k = 0;
    w.visit_mut(|_, _, s| {
        if k == index {
            if half == 0 {
                s.0 = value;
            } else {
                s.1 = value;
            }
        }
        k += 1;
    });
}

fn evals(w: &Weights, boards: &[Board]) -> Vec<f32> {
    let mut e = ChessEval::new(Arc::new(w.clone()));
    boards.iter().map(|b| e.white_view(b) as f32).collect()
}

fn prob(cp: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-cp / 400.0))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: fit_eval LABELS [PASSES] [STEPS]");
    let passes: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let steps: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(400);
    let text = std::fs::read_to_string(path).expect("reading labels");
    let mut boards = Vec::new();
    let mut target = Vec::new();
    for line in text.lines() {
        let Some((fen, cp)) = line.rsplit_once(';') else {
            continue;
        };
        let (Ok(b), Ok(cp)) = (Board::from_text(fen), cp.trim().parse::<f32>()) else {
            continue;
        };
        boards.push(b);
        target.push(prob(cp));
    }
    eprintln!("{} positions", boards.len());

    let start = Weights::geometric();
    let start_flat = flatten(&start);
    let mut w = start.clone();
    let n = start_flat.len();
    for pass in 0..passes {
        let base = evals(&w, &boards);
        let flat = flatten(&w);
        // Sparse slopes: per position, (component, slope).
        let mut slopes: Vec<Vec<(u32, f32)>> = vec![Vec::new(); boards.len()];
        for (j, (_, _, s)) in flat.iter().enumerate() {
            for half in 0..2 {
                let mut probe = w.clone();
                let v = if half == 0 { s.0 } else { s.1 };
                set_component(&mut probe, j, half, v + STEP);
                let e = evals(&probe, &boards);
                for (p, (&a, &b)) in e.iter().zip(base.iter()).enumerate() {
                    let d = (a - b) / STEP as f32;
                    if d.abs() > 1e-4 {
                        slopes[p].push(((2 * j + half) as u32, d));
                    }
                }
            }
        }
        let loss_of = |x: &[f32]| -> f32 {
            let mut l = 0.0;
            for p in 0..boards.len() {
                let mut pred = base[p];
                for &(c, d) in &slopes[p] {
                    let cur = if c % 2 == 0 {
                        flat[c as usize / 2].2 .0
                    } else {
                        flat[c as usize / 2].2 .1
                    };
                    pred += d * (x[c as usize] - cur as f32);
                }
                let diff = prob(pred) - target[p];
                l += diff * diff;
            }
            l / boards.len() as f32
        };
        let mut x: Vec<f32> = flat
            .iter()
            .flat_map(|(_, _, s)| [s.0 as f32, s.1 as f32])
            .collect();
        let init: Vec<f32> = start_flat
            .iter()
            .flat_map(|(_, _, s)| [s.0 as f32, s.1 as f32])
            .collect();
        eprintln!("pass {pass}: loss {:.6}", loss_of(&x));
        let (mut m, mut v) = (vec![0f32; 2 * n], vec![0f32; 2 * n]);
        let (lr, b1, b2, lambda) = (1.0f32, 0.9f32, 0.999f32, 1e-7f32);
        for step in 1..=steps {
            let mut g = vec![0f32; 2 * n];
            for p in 0..boards.len() {
                let mut pred = base[p];
                for &(c, d) in &slopes[p] {
                    let cur = if c % 2 == 0 {
                        flat[c as usize / 2].2 .0
                    } else {
                        flat[c as usize / 2].2 .1
                    };
                    pred += d * (x[c as usize] - cur as f32);
                }
                let q = prob(pred);
                // d/dpred of (q - t)^2 with q = sigmoid(pred * ln10 / 400).
                let k = 2.0 * (q - target[p]) * q * (1.0 - q) * std::f32::consts::LN_10 / 400.0;
                for &(c, d) in &slopes[p] {
                    g[c as usize] += k * d;
                }
            }
            for c in 0..2 * n {
                let gc = g[c] / boards.len() as f32 + 2.0 * lambda * (x[c] - init[c]);
                m[c] = b1 * m[c] + (1.0 - b1) * gc;
                v[c] = b2 * v[c] + (1.0 - b2) * gc * gc;
                let mh = m[c] / (1.0 - b1.powi(step as i32));
                let vh = v[c] / (1.0 - b2.powi(step as i32));
                x[c] -= lr * mh / (vh.sqrt() + 1e-9);
            }
            if step % 100 == 0 {
                eprintln!("  step {step}: loss {:.6}", loss_of(&x));
            }
        }
        for (j, _) in flat.iter().enumerate() {
            set_component(&mut w, j, 0, x[2 * j].round() as i32);
            set_component(&mut w, j, 1, x[2 * j + 1].round() as i32);
        }
        let after = evals(&w, &boards);
        let real: f32 = after
            .iter()
            .zip(&target)
            .map(|(&e, &t)| (prob(e) - t).powi(2))
            .sum::<f32>()
            / boards.len() as f32;
        eprintln!("pass {pass}: true loss after rounding {real:.6}");
    }
    print_source(&w);
}

/// Prints the table in the tuned-file form, whose constant is `FITTED` in `weights.rs`.
fn print_source(w: &Weights) {
    print!(
        "{}",
        w.table_source("Fitted by engine/examples/fit_eval.rs.", "FITTED")
    );
}
