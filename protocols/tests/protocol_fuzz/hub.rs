//! The Hub grammar (international draughts, Scan's protocol v2).
//!
//! Scheme: a valid line is a Hub command with real positions (the 51-character `pos=` string
//! or a FEN of a random playout, with its following moves in the Hub, short or path forms, now
//! and then an illegal or malformed one), `level` with small bounded limits or bad fields, `go
//! think|ponder|analyze`, `stop`, `ponder-hit`, `set-param` with good and bad values, and the
//! handshake commands. The probe is `ping`, answered `pong` (also during a search). The
//! sanitiser reads each line's command as the engine does (the first run of characters that are
//! not space, control, `=` or `"`) and replaces a line that would quit, ping or `init` (whose
//! `ready` the end-of-run check counts: see `harness::Drain`); it caps hash
//! sizes and thread counts, keeps `eval-file` inside the scratch directory, and puts a bounded
//! `level` right before every `go` that the grammar did not itself give one: a `go` without a
//! level thinks ten seconds, and a mutated level may be unbounded, which a fuzz run cannot
//! afford.

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use tetrarch::game::Notation;
use tetrarch::games::draughts;

use crate::harness::{Drain, Grammar, Kind};
use crate::mutate::cap_numbers;
use crate::positions::playout;

const WORDS: &[&str] = &[
    "hub",
    "init",
    "set-param",
    "name=threads",
    "name=hash",
    "value=1",
    "pos",
    "pos=",
    "start",
    "moves=",
    "level",
    "depth=2",
    "nodes=100",
    "move-time=0.01",
    "time=1",
    "inc=0",
    "moves=40",
    "infinite",
    "go",
    "think",
    "ponder",
    "analyze",
    "ponder-hit",
    "stop",
    "new-game",
    "32-28",
    "19-23",
    "28x19",
    "\"",
    "=",
    "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
];

/// The command word of a line as Hub's parser reads it.
fn command_of(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let word = |c: char| !c.is_whitespace() && !c.is_control() && c != '=' && c != '"';
    text.chars()
        .skip_while(|&c| !word(c))
        .take_while(|&c| word(c))
        .collect()
}

/// A bounded `level` line.
fn safe_level(rng: &mut StdRng) -> String {
    match rng.gen_range(0..5) {
        0 | 1 => format!("level depth={}", rng.gen_range(1..=3)),
        2 => format!("level nodes={}", rng.gen_range(1..3000)),
        3 => format!("level move-time={:.3}", rng.gen_range(0.001..0.02)),
        _ => {
            if rng.gen_bool(0.5) {
                format!(
                    "level time={:.2} inc={:.3}",
                    rng.gen_range(0.05..0.6),
                    rng.gen_range(0.0..0.01)
                )
            } else {
                format!(
                    "level moves={} time={:.2}",
                    rng.gen_range(1..50),
                    rng.gen_range(0.05..0.4)
                )
            }
        }
    }
}

pub struct Hub {
    /// Whether the last line the grammar made was a bounded `level` (so a `go` may follow it).
    made_safe_level: bool,
    /// Whether the last line sent was one.
    sent_safe_level: bool,
    /// A `go` comes next (after a grammar `level`).
    go_next: bool,
    stop_due: Option<u32>,
}

impl Hub {
    pub fn new() -> Hub {
        Hub {
            made_safe_level: false,
            sent_safe_level: false,
            go_next: false,
            stop_due: None,
        }
    }

