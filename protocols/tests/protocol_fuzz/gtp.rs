//! The GTP grammar (Go).
//!
//! Scheme: a valid line is a GTP v2 command, with or without a numeric id, on the board size
//! the grammar last set: moves on and off the board, passes, `genmove` (the engine is started
//! with 40 playouts a move, so each search is short), handicaps, clocks in every dialect, undo,
//! scoring, SGF files written into the scratch directory, analysis streams (ended by the next
//! line) and `tetrarch-set` options with good and bad values. The probe is
//! `<id> protocol_version` with an id of its own, and only the exact answer `=<id> 2` counts.
//! The sanitiser reads each line as the engine does (control characters dropped, `#` comments
//! cut, the id split off) and replaces a line that would quit, reuse a probe id, lift the
//! playout cap, grow the search tree or threads past what a shared machine should give, or
//! name a file outside the scratch directory.

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::harness::{Grammar, Kind};

/// The largest board on which the run asks for a judgement of dead stones.
const JUDGED_SIZE: usize = 9;

/// Probe ids start here; grammar ids stay below.
const PROBE_ID: u64 = 1_000_000;

const WORDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
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
    "kgs-genmove_cleanup",
    "kgs-rules",
    "final_score",
    "final_status_list",
    "showboard",
    "printsgf",
    "lz-analyze",
    "kata-analyze",
    "genmove_analyze",
    "tetrarch-set",
    "black",
    "white",
    "b",
    "w",
    "pass",
    "resign",
    "D4",
    "Q16",
    "A1",
    "T19",
    "I5",
    "#",
    "dead",
    "alive",
    "interval",
];

const SGF_GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gc];W[eg];B[cf];W[gg];B[tt];W[dd])";
const SGF_19: &str = "(;GM[1]FF[4]SZ[19]HA[2]AB[dd][pp]KM[0.5];W[dp];B[pd];W[jj])";
const SGF_BAD: &str = "(;GM[1]SZ[99];B[zz];W[";

/// A mirror of GNU Go's input preprocessing as the engine applies it: the command words of a
/// line and its id (`None` for a line the engine skips).
fn engine_view(line: &[u8]) -> Option<(Option<String>, Vec<String>)> {
    let text = String::from_utf8_lossy(line);
    let cleaned: String = text
        .chars()
        .take_while(|&c| c != '#')
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words: Vec<String> = cleaned
        .trim()
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        return None;
    }
    let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
        Some(words.remove(0))
    } else {
        None
    };
    Some((id, words))
}

/// Whether a file name stays inside the working directory.
fn local_file(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        && name != ".."
}

pub struct Gtp {
    /// The engine's board size, followed from the lines sent.
    size: usize,
}

impl Gtp {
    pub fn new() -> Gtp {
        Gtp { size: 9 }
    }

    fn vertex(&self, rng: &mut StdRng) -> String {
        const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        match rng.gen_range(0..20) {
            0 => "pass".into(),
            1 => [
                "Z99", "A0", "I5", "a", "", "T26", "Q", "44", "A-1", "PASS", "resign",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
            2 => format!(
                "{}{}",
                LETTERS[rng.gen_range(0..LETTERS.len())] as char,
                rng.gen_range(0..27)
            ),
            _ => {
                let x = LETTERS[rng.gen_range(0..self.size)] as char;
                let y = rng.gen_range(1..=self.size);
                if rng.gen_bool(0.3) {
                    format!("{}{y}", x.to_ascii_lowercase())
                } else {
                    format!("{x}{y}")
                }
            }
        }
    }

    fn colour(rng: &mut StdRng) -> &'static str {
        ["b", "w", "black", "white", "B", "W", "Black", "x"]
            .choose(rng)
            .unwrap()
    }

