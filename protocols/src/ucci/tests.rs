//! UCCI transcript tests: input lines in, the exact protocol lines out.

use std::time::{Duration, Instant};

use tetrarch::game::{Notation, Position, Verdict};
use tetrarch::games::xiangqi::Board;

use super::Ucci;
use crate::io::{within, LineAdapter, Transcript};

impl LineAdapter for Ucci {
    fn handle(&mut self, line: &str) -> bool {
        Ucci::handle(self, line)
    }
}

type Session = Transcript<Ucci>;

impl Session {
    fn new() -> Session {
        Transcript::open(Ucci::new)
    }
}

fn last(lines: &[String]) -> &str {
    lines.last().map(String::as_str).unwrap_or("")
}

/// The move of a `bestmove` line, checked legal in `fen` (UCCI coordinates, ranks 0..9).
fn check_bestmove(fen: &str, moves: &[&str], line: &str) -> Board {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "bestmove", "{line}");
    let mut b = Board::from_text(fen).unwrap();
    for m in moves {
        let mv = b.parse_move(m).unwrap();
        b.make(mv);
    }
    let mv = b
        .parse_move(words[1])
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    b.make(mv);
    b
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn handshake_lists_ucci_options_then_ucciok() {
    let mut s = Session::new();
    s.send("ucci");
    let lines = s.take();
    assert_eq!(last(&lines), "ucciok");
    assert!(lines[0].starts_with("id name Tetrarch"));
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("id ") || l.starts_with("option "), "{l}");
        assert!(
            !l.starts_with("option name"),
            "UCCI options have no 'name': {l}"
        );
    }
    for needed in [
        "option usemillisec type check default false",
        "option batch type check default false",
        "option hashsize type spin min 0 max 65536 default 16",
        "option newgame type button",
    ] {
        assert!(lines.iter().any(|l| l == needed), "missing {needed}");
    }
    s.send("isready");
    assert_eq!(s.take(), vec!["readyok"]);
    assert!(!s.send("quit"));
    assert_eq!(s.take(), vec!["bye"]);
}

#[test]
fn searches_with_ranks_from_zero_and_plain_scores() {
    let mut s = Session::new();
    s.send("ucci");
    s.take();
    s.send("setoption hashsize 8");
    s.send("position startpos moves h2e2 h9g7");
    s.send("go depth 5");
    let lines = s.until_bestmove();
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!info.is_empty(), "{lines:?}");
    for l in &info {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!(w[3], "score", "{l}");
        assert!(w[4].parse::<i32>().is_ok(), "score without cp: {l}");
        assert!(!l.contains(" cp "), "{l}");
    }
    assert!(lines.iter().any(|l| l.starts_with("info time ")));
    let b = check_bestmove(START, &["h2e2", "h9g7"], last(&lines));
    assert!(b.outcome().is_none());
    // A ponder move, when given, is legal after the best move.
    let words: Vec<&str> = last(&lines).split(' ').collect();
    if let Some(i) = words.iter().position(|&w| w == "ponder") {
        assert!(b.parse_move(words[i + 1]).is_ok(), "{lines:?}");
    }
}

#[test]
fn mate_scores_and_no_move() {
    let mut s = Session::new();
    // Red mates (or stalemates, which wins as well) in one.
    let fen = "5k3/9/2R6/9/9/9/9/4R4/9/C2K5 w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go depth 4");
    let lines = s.until_bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && l.contains(" score 9999")),
        "{lines:?}"
    );
    let after = check_bestmove(fen, &[], last(&lines));
    assert_eq!(after.outcome().map(|o| o.verdict), Some(Verdict::Loss));

    // Black is mated: there is no move to give.
    let mated = "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1";
    s.send(&format!("position fen {mated}"));
    s.send("go depth 3");
    let lines = s.until_bestmove();
    assert_eq!(lines, vec!["info depth 0 score -10000", "nobestmove"]);

    // Stalemate loses in xiangqi: also no move.
    let stalemated = "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1";
    assert!(Board::from_text(stalemated)
        .unwrap()
        .legal_moves()
        .is_empty());
    s.send(&format!("position fen {stalemated}"));
    s.send("go infinite");
    let lines = s.until_bestmove();
    assert_eq!(last(&lines), "nobestmove");

    // go depth 0: the static evaluation and no move.
    s.send("position startpos");
    s.send("go depth 0");
    let lines = s.take();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info depth 0 score "));
    assert_eq!(lines[1], "nobestmove");
}

