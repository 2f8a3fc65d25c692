//! Self-play data and the Texel tuner on real chess, draughts and xiangqi positions: datagen is
//! deterministic and resumable; the tuner, given results that a known table predicts, moves a
//! damaged table back towards it.

use std::path::PathBuf;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{Evaluator, Notation, Position, Side};
use tetrarch::games::chess::eval::ChessEval;
use tetrarch::games::chess::weights::{Weights, S};
use tetrarch::games::chess::Board;
use tetrarch::linear::LinearEval;
use tetrarch::selfplay::random_opening;
use tetrarch_tuning::commands::extract;
use tetrarch_tuning::datagen::{self, DatagenConfig, Sample};
use tetrarch_tuning::texel::{self, FitConfig};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn small(out: PathBuf, games: usize, threads: usize) -> DatagenConfig {
    let mut c = DatagenConfig::new("chess", out);
    c.games = games;
    c.threads = threads;
    c.nodes = 400;
    c.opening.nodes = 200;
    c.max_plies = 70;
    c.draw_after = 30;
    c.progress = false;
    c
}

#[test]
fn datagen_is_deterministic_and_resumable() {
    let dir = temp_dir("datagen");
    let whole = dir.join("whole.txt");
    let a = datagen::run::<Board, ChessEval>(&small(whole.clone(), 5, 2), ChessEval::default())
        .unwrap();
    assert_eq!((a.games, a.played), (5, 5));
    assert_eq!(a.wins + a.draws + a.losses, 5);
    let text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(text.lines().count(), a.positions);
    assert!(a.positions > 20, "{a:?}");
    for line in text.lines() {
        let s = datagen::parse_line(line).unwrap_or_else(|| panic!("bad line '{line}'"));
        let b = Board::from_text(&s.fen).unwrap();
        assert!(!b.in_check(), "{line}");
        assert!([0.0, 0.5, 1.0].contains(&s.result));
    }

    // Two games with one thread, a half-written game appended (as if killed while writing),
    // then resumed with two threads: the same bytes as the single run.
    let parts = dir.join("parts.txt");
    let b = datagen::run::<Board, ChessEval>(&small(parts.clone(), 2, 1), ChessEval::default())
        .unwrap();
    assert_eq!(b.games, 2);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&parts)
        .unwrap();
    std::io::Write::write_all(&mut f, b"8/8/8/8/8/8/8/k6K w - - 0 1 | 0 | 0.").unwrap();
    drop(f);
    let c = datagen::run::<Board, ChessEval>(&small(parts.clone(), 5, 2), ChessEval::default())
        .unwrap();
    assert_eq!((c.games, c.played), (5, 3));
    assert_eq!(std::fs::read(&parts).unwrap(), text.as_bytes());
    // Done already: nothing more is played.
    let d = datagen::run::<Board, ChessEval>(&small(parts.clone(), 5, 2), ChessEval::default())
        .unwrap();
    assert_eq!(d.played, 0);

    // Other settings refuse to resume; another seed gives other games.
    let mut other = small(parts.clone(), 6, 1);
    other.nodes = 500;
    assert!(datagen::run::<Board, ChessEval>(&other, ChessEval::default()).is_err());
    let seeded = dir.join("seed2.txt");
    let mut s2 = small(seeded.clone(), 2, 1);
    s2.seed = 2;
    datagen::run::<Board, ChessEval>(&s2, ChessEval::default()).unwrap();
    let t2 = std::fs::read_to_string(&seeded).unwrap();
    assert!(!text.starts_with(t2.lines().next().unwrap()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Positions from random play, with the probability of a White win that `truth` predicts.
fn labelled(count: usize, truth: &Weights, k: f64) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut e = ChessEval::new(Arc::new(truth.clone()));
    let mut out = Vec::new();
    while out.len() < count {
        let plies = rng.gen_range(6..90);
        let Some(pos) = random_opening(&Board::start(), plies, &mut rng) else {
            continue;
        };
        let v = e.evaluate(&pos) as f64;
        let white = if pos.side_to_move() == Side::First {
            v
        } else {
            -v
        };
        out.push(Sample {
            fen: pos.to_text(),
            score: white as i32,
            result: (1.0 / (1.0 + (-k * white).exp())) as f32,
        });
    }
    out
}

#[test]
fn texel_repairs_a_damaged_table() {
    let truth = Weights::default();
    let k = 0.006;
    // Enough positions that the passed pawns' weights are told apart from the terms that
    // share their positions (the king's distance from its pawns, a rook behind a passer):
    // 3000 sufficed before those terms, and left the passed pawns unrepaired after.
    let samples = labelled(8000, &truth, k);
    // Knights and rooks made nearly worthless; the passed pawns' bonus reversed.
    let mut damaged = truth.clone();
    damaged.material[1] = S(120, 120);
    damaged.material[3] = S(250, 250);
    for s in damaged.passed.iter_mut() {
        *s = S(-s.0, -s.1);
    }
    let eval = ChessEval::new(Arc::new(damaged.clone()));
    let held = |i: usize| i.is_multiple_of(10);
    let (train, hold, bad) = extract(&eval, &samples, &held, 2).unwrap();
    assert_eq!(bad, 0);
    assert_eq!(train.len() + hold.len(), samples.len());
    let start: Vec<(i32, i32)> = eval.weight_list().iter().map(|w| (w.mg, w.eg)).collect();
    let cfg = FitConfig {
        epochs: 300,
        lr: 4.0,
        k: Some(k),
        threads: 2,
        check_every: 50,
        ..FitConfig::default()
    };
    let r = texel::fit(&train, &hold, &start, &cfg, &mut |_| {}).unwrap();
    assert!(r.train_after < r.train_before / 3.0, "{r:?}");
    assert!(r.holdout_after < r.holdout_before / 3.0, "{r:?}");
    let fitted = eval.with_weights(&r.weights).unwrap();
    // What a knight, a rook and a passed pawn are worth to each table: the evaluation with the
    // piece less than the initial position (the piece-square tables share the material's job,
    // so only the sum is pinned down).
    let worth = |table: &ChessEval, fen: &str| {
        let mut e = table.clone();
        let base =
            Board::from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        e.evaluate(&base) - e.evaluate(&Board::from_text(fen).unwrap())
    };
    let tables = [
        ChessEval::new(Arc::new(truth.clone())),
        eval.clone(),
        fitted,
    ];
    for (what, fen) in [
        (
            "knight",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
        ),
        (
            "rook",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1",
        ),
    ] {
        let [t, d, f] = [0, 1, 2].map(|i| worth(&tables[i], fen));
        assert!(
            (f - t).abs() * 5 < (t - d).abs(),
            "{what}: true {t}, damaged {d}, fitted {f}"
        );
    }
    let passer = "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1";
    let no_passer = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let gain = |table: &ChessEval| {
        let mut e = table.clone();
        e.evaluate(&Board::from_text(passer).unwrap())
            - e.evaluate(&Board::from_text(no_passer).unwrap())
    };
    let [t, d, f] = [0, 1, 2].map(|i| gain(&tables[i]));
    assert!(
        (f - t).abs() * 3 < (t - d).abs(),
        "passed pawn: true {t}, damaged {d}, fitted {f}"
    );
}

/// Draughts goes through the same pipeline: its data holds only quiet positions (no capture
/// due or threatened), read back by the game's own notation.
#[test]
fn draughts_datagen_writes_quiet_positions() {
    use tetrarch::games::draughts;
    let dir = temp_dir("datagen-draughts");
    let out = dir.join("draughts.txt");
    let mut cfg = small(out.clone(), 3, 2);
    cfg.game = "draughts".into();
    cfg.params = draughts::SEARCH_PARAMS;
    cfg.opening.max_score = 100;
    let a =
        datagen::run::<draughts::Board, draughts::Eval>(&cfg, draughts::Eval::default()).unwrap();
    assert_eq!((a.games, a.played), (3, 3));
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), a.positions);
    assert!(a.positions > 10, "{a:?}");
    for line in text.lines() {
        let s = datagen::parse_line(line).unwrap_or_else(|| panic!("bad line '{line}'"));
        let b = draughts::Board::from_text(&s.fen).unwrap();
        assert!(!b.noisy_forced() && !b.quiet_threat(), "{line}");
        assert!([0.0, 0.5, 1.0].contains(&s.result));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tuner, fed draughts positions labelled by a known table, brings a damaged table's
/// evaluations back towards the known ones.
#[test]
fn texel_repairs_a_damaged_draughts_table() {
    use tetrarch::games::draughts::weights::{Weights as DWeights, S as DS};
    use tetrarch::games::draughts::{Board as DBoard, Eval as DEval};
    let truth = DEval::default();
    let k = 0.008;
    let mut rng = SmallRng::seed_from_u64(9);
    let mut samples = Vec::new();
    let mut te = truth.clone();
    while samples.len() < 3000 {
        let plies = rng.gen_range(4..70);
        let Some(pos) = random_opening(&DBoard::start(), plies, &mut rng) else {
            continue;
        };
        let v = te.evaluate(&pos) as f64;
        let white = if pos.side_to_move() == Side::First {
            v
        } else {
            -v
        };
        samples.push(Sample {
            fen: pos.to_text(),
            score: white as i32,
            result: (1.0 / (1.0 + (-k * white).exp())) as f32,
        });
    }
    let damaged = DWeights {
        centre: DS(-40, -40),
        mobility: DS(-15, -15),
        supported: DS(25, 25),
        ..DWeights::handset()
    };
    let eval = DEval::new(damaged);
    let held = |i: usize| i.is_multiple_of(10);
    let (train, hold, bad) = extract(&eval, &samples, &held, 2).unwrap();
    assert_eq!((bad, train.len() + hold.len()), (0, samples.len()));
    let start: Vec<(i32, i32)> = eval.weight_list().iter().map(|w| (w.mg, w.eg)).collect();
    let cfg = FitConfig {
        epochs: 300,
        lr: 2.0,
        k: Some(k),
        threads: 2,
        check_every: 50,
        ..FitConfig::default()
    };
    let r = texel::fit(&train, &hold, &start, &cfg, &mut |_| {}).unwrap();
    assert!(r.holdout_after < r.holdout_before / 3.0, "{r:?}");
    let fitted = eval.with_weights(&r.weights).unwrap();
    // Mean distance from the true evaluation over the held-out positions.
    let distance = |table: &DEval| {
        let (mut t, mut e) = (truth.clone(), table.clone());
        let mut sum = 0i64;
        let mut n = 0i64;
        for (i, s) in samples.iter().enumerate() {
            if held(i) {
                let b = DBoard::from_text(&s.fen).unwrap();
                sum += (t.evaluate(&b) - e.evaluate(&b)).abs() as i64;
                n += 1;
            }
        }
        sum as f64 / n as f64
    };
    let (d, f) = (distance(&eval), distance(&fitted));
    assert!(f * 3.0 < d, "damaged {d}, fitted {f}");
}

/// Xiangqi goes through the same pipeline: games end by its rules (through `outcome`), its
/// quiet positions are written as FENs that read back to the same position, and the tuner
/// extracts a linear form from every line and fits a table of the evaluator's size.
#[test]
fn xiangqi_datagen_feeds_the_tuner() {
    use tetrarch::games::xiangqi::{Board as XBoard, XiangqiEval};
    let dir = temp_dir("datagen-xiangqi");
    let out = dir.join("xiangqi.txt");
    let mut cfg = small(out.clone(), 3, 2);
    cfg.game = "xiangqi".into();
    let a = datagen::run::<XBoard, XiangqiEval>(&cfg, XiangqiEval::default()).unwrap();
    assert_eq!((a.games, a.played), (3, 3));
    assert_eq!(a.wins + a.draws + a.losses, 3);
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), a.positions);
    assert!(a.positions > 20, "{a:?}");
    let mut samples = Vec::new();
    for line in text.lines() {
        let s = datagen::parse_line(line).unwrap_or_else(|| panic!("bad line '{line}'"));
        let b = XBoard::from_text(&s.fen).unwrap();
        assert_eq!(b.to_text(), s.fen);
        assert!(!b.in_check() && b.outcome().is_none(), "{line}");
        assert!([0.0, 0.5, 1.0].contains(&s.result));
        samples.push(s);
    }
    let eval = XiangqiEval::default();
    let held = |i: usize| i.is_multiple_of(10);
    let (train, hold, bad) = extract(&eval, &samples, &held, 2).unwrap();
    assert_eq!((bad, train.len() + hold.len()), (0, samples.len()));
    let start: Vec<(i32, i32)> = eval.weight_list().iter().map(|w| (w.mg, w.eg)).collect();
    let cfg = FitConfig {
        epochs: 20,
        threads: 2,
        check_every: 5,
        ..FitConfig::default()
    };
    let r = texel::fit(&train, &hold, &start, &cfg, &mut |_| {}).unwrap();
    assert!(r.train_after <= r.train_before, "{r:?}");
    assert_eq!(r.weights.len(), start.len());
    eval.with_weights(&r.weights).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn binary_datagen_with_a_soft_limit_is_deterministic_resumable_and_matches_text() {
    use tetrarch_tuning::packed::{records, RECORD_BYTES};
    let dir = temp_dir("datagen-bin");
    let cfg = |out: PathBuf, games: usize, threads: usize, binary: bool| {
        let mut c = small(out, games, threads);
        c.soft_nodes = Some(c.nodes / 3);
        c.binary = binary;
        c
    };
    let whole = dir.join("whole.bin");
    let a = datagen::run::<Board, ChessEval>(&cfg(whole.clone(), 4, 2, true), ChessEval::default())
        .unwrap();
    let bytes = std::fs::read(&whole).unwrap();
    assert_eq!(bytes.len(), a.positions * RECORD_BYTES);
    assert!(a.positions > 20, "{a:?}");
    // The same games in text: the records hold exactly those positions, scores and results.
    let text_path = dir.join("whole.txt");
    datagen::run::<Board, ChessEval>(&cfg(text_path.clone(), 4, 1, false), ChessEval::default())
        .unwrap();
    let text = std::fs::read_to_string(&text_path).unwrap();
    let rs: Vec<_> = records(&bytes).collect();
    assert_eq!(rs.len(), text.lines().count());
    for (r, line) in rs.iter().zip(text.lines()) {
        let s = datagen::parse_line(line).unwrap();
        assert_eq!(r.fen(), s.fen);
        assert_eq!(r.score(), s.score);
        assert_eq!(r.result() as f32 / 2.0, s.result);
    }
    // Resumed in two runs (with a torn record appended): the same bytes.
    let parts = dir.join("parts.bin");
    datagen::run::<Board, ChessEval>(&cfg(parts.clone(), 2, 1, true), ChessEval::default())
        .unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&parts)
        .unwrap();
    std::io::Write::write_all(&mut f, &[7u8; 11]).unwrap();
    drop(f);
    datagen::run::<Board, ChessEval>(&cfg(parts.clone(), 4, 2, true), ChessEval::default())
        .unwrap();
    assert_eq!(std::fs::read(&parts).unwrap(), bytes);
    // A text run's progress file does not resume as binary.
    assert!(datagen::run::<Board, ChessEval>(
        &cfg(text_path.clone(), 5, 1, true),
        ChessEval::default()
    )
    .is_err());
    // Games played with a network (`-eval-file`) are marked by its digest: they neither resume
    // the hand-written evaluation's file nor match its games.
    use tetrarch::games::chess::nnue::{embedded_network, ChessEvaluator};
    let net = embedded_network().unwrap();
    let with_net = |out: PathBuf, games: usize| {
        let mut c = cfg(out, games, 1, true);
        c.eval_digest = Some("embedded".into());
        c
    };
    assert!(datagen::run::<Board, ChessEvaluator>(
        &with_net(parts.clone(), 5),
        ChessEvaluator::network(net.clone())
    )
    .is_err());
    let netted = dir.join("net.bin");
    let n = datagen::run::<Board, ChessEvaluator>(
        &with_net(netted.clone(), 4),
        ChessEvaluator::network(net),
    )
    .unwrap();
    assert_eq!(n.games, 4);
    let net_bytes = std::fs::read(&netted).unwrap();
    assert_eq!(net_bytes.len(), n.positions * RECORD_BYTES);
    assert_ne!(net_bytes, bytes);
    let _ = std::fs::remove_dir_all(&dir);
}
