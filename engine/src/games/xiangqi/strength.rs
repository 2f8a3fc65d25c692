//! Xiangqi's Elo table: target Elo (`UCI_Elo`, UCCI `elo`) to strength level (see
//! `crate::strength`).
//!
//! Scale: no public xiangqi rating list runs here, so the scale is defined by one stated
//! anchor, Fairy-Stockfish (xiangqi, `UCI_Variant xiangqi`) searching a fixed 2000 nodes per
//! move, which is given 1500 by definition. Both sides spend fixed effort (our levels are node
//! budgets), so the table does not depend on the machine or its load.
//! `tetrarch-tune calibrate -game xiangqi` replays the ladder and prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(1000, 0.0), (1500, 6.0), (2000, 12.0), (2500, 19.0)],
    scale: "Fairy-Stockfish xiangqi at 2000 nodes = 1500 (provisional)",
};