#[test]
fn stop_when_idle_answers_nobestmove_and_thinking_refuses_other_commands() {
    let mut s = Session::new();
    s.send("stop");
    assert_eq!(s.take(), vec!["nobestmove"]);
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    s.send("position startpos moves h2e2");
    s.send("setoption hashsize 1");
    s.send("isready");
    let start = Instant::now();
    let mut got = Vec::new();
    while !got.iter().any(|l: &String| l == "readyok") {
        got.extend(s.take());
        assert!(start.elapsed() < Duration::from_secs(5), "{got:?}");
        std::thread::sleep(Duration::from_millis(1));
    }
    let errors = got
        .iter()
        .filter(|l| l.starts_with("info message error: "))
        .count();
    assert_eq!(errors, 2, "{got:?}");
    assert!(!got.iter().any(|l| l.starts_with("bestmove")));
    s.send("stop");
    let lines = s.until_bestmove();
    // The position is still the start: the move is one of Red's.
    check_bestmove(START, &[], last(&lines));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

#[test]
fn time_units_follow_usemillisec() {
    let mut s = Session::new();
    s.send("position startpos");
    // 1 second in UCCI's default unit: an answer within about a second.
    let t = Instant::now();
    s.send("go time 1 increment 0");
    let lines = s.until_bestmove();
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    check_bestmove(START, &[], last(&lines));
    // With milliseconds on, 60000 is a minute, of which a move takes a small share.
    s.send("setoption usemillisec true");
    let t = Instant::now();
    s.send("go time 60000 increment 0");
    let lines = s.until_bestmove();
    assert!(t.elapsed() < Duration::from_secs(10));
    check_bestmove(START, &[], last(&lines));
}

#[test]
fn banmoves_are_honoured_and_cleared_by_position() {
    let mut s = Session::new();
    // Red's chariot takes the undefended black chariot (and mates soon), unless that capture
    // is banned. The advisor gives the general a flight, so a0d0 is no mate in two.
    let fen = "3k5/4a4/9/9/9/r8/9/9/9/R3K4 w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go depth 4");
    let lines = s.until_bestmove();
    assert!(last(&lines).starts_with("bestmove a0a4"), "{lines:?}");
    s.send("banmoves a0a4");
    s.send("go depth 4");
    let lines = s.until_bestmove();
    assert!(!last(&lines).starts_with("bestmove a0a4"), "{lines:?}");
    check_bestmove(fen, &[], last(&lines));
    s.send(&format!("position fen {fen}"));
    s.send("go depth 4");
    let lines = s.until_bestmove();
    assert!(last(&lines).starts_with("bestmove a0a4"), "{lines:?}");
    // Banning every legal move leaves nothing to play.
    let only = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1";
    let b = Board::from_text(only).unwrap();
    let all: Vec<String> = b.legal_moves().iter().map(|&m| b.move_text(m)).collect();
    s.send(&format!("position fen {only}"));
    s.send(&format!("banmoves {}", all.join(" ")));
    s.send("go depth 3");
    let lines = s.until_bestmove();
    assert_eq!(last(&lines), "nobestmove");
}

#[test]
fn bad_input_gets_errors_and_changes_nothing() {
    let mut s = Session::new();
    s.send("position startpos moves h2e2");
    s.take();
    for bad in [
        // Malformed FENs: a piece on a point it can never reach, a missing general, a general
        // outside its palace, too many pieces, garbage.
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/4B4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w - - 0 1",
        "position fen this is no fen",
        // Illegal moves: into nowhere, a horse through its leg, a move of the wrong side.
        "position startpos moves h2e2 h7e7 e2e9",
        "position startpos moves b0d1",
        "position startpos moves h9g7",
        "position",
        "banmoves z9z9",
        "setoption hashsize lots",
        "setoption batch perhaps",
        "go depth x",
        "go ponder draw depth 3",
        "frobnicate",
        "\u{fffd}\u{fffd}garbage",
    ] {
        assert!(s.send(bad));
        let out = s.take();
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info message error: "), "{bad}: {out:?}");
    }
    // Unknown option names are accepted silently, as UCCI asks.
    s.send("setoption nosuchoption 5");
    assert!(s.take().is_empty());
    // The position is still the one after h2e2: Black to move.
    s.send("go depth 3");
    let lines = s.until_bestmove();
    check_bestmove(START, &["h2e2"], last(&lines));
}

