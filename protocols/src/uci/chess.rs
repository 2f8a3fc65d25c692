//! Chess behind the UCI session: the board, its evaluator and the Chess960 text option.

use std::sync::Arc;

use tetrarch::games::chess::nnue::ChessEvaluator;
use tetrarch::games::chess::Board;

use super::options::Values;
use super::session::UciGame;

pub struct Chess;

impl UciGame for Chess {
    type Pos = Board;
    type Eval = ChessEvaluator;
    const VARIANT: &'static str = "chess";

    fn configure(pos: &mut Board, options: &Values) {
        pos.set_chess960(options.chess960);
    }

    fn wdl(score: i32) -> (u32, u32, u32) {
        wdl_model(score)
    }

    fn evaluator(options: &Values) -> (ChessEvaluator, usize) {
        // One evaluation for every strength: the limiter's levels were calibrated with the
        // network (see `games::chess::strength`), so `Use NNUE` alone chooses it.
        match options.net().filter(|_| options.use_nnue) {
            // The net's address tells one loaded net from another.
            Some(net) => {
                let signature = Arc::as_ptr(&net) as usize;
                (ChessEvaluator::network(net), signature)
            }
            None => (ChessEvaluator::default(), 0),
        }
    }
}

/// Win/draw/loss per mille from a centipawn score: two logistic curves, a win becoming likely
/// past about two pawns. The parameters are a rough model, not fitted to games.
pub fn wdl_model(score: i32) -> (u32, u32, u32) {
    if let Some(m) = tetrarch::score::mate_moves(score) {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let x = score as f64;
    let (a, b) = (180.0, 60.0);
    let w = (1000.0 / (1.0 + ((a - x) / b).exp())).round() as u32;
    let l = (1000.0 / (1.0 + ((a + x) / b).exp())).round() as u32;
    let (w, l) = (w.min(1000), l.min(1000 - w.min(1000)));
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_sums_to_a_thousand_and_is_symmetric() {
        for s in [
            -2000,
            -300,
            -50,
            0,
            50,
            300,
            2000,
            tetrarch::score::mate_in(3),
        ] {
            let (w, d, l) = wdl_model(s);
            assert_eq!(w + d + l, 1000, "{s}");
            if s.abs() < 5000 {
                let (w2, _, l2) = wdl_model(-s);
                assert_eq!((w, l), (l2, w2));
            }
        }
        assert!(wdl_model(0).1 > 900);
    }
}
