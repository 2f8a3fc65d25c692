//! Dynamic komi in handicap games: the komi the move search plays for, shifted from the real
//! one so that the winrates it compares stay informative.
//!
//! Why: Monte-Carlo search chooses among moves by their winrates. With handicap stones on the
//! board nearly every Black move wins and nearly every White move loses; the winrates all sit
//! near 1 or 0, the differences between moves drown in noise, and the handicap side plays slack
//! moves while the other plays desperate ones. Shifting the komi toward White by about what
//! the stones are worth brings the winrates back to the middle; the shift fades as the game
//! goes on and the stones' worth turns into territory on the board (Pachi's "linear" dynamic
//! komi; its "adaptive" one inspired the correction below).
//!
//! Scheme:
//! - *Handicap*: the game must have started with `h >= 2` Black stones and White to play
//!   ([`handicap_of`]). Anything else is an even game, where the shift is zero and the search is
//!   exactly what it is without this module.
//! - *Linear*: `h * stone` points at the start, falling linearly to none at move `horizon`.
//!   `stone` is 7 on 19x19 (`knob dynkomi_stone`) and scales with the side of the board, `7 * n
//!   / 19`: 4.8 on 13x13, 3.3 on 9x9. Why the side, not the area: what the shift must do is move
//!   the playouts' final margins by the same share of their spread on every board, and that
//!   spread grows with the side (the root of the area: a sum of `n * n` loosely tied point
//!   owners). A stone's real worth, two komis or about 14 points on any board, is above every
//!   value here, so the shift never asks more than the stones give. The start is capped at a
//!   quarter of the board's points (a huge free handicap), beyond which the komi rather than the
//!   play would decide the playouts. `horizon` is move 200 on 19x19 (`knob dynkomi_moves`),
//!   scaled by the area (94 on 13x13, 45 on 9x9): a little over half the points are played by
//!   then, and the stones have become territory and groups the playouts can count.
//! - *Adaptive* (`knob dynkomi_adapt`): after each move it plays, the engine looks at its
//!   search's winrate for itself (against the shifted komi). Above 0.85 it is still winning too
//!   easily to tell moves apart: the shift moves a point against it (Black must win by more,
//!   White gets less). Below 0.5 it moves a point back (Black needs less, White gets more). The
//!   correction is bounded by the linear part of the moment, so the shift stays between zero
//!   and twice the linear part (and never above the start): it never crosses zero, and it fades
//!   with the linear part, with no jump at the horizon.
//! - The shift is in whole points, so a half-point komi stays half-point (no jigo) and the
//!   tree's statistics stay comparable from one move to the next.
//!
//! The direction is the same whichever side the engine plays: the extra komi goes to White.
//! Playing Black, the handicap side, the engine must win by more than the real komi asks, so
//! it does not coast; playing White, it is given the points it is expected to be behind, so its
//! search is not in despair. Only the move-choosing searches (`genmove` and its variants, and
//! pondering for them) play for the shifted komi; analysis, the final score, the pass rule
//! and what is reported to the user stay with the real komi, and the resign rule asks for a
//! game lost at both (see `engine`).

use super::knobs::{self, K};
use super::record::Record;
use crate::game::Side;

/// The per-stone value and the horizon are given for 19x19 and scaled from it.
const REFERENCE_SIZE: f32 = 19.0;

/// The search's winrate for itself above which the shift moves against the engine.
const HIGH: f32 = 0.85;
/// The search's winrate for itself below which the shift moves back in its favour.
const LOW: f32 = 0.5;
/// Visits of the best move a search needs before its winrate moves the shift.
const MIN_VISITS: u32 = 200;

/// The settings of dynamic komi (from the knobs, or given by a test).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Points per handicap stone at the start, on 19x19.
    pub stone: f32,
    /// The move at which the shift is gone, on 19x19.
    pub moves: f32,
    /// Whether the adaptive correction runs.
    pub adaptive: bool,
}

impl Params {
    /// The knobs' settings; `None` when dynamic komi is off (`knob dynkomi 0`).
    pub fn from_knobs() -> Option<Params> {
        (knobs::get(K::DYNKOMI) != 0).then(|| Params {
            stone: knobs::get(K::DYNKOMI_STONE).max(0) as f32,
            moves: knobs::get(K::DYNKOMI_MOVES).max(0) as f32,
            adaptive: knobs::get(K::DYNKOMI_ADAPT) != 0,
        })
    }
}

