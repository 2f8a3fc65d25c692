//! One clock model for the four protocols, and the time budget of a move.
//!
//! Scheme: every protocol's clock is described by a [`Clock`]: the time left on the main clock,
//! a Fischer increment, the moves left until the next period (N moves per period; Canadian
//! byo-yomi is the same shape, with the period's stones as `moves_to_go`), and Japanese byo-yomi
//! periods, where a move that stays inside one period costs nothing. [`allocate`] turns a clock
//! into a [`TimeBudget`]: an *optimum* the search aims at (it may stop early when the best move
//! is stable, or run on toward the maximum when it is not) and a hard *maximum* it never
//! passes. The move overhead (lag the GUI or network adds) is taken off exactly once, here,
//! including for fixed move times. The budget can never exceed what is left on the clock minus
//! the overhead, so the engine does not lose on time, even with 1 s + 10 ms or a negative clock
//! (then the search answers at once with its first completed iteration).

/// The longest clock, increment, period or move time the time manager takes literally: a
/// year, in milliseconds. Protocols pass on whatever `i64` a GUI sends; anything beyond this is
/// read as this (and anything below its negative as its negative), so that no budget
/// arithmetic can overflow, and no real game is affected.
pub const MAX_CLOCK_MS: i64 = 365 * 24 * 3600 * 1000;

/// Japanese byo-yomi: after the main time, `periods` periods of `period_ms` each. A move
/// finished within one period costs nothing; overrunning a period uses it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByoYomi {
    pub period_ms: i64,
    pub periods: u32,
}

/// The mover's clock as the protocol reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left on the main clock (or, in Canadian overtime, in the current period), in
    /// milliseconds. May be zero or negative when a GUI reports a late clock.
    pub remaining_ms: i64,
    /// Added after each move (Fischer). A protocol that adds it before the move (Hub) adds it
    /// to `remaining_ms` itself and leaves this at zero.
    pub increment_ms: i64,
    /// Moves to play before the clock is refilled (UCI `movestogo`, Canadian stones left).
    pub moves_to_go: Option<u32>,
    /// Japanese byo-yomi that follows the main time.
    pub byoyomi: Option<ByoYomi>,
}

/// How long to think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The time the search aims at, in milliseconds.
    pub optimum_ms: u64,
    /// The time the search never passes, in milliseconds.
    pub maximum_ms: u64,
}

impl TimeBudget {
    /// A budget that lets the search complete one iteration and answer.
    pub const IMMEDIATE: TimeBudget = TimeBudget {
        optimum_ms: 0,
        maximum_ms: 0,
    };
}

/// The budget for a fixed time per move: all of it, less the overhead.
pub fn allocate_movetime(movetime_ms: u64, overhead_ms: u64) -> TimeBudget {
    let t = movetime_ms
        .min(MAX_CLOCK_MS as u64)
        .saturating_sub(overhead_ms);
    TimeBudget {
        optimum_ms: t,
        maximum_ms: t,
    }
}

/// The budget for a move on `clock`. `moves_left_hint` is the game's estimate of how many more
/// moves the mover will play in a sudden-death game (chess about 40, Go on 19x19 over 100);
/// it caps `moves_to_go` too, so a long period is not spent as if the game would last it.
pub fn allocate(clock: &Clock, overhead_ms: u64, moves_left_hint: u32) -> TimeBudget {
    let clock = &clamped(clock);
    let overhead = overhead_ms.min(MAX_CLOCK_MS as u64) as i64;
    let moves_left_hint = moves_left_hint.min(MAX_MOVES);
    let main = clock.remaining_ms - overhead;

    if let Some(byo) = clock.byoyomi.filter(|b| b.periods > 0 && b.period_ms > 0) {
        let period = byo.period_ms - overhead;
        if period <= 0 {
            return from_main_time(clock, overhead, moves_left_hint);
        }
        if main <= 0 {
            // In byo-yomi: each move may use most of a period for free. Keep a margin of a
            // twentieth of the period for scheduling jitter.
            let max = period - period / 20;
            return budget(max * 3 / 4, max);
        }
        // Still in main time: spend it as sudden death, but never less than a comfortable
        // share of a period, and never so much that the first period is used up.
        let base = from_main_time(clock, overhead, moves_left_hint);
        let opt = (base.optimum_ms as i64).max(period / 2);
        let max = (base.maximum_ms as i64).max(period * 3 / 4);
        return budget(
            opt.min(main + period * 3 / 4),
            max.min(main + period * 9 / 10),
        );
    }
    from_main_time(clock, overhead, moves_left_hint)
}

