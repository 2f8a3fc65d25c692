//! International draughts' Elo table: target Elo (Hub `elo`, DXP `--elo`) to strength level
//! (see `crate::strength`).
//!
//! Scale: no public draughts rating list runs here, so the scale is defined by one stated
//! anchor: Scan 2.0 over its first Hub at a fixed depth of 6 = 2000 (that depth scored even
//! against our full engine at 20000 nodes, which the first, provisional scale called 2000).
//! Scan at depths 1 to 12 and every level are rated jointly through the ladder: levels 2, 6,
//! 10, 14 and 18, each 40 games against the three depths nearest to it, 120 games a level
//! (README "Calibration"), intervals +/-63 to +/-108. `tetrarch-tune calibrate -game draughts`
//! replays it and prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[
        (969, 2.0),
        (1280, 6.0),
        (1803, 10.0),
        (2114, 14.0),
        (2353, 18.0),
    ],
    scale: "Scan 2.0 at depth 6 = 2000",
};
