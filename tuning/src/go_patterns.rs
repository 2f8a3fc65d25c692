//! `tetrarch-tune go-patterns`: fits the Go engine's learned move priors, a Bradley-Terry
//! model of move choice, by minorization-maximization, after Coulom, "Computing Elo Ratings
//! of Move Patterns in the Game of Go" (2007).
//!
//! Scheme: every position of every SGF game under `-data` is a competition among the legal
//! moves (own true eyes excluded, pass included), won by the move played. A move is a team
//! of features (`tetrarch::games::go::move_features`), its strength the product of their
//! gammas. MM updates one feature group at a time, each feature by
//! `gamma_i = (W_i + 1) / (C_i + 2 / (1 + gamma_i))`: `W_i` the wins of teams holding it,
//! `C_i` the sum over competitions of the strength of its teams' other members over the
//! competition's total strength, and the `1` and `2 / (1 + gamma_i)` Coulom's prior of one
//! virtual win and one virtual loss against a player of gamma 1. Shapes seen fewer than
//! `-min-count` times are dropped (their gamma stays 1). Every `-holdout`-th game is held out
//! and the report gives the top-1 prediction rate (the model's most likely move is the one
//! played) and the mean log-likelihood on training and held-out positions.
//!
//! The fitted gammas are written as Rust source (`-out`), a sorted table that ships with the
//! engine like the other tuned tables.
//!
//! `-model playout` fits the softmax playout policy's model instead
//! (`tetrarch::games::go::playout_features`): the same fitter over the cheap features a
//! playout can afford at every move (3x3 colours with atari bits, capture, extension,
//! self-atari, contiguity to the last move). Its competitions are the positions whose move is
//! a stone, among every legal point that is not an own eye; a pass is never a candidate,
//! since the playouts pass only when nothing is left. Pattern keys are stored canonical
//! (smallest over the 8 symmetries) and kept when seen `-min-count` times as a candidate.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use tetrarch::games::go::move_features::{
    self, candidates, move_features, Context, Feature, Features, GROUPS, GROUP_NAMES,
};
use tetrarch::games::go::playout_features::{self as pf, point_features};
use tetrarch::games::go::{Board, Move, Record};

use crate::commands::Args;

const HELP: &str = "\
tetrarch-tune go-patterns -data DIR[,DIR...] [-out FILE.rs] [-model priors|playout]
    [-radius 3] [-iterations 12] [-min-count 3] [-holdout 10] [-max-games N]
Fits Bradley-Terry gammas of Go move features to the SGF games under DIR (searched
recursively) by minorization-maximization and reports top-1 prediction on held-out games
(every HOLDOUT-th game). -model priors (default): the tree's learned priors
(move_features.rs); -model playout: the softmax playout policy's cheap features
(playout_features.rs). -radius: largest diamond pattern (2 to 4; priors only).
";

/// Which model is fitted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Model {
    /// The tree's learned priors (`move_features`).
    Priors,
    /// The softmax playout policy's features (`playout_features`).
    Playout,
}

impl Model {
    fn groups(self) -> usize {
        match self {
            Model::Priors => GROUPS,
            Model::Playout => pf::GROUPS,
        }
    }

    fn group_name(self, g: usize) -> &'static str {
        match self {
            Model::Priors => GROUP_NAMES[g],
            Model::Playout => pf::GROUP_NAMES[g],
        }
    }

    /// Whether a feature is kept having been seen `n` times among the candidates and `w`
    /// times in the winner: tactics always, shapes seen often enough.
    fn keep(self, f: &Feature, n: u32, w: u32, min_count: u32) -> bool {
        match self {
            Model::Priors => {
                let shape = (move_features::PAT3..=move_features::DIAMOND4).contains(&f.group);
                !shape || (f.group == move_features::PAT3 && n >= min_count) || w >= min_count
            }
            Model::Playout => f.group != pf::PATTERN || n >= min_count,
        }
    }
}

/// One competition: its candidates' range and the index of the winner among them.
struct Competition {
    cands: std::ops::Range<usize>,
    winner: usize,
}

/// Competitions with their candidates' features (as indices into the fitted features).
#[derive(Default)]
struct Data {
    comps: Vec<Competition>,
    /// Per candidate, its range in `feats`.
    cands: Vec<std::ops::Range<u32>>,
    feats: Vec<u32>,
}