    fn position(rng: &mut StdRng) -> String {
        let skip = rng.gen_range(0..70);
        let more = if rng.gen_bool(0.4) {
            0
        } else {
            rng.gen_range(1..20)
        };
        let form = rng.gen_range(0..3);
        let (base, mut moves) = playout(
            rng,
            draughts::Board::start(),
            skip,
            more,
            |p, m| match form {
                0 => p.hub_move_text(m),
                1 => p.move_text(m),
                _ => p.path_move_text(m),
            },
        );
        if rng.gen_bool(0.15) {
            let bad = ["32-27", "1-50", "28x19x23", "99-1", "x", "32--28", "0-0"]
                .choose(rng)
                .unwrap()
                .to_string();
            let at = rng.gen_range(0..=moves.len());
            moves.insert(at, bad);
        }
        let head = match rng.gen_range(0..20) {
            0 => "pos start".to_string(),
            1 => format!("pos pos={}", base.to_fen()),
            2 => format!("pos pos=\"{}\"", base.to_fen()),
            3 => {
                moves.clear();
                let bad = [
                    // Short, long, a bad character, men on their crowning rows, a side to move
                    // that has just moved with no pieces, a FEN with a square twice.
                    "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwww",
                    "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwww",
                    "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx",
                    "Wwbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwb",
                    "Beeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew",
                    "Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                    "W:W31,31:B1",
                    "W:W51:B0",
                    "\"\"",
                    "",
                ];
                format!("pos pos={}", bad.choose(rng).unwrap())
            }
            4 => {
                moves.clear();
                "pos moves=\"32-28\"".to_string()
            }
            _ => format!("pos pos={}", base.to_hub()),
        };
        match moves.len() {
            0 => head,
            1 if rng.gen_bool(0.5) => format!("{head} moves={}", moves[0]),
            _ => format!("{head} moves=\"{}\"", moves.join(" ")),
        }
    }

    fn set_param(rng: &mut StdRng) -> String {
        let (name, values): (&str, &[&str]) = match rng.gen_range(0..10) {
            0 => ("threads", &["1", "2", "0", "65", "x"]),
            1 => ("hash", &["1", "16", "32", "0", "4097", "x"]),
            2 => ("move-overhead", &["0", "10", "5001", "-1"]),
            3 => ("ponder", &["true", "false", "maybe"]),
            4 => ("eval", &["full", "material", "neural"]),
            5 => (
                "eval-file",
                &["", "missing-weights.txt", "junk-weights.txt"],
            ),
            6 => ("variant", &["normal", "frisian", ""]),
            7 => ("book", &["true", "false"]),
            8 => ("tt-size", &["20", "99"]),
            _ => ("no-such-param", &["1"]),
        };
        let v = values.choose(rng).unwrap();
        match rng.gen_range(0..6) {
            0 => format!("set-param name={name} value=\"{v}\""),
            1 => format!("set-param name={name}"),
            2 => format!("set-param value={v}"),
            _ => format!("set-param name={name} value={v}"),
        }
    }
}

