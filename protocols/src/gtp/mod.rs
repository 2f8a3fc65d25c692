//! The GTP v2 front end (Go), with the KGS time and cleanup commands and the analysis
//! extensions Sabaki and Lizzie use.
//!
//! Scheme: a session reads lines from the input channel, preprocesses them as GNU Go does
//! (control characters dropped, tabs to spaces, `#` comments cut, empty lines ignored), splits
//! an optional numeric id, and dispatches on the command name through one table. Answers are
//! `=[id] result` or `?[id] message`, each closed by an empty line. The player (rules, search,
//! clocks, and the search thread) is [`GoBot`]; this module only parses and formats, and starts
//! no thread.
//!
//! `genmove` and `*genmove_analyze` ask the bot for a move and wait for it while watching the
//! input: lines that arrive meanwhile queue, and the end of input stops the search at once (the
//! move is still answered, from what the search found; queued commands are answered too, and
//! any search they ask for stops at once). Analysis (`lz-analyze`, `kata-analyze`, `analyze`)
//! and pondering run on the bot's thread until the next input line arrives, any line at all:
//! the session then stops the search, closes the analysis response with its empty line, and
//! handles the line.

mod format;
mod options;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::time::Duration;

use crossbeam::channel;
use tetrarch::game::Side;
use tetrarch::games::go::strength::{self, Strength};
use tetrarch::games::go::{
    AnalysisRequest, Decision, Ended, GoBot, GoEngine, Illegal, MoveRequest, OnProgress, Record,
    SearchFailed, Settings, Status, TimeControl, MAX_SIZE, MIN_SIZE,
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
    /// Milliseconds per move when the controller sets no clock (default 2000; none with
    /// `--playouts`, `--rank` or `--level`, which fix the effort).
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
    /// Play at a rank (`15k`, `1d`, ...; see README for the calibrated range), at fixed
    /// playouts so that it holds on any machine.
    #[arg(long, value_parser = parse_rank_arg)]
    pub rank: Option<String>,
    /// Play at a strength level, 0 (weakest) to 20 (full; what `--rank` maps to).
    #[arg(long)]
    pub level: Option<f64>,
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
        if let Some(level) = self.level {
            s.strength = Strength::from_level(level.clamp(0.0, 20.0));
        }
        if let Some(rank) = &self.rank {
            s.strength = options::rank_strength(rank).unwrap_or_default();
        }
        // A playout cap asked for on the command line is a fixed effort: with no clock from
        // the controller it is not cut short by the default move time (on a slow or loaded
        // machine it would be), unless `--movetime` is given too.
        if self.movetime.is_none() && (s.max_playouts.is_some() || s.strength != Strength::Full) {
            s.movetime_ms = tetrarch::time::MAX_CLOCK_MS as u64;
        }
        s
    }
}

/// `--rank`: checked when the command line is read.
fn parse_rank_arg(text: &str) -> Result<String, String> {
    match options::rank_strength(text) {
        Some(_) => Ok(text.to_string()),
        None => Err(format!(
            "not a rank this engine offers ({})",
            options::rank_range()
        )),
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

/// Splits a preprocessed line into its id and the words of the command. The spec's id is a
/// run of digits of any length: it is kept as text (leading zeros dropped, as GNU Go's integer
/// drops them), so every id is echoed, however large.
fn split_id(line: &str) -> (Option<String>, Vec<&str>) {
    let mut words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
    let id = match words.first() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
            let digits = w.trim_start_matches('0');
            let id = if digits.is_empty() { "0" } else { digits };
            let id = id.to_string();
            words.remove(0);
            Some(id)
        }
        _ => None,
    };
    (id, words)
}

/// The start of a response: the marker (`=` or `?`), then the id if the command had one.
fn head(marker: char, id: Option<&str>) -> String {
    match id {
        Some(i) => format!("{marker}{i}"),
        None => marker.to_string(),
    }
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
        input,
        queued: first.into_iter().collect(),
        input_closed: false,
        bot: GoBot::new(args.settings()),
        analysis_open: false,
        verbose: !args.quiet,
        quit: false,
        ponder_next: false,
    };
    while let Some(line) = s.next_line() {
        // Any input line ends a running analysis or ponder, even an empty one.
        s.end_search();
        if let Some(l) = preprocess(&line) {
            s.command(&l);
        }
        if s.quit {
            break;
        }
        s.maybe_ponder();
    }
    s.end_search();
}

struct Session {
    out: Output,
    input: Input,
    /// Lines read while a `genmove` searched, to handle next, in order.
    queued: VecDeque<String>,
    /// The input has ended (the controller is gone): searches stop at once.
    input_closed: bool,
    bot: GoBot,
    /// An analysis response is streaming and still needs its closing empty line.
    analysis_open: bool,
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
    /// The engine, once any search has stopped.
    fn engine(&mut self) -> &mut GoEngine {
        self.bot.engine()
    }

    /// The next line to handle: a queued one, else one from the input; `None` at the end.
    fn next_line(&mut self) -> Option<String> {
        if let Some(l) = self.queued.pop_front() {
            return Some(l);
        }
        if self.input_closed {
            return None;
        }
        let line = self.input.recv();
        self.input_closed = line.is_none();
        line
    }

