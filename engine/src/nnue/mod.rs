//! NNUE: an efficiently updatable neural-network evaluation, generic over a game's inputs.
//!
//! Scheme: a game describes its inputs with a [`FeatureSet`] (`features`); a [`Network`]
//! (`network`) holds quantised i16 weights of one hidden layer per perspective, read from a
//! versioned file format, with the quantisation constants and the float model it stands for
//! documented there; [`NnueEval`] (`accumulator`) is the search-side evaluator, an
//! accumulator stack updated lazily from the moves the search reports through the
//! [`crate::game::Evaluator`] hooks; `simd` holds the two inner loops with AVX2 / AVX-512
//! versions chosen at run time and a portable version giving the same numbers.

mod accumulator;
mod features;
mod network;
pub mod simd;

pub use accumulator::NnueEval;
pub use features::{Delta, FeatureSet, SideDelta, DELTA_CAP, MAX_ACTIVE};
pub use network::{Network, QA, QB, SCALE, W2_MAX};
