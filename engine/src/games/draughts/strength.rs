//! International draughts' Elo table: target Elo (Hub `elo`, DXP `--elo`) to strength level
//! (see `crate::strength`).
//!
//! Scale: no public draughts rating list runs here, so the scale is defined by one stated
//! anchor: Scan 2.0 over its first Hub at a fixed depth of 6 = 2000 (that depth scored even
//! against our full engine at 20000 nodes, which the first, provisional scale called 2000).
//! Scan at depths 2, 4 and 8 and every level are rated jointly through the ladder, 160 games
//! a level (README "Calibration"). `tetrarch-tune calibrate -game draughts` replays it and
//! prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(1040, 2.0), (1429, 6.0), (1806, 10.0), (2138, 14.0)],
    scale: "Scan 2.0 at depth 6 = 2000",
};
