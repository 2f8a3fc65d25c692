//! International draughts' Elo table: target Elo (Hub `elo`, DXP `--elo`) to strength level
//! (see `crate::strength`).
//!
//! Scale: no public draughts rating list runs here, so the scale is defined by one stated
//! anchor: Scan 2.0 over its first Hub at a fixed depth of 6 = 2000 (that depth scored even
//! against our full engine at 20000 nodes, which the first, provisional scale called 2000).
//! Scan at depths 1 to 14, our full engine at 100 nodes a move (below depth 1) and every level
//! are rated jointly through the ladder: levels 2 to 18 in steps of two and level 7, 40 games
//! a match against the four references nearest to each, two rounds from different draws of
//! openings for levels 2-10 (160-320 games a level; README "Calibration"), intervals +/-45 to
//! +/-58, steps of 77 to 195 Elo. `tetrarch-tune calibrate -game draughts` replays it and
//! prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[
        (1058, 2.0),
        (1253, 4.0),
        (1387, 6.0),
        (1529, 7.0),
        (1657, 8.0),
        (1833, 10.0),
        (2007, 12.0),
        (2130, 14.0),
        (2278, 16.0),
        (2355, 18.0),
    ],
    scale: "Scan 2.0 at depth 6 = 2000",
};
