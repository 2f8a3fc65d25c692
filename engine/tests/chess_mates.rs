//! The mate suite: every position of testdata/chess_mates.epd (mates in 1 to 5 for the side to
//! move, the distance checked with Stockfish's `go depth 30`) searched with a fixed node budget,
//! one thread and a fresh 16 MB table each; the reported score must be mate in exactly the
//! suite's distance. The budget is the bar, not time: node-bounded single-thread searches are
//! deterministic, so the result does not depend on the machine's load.
//!
//! The search also stops as soon as a completed iteration reports a mate at most that long (as
//! `go mate N` does), so most positions cost far less than the budget. The hand-written
//! evaluation is used, so the test does not depend on which evaluation a protocol plays with.
//!
//! `MATE_BUDGET=<nodes>` overrides the budget (to measure how many pass at another one); the
//! test prints how many passed either way.

use std::sync::{Arc, Mutex};

use tetrarch::game::Notation;
use tetrarch::games::chess::eval::ChessEval;
use tetrarch::games::chess::{Board, Move};
use tetrarch::limits::Limits;
use tetrarch::report::{Iteration, Reporter};
use tetrarch::score::{mate_moves, Score};
use tetrarch::search::{Engine, Options};

/// Nodes per mate. Exact distances found of the 329 mates (a run of the release build through
/// UCI, `go nodes N mate M`, which this test reproduces; mate5-026, a mate in 3, was dropped
/// since), before quiet checks were kept out of the prunings and after:
///
/// | budget | before | after |
/// |---|---|---|
/// | 100 k | 293 | 320 |
/// | 200 k | 309 | 323 |
/// | 400 k | 316 | 324 |
///
/// At 200 k one more mate (mate4-001, a rook capture then a quiet queen mate) is missed; 400 k
/// is the smallest round budget with every mate found but the known misses below.
const BUDGET: u64 = 400_000;

/// Mates of the suite the search does not find with the exact distance within the budget,
/// by id (at most 2% of the suite). The test reports one that is found now, so the list only
/// shrinks.
const KNOWN_MISSES: &[&str] = &[
    // Scored as a winning evaluation (+2800 at depth 16, 2.2 M nodes): the mate in 4
    // (Re2+ Kf4 Rf2+ Ke5 Bc8, f6#) needs a quiet bishop move at a node whose static
    // evaluation lies far below alpha (set by the line that wins the c1 rook), where
    // futility pruning and razoring cut it; after Re2+ Kf4, Rf2+ searched alone mates at depth 7.
    "mate4-037",
    // Found with the exact distance past the budget: at 2.4 M and 2.9 M nodes (depth 29 and
    // 23) in the 2026-12-04 build.
    "s2-mate5-005",
    "s2-mate5-008",
    // Scored as a winning evaluation (+2140 at depth 16, 0.7 M nodes).
    "s2-mate5-017",
];

struct LastScore(Mutex<Option<Score>>);

impl Reporter<Board> for LastScore {
    fn iteration(&self, info: &Iteration<'_, Board>) {
        if let Some(line) = info.lines.first() {
            *self.0.lock().unwrap() = Some(line.score);
        }
    }
    fn best_move(&self, _root: &Board, _best: Option<Move>, _ponder: Option<Move>) {}
}

struct Mate {
    fen: String,
    id: String,
    moves: i32,
}

fn suite() -> Vec<Mate> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/chess_mates.epd");
    let text = std::fs::read_to_string(path).expect("testdata/chess_mates.epd is readable");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // EPD: four FEN fields, then operations `op args;`.
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        assert_eq!(fields.len(), 5, "{line}");
        let fen = format!("{} 0 1", fields[..4].join(" "));
        let mut moves = None;
        let mut id = String::new();
        for op in fields[4].split(';').map(str::trim) {
            if let Some(n) = op.strip_prefix("dm ") {
                moves = Some(n.trim().parse().expect("dm is a number"));
            } else if let Some(name) = op.strip_prefix("id ") {
                id = name.trim_matches('"').to_string();
            }
        }
        out.push(Mate {
            fen,
            id,
            moves: moves.unwrap_or_else(|| panic!("no dm in {line}")),
        });
    }
    out
}

#[test]
fn every_mate_of_the_suite_with_its_exact_distance() {
    let budget = std::env::var("MATE_BUDGET")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(BUDGET);
    let mates = suite();
    assert!(mates.len() >= 300, "{} mates", mates.len());
    for n in 1..=5 {
        assert!(
            mates.iter().filter(|m| m.moves == n).count() >= 40,
            "too few mates in {n}"
        );
    }
    let mut engine = Engine::with_options(Board::start(), ChessEval::default(), Options::default());
    let mut failures = Vec::new();
    for mate in &mates {
        let board = Board::from_text(&mate.fen).unwrap_or_else(|e| panic!("{}: {e}", mate.id));
        engine.new_game();
        engine.set_position(board, &[]);
        let last = Arc::new(LastScore(Mutex::new(None)));
        let mut limits = Limits::nodes(budget);
        limits.mate = Some(mate.moves as u32);
        engine.go(limits, last.clone());
        engine.wait();
        let found = last.0.lock().unwrap().and_then(mate_moves);
        if found != Some(mate.moves) {
            failures.push(format!(
                "{} ({}): mate {} expected, {:?} found",
                mate.id, mate.fen, mate.moves, found
            ));
        }
    }
    eprintln!(
        "{} of {} mates found with the exact distance at {budget} nodes",
        mates.len() - failures.len(),
        mates.len()
    );
    for id in KNOWN_MISSES {
        assert!(
            mates.iter().any(|m| m.id == *id),
            "{id} is not in the suite"
        );
        if !failures.iter().any(|f| f.starts_with(&format!("{id} "))) {
            eprintln!("{id} is found now: take it off KNOWN_MISSES");
        }
    }
    assert!(
        KNOWN_MISSES.len() * 50 <= mates.len(),
        "more than 2% known misses"
    );
    let new: Vec<&String> = failures
        .iter()
        .filter(|f| {
            !KNOWN_MISSES
                .iter()
                .any(|id| f.starts_with(&format!("{id} ")))
        })
        .collect();
    assert!(
        new.is_empty(),
        "{}",
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
