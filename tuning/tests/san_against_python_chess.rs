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
