//! `tetrarch-tune nnue`: trains a chess network on datagen's binary records.
//!
//! Scheme: every record is kept packed with a target blending the game result with the
//! search score, `t = lambda * result + (1 - lambda) * sigmoid(score / K)`, both from the side
//! to move's view; at each use it is read into the active inputs of both perspectives (side
//! to move first) and its output bucket, by the engine's own reading ([`inputs_of_pieces`]). The float model is the one `tetrarch::nnue::Network` documents (one hidden
//! layer per perspective, SCReLU, output times SCALE in centipawns); the prediction is
//! `sigmoid(eval / K)` and the loss `|p - t|^power` against `t` (`-power`, 2 by default: the
//! mean squared error; above 2 the large errors weigh more). Losses are reported as the mean
//! squared error whatever the power, so runs compare. Only the output
//! weights of a position's bucket see its gradient. The tail of the data
//! (whole games) is held out; each epoch walks the rest in shuffled mini-batches, and each
//! batch is split across threads (std scoped threads), every thread summing the gradients of
//! its share into its own buffers, which are then added up and applied by Adam with a cosine
//! learning-rate schedule. The output weights are clipped to the range their i16
//! quantisation holds. After every epoch the held-out loss is measured; the epoch with the
//! lowest one is kept, quantised (`QA`, `QB` as the network module states) and written.

use std::sync::Arc;
use std::time::Instant;

use arrayvec::ArrayVec;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tetrarch::games::chess::nnue::{inputs_of_pieces, Chess768};
use tetrarch::nnue::{FeatureSet, Network, MAX_ACTIVE, QA, QB, SCALE, W2_MAX};

use crate::commands::Args;
use crate::packed::{records, Record};

pub const HELP: &str = "\
tetrarch-tune nnue: trains a chess network (768 inputs mirrored to the king's wing -> hidden
x2 -> 1 of 8 material buckets, SCReLU) on binary records (datagen -format bin, or convert)
and writes the quantised network file.

  -data FILE[,FILE...]   binary record files
  -distill FILE[,FILE...]  records whose score alone is the target (result weight 0: distill's
                         output), added to the training share
  -out FILE              the network file to write
  -from FILE             start from this network (same hidden size) instead of random weights
  -repeat N              take the game records' training share N times (default 1), to weigh
                         them against the distilled records
  -init X                range of the first layer's random weights (default 0.088)
  -hidden N              hidden size per perspective, a multiple of 32 (default 256)
  -epochs N              passes over the training data (default 10)
  -batch N               positions per step (default 16384)
  -lr X                  initial learning rate (default 0.001; cosine decay to 5%)
  -lambda X              weight of the game result against the score (default 0.5)
  -k X                   score scale of the sigmoid, centipawns (default 400)
  -power X               exponent of the training loss |p - t|^X (default 2, from 1 to 4);
                         reported losses are mean squared errors at any power
  -holdout X             held-out share (default 0.05)
  -threads N             threads (default: every core)
  -seed N                shuffle and initial weights (default 1)
  -max-positions N       use at most N positions (default: all)
  -minutes X             stop after the epoch that passes X minutes
  -compare               also print the hand-written evaluation's loss on the held-out share
  -quiet                 no progress line
";

/// A training position: the packed record (32 bytes) and the target. The inputs are decoded
/// again at each use: that costs a few percent of the training time, where keeping them
/// (136 bytes a position) would make memory, not time, the limit on the data a run holds.
#[derive(Clone, Copy)]
pub struct Sample {
    record: Record,
    target: f32,
}

/// Both perspectives' inputs (side to move's first) and the output bucket of a sample.
type Inputs = ([ArrayVec<u16, MAX_ACTIVE>; 2], usize);

impl Sample {
    /// The sample of a record for result weight `lambda` and sigmoid scale `k`.
    pub fn new(r: &Record, lambda: f32, k: f32) -> Sample {
        let white = r.white_to_move();
        let score = if white { r.score() } else { -r.score() } as f32;
        let result = r.result() as f32 / 2.0;
        let result = if white { result } else { 1.0 - result };
        let target = lambda * result + (1.0 - lambda) * sigmoid(score / k);
        Sample { record: *r, target }
    }

