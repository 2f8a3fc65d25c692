//! The Hub front end (international draughts, Scan's protocol v2), and DXP in `dxp`.
//!
//! Scheme: the session loop `select!`s over input lines and search events. A search runs on
//! the engine's threads and reports through [`HubReporter`], which formats `info` and `done`
//! lines and sends them to the loop as events, so every line goes out from one thread in
//! order. While a search runs, `ping` is answered at once, `ponder-hit` switches the search to
//! its clock and `stop` ends it; any other line ends the search too (as Scan does) and waits
//! in a queue until its `done` is out, then runs. Lines are taken in the order sent: a `stop`
//! or `ponder-hit` behind the queue waits in it, and acts on the search a queued `go` starts.
//! `level` applies to the next `go` only; a `go`
//! without one thinks for [`DEFAULT_MOVE_TIME_MS`]. Every error (a malformed `pos=`, an illegal
//! or ambiguous move, an unknown command or parameter value) is one `error message="..."` line,
//! and the session's state is left as it was, except that a bad field of `level` drops only
//! itself (see `set_level`). Nothing is written to stderr. The endgame tables (`bitbases`,
//! see [`bitbases`]) are loaded from the default directory at the start when it exists, and
//! every evaluation the session sets probes them.

pub mod bitbases;
pub mod dxp;

#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::sync::Arc;

use crossbeam::channel::{self, Receiver, Sender};
use tetrarch::game::{Notation, Position};
use tetrarch::games::draughts::weights::Weights;
use tetrarch::games::draughts::{Board, Eval, Move};
use tetrarch::games::{Draughts, Game};
use tetrarch::limits::Limits;
use tetrarch::report::{Iteration, Reporter, ScoreBound};
use tetrarch::score::{Score, MATE, MATE_IN_MAX_PLY};
use tetrarch::search::params::TUNABLE;
use tetrarch::search::{Engine, Options};
use tetrarch::time::Clock;

use crate::io::{Input, Output};
use crate::options::{Dialect, Effect, Kind, Opt};
use tetrarch_wire::hub as wire;

/// Think time of a `go think` that no `level` preceded.
pub const DEFAULT_MOVE_TIME_MS: u64 = 10_000;

/// The engine every draughts front end drives.
pub type DraughtsEngine = Engine<Board, Eval>;

/// A new engine with its default evaluation.
pub fn new_engine(threads: usize, hash_mb: usize) -> DraughtsEngine {
    let options = Options {
        threads: threads.max(1),
        hash_mb: hash_mb.max(1),
        moves_left_hint: <Draughts as Game>::MOVES_LEFT,
        params: <Draughts as Game>::search_params(),
        ..Options::default()
    };
    Engine::with_options(Board::start(), Eval::default(), options)
}

/// A score in Hub's unit (men, two decimals). A forced result `n` plies away is written
/// `±(100 - n/100)`, as Scan does, which pydraughts reads as a win or loss in `n` plies;
/// ordinary evaluations are kept below 90 so that no client mistakes one for a result.
pub fn score_text(score: Score) -> String {
    let centi = if score >= MATE_IN_MAX_PLY {
        10_000 - (MATE - score).min(999)
    } else if score <= -MATE_IN_MAX_PLY {
        -(10_000 - (MATE + score).min(999))
    } else {
        score.clamp(-8_999, 8_999)
    };
    let sign = if centi < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", centi.abs() / 100, centi.abs() % 100)
}

/// The moves of a line in Hub's move form, replayed from `root`.
pub fn line_text(root: &Board, pv: &[Move]) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_pseudo_legal(m) {
            break;
        }
        words.push(pos.hub_move_text(m));
        let _ = pos.make(m);
    }
    words.join(" ")
}

/// What a search sends to the session loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// An `info` line.
    Info(String),
    /// The end of the search: the `done` line (preceded by an `error` line when there was no
    /// move), and the move itself for front ends that play it (DXP).
    Done {
        lines: Vec<String>,
        best: Option<Move>,
    },
}

/// Formats search events as Hub lines and hands them to a channel.
pub struct HubReporter {
    tx: Sender<Event>,
}

impl HubReporter {
    pub fn new(tx: Sender<Event>) -> HubReporter {
        HubReporter { tx }
    }
}

