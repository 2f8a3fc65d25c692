//! Rule tests: the shared Go cases (suicide, ko, superko, seki scoring) and random games
//! checked against recomputation.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Illegal, Move, BLACK, EMPTY, WHITE};
use crate::game::{MctsState, Side};

fn side(letter: &str) -> Side {
    match letter {
        "B" | "Black" => Side::First,
        _ => Side::Second,
    }
}

struct Case {
    name: String,
    board: Board,
    tests: Vec<(Side, String, bool, String)>,
    score: Option<String>,
}

/// Parses `testdata/go_cases.txt` into positions with the listed moves played.
fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/go_cases.txt");
    let text = std::fs::read_to_string(path).expect("testdata/go_cases.txt");
    let mut out = Vec::new();
    for chunk in text.split("== CASE ").skip(1) {
        let name = chunk.split(" ==").next().unwrap().to_string();
        let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
        let mut to_move = Side::First;
        let mut moves = Vec::new();
        let mut tests = Vec::new();
        let mut score = None;
        for line in chunk.lines() {
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("to move:") {
                to_move = side(rest.trim());
            } else if let Some(rest) = t.strip_prefix("moves:") {
                for mv in rest.split(',') {
                    let mut w = mv.split_whitespace();
                    moves.push((side(w.next().unwrap()), w.next().unwrap().to_string()));
                }
            } else if let Some(rest) = t.strip_prefix("test:") {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let expected = rest.split("expected:").nth(1).unwrap().trim().to_string();
                let legal = expected.starts_with("legal");
                tests.push((side(w[0]), w[1].to_string(), legal, expected));
            } else if let Some(rest) = t.strip_prefix("score:") {
                score = Some(rest.rsplit('=').next().unwrap().trim().to_string());
            } else {
                let mut w = t.split_whitespace();
                if let Some(Ok(row)) = w.next().map(str::parse::<usize>) {
                    let cells: Vec<char> = w.map(|c| c.chars().next().unwrap()).collect();
                    if cells.len() == 9 && cells.iter().all(|c| ".XO".contains(*c)) {
                        rows.push((row, cells));
                    }
                }
            }
        }
        assert_eq!(rows.len(), 9, "case {name}: board rows");
        let mut board = Board::new(9);
        for (row, cells) in &rows {
            for (x, c) in cells.iter().enumerate() {
                let p = board.point(x, row - 1);
                match c {
                    'X' => board.setup_stone(p, Side::First).unwrap(),
                    'O' => board.setup_stone(p, Side::Second).unwrap(),
                    _ => {}
                }
            }
        }
        board.reset_history();
        board.set_to_move(to_move);
        for (s, v) in &moves {
            let m = board.parse_vertex(v).unwrap();
            board.set_to_move(*s);
            board
                .check(m)
                .unwrap_or_else(|e| panic!("case {name}: {v} illegal: {e}"));
            board.play(m);
            board.commit_history();
            board.validate().unwrap();
        }
        out.push(Case {
            name,
            board,
            tests,
            score,
        });
    }
    out
}

#[test]
fn shared_rule_cases() {
    let cases = cases();
    assert_eq!(cases.len(), 9);
    let mut checked = 0;
    for case in &cases {
        for (s, v, legal, why) in &case.tests {
            let m = case.board.parse_vertex(v).unwrap();
            let got = case.board.check_as(m, *s);
            if *legal {
                assert_eq!(got, Ok(()), "case {}: {v} should be legal", case.name);
            } else {
                let want = if why.contains("suicide") {
                    Illegal::Suicide
                } else {
                    Illegal::Superko
                };
                assert_eq!(got, Err(want), "case {}: {v} ({why})", case.name);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 11);
}

#[test]
fn seki_case_scores_by_area() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "seki-area-scoring")
        .unwrap();
    assert_eq!(case.score.as_deref(), Some("B+18.5"));
    let (b, w) = case.board.area();
    assert_eq!((b, w), (53, 27));
    assert_eq!(case.board.score_with_dead(&[]), 18.5);
}

#[test]
fn capture_and_ko_bookkeeping() {
    // The simple ko case: after B C2 captures B2, White's retake is banned, and the ko point
    // is the captured stone's point.
    let case = cases().into_iter().find(|c| c.name == "simple-ko").unwrap();
    let b = &case.board;
    assert_eq!(b.at(b.parse_vertex("B2").unwrap().point().unwrap()), EMPTY);
    assert_eq!(b.captures(Side::First), 1);
    assert_eq!(b.ko_point(), b.parse_vertex("B2").unwrap().point());
    assert!(!b.is_legal_fast(b.ko_point().unwrap(), Side::Second));
}