    fn inputs(&self) -> Inputs {
        let mut pieces = [(0, 0, 0); 32];
        let mut count = 0;
        self.record.pieces(|color, kind, sq| {
            if count < 32 {
                pieces[count] = (color, kind, sq);
                count += 1;
            }
        });
        inputs_of_pieces(self.record.white_to_move(), &pieces[..count])
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network: the trainer's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub hidden: usize,
    /// `INPUTS * hidden`, input-major.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `BUCKETS * 2 * hidden`: per bucket, side to move's half first.
    pub w2: Vec<f32>,
    /// One per bucket.
    pub b2: Vec<f32>,
}

const INPUTS: usize = Chess768::INPUTS;
const BUCKETS: usize = Chess768::OUTPUT_BUCKETS;

impl FloatNet {
    /// Random weights: `W1` uniform in `+/-init`, the output layer in `+/-1/sqrt(hidden)`.
    pub fn random(hidden: usize, seed: u64, init: f32) -> FloatNet {
        let mut rng = SmallRng::seed_from_u64(seed);
        let a1 = init;
        let a2 = 1.0 / (hidden as f32).sqrt();
        FloatNet {
            hidden,
            w1: (0..INPUTS * hidden)
                .map(|_| rng.gen_range(-a1..a1))
                .collect(),
            b1: (0..hidden).map(|_| rng.gen_range(0.0..0.2)).collect(),
            w2: (0..BUCKETS * 2 * hidden)
                .map(|_| rng.gen_range(-a2..a2))
                .collect(),
            b2: vec![0.0; BUCKETS],
        }
    }

    fn zeros_like(&self) -> FloatNet {
        FloatNet {
            hidden: self.hidden,
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; BUCKETS],
        }
    }

    fn hidden_sums(&self, inputs: &[u16], h: &mut [f32]) {
        h.copy_from_slice(&self.b1);
        for &f in inputs {
            let row = &self.w1[f as usize * self.hidden..][..self.hidden];
            for (x, w) in h.iter_mut().zip(row) {
                *x += w;
            }
        }
    }

    /// The output weights of bucket `b`.
    fn w2_of(&self, b: usize) -> &[f32] {
        &self.w2[b * 2 * self.hidden..][..2 * self.hidden]
    }

    /// The model's output for one position, in centipawns (side to move's view).
    pub fn eval(&self, us: &[u16], them: &[u16], bucket: usize) -> f32 {
        let mut h = vec![0.0; self.hidden];
        let mut out = self.b2[bucket];
        for (half, inputs) in [us, them].into_iter().enumerate() {
            self.hidden_sums(inputs, &mut h);
            let w2 = &self.w2_of(bucket)[half * self.hidden..][..self.hidden];
            for (x, w) in h.iter().zip(w2) {
                let a = x.clamp(0.0, 1.0);
                out += a * a * w;
            }
        }
        out * SCALE as f32
    }