impl Reporter<Board> for HubReporter {
    fn iteration(&self, info: &Iteration<'_, Board>) {
        let Some(line) = info.lines.first() else {
            return;
        };
        if line.bound != ScoreBound::Exact {
            return; // Hub has no notation for a bound
        }
        let time = format!("{}.{:03}", info.time_ms / 1000, info.time_ms % 1000);
        let mnps = info.nps / 100_000; // tenths of a million
        let nps = format!("{}.{}", mnps / 10, mnps % 10);
        let depth = info.depth.to_string();
        let score = score_text(line.score);
        let nodes = info.nodes.to_string();
        let pv = line_text(info.root, &line.pv);
        let mut pairs: Vec<(&str, &str)> = vec![
            ("depth", &depth),
            ("score", &score),
            ("nodes", &nodes),
            ("time", &time),
            ("nps", &nps),
        ];
        if !pv.is_empty() {
            pairs.push(("pv", &pv));
        }
        let _ = self.tx.send(Event::Info(wire::format("info", &pairs)));
    }

    fn best_move(&self, root: &Board, best: Option<Move>, ponder: Option<Move>) {
        let _ = self.tx.send(done_event(root, best, ponder));
    }
}

/// The `done` event for a move (and an expected reply, when it is legal after the move).
fn done_event(root: &Board, best: Option<Move>, ponder: Option<Move>) -> Event {
    let Some(m) = best else {
        return Event::Done {
            lines: vec![
                wire::format("error", &[("message", "no legal move in this position")]),
                "done".to_string(),
            ],
            best: None,
        };
    };
    let mv = root.hub_move_text(m);
    let mut after = root.clone();
    let _ = after.make(m);
    let reply = ponder
        .filter(|&p| after.is_pseudo_legal(p))
        .map(|p| after.hub_move_text(p));
    let line = match &reply {
        Some(p) => wire::format("done", &[("move", &mv), ("ponder", p)]),
        None => wire::format("done", &[("move", &mv)]),
    };
    Event::Done {
        lines: vec![line],
        best: Some(m),
    }
}

/// The search limits `level` set for the next `go`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time_ms: Option<u64>,
    clock: Option<Clock>,
    infinite: bool,
}

impl Level {
    fn is_set(&self) -> bool {
        *self != Level::default()
    }
}

/// Seconds (a real number) in milliseconds; negative times count as zero.
fn seconds_ms(text: &str) -> Option<i64> {
    let v: f64 = text.trim().parse().ok()?;
    v.is_finite()
        .then(|| (v.max(0.0) * 1000.0).min(1e12) as i64)
}

struct Session {
    out: Output,
    engine: DraughtsEngine,
    /// The position searches start from, and the position after the `moves=` list.
    position: Board,
    level: Level,
    searching: bool,
    /// Lines that arrived during a search and wait for its end.
    pending: VecDeque<String>,
    events_tx: Sender<Event>,
    ponder: bool,
    eval_name: String,
    eval_file: String,
    /// The endgame tables every evaluation set here probes, and the directory they came from
    /// (empty for none).
    bitbases: Option<Arc<tetrarch::games::draughts::bitbase::Bitbases>>,
    bitbases_dir: String,
    /// `elo` (0: off) and `skill` (20: off).
    elo: i64,
    skill_level: i64,
}

/// Runs a Hub session until `quit` or end of input. `first` is a line already read.
pub fn run(input: Input, out: Output, first: Option<String>) {
    let (events_tx, events_rx) = channel::unbounded();
    let mut s = Session {
        out,
        engine: new_engine(1, 16),
        position: Board::start(),
        level: Level::default(),
        searching: false,
        pending: VecDeque::new(),
        events_tx,
        ponder: false,
        eval_name: "full".into(),
        eval_file: String::new(),
        bitbases: None,
        bitbases_dir: String::new(),
        elo: 0,
        skill_level: 20,
    };
    let (tables, dir) = bitbases::load_default();
    if tables.is_some() {
        s.bitbases = tables;
        s.bitbases_dir = dir;
        s.set_eval("full", Eval::default());
    }
    if let Some(line) = first {
        if !s.handle(&line) {
            return;
        }
    }
    s.serve(input.receiver(), &events_rx);
}

