//! Every weight of the draughts evaluation, in one table.
//!
//! Scheme: the evaluation (`eval`) is linear in these weights: each feature contributes
//! `count * weight`, where the count is the difference between White's and Black's value of
//! the feature, and every weight is a pair (middlegame, endgame) blended by the number of men on
//! the board. `tetrarch-tune texel -game draughts` fits the table by regressing game results
//! on `eval::trace`'s counts (the evaluator's `LinearEval` form), which are exactly the
//! coefficients the evaluation multiplies by these weights; the only non-linear step (the
//! drawish-endgame scaling) is applied after the sum. The tuner writes its table as the Rust
//! source of `tuned.rs` ([`Weights::tuned_source`]). The table also round-trips through a plain
//! text form, one `name mg eg` line per weight (`man_row_3` for a row; `pattern_i` with
//! `i = class * 6561 + state` for the pattern tables of `patterns`, kept on the heap), so other
//! values can be loaded without a rebuild.
//!
//! Units: a man in the middlegame is 100. Features are counted from each player's own side
//! ("rows advanced" from the player's back row, "left" as the player sees the board).

pub use crate::linear::S;
use crate::linear::{heap, Heap};

use super::patterns::{CLASSES, STATES};

crate::weights! {
    /// A full set of weights, one pair per feature. The hand-set defaults
    /// ([`Weights::handset`], every pattern zero) are the tuner's starting point; the
    /// evaluator plays with [`Weights::tuned`] (`tuned.rs`), fitted from them by
    /// `tetrarch-tune texel -game draughts` on self-play games, which beat them by SPRT:
    /// +126 +/- 39 Elo, 134 wins, 48 losses and 65 draws in 247 games at 10,000 nodes per
    /// move. A second fit on new games added the patterns and beat that table: +82 +/- 29
    /// Elo, 156 wins, 73 losses and 130 draws in 359 games (and +62 +/- 27 against the same
    /// fit without patterns).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Weights for "draughts", rows 9, defaults handset {
        /// Men, then kings.
        pub man: S = S(100, 100),
        pub king: S = S(300, 330),
        /// Men by rows advanced from their own back row (0 = back row .. 8 = one step from
        /// crowning): tempo and development.
        pub man_row: [S; 9] = [
            S(2, 0),
            S(0, 4),
            S(3, 8),
            S(6, 14),
            S(9, 22),
            S(11, 32),
            S(12, 45),
            S(16, 60),
            S(24, 80),
        ],
        /// Men on the six central squares (22-24 and 27-29).
        pub centre: S = S(10, 4),
        /// Men on the side files.
        pub edge: S = S(-8, -2),
        /// |men on the left half - men on the right half|: left-right balance.
        pub imbalance: S = S(-4, -2),
        /// Men on the three central squares of the fifth row (White's 22-24): outposts.
        pub outpost: S = S(6, 4),
        /// Own pieces on the two squares right behind an outpost.
        pub outpost_support: S = S(4, 2),
        /// Men with an own piece right behind them (or on the back row): they cannot be
        /// attacked from behind.
        pub supported: S = S(3, 2),
        /// Men with no enemy piece in the cone ahead of them and no enemy king on the board:
        /// they crown unless something changes. Counted once per runaway ...
        pub runaway: S = S(120, 150),
        /// ... and once per row each runaway still has to go.
        pub runaway_distance: S = S(-12, -10),
        /// Men three or fewer rows from crowning with an empty square ahead: breakthroughs.
        pub breakthrough: S = S(10, 20),
        /// Men whose every forward square is an enemy piece or the edge: locked formations.
        pub locked: S = S(-6, -10),
        /// Forward steps the men can make to empty squares.
        pub mobility: S = S(2, 3),
        /// Kings on the main diagonal (46-5).
        pub king_diagonal: S = S(20, 25),
        /// Empty squares next to a king.
        pub king_mobility: S = S(2, 3),
        /// Piece-count lead times the number of pieces already traded (40 - pieces on the
        /// board): trading down when ahead.
        pub trade: S = S(1, 1),
        /// The contents of 4x4 regions (`patterns`): per region class (row band, then left
        /// edge, centre, right edge), per state (3^8 of empty, own man, enemy man).
        pub pattern: Heap<[[S; STATES]; CLASSES]> = heap(S(0, 0)),
    }
}

impl Weights {
    /// The table fitted to self-play results (`tuned.rs`) over the hand-set defaults.
    pub fn tuned() -> Weights {
        Weights::handset().overlay(super::tuned::TUNED)
    }

    /// Whether any pattern weight is nonzero (else the evaluation need not read the patterns).
    pub fn has_patterns(&self) -> bool {
        self.pattern.iter().flatten().any(|&s| s != S(0, 0))
    }

    /// Every weight zero, the base the other tables are built on.
    pub fn zero() -> Weights {
        let mut w = Weights::handset();
        w.visit_mut(|_, _, s| *s = S(0, 0));
        w
    }

    /// Material only (man 100, king 300), every positional weight zero: the baseline the
    /// evaluation is measured against.
    pub fn material_only() -> Weights {
        Weights {
            man: S(100, 100),
            king: S(300, 300),
            ..Weights::zero()
        }
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::handset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_rejects_nonsense() {
        let w = Weights::handset();
        assert_eq!(
            Weights::material_only().parse_over(&w.to_text()),
            Ok(w.clone())
        );
        let changed = w.parse_over("# tuned\nking 310 340\n\n").unwrap();
        assert_eq!(changed.king, S(310, 340));
        assert_eq!(changed.man, S(100, 100));
        assert!(w.parse_over("queen 900 900").is_err());
        assert!(w.parse_over("king 3x0 1").is_err());
        assert!(w.parse_over("king 1").is_err());
        let text = w.to_text();
        assert_eq!(text.lines().count(), Weights::LEN);
        assert!(text.contains("\nman_row_8 24 80\n"), "{text}");
        assert!(text.contains("\ntrade 1 1\npattern_0 0 0\n"), "{text}");
        let last = super::super::patterns::STATES * super::super::patterns::CLASSES - 1;
        assert!(text.ends_with(&format!("\npattern_{last} 0 0\n")));
        let one = w.parse_over("pattern_6562 5 -5").unwrap();
        assert_eq!(one.pattern[1][1], S(5, -5));
        let rows = w.parse_over("man_row_3 -7 23").unwrap();
        assert_eq!(rows.man_row[3], S(-7, 23));
    }

    /// The engine's table file is the writer's output: a tuner's file replaces it as it is.
    #[test]
    fn the_tuned_file_is_what_the_writer_writes() {
        let file = include_str!("tuned.rs");
        assert_eq!(
            Weights::overlay_errors(super::super::tuned::TUNED),
            Vec::<String>::new()
        );
        let doc = crate::linear::generated_doc(file);
        assert_eq!(Weights::tuned().tuned_source(&doc), file);
        let src = Weights::handset().tuned_source("a test\nsecond line");
        assert!(src.contains("//! a test\n//! second line\n"));
        assert!(src.contains("    (\"king\", &[(300, 330)]),\n"), "{src}");
        assert!(src.contains("    (\"trade\", &[(1, 1)]),\n"), "{src}");
        assert!(src.contains("    (\"pattern\", &[\n"), "{src}");
    }
}
