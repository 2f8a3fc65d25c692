//! Tests of the draughts rules: perft against testdata/draughts_perft.txt in both counting
//! conventions, root move lists, notation round trips and errors, rule results, promotion and
//! Turkish-strike cases, key consistency and robustness of `unpack`/`is_pseudo_legal`.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::squares::{bit_of_square, VALID};
use super::*;
use crate::game::{GenKind, MoveList, Notation, Outcome, Position, Reason, Side, Verdict};
use crate::perft::perft;

/// One record of the perft file.
struct Record {
    fen: String,
    id: String,
    distinct: Vec<u64>,
    paths: Vec<u64>,
    moves: Vec<String>,
    pathmoves: u64,
}

fn records() -> Vec<Record> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/draughts_perft.txt"
    );
    let text = std::fs::read_to_string(path).expect("testdata/draughts_perft.txt");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(" ;");
        let fen = parts.next().unwrap().trim().to_string();
        let mut rec = Record {
            fen,
            id: String::new(),
            distinct: Vec::new(),
            paths: Vec::new(),
            moves: Vec::new(),
            pathmoves: 0,
        };
        for p in parts {
            let (k, v) = p.trim().split_once(' ').unwrap();
            let nums = || v.split(',').map(|n| n.parse::<u64>().unwrap()).collect();
            match k {
                "distinct" => rec.distinct = nums(),
                "paths" => rec.paths = nums(),
                "moves" => rec.moves = v.split(',').map(str::to_string).collect(),
                "pathmoves" => rec.pathmoves = v.parse().unwrap(),
                "id" => rec.id = v.trim_matches('"').to_string(),
                _ => panic!("unknown field {k}"),
            }
        }
        out.push(rec);
    }
    assert_eq!(out.len(), 26, "the file has 26 positions");
    out
}

fn board(text: &str) -> Board {
    Board::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(b: &Board) -> Vec<Move> {
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    moves.to_vec()
}

/// Checks every depth of the file in one convention (the whole file is about 1 G nodes and
/// takes seconds with bulk counting).
fn check_perft(paths: bool) {
    for rec in records() {
        let mut b = board(&rec.fen);
        let counts = if paths { &rec.paths } else { &rec.distinct };
        for (i, &want) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let got = if paths {
                perft_paths(&mut b, depth)
            } else {
                perft_distinct(&mut b, depth)
            };
            let kind = if paths { "paths" } else { "distinct" };
            assert_eq!(got, want, "{} {kind} depth {depth}", rec.id);
        }
        assert_eq!(b.game_ply(), 0, "perft leaves the board as it found it");
        assert_eq!(b, board(&rec.fen));
    }
}

/// The bulk-counting perft against the generic one, which makes and lists every move; and
/// the divides against the totals.
#[test]
fn bulk_perft_equals_generic_perft() {
    for rec in records() {
        let mut b = board(&rec.fen);
        let mut depth = 1;
        // Up to about 200k leaves per position, enough to reach every kind of node the file has.
        while depth <= rec.distinct.len() as u32 && rec.distinct[depth as usize - 1] < 200_000 {
            let want = perft(&mut b, depth);
            assert_eq!(
                perft_distinct(&mut b, depth),
                want,
                "{} depth {depth}",
                rec.id
            );
            let split = divide_distinct(&mut b, depth);
            assert_eq!(split.iter().map(|x| x.1).sum::<u64>(), want, "{}", rec.id);
            let split = divide_paths(&mut b, depth);
            assert_eq!(
                split.iter().map(|x| x.2).sum::<u64>(),
                perft_paths(&mut b, depth),
                "{}",
                rec.id
            );
            depth += 1;
        }
        assert!(depth > 2, "{}: compared at depth 2 at least", rec.id);
        assert_eq!(b, board(&rec.fen));
    }
}

