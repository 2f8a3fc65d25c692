//! Gammas of the playout features, fitted by `tetrarch-tune go-patterns -model playout`.
//!
//! Empty: not fitted yet (every gamma 1).

/// `(group, key, gamma)` of every fitted feature; see `playout_features` for the groups.
#[rustfmt::skip]
pub(crate) const GAMMAS: &[(u8, u64, f32)] = &[
];
