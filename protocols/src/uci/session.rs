//! The game behind a UCI session: one engine per game, reached through a small trait object.
//!
//! Scheme: everything UCI says is the same for every game it can play except the position
//! type, the evaluator and a few rule options. [`UciGame`] names those per game (chess now; the
//! xiangqi dialect of UCI plugs in here as a second implementation chosen by `UCI_Variant`).
//! [`Game<G>`] wraps the engine facade for one game and implements [`Driver`], the object-safe
//! face the loop in `mod.rs` talks to: one dynamic call per command, none per node.

use std::sync::Arc;

use tetrarch::game::{Evaluator, Notation, Position};
use tetrarch::limits::Limits;
use tetrarch::search::{Engine, Options, Skill};
use tetrarch::time::Clock;

use super::format::UciReporter;
use super::options::Values;
use crate::io::Output;

/// What UCI needs to know about a game.
pub trait UciGame: 'static {
    type Pos: Notation;
    type Eval: Evaluator<Self::Pos> + Default;
    /// The game's name for `UCI_Variant`.
    const VARIANT: &'static str;
    /// Sudden-death horizon for the time manager.
    const MOVES_LEFT: u32 = 40;
    /// Applies rule and notation options (chess: the castling text form of Chess960).
    fn configure(pos: &mut Self::Pos, options: &Values);
    /// The win/draw/loss per mille for a score (UCI_ShowWDL).
    fn wdl(score: i32) -> (u32, u32, u32);
    /// The evaluator the options ask for (chess: the network under `Use NNUE`), and a
    /// signature of that choice so the engine is only rebuilt when it changes.
    fn evaluator(_options: &Values) -> (Self::Eval, usize) {
        (Self::Eval::default(), 0)
    }
}

/// The object-safe face of a game session.
pub trait Driver {
    fn position(&mut self, args: &str, options: &Values) -> Result<(), String>;
    /// Starts a search; errors about ignored parts of the command are written first.
    fn go(&mut self, args: &str, options: &Values, out: &Output);
    fn stop(&mut self);
    fn ponderhit(&mut self);
    fn wait(&mut self);
    fn is_searching(&mut self) -> bool;
    fn new_game(&mut self);
    fn clear_hash(&mut self);
    /// Applies the options that shape the engine (threads, hash, strength, overhead); an
    /// error leaves the engine as it was in that respect.
    fn apply(&mut self, options: &Values) -> Result<(), String>;
    /// The table size the engine actually has, in MB.
    fn hash_mb(&self) -> usize;
    /// The game's `UCI_Variant` name (for `d`).
    fn variant(&self) -> &'static str;
    /// The current position's text (for `d`).
    fn position_text(&self) -> String;
    /// The static evaluation of the current position, side to move's view (for `eval`).
    fn static_eval(&self) -> i32;
    /// Answers OpenBench's `genfens` (see `genfens.rs`); the session's engine is untouched.
    fn genfens(&mut self, args: &str, options: &Values, out: &Output) -> Result<(), String> {
        let _ = (args, options, out);
        Err("genfens is not supported for this game".into())
    }
}

pub struct Game<G: UciGame> {
    engine: Engine<G::Pos, G::Eval>,
    /// The signature of the evaluator the engine has (see [`UciGame::evaluator`]).
    eval_signature: usize,
}

impl<G: UciGame> Game<G> {
    pub fn new(options: &Values) -> Game<G> {
        let mut pos = G::Pos::start();
        G::configure(&mut pos, options);
        let (eval, eval_signature) = G::evaluator(options);
        let mut game = Game {
            eval_signature,
            engine: Engine::with_options(
                pos,
                eval,
                Options {
                    threads: options.threads,
                    hash_mb: options.hash_mb,
                    move_overhead_ms: options.move_overhead_ms,
                    moves_left_hint: G::MOVES_LEFT,
                    ..Options::default()
                },
            ),
        };
        // A Hash the machine cannot hold was already refused by `setoption`.
        let _ = game.apply(options);
        game
    }
}

const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

impl<G: UciGame> Driver for Game<G> {
    fn position(&mut self, args: &str, options: &Values) -> Result<(), String> {
        let tokens: Vec<&str> = args.split_whitespace().collect();
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let head = &tokens[..moves_at.unwrap_or(tokens.len())];
        let mut pos = match head.first() {
            Some(&"startpos") if head.len() == 1 => G::Pos::start(),
            Some(&"startpos") => return Err(format!("unexpected '{}' after startpos", head[1])),
            Some(&"fen") if head.len() > 1 => {
                G::Pos::from_text(&head[1..].join(" ")).map_err(|e| format!("bad FEN: {e}"))?
            }
            Some(&"fen") => return Err("position fen needs a FEN".into()),
            Some(other) => return Err(format!("position needs startpos or fen, not '{other}'")),
            None => return Err("position needs startpos or fen".into()),
        };
        G::configure(&mut pos, options);
        let start = pos.clone();
        let mut moves = Vec::new();
        if let Some(at) = moves_at {
            for text in &tokens[at + 1..] {
                let m = pos
                    .parse_move(text)
                    .map_err(|e| format!("move {} ({text}): {e}", moves.len() + 1))?;
                let _undo = pos.make(m);
                moves.push(m);
            }
        }
        self.engine.set_position(start, &moves);
        Ok(())
    }