/// The leaf counts against the generators in random games from every position of the file.
#[test]
fn move_counts_equal_generated_lists() {
    let starts: Vec<Board> = records().iter().map(|r| board(&r.fen)).collect();
    let mut captures = 0;
    for (i, s) in starts.iter().enumerate() {
        for seed in 0..10u64 {
            random_game(s, seed * 1000 + i as u64, 300, |b| {
                let moves = legal(b);
                assert_eq!(b.count_moves(), moves.len() as u64, "{}", b.to_text());
                let mut list = MoveList::new();
                let mut counts = arrayvec::ArrayVec::<u32, { crate::game::MAX_MOVES }>::new();
                b.gen_with_paths(&mut list, &mut counts);
                // The same moves, in an order of their own (paths are followed further).
                let key = |m: &Move| (m.from, m.to, m.captured);
                let (mut a, mut z) = (list.to_vec(), moves.clone());
                a.sort_by_key(key);
                z.sort_by_key(key);
                assert_eq!(a, z, "{}", b.to_text());
                let paths: u64 = counts.iter().map(|&c| c as u64).sum();
                assert_eq!(b.count_paths(), paths, "{}", b.to_text());
                let mut quiet = MoveList::new();
                b.gen_quiet(&mut quiet);
                assert_eq!(b.count_quiet(), quiet.len() as u64, "{}", b.to_text());
                if b.has_capture() {
                    captures += 1;
                }
            });
        }
    }
    assert!(captures > 1000, "the games reach captures ({captures})");
}

/// The set-based count of men captures of up to three jumps, and its hand-over to the search
/// when a fourth jump may follow, against the listed moves: a 4-jump ring that two orders
/// take (one distinct move, two paths), 3-jump chains that branch, and one with a 4th jump.
#[test]
fn short_men_captures_count_as_listed() {
    for fen in [
        "W:W38,46,47,49:B3,4,8,22,23,32,33",
        "W:W48:B22,23,32,42",
        "W:W48:B12,22,23,32,42",
        "W:W37,48:B22,23,32,42",
        "B:W22,23,32,42:B8,17",
    ] {
        let b = board(fen);
        let moves = legal(&b);
        assert!(moves[0].is_capture(), "{fen}");
        assert_eq!(b.count_moves(), moves.len() as u64, "{fen}");
        let mut list = MoveList::new();
        let mut counts = arrayvec::ArrayVec::<u32, { crate::game::MAX_MOVES }>::new();
        b.gen_with_paths(&mut list, &mut counts);
        let paths: u64 = counts.iter().map(|&c| c as u64).sum();
        assert_eq!(b.count_paths(), paths, "{fen}");
    }
}

/// The generators against the plain reference search of `reference_captures`: the same
/// moves in the same order (the search's ordering depends on it), and the same path counts,
/// at every node of shallow trees from the file's positions and in random games.
#[test]
fn captures_equal_the_reference_search_in_order() {
    fn check(b: &Board, seen: &mut u64) {
        let mut list = MoveList::new();
        b.generate(GenKind::Noisy, &mut list);
        let want: Vec<Move> = super::reference_captures::captures(b, true)
            .into_iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(list.as_slice(), want.as_slice(), "{}", b.to_text());
        let mut list = MoveList::new();
        let mut counts = arrayvec::ArrayVec::<u32, { crate::game::MAX_MOVES }>::new();
        b.gen_with_paths(&mut list, &mut counts);
        if !want.is_empty() {
            let got: Vec<(Move, u32)> = list.iter().copied().zip(counts).collect();
            assert_eq!(got, super::reference_captures::captures(b, false));
            *seen += 1;
        }
    }
    fn tree(b: &mut Board, depth: u32, seen: &mut u64) {
        check(b, seen);
        if depth == 0 {
            return;
        }
        for m in legal(b) {
            let u = b.make(m);
            tree(b, depth - 1, seen);
            b.unmake(m, u);
        }
    }
    let mut seen = 0;
    for rec in records() {
        let mut b = board(&rec.fen);
        let depth = if rec.distinct.get(2).is_some_and(|&n| n > 20_000) {
            2
        } else {
            3
        };
        tree(&mut b, depth, &mut seen);
        for seed in 0..40u64 {
            random_game(&b, seed, 300, |b| check(b, &mut seen));
        }
    }
    assert!(seen > 5000, "positions with captures checked: {seen}");
}

#[test]
fn perft_distinct_matches_reference_counts() {
    check_perft(false);
}

