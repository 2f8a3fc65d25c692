//! `tetrarch-tune datagen`: self-play games at a fixed node count, written as positions with
//! the search score and the game result, for the Texel tuner.
//!
//! Scheme: game `g` of a run is a pure function of the run's seed and `g`: its generator is
//! seeded from both, it starts from a book position (or the initial one) plus a few random
//! plies vetted by a short search ([`selfplay::balanced_opening`]), and then the engine plays
//! both sides with one thread, a node limit and a table cleared before the game, which makes
//! every search deterministic. Worker threads (each with its own engine) take game numbers
//! from a shared counter; the main thread writes finished games strictly in game order, so the
//! file is the same whatever the thread count. After each game written it records in
//! `<out>.progress` how many games and bytes the file holds; a new run with the same settings
//! cuts the file back to that length and carries on from the next game (resuming), and the
//! result is byte for byte what one uninterrupted run writes.
//!
//! Each line is `FEN | score | result`: the score in the evaluation's units and the result
//! (1.0, 0.5, 0.0) both from the first player's view (White, Red). Only quiet positions are
//! written (side to move not in check, no capture due or threatened where the game says so
//! (draughts), the move played not noisy, the score not a mate), as the static evaluation is
//! fitted to them. Games are adjudicated to save time: a win when the
//! score has stayed beyond `win_score` for `win_plies` plies, a draw when it has stayed within
//! `draw_score` for `draw_plies` plies after ply `draw_after`, and a draw at `max_plies`.
//! An evaluator with endgame tables (draughts with `-bitbases`) also ends a game at the first
//! position the tables hold, with the tables' result: exact, where self-play at a few thousand
//! nodes often misplays a won ending, and the rest of the game would teach nothing new. The
//! position itself is not written (the search scores it exactly, not by evaluation).

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{Evaluator, Side, Verdict};
use tetrarch::limits::Limits;
use tetrarch::score::is_decisive;
use tetrarch::search::{Engine, Options, Params};
use tetrarch::selfplay::{self, OpeningRule};

use crate::packed::{Pack, Record};

/// Everything a data-generation run needs.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The game's name, recorded in the progress file so a resume cannot mix games.
    pub game: String,
    pub games: usize,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    pub out: PathBuf,
    pub hash_mb: usize,
    pub opening: OpeningRule,
    /// Start positions (FEN lines); empty: the game's initial position.
    pub book: Vec<String>,
    pub win_score: i32,
    pub win_plies: usize,
    pub draw_score: i32,
    pub draw_plies: usize,
    pub draw_after: usize,
    pub max_plies: usize,
    /// The search parameters the game plays with (draughts turns some pruning off).
    pub params: Params,
    /// Print a progress line on stderr.
    pub progress: bool,
    /// A soft node limit per move: no new iteration once this many nodes are spent (`nodes`
    /// stays the hard limit). `None`: the fixed `nodes` alone, as before.
    pub soft_nodes: Option<u64>,
    /// Write 32-byte records ([`crate::packed`]) instead of text lines.
    pub binary: bool,
    /// A digest of the network file the games are played with (`None`: the game's own
    /// evaluation), so that a resume cannot mix evaluations.
    pub eval_digest: Option<String>,
    /// The endgame tables the games are adjudicated and searched with, as a short name (how
    /// many pieces they cover), so that a resume cannot mix runs with and without them.
    pub tables: Option<String>,
}

impl DatagenConfig {
    /// Defaults for chess-like scales (a pawn about 100).
    pub fn new(game: &str, out: impl Into<PathBuf>) -> DatagenConfig {
        DatagenConfig {
            game: game.into(),
            games: 100,
            nodes: 5000,
            threads: 1,
            seed: 1,
            out: out.into(),
            hash_mb: 16,
            opening: OpeningRule {
                min_plies: 8,
                max_plies: 9,
                nodes: 1000,
                max_score: 300,
                attempts: 20,
            },
            book: Vec::new(),
            win_score: 1000,
            win_plies: 6,
            draw_score: 10,
            draw_plies: 12,
            draw_after: 80,
            max_plies: 400,
            params: Params::DEFAULT,
            progress: true,
            soft_nodes: None,
            binary: false,
            eval_digest: None,
            tables: None,
        }
    }

