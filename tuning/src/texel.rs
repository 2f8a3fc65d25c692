//! `tetrarch-tune texel`: fits an evaluation's weights to game results (Texel's method).
//!
//! Scheme: every position of the data files is turned once into its linear form
//! (`tetrarch::linear`: per weight pair a midgame and an endgame coefficient, and a constant),
//! packed as 16-bit coefficients with a per-position unit ([`Dataset`]); lines are split into a
//! training and a held-out set by blocks of consecutive lines, so that most of a game's
//! positions fall on one side. The prediction for a position is `sigmoid(K * eval)`, and the
//! error the mean squared difference from the target, which is the game result, optionally
//! mixed with the search score's prediction (`lambda` < 1: far less noisy per position, which
//! matters when the positions come from few games); the held-out error is always against the
//! results alone. `K` is fitted first (golden-section
//! search on the starting weights, results only) and then held; the weights are fitted by Adam
//! on the full training set, the gradient summed over threads, never running the evaluation
//! again. The held-out error is watched every few epochs and the weights where it was lowest are
//! kept; they are rounded to integers, and the caller writes them back in the game's source form.

use std::time::Instant;

use tetrarch::linear::LinearForm;

/// A position's coefficient of one weight pair, scaled to 16 bits by the position's units.
/// The index is 32 bits, so that a table past 65,536 pairs fits (draughts patterns per region
/// and side to move, 105,002 pairs, were fitted this way).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Packed {
    index: u32,
    mg: i16,
    eg: i16,
}

/// A king-danger term: `factor * min(cap, max(0, units)^2 / div)`, its units' terms at
/// `start..end` of [`Dataset::q_units`].
#[derive(Clone, Copy, Debug)]
struct PackedQuad {
    factor: f32,
    constant: f32,
    div: f32,
    cap: f32,
    start: u32,
    end: u32,
}

/// Linear forms of many positions with their results and search scores.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Number of weight pairs the indices refer to.
    pub weights: usize,
    /// Where each position's terms start in `terms` (one more entry than positions).
    offsets: Vec<u32>,
    terms: Vec<Packed>,
    /// Per position: the size of one unit of the packed midgame and endgame coefficients.
    units: Vec<[f32; 2]>,
    constant: Vec<f32>,
    result: Vec<f32>,
    score: Vec<f32>,
    /// Where each position's quadratic terms start in `quads` (one more than positions).
    q_offsets: Vec<u32>,
    quads: Vec<PackedQuad>,
    /// (weight index, coefficient of its midgame half) of the quadratic terms' units.
    q_units: Vec<(u32, f32)>,
}

impl Dataset {
    pub fn new(weights: usize) -> Dataset {
        Dataset {
            weights,
            offsets: vec![0],
            q_offsets: vec![0],
            ..Dataset::default()
        }
    }

    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Number of stored coefficients (for the memory estimate).
    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Adds a position; `result` (0..1) and `score` from the first player's view. Refuses a
    /// form whose indices do not fit the table (an evaluator and table out of step).
    pub fn push(&mut self, form: &LinearForm, result: f32, score: f32) -> Result<(), String> {
        let max = |f: fn(&tetrarch::linear::Term) -> f32| {
            form.terms.iter().map(|t| f(t).abs()).fold(0f32, f32::max)
        };
        let unit = |m: f32| if m > 0.0 { m / 32767.0 } else { 1.0 };
        let units = [unit(max(|t| t.mg)), unit(max(|t| t.eg))];
        let too_big = |i: u32| i as usize >= self.weights;
        let bad = form
            .terms
            .iter()
            .map(|t| t.index)
            .chain(
                form.quadratic
                    .iter()
                    .flat_map(|q| q.units.iter().map(|u| u.0)),
            )
            .find(|&i| too_big(i));
        if let Some(i) = bad {
            return Err(format!(
                "weight index {i} beyond the table's {} pairs",
                self.weights
            ));
        }
        for q in &form.quadratic {
            let start = self.q_units.len() as u32;
            self.q_units.extend(q.units.iter().copied());
            self.quads.push(PackedQuad {
                factor: q.factor,
                constant: q.constant,
                div: q.div,
                cap: q.cap,
                start,
                end: self.q_units.len() as u32,
            });
        }
        self.q_offsets.push(self.quads.len() as u32);
        for t in &form.terms {
            self.terms.push(Packed {
                index: t.index,
                mg: (t.mg / units[0]).round() as i16,
                eg: (t.eg / units[1]).round() as i16,
            });
        }
        self.offsets.push(self.terms.len() as u32);
        self.units.push(units);
        self.constant.push(form.constant);
        self.result.push(result);
        self.score.push(score);
        Ok(())
    }

