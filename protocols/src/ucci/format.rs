//! UCCI output lines from the engine's search events.
//!
//! Scheme: [`UcciReporter`] implements `report::Reporter`. Each completed iteration prints
//! `info depth D score S pv ...` (UCCI scores have no `cp` token) and `info time T nodes N`;
//! aspiration bounds are not printed (UCCI has no bound notation). The search ends with
//! `bestmove M [ponder P] [draw|resign]` or `nobestmove` when there is no move.
//!
//! Scores are the evaluation's units (a soldier at home is about 80, a horse about 450),
//! clamped to ±9000; a forced win in `n` plies is `10000 - n` and a forced loss `-(10000 - n)`,
//! ElephantEye's convention, so GUIs built around it read mates as mates.
//!
//! Draws and resignation: when the opponent offered a draw (`go draw`, `ponderhit draw`) the
//! engine accepts it by appending `draw` if its last score says it is not better (at most 0).
//! It resigns (`resign`) only when the search proved the loss: a mate or rule loss against it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tetrarch::game::{Notation, Position};
use tetrarch::games::xiangqi::{Board, Move};
use tetrarch::report::{Iteration, Reporter, ScoreBound};
use tetrarch::score::{is_decisive, Score, MATE};

use crate::io::Output;

/// The UCCI form of a score (see the module doc).
pub fn score_text(score: Score) -> String {
    if is_decisive(score) {
        let plies = MATE - score.abs();
        let v = 10_000 - plies;
        return if score > 0 { v } else { -v }.to_string();
    }
    score.clamp(-9000, 9000).to_string()
}

/// A line's moves in UCCI coordinates, replayed from `root`; stops at the first move that is
/// not legal there, so nothing illegal is printed.
pub fn line_text(root: &Board, moves: &[Move]) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(moves.len());
    for &m in moves {
        if !(pos.is_pseudo_legal(m) && pos.is_legal(m)) {
            break;
        }
        words.push(pos.move_text(m));
        let _undo = pos.make(m);
    }
    words.join(" ")
}

pub struct UcciReporter {
    out: Output,
    /// Set while the opponent's draw offer stands (`go draw`, `ponderhit draw`).
    draw_offered: Arc<AtomicBool>,
    last_score: Mutex<Option<Score>>,
}

impl UcciReporter {
    pub fn new(out: Output, draw_offered: Arc<AtomicBool>) -> UcciReporter {
        UcciReporter {
            out,
            draw_offered,
            last_score: Mutex::new(None),
        }
    }
}

impl Reporter<Board> for UcciReporter {
    fn iteration(&self, info: &Iteration<'_, Board>) {
        let Some(line) = info.lines.first() else {
            return;
        };
        if info.depth == 0 {
            self.out
                .line(&format!("info depth 0 score {}", score_text(line.score)));
            return;
        }
        if line.bound != ScoreBound::Exact {
            return;
        }
        *self.last_score.lock().unwrap_or_else(|e| e.into_inner()) = Some(line.score);
        let mut s = format!("info depth {} score {}", line.depth, score_text(line.score));
        let pv = line_text(info.root, &line.pv);
        if !pv.is_empty() {
            s.push_str(" pv ");
            s.push_str(&pv);
        }
        self.out.line(&s);
        self.out
            .line(&format!("info time {} nodes {}", info.time_ms, info.nodes));
    }

    fn best_move(&self, root: &Board, best: Option<Move>, ponder: Option<Move>) {
        let Some(best) = best else {
            self.out.line("nobestmove");
            return;
        };
        let mut text = format!("bestmove {}", root.move_text(best));
        if let Some(p) = ponder {
            let mut pos = root.clone();
            let _undo = pos.make(best);
            if pos.is_pseudo_legal(p) && pos.is_legal(p) {
                text.push_str(" ponder ");
                text.push_str(&pos.move_text(p));
            }
        }
        let score = *self.last_score.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = score {
            if self.draw_offered.load(Ordering::Relaxed) && s <= 0 {
                text.push_str(" draw");
            } else if is_decisive(s) && s < 0 {
                text.push_str(" resign");
            }
        }
        self.out.line(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch::score::{mate_in, mated_in};

    #[test]
    fn scores_have_no_cp_and_mates_are_near_ten_thousand() {
        assert_eq!(score_text(35), "35");
        assert_eq!(score_text(-120), "-120");
        assert_eq!(score_text(mate_in(3)), "9997");
        assert_eq!(score_text(mated_in(2)), "-9998");
        assert_eq!(score_text(15_000), "9000");
    }
}
