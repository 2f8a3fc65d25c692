//! Protocol-neutral search events.
//!
//! Scheme: a search reports through a [`Reporter`] that the protocol supplies: one call per
//! completed iteration (or aspiration bound, or MultiPV set) with every line the user asked
//! for, and exactly one [`Reporter::best_move`] call per search, with `None` when the root has
//! no legal move. Moves are the game's own type; each event carries the root position so the
//! protocol can replay a line and write it in its notation. Reporters are called from the
//! search's main thread, so they must be `Send + Sync`; they should only format and write.

use crate::game::Position;
use crate::score::Score;

/// Whether a reported score is exact or only a bound from an aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    /// 1-based rank among the MultiPV lines.
    pub rank: usize,
    /// The depth this line was completed at (lines of a MultiPV set may differ by one).
    pub depth: u32,
    pub seldepth: u32,
    /// From the side to move's view; see `score` for the mate encoding.
    pub score: Score,
    pub bound: ScoreBound,
    /// Legal moves from the root on.
    pub pv: Vec<M>,
}

/// The state of the search after an iteration (or a bound or MultiPV update within one).
#[derive(Clone, Debug)]
pub struct Iteration<'a, P: Position> {
    pub root: &'a P,
    pub depth: u32,
    pub lines: Vec<Line<P::Move>>,
    /// Nodes of all threads.
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
}

/// Where search events go.
pub trait Reporter<P: Position>: Send + Sync {
    /// An iteration finished, or a root score moved outside its aspiration window.
    fn iteration(&self, info: &Iteration<'_, P>);

    /// The search is over: the move to play (`None` when there is no legal move) and the
    /// expected reply, when one is known and legal.
    fn best_move(&self, root: &P, best: Option<P::Move>, ponder: Option<P::Move>);
}
