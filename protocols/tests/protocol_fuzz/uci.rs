//! The UCI grammar, for chess and for xiangqi (`UCI_Variant` = xiangqi), and UCCI's.
//!
//! Scheme: a valid line is one of the commands a GUI sends, with real positions (random
//! playouts, a few fixed mates, stalemates and broken FENs), legal move lists now and then
//! spoiled by an illegal move, searches with small limits (depth 1-3, at most 20 ms, a few
//! thousand nodes, short clocks), `go infinite` and `go ponder` followed within a few lines by
//! `stop` or `ponderhit`, and options with good and bad values. The probe is `isready`, answered
//! `readyok`; the sanitiser replaces any line the engine would read as `isready` (so that every
//! `readyok` answers a probe), `quit`, or a `genfens` asking for more than three positions or
//! for a book outside the scratch directory, and caps hash sizes, thread counts and clocks.

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use tetrarch::game::Notation;
use tetrarch::games::{chess, xiangqi};

use crate::harness::{Grammar, Kind};
use crate::mutate::cap_numbers;
use crate::positions::{playout, random_coordinate_move};

/// The words the UCI loop looks for as the command of a line.
const UCI_COMMANDS: [&str; 14] = [
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

const UCI_WORDS: &[&str] = &[
    "uci",
    "setoption",
    "name",
    "value",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "movetime",
    "nodes",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "stop",
    "ponderhit",
    "debug",
    "register",
    "d",
    "eval",
    "Hash",
    "Threads",
    "MultiPV",
    "UCI_Variant",
    "xiangqi",
    "chess",
    "e2e4",
    "h2e2",
    "h3e3",
    "0000",
    "w",
    "b",
    "-",
    "KQkq",
    "genfens",
    "seed",
    "book",
];

const UCCI_WORDS: &[&str] = &[
    "ucci",
    "setoption",
    "usemillisec",
    "batch",
    "debug",
    "ponder",
    "hashsize",
    "threads",
    "drawmoves",
    "move_overhead",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "newgame",
    "position",
    "fen",
    "startpos",
    "moves",
    "banmoves",
    "go",
    "draw",
    "depth",
    "nodes",
    "time",
    "movestogo",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "infinite",
    "ponderhit",
    "stop",
    "probe",
    "uccinewgame",
    "true",
    "false",
    "on",
    "off",
    "h2e2",
    "b0c2",
    "w",
    "b",
    "-",
];

const CHESS_FIXED: &[&str] = &[
    // Mated (fool's mate), stalemated, a king in check with the other side to move.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "k6R/8/8/8/8/8/8/K7 w - - 0 1",
    // Castling rights without rooks, a strange en passant square, huge counters.
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    "8/8/8/4k3/8/8/4K3/8 w - - 99999 99999",
    // Promotions ready, Chess960 castling rights (Shredder and X-FEN forms).
    "8/P6k/8/8/8/8/p6K/8 w - - 0 1",
    "bnrqkrnb/pppppppp/8/8/8/8/PPPPPPPP/BNRQKRNB w CFcf - 0 1",
    "bnrqkrnb/pppppppp/8/8/8/8/PPPPPPPP/BNRQKRNB w KQkq - 0 1",
    // Broken: no kings, too many kings, pawns on the back rank, short, long, bad side.
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "KKKKkkkk/8/8/8/8/8/8/8 w - - 0 1",
    "P3k3/8/8/8/8/8/8/4K2p w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
];

const XIANGQI_FIXED: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    // Bare kings facing each other (the side to move can capture the other king), lone kings.
    "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 500 900",
    // Broken: a chess FEN, too few ranks, pieces outside the palace, a bad side.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1",
    "k8/9/9/9/9/9/9/9/9/8K w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
];

/// Which board a UCI-family grammar plays on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Board {
    Chess,
    /// Xiangqi with ranks written 1..10 (Fairy-Stockfish's UCI) or 0..9 (UCCI).
    Xiangqi {
        from_one: bool,
    },
}

