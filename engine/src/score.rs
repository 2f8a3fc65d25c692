//! Scores, bounds, and the encoding of mates and rule results.
//!
//! Scheme: a score is an `i32` from the side to move's view. Evaluations stay well inside
//! `±MAX_EVAL`. A forced win `n` plies from the root scores `MATE - n` and a forced loss
//! `-MATE + n`, so shorter wins score higher. Every rule win or loss (checkmate, xiangqi
//! stalemate and perpetual check, draughts with no move left) is encoded the same way, which
//! lets protocols report it as "mate in N". Scores stored in the transposition table are made
//! relative to the node that stores them ([`to_tt`] / [`from_tt`]) so a mate found through a
//! transposition keeps the right distance. Results known from a game's tables (endgame
//! databases, [`known_result`]) sit in a band of their own between the two, with no distance.

use crate::game::{Outcome, Verdict};

pub type Score = i32;

/// Deepest ply any search reaches (selective depth included).
pub const MAX_PLY: usize = 246;
/// Above every real score; the initial alpha-beta window is `(-INFINITE, INFINITE)`.
pub const INFINITE: Score = 32_001;
/// The score of delivering mate at the root itself (never reached: mate is at least one ply away).
pub const MATE: Score = 32_000;
/// Scores at or beyond this magnitude are mates (or rule wins) within `MAX_PLY`.
pub const MATE_IN_MAX_PLY: Score = MATE - MAX_PLY as Score;
/// The largest magnitude an evaluation may have.
pub const MAX_EVAL: Score = 20_000;
/// A draw.
pub const DRAW: Score = 0;
/// The centre of the band of known results (endgame tables): above every evaluation
/// (`MAX_EVAL`), below every mate, so a table win never poses as a mate in N.
pub const KNOWN_WIN: Score = 25_000;
/// How far a known result may move inside its band to tell better wins from worse.
pub const KNOWN_SPAN: Score = 4_000;

/// The score of a position whose result is known without search (`Evaluator::probe`):
/// `KNOWN_WIN` for a win, its negation for a loss, shifted by `progress` (clamped to
/// `±KNOWN_SPAN`; for example the static evaluation, so the search still makes progress
/// towards the win it knows of), and `DRAW` for a draw.
#[inline]
pub fn known_result(verdict: Verdict, progress: Score) -> Score {
    let p = progress.clamp(-KNOWN_SPAN, KNOWN_SPAN);
    match verdict {
        Verdict::Win => KNOWN_WIN + p,
        Verdict::Loss => -KNOWN_WIN + p,
        Verdict::Draw => DRAW,
    }
}

/// The score of winning `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score of being mated (or losing by rule) `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Whether the score is a forced win or loss rather than an evaluation.
#[inline]
pub const fn is_decisive(score: Score) -> bool {
    score >= MATE_IN_MAX_PLY || score <= -MATE_IN_MAX_PLY
}

/// The score of a rule result reached `ply` plies from the root.
#[inline]
pub fn outcome_score(outcome: Outcome, ply: usize) -> Score {
    match outcome.verdict {
        Verdict::Win => mate_in(ply),
        Verdict::Loss => mated_in(ply),
        Verdict::Draw => DRAW,
    }
}

/// Moves (not plies) to mate, as UCI's `score mate N` wants: positive when the side to move
/// mates, negative when it is mated. `None` for a non-decisive score.
pub fn mate_moves(score: Score) -> Option<i32> {
    if score >= MATE_IN_MAX_PLY {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_IN_MAX_PLY {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Converts a score found `ply` plies from the root to one relative to the storing node.
#[inline]
pub fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_IN_MAX_PLY {
        score + ply as Score
    } else if score <= -MATE_IN_MAX_PLY {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored score back to one relative to the root, `ply` plies above this node.
#[inline]
pub fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_IN_MAX_PLY {
        score - ply as Score
    } else if score <= -MATE_IN_MAX_PLY {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Reason;

    #[test]
    fn known_results_sit_between_evaluations_and_mates() {
        for p in [-100_000, -5, 0, 7, 100_000] {
            let w = known_result(Verdict::Win, p);
            let l = known_result(Verdict::Loss, p);
            assert!(w > MAX_EVAL && w < MATE_IN_MAX_PLY && !is_decisive(w));
            assert!(l < -MAX_EVAL && l > -MATE_IN_MAX_PLY && !is_decisive(l));
            assert_eq!(known_result(Verdict::Draw, p), DRAW);
        }
        assert!(known_result(Verdict::Win, 10) > known_result(Verdict::Win, 5));
    }

    #[test]
    fn mate_distance_in_moves() {
        assert_eq!(mate_moves(mate_in(1)), Some(1));
        assert_eq!(mate_moves(mate_in(3)), Some(2));
        assert_eq!(mate_moves(mated_in(0)), Some(0));
        assert_eq!(mate_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_moves(mated_in(4)), Some(-2));
        assert_eq!(mate_moves(150), None);
    }

    #[test]
    fn table_round_trip_keeps_mate_distance() {
        for ply in 0..40 {
            for s in [mate_in(ply + 5), mated_in(ply + 7), 35, -12, DRAW] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // A mate in 5 from the root found at ply 2 is a mate in 3 from the storing node; read
        // back at ply 4 through a transposition it is a mate in 7 from that root.
        assert_eq!(from_tt(to_tt(mate_in(5), 2), 4), mate_in(7));
    }

    #[test]
    fn outcomes_score_from_side_to_move() {
        let loss = Outcome::loss(Reason::Checkmate);
        assert_eq!(outcome_score(loss, 3), mated_in(3));
        assert!(is_decisive(outcome_score(loss, 3)));
        assert_eq!(outcome_score(Outcome::draw(Reason::Repetition), 9), DRAW);
    }
}