#[test]
fn perft_paths_matches_reference_counts() {
    check_perft(true);
}

/// The start position beyond the file: dctl's published depths 10 and 11 (both conventions;
/// 3.9 G nodes, about a minute in release).
#[test]
#[ignore]
fn perft_start_position_deep() {
    let mut b = Board::start();
    assert_eq!(perft(&mut b, 10), 258_895_763);
    assert_eq!(perft_paths(&mut b, 10), 258_935_682);
    assert_eq!(perft(&mut b, 11), 1_665_861_398);
    assert_eq!(perft_paths(&mut b, 11), 1_666_207_133);
}

#[test]
fn root_moves_match_reference_lists() {
    for rec in records() {
        let b = board(&rec.fen);
        let mut want: Vec<Move> = rec
            .moves
            .iter()
            .map(|t| {
                b.parse_move(t)
                    .unwrap_or_else(|e| panic!("{}: {t}: {e}", rec.id))
            })
            .collect();
        let mut got = legal(&b);
        let key = |m: &Move| (m.from, m.to, m.captured);
        want.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, want, "{}", rec.id);
        assert_eq!(got.len() as u64, rec.distinct[0], "{}", rec.id);
        assert_eq!(perft_paths(&mut b.clone(), 1), rec.pathmoves, "{}", rec.id);
        // The full path the file gives is one of the paths this move can take.
        for (t, m) in rec.moves.iter().zip(want.iter()) {
            if m.is_capture() {
                let text = b.path_move_text(*m);
                assert_eq!(b.parse_move(&text).unwrap(), *m, "{}: {t}", rec.id);
            }
        }
    }
}

#[test]
fn fen_and_hub_round_trip() {
    for rec in records() {
        let b = board(&rec.fen);
        assert_eq!(
            b.to_text(),
            rec.fen,
            "the file's FENs are in canonical form"
        );
        let hub = b.to_hub();
        assert_eq!(hub.len(), 51);
        let back = Board::from_hub(&hub).unwrap();
        assert_eq!(back, b);
        assert_eq!(back.key(), b.key());
        assert_eq!(Board::from_text(&hub).unwrap(), b);
    }
    let start = Board::start();
    assert_eq!(
        start.to_hub(),
        "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
    );
    assert_eq!(
        start.to_text(),
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
         B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    );
    // Other spellings of the same positions.
    for alt in [
        "W:B1-20:W31-50",
        "W:W31-50:B1-20.",
        "[FEN \"W:W31-50:B1-20\"]",
        " W:W31-40,41-50:B1-10,11,12,13-20 ",
    ] {
        assert_eq!(board(alt), start, "{alt}");
    }
    let woldouby = board("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38");
    assert_eq!(
        woldouby.to_text(),
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"
    );
    let kings = board("B:WK1-3,10:BK46-K48");
    assert_eq!(kings.to_text(), "B:WK1,K2,K3,10:BK46,K47,K48");
}

#[test]
fn bad_positions_are_rejected_with_a_reason() {
    let cases = [
        ("", "neither"),
        ("hello", "neither"),
        (
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwww",
            "51 characters",
        ),
        (
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwww",
            "51 characters",
        ),
        (
            "Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "side to move",
        ),
        (
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx",
            "bad character",
        ),
        (
            "Wwbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "White man on square 1",
        ),
        (
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwb",
            "Black man on square 50",
        ),
        (
            "Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "no pieces",
        ),
        ("W:W31,51:B1", "outside 1-50"),
        ("W:W0:B1", "outside 1-50"),
        ("W:W31,31:B1", "twice"),
        ("W:W31:B31", "both"),
        ("W:W31-35,33:B1", "twice"),
        ("W:W3:B10", "White man on square 3"),
        ("W:W30:B47", "Black man on square 47"),
        ("W:WK3:BK47", ""),
        ("X:W31:B1", "side to move"),
        ("W:W31", "no Black"),
        ("W:W31:B1:B2", "twice"),
        ("W:Q31:B1", "must start with W or B"),
        ("W:W3a:B1", "not a square number"),
        ("W:W35-31:B1", "backwards"),
        ("W:W31,,32:B1", "not a square number"),
        ("W:W31:B", "no pieces"),
        ("W:W:B1", ""),
    ];
    for (text, reason) in cases {
        let r = Board::from_text(text);
        if reason.is_empty() {
            assert!(r.is_ok(), "{text} should be accepted: {r:?}");
        } else {
            let e = r.expect_err(text);
            assert!(e.0.contains(reason), "{text}: '{}' lacks '{reason}'", e.0);
        }
    }
    // Garbage bytes never panic.
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..20_000 {
        let len = rng.gen_range(0..70);
        let s: String = (0..len)
            .map(|_| *b"WBwbKe:,-.0123456789 x".get(rng.gen_range(0..22)).unwrap() as char)
            .collect();
        let _ = Board::from_text(&s);
    }
}

