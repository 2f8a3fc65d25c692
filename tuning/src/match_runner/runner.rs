//! Running a match or tournament: workers, results, statistics, progress and output files.
//!
//! Scheme: the schedule's jobs go into a channel; `concurrency` worker threads take them, each
//! keeping its own engine processes (started on first use, reused across games, restarted
//! after a crash or hang when `-recover` is on), and send back finished [`GameRecord`]s. The
//! calling thread is the only one that touches statistics and files: it writes each record as it
//! arrives, prints cutechess-style result lines and a live progress line, prints the standings
//! every `rating_interval` games, and stops the match (workers finish their current games and
//! take no more) when an SPRT bound is crossed or an engine fails without `-recover`. A worker
//! starts a game only with a token from the calling thread, which hands one back for each
//! result it has counted: so at most `concurrency` games are ever ahead of the statistics, and
//! a stop takes effect at once even when the calling thread falls behind (fast games on a busy
//! machine). With a
//! journal (`-resume`), the games it holds are counted first and only the others are played.

use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel;
use tetrarch::game::Side;

use super::drivers::{start_player, EngineConfig, Player, PlayerError};
use super::game::{
    play_game, DrawAdjudication, GameRecord, GameResult, GameSettings, ResignAdjudication,
};
use super::journal::{Entry, Journal, JournalSpec};
use super::openings::{self, BookFormat, Opening};
use super::records;
use super::rules::{new_rules, GameKind, Rules};
use super::tc::TimeControl;
use super::tournament::{schedule, standings, Format, Played, ScheduledGame};
use crate::stats::{
    cca, elo_pentanomial, elo_trinomial, nelo_pentanomial, nelo_trinomial, Penta, Sprt, SprtModel,
    SprtState, Wdl,
};

/// Makes the referee for a game from a start position (`None`: the initial position).
pub type RulesFactory = Arc<dyn Fn(Option<&str>) -> Result<Box<dyn Rules>, String> + Send + Sync>;

/// An opening book to read.
#[derive(Clone, Debug)]
pub struct BookSpec {
    pub file: String,
    pub format: BookFormat,
    pub random: bool,
    pub plies: Option<usize>,
    /// First opening to use (1-based, sequential order).
    pub start: usize,
}

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    pub kind: GameKind,
    pub engines: Vec<EngineConfig>,
    pub format: Format,
    pub rounds: usize,
    pub games: usize,
    pub repeat: bool,
    /// Time control for engines without their own.
    pub tc: Option<TimeControl>,
    pub book: Option<BookSpec>,
    pub concurrency: usize,
    pub pgnout: Option<String>,
    pub sgfout: Option<String>,
    pub pdnout: Option<String>,
    pub sprt: Option<Sprt>,
    /// Pairs of earlier runs of the same test (`-sprt ... prior=`), counted in the SPRT's LLR
    /// with this run's: the pair counts are the test's whole state, so a test too long for
    /// one machine's session goes on in the next from the counts its report recorded.
    pub sprt_prior: Penta,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    pub max_moves: Option<u32>,
    pub recover: bool,
    pub rating_interval: usize,
    pub event: String,
    pub seed: u64,
    pub board_size: u32,
    pub komi: f64,
    pub stall_timeout: Duration,
    pub debug: bool,
    /// Ratings before the match (CCA method), per engine, and the K factor.
    pub ratings: Vec<f64>,
    pub rating_k: f64,
    /// The referee; the engine crate's rules for `kind` unless a test supplies another.
    pub rules: Option<RulesFactory>,
    /// `-resume`: the journal that lets a stopped match go on.
    pub journal: Option<JournalSpec>,
}

impl MatchConfig {
    pub fn new(kind: GameKind) -> MatchConfig {
        MatchConfig {
            kind,
            engines: Vec::new(),
            format: Format::RoundRobin,
            rounds: 1,
            games: 1,
            repeat: false,
            tc: None,
            book: None,
            concurrency: 1,
            pgnout: None,
            sgfout: None,
            pdnout: None,
            sprt: None,
            sprt_prior: Penta::default(),
            draw: None,
            resign: None,
            max_moves: None,
            recover: false,
            rating_interval: 10,
            event: "tetrarch-tune match".into(),
            seed: 1,
            board_size: 19,
            komi: 7.5,
            stall_timeout: Duration::from_secs(60),
            debug: false,
            ratings: Vec::new(),
            rating_k: cca::K_ESTABLISHED,
            rules: None,
            journal: None,
        }
    }