    /// The settings that decide the games' content: a resume must match them.
    fn signature(&self) -> String {
        let o = &self.opening;
        // The newer settings are written only when used, so that files of earlier runs
        // resume under the same signature.
        let mut extra = String::new();
        if let Some(soft) = self.soft_nodes {
            extra.push_str(&format!(" soft={soft}"));
        }
        if self.binary {
            extra.push_str(" format=bin");
        }
        if let Some(d) = &self.eval_digest {
            extra.push_str(&format!(" net={d}"));
        }
        if let Some(t) = &self.tables {
            extra.push_str(&format!(" tables={t}"));
        }
        format!(
            "game={} seed={} nodes={} hash={} opening={}-{}/{}/{}/{} book={} win={}/{} draw={}/{}/{} max={}{extra}",
            self.game,
            self.seed,
            self.nodes,
            self.hash_mb,
            o.min_plies,
            o.max_plies,
            o.nodes,
            o.max_score,
            o.attempts,
            book_digest(&self.book),
            self.win_score,
            self.win_plies,
            self.draw_score,
            self.draw_plies,
            self.draw_after,
            self.max_plies
        )
    }
}

/// FNV-1a over `bytes`: the digests below, which a run's header records so that a resume with
/// another network or book is refused.
fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// A short digest of some bytes (a network file).
pub fn digest(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes.iter().copied()))
}

/// A short digest of the book, so that a resume with another book is refused.
fn book_digest(book: &[String]) -> String {
    let h = fnv1a(book.iter().flat_map(|line| line.bytes().chain([b'\n'])));
    format!("{}:{h:016x}", book.len())
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games in the file at the end (earlier runs' included).
    pub games: usize,
    /// Games played by this run.
    pub played: usize,
    /// Positions written by this run.
    pub positions: usize,
    /// This run's results from the first player's view.
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

/// One finished game.
struct GameData {
    /// Text lines or packed records, as the file takes them.
    text: Vec<u8>,
    positions: usize,
    /// From the first player's view: 2 win, 1 draw, 0 loss; `None` when no opening was found.
    result: Option<u8>,
}

fn mix(x: u64) -> u64 {
    tetrarch::hash::splitmix(x).1
}

/// The generator of game `g` of a run seeded `seed`.
pub fn game_rng(seed: u64, g: usize) -> SmallRng {
    SmallRng::seed_from_u64(mix(seed ^ mix(g as u64)))
}

/// A result for the side to move as the file records it, from the first player's view:
/// 2 win, 1 draw, 0 loss.
fn first_player_result(verdict: Verdict, to_move: Side) -> u8 {
    let first_wins = match verdict {
        Verdict::Draw => return 1,
        Verdict::Win => to_move == Side::First,
        Verdict::Loss => to_move == Side::Second,
    };
    if first_wins {
        2
    } else {
        0
    }
}

fn play_game<P: Pack, E: Evaluator<P>>(
    engine: &mut Engine<P, E>,
    book: &[P],
    cfg: &DatagenConfig,
    g: usize,
) -> GameData {
    let mut rng = game_rng(cfg.seed, g);
    let start = if book.is_empty() {
        P::start()
    } else {
        book[rng.gen_range(0..book.len())].clone()
    };
    let Some(mut pos) = selfplay::balanced_opening(engine, &start, &cfg.opening, &mut rng) else {
        return GameData {
            text: Vec::new(),
            positions: 0,
            result: None,
        };
    };
    engine.new_game();
    let mut records: Vec<(String, i32)> = Vec::new();
    let mut packed: Vec<Record> = Vec::new();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        soft_nodes: cfg.soft_nodes,
        ..Limits::default()
    };
    let (mut win_run, mut win_sign, mut draw_run) = (0usize, 0i32, 0usize);
    let mut ply = 0usize;
    // The engine's evaluator, asked for a table result before each move.
    let mut tables = engine.evaluator().clone();
    // 2 = first player wins, 1 draw, 0 loss.
    let result: u8 = loop {
        if let Some(outcome) = pos.outcome() {
            break first_player_result(outcome.verdict, pos.side_to_move());
        }
        if ply >= cfg.max_plies {
            break 1;
        }
        if let Some(v) = tables.probe(&pos) {
            // A table draw is exactly DRAW; wins and losses sit in the known-result band.
            let verdict = match v.signum() {
                0 => Verdict::Draw,
                1 => Verdict::Win,
                _ => Verdict::Loss,
            };
            break first_player_result(verdict, pos.side_to_move());
        }
        let found = selfplay::search(engine, &pos, limits.clone());
        let Some(best) = found.best else {
            // Cannot happen (the outcome above covers positions without moves); end as drawn.
            break 1;
        };
        let score = if pos.side_to_move() == Side::First {
            found.score
        } else {
            -found.score
        };
        // Quiet: nothing forced or hanging either (draughts: no capture due or threatened).
        if !pos.in_check()
            && !pos.noisy_forced()
            && !pos.quiet_threat()
            && !pos.is_noisy(best)
            && !is_decisive(score)
        {
            if cfg.binary {
                // The result is filled in when the game ends.
                let Some(r) = pos.pack(score, 1) else {
                    break 1;
                };
                packed.push(r);
            } else {
                records.push((pos.to_text(), score));
            }
        }
        // Adjudication.
        if score.abs() >= cfg.win_score {
            let sign = score.signum();
            if sign == win_sign {
                win_run += 1;
            } else {
                win_sign = sign;
                win_run = 1;
            }
        } else {
            win_run = 0;
            win_sign = 0;
        }
        if win_run >= cfg.win_plies {
            break if win_sign > 0 { 2 } else { 0 };
        }
        if ply >= cfg.draw_after && score.abs() <= cfg.draw_score {
            draw_run += 1;
        } else {
            draw_run = 0;
        }
        if draw_run >= cfg.draw_plies {
            break 1;
        }
        let _ = pos.make(best);
        ply += 1;
    };
    let label = ["0.0", "0.5", "1.0"][result as usize];
    let mut text = Vec::new();
    for (fen, score) in &records {
        text.extend_from_slice(format!("{fen} | {score} | {label}\n").as_bytes());
    }
    for r in &mut packed {
        r.0[26] = result;
        text.extend_from_slice(&r.0);
    }
    GameData {
        text,
        positions: records.len() + packed.len(),
        result: Some(result),
    }
}

fn progress_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
}

