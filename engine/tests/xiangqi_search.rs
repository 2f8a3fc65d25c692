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
