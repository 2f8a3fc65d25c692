//! `tetrarch-tune spsa`: tunes an engine's numeric options (search parameters) by SPSA, playing
//! games through the match runner.
//!
//! Scheme: the parameters come in OpenBench's SPSA input format (`name, int|float, start, min,
//! max, c_end, r_end`, as `tetrarch spsa` prints them), so one file drives both a local run
//! and an OpenBench tune. Each iteration `k` draws a random sign per parameter, plays `pairs`
//! colour-swapped game pairs between the engine with every parameter moved by `+sign * c_k` and
//! the engine moved by `-sign * c_k` (UCI options, so the engine must declare them: Tetrarch's
//! `tuning` build does), and moves each parameter by `r_k * c_k * (wins - losses) * sign`.
//! The gains follow Spall's schedule as OpenBench uses it: `c_k = c / k^gamma` falling to
//! `c_end` at the last iteration and `r_k = a / (A + k)^alpha / c_k^2` with the learning rate
//! `r_end` at the end (`A` a tenth of the iterations by default); integer parameters are
//! perturbed by at least half a unit and rounded randomly, so small steps still average out.
//! Games are played by [`run_match`] with the match options given on the command line (time
//! control, openings, concurrency ...); the opening order is reseeded every iteration.
//! A timed run outlasts a working session, so `-resume FILE` keeps a state file (the last
//! iteration done, the totals and every estimate at full precision) rewritten after each
//! iteration; each iteration's perturbation comes from a generator seeded by the run's seed and
//! the iteration number, so a resumed run draws exactly what an uninterrupted one would.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::match_runner::cli;
use crate::match_runner::runner::run_match;

/// One parameter of an SPSA run.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub float: bool,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    /// The current estimate.
    pub value: f64,
}

/// Reads OpenBench's SPSA input: one `name, int|float, start, min, max, c_end, r_end` line per
/// parameter; blank lines and `#` comments are skipped.
pub fn parse_params(text: &str) -> Result<Vec<Param>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 7 {
            return Err(format!(
                "line {}: expected 'name, int|float, start, min, max, c_end, r_end', got '{line}'",
                n + 1
            ));
        }
        let num = |i: usize| -> Result<f64, String> {
            f[i].parse::<f64>()
                .map_err(|_| format!("line {}: '{}' is not a number", n + 1, f[i]))
        };
        let float = match f[1] {
            "int" => false,
            "float" => true,
            other => return Err(format!("line {}: type '{other}' (int or float)", n + 1)),
        };
        let (start, min, max, c_end, r_end) = (num(2)?, num(3)?, num(4)?, num(5)?, num(6)?);
        if !(min <= start && start <= max) || c_end <= 0.0 || r_end <= 0.0 {
            return Err(format!(
                "line {}: needs min <= start <= max and positive c_end and r_end",
                n + 1
            ));
        }
        out.push(Param {
            name: f[0].to_string(),
            float,
            start,
            min,
            max,
            c_end,
            r_end,
            value: start,
        });
    }
    if out.is_empty() {
        return Err("no parameters".into());
    }
    Ok(out)
}

/// The gain schedule of a run.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub iterations: usize,
    pub alpha: f64,
    pub gamma: f64,
    /// Stability constant `A`.
    pub a_const: f64,
}

impl Schedule {
    pub fn new(iterations: usize) -> Schedule {
        Schedule {
            iterations: iterations.max(1),
            alpha: 0.602,
            gamma: 0.101,
            a_const: 0.1 * iterations.max(1) as f64,
        }
    }

    /// `(c_k, r_k)` of `p` at iteration `k` (1-based).
    pub fn gains(&self, p: &Param, k: usize) -> (f64, f64) {
        let n = self.iterations as f64;
        let c0 = p.c_end * n.powf(self.gamma);
        let a0 = p.r_end * p.c_end * p.c_end * (self.a_const + n).powf(self.alpha);
        let c = (c0 / (k as f64).powf(self.gamma)).max(if p.float { 0.0 } else { 0.5 });
        let r = a0 / (self.a_const + k as f64).powf(self.alpha) / (c * c);
        (c, r)
    }
}

/// One iteration's perturbed values: (plus, minus, signs, c_k, r_k).
pub struct Perturbation {
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    pub signs: Vec<f64>,
    pub c: Vec<f64>,
    pub r: Vec<f64>,
}

