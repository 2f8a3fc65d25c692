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
/// is the smallest round budget with every mate found but the long mates below.
///
/// Of the 328 mates now, since the reply to a root move is no longer pruned before its moves
/// (razoring, reverse futility, null move, ProbCut), which brought s2-mate5-005 in: 319 at
/// 100 k (319 before), 324 at 200 k (323), 326 at 400 k (325).
const BUDGET: u64 = 400_000;

/// Mates of the suite the search does not find with the exact distance within [`BUDGET`], by
/// id (at most 2% of the suite), each with the larger budget it is held to instead: about 1.3
/// times the nodes it took in the 2026-12-06 build. The test says when one is found within
/// [`BUDGET`], so the list only shrinks.
const LONG_MATES: &[(&str, u64)] = &[
    // A quiet first move (Qd4): found at depth 23 with 2.95 M nodes; Stockfish 15.1 needs
    // 3 k. Quiet history by threat bucket took it to 3.46 M nodes, capture history by kind
    // captured to 1.33 M (depth 19), 1.88 M (depth 20) by 2026-12-06; with the reply to a
    // root move no longer pruned before its moves, 3.51 M (depth 24).
    ("s2-mate5-008", 4_600_000),
    // A mate in 4 (Qf5, then every reply is mated in at most 3) that Stockfish's single line
    // reported as a mate in 5; at 0.7 M nodes it scores +2140. Found at depth 19, 19.0 M nodes
    // (Stockfish: depth 45, 0.32 M), 22.2 M (depth 24) by 2026-12-06; with the reply to a root
    // move no longer pruned before its moves, 4.70 M (depth 21).
    ("s2-mate5-017", 6_100_000),
];

/// Mates of the suite the search does not find at all today, by id, each with what is known
/// about why. They are still searched at [`BUDGET`], and the test says when one is found, so
/// the list only shrinks; together with [`LONG_MATES`] they stay within 2% of the suite.
const KNOWN_MISSES: &[&str] = &[
    // None. The last, s2-mate5-005 (Rea8 and Ra2, both quiet, then Ra1+ Nb1 Rxb1+ Kxb1 Ra1#;
    // not found within 150 M nodes), is found at depth 16 with 95 k nodes since the reply to a
    // root move is no longer pruned before its moves: Rea8, about ten pawns below the best
    // move's score, had been cut off there by reverse futility and the null move.
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
    let mut search = |mate: &Mate, nodes: u64| {
        let board = Board::from_text(&mate.fen).unwrap_or_else(|e| panic!("{}: {e}", mate.id));
        engine.new_game();
        engine.set_position(board, &[]);
        let last = Arc::new(LastScore(Mutex::new(None)));
        let mut limits = Limits::nodes(nodes);
        limits.mate = Some(mate.moves as u32);
        engine.go(limits, last.clone());
        engine.wait();
        let found = last.0.lock().unwrap().and_then(mate_moves);
        (found == Some(mate.moves)).then_some(()).ok_or_else(|| {
            format!(
                "{} ({}): mate {} expected at {nodes} nodes, {found:?} found",
                mate.id, mate.fen, mate.moves
            )
        })
    };
    let mut failures = Vec::new();
    let mut within_budget = 0;
    for mate in &mates {
        let long = LONG_MATES.iter().find(|(id, _)| *id == mate.id);
        if KNOWN_MISSES.contains(&mate.id.as_str()) {
            match search(mate, budget) {
                Ok(()) => {
                    within_budget += 1;
                    eprintln!(
                        "{} is found within {budget} nodes now: take it off KNOWN_MISSES",
                        mate.id
                    );
                }
                Err(e) => eprintln!("known miss: {e}"),
            }
            continue;
        }
        match (search(mate, budget), long) {
            (Ok(()), long) => {
                within_budget += 1;
                if long.is_some() {
                    eprintln!(
                        "{} is found within {budget} nodes now: take it off LONG_MATES",
                        mate.id
                    );
                }
            }
            (Err(_), Some(&(_, nodes))) if nodes > budget => {
                failures.extend(search(mate, nodes).err());
            }
            (Err(e), _) => failures.push(e),
        }
    }
    eprintln!(
        "{within_budget} of {} mates found with the exact distance at {budget} nodes",
        mates.len()
    );
    for id in LONG_MATES.iter().map(|(id, _)| id).chain(KNOWN_MISSES) {
        assert!(
            mates.iter().any(|m| m.id == *id),
            "{id} is not in the suite"
        );
    }
    assert!(
        (LONG_MATES.len() + KNOWN_MISSES.len()) * 50 <= mates.len(),
        "more than 2% long mates and known misses"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
