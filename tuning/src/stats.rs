//! Match statistics: Elo with error bars, pentanomial counts, the SPRT, and the Chinese Chess
//! Association's rating method.
//!
//! Scheme. Scores are always normalised to [0, 1] per unit: a game (win 1, draw 1/2, loss 0)
//! for trinomial statistics, a colour-swapped pair of games (0, 1/4, 1/2, 3/4, 1) for
//! pentanomial ones. Elo is logistic: `elo = -400 log10(1/s - 1)`. The 95% error bar is the
//! normal approximation of the mean score's interval mapped through that function and halved,
//! as cutechess-cli and fastchess print it.
//!
//! The SPRT is the generalised SPRT of Michel Van den Bergh ("Comments on Normalized Elo"), the
//! form fishtest, OpenBench and fastchess use for the logistic model: for each hypothesis score
//! `s` (from `elo0` and `elo1`) the maximum-likelihood distribution over the observed outcome
//! bins with expectation `s` is `p_i = phat_i / (1 + theta (a_i - s))`, where `theta` solves
//! `sum phat_i (a_i - s) / (1 + theta (a_i - s)) = 0`; the LLR is
//! `N * sum phat_i ln(p1_i / p0_i)`. Empty bins are regularised to 1e-3 of a count, as fastchess
//! does, so the first games do not produce infinities. Pentanomial counts merge the two ways of
//! scoring one point in a pair (win+loss and draw+draw) into one bin.
//!
//! The Chinese Chess Association's rating method: after a set of games a player's rating changes by
//! `K (W - We)`, where `We` sums the expected scores of the games, each read from the normal
//! distribution table (`Phi(D / (200 sqrt 2))` rounded to two decimals, which reproduces the
//! table: 0-3 points 0.50, 100 points 0.64, 200 points 0.76, 400 points 0.92).

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses, from the first player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points on the 1 / 0.5 / 0 scale.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The mean score in [0, 1], or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Adds one game: `points` is 1, 0.5 or 0.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// The same counts from the other player's view.
    pub fn flip(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    fn bins(&self) -> ([f64; 3], [u64; 3]) {
        ([0.0, 0.5, 1.0], [self.losses, self.draws, self.wins])
    }
}

