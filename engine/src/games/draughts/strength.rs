//! International draughts' Elo table: target Elo (Hub `elo`, DXP `--elo`) to strength level
//! (see `crate::strength`).
//!
//! Scale: no public draughts rating list runs here, so the scale is defined by one stated
//! anchor: our own full-strength engine at a fixed 20 000 nodes per move, given 2000 by
//! definition (Scan 2.0 at a fixed depth is the intended outside anchor once it runs here).
//! `tetrarch-tune calibrate -game draughts` replays the ladder and prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(1000, 0.0), (1500, 6.0), (2000, 12.0), (2400, 19.0)],
    scale: "Tetrarch full strength at 20000 nodes = 2000 (provisional)",
};