#[test]
fn move_text_forms() {
    let b = board("W:W28:B23");
    // The only legal move is a capture: short form, Hub form, full path.
    let m = b.parse_move("28x19").unwrap();
    assert_eq!(b.move_text(m), "28x19");
    assert_eq!(b.hub_move_text(m), "28x19x23");
    assert_eq!(b.parse_move("28x19x23").unwrap(), m);
    assert_eq!(
        b.parse_move(" 28-19 ").unwrap(),
        m,
        "separators are not checked"
    );
    assert!(b.parse_move("28x19x22").is_err());
    assert!(b.parse_move("32-28").unwrap_err().0.contains("illegal"));
    for bad in [
        "", "28", "28x", "x19", "28x19x", "28y19", "28x99", "0-5", "28--19",
    ] {
        let e = b.parse_move(bad).expect_err(bad);
        assert!(e.0.contains("bad move"), "{bad}: {}", e.0);
    }

    // Hub form: captured squares in any order; full path.
    let b = board("W:W48:B24,K31,34,K42,43");
    let m = b.parse_move("48x19").unwrap();
    assert_eq!(b.hub_move_text(m), "48x19x24x34x43");
    assert_eq!(b.parse_move("48x19x43x24x34").unwrap(), m);
    assert_eq!(b.parse_move("48x39x30x19").unwrap(), m);
    assert!(b.parse_move("48x30x39x19").is_err(), "not a path");
    assert_eq!(b.path_move_text(m), "48x39x30x19");

    // Quiet moves.
    let s = Board::start();
    let m = s.parse_move("32-28").unwrap();
    assert_eq!(s.move_text(m), "32-28");
    assert!(!m.is_capture());
    assert!(s.parse_move("32-27x22").is_err());
    assert!(s.parse_move("28-32").is_err());

    // Garbage never panics, in positions with and without captures.
    let mut rng = SmallRng::seed_from_u64(11);
    for b in [
        Board::start(),
        board("W:W48:B24,K31,34,K42,43"),
        board("W:WK19:B4,8,13,20,24,33,34,35"),
    ] {
        for _ in 0..20_000 {
            let len = rng.gen_range(0..16);
            let t: String = (0..len)
                .map(|_| *b"0123456789xX- 5".get(rng.gen_range(0..15)).unwrap() as char)
                .collect();
            if let Ok(m) = b.parse_move(&t) {
                assert!(legal(&b).contains(&m), "{t}");
            }
        }
    }
}

#[test]
fn ambiguous_short_capture_is_rejected() {
    // The king on 19 ends on 25 after taking 20, 24, 33, 34 and either 8 or 13. (Found by a
    // random search: with men, and with kings on two-piece routes, two routes to one square
    // always combine into a longer loop that the majority rule prefers.)
    let b = board("W:WK19:B4,8,13,20,24,33,34,35");
    let moves = legal(&b);
    assert_eq!(moves.len(), 2);
    let e = b.parse_move("19x25").unwrap_err();
    assert!(e.0.contains("ambiguous"), "{}", e.0);
    assert!(
        e.0.contains("19x25x8x20x24x33x34") && e.0.contains("19x25x13x20x24x33x34"),
        "{}",
        e.0
    );
    let a = b.parse_move("19x25x8x20x24x33x34").unwrap();
    let c = b.parse_move("19x25x34x33x24x20x13").unwrap();
    assert_ne!(a, c);
    // Written unambiguously, and read back in every form.
    for m in moves {
        let t = b.move_text(m);
        assert_eq!(t.matches('x').count(), 6, "{t}");
        assert_eq!(b.parse_move(&t).unwrap(), m);
        let path = b.path_move_text(m);
        assert_eq!(b.parse_move(&path).unwrap(), m, "{path}");
    }
}

