//! Helpers shared by the unit tests of several games (compiled for tests only).
//!
//! Scheme: positions for checking evaluations come from seeded random games played from the
//! start, with captures preferred so that material comes off and endgames appear.

use rand::rngs::SmallRng;
use rand::Rng;

use crate::game::Notation;

/// A position after up to `max_plies` random legal moves from the start (fewer if the game
/// ends), a capture chosen with probability `noisy_share` whenever one exists.
pub fn random_playout<P: Notation>(rng: &mut SmallRng, max_plies: usize, noisy_share: f64) -> P {
    let mut b = P::start();
    for _ in 0..rng.gen_range(0..max_plies) {
        let Some(m) = crate::selfplay::random_move(&b, rng, noisy_share) else {
            break;
        };
        b.make(m);
    }
    b
}
