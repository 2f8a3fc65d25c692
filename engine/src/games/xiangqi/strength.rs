//! Xiangqi's Elo table: target Elo (`UCI_Elo`, UCCI `elo`) to strength level (see
//! `crate::strength`).
//!
//! Scale: no public xiangqi rating list runs here, so the scale is defined by one stated
//! anchor, Fairy-Stockfish (xiangqi, `UCI_Variant xiangqi`) searching a fixed 2000 nodes per
//! move, which is given 1500 by definition. Both sides spend fixed effort (our levels are node
//! budgets), so the table does not depend on the machine or its load. Measured (see README,
//! "Calibration"): levels 3, 5, 6, 7, 8, 9, 11 and 12, 80 games a match against the three
//! Fairy-Stockfish node counts (500, 1000, 2000, 8000, 25000, 50000) nearest each level's
//! expected rating, plus the matches of the first ladder (240-400 games a level), fitted
//! jointly by `tetrarch-tune calibrate`'s method: intervals +/-45 to +/-55, and no step between
//! rungs over 232 Elo. `tetrarch-tune calibrate -game xiangqi` replays the ladder.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[
        (1172, 3.0),
        (1389, 5.0),
        (1469, 6.0),
        (1597, 7.0),
        (1723, 8.0),
        (1867, 9.0),
        (2099, 11.0),
        (2227, 12.0),
    ],
    scale: "Fairy-Stockfish xiangqi at 2000 nodes = 1500",
};
