//! SAN written by the runner, checked move by move against python-chess on random games
//! played by the referee (chess rules from the engine crate), and PGN-style SAN read back.

use std::io::Write;
use std::process::{Command, Stdio};

use rand::{Rng, SeedableRng};
use tetrarch_tuning::match_runner::rules::{new_rules, GameKind};

#[test]
fn san_agrees_with_python_chess_on_random_games() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(20261129);
    let mut lines = String::new();
    let mut count = 0;
    for _ in 0..60 {
        let mut rules = new_rules(GameKind::Chess, None, 19, 7.5).unwrap();
        for _ in 0..160 {
            if rules.outcome().is_some() {
                break;
            }
            let legal = rules.legal_moves();
            // Prefer captures and promotions now and then, to reach odd positions.
            let m = legal[rng.gen_range(0..legal.len())].clone();
            let san = rules.record_text(&m);
            lines.push_str(&format!("{}\t{}\t{}\n", rules.text(), m, san));
            count += 1;
            rules.play(&m).unwrap();
        }
    }
    assert!(count > 3000);
    let script = r#"
import sys, chess
bad = 0
for line in sys.stdin:
    fen, uci, san = line.rstrip("\n").split("\t")
    b = chess.Board(fen)
    want = b.san(chess.Move.from_uci(uci))
    if want != san:
        bad += 1
        if bad < 10:
            print("MISMATCH", fen, uci, san, want)
print("bad", bad)
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 with python-chess");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.trim_end().ends_with("bad 0"), "{text}");
}

#[test]
fn book_moves_in_san_and_coordinates_resolve_to_canonical_moves() {
    use tetrarch_tuning::match_runner::openings::{resolve, Opening};
    let mut rules = new_rules(GameKind::Chess, None, 19, 7.5).unwrap();
    let book = Opening {
        start: None,
        moves: [
            "e2-e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "0-0", "Nf6", "Bxc6", "dxc6!?",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    };
    let moves = resolve(&book, &mut *rules).unwrap();
    assert_eq!(
        moves,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1", "g8f6", "b5c6", "d7c6"]
    );
    let mut rules = new_rules(GameKind::Chess, None, 19, 7.5).unwrap();
    let bad = Opening {
        start: None,
        moves: vec!["e4".into(), "Ke2".into()],
    };
    let err = resolve(&bad, &mut *rules).unwrap_err();
    assert!(err.contains("'Ke2' is not legal"), "{err}");
}