    /// Stops an analysis or ponder, if one runs, and closes an analysis response.
    fn end_search(&mut self) {
        if self.bot.stop_and_wait() == Some(Ended::Failed) {
            eprintln!("tetrarch: the search failed; the game goes on");
        }
        if std::mem::take(&mut self.analysis_open) {
            self.out.line("");
        }
    }

    /// Starts pondering after our move, when enabled and the game goes on.
    fn maybe_ponder(&mut self) {
        if !std::mem::take(&mut self.ponder_next) || self.input_closed {
            return;
        }
        let engine = self.engine();
        if engine.settings.ponder && engine.board().passes() < 2 {
            self.bot.ponder();
        }
    }

    /// Asks the bot for a move and waits for it, queueing the lines that arrive meanwhile; the
    /// end of input stops the search at once.
    fn think(
        &mut self,
        request: MoveRequest,
        progress: OnProgress,
    ) -> Result<Decision, SearchFailed> {
        let (tx, rx) = channel::bounded(1);
        self.bot.genmove_async(
            request,
            progress,
            Box::new(move |d| {
                let _ = tx.send(d);
            }),
        );
        while !self.input_closed {
            channel::select! {
                recv(rx) -> d => return d.unwrap_or(Err(SearchFailed)),
                recv(self.input.receiver()) -> line => match line {
                    Ok(l) => self.queued.push_back(l),
                    Err(_) => self.input_closed = true,
                },
            }
        }
        self.bot.stop();
        rx.recv().unwrap_or(Err(SearchFailed))
    }

    fn respond(&self, id: Option<&str>, reply: Reply) {
        let (marker, text) = match reply {
            Ok(t) => ('=', t),
            Err(t) => ('?', t),
        };
        let head = head(marker, id);
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
        let id = id.as_deref();
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
        let request = MoveRequest {
            side,
            commit,
            cleanup,
            interval: None,
        };
        let d = self.think(request, Box::new(|_, _| {})).map_err(|e| {
            eprintln!("tetrarch: {e}; the game goes on");
            e.to_string()
        })?;
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
        // In a handicap game the search played for a shifted komi (the winrate and score are
        // the real komi's all the same).
        let dynkomi = if s.komi_shift != 0.0 {
            format!(", dynamic komi {:+}", s.komi_shift)
        } else {
            String::new()
        };
        // A rank beyond what this board size is calibrated for plays at the table's end.
        let rank = match engine.settings.strength.clamped_rank(b.size()) {
            Some((asked, played)) => format!(
                ", rank {} plays as {} on this board size",
                strength::rank_text(asked),
                strength::rank_text(played)
            ),
            None => String::new(),
        };
        eprintln!(
            "tetrarch: {} playouts in {:.2} s ({:.0}/s), root {} visits, {} nodes, winrate {:.1}%, \
             score {:+.1}, pv {}{dynkomi}{rank}",
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
        let table = options::table();
        match crate::options::set(&table, self.engine(), name, Some(value), &options::DIALECT) {
            Some(Ok(crate::options::Effect::Stored)) => {}
            Some(Ok(_)) => self.engine().apply_settings(),
            Some(Err(e)) => return Err(e),
            None => return Err(format!("unknown option {name}")),
        }
        Ok(String::new())
    }

    // -----------------------------------------------------------------------------------------
    // Analysis

    fn analyze(&mut self, id: Option<&str>, args: &[&str], dialect: Dialect) {
        let to_move = self.engine().board().to_move();
        let params = match format::parse_analysis_args(args, to_move, self.engine().board()) {
            Ok(p) => p,
            Err(e) => return self.respond(id, Err(e)),
        };
        self.out.line(&head('=', id));
        let request = AnalysisRequest {
            interval: params.interval,
            allow: params.allow.clone(),
            avoid: params.avoid.clone(),
            ..AnalysisRequest::default()
        };
        let out = self.out.clone();
        self.bot.analyze_async(
            params.side,
            request,
            Box::new(move |b, snap| {
                if let Some(l) = format::info_line(b, snap, dialect, &params) {
                    out.line(&l);
                }
            }),
        );
        self.analysis_open = true;
    }

    fn genmove_analyze(&mut self, id: Option<&str>, args: &[&str], dialect: Dialect) {
        let to_move = self.engine().board().to_move();
        let params = match format::parse_analysis_args(args, to_move, self.engine().board()) {
            Ok(p) if !args.is_empty() && parse_colour(args[0]).is_some() => p,
            Ok(_) => return self.respond(id, syntax()),
            Err(e) => return self.respond(id, Err(e)),
        };
        self.out.line(&head('=', id));
        let out = self.out.clone();
        let request = MoveRequest {
            side: params.side,
            commit: true,
            cleanup: false,
            interval: (params.interval > Duration::ZERO).then_some(params.interval),
        };
        let progress: OnProgress = Box::new(move |b, snap| {
            if let Some(l) = format::info_line(b, snap, dialect, &params) {
                out.line(&l);
            }
        });
        match self.think(request, progress) {
            Ok(d) => {
                self.ponder_next = d != Decision::Resign;
                self.summary();
                let text = self.decision_text(d);
                self.out.line(&format!("play {text}\n"));
            }
            Err(e) => {
                // The stream is open: close it; the failure goes to stderr.
                eprintln!("tetrarch: {e}; the game goes on");
                self.out.line("");
            }
        }
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
