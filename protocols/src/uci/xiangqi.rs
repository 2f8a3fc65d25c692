//! Xiangqi behind the UCI session: the dialect of Fairy-Stockfish (`UCI_Variant` = xiangqi).
//!
//! Scheme: the same loop and `Driver` as chess; only the position type, the evaluator and the
//! move text differ. Moves are written with ranks 1..10 as Fairy-Stockfish's plain UCI does
//! (`h3e3`, `b10c8`); the board reads either numbering (see the xiangqi notation module), so a
//! GUI that sends 0..9 coordinates is still understood. FEN is the common xiangqi FEN.

use tetrarch::games::xiangqi::{Board, MoveStyle, XiangqiEval};

use super::options::Values;
use super::session::UciGame;

pub struct Xiangqi;

impl UciGame for Xiangqi {
    type Pos = Board;
    type Eval = XiangqiEval;
    const VARIANT: &'static str = "xiangqi";
    const MOVES_LEFT: u32 = <tetrarch::games::Xiangqi as tetrarch::games::Game>::MOVES_LEFT;

    fn configure(pos: &mut Board, _options: &Values) {
        pos.set_move_style(MoveStyle::RanksFromOne);
    }

    fn wdl(score: i32) -> (u32, u32, u32) {
        // The chess curve: a win likely past about two soldiers' worth of advantage. A rough
        // model, not fitted to xiangqi games.
        super::chess::wdl_model(score)
    }
}