#[test]
fn generator_kinds_partition() {
    // A capture position: Quiet is empty, Noisy is everything.
    let b = board("W:W28:B23,1");
    let (mut all, mut noisy, mut quiet) = (MoveList::new(), MoveList::new(), MoveList::new());
    b.generate(GenKind::All, &mut all);
    b.generate(GenKind::Noisy, &mut noisy);
    b.generate(GenKind::Quiet, &mut quiet);
    assert!(quiet.is_empty());
    assert_eq!(all, noisy);
    assert!(all.iter().all(|&m| b.is_noisy(m)));
    // A quiet position: Noisy is empty.
    let s = Board::start();
    let (mut all, mut noisy, mut quiet) = (MoveList::new(), MoveList::new(), MoveList::new());
    s.generate(GenKind::All, &mut all);
    s.generate(GenKind::Noisy, &mut noisy);
    s.generate(GenKind::Quiet, &mut quiet);
    assert!(noisy.is_empty());
    assert_eq!(all, quiet);
    assert!(all.iter().all(|&m| !s.is_noisy(m)));
    // Generation appends: existing entries are kept.
    let mut list = MoveList::new();
    s.generate(GenKind::All, &mut list);
    b.generate(GenKind::All, &mut list);
    assert_eq!(list.len(), 9 + 1);
}

#[test]
fn promotion_only_when_a_capture_ends_on_the_far_row() {
    // Passing 4 during the capture does not crown.
    let mut b = board("W:W15:B9,10");
    let m = b.parse_move("15x4x13").unwrap();
    assert!(!m.promotes());
    b.make(m);
    assert_eq!(b.to_text(), "B:W13:B");
    assert_eq!(b.kings(Side::First), 0);
    // Ending on 4 crowns.
    let mut b = board("W:W15:B10,40");
    let m = b.parse_move("15x4").unwrap();
    assert!(m.promotes());
    b.make(m);
    assert_eq!(b.to_text(), "B:WK4:B40");
    // A quiet move onto the row crowns; a black man crowns on 46-50.
    let mut b = board("B:W6:B41");
    let m = b.parse_move("41-46").unwrap();
    assert!(m.promotes());
    b.make(m);
    assert_eq!(b.to_text(), "W:W6:BK46");
    // A promoted man is a king from the next move on: it flies.
    let moves = legal(&board("B:W6:BK46"));
    assert_eq!(moves.len(), 9);
}

#[test]
fn turkish_strike() {
    // The rule-book example: the king on 25 may not jump a captured piece twice, and captured
    // pieces block until the end.
    let mut b = board("B:W27,28,38,39,42:BK25");
    let moves = legal(&b);
    assert_eq!(moves.len(), 1);
    let m = moves[0];
    // 25x48x31x22x33: 39, 42, 27 and 28 are taken; 38 stays.
    assert_eq!(b.hub_move_text(m), "25x33x27x28x39x42");
    assert_eq!(b.path_move_text(m), "25x48x31x22x33");
    b.make(m);
    assert_eq!(b.to_text(), "W:W38:BK33");
}

#[test]
fn majority_and_kings_count_as_one() {
    // Two men outweigh one king (rule book: kings do not count extra).
    let b = board("W:W26:B12,K21,31,32");
    let texts: Vec<String> = legal(&b).iter().map(|&m| b.hub_move_text(m)).collect();
    assert_eq!(texts.len(), 2);
    assert!(texts.iter().all(|t| t.matches('x').count() == 3));
    // noisy_value weighs kings.
    let b = board("W:W28:BK23");
    let m = legal(&b)[0];
    assert_eq!(b.noisy_value(m), KING_VALUE);
    let b = board("W:W28:B23");
    assert_eq!(b.noisy_value(legal(&b)[0]), MAN_VALUE);
    assert_eq!(b.noisy_value(b.parse_move("28x19").unwrap()), MAN_VALUE);
}