/// The handicap a game started with, for dynamic komi: the handicap stones the record knows
/// (`fixed_handicap`, `place_free_handicap`, `set_free_handicap`, SGF `HA`, a setup of Black
/// stones only), or else two or more Black setup stones, no White ones, and White to play
/// first (an SGF handicap game without `HA`). 0 for an even game.
pub fn handicap_of(record: &Record) -> usize {
    let h = record.handicap();
    if h >= 2 {
        return h;
    }
    let setup = record.setup();
    let black_only = setup.iter().all(|&(s, _)| s == Side::First);
    if setup.len() >= 2 && black_only && record.initial_to_move() == Side::Second {
        setup.len()
    } else {
        0
    }
}

/// The state of dynamic komi over one game: the adaptive correction, in points toward White.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DynamicKomi {
    correction: f32,
}

/// Where a game stands, as dynamic komi sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub size: usize,
    pub handicap: usize,
    /// Moves played since the setup (passes count).
    pub played: usize,
}

impl Game {
    pub fn of(record: &Record) -> Game {
        Game {
            size: record.size(),
            handicap: handicap_of(record),
            played: record.moves().len(),
        }
    }

    /// The shift at the start of the game, in whole points (0 in an even game).
    pub fn start(&self, p: &Params) -> f32 {
        if self.handicap < 2 {
            return 0.0;
        }
        let n = self.size as f32;
        let stone = p.stone * n / REFERENCE_SIZE;
        (self.handicap as f32 * stone).min(n * n / 4.0).round()
    }

    /// The linear part now: the start, falling linearly to zero at the horizon (not rounded).
    pub fn linear(&self, p: &Params) -> f32 {
        let n = self.size as f32;
        let horizon = p.moves * n * n / (REFERENCE_SIZE * REFERENCE_SIZE);
        if horizon <= 0.0 {
            return 0.0;
        }
        self.start(p) * (1.0 - self.played as f32 / horizon).max(0.0)
    }
}

impl DynamicKomi {
    /// The shift now, in whole points toward White: what the move search adds to the komi.
    /// Zero in an even game, and once the linear part is over.
    pub fn shift(&self, p: &Params, g: &Game) -> f32 {
        let linear = g.linear(p);
        if linear <= 0.0 {
            return 0.0;
        }
        let correction = self.correction.clamp(-linear, linear);
        (linear + correction).clamp(0.0, g.start(p)).round()
    }

    /// After a search of `side` (the engine's own) whose best move had `visits` and the winrate
    /// `winrate` for `side` against the shifted komi: the adaptive correction moves a point
    /// when the search was sure either way (see the module doc). Nothing while the linear part
    /// is over or in an even game.
    pub fn after_search(&mut self, p: &Params, g: &Game, side: Side, winrate: f32, visits: u32) {
        let linear = g.linear(p);
        if !p.adaptive || linear <= 0.0 || visits < MIN_VISITS {
            return;
        }
        // A positive step goes toward White: against Black, for White.
        let toward_white = if side == Side::First { 1.0 } else { -1.0 };
        let step = if winrate > HIGH {
            toward_white
        } else if winrate < LOW {
            -toward_white
        } else {
            return;
        };
        // Bounded now too, so a long run one way does not wind up a correction that would
        // take as many moves to unwind.
        self.correction = (self.correction + step).clamp(-linear, linear);
    }

