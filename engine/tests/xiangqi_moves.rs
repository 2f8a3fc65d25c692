//! Xiangqi move handling for the search: incremental keys, make/unmake, pack/unpack,
//! pseudo-legality of arbitrary values, the noisy/quiet partition, move indices and SEE.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{GenKind, MoveList, Notation, Position, Side};
use tetrarch::games::xiangqi::{Board, Kind, Move, Square};

fn epd_boards() -> Vec<Board> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/xiangqi_perft.epd");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Board::from_text(l.split(';').next().unwrap().trim()).unwrap())
        .collect()
}

fn legal(b: &Board) -> Vec<Move> {
    let mut moves = MoveList::new();
    b.generate(GenKind::All, &mut moves);
    moves.into_iter().filter(|&m| b.is_legal(m)).collect()
}

/// Positions along random games from the start and from every test position.
fn sample_positions(games: usize, seed: u64) -> Vec<Board> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let starts: Vec<Board> = std::iter::once(Board::start())
        .chain(epd_boards())
        .collect();
    for g in 0..games {
        let mut b = starts[g % starts.len()].clone();
        for _ in 0..rng.gen_range(0..150) {
            let moves = legal(&b);
            if moves.is_empty() {
                break;
            }
            b.make(moves[rng.gen_range(0..moves.len())]);
            if rng.gen_bool(0.3) {
                out.push(b.clone());
            }
        }
    }
    out
}

#[test]
fn incremental_key_equals_key_from_scratch_along_random_games() {
    let mut rng = SmallRng::seed_from_u64(11);
    for g in 0..300 {
        let mut b = Board::start();
        let mut trail = vec![(b.key(), b.to_text())];
        let mut played = Vec::new();
        for _ in 0..rng.gen_range(1..200) {
            let moves = legal(&b);
            if moves.is_empty() {
                break;
            }
            if !b.in_check() && rng.gen_bool(0.05) {
                played.push((None, b.make_null()));
            } else {
                let m = moves[rng.gen_range(0..moves.len())];
                played.push((Some(m), b.make(m)));
                // A position reached by moves reads back from its FEN with the same key.
                let fresh = Board::from_text(&b.to_text()).unwrap();
                assert_eq!(fresh.key(), b.key());
                assert_eq!(fresh.in_check(), b.in_check());
            }
            assert_eq!(b.key(), b.key_from_scratch(), "game {g}");
            trail.push((b.key(), b.to_text()));
        }
        // Unmaking everything walks back through the same keys and positions.
        while let Some((m, undo)) = played.pop() {
            match m {
                Some(m) => b.unmake(m, undo),
                None => b.unmake_null(undo),
            }
            trail.pop();
            let (key, text) = trail.last().unwrap();
            assert_eq!(b.key(), *key);
            assert_eq!(&b.to_text(), text);
        }
        assert_eq!(b.to_text(), Board::start().to_text());
    }
}

#[test]
fn pseudo_legality_of_every_value_matches_generation() {
    for b in sample_positions(40, 5).iter().step_by(7) {
        let mut all = MoveList::new();
        b.generate(GenKind::All, &mut all);
        let mut found = 0;
        for bits in 0..=u16::MAX as u32 {
            let Some(m) = b.unpack(bits) else { continue };
            assert!(all.contains(&m), "{} {:?}", b.to_text(), m);
            assert!(b.is_pseudo_legal(m));
            found += 1;
        }
        assert_eq!(found, all.len(), "{}", b.to_text());
        for &m in &all {
            assert_eq!(b.unpack(Board::pack(m)), Some(m));
        }
    }
}

#[test]
fn unpack_never_panics_on_random_values() {
    let mut rng = SmallRng::seed_from_u64(99);
    let boards = sample_positions(20, 6);
    for _ in 0..200_000 {
        let b = &boards[rng.gen_range(0..boards.len())];
        let bits: u32 = rng.gen();
        if let Some(m) = b.unpack(bits) {
            assert!(b.is_pseudo_legal(m));
        }
        if let Some(m) = b.unpack(bits & 0xFFFF) {
            assert!(b.is_pseudo_legal(m));
            // Everything the search may ask of a table move is total.
            let _ = (
                b.is_legal(m),
                b.is_noisy(m),
                b.move_index(m),
                b.noisy_value(m),
                b.see_ge(m, 0),
            );
        }
        let raw = Move::from_bits(bits as u16);
        if let Some(m) = raw {
            let _ = (
                b.is_pseudo_legal(m),
                b.move_index(m) < Board::MOVE_INDEX_SPACE,
            );
        }
    }
}

#[test]
fn noisy_and_quiet_partition_all() {
    for b in sample_positions(30, 8) {
        let (mut all, mut noisy, mut quiet) = (MoveList::new(), MoveList::new(), MoveList::new());
        b.generate(GenKind::All, &mut all);
        b.generate(GenKind::Noisy, &mut noisy);
        b.generate(GenKind::Quiet, &mut quiet);
        assert_eq!(all.len(), noisy.len() + quiet.len());
        for m in &noisy {
            assert!(all.contains(m) && b.is_noisy(*m) && b.noisy_value(*m) > 0);
        }
        for m in &quiet {
            assert!(all.contains(m) && !b.is_noisy(*m) && b.noisy_value(*m) == 0);
        }
        for m in &all {
            assert!(b.move_index(*m) < Board::MOVE_INDEX_SPACE);
        }
    }
}