#[test]
fn suicide_and_capture_exception() {
    let mut b = Board::new(5);
    for v in ["B1", "A2"] {
        let p = b.parse_vertex(v).unwrap().point().unwrap();
        b.setup_stone(p, Side::Second).unwrap();
    }
    let a1 = b.parse_vertex("A1").unwrap();
    assert_eq!(b.check_as(a1, Side::First), Err(Illegal::Suicide));
    assert_eq!(b.check_as(a1, Side::Second), Ok(()));
    // Occupied and off-board points.
    let b1 = b.parse_vertex("B1").unwrap();
    assert_eq!(b.check_as(b1, Side::First), Err(Illegal::Occupied));
    assert_eq!(b.check_as(Move(3), Side::First), Err(Illegal::OffBoard));
    assert_eq!(b.check_as(Move(60000), Side::First), Err(Illegal::OffBoard));
}

#[test]
fn vertices_round_trip_and_reject_garbage() {
    let b = Board::new(25);
    for y in 0..25 {
        for x in 0..25 {
            let m = Move::at(b.point(x, y));
            let text = b.vertex(m);
            assert_eq!(b.parse_vertex(&text), Some(m));
            assert_eq!(b.parse_vertex(&text.to_lowercase()), Some(m));
        }
    }
    assert_eq!(b.vertex(b.parse_vertex("Z25").unwrap()), "Z25");
    assert_eq!(b.parse_vertex("PASS"), Some(Move::PASS));
    for bad in [
        "", "I5", "A0", "A26", "5A", "AA1", "A-1", "A1x", "é1", "A 1",
    ] {
        assert_eq!(b.parse_vertex(bad), None, "{bad}");
    }
    let small = Board::new(9);
    assert_eq!(small.parse_vertex("K5"), None);
    assert_eq!(small.parse_vertex("A10"), None);
    assert!(small.parse_vertex("J9").is_some());
}

/// Random games on every size: the incremental groups, liberties, hash and empty list agree
/// with a recomputation after every move, `hash_after` predicts the key, the fast legality
/// test agrees with the full one wherever superko is not involved, and no group is left
/// without liberties.
#[test]
fn random_games_keep_incremental_state_exact() {
    let mut rng = SmallRng::seed_from_u64(7);
    for size in [2usize, 3, 4, 5, 7, 9, 13, 19, 25] {
        for _game in 0..3 {
            let mut b = Board::new(size);
            for _ in 0..(size * size * 3) {
                let side = b.to_move();
                let mut legal = Vec::new();
                for p in b.board_points() {
                    let m = Move::at(p);
                    let full = b.check(m);
                    let fast = b.at(p) == EMPTY && b.is_legal_fast(p, side);
                    match full {
                        Ok(()) => {
                            assert!(fast, "{size}: fast test rejects a legal move\n{b:?}");
                            legal.push(m);
                        }
                        Err(Illegal::Superko) => {}
                        Err(_) => assert!(!fast, "{size}: fast test accepts an illegal move"),
                    }
                }
                // libs_after is exact up to 4 (unless a group of two or more is captured).
                for &m in legal.iter().filter(|_| size <= 13) {
                    let p = m.point().unwrap();
                    let big_capture = b.neighbours(p).iter().any(|&q| {
                        let c = b.at(q);
                        c != EMPTY
                            && c != super::board::BORDER
                            && c != super::board::stone(side)
                            && b.in_atari(b.group_of(q))
                            && b.group_size(b.group_of(q)) >= 2
                    });
                    if big_capture {
                        continue;
                    }
                    let mut after = b.clone();
                    after.play_fast(m);
                    let g = after.group_of(p);
                    let want = after.liberty_count(g, 4).min(4);
                    let (got, size) = b.libs_after(p, side, 4);
                    assert_eq!(got, want, "{size}: libs after {}\n{b:?}", b.vertex(m));
                    assert_eq!(size, after.group_size(g));
                }
                let m = if legal.is_empty() || rng.gen_ratio(1, 40) {
                    Move::PASS
                } else {
                    legal[rng.gen_range(0..legal.len())]
                };
                let predicted = m.point().map(|p| b.hash_after(p, side));
                let before = b.stone_counts();
                b.play(m);
                b.commit_history();
                b.validate()
                    .unwrap_or_else(|e| panic!("{size}: {e}\n{b:?}"));
                if let Some(h) = predicted {
                    assert_eq!(h, b.hash());
                    let after = b.stone_counts();
                    let (mine, theirs) = match side {
                        Side::First => (after.0, after.1),
                        Side::Second => (after.1, after.0),
                    };
                    let (mine0, theirs0) = match side {
                        Side::First => before,
                        Side::Second => (before.1, before.0),
                    };
                    assert_eq!(mine, mine0 + 1, "the played stone stays");
                    assert!(theirs <= theirs0);
                }
                if b.passes() >= 2 {
                    break;
                }
            }
        }
    }
}

