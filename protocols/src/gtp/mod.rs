//! The GTP v2 front end (Go), with the KGS time and cleanup commands and the analysis
//! extensions Sabaki and Lizzie use.
//!
//! Scheme: a session reads lines from the input channel, preprocesses them as GNU Go does
//! (control characters dropped, tabs to spaces, `#` comments cut, empty lines ignored), splits
//! an optional numeric id, and dispatches on the command name through one table. Answers are
//! `=[id] result` or `?[id] message`, each closed by an empty line. The engine (rules, search,
//! clocks) is [`GoEngine`]; this module only parses and formats.
//!
//! `genmove` and `*genmove_analyze` search in the session thread (input queues meanwhile).
//! Analysis (`lz-analyze`, `kata-analyze`, `analyze`) and pondering lend the engine to a
//! background thread that searches until the next input line arrives, any line at all: the
//! session then stops it, takes the engine back, closes the analysis response with its empty
//! line, and handles the line.

mod format;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tetrarch::game::Side;
use tetrarch::games::go::{
    AnalysisRequest, Decision, GoEngine, Illegal, Record, Settings, Status, TimeControl, MAX_SIZE,
    MIN_SIZE,
};

use crate::io::{Input, Output};
use format::Dialect;

/// Command-line options of `tetrarch gtp`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GtpArgs {
    /// Search threads.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Playouts per move at most.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Milliseconds per move when the controller sets no clock (default 2000).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Think on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// Resign below this winrate (0 never resigns; default 0.1).
    #[arg(long)]
    pub resign: Option<f32>,
    /// Search tree size in nodes.
    #[arg(long)]
    pub max_nodes: Option<usize>,
    /// Seed of the playouts.
    #[arg(long)]
    pub seed: Option<u64>,
    /// No search summary on stderr after each move.
    #[arg(long)]
    pub quiet: bool,
}

impl GtpArgs {
    fn settings(&self) -> Settings {
        let mut s = Settings::default();
        if let Some(t) = self.threads {
            s.threads = t.clamp(1, 256);
        }
        s.max_playouts = self.playouts.filter(|&p| p > 0);
        if let Some(m) = self.movetime {
            s.movetime_ms = m;
        }
        s.ponder = self.ponder;
        if let Some(r) = self.resign {
            s.resign_threshold = r.clamp(0.0, 1.0);
        }
        if let Some(n) = self.max_nodes {
            s.max_nodes = n.clamp(1000, 1 << 28);
        }
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        s
    }
}

/// Every command, in the order `list_commands` gives them.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kata-time_settings",
    "kgs-genmove_cleanup",
    "kgs-rules",
    "kgs-game_over",
    "final_score",
    "final_status_list",
    "showboard",
    "loadsgf",
    "printsgf",
    "lz-analyze",
    "kata-analyze",
    "analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "genmove_analyze",
    "tetrarch-set",
];

/// GNU Go's input preprocessing: control characters other than tab and newline dropped, tab
/// to space, everything from `#` on cut. `None` when nothing is left.
fn preprocess(line: &str) -> Option<String> {
    let cleaned: String = line
        .chars()
        .take_while(|&c| c != '#')
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let t = cleaned.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Splits a preprocessed line into its id and the words of the command.
fn split_id(line: &str) -> (Option<u64>, Vec<&str>) {
    let mut words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
    let id = match words.first() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
            let id = w.parse().ok();
            words.remove(0);
            // An id too large for u64 is still an id; answer without echoing it.
            id.or(Some(u64::MAX))
        }
        _ => None,
    };
    (id, words)
}

/// Whether a first input line is a GTP command (optionally behind a numeric id).
pub fn starts_session(line: &str) -> bool {
    let Some(l) = preprocess(line) else {
        return false;
    };
    let (_, words) = split_id(&l);
    words.first().is_some_and(|w| COMMANDS.contains(w))
}

/// Runs a GTP session until `quit` or end of input. `first` is a line already read.
pub fn run(input: Input, out: Output, first: Option<String>) {
    run_with(input, out, first, &GtpArgs::default());
}