#[test]
fn move_indices_tell_piece_and_target() {
    for b in sample_positions(10, 9) {
        let moves = legal(&b);
        for &m in &moves {
            for &n in &moves {
                let same = b.piece_at(m.from()) == b.piece_at(n.from()) && m.to() == n.to();
                assert_eq!(b.move_index(m) == b.move_index(n), same);
            }
        }
    }
}

#[test]
fn null_move_flips_the_side_and_back() {
    let mut b = Board::start();
    let key = b.key();
    assert!(b.null_move_sound());
    let undo = b.make_null();
    assert_eq!(b.side_to_move(), Side::Second);
    assert_ne!(b.key(), key);
    assert_eq!(b.key(), b.key_from_scratch());
    b.unmake_null(undo);
    assert_eq!(b.key(), key);
    let mut b = Board::from_text("5k3/R8/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    b.make(b.parse_move("a8a9").unwrap());
    assert!(b.in_check() && !b.null_move_sound());
}

#[test]
fn mvv_lva_orders_captures() {
    // A crossed soldier and a chariot can both take Black's chariot; the soldier first.
    let b = Board::from_text("3k5/9/9/R2r5/3P5/9/9/9/9/4K4 w - - 0 1").unwrap();
    let by_soldier = b.parse_move("d5d6").unwrap();
    let by_chariot = b.parse_move("a6d6").unwrap();
    assert!(b.noisy_value(by_soldier) > b.noisy_value(by_chariot));
    assert_eq!(
        b.noisy_value(by_chariot),
        Kind::Chariot.value() - Kind::Chariot.value() / 64
    );
    // The general's captures still count as gains.
    let b = Board::from_text("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1").unwrap();
    assert!(b.noisy_value(b.parse_move("e0e1").unwrap()) > 0);
}

/// SEE as defined in the `see` module, recomputed by brute force with the move generator:
/// each side in turn may capture on the square with its least valuable capturing piece
/// (lowest point on ties), or stop. A general may not capture onto an attacked point (the
/// facing general included).
fn reference_gain(b: &mut Board, to: Square) -> i32 {
    let mut noisy = MoveList::new();
    b.generate(GenKind::Noisy, &mut noisy);
    let best = noisy
        .iter()
        .filter(|m| m.to() == to)
        .map(|&m| (b.moving_kind(m).unwrap().value(), m.from(), m))
        .min_by_key(|&(v, f, _)| (v, f));
    let Some((_, _, m)) = best else { return 0 };
    let victim = b.piece_at(to).unwrap().1.value();
    let is_general = b.moving_kind(m) == Some(Kind::General);
    let undo = b.make(m);
    if is_general {
        let mut replies = MoveList::new();
        b.generate(GenKind::Noisy, &mut replies);
        let facing = {
            let (r, k) = (b.general(Side::First), b.general(Side::Second));
            r.file() == k.file()
                && (r.rank() + 1..k.rank())
                    .all(|rank| b.piece_at(Square::new(r.file(), rank).unwrap()).is_none())
        };
        if facing || replies.iter().any(|r| r.to() == to) {
            b.unmake(m, undo);
            return 0;
        }
    }
    let reply = reference_gain(b, to);
    b.unmake(m, undo);
    (victim - reply).max(0)
}

#[test]
fn see_matches_the_brute_force_exchange() {
    let mut checked = 0;
    let mut exchanges = 0;
    for b in sample_positions(120, 21) {
        let mut b = b;
        let mut noisy = MoveList::new();
        b.generate(GenKind::Noisy, &mut noisy);
        for &m in &noisy {
            let victim = b.piece_at(m.to()).unwrap().1.value();
            let undo = b.make(m);
            let expected = victim - reference_gain(&mut b, m.to());
            b.unmake(m, undo);
            exchanges += (expected != victim) as usize;
            for threshold in [expected - 1, expected, expected + 1] {
                assert_eq!(
                    b.see_ge(m, threshold),
                    expected >= threshold,
                    "{} {:?} threshold {threshold}, exchange {expected}",
                    b.to_text(),
                    m
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked > 1000 && exchanges > 100,
        "{checked} captures, {exchanges} exchanges"
    );
}

#[test]
fn see_follows_cannon_screens() {
    // The chariot on e6 is the screen of Black's cannon on e8 for e5; taking the horse on e5
    // from e6 removes that screen, so nothing recaptures.
    let b = Board::from_text("3k5/4c4/9/4R4/4n4/9/9/9/9/5K3 w - - 0 1").unwrap();
    let m = b.parse_move("e6e5").unwrap();
    assert!(b.see_ge(m, Kind::Horse.value()));
    // Taking it from the side instead leaves the screen: the cannon recaptures the chariot.
    let b = Board::from_text("3k5/4c4/9/4P4/R3n4/9/9/9/9/5K3 w - - 0 1").unwrap();
    let m = b.parse_move("a5e5").unwrap();
    assert!(b.see_ge(m, Kind::Horse.value() - Kind::Chariot.value()));
    assert!(!b.see_ge(m, Kind::Horse.value() - Kind::Chariot.value() + 1));
    // Without any screen there is no recapture.
    let b = Board::from_text("3k5/4c4/9/9/R3n4/9/9/9/9/5K3 w - - 0 1").unwrap();
    let m = b.parse_move("a5e5").unwrap();
    assert!(b.see_ge(m, Kind::Horse.value()));
}
