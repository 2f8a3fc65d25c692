//! Every tunable number of the alpha-beta search, in one place.
//!
//! Scheme: [`Params`] is a plain struct of integers that each search thread copies at the start
//! of a search; the search reads nothing else that a tuner might want to move. [`TUNABLE`] lists
//! each field with a name and a sane range so that a `tuning` build can expose them as UCI spin
//! options for SPSA without touching the search. Margins are in evaluation units (a chess pawn
//! is about 100); depths are in plies.

/// The search's tunable parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Half-width of the first aspiration window.
    pub asp_window: i32,
    /// Reverse futility: deepest remaining depth it applies at.
    pub rfp_depth: i32,
    /// Reverse futility margin per ply of depth.
    pub rfp_margin: i32,
    /// Razoring margin: `base + per_depth * depth`.
    pub razor_base: i32,
    pub razor_depth_mul: i32,
    /// Null move: reduction `base + depth / depth_div + min((eval - beta) / eval_div, 3)`.
    pub nmp_min_depth: i32,
    pub nmp_base: i32,
    pub nmp_depth_div: i32,
    pub nmp_eval_div: i32,
    /// Null move: from this depth a fail-high is verified by a reduced search without null moves.
    pub nmp_verify_depth: i32,
    /// ProbCut: margin over beta, and the least depth it applies at.
    pub probcut_margin: i32,
    pub probcut_depth: i32,
    /// Internal iterative reduction: from this depth, a node without a table move is reduced.
    pub iir_depth: i32,
    /// Late move reductions: `base/100 + ln(depth) * ln(moves) / (div/100)`.
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// Late move reductions: history score worth one ply.
    pub lmr_history_div: i32,
    /// Late move pruning: quiet moves searched at most `(lmp_base + depth^2) / (2 - improving)`.
    pub lmp_base: i32,
    /// Futility pruning of quiet moves: `base + mul * lmr_depth` above static eval.
    pub fp_depth: i32,
    pub fp_base: i32,
    pub fp_mul: i32,
    /// Futility pruning of noisy moves.
    pub fp_noisy_base: i32,
    pub fp_noisy_mul: i32,
    /// SEE pruning thresholds: quiet moves `-quiet * lmr_depth^2`, noisy `-noisy * depth`.
    pub see_quiet: i32,
    pub see_noisy: i32,
    /// History pruning of quiet moves: pruned when history is below `-margin * depth`.
    pub hist_prune_depth: i32,
    pub hist_prune_margin: i32,
    /// Singular extensions: least depth, and the margin `depth * mul / 16` below the table score.
    pub se_depth: i32,
    pub se_margin_mul: i32,
    /// A singular move failing this far below the singular beta is extended twice.
    pub se_double_margin: i32,
    /// Once a move raises alpha, the later moves of a node at depth 3 up to this one (not
    /// included) are searched a ply shallower (0: never).
    pub alpha_raise_depth: i32,
    /// Quiescence futility margin over the static evaluation.
    pub qs_futility: i32,
    /// History bonus: `min(mul * depth - sub, max)`.
    pub hist_bonus_mul: i32,
    pub hist_bonus_sub: i32,
    pub hist_bonus_max: i32,
    /// Time management: percentages applied to the optimum time.
    pub tm_stable_min: i32,
    pub tm_unstable_max: i32,
}

impl Params {
    pub const DEFAULT: Params = Params {
        asp_window: 14,
        rfp_depth: 8,
        rfp_margin: 80,
        razor_base: 300,
        razor_depth_mul: 250,
        nmp_min_depth: 3,
        nmp_base: 3,
        nmp_depth_div: 3,
        nmp_eval_div: 200,
        nmp_verify_depth: 14,
        probcut_margin: 200,
        probcut_depth: 5,
        iir_depth: 4,
        lmr_base: 80,
        lmr_div: 225,
        lmr_history_div: 8000,
        lmp_base: 3,
        fp_depth: 9,
        fp_base: 90,
        fp_mul: 95,
        fp_noisy_base: 180,
        fp_noisy_mul: 190,
        see_quiet: 25,
        see_noisy: 90,
        hist_prune_depth: 4,
        hist_prune_margin: 3500,
        se_depth: 7,
        se_margin_mul: 24,
        se_double_margin: 18,
        alpha_raise_depth: 12,
        qs_futility: 160,
        hist_bonus_mul: 300,
        hist_bonus_sub: 250,
        hist_bonus_max: 2400,
        tm_stable_min: 50,
        tm_unstable_max: 250,
    };
}

impl Default for Params {
    fn default() -> Self {
        Params::DEFAULT
    }
}

