//! Playing strength below the engine's best, for sparring.
//!
//! Scheme: weaker play comes from two honest sources, never from sleeping. First, the search
//! is given a node budget that grows geometrically with the level, so a low level sees only a
//! few plies. Second, the move is drawn from the best few root lines (searched as MultiPV)
//! with probability falling off exponentially with the score gap to the best, at a
//! "temperature" that shrinks as the level rises, so a weak level often plays the second or
//! third choice when it is only a little worse and occasionally blunders, while a strong one
//! almost always plays the best. Levels run 0 to 20 with fractional steps (20 = full
//! strength, no limiter); an Elo target maps to a level through a curve fitted against a
//! reference ladder (see the UCI front end for the fit).

use rand::Rng;

use crate::score::{is_decisive, Score};

/// A strength setting below full strength.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// 0.0 (weakest) to below 20.0.
    pub level: f64,
}

impl Skill {
    /// A level, or `None` for full strength (20 and above).
    pub fn from_level(level: f64) -> Option<Skill> {
        (level < 20.0).then_some(Skill {
            level: level.max(0.0),
        })
    }

    /// How many root lines the choice is made from.
    pub fn lines(&self) -> usize {
        4
    }

    /// The node budget of one move.
    pub fn nodes(&self) -> u64 {
        // 200 nodes at level 0, about 1.5 million at level 19.
        (200.0 * 1.6f64.powf(self.level)) as u64
    }

    /// The temperature of the choice, in evaluation units.
    fn temperature(&self) -> f64 {
        // 120 at level 0 down to about 6 at level 19.
        120.0 * 0.855f64.powf(self.level)
    }

    /// Chooses among root lines ordered best first; returns the index.
    pub fn pick<R: Rng>(&self, scores: &[Score], rng: &mut R) -> usize {
        if scores.len() <= 1 || is_decisive(scores[0]) {
            return 0;
        }
        let t = self.temperature();
        let top = scores[0] as f64;
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| {
                if is_decisive(s) {
                    0.0 // never choose a line that is known to lose when the best does not
                } else {
                    (-(top - s as f64).max(0.0) / t).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = rng.gen::<f64>() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn strong_levels_play_the_best_and_weak_ones_vary() {
        let mut rng = SmallRng::seed_from_u64(7);
        let scores = [50, 40, 0, -300];
        let strong = Skill::from_level(19.5).unwrap();
        let weak = Skill::from_level(0.0).unwrap();
        let picks = |s: Skill, rng: &mut SmallRng| {
            let mut count = [0; 4];
            for _ in 0..2000 {
                count[s.pick(&scores, rng)] += 1;
            }
            count
        };
        let c = picks(strong, &mut rng);
        assert!(c[0] > 1500 && c[3] == 0, "{c:?}");
        let c = picks(weak, &mut rng);
        assert!(c[1] > 300 && c[2] > 100 && c[0] < 1200, "{c:?}");
        assert!(Skill::from_level(20.0).is_none());
        assert!(weak.nodes() < strong.nodes());
    }
}
