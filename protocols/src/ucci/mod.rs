//! The UCCI front end (xiangqi), after UCCI 3.0 and ElephantEye's reading of it.
//!
//! Scheme: as the UCI loop, lines arrive on the `io::Input` channel, so `isready`, `stop`,
//! `ponderhit` and `probe` are answered while the engine thinks. UCCI's three states are kept:
//! before `ucci` (boot: commands are still served, for scripts that skip it), idle, and
//! thinking (a search is running), where only `isready`, `ponderhit [draw]`, `stop`, `probe`
//! and `quit` are valid; anything else is refused with an error and changes nothing, so no game
//! state is lost. With `batch` on, a bounded search (not `infinite`, not `ponder`) is waited for
//! before the next line is read, so scripted sessions run in order.
//!
//! Commands: `ucci`, `isready`, `setoption <name> [<value>]`, `position {fen <FEN> | startpos}
//! [moves ...]` (which clears `banmoves`), `banmoves`, `go [ponder | draw] {depth <d> |
//! nodes <n> | time <t> [movestogo <n> | increment <i>] [opptime <t> ...] | infinite}`,
//! `ponderhit [draw]`, `stop` (`nobestmove` when idle), `probe {fen ... | startpos} [moves ...]`
//! (answered with `pophash`), `quit` (answered `bye`). Lenient extras: `newgame` and
//! `uccinewgame` as commands, bare `fen ...`/`startpos ...` lines as `position`, and UCI-style
//! `wtime`/`btime`/`winc`/`binc`/`movetime` in `go`, as Fairy-Stockfish accepts.
//!
//! Times are seconds unless `usemillisec` is on (the UCCI default); a "seconds" value above
//! ten hours can only be milliseconds from a GUI that did not say so, and is read as such with
//! a note. `go depth 0` prints the static evaluation and `nobestmove`. Errors are written as
//! `info message error: ...` (UCCI's free-text info line) and the session goes on.

mod format;
mod options;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tetrarch::game::{Evaluator, Notation, Position};
use tetrarch::games::xiangqi::{Board, Move, XiangqiEval};
use tetrarch::limits::Limits;
use tetrarch::score::{from_tt, is_decisive};
use tetrarch::search::{Engine, Options};
use tetrarch::time::Clock;
use tetrarch::tt::Bound;

use crate::io::{Input, Output};
use crate::options::Effect;
use format::{score_text, UcciReporter};
use options::{declaration_line, table, Values};

/// Runs a UCCI session until `quit` or end of input. `first` is a line already read.
pub fn run(input: Input, out: Output, first: Option<String>) {
    let mut ucci = Ucci::new(out);
    let mut go_on = first.is_none_or(|line| ucci.handle(&line));
    while go_on {
        match input.recv() {
            Some(line) => go_on = ucci.handle(&line),
            None => break,
        }
    }
    ucci.shutdown();
}

/// Commands accepted while thinking.
const WHILE_THINKING: [&str; 6] = ["isready", "ponderhit", "stop", "probe", "quit", "bye"];

/// How many seconds a UCCI clock may plausibly hold before it must be milliseconds.
const MAX_SECONDS: f64 = 36_000.0;

pub struct Ucci {
    out: Output,
    options: Values,
    engine: Option<Engine<Board, XiangqiEval>>,
    /// Moves banned in the current position (cleared by `position`).
    banmoves: Vec<Move>,
    /// The opponent's draw offer for the running search.
    draw_offered: Arc<AtomicBool>,
}