pub fn go_patterns_cmd(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &[])?;
    let dirs: Vec<PathBuf> = a
        .str("data")
        .ok_or("-data DIR[,DIR...] is required")?
        .split(',')
        .map(PathBuf::from)
        .collect();
    let out = a.str("out").map(PathBuf::from);
    let model = match a.str("model").as_deref() {
        None | Some("priors") => Model::Priors,
        Some("playout") => Model::Playout,
        Some(m) => return Err(format!("-model: no model '{m}' (priors or playout)")),
    };
    let radius: usize = a.get("radius", 3)?;
    if !(2..=4).contains(&radius) {
        return Err("-radius must be 2, 3 or 4".into());
    }
    let iterations: usize = a.get("iterations", 12)?;
    let min_count: u32 = a.get("min-count", 3)?;
    let holdout: usize = a.get("holdout", 10)?;
    let max_games: usize = a.get("max-games", usize::MAX)?;
    a.finish()?;
    // The command as the generated file records it: data directories by their last two
    // components, so no machine's paths get into the source.
    let shown: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if i > 0 && args[i - 1].trim_start_matches('-') == "data" {
                w.split(',')
                    .map(|d| {
                        let parts: Vec<&str> =
                            d.trim_end_matches('/').rsplit('/').take(2).collect();
                        parts.into_iter().rev().collect::<Vec<_>>().join("/")
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                w.clone()
            }
        })
        .collect();
    let command = format!("tetrarch-tune go-patterns {}", shown.join(" "));

    let mut files = Vec::new();
    for d in &dirs {
        collect_sgf(d, &mut files)?;
    }
    files.sort();
    files.truncate(max_games);
    if files.is_empty() {
        return Err("no .sgf files found".into());
    }
    let started = Instant::now();
    // Pass 1: every position's candidates and raw features.
    let mut raw: [Vec<RawComp>; 2] = [Vec::new(), Vec::new()];
    let mut games = [0usize; 2];
    let mut skipped = 0usize;
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let set = (holdout > 0 && i % holdout == holdout - 1) as usize;
        let read = match model {
            Model::Priors => game_competitions(&text, radius, &mut raw[set]),
            Model::Playout => game_playout_competitions(&text, &mut raw[set]),
        };
        match read {
            Ok(()) => games[set] += 1,
            Err(_) => skipped += 1,
        }
        if (i + 1) % 50 == 0 {
            eprintln!(
                "go-patterns: read {}/{} games, {:.0}s",
                i + 1,
                files.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "go-patterns: {} training games ({} positions), {} held out ({} positions), {} unreadable",
        games[0],
        raw[0].len(),
        games[1],
        raw[1].len(),
        skipped
    );
    // Which features to fit: tactics always, shapes seen often enough.
    let mut seen: HashMap<Feature, (u32, u32)> = HashMap::new();
    for c in &raw[0] {
        for (k, fs) in c.cands.iter().enumerate() {
            for f in fs {
                let e = seen.entry(*f).or_default();
                e.0 += 1;
                e.1 += (k == c.winner) as u32;
            }
        }
    }
    let mut kept: Vec<Feature> = seen
        .iter()
        .filter(|(f, &(n, w))| model.keep(f, n, w, min_count))
        .map(|(f, _)| *f)
        .collect();
    kept.sort();
    let index: HashMap<Feature, u32> = kept
        .iter()
        .enumerate()
        .map(|(i, f)| (*f, i as u32))
        .collect();
    let train = index_data(&raw[0], &index);
    let held = index_data(&raw[1], &index);
    drop(raw);
    eprintln!(
        "go-patterns: {} features kept of {} seen",
        kept.len(),
        seen.len()
    );
    let mut gamma = vec![1.0f64; kept.len()];
    let report = |gamma: &[f64], label: &str| {
        let (t1, ll) = evaluate(&train, gamma);
        let (h1, hl) = evaluate(&held, gamma);
        eprintln!(
            "go-patterns: {label}: top-1 train {:.2}% held out {:.2}%, mean log-likelihood train {:.4} held out {:.4}",
            100.0 * t1,
            100.0 * h1,
            ll,
            hl
        );
        (h1, hl, t1, ll)
    };
    let before = report(&gamma, "uniform");
    let mut wins = vec![0.0f64; kept.len()];
    for c in &train.comps {
        for &f in feats_of(&train, c.cands.start + c.winner) {
            wins[f as usize] += 1.0;
        }
    }
    let group_of: Vec<u8> = kept.iter().map(|f| f.group).collect();
    for it in 0..iterations {
        for g in 0..model.groups() as u8 {
            mm_step(&train, &mut gamma, &wins, &group_of, g);
        }
        report(&gamma, &format!("iteration {}", it + 1));
    }
    let after = report(&gamma, "fitted");
    if let Some(path) = out {
        let mut by_group = vec![0usize; model.groups()];
        for f in &kept {
            by_group[f.group as usize] += 1;
        }
        let mut s = String::new();
        writeln!(
            s,
            "{}",
            match model {
                Model::Priors =>
                    "//! Gammas of the learned move priors, fitted by `tetrarch-tune go-patterns`.",
                Model::Playout =>
                    "//! Gammas of the playout features (`playout_features`), fitted by `tetrarch-tune\n\
                     //! go-patterns -model playout`.",
            }
        )
        .unwrap();
        writeln!(s, "//!").unwrap();
        writeln!(
            s,
            "//! Fitted from {} games ({} positions; held out: {} games, {} positions) by MM.",
            games[0],
            train.comps.len(),
            games[1],
            held.comps.len()
        )
        .unwrap();
        writeln!(
            s,
            "//! Top-1 prediction held out {:.2}% (uniform {:.2}%), train {:.2}%; mean log-likelihood",
            100.0 * after.0,
            100.0 * before.0,
            100.0 * after.2
        )
        .unwrap();
        writeln!(
            s,
            "//! held out {:.4} (uniform {:.4}), train {:.4}.",
            after.1, before.1, after.3
        )
        .unwrap();
        let counts: Vec<String> = (0..model.groups())
            .map(|g| format!("{} {}", model.group_name(g), by_group[g]))
            .collect();
        writeln!(s, "//! Features by group: {}.", counts.join(", ")).unwrap();
        writeln!(s, "//! Command: {command}").unwrap();
        writeln!(s, "//!").unwrap();
        writeln!(
            s,
            "//! Generated: regenerate with the tuner rather than edit by hand."
        )
        .unwrap();
        // A fitted gamma may happen to be close to a named constant such as ln 2.
        writeln!(s, "#![allow(clippy::approx_constant)]").unwrap();
        writeln!(s).unwrap();
        if model == Model::Priors {
            writeln!(s, "/// The largest diamond radius among the features.").unwrap();
            writeln!(s, "pub(crate) const RADIUS: usize = {radius};").unwrap();
            writeln!(s).unwrap();
        }
        writeln!(
            s,
            "/// `(group, key, gamma)` of every fitted feature; see `{}` for the groups.",
            match model {
                Model::Priors => "move_features",
                Model::Playout => "playout_features",
            }
        )
        .unwrap();
        writeln!(s, "#[rustfmt::skip]").unwrap();
        writeln!(s, "pub(crate) const GAMMAS: &[(u8, u64, f32)] = &[").unwrap();
        for (f, g) in kept.iter().zip(&gamma) {
            writeln!(s, "    ({}, {:#x}, {:.4e}),", f.group, f.key, *g as f32).unwrap();
        }
        writeln!(s, "];").unwrap();
        std::fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("go-patterns: wrote {}", path.display());
    }
    println!(
        "top-1 held out {:.2}% (uniform {:.2}%), train {:.2}%",
        100.0 * after.0,
        100.0 * before.0,
        100.0 * after.2
    );
    Ok(())
}