impl Session {
    fn serve(&mut self, input: &Receiver<String>, events: &Receiver<Event>) {
        loop {
            channel::select! {
                recv(input) -> line => match line {
                    Ok(line) => {
                        if !self.handle(&line) {
                            return;
                        }
                    }
                    Err(_) => return, // end of input: the GUI is gone
                },
                recv(events) -> event => {
                    if let Ok(event) = event {
                        if !self.on_event(event) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Writes a search event; after `done`, runs the lines that waited. False to quit.
    fn on_event(&mut self, event: Event) -> bool {
        match event {
            Event::Info(line) => self.out.line(&line),
            Event::Done { lines, .. } => {
                for line in lines {
                    self.out.line(&line);
                }
                self.searching = false;
                self.engine.wait();
                while let Some(line) = self.pending.pop_front() {
                    if self.searching {
                        // A queued `go` started this search, and the lines behind it came
                        // while it ran, as far as the GUI knows: `stop`, `ponder-hit`, `ping`
                        // and `quit` act on it now; anything else ends it and waits again.
                        let command = wire::parse(&line).map(|l| l.command).unwrap_or_default();
                        match self.during_search(&command) {
                            Some(true) => continue,
                            Some(false) => return false,
                            None => {
                                self.engine.stop();
                                self.pending.push_front(line);
                                break;
                            }
                        }
                    }
                    if !self.handle(&line) {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn error(&self, message: &str) {
        self.out
            .line(&wire::format("error", &[("message", message)]));
    }

    /// The commands that act on a running search at once (`ping`, `ponder-hit`, `stop`,
    /// `quit`): `Some(false)` when the session ends, `None` for any other command.
    fn during_search(&mut self, command: &str) -> Option<bool> {
        match command {
            "ping" => self.out.line("pong"),
            "ponder-hit" => self.engine.ponderhit(),
            "stop" => self.engine.stop(),
            "quit" => {
                self.engine.stop_and_wait();
                return Some(false);
            }
            _ => return None,
        }
        Some(true)
    }

    /// Handles one input line. False when the session ends.
    fn handle(&mut self, text: &str) -> bool {
        let Some(line) = wire::parse(text) else {
            return true;
        };
        if self.searching {
            // Behind a queue, `stop` and `ponder-hit` belong to the search a queued `go` will
            // start, so they wait their turn too.
            let queued =
                !self.pending.is_empty() && matches!(line.command.as_str(), "stop" | "ponder-hit");
            match self.during_search(&line.command) {
                Some(go_on) if !queued => return go_on,
                _ => {
                    // As Scan: any other command ends the search and runs after its `done`.
                    self.engine.stop();
                    self.pending.push_back(text.to_string());
                }
            }
            return true;
        }
        match line.command.as_str() {
            "hub" => self.hello(),
            "set-param" => self.set_param(&line, text),
            "init" => self.out.line("ready"),
            "pos" => self.set_position(&line),
            "level" => self.set_level(&line),
            "go" => self.go(&line),
            "ping" => self.out.line("pong"),
            "new-game" => self.engine.new_game(),
            "ponder-hit" | "stop" => {} // the search already ended; its `done` is out
            "quit" => return false,
            other => self.error(&format!("unknown command '{}'", clip(other))),
        }
        true
    }

    fn hello(&self) {
        let version = env!("CARGO_PKG_VERSION");
        self.out.line(&wire::format(
            "id",
            &[
                ("name", "Tetrarch"),
                ("version", version),
                ("author", "The Tetrarch developers"),
            ],
        ));
        for p in params(self) {
            self.out.line(&param_line(&p));
        }
        self.out.line("wait");
    }

    /// `set-param name=N value=V`. pydraughts does not quote values, so everything after
    /// `value=` is the value.
    fn set_param(&mut self, line: &wire::Line, raw: &str) {
        let Some(name) = line.get("name") else {
            self.error("set-param needs name=");
            return;
        };
        let value = match raw.find("value=") {
            Some(at) => raw[at + 6..].trim().trim_matches('"').to_string(),
            None => {
                self.error(&format!("set-param {} needs value=", clip(name)));
                return;
            }
        };
        // Scan's parameters that have no meaning here are accepted and ignored, so that a
        // GUI configured for Scan works unchanged.
        if SCAN_ONLY.contains(&name) {
            return;
        }
        let table = params(self);
        match crate::options::set(&table, self, name, Some(&value), &DIALECT) {
            Some(Ok(_)) => {} // every Hub setter acts at once
            Some(Err(e)) => self.error(&e),
            None => self.error(&format!("unknown parameter '{}'", clip(name))),
        }
    }

    fn set_eval(&mut self, name: &str, eval: Eval) {
        self.eval_name = name.to_string();
        self.engine
            .set_evaluator(eval.with_bitbases(self.bitbases.clone()));
    }

    /// `pos pos=<51 chars> [moves="..."]`, or `pos start`. A FEN is accepted too. On any error
    /// the previous position stays.
    fn set_position(&mut self, line: &wire::Line) {
        let start = match line.get("pos") {
            Some(text) if !text.is_empty() => match Board::from_text(text) {
                Ok(b) => b,
                Err(e) => {
                    self.error(&format!("bad position: {e}"));
                    return;
                }
            },
            _ if line.has("start") => Board::start(),
            _ => {
                self.error("bad position: pos needs pos=<position> or start");
                return;
            }
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for word in line.get("moves").unwrap_or("").split_whitespace() {
            match pos.parse_move(word) {
                Ok(m) => {
                    moves.push(m);
                    let _ = pos.make(m);
                }
                Err(e) => {
                    self.error(&e.to_string());
                    return;
                }
            }
        }
        self.engine.set_position(start, &moves);
        self.position = pos;
    }

    /// `level ...`: each field is read on its own. An unreadable one is reported (one `error`
    /// line each) and dropped, and the others hold, so the search keeps to the time the GUI
    /// stated. A count below its minimum (`depth=0`, `nodes=0`) is reported and raised to it.
    /// A line whose every limit was unreadable leaves a one-ply search: the GUI meant some
    /// limit, and none is safer than the 10 s of a `go` without `level`.
    fn set_level(&mut self, line: &wire::Line) {
        let mut level = Level::default();
        let mut clock: Option<Clock> = None;
        let mut inc_ms = 0i64;
        let mut moves: Option<u32> = None;
        let mut unread = false;
        for (name, value) in &line.pairs {
            let bad = |what: &str| format!("level {name}= needs {what}, not '{}'", clip(value));
            let mut error = |message: String| {
                self.error(&message);
                unread = true;
            };
            match name.as_str() {
                "depth" => match value.parse::<i64>() {
                    Ok(d) if d >= 1 => level.depth = Some(d.min(200) as u32),
                    Ok(_) => {
                        error(bad("a depth of at least 1; searching depth 1"));
                        level.depth = Some(1);
                    }
                    Err(_) => error(bad("a depth of at least 1")),
                },
                "nodes" => match value.parse::<i64>() {
                    Ok(n) if n >= 1 => level.nodes = Some(n as u64),
                    Ok(_) => {
                        error(bad("a node count of at least 1; searching 1 node"));
                        level.nodes = Some(1);
                    }
                    Err(_) => error(bad("a node count")),
                },
                "move-time" => match seconds_ms(value) {
                    Some(ms) => level.move_time_ms = Some(ms as u64),
                    None => error(bad("seconds")),
                },
                "time" => match seconds_ms(value) {
                    Some(ms) => {
                        clock = Some(Clock {
                            remaining_ms: ms,
                            ..Clock::default()
                        })
                    }
                    None => error(bad("seconds")),
                },
                "inc" => match seconds_ms(value) {
                    Some(ms) => inc_ms = ms,
                    None => error(bad("seconds")),
                },
                "moves" => match value.parse::<u32>() {
                    Ok(n) => moves = (n > 0).then_some(n),
                    Err(_) => error(bad("a move count")),
                },
                "infinite" => level.infinite = true,
                _ => {} // unknown pairs are ignored (forward compatibility)
            }
        }
        if let Some(mut c) = clock {
            // Hub adds the increment before the move: it is on the clock now, and each later
            // move brings another.
            c.remaining_ms += inc_ms;
            c.increment_ms = inc_ms;
            c.moves_to_go = moves;
            level.clock = Some(c);
        }
        if unread && !level.is_set() {
            level.depth = Some(1);
        }
        self.level = level;
    }

    fn go(&mut self, line: &wire::Line) {
        let mode = line
            .pairs
            .first()
            .map(|(n, _)| n.as_str())
            .unwrap_or("think");
        let (ponder, analyze) = match mode {
            "think" => (false, false),
            "ponder" => (true, false),
            "analyze" => (false, true),
            other => {
                self.error(&format!(
                    "go needs think, ponder or analyze, not '{}'",
                    clip(other)
                ));
                return;
            }
        };
        let level = std::mem::take(&mut self.level);
        let legal = self.engine.legal_moves();
        if legal.len() == 1 && !ponder && !analyze {
            // A forced move is played at once, as Scan does.
            if let Event::Done { lines, .. } = done_event(&self.position, Some(legal[0]), None) {
                for l in lines {
                    self.out.line(&l);
                }
            }
            return;
        }
        let mut limits: Limits<Move> = Limits {
            depth: level.depth,
            nodes: level.nodes,
            movetime_ms: level.move_time_ms,
            clock: level.clock,
            infinite: level.infinite,
            ponder,
            ..Limits::default()
        };
        if analyze && !level.is_set() {
            limits.infinite = true;
        } else if !level.is_set() {
            limits.movetime_ms = Some(DEFAULT_MOVE_TIME_MS);
        }
        self.engine
            .set_moves_left_hint(<Draughts as Game>::moves_left(&self.position));
        let reporter = Arc::new(HubReporter::new(self.events_tx.clone()));
        self.searching = true;
        self.engine.go(limits, reporter);
    }
}

/// The highest `elo`: the top of draughts' calibrated table.
fn elo_max() -> i64 {
    i64::from(tetrarch::games::draughts::strength::ELO.max_elo())
}

/// The limiter of an `elo` (0: none; other values clamped into the table) or, without one, a
/// `skill` level.
pub fn strength_of(elo: i64, skill_level: i64) -> Option<tetrarch::search::Skill> {
    let t = tetrarch::games::draughts::strength::ELO;
    let level = if elo > 0 {
        t.level(elo.min(i64::from(i32::MAX)) as i32)
    } else {
        skill_level as f64
    };
    tetrarch::search::Skill::from_level(level)
}

/// Scan's parameters that mean nothing here: accepted and ignored, not declared.
const SCAN_ONLY: &[&str] = &["book", "book-ply", "book-margin", "bb-size", "tt-size"];

/// Every parameter, in the order `hub` declares them, with its current value as the kind's
/// default (Hub prints current values). A new parameter is one entry here; each setter acts on
/// the session at once (set-param is only run while no search runs).
fn params(s: &Session) -> Vec<Opt<Session>> {
    let o = s.engine.options();
    let mut list: Vec<Opt<Session>> = vec![
        Opt::new("variant", Kind::combo("normal", &["normal"]), |_, _, _| {
            Ok(Effect::Stored)
        }),
        Opt::new("threads", Kind::spin(o.threads as i64, 1, 64), |s, _, x| {
            s.engine.set_threads(x.int() as usize);
            Ok(Effect::Engine)
        }),
        Opt::new("hash", Kind::spin(o.hash_mb as i64, 1, 4096), |s, _, x| {
            let n = x.int();
            s.engine
                .set_hash(n as usize)
                .map_err(|e| format!("hash {n} MB: {e}"))?;
            Ok(Effect::Engine)
        }),
        Opt::new("ponder", Kind::Check(s.ponder), |s, _, x| {
            s.ponder = x.bool();
            Ok(Effect::Stored)
        }),
        // Strength: `elo` through draughts' Elo table (0 = full strength), or `skill`, the level
        // it maps to (0..20, 20 = full), which calibration sets directly.
        Opt::new("elo", Kind::spin(s.elo, 0, elo_max()), |s, _, x| {
            s.elo = x.int();
            s.skill_level = 20;
            s.engine.set_skill(strength_of(s.elo, s.skill_level));
            Ok(Effect::Engine)
        }),
        Opt::new("skill", Kind::spin(s.skill_level, 0, 20), |s, _, x| {
            s.skill_level = x.int();
            s.elo = 0;
            s.engine.set_skill(strength_of(s.elo, s.skill_level));
            Ok(Effect::Engine)
        }),
        Opt::new(
            "move-overhead",
            Kind::spin(o.move_overhead_ms as i64, 0, 5000),
            |s, _, x| {
                s.engine.set_move_overhead(x.int() as u64);
                Ok(Effect::Stored)
            },
        ),
        Opt::new(
            "eval",
            Kind::combo(&s.eval_name, &["full", "material"]),
            |s, _, x| {
                match x.text() {
                    "material" => s.set_eval("material", Eval::material_only()),
                    _ => s.set_eval("full", Eval::default()),
                }
                Ok(Effect::Engine)
            },
        ),
        Opt::new("eval-file", Kind::text(&s.eval_file), |s, _, x| {
            let path = x.text();
            if path.is_empty() {
                s.eval_file.clear();
                s.set_eval("full", Eval::default());
                return Ok(Effect::Engine);
            }
            let weights = std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|text| Weights::handset().parse_over(&text))
                .map_err(|e| format!("eval-file '{}': {e}", clip(path)))?;
            s.eval_file = path.to_string();
            s.set_eval("full", Eval::new(weights));
            Ok(Effect::Engine)
        }),
        // The endgame tables' directory; empty (or `none`) for none.
        Opt::new("bitbases", Kind::text(&s.bitbases_dir), |s, _, x| {
            let dir = x.text().trim();
            let tables = if dir.is_empty() || dir == "none" {
                None
            } else {
                bitbases::load(std::path::Path::new(dir))
                    .map_err(|e| format!("bitbases: {}", clip(&e)))?
            };
            s.bitbases_dir = if tables.is_some() {
                dir.to_string()
            } else {
                String::new()
            };
            s.bitbases = tables;
            let eval = s.engine.evaluator().clone();
            s.set_eval(&s.eval_name.clone(), eval);
            Ok(Effect::Engine)
        }),
    ];
    if cfg!(feature = "tuning") {
        // The search parameters, for SPSA through the match runner; one that draughts has
        // switched off stays off.
        for t in TUNABLE {
            let Some(current) = t.tuned_value(&o.params) else {
                continue;
            };
            let kind = Kind::spin(current as i64, t.min as i64, t.max as i64);
            list.push(Opt::new(t.name, kind, |s, name, x| {
                let mut params = s.engine.options().params;
                params.set(name, x.int() as i32);
                s.engine.set_params(params);
                Ok(Effect::Engine)
            }));
        }
    }
    list
}

/// Hub's spellings: `true`/`false`; errors as `<name> must be ...` with the value clipped.
const DIALECT: Dialect = Dialect {
    truths: &["true"],
    falsehoods: &["false"],
    fold_case: false,
    message: |name, kind, v, _| {
        let v = clip(v.unwrap_or(""));
        match kind {
            Kind::Spin { min, max, .. } => format!("{name} must be {min}-{max}, not '{v}'"),
            Kind::Combo { vars, .. } => format!(
                "{name} '{v}' is not supported (one of: {})",
                vars.join(", ")
            ),
            _ => format!("{name} must be true or false, not '{v}'"),
        }
    },
};

/// The `param ...` line of a declaration: `type=` `bool`, `int` or `real` (with `min=`, `max=`),
/// `enum` (with `values=`) or `string`, after the current value.
fn param_line(p: &Opt<Session>) -> String {
    let (value, kind, extra) = match &p.kind {
        Kind::Check(v) => (v.to_string(), "bool", vec![]),
        Kind::Spin { default, min, max } => (
            default.to_string(),
            "int",
            vec![("min", min.to_string()), ("max", max.to_string())],
        ),
        Kind::Combo { default, vars } => {
            (default.clone(), "enum", vec![("values", vars.join(" "))])
        }
        Kind::Str(v) => (v.clone(), "string", vec![]),
        Kind::Real { default, min, max } => (
            default.to_string(),
            "real",
            vec![("min", min.to_string()), ("max", max.to_string())],
        ),
        Kind::Button => (String::new(), "button", vec![]),
    };
    let mut pairs: Vec<(&str, &str)> = vec![("name", p.name), ("value", &value), ("type", kind)];
    for (k, v) in &extra {
        pairs.push((k, v));
    }
    wire::format("param", &pairs)
}

/// At most 40 characters of a user's text, for error messages.
fn clip(t: &str) -> String {
    if t.chars().count() <= 40 {
        t.to_string()
    } else {
        let mut s: String = t.chars().take(37).collect();
        s.push_str("...");
        s
    }
}
