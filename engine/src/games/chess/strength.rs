//! Chess's Elo table: target `UCI_Elo` to strength level (see `crate::strength`).
//!
//! Scale: Stockfish 15.1's `UCI_Elo` ladder (which is itself anchored to CCRL 40/4). Measured
//! at 5+0.05 (40-game matches, so about +/-110 each): level 2.25 scored -168 against Stockfish
//! at 1500 (about 1330), level 8.5 scored -127 against Stockfish at 2000 (about 1870), and full
//! strength scored +52 against 2200 and +21 against 2400 over 100 games each (taken as 2300).
//! The top anchor stays a hair below full strength so that `UCI_LimitStrength` always limits.
//! `tetrarch-tune calibrate -game chess` replays the ladder and prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(1320, 2.1), (1870, 8.5), (2300, 19.9)],
    scale: "Stockfish 15.1 UCI_Elo ladder, 5+0.05",
};