    /// Adds the gradient of the loss `|p - t|^power` of `s` into `grad`; returns the squared
    /// error.
    fn backprop(
        &self,
        s: &Sample,
        k: f32,
        power: f32,
        grad: &mut FloatNet,
        h: &mut [Vec<f32>; 2],
    ) -> f32 {
        let n = self.hidden;
        let (views, b) = s.inputs();
        let mut out = self.b2[b];
        for (half, hs) in h.iter_mut().enumerate() {
            self.hidden_sums(&views[half], hs);
            let w2 = &self.w2_of(b)[half * n..][..n];
            for (x, w) in hs.iter().zip(w2) {
                let a = x.clamp(0.0, 1.0);
                out += a * a * w;
            }
        }
        let p = sigmoid(out * SCALE as f32 / k);
        let err = p - s.target;
        // d loss / d out for loss = |err|^power (2 err at power 2).
        let d_err = power * err.abs().powf(power - 1.0) * err.signum();
        let g = d_err * p * (1.0 - p) * SCALE as f32 / k;
        grad.b2[b] += g;
        for (half, hs) in h.iter_mut().enumerate() {
            let w2 = &self.w2_of(b)[half * n..][..n];
            let gw2 = &mut grad.w2[(b * 2 + half) * n..][..n];
            for j in 0..n {
                let x = hs[j];
                let a = x.clamp(0.0, 1.0);
                gw2[j] += g * a * a;
                // d a^2 / d x = 2x inside (0, 1), 0 outside; keep it in `hs` for the rows.
                hs[j] = if x > 0.0 && x < 1.0 {
                    g * w2[j] * 2.0 * x
                } else {
                    0.0
                };
            }
            for (gb, d) in grad.b1.iter_mut().zip(hs.iter()) {
                *gb += d;
            }
            for &f in &views[half] {
                let row = &mut grad.w1[f as usize * n..][..n];
                for (gw, d) in row.iter_mut().zip(hs.iter()) {
                    *gw += d;
                }
            }
        }
        err * err
    }

    /// The loss over `samples` (mean squared error of the prediction), on `threads` threads.
    pub fn loss(&self, samples: &[Sample], k: f32, threads: usize) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let chunk = samples.len().div_ceil(threads.max(1));
        let total: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|s| {
                                let (views, b) = s.inputs();
                                let p = sigmoid(self.eval(&views[0], &views[1], b) / k);
                                ((p - s.target) as f64).powi(2)
                            })
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        total / samples.len() as f64
    }

    /// The float model a quantised network stands for (to train on from it).
    pub fn from_network(net: &Network) -> FloatNet {
        let qa = QA as f32;
        let qb = QB as f32;
        FloatNet {
            hidden: net.hidden,
            w1: net.ft_weights.iter().map(|&w| w as f32 / qa).collect(),
            b1: net.ft_bias.iter().map(|&w| w as f32 / qa).collect(),
            w2: net.out_weights.iter().map(|&w| w as f32 / qb).collect(),
            b2: net.out_bias.iter().map(|&b| b as f32 / (qa * qb)).collect(),
        }
    }

    /// The quantised network (see `tetrarch::nnue::Network` for the scheme).
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: f32, lim: f32| (x * s).round().clamp(-lim, lim) as i16;
        let qa = QA as f32;
        let qb = QB as f32;
        let mut net = Network::zeroed(Chess768::NAME, INPUTS, self.hidden, BUCKETS);
        net.ft_weights = self.w1.iter().map(|&w| q(w, qa, 32767.0)).collect();
        net.ft_bias = self.b1.iter().map(|&w| q(w, qa, 32767.0)).collect();
        net.out_weights = self.w2.iter().map(|&w| q(w, qb, W2_MAX as f32)).collect();
        net.out_bias = self
            .b2
            .iter()
            .map(|&b| (b * qa * qb).round() as i32)
            .collect();
        net
    }
}

/// Adam's state for one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, t: i32, clip: Option<f32>) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..params.len() {
            let g = grad[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            let mut p = params[i] - lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            if let Some(c) = clip {
                p = p.clamp(-c, c);
            }
            params[i] = p;
        }
    }
}

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub lambda: f32,
    pub k: f32,
    /// Exponent of the training loss `|p - t|^power`.
    pub power: f32,
    pub holdout: f64,
    pub threads: usize,
    pub seed: u64,
    pub max_minutes: Option<f64>,
    pub progress: bool,
    /// The range of the first layer's initial weights.
    pub init: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 256,
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            lambda: 0.5,
            k: 400.0,
            power: 2.0,
            holdout: 0.05,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            max_minutes: None,
            progress: true,
            init: 0.088,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub held_out_loss: f64,
    pub positions_per_second: f64,
}

