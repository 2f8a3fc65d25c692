//! Playing strength below the engine's best, for sparring.
//!
//! Scheme: weaker play comes from two honest sources, never from sleeping. First, the search
//! is given a node budget that grows geometrically with the level, so a low level sees only a
//! few plies. Second, the move is drawn from the best few root lines (searched as MultiPV)
//! with probability falling off exponentially with the score gap to the best, at a
//! "temperature" that shrinks as the level rises, so a weak level often plays the second or
//! third choice when it is only a little worse and occasionally blunders, while a strong one
//! almost always plays the best. Levels run 0 to 20 with fractional steps (20 = full
//! strength, no limiter); an Elo target maps to a level through the game's table
//! (`games::<g>::strength::ELO`, see `crate::strength`). The two parts can also be set apart:
//! UCCI's `randomness` is the choice alone, at a temperature of its own, with no node budget.
//! The choice costs depth (every extra root line is searched in full), and near the top its
//! temperature is too cold to matter, so the top levels choose among fewer lines: two from
//! level 15, and from level 18 only the best one, which leaves the node budget alone to
//! limit them and lets the ladder reach up to full strength.

use rand::Rng;

use crate::score::{is_decisive, Score};

/// A strength setting below full strength.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The node budget of a move, if any.
    nodes: Option<u64>,
    /// The temperature of the choice among root lines, in evaluation units.
    temperature: f64,
    /// How many root lines the choice is made from.
    lines: usize,
}

/// The root lines of the choice: all of them below level 15, then fewer (see the module doc).
const CHOICE_LINES: usize = 4;

impl Skill {
    /// A level, or `None` for full strength (20 and above).
    pub fn from_level(level: f64) -> Option<Skill> {
        (level < crate::strength::FULL).then(|| {
            let level = level.max(0.0);
            Skill {
                // 200 nodes at level 0, about 1.5 million at level 19.
                nodes: Some((200.0 * 1.6f64.powf(level)) as u64),
                // 120 at level 0 down to about 6 at level 19.
                temperature: 120.0 * 0.855f64.powf(level),
                lines: if level < 15.0 {
                    CHOICE_LINES
                } else if level < 18.0 {
                    2
                } else {
                    1
                },
            }
        })
    }

    /// The choice among root lines alone, at a temperature (evaluation units), with no node
    /// budget; `None` for a temperature of zero (always the best line).
    pub fn choice_only(temperature: f64) -> Option<Skill> {
        (temperature > 0.0).then_some(Skill {
            nodes: None,
            temperature,
            lines: CHOICE_LINES,
        })
    }

    /// This setting with the choice made at least `temperature` warm.
    pub fn warmer(self, temperature: f64) -> Skill {
        if temperature > self.temperature {
            // A choice asked for in its own right is made among all the lines.
            Skill {
                temperature,
                lines: CHOICE_LINES,
                ..self
            }
        } else {
            self
        }
    }

    /// How many root lines the choice is made from.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The node budget of one move, if it has one.
    pub fn nodes(&self) -> Option<u64> {
        self.nodes
    }

    /// The temperature of the choice, in evaluation units.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// Chooses among root lines ordered best first; returns the index.
    pub fn pick<R: Rng>(&self, scores: &[Score], rng: &mut R) -> usize {
        if scores.len() <= 1 || is_decisive(scores[0]) {
            return 0;
        }
        let t = self.temperature.max(1e-9);
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
        let random = Skill::choice_only(60.0).unwrap();
        assert_eq!(random.nodes(), None);
        assert!(Skill::choice_only(0.0).is_none());
        assert_eq!(strong.warmer(60.0).temperature(), 60.0);
        assert_eq!(strong.warmer(60.0).nodes(), strong.nodes());
        // The top levels spend no depth on lines they would not choose, unless asked to.
        assert_eq!(weak.lines(), CHOICE_LINES);
        assert_eq!(Skill::from_level(16.0).unwrap().lines(), 2);
        assert_eq!(strong.lines(), 1);
        assert_eq!(strong.warmer(60.0).lines(), CHOICE_LINES);
        assert_eq!(strong.warmer(1.0).lines(), 1);
    }
}