/// Results of colour-swapped pairs of games, by the first player's points in the pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Two losses (0 points).
    pub ll: u64,
    /// A loss and a draw (1/2).
    pub ld: u64,
    /// A win and a loss (1).
    pub wl: u64,
    /// Two draws (1).
    pub dd: u64,
    /// A win and a draw (3/2).
    pub wd: u64,
    /// Two wins (2).
    pub ww: u64,
}

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// Adds a pair from the two games' points (each 1, 0.5 or 0).
    pub fn add(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round() as i64;
        match half_points {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 if (a - b).abs() > 0.75 => self.wl += 1,
            2 => self.dd += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// The counts as the five pair scores 0, 1/2, 1, 3/2, 2 (the form fastchess prints as
    /// `Ptnml(0-2)`).
    pub fn five(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Counts given as the five pair scores (the inverse of [`Penta::five`]; a pair scoring
    /// 1 is kept as two draws, which every statistic here treats alike with a win and a loss).
    pub fn from_five(c: [u64; 5]) -> Penta {
        Penta {
            ll: c[0],
            ld: c[1],
            wl: 0,
            dd: c[2],
            wd: c[3],
            ww: c[4],
        }
    }

    /// The pairs of both.
    pub fn plus(&self, o: &Penta) -> Penta {
        Penta {
            ll: self.ll + o.ll,
            ld: self.ld + o.ld,
            wl: self.wl + o.wl,
            dd: self.dd + o.dd,
            wd: self.wd + o.wd,
            ww: self.ww + o.ww,
        }
    }

    /// The mean pair score in [0, 1], or `None` before the first pair.
    pub fn score(&self) -> Option<f64> {
        let (a, c) = self.bins();
        mean_var(&a, &c).map(|(m, _)| m)
    }

    fn bins(&self) -> ([f64; 5], [u64; 5]) {
        ([0.0, 0.25, 0.5, 0.75, 1.0], self.five())
    }
}

/// Logistic Elo of a mean score (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub error: f64,
    /// Likelihood of superiority (trinomial: from wins and losses alone), in [0, 1].
    pub los: f64,
}

/// Mean and per-unit variance of the counted scores, or `None` when nothing was counted.
fn mean_var(scores: &[f64], counts: &[u64]) -> Option<(f64, f64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = scores
        .iter()
        .zip(counts)
        .map(|(a, &c)| a * c as f64)
        .sum::<f64>()
        / n;
    let var = scores
        .iter()
        .zip(counts)
        .map(|(a, &c)| c as f64 * (a - mean) * (a - mean))
        .sum::<f64>()
        / n;
    Some((mean, var))
}

fn estimate(scores: &[f64], counts: &[u64]) -> Option<EloEstimate> {
    let (mean, var) = mean_var(scores, counts)?;
    let n: u64 = counts.iter().sum();
    let stderr = (var / n as f64).sqrt();
    let hi = elo((mean + Z95 * stderr).min(1.0));
    let lo = elo((mean - Z95 * stderr).max(0.0));
    // LOS from the normal approximation of the mean: P(true score > 1/2).
    let los = if stderr > 0.0 {
        normal_cdf((mean - 0.5) / stderr)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloEstimate {
        elo: elo(mean),
        error: (hi - lo) / 2.0,
        los,
    })
}

/// Elo from game results (trinomial), with its error bar.
pub fn elo_trinomial(wdl: &Wdl) -> Option<EloEstimate> {
    let (a, c) = wdl.bins();
    let mut e = estimate(&a, &c)?;
    // cutechess's LOS: from decisive games only.
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive > 0.0 {
        e.los = normal_cdf((wdl.wins as f64 - wdl.losses as f64) / decisive.sqrt());
    }
    Some(e)
}

/// Elo from pair results (pentanomial), with its error bar; the better estimate of the error
/// when games are played in colour-swapped pairs, because it sees their correlation.
pub fn elo_pentanomial(penta: &Penta) -> Option<EloEstimate> {
    let (a, c) = penta.bins();
    estimate(&a, &c)
}

/// Normalised Elo (fishtest's nElo): `(mean - 1/2) / sigma * 800 / ln 10`, with sigma the
/// standard deviation of one game's score (for pairs, of a pair's score over sqrt 2), and its
/// 95% error bar. Independent of the draw rate, which makes SPRT bounds portable between
/// time controls.
pub fn nelo_trinomial(wdl: &Wdl) -> Option<EloEstimate> {
    let (a, c) = wdl.bins();
    nelo(&a, &c, 1.0)
}

/// Normalised Elo of pair results.
pub fn nelo_pentanomial(penta: &Penta) -> Option<EloEstimate> {
    let (a, c) = penta.bins();
    nelo(&a, &c, std::f64::consts::SQRT_2)
}

const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

fn nelo(scores: &[f64], counts: &[u64], unit: f64) -> Option<EloEstimate> {
    let (mean, var) = mean_var(scores, counts)?;
    let n: u64 = counts.iter().sum();
    let sigma = var.sqrt() * unit;
    // With no spread at all (every unit scored the same) the normalised Elo is unbounded.
    let t = if sigma > 0.0 {
        (mean - 0.5) / sigma
    } else if mean > 0.5 {
        f64::INFINITY
    } else if mean < 0.5 {
        f64::NEG_INFINITY
    } else {
        0.0
    };
    Some(EloEstimate {
        elo: t * NELO_SCALE,
        error: Z95 * NELO_SCALE / (n as f64 * unit * unit).sqrt(),
        los: normal_cdf(t * (n as f64 * unit * unit).sqrt()),
    })
}

/// Which Elo the SPRT's hypotheses are stated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Logistic Elo (the default; cutechess-cli's and OpenBench's).
    Logistic,
    /// Normalised Elo (fishtest's and fastchess's default).
    Normalized,
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// The LLR fell to the lower bound: H0 (the change is no better than `elo0`) accepted.
    AcceptH0,
    /// The LLR rose to the upper bound: H1 (at least `elo1`) accepted.
    AcceptH1,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `alpha` and `beta` in (0, 1), `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err("SPRT: elo0 must be less than elo1".into());
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0) {
            return Err("SPRT: alpha and beta must lie strictly between 0 and 1".into());
        }
        if alpha + beta >= 1.0 {
            return Err("SPRT: alpha + beta must be less than 1".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Logistic,
        })
    }

    /// The same test with its hypotheses in another Elo model.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// The lower bound, `ln(beta / (1 - alpha))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound, `ln((1 - beta) / alpha)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The LLR of game results.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let (a, c) = wdl.bins();
        self.llr(&a, &c, 1.0)
    }

    /// The LLR of pair results.
    pub fn llr_pentanomial(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let (a, c) = penta.bins();
        self.llr(&a, &c, std::f64::consts::SQRT_2)
    }

    /// The state for an LLR.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper() {
            SprtState::AcceptH1
        } else if llr <= self.lower() {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// `unit` is sqrt 2 for pairs: a pair's normalised score spread is that of a game over
    /// sqrt 2, so normalised hypotheses scale by it.
    fn llr(&self, scores: &[f64], counts: &[u64], unit: f64) -> f64 {
        let regular: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = regular.iter().sum();
        let phat: Vec<f64> = regular.iter().map(|c| c / total).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(scores, &phat, elo_to_score(self.elo0)),
                mle_with_mean(scores, &phat, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => (
                mle_with_t(scores, &phat, unit * self.elo0 / NELO_SCALE),
                mle_with_t(scores, &phat, unit * self.elo1 / NELO_SCALE),
            ),
        };
        let mean_log_ratio: f64 = phat
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(ph, (q0, q1))| ph * (q1.ln() - q0.ln()))
            .sum();
        total * mean_log_ratio
    }
}

/// The distribution over the bins `scores` closest to the empirical `phat` (maximum likelihood)
/// among those whose expectation is `s`: `p_i = phat_i / (1 + theta (a_i - s))`. The equation
/// for `theta` is strictly decreasing on the interval where every `p_i` is positive, so
/// bisection finds its root.
fn mle_with_mean(scores: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
    let a_min = scores.iter().cloned().fold(f64::INFINITY, f64::min);
    let a_max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let f = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(phat)
            .map(|(a, p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    // Open interval (-1 / (a_max - s), -1 / (a_min - s)); f runs from +inf to -inf across it.
    let theta = bisect(f, -1.0 / (a_max - s), -1.0 / (a_min - s));
    scores
        .iter()
        .zip(phat)
        .map(|(a, p)| p / (1.0 + theta * (a - s)))
        .collect()
}

/// The root of a function that is positive at `lo` and negative at `hi`, by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The maximum-likelihood distribution over the bins whose normalised score
/// `t = (mean - 1/2) / sigma` is `t`, by the fixed-point iteration of Van den Bergh's section
/// 4.1: with the current estimate's mean and sigma, `phi_i = a_i - 1/2 - t sigma (1 + ((a_i -
/// mean) / sigma)^2) / 2`, then `p_i = phat_i / (1 + theta phi_i)` with `theta` the root of
/// `sum phat_i phi_i / (1 + theta phi_i)`. Starts from the uniform distribution.
fn mle_with_t(scores: &[f64], phat: &[f64], t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..1000 {
        let mean: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mean) * (a - mean))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma).powi(2)))
            .collect();
        let u = phi.iter().cloned().fold(f64::INFINITY, f64::min);
        let v = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let theta = bisect(
            |th| {
                phat.iter()
                    .zip(&phi)
                    .map(|(q, f)| q * f / (1.0 + th * f))
                    .sum()
            },
            -1.0 / v,
            -1.0 / u,
        );
        let mut diff: f64 = 0.0;
        for i in 0..n {
            let next = phat[i] / (1.0 + theta * phi[i]);
            diff = diff.max((next - p[i]).abs());
            p[i] = next;
        }
        if diff < 1e-10 {
            break;
        }
    }
    p
}