/// A competition before feature indexing.
struct RawComp {
    cands: Vec<Features>,
    winner: usize,
}

fn collect_sgf(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_sgf(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "sgf") {
            out.push(p);
        }
    }
    Ok(())
}

/// Every position of one game as a competition (positions whose move is no candidate, such
/// as filling an own eye, are left out).
fn game_competitions(text: &str, radius: usize, out: &mut Vec<RawComp>) -> Result<(), String> {
    let rec = Record::from_sgf(text, None, None, 7.5)?;
    if rec.handicap() > 0 || rec.moves().is_empty() {
        return Err("handicap or empty game".into());
    }
    let mut replay = Record::new(rec.size(), rec.komi());
    let mut moves = Vec::new();
    for &(side, m) in rec.moves() {
        let b = replay.board();
        if b.to_move() == side {
            moves.clear();
            candidates(b, &mut moves);
            if let Some(winner) = moves.iter().position(|&c| c == m) {
                let ctx = Context::new(b);
                let cands = moves
                    .iter()
                    .map(|&c| {
                        let mut fs = Features::new();
                        move_features(b, &ctx, c, radius, &mut fs);
                        fs
                    })
                    .collect();
                out.push(RawComp { cands, winner });
            }
        }
        replay
            .play(side, m)
            .map_err(|e| format!("illegal move: {e}"))?;
        let _: Move = m;
    }
    Ok(())
}