impl Ucci {
    pub fn new(out: Output) -> Ucci {
        Ucci {
            out,
            options: Values::default(),
            engine: None,
            banmoves: Vec::new(),
            draw_offered: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The engine, built on first use (so `ucci` then `quit` allocates no table).
    fn engine(&mut self) -> &mut Engine<Board, XiangqiEval> {
        let o = &self.options;
        self.engine.get_or_insert_with(|| {
            let mut start = Board::start();
            start.set_move_limit(2 * o.draw_moves);
            let eval = o
                .weights()
                .map_or_else(XiangqiEval::default, |w| XiangqiEval::new(Arc::new(w)));
            Engine::with_options(
                start,
                eval,
                Options {
                    threads: o.threads,
                    hash_mb: o.hash_mb,
                    move_overhead_ms: o.move_overhead_ms,
                    skill: o.skill(),
                    params: o.params(),
                    moves_left_hint:
                        <tetrarch::games::Xiangqi as tetrarch::games::Game>::MOVES_LEFT,
                    ..Options::default()
                },
            )
        })
    }

    /// Whether a search is on for the GUI: not once its answer is out, even while its threads
    /// still wind down, since the GUI may send its next `position` and `go` the moment it reads
    /// `bestmove` (the engine facade waits for those threads; see `Engine::is_searching`).
    fn thinking(&mut self) -> bool {
        self.engine.as_mut().is_some_and(|e| e.is_searching())
    }

    fn error(&self, text: &str) {
        self.out.line(&format!("info message error: {text}"));
    }

    fn note(&self, text: &str) {
        self.out.line(&format!("info message {text}"));
    }

    /// Ends a running search (its best move is printed) before the session ends.
    fn shutdown(&mut self) {
        if let Some(e) = self.engine.as_mut() {
            e.stop_and_wait();
        }
    }

    /// Handles one input line; false when the session ends.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let Some(cmd) = line.split_whitespace().next() else {
            return true;
        };
        let rest = line[cmd.len()..].trim();
        if cmd != "stop" && self.thinking() && !WHILE_THINKING.contains(&cmd) {
            self.error(&format!(
                "'{cmd}' is not accepted while thinking (send stop first)"
            ));
            return true;
        }
        match cmd {
            "ucci" => {
                self.out
                    .line(&format!("id name Tetrarch {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id copyright GPL-3.0-or-later");
                self.out.line("id author The Tetrarch developers");
                for d in table() {
                    self.out.line(&declaration_line(&d));
                }
                self.out.line("ucciok");
            }
            "isready" => {
                self.engine();
                self.out.line("readyok");
            }
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "fen" | "startpos" => self.position(line),
            "banmoves" => self.banmoves(rest),
            "go" => self.go(rest),
            "ponderhit" => {
                if rest == "draw" {
                    self.draw_offered.store(true, Ordering::Relaxed);
                } else if !rest.is_empty() {
                    self.error(&format!("ponderhit takes nothing or 'draw', not '{rest}'"));
                }
                if let Some(e) = self.engine.as_ref() {
                    e.ponderhit();
                }
            }
            "stop" => {
                // A `stop` that crossed the answer (the threads still wind down) stays silent;
                // only one sent when idle is answered `nobestmove`.
                let running = self.engine.as_mut().is_some_and(|e| e.is_running());
                if let (true, Some(e)) = (running, self.engine.as_ref()) {
                    e.stop();
                } else {
                    self.out.line("nobestmove");
                }
            }
            "probe" => self.probe(rest),
            "newgame" | "uccinewgame" => self.engine().new_game(),
            "quit" | "bye" => {
                self.shutdown();
                self.out.line("bye");
                return false;
            }
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        true
    }

    fn setoption(&mut self, rest: &str) {
        let mut next = self.options.clone();
        let effect = match next.set(rest) {
            Ok(Some(e)) => e,
            Ok(None) => {
                let name = rest.split_whitespace().next().unwrap_or("");
                eprintln!("tetrarch: ucci option '{name}' is not known here; ignored");
                return;
            }
            Err(e) => return self.error(&e),
        };
        let knowledge_before = self.options.knowledge;
        self.options = next;
        let o = self.options.clone();
        match effect {
            Effect::Engine => {
                if let Some(e) = self.engine.as_mut() {
                    e.set_threads(o.threads);
                    e.set_move_overhead(o.move_overhead_ms);
                    e.set_skill(o.skill());
                    e.set_params(o.params());
                    if o.knowledge != knowledge_before {
                        let eval = o
                            .weights()
                            .map_or_else(XiangqiEval::default, |w| XiangqiEval::new(Arc::new(w)));
                        e.set_evaluator(eval);
                    }
                    if let Err(err) = e.set_hash(o.hash_mb) {
                        // The engine kept its old table: say so and keep the option truthful.
                        self.options.hash_mb = e.options().hash_mb;
                        self.error(&format!("hashsize {} MB: {err}", o.hash_mb));
                    }
                }
            }
            Effect::Rules => {
                if let Some(e) = self.engine.as_mut() {
                    let mut pos = e.position().clone();
                    pos.set_move_limit(2 * o.draw_moves);
                    e.set_position(pos, &[]);
                }
            }
            Effect::NewGame => self.engine().new_game(),
            // (UCCI declares no option with these effects.)
            Effect::ClearHash => {
                if let Some(e) = self.engine.as_mut() {
                    e.clear_hash();
                }
            }
            Effect::Variant => {}
            Effect::Note(text) => self.note(&text),
            Effect::Stored => {}
        }
    }

    /// Reads `{fen <FEN> | startpos} [moves ...]` into a board.
    fn read_position(&self, args: &str) -> Result<Board, String> {
        let tokens: Vec<&str> = args.split_whitespace().collect();
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let head = &tokens[..moves_at.unwrap_or(tokens.len())];
        let mut pos = match head.first() {
            Some(&"startpos") if head.len() == 1 => Board::start(),
            Some(&"startpos") => return Err(format!("unexpected '{}' after startpos", head[1])),
            Some(&"fen") if head.len() > 1 => {
                Board::from_text(&head[1..].join(" ")).map_err(|e| e.to_string())?
            }
            Some(&"fen") => return Err("fen needs a position".into()),
            Some(other) => return Err(format!("expected startpos or fen, not '{other}'")),
            None => return Err("expected startpos or fen".into()),
        };
        pos.set_move_limit(2 * self.options.draw_moves);
        if let Some(at) = moves_at {
            for (i, text) in tokens[at + 1..].iter().enumerate() {
                let m = pos
                    .parse_move(text)
                    .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
                let _undo = pos.make(m);
            }
        }
        Ok(pos)
    }

    fn position(&mut self, args: &str) {
        match self.read_position(args) {
            Ok(pos) => {
                self.banmoves.clear();
                self.engine().set_position(pos, &[]);
            }
            Err(e) => self.error(&e),
        }
    }

    fn banmoves(&mut self, args: &str) {
        let pos = self.engine().position().clone();
        let mut banned = Vec::new();
        for text in args.split_whitespace() {
            match pos.parse_move(text) {
                Ok(m) => banned.push(m),
                Err(e) => return self.error(&format!("banmoves {text}: {e}")),
            }
        }
        self.banmoves = banned;
    }

    /// A time in the session's unit, as milliseconds.
    fn millis(&self, text: &str) -> Result<i64, String> {
        let v: f64 = text
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("'{text}' is not a time"))?;
        if self.options.millisec {
            Ok(v as i64)
        } else if v > MAX_SECONDS {
            self.note(&format!(
                "time {text} read as milliseconds (seconds would be over ten hours)"
            ));
            Ok(v as i64)
        } else {
            Ok((v * 1000.0) as i64)
        }
    }

    fn go(&mut self, args: &str) {
        let tokens: Vec<&str> = args.split_whitespace().collect();
        let mut limits = Limits::<Move> {
            banmoves: self.banmoves.clone(),
            ..Limits::default()
        };
        let mut draw = false;
        let mut time: Option<i64> = None;
        let mut inc = 0i64;
        let mut mtg: Option<u32> = None;
        let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0i64, 0i64);
        let mut depth_zero = false;
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            i += 1;
            let takes_value = !matches!(key, "ponder" | "draw" | "infinite");
            let value = if takes_value {
                let Some(v) = tokens.get(i) else {
                    return self.error(&format!("go {key} needs a value"));
                };
                i += 1;
                Some(*v)
            } else {
                None
            };
            let v = value.unwrap_or("");
            let number = |v: &str| -> Result<i64, String> {
                v.parse::<i64>()
                    .map_err(|_| format!("go {key} needs a whole number, not '{v}'"))
            };
            let result: Result<(), String> = (|| {
                match key {
                    "ponder" => limits.ponder = true,
                    "draw" => draw = true,
                    "infinite" => limits.infinite = true,
                    "depth" => {
                        let d = number(v)?;
                        if d <= 0 {
                            depth_zero = true;
                        } else {
                            limits.depth = Some(d as u32);
                        }
                    }
                    "nodes" => limits.nodes = Some(number(v)?.max(1) as u64),
                    "time" => time = Some(self.millis(v)?),
                    "increment" => inc = self.millis(v)?,
                    "movestogo" => mtg = Some(number(v)?.max(1) as u32),
                    "opptime" | "oppincrement" | "oppmovestogo" => {
                        // The opponent's clock: validated, not used by the time manager.
                        self.millis(v)?;
                    }
                    "wtime" => wtime = Some(number(v)?),
                    "btime" => btime = Some(number(v)?),
                    "winc" => winc = number(v)?,
                    "binc" => binc = number(v)?,
                    "movetime" => limits.movetime_ms = Some(number(v)?.max(0) as u64),
                    other => return Err(format!("go: unknown token '{other}'")),
                }
                Ok(())
            })();
            if let Err(e) = result {
                return self.error(&e);
            }
        }
        if draw && limits.ponder {
            return self.error("go: ponder and draw exclude each other");
        }
        let pos = self.engine().position().clone();
        if depth_zero {
            let v = XiangqiEval::default().evaluate(&pos);
            self.out
                .line(&format!("info depth 0 score {}", score_text(v)));
            self.out.line("nobestmove");
            return;
        }
        let red = pos.side_to_move() == tetrarch::game::Side::First;
        if time.is_none() {
            let (t, i) = if red { (wtime, winc) } else { (btime, binc) };
            if t.is_some() {
                time = t;
                inc = i;
            }
        }
        if let Some(t) = time {
            limits.clock = Some(Clock {
                remaining_ms: t,
                increment_ms: inc,
                moves_to_go: mtg,
                byoyomi: None,
            });
        }
        let legal = pos.legal_moves();
        if !legal.is_empty() && legal.iter().all(|m| self.banmoves.contains(m)) {
            self.note("every legal move is banned");
            self.out.line("nobestmove");
            return;
        }
        self.draw_offered.store(draw, Ordering::Relaxed);
        let bounded = !limits.infinite && !limits.ponder;
        let reporter = Arc::new(UcciReporter::new(
            self.out.clone(),
            self.draw_offered.clone(),
        ));
        let batch = self.options.batch;
        let engine = self.engine();
        engine.go(limits, reporter);
        if batch && bounded {
            engine.wait();
        }
    }

    fn probe(&mut self, args: &str) {
        let pos = match self.read_position(args) {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let hit = self.engine().probe(pos.key());
        let Some(h) = hit else {
            self.out.line("pophash");
            return;
        };
        let mut s = String::from("pophash");
        if let Some(m) = h.mv.and_then(|bits| pos.unpack(bits)) {
            if pos.is_legal(m) {
                s.push_str(&format!(" bestmove {}", pos.move_text(m)));
            }
        }
        // Entries written only to cache an evaluation carry no search score.
        let stored = h.score != -32_767;
        if stored {
            let v = from_tt(h.score, 0);
            let text = if is_decisive(v) {
                score_text(v)
            } else {
                v.to_string()
            };
            let depth = h.depth.max(0);
            if matches!(h.bound, Bound::Lower | Bound::Exact) {
                s.push_str(&format!(" lowerbound {text} depth {depth}"));
            }
            if matches!(h.bound, Bound::Upper | Bound::Exact) {
                s.push_str(&format!(" upperbound {text} depth {depth}"));
            }
        }
        self.out.line(&s);
    }
}
