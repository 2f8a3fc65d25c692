//! Playing strength as an Elo target: one table per game maps the Elo a user asks for to the
//! strength level its search family understands.
//!
//! Scheme: every game has one [`EloTable`] in its own code (`games::<g>::strength::ELO`),
//! a list of `(Elo, level)` anchors measured by `tetrarch-tune calibrate`. A level is a real
//! number from 0 (weakest) to [`FULL`] (full strength); what it means is the search family's:
//! for alpha-beta games [`crate::search::Skill`] (a node budget and a choice among the best
//! root lines), for Go [`crate::mcts::skill::PlayoutSkill`] (a playout budget and a move drawn
//! from the root visits at a temperature). Between anchors the level is interpolated linearly;
//! below the lowest and above the highest anchor it is clamped, so a table's Elo range is what
//! its calibration measured, and protocols offer exactly that range. Levels only ever choose
//! fixed-effort budgets (nodes, playouts), so a setting is as strong on a fast machine as on a
//! slow one, and nothing sleeps.

/// The level that means full strength: no limiter at all.
pub const FULL: f64 = 20.0;

/// Target Elo to strength level, for one game.
#[derive(Clone, Copy, Debug)]
pub struct EloTable {
    /// `(Elo, level)` anchors, both increasing.
    pub anchors: &'static [(i32, f64)],
    /// What the Elo numbers are measured against (for diagnostics and documentation).
    pub scale: &'static str,
}

impl EloTable {
    /// The lowest Elo the table supports.
    pub fn min_elo(&self) -> i32 {
        self.anchors.first().map_or(0, |a| a.0)
    }

    /// The highest Elo the table supports.
    pub fn max_elo(&self) -> i32 {
        self.anchors.last().map_or(0, |a| a.0)
    }

    /// The level for a target Elo (clamped into the table's range).
    pub fn level(&self, elo: i32) -> f64 {
        let a = self.anchors;
        let Some(&(e0, l0)) = a.first() else {
            return FULL;
        };
        if elo <= e0 {
            return l0;
        }
        for w in a.windows(2) {
            let ((e0, l0), (e1, l1)) = (w[0], w[1]);
            if elo <= e1 {
                return l0 + (l1 - l0) * f64::from(elo - e0) / f64::from((e1 - e0).max(1));
            }
        }
        a[a.len() - 1].1
    }

    /// The Elo a level is expected to play at (the inverse of [`EloTable::level`]).
    pub fn elo(&self, level: f64) -> i32 {
        let a = self.anchors;
        let Some(&(e0, l0)) = a.first() else {
            return 0;
        };
        if level <= l0 {
            return e0;
        }
        for w in a.windows(2) {
            let ((e0, l0), (e1, l1)) = (w[0], w[1]);
            if level <= l1 {
                let t = if l1 > l0 {
                    (level - l0) / (l1 - l0)
                } else {
                    1.0
                };
                return e0 + (f64::from(e1 - e0) * t).round() as i32;
            }
        }
        a[a.len() - 1].0
    }

    /// Whether both columns increase (what `level` and `elo` need to be each other's inverse).
    pub fn is_monotone(&self) -> bool {
        self.anchors
            .windows(2)
            .all(|w| w[1].0 > w[0].0 && w[1].1 > w[0].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: EloTable = EloTable {
        anchors: &[(1000, 0.0), (1500, 10.0), (2000, 20.0)],
        scale: "test",
    };

    #[test]
    fn levels_interpolate_clamp_and_invert() {
        assert_eq!(T.level(500), 0.0);
        assert_eq!(T.level(1250), 5.0);
        assert_eq!(T.level(1750), 15.0);
        assert_eq!(T.level(2500), 20.0);
        assert_eq!((T.min_elo(), T.max_elo()), (1000, 2000));
        for elo in (1000..=2000).step_by(37) {
            assert!((T.elo(T.level(elo)) - elo).abs() <= 1, "{elo}");
        }
        assert!(T.is_monotone());
    }

    /// The weak side's points from `games` games between level 0 and full strength at a fixed
    /// node budget, from `plies` random opening moves (seeded by the game number), adjudicated
    /// a draw after `max_plies`.
    fn weak_points<P, E>(eval: E, games: u64, strong_nodes: u64, max_plies: usize) -> f64
    where
        P: crate::game::Notation,
        E: crate::game::Evaluator<P> + Clone,
    {
        use crate::game::{Side, Verdict};
        use crate::limits::Limits;
        use crate::search::{Engine, Options, Skill};
        use rand::SeedableRng;
        let mut points = 0.0;
        for g in 0..games {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(g);
            let start =
                crate::selfplay::random_opening(&P::start(), 2, &mut rng).unwrap_or_else(P::start);
            let make = |skill| {
                Engine::with_options(
                    start.clone(),
                    eval.clone(),
                    Options {
                        skill,
                        seed: Some(g),
                        hash_mb: 1,
                        ..Options::default()
                    },
                )
            };
            let mut weak = make(Skill::from_level(0.0));
            let mut strong = make(None);
            let weak_side = if g % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut pos = start.clone();
            let mut result = 0.5;
            for _ in 0..max_plies {
                if let Some(o) = pos.outcome() {
                    let mover_weak = pos.side_to_move() == weak_side;
                    result = match o.verdict {
                        Verdict::Draw => 0.5,
                        Verdict::Win if mover_weak => 1.0,
                        Verdict::Loss if !mover_weak => 1.0,
                        _ => 0.0,
                    };
                    break;
                }
                let found = if pos.side_to_move() == weak_side {
                    crate::selfplay::search(&mut weak, &pos, Limits::nodes(1_000_000))
                } else {
                    crate::selfplay::search(&mut strong, &pos, Limits::nodes(strong_nodes))
                };
                let m = found.best.expect("a game going on has a move");
                let _ = pos.make(m);
            }
            points += result;
        }
        points
    }

    #[test]
    fn the_weakest_setting_loses_to_full_strength_at_fixed_nodes() {
        use crate::games::{chess, draughts, xiangqi};
        let c = weak_points::<chess::Board, _>(chess::eval::ChessEval::default(), 4, 3000, 300);
        assert!(c <= 1.0, "chess: level 0 scored {c} of 4");
        let x = weak_points::<xiangqi::Board, _>(xiangqi::XiangqiEval::default(), 4, 3000, 300);
        assert!(x <= 1.0, "xiangqi: level 0 scored {x} of 4");
        let d = weak_points::<draughts::Board, _>(draughts::Eval::default(), 4, 3000, 300);
        assert!(d <= 1.5, "draughts: level 0 scored {d} of 4");
    }

    #[test]
    fn every_game_table_is_monotone_and_ends_in_range() {
        for t in crate::games::GameKind::ALL.map(|g| g.elo_table()) {
            assert!(t.is_monotone(), "{}", t.scale);
            assert!(t.anchors.len() >= 2, "{}", t.scale);
            assert!(
                t.anchors.iter().all(|a| (0.0..=FULL).contains(&a.1)),
                "{}",
                t.scale
            );
        }
    }
}
