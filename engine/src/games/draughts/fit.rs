//! A small Texel fit of the evaluation weights, run by hand until the tuning crate's tuner
//! covers draughts:
//!
//! ```text
//! TETRARCH_FIT_DATA=positions.txt cargo test --release -p tetrarch-engine fit_weights -- --ignored --nocapture
//! ```
//!
//! Scheme: the data is `FEN|result` lines (result 1, 0.5 or 0 for White), as
//! `tools/draughts-match.py --dump` writes them. Only quiet positions are kept (no capture for
//! either side, so the static evaluation means something). The predicted result is
//! `sigmoid(k * eval / 100)`, with `eval` from `eval::trace`'s coefficients times the weights
//! (the endgame scaling held at its value under the current weights); `k` is fitted first, then
//! every weight but the middlegame man (the unit) by full-batch Adam on the mean squared error
//! plus an L2 pull towards the starting table (`LAMBDA`, per 100 units of change), which keeps
//! collinear terms (men and their rows) from drifting apart on a small data set.
//! The fitted table is printed in `Weights::parse_over`'s text form.

use super::eval::{evaluate_with, trace, Trace};
use super::weights::{Weights, COUNT, MAN};
use super::Board;
use crate::game::{Notation, Position, Side};

struct Sample {
    trace: Trace,
    /// The endgame scaling factor under the starting weights.
    scale: f64,
    result: f64,
}

/// Weight of the pull towards the starting weights.
const LAMBDA: f64 = 2e-4;

fn linear(w: &[f64; 2 * COUNT], t: &Trace) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for i in 0..COUNT {
        mg += w[i] * t.counts[i] as f64;
        eg += w[COUNT + i] * t.counts[i] as f64;
    }
    (mg * t.phase as f64 + eg * (40 - t.phase) as f64) / 40.0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn error(samples: &[Sample], w: &[f64; 2 * COUNT], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * s.scale * linear(w, &s.trace) / 100.0);
            (s.result - p) * (s.result - p)
        })
        .sum::<f64>()
        / samples.len() as f64
}

#[test]
#[ignore = "a tool: needs TETRARCH_FIT_DATA"]
fn fit_weights() {
    let path = std::env::var("TETRARCH_FIT_DATA").expect("TETRARCH_FIT_DATA=<file>");
    let text = std::fs::read_to_string(&path).expect("readable data");
    let start = Weights::DEFAULT;
    let mut samples = Vec::new();
    for line in text.lines() {
        let Some((fen, r)) = line.rsplit_once('|') else {
            continue;
        };
        let (Ok(b), Ok(result)) = (Board::from_text(fen), r.trim().parse::<f64>()) else {
            continue;
        };
        if b.noisy_forced() || b.quiet_threat() {
            continue;
        }
        let t = trace(&b);
        let mut w0 = [0.0; 2 * COUNT];
        for i in 0..COUNT {
            w0[i] = start.mg[i] as f64;
            w0[COUNT + i] = start.eg[i] as f64;
        }
        let lin = linear(&w0, &t);
        let white =
            evaluate_with(&start, &b) as f64 * if b.side() == Side::First { 1.0 } else { -1.0 };
        let scale = if lin.abs() > 1.0 {
            (white / lin).clamp(0.0, 1.0)
        } else {
            1.0
        };
        samples.push(Sample {
            trace: t,
            scale,
            result,
        });
    }
    println!("{} quiet positions", samples.len());
    assert!(samples.len() > 1000, "too little data");

    let mut w = [0.0; 2 * COUNT];
    for i in 0..COUNT {
        w[i] = start.mg[i] as f64;
        w[COUNT + i] = start.eg[i] as f64;
    }
    let w0 = w;
    // k by golden-section search.
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if error(&samples, &w, a) < error(&samples, &w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    println!("k = {k:.4}, error {:.6}", error(&samples, &w, k));

    // Adam.
    let (lr, b1, b2, eps) = (0.5, 0.9, 0.999, 1e-8);
    let mut m = [0.0; 2 * COUNT];
    let mut v = [0.0; 2 * COUNT];
    for step in 1..=3000 {
        let mut g = [0.0; 2 * COUNT];
        for s in &samples {
            let p = sigmoid(k * s.scale * linear(&w, &s.trace) / 100.0);
            let d = 2.0 * (p - s.result) * p * (1.0 - p) * k * s.scale / 100.0;
            let fm = s.trace.phase as f64 / 40.0;
            for i in 0..COUNT {
                let c = s.trace.counts[i] as f64;
                if c != 0.0 {
                    g[i] += d * c * fm;
                    g[COUNT + i] += d * c * (1.0 - fm);
                }
            }
        }
        let n = samples.len() as f64;
        for j in 0..2 * COUNT {
            if j == MAN {
                continue; // the unit: a middlegame man is 100
            }
            let gj = g[j] / n + 2.0 * LAMBDA * (w[j] - w0[j]) / 10_000.0;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(step));
            let vh = v[j] / (1.0 - b2.powi(step));
            w[j] -= lr * mh / (vh.sqrt() + eps);
        }
        if step % 500 == 0 {
            println!("step {step}: error {:.6}", error(&samples, &w, k));
        }
    }
    let mut fitted = start;
    for i in 0..COUNT {
        fitted.mg[i] = w[i].round() as i32;
        fitted.eg[i] = w[COUNT + i].round() as i32;
    }
    println!("--- fitted weights ---\n{}", fitted.to_text());
}