/// Reads the progress file: (games, bytes) when it matches this run's settings.
fn read_progress(cfg: &DatagenConfig) -> Result<Option<(usize, u64)>, String> {
    let path = progress_path(&cfg.out);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) => {
            if cfg.out.exists() && fs::metadata(&cfg.out).map(|m| m.len()).unwrap_or(0) > 0 {
                return Err(format!(
                    "{} exists without {}: not a datagen file to resume; remove it or choose another -out",
                    cfg.out.display(),
                    path.display()
                ));
            }
            return Ok(None);
        }
    };
    let mut games = None;
    let mut bytes = None;
    let mut signature = None;
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("games ") {
            games = v.trim().parse::<usize>().ok();
        } else if let Some(v) = line.strip_prefix("bytes ") {
            bytes = v.trim().parse::<u64>().ok();
        } else if let Some(v) = line.strip_prefix("settings ") {
            signature = Some(v.trim().to_string());
        }
    }
    let (Some(games), Some(bytes), Some(signature)) = (games, bytes, signature) else {
        return Err(format!("{} is malformed", path.display()));
    };
    if signature != cfg.signature() {
        return Err(format!(
            "{} was written with other settings ({signature}); this run has {}",
            path.display(),
            cfg.signature()
        ));
    }
    Ok(Some((games, bytes)))
}

