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

/// The next published depth of the classic positions (testdata/README.md lists them, each
/// confirmed by Stockfish): about 1.8 G leaves. `cargo test --profile ci -- --ignored`.
#[test]
#[ignore]
fn published_deeper_counts() {
    let cases: [(&str, u32, u64); 8] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            6,
            119_060_324,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
            193_690_690,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            6,
            706_045_033,
        ),
        (
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            6,
            706_045_033,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            5,
            89_941_194,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            5,
            164_075_551,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            6,
            227_689_589,
        ),
    ];
    for (fen, depth, expected) in cases {
        assert_eq!(
            Board::from_text(fen).unwrap().perft(depth),
            expected,
            "{fen} depth {depth}"
        );
    }
}

#[test]
fn portable_perft_agrees() {
    // `perft` may run the POPCNT-compiled instance; the portable one must count the same.
    for case in load("chess_perft.epd") {
        let mut board = Board::from_text(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= 2_000_000) {
            assert_eq!(
                board.perft_portable(depth),
                expected,
                "{} depth {depth}",
                case.id
            );
        }
    }
}
