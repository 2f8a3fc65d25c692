//! The draughts evaluation's weights fitted by `tetrarch-tune texel`.
//!
//! Fitted from 27904 positions of /work/wt/data/draughts.txt (held out: 2816), K = 0.006463:
//! mean squared error train 0.024820 -> 0.020766, held out 0.091280 -> 0.080835.
//! Command: tetrarch-tune texel -game draughts -data /work/wt/data/draughts.txt -threads 2 -lambda 0.5 -epochs 1000 -check 50 -out engine/src/games/draughts/tuned.rs
//!
//! Generated: regenerate with the tuner rather than edit by hand.

use super::weights::*;

impl Weights {
    /// The table fitted to self-play results (see the module documentation).
    pub const TUNED: Weights = Weights::ZERO
        .with(MAN, 118, 71)
        .with(KING, 542, 241)
        .with(MAN_ROW, 27, -15)
        .with(MAN_ROW + 1, 19, -12)
        .with(MAN_ROW + 2, 16, -8)
        .with(MAN_ROW + 3, 18, -3)
        .with(MAN_ROW + 4, 15, -12)
        .with(MAN_ROW + 5, 16, 0)
        .with(MAN_ROW + 6, -13, -9)
        .with(MAN_ROW + 7, 35, 18)
        .with(MAN_ROW + 8, -99, 163)
        .with(CENTRE, 4, 22)
        .with(EDGE, -9, 3)
        .with(IMBALANCE, 4, -20)
        .with(OUTPOST, -60, 22)
        .with(OUTPOST_SUPPORT, 10, 0)
        .with(SUPPORTED, -6, 15)
        .with(RUNAWAY, 283, 47)
        .with(RUNAWAY_DISTANCE, -66, -7)
        .with(BREAKTHROUGH, -34, 62)
        .with(LOCKED, 6, 40)
        .with(MOBILITY, -10, 24)
        .with(KING_DIAGONAL, -65, 52)
        .with(KING_MOBILITY, 208, -26)
        .with(TRADE, 9, -1);
}