fn write_progress(cfg: &DatagenConfig, games: usize, bytes: u64) -> Result<(), String> {
    let path = progress_path(&cfg.out);
    let tmp = {
        let mut p = path.as_os_str().to_owned();
        p.push(".tmp");
        PathBuf::from(p)
    };
    let text = format!(
        "games {games}\nbytes {bytes}\nsettings {}\n",
        cfg.signature()
    );
    fs::write(&tmp, text).map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    fs::rename(&tmp, &path).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Runs (or resumes) a data-generation run with the evaluator `eval`.
pub fn run<P: Pack, E: Evaluator<P>>(
    cfg: &DatagenConfig,
    eval: E,
) -> Result<DatagenSummary, String> {
    if cfg.binary && P::start().pack(0, 1).is_none() {
        return Err(format!(
            "the binary format holds chess only, not {}",
            cfg.game
        ));
    }
    let book: Vec<P> = cfg
        .book
        .iter()
        .map(|fen| P::from_text(fen).map_err(|e| format!("book position '{fen}': {e}")))
        .collect::<Result<_, _>>()?;
    let (done, bytes) = read_progress(cfg)?.unwrap_or((0, 0));
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&cfg.out)
        .map_err(|e| format!("opening {}: {e}", cfg.out.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len < bytes {
        return Err(format!(
            "{} is shorter ({len} bytes) than its progress file says ({bytes})",
            cfg.out.display()
        ));
    }
    // Drop a game that was half written when the last run stopped.
    file.set_len(bytes)
        .and_then(|_| file.seek(SeekFrom::Start(bytes)).map(|_| ()))
        .map_err(|e| format!("truncating {}: {e}", cfg.out.display()))?;
    if done == 0 {
        write_progress(cfg, 0, 0)?;
    }
    let mut summary = DatagenSummary {
        games: done,
        ..DatagenSummary::default()
    };
    if done >= cfg.games {
        return Ok(summary);
    }

    let next = Arc::new(AtomicUsize::new(done));
    let (tx, rx) = channel::unbounded::<(usize, GameData)>();
    let book = Arc::new(book);
    let threads = cfg.threads.clamp(1, cfg.games - done);
    let mut handles = Vec::new();
    for _ in 0..threads {
        let (next, tx, book, cfg, eval) = (
            next.clone(),
            tx.clone(),
            book.clone(),
            cfg.clone(),
            eval.clone(),
        );
        handles.push(std::thread::spawn(move || {
            let mut engine = Engine::with_options(
                P::start(),
                eval,
                Options {
                    threads: 1,
                    hash_mb: cfg.hash_mb,
                    seed: Some(cfg.seed),
                    params: cfg.params,
                    ..Options::default()
                },
            );
            loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= cfg.games {
                    break;
                }
                let data = play_game(&mut engine, &book, &cfg, g);
                if tx.send((g, data)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);

    let start = Instant::now();
    let mut last_print = Instant::now();
    let mut pending: BTreeMap<usize, GameData> = BTreeMap::new();
    let mut written = done;
    let mut bytes = bytes;
    let mut failure = None;
    for (g, data) in rx.iter() {
        pending.insert(g, data);
        while let Some(data) = pending.remove(&written) {
            if failure.is_none() {
                if let Err(e) = file.write_all(&data.text).and_then(|_| file.flush()) {
                    failure = Some(format!("writing {}: {e}", cfg.out.display()));
                }
            }
            if failure.is_some() {
                break;
            }
            bytes += data.text.len() as u64;
            written += 1;
            if let Err(e) = write_progress(cfg, written, bytes) {
                failure = Some(e);
            }
            summary.played += 1;
            summary.positions += data.positions;
            match data.result {
                Some(2) => summary.wins += 1,
                Some(1) => summary.draws += 1,
                Some(_) => summary.losses += 1,
                None => {}
            }
        }
        if failure.is_some() {
            // Stop handing out games; the workers finish the ones they hold.
            next.store(cfg.games, Ordering::Relaxed);
        }
        if cfg.progress
            && summary.played > 0
            && (last_print.elapsed() >= Duration::from_secs(1) || written == cfg.games)
        {
            last_print = Instant::now();
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            let rate = summary.played as f64 / secs;
            let eta = (cfg.games - written) as f64 / rate.max(1e-9);
            eprint!(
                "\rdatagen: games {written}/{} positions {} ({:.0} pos/s) +{} ={} -{} elapsed {:.0}s eta {:.0}s   ",
                cfg.games,
                summary.positions,
                summary.positions as f64 / secs,
                summary.wins,
                summary.draws,
                summary.losses,
                secs,
                eta
            );
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if cfg.progress {
        eprintln!();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    summary.games = written;
    Ok(summary)
}

/// One line of a data file: position text, score and result (first player's view).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    pub score: i32,
    pub result: f32,
}

/// Reads a `FEN | score | result` line; `None` for a line that is not one.
pub fn parse_line(line: &str) -> Option<Sample> {
    let mut parts = line.rsplitn(3, '|');
    let result: f32 = parts.next()?.trim().parse().ok()?;
    let score: i32 = parts.next()?.trim().parse().ok()?;
    let fen = parts.next()?.trim();
    if fen.is_empty() || !(0.0..=1.0).contains(&result) {
        return None;
    }
    Some(Sample {
        fen: fen.to_string(),
        score,
        result,
    })
}

/// The progress file of a data file (for tests and tools).
pub fn progress_file(out: &Path) -> PathBuf {
    progress_path(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_back() {
        let s = parse_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | -23 | 0.5")
            .unwrap();
        assert_eq!(s.score, -23);
        assert_eq!(s.result, 0.5);
        assert!(s.fen.ends_with("0 1"));
        assert!(parse_line("W:W31,32:B1,2 | 40 | 1.0").is_some());
        assert!(parse_line("garbage").is_none());
        assert!(parse_line("x | y | 0.5").is_none());
        assert!(parse_line("fen | 3 | 2.0").is_none());
    }

    /// With endgame tables, a game that starts (or arrives) in them ends there with their
    /// result and writes nothing of it; without them the same start is played out.
    #[test]
    fn endgame_tables_end_a_game_with_their_result() {
        use tetrarch::games::draughts::bitbase::generate_all;
        use tetrarch::games::draughts::{Board, Eval};
        let tables = Some(Arc::new(generate_all(3, 2)));
        let run_one = |start: &str, eval: Eval, tag: &str| {
            let out = std::env::temp_dir().join(format!(
                "tetrarch-datagen-tables-{}-{tag}.txt",
                std::process::id()
            ));
            let mut cfg = DatagenConfig::new("draughts", &out);
            cfg.games = 1;
            cfg.nodes = 2000;
            cfg.book = vec![start.to_string()];
            cfg.opening.min_plies = 0;
            cfg.opening.max_plies = 0;
            cfg.opening.nodes = 0;
            cfg.max_plies = 40;
            cfg.progress = false;
            cfg.tables = eval.bitbases().map(|_| "3-piece".into());
            let summary = run::<Board, Eval>(&cfg, eval).expect("datagen runs");
            let _ = fs::remove_file(&out);
            let _ = fs::remove_file(progress_path(&out));
            summary
        };
        let with = || Eval::default().with_bitbases(tables.clone());
        // Two kings against a man: won for White, whoever is to move.
        for (i, start) in ["W:WK5,K46:B26", "B:WK5,K46:B26"].into_iter().enumerate() {
            let s = run_one(start, with(), &format!("won{i}"));
            assert_eq!(
                (s.wins, s.draws, s.losses, s.positions),
                (1, 0, 0, 0),
                "{start}"
            );
        }
        // Two kings against one king: a draw.
        let s = run_one("W:WK1,K2:BK46", with(), "draw");
        assert_eq!((s.wins, s.draws, s.losses, s.positions), (0, 1, 0, 0));
        // Without the tables the drawn start is played (the evaluation sees two kings
        // against one), and its positions written.
        let s = run_one("W:WK1,K2:BK46", Eval::default(), "plain");
        assert!(s.positions > 0, "{s:?}");
    }

    #[test]
    fn game_generators_differ_by_game_and_seed() {
        let a: u64 = game_rng(1, 0).gen();
        assert_eq!(a, game_rng(1, 0).gen::<u64>());
        assert_ne!(a, game_rng(1, 1).gen::<u64>());
        assert_ne!(a, game_rng(2, 0).gen::<u64>());
    }
}