impl Params {
    /// These parameters with less selective pruning, for UCCI's `pruning` (0 = as they are,
    /// 3 = none): each step switches off a further family of forward pruning, the most
    /// speculative first. Step 1 drops ProbCut, razoring and history pruning; step 2 also
    /// reverse futility, futility and late-move pruning; step 3 also the null move. The search
    /// then sees more of each tree for the same nodes, and fewer plies in the same time.
    pub fn with_less_pruning(self, steps: u8) -> Params {
        let mut p = self;
        if steps >= 1 {
            p.probcut_depth = 1000;
            p.razor_base = 100_000;
            p.hist_prune_margin = 1_000_000;
        }
        if steps >= 2 {
            p.rfp_depth = 0;
            p.fp_depth = 0;
            p.lmp_base = 10_000;
        }
        if steps >= 3 {
            p.nmp_min_depth = 1000;
        }
        p
    }
}

/// A tunable field: its name, range, and accessor.
pub struct Tunable {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    pub field: fn(&mut Params) -> &mut i32,
}

impl Tunable {
    /// This field's value in `params`, when a tuner may move it there: `None` when the game
    /// has switched the feature off with a value outside the range (draughts' futility depth
    /// and razoring), which tuning must leave off.
    pub fn tuned_value(&self, params: &Params) -> Option<i32> {
        let mut copy = *params;
        Some(*(self.field)(&mut copy)).filter(|v| (self.min..=self.max).contains(v))
    }
}

macro_rules! tunables {
    ($($name:ident: $min:expr, $max:expr;)*) => {
        /// Every field of [`Params`] with the range a tuner may explore.
        pub const TUNABLE: &[Tunable] = &[
            $(Tunable { name: stringify!($name), min: $min, max: $max, field: |p| &mut p.$name },)*
        ];
    };
}

tunables! {
    asp_window: 5, 50;
    rfp_depth: 3, 12;
    rfp_margin: 30, 200;
    razor_base: 100, 600;
    razor_depth_mul: 100, 500;
    nmp_min_depth: 1, 6;
    nmp_base: 1, 6;
    nmp_depth_div: 2, 8;
    nmp_eval_div: 50, 500;
    nmp_verify_depth: 6, 30;
    probcut_margin: 50, 400;
    probcut_depth: 3, 10;
    iir_depth: 2, 10;
    lmr_base: 0, 200;
    lmr_div: 100, 400;
    lmr_history_div: 2000, 20000;
    lmp_base: 1, 10;
    fp_depth: 4, 14;
    fp_base: 20, 300;
    fp_mul: 20, 300;
    fp_noisy_base: 50, 400;
    fp_noisy_mul: 50, 400;
    see_quiet: 5, 100;
    see_noisy: 20, 200;
    hist_prune_depth: 1, 8;
    hist_prune_margin: 1000, 8000;
    se_depth: 4, 12;
    se_margin_mul: 8, 64;
    se_double_margin: 0, 60;
    alpha_raise_depth: 0, 20;
    qs_futility: 50, 400;
    hist_bonus_mul: 50, 600;
    hist_bonus_sub: 0, 600;
    hist_bonus_max: 500, 4000;
    tm_stable_min: 20, 100;
    tm_unstable_max: 100, 400;
}

impl Params {
    /// Sets a field by its tuning name; false when the name is unknown or the value out of range.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        match TUNABLE.iter().find(|t| t.name.eq_ignore_ascii_case(name)) {
            Some(t) if (t.min..=t.max).contains(&value) => {
                *(t.field)(self) = value;
                true
            }
            _ => false,
        }
    }

    /// Reads a field by its tuning name.
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        TUNABLE
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| *(t.field)(&mut copy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_set_round_trips() {
        let mut p = Params::DEFAULT;
        for t in TUNABLE {
            let v = *(t.field)(&mut p);
            assert!((t.min..=t.max).contains(&v), "{} = {v}", t.name);
        }
        assert!(p.set("RFP_MARGIN", 99));
        assert_eq!(p.get("rfp_margin"), Some(99));
        assert!(!p.set("rfp_margin", 10_000));
        assert!(!p.set("no_such", 1));
    }

    #[test]
    fn a_switched_off_field_has_no_tuned_value() {
        let fp_depth = TUNABLE.iter().find(|t| t.name == "fp_depth").unwrap();
        assert_eq!(
            fp_depth.tuned_value(&Params::DEFAULT),
            Some(Params::DEFAULT.fp_depth)
        );
        let off = Params {
            fp_depth: 0,
            ..Params::DEFAULT
        };
        assert_eq!(fp_depth.tuned_value(&off), None);
    }
}
