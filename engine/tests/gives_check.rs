//! `Position::gives_check`, told before a move is made, against the truth after it: `make`
//! then `in_check`, for every legal move of every position met (and asked, without a panic,
//! about every pseudo-legal one).
//!
//! Positions: every position of the perft suites (testdata/chess_perft.epd with its Chess960
//! lines and special cases: en-passant discoveries, castling checks, promotions; and
//! testdata/xiangqi_perft.epd with its cannon screens, horse legs and facing generals), each
//! followed by seeded random playouts, some preferring captures so that lines open and
//! endgames appear.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{GenKind, MoveList, Notation, Position};

/// The FEN field of every line of a testdata EPD file.
fn suite(name: &str) -> Vec<String> {
    let path = format!("{}/../testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

fn legal<P: Position>(b: &P) -> Vec<P::Move> {
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    moves.into_iter().filter(|&m| b.is_legal(m)).collect()
}

/// Compares `gives_check` with make + `in_check` on every legal move; returns the number of
/// moves tested and how many of them gave check. Every pseudo-legal move is asked too (the
/// search asks before testing legality, where that is the cheaper order): no panic.
fn check_all<P: Position>(b: &mut P) -> (usize, usize) {
    let mut pseudo = MoveList::new();
    b.generate(GenKind::All, &mut pseudo);
    for &m in &pseudo {
        let _ = b.gives_check(&b.check_info(), m);
    }
    let moves = legal(b);
    let mut checks = 0;
    for &m in &moves {
        let told = b.gives_check(&b.check_info(), m);
        let undo = b.make(m);
        let truth = b.in_check();
        b.unmake(m, undo);
        assert_eq!(told, truth, "gives_check of {m:?}");
        checks += truth as usize;
    }
    (moves.len(), checks)
}

/// Random playouts from `start`, testing every position on the way.
fn walk<P: Notation>(start: &P, rng: &mut SmallRng, games: usize, plies: usize) -> (usize, usize) {
    let (mut tested, mut checks) = (0, 0);
    for _ in 0..games {
        let mut b = start.clone();
        let capture_share = rng.gen_range(0.0..0.9);
        for _ in 0..plies {
            let (t, c) = check_all(&mut b);
            tested += t;
            checks += c;
            let moves = legal(&b);
            if moves.is_empty() {
                break;
            }
            let noisy: Vec<_> = moves.iter().copied().filter(|&m| b.is_noisy(m)).collect();
            let m = if !noisy.is_empty() && rng.gen_bool(capture_share) {
                noisy[rng.gen_range(0..noisy.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            b.make(m);
        }
    }
    (tested, checks)
}

/// Random playouts from every position of a perft suite (`games` each) and from the start
/// position (200 games of 200 plies), every legal move checked; at least a million moves and
/// 20,000 checks must be met.
fn check_suite<P: Notation>(file: &str, seed: u64, start: P, plies: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut tested, mut checks) = (0, 0);
    for fen in suite(file) {
        let b = P::from_text(&fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
        let (t, c) = walk(&b, &mut rng, 12, plies);
        tested += t;
        checks += c;
    }
    let (t, c) = walk(&start, &mut rng, 200, 200);
    tested += t;
    checks += c;
    assert!(tested > 1_000_000, "{tested} moves");
    assert!(checks > 20_000, "{checks} checks");
}

#[test]
fn chess_gives_check_matches_make_and_in_check() {
    use tetrarch::games::chess::Board;
    check_suite("chess_perft.epd", 7, Board::start(), 120);
}

#[test]
fn xiangqi_gives_check_matches_make_and_in_check() {
    use tetrarch::games::xiangqi::Board;
    check_suite("xiangqi_perft.epd", 8, Board::start(), 150);
}

/// Hand-made cases each kind of check depends on, so a failure names its cause.
#[test]
fn chess_special_checks() {
    use tetrarch::games::chess::Board;
    for (fen, mv, gives) in [
        // En passant that uncovers a rook on the rank of both pawns.
        ("8/8/8/R1pP3k/8/8/8/4K3 w - c6 0 1", "d5c6", true),
        // En passant that uncovers a bishop on a diagonal through the captured pawn.
        ("8/8/7k/2pP4/8/8/8/B3K3 w - c6 0 1", "d5c6", false),
        ("8/8/8/2pP4/1k6/8/8/4K3 w - c6 0 1", "d5c6", false),
        // Castling whose rook gives check.
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true),
        // Underpromotion to a knight that checks, and a queen promotion that does not.
        ("8/4P3/8/3k4/8/8/8/4K3 w - - 0 1", "e7e8n", false),
        ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", true),
        ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", false),
        // A promotion that checks along the rank it lands on, through the pawn's old square.
        ("8/k3P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", false),
        ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", true),
        // A discovered check by a knight, and a pawn that moves along the line it blocks.
        ("4k3/8/8/4N3/8/8/8/4RK2 w - - 0 1", "e5c6", true),
        ("4k3/8/8/8/4P3/8/8/4RK2 w - - 0 1", "e4e5", false),
    ] {
        let b = Board::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = b
            .parse_move(mv)
            .unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
        assert_eq!(b.gives_check(m), gives, "{fen} {mv}");
        let mut after = b.clone();
        after.make(m);
        assert_eq!(after.in_check(), gives, "{fen} {mv} (oracle)");
    }
}