/// A position command's arguments: `startpos` or `fen F`, then `moves ...`, from a playout.
fn position_args(rng: &mut StdRng, board: Board) -> String {
    let skip = rng.gen_range(0..60);
    let more = if rng.gen_bool(0.3) {
        0
    } else {
        rng.gen_range(1..40)
    };
    let (fen, mut moves, start_fen) = match board {
        Board::Chess => {
            let (p, m) = playout(rng, chess::Board::start(), skip, more, |p, m| {
                p.move_text(m)
            });
            (p.to_text(), m, chess::Board::start().to_text())
        }
        Board::Xiangqi { from_one } => {
            let style = if from_one {
                xiangqi::MoveStyle::RanksFromOne
            } else {
                xiangqi::MoveStyle::Ucci
            };
            let mut start = xiangqi::Board::start();
            start.set_move_style(style);
            let (p, m) = playout(rng, start.clone(), skip, more, |p, m| p.move_text(m));
            (p.to_text(), m, start.to_text())
        }
    };
    // Spoil the list now and then: an illegal move somewhere, or a move of the wrong form.
    if rng.gen_bool(0.2) {
        let bad = match (rng.gen_range(0..5), board) {
            (0, _) => "0000".to_string(),
            (1, Board::Chess) => "e7e8q".to_string(),
            (1, _) => "e0e9".to_string(),
            (2, _) => "a1a1".to_string(),
            (3, _) => "zz".to_string(),
            (_, Board::Chess) => random_coordinate_move(rng, 8, 8, 1),
            (_, Board::Xiangqi { from_one }) => {
                random_coordinate_move(rng, 9, 10, if from_one { 1 } else { 0 })
            }
        };
        let at = rng.gen_range(0..=moves.len());
        moves.insert(at, bad);
    }
    let head = if skip == 0 && rng.gen_bool(0.5) {
        "startpos".to_string()
    } else if rng.gen_bool(0.12) {
        let fixed = match board {
            Board::Chess => CHESS_FIXED,
            Board::Xiangqi { .. } => XIANGQI_FIXED,
        };
        moves.clear();
        format!("fen {}", fixed.choose(rng).unwrap())
    } else if rng.gen_bool(0.05) {
        format!("fen {start_fen}")
    } else {
        format!("fen {fen}")
    };
    if moves.is_empty() && rng.gen_bool(0.7) {
        head
    } else {
        format!("{head} moves {}", moves.join(" "))
    }
}

/// A long but legal move list: pieces stepping out and back (a repetition, not a rule end).
fn long_shuffle(rng: &mut StdRng, board: Board) -> String {
    let cycle = match board {
        Board::Chess => "g1f3 g8f6 f3g1 f6g8",
        Board::Xiangqi { from_one: true } => "b1c3 b10c8 c3b1 c8b10",
        Board::Xiangqi { from_one: false } => "b0c2 b9c7 c2b0 c7b9",
    };
    let n = rng.gen_range(50..800);
    format!("startpos moves {}", vec![cycle; n].join(" "))
}

/// The most positions a fuzzed `genfens` may ask for (each costs up to 50 short searches).
const MAX_GENFENS: usize = 3;

/// Whether a `genfens` request (its words after the command) is small and reads no file but
/// the scratch directory's: a count of at most [`MAX_GENFENS`] (or none the engine accepts) and
/// every book `None` or a plain file name.
fn small_genfens(args: &[&str]) -> bool {
    let count_ok = args
        .first()
        .and_then(|n| n.parse::<usize>().ok())
        .is_none_or(|n| n <= MAX_GENFENS);
    let books_ok = args.windows(2).all(|w| {
        w[0] != "book"
            || w[1].eq_ignore_ascii_case("none")
            || w[1]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    });
    count_ok && books_ok
}

/// The UCI grammar (chess, or xiangqi after `setoption name UCI_Variant value xiangqi`).
pub struct Uci {
    board: Board,
    /// Lines until a pending `go infinite` or `go ponder` gets its `stop` or `ponderhit`.
    stop_due: Option<u32>,
}

impl Uci {
    pub fn chess() -> Uci {
        Uci {
            board: Board::Chess,
            stop_due: None,
        }
    }

    pub fn xiangqi() -> Uci {
        Uci {
            board: Board::Xiangqi { from_one: true },
            stop_due: None,
        }
    }