#[test]
fn no_pieces_and_blocked_lose() {
    let mut b = board("W:W32:B27");
    assert_eq!(b.rule_outcome(0), None);
    let m = b.parse_move("32x21").unwrap();
    b.make(m);
    assert_eq!(b.side_to_move(), Side::Second);
    assert_eq!(b.rule_outcome(0), Some(Outcome::loss(Reason::NoPieces)));
    assert_eq!(b.outcome(), Some(Outcome::loss(Reason::NoPieces)));
    // White's man on 6 is stuck behind the black man on 1.
    let b = board("W:W6:B1");
    assert!(!b.has_legal_move());
    assert!(legal(&b).is_empty());
    assert_eq!(b.rule_outcome(0), None);
    assert_eq!(b.outcome(), Some(Outcome::loss(Reason::NoLegalMove)));
    assert_eq!(b.no_move_outcome().verdict, Verdict::Loss);
    assert!(Board::start().has_legal_move());
    assert_eq!(Board::start().outcome(), None);
}

/// Plays `plies` moves chosen so that nothing is captured and no position repeats (and the
/// opponent gets no capture), failing if that is impossible. Returns the outcomes seen after
/// each ply.
fn shuffle(b: &mut Board, plies: usize, seed: u64, kings_only: bool) -> Vec<Option<Outcome>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = vec![b.key()];
    let mut outcomes = Vec::new();
    for ply in 0..plies {
        let mut candidates: Vec<Move> = legal(b)
            .into_iter()
            .filter(|&m| {
                let side = b.side_to_move();
                if m.is_capture() || (kings_only && b.kings(side) & (1u64 << m.from) == 0) {
                    return false;
                }
                let mut c = b.clone();
                c.make(m);
                !seen.contains(&c.key()) && !c.has_capture()
            })
            .collect();
        assert!(!candidates.is_empty(), "no quiet move at ply {ply}");
        let m = candidates.swap_remove(rng.gen_range(0..candidates.len()));
        b.make(m);
        seen.push(b.key());
        outcomes.push(b.rule_outcome(0));
    }
    outcomes
}

#[test]
fn twenty_five_king_moves_draw() {
    // Two kings and a few blocked men each: not a lone-king ending.
    let mut b = board("W:WK38,K47,45,50:BK3,K14,1,6");
    let out = shuffle(&mut b, 50, 1, true);
    assert!(out[..49].iter().all(Option::is_none), "{out:?}");
    assert_eq!(out[49], Some(Outcome::draw(Reason::MoveLimit)));
    assert_eq!(b.quiet_plies(), 50);
    // A man move resets the count.
    let mut b = board("W:WK38,K47,45,50:BK3,K14,1,6");
    shuffle(&mut b, 30, 2, true);
    assert_eq!(b.quiet_plies(), 30);
    let side = b.side_to_move();
    let man_move = legal(&b)
        .into_iter()
        .find(|m| b.men(side) & (1u64 << m.from) != 0 && !m.is_capture())
        .expect("a man can move");
    b.make(man_move);
    assert_eq!(b.quiet_plies(), 0);
}