    /// The correction, for tests and diagnostics.
    pub fn correction(&self) -> f32 {
        self.correction
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params {
        stone: 7.0,
        moves: 200.0,
        adaptive: true,
    };

    fn game(size: usize, handicap: usize, played: usize) -> Game {
        Game {
            size,
            handicap,
            played,
        }
    }

    #[test]
    fn the_shift_starts_at_seven_points_a_stone_on_19x19_and_falls_linearly_to_zero() {
        let d = DynamicKomi::default();
        let shifts: Vec<f32> = [0, 50, 100, 150, 199, 200, 300]
            .iter()
            .map(|&m| d.shift(&P, &game(19, 4, m)))
            .collect();
        assert_eq!(shifts, [28.0, 21.0, 14.0, 7.0, 0.0, 0.0, 0.0]);
        // Every step down is at most a point (whole points, linear).
        let mut last = d.shift(&P, &game(19, 9, 0));
        assert_eq!(last, 63.0);
        for m in 1..=200 {
            let s = d.shift(&P, &game(19, 9, m));
            assert!(s <= last && last - s <= 1.0, "move {m}: {last} -> {s}");
            assert_eq!(s.fract(), 0.0);
            last = s;
        }
        assert_eq!(last, 0.0);
    }

    #[test]
    fn smaller_boards_get_less_per_stone_and_a_shorter_horizon() {
        let d = DynamicKomi::default();
        // 13x13: 4.79 a stone, gone at move 93.6; 9x9: 3.32 a stone, gone at move 44.9.
        assert_eq!(d.shift(&P, &game(13, 4, 0)), 19.0);
        assert_eq!(d.shift(&P, &game(13, 4, 47)), 9.0);
        assert_eq!(d.shift(&P, &game(13, 4, 94)), 0.0);
        assert_eq!(d.shift(&P, &game(9, 2, 0)), 7.0);
        assert_eq!(d.shift(&P, &game(9, 2, 45)), 0.0);
        // A huge free handicap is capped at a quarter of the board's points.
        assert_eq!(d.shift(&P, &game(9, 20, 0)), 20.0);
    }

    #[test]
    fn even_games_and_the_knob_off_have_no_shift() {
        let mut d = DynamicKomi::default();
        for h in [0, 1] {
            for size in [9, 13, 19] {
                assert_eq!(d.shift(&P, &game(size, h, 0)), 0.0);
                // Nor does a sure search change anything.
                d.after_search(&P, &game(size, h, 0), Side::First, 0.99, 10_000);
                d.after_search(&P, &game(size, h, 0), Side::Second, 0.01, 10_000);
                assert_eq!(d, DynamicKomi::default());
            }
        }
        let off = Params { stone: 0.0, ..P };
        assert_eq!(d.shift(&off, &game(19, 9, 0)), 0.0);
    }

    #[test]
    fn the_correction_moves_against_a_sure_winner_and_back_never_past_zero_or_the_start() {
        // Linear 14 of a start of 28.
        let g = game(19, 4, 100);
        // Black (the handicap side) winning easily: Black must win by more.
        let mut d = DynamicKomi::default();
        d.after_search(&P, &g, Side::First, 0.9, 1000);
        assert_eq!(d.shift(&P, &g), 15.0);
        // White winning easily: White is given less.
        let mut w = DynamicKomi::default();
        w.after_search(&P, &g, Side::Second, 0.9, 1000);
        assert_eq!(w.shift(&P, &g), 13.0);
        // White losing: White is given more; Black losing: Black needs less.
        let mut w = DynamicKomi::default();
        w.after_search(&P, &g, Side::Second, 0.3, 1000);
        assert_eq!(w.shift(&P, &g), 15.0);
        let mut b = DynamicKomi::default();
        b.after_search(&P, &g, Side::First, 0.3, 1000);
        assert_eq!(b.shift(&P, &g), 13.0);
        // The middle zone, a thin search, or the linear-only setting change nothing.
        let mut n = DynamicKomi::default();
        n.after_search(&P, &g, Side::First, 0.7, 1000);
        n.after_search(&P, &g, Side::First, 0.99, 10);
        let linear_only = Params {
            adaptive: false,
            ..P
        };
        n.after_search(&linear_only, &g, Side::First, 0.99, 1000);
        assert_eq!(n, DynamicKomi::default());
        // Many sure searches: bounded by the linear part, so the shift is at most twice it,
        // at least zero, and never above the start.
        for _ in 0..100 {
            d.after_search(&P, &g, Side::First, 0.99, 1000);
            b.after_search(&P, &g, Side::First, 0.01, 1000);
        }
        assert_eq!(d.shift(&P, &g), 28.0);
        assert_eq!(b.shift(&P, &g), 0.0);
        let early = game(19, 4, 10);
        assert_eq!(d.shift(&P, &early), 28.0, "never above the start");
        // It fades with the linear part: nothing left at the horizon.
        assert_eq!(d.shift(&P, &game(19, 4, 200)), 0.0);
        assert_eq!(
            d.shift(&P, &game(19, 4, 190)),
            3.0,
            "1.4 linear and 1.4 correction"
        );
    }
}