/// The longest game horizon the budget plans for, in moves: far more than any game lasts, and
/// small enough that a horizon of increments cannot overflow.
const MAX_MOVES: u32 = 10_000;

/// `clock` with every time inside +-[`MAX_CLOCK_MS`] and the moves to go inside
/// [`MAX_MOVES`]: the one place where a protocol's values are bounded, so that the budget
/// arithmetic below (sums of a clock, increments times moves, overheads) stays far inside `i64`.
fn clamped(clock: &Clock) -> Clock {
    let time = |ms: i64| ms.clamp(-MAX_CLOCK_MS, MAX_CLOCK_MS);
    Clock {
        remaining_ms: time(clock.remaining_ms),
        increment_ms: time(clock.increment_ms),
        moves_to_go: clock.moves_to_go.map(|m| m.min(MAX_MOVES)),
        byoyomi: clock.byoyomi.map(|b| ByoYomi {
            period_ms: time(b.period_ms),
            periods: b.periods,
        }),
    }
}

/// Sudden death, Fischer increment and N-moves-per-period budgets.
fn from_main_time(clock: &Clock, overhead: i64, moves_left_hint: u32) -> TimeBudget {
    let available = clock.remaining_ms - overhead;
    if available <= 0 {
        return TimeBudget::IMMEDIATE;
    }
    let hint = moves_left_hint.max(1) as i64;
    let mtg = clock
        .moves_to_go
        .map(|m| (m.max(1) as i64).min(hint))
        .unwrap_or(hint);
    let inc = clock.increment_ms.max(0);

    // Time for the whole horizon of `mtg` moves: the clock, plus the increments still to come,
    // less an overhead for each of those moves (every one of them pays the lag).
    let horizon = (available + inc * (mtg - 1) - overhead * (mtg - 1)).max(1);
    let optimum = horizon / mtg;
    // The last move before a refill may use nearly everything; otherwise keep a reserve, so a
    // long think here cannot starve the moves that follow.
    let cap = if mtg == 1 {
        available * 9 / 10
    } else {
        available * 3 / 4
    };
    let maximum = (optimum * 5).min(cap);
    budget(optimum.min(maximum), maximum)
}