#[test]
fn sixteen_and_five_move_rules() {
    // Three kings against a lone king: 16 moves each.
    let mut b = board("W:WK1,K2,K3:BK28");
    assert_eq!(b.lone_king_plies(), Some(0));
    let out = shuffle(&mut b, 32, 3, true);
    assert!(out[..31].iter().all(Option::is_none), "{out:?}");
    assert_eq!(out[31], Some(Outcome::draw(Reason::EndgameRule)));
    // Two kings against one: 5 moves each.
    let mut b = board("B:WK1,K2:BK28");
    let out = shuffle(&mut b, 10, 4, true);
    assert!(out[..9].iter().all(Option::is_none), "{out:?}");
    assert_eq!(out[9], Some(Outcome::draw(Reason::EndgameRule)));
    // A king and a man against a king: 5 moves each, men moves included.
    let mut b = board("W:WK46,25:BK1");
    let out = shuffle(&mut b, 10, 5, false);
    assert_eq!(out[9], Some(Outcome::draw(Reason::EndgameRule)));
    // Three men against a king is not covered.
    let mut b = board("W:W46,47,48:BK3");
    assert_eq!(b.lone_king_plies(), None);
    let out = shuffle(&mut b, 12, 6, false);
    assert!(out.iter().all(Option::is_none));
    // A crowning inside the 16-move ending keeps the count going.
    let mut b = board("W:WK46,K50,6:BK35");
    assert_eq!(b.lone_king_plies(), Some(0));
    let crown = b.parse_move("6-1").unwrap();
    assert!(crown.promotes());
    b.make(crown);
    assert_eq!(b.lone_king_plies(), Some(1));
    shuffle(&mut b, 31, 7, true);
    assert_eq!(b.rule_outcome(0), Some(Outcome::draw(Reason::EndgameRule)));
    // Entering the ending by a capture starts the count.
    let mut b = board("B:WK46,K50,6,28:BK22");
    assert_eq!(b.lone_king_plies(), None);
    let m = b.parse_move("22x33").unwrap();
    b.make(m);
    assert_eq!(b.lone_king_plies(), Some(0));
}

#[test]
fn repetition_draws_on_the_third_occurrence() {
    let mut b = board("W:WK45,K46:BK5,K6");
    let cycle = ["45-40", "6-11", "40-45", "11-6"];
    let mut outcomes = Vec::new();
    for t in cycle.iter().chain(cycle.iter()) {
        let m = b.parse_move(t).unwrap();
        b.make(m);
        outcomes.push(b.rule_outcome(0));
    }
    // The start position is back after 4 plies (second time) and 8 plies (third time).
    assert!(outcomes[..7].iter().all(Option::is_none), "{outcomes:?}");
    assert_eq!(outcomes[7], Some(Outcome::draw(Reason::Repetition)));
    // Inside the search, the first recurrence counts.
    let mut b = board("W:WK45,K46:BK5,K6");
    for t in cycle {
        let m = b.parse_move(t).unwrap();
        b.make(m);
    }
    assert_eq!(
        b.rule_outcome(3),
        None,
        "the earlier position is before the root"
    );
    assert_eq!(b.rule_outcome(4), Some(Outcome::draw(Reason::Repetition)));
    // A man move in between makes the old positions unreachable.
    let mut b = board("W:WK45,K46,30:BK5,K6");
    for t in [
        "45-40", "6-11", "40-45", "11-6", "30-24", "6-11", "45-40", "11-6", "40-45",
    ] {
        let m = b.parse_move(t).unwrap();
        b.make(m);
        assert_eq!(b.rule_outcome(0), None, "after {t}");
    }
    // Unmake restores the history.
    let mut b = board("W:WK45,K46:BK5,K6");
    let mut undos = Vec::new();
    for t in cycle.iter().chain(cycle.iter()) {
        let m = b.parse_move(t).unwrap();
        undos.push((m, b.make(m)));
    }
    assert!(b.rule_outcome(0).is_some());
    let (m, u) = undos.pop().unwrap();
    b.unmake(m, u);
    assert_eq!(b.rule_outcome(0), None);
    assert_eq!(b.game_ply(), 7);
}

/// A random legal game from `start`, calling `f` at every position.
fn random_game(start: &Board, seed: u64, max_plies: usize, mut f: impl FnMut(&Board)) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut b = start.clone();
    for _ in 0..max_plies {
        f(&b);
        let moves = legal(&b);
        if moves.is_empty() || b.rule_outcome(0).is_some() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let before = b.clone();
        let undo = b.make(m);
        // Unmake restores everything, then replay.
        let mut c = b.clone();
        c.unmake(m, undo);
        assert_eq!(c, before);
        assert_eq!(c.history, before.history);
    }
}

#[test]
fn incremental_key_matches_scratch_key() {
    let starts: Vec<Board> = records().iter().map(|r| board(&r.fen)).collect();
    for (i, s) in starts.iter().enumerate() {
        for seed in 0..20u64 {
            random_game(s, seed * 100 + i as u64, 300, |b| {
                assert_eq!(b.key(), b.key_from_scratch(), "{}", b.to_text());
                assert_eq!(Board::from_text(&b.to_text()).unwrap().key(), b.key());
                let hub = Board::from_hub(&b.to_hub()).unwrap();
                assert_eq!(hub.to_fen(), b.to_fen());
                assert_eq!(hub.key(), b.key());
            });
        }
    }
}

