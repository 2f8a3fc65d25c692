//! Time controls and the clocks the runner keeps.
//!
//! Scheme: a [`TimeControl`] is parsed from cutechess-style text; each player in a game gets a
//! [`PlayerClock`] that the runner, not the engine, runs. Before a move the clock is shown to the
//! engine as the engine crate's own [`Clock`] model (main time, increment, moves to go, byo-yomi
//! periods), so every protocol driver translates one type. The runner times the move from the
//! instant the request is written to the instant the answer is read; the move is late when it
//! took longer than the clock allowed plus the configured margin, and then the mover loses on
//! time. Within the margin an overrun is forgiven and the clock stops at zero.
//!
//! Forms (times in seconds, or `m:ss`): `40/60+0.6` (40 moves per 60 s period, 0.6 s increment),
//! `10+0.1` (Fischer), `60` (sudden death), `40/60` (repeating periods), `st=0.5` (fixed time
//! per move), `nodes=N`, `depth=N`, `inf` (no limit), `byoyomi=600+30x5` (Japanese: 600 s main
//! time, then 5 periods of 30 s), `canadian=600+300/25` (then 25 stones per 300 s period).

use std::fmt;

use tetrarch::time::{ByoYomi, Clock, MAX_CLOCK_MS};

/// How a game's time is limited, for one player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// Main time with an optional Fischer increment, optionally refilled every `moves` moves.
    Clock {
        moves: Option<u32>,
        base_ms: u64,
        inc_ms: u64,
    },
    /// Main time, then Japanese byo-yomi: `periods` periods of `period_ms`; a move inside one
    /// period costs nothing, overrunning a period uses it up.
    ByoYomi {
        base_ms: u64,
        period_ms: u64,
        periods: u32,
    },
    /// Main time, then Canadian overtime: `stones` moves in each period of `period_ms`.
    Canadian {
        base_ms: u64,
        period_ms: u64,
        stones: u32,
    },
    /// A fixed time for each move.
    MoveTime(u64),
    /// A node budget for each move (no clock).
    Nodes(u64),
    /// A depth for each move (no clock).
    Depth(u32),
    /// No limit: the engine decides (only the hang timeout applies).
    Infinite,
}

fn parse_seconds(text: &str) -> Result<u64, String> {
    let bad = || format!("bad time '{text}': give seconds (e.g. 10 or 0.5) or m:ss");
    let secs: f64 = if let Some((m, s)) = text.split_once(':') {
        let m: f64 = m.parse().map_err(|_| bad())?;
        let s: f64 = s.parse().map_err(|_| bad())?;
        m * 60.0 + s
    } else {
        text.parse().map_err(|_| bad())?
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(bad());
    }
    // Over a year would be read as a year by the engines (`time::MAX_CLOCK_MS`), and near
    // u64::MAX it would wrap to a negative clock: refuse it.
    if secs * 1000.0 > MAX_CLOCK_MS as f64 {
        return Err(format!("bad time '{text}': more than a year"));
    }
    Ok((secs * 1000.0).round() as u64)
}

fn fmt_secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