#[test]
fn ponder_and_ponderhit_draw_and_go_draw() {
    let mut s = Session::new();
    s.send("setoption usemillisec true");
    s.send("position startpos moves h2e2 h9g7");
    s.send("go ponder time 2000 increment 0");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!s.take().iter().any(|l| l.starts_with("bestmove")));
    s.send("ponderhit");
    let lines = s.until_bestmove();
    check_bestmove(START, &["h2e2", "h9g7"], last(&lines));

    // A lost position (Red has only its general against chariots): an offered draw is taken.
    let lost = "3k5/9/9/9/9/9/9/2r1r4/9/5K3 w - - 0 1";
    s.send(&format!("position fen {lost}"));
    s.send("go draw depth 4");
    let lines = s.until_bestmove();
    assert!(last(&lines).ends_with(" draw"), "{lines:?}");
    s.send(&format!("position fen {lost}"));
    s.send("go ponder depth 4");
    std::thread::sleep(Duration::from_millis(20));
    s.send("ponderhit draw");
    let lines = s.until_bestmove();
    assert!(last(&lines).ends_with(" draw"), "{lines:?}");
    // Without an offer, a proven loss resigns.
    s.send(&format!("position fen {lost}"));
    s.send("go depth 6");
    let lines = s.until_bestmove();
    assert!(last(&lines).ends_with(" resign"), "{lines:?}");
    // A winning side does not take a draw.
    let won = "3k5/9/9/9/9/9/9/2R1R4/9/5K3 w - - 0 1";
    s.send(&format!("position fen {won}"));
    s.send("go draw depth 4");
    let lines = s.until_bestmove();
    assert!(!last(&lines).contains("draw"), "{lines:?}");
}

#[test]
fn batch_mode_runs_a_script_in_order() {
    let mut s = Session::new();
    s.send("ucci");
    s.send("setoption batch true");
    s.send("position startpos");
    s.send("go depth 6");
    // In batch mode the search has ended before `go` returns.
    let lines = s.take();
    check_bestmove(START, &[], last(&lines));
    assert!(!s.send("quit"));
    assert_eq!(s.take(), vec!["bye"]);
}

#[test]
fn probe_reports_the_table_entry() {
    let mut s = Session::new();
    s.send("setoption batch true");
    s.send("probe startpos");
    assert_eq!(s.take(), vec!["pophash"]);
    s.send("position startpos");
    s.send("go depth 6");
    let lines = s.take();
    let best = last(&lines).split(' ').nth(1).unwrap().to_string();
    s.send("probe startpos");
    let out = s.take();
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with(&format!("pophash bestmove {best} ")),
        "{out:?} vs {best}"
    );
    assert!(out[0].contains(" depth "), "{out:?}");
}

#[test]
fn lenient_extras_are_understood() {
    let mut s = Session::new();
    s.send("setoption batch true");
    s.send("newgame");
    s.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2");
    s.send("go wtime 500 btime 500 winc 0 binc 0");
    let lines = s.take();
    check_bestmove(START, &["h2e2"], last(&lines));
    assert!(s.take().is_empty());
    s.send("setoption drawmoves 30");
    s.send("uccinewgame");
    assert!(s.take().is_empty());
}

#[test]
fn history_from_position_moves_decides_perpetual_check() {
    // Red, a horse down, has checked round a cycle; checking on (a9a8) would let Black repeat
    // the start a third time with Red checking throughout: a loss. The moves after the FEN
    // are the game history the rule reads.
    let mut s = Session::new();
    let fen = "5k3/R8/5r3/7n1/9/9/9/9/9/2BAKAB2 w - - 0 1";
    let moves = ["a8a9", "f9f8", "a9a8", "f8f9", "a8a9", "f9f8"];
    s.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    s.send("go depth 10");
    let lines = s.until_bestmove();
    assert!(!last(&lines).starts_with("bestmove a9a8"), "{lines:?}");
    let after = check_bestmove(fen, &moves, last(&lines));
    assert!(after.outcome().is_none());
}

#[test]
fn extreme_clocks_get_a_legal_move_and_the_session_still_quits() {
    within(Duration::from_secs(120), Session::new, |s| {
        s.send("ucci");
        s.send("position startpos");
        for (go, stop) in [
            // Read as milliseconds and saturated: a very long think, so stop it.
            ("go time 99999999999999999999", true),
            ("go time 1 increment 1e300", false),
            ("go time -1e300 increment -1e300", false),
            (
                "go time 9223372036854775807 increment 9223372036854775807",
                true,
            ),
            (
                "go wtime 2000000000000000000 btime 2000000000000000000",
                true,
            ),
        ] {
            s.send(go);
            if stop {
                std::thread::sleep(Duration::from_millis(50));
                s.send("stop");
            }
            let lines = s.until_bestmove();
            check_bestmove(START, &[], last(&lines));
        }
        s.send("isready");
        assert_eq!(
            s.cap
                .wait_for(&mut s.seen, |l| l == "readyok")
                .last()
                .unwrap(),
            "readyok"
        );
        s.send("go depth 2");
        check_bestmove(START, &[], last(&s.until_bestmove()));
        assert!(!s.send("quit"));
    });
}