/// The error function, by its Maclaurin series for small arguments and a continued fraction
/// for the complement beyond; accurate to about 1e-14 over the range ratings need.
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
            if n > 200.0 {
                break;
            }
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    let mut frac = x;
    for k in (1..=60).rev() {
        frac = x + (k as f64 / 2.0) / frac;
    }
    1.0 - (-x * x).exp() / (std::f64::consts::PI.sqrt() * frac)
}

/// The standard normal distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}

/// The rating method of the Chinese Chess Association: expected scores from the
/// normal distribution table, `delta = K (W - We)`.
pub mod cca {
    use super::normal_cdf;

    /// The rating unrated players start from.
    pub const INITIAL_RATING: f64 = 1500.0;
    /// K for established players.
    pub const K_ESTABLISHED: f64 = 10.0;

    /// The table's expected score of the higher-rated side at a rating difference: the normal
    /// distribution with a standard deviation of 200 sqrt 2 per player pair, rounded to two
    /// decimals as the printed table is. Negative differences give the lower side's value.
    pub fn expected_score(difference: f64) -> f64 {
        let d = difference.abs();
        let high = (normal_cdf(d / (200.0 * std::f64::consts::SQRT_2)) * 100.0).round() / 100.0;
        if difference >= 0.0 {
            high
        } else {
            1.0 - high
        }
    }