impl TimeControl {
    /// Parses the forms listed in the module documentation.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        if text == "inf" || text == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        if let Some((key, value)) = text.split_once('=') {
            return match key {
                "st" => Ok(TimeControl::MoveTime(parse_seconds(value)?.max(1))),
                "nodes" => value
                    .parse()
                    .map(TimeControl::Nodes)
                    .map_err(|_| format!("bad node count '{value}'")),
                "depth" => value
                    .parse()
                    .map(TimeControl::Depth)
                    .map_err(|_| format!("bad depth '{value}'")),
                "byoyomi" => {
                    let (base, rest) = value
                        .split_once('+')
                        .ok_or("byoyomi=MAIN+PERIODxCOUNT, e.g. byoyomi=600+30x5")?;
                    let (period, count) = rest
                        .split_once('x')
                        .ok_or("byoyomi=MAIN+PERIODxCOUNT, e.g. byoyomi=600+30x5")?;
                    let periods: u32 = count.parse().map_err(|_| "bad byo-yomi period count")?;
                    let period_ms = parse_seconds(period)?;
                    if periods == 0 || period_ms == 0 {
                        return Err("byo-yomi needs at least one period of positive length".into());
                    }
                    Ok(TimeControl::ByoYomi {
                        base_ms: parse_seconds(base)?,
                        period_ms,
                        periods,
                    })
                }
                "canadian" => {
                    let (base, rest) = value
                        .split_once('+')
                        .ok_or("canadian=MAIN+PERIOD/STONES, e.g. canadian=600+300/25")?;
                    let (period, stones) = rest
                        .split_once('/')
                        .ok_or("canadian=MAIN+PERIOD/STONES, e.g. canadian=600+300/25")?;
                    let stones: u32 = stones.parse().map_err(|_| "bad stone count")?;
                    let period_ms = parse_seconds(period)?;
                    if stones == 0 || period_ms == 0 {
                        return Err("Canadian overtime needs stones and a positive period".into());
                    }
                    Ok(TimeControl::Canadian {
                        base_ms: parse_seconds(base)?,
                        period_ms,
                        stones,
                    })
                }
                _ => Err(format!("unknown time control '{text}'")),
            };
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| format!("bad move count in time control '{text}'"))?;
                (if m == 0 { None } else { Some(m) }, rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (parse_seconds(b)?, parse_seconds(i)?),
            None => (parse_seconds(rest)?, 0),
        };
        if base == 0 && inc == 0 {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(TimeControl::Clock {
            moves,
            base_ms: base,
            inc_ms: inc,
        })
    }

    /// Whether the runner keeps a clock that can run out.
    pub fn has_clock(&self) -> bool {
        !matches!(
            self,
            TimeControl::Nodes(_) | TimeControl::Depth(_) | TimeControl::Infinite
        )
    }

    /// The PGN `TimeControl` tag value (PGN standard: `moves/seconds`, `base+inc`, `*N` for a
    /// fixed time per move, `-` for none).
    pub fn pgn_tag(&self) -> String {
        match *self {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let mut s = String::new();
                if let Some(m) = moves {
                    s.push_str(&format!("{m}/"));
                }
                s.push_str(&fmt_secs(base_ms));
                if inc_ms > 0 {
                    s.push_str(&format!("+{}", fmt_secs(inc_ms)));
                }
                s
            }
            TimeControl::MoveTime(ms) => format!("*{}", fmt_secs(ms)),
            TimeControl::ByoYomi { base_ms, .. } | TimeControl::Canadian { base_ms, .. } => {
                fmt_secs(base_ms)
            }
            _ => "-".into(),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { .. } => f.write_str(&self.pgn_tag()),
            TimeControl::ByoYomi {
                base_ms,
                period_ms,
                periods,
            } => write!(
                f,
                "byoyomi={}+{}x{periods}",
                fmt_secs(base_ms),
                fmt_secs(period_ms)
            ),
            TimeControl::Canadian {
                base_ms,
                period_ms,
                stones,
            } => write!(
                f,
                "canadian={}+{}/{stones}",
                fmt_secs(base_ms),
                fmt_secs(period_ms)
            ),
            TimeControl::MoveTime(ms) => write!(f, "st={}", fmt_secs(ms)),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Infinite => f.write_str("inf"),
        }
    }
}

/// One player's clock during a game, run by the runner.
#[derive(Clone, Debug)]
pub struct PlayerClock {
    tc: TimeControl,
    /// Main time left (ms); in Canadian overtime, the time left in the current period.
    remaining_ms: i64,
    /// Moves played in the current period (N moves per period, Canadian stones).
    moves_in_period: u32,
    /// Japanese periods left.
    periods_left: u32,
    /// Whether main time is used up (byo-yomi and Canadian).
    in_overtime: bool,
}

/// The mover ran out of time: how long the move took and what the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub used_ms: u64,
    pub allowed_ms: u64,
}

impl PlayerClock {
    pub fn new(tc: TimeControl) -> PlayerClock {
        let (remaining_ms, periods_left) = match tc {
            TimeControl::Clock { base_ms, .. } => (base_ms as i64, 0),
            TimeControl::ByoYomi {
                base_ms, periods, ..
            } => (base_ms as i64, periods),
            TimeControl::Canadian { base_ms, .. } => (base_ms as i64, 0),
            _ => (0, 0),
        };
        let mut clock = PlayerClock {
            tc,
            remaining_ms,
            moves_in_period: 0,
            periods_left,
            in_overtime: false,
        };
        if remaining_ms == 0 {
            clock.enter_overtime();
        }
        clock
    }

    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    fn enter_overtime(&mut self) {
        match self.tc {
            TimeControl::ByoYomi { .. } => {
                self.in_overtime = true;
                self.remaining_ms = 0;
            }
            TimeControl::Canadian { period_ms, .. } => {
                self.in_overtime = true;
                self.remaining_ms = period_ms as i64;
                self.moves_in_period = 0;
            }
            _ => {}
        }
    }