    /// Appends another set over the same table.
    pub fn append(&mut self, other: &Dataset) {
        let qbase = self.quads.len() as u32;
        let ubase = self.q_units.len() as u32;
        self.q_units.extend_from_slice(&other.q_units);
        self.quads.extend(other.quads.iter().map(|q| PackedQuad {
            start: q.start + ubase,
            end: q.end + ubase,
            ..*q
        }));
        self.q_offsets
            .extend(other.q_offsets[1..].iter().map(|&o| o + qbase));
        let base = self.terms.len() as u32;
        self.terms.extend_from_slice(&other.terms);
        self.offsets
            .extend(other.offsets[1..].iter().map(|&o| o + base));
        self.units.extend_from_slice(&other.units);
        self.constant.extend_from_slice(&other.constant);
        self.result.extend_from_slice(&other.result);
        self.score.extend_from_slice(&other.score);
    }

    /// The evaluation of position `i` under `w`.
    #[inline]
    fn eval(&self, i: usize, w: &[[f64; 2]]) -> f64 {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let (mut mg, mut eg) = (0f64, 0f64);
        for t in &self.terms[a..b] {
            let x = &w[t.index as usize];
            mg += t.mg as f64 * x[0];
            eg += t.eg as f64 * x[1];
        }
        let u = self.units[i];
        let mut v = self.constant[i] as f64 + mg * u[0] as f64 + eg * u[1] as f64;
        for q in self.quads_of(i) {
            v += q.factor as f64 * Self::square(q, self.quad_units(q, w)).0;
        }
        v
    }

    fn quads_of(&self, i: usize) -> &[PackedQuad] {
        &self.quads[self.q_offsets[i] as usize..self.q_offsets[i + 1] as usize]
    }

    fn quad_units(&self, q: &PackedQuad, w: &[[f64; 2]]) -> f64 {
        q.constant as f64
            + self.q_units[q.start as usize..q.end as usize]
                .iter()
                .map(|&(j, c)| c as f64 * w[j as usize][0])
                .sum::<f64>()
    }

    /// `min(cap, max(0, u)^2 / div)` and its slope in `u`.
    #[inline]
    fn square(q: &PackedQuad, u: f64) -> (f64, f64) {
        if u <= 0.0 {
            return (0.0, 0.0);
        }
        let v = u * u / q.div as f64;
        if v >= q.cap as f64 {
            (q.cap as f64, 0.0)
        } else {
            (v, 2.0 * u / q.div as f64)
        }
    }

    /// Which weights appear in some position.
    fn active(&self) -> Vec<bool> {
        let mut a = vec![false; self.weights];
        for t in &self.terms {
            a[t.index as usize] = true;
        }
        for &(j, _) in &self.q_units {
            a[j as usize] = true;
        }
        a
    }

