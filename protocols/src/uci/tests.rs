//! UCI transcript tests: input lines in, the exact protocol lines out.

use std::time::{Duration, Instant};

use super::Uci;
use crate::io::{bestmove, within, LineAdapter, Transcript};

impl LineAdapter for Uci {
    fn handle(&mut self, line: &str) -> bool {
        Uci::handle(self, line)
    }
}

type Session = Transcript<Uci>;

impl Session {
    fn new() -> Session {
        Transcript::open(Uci::new)
    }
}

#[test]
fn handshake_prints_only_id_and_options_before_uciok() {
    let mut s = Session::new();
    s.send("uci");
    let lines = s.take();
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("id ") || l.starts_with("option name "), "{l}");
        assert_eq!(l.trim_end(), l, "no trailing whitespace");
    }
    for needed in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name UCI_ShowWDL type check default false",
        "option name SyzygyPath type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l == needed), "missing {needed}");
    }
    s.send("isready");
    assert_eq!(s.take(), vec!["readyok"]);
}

#[test]
fn mate_in_one_and_no_legal_move() {
    let mut s = Session::new();
    s.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    s.send("go depth 6");
    let lines = s.until_bestmove();
    assert_eq!(bestmove(&lines), "bestmove d1d8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );

    // Checkmated: Fool's mate.
    s.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    s.send("go depth 5");
    let lines = s.until_bestmove();
    assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove (none)"]);

    // Stalemate, even under go infinite.
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go infinite");
    let lines = s.until_bestmove();
    assert_eq!(lines, vec!["info depth 0 score cp 0", "bestmove (none)"]);
}

#[test]
fn info_lines_have_the_stockfish_layout() {
    let mut s = Session::new();
    s.send("setoption name MultiPV value 3");
    s.send("setoption name UCI_ShowWDL value true");
    s.send("position startpos");
    s.send("go depth 5");
    let lines = s.until_bestmove();
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    for (k, l) in last.iter().enumerate() {
        let words: Vec<&str> = l.split(' ').collect();
        assert_eq!(words[3], "seldepth");
        assert_eq!(words[5..7], ["multipv", &(k + 1).to_string()]);
        assert_eq!(words[7], "score");
        assert!(words[8] == "cp" || words[8] == "mate");
        assert_eq!(words[10], "wdl");
        let (w, d, lo): (u32, u32, u32) = (
            words[11].parse().unwrap(),
            words[12].parse().unwrap(),
            words[13].parse().unwrap(),
        );
        assert_eq!(w + d + lo, 1000);
        for key in ["nodes", "nps", "hashfull", "time", "pv"] {
            assert!(words.contains(&key), "{key} missing in {l}");
        }
    }
    assert!(bestmove(&lines).starts_with("bestmove "));
}

#[test]
fn bad_input_gets_errors_and_changes_nothing() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4");
    s.take();
    for bad in [
        "position fen this is not a fen",
        "position startpos moves e2e4 e2e4",
        "position",
        "setoption name Hash value lots",
        "setoption name NoSuchThing value 1",
        "setoption name Ponder value maybe",
        "frobnicate",
        "\u{fffd}\u{fffd}garbage",
    ] {
        assert!(s.send(bad));
        let out = s.take();
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{bad}: {out:?}");
    }
    // The position is still the one after e2e4: Black to move.
    s.send("d");
    let d = s.take();
    assert!(d[0].contains(" b KQkq "), "{d:?}");
    // A table larger than any machine is refused, and the engine keeps working.
    s.send("setoption name Hash value 65536");
    s.send("isready");
    let out = s.take();
    assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:?}");
    // An unknown leading token is skipped when a command follows.
    s.send("joho isready");
    let out = s.take();
    assert_eq!(out.last().map(String::as_str), Some("readyok"));
    // go with a bad number still searches and answers.
    s.send("go depth x nodes 2000");
    let lines = s.until_bestmove();
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    assert!(!s.send("quit"), "quit ends the session");
}

#[test]
fn isready_and_stop_during_infinite_search() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    s.send("isready");
    let start = Instant::now();
    loop {
        let lines = s.take();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "ended early"
        );
        if lines.iter().any(|l| l == "readyok") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "no readyok");
        std::thread::sleep(Duration::from_millis(1));
    }
    s.send("stop");
    let lines = s.until_bestmove();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!s.take().iter().any(|l| l.starts_with("bestmove")));
    s.send("ponderhit");
    let lines = s.until_bestmove();
    assert!(bestmove(&lines).len() > "bestmove ".len());

    s.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(50));
    s.send("stop");
    let lines = s.until_bestmove();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

#[test]
fn searchmoves_limit_the_root_and_chess960_castling_text() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go depth 4 searchmoves a2a3 h2h3");
    let lines = s.until_bestmove();
    let b = bestmove(&lines);
    assert!(
        b.starts_with("bestmove a2a3") || b.starts_with("bestmove h2h3"),
        "{b}"
    );

    // Castling is the only sensible move here; its text follows UCI_Chess960.
    let fen = "position fen rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    s.send(fen);
    s.send("go depth 3 searchmoves e1g1");
    assert_eq!(
        bestmove(&s.until_bestmove()).split(' ').nth(1),
        Some("e1g1")
    );
    s.send("setoption name UCI_Chess960 value true");
    s.send(fen);
    s.send("go depth 3 searchmoves e1h1");
    assert_eq!(
        bestmove(&s.until_bestmove()).split(' ').nth(1),
        Some("e1h1")
    );
}

