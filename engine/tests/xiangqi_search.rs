//! The shared alpha-beta search on xiangqi boards, with a plain material count standing in for
//! the evaluation: the seam works end to end and the rule results reach the scores.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam::channel::{self, Sender};
use tetrarch::game::{Evaluator, Notation, Position, Side};
use tetrarch::games::xiangqi::{Board, Kind, Move};
use tetrarch::limits::Limits;
use tetrarch::report::{Iteration, Reporter};
use tetrarch::score::{mate_in, Score};
use tetrarch::search::Engine;

#[derive(Clone)]
struct Material;

impl Evaluator<Board> for Material {
    fn evaluate(&mut self, pos: &Board) -> i32 {
        let mut score = 0;
        for kind in Kind::ALL.into_iter().filter(|&k| k != Kind::General) {
            score += kind.value() * pos.count(Side::First, kind) as i32;
            score -= kind.value() * pos.count(Side::Second, kind) as i32;
        }
        if pos.side_to_move() == Side::First {
            score
        } else {
            -score
        }
    }
}

struct Collect {
    score: Mutex<Option<Score>>,
    best: Sender<Option<Move>>,
}

impl Reporter<Board> for Collect {
    fn iteration(&self, info: &Iteration<'_, Board>) {
        if let Some(line) = info.lines.first() {
            *self.score.lock().unwrap() = Some(line.score);
        }
    }
    fn best_move(&self, _root: &Board, best: Option<Move>, _ponder: Option<Move>) {
        self.best.send(best).unwrap();
    }
}

fn search(board: Board, depth: u32) -> (Option<Move>, Option<Score>) {
    let mut engine = Engine::new(board, Material);
    let (tx, rx) = channel::unbounded();
    let collect = Arc::new(Collect {
        score: Mutex::new(None),
        best: tx,
    });
    engine.go(Limits::depth(depth), collect.clone());
    let best = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the search ends");
    engine.wait();
    let score = *collect.score.lock().unwrap();
    (best, score)
}

#[test]
fn finds_the_win_in_one() {
    // Red mates with Re2-e8... or stalemates; both win at once in xiangqi.
    let board = Board::from_text("5k3/9/2R6/9/9/9/9/4R4/9/C2K5 w - - 0 1").unwrap();
    let (best, score) = search(board.clone(), 4);
    assert_eq!(score, Some(mate_in(1)));
    let mut after = board.clone();
    after.make(best.unwrap());
    assert!(after
        .outcome()
        .is_some_and(|o| o.verdict == tetrarch::game::Verdict::Loss));
}

#[test]
fn searches_the_start_position() {
    let board = Board::start();
    let (best, score) = search(board.clone(), 5);
    let best = best.expect("a move");
    assert!(board.legal_moves().contains(&best));
    assert!(score.is_some_and(|s| s.abs() < 1000));
}

#[test]
fn perpetual_check_is_no_escape() {
    // Black is a chariot up; Red's chariot can check forever (a9 and a8 in turn, the general
    // going f8 and f9, its chariot on f7 blocking the only other flight). Under chess rules
    // that would be a draw; in xiangqi the checker loses, so Red must stop checking and the
    // search sees it losing. The game has been round the cycle once already.
    let mut board = Board::from_text("5k3/R8/5r3/9/9/8r/9/9/9/3K5 w - - 0 1").unwrap();
    for m in "a8a9 f9f8 a9a8 f8f9".split_whitespace() {
        let mv = board.parse_move(m).unwrap();
        board.make(mv);
    }
    let (_, score) = search(board, 8);
    assert!(score.is_some_and(|s| s < -300), "{score:?}");
}

// ----- With the real evaluation -----

use tetrarch::games::xiangqi::XiangqiEval;

fn search_eval(board: Board, depth: u32) -> (Option<Move>, Option<Score>) {
    let mut engine = Engine::new(board, XiangqiEval::default());
    let (tx, rx) = channel::unbounded();
    let collect = Arc::new(Collect {
        score: Mutex::new(None),
        best: tx,
    });
    engine.go(Limits::depth(depth), collect.clone());
    let best = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the search ends");
    engine.wait();
    let score = *collect.score.lock().unwrap();
    (best, score)
}

fn played(fen: &str, moves: &str) -> Board {
    let mut board = Board::from_text(fen).unwrap();
    for m in moves.split_whitespace() {
        let mv = board.parse_move(m).unwrap();
        board.make(mv);
    }
    board
}

#[test]
fn the_checker_breaks_off_a_losing_perpetual() {
    // Red, a horse down but with all its defenders, has checked a8-a9, a9-a8 round the cycle
    // once and checked again; a9-a8 now would let Black bring about the third occurrence of
    // the start, with every red move a check: a loss. Red must play something else, and is
    // then only a horse down.
    let fen = "5k3/R8/5r3/7n1/9/9/9/9/9/2BAKAB2 w - - 0 1";
    let board = played(fen, "a8a9 f9f8 a9a8 f8f9 a8a9 f9f8");
    let repeat = board.parse_move("a9a8").unwrap();
    let (best, score) = search_eval(board.clone(), 10);
    let best = best.unwrap();
    assert_ne!(best, repeat, "the perpetual continued");
    let s = score.unwrap();
    assert!(
        s > tetrarch::score::mated_in(40) + 100,
        "red is not lost by rule: {s}"
    );
    let mut after = board.clone();
    after.make(best);
    assert!(after.outcome().is_none());

    // Without the history the same check is no loss: the history is what decides.
    let fresh = Board::from_text(&board.to_text()).unwrap();
    let mut check = fresh.clone();
    check.make(repeat);
    assert!(check.outcome().is_none());
}

#[test]
fn the_side_in_perpetual_check_keeps_repeating_to_win() {
    // Black, a chariot up, is checked round a cycle by Red's chariot (a9 and a8 in turn). It
    // could block with its c-file chariot, losing it, or step back into the cycle: under
    // xiangqi rules the checker must break off, so repeating keeps the extra chariot and the
    // win. A chess-style draw by repetition would score the cycle about even.
    let fen = "5k3/R8/5r3/9/9/2r6/9/9/9/3K5 w - - 0 1";
    let board = played(fen, "a8a9 f9f8 a9a8 f8f9 a8a9");
    let (best, score) = search_eval(board.clone(), 10);
    assert_eq!(best, Some(board.parse_move("f9f8").unwrap()));
    let s = score.unwrap();
    assert!(s > 500, "the cycle is a win for Black: {s}");
}
