//! Gammas of the learned move priors, fitted by `tetrarch-tune go-patterns` (none yet).
//!
//! Generated: regenerate with the tuner rather than edit by hand.

/// The largest diamond radius among the features.
pub(crate) const RADIUS: usize = 3;

/// `(group, key, gamma)` of every fitted feature; see `move_features` for the groups.
#[rustfmt::skip]
pub(crate) const GAMMAS: &[(u8, u64, f32)] = &[];
