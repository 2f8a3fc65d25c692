//! The `datagen` and `texel` subcommands of `tetrarch-tune`: their arguments and the choice of
//! position and evaluator types per game.
//!
//! Scheme: arguments are cutechess-style single-dash words, each followed by one value
//! (`-games 1000`) or none (flags); [`Args`] checks that every word was used, so a misspelt
//! option is an error rather than silently ignored. The game decides only which `Position`
//! and evaluator types the generic code in [`crate::datagen`] and [`crate::texel`] runs with.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

use tetrarch::game::{Notation, Side};
use tetrarch::games::{Game, GameKind, WithGame};
use tetrarch::linear::LinearEval;

use crate::datagen::{self, DatagenConfig};
use crate::packed::{self, Pack};
use crate::texel::{self, Dataset, FitConfig};

/// Parsed `-key value` arguments.
pub struct Args {
    values: HashMap<String, String>,
    flags: Vec<String>,
    used: std::cell::RefCell<Vec<String>>,
}

impl Args {
    /// Splits `args` into `-key value` pairs; words in `flags` take no value.
    pub fn parse(args: &[String], flags: &[&str]) -> Result<Args, String> {
        let mut values = HashMap::new();
        let mut found = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let Some(key) = args[i].strip_prefix('-') else {
                return Err(format!("expected an option, got '{}'", args[i]));
            };
            let key = key.trim_start_matches('-').to_string();
            if flags.contains(&key.as_str()) {
                found.push(key);
                i += 1;
                continue;
            }
            let Some(value) = args.get(i + 1) else {
                return Err(format!("-{key} needs a value"));
            };
            if values.insert(key.clone(), value.clone()).is_some() {
                return Err(format!("-{key} given twice"));
            }
            i += 2;
        }
        Ok(Args {
            values,
            flags: found,
            used: Default::default(),
        })
    }

    pub fn flag(&self, key: &str) -> bool {
        self.used.borrow_mut().push(key.into());
        self.flags.iter().any(|f| f == key)
    }

    pub fn str(&self, key: &str) -> Option<String> {
        self.used.borrow_mut().push(key.into());
        self.values.get(key).cloned()
    }

    pub fn get<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.str(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("-{key}: cannot read '{v}'")),
        }
    }

    /// A `MIN-MAX` (or single `N`) range of whole numbers, MIN at most MAX.
    pub fn range(&self, key: &str, default: (usize, usize)) -> Result<(usize, usize), String> {
        let Some(r) = self.str(key) else {
            return Ok(default);
        };
        let (lo, hi) = r.split_once('-').unwrap_or((&r, &r));
        match (lo.parse(), hi.parse()) {
            (Ok(lo), Ok(hi)) if lo <= hi => Ok((lo, hi)),
            _ => Err(format!(
                "-{key} MIN-MAX (whole numbers, MIN <= MAX), not '{r}'"
            )),
        }
    }

    /// An error naming any option that no one asked for.
    pub fn finish(&self) -> Result<(), String> {
        let used = self.used.borrow();
        for k in self.values.keys().chain(self.flags.iter()) {
            if !used.contains(k) {
                return Err(format!("unknown option -{k}"));
            }
        }
        Ok(())
    }
}