    fn command(&mut self, rng: &mut StdRng) -> String {
        let c = Gtp::colour(rng);
        match rng.gen_range(0..100) {
            0..=24 => format!("play {c} {}", self.vertex(rng)),
            25..=34 => format!(
                "genmove {}",
                ["b", "w", "black", "white"].choose(rng).unwrap()
            ),
            35..=36 => format!("reg_genmove {c}"),
            37 if self.size <= JUDGED_SIZE => format!("kgs-genmove_cleanup {c}"),
            37 => format!("genmove {c}"),
            38..=40 => {
                let arg = [
                    "9", "9", "9 9", "7", "13", "19", "5", "2", "25", "0", "1", "26", "-9", "9 13",
                    "x", "",
                ]
                .choose(rng)
                .unwrap();
                format!("boardsize {arg}")
            }
            41..=43 => "clear_board".into(),
            44..=46 => format!(
                "komi {}",
                ["7.5", "0", "-3.5", "6.5", "0.5", "nan", "inf", "1e9", "abc", "1001"]
                    .choose(rng)
                    .unwrap()
            ),
            47..=50 => "undo".into(),
            51 => format!("fixed_handicap {}", rng.gen_range(0..11)),
            52 => format!("place_free_handicap {}", rng.gen_range(0..12)),
            53 => {
                let v: Vec<String> = (0..rng.gen_range(0..5)).map(|_| self.vertex(rng)).collect();
                format!("set_free_handicap {}", v.join(" "))
            }
            54..=55 => format!(
                "time_settings {} {} {}",
                rng.gen_range(0..600),
                rng.gen_range(0..30),
                rng.gen_range(0..25)
            ),
            56..=57 => match rng.gen_range(0..6) {
                0 => "kgs-time_settings none".into(),
                1 => format!("kgs-time_settings absolute {}", rng.gen_range(0..600)),
                2 => format!(
                    "kgs-time_settings byoyomi {} {} {}",
                    rng.gen_range(0..600),
                    rng.gen_range(0..30),
                    rng.gen_range(0..5)
                ),
                3 => format!(
                    "kgs-time_settings canadian {} {} {}",
                    rng.gen_range(0..600),
                    rng.gen_range(0..30),
                    rng.gen_range(0..25)
                ),
                4 => format!(
                    "kata-time_settings fischer {} {}",
                    rng.gen_range(0..600),
                    rng.gen_range(0..30)
                ),
                _ => "kgs-time_settings sometimes 5".into(),
            },
            58..=59 => format!(
                "time_left {c} {} {}",
                ["30", "0", "-5", "0.5", "1e12", "x"].choose(rng).unwrap(),
                rng.gen_range(0..25)
            ),
            60 => format!(
                "kgs-rules {}",
                ["chinese", "japanese", "aga", "tromp-taylor", "cuban"]
                    .choose(rng)
                    .unwrap()
            ),
            61 => "kgs-game_over".into(),
            // Scoring judges the board by a few thousand playouts: about 0.2 s on 9x9, seconds on
            // 19x19, so only on small boards (the sanitiser holds to that too).
            62 if self.size <= JUDGED_SIZE => "final_score".into(),
            63 if self.size <= JUDGED_SIZE => format!(
                "final_status_list {}",
                ["dead", "alive", "seki", "zombie"].choose(rng).unwrap()
            ),
            62 | 63 => "showboard".into(),
            64..=66 => "showboard".into(),
            67..=68 => {
                if rng.gen_bool(0.3) {
                    "printsgf out.sgf".into()
                } else {
                    "printsgf".into()
                }
            }
            69..=70 => format!(
                "loadsgf {}",
                [
                    "game.sgf",
                    "game.sgf 4",
                    "game.sgf D5",
                    "game19.sgf",
                    "game19.sgf 2",
                    "bad.sgf",
                    "missing.sgf",
                    "out.sgf",
                    ""
                ]
                .choose(rng)
                .unwrap()
            ),
            71..=74 => match rng.gen_range(0..5) {
                0 => format!("lz-analyze {c} {}", rng.gen_range(1..20)),
                1 => format!(
                    "kata-analyze interval {} maxmoves 3 ownership true",
                    rng.gen_range(1..20)
                ),
                2 => format!("analyze {c} {}", rng.gen_range(0..20)),
                3 => format!("lz-analyze {} allow {c} D4 1", rng.gen_range(1..10)),
                _ => "kata-analyze rootInfo maybe".into(),
            },
            75..=76 => match rng.gen_range(0..3) {
                0 => format!("lz-genmove_analyze {c} {}", rng.gen_range(1..10)),
                1 => format!("kata-genmove_analyze {c} interval {}", rng.gen_range(1..10)),
                _ => format!("genmove_analyze {c}"),
            },
            77..=80 => [
                "protocol_version",
                "name",
                "version",
                "list_commands",
                "known_command genmove",
                "known_command frobnicate",
                "known_command",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
            81..=85 => {
                let (name, values): (&str, &[&str]) = match rng.gen_range(0..12) {
                    0 => ("playouts", &["20", "40", "60", "x"]),
                    1 => ("threads", &["1", "2", "0", "x"]),
                    2 => ("movetime", &["10", "20", "0", "-1"]),
                    3 => ("resign", &["0", "0.1", "2", "nan"]),
                    4 => ("seed", &["1", "42", "-1"]),
                    5 => ("ponder", &["on", "off", "true", "maybe"]),
                    6 => ("max_nodes", &["100000", "1000", "999", "0"]),
                    7 => ("expand_visits", &["1", "2", "8", "0", "10001"]),
                    8 => ("rave_equiv", &["1000", "0", "-1", "inf"]),
                    9 => ("explore", &["0.5", "0", "nan"]),
                    10 => ("overhead", &["0", "50", "60001"]),
                    _ => (
                        "knob",
                        &[
                            "p_atari 200",
                            "p_pattern 0",
                            "prior_even 14",
                            "nakade 2",
                            "nosuch 1",
                            "p_atari x",
                        ],
                    ),
                };
                format!("tetrarch-set {name} {}", values.choose(rng).unwrap())
            }
            86..=88 => [
                "frobnicate",
                "PLAY b D4",
                "genmove",
                "play b",
                "play D4 b",
                "komi",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
            _ => format!("play {c} {} # a comment", self.vertex(rng)),
        }
    }
}

impl Grammar for Gtp {
    fn name(&self) -> &'static str {
        "gtp"
    }

    fn args(&self) -> Vec<String> {
        [
            "gtp",
            "--playouts",
            "40",
            "--movetime",
            "20",
            "--threads",
            "1",
            "--max-nodes",
            "100000",
            "--seed",
            "1",
            "--quiet",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn prepare(&mut self, dir: &Path) {
        for (name, text) in [
            ("game.sgf", SGF_GAME),
            ("game19.sgf", SGF_19),
            ("bad.sgf", SGF_BAD),
        ] {
            std::fs::write(dir.join(name), text).expect("writing an SGF file");
        }
    }

    fn opening(&mut self) -> Vec<Vec<u8>> {
        vec![b"boardsize 9".to_vec(), b"clear_board".to_vec()]
    }

    fn valid(&mut self, rng: &mut StdRng) -> Vec<u8> {
        let cmd = self.command(rng);
        let line = if rng.gen_bool(0.4) {
            format!("{} {cmd}", rng.gen_range(0..PROBE_ID / 10))
        } else {
            cmd
        };
        line.into_bytes()
    }

    fn words(&self) -> &'static [&'static str] {
        WORDS
    }

    fn sanitize(&mut self, rng: &mut StdRng, line: Vec<u8>, _kind: Kind) -> Vec<Vec<u8>> {
        let mut line = line;
        for _ in 0..8 {
            if self.allowed(&line) {
                break;
            }
            line = self.valid(rng);
        }
        if !self.allowed(&line) {
            line = b"showboard".to_vec();
        }
        self.follow_size(&line);
        vec![line]
    }

    fn probe(&mut self, k: usize) -> Vec<u8> {
        format!("{} protocol_version", PROBE_ID + k as u64).into_bytes()
    }

    fn is_answer(&self, line: &str) -> bool {
        let Some((id, rest)) = line.strip_prefix('=').and_then(|l| l.split_once(' ')) else {
            return false;
        };
        id.parse::<u64>()
            .is_ok_and(|id| (PROBE_ID..2 * PROBE_ID).contains(&id))
            && rest == "2"
    }

    fn is_result(&self, line: &str) -> bool {
        line.starts_with('=') || line.starts_with('?')
    }
}

impl Gtp {
    /// Whether the engine may be sent this line (see the module doc).
    fn allowed(&self, line: &[u8]) -> bool {
        let Some((id, words)) = engine_view(line) else {
            return true;
        };
        if let Some(id) = id {
            // Only the probes' own ids are kept out (huge ids are fuzzed).
            if id
                .parse::<u64>()
                .is_ok_and(|id| (PROBE_ID..2 * PROBE_ID).contains(&id))
            {
                return false;
            }
        }
        let Some((cmd, args)) = words.split_first() else {
            return true;
        };
        let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
        match cmd.as_str() {
            "quit" => false,
            "final_score" | "final_status_list" | "kgs-genmove_cleanup" => self.size <= JUDGED_SIZE,
            "loadsgf" | "printsgf" => args.is_empty() || local_file(arg(0)),
            "tetrarch-set" => match (arg(0), arg(1)) {
                ("threads", v) => !v.parse::<u64>().is_ok_and(|t| t > 2),
                ("playouts", v) => !v.parse::<u64>().is_ok_and(|p| p == 0 || p > 400),
                ("max_nodes", v) => !v.parse::<u64>().is_ok_and(|n| n > 200_000),
                _ => true,
            },
            _ => true,
        }
    }
}

impl Gtp {
    /// Follows the board size through `boardsize` and `loadsgf` as the engine reads them (a
    /// file of unknown size counts as the largest board).
    fn follow_size(&mut self, line: &[u8]) {
        let Some((_, words)) = engine_view(line) else {
            return;
        };
        let Some((cmd, args)) = words.split_first() else {
            return;
        };
        let size = match (cmd.as_str(), args) {
            ("boardsize", [n]) => n.parse::<usize>().ok(),
            ("boardsize", [a, b]) if a == b => a.parse::<usize>().ok(),
            ("loadsgf", [f, ..]) => match f.as_str() {
                "game.sgf" => Some(9),
                "game19.sgf" => Some(19),
                "bad.sgf" | "missing.sgf" => None,
                _ => Some(25),
            },
            _ => None,
        };
        if let Some(n) = size.filter(|n| (2..=25).contains(n)) {
            self.size = n;
        }
    }
}

#[test]
fn the_sanitiser_reads_lines_as_the_engine_does() {
    let g = Gtp::new();
    assert!(!g.allowed(b"quit"));
    assert!(!g.allowed(b"12 quit # bye"));
    assert!(!g.allowed(b"\x01qu\x02it"));
    assert!(g.allowed(b"# quit"));
    assert!(!g.allowed(b"1000001 name"));
    assert!(g.allowed(b"999999 name"));
    assert!(g.allowed(b"18446744073709551615 name"));
    assert!(!g.allowed(b"tetrarch-set playouts 0"));
    assert!(g.allowed(b"tetrarch-set playouts 40"));
    assert!(!g.allowed(b"printsgf /tmp/x.sgf"));
    assert!(g.allowed(b"printsgf out.sgf"));
    let mut g = g;
    g.follow_size(b"7 boardsize 19");
    assert!(!g.allowed(b"final_score"));
    g.follow_size(b"boardsize 9 9");
    assert!(g.allowed(b"final_score"));
    g.follow_size(b"boardsize 99");
    assert!(g.allowed(b"final_score"));
    assert!(g.is_answer("=1000007 2"));
    assert!(!g.is_answer("=1000007 2.0"));
    assert!(!g.is_answer("=17 2"));
    assert!(!g.is_answer("= 2"));
}