    fn tc_of(&self, engine: usize) -> Result<TimeControl, String> {
        self.engines[engine].tc.or(self.tc).ok_or_else(|| {
            format!(
                "no time control for engine '{}': give -tc",
                self.engines[engine].name
            )
        })
    }
}

/// What a match produced.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub games: usize,
    /// First engine's results against the second (two-engine matches).
    pub wdl: Wdl,
    pub penta: Penta,
    pub llr: Option<f64>,
    pub sprt_state: Option<SprtState>,
    /// Why each decisive game that was not decided on the board ended, and how often.
    pub reasons: Vec<(String, usize)>,
    /// Mean wall time per game less the time inside engines' thinking.
    pub overhead_per_game: Duration,
    pub thinking_per_game: Duration,
    pub referee_per_game: Duration,
    pub stopped_early: Option<String>,
    /// Whether the match was cut short by an engine failure (not by the SPRT).
    pub aborted: bool,
    /// Names in engine order, and the final standings text.
    pub names: Vec<String>,
    pub table: String,
}

enum WorkerMsg {
    Done(ScheduledGame, Box<GameRecord>),
    /// An engine failed and `-recover` is off: the match stops.
    Fatal(String),
}

/// Runs the match, writing the report to `out`.
pub fn run_match(config: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    let n = config.engines.len();
    if n < 2 {
        return Err("a match needs at least two engines (-engine ... -engine ...)".into());
    }
    if config.sprt.is_some() && n != 2 {
        return Err("-sprt needs exactly two engines".into());
    }
    if config.sprt_prior.pairs() > 0 && !config.repeat {
        return Err("-sprt prior= counts pairs: it needs -repeat".into());
    }
    for e in 0..n {
        let tc = config.tc_of(e)?;
        if tc == TimeControl::Infinite && config.engines[e].proto != super::drivers::Protocol::Gtp {
            return Err(format!(
                "engine '{}': tc=inf only suits GTP engines, which play at their own pace",
                config.engines[e].name
            ));
        }
    }
    let factory: RulesFactory = match &config.rules {
        Some(f) => f.clone(),
        None => {
            let (kind, size, komi) = (config.kind, config.board_size, config.komi);
            Arc::new(move |start: Option<&str>| new_rules(kind, start, size, komi))
        }
    };
    // Check the referee before starting any engine.
    factory(None)?;

    let book: Vec<Opening> = match &config.book {
        Some(spec) => {
            let text = std::fs::read_to_string(&spec.file)
                .map_err(|e| format!("cannot read {}: {e}", spec.file))?;
            let v = openings::read(&text, spec.format, config.kind)?;
            let mut v = openings::arrange(v, spec.random, config.seed, spec.plies);
            let skip = spec.start.saturating_sub(1) % v.len();
            v.rotate_left(skip);
            v
        }
        None => Vec::new(),
    };
    let book = Arc::new(book);
    let jobs = schedule(n, config.format, config.rounds, config.games, config.repeat);
    let total = jobs.len();
    let names: Vec<String> = config
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if e.name.is_empty() {
                format!("engine{}", i + 1)
            } else {
                e.name.clone()
            }
        })
        .collect();

    // A resumed match counts the games its journal holds and plays the others.
    let mut state = Tally::new(config, names.clone(), total);
    let mut journal = None;
    let mut done = HashSet::new();
    if let Some(spec) = &config.journal {
        let (j, entries) = Journal::open(spec, &jobs)?;
        if !entries.is_empty() {
            let _ = writeln!(out, "Resuming: {} games from {}", entries.len(), spec.path);
        }
        for e in entries {
            state.add_from_journal(&e);
            done.insert(e.job.number);
        }
        journal = Some(j);
    }
    // Why the SPRT stops the match, once a bound is crossed.
    let decided = |state: &Tally| {
        let (sprt, llr) = config.sprt.zip(state.llr())?;
        let bound = match sprt.state(llr) {
            SprtState::AcceptH1 => "H1",
            SprtState::AcceptH0 => "H0",
            SprtState::Continue => return None,
        };
        Some(format!("SPRT: {bound} accepted (LLR {llr:.2})"))
    };
    let already = decided(&state);
    let stop = Arc::new(AtomicBool::new(false));
    let (job_tx, job_rx) = channel::unbounded::<ScheduledGame>();
    let mut to_play = 0;
    if already.is_none() {
        for j in jobs.iter().filter(|j| !done.contains(&j.number)) {
            let _ = job_tx.send(*j);
            to_play += 1;
        }
    }
    drop(job_tx);
    let (res_tx, res_rx) = channel::unbounded::<WorkerMsg>();
    let workers = config.concurrency.clamp(1, total.max(1));
    // One token per game a worker may start; never more tokens than games, so a worker with a
    // token always finds a game, and the channel closes once every game has had its token
    // (the tokens still queued stay receivable) or the match stops.
    let (token_tx, token_rx) = channel::unbounded::<()>();
    let mut tokens = 0;
    while tokens < workers.min(to_play) {
        let _ = token_tx.send(());
        tokens += 1;
    }
    let mut token_tx = (tokens < to_play).then_some(token_tx);
    let mut handles = Vec::new();
    for w in 0..workers {
        let job_rx = job_rx.clone();
        let token_rx = token_rx.clone();
        let res_tx = res_tx.clone();
        let stop = stop.clone();
        let config = config.clone();
        let factory = factory.clone();
        let book = book.clone();
        let names = names.clone();
        handles.push(
            std::thread::Builder::new()
                .name(format!("game worker {w}"))
                .spawn(move || {
                    worker(
                        w, &config, &names, &factory, &book, &job_rx, &token_rx, &res_tx, &stop,
                    )
                })
                .map_err(|e| format!("cannot start worker thread: {e}"))?,
        );
    }
    drop(res_tx);

    let mut files = OutputFiles::open(config)?;
    let tty = std::io::stderr().is_terminal();
    let mut stopped_early = None;
    let mut aborted = false;
    if let Some(why) = already {
        let _ = writeln!(out, "{why} before this run");
        stopped_early = Some(why);
    }
    for msg in res_rx.iter() {
        match msg {
            WorkerMsg::Fatal(why) => {
                if stopped_early.is_none() {
                    let _ = writeln!(out, "Terminating match: {why}");
                    stopped_early = Some(why);
                    aborted = true;
                }
                stop.store(true, Ordering::SeqCst);
                token_tx = None;
            }
            WorkerMsg::Done(job, record) => {
                let record = *record;
                let _ = writeln!(
                    out,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    job.number,
                    names[job.first],
                    names[job.second],
                    record.result.pgn(),
                    record.reason
                );
                files.write(config, &job, &record)?;
                if let (Some(j), Some(points)) = (&mut journal, record.result.points(Side::First)) {
                    j.append(&job, points, &record.reason)?;
                }
                state.add(&job, &record);
                if tty {
                    eprint!("\r{}\x1b[K", state.progress_line());
                } else if config.rating_interval > 0
                    && state.finished.is_multiple_of(config.rating_interval)
                {
                    eprintln!("{}", state.progress_line());
                }
                if config.rating_interval > 0
                    && state.finished.is_multiple_of(config.rating_interval)
                    && state.finished < total
                {
                    let _ = write!(out, "{}", state.report(false));
                }
                if let Some(why) = decided(&state) {
                    if stopped_early.is_none() {
                        let _ = writeln!(out, "{why}");
                        stopped_early = Some(why);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                // The game is counted: its worker may start another, if any is left.
                if stopped_early.is_some() || tokens >= to_play {
                    token_tx = None;
                } else if let Some(t) = &token_tx {
                    let _ = t.send(());
                    tokens += 1;
                }
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if tty {
        eprintln!();
    }
    let report = state.report(true);
    let _ = write!(out, "{report}");
    let _ = out.flush();
    let mut summary = state.summary(stopped_early, report);
    summary.aborted = aborted;
    Ok(summary)
}

/// One worker: takes jobs until there are none or the match stops.
#[allow(clippy::too_many_arguments)]
fn worker(
    id: usize,
    config: &MatchConfig,
    names: &[String],
    factory: &RulesFactory,
    book: &[Opening],
    jobs: &channel::Receiver<ScheduledGame>,
    tokens: &channel::Receiver<()>,
    results: &channel::Sender<WorkerMsg>,
    stop: &AtomicBool,
) {
    let mut players: HashMap<usize, Box<dyn Player>> = HashMap::new();
    let mut started: HashSet<usize> = HashSet::new();
    while tokens.recv().is_ok() {
        let Ok(job) = jobs.recv() else {
            break;
        };
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let record = run_job(
            id,
            config,
            names,
            factory,
            book,
            &job,
            &mut players,
            &mut started,
        );
        let record = match record {
            Ok(r) => r,
            Err(why) => {
                let _ = results.send(WorkerMsg::Fatal(why));
                break;
            }
        };
        let mut fatal = None;
        for e in [job.first, job.second] {
            let broken = players.get(&e).is_none_or(|p| !p.healthy());
            if broken {
                if let Some(mut p) = players.remove(&e) {
                    p.quit();
                }
                // (An engine that never started ended the match in `run_job`; this one
                // crashed or hung in the game, or failed to restart.)
                if !config.recover && fatal.is_none() {
                    fatal = Some(format!(
                        "engine '{}' stopped responding; use -recover to restart it and go on",
                        names[e]
                    ));
                }
            }
        }
        let _ = results.send(WorkerMsg::Done(job, Box::new(record)));
        if let Some(why) = fatal {
            let _ = results.send(WorkerMsg::Fatal(why));
            break;
        }
    }
    for (_, mut p) in players.drain() {
        p.quit();
    }
}

/// Plays one scheduled game, starting engines as needed. `started` holds the engines this
/// worker has started before: one that fails its very first start is a broken setup (a bad
/// path or argument), which stops the match with or without `-recover` and scores nothing,
/// while a failed restart after a crash loses the game, as a crash does.
#[allow(clippy::too_many_arguments)]
fn run_job(
    worker: usize,
    config: &MatchConfig,
    names: &[String],
    factory: &RulesFactory,
    book: &[Opening],
    job: &ScheduledGame,
    players: &mut HashMap<usize, Box<dyn Player>>,
    started: &mut HashSet<usize>,
) -> Result<GameRecord, String> {
    let opening = if book.is_empty() {
        None
    } else {
        Some(&book[job.opening % book.len()])
    };
    let start = opening.and_then(|o| o.start.clone());
    let mut probe = factory(start.as_deref())?;
    let moves = match opening {
        Some(o) => openings::resolve(o, &mut *probe)?,
        None => Vec::new(),
    };
    let rules = factory(start.as_deref())?;
    let tcs = [config.tc_of(job.first)?, config.tc_of(job.second)?];
    let settings = GameSettings {
        kind: config.kind,
        tcs,
        margins_ms: [
            config.engines[job.first].margin_ms,
            config.engines[job.second].margin_ms,
        ],
        stall_timeout: config.stall_timeout,
        draw: config.draw,
        resign: config.resign,
        max_moves: config.max_moves,
        board_size: config.board_size,
        komi: config.komi,
    };
    // Start the engines this game needs; a failure to restart loses the game.
    for (side, e) in [(Side::First, job.first), (Side::Second, job.second)] {
        if players.contains_key(&e) {
            continue;
        }
        let mut cfg = config.engines[e].clone();
        cfg.name = names[e].clone();
        let label = format!("{}#{worker}", names[e]);
        match start_player(&cfg, config.kind, &label, config.debug, worker as u16) {
            Ok(p) => {
                players.insert(e, p);
                started.insert(e);
            }
            Err(err) if !started.contains(&e) => {
                return Err(format!("engine '{}' could not start: {err}", names[e]));
            }
            Err(err) => {
                return Ok(failed_start(config, names, job, side, &err, rules, tcs));
            }
        }
    }
    let [a, b] = two_mut(players, job.first, job.second);
    Ok(play_game([a, b], rules, &moves, &settings))
}

fn failed_start(
    config: &MatchConfig,
    names: &[String],
    job: &ScheduledGame,
    side: Side,
    err: &PlayerError,
    rules: Box<dyn Rules>,
    tcs: [TimeControl; 2],
) -> GameRecord {
    GameRecord {
        kind: config.kind,
        names: [names[job.first].clone(), names[job.second].clone()],
        start: rules.start_text(),
        start_is_initial: rules.starts_from_initial(),
        moves: Vec::new(),
        result: GameResult::Win(side.flip()),
        reason: format!("{}'s engine {err}", config.kind.side_names()[side.index()]),
        failed: Some(side),
        tcs,
        started: std::time::SystemTime::now(),
        wall: Duration::ZERO,
        thinking: Duration::ZERO,
        referee: Duration::ZERO,
    }
}

/// Two distinct players out of the map.
fn two_mut(
    players: &mut HashMap<usize, Box<dyn Player>>,
    a: usize,
    b: usize,
) -> [&mut dyn Player; 2] {
    assert_ne!(a, b, "an engine cannot play itself in one process");
    let mut pa = None;
    let mut pb = None;
    for (k, v) in players.iter_mut() {
        if *k == a {
            pa = Some(v.as_mut());
        } else if *k == b {
            pb = Some(v.as_mut());
        }
    }
    [
        pa.expect("first player started"),
        pb.expect("second player started"),
    ]
}

/// The output files, appended as games finish.
struct OutputFiles {
    pgn: Option<std::fs::File>,
    sgf: Option<std::fs::File>,
    pdn: Option<std::fs::File>,
}

impl OutputFiles {
    fn open(config: &MatchConfig) -> Result<OutputFiles, String> {
        let open = |p: &Option<String>| -> Result<Option<std::fs::File>, String> {
            match p {
                None => Ok(None),
                Some(path) => std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map(Some)
                    .map_err(|e| format!("cannot open {path}: {e}")),
            }
        };
        Ok(OutputFiles {
            pgn: open(&config.pgnout)?,
            sgf: open(&config.sgfout)?,
            pdn: open(&config.pdnout)?,
        })
    }

    fn write(
        &mut self,
        config: &MatchConfig,
        job: &ScheduledGame,
        record: &GameRecord,
    ) -> Result<(), String> {
        let err = |e: std::io::Error| format!("cannot write a game record: {e}");
        if let Some(f) = self.pgn.as_mut() {
            f.write_all(records::pgn(record, &config.event, job.round).as_bytes())
                .map_err(err)?;
        }
        if let Some(f) = self.sgf.as_mut() {
            f.write_all(records::sgf(record, config.board_size, config.komi).as_bytes())
                .map_err(err)?;
        }
        if let Some(f) = self.pdn.as_mut() {
            f.write_all(records::pdn(record, &config.event, job.round).as_bytes())
                .map_err(err)?;
        }
        Ok(())
    }
}

/// The pentanomial Elo of pair counts as `E +/- ERR`, or `None` before the first pair.
fn penta_elo_text(p: &Penta) -> Option<String> {
    elo_pentanomial(p).map(|e| format!("{} +/- {}", fmt_elo(e.elo), fmt_elo(e.error)))
}

/// The running totals.
struct Tally {
    kind: GameKind,
    names: Vec<String>,
    total: usize,
    finished: usize,
    played: Vec<Played>,
    /// Two-engine view: engine 0's results, by colour too.
    wdl: Wdl,
    wdl_first: Wdl,
    wdl_second: Wdl,
    penta: Penta,
    pending_pairs: HashMap<usize, f64>,
    paired: bool,
    sprt: Option<Sprt>,
    sprt_prior: Penta,
    reasons: HashMap<String, usize>,
    wall: Duration,
    thinking: Duration,
    referee: Duration,
    plies: usize,
    timed_games: usize,
    ratings: Vec<f64>,
    k: f64,
    started: Instant,
    cpu_at_start: Option<Duration>,
}

/// CPU time used so far by this process (user and system, all threads), on Linux from
/// `/proc/self/stat`; `None` elsewhere. Engines are separate processes and not counted.
fn own_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // The kernel reports in USER_HZ, 100 on every Linux configuration in use.
    Some(Duration::from_millis(ticks * 10))
}

impl Tally {
    fn new(config: &MatchConfig, names: Vec<String>, total: usize) -> Tally {
        let mut ratings = config.ratings.clone();
        ratings.resize(names.len(), cca::INITIAL_RATING);
        Tally {
            kind: config.kind,
            names,
            total,
            finished: 0,
            played: Vec::new(),
            wdl: Wdl::default(),
            wdl_first: Wdl::default(),
            wdl_second: Wdl::default(),
            penta: Penta::default(),
            pending_pairs: HashMap::new(),
            paired: config.repeat,
            sprt: config.sprt,
            sprt_prior: config.sprt_prior,
            reasons: HashMap::new(),
            wall: Duration::ZERO,
            thinking: Duration::ZERO,
            referee: Duration::ZERO,
            plies: 0,
            timed_games: 0,
            ratings,
            k: config.rating_k,
            started: Instant::now(),
            cpu_at_start: own_cpu_time(),
        }
    }

    fn add(&mut self, job: &ScheduledGame, record: &GameRecord) {
        self.finished += 1;
        let Some(first_points) = record.result.points(Side::First) else {
            return;
        };
        if !record.moves.is_empty() {
            self.wall += record.wall;
            self.thinking += record.thinking;
            self.referee += record.referee;
            self.plies += record.moves.len();
            self.timed_games += 1;
        }
        self.count(job, first_points, &record.reason);
    }

    /// A game a resumed match finished in an earlier run.
    fn add_from_journal(&mut self, e: &Entry) {
        self.finished += 1;
        self.count(&e.job, e.first_points, &e.reason);
    }

    /// A finished game's result (`first_points` for its first mover) in the standings,
    /// the two-engine score and the pairs.
    fn count(&mut self, job: &ScheduledGame, first_points: f64, reason: &str) {
        self.played.push(Played {
            first: job.first,
            second: job.second,
            first_points,
        });
        *self.reasons.entry(generic_reason(reason)).or_default() += 1;
        if self.names.len() == 2 {
            let p0 = if job.first == 0 {
                first_points
            } else {
                1.0 - first_points
            };
            self.wdl.add(p0);
            if job.first == 0 {
                self.wdl_first.add(p0);
            } else {
                self.wdl_second.add(p0);
            }
            if let Some(pair) = job.pair {
                if let Some(other) = self.pending_pairs.remove(&pair) {
                    self.penta.add(other, p0);
                } else {
                    self.pending_pairs.insert(pair, p0);
                }
            }
        }
    }

    fn llr(&self) -> Option<f64> {
        let s = self.sprt?;
        Some(if self.paired {
            s.llr_pentanomial(&self.penta.plus(&self.sprt_prior))
        } else {
            s.llr_trinomial(&self.wdl)
        })
    }

    fn elo(&self) -> Option<crate::stats::EloEstimate> {
        if self.paired && self.penta.pairs() > 0 {
            elo_pentanomial(&self.penta)
        } else {
            elo_trinomial(&self.wdl)
        }
    }

    fn progress_line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs();
        let mut s = format!("[{}/{}] ", self.finished, self.total);
        if self.names.len() == 2 {
            let w = &self.wdl;
            s.push_str(&format!(
                "{} vs {}: {}-{}-{} ({:.1}%)",
                self.names[0],
                self.names[1],
                w.wins,
                w.losses,
                w.draws,
                100.0 * w.score().unwrap_or(0.5)
            ));
            if let Some(e) = self.elo() {
                s.push_str(&format!(
                    "  Elo {} +/- {}",
                    fmt_elo(e.elo),
                    fmt_elo(e.error)
                ));
            }
            if let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) {
                s.push_str(&format!(
                    "  LLR {llr:.2} [{:.2}, {:.2}]",
                    sprt.lower(),
                    sprt.upper()
                ));
            }
        } else if let Some(top) = standings(
            self.names.len(),
            &self.played,
            self.kind.win_points(),
            &self.ratings,
            self.k,
        )
        .first()
        {
            s.push_str(&format!("leader {} {}", self.names[top.engine], top.points));
        }
        s.push_str(&format!(
            "  {}:{:02}:{:02}",
            elapsed / 3600,
            elapsed / 60 % 60,
            elapsed % 60
        ));
        s
    }

    fn report(&self, last: bool) -> String {
        let mut s = String::new();
        if self.names.len() == 2 {
            let w = &self.wdl;
            if let Some(score) = w.score() {
                s.push_str(&format!(
                    "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
                    self.names[0],
                    self.names[1],
                    w.wins,
                    w.losses,
                    w.draws,
                    score,
                    w.games()
                ));
                let side = self.kind.side_names();
                for (label, c) in [(side[0], &self.wdl_first), (side[1], &self.wdl_second)] {
                    if let Some(sc) = c.score() {
                        s.push_str(&format!(
                            "...      {} playing {label}: {} - {} - {}  [{sc:.3}] {}\n",
                            self.names[0],
                            c.wins,
                            c.losses,
                            c.draws,
                            c.games()
                        ));
                    }
                }
                if let Some(e) = elo_trinomial(w) {
                    s.push_str(&format!(
                        "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
                        fmt_elo(e.elo),
                        fmt_elo(e.error),
                        100.0 * e.los,
                        100.0 * w.draws as f64 / w.games() as f64
                    ));
                }
                if let Some(n) = nelo_trinomial(w) {
                    s.push_str(&format!(
                        "nElo: {} +/- {}\n",
                        fmt_elo(n.elo),
                        fmt_elo(n.error)
                    ));
                }
                if self.paired && self.penta.pairs() > 0 {
                    let p = self.penta.five();
                    s.push_str(&format!(
                        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
                        p[0], p[1], p[2], p[3], p[4]
                    ));
                    if let Some(e) = penta_elo_text(&self.penta) {
                        s.push_str(&format!(", pentanomial Elo: {e}"));
                    }
                    if let Some(n) = nelo_pentanomial(&self.penta) {
                        s.push_str(&format!(
                            ", nElo: {} +/- {}",
                            fmt_elo(n.elo),
                            fmt_elo(n.error)
                        ));
                    }
                    s.push('\n');
                }
                if let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) {
                    let model = match sprt.model {
                        SprtModel::Logistic => "logistic",
                        SprtModel::Normalized => "normalized",
                    };
                    s.push_str(&format!(
                        "SPRT ({model}, elo0 {}, elo1 {}, {}): llr {llr:.2} ({:.1}%), lbound {:.2}, ubound {:.2}{}\n",
                        sprt.elo0,
                        sprt.elo1,
                        if self.paired { "pentanomial" } else { "trinomial" },
                        100.0 * llr / sprt.upper(),
                        sprt.lower(),
                        sprt.upper(),
                        match sprt.state(llr) {
                            SprtState::AcceptH0 => " - H0 was accepted",
                            SprtState::AcceptH1 => " - H1 was accepted",
                            SprtState::Continue => "",
                        }
                    ));
                    if self.sprt_prior.pairs() > 0 {
                        let all = self.penta.plus(&self.sprt_prior);
                        s.push_str(&format!(
                            "SPRT with {} earlier pairs {:?}: Ptnml(0-2) {:?}",
                            self.sprt_prior.pairs(),
                            self.sprt_prior.five(),
                            all.five()
                        ));
                        if let Some(e) = penta_elo_text(&all) {
                            s.push_str(&format!(", pentanomial Elo {e}"));
                        }
                        s.push('\n');
                    }
                }
            }
        }
        if self.names.len() > 2 || last {
            s.push_str(&self.table());
        }
        if last {
            let mut reasons: Vec<(&String, &usize)> = self.reasons.iter().collect();
            reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            s.push_str("Results by reason:");
            for (r, c) in reasons {
                s.push_str(&format!(" {r}: {c};"));
            }
            s.push('\n');
            if self.timed_games > 0 {
                let g = self.timed_games as u32;
                let ms = |d: Duration| d.as_secs_f64() * 1000.0;
                let overhead = self.wall.saturating_sub(self.thinking);
                s.push_str(&format!(
                    "Runner overhead: {:.1} ms per game, {:.3} ms per move (wall {:.1} ms, engines thinking {:.1} ms, referee {:.1} ms per game; {} games, {:.0} moves per game)\n",
                    ms(overhead / g),
                    ms(overhead) / self.plies.max(1) as f64,
                    ms(self.wall / g),
                    ms(self.thinking / g),
                    ms(self.referee / g),
                    g,
                    self.plies as f64 / g as f64
                ));
                if let (Some(now), Some(start)) = (own_cpu_time(), self.cpu_at_start) {
                    s.push_str(&format!(
                        "Runner CPU time: {:.1} ms per game (all threads of this process)\n",
                        ms(now.saturating_sub(start) / g)
                    ));
                }
            }
            s.push_str(&format!(
                "{} of {} games finished.\n",
                self.played.len(),
                self.total
            ));
        }
        s
    }

    fn table(&self) -> String {
        let t = standings(
            self.names.len(),
            &self.played,
            self.kind.win_points(),
            &self.ratings,
            self.k,
        );
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
        let mut s = format!(
            "Rank {:<width$} {:>7} {:>6} {:>5} {:>5} {:>5} {:>7} {:>15} {:>8}\n",
            "Name", "Points", "Games", "W", "D", "L", "SB", "Elo", "Rating"
        );
        for (i, r) in t.iter().enumerate() {
            let elo = match r.elo {
                Some(e) => format!("{} +/- {}", fmt_elo(e.elo), fmt_elo(e.error)),
                None => "-".into(),
            };
            s.push_str(&format!(
                "{:>4} {:<width$} {:>7} {:>6} {:>5} {:>5} {:>5} {:>7} {:>15} {:>8.1}\n",
                i + 1,
                self.names[r.engine],
                r.points,
                r.games,
                r.wdl.wins,
                r.wdl.draws,
                r.wdl.losses,
                r.sonneborn_berger,
                elo,
                r.rating
            ));
        }
        s
    }

    fn summary(&self, stopped_early: Option<String>, table: String) -> MatchSummary {
        let g = self.timed_games.max(1) as u32;
        let mut reasons: Vec<(String, usize)> =
            self.reasons.iter().map(|(k, v)| (k.clone(), *v)).collect();
        reasons.sort();
        MatchSummary {
            games: self.played.len(),
            wdl: self.wdl,
            penta: self.penta,
            llr: self.llr(),
            sprt_state: self.sprt.zip(self.llr()).map(|(s, l)| s.state(l)),
            reasons,
            overhead_per_game: self.wall.saturating_sub(self.thinking) / g,
            referee_per_game: self.referee / g,
            thinking_per_game: self.thinking / g,
            stopped_early,
            aborted: false,
            names: self.names.clone(),
            table,
        }
    }
}

/// A reason with the side names and numbers taken out, for counting (`loses on time`,
/// `makes an illegal move`, ...).
fn generic_reason(reason: &str) -> String {
    let mut r = reason.to_string();
    for name in ["White", "Black", "Red"] {
        r = r.replace(name, "X");
    }
    if r.contains("illegal move") {
        return "X makes an illegal move".into();
    }
    let cut = r.find('(').unwrap_or(r.len());
    r[..cut].trim().to_string()
}

fn fmt_elo(v: f64) -> String {
    if v.is_finite() {
        // No "-0.0".
        format!("{:.1}", if v.abs() < 0.05 { 0.0 } else { v })
    } else if v > 0.0 {
        "inf".into()
    } else if v < 0.0 {
        "-inf".into()
    } else {
        "nan".into()
    }
}