#[test]
fn move_text_round_trips_in_random_games() {
    let starts: Vec<Board> = records().iter().map(|r| board(&r.fen)).collect();
    for (i, s) in starts.iter().enumerate() {
        random_game(s, 7 + i as u64, 200, |b| {
            for m in legal(b) {
                for t in [b.move_text(m), b.hub_move_text(m), b.path_move_text(m)] {
                    assert_eq!(b.parse_move(&t), Ok(m), "{t} in {}", b.to_text());
                }
                assert!(b.is_pseudo_legal(m));
                assert_eq!(b.unpack(Board::pack(m)), Some(m));
                assert_ne!(Board::pack(m), 0);
                assert!(b.move_index(m) < Board::MOVE_INDEX_SPACE);
            }
        });
    }
}

#[test]
fn unpack_and_pseudo_legality_never_panic() {
    let mut rng = SmallRng::seed_from_u64(99);
    let starts: Vec<Board> = records().iter().map(|r| board(&r.fen)).collect();
    let mut positions = Vec::new();
    for (i, s) in starts.iter().enumerate() {
        random_game(s, 1000 + i as u64, 120, |b| positions.push(b.clone()));
    }
    // Moves from other positions, and arbitrary field values.
    let mut foreign: Vec<Move> = positions.iter().flat_map(legal).collect();
    for _ in 0..2000 {
        foreign.push(Move {
            captured: rng.gen::<u64>() & if rng.gen() { VALID } else { u64::MAX },
            from: rng.gen(),
            to: rng.gen(),
            promotes: rng.gen(),
        });
        foreign.push(Move {
            captured: 0,
            from: rng.gen_range(0..54),
            to: rng.gen_range(0..54),
            promotes: rng.gen(),
        });
    }
    for b in positions.iter().step_by(7) {
        let mine = legal(b);
        for &m in foreign.iter().step_by(3) {
            let ok = b.is_pseudo_legal(m);
            assert_eq!(ok, mine.contains(&m), "{m:?} in {}", b.to_text());
            let _ = b.move_index(m);
            let _ = b.noisy_value(m);
            let _ = format!("{m:?}");
            let _ = b.hub_move_text(m);
        }
        for _ in 0..300 {
            let bits: u32 = rng.gen();
            if let Some(m) = b.unpack(bits) {
                assert!(mine.contains(&m));
            }
            let low: u32 = rng.gen_range(0..1 << 13);
            if let Some(m) = b.unpack(low) {
                assert!(mine.contains(&m));
            }
        }
    }
}

#[test]
fn null_move_is_a_side_flip() {
    const { assert!(!Board::NULL_MOVE_OK) };
    const { assert!(!Board::HAS_CHECKS) };
    let mut b = Board::start();
    assert!(!b.null_move_sound());
    let before = b.clone();
    let u = b.make_null();
    assert_eq!(b.side_to_move(), Side::Second);
    assert_eq!(b.key(), b.key_from_scratch());
    b.unmake_null(u);
    assert_eq!(b, before);
    assert_eq!(b.game_ply(), 0);
}

#[test]
fn accessors_for_evaluation() {
    let b = board("B:W31,K46:B1,K5");
    assert_eq!(b.side_to_move(), Side::Second);
    assert_eq!(b.men(Side::First), 1u64 << bit_of_square(31));
    assert_eq!(b.kings(Side::First), 1u64 << bit_of_square(46));
    assert_eq!(b.men(Side::Second), 1u64 << bit_of_square(1));
    assert_eq!(b.kings(Side::Second), 1u64 << bit_of_square(5));
    assert_eq!(b.occupied().count_ones(), 4);
    assert_eq!(b.empty().count_ones(), 46);
    assert_eq!(
        squares::squares(b.pieces(Side::First)).collect::<Vec<_>>(),
        vec![31, 46]
    );
}
