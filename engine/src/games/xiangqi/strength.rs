//! Xiangqi's Elo table: target Elo (`UCI_Elo`, UCCI `elo`) to strength level (see
//! `crate::strength`).
//!
//! Scale: no public xiangqi rating list runs here, so the scale is defined by one stated
//! anchor, Fairy-Stockfish (xiangqi, `UCI_Variant xiangqi`) searching a fixed 2000 nodes per
//! move, which is given 1500 by definition. Both sides spend fixed effort (our levels are node
//! budgets), so the table does not depend on the machine or its load. Measured (see README,
//! "Strength settings"): levels 3, 6 and 9 over 40 games each against that anchor, level 9
//! also over 20 games against Fairy-Stockfish at 20000 nodes (so rated through level 9), and
//! level 12 over 20 games against the latter, fitted jointly by `tetrarch-tune calibrate`'s
//! method (intervals +/-110 to +/-180). Levels 3 to 9 gain about 150 Elo a level; level 12's
//! small gain over 9 rests on 40 games and is the least certain. `tetrarch-tune calibrate -game xiangqi` replays the ladder.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(1114, 3.0), (1517, 6.0), (1975, 9.0), (2059, 12.0)],
    scale: "Fairy-Stockfish xiangqi at 2000 nodes = 1500",
};