pub const DATAGEN_HELP: &str = "\
tetrarch-tune datagen: self-play games at a fixed node count, written as positions with the
search score and the game result, one `FEN | score | result` line per quiet position (score
and result from the first player's view). Resumable: run the same command again to continue.

  -game chess|xiangqi|draughts   the game
  -out FILE                the data file (FILE.progress records what it holds)
  -games N                 games in the file when done (default 100)
  -nodes N                 nodes per move (default 5000)
  -threads N               games in parallel (default 1)
  -seed N                  seed of the openings (default 1)
  -hash MB                 table per engine (default 16)
  -book FILE               start positions, one FEN per line (default: the initial position)
  -random-plies MIN-MAX    random plies after the start (default 8-9)
  -opening-nodes N         nodes of the search that vets an opening (default 1000)
  -opening-score S         largest score an opening may have (default 300)
  -win-score S -win-plies N      adjudicate a win (default 1000, 6)
  -draw-score S -draw-plies N -draw-after PLY   adjudicate a draw (default 10, 12, 80)
  -max-plies N             draw after this many plies (default 400)
  -soft-nodes N            start no new iteration past N nodes (-nodes stays the hard limit)
  -format text|bin         text lines, or 32-byte records for the network trainer (chess)
  -eval-file FILE          play with this chess network instead of the hand-written evaluation
  -bitbases DIR            draughts: search with the endgame tables in DIR, and end each game
                           at the first position they hold, with their result
  -quiet                   no progress line
";

pub fn datagen(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{DATAGEN_HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &["quiet"])?;
    let game = a.str("game").unwrap_or_else(|| "chess".into());
    let out = a.str("out").ok_or("-out FILE is required")?;
    let mut cfg = DatagenConfig::new(&game, out);
    cfg.games = a.get("games", cfg.games)?;
    cfg.nodes = a.get("nodes", cfg.nodes)?;
    cfg.threads = a.get("threads", cfg.threads)?;
    cfg.seed = a.get("seed", cfg.seed)?;
    cfg.hash_mb = a.get("hash", cfg.hash_mb)?;
    if let Some(book) = a.str("book") {
        let text =
            std::fs::read_to_string(&book).map_err(|e| format!("cannot read {book}: {e}"))?;
        cfg.book = text
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(epd_to_fen)
            .collect();
    }
    (cfg.opening.min_plies, cfg.opening.max_plies) = a.range(
        "random-plies",
        (cfg.opening.min_plies, cfg.opening.max_plies),
    )?;
    cfg.opening.nodes = a.get("opening-nodes", cfg.opening.nodes)?;
    cfg.opening.max_score = a.get("opening-score", cfg.opening.max_score)?;
    cfg.win_score = a.get("win-score", cfg.win_score)?;
    cfg.win_plies = a.get("win-plies", cfg.win_plies)?;
    cfg.draw_score = a.get("draw-score", cfg.draw_score)?;
    cfg.draw_plies = a.get("draw-plies", cfg.draw_plies)?;
    cfg.draw_after = a.get("draw-after", cfg.draw_after)?;
    cfg.max_plies = a.get("max-plies", cfg.max_plies)?;
    cfg.progress = !a.flag("quiet");
    cfg.soft_nodes = a
        .str("soft-nodes")
        .map(|v| v.parse())
        .transpose()
        .map_err(|_| "-soft-nodes N")?;
    cfg.binary = match a.str("format").as_deref() {
        None | Some("text") => false,
        Some("bin") => true,
        Some(other) => return Err(format!("-format text|bin, not '{other}'")),
    };
    let net = match a.str("eval-file") {
        None => None,
        Some(_) if game != "chess" => return Err("-eval-file is for chess".into()),
        Some(path) => {
            let (net, bytes) = crate::nnue::read_network_file(&path)?;
            cfg.eval_digest = Some(crate::datagen::digest(&bytes));
            Some(std::sync::Arc::new(net))
        }
    };
    let tables = match a.str("bitbases") {
        None => None,
        Some(dir) => {
            let tables = crate::bitbase::load_option(&game, &dir)?;
            cfg.tables = Some(format!("{}-piece", tables.max_pieces()));
            Some(tables)
        }
    };
    a.finish()?;
    if let Some(tables) = tables {
        use tetrarch::games::draughts::{Board, Eval};
        cfg.params = <tetrarch::games::Draughts as Game>::search_params();
        let eval = Eval::default().with_bitbases(Some(tables));
        let summary = datagen::run::<Board, Eval>(&cfg, eval)?;
        return print_summary(&cfg, &summary);
    }
    if let Some(net) = net {
        use tetrarch::games::chess::nnue::ChessEvaluator;
        cfg.params = tetrarch::games::Chess::search_params();
        let summary = datagen::run::<tetrarch::games::chess::Board, ChessEvaluator>(
            &cfg,
            ChessEvaluator::network(net),
        )?;
        return print_summary(&cfg, &summary);
    }
    /// Self-play with the game's own search parameters and evaluation.
    struct Datagen(DatagenConfig);
    impl WithGame for Datagen {
        type Output = Result<datagen::DatagenSummary, String>;
        fn run<G: Game>(mut self) -> Self::Output {
            self.0.params = G::search_params();
            datagen::run::<G::Position, G::Eval>(&self.0, G::Eval::default())
        }
    }
    let summary = GameKind::parse(&game)
        .ok()
        .and_then(|kind| kind.with_game(Datagen(cfg.clone())))
        .ok_or_else(|| format!("datagen: no evaluation to play '{game}' with yet"))??;
    print_summary(&cfg, &summary)
}

fn print_summary(cfg: &DatagenConfig, summary: &datagen::DatagenSummary) -> Result<(), String> {
    println!(
        "datagen: {} games in {} ({} played now: {} positions, +{} ={} -{} for the first player)",
        summary.games,
        cfg.out.display(),
        summary.played,
        summary.positions,
        summary.wins,
        summary.draws,
        summary.losses
    );
    Ok(())
}

/// The first four fields of an EPD line with `hmvc`/`fmvn` operations, or a FEN as it is.
fn epd_to_fen(line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() > 4 && line.contains(';') {
        let op = |name: &str| {
            line.split(';')
                .filter_map(|p| p.trim().strip_prefix(name))
                .map(|v| v.trim().to_string())
                .next()
        };
        let hm = op("hmvc").unwrap_or_else(|| "0".into());
        let fm = op("fmvn").unwrap_or_else(|| "1".into());
        format!("{} {hm} {fm}", fields[..4].join(" "))
    } else {
        line.to_string()
    }
}

pub const TEXEL_HELP: &str = "\
tetrarch-tune texel: fits the evaluation's weights to the results of `datagen` files by
minimising the squared difference between sigmoid(K * eval) and the result, then writes the
table back as the game's Rust source.

  -game chess|xiangqi|draughts   the game
  -data FILE[,FILE...]     datagen files, text or binary records (-format bin, convert)
  -out FILE                write the fitted table here (engine/src/games/<game>/tuned.rs)
  -epochs N                full passes of Adam (default 1000)
  -lr X                    Adam step size in weight units (default 1.0)
  -lr-drop N               halve the step every N epochs (default 0: never)
  -l2 X                    pull towards the starting weights (default 0)
  -lambda X                share of the result in the target; the rest is the search score's
                           prediction (default 1.0)
  -k X                     fixed K instead of fitting it
  -holdout X               share of positions held out (default 0.1; blocks of 256 lines)
  -max-positions N         use at most N positions (the first ones)
  -threads N               threads for extraction and gradients (default 1)
  -check N                 held-out error every N epochs (default 25)
  -seed N                  seed of the held-out split (default 1)
";

pub fn texel_cmd(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{TEXEL_HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &[])?;
    let game = a.str("game").unwrap_or_else(|| "chess".into());
    let files: Vec<PathBuf> = a
        .str("data")
        .ok_or("-data FILE[,FILE...] is required")?
        .split(',')
        .map(PathBuf::from)
        .collect();
    let out = a.str("out").map(PathBuf::from);
    let cfg = FitConfig {
        epochs: a.get("epochs", 1000)?,
        lr: a.get("lr", 1.0)?,
        lr_drop: a.get("lr-drop", 0)?,
        l2: a.get("l2", 0.0)?,
        lambda: a.get("lambda", 1.0)?,
        k: match a.str("k") {
            Some(k) => Some(k.parse().map_err(|_| format!("-k: cannot read '{k}'"))?),
            None => None,
        },
        threads: a.get("threads", 1)?,
        check_every: a.get("check", 25)?,
    };
    let split = Split {
        holdout: a.get("holdout", 0.1)?,
        seed: a.get("seed", 1)?,
        max_positions: a.get("max-positions", usize::MAX)?,
    };
    a.finish()?;
    let command = format!("tetrarch-tune texel {}", args.join(" "));
    /// The fit of the game's evaluation.
    struct Texel<'a> {
        files: &'a [PathBuf],
        split: &'a Split,
        cfg: &'a FitConfig,
        out: Option<PathBuf>,
        command: &'a str,
    }
    impl WithGame for Texel<'_> {
        type Output = Result<(), String>;
        fn run<G: Game>(self) -> Self::Output {
            let Texel {
                files,
                split,
                cfg,
                out,
                command,
            } = self;
            run_texel::<G::Position, G::Eval>(G::Eval::default(), files, split, cfg, out, command)
        }
    }
    let texel = Texel {
        files: &files,
        split: &split,
        cfg: &cfg,
        out,
        command: &command,
    };
    GameKind::parse(&game)
        .ok()
        .and_then(|kind| kind.with_game(texel))
        .unwrap_or_else(|| Err(format!("texel: no tunable evaluation for '{game}' yet")))
}

