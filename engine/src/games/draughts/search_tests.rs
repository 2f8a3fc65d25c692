//! The shared search over draughts: captures are followed to the end in quiescence (the side to
//! move never stands pat on a compulsory capture), and a shot is found.

use std::sync::{Arc, Mutex};

use crossbeam::channel;

use super::{Board, Eval, Move};
use crate::game::{Notation, Position};
use crate::limits::Limits;
use crate::report::{Iteration, Reporter};
use crate::score::Score;
use crate::search::Engine;

#[derive(Default)]
struct Last {
    score: Mutex<Option<(u32, Score, Vec<Move>)>>,
    best: Mutex<Option<Move>>,
}

struct Rep(Arc<Last>, channel::Sender<()>);

impl Reporter<Board> for Rep {
    fn iteration(&self, info: &Iteration<'_, Board>) {
        if let Some(l) = info.lines.first() {
            *self.0.score.lock().unwrap() = Some((info.depth, l.score, l.pv.clone()));
        }
    }
    fn best_move(&self, _: &Board, best: Option<Move>, _: Option<Move>) {
        *self.0.best.lock().unwrap() = best;
        let _ = self.1.send(());
    }
}

/// Searches `fen` to `depth`: (best move text, score, principal variation texts).
fn search(fen: &str, depth: u32) -> (String, Score, Vec<String>) {
    search_with(fen, depth, Eval::default())
}

/// [`search`] with the evaluator `eval`.
fn search_with(fen: &str, depth: u32, eval: Eval) -> (String, Score, Vec<String>) {
    let pos = Board::from_text(fen).unwrap();
    let mut engine = Engine::new(pos.clone(), eval);
    let last = Arc::new(Last::default());
    let (tx, rx) = channel::bounded(1);
    engine.go(Limits::depth(depth), Arc::new(Rep(last.clone(), tx)));
    rx.recv().unwrap();
    engine.wait();
    let best = last.best.lock().unwrap().expect("a move");
    let (_, score, pv) = last.score.lock().unwrap().clone().expect("an iteration");
    let mut p = pos.clone();
    let mut texts = Vec::new();
    for m in pv {
        texts.push(p.hub_move_text(m));
        let _ = p.make(m);
    }
    (pos.hub_move_text(best), score, texts)
}

#[test]
fn quiescence_plays_out_the_compulsory_recapture() {
    // White must capture: 32x21 loses two men to 16x27x36, 45x34 loses one to 27x36; a
    // one-ply search sees both replies only if quiescence follows the forced captures. After
    // 32x21 White wins a man back (45x34), so which line is better is the evaluation's call
    // on the final positions: the hand-set table, which counts the men, is pinned here.
    let (best, score, pv) = search_with(
        "W:W31,32,45,48:B3,16,22,27,40",
        1,
        Eval::new(super::weights::Weights::handset()),
    );
    assert_eq!(best, "45x34x40");
    assert!(pv.len() >= 2 && pv[1] == "27x36x31", "{pv:?}");
    assert!(score < -50, "{score}");
}

#[test]
fn a_won_king_ending_is_seen_as_won() {
    // Won: scored like a few men ahead, far above the drawish endings (three pieces against
    // a king score an eighth, below 60), whatever the fitted king weights make of it exactly.
    let (_, score, _) = search("W:WK1,K2,K3,K4:BK50", 6);
    assert!(score > 250, "{score}");
    let (_, drawish, _) = search("W:WK1,K2,K3:BK50", 6);
    assert!(drawish < score / 3, "{drawish} {score}");
}

#[test]
fn endgame_tables_give_exact_scores() {
    use crate::score::{KNOWN_SPAN, KNOWN_WIN, MAX_EVAL};
    let tables = Some(Arc::new(super::bitbase::tests::THREE.clone()));
    let with = || Eval::default().with_bitbases(tables.clone());
    // Two kings against one: every move keeps the draw, which the tables score as 0 while
    // the evaluation alone sees two kings against one.
    let (_, plain, _) = search("W:WK1,K2:BK46", 4);
    let (_, exact, _) = search_with("W:WK1,K2:BK46", 4, with());
    assert_ne!(plain, 0);
    assert_eq!(exact, 0);
    // Two kings against a man, nothing to capture at once: won, and scored in the known
    // band, not as a mate (one ply: every reply is a table position).
    let (_, won, _) = search_with("W:WK5,K46:B26", 1, with());
    assert!(won > KNOWN_WIN - KNOWN_SPAN, "{won}");
    assert!(won <= KNOWN_WIN + KNOWN_SPAN, "{won}");
    // Four pieces (beyond the tables) whose capture leads into them: the forced capture
    // ends quiescence in a table result at once.
    let (best, four, _) = search_with("W:WK46,31:B23,10", 1, with());
    assert!(four.abs() > MAX_EVAL || four == 0, "{best} {four}");
}
