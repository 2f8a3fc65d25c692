//! Chess rules beyond perft: FEN reading (and every rejection), Chess960 castling in both move
//! forms, incremental keys, moves from elsewhere (`unpack`, `is_pseudo_legal`), rule results,
//! SEE, check detection and the noisy/quiet split.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{GenKind, MoveList, Notation, Outcome, Position, Reason, Verdict};
use tetrarch::games::chess::{Board, Move, PieceKind, Square};

fn board(fen: &str) -> Board {
    Board::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(b: &Board) -> MoveList<Move> {
    let mut list = MoveList::new();
    b.generate(GenKind::All, &mut list);
    list
}

fn play(b: &mut Board, text: &str) {
    let m = b.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    b.make(m);
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

// ---------------------------------------------------------------- FEN

#[test]
fn fen_round_trips() {
    // Shredder letters in any order; written in K, Q, k, q order.
    assert_eq!(
        board("r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1").to_text(),
        "r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1"
    );
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "r3k2r/8/8/8/8/8/8/1R2K2R w Kkq - 12 40",
        "4k3/8/8/8/8/8/8/4K2R b K - 99 120",
        // Chess960, Shredder letters.
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "4k3/8/8/8/8/8/8/4KR1R w F - 0 1",
    ] {
        assert_eq!(board(fen).to_text(), fen);
    }
}

#[test]
fn four_field_fen_is_accepted() {
    let b = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
    assert_eq!(
        b.to_text(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(b.game_ply(), 1);
}

#[test]
fn plausible_en_passant_square_without_capture_is_accepted_and_dropped() {
    for (fen, written) in [
        // No black pawn can capture.
        (
            "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2",
            "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2",
        ),
        // bxc6 e.p. would expose the king on the fifth rank.
        (
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - - 0 1",
        ),
        // exd3 e.p. is pinned along the diagonal.
        (
            "8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1",
            "8/1k6/8/8/3Pp3/8/8/4K2B b - - 0 1",
        ),
    ] {
        let b = board(fen);
        assert_eq!(b.en_passant(), None);
        assert_eq!(b.to_text(), written);
        assert_eq!(
            b.key(),
            board(written).key(),
            "the useless square must not change the key"
        );
    }
    // A legal capture keeps the square, and it changes the key.
    let b = board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    assert_eq!(b.en_passant(), Some(sq("f6")));
    assert_ne!(
        b.key(),
        board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").key()
    );
}

/// Every malformed FEN is an error whose message names the problem.
#[test]
fn fen_errors_name_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
            "fields",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "fields",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
            "ranks",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "piece letter 'X'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "fewer than 8",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "count '9'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            "more than 8",
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "two digits",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN? w KQkq - 0 1",
            "piece letter '?'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
            "White has no king",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "Black has no king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR w kq - 0 1",
            "White has 2 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNP w kq - 0 1",
            "first or last rank",
        ),
        (
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
            "first or last rank",
        ),
        ("QQQQQQQQ/QQQQQQQ1/8/8/8/8/8/K6k w - - 0 1", "promotions"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
            "not to move (Black) is in check",
        ),
        ("4k3/8/8/8/8/8/8/3K4 b - - 0 1", ""), // fine: control case, see below
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            "castling letter 'x'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "no rook on the h-side",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1",
            "no rook on the a-side",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
            "not on its first rank",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqB - 0 1",
            "no White rook stands on b1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
            "same right twice",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "bad en-passant square",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "sixth rank",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",
            "third rank",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "no Black pawn on e5",
        ),
        (
            "r1bqkbnr/ppp1pppp/3n4/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
            "occupied",
        ),
        (
            "rn1qkbnr/pppbpppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
            "d7 is occupied",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y",
            "fullmove",
        ),
    ];
    for &(fen, needle) in cases {
        match Board::from_text(fen) {
            Ok(_) => assert!(needle.is_empty(), "accepted malformed FEN {fen:?}"),
            Err(e) => {
                assert!(!needle.is_empty(), "rejected good FEN {fen:?}: {e}");
                assert!(
                    e.0.contains(needle),
                    "{fen:?}: message {:?} lacks {needle:?}",
                    e.0
                );
            }
        }
    }
}