/// Runs a GTP session with command-line options.
pub fn run_with(input: Input, out: Output, first: Option<String>, args: &GtpArgs) {
    let mut s = Session {
        out,
        engine: Some(GoEngine::new(args.settings())),
        verbose: !args.quiet,
        job: None,
        quit: false,
        ponder_next: false,
    };
    let mut pending = first;
    loop {
        let line = match pending.take() {
            Some(l) => l,
            None => match input.recv() {
                Some(l) => l,
                None => break,
            },
        };
        // Any input line ends a running analysis or ponder, even an empty one.
        s.finish_job();
        if let Some(l) = preprocess(&line) {
            s.command(&l);
        }
        if s.quit {
            break;
        }
        s.maybe_ponder();
    }
    s.finish_job();
}

/// A search running in the background.
struct BackgroundSearch {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<GoEngine>,
    /// Whether the response is an analysis stream that still needs its closing empty line.
    analysis: bool,
}

struct Session {
    out: Output,
    /// The engine; `None` only while a job holds it.
    engine: Option<GoEngine>,
    job: Option<BackgroundSearch>,
    quit: bool,
    /// Set when we just moved: the opponent's time starts, pondering may begin.
    ponder_next: bool,
    /// Whether to write a search summary to stderr after each move.
    verbose: bool,
}

type Reply = Result<String, String>;

fn syntax() -> Reply {
    Err("syntax error".into())
}

impl Session {
    fn engine(&mut self) -> &mut GoEngine {
        self.engine.as_mut().expect("engine present outside jobs")
    }

