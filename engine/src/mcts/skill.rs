//! Playing strength below the best for the Monte-Carlo search (Go), for sparring.
//!
//! Scheme: a level from 0 to below [`crate::strength::FULL`] sets two things. First, a playout
//! budget that grows geometrically with the level (64 playouts at level 0, about 75 000 at
//! level 19), applied as a cap on playouts rather than on time, so a weak setting stays weak
//! on a fast machine. Second, the move is drawn from the root's visit distribution at a
//! temperature: a move's weight is `visits^(1/T)`, with `T` near 1 at level 0 (moves chosen in
//! proportion to how much the search looked at them) falling to about 0.07 at level 19
//! (almost always the most visited). Only moves the search took seriously are candidates
//! (at least a twentieth of the best move's visits, and two visits), so the mistakes are the
//! ones a weaker player makes, a plausible move that reads worse, never a random point; the
//! caller keeps the pass, resignation and eye rules out of the draw.

use rand::Rng;

use super::MoveStats;

/// A strength setting below full strength.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutSkill {
    /// 0.0 (weakest) to below 20.0.
    pub level: f64,
}

impl PlayoutSkill {
    /// A level, or `None` for full strength (20 and above).
    pub fn from_level(level: f64) -> Option<PlayoutSkill> {
        (level < crate::strength::FULL).then_some(PlayoutSkill {
            level: level.max(0.0),
        })
    }

    /// The playout budget of one move.
    pub fn playouts(&self) -> u64 {
        (64.0 * 1.45f64.powf(self.level)) as u64
    }

    /// The temperature of the draw.
    pub fn temperature(&self) -> f64 {
        0.87f64.powf(self.level)
    }

    /// Draws a move among `moves` (most visited first) for which `allowed` holds; `None` when
    /// no allowed move has enough visits (the caller then keeps its own choice).
    pub fn pick<M: Copy, R: Rng>(
        &self,
        moves: &[MoveStats<M>],
        allowed: impl Fn(M) -> bool,
        rng: &mut R,
    ) -> Option<M> {
        let top = moves.iter().map(|m| m.visits).max()?;
        let floor = (top / 20).max(2);
        let inv_t = 1.0 / self.temperature();
        let candidates: Vec<(M, f64)> = moves
            .iter()
            .filter(|m| m.visits >= floor && allowed(m.mv))
            .map(|m| (m.mv, (f64::from(m.visits) / f64::from(top)).powf(inv_t)))
            .collect();
        let total: f64 = candidates.iter().map(|c| c.1).sum();
        if candidates.is_empty() || total <= 0.0 {
            return None;
        }
        let mut x = rng.gen::<f64>() * total;
        for &(mv, w) in &candidates {
            if x < w {
                return Some(mv);
            }
            x -= w;
        }
        candidates.last().map(|c| c.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn stats(mv: u32, visits: u32) -> MoveStats<u32> {
        MoveStats {
            mv,
            visits,
            winrate: 0.5,
            search_winrate: 0.5,
            lcb: 0.5,
            prior: 0.1,
            score: 0.0,
            score_stdev: 0.0,
            pv: vec![mv],
        }
    }

    #[test]
    fn weak_levels_spread_strong_levels_focus_and_rare_moves_are_never_drawn() {
        let moves = vec![stats(0, 600), stats(1, 300), stats(2, 90), stats(3, 10)];
        let mut rng = SmallRng::seed_from_u64(3);
        let count = |s: PlayoutSkill, rng: &mut SmallRng| {
            let mut c = [0; 4];
            for _ in 0..3000 {
                c[s.pick(&moves, |_| true, rng).unwrap() as usize] += 1;
            }
            c
        };
        let weak = count(PlayoutSkill::from_level(0.0).unwrap(), &mut rng);
        assert!(weak[1] > 700 && weak[2] > 100 && weak[0] < 2200, "{weak:?}");
        assert_eq!(weak[3], 0, "10 visits are below a twentieth of 600");
        let strong = count(PlayoutSkill::from_level(19.0).unwrap(), &mut rng);
        assert!(strong[0] > 2950, "{strong:?}");
        // The caller's rule is kept: a forbidden move is never drawn.
        let s = PlayoutSkill::from_level(0.0).unwrap();
        for _ in 0..200 {
            assert_ne!(s.pick(&moves, |m| m != 0, &mut rng), Some(0));
        }
        assert_eq!(s.pick(&moves, |_| false, &mut rng), None);
        assert!(PlayoutSkill::from_level(20.0).is_none());
        assert!(s.playouts() < PlayoutSkill::from_level(10.0).unwrap().playouts());
    }
}