    fn go(&mut self, rng: &mut StdRng) -> String {
        let clock = |rng: &mut StdRng| {
            let mut s = format!(
                "wtime {} btime {}",
                rng.gen_range(50..2000),
                rng.gen_range(50..2000)
            );
            if rng.gen_bool(0.5) {
                s.push_str(&format!(
                    " winc {} binc {}",
                    rng.gen_range(0..20),
                    rng.gen_range(0..20)
                ));
            }
            if rng.gen_bool(0.3) {
                s.push_str(&format!(" movestogo {}", rng.gen_range(1..40)));
            }
            s
        };
        match rng.gen_range(0..12) {
            0..=2 => format!("go depth {}", rng.gen_range(1..=3)),
            3 | 4 => format!("go movetime {}", rng.gen_range(1..=20)),
            5 => format!("go nodes {}", rng.gen_range(1..3000)),
            6 => format!("go {}", clock(rng)),
            7 => {
                self.stop_due = Some(rng.gen_range(0..4));
                "go infinite".into()
            }
            8 => {
                self.stop_due = Some(rng.gen_range(0..4));
                format!("go ponder {}", clock(rng))
            }
            9 => format!(
                "go mate {} movetime {}",
                rng.gen_range(1..=3),
                rng.gen_range(1..=20)
            ),
            10 => {
                // searchmoves from the current position's legal moves or nonsense.
                let moves = match self.board {
                    Board::Chess => {
                        playout(rng, chess::Board::start(), 0, 1, |p, m| p.move_text(m)).1
                    }
                    Board::Xiangqi { .. } => {
                        let mut s = xiangqi::Board::start();
                        s.set_move_style(xiangqi::MoveStyle::RanksFromOne);
                        playout(rng, s, 0, 1, |p, m| p.move_text(m)).1
                    }
                };
                format!(
                    "go searchmoves {} e2e4 depth {}",
                    moves.join(" "),
                    rng.gen_range(1..=2)
                )
            }
            _ => {
                // Bad arguments: a missing number, an unknown word, nothing at all.
                [
                    "go depth",
                    "go movetime abc depth 1",
                    "go fast depth 2",
                    "go depth 0",
                    "go nodes 0",
                    "go movetime 0",
                    "go wtime -100 btime -100",
                    "go wtime 0 btime 0 movestogo 0",
                    "go depth 2 depth 1",
                ]
                .choose(rng)
                .unwrap()
                .to_string()
            }
        }
    }

    fn setoption(&mut self, rng: &mut StdRng) -> String {
        let variant_good = match self.board {
            Board::Chess => "chess",
            Board::Xiangqi { .. } => "xiangqi",
        };
        let (name, values): (&str, Vec<String>) = match rng.gen_range(0..14) {
            0 => (
                "Hash",
                vec![
                    "1".into(),
                    "8".into(),
                    "16".into(),
                    "32".into(),
                    "0".into(),
                    "-1".into(),
                    "65537".into(),
                    "lots".into(),
                ],
            ),
            1 => (
                "Threads",
                vec![
                    "1".into(),
                    "2".into(),
                    "0".into(),
                    "257".into(),
                    "two".into(),
                ],
            ),
            2 => (
                "MultiPV",
                vec!["1".into(), "2".into(), "4".into(), "0".into(), "300".into()],
            ),
            3 => (
                "Move Overhead",
                vec![
                    "0".into(),
                    "10".into(),
                    "100".into(),
                    "-5".into(),
                    "5001".into(),
                ],
            ),
            4 => (
                "Skill Level",
                vec![
                    "0".into(),
                    "10".into(),
                    "20".into(),
                    "21".into(),
                    "-1".into(),
                ],
            ),
            5 => (
                "UCI_LimitStrength",
                vec!["true".into(), "false".into(), "maybe".into(), "".into()],
            ),
            6 => (
                "UCI_Elo",
                vec![
                    "1320".into(),
                    "1800".into(),
                    "2300".into(),
                    "1000".into(),
                    "99999".into(),
                ],
            ),
            7 => (
                "UCI_ShowWDL",
                vec!["true".into(), "false".into(), "yes".into()],
            ),
            8 => (
                "UCI_Chess960",
                vec!["false".into(), "true".into(), "TRUE".into()],
            ),
            9 => (
                "UCI_Variant",
                vec![
                    variant_good.into(),
                    variant_good.into(),
                    "shogi".into(),
                    "".into(),
                ],
            ),
            10 => ("Ponder", vec!["true".into(), "false".into()]),
            11 => (
                "SyzygyPath",
                vec!["".into(), "<empty>".into(), "nowhere/at/all".into()],
            ),
            12 => ("Clear Hash", vec![]),
            _ => ("No Such Option", vec!["1".into()]),
        };
        let name = if rng.gen_bool(0.1) {
            name.to_ascii_lowercase()
        } else {
            name.to_string()
        };
        match values.choose(rng) {
            Some(v) if !v.is_empty() || rng.gen_bool(0.5) => {
                format!("setoption name {name} value {v}")
            }
            Some(_) => format!("setoption name {name} value"),
            None => format!("setoption name {name}"),
        }
    }
}