/// How lines are chosen and split.
struct Split {
    holdout: f64,
    seed: u64,
    max_positions: usize,
}

/// Reads the samples of `files` (at most `max`), each file either `datagen` text or binary
/// records ([`packed::is_records`] tells them apart; records hold chess only, so `records_ok`
/// says whether the game can read them). A record becomes the sample its text line would be.
fn read_samples(
    files: &[PathBuf],
    max: usize,
    records_ok: bool,
) -> Result<Vec<datagen::Sample>, String> {
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        if packed::is_records(&bytes) {
            if !records_ok {
                return Err(format!(
                    "{} holds binary records, which are chess only",
                    f.display()
                ));
            }
            for r in packed::records(&bytes) {
                if out.len() >= max {
                    return Ok(out);
                }
                out.push(datagen::Sample {
                    fen: r.fen(),
                    score: r.score(),
                    result: r.result() as f32 / 2.0,
                });
            }
            continue;
        }
        for line in bytes.lines() {
            let line = line.map_err(|e| format!("reading {}: {e}", f.display()))?;
            if let Some(s) = datagen::parse_line(&line) {
                if out.len() >= max {
                    return Ok(out);
                }
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// Whether line `i` belongs to the held-out set: by blocks of 256 consecutive lines, so that a
/// game's positions (written together) mostly stay on one side.
fn held_out(i: usize, split: &Split) -> bool {
    let x = tetrarch::hash::finalize(
        (i as u64 / 256) ^ split.seed.wrapping_mul(tetrarch::hash::GOLDEN),
    );
    ((x % 1_000_000) as f64) < split.holdout * 1_000_000.0
}

/// Extracts the linear forms of `samples` over `threads` threads: (training, held-out) sets,
/// and the number of lines whose position could not be read.
pub fn extract<P: Notation, E: LinearEval<P>>(
    eval: &E,
    samples: &[datagen::Sample],
    is_held_out: &(dyn Fn(usize) -> bool + Sync),
    threads: usize,
) -> Result<(Dataset, Dataset, usize), String> {
    let n = eval.weight_list().len();
    let threads = threads.clamp(1, samples.len().max(1));
    let chunk = samples.len().div_ceil(threads).max(1);
    let parts: Vec<Result<(Dataset, Dataset, usize), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                let mut e = eval.clone();
                s.spawn(move || {
                    let (mut train, mut hold, mut bad) = (Dataset::new(n), Dataset::new(n), 0);
                    for (j, smp) in part.iter().enumerate() {
                        let Ok(pos) = P::from_text(&smp.fen) else {
                            bad += 1;
                            continue;
                        };
                        let form = e.linear_form(&pos);
                        let set = if is_held_out(c * chunk + j) {
                            &mut hold
                        } else {
                            &mut train
                        };
                        set.push(&form, smp.result, smp.score as f32)?;
                    }
                    Ok((train, hold, bad))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("extraction thread"))
            .collect()
    });
    let (mut train, mut hold, mut bad) = (Dataset::new(n), Dataset::new(n), 0);
    for p in parts {
        let (t, h, b) = p?;
        train.append(&t);
        hold.append(&h);
        bad += b;
    }
    Ok((train, hold, bad))
}

fn run_texel<P: Notation, E: LinearEval<P>>(
    eval: E,
    files: &[PathBuf],
    split: &Split,
    cfg: &FitConfig,
    out: Option<PathBuf>,
    command: &str,
) -> Result<(), String> {
    let t0 = Instant::now();
    let records_ok = P::start().pack(0, 1).is_some();
    let samples = read_samples(files, split.max_positions, records_ok)?;
    eprintln!(
        "texel: read {} positions in {:.1}s",
        samples.len(),
        t0.elapsed().as_secs_f64()
    );
    let t1 = Instant::now();
    let held = |i: usize| held_out(i, split);
    let (train, hold, bad) = extract(&eval, &samples, &held, cfg.threads)?;
    let secs = t1.elapsed().as_secs_f64();
    eprintln!(
        "texel: extracted {} + {} linear forms ({} unreadable) in {secs:.1}s ({:.0} positions/s), {:.1} terms per position",
        train.len(),
        hold.len(),
        bad,
        samples.len() as f64 / secs.max(1e-9),
        train.term_count() as f64 / train.len().max(1) as f64
    );
    let infos = eval.weight_list();
    let start: Vec<(i32, i32)> = infos.iter().map(|w| (w.mg, w.eg)).collect();
    let result = texel::fit(&train, &hold, &start, cfg, &mut |line| {
        eprintln!("texel: {line}")
    })?;
    println!(
        "texel: K {:.6}; train error {:.6} -> {:.6}; held-out error {:.6} -> {:.6} (epoch {} of {}); {} of {} weight pairs active",
        result.k,
        result.train_before,
        result.train_after,
        result.holdout_before,
        result.holdout_after,
        result.best_epoch,
        result.epochs,
        result.active,
        infos.len()
    );
    println!(
        "texel: {:.3}s per epoch, {:.0} positions per second per epoch ({} threads)",
        result.epoch_secs, result.positions_per_sec, cfg.threads
    );

    // Check the table as the engine evaluates it, on the held-out positions.
    let tuned = eval.with_weights(&result.weights)?;
    let (mut e_old, mut e_new) = (eval.clone(), tuned.clone());
    let (mut err_old, mut err_new, mut count) = (0f64, 0f64, 0usize);
    for (i, smp) in samples.iter().enumerate() {
        if !held(i) || count >= 50_000 {
            continue;
        }
        let Ok(pos) = P::from_text(&smp.fen) else {
            continue;
        };
        let sign = if pos.side_to_move() == Side::First {
            1.0
        } else {
            -1.0
        };
        let p = |v: i32| 1.0 / (1.0 + (-result.k * sign * v as f64).exp());
        err_old += (p(e_old.evaluate(&pos)) - smp.result as f64).powi(2);
        err_new += (p(e_new.evaluate(&pos)) - smp.result as f64).powi(2);
        count += 1;
    }
    if count > 0 {
        println!(
            "texel: engine check on {count} held-out positions: error {:.6} -> {:.6}",
            err_old / count as f64,
            err_new / count as f64
        );
    }

    // The largest changes, for the log.
    let mut changes: Vec<(i32, String)> = infos
        .iter()
        .zip(&result.weights)
        .map(|(w, &(mg, eg))| {
            (
                (mg - w.mg).abs().max((eg - w.eg).abs()),
                format!(
                    "{}[{}]: S({}, {}) -> S({mg}, {eg})",
                    w.name, w.index, w.mg, w.eg
                ),
            )
        })
        .collect();
    changes.sort_by_key(|c| std::cmp::Reverse(c.0));
    for (_, text) in changes.iter().take(12) {
        eprintln!("texel: {text}");
    }

    if let Some(path) = out {
        let doc = format!(
            "Fitted from {} positions of {} (held out: {}), K = {:.6}:\n\
             mean squared error train {:.6} -> {:.6}, held out {:.6} -> {:.6}.\n\
             Command: {command}",
            train.len(),
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            hold.len(),
            result.k,
            result.train_before,
            result.train_after,
            result.holdout_before,
            result.holdout_after,
        );
        std::fs::write(&path, tuned.weights_source(&doc))
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
        println!("texel: wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_are_checked() {
        let a = Args::parse(&args("-games 10 -quiet -out x"), &["quiet"]).unwrap();
        assert_eq!(a.get("games", 0usize).unwrap(), 10);
        assert!(a.flag("quiet"));
        assert!(a.finish().is_err(), "-out was never read");
        assert_eq!(a.str("out").as_deref(), Some("x"));
        assert!(a.finish().is_ok());
        assert!(Args::parse(&args("-games"), &[]).is_err());
        assert!(Args::parse(&args("games 3"), &[]).is_err());
        let b = Args::parse(&args("-games x"), &[]).unwrap();
        assert!(b.get("games", 0usize).is_err());
        let r = Args::parse(&args("-p 6-8 -q 5 -r 9-2 -s x-3"), &[]).unwrap();
        assert_eq!(r.range("p", (0, 0)), Ok((6, 8)));
        assert_eq!(r.range("q", (0, 0)), Ok((5, 5)));
        assert!(r.range("r", (0, 0)).is_err());
        assert!(r.range("s", (0, 0)).is_err());
        assert_eq!(r.range("absent", (1, 2)), Ok((1, 2)));
    }

    #[test]
    fn epd_lines_become_fens() {
        assert_eq!(
            epd_to_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(epd_to_fen(fen), fen);
    }

    #[test]
    fn text_and_record_files_read_as_the_same_samples() {
        let text = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 35 | 1.0
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | -20 | 0.5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.0
";
        let mut bin = Vec::new();
        crate::convert::convert(text.as_bytes(), &mut bin).unwrap();
        let dir = std::env::temp_dir().join(format!("texel-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (t, b) = (dir.join("d.txt"), dir.join("d.bin"));
        std::fs::write(&t, text).unwrap();
        std::fs::write(&b, &bin).unwrap();
        let key = |s: &datagen::Sample| (s.fen.clone(), s.score, (s.result * 2.0) as i32);
        let from_text = read_samples(std::slice::from_ref(&t), usize::MAX, true).unwrap();
        let mixed = read_samples(&[b.clone(), t.clone()], usize::MAX, true).unwrap();
        assert_eq!(from_text.len(), 3);
        assert_eq!(mixed.len(), 6);
        for (x, y) in mixed[..3].iter().zip(&from_text) {
            assert_eq!(key(x), key(y));
        }
        assert_eq!(
            read_samples(&[b.clone(), t.clone()], 4, true)
                .unwrap()
                .len(),
            4
        );
        // A game without a packed form refuses records rather than misreading them.
        assert!(read_samples(&[b], usize::MAX, false).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_split_holds_out_about_the_share_asked() {
        let split = Split {
            holdout: 0.1,
            seed: 1,
            max_positions: usize::MAX,
        };
        let held = (0..256 * 2000).filter(|&i| held_out(i, &split)).count();
        let share = held as f64 / (256.0 * 2000.0);
        assert!((0.08..0.12).contains(&share), "{share}");
        // Whole blocks.
        assert_eq!(held % 256, 0);
    }
}