    /// The targets under `k` and `lambda`.
    fn targets(&self, k: f64, lambda: f64) -> Vec<f32> {
        (0..self.len())
            .map(|i| {
                let r = self.result[i] as f64;
                (lambda * r + (1.0 - lambda) * sigmoid(k * self.score[i] as f64)) as f32
            })
            .collect()
    }
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error over `ds` under weights `w`, and, when `grad` is given, the gradient of
/// the summed (not mean) error added into it. Split over `threads` threads.
fn pass(
    ds: &Dataset,
    targets: &[f32],
    w: &[[f64; 2]],
    k: f64,
    grad: Option<&mut [[f64; 2]]>,
    threads: usize,
) -> f64 {
    let n = ds.len();
    if n == 0 {
        return 0.0;
    }
    let want_grad = grad.is_some();
    let threads = threads.clamp(1, n.div_ceil(1024).max(1));
    let chunk = n.div_ceil(threads);
    let parts: Vec<(f64, Vec<[f64; 2]>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut g = if want_grad {
                        vec![[0f64; 2]; ds.weights]
                    } else {
                        Vec::new()
                    };
                    let mut err = 0f64;
                    let first = t * chunk;
                    let last = ((t + 1) * chunk).min(n);
                    for (i, &target) in targets.iter().enumerate().take(last).skip(first) {
                        let p = sigmoid(k * ds.eval(i, w));
                        let diff = p - target as f64;
                        err += diff * diff;
                        if want_grad {
                            let d = 2.0 * diff * p * (1.0 - p) * k;
                            let u = ds.units[i];
                            let (dm, de) = (d * u[0] as f64, d * u[1] as f64);
                            let (a, b) = (ds.offsets[i] as usize, ds.offsets[i + 1] as usize);
                            for term in &ds.terms[a..b] {
                                let x = &mut g[term.index as usize];
                                x[0] += dm * term.mg as f64;
                                x[1] += de * term.eg as f64;
                            }
                            for q in ds.quads_of(i) {
                                let slope = Dataset::square(q, ds.quad_units(q, w)).1;
                                if slope != 0.0 {
                                    let dq = d * q.factor as f64 * slope;
                                    for &(j, c) in &ds.q_units[q.start as usize..q.end as usize] {
                                        g[j as usize][0] += dq * c as f64;
                                    }
                                }
                            }
                        }
                    }
                    (err, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread"))
            .collect()
    });
    let mut err = 0.0;
    let mut grad = grad;
    for (e, g) in parts {
        err += e;
        if let Some(total) = grad.as_deref_mut() {
            for (x, y) in total.iter_mut().zip(g) {
                x[0] += y[0];
                x[1] += y[1];
            }
        }
    }
    err / n as f64
}

/// The mean squared error of `ds` under `w`, with targets from `k` and `lambda`.
pub fn error(ds: &Dataset, w: &[[f64; 2]], k: f64, lambda: f64, threads: usize) -> f64 {
    pass(ds, &ds.targets(k, lambda), w, k, None, threads)
}

/// The `K` that minimises the error of the results alone under `w` (golden-section search over
/// log K, which the error is unimodal in for any sensible data).
pub fn fit_k(ds: &Dataset, w: &[[f64; 2]], threads: usize) -> f64 {
    let targets = ds.targets(1.0, 1.0);
    let f = |lk: f64| pass(ds, &targets, w, lk.exp(), None, threads);
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1.0f64).ln());
    let phi = 0.618_033_988_75;
    let (mut a, mut b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - phi * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + phi * (hi - lo);
            fb = f(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub epochs: usize,
    /// Adam's step size, in weight units.
    pub lr: f64,
    /// Halve the step size every this many epochs (0: never).
    pub lr_drop: usize,
    /// Pull towards the starting weights: `l2 * (w - w0)^2` per weight added to the error.
    pub l2: f64,
    /// Share of the game result in the target (the rest is the search score's prediction).
    pub lambda: f64,
    /// A fixed `K`; `None` fits it.
    pub k: Option<f64>,
    pub threads: usize,
    /// Held-out error (against the results alone) every this many epochs; the weights where
    /// it was lowest are kept.
    pub check_every: usize,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 1000,
            lr: 1.0,
            lr_drop: 0,
            l2: 0.0,
            lambda: 1.0,
            k: None,
            threads: 1,
            check_every: 25,
        }
    }
}

/// What a fit produced.
#[derive(Clone, Debug)]
pub struct FitResult {
    /// The kept weights, rounded to integers.
    pub weights: Vec<(i32, i32)>,
    pub k: f64,
    pub train_before: f64,
    pub train_after: f64,
    pub holdout_before: f64,
    pub holdout_after: f64,
    /// The epoch whose weights were kept.
    pub best_epoch: usize,
    pub epochs: usize,
    /// Mean wall time of one epoch (gradient and update), seconds.
    pub epoch_secs: f64,
    /// Training positions per second per epoch.
    pub positions_per_sec: f64,
    /// Weights that appear in the training data (the others cannot move).
    pub active: usize,
}