/// Splits samples, in file order, into (training, held out): the held-out share is the last
/// one of the data. Datagen writes a game's positions one after another, and neighbouring
/// positions of one game share its result and nearly its score, so a held-out set drawn at
/// random would sit beside its own training twins and flatter a net that learns games by
/// heart; the tail holds whole games the net never saw (but one, cut at the seam).
pub fn split(mut samples: Vec<Sample>, cfg: &TrainConfig) -> (Vec<Sample>, Vec<Sample>) {
    let held = ((samples.len() as f64 * cfg.holdout).round() as usize).min(samples.len());
    let held_out = samples.split_off(samples.len() - held);
    samples.shuffle(&mut SmallRng::seed_from_u64(cfg.seed ^ 0x5eed));
    (samples, held_out)
}

/// Trains from `start`; returns the net of the epoch with the lowest held-out loss (the last
/// epoch's when nothing is held out) and every epoch's figures. `on_epoch` hears each epoch.
pub fn train(
    start: FloatNet,
    train: &mut [Sample],
    held_out: &[Sample],
    cfg: &TrainConfig,
    mut on_epoch: impl FnMut(&EpochReport),
) -> (FloatNet, Vec<EpochReport>) {
    let threads = cfg.threads.max(1);
    let mut net = start;
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| net.zeros_like()).collect();
    let (mut a1, mut ab1, mut a2, mut ab2) = (
        Adam::new(net.w1.len()),
        Adam::new(net.b1.len()),
        Adam::new(net.w2.len()),
        Adam::new(BUCKETS),
    );
    let w2_clip = W2_MAX as f32 / QB as f32;
    let mut rng = SmallRng::seed_from_u64(cfg.seed);
    let mut best: Option<(f64, FloatNet)> = None;
    let mut reports = Vec::new();
    let began = Instant::now();
    let mut t = 0;
    let batch = cfg.batch.max(1);
    let steps_total = (cfg.epochs * train.len().div_ceil(batch)).max(1);
    for epoch in 1..=cfg.epochs {
        let epoch_start = Instant::now();
        train.shuffle(&mut rng);
        let mut loss_sum = 0.0f64;
        let batches = train.len().div_ceil(batch);
        for (bi, chunk) in train.chunks(batch).enumerate() {
            t += 1;
            let per = chunk.len().div_ceil(threads);
            let (k, power) = (cfg.k, cfg.power);
            let net_ref = &net;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .zip(grads.iter_mut())
                    .map(|(part, g)| {
                        scope.spawn(move || {
                            g.w1.iter_mut().for_each(|x| *x = 0.0);
                            g.b1.iter_mut().for_each(|x| *x = 0.0);
                            g.w2.iter_mut().for_each(|x| *x = 0.0);
                            g.b2.iter_mut().for_each(|x| *x = 0.0);
                            let mut h = [vec![0.0; net_ref.hidden], vec![0.0; net_ref.hidden]];
                            part.iter()
                                .map(|s| net_ref.backprop(s, k, power, g, &mut h) as f64)
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let used = losses.len();
            loss_sum += losses.iter().sum::<f64>();
            // Sum the threads' gradients into the first buffer, as a mean over the batch.
            let (first, rest) = grads.split_at_mut(1);
            let g = &mut first[0];
            for other in &rest[..used - 1] {
                for (a, b) in g.w1.iter_mut().zip(&other.w1) {
                    *a += b;
                }
                for (a, b) in g.b1.iter_mut().zip(&other.b1) {
                    *a += b;
                }
                for (a, b) in g.w2.iter_mut().zip(&other.w2) {
                    *a += b;
                }
                for (a, b) in g.b2.iter_mut().zip(&other.b2) {
                    *a += b;
                }
            }
            let scale = 1.0 / chunk.len() as f32;
            for x in
                g.w1.iter_mut()
                    .chain(&mut g.b1)
                    .chain(&mut g.w2)
                    .chain(&mut g.b2)
            {
                *x *= scale;
            }
            let progress = t as f32 / steps_total as f32;
            let lr = cfg.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            a1.step(&mut net.w1, &g.w1, lr, t, None);
            ab1.step(&mut net.b1, &g.b1, lr, t, None);
            a2.step(&mut net.w2, &g.w2, lr, t, Some(w2_clip));
            ab2.step(&mut net.b2, &g.b2, lr, t, None);
            if cfg.progress {
                let done = (bi + 1) * batch;
                let secs = epoch_start.elapsed().as_secs_f64().max(1e-3);
                eprint!(
                    "\rnnue: epoch {epoch}/{} batch {}/{batches} loss {:.6} {:.0} pos/s lr {lr:.2e}   ",
                    cfg.epochs,
                    bi + 1,
                    loss_sum / done.min(train.len()) as f64,
                    done.min(train.len()) as f64 / secs
                );
            }
        }
        let secs = epoch_start.elapsed().as_secs_f64().max(1e-6);
        let held_out_loss = net.loss(held_out, cfg.k, threads);
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / train.len().max(1) as f64,
            held_out_loss,
            positions_per_second: train.len() as f64 / secs,
        };
        if cfg.progress {
            eprintln!();
        }
        on_epoch(&report);
        reports.push(report);
        if held_out.is_empty() || best.as_ref().is_none_or(|(l, _)| held_out_loss < *l) {
            best = Some((held_out_loss, net.clone()));
        }
        if cfg
            .max_minutes
            .is_some_and(|m| began.elapsed().as_secs_f64() >= m * 60.0)
        {
            break;
        }
    }
    let net = best.map_or(net, |(_, n)| n);
    (net, reports)
}

/// The loss of the hand-written evaluation on the last `held` of the first `max` records of
/// `paths` (the held-out share [`split`] takes): the bar a network has to clear, measured on
/// the same positions and targets.
pub fn hand_written_loss(
    paths: &[String],
    cfg: &TrainConfig,
    max: usize,
    held: usize,
) -> Result<f64, String> {
    use tetrarch::game::Evaluator;
    let mut all = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p).map_err(|e| format!("cannot read {p}: {e}"))?;
        all.extend(records(&bytes).take(max - all.len().min(max)));
    }
    let tail = &all[all.len() - held.min(all.len())..];
    let mut hce = tetrarch::games::chess::eval::ChessEval::default();
    let mut sum = 0.0f64;
    for r in tail {
        let board = r.board()?;
        let s = Sample::new(r, cfg.lambda, cfg.k);
        let p = sigmoid(hce.evaluate(&board) as f32 / cfg.k);
        sum += ((p - s.target) as f64).powi(2);
    }
    Ok(sum / tail.len().max(1) as f64)
}