#[test]
fn limited_strength_still_plays_legal_moves_quickly() {
    let mut s = Session::new();
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value 1400");
    assert!(s.take().is_empty());
    s.send("position startpos moves d2d4");
    s.send("go wtime 60000 btime 60000");
    let lines = s.until_bestmove();
    assert!(bestmove(&lines).len() > 9);
    s.send("setoption name Skill Level value 3");
    s.send("setoption name UCI_LimitStrength value false");
    s.send("go depth 30");
    let lines = s.until_bestmove();
    assert!(bestmove(&lines).len() > 9);
}

#[test]
fn eval_file_and_use_nnue_switch_the_evaluation_and_refuse_bad_files() {
    use tetrarch::nnue::Network;
    let dir = std::env::temp_dir().join(format!("tetrarch-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A net whose output is its bias alone: 40000 / (181 * 64) * 400 = 1381 cp after rounding.
    let mut net = Network::zeroed("chess768hm", 768, 32, 8);
    net.out_bias = vec![40_000; 8];
    let good = dir.join("good.tnn");
    std::fs::write(&good, net.to_bytes()).unwrap();
    let garbage = dir.join("garbage.tnn");
    std::fs::write(&garbage, b"not a network").unwrap();
    let mut damaged = net.to_bytes();
    damaged[100] ^= 1;
    let damaged_path = dir.join("damaged.tnn");
    std::fs::write(&damaged_path, damaged).unwrap();

    let mut s = Session::new();
    // The embedded network is the default evaluation.
    s.send("eval");
    let embedded = s.take();
    assert_eq!(embedded.len(), 1);
    s.send("setoption name Use NNUE value false");
    s.send("eval");
    let hce = s.take();
    assert_ne!(embedded, hce, "the network is another evaluation");
    s.send("setoption name Use NNUE value true");
    s.send("eval");
    assert_eq!(s.take(), embedded);
    // The strength limiter plays the evaluation `Use NNUE` chooses: its levels were
    // calibrated with the network.
    s.send("setoption name UCI_LimitStrength value true");
    s.send("eval");
    assert_eq!(s.take(), embedded);
    s.send("setoption name Use NNUE value false");
    s.send("eval");
    assert_eq!(s.take(), hce);
    s.send("setoption name Use NNUE value true");
    s.send("setoption name UCI_LimitStrength value false");
    s.send("eval");
    assert_eq!(s.take(), embedded);
    for bad in [
        format!(
            "setoption name EvalFile value {}",
            dir.join("missing").display()
        ),
        format!("setoption name EvalFile value {}", garbage.display()),
        format!("setoption name EvalFile value {}", damaged_path.display()),
    ] {
        s.send(&bad);
        let out = s.take();
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{bad}: {out:?}");
    }
    // Bad files kept the embedded net.
    s.send("eval");
    assert_eq!(s.take(), embedded);
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    assert_eq!(s.take(), Vec::<String>::new());
    s.send("eval");
    assert_eq!(s.take(), ["info string static eval 1381 (side to move)"]);
    // A bad file later keeps the net that was loaded.
    s.send(&format!(
        "setoption name EvalFile value {}",
        garbage.display()
    ));
    assert!(s.take()[0].starts_with("info string error: "));
    s.send("eval");
    assert_eq!(s.take(), ["info string static eval 1381 (side to move)"]);
    s.send("go nodes 3000");
    let lines = s.until_bestmove();
    assert!(lines.iter().any(|l| l.contains("score cp")), "{lines:?}");
    s.send("setoption name Use NNUE value false");
    s.send("eval");
    assert_eq!(s.take(), hce);
    // EvalFile <embedded> goes back to the built-in net.
    s.send("setoption name EvalFile value <embedded>");
    s.send("setoption name Use NNUE value true");
    s.send("eval");
    assert_eq!(s.take(), embedded);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The move of a `bestmove` line, checked legal in the start position.
fn legal_from_start(line: &str) {
    use tetrarch::game::Notation;
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "bestmove", "{line}");
    let board = tetrarch::games::chess::Board::from_text(tetrarch::games::chess::START_FEN)
        .expect("the start position");
    board
        .parse_move(words[1])
        .unwrap_or_else(|e| panic!("{line}: {e}"));
}

#[test]
fn extreme_clocks_get_a_legal_move_and_the_session_still_quits() {
    within(Duration::from_secs(120), Session::new, |s| {
        s.send("position startpos");
        for (go, stop) in [
            // A clock this long is honoured as a very long think: stop it.
            (
                "go wtime 9223372036854775807 btime 9223372036854775807",
                true,
            ),
            (
                "go wtime 2000000000000000000 btime 2000000000000000000",
                true,
            ),
            (
                "go wtime 1000 winc 9223372036854775807 btime 1000 binc 9223372036854775807",
                false,
            ),
            (
                "go wtime -9223372036854775808 btime -9223372036854775808",
                false,
            ),
            (
                "go wtime 9223372036854775807 winc -9223372036854775808 btime 1 binc 1",
                true,
            ),
            ("go wtime 1 movestogo 4294967295 btime 1", false),
        ] {
            s.send(go);
            if stop {
                std::thread::sleep(Duration::from_millis(50));
                s.send("stop");
            }
            let lines = s.until_bestmove();
            legal_from_start(bestmove(&lines));
            s.send("isready");
            let ready = s.cap.wait_for(&mut s.seen, |l| l == "readyok");
            assert!(
                !ready.iter().any(|l| l.starts_with("bestmove")),
                "{ready:?}"
            );
        }
        // The session still searches and quits.
        s.send("go depth 2");
        legal_from_start(bestmove(&s.until_bestmove()));
        assert!(!s.send("quit"));
    });
}