/// Every position of one game whose move is a stone, as a competition of the playout model
/// among every legal point that is not an own eye.
fn game_playout_competitions(text: &str, out: &mut Vec<RawComp>) -> Result<(), String> {
    let rec = Record::from_sgf(text, None, None, 7.5)?;
    if rec.handicap() > 0 || rec.moves().is_empty() {
        return Err("handicap or empty game".into());
    }
    let mut replay = Record::new(rec.size(), rec.komi());
    for &(side, m) in rec.moves() {
        let b = replay.board();
        if let (true, Some(played)) = (b.to_move() == side, m.point()) {
            let mut cands = Vec::new();
            let mut winner = None;
            for i in 0..b.empty_count() {
                let p = b.empty_point(i);
                if b.is_eye(p, side) || b.check(Move::at(p)).is_err() {
                    continue;
                }
                if p == played {
                    winner = Some(cands.len());
                }
                cands.push(playout_features(b, p, side));
            }
            if let Some(winner) = winner {
                out.push(RawComp { cands, winner });
            }
        }
        replay
            .play(side, m)
            .map_err(|e| format!("illegal move: {e}"))?;
    }
    Ok(())
}

/// The playout model's features of empty `p` for `side` as fitter features (pattern keys
/// canonical).
fn playout_features(b: &Board, p: usize, side: tetrarch::game::Side) -> Features {
    let f = point_features(b, p, side);
    let mut fs = Features::new();
    let mut push = |group, key: u64| fs.push(Feature { group, key });
    push(pf::PATTERN, pf::canonical(f.key) as u64);
    if f.capture > 0 {
        push(pf::CAPTURE, f.capture as u64);
    }
    if f.extension {
        push(pf::EXTENSION, 1);
    }
    if f.self_atari > 0 {
        push(pf::SELF_ATARI, f.self_atari as u64);
    }
    if pf::contiguous(b, p) {
        push(pf::CONTIGUITY, 1);
    }
    fs
}

fn index_data(raw: &[RawComp], index: &HashMap<Feature, u32>) -> Data {
    let mut d = Data::default();
    for c in raw {
        let start = d.cands.len();
        for fs in &c.cands {
            let s = d.feats.len() as u32;
            d.feats.extend(fs.iter().filter_map(|f| index.get(f)));
            d.cands.push(s..d.feats.len() as u32);
        }
        d.comps.push(Competition {
            cands: start..d.cands.len(),
            winner: c.winner,
        });
    }
    d
}

#[inline]
fn feats_of(d: &Data, cand: usize) -> &[u32] {
    let r = &d.cands[cand];
    &d.feats[r.start as usize..r.end as usize]
}

/// One MM update of the features of group `g`.
fn mm_step(d: &Data, gamma: &mut [f64], wins: &[f64], group_of: &[u8], g: u8) {
    let mut denom = vec![0.0f64; gamma.len()];
    let mut strengths = Vec::new();
    for c in &d.comps {
        strengths.clear();
        let mut total = 0.0;
        for k in c.cands.clone() {
            let s: f64 = feats_of(d, k).iter().map(|&f| gamma[f as usize]).product();
            strengths.push(s);
            total += s;
        }
        for (i, k) in c.cands.clone().enumerate() {
            for &f in feats_of(d, k) {
                if group_of[f as usize] == g {
                    denom[f as usize] += strengths[i] / gamma[f as usize] / total;
                }
            }
        }
    }
    for f in 0..gamma.len() {
        if group_of[f] == g {
            gamma[f] = (wins[f] + 1.0) / (denom[f] + 2.0 / (1.0 + gamma[f]));
        }
    }
}