    /// The rating change after a set of games: `games` holds, for each game, the opponent's
    /// rating and the points scored in it (1, 0.5 or 0).
    pub fn rating_change(k: f64, rating: f64, games: &[(f64, f64)]) -> f64 {
        let scored: f64 = games.iter().map(|&(_, p)| p).sum();
        let expected: f64 = games
            .iter()
            .map(|&(opp, _)| expected_score(rating - opp))
            .sum();
        k * (scored - expected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // Reference values (Abramowitz and Stegun, table 7.1).
        for (x, v) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
        ] {
            assert!((erf(x) - v).abs() < 1e-13, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + v).abs() < 1e-13);
        }
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-12);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-600.0, -100.0, 0.0, 35.5, 400.0] {
            assert!((elo(elo_to_score(e)) - e).abs() < 1e-9);
        }
        assert_eq!(elo(0.5), 0.0);
        assert!(elo(1.0).is_infinite());
    }

    #[test]
    fn pair_results_land_in_the_right_bins() {
        let mut p = Penta::default();
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(1.0, 0.5);
        p.add(0.0, 0.5);
        p.add(1.0, 1.0);
        p.add(0.0, 0.0);
        assert_eq!(p.five(), [1, 1, 2, 1, 1]);
        assert_eq!((p.wl, p.dd), (1, 1));
        assert_eq!(p.score(), Some(0.5));
    }

    #[test]
    fn sprt_bounds() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert!((s.lower() + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((s.upper() - 2.944_438_979_166_44).abs() < 1e-12);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
    }

    #[test]
    fn llr_is_zero_midway_and_signed_by_the_evidence() {
        let s = Sprt::new(-10.0, 10.0, 0.05, 0.05).unwrap();
        // Symmetric hypotheses around a score of exactly 1/2: no evidence either way.
        assert!(s.llr_trinomial(&Wdl::new(100, 50, 100)).abs() < 1e-9);
        assert!(s.llr_trinomial(&Wdl::new(120, 50, 80)) > 0.0);
        assert!(s.llr_trinomial(&Wdl::new(80, 50, 120)) < 0.0);
    }

    /// fastchess 1.x output quoted in a public engine's development log (model normalized,
    /// elo0 0, elo1 10, alpha = beta = 0.05): `Ptnml(0-2)` counts and the LLR it printed.
    #[test]
    fn normalized_llr_matches_fastchess_output() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05)
            .unwrap()
            .with_model(SprtModel::Normalized);
        for (five, printed) in [
            ([1, 11, 47, 25, 16], 1.71),
            ([1, 24, 42, 25, 8], 0.60),
            ([2, 23, 32, 35, 8], 0.92),
            ([1, 15, 25, 33, 26], 2.19),
        ] {
            let p = Penta {
                ll: five[0],
                ld: five[1],
                dd: five[2],
                wd: five[3],
                ww: five[4],
                wl: 0,
            };
            let llr = s.llr_pentanomial(&p);
            assert!(
                (llr - printed).abs() < 0.005,
                "{five:?}: {llr} vs {printed}"
            );
            // The same log prints nElo +/- 48.15 for 100 pairs.
            let n = nelo_pentanomial(&p).unwrap();
            assert!((n.error - 48.15).abs() < 0.005, "{n:?}");
        }
        // And Elo 77.71 +/- 33.03 for the first of them.
        let e = elo_pentanomial(&Penta {
            ll: 1,
            ld: 11,
            dd: 47,
            wd: 25,
            ww: 16,
            wl: 0,
        })
        .unwrap();
        assert!(
            (e.elo - 77.71).abs() < 0.005 && (e.error - 33.03).abs() < 0.005,
            "{e:?}"
        );
    }

    #[test]
    fn normalized_elo_of_a_clean_sweep_is_unbounded() {
        assert_eq!(
            nelo_trinomial(&Wdl::new(10, 0, 0)).unwrap().elo,
            f64::INFINITY
        );
        assert_eq!(nelo_trinomial(&Wdl::new(0, 4, 0)).unwrap().elo, 0.0);
    }

    #[test]
    fn mle_has_the_asked_mean_and_sums_to_one() {
        let a = [0.0, 0.25, 0.5, 0.75, 1.0];
        let phat = [0.05, 0.2, 0.4, 0.25, 0.1];
        for s in [0.45, 0.5, 0.53] {
            let p = mle_with_mean(&a, &phat, s);
            let sum: f64 = p.iter().sum();
            let mean: f64 = p.iter().zip(&a).map(|(p, a)| p * a).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{p:?}");
            assert!((mean - s).abs() < 1e-12, "{p:?}");
        }
    }

    #[test]
    fn cca_table_values_from_the_rules() {
        use cca::expected_score;
        assert_eq!(expected_score(0.0), 0.50);
        assert_eq!(expected_score(3.0), 0.50);
        assert_eq!(expected_score(4.0), 0.51);
        assert_eq!(expected_score(100.0), 0.64);
        assert_eq!(expected_score(200.0), 0.76);
        assert_eq!(expected_score(400.0), 0.92);
        assert_eq!(expected_score(-100.0), 1.0 - 0.64);
    }

    #[test]
    fn cca_rating_change() {
        // A 1500 player scoring 2 of 3 against 1600, 1500 and 1400: We = 0.36 + 0.5 + 0.64.
        let d = cca::rating_change(10.0, 1500.0, &[(1600.0, 1.0), (1500.0, 0.5), (1400.0, 0.5)]);
        assert!((d - 10.0 * (2.0 - 1.5)).abs() < 1e-9, "{d}");
    }
}
