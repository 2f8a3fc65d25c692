//! Tunable weights of the playout policy and the priors, and the settings of dynamic komi,
//! settable at run time so a match can compare settings without rebuilding
//! (`tetrarch-set knob <name> <value>` over GTP).
//!
//! Scheme: one static table of named relaxed atomics; reading one costs a plain load. The
//! table is global to the process (every search thread of every engine in it), which is what a
//! tuning match between two processes needs. The prior weights are equivalent experience for
//! 9x9 (in the spirit of Pachi's defaults: about 14 playouts per source, strong nearness to the
//! last move); on 13x13 and up they are scaled by 20/14 and the first two nearness levels get
//! 10 more.

use std::sync::atomic::{AtomicI32, Ordering};

/// A named integer weight.
pub struct Knob {
    pub name: &'static str,
    pub help: &'static str,
    value: AtomicI32,
}

impl Knob {
    const fn new(name: &'static str, value: i32, help: &'static str) -> Knob {
        Knob {
            name,
            help,
            value: AtomicI32::new(value),
        }
    }

    #[inline]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }
}

macro_rules! knobs {
    ($($id:ident = $name:literal, $value:expr, $help:literal;)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        pub enum K { $($id),* }
        pub static KNOBS: [Knob; [$($name),*].len()] = [$(Knob::new($name, $value, $help)),*];
    };
}

knobs! {
    P_ATARI = "p_atari", 256, "playouts: chance /256 of trying atari captures and escapes";
    P_TWO_LIB = "p_two_lib", 0, "playouts: chance /256 of trying two-liberty attacks and defences";
    P_VITAL = "p_vital", 256, "playouts: chance /256 of taking the vital point of a three-point eye space next to the last move";
    P_PATTERN = "p_pattern", 230, "playouts: chance /256 of trying 3x3 patterns";
    P_ATARI2 = "p_atari2", 0, "playouts: chance /256 of atari checks around our previous move";
    P_KO = "p_ko", 0, "playouts: chance /256 of playing at a ko captured within `ko_age` moves once its ban has lapsed (filling it or taking it back)";
    KO_AGE = "ko_age", 3, "playouts: moves after a ko capture during which `p_ko` fights the ko";
    P_SELF_ATARI_OTHER = "p_self_atari_other", 0, "playouts: chance /256 that a random move refused as a self-atari next to an opponent group on two liberties is played at that group's other liberty instead";
    P_REPLY = "p_reply", 0, "playouts: chance /256 of playing the last good reply to the last two moves (or the last move) after the atari rules (see replies.rs)";
    P_SOFTMAX = "p_softmax", 0, "playouts: chance /256 that a move the atari and vital-point rules leave open is drawn from the softmax over the learned playout features (playout_features.rs, softmax.rs) instead of the 3x3 patterns, fill-the-board and the random move (0: off, 256: always)";
    P_FILL = "p_fill", 256, "playouts (13x13 up): chance /256 of trying a move in open space before a random one";
    FILL_TRIES = "fill_tries", 6, "playouts: random points tried for an empty 3x3 neighbourhood";
    LADDER_STONES = "ladder_stones", 0, "playouts: largest last-moved group checked for a ladder";
    NAKADE = "nakade", 3, "playouts and priors: largest self-atari group allowed as a nakade (0: none)";
    SINGLE_SELF_ATARI = "single_self_atari", 0, "playouts: chance /256 of refusing a one-stone self-atari";
    PRIOR_EVEN = "prior_even", 14, "priors: visits at 0.5 every move starts with";
    PRIOR_CAPTURE = "prior_capture", 14, "priors: wins and visits for a capture (plus 5 per stone)";
    PRIOR_ESCAPE = "prior_escape", 28, "priors: wins and visits for saving a group in atari";
    PRIOR_SELF_ATARI = "prior_self_atari", 14, "priors: lost visits for a self-atari of 2+ stones";
    PRIOR_PATTERN = "prior_pattern", 14, "priors: wins and visits for a 3x3 pattern";
    PRIOR_LADDER = "prior_ladder", 14, "priors: lost visits for running into a ladder, wins for starting one";
    PRIOR_TWO_LIB = "prior_two_lib", 7, "priors: wins and visits for a two-liberty move near the last move";
    PRIOR_CFG1 = "prior_cfg1", 45, "priors: wins and visits at common-fate-graph distance 1 from the last move";
    PRIOR_CFG2 = "prior_cfg2", 40, "priors: wins and visits at distance 2";
    PRIOR_CFG3 = "prior_cfg3", 15, "priors: wins and visits at distance 3";
    PRIOR_LINE1 = "prior_line1", 14, "priors (13x13 up): lost visits on the first two lines in open areas";
    PRIOR_LINE3 = "prior_line3", 14, "priors (13x13 up): wins and visits on the third and fourth lines in open areas";
    PRIOR_CORNER = "prior_corner", 14, "priors (13x13 up): wins and visits on the 3-3, 3-4 and 4-4 points of an empty corner";
    PRIOR_PASS = "prior_pass", 10, "priors: visits at 0.1 for a pass";
    PRIOR_LEARNED = "prior_learned", 40, "priors: weight of the learned move priors, in visits of equivalent experience, shared out as `prior_learned_form` says (0: off)";
    PRIOR_LEARNED_FORM = "prior_learned_form", 0, "priors: how the learned priors count: 0 as `prior_learned` visits won in proportion to the square root of a move's strength over the best's, 1 as wins in as many visits, `prior_learned` times the square root of the move's probability (its strength over the sum)";
    PRIOR_LEARNED_ONLY = "prior_learned_only", 0, "priors: 1 to use the learned priors in place of the hand-written ones (captures, patterns, nearness ...)";
    PRIOR_LEARNED_VISITS = "prior_learned_visits", 16, "priors: visits at which a node gets the learned priors (0: every new node, which costs 2.5x the search per playout on 9x9; 16 costs about 1.15x)";
    DYNKOMI = "dynkomi", 1, "dynamic komi: 1 to shift the komi the move search plays for in handicap games toward White, fading with the moves (see dynkomi.rs), 0 off";
    DYNKOMI_STONE = "dynkomi_stone", 7, "dynamic komi: points per handicap stone at the start on 19x19 (scaled by the board's side)";
    DYNKOMI_MOVES = "dynkomi_moves", 200, "dynamic komi: the move at which the shift is gone on 19x19 (scaled by the board's area)";
    DYNKOMI_ADAPT = "dynkomi_adapt", 1, "dynamic komi: 1 to move the shift a point after each move the engine plays when its search's winrate is above 0.85 (against it) or below 0.5 (for it), 0 linear only";
}

#[inline]
pub fn get(k: K) -> i32 {
    KNOBS[k as usize].get()
}

/// Sets a knob by name; false when there is no such knob.
pub fn set(name: &str, value: i32) -> bool {
    match KNOBS.iter().find(|k| k.name == name) {
        Some(k) => {
            k.value.store(value, Ordering::Relaxed);
            true
        }
        None => false,
    }
}