impl Grammar for Hub {
    fn name(&self) -> &'static str {
        "hub"
    }

    fn args(&self) -> Vec<String> {
        vec!["hub".into()]
    }

    fn prepare(&mut self, dir: &Path) {
        std::fs::write(
            dir.join("junk-weights.txt"),
            "this is not\na weight table 1 2 3\n",
        )
        .expect("writing a junk weight file");
    }

    fn opening(&mut self) -> Vec<Vec<u8>> {
        vec![b"hub".to_vec(), b"init".to_vec()]
    }

    fn valid(&mut self, rng: &mut StdRng) -> Vec<u8> {
        self.made_safe_level = false;
        if std::mem::take(&mut self.go_next) && rng.gen_bool(0.8) {
            let mode = ["think", "think", "ponder", "analyze"].choose(rng).unwrap();
            if *mode != "think" {
                self.stop_due = Some(rng.gen_range(0..4));
            }
            return format!("go {mode}").into_bytes();
        }
        if let Some(n) = self.stop_due {
            if n == 0 {
                self.stop_due = None;
                return ["stop", "ponder-hit"]
                    .choose(rng)
                    .unwrap()
                    .as_bytes()
                    .to_vec();
            }
            self.stop_due = Some(n - 1);
        }
        let line = match rng.gen_range(0..100) {
            0..=27 => Hub::position(rng),
            28..=44 => {
                self.made_safe_level = true;
                self.go_next = true;
                safe_level(rng)
            }
            45..=50 => {
                // Bad or unbounded levels (never followed by a `go` as they are).
                [
                    "level",
                    "level depth=0",
                    "level depth=-1",
                    "level nodes=0",
                    "level move-time=nan",
                    "level time=1 inc=nan",
                    "level moves=-3 time=1",
                    "level time=",
                    "level time=\"\"",
                    "level depth=2 depth=x",
                    "level infinite",
                    "level move-time=1e999",
                ]
                .choose(rng)
                .unwrap()
                .to_string()
            }
            51..=58 => ["go think", "go", "go ponder", "go analyze", "go sideways"]
                .choose(rng)
                .unwrap()
                .to_string(),
            59..=66 => "stop".into(),
            67..=69 => "ponder-hit".into(),
            70..=80 => Hub::set_param(rng),
            81..=83 => "new-game".into(),
            84 | 85 => "hub".into(),
            86..=89 => ["xyzzy", "done", "info depth=3", "error message=x", "pong"]
                .choose(rng)
                .unwrap()
                .to_string(),
            _ => [
                "pos",
                "pos pos=",
                "pos moves=",
                "set-param",
                "level level=level",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
        };
        line.into_bytes()
    }

    fn words(&self) -> &'static [&'static str] {
        WORDS
    }

    fn sanitize(&mut self, rng: &mut StdRng, line: Vec<u8>, kind: Kind) -> Vec<Vec<u8>> {
        let mut line = line;
        let mut safe = kind == Kind::Valid && self.made_safe_level;
        for _ in 0..8 {
            if matches!(command_of(&line).as_str(), "quit" | "ping" | "init") {
                line = self.valid(rng);
                safe = self.made_safe_level;
                continue;
            }
            break;
        }
        let line = keep_files_local(&cap_hub_options(&line));
        let mut out = Vec::new();
        if command_of(&line) == "go" && !self.sent_safe_level {
            out.push(safe_level(rng).into_bytes());
        }
        out.push(line);
        self.sent_safe_level = safe;
        out
    }

    fn probe(&mut self, _k: usize) -> Vec<u8> {
        self.sent_safe_level = false;
        b"ping".to_vec()
    }

    fn is_answer(&self, line: &str) -> bool {
        line.trim_end() == "pong"
    }

    fn is_result(&self, line: &str) -> bool {
        line.starts_with("done")
    }

    /// `ping` is answered at once, also while lines wait behind a search: at the end, `init`
    /// (kept out of the fuzzed lines, so each `ready` is accounted for) must come through the
    /// queue, with `stop` ending the searches on the way.
    fn drain(&self) -> Option<Drain> {
        Some(Drain {
            marker: b"init",
            answer: "ready",
            before: 1,
            nudge: b"stop",
        })
    }
}

fn cap_hub_options(line: &[u8]) -> Vec<u8> {
    let has = |w: &[u8]| line.windows(w.len()).any(|x| x == w);
    if has(b"thread") {
        cap_numbers(line, 2, 1_000_000)
    } else if has(b"hash") {
        cap_numbers(line, 32, 1_000_000)
    } else {
        line.to_vec()
    }
}

/// An `eval-file` value is read as a file: it must name one in the working directory (the
/// engine reads everything after `value=`).
fn keep_files_local(line: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    if !text.contains("eval-file") {
        return line.to_vec();
    }
    let Some(at) = text.find("value=") else {
        return line.to_vec();
    };
    let value = text[at + 6..].trim().trim_matches('"');
    let local = value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if local {
        line.to_vec()
    } else {
        format!("{}value=missing-weights.txt", &text[..at]).into_bytes()
    }
}

#[test]
fn the_sanitiser_reads_commands_as_the_engine_does() {
    assert_eq!(command_of(b"  =\"ping\" x"), "ping");
    assert_eq!(command_of(b"\x01quit"), "quit");
    assert_eq!(command_of(b"go=think"), "go");
    let mut h = Hub::new();
    let mut rng = <StdRng as rand::SeedableRng>::seed_from_u64(1);
    let out = h.sanitize(&mut rng, b"go think".to_vec(), Kind::Mutated);
    assert_eq!(out.len(), 2, "a level goes before a bare go");
    assert_eq!(command_of(&out[0]), "level");
    assert_eq!(
        keep_files_local(b"set-param name=eval-file value=/dev/zero"),
        b"set-param name=eval-file value=missing-weights.txt"
    );
}
