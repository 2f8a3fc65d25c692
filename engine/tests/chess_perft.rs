//! Chess perft against testdata/chess_perft.epd (python-chess and Stockfish counts), standard
//! and Chess960, through both the chess-specific counting perft and the generic one.

use tetrarch::game::Notation;
use tetrarch::games::chess::Board;

struct Case {
    fen: String,
    id: String,
    counts: Vec<(u32, u64)>,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/../testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = vec![];
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let mut case = Case {
            fen,
            id: String::new(),
            counts: vec![],
        };
        for part in parts {
            let part = part.trim();
            if let Some(rest) = part.strip_prefix('D') {
                let (d, n) = rest.split_once(' ').unwrap();
                case.counts
                    .push((d.parse().unwrap(), n.trim().parse().unwrap()));
            } else if let Some(id) = part.strip_prefix("id ") {
                case.id = id.trim_matches('"').to_string();
            }
        }
        assert!(!case.counts.is_empty(), "no counts in {line}");
        cases.push(case);
    }
    cases
}

/// Runs every (position, depth) whose count is at most `max_nodes` with the chess perft.
fn check_file(name: &str, min_nodes: u64, max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in load(name) {
        let mut board = Board::from_text(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in &case.counts {
            if expected < min_nodes || expected > max_nodes {
                continue;
            }
            assert_eq!(board.perft(depth), expected, "{} depth {depth}", case.id);
            checked += 1;
        }
        assert_eq!(
            board.to_text(),
            Board::from_text(&case.fen).unwrap().to_text()
        );
    }
    checked
}

#[test]
fn every_position_of_chess_perft_epd() {
    // The whole file: about 360 M leaves, a few seconds with bulk counting.
    let n = check_file("chess_perft.epd", 0, u64::MAX);
    assert!(n > 250, "only {n} (position, depth) pairs checked");
}

#[test]
fn generic_perft_agrees() {
    // The generic perft (list at every ply) on the shallower depths of every position.
    for case in load("chess_perft.epd") {
        let mut board = Board::from_text(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= 500_000) {
            assert_eq!(
                tetrarch::perft::perft(&mut board, depth),
                expected,
                "{} depth {depth}",
                case.id
            );
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    for case in load("chess_perft.epd").iter().take(12) {
        let mut board = Board::from_text(&case.fen).unwrap();
        let (depth, expected) = case.counts[2.min(case.counts.len() - 1)];
        let split = board.divide(depth);
        assert_eq!(split.len() as u64, case.counts[0].1);
        assert_eq!(
            split.iter().map(|(_, n)| n).sum::<u64>(),
            expected,
            "{}",
            case.id
        );
        let generic = tetrarch::perft::divide(&mut board, depth);
        assert_eq!(generic, split);
    }
}

/// The deepest depths of chess_perft_deep_stockfish.epd (beyond chess_perft.epd's 20 M-node
/// limit, up to 50 M per depth): `cargo test --profile ci -- --ignored`.
#[test]
#[ignore]
fn deep_stockfish_depths() {
    let n = check_file("chess_perft_deep_stockfish.epd", 20_000_001, u64::MAX);
    assert!(n >= 15, "only {n} deep (position, depth) pairs checked");
}