#[test]
fn garbage_text_never_panics() {
    let mut rng = SmallRng::seed_from_u64(7);
    let alphabet: Vec<char> = "rnbqkpRNBQKP12345678/ -wbKQkqa-h0123456789\u{e9}\u{0}x"
        .chars()
        .collect();
    let start = Board::start();
    for _ in 0..20_000 {
        let len = rng.gen_range(0..80);
        let s: String = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        let _ = Board::from_text(&s);
        let _ = start.parse_move(&s);
    }
    // Mutations of real FENs reach deeper into the validation.
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    for _ in 0..20_000 {
        let mut chars: Vec<char> = fens[rng.gen_range(0..fens.len())].chars().collect();
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..chars.len());
            chars[i] = alphabet[rng.gen_range(0..alphabet.len())];
        }
        let text: String = chars.into_iter().collect();
        if let Ok(b) = Board::from_text(&text) {
            // Whatever is accepted must be a working position.
            let list = moves(&b);
            assert_eq!(list.len() as u64, b.count_legal_moves(), "{text}");
            assert_eq!(b.key(), b.compute_key());
            let again = Board::from_text(&b.to_text()).unwrap();
            assert_eq!(again.key(), b.key(), "{text}");
        }
    }
    for bad in [
        "",
        "e2",
        "e2e",
        "e2e9",
        "i2i4",
        "e2e5",
        "e7e8",
        "e2e4qq",
        "0000",
        "e1g1",
        "\u{e9}\u{e9}\u{e9}\u{e9}",
    ] {
        assert!(start.parse_move(bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------- move text and Chess960

#[test]
fn standard_castling_reads_both_forms_and_writes_by_flag() {
    let mut b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(!b.is_chess960());
    let short = b.parse_move("e1g1").unwrap();
    assert_eq!(b.parse_move("e1h1").unwrap(), short);
    assert!(short.is_castle());
    assert_eq!(b.move_text(short), "e1g1");
    let long = b.parse_move("e1a1").unwrap();
    assert_eq!(b.parse_move("e1c1").unwrap(), long);
    assert_eq!(b.move_text(long), "e1c1");
    b.set_chess960(true);
    assert_eq!(b.move_text(short), "e1h1");
    assert_eq!(b.move_text(long), "e1a1");
    assert_eq!(b.parse_move("e1g1").unwrap(), short);
    b.make(long);
    assert_eq!(b.to_text(), "r3k2r/8/8/8/8/8/8/2KR3R b ha - 1 1");
    b.set_chess960(false);
    assert_eq!(b.to_text(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

#[test]
fn chess960_castles_land_on_the_standard_squares() {
    // King b1, rooks a1 and h1: O-O-O moves the king right, to c1; rook to d1.
    let mut b = board("r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1");
    assert!(b.is_chess960());
    let m = b.parse_move("b1a1").unwrap();
    assert!(m.is_castle());
    // Its standard form b1c1 is also a plain king step, and the king step wins.
    assert!(!b.parse_move("b1c1").unwrap().is_castle());
    b.make(m);
    assert_eq!(b.to_text(), "r5kr/8/8/8/8/8/8/2KR3R b ha - 1 1");
    // Black king g8 already on its target: O-O is only g8h8; the rook goes to f8.
    let m = b.parse_move("g8h8").unwrap();
    assert!(m.is_castle());
    b.make(m);
    assert_eq!(b.to_text(), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");

    // King stays on g1 (H right): castling is g1h1 only.
    let b = board("k7/8/8/8/8/8/8/4R1KR w H - 0 1");
    let m = b.parse_move("g1h1").unwrap();
    assert!(m.is_castle());
    let mut after = b.clone();
    after.make(m);
    assert_eq!(after.to_text(), "k7/8/8/8/8/8/8/4RRK1 b - - 1 1");

    // Rook already on d1 (D right): king e1 to c1, rook stays.
    let b = board("4k3/8/8/8/8/8/8/3RK3 w D - 0 1");
    let m = b.parse_move("e1d1").unwrap();
    assert!(m.is_castle());
    assert_eq!(b.parse_move("e1c1").unwrap(), m);
    let mut after = b.clone();
    after.make(m);
    assert_eq!(after.to_text(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");

    // In Chess960 mode a king step that could also read as castling stays a king step.
    let b = board("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    assert!(b.is_chess960());
    let step = b.parse_move("f1g1").unwrap();
    assert!(!step.is_castle());
    assert!(b.parse_move("f1h1").unwrap().is_castle());
}

#[test]
fn xfen_kq_means_the_outermost_rook() {
    // Rooks on a1 and e1 with the king on b1: K is the e1 rook, Q the a1 rook.
    let b = board("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1");
    assert!(b.is_chess960());
    assert!(b.parse_move("b1a1").unwrap().is_castle());
    let short = b.parse_move("b1e1").unwrap();
    assert!(short.is_castle());
    assert_eq!(
        b.parse_move("b1g1").unwrap(),
        short,
        "standard form of the same castle"
    );
    let mut after = b.clone();
    after.make(short);
    assert_eq!(
        after.to_text(),
        "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ea - 1 1"
    );
    assert_eq!(
        board("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1").key(),
        b.key()
    );
    // Two rooks on one side: K names the outer one, the inner one needs its file letter.
    let b = board("4k3/8/8/8/8/8/8/4KR1R w K - 0 1");
    let mut c = b.clone();
    c.set_chess960(true);
    assert_eq!(c.to_text(), "4k3/8/8/8/8/8/8/4KR1R w H - 0 1");
    let inner = board("4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
    assert_eq!(inner.to_text(), "4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
    let mut inner_std = inner.clone();
    inner_std.set_chess960(false);
    assert_eq!(
        inner_std.to_text(),
        "4k3/8/8/8/8/8/8/4KR1R w F - 0 1",
        "X-FEN letter for an inner rook"
    );
    assert_ne!(b.key(), board("4k3/8/8/8/8/8/8/4KR1R w - - 0 1").key());
}

#[test]
fn chess960_castling_blocked_by_a_line_the_rook_opens() {
    // Rook b1 shields the king on c1 from the queen on a1; castling would expose it.
    let b = board("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    assert!(moves(&b).iter().all(|m| !m.is_castle()));
    assert!(b.parse_move("c1b1").is_err());
    // Without the queen it is legal and leaves king c1, rook d1.
    let mut b = board("4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
    let m = b.parse_move("c1b1").unwrap();
    b.make(m);
    assert_eq!(b.to_text(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn castling_rights_go_when_king_or_rook_moves_or_the_rook_is_taken() {
    let mut b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut b, "a1a8");
    assert_eq!(b.to_text(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    play(&mut b, "e8f7");
    assert_eq!(b.to_text(), "R6r/5k2/8/8/8/8/8/4K2R w K - 1 2");
    play(&mut b, "h1h2");
    assert_eq!(b.to_text(), "R6r/5k2/8/8/8/8/7R/4K3 b - - 2 2");
}

// ---------------------------------------------------------------- keys and make/unmake

fn random_game(
    b: &mut Board,
    rng: &mut SmallRng,
    plies: usize,
    mut check: impl FnMut(&Board, Move),
) {
    for _ in 0..plies {
        let list = moves(b);
        if list.is_empty() || b.rule_outcome(0).is_some() {
            break;
        }
        // Prefer captures, promotions, castling and double pushes sometimes, to reach them.
        let m = list[rng.gen_range(0..list.len())];
        check(b, m);
        b.make(m);
    }
}

const GAME_STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "3k4/3pp3/8/8/8/8/3PP3/3K4 w - - 0 1",
];

#[test]
fn incremental_keys_equal_keys_from_scratch() {
    let mut rng = SmallRng::seed_from_u64(1);
    for game in 0..300 {
        let mut b = board(GAME_STARTS[game % GAME_STARTS.len()]);
        random_game(&mut b, &mut rng, 200, |b, m| {
            let mut after = b.clone();
            let undo = after.make(m);
            assert_eq!(after.key(), after.compute_key(), "{b:?} {m:?}");
            assert_eq!(after.pawn_key(), after.compute_pawn_key(), "{b:?} {m:?}");
            // The same position read from FEN has the same key and check state.
            let fresh = Board::from_text(&after.to_text()).unwrap();
            assert_eq!(fresh.key(), after.key(), "{b:?} {m:?}");
            assert_eq!(fresh.checkers(), after.checkers());
            assert_eq!(fresh.pinned(), after.pinned());
            assert_eq!(
                b.gives_check(m),
                after.in_check(),
                "gives_check {b:?} {m:?}"
            );
            after.unmake(m, undo);
            assert_eq!(after.to_text(), b.to_text());
            assert_eq!(after.key(), b.key());
            assert_eq!(after.history(), b.history());
        });
    }
}

#[test]
fn transpositions_share_a_key() {
    let mut a = Board::start();
    for m in ["g1f3", "g8f6", "b1c3", "b8c6"] {
        play(&mut a, m);
    }
    let mut b = Board::start();
    for m in ["b1c3", "b8c6", "g1f3", "g8f6"] {
        play(&mut b, m);
    }
    assert_eq!(a.key(), b.key());
    // The double push last (an en-passant square no pawn can use) or first: one key.
    let mut c = Board::start();
    for m in ["e2e4", "g8f6", "g1f3"] {
        play(&mut c, m);
    }
    let mut d = Board::start();
    for m in ["g1f3", "g8f6", "e2e4"] {
        play(&mut d, m);
    }
    assert_eq!(
        c.to_text().split(' ').take(4).collect::<Vec<_>>(),
        d.to_text().split(' ').take(4).collect::<Vec<_>>()
    );
    assert_eq!(c.key(), d.key());
}

#[test]
fn null_move_round_trips() {
    let mut b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert!(b.null_move_sound());
    let before = b.to_text();
    let key = b.key();
    let undo = b.make_null();
    assert_ne!(b.key(), key);
    assert_eq!(b.key(), b.compute_key());
    assert_eq!(b.side_to_move(), tetrarch::game::Side::Second);
    b.unmake_null(undo);
    assert_eq!((b.to_text(), b.key()), (before, key));
    // Not in check, not with only king and pawns.
    assert!(!board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").null_move_sound());
    assert!(!board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").null_move_sound());
    assert!(board("4k3/pppp4/8/8/8/8/PPPP4/4KN2 w - - 0 1").null_move_sound());
}

// ---------------------------------------------------------------- moves from elsewhere

#[test]
fn unpack_and_is_pseudo_legal_accept_exactly_the_legal_moves() {
    let mut rng = SmallRng::seed_from_u64(2);
    let mut positions = vec![];
    for game in 0..12 {
        let mut b = board(GAME_STARTS[game % GAME_STARTS.len()]);
        random_game(&mut b, &mut rng, 80, |b, _| positions.push(b.clone()));
    }
    for fen in [
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
        "4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1",
        "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    ] {
        positions.push(board(fen));
    }
    for b in &positions {
        let legal = moves(b);
        // Every 16-bit value: accepted exactly when generated.
        for bits in 0..=u16::MAX {
            let m = Move::from_bits(bits);
            assert_eq!(b.is_pseudo_legal(m), legal.contains(&m), "{b:?} {m:?}");
        }
        for &m in &legal {
            assert_eq!(b.unpack(Board::pack(m)), Some(m));
            assert!(b.move_index(m) < Board::MOVE_INDEX_SPACE);
        }
        for _ in 0..1000 {
            let bits: u32 = rng.gen();
            if let Some(m) = b.unpack(bits) {
                assert!(legal.contains(&m));
            }
        }
    }
    assert!(positions.len() > 300, "{}", positions.len());
}

#[test]
fn noisy_and_quiet_partition_all() {
    let mut rng = SmallRng::seed_from_u64(3);
    for game in 0..60 {
        let mut b = board(GAME_STARTS[game % GAME_STARTS.len()]);
        random_game(&mut b, &mut rng, 150, |b, _| {
            let all = moves(b);
            let mut noisy = MoveList::new();
            let mut quiet = MoveList::new();
            b.generate(GenKind::Noisy, &mut noisy);
            b.generate(GenKind::Quiet, &mut quiet);
            assert_eq!(noisy.len() + quiet.len(), all.len(), "{b:?}");
            for &m in &all {
                let is_noisy = b.is_noisy(m);
                assert_eq!(noisy.contains(&m), is_noisy, "{b:?} {m:?}");
                assert_eq!(quiet.contains(&m), !is_noisy, "{b:?} {m:?}");
                assert_eq!(b.noisy_value(m) > 0, is_noisy, "{b:?} {m:?}");
            }
        });
    }
}

// ---------------------------------------------------------------- rule results

#[test]
fn checkmate_and_stalemate() {
    // Fool's mate.
    let mut b = Board::start();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        play(&mut b, m);
    }
    assert!(b.in_check());
    assert!(moves(&b).is_empty());
    assert_eq!(b.outcome(), Some(Outcome::loss(Reason::Checkmate)));
    assert_eq!(b.no_move_outcome().verdict, Verdict::Loss);
    // Stalemate: black king a8, white queen b6, white king c8... (Ka8, Qb6, Kc7 not needed)
    let b = board("k7/8/1Q6/8/8/8/8/2K5 b - - 0 1");
    assert!(!b.in_check());
    assert!(moves(&b).is_empty());
    assert_eq!(b.outcome(), Some(Outcome::draw(Reason::Stalemate)));
    assert_eq!(Board::start().outcome(), None);
}

#[test]
fn threefold_repetition() {
    let mut b = Board::start();
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for m in dance {
        play(&mut b, m);
    }
    // Second occurrence of the start position: not yet a draw as game history...
    assert_eq!(b.rule_outcome(0), None);
    // ...but a draw inside the search when the first occurrence is after the root.
    assert_eq!(b.rule_outcome(5), Some(Outcome::draw(Reason::Repetition)));
    // The root itself (4 plies back at ply 4) is game history: needs the third occurrence.
    assert_eq!(b.rule_outcome(4), None);
    for m in dance {
        play(&mut b, m);
    }
    assert_eq!(b.rule_outcome(0), Some(Outcome::draw(Reason::Repetition)));
    assert_eq!(b.outcome(), Some(Outcome::draw(Reason::Repetition)));
    // A pawn move cuts the history off.
    play(&mut b, "e2e4");
    assert_eq!(b.rule_outcome(0), None);
}

#[test]
fn repetition_needs_equal_rights() {
    // The rooks go out and back: the position recurs but White lost the short-castling right.
    let mut b = board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    for m in [
        "h1g1", "h8g8", "g1h1", "g8h8", "h1g1", "h8g8", "g1h1", "g8h8",
    ] {
        play(&mut b, m);
    }
    // The start had other rights, so this is only the 2nd and 3rd time of the new rights'
    // position: after 8 plies the rights-less position occurred at ply 4 and ply 8.
    assert_eq!(b.rule_outcome(0), None);
    for m in ["h1g1", "h8g8", "g1h1", "g8h8"] {
        play(&mut b, m);
    }
    assert_eq!(b.rule_outcome(0), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn fifty_move_rule() {
    let b = board("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(b.rule_outcome(0), None);
    let mut b2 = b.clone();
    play(&mut b2, "a1a2");
    assert_eq!(b2.halfmove_clock(), 100);
    assert_eq!(b2.rule_outcome(0), Some(Outcome::draw(Reason::MoveLimit)));
    // A capture or pawn move resets the clock.
    let mut b3 = board("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
    play(&mut b3, "e2e3");
    assert_eq!(b3.halfmove_clock(), 0);
    // Mate on the 100th ply stands: no rule draw, and the mated side loses.
    let mut m = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    play(&mut m, "a1a8");
    assert_eq!(m.halfmove_clock(), 100);
    assert!(m.in_check());
    assert_eq!(m.rule_outcome(0), None);
    assert_eq!(m.outcome(), Some(Outcome::loss(Reason::Checkmate)));
    // Check that is not mate at 100 is a draw.
    let c = board("6k1/5pp1/8/8/8/8/8/R5K1 b - - 100 80");
    assert_eq!(c.rule_outcome(0), Some(Outcome::draw(Reason::MoveLimit)));
    let c = board("R5k1/5pp1/8/8/8/8/8/6K1 b - - 100 80");
    assert!(c.in_check());
    assert_eq!(c.rule_outcome(0), Some(Outcome::draw(Reason::MoveLimit)));
}

#[test]
fn dead_positions() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", // c8 and f1 are both light squares
        "4k3/8/8/8/8/8/8/4K1n1 w - - 0 1",
    ] {
        assert_eq!(
            board(fen).rule_outcome(0),
            Some(Outcome::draw(Reason::DeadPosition)),
            "{fen}"
        );
    }
    for fen in [
        "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", // bishops on both colours (c1 dark, f1 light)
        "1b2k3/8/8/8/8/8/8/4KB2 w - - 0 1", // b8 dark, f1 light
        "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K1b1 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ] {
        assert_eq!(board(fen).rule_outcome(0), None, "{fen}");
    }
    // Capturing the last pawn reaches a dead position.
    let mut b = board("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1");
    play(&mut b, "e1e2");
    assert_eq!(b.rule_outcome(0), Some(Outcome::draw(Reason::DeadPosition)));
}

// ---------------------------------------------------------------- SEE and checks

/// `see_ge` decides most calls by two bounds before playing out the exchange: over the moves
/// of random games, and thresholds around each move's exchange value, it answers exactly as
/// the played-out value does.
#[test]
fn see_ge_agrees_with_the_played_out_exchange() {
    let mut rng = SmallRng::seed_from_u64(17);
    let mut asked = 0;
    for _ in 0..60 {
        let mut b = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        for _ in 0..80 {
            let list = moves(&b);
            if list.is_empty() {
                break;
            }
            for &m in list.iter() {
                let v = b.see_value(m);
                for t in [v - 1, v, v + 1, 0, -100, 100, rng.gen_range(-1200..1200)] {
                    assert_eq!(
                        b.see_ge(m, t),
                        v >= t,
                        "{} {m:?} threshold {t}",
                        b.to_text()
                    );
                    asked += 1;
                }
            }
            // Captures half the time, so that exchanges get played out and boards thin.
            let captures: Vec<Move> = list.iter().copied().filter(|&m| b.is_noisy(m)).collect();
            let m = if !captures.is_empty() && rng.gen_bool(0.5) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                list[rng.gen_range(0..list.len())]
            };
            b.make(m);
        }
    }
    assert!(asked > 100_000, "only {asked} questions");
}

#[test]
fn static_exchange() {
    // Rook takes an undefended pawn.
    let b = board("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1");
    let m = b.parse_move("e1e5").unwrap();
    assert!(b.see_ge(m, 100) && !b.see_ge(m, 101));
    // Knight takes a pawn defended by a knight, with x-rays behind on both sides: loses N for P.
    let b = board("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
    let m = b.parse_move("d3e5").unwrap();
    assert!(b.see_ge(m, -220) && !b.see_ge(m, -219));
    // Queen to a square a pawn guards loses the queen.
    let b = board("4k3/8/3p4/8/3Q4/8/8/4K3 w - - 0 1");
    let m = b.parse_move("d4e5").unwrap();
    assert!(!b.see_ge(m, 0) && b.see_ge(m, -900));
    // Pawn takes a defended knight: wins N - P.
    let b = board("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1");
    let m = b.parse_move("e4d5").unwrap();
    assert!(b.see_ge(m, 220) && !b.see_ge(m, 221));
    // Rook takes a pawn the king guards: loses the rook...
    let b = board("4k3/4r3/8/8/8/8/4P3/4K3 b - - 0 1");
    let m = b.parse_move("e7e2").unwrap();
    assert!(!b.see_ge(m, 0) && b.see_ge(m, -400));
    // ...unless a second rook x-rays through: the king may not recapture on a guarded square.
    let b = board("4r1k1/4r3/8/8/8/8/4P3/4K3 b - - 0 1");
    let m = b.parse_move("e7e2").unwrap();
    assert!(b.see_ge(m, 100) && !b.see_ge(m, 101));
    // Promotion to a queen on an unguarded square gains queen minus pawn.
    let b = board("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    let m = b.parse_move("a7a8q").unwrap();
    assert!(b.see_ge(m, 800) && !b.see_ge(m, 801));
    // En passant wins a pawn; castling is neutral.
    let b = board("4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1");
    assert!(b.see_ge(b.parse_move("e5d6").unwrap(), 100));
    assert!(b.see_ge(b.parse_move("e1g1").unwrap(), 0));
}

#[test]
fn mvv_lva_orders_victims_first() {
    let b = board("4k3/8/8/2q1r3/1P1P4/8/8/3K4 w - - 0 1");
    let pxq = b.noisy_value(b.parse_move("b4c5").unwrap());
    let pxr = b.noisy_value(b.parse_move("d4e5").unwrap());
    let pxq2 = b.noisy_value(b.parse_move("d4c5").unwrap());
    assert!(pxq > pxr && pxq == pxq2);
    assert_eq!(b.noisy_value(b.parse_move("d1d2").unwrap()), 0);
}

#[test]
fn accessors() {
    let b = Board::start();
    assert_eq!(
        b.pieces(tetrarch::games::chess::Color::White, PieceKind::Pawn),
        0xFF00
    );
    assert_eq!(
        b.king_square(tetrarch::games::chess::Color::Black),
        sq("e8")
    );
    assert_eq!(b.phase(), 24);
    assert_eq!(
        b.material(tetrarch::games::chess::Color::White),
        8 * 100 + 2 * 320 + 2 * 330 + 2 * 500 + 900
    );
    assert_eq!(
        b.piece_at(sq("d1")),
        Some((tetrarch::games::chess::Color::White, PieceKind::Queen))
    );
    assert_eq!(b.fullmove_number(), 1);
}
