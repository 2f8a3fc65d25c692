//! Chess's Elo table: target `UCI_Elo` to strength level (see `crate::strength`).
//!
//! Scale: Stockfish 15.1's `UCI_Elo` ladder (itself anchored to CCRL 40/4), measured by
//! `tetrarch-tune calibrate -game chess` at 5+0.05 with the network evaluating at every level
//! (README, "Calibration", 2026-12-07): levels 0 to 18 in steps of three against the rungs
//! 1350 to 2850 that bracket each, 100 to 180 games a level, so the five levels inside
//! 1350-2850 are good to +/-53-56 and levels 0 and 3 (below Stockfish's lowest rung) to
//! +/-77. Level 18 is already the full engine at that time control (one line, a node budget
//! the clock binds first). Level 20 is no limiter at all.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[
        (1170, 0.0),
        (1326, 3.0),
        (1699, 6.0),
        (1956, 9.0),
        (2069, 12.0),
        (2391, 15.0),
        (2759, 18.0),
    ],
    scale: "Stockfish 15.1 UCI_Elo ladder, 5+0.05",
};
