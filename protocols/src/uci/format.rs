//! UCI output lines from the engine's protocol-neutral search events.
//!
//! Scheme: [`UciReporter`] implements `report::Reporter` and writes Stockfish's line layout:
//! `info depth D seldepth S multipv K score cp X|mate Y [lowerbound|upperbound] [wdl W D L]
//! nodes N nps R hashfull H time T pv ...`, one line per MultiPV line, then `bestmove M
//! [ponder P]` or `bestmove (none)`. Moves are written by replaying the line on a copy of the
//! root, so every move printed is legal in its position and uses the position's notation
//! (Chess960 castling when the position says so). With no legal move the engine reports depth
//! 0, printed as `info depth 0 score mate 0` (mated) or `score cp 0` (stalemate).

use tetrarch::game::Notation;
use tetrarch::report::{Iteration, Reporter, ScoreBound};
use tetrarch::score::mate_moves;

use crate::io::Output;

pub struct UciReporter {
    out: Output,
    show_wdl: bool,
    wdl: fn(i32) -> (u32, u32, u32),
}

impl UciReporter {
    pub fn new(out: Output, show_wdl: bool, wdl: fn(i32) -> (u32, u32, u32)) -> UciReporter {
        UciReporter { out, show_wdl, wdl }
    }
}

/// `cp X` or `mate Y` for a score.
pub fn score_text(score: i32) -> String {
    match mate_moves(score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {score}"),
    }
}

/// The moves of a line in notation, replayed from `root`; stops at the first move that is
/// not legal (which would be a search bug), so nothing illegal is ever printed.
pub fn line_text<P: Notation>(root: &P, moves: &[P::Move]) -> String {
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

impl<P: Notation> Reporter<P> for UciReporter {
    fn iteration(&self, info: &Iteration<'_, P>) {
        if info.depth == 0 {
            let score = info.lines.first().map_or(0, |l| l.score);
            self.out
                .line(&format!("info depth 0 score {}", score_text(score)));
            return;
        }
        for line in &info.lines {
            let mut s = format!(
                "info depth {} seldepth {} multipv {} score {}",
                line.depth,
                line.seldepth.max(line.depth.min(1)),
                line.rank,
                score_text(line.score)
            );
            match line.bound {
                ScoreBound::Lower => s.push_str(" lowerbound"),
                ScoreBound::Upper => s.push_str(" upperbound"),
                ScoreBound::Exact => {}
            }
            if self.show_wdl {
                let (w, d, l) = (self.wdl)(line.score);
                s.push_str(&format!(" wdl {w} {d} {l}"));
            }
            s.push_str(&format!(
                " nodes {} nps {} hashfull {} time {}",
                info.nodes, info.nps, info.hashfull, info.time_ms
            ));
            let pv = line_text(info.root, &line.pv);
            if !pv.is_empty() {
                s.push_str(" pv ");
                s.push_str(&pv);
            }
            self.out.line(&s);
        }
    }

    fn best_move(&self, root: &P, best: Option<P::Move>, ponder: Option<P::Move>) {
        let Some(best) = best else {
            self.out.line("bestmove (none)");
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
        self.out.line(&text);
    }
}