/// Draws iteration `k`'s perturbation.
pub fn perturb(params: &[Param], sched: &Schedule, k: usize, rng: &mut SmallRng) -> Perturbation {
    let mut p = Perturbation {
        plus: Vec::new(),
        minus: Vec::new(),
        signs: Vec::new(),
        c: Vec::new(),
        r: Vec::new(),
    };
    for x in params {
        let (c, r) = sched.gains(x, k);
        let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
        let (mut hi, mut lo) = (x.value + sign * c, x.value - sign * c);
        if !x.float {
            // Random rounding: the expected value is the unrounded one.
            let u: f64 = rng.gen();
            hi = (hi + u).floor();
            lo = (lo + u).floor();
        }
        p.plus.push(hi.clamp(x.min, x.max));
        p.minus.push(lo.clamp(x.min, x.max));
        p.signs.push(sign);
        p.c.push(c);
        p.r.push(r);
    }
    p
}

/// Applies an iteration's result (`wins - losses` of the plus engine).
pub fn update(params: &mut [Param], p: &Perturbation, result: f64) {
    for (i, x) in params.iter_mut().enumerate() {
        x.value = (x.value + p.r[i] * p.c[i] * result * p.signs[i]).clamp(x.min, x.max);
    }
}

/// Where a run stands after an iteration: what `-resume` writes and reads back.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The run's length and seed: a resumed run must use the same, or its schedule and draws
    /// would not continue the interrupted ones.
    pub iterations: usize,
    pub seed: u64,
    /// Iterations done.
    pub done: usize,
    /// Wins, draws and losses of the plus engine over those iterations.
    pub totals: [u64; 3],
    /// `(name, estimate)` per parameter, in the order of the parameter file.
    pub values: Vec<(String, f64)>,
}

impl State {
    /// The state file's text: `run ITERATIONS SEED`, `iteration K`, `totals W D L`, then
    /// `param NAME VALUE` lines
    /// (values in Rust's shortest round-trip form, so a resumed run continues exactly).
    pub fn to_text(&self) -> String {
        let mut t = format!(
            "# tetrarch-tune spsa state\nrun {} {}\niteration {}\ntotals {} {} {}\n",
            self.iterations, self.seed, self.done, self.totals[0], self.totals[1], self.totals[2]
        );
        for (name, v) in &self.values {
            t.push_str(&format!("param {name} {v:?}\n"));
        }
        t
    }

    pub fn parse(text: &str) -> Result<State, String> {
        let mut st = State {
            iterations: 0,
            seed: 0,
            done: 0,
            totals: [0; 3],
            values: Vec::new(),
        };
        let (mut seen_run, mut seen_iteration) = (false, false);
        for (n, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("state line {}: '{line}'", n + 1);
            let int = |s: &str| s.parse::<u64>().map_err(|_| bad());
            match f.as_slice() {
                [] => {}
                [c, ..] if c.starts_with('#') => {}
                ["run", n, seed] => {
                    st.iterations = int(n)? as usize;
                    st.seed = int(seed)?;
                    seen_run = true;
                }
                ["iteration", k] => {
                    st.done = int(k)? as usize;
                    seen_iteration = true;
                }
                ["totals", w, d, l] => st.totals = [int(w)?, int(d)?, int(l)?],
                ["param", name, v] => {
                    let v = v.parse::<f64>().map_err(|_| bad())?;
                    if !v.is_finite() {
                        return Err(bad());
                    }
                    st.values.push((name.to_string(), v));
                }
                _ => return Err(bad()),
            }
        }
        if !seen_run || !seen_iteration {
            return Err("state file lacks its 'run' or 'iteration' line".into());
        }
        Ok(st)
    }

