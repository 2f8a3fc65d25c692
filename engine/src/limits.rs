//! What a search is asked for, in protocol-neutral terms.
//!
//! Scheme: each protocol translates its own `go` / `genmove` / `level` into one [`Limits`]
//! value; the search and the time manager read only this. Absent fields mean "no constraint".
//! Several limits may be set at once (UCI `go depth 12 movetime 500`); the search stops at the
//! first one reached. With no limit at all and no clock, the search runs until stopped.

use crate::time::Clock;

/// Limits of one search. `M` is the game's move type, for `searchmoves` and `banmoves`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits<M> {
    /// Stop after completing this many iterations (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are spent (a soft limit, as data
    /// generation uses; `nodes` stays the hard one).
    pub soft_nodes: Option<u64>,
    /// Search for a mate in at most this many moves (UCI `go mate`).
    pub mate: Option<u32>,
    /// Think for exactly this long, in milliseconds (before the move overhead is taken off).
    pub movetime_ms: Option<u64>,
    /// The mover's clock, when the game has one.
    pub clock: Option<Clock>,
    /// Search until told to stop (analysis).
    pub infinite: bool,
    /// Pondering: search without a clock until `ponderhit` (then `clock` applies from that
    /// instant) or `stop`. The search never ends on its own while pondering.
    pub ponder: bool,
    /// Only these root moves are considered (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<M>,
    /// These root moves are never played (UCCI `banmoves`).
    pub banmoves: Vec<M>,
    /// How many best lines to report (1 = normal play).
    pub multipv: usize,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            soft_nodes: None,
            mate: None,
            movetime_ms: None,
            clock: None,
            infinite: false,
            ponder: false,
            searchmoves: Vec::new(),
            banmoves: Vec::new(),
            multipv: 1,
        }
    }
}

impl<M> Limits<M> {
    /// A search bounded only by depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search bounded only by nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Whether the search runs until stopped (no depth, node, mate or time limit).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.soft_nodes.is_none()
                && self.mate.is_none()
                && self.movetime_ms.is_none()
                && self.clock.is_none())
    }
}
