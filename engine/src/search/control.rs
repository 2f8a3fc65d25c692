//! When a search stops: the time budget, pondering, and the soft stop between iterations.
//!
//! Scheme: the facade turns the `Limits` into a [`Control`] once per search: a [`TimeBudget`]
//! from `time::allocate` (or `allocate_movetime`), or none when the search is bounded only by
//! depth, nodes or a stop command. Only the main thread consults it: every 1024 nodes against
//! the hard maximum, and after each iteration against the optimum scaled by how settled the
//! search looks ([`Control::soft_stop`]): a best move that has not changed for several
//! iterations and holds most of the node effort lets it stop early, a changing or falling one
//! makes it think longer, never past the maximum. While pondering nothing is timed; `ponderhit`
//! restarts the clock at that instant, as the protocol says the clock runs from then.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::search::params::Params;
use crate::time::TimeBudget;

pub struct Control {
    /// When the search started (for reporting times).
    epoch: Instant,
    /// Microseconds from `epoch` to the start of the clock (moved by `ponderhit`).
    clock_start_us: AtomicU64,
    pondering: AtomicBool,
    budget: Option<TimeBudget>,
    /// Whether the budget comes from a game clock (then the optimum may be scaled) rather than
    /// a fixed move time (then the search uses all of it).
    flexible: bool,
}

impl Control {
    pub fn new(budget: Option<TimeBudget>, flexible: bool, ponder: bool) -> Control {
        Control {
            epoch: Instant::now(),
            clock_start_us: AtomicU64::new(0),
            pondering: AtomicBool::new(ponder),
            budget,
            flexible,
        }
    }

    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Milliseconds since the clock started (the search start, or the ponderhit).
    fn clock_ms(&self) -> u64 {
        let now = self.epoch.elapsed().as_micros() as u64;
        now.saturating_sub(self.clock_start_us.load(Ordering::Relaxed)) / 1000
    }

    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        let now = self.epoch.elapsed().as_micros() as u64;
        self.clock_start_us.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    pub fn is_timed(&self) -> bool {
        self.budget.is_some()
    }

    /// Whether the hard limit has passed.
    #[inline]
    pub fn hard_stop(&self) -> bool {
        match self.budget {
            Some(b) if !self.pondering() => self.clock_ms() >= b.maximum_ms,
            _ => false,
        }
    }

    /// Whether to stop after a completed iteration. `stable` counts iterations the best move
    /// has held; `effort` is the per-mille share of root nodes spent on it; `drop` is how far
    /// the score fell against the average of earlier iterations (positive = worse).
    pub fn soft_stop(
        &self,
        params: &Params,
        stable: u32,
        effort: u64,
        drop: i32,
        single: bool,
    ) -> bool {
        let Some(b) = self.budget else { return false };
        if self.pondering() {
            return false;
        }
        let elapsed = self.clock_ms();
        if !self.flexible {
            return elapsed >= b.maximum_ms;
        }
        if single {
            return elapsed >= (b.optimum_ms / 4).min(250);
        }
        // Stability: from tm_unstable_max% for a fresh best move down to tm_stable_min%.
        let stability = match stable {
            0 => params.tm_unstable_max,
            1 => (params.tm_unstable_max + 120) / 2,
            2 => 110,
            3 => 90,
            4 => 75,
            _ => params.tm_stable_min.max(60),
        } as u64;
        // Node effort: a best move that took nearly all nodes is a settled one.
        let effort_scale = 150 - (effort.min(1000) * 80 / 1000); // 150% .. 70%
        let drop_scale = (100 + drop.clamp(0, 100)) as u64; // up to twice as long
                                                            // Saturating: a budget is public data, and one near u64::MAX must not overflow here.
        let scale = |ms: u64, percent: u64| ms.saturating_mul(percent) / 100;
        let target = scale(
            scale(scale(b.optimum_ms, stability), effort_scale),
            drop_scale,
        );
        elapsed >= target.min(b.maximum_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pondering_is_never_timed_until_ponderhit() {
        let c = Control::new(Some(TimeBudget::IMMEDIATE), true, true);
        assert!(!c.hard_stop());
        assert!(!c.soft_stop(&Params::DEFAULT, 0, 0, 0, false));
        c.ponderhit();
        assert!(c.hard_stop());
        assert!(c.soft_stop(&Params::DEFAULT, 0, 0, 0, false));
    }

    #[test]
    fn untimed_searches_never_stop_on_time() {
        let c = Control::new(None, true, false);
        assert!(!c.hard_stop());
        assert!(!c.soft_stop(&Params::DEFAULT, 9, 1000, 0, true));
    }

    /// A budget of any size (the type is public, so nothing guarantees it came from
    /// `time::allocate`) is compared without overflow, and a huge one is not due yet.
    #[test]
    fn huge_budgets_never_overflow() {
        for optimum_ms in [u64::MAX / 3, u64::MAX - 1, u64::MAX] {
            let b = TimeBudget {
                optimum_ms,
                maximum_ms: u64::MAX,
            };
            let c = Control::new(Some(b), true, false);
            for stable in [0, 1, 2, 9] {
                for drop in [i32::MIN, 0, 100, i32::MAX] {
                    assert!(!c.soft_stop(&Params::DEFAULT, stable, 0, drop, false));
                    assert!(!c.soft_stop(&Params::DEFAULT, stable, 1000, drop, true));
                }
            }
            assert!(!c.hard_stop());
        }
    }

    #[test]
    fn a_settled_search_stops_sooner_than_an_unsettled_one() {
        let b = TimeBudget {
            optimum_ms: 10_000,
            maximum_ms: 40_000,
        };
        let c = Control::new(Some(b), true, false);
        // Nothing is due at once with a 10 s optimum.
        assert!(!c.soft_stop(&Params::DEFAULT, 9, 1000, 0, false));
        assert!(!c.soft_stop(&Params::DEFAULT, 0, 100, 50, false));
    }
}
