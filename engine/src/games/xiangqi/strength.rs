//! Xiangqi's Elo table: target Elo (`UCI_Elo`, UCCI `elo`) to strength level (see
//! `crate::strength`).
//!
//! Scale: no public xiangqi rating list runs here, so the scale is defined by one stated
//! anchor, Fairy-Stockfish (xiangqi, `UCI_Variant xiangqi`) searching a fixed 2000 nodes per
//! move, which is given 1500 by definition. Both sides spend fixed effort (our levels are node
//! budgets), so the table does not depend on the machine or its load. Measured (see README,
//! "Calibration"): levels 3, 6, 9 and 12, each over 80 games against Fairy-Stockfish at 500,
//! 2000, 8000 and 25000 nodes (320 games a level), fitted jointly by `tetrarch-tune
//! calibrate`'s method: intervals +/-51 to +/-64, steps of 320 to 390 Elo (about 110 a
//! level). `tetrarch-tune calibrate -game xiangqi` replays the ladder.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(1161, 3.0), (1483, 6.0), (1869, 9.0), (2204, 12.0)],
    scale: "Fairy-Stockfish xiangqi at 2000 nodes = 1500",
};