/// Reads the record files into samples (at most `max` of them).
pub fn load(paths: &[String], cfg: &TrainConfig, max: usize) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p).map_err(|e| format!("cannot read {p}: {e}"))?;
        for r in records(&bytes) {
            if out.len() >= max {
                return Ok(out);
            }
            out.push(Sample::new(&r, cfg.lambda, cfg.k));
        }
    }
    Ok(out)
}

/// Reads a chess network file, with its bytes (datagen records their digest). The one reader
/// of `-eval-file`, `-from` and the like, so each names a bad file the same way.
pub fn read_network_file(path: &str) -> Result<(Network, Vec<u8>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let net =
        tetrarch::games::chess::nnue::load_network(&bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok((net, bytes))
}

pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &["quiet", "compare"])?;
    let data = a.str("data").ok_or("-data FILE[,FILE...] is required")?;
    let out = a.str("out").ok_or("-out FILE is required")?;
    let distill = a.str("distill");
    let from = a.str("from");
    let repeat: usize = a.get("repeat", 1)?;
    let mut cfg = TrainConfig::default();
    cfg.hidden = a.get("hidden", cfg.hidden)?;
    cfg.epochs = a.get("epochs", cfg.epochs)?;
    cfg.batch = a.get("batch", cfg.batch)?;
    cfg.lr = a.get("lr", cfg.lr)?;
    cfg.lambda = a.get("lambda", cfg.lambda)?;
    cfg.k = a.get("k", cfg.k)?;
    cfg.power = a.get("power", cfg.power)?;
    cfg.holdout = a.get("holdout", cfg.holdout)?;
    cfg.threads = a.get("threads", cfg.threads)?;
    cfg.seed = a.get("seed", cfg.seed)?;
    cfg.init = a.get("init", cfg.init)?;
    let max: usize = a.get("max-positions", usize::MAX)?;
    cfg.max_minutes = a
        .str("minutes")
        .map(|m| m.parse())
        .transpose()
        .map_err(|_| "-minutes X")?;
    cfg.progress = !a.flag("quiet");
    let compare = a.flag("compare");
    a.finish()?;
    if cfg.hidden == 0 || !cfg.hidden.is_multiple_of(32) || cfg.hidden > 4096 {
        return Err(format!(
            "-hidden {} is not a multiple of 32 up to 4096",
            cfg.hidden
        ));
    }
    if !(0.0..=1.0).contains(&cfg.lambda) || !(0.0..1.0).contains(&cfg.holdout) || cfg.k <= 0.0 {
        return Err("-lambda and -holdout lie in 0..1, -k is positive".into());
    }
    if !(1.0..=4.0).contains(&cfg.power) {
        return Err(format!("-power {} is not in 1..4", cfg.power));
    }
    let paths: Vec<String> = data.split(',').map(str::to_string).collect();
    let loaded = Instant::now();
    let samples = load(&paths, &cfg, max)?;
    if samples.len() < 2 {
        return Err(format!("{} positions: too few to train on", samples.len()));
    }
    let (mut train_set, held_out) = split(samples, &cfg);
    let copies = train_set.clone();
    for _ in 1..repeat {
        train_set.extend_from_slice(&copies);
    }
    drop(copies);
    if let Some(d) = &distill {
        let paths: Vec<String> = d.split(',').map(str::to_string).collect();
        let teach = TrainConfig {
            lambda: 0.0,
            ..cfg.clone()
        };
        let extra = load(&paths, &teach, usize::MAX)?;
        println!(
            "nnue: {} distilled positions added to the training share",
            extra.len()
        );
        train_set.extend(extra);
        train_set.shuffle(&mut SmallRng::seed_from_u64(cfg.seed ^ 0xd157));
    }
    println!(
        "nnue: {} training and {} held-out positions (read in {:.1}s), 768hm -> {}x2 -> 1x{BUCKETS}, {} threads",
        train_set.len(),
        held_out.len(),
        loaded.elapsed().as_secs_f64(),
        cfg.hidden,
        cfg.threads
    );
    if compare {
        let total = train_set.len() + held_out.len();
        println!(
            "nnue: hand-written evaluation's held-out loss {:.6}",
            hand_written_loss(&paths, &cfg, total, held_out.len())?
        );
    }
    let start = match &from {
        Some(path) => {
            let (net, _) = read_network_file(path)?;
            if net.hidden != cfg.hidden {
                return Err(format!(
                    "{path} has {} hidden units, not -hidden {}",
                    net.hidden, cfg.hidden
                ));
            }
            FloatNet::from_network(&net)
        }
        None => FloatNet::random(cfg.hidden, cfg.seed, cfg.init),
    };
    println!(
        "nnue: epoch 0 held-out loss {:.6}",
        start.loss(&held_out, cfg.k, cfg.threads)
    );
    let (net, _) = train(start, &mut train_set, &held_out, &cfg, |r| {
        println!(
            "nnue: epoch {} train loss {:.6} held-out loss {:.6} ({:.0} positions/s)",
            r.epoch, r.train_loss, r.held_out_loss, r.positions_per_second
        );
    });
    let q = Arc::new(net.quantise());
    std::fs::write(&out, q.to_bytes()).map_err(|e| format!("writing {out}: {e}"))?;
    println!(
        "nnue: wrote {out} ({} bytes; held-out loss {:.6})",
        q.to_bytes().len(),
        net.loss(&held_out, cfg.k, cfg.threads)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch::game::{Evaluator, GenKind, MoveList, Notation, Position};
    use tetrarch::games::chess::eval::ChessEval;
    use tetrarch::games::chess::nnue::{inputs, load_network, ChessNnue};
    use tetrarch::games::chess::Board;

    /// Positions from seeded random games, labelled with the hand-written evaluation (White's
    /// view) and a result that follows its sign: a learnable target.
    fn data(n: usize, seed: u64) -> (Vec<Record>, Vec<Board>) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut hce = ChessEval::default();
        let (mut recs, mut boards) = (Vec::new(), Vec::new());
        while recs.len() < n {
            let mut b = Board::start();
            for _ in 0..rng.gen_range(4..80) {
                let mut moves = MoveList::new();
                b.generate(GenKind::All, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let noisy: Vec<_> = moves.iter().copied().filter(|&m| b.is_noisy(m)).collect();
                let m = if !noisy.is_empty() && rng.gen_bool(0.5) {
                    noisy[rng.gen_range(0..noisy.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                b.make(m);
            }
            let score = hce.white_view(&b).clamp(-3000, 3000);
            let result = if score > 150 {
                2
            } else if score < -150 {
                0
            } else {
                1
            };
            recs.push(Record::new(&b, score, result));
            boards.push(Board::from_text(&b.to_text()).unwrap());
        }
        (recs, boards)
    }

    /// The FEN of `fen`'s board with files a and h swapped (castling rights dropped: the
    /// inputs do not see them).
    fn mirror_fen(fen: &str) -> String {
        let mut parts: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        parts[0] = parts[0]
            .split('/')
            .map(|rank| {
                let mut cells = Vec::new();
                for c in rank.chars() {
                    match c.to_digit(10) {
                        Some(n) => cells.extend(std::iter::repeat_n('1', n as usize)),
                        None => cells.push(c),
                    }
                }
                cells.reverse();
                let mut out = String::new();
                let mut empty = 0;
                for c in cells {
                    if c == '1' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect::<Vec<_>>()
            .join("/");
        parts[2] = "-".into();
        parts[3] = "-".into();
        parts.join(" ")
    }

    /// The samples of a board and of its a-h mirror hold the same inputs (each perspective is
    /// mirrored to its king's wing), and the engine's reading of the board agrees.
    #[test]
    fn a_sample_reads_the_board_as_the_engine_does_and_ignores_the_wing() {
        let (recs, boards) = data(40, 9);
        for (r, b) in recs.iter().zip(&boards) {
            let got = Sample::new(r, 0.5, 400.0);
            let (engine, bucket) = inputs(b);
            let (views, got_bucket) = got.inputs();
            assert_eq!(got_bucket, bucket);
            let mirrored = Board::from_text(&mirror_fen(&b.to_text())).unwrap();
            let twin = Sample::new(&Record::new(&mirrored, r.score(), r.result()), 0.5, 400.0);
            let (twin_views, _) = twin.inputs();
            for (half, view) in engine.iter().enumerate() {
                let sorted = |v: &[u16]| {
                    let mut v = v.to_vec();
                    v.sort_unstable();
                    v
                };
                assert_eq!(sorted(&views[half]), sorted(view), "{}", b.to_text());
                assert_eq!(
                    sorted(&views[half]),
                    sorted(&twin_views[half]),
                    "{}",
                    b.to_text()
                );
            }
            assert_eq!(got.target, twin.target);
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        let (recs, _) = data(4, 9);
        let net = FloatNet::random(32, 3, 0.088);
        let k = 400.0;
        for (r, power) in recs.iter().flat_map(|r| [(r, 2.0f32), (r, 2.5)]) {
            let s = Sample::new(r, 0.3, k);
            let mut grad = net.zeros_like();
            let mut h = [vec![0.0; 32], vec![0.0; 32]];
            net.backprop(&s, k, power, &mut grad, &mut h);
            let (views, b) = s.inputs();
            let loss = |n: &FloatNet| {
                let p = sigmoid(n.eval(&views[0], &views[1], b) / k);
                ((p - s.target) as f64).abs().powf(power as f64)
            };
            let eps = 1e-3f32;
            let f = views[0][0] as usize;
            let w2 = b * 64;
            let checks: Vec<(&str, usize, f32)> = vec![
                ("w1", f * 32 + 5, grad.w1[f * 32 + 5]),
                ("b1", 7, grad.b1[7]),
                ("w2", w2 + 3, grad.w2[w2 + 3]),
                ("w2", w2 + 40, grad.w2[w2 + 40]),
                ("b2", b, grad.b2[b]),
            ];
            // Another bucket's output weights see nothing of this position.
            let other = (b + 1) % BUCKETS;
            assert!(grad.w2[other * 64..][..64].iter().all(|&g| g == 0.0));
            for (what, i, analytic) in checks {
                let mut up = net.clone();
                let mut down = net.clone();
                let (pu, pd) = match what {
                    "w1" => (&mut up.w1[i], &mut down.w1[i]),
                    "b1" => (&mut up.b1[i], &mut down.b1[i]),
                    "w2" => (&mut up.w2[i], &mut down.w2[i]),
                    _ => (&mut up.b2[i], &mut down.b2[i]),
                };
                *pu += eps;
                *pd -= eps;
                let numeric = ((loss(&up) - loss(&down)) / (2.0 * eps as f64)) as f32;
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.05 * numeric.abs(),
                    "{what}[{i}]: numeric {numeric} analytic {analytic}"
                );
            }
        }
    }

    #[test]
    fn training_lowers_the_loss_and_the_written_net_evaluates_like_the_float_model() {
        let (recs, boards) = data(3000, 1);
        let cfg = TrainConfig {
            hidden: 32,
            epochs: 4,
            batch: 128,
            lr: 0.005,
            lambda: 0.3,
            threads: 2,
            progress: false,
            ..TrainConfig::default()
        };
        let samples: Vec<Sample> = recs
            .iter()
            .map(|r| Sample::new(r, cfg.lambda, cfg.k))
            .collect();
        let (mut train_set, held_out) = split(samples, &cfg);
        assert_eq!(held_out.len(), 150);
        let start = FloatNet::random(cfg.hidden, 2, cfg.init);
        let before = start.loss(&held_out, cfg.k, 2);
        let (net, reports) = train(start, &mut train_set, &held_out, &cfg, |_| {});
        assert_eq!(reports.len(), 4);
        let after = net.loss(&held_out, cfg.k, 2);
        assert!(after < before * 0.7, "held-out loss {before} -> {after}");
        assert!(reports[3].train_loss < reports[0].train_loss, "{reports:?}");
        assert!(reports.iter().all(|r| r.positions_per_second > 0.0));

        let bytes = net.quantise().to_bytes();
        let loaded = Arc::new(load_network(&bytes).unwrap());
        let mut e = ChessNnue::new(loaded);
        // Rounding the output weights to 1/QB moves each hidden unit's share by up to
        // 0.5/QB * SCALE = 3 cp, so the quantised net strays by a few centipawns on average.
        let (mut worst, mut sum) = (0.0f32, 0.0f32);
        let probe = &boards[..200];
        for b in probe {
            let ([us, them], bucket) = inputs(b);
            let float = net.eval(&us, &them, bucket);
            let d = (float - e.evaluate(b) as f32).abs();
            worst = worst.max(d);
            sum += d;
        }
        let mean = sum / probe.len() as f32;
        eprintln!("quantisation: mean {mean} cp, worst {worst} cp");
        assert!(mean <= 10.0 && worst <= 40.0, "mean {mean} worst {worst}");
    }
}