/// Fits the weights `start` to `train`, watching `holdout`. `log` receives progress lines.
pub fn fit(
    train: &Dataset,
    holdout: &Dataset,
    start: &[(i32, i32)],
    cfg: &FitConfig,
    log: &mut dyn FnMut(&str),
) -> Result<FitResult, String> {
    if train.is_empty() {
        return Err("no training positions".into());
    }
    if start.len() != train.weights {
        return Err(format!(
            "{} starting weights for a table of {}",
            start.len(),
            train.weights
        ));
    }
    let threads = cfg.threads.max(1);
    let w0: Vec<[f64; 2]> = start.iter().map(|&(a, b)| [a as f64, b as f64]).collect();
    let k = match cfg.k {
        Some(k) => k,
        None => {
            let k = fit_k(train, &w0, threads);
            log(&format!("fitted K = {k:.6}"));
            k
        }
    };
    let t_train = train.targets(k, cfg.lambda);
    // The held-out set is judged by the results alone, whatever the training target mixes in:
    // predicting results is the point, and it keeps errors comparable across lambdas.
    let t_hold = holdout.targets(k, 1.0);
    let train_before = pass(train, &t_train, &w0, k, None, threads);
    let holdout_before = pass(holdout, &t_hold, &w0, k, None, threads);
    log(&format!(
        "start: train error {train_before:.6}, held-out error {holdout_before:.6} ({} + {} positions)",
        train.len(),
        holdout.len()
    ));
    let active = train.active();
    let n = train.len() as f64;
    let mut w = w0.clone();
    let mut m = vec![[0f64; 2]; w.len()];
    let mut v = vec![[0f64; 2]; w.len()];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut best = (holdout_before, 0usize, w.clone());
    let mut last_train = train_before;
    let started = Instant::now();
    let mut epochs_run = 0;
    for epoch in 1..=cfg.epochs {
        let mut g = vec![[0f64; 2]; w.len()];
        last_train = pass(train, &t_train, &w, k, Some(&mut g), threads);
        let lr = match epoch.checked_div(cfg.lr_drop) {
            Some(halvings) => cfg.lr * 0.5f64.powi(halvings as i32),
            None => cfg.lr,
        };
        for j in 0..w.len() {
            if !active[j] {
                continue;
            }
            for h in 0..2 {
                let gj = g[j][h] / n + 2.0 * cfg.l2 * (w[j][h] - w0[j][h]);
                m[j][h] = b1 * m[j][h] + (1.0 - b1) * gj;
                v[j][h] = b2 * v[j][h] + (1.0 - b2) * gj * gj;
                let mh = m[j][h] / (1.0 - b1.powi(epoch as i32));
                let vh = v[j][h] / (1.0 - b2.powi(epoch as i32));
                w[j][h] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        epochs_run = epoch;
        if epoch % cfg.check_every.max(1) == 0 || epoch == cfg.epochs {
            let h = if holdout.is_empty() {
                last_train
            } else {
                pass(holdout, &t_hold, &w, k, None, threads)
            };
            let secs = started.elapsed().as_secs_f64() / epoch as f64;
            log(&format!(
                "epoch {epoch}: train error {last_train:.6}, held-out error {h:.6}, {:.0} positions/s per epoch",
                n / secs
            ));
            if h < best.0 || best.1 == 0 {
                best = (h, epoch, w.clone());
            }
        }
    }
    let epoch_secs = started.elapsed().as_secs_f64() / epochs_run.max(1) as f64;
    let _ = last_train;
    let rounded: Vec<(i32, i32)> = best
        .2
        .iter()
        .map(|x| (x[0].round() as i32, x[1].round() as i32))
        .collect();
    let wr: Vec<[f64; 2]> = rounded.iter().map(|&(a, b)| [a as f64, b as f64]).collect();
    Ok(FitResult {
        train_after: pass(train, &t_train, &wr, k, None, threads),
        holdout_after: pass(holdout, &t_hold, &wr, k, None, threads),
        weights: rounded,
        k,
        train_before,
        holdout_before,
        best_epoch: best.1,
        epochs: epochs_run,
        epoch_secs,
        positions_per_sec: n / epoch_secs.max(1e-12),
        active: active.iter().filter(|&&a| a).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use tetrarch::linear::FormBuilder;

    /// Random sparse positions over `weights` pairs, with targets from `truth`.
    fn synthetic(n: usize, truth: &[[f64; 2]], k: f64, seed: u64) -> Dataset {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut ds = Dataset::new(truth.len());
        for _ in 0..n {
            let mut f = FormBuilder::new();
            let phase: f32 = rng.gen();
            for _ in 0..6 {
                let j = rng.gen_range(0..truth.len());
                let c = rng.gen_range(-2..=2) as f32;
                f.term(j, c * phase, c * (1.0 - phase));
            }
            f.constant(rng.gen_range(-20.0..20.0));
            let form = f.build();
            let wf: Vec<(f32, f32)> = truth.iter().map(|x| (x[0] as f32, x[1] as f32)).collect();
            let p = sigmoid(k * form.value(&wf) as f64) as f32;
            ds.push(&form, p, 0.0).unwrap();
        }
        ds
    }

    #[test]
    fn recovers_known_weights_and_lowers_the_error() {
        let truth: Vec<[f64; 2]> = (0..12)
            .map(|j| {
                [
                    (j as f64 * 37.0) % 200.0 - 100.0,
                    (j as f64 * 53.0) % 160.0 - 80.0,
                ]
            })
            .collect();
        let k = 0.01;
        let train = synthetic(4000, &truth, k, 1);
        let holdout = synthetic(500, &truth, k, 2);
        let start = vec![(0, 0); truth.len()];
        let cfg = FitConfig {
            epochs: 1500,
            lr: 2.0,
            k: Some(k),
            threads: 2,
            check_every: 50,
            ..FitConfig::default()
        };
        let r = fit(&train, &holdout, &start, &cfg, &mut |_| {}).unwrap();
        assert!(r.train_after < r.train_before / 50.0, "{r:?}");
        assert!(r.holdout_after < r.holdout_before / 50.0, "{r:?}");
        for (j, t) in truth.iter().enumerate() {
            let (mg, eg) = r.weights[j];
            assert!(
                (mg as f64 - t[0]).abs() <= 3.0,
                "weight {j}: {mg} vs {}",
                t[0]
            );
            assert!(
                (eg as f64 - t[1]).abs() <= 3.0,
                "weight {j}: {eg} vs {}",
                t[1]
            );
        }
    }

    #[test]
    fn k_is_found_where_the_data_put_it() {
        let truth: Vec<[f64; 2]> = (0..8)
            .map(|j| [j as f64 * 20.0, 100.0 - j as f64])
            .collect();
        let ds = synthetic(3000, &truth, 0.004, 3);
        let k = fit_k(&ds, &truth, 2);
        assert!((k / 0.004 - 1.0).abs() < 0.02, "K = {k}");
    }

    #[test]
    fn packing_keeps_the_value() {
        let mut f = FormBuilder::new();
        f.term(0, 0.3, 1.7);
        f.term(3, -12.5, 0.001);
        f.constant(4.0);
        let form = f.build();
        let mut ds = Dataset::new(4);
        ds.push(&form, 1.0, 0.0).unwrap();
        let w = [[10.0, 20.0], [0.0, 0.0], [0.0, 0.0], [-3.0, 7.0]];
        let wf: Vec<(f32, f32)> = w.iter().map(|x| (x[0] as f32, x[1] as f32)).collect();
        // Each coefficient is off by at most half a unit (1/65534 of the largest one).
        let bound = (10.0 + 3.0) * 12.5 / 65534.0 + (20.0 + 7.0) * 1.7 / 65534.0;
        assert!((ds.eval(0, &w) - form.value(&wf) as f64).abs() <= bound + 1e-5);
        let mut bad = FormBuilder::new();
        bad.term(9, 1.0, 1.0);
        assert!(ds.push(&bad.build(), 0.5, 0.0).is_err());
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        use tetrarch::linear::Quadratic;
        let mut rng = SmallRng::seed_from_u64(4);
        let mut ds = Dataset::new(5);
        for _ in 0..300 {
            let mut f = FormBuilder::new();
            for j in 0..3 {
                f.term(j, rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0));
            }
            f.quadratic(Quadratic {
                units: vec![(3, rng.gen_range(0.0..3.0)), (4, rng.gen_range(0.0..2.0))],
                constant: rng.gen_range(-30.0..30.0),
                div: 50.0,
                cap: 300.0,
                factor: rng.gen_range(-1.0..1.0),
            });
            ds.push(&f.build(), rng.gen_range(0.0..1.0), 0.0).unwrap();
        }
        let w = vec![
            [30.0, -20.0],
            [5.0, 50.0],
            [-40.0, 10.0],
            [25.0, 0.0],
            [12.0, 0.0],
        ];
        let k = 0.01;
        let t = ds.targets(k, 1.0);
        let mut g = vec![[0.0; 2]; 5];
        pass(&ds, &t, &w, k, Some(&mut g), 2);
        let n = ds.len() as f64;
        for j in 0..5 {
            for h in 0..2 {
                let h_ = 1e-4;
                let (mut up, mut down) = (w.clone(), w.clone());
                up[j][h] += h_;
                down[j][h] -= h_;
                let numeric = (pass(&ds, &t, &up, k, None, 1) - pass(&ds, &t, &down, k, None, 1))
                    / (2.0 * h_);
                let analytic = g[j][h] / n;
                assert!(
                    (numeric - analytic).abs() <= 1e-6 + 1e-3 * analytic.abs(),
                    "weight {j} half {h}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
        // The quadratic terms' units weights did get a gradient.
        assert!(g[3][0] != 0.0 && g[4][0] != 0.0 && g[3][1] == 0.0);
    }
}