    /// Takes the estimates back into `params`, which must be the same parameters in the same
    /// order, of a run of the same length and seed (a state file of another run is refused,
    /// not half applied).
    pub fn apply(&self, params: &mut [Param], iterations: usize, seed: u64) -> Result<(), String> {
        if (self.iterations, self.seed) != (iterations, seed) {
            return Err(format!(
                "the state file is of a run of {} iterations with seed {}, not {iterations} with seed {seed}",
                self.iterations, self.seed
            ));
        }
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let saved: Vec<&str> = self.values.iter().map(|(n, _)| n.as_str()).collect();
        if names != saved {
            return Err(format!(
                "the state file tunes {saved:?}, the parameter file {names:?}"
            ));
        }
        for (p, (_, v)) in params.iter_mut().zip(&self.values) {
            p.value = v.clamp(p.min, p.max);
        }
        Ok(())
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so an interruption leaves
/// either the old state or the new one.
fn write_atomically(path: &str, text: &str) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("writing {tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("renaming {tmp} to {path}: {e}"))
}

/// The generator of iteration `k`'s perturbation: a function of the seed and `k` alone.
fn iteration_rng(seed: u64, k: usize) -> SmallRng {
    SmallRng::seed_from_u64(
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(k as u64),
    )
}

fn shown(x: &Param, v: f64) -> String {
    if x.float {
        format!("{v:.4}")
    } else {
        format!("{}", v.round() as i64)
    }
}

pub const HELP: &str = "\
tetrarch-tune spsa: tunes an engine's UCI spin options by SPSA, playing game pairs between the
engine nudged up and down through the match runner.

  -params FILE             OpenBench SPSA input (`tetrarch spsa` prints Tetrarch's)
  -engine cmd=PATH ...     the engine (as for `match`; build Tetrarch with --features tuning)
  -iterations N            iterations (default 100)
  -pairs N                 game pairs per iteration (default 2)
  -alpha X -gamma X -A X   gain schedule (default 0.602, 0.101, a tenth of the iterations)
  -seed N                  seed of the perturbations and the opening order (default 1)
  -out FILE                write the current values (`name, value` lines) after each iteration
  -resume FILE             keep the run's state in FILE after each iteration; when FILE exists,
                           go on from where it stopped (same -params, -iterations and -seed)
  -report                  the match runner's reports on stderr
  Any other option goes to the match runner: -game, -tc, -openings (needed: without a book
  every game starts alike), -concurrency, -each, -draw, -resign, -maxmoves ... (not -games,
  -rounds, -repeat, -sprt, which SPSA sets). A book of random openings:
  tetrarch genfens 2000 seed 1 book None | sed 's/^info string genfens //' > book.epd
";

/// Runs `tetrarch-tune spsa` with the arguments after `spsa`.
pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let mut params_file = None;
    let mut iterations = 100usize;
    let mut pairs = 2usize;
    let mut seed = 1u64;
    let mut out = None;
    let mut resume: Option<String> = None;
    let mut report = false;
    let (mut alpha, mut gamma, mut a_const) = (None, None, None);
    let mut engine: Option<Vec<String>> = None;
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| format!("{name} needs a value"))
    };
    let num = |s: String, name: &str| -> Result<f64, String> {
        s.parse::<f64>()
            .map_err(|_| format!("{name}: '{s}' is not a number"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-params" => params_file = Some(value(&mut i, a)?),
            "-iterations" => iterations = num(value(&mut i, a)?, a)? as usize,
            "-pairs" => pairs = (num(value(&mut i, a)?, a)? as usize).max(1),
            "-seed" => seed = num(value(&mut i, a)?, a)? as u64,
            "-out" => out = Some(value(&mut i, a)?),
            "-resume" => resume = Some(value(&mut i, a)?),
            "-alpha" => alpha = Some(num(value(&mut i, a)?, a)?),
            "-gamma" => gamma = Some(num(value(&mut i, a)?, a)?),
            "-A" => a_const = Some(num(value(&mut i, a)?, a)?),
            "-report" => report = true,
            "-engine" => {
                let mut spec = Vec::new();
                while i + 1 < args.len() && !args[i + 1].starts_with('-') {
                    i += 1;
                    spec.push(args[i].clone());
                }
                if engine.replace(spec).is_some() {
                    return Err("one -engine: SPSA plays it against itself".into());
                }
            }
            "-games" | "-rounds" | "-repeat" | "-sprt" | "-srand" | "-tournament" => {
                return Err(format!("{a} is set by SPSA itself"))
            }
            _ => rest.push(args[i].clone()),
        }
        i += 1;
    }
    let params_file = params_file.ok_or("-params FILE is required")?;
    let text = std::fs::read_to_string(&params_file)
        .map_err(|e| format!("cannot read {params_file}: {e}"))?;
    let mut params = parse_params(&text)?;
    let engine = engine.ok_or("-engine cmd=PATH is required")?;
    if !rest.iter().any(|a| a == "-openings") {
        return Err("give -openings file=BOOK (see -help for a way to make one)".into());
    }
    let mut sched = Schedule::new(iterations);
    if let Some(a) = alpha {
        sched.alpha = a;
    }
    if let Some(g) = gamma {
        sched.gamma = g;
    }
    if let Some(a) = a_const {
        sched.a_const = a;
    }
    let (mut total_w, mut total_d, mut total_l) = (0u64, 0u64, 0u64);
    let mut first = 1;
    if let Some(path) = &resume {
        if std::path::Path::new(path).exists() {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let st = State::parse(&text).map_err(|e| format!("{path}: {e}"))?;
            st.apply(&mut params, sched.iterations, seed)
                .map_err(|e| format!("{path}: {e}"))?;
            [total_w, total_d, total_l] = st.totals;
            first = st.done + 1;
            println!(
                "spsa: resuming after iteration {} of {} (+{total_w} ={total_d} -{total_l})",
                st.done, sched.iterations
            );
        }
    }
    for k in first..=sched.iterations {
        let p = perturb(&params, &sched, k, &mut iteration_rng(seed, k));
        let mut margs: Vec<String> = Vec::new();
        for (name, values) in [("spsa-plus", &p.plus), ("spsa-minus", &p.minus)] {
            margs.push("-engine".into());
            margs.extend(engine.iter().cloned());
            margs.push(format!("name={name}"));
            for (x, v) in params.iter().zip(values.iter()) {
                margs.push(format!("option.{}={}", x.name, shown(x, *v)));
            }
        }
        margs.extend(rest.iter().cloned());
        margs.extend(
            [
                "-games",
                "2",
                "-rounds",
                &pairs.to_string(),
                "-repeat",
                "-srand",
                &(seed.wrapping_mul(1_000_003).wrapping_add(k as u64)).to_string(),
                "-ratinginterval",
                "0",
            ]
            .map(String::from),
        );
        let config = cli::parse(&margs)?;
        let summary = if report {
            run_match(&config, &mut std::io::stderr())?
        } else {
            run_match(&config, &mut std::io::sink())?
        };
        if summary.aborted {
            return Err(format!(
                "iteration {k}: the match stopped: {}",
                summary.stopped_early.unwrap_or_default()
            ));
        }
        let w = summary.wdl;
        let result = w.wins as f64 - w.losses as f64;
        update(&mut params, &p, result);
        total_w += w.wins;
        total_d += w.draws;
        total_l += w.losses;
        let values: Vec<String> = params
            .iter()
            .map(|x| format!("{}={:.2}", x.name, x.value))
            .collect();
        println!(
            "spsa: iteration {k}/{}: plus +{} ={} -{} (all: +{total_w} ={total_d} -{total_l}); {}",
            sched.iterations,
            w.wins,
            w.draws,
            w.losses,
            values.join(" ")
        );
        if let Some(path) = &out {
            let text: String = params
                .iter()
                .map(|x| format!("{}, {}\n", x.name, shown(x, x.value)))
                .collect();
            std::fs::write(path, text).map_err(|e| format!("writing {path}: {e}"))?;
        }
        if let Some(path) = &resume {
            let st = State {
                iterations: sched.iterations,
                seed,
                done: k,
                totals: [total_w, total_d, total_l],
                values: params.iter().map(|x| (x.name.clone(), x.value)).collect(),
            };
            write_atomically(path, &st.to_text())?;
        }
    }
    println!("spsa: final values (start -> tuned):");
    for x in &params {
        println!(
            "{}, {}    # from {}",
            x.name,
            shown(x, x.value),
            shown(x, x.start)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "\
# comment
lmr_base, int, 80, 0, 200, 10, 0.002
asp_window, float, 14.5, 5, 50, 2.25, 0.002
";

    #[test]
    fn openbench_input_parses() {
        let p = parse_params(INPUT).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, "lmr_base");
        assert!(!p[0].float);
        assert_eq!((p[0].start, p[0].min, p[0].max), (80.0, 0.0, 200.0));
        assert!(p[1].float);
        assert!(parse_params("x, int, 1, 2, 3, 1, 0.002").is_err());
        assert!(parse_params("x, bool, 1, 0, 3, 1, 0.002").is_err());
        assert!(parse_params("x, int, 1, 0, 3").is_err());
        assert!(parse_params("").is_err());
    }

    #[test]
    fn state_round_trips_and_refuses_another_run() {
        let mut p = parse_params(INPUT).unwrap();
        p[0].value = 81.37;
        p[1].value = 14.1 + 0.2; // not exactly representable: must come back bit for bit
        let st = State {
            iterations: 500,
            seed: 3,
            done: 17,
            totals: [30, 12, 26],
            values: p.iter().map(|x| (x.name.clone(), x.value)).collect(),
        };
        let back = State::parse(&st.to_text()).unwrap();
        assert_eq!(back, st);
        let mut q = parse_params(INPUT).unwrap();
        assert!(back.apply(&mut q, 400, 3).is_err());
        assert!(back.apply(&mut q, 500, 4).is_err());
        back.apply(&mut q, 500, 3).unwrap();
        assert_eq!(q[0].value, 81.37);
        assert_eq!(q[1].value, 14.1 + 0.2);
        let mut other = parse_params("lmr_base, int, 80, 0, 200, 10, 0.002\n").unwrap();
        assert!(back.apply(&mut other, 500, 3).is_err());
        assert!(State::parse("run 5 1\ntotals 1 2 3\n").is_err());
        assert!(State::parse("iteration 3\n").is_err());
        assert!(State::parse("run 5 1\niteration 3\nparam x nan\n").is_err());
        assert!(State::parse("run 5 1\niteration three\n").is_err());
    }

    /// A resumed run draws the same perturbations as an uninterrupted one.
    #[test]
    fn perturbations_depend_on_seed_and_iteration_only() {
        let p = parse_params(INPUT).unwrap();
        let s = Schedule::new(100);
        let a = perturb(&p, &s, 42, &mut iteration_rng(7, 42));
        let b = perturb(&p, &s, 42, &mut iteration_rng(7, 42));
        assert_eq!((a.plus, a.minus, a.signs), (b.plus, b.minus, b.signs));
        let draws: Vec<Vec<f64>> = (1..=8)
            .map(|k| perturb(&p, &s, k, &mut iteration_rng(7, k)).signs)
            .collect();
        assert!(draws.iter().any(|d| d != &draws[0]), "signs never vary");
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let p = parse_params(INPUT).unwrap();
        let s = Schedule::new(200);
        let (c, r) = s.gains(&p[0], 200);
        assert!((c - 10.0).abs() < 1e-9, "{c}");
        assert!((r - 0.002).abs() < 1e-9, "{r}");
        let (c1, r1) = s.gains(&p[0], 1);
        assert!(c1 > c && r1 > r);
    }

    /// SPSA on a noisy quadratic "match": the plus side wins more often the closer it is to
    /// the optimum than the minus side. The estimate must approach the optimum.
    #[test]
    fn spsa_climbs_a_noisy_hill() {
        let mut params =
            parse_params("a, int, 20, 0, 200, 8, 0.002\nb, float, 150, 0, 200, 8, 0.002\n")
                .unwrap();
        let optimum = [120.0, 60.0];
        let strength = |v: &[f64]| -> f64 {
            -((v[0] - optimum[0]).powi(2) + (v[1] - optimum[1]).powi(2)) / 4000.0
        };
        let sched = Schedule::new(3000);
        let mut rng = SmallRng::seed_from_u64(9);
        for k in 1..=sched.iterations {
            let p = perturb(&params, &sched, k, &mut rng);
            // Two game pairs: each game won by plus with a logistic probability.
            let d = strength(&p.plus) - strength(&p.minus);
            let win = 1.0 / (1.0 + (-d).exp());
            let mut result = 0.0;
            for _ in 0..4 {
                result += if rng.gen_bool(win) { 1.0 } else { -1.0 };
            }
            update(&mut params, &p, result);
        }
        let start_dist = ((20.0f64 - 120.0).powi(2) + (150.0f64 - 60.0).powi(2)).sqrt();
        let dist = ((params[0].value - optimum[0]).powi(2)
            + (params[1].value - optimum[1]).powi(2))
        .sqrt();
        assert!(dist < start_dist / 3.0, "{params:?}");
    }
}