    /// Stops a background search and takes the engine back.
    fn finish_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
            match job.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    // The search thread panicked: keep serving with a fresh engine rather than
                    // dying (the game is lost; say so on stderr).
                    eprintln!("tetrarch: the search thread failed; the game was reset");
                    self.engine = Some(GoEngine::default());
                }
            }
            if job.analysis {
                self.out.line("");
            }
        }
    }

    /// Starts pondering after our move, when enabled and the game goes on.
    fn maybe_ponder(&mut self) {
        if !std::mem::take(&mut self.ponder_next) || self.job.is_some() {
            return;
        }
        let Some(engine) = self.engine.as_ref() else {
            return;
        };
        if !engine.settings.ponder || engine.board().passes() >= 2 {
            return;
        }
        let mut engine = self.engine.take().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::Builder::new()
            .name("ponder".into())
            .spawn(move || {
                engine.ponder(&flag);
                engine
            })
            .expect("spawning the ponder thread");
        self.job = Some(BackgroundSearch {
            stop,
            handle,
            analysis: false,
        });
    }

    fn respond(&self, id: Option<u64>, reply: Reply) {
        let (marker, text) = match reply {
            Ok(t) => ('=', t),
            Err(t) => ('?', t),
        };
        let head = match id {
            Some(i) if i != u64::MAX => format!("{marker}{i}"),
            _ => marker.to_string(),
        };
        // A blank line inside a response would end it early: never send one. (An empty first
        // line is fine: it follows the marker, as in GNU Go's `showboard`.)
        let body: Vec<&str> = text
            .lines()
            .enumerate()
            .filter(|(i, l)| *i == 0 || !l.trim().is_empty())
            .map(|(_, l)| l)
            .collect();
        self.out.line(&format!("{head} {}\n", body.join("\n")));
    }

    fn command(&mut self, line: &str) {
        let (id, words) = split_id(line);
        let Some((&name, args)) = words.split_first() else {
            self.respond(id, syntax());
            return;
        };
        // Streaming commands write their own response.
        match name {
            "lz-analyze" => return self.analyze(id, args, Dialect::Lz),
            "kata-analyze" => return self.analyze(id, args, Dialect::Kata),
            "analyze" => return self.analyze(id, args, Dialect::Sabaki),
            "lz-genmove_analyze" => return self.genmove_analyze(id, args, Dialect::Lz),
            "kata-genmove_analyze" => return self.genmove_analyze(id, args, Dialect::Kata),
            "genmove_analyze" => return self.genmove_analyze(id, args, Dialect::Sabaki),
            _ => {}
        }
        let reply = match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("Tetrarch".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => match args {
                [c] => Ok(COMMANDS.contains(c).to_string()),
                _ => syntax(),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.engine().clear_board();
                Ok(String::new())
            }
            "komi" => match args {
                [k] => match k.parse::<f32>() {
                    Ok(k) if k.is_finite() && k.abs() <= 1000.0 => {
                        self.engine().set_komi(k);
                        Ok(String::new())
                    }
                    _ => Err("komi not a float".into()),
                },
                _ => syntax(),
            },
            "play" => self.play(args),
            "genmove" => self.genmove(args, true, false),
            "reg_genmove" => self.genmove(args, false, false),
            "kgs-genmove_cleanup" => self.genmove(args, true, true),
            "undo" => {
                if self.engine().undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo".into())
                }
            }
            "fixed_handicap" => self.handicap(args, false),
            "place_free_handicap" => self.handicap(args, true),
            "set_free_handicap" => self.set_free_handicap(args),
            "time_settings" => self.time_settings(args),
            "kgs-time_settings" | "kata-time_settings" => self.kgs_time_settings(args),
            "time_left" => self.time_left(args),
            "kgs-rules" => match args {
                [r] if ["chinese", "aga", "japanese", "new_zealand", "tromp-taylor"]
                    .contains(&r.to_ascii_lowercase().as_str()) =>
                {
                    // Area scoring is what we play by; the difference in the count is
                    // at most a point or two and KGS scores by its own rules.
                    Ok(String::new())
                }
                [_] => Err("unknown rules".into()),
                _ => syntax(),
            },
            "kgs-game_over" => Ok(String::new()),
            "final_score" => {
                let s = self.engine().final_score();
                Ok(format_score(s))
            }
            "final_status_list" => self.final_status_list(args),
            "showboard" => Ok(self.showboard()),
            "loadsgf" => self.loadsgf(args),
            "printsgf" => self.printsgf(args),
            "tetrarch-set" => self.set_option(args),
            _ => Err("unknown command".into()),
        };
        self.respond(id, reply);
    }

    fn boardsize(&mut self, args: &[&str]) -> Reply {
        let size = match args {
            [n] => n.parse::<usize>().ok(),
            [a, b] if a == b => a.parse::<usize>().ok(),
            [_, _] => return Err("unacceptable size".into()),
            _ => return syntax(),
        };
        match size {
            Some(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => {
                self.engine().set_board_size(n);
                Ok(String::new())
            }
            Some(_) => Err("unacceptable size".into()),
            None => syntax(),
        }
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let [colour, vertex] = args else {
            return syntax();
        };
        let (Some(side), Some(m)) = (
            parse_colour(colour),
            self.engine().board().parse_vertex(vertex),
        ) else {
            return Err("invalid color or coordinate".into());
        };
        match self.engine().play(side, m) {
            Ok(()) => Ok(String::new()),
            Err(Illegal::OffBoard) => Err("invalid color or coordinate".into()),
            Err(_) => Err("illegal move".into()),
        }
    }

    fn genmove(&mut self, args: &[&str], commit: bool, cleanup: bool) -> Reply {
        let [colour] = args else {
            return syntax();
        };
        let Some(side) = parse_colour(colour) else {
            return Err("invalid color".into());
        };
        let d = self
            .engine()
            .genmove(side, commit, cleanup, None, &mut |_, _| {});
        self.ponder_next = commit && d != Decision::Resign;
        self.summary();
        Ok(self.decision_text(d))
    }

    /// One stderr line about the last search (playouts, speed, winrate, line).
    fn summary(&mut self) {
        if !self.verbose {
            return;
        }
        let engine = self.engine();
        let Some(s) = engine.last_search() else {
            return;
        };
        let b = engine.board();
        let secs = s.elapsed.as_secs_f64().max(1e-3);
        let pv: Vec<String> = s.pv.iter().map(|&m| b.vertex(m).to_uppercase()).collect();
        eprintln!(
            "tetrarch: {} playouts in {:.2} s ({:.0}/s), root {} visits, {} nodes, winrate {:.1}%, \
             score {:+.1}, pv {}",
            s.playouts,
            secs,
            s.playouts as f64 / secs,
            s.root_visits,
            s.nodes,
            100.0 * s.winrate,
            s.score,
            pv.join(" ")
        );
    }

    fn decision_text(&mut self, d: Decision) -> String {
        match d {
            Decision::Play(m) => self.engine().board().vertex(m).to_uppercase(),
            Decision::Pass => "pass".into(),
            Decision::Resign => "resign".into(),
        }
    }

    fn handicap(&mut self, args: &[&str], free: bool) -> Reply {
        let [n] = args else {
            return syntax();
        };
        let Ok(n) = n.parse::<usize>() else {
            return Err("invalid number of stones".into());
        };
        let r = if free {
            self.engine().place_free_handicap(n)
        } else {
            self.engine().fixed_handicap(n)
        };
        match r {
            Ok(stones) => {
                let b = self.engine().board();
                Ok(stones
                    .iter()
                    .map(|&m| b.vertex(m))
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    fn set_free_handicap(&mut self, args: &[&str]) -> Reply {
        let b = self.engine().board();
        let mut stones = Vec::new();
        for a in args {
            match b.parse_vertex(a) {
                Some(m) if !m.is_pass() => stones.push(m),
                _ => return Err("bad vertex list".into()),
            }
        }
        self.engine()
            .set_free_handicap(&stones)
            .map(|_| String::new())
            .map_err(|e| e.to_string())
    }

    fn time_settings(&mut self, args: &[&str]) -> Reply {
        let [main, byo, stones] = args else {
            return syntax();
        };
        let (Some(main), Some(byo), Ok(stones)) =
            (seconds(main), seconds(byo), stones.parse::<u32>())
        else {
            return syntax();
        };
        let tc = if stones == 0 && byo > 0 {
            TimeControl::None
        } else if stones == 0 {
            if main > 0 {
                TimeControl::Absolute { main }
            } else {
                TimeControl::None
            }
        } else {
            TimeControl::Canadian {
                main,
                period: byo,
                stones,
            }
        };
        self.engine().set_time_control(tc);
        Ok(String::new())
    }

    fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
        let Some((&kind, rest)) = args.split_first() else {
            return syntax();
        };
        let nums: Option<Vec<i64>> = rest.iter().map(|a| seconds(a)).collect();
        let Some(nums) = nums else {
            return syntax();
        };
        let count = |i: usize| rest[i].parse::<u32>().ok();
        let tc = match (kind.to_ascii_lowercase().as_str(), nums.as_slice()) {
            ("none", []) => TimeControl::None,
            ("absolute", [main]) => TimeControl::Absolute { main: *main },
            ("byoyomi", [main, period, _]) => match count(2) {
                Some(periods) => TimeControl::Japanese {
                    main: *main,
                    period: *period,
                    periods,
                },
                None => return syntax(),
            },
            ("canadian", [main, period, _]) => match count(2) {
                Some(stones) if stones > 0 => TimeControl::Canadian {
                    main: *main,
                    period: *period,
                    stones,
                },
                _ => return syntax(),
            },
            ("fischer", [main, increment]) | ("fischer-capped", [main, increment, _, _]) => {
                TimeControl::Fischer {
                    main: *main,
                    increment: *increment,
                }
            }
            _ => return syntax(),
        };
        self.engine().set_time_control(tc);
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[&str]) -> Reply {
        let [colour, t, stones] = args else {
            return syntax();
        };
        let (Some(side), Some(ms), Ok(count)) = (
            parse_colour(colour),
            seconds_signed(t),
            stones.parse::<u32>(),
        ) else {
            return syntax();
        };
        self.engine().time_left(side, ms, count);
        Ok(String::new())
    }

    fn final_status_list(&mut self, args: &[&str]) -> Reply {
        let status = match args {
            [s] => match *s {
                "alive" => Status::Alive,
                "dead" => Status::Dead,
                "seki" => Status::Seki,
                _ => return Err("invalid status".into()),
            },
            _ => return syntax(),
        };
        let groups = self.engine().final_status(status);
        let b = self.engine().board();
        Ok(groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|&p| b.point_name(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n"))
    }

    fn showboard(&mut self) -> String {
        let engine = self.engine();
        let b = engine.board();
        let mut s = String::from("\n");
        s.push_str(&b.diagram());
        s.push_str(&format!(
            "\n{} to move, captures black {} white {}, komi {}",
            if b.to_move() == Side::First {
                "Black"
            } else {
                "White"
            },
            b.captures(Side::First),
            b.captures(Side::Second),
            b.komi()
        ));
        s
    }

    fn loadsgf(&mut self, args: &[&str]) -> Reply {
        let (file, until, vertex) = match args {
            [f] => (*f, None, None),
            [f, n] => match n.parse::<usize>() {
                Ok(n) => (*f, Some(n), None),
                Err(_) => (*f, None, Some(*n)),
            },
            _ => return syntax(),
        };
        let text = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => return Err("cannot open file".into()),
        };
        let komi = self.engine().record().komi();
        match Record::from_sgf(&text, until, vertex, komi) {
            Ok(rec) => {
                let side = rec.board().to_move();
                self.engine().set_record(rec);
                Ok(if side == Side::First {
                    "black"
                } else {
                    "white"
                }
                .into())
            }
            Err(e) => Err(format!("cannot load file: {e}")),
        }
    }

    fn printsgf(&mut self, args: &[&str]) -> Reply {
        let sgf = self.engine().record().to_sgf();
        match args {
            [] => Ok(sgf),
            [file] => std::fs::write(file, sgf + "\n")
                .map(|_| String::new())
                .map_err(|_| "cannot write file".into()),
            _ => syntax(),
        }
    }

    fn set_option(&mut self, args: &[&str]) -> Reply {
        if let ["knob", name, value] = args {
            return match value.parse::<i32>() {
                Ok(v) if tetrarch::games::go::knobs::set(name, v) => Ok(String::new()),
                Ok(_) => Err(format!("unknown knob {name}")),
                Err(_) => Err(format!("bad value for {name}")),
            };
        }
        let [name, value] = args else {
            return syntax();
        };
        let bad = || Err::<String, String>(format!("bad value for {name}"));
        let s = &mut self.engine().settings;
        match *name {
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=256).contains(&t) => s.threads = t,
                _ => return bad(),
            },
            "playouts" => match value.parse::<u64>() {
                Ok(p) => s.max_playouts = (p > 0).then_some(p),
                _ => return bad(),
            },
            "movetime" => match value.parse::<u64>() {
                Ok(m) => s.movetime_ms = m,
                _ => return bad(),
            },
            "ponder" => match *value {
                "true" | "on" | "1" => s.ponder = true,
                "false" | "off" | "0" => s.ponder = false,
                _ => return bad(),
            },
            "resign" => match value.parse::<f32>() {
                Ok(r) if (0.0..=1.0).contains(&r) => s.resign_threshold = r,
                _ => return bad(),
            },
            "max_nodes" => match value.parse::<usize>() {
                Ok(n) if (1000..=1 << 28).contains(&n) => s.max_nodes = n,
                _ => return bad(),
            },
            "seed" => match value.parse::<u64>() {
                Ok(v) => s.seed = v,
                _ => return bad(),
            },
            "overhead" => match value.parse::<u64>() {
                Ok(v) if v <= 60_000 => s.overhead_ms = v,
                _ => return bad(),
            },
            // Search parameters, for tuning.
            "expand_visits" => match value.parse::<u32>() {
                Ok(v) if (1..=10_000).contains(&v) => s.expand_visits = Some(v),
                _ => return bad(),
            },
            "rave_equiv" | "explore" | "amaf_distance" | "prior_in_amaf" => {
                let Ok(v) = value.parse::<f32>() else {
                    return bad();
                };
                if !v.is_finite() || v < 0.0 {
                    return bad();
                }
                let c = self.engine().search_config();
                match *name {
                    "rave_equiv" => c.rave_equiv = v.max(1.0),
                    "explore" => c.explore = v,
                    "amaf_distance" => c.amaf_distance = v,
                    _ => c.prior_in_amaf = v != 0.0,
                }
                return Ok(String::new());
            }
            _ => return Err(format!("unknown option {name}")),
        }
        self.engine().apply_settings();
        Ok(String::new())
    }

    // -----------------------------------------------------------------------------------------
    // Analysis

    fn analyze(&mut self, id: Option<u64>, args: &[&str], dialect: Dialect) {
        let to_move = self.engine().board().to_move();
        let params = match format::parse_analysis_args(args, to_move, self.engine().board()) {
            Ok(p) => p,
            Err(e) => return self.respond(id, Err(e)),
        };
        let head = match id {
            Some(i) if i != u64::MAX => format!("={i}"),
            _ => "=".to_string(),
        };
        self.out.line(&head);
        let mut engine = self.engine.take().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let out = self.out.clone();
        let handle = std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                let request = AnalysisRequest {
                    interval: params.interval,
                    allow: params.allow.clone(),
                    avoid: params.avoid.clone(),
                };
                engine.analyze(params.side, &request, &flag, &mut |b, snap| {
                    if let Some(l) = format::info_line(b, snap, dialect, &params) {
                        out.line(&l);
                    }
                });
                engine
            })
            .expect("spawning the analysis thread");
        self.job = Some(BackgroundSearch {
            stop,
            handle,
            analysis: true,
        });
    }

    fn genmove_analyze(&mut self, id: Option<u64>, args: &[&str], dialect: Dialect) {
        let to_move = self.engine().board().to_move();
        let params = match format::parse_analysis_args(args, to_move, self.engine().board()) {
            Ok(p) if !args.is_empty() && parse_colour(args[0]).is_some() => p,
            Ok(_) => return self.respond(id, syntax()),
            Err(e) => return self.respond(id, Err(e)),
        };
        let head = match id {
            Some(i) if i != u64::MAX => format!("={i}"),
            _ => "=".to_string(),
        };
        self.out.line(&head);
        let out = self.out.clone();
        let interval = (params.interval > Duration::ZERO).then_some(params.interval);
        let d = self
            .engine()
            .genmove(params.side, true, false, interval, &mut |b, snap| {
                if let Some(l) = format::info_line(b, snap, dialect, &params) {
                    out.line(&l);
                }
            });
        self.ponder_next = d != Decision::Resign;
        self.summary();
        let text = self.decision_text(d);
        self.out.line(&format!("play {text}\n"));
    }
}

fn parse_colour(s: &str) -> Option<Side> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Side::First),
        "w" | "white" => Some(Side::Second),
        _ => None,
    }
}

/// Seconds (integer or decimal, not negative) as milliseconds.
fn seconds(s: &str) -> Option<i64> {
    seconds_signed(s).filter(|&ms| ms >= 0)
}

/// Seconds (a late clock may be negative) as milliseconds.
fn seconds_signed(s: &str) -> Option<i64> {
    let v: f64 = s.parse().ok()?;
    (v.is_finite() && v.abs() < 1e9).then(|| (v * 1000.0).round() as i64)
}

/// A margin for Black as GTP writes it: `B+3.5`, `W+0.5`, `0`.
fn format_score(s: f32) -> String {
    if s > 0.0 {
        format!("B+{}", trim_float(s))
    } else if s < 0.0 {
        format!("W+{}", trim_float(-s))
    } else {
        "0".into()
    }
}

fn trim_float(v: f32) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}
