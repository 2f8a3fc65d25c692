//! Transcript tests of xiangqi over UCI (Fairy-Stockfish's dialect, `UCI_Variant` = xiangqi).

use std::time::Duration;

use tetrarch::game::{Notation, Position, Verdict};
use tetrarch::games::xiangqi::{Board, MoveStyle};

use super::Uci;
use crate::io::{bestmove, Output, Transcript};

type Session = Transcript<Uci>;

impl Session {
    /// A session already switched to xiangqi.
    fn xiangqi() -> Session {
        let mut s = Transcript::open(Uci::new);
        s.send("setoption name UCI_Variant value xiangqi");
        assert!(s.take().is_empty());
        s
    }
}

/// Plays `moves` (ranks 1..10) from `fen`, then the `bestmove` line's move; all must be legal.
fn after_bestmove(fen: &str, moves: &[&str], line: &str) -> Board {
    let mut b = Board::from_text(fen).unwrap();
    b.set_move_style(MoveStyle::RanksFromOne);
    for m in moves {
        let mv = b.parse_move(m).unwrap();
        b.make(mv);
    }
    let text = line.split(' ').nth(1).unwrap();
    let mv = b.parse_move(text).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(b.move_text(mv), text, "written with ranks 1..10");
    b.make(mv);
    b
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn variant_combo_is_declared_and_chess_stays_the_default() {
    let (out, cap) = Output::capture();
    let mut uci = Uci::new(out);
    uci.handle("uci");
    let text = cap.text();
    assert!(text
        .lines()
        .any(|l| l == "option name UCI_Variant type combo default chess var chess var xiangqi"));
    uci.handle("position startpos");
    uci.handle("d");
    assert!(cap.text().contains("variant chess position rnbqkbnr/"));
    uci.handle("setoption name UCI_Variant value xiangqi");
    uci.handle("d");
    let text = cap.text();
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        format!("info string variant xiangqi position {START}")
    );
    uci.handle("setoption name UCI_Variant value chess");
    uci.handle("d");
    assert!(cap.text().lines().last().unwrap().contains("variant chess"));
    uci.handle("setoption name UCI_Variant value janggi");
    assert!(cap
        .text()
        .lines()
        .last()
        .unwrap()
        .starts_with("info string error: "));
}

#[test]
fn plays_from_startpos_with_ranks_from_one() {
    let mut s = Session::xiangqi();
    s.send("ucinewgame");
    s.send("isready");
    assert_eq!(s.take(), vec!["readyok"]);
    s.send("position startpos moves h3e3 h10g8 h1g3 i10h10");
    s.send("go depth 6");
    let lines = s.until_bestmove();
    let b = after_bestmove(
        START,
        &["h3e3", "h10g8", "h1g3", "i10h10"],
        bestmove(&lines),
    );
    assert!(b.outcome().is_none());
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        assert!(
            l.contains(" score cp ") || l.contains(" score mate "),
            "{l}"
        );
        // Every PV replays legally in ranks 1..10.
        if let Some(pv) = l.split(" pv ").nth(1) {
            let mut b = Board::from_text(START).unwrap();
            b.set_move_style(MoveStyle::RanksFromOne);
            for m in ["h3e3", "h10g8", "h1g3", "i10h10"]
                .iter()
                .chain(pv.split(' ').collect::<Vec<_>>().iter())
            {
                let mv = b.parse_move(m).unwrap_or_else(|e| panic!("{l}: {m}: {e}"));
                b.make(mv);
            }
        }
    }
    // Black to move from a FEN, with a clock.
    let fen = "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 4 3";
    s.send(&format!("position fen {fen}"));
    s.send("go wtime 2000 btime 2000 winc 50 binc 50");
    let lines = s.until_bestmove();
    after_bestmove(fen, &[], bestmove(&lines));
}

#[test]
fn mate_and_no_legal_move() {
    let mut s = Session::xiangqi();
    let fen = "5k3/9/2R6/9/9/9/9/4R4/9/C2K5 w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go depth 4");
    let lines = s.until_bestmove();
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    let after = after_bestmove(fen, &[], bestmove(&lines));
    assert_eq!(after.outcome().map(|o| o.verdict), Some(Verdict::Loss));

    // Checkmated, and stalemated (a loss in xiangqi): mate 0 and no move.
    for lost in [
        "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1",
        "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1",
    ] {
        s.send(&format!("position fen {lost}"));
        s.send("go depth 3");
        let lines = s.until_bestmove();
        assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove (none)"]);
    }
}

#[test]
fn bad_positions_and_moves_get_errors_and_change_nothing() {
    let mut s = Session::xiangqi();
    s.send("position startpos moves h3e3");
    s.take();
    for bad in [
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/4B4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/PC5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w - - 0 1",
        "position startpos moves h3e3 h8e8 e3e10",
        "position startpos moves b1d2",
        "position startpos moves e2e3",
        "position startpos moves h3e3 h10g8 x1x2",
    ] {
        assert!(s.send(bad));
        let out = s.take();
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error: "), "{bad}: {out:?}");
    }
    s.send("d");
    let d = s.take();
    assert!(d[0].contains("/1C2C4/9/RNBAKABNR b "), "{d:?}");
    s.send("go depth 3");
    let lines = s.until_bestmove();
    after_bestmove(START, &["h3e3"], bestmove(&lines));
}

#[test]
fn switching_variant_during_a_search_is_refused() {
    let mut s = Session::xiangqi();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(20));
    s.send("setoption name UCI_Variant value chess");
    let out = s.take();
    assert!(
        out.iter().any(|l| l.starts_with("info string error: ")),
        "{out:?}"
    );
    s.send("stop");
    let lines = s.until_bestmove();
    after_bestmove(START, &[], bestmove(&lines));
}

#[test]
fn perpetual_check_is_judged_over_the_position_history() {
    // As the UCCI test, in ranks 1..10: Red must not check a third time round the cycle.
    let mut s = Session::xiangqi();
    let fen = "5k3/R8/5r3/7n1/9/9/9/9/9/2BAKAB2 w - - 0 1";
    let moves = ["a9a10", "f10f9", "a10a9", "f9f10", "a9a10", "f10f9"];
    s.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    s.send("go depth 10");
    let lines = s.until_bestmove();
    assert!(!bestmove(&lines).starts_with("bestmove a10a9"), "{lines:?}");
    let after = after_bestmove(fen, &moves, bestmove(&lines));
    assert!(after.outcome().is_none());
}
