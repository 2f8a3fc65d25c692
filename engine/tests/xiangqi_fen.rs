//! Xiangqi FEN: round trips, the accepted dialects, and every rejection naming its problem.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{Notation, Position, Side};
use tetrarch::games::xiangqi::{Board, Kind, Square, START_FEN};

fn epd_fens() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/xiangqi_perft.epd");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn round_trip_of_every_test_position() {
    let fens = epd_fens();
    assert_eq!(fens.len(), 34);
    for fen in fens {
        let board = Board::from_text(&fen).unwrap();
        assert_eq!(board.to_text(), fen);
        let again = Board::from_text(&board.to_text()).unwrap();
        assert_eq!(again.key(), board.key());
    }
}

#[test]
fn counters_and_side_survive() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 17 42";
    let board = Board::from_text(fen).unwrap();
    assert_eq!(board.side_to_move(), Side::Second);
    assert_eq!(board.halfmove_clock(), 17);
    assert_eq!(board.to_text(), fen);
}

#[test]
fn full_move_number_advances_after_black_moves() {
    let mut board = Board::start();
    for (text, fen_tail) in [
        ("h2e2", "b - - 1 1"),
        ("h9g7", "w - - 2 2"),
        ("h0g2", "b - - 3 2"),
    ] {
        let m = board.parse_move(text).unwrap();
        board.make(m);
        assert!(board.to_text().ends_with(fen_tail), "{}", board.to_text());
    }
}

#[test]
fn dialects_are_accepted() {
    let start = Board::start();
    // ElephantEye's letters, Fairy-Stockfish's 'r' for Red, and missing trailing fields.
    for text in [
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w - -  ",
    ] {
        let b = Board::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(b.key(), start.key(), "{text}");
        assert_eq!(b.to_text(), START_FEN);
    }
}

#[test]
fn accessors_describe_the_start() {
    let b = Board::start();
    assert_eq!(b.general(Side::First), Square::new(4, 0).unwrap());
    assert_eq!(b.general(Side::Second), Square::new(4, 9).unwrap());
    assert_eq!(b.count(Side::First, Kind::Soldier), 5);
    assert_eq!(b.count(Side::Second, Kind::Cannon), 2);
    let cannons: Vec<Square> = b.pieces(Side::First, Kind::Cannon).collect();
    assert_eq!(
        cannons,
        vec![Square::new(1, 2).unwrap(), Square::new(7, 2).unwrap()]
    );
    assert_eq!(
        b.piece_at(Square::new(0, 9).unwrap()),
        Some((Side::Second, Kind::Chariot))
    );
    assert_eq!(b.piece_at(Square::new(4, 4).unwrap()), None);
}

/// Each malformed or impossible FEN is rejected with a message naming the problem.
#[test]
fn errors_name_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            "9 ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w",
            "11 ranks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w",
            "covers 8 points",
        ),
        (
            "rnbakabnr/9/1c5c11/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "covers 10 points",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "longer than 9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "'X'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/0/RNBAKABNR w",
            "run of 0",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "side to move",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            "'x'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 9",
            "'9'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "red general is missing",
        ),
        (
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "black general is missing",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
            "more than 1 general",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1R1C3/9/RNBAKABNR w",
            "more than 2 chariots",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "more than 5 soldiers",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "missing",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/K8 w",
            "red general on a0 is outside its palace",
        ),
        ("4k4/9/9/9/9/9/9/9/3A5/4K4 w", "red advisor on d1"),
        ("4k4/9/9/9/9/9/9/9/9/3KA4 w", "red advisor on e0"),
        ("4k4/9/9/9/9/B8/9/9/9/3K5 w", "red elephant on a4"),
        ("4k4/9/9/9/9/9/9/9/B8/3K5 w", "red elephant on a1"),
        ("4k4/4b4/9/9/9/9/9/9/9/3K5 w", "black elephant on e8"),
        ("4k4/9/9/9/9/9/9/P8/9/3K5 w", "red soldier on a2"),
        ("4k4/9/9/9/9/9/1P7/9/9/3K5 w", "red soldier on b3"),
        ("4k4/9/9/1p7/9/9/9/9/9/3K5 w", "black soldier on b6"),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 w",
            "generals face each other on the e file",
        ),
        ("3k5/9/9/9/9/9/9/9/3R5/4K4 w", "black is in check"),
        ("4k4/9/9/9/9/9/9/3r5/9/3K5 b", "red is in check"),
    ];
    for (fen, words) in cases {
        match Board::from_text(fen) {
            Ok(_) if words.is_empty() => {}
            Ok(_) => panic!("accepted: {fen}"),
            Err(e) => assert!(
                !words.is_empty() && e.to_string().contains(words),
                "{fen}: '{e}' should mention '{words}'"
            ),
        }
    }
}

#[test]
fn soldier_points_that_are_legal() {
    // Across the river a soldier may stand anywhere, its last rank included; before it only
    // on its five files.
    for fen in [
        "4k3P/9/9/9/P8/9/9/9/9/3K5 w",
        "4k4/9/9/9/1P7/9/9/9/9/3K5 w",
        "4k4/9/9/9/9/9/P8/9/9/3K5 w",
        "3k5/9/9/9/9/9/9/9/9/4K2p1 b",
    ] {
        Board::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
}

/// Garbage and near-miss FENs never panic.
#[test]
fn garbage_never_panics() {
    let mut rng = SmallRng::seed_from_u64(7);
    let alphabet: Vec<char> = "rnbakcpRNBAKCPheHE0123456789/ -wb\u{0}é象10"
        .chars()
        .collect();
    let base: Vec<char> = START_FEN.chars().collect();
    for i in 0..20_000 {
        let text: String = if i % 2 == 0 {
            (0..rng.gen_range(0..100))
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        } else {
            let mut t = base.clone();
            for _ in 0..rng.gen_range(1..4) {
                let at = rng.gen_range(0..t.len());
                match rng.gen_range(0..3) {
                    0 => t[at] = alphabet[rng.gen_range(0..alphabet.len())],
                    1 => {
                        t.remove(at);
                    }
                    _ => t.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                }
            }
            t.into_iter().collect()
        };
        if let Ok(board) = Board::from_text(&text) {
            // Whatever is accepted is a sound position that writes and reads back.
            let again = Board::from_text(&board.to_text()).unwrap();
            assert_eq!(again.key(), board.key());
            assert!(!board.has_legal_move() || board.legal_moves().len() <= 128);
        }
    }
}