impl Grammar for Uci {
    fn name(&self) -> &'static str {
        match self.board {
            Board::Chess => "uci-chess",
            Board::Xiangqi { .. } => "uci-xiangqi",
        }
    }

    fn args(&self) -> Vec<String> {
        vec!["uci".into()]
    }

    fn prepare(&mut self, dir: &Path) {
        let book = match self.board {
            Board::Chess => {
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n\
                 rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"
            }
            Board::Xiangqi { .. } => {
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n"
            }
        };
        std::fs::write(dir.join("book.epd"), book).expect("writing a book");
        std::fs::write(dir.join("junk.epd"), "not a position\n").expect("writing a junk book");
    }

    fn opening(&mut self) -> Vec<Vec<u8>> {
        let mut v = vec![b"uci".to_vec()];
        if self.board != Board::Chess {
            v.push(b"setoption name UCI_Variant value xiangqi".to_vec());
        }
        v
    }

    fn valid(&mut self, rng: &mut StdRng) -> Vec<u8> {
        if let Some(n) = self.stop_due {
            if n == 0 {
                self.stop_due = None;
                return if rng.gen_bool(0.7) {
                    "stop"
                } else {
                    "ponderhit"
                }
                .as_bytes()
                .to_vec();
            }
            self.stop_due = Some(n - 1);
        }
        // Xiangqi boards read both rank numberings: write 0..9 now and then.
        if let Board::Xiangqi { .. } = self.board {
            self.board = Board::Xiangqi {
                from_one: rng.gen_bool(0.85),
            };
        }
        let line = match rng.gen_range(0..100) {
            0..=24 => format!("position {}", position_args(rng, self.board)),
            25..=26 => format!("position {}", long_shuffle(rng, self.board)),
            27..=47 => self.go(rng),
            48..=55 => "stop".into(),
            56..=70 => self.setoption(rng),
            71..=74 => "ucinewgame".into(),
            75..=77 => "ponderhit".into(),
            78..=81 => "d".into(),
            82..=84 => "eval".into(),
            85 => "uci".into(),
            86 => "debug on".into(),
            87 => "register later".into(),
            88..=90 => [
                "position",
                "position fen",
                "position startpos fen x",
                "position moves e2e4",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
            91..=93 => format!("junk {}", ["stop", "d", "ucinewgame"].choose(rng).unwrap()),
            94..=96 => {
                // A `moves` keyword with nothing after it.
                format!("position {} moves", position_args(rng, self.board))
            }
            97 => {
                // OpenBench's opening request, small: from the start, a book, a bad book.
                let book = ["None", "none", "book.epd", "junk.epd", "missing.epd"]
                    .choose(rng)
                    .unwrap();
                match rng.gen_range(0..4) {
                    0 => format!("genfens {} seed {}", rng.gen_range(1..=2), rng.gen::<u32>()),
                    1 => format!("genfens x seed 1 book {book}"),
                    _ => format!(
                        "genfens {} seed {} book {book} extra words",
                        rng.gen_range(0..=MAX_GENFENS),
                        rng.gen::<u64>()
                    ),
                }
            }
            _ => "setoption name Hash value 16".into(),
        };
        line.into_bytes()
    }

    fn words(&self) -> &'static [&'static str] {
        UCI_WORDS
    }

    fn sanitize(&mut self, rng: &mut StdRng, line: Vec<u8>, _kind: Kind) -> Vec<Vec<u8>> {
        let mut line = line;
        for _ in 0..8 {
            // The engine's view of the line: UTF-8 with replacements, the command being the
            // first word it knows.
            let text = String::from_utf8_lossy(&line).into_owned();
            let words: Vec<&str> = text.split_whitespace().collect();
            let at = words.iter().position(|t| UCI_COMMANDS.contains(t));
            let replace = match at.map(|i| (words[i], &words[i + 1..])) {
                Some(("isready" | "quit", _)) => true,
                Some(("genfens", args)) => !small_genfens(args),
                _ => false,
            };
            if replace {
                line = self.valid(rng);
                continue;
            }
            break;
        }
        vec![cap_options(&line)]
    }

    fn probe(&mut self, _k: usize) -> Vec<u8> {
        b"isready".to_vec()
    }

    fn is_answer(&self, line: &str) -> bool {
        line.trim_end() == "readyok"
    }

    fn is_result(&self, line: &str) -> bool {
        line.starts_with("bestmove ")
    }
}