    /// The clock as the engine is told it before its move (`None` without a clock).
    pub fn view(&self) -> Option<Clock> {
        match self.tc {
            TimeControl::Clock { moves, inc_ms, .. } => Some(Clock {
                remaining_ms: self.remaining_ms,
                increment_ms: inc_ms as i64,
                moves_to_go: moves.map(|m| m - self.moves_in_period),
                byoyomi: None,
            }),
            TimeControl::ByoYomi { period_ms, .. } => Some(Clock {
                remaining_ms: if self.in_overtime {
                    0
                } else {
                    self.remaining_ms
                },
                increment_ms: 0,
                moves_to_go: None,
                byoyomi: Some(ByoYomi {
                    period_ms: period_ms as i64,
                    periods: self.periods_left,
                }),
            }),
            TimeControl::Canadian { stones, .. } => Some(Clock {
                remaining_ms: self.remaining_ms,
                increment_ms: 0,
                moves_to_go: self.in_overtime.then(|| stones - self.moves_in_period),
                byoyomi: None,
            }),
            TimeControl::MoveTime(ms) => Some(Clock {
                remaining_ms: ms as i64,
                ..Clock::default()
            }),
            _ => None,
        }
    }

    /// How long the coming move may take before the mover has lost on time, margin included;
    /// `None` without a clock.
    pub fn allowance_ms(&self, margin_ms: u64) -> Option<u64> {
        // Saturating: a margin or a stack of periods may be large (u32 periods of a year).
        let m = margin_ms.min(i64::MAX as u64) as i64;
        let t = match self.tc {
            TimeControl::Clock { .. } | TimeControl::Canadian { .. } => {
                self.remaining_ms.saturating_add(m)
            }
            TimeControl::ByoYomi { period_ms, .. } => self
                .remaining_ms
                .max(0)
                .saturating_add((self.periods_left as i64).saturating_mul(period_ms as i64))
                .saturating_add(m),
            TimeControl::MoveTime(ms) => (ms as i64).saturating_add(m),
            _ => return None,
        };
        Some(t.max(0) as u64)
    }