fn budget(optimum: i64, maximum: i64) -> TimeBudget {
    // A main clock and a period of a year each could add up to two: a budget is one at most.
    TimeBudget {
        optimum_ms: optimum.clamp(0, MAX_CLOCK_MS) as u64,
        maximum_ms: maximum.clamp(0, MAX_CLOCK_MS) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(remaining_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            remaining_ms,
            increment_ms,
            ..Clock::default()
        }
    }

    #[test]
    fn movetime_takes_overhead_once() {
        let b = allocate_movetime(1000, 10);
        assert_eq!(b.optimum_ms, 990);
        assert_eq!(b.maximum_ms, 990);
        assert_eq!(allocate_movetime(5, 10), TimeBudget::IMMEDIATE);
    }

    #[test]
    fn never_spends_more_than_the_clock_holds() {
        for remaining in [-500, 0, 5, 10, 11, 50, 200, 1000, 10_000, 600_000] {
            for inc in [0, 10, 100, 2000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        moves_to_go: mtg,
                        ..fischer(remaining, inc)
                    };
                    let b = allocate(&clock, 10, 40);
                    assert!(b.optimum_ms <= b.maximum_ms, "{clock:?} {b:?}");
                    assert!(
                        (b.maximum_ms as i64) <= (remaining - 10).max(0),
                        "{clock:?} {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn bullet_with_tiny_increment_stays_on_the_clock() {
        // 1 s + 10 ms: play many moves, charging what the budget's maximum allows, and the
        // clock must never run out.
        let mut clock = fischer(1000, 10);
        for _ in 0..300 {
            let b = allocate(&clock, 10, 40);
            clock.remaining_ms -= b.maximum_ms as i64 + 10; // think the maximum, plus the lag
            assert!(clock.remaining_ms > 0, "flagged at {clock:?}");
            clock.remaining_ms += clock.increment_ms;
        }
    }

    #[test]
    fn negative_clock_answers_at_once() {
        assert_eq!(allocate(&fischer(-20, 0), 10, 40), TimeBudget::IMMEDIATE);
    }

    #[test]
    fn last_move_of_period_may_use_most_of_it() {
        let clock = Clock {
            moves_to_go: Some(1),
            ..fischer(10_000, 0)
        };
        let b = allocate(&clock, 0, 40);
        assert!(b.maximum_ms >= 8_000 && b.maximum_ms <= 9_000, "{b:?}");
    }

    #[test]
    fn japanese_byoyomi_uses_the_period() {
        let clock = Clock {
            remaining_ms: 0,
            byoyomi: Some(ByoYomi {
                period_ms: 30_000,
                periods: 3,
            }),
            ..Clock::default()
        };
        let b = allocate(&clock, 100, 100);
        assert!(b.maximum_ms < 29_900, "{b:?}");
        assert!(b.optimum_ms >= 15_000, "{b:?}");
    }

    /// Whatever a protocol hands over (any `i64` clock or increment, any overhead, period or
    /// moves-to-go), the budget is computed without overflow, the optimum never exceeds the
    /// maximum, the maximum never exceeds the clock less the overhead (when the clock is the
    /// limit) nor [`MAX_CLOCK_MS`], and a hopelessly late clock answers at once.
    #[test]
    fn extreme_clocks_never_overflow() {
        let times = [
            i64::MIN,
            i64::MIN + 1,
            -2_000_000_000_000_000_000,
            -1,
            0,
            1,
            1000,
            MAX_CLOCK_MS,
            MAX_CLOCK_MS + 1,
            1_000_000_000_000_000,
            2_000_000_000_000_000_000,
            i64::MAX - 1,
            i64::MAX,
        ];
        let overheads = [0, 10, 5000, i64::MAX as u64, u64::MAX];
        let mtgs = [None, Some(0), Some(1), Some(40), Some(u32::MAX)];
        let byos = [
            None,
            Some(ByoYomi {
                period_ms: i64::MAX,
                periods: u32::MAX,
            }),
            Some(ByoYomi {
                period_ms: 30_000,
                periods: 1,
            }),
            Some(ByoYomi {
                period_ms: i64::MIN,
                periods: 3,
            }),
        ];
        for &remaining_ms in &times {
            for &increment_ms in &times {
                for &overhead in &overheads {
                    for &moves_to_go in &mtgs {
                        for &byoyomi in &byos {
                            for hint in [0, 40, u32::MAX] {
                                let clock = Clock {
                                    remaining_ms,
                                    increment_ms,
                                    moves_to_go,
                                    byoyomi,
                                };
                                let b = allocate(&clock, overhead, hint);
                                assert!(b.optimum_ms <= b.maximum_ms, "{clock:?} {b:?}");
                                assert!(b.maximum_ms <= MAX_CLOCK_MS as u64, "{clock:?} {b:?}");
                                if byoyomi.is_none() {
                                    let left = (remaining_ms as i128 - overhead as i128).max(0);
                                    assert!((b.maximum_ms as i128) <= left, "{clock:?} {b:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(
            allocate(&fischer(i64::MIN, i64::MAX), 10, 40),
            TimeBudget::IMMEDIATE
        );
        // A year-long clock is still a clock: the engine thinks, and not for a year.
        let b = allocate(&fischer(i64::MAX, i64::MAX), 10, 40);
        assert!(
            b.optimum_ms > 0 && b.maximum_ms < MAX_CLOCK_MS as u64,
            "{b:?}"
        );
        for movetime in [0, 1, u64::MAX / 2, u64::MAX] {
            for overhead in [0, 10, u64::MAX] {
                let b = allocate_movetime(movetime, overhead);
                assert!(b.maximum_ms <= MAX_CLOCK_MS as u64, "{b:?}");
                assert_eq!(b.optimum_ms, b.maximum_ms);
            }
        }
    }

    #[test]
    fn canadian_period_is_split_over_its_stones() {
        // Canadian overtime: 5 minutes for 25 stones.
        let clock = Clock {
            remaining_ms: 300_000,
            moves_to_go: Some(25),
            ..Clock::default()
        };
        let b = allocate(&clock, 0, 120);
        assert_eq!(b.optimum_ms, 12_000);
    }
}