/// Keeps hash sizes and thread counts small (a shared machine), whatever the line says.
fn cap_options(line: &[u8]) -> Vec<u8> {
    let lower = line.to_ascii_lowercase();
    let has = |w: &[u8]| lower.windows(w.len()).any(|x| x == w);
    if has(b"thread") {
        cap_numbers(line, 2, 1_000_000)
    } else if has(b"hash") {
        cap_numbers(line, 32, 1_000_000)
    } else {
        line.to_vec()
    }
}

/// The UCCI grammar (xiangqi, ranks 0..9).
pub struct Ucci {
    stop_due: Option<u32>,
}

impl Ucci {
    pub fn new() -> Ucci {
        Ucci { stop_due: None }
    }

    fn go(&mut self, rng: &mut StdRng) -> String {
        // Times are seconds unless usemillisec is on: values safe either way.
        let secs = |rng: &mut StdRng| format!("{:.2}", rng.gen_range(0.01..2.0));
        match rng.gen_range(0..12) {
            0..=2 => format!("go depth {}", rng.gen_range(1..=3)),
            3 => format!("go nodes {}", rng.gen_range(1..3000)),
            4 => format!("go time {}", secs(rng)),
            5 => format!("go time {} movestogo {}", secs(rng), rng.gen_range(1..40)),
            6 => format!(
                "go time {} increment {} opptime {} oppincrement 0",
                secs(rng),
                secs(rng),
                secs(rng)
            ),
            7 => {
                self.stop_due = Some(rng.gen_range(0..4));
                "go infinite".into()
            }
            8 => {
                self.stop_due = Some(rng.gen_range(0..4));
                format!("go ponder time {}", secs(rng))
            }
            9 => format!("go draw depth {}", rng.gen_range(1..=2)),
            10 => format!("go movetime {}", rng.gen_range(1..=20)),
            _ => [
                "go depth 0",
                "go depth",
                "go time abc",
                "go time -5",
                "go ponder draw depth 1",
                "go nodes 0",
                "go wtime 100 btime 100",
                "go quickly",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
        }
    }
}

impl Grammar for Ucci {
    fn name(&self) -> &'static str {
        "ucci"
    }

    fn args(&self) -> Vec<String> {
        vec!["ucci".into()]
    }

    fn opening(&mut self) -> Vec<Vec<u8>> {
        vec![b"ucci".to_vec()]
    }