    /// Charges a move that took `used_ms`. `Err` when the mover lost on time.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Result<(), Flagged> {
        let allowed = self.allowance_ms(margin_ms);
        if let Some(allowed_ms) = allowed {
            if used_ms > allowed_ms {
                return Err(Flagged {
                    used_ms,
                    allowed_ms,
                });
            }
        }
        let used = used_ms.min(i64::MAX as u64) as i64;
        match self.tc {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                self.remaining_ms = (self.remaining_ms - used).max(0) + inc_ms as i64;
                if let Some(m) = moves {
                    self.moves_in_period += 1;
                    if self.moves_in_period >= m {
                        self.moves_in_period = 0;
                        self.remaining_ms += base_ms as i64;
                    }
                }
            }
            TimeControl::ByoYomi { period_ms, .. } => {
                let period = period_ms as i64;
                let mut left = used;
                if !self.in_overtime {
                    if left < self.remaining_ms {
                        self.remaining_ms -= left;
                        return Ok(());
                    }
                    left -= self.remaining_ms;
                    self.enter_overtime();
                }
                // Each whole period the move overran is used up; the one it ends in is kept.
                // Within the margin, the last period is forgiven.
                let overrun = if left > 0 { (left - 1) / period } else { 0 };
                self.periods_left = self.periods_left.saturating_sub(overrun as u32).max(1);
            }
            TimeControl::Canadian {
                period_ms, stones, ..
            } => {
                let mut left = used;
                if !self.in_overtime {
                    if left < self.remaining_ms {
                        self.remaining_ms -= left;
                        return Ok(());
                    }
                    left -= self.remaining_ms;
                    self.enter_overtime();
                    // Time spent past main time counts against the first period, and this
                    // move is its first stone.
                }
                self.remaining_ms = (self.remaining_ms - left).max(0);
                self.moves_in_period += 1;
                if self.moves_in_period >= stones {
                    self.moves_in_period = 0;
                    self.remaining_ms = period_ms as i64;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_cutechess_forms() {
        assert_eq!(
            TimeControl::parse("40/60+0.6").unwrap(),
            TimeControl::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            }
        );
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Clock {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(
            TimeControl::parse("1:30").unwrap(),
            TimeControl::Clock {
                moves: None,
                base_ms: 90_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            TimeControl::parse("st=0.5").unwrap(),
            TimeControl::MoveTime(500)
        );
        assert_eq!(
            TimeControl::parse("nodes=5000").unwrap(),
            TimeControl::Nodes(5000)
        );
        assert_eq!(
            TimeControl::parse("depth=7").unwrap(),
            TimeControl::Depth(7)
        );
        assert_eq!(
            TimeControl::parse("byoyomi=600+30x5").unwrap(),
            TimeControl::ByoYomi {
                base_ms: 600_000,
                period_ms: 30_000,
                periods: 5
            }
        );
        assert_eq!(
            TimeControl::parse("canadian=0+300/25").unwrap(),
            TimeControl::Canadian {
                base_ms: 0,
                period_ms: 300_000,
                stones: 25
            }
        );
        for bad in ["", "x", "10+", "0", "-5", "st=", "byoyomi=10+5", "40/x"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    /// Times over a year are refused (as u64 milliseconds they would wrap to a negative i64
    /// clock), and the longest accepted ones are charged without overflow.
    #[test]
    fn absurd_times_are_refused_and_the_longest_do_not_overflow() {
        for bad in [
            "1e300",
            "9223372036854775807",
            "1+1e300",
            "st=1e300",
            "40/1e17",
            "byoyomi=1e300+30x5",
            "canadian=0+1e300/25",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        let year = "31536000";
        for tc in [
            format!("{year}+{year}"),
            format!("byoyomi={year}+{year}x4294967295"),
            format!("canadian={year}+{year}/4294967295"),
            format!("st={year}"),
        ] {
            let tc = TimeControl::parse(&tc).unwrap_or_else(|e| panic!("{tc}: {e}"));
            let mut c = PlayerClock::new(tc);
            for _ in 0..3 {
                assert!(c.allowance_ms(u64::MAX).is_some(), "{tc:?}");
                let _ = c.view();
                let _ = c.charge(u64::MAX / 2, u64::MAX);
                let _ = c.charge(0, 0);
            }
        }
    }

    #[test]
    fn display_round_trips() {
        for t in [
            "40/60+0.6",
            "10+0.1",
            "st=0.5",
            "nodes=100",
            "depth=3",
            "byoyomi=600+30x5",
            "canadian=600+300/25",
        ] {
            assert_eq!(TimeControl::parse(t).unwrap().to_string(), t);
        }
    }

    #[test]
    fn fischer_adds_the_increment_and_flags_past_the_margin() {
        let mut c = PlayerClock::new(TimeControl::parse("1+0.1").unwrap());
        assert_eq!(c.allowance_ms(50), Some(1050));
        c.charge(400, 50).unwrap();
        assert_eq!(c.view().unwrap().remaining_ms, 700);
        // Over the clock but within the margin: forgiven, the clock stops at zero.
        c.charge(730, 50).unwrap();
        assert_eq!(c.view().unwrap().remaining_ms, 100);
        assert_eq!(
            c.charge(151, 50),
            Err(Flagged {
                used_ms: 151,
                allowed_ms: 150
            })
        );
    }

    #[test]
    fn moves_per_period_refill() {
        let mut c = PlayerClock::new(TimeControl::parse("2/10").unwrap());
        assert_eq!(c.view().unwrap().moves_to_go, Some(2));
        c.charge(3000, 0).unwrap();
        assert_eq!(c.view().unwrap().moves_to_go, Some(1));
        c.charge(3000, 0).unwrap();
        let v = c.view().unwrap();
        assert_eq!((v.remaining_ms, v.moves_to_go), (14_000, Some(2)));
    }

    #[test]
    fn japanese_byoyomi_keeps_periods_for_moves_inside_them() {
        let mut c = PlayerClock::new(TimeControl::parse("byoyomi=10+5x3").unwrap());
        assert_eq!(c.allowance_ms(0), Some(25_000));
        c.charge(12_000, 0).unwrap(); // 10 s main time, 2 s into the first period: kept
        let v = c.view().unwrap();
        assert_eq!((v.remaining_ms, v.byoyomi.unwrap().periods), (0, 3));
        c.charge(4_999, 0).unwrap();
        assert_eq!(c.view().unwrap().byoyomi.unwrap().periods, 3);
        c.charge(7_000, 0).unwrap(); // overran one period
        assert_eq!(c.view().unwrap().byoyomi.unwrap().periods, 2);
        assert_eq!(c.allowance_ms(0), Some(10_000));
        assert!(c.charge(10_001, 0).is_err());
    }

    #[test]
    fn canadian_overtime_counts_stones() {
        let mut c = PlayerClock::new(TimeControl::parse("canadian=0+10/2").unwrap());
        assert_eq!(c.view().unwrap().moves_to_go, Some(2));
        c.charge(6_000, 0).unwrap();
        let v = c.view().unwrap();
        assert_eq!((v.remaining_ms, v.moves_to_go), (4_000, Some(1)));
        assert!(c.clone().charge(4_001, 0).is_err());
        c.charge(3_000, 0).unwrap();
        let v = c.view().unwrap();
        assert_eq!((v.remaining_ms, v.moves_to_go), (10_000, Some(2)));
    }

    #[test]
    fn fixed_move_time_and_unclocked_limits() {
        let mut c = PlayerClock::new(TimeControl::MoveTime(100));
        assert!(c.charge(120, 20).is_ok());
        assert!(c.charge(121, 20).is_err());
        let mut n = PlayerClock::new(TimeControl::Nodes(10));
        assert_eq!(n.allowance_ms(0), None);
        assert!(n.charge(1_000_000, 0).is_ok());
    }
}
