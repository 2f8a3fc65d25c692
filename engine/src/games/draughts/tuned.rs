//! The draughts evaluation's weights fitted by `tetrarch-tune texel`.
//!
//! Fitted from 27904 positions of draughts.txt (held out: 2816), K = 0.006463:
//! mean squared error train 0.024820 -> 0.020766, held out 0.091280 -> 0.080835.
//! Command: tetrarch-tune texel -game draughts -data draughts.txt -threads 2 -lambda 0.5 -epochs 1000 -check 50 -out engine/src/games/draughts/tuned.rs
//!
//! Generated: regenerate with the tuner rather than edit by hand. Terms are listed by name;
//! a term of `weights.rs` missing here keeps its default there.

/// Every term's `(midgame, endgame)` pairs, in visit order.
#[rustfmt::skip]
pub(crate) const TUNED: crate::linear::Tuned = &[
    ("man", &[(118, 71)]),
    ("king", &[(542, 241)]),
    ("man_row", &[
        (27, -15), (19, -12), (16, -8), (18, -3), (15, -12), (16, 0), (-13, -9), (35, 18),
        (-99, 163),
    ]),
    ("centre", &[(4, 22)]),
    ("edge", &[(-9, 3)]),
    ("imbalance", &[(4, -20)]),
    ("outpost", &[(-60, 22)]),
    ("outpost_support", &[(10, 0)]),
    ("supported", &[(-6, 15)]),
    ("runaway", &[(283, 47)]),
    ("runaway_distance", &[(-66, -7)]),
    ("breakthrough", &[(-34, 62)]),
    ("locked", &[(6, 40)]),
    ("mobility", &[(-10, 24)]),
    ("king_diagonal", &[(-65, 52)]),
    ("king_mobility", &[(208, -26)]),
    ("trade", &[(9, -1)]),
];