    fn go(&mut self, args: &str, options: &Values, out: &Output) {
        let mut notes = Vec::new();
        let tokens: Vec<&str> = args.split_whitespace().collect();
        let pos = self.engine.position().clone();
        let mut limits = Limits::<<G::Pos as Position>::Move> {
            multipv: options.multipv,
            ..Limits::default()
        };
        let (mut wtime, mut btime, mut winc, mut binc, mut mtg) = (None, None, 0i64, 0i64, None);
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            i += 1;
            let mut number = |name: &str, notes: &mut Vec<String>| -> Option<i64> {
                let v = tokens.get(i).and_then(|t| t.parse::<i64>().ok());
                if v.is_some() {
                    i += 1;
                } else {
                    notes.push(format!("go {name} needs a number"));
                }
                v
            };
            match key {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "wtime" => wtime = number(key, &mut notes),
                "btime" => btime = number(key, &mut notes),
                "winc" => winc = number(key, &mut notes).unwrap_or(0),
                "binc" => binc = number(key, &mut notes).unwrap_or(0),
                "movestogo" => mtg = number(key, &mut notes).filter(|&n| n > 0).map(|n| n as u32),
                "depth" => limits.depth = number(key, &mut notes).map(|n| n.max(1) as u32),
                "nodes" => limits.nodes = number(key, &mut notes).map(|n| n.max(1) as u64),
                "mate" => limits.mate = number(key, &mut notes).map(|n| n.max(1) as u32),
                "movetime" => limits.movetime_ms = number(key, &mut notes).map(|n| n.max(0) as u64),
                "searchmoves" => {
                    while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                        match pos.parse_move(tokens[i]) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(e) => notes.push(format!("searchmoves {}: {e}", tokens[i])),
                        }
                        i += 1;
                    }
                }
                other => notes.push(format!("go: unknown token '{other}' ignored")),
            }
        }
        if wtime.is_some() || btime.is_some() {
            let first = pos.side_to_move() == tetrarch::game::Side::First;
            let (time, inc) = if first { (wtime, winc) } else { (btime, binc) };
            limits.clock = Some(Clock {
                remaining_ms: time.unwrap_or(0),
                increment_ms: inc,
                moves_to_go: mtg,
                byoyomi: None,
            });
        }
        let reporter = Arc::new(UciReporter::new(out.clone(), options.show_wdl, G::wdl));
        for n in notes {
            out.line(&format!("info string error: {n}"));
        }
        self.engine.set_move_overhead(options.move_overhead_ms);
        self.engine.go(limits, reporter);
    }

    fn stop(&mut self) {
        self.engine.stop();
    }

    fn ponderhit(&mut self) {
        self.engine.ponderhit();
    }

    fn wait(&mut self) {
        self.engine.wait();
    }

    fn is_searching(&mut self) -> bool {
        self.engine.is_searching()
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn clear_hash(&mut self) {
        self.engine.clear_hash();
    }

    fn apply(&mut self, options: &Values) -> Result<(), String> {
        self.engine.set_threads(options.threads);
        let hash = self.engine.set_hash(options.hash_mb);
        self.engine.set_move_overhead(options.move_overhead_ms);
        self.engine.set_params(options.params);
        self.engine
            .set_skill(options.skill_level().and_then(Skill::from_level));
        let mut pos = self.engine.position().clone();
        G::configure(&mut pos, options);
        self.engine.set_position(pos, &[]);
        let (eval, signature) = G::evaluator(options);
        if signature != self.eval_signature {
            self.engine.set_evaluator(eval);
            self.eval_signature = signature;
        }
        hash
    }

    fn hash_mb(&self) -> usize {
        self.engine.options().hash_mb
    }

    fn variant(&self) -> &'static str {
        G::VARIANT
    }

    fn position_text(&self) -> String {
        self.engine.position().to_text()
    }

    fn static_eval(&self) -> i32 {
        self.engine
            .evaluator()
            .clone()
            .evaluate(self.engine.position())
    }

    fn genfens(&mut self, args: &str, options: &Values, out: &Output) -> Result<(), String> {
        super::genfens::run::<G>(args, options, out)
    }
}
