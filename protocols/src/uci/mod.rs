//! The UCI front end: chess, and xiangqi in Fairy-Stockfish's dialect (`UCI_Variant`).
//!
//! Scheme: the loop reads lines from the `io::Input` channel (fed by the stdin reader
//! thread), so it is never blocked by a search: `isready` is answered and `stop` or
//! `ponderhit` reach the engine while it thinks. Commands only parse and format; the game
//! behind them is a `session::Driver` trait object created lazily (the first command that
//! needs the engine), so `uci` followed by `quit` costs no hash allocation and nothing but
//! `id` and `option` lines precede `uciok`. Every malformed line is answered with
//! `info string error: ...` and the session goes on with its state unchanged; an unknown
//! first token is skipped when a known command follows it (as the UCI text asks).
//! `setoption name UCI_Variant value xiangqi` ends the current game's driver (stopping its
//! search) and the next command builds the other game's, at its start position.

mod chess;
mod format;
mod genfens;
mod options;
mod session;
#[cfg(test)]
mod tests;
mod xiangqi;
#[cfg(test)]
mod xiangqi_tests;

use crate::io::{Input, Output};
use crate::options::Effect;
use options::{declaration_line, split_setoption, table, Values};
use session::{Driver, Game};

pub use chess::Chess;
pub use xiangqi::Xiangqi;

const COMMANDS: [&str; 14] = [
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "register",
    "d",
    "eval",
    "genfens",
];

/// Runs a UCI session until `quit` or end of input. `first` is a line already read.
pub fn run(input: Input, out: Output, first: Option<String>) {
    let mut uci = Uci::new(out);
    let mut go_on = first.is_none_or(|line| uci.handle(&line));
    while go_on {
        match input.recv() {
            Some(line) => go_on = uci.handle(&line),
            None => break,
        }
    }
    uci.quit();
}

pub struct Uci {
    out: Output,
    options: Values,
    driver: Option<Box<dyn Driver>>,
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        Uci {
            out,
            options: Values::default(),
            driver: None,
        }
    }

    fn driver(&mut self) -> &mut dyn Driver {
        let options = &self.options;
        self.driver
            .get_or_insert_with(|| -> Box<dyn Driver> {
                match options.variant {
                    "xiangqi" => Box::new(Game::<Xiangqi>::new(options)),
                    _ => Box::new(Game::<Chess>::new(options)),
                }
            })
            .as_mut()
    }

    fn error(&self, text: &str) {
        self.out.line(&format!("info string error: {text}"));
    }

    fn quit(&mut self) {
        if let Some(d) = self.driver.as_mut() {
            d.stop();
            d.wait();
        }
    }

    /// Handles one input line; false when the session ends.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            return true;
        }
        let Some(at) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            self.error(&format!("unknown command '{}'", tokens[0]));
            return true;
        };
        if at > 0 {
            self.error(&format!("ignored unknown '{}'", tokens[..at].join(" ")));
        }
        let cmd = tokens[at];
        // The arguments as written (names and values may hold spaces).
        let rest = {
            let mut s = line.trim_start();
            for _ in 0..=at {
                s = s.trim_start();
                s = &s[s.find(char::is_whitespace).unwrap_or(s.len())..];
            }
            s.trim()
        };
        match cmd {
            "uci" => {
                self.out
                    .line(&format!("id name Tetrarch {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author The Tetrarch developers");
                for d in table() {
                    self.out.line(&declaration_line(&d));
                }
                self.out.line("uciok");
            }
            "isready" => {
                // Deferred initialisation happens here, before the answer.
                self.driver();
                self.out.line("readyok");
            }
            "setoption" => self.setoption(rest),
            "ucinewgame" => self.driver().new_game(),
            "position" => {
                let options = self.options.clone();
                if let Err(e) = self.driver().position(rest, &options) {
                    self.error(&e);
                }
            }
            "go" => {
                let options = self.options.clone();
                let out = self.out.clone();
                self.driver().go(rest, &options, &out);
            }
            "stop" => {
                if let Some(d) = self.driver.as_mut() {
                    d.stop();
                }
            }
            "ponderhit" => {
                if let Some(d) = self.driver.as_mut() {
                    d.ponderhit();
                }
            }
            "quit" => return false,
            "debug" | "register" => {}
            "d" => {
                let (variant, text) = (self.driver().variant(), self.driver().position_text());
                self.out
                    .line(&format!("info string variant {variant} position {text}"));
            }
            "eval" => {
                let v = self.driver().static_eval();
                self.out
                    .line(&format!("info string static eval {v} (side to move)"));
            }
            "genfens" => {
                let (options, out) = (self.options.clone(), self.out.clone());
                if let Err(e) = self.driver().genfens(rest, &options, &out) {
                    self.error(&e);
                }
            }
            _ => self.error(&format!("'{cmd}' is not supported")),
        }
        true
    }

    fn setoption(&mut self, rest: &str) {
        let (name, value) = match split_setoption(rest) {
            Ok(v) => v,
            Err(e) => return self.error(&e),
        };
        let searching = self.driver.as_mut().is_some_and(|d| d.is_searching());
        let mut next = self.options.clone();
        let effect = match next.set(&name, value.as_deref()) {
            Ok(e) => e,
            Err(e) => return self.error(&e),
        };
        if searching && effect.needs_idle() {
            return self.error(&format!("{name} cannot change during a search"));
        }
        if matches!(effect, Effect::Engine | Effect::Rules) {
            // Create the engine with the old values, so that applying the new ones can fail
            // (a Hash the machine cannot hold) without losing it.
            self.driver();
        }
        self.options = next;
        let options = self.options.clone();
        match effect {
            Effect::Engine | Effect::Rules => {
                if let Some(d) = self.driver.as_mut() {
                    if let Err(e) = d.apply(&options) {
                        // Keep the option as the engine actually has it.
                        self.options.hash_mb = d.hash_mb();
                        self.error(&e);
                    }
                }
            }
            Effect::ClearHash => {
                if let Some(d) = self.driver.as_mut() {
                    d.clear_hash();
                }
            }
            Effect::NewGame => self.driver().new_game(),
            Effect::Variant => {
                // A new game: the old one's engine goes (after its search, if any, has
                // reported), and the next command builds the new one at its start.
                if let Some(mut d) = self.driver.take() {
                    d.stop();
                    d.wait();
                }
            }
            Effect::Note(text) => self.out.line(&format!("info string {text}")),
            Effect::Stored => {}
        }
    }
}