#[test]
fn playouts_end_with_a_settled_board() {
    let mut rng = SmallRng::seed_from_u64(3);
    let root = Board::new(9);
    let mut trace = Vec::new();
    let mut wins = 0.0;
    for _ in 0..200 {
        let mut b = root.clone();
        trace.clear();
        let end = b.playout(&mut rng, &mut trace);
        b.validate().unwrap();
        assert!(end.value == 0.0 || end.value == 1.0 || end.value == 0.5);
        assert_eq!(end.value > 0.5, end.score > 0.0);
        assert!(trace.len() > 20);
        // Nearly every point is owned at the end: stones and one-colour eyes.
        let owned = (0..b.cells())
            .filter(|&c| b.cell_owner(c).is_some())
            .count();
        assert!(owned >= 70, "{owned} owned\n{b:?}");
        // The margin is the area count.
        let (black, white) = (0..b.cells()).fold((0, 0), |acc, c| match b.cell_owner(c) {
            Some(Side::First) => (acc.0 + 1, acc.1),
            Some(Side::Second) => (acc.0, acc.1 + 1),
            None => acc,
        });
        assert_eq!(end.score, black as f32 - white as f32 - 7.5);
        wins += end.value;
    }
    // Black moves first with 7.5 komi on 9x9: random-ish play should not be one-sided.
    assert!(wins > 20.0 && wins < 180.0, "black won {wins} of 200");
}

#[test]
fn playout_policy_captures_and_escapes() {
    let mut rng = SmallRng::seed_from_u64(11);
    let setup = |to_move: Side| {
        let mut b = Board::new(9);
        for (v, s) in [
            ("E6", Side::First),
            ("E4", Side::First),
            ("F5", Side::First),
        ] {
            let p = b.parse_vertex(v).unwrap().point().unwrap();
            b.setup_stone(p, s).unwrap();
        }
        b.reset_history();
        b.set_to_move(to_move);
        b
    };
    let d5 = setup(Side::First).parse_vertex("D5").unwrap();
    // White plays E5 into atari: Black captures it at D5.
    let mut b = setup(Side::Second);
    b.play(b.parse_vertex("E5").unwrap());
    for _ in 0..20 {
        assert_eq!(b.policy_move(&mut rng), d5);
    }
    // White E5 stands, Black's last move F5 put it in atari: White extends at D5 (three
    // liberties).
    let mut b = Board::new(9);
    for (v, s) in [
        ("E6", Side::First),
        ("E4", Side::First),
        ("E5", Side::Second),
    ] {
        let p = b.parse_vertex(v).unwrap().point().unwrap();
        b.setup_stone(p, s).unwrap();
    }
    b.reset_history();
    b.play(b.parse_vertex("F5").unwrap());
    assert_eq!(b.to_move(), Side::Second);
    for _ in 0..20 {
        assert_eq!(b.policy_move(&mut rng), d5);
    }
    assert_eq!(b.at(b.parse_vertex("E5").unwrap().point().unwrap()), WHITE);
    assert_eq!(b.at(b.parse_vertex("F5").unwrap().point().unwrap()), BLACK);
}

#[test]
fn common_fate_graph_distances() {
    // A black group C3-D3 and the last move E3 (white) next to it.
    let mut b = Board::new(9);
    for (v, side) in [
        ("C3", Side::First),
        ("D3", Side::First),
        ("E3", Side::Second),
    ] {
        let p = b.parse_vertex(v).unwrap().point().unwrap();
        b.setup_stone(p, side).unwrap();
    }
    let pt = |v: &str| b.parse_vertex(v).unwrap().point().unwrap();
    let mut d = [u8::MAX; super::board::MAX_POINTS];
    b.cfg_distances(pt("E3"), 3, &mut d);
    assert_eq!(d[pt("E3")], 0);
    assert_eq!(d[pt("E4")], 1); // a liberty of the last move
    assert_eq!(d[pt("D3")], 1); // the adjacent group, all of it
    assert_eq!(d[pt("C3")], 1);
    assert_eq!(d[pt("B3")], 2); // a liberty of that group
    assert_eq!(d[pt("E5")], 2);
    assert_eq!(d[pt("A3")], 3);
    assert_eq!(d[pt("E7")], u8::MAX);
}