/// Top-1 rate (ties count as a share) and mean log-likelihood of the played moves.
fn evaluate(d: &Data, gamma: &[f64]) -> (f64, f64) {
    if d.comps.is_empty() {
        return (0.0, 0.0);
    }
    let mut top = 0.0;
    let mut ll = 0.0;
    for c in &d.comps {
        let s: Vec<f64> = c
            .cands
            .clone()
            .map(|k| feats_of(d, k).iter().map(|&f| gamma[f as usize]).product())
            .collect();
        let total: f64 = s.iter().sum();
        let w = s[c.winner];
        let best = s.iter().cloned().fold(0.0, f64::max);
        if w >= best {
            top += 1.0 / s.iter().filter(|&&x| x >= best).count() as f64;
        }
        ll += (w / total).ln();
    }
    let n = d.comps.len() as f64;
    (top / n, ll / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten two-move competitions between a feature-0 move and a feature-1 move (both in one
    /// group); feature 0 wins `wins_0` of them.
    fn duel(wins_0: usize) -> Data {
        let mut d = Data::default();
        for i in 0..10 {
            let start = d.cands.len();
            for f in [0u32, 1] {
                let s = d.feats.len() as u32;
                d.feats.push(f);
                d.cands.push(s..s + 1);
            }
            d.comps.push(Competition {
                cands: start..start + 2,
                winner: if i < wins_0 { 0 } else { 1 },
            });
        }
        d
    }

    #[test]
    fn mm_finds_the_strength_ratio_and_improves_prediction() {
        let d = duel(8);
        let mut gamma = vec![1.0; 2];
        let (top_before, ll_before) = evaluate(&d, &gamma);
        let mut wins = vec![0.0; 2];
        for c in &d.comps {
            wins[c.winner] += 1.0;
        }
        for _ in 0..200 {
            mm_step(&d, &mut gamma, &wins, &[1, 1], 1);
        }
        let (top, ll) = evaluate(&d, &gamma);
        // Maximum likelihood alone gives 8/2 = 4; the prior of one virtual win and loss
        // each against gamma 1 pulls both towards 1.
        let ratio = gamma[0] / gamma[1];
        assert!(ratio > 2.5 && ratio < 4.0, "ratio {ratio}");
        assert!((top_before - 0.5).abs() < 1e-9);
        assert!((top - 0.8).abs() < 1e-9);
        assert!(ll > ll_before);
        // A group that is not updated keeps its gammas.
        let mut g2 = vec![1.0; 2];
        mm_step(&d, &mut g2, &wins, &[1, 1], 2);
        assert_eq!(g2, vec![1.0, 1.0]);
    }

    #[test]
    fn a_game_becomes_one_playout_competition_per_stone_move() {
        let sgf = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gg];W[])";
        let mut out = Vec::new();
        game_playout_competitions(sgf, &mut out).unwrap();
        // The pass is no competition; the first has all 81 points, no pass.
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].cands.len(), 81);
        // The second move's candidates: contiguity for the 8 points around E5.
        let near = out[1]
            .cands
            .iter()
            .filter(|fs| fs.iter().any(|f| f.group == pf::CONTIGUITY))
            .count();
        assert_eq!(near, 8);
        assert!(out.iter().all(|c| c.winner < c.cands.len()));
    }

    #[test]
    fn a_game_becomes_one_competition_per_move() {
        let sgf = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gg];W[])";
        let mut out = Vec::new();
        game_competitions(sgf, 2, &mut out).unwrap();
        assert_eq!(out.len(), 4);
        // First position: every point and pass are candidates, the played one the winner.
        assert_eq!(out[0].cands.len(), 82);
        assert!(out.iter().all(|c| c.winner < c.cands.len()));
        assert!(game_competitions("(;GM[1]SZ[9];B[ee];W[ee])", 2, &mut out).is_err());
    }
}