    fn valid(&mut self, rng: &mut StdRng) -> Vec<u8> {
        if let Some(n) = self.stop_due {
            if n == 0 {
                self.stop_due = None;
                return ["stop", "ponderhit", "ponderhit draw"]
                    .choose(rng)
                    .unwrap()
                    .as_bytes()
                    .to_vec();
            }
            self.stop_due = Some(n - 1);
        }
        let board = Board::Xiangqi { from_one: false };
        let line = match rng.gen_range(0..100) {
            0..=24 => format!("position {}", position_args(rng, board)),
            25 => format!("position {}", long_shuffle(rng, board)),
            26..=28 => position_args(rng, board), // bare `fen ...` / `startpos ...`
            29..=48 => self.go(rng),
            49..=57 => "stop".into(),
            58..=71 => {
                let (name, values): (&str, &[&str]) = match rng.gen_range(0..13) {
                    0 => ("usemillisec", &["true", "false", "on", "off", "yes"]),
                    1 => ("batch", &["false", "off", "maybe"]),
                    2 => ("debug", &["on", "off"]),
                    3 => ("ponder", &["true", "false"]),
                    4 => ("usebook", &["false", "true"]),
                    5 => ("hashsize", &["0", "1", "16", "32", "-1", "65537", "big"]),
                    6 => ("threads", &["1", "2", "0", "-3", "257"]),
                    7 => ("drawmoves", &["60", "0", "1", "500", "501"]),
                    8 => ("move_overhead", &["0", "10", "5001"]),
                    9 => ("idle", &["none", "small", "huge"]),
                    10 => ("pruning", &["large", "medium", ""]),
                    11 => ("newgame", &[""]),
                    _ => ("nosuchoption", &["7"]),
                };
                let v = values.choose(rng).unwrap();
                if v.is_empty() {
                    format!("setoption {name}")
                } else {
                    format!("setoption {name} {v}")
                }
            }
            72..=75 => {
                // Banned moves: legal ones of the start, or nonsense.
                let (_, moves) = playout(rng, xiangqi::Board::start(), 0, 1, |p, m| p.move_text(m));
                format!(
                    "banmoves {} {}",
                    moves.join(" "),
                    if rng.gen_bool(0.3) { "z9z9" } else { "" }
                )
            }
            76..=78 => format!("probe {}", position_args(rng, board)),
            79..=81 => ["newgame", "uccinewgame"].choose(rng).unwrap().to_string(),
            82..=84 => ["ponderhit", "ponderhit draw", "ponderhit now"]
                .choose(rng)
                .unwrap()
                .to_string(),
            85 => "ucci".into(),
            86..=89 => ["position", "position fen", "position startpos 3", "fen"]
                .choose(rng)
                .unwrap()
                .to_string(),
            _ => ["nosuchcommand", "d", "uci"]
                .choose(rng)
                .unwrap()
                .to_string(),
        };
        line.into_bytes()
    }

    fn words(&self) -> &'static [&'static str] {
        UCCI_WORDS
    }

    fn sanitize(&mut self, rng: &mut StdRng, line: Vec<u8>, _kind: Kind) -> Vec<Vec<u8>> {
        let mut line = line;
        for _ in 0..8 {
            // UCCI's view: the first word of the trimmed line is the command.
            let text = String::from_utf8_lossy(&line).into_owned();
            let mut words = text.split_whitespace();
            let cmd = words.next();
            let name = words.next().map(str::to_ascii_lowercase);
            let value: Vec<&str> = words.collect();
            let replace = match cmd {
                Some("isready" | "quit" | "bye") => true,
                // Batch mode waits for each bounded search before reading on, so a mutated
                // long search would stall the probes: it stays off.
                Some("setoption") => {
                    name.as_deref() == Some("batch")
                        && matches!(value.join(" ").as_str(), "true" | "on")
                }
                _ => false,
            };
            if replace {
                line = self.valid(rng);
                continue;
            }
            break;
        }
        vec![cap_options(&line)]
    }

    fn probe(&mut self, _k: usize) -> Vec<u8> {
        b"isready".to_vec()
    }

    fn is_answer(&self, line: &str) -> bool {
        line.trim_end() == "readyok"
    }

    fn is_result(&self, line: &str) -> bool {
        line.starts_with("bestmove ") || line == "nobestmove"
    }
}

#[test]
fn grammar_positions_are_real() {
    // The playout positions the grammar writes parse back, so the fuzz reaches the engine's
    // search and not only its error paths.
    let mut rng = <StdRng as rand::SeedableRng>::seed_from_u64(5);
    let mut parsed = 0;
    for _ in 0..200 {
        let args = position_args(&mut rng, Board::Chess);
        if let Some(fen) = args.strip_prefix("fen ") {
            let fen = fen.split(" moves").next().unwrap();
            if !CHESS_FIXED.contains(&fen) {
                chess::Board::from_text(fen).expect("a playout FEN");
                parsed += 1;
            }
        }
    }
    assert!(parsed > 50, "only {parsed} playout FENs");
}

#[test]
fn only_small_genfens_requests_go_out() {
    assert!(small_genfens(&["2", "seed", "5", "book", "None"]));
    assert!(small_genfens(&["x", "seed", "5"]));
    assert!(!small_genfens(&["4", "seed", "5"]));
    assert!(!small_genfens(&["1", "seed", "5", "book", "/etc/passwd"]));
    assert!(small_genfens(&["1", "seed", "5", "book", "book.epd"]));
}