#[test]
fn playouts_kill_a_corner_nakade() {
    // White's corner group shares A9 and B7 with Black's A7-A8 (from a game against GNU Go):
    // Black B7 sacrifices three stones, White must take them at A9, and Black's A7 leaves a
    // bent three, one eye. The playouts must find that (they once refused the three-stone
    // self-atari, read the corner as seki and let the engine pass a lost game).
    let mut b = Board::new(9);
    let black = [
        "A8", "A7", "D8", "E8", "E9", "F8", "F7", "D6", "E6", "B5", "C5", "D5", "A4",
    ];
    let white = [
        "B9", "C9", "D9", "B8", "C8", "C7", "D7", "E7", "A6", "B6", "C6", "A5",
    ];
    for (list, s) in [(&black[..], Side::First), (&white[..], Side::Second)] {
        for v in list {
            let p = b.parse_vertex(v).unwrap().point().unwrap();
            b.setup_stone(p, s).unwrap();
        }
    }
    b.reset_history();
    let pt = |b: &Board, v: &str| b.parse_vertex(v).unwrap().point().unwrap();
    // After White's capture at A9, Black takes the vital point at once.
    let mut cap = b.clone();
    cap.set_to_move(Side::First);
    cap.play(cap.parse_vertex("B7").unwrap());
    cap.play(cap.parse_vertex("A9").unwrap());
    assert_eq!(cap.at(pt(&cap, "A8")), EMPTY, "A9 captured");
    assert_eq!(
        cap.vital_point(pt(&cap, "A9"), Side::First),
        Some(pt(&cap, "A7"))
    );
    let mut rng = SmallRng::seed_from_u64(5);
    assert_eq!(cap.policy_move(&mut rng), cap.parse_vertex("A7").unwrap());
    // From the position itself, with either side to move, the corner white group dies in
    // most playouts.
    for to_move in [Side::First, Side::Second] {
        let mut dead = 0;
        let mut trace = Vec::new();
        for _ in 0..200 {
            let mut p = b.clone();
            p.set_to_move(to_move);
            trace.clear();
            p.playout(&mut rng, &mut trace);
            dead += (p.at(pt(&p, "C8")) != WHITE) as u32;
        }
        // (Refusing the sacrifice, it died in 9 of 200 with Black to move.)
        assert!(
            dead > 100,
            "{to_move:?} to move: the corner died in {dead} of 200"
        );
    }
}

#[test]
fn fill_the_board_takes_only_open_space() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut b = Board::new(19);
    // Stones on every third point of every third line leave no empty 3x3 block but near the
    // edge, where the border breaks it: no candidate at all.
    for y in (1..19).step_by(3) {
        for x in (1..19).step_by(3) {
            b.setup_stone(b.point(x, y), Side::First).unwrap();
        }
    }
    for _ in 0..200 {
        assert_eq!(b.fill_board_move(&mut rng), None);
    }
    // An open 19x19 board: every answer has eight empty neighbours on the board.
    let mut b = Board::new(19);
    b.setup_stone(b.point(3, 3), Side::First).unwrap();
    b.setup_stone(b.point(15, 15), Side::Second).unwrap();
    let mut seen = 0;
    for _ in 0..200 {
        if let Some(p) = b.fill_board_move(&mut rng) {
            seen += 1;
            let (x, y) = b.coords(p);
            assert!((1..18).contains(&x) && (1..18).contains(&y), "{x},{y}");
            assert!(b.at(p) == EMPTY && b.pattern3(p) == 0);
            assert!(b.is_legal_fast(p, Side::First));
        }
    }
    assert!(seen > 150, "{seen}");
}

#[test]
fn a_ko_is_recent_for_a_few_moves_after_its_ban_lapses() {
    let mut b = Board::new(9);
    let play = |b: &mut Board, v: &str| {
        let m = b.parse_vertex(v).unwrap();
        assert!(b.check(m).is_ok(), "{v}");
        b.play(m);
    };
    for v in ["C5", "F5", "D6", "E6", "D4", "E4", "A1", "D5"] {
        play(&mut b, v);
    }
    assert_eq!(b.recent_ko(3), None, "no ko yet");
    play(&mut b, "E5"); // Black takes the ko: White may not retake at D5 at once.
    let d5 = b.parse_vertex("D5").unwrap().point();
    assert_eq!(b.ko_point(), d5);
    assert_eq!(b.recent_ko(3), None, "banned, not yet a ko to fight");
    play(&mut b, "A9"); // White's threat; Black may fill the ko.
    assert_eq!(b.recent_ko(3), d5);
    play(&mut b, "A8"); // Black answers elsewhere; White may take back.
    assert_eq!(b.recent_ko(3), d5);
    assert_eq!(b.recent_ko(2), None, "older than two moves");
    play(&mut b, "A7");
    assert_eq!(b.recent_ko(3), None, "three moves old");
    // A copy keeps the ko's age.
    let mut c = Board::scratch();
    c.copy_position_from(&b);
    assert_eq!(c.recent_ko(4), d5);
}
