//! Chess's Elo table: target `UCI_Elo` to strength level (see `crate::strength`).
//!
//! Scale: Stockfish 15.1's `UCI_Elo` ladder (which is itself anchored to CCRL 40/4), measured
//! by `tetrarch-tune calibrate -game chess` at 5+0.05 (README, "Calibration"): levels 2, 6,
//! 10 and 14 against the two ladder rungs nearest each (16 games a match), levels 17 and 19
//! against 2400 and 2700 (12 games a match), so each anchor is good to about +/-150. Level 19
//! is already near full strength at that time control (one line, a node budget the clock
//! binds first); level 20 is no limiter at all.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[
        (1364, 2.0),
        (1672, 6.0),
        (1962, 10.0),
        (2116, 14.0),
        (2469, 17.0),
        (2550, 19.0),
    ],
    scale: "Stockfish 15.1 UCI_Elo ladder, 5+0.05",
};
