//! The draughts position: pieces as bitboards, side to move, Zobrist key, rule counters and the
//! key history for repetitions; copy-make.
//!
//! Scheme: everything but the history is one small `Copy` [`State`]; `make` saves it as the
//! undo record and pushes the old key on the history stack, `unmake` restores it and pops. The
//! rule counters live in the state so `rule_outcome` reads them without counting anything:
//! `quiet_plies` (consecutive plies in which a king moved without capturing: the 25-move rule,
//! and the reach of the repetition scan, since a man move or a capture makes every earlier
//! position unreachable), and the lone-king counters of the 16- and 5-move rules (see `rules`).

use super::moves::Move;
use super::rules::{self, Lone};
use super::squares::{Bits, VALID};
use super::zobrist;
use crate::game::Side;

/// Everything about a position but its history. Also the undo record of `make`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct State {
    /// All pieces of each side, indexed by `Side::index()` (White = First).
    pub(crate) pieces: [u64; 2],
    /// The kings of both sides.
    pub(crate) kings: u64,
    pub(crate) side: Side,
    pub(crate) key: u64,
    /// Consecutive plies of non-capturing king moves.
    pub(crate) quiet_plies: u16,
    /// Which lone-king rule applies, and since how many plies.
    pub(crate) lone: Lone,
    pub(crate) lone_plies: u16,
    /// Plies since the 5-move configuration arose (the 5-move rule can start inside a
    /// running 16-move count).
    pub(crate) five_plies: u16,
}

/// The undo record of [`Board`]: the previous state.
pub type Undo = State;

/// An international draughts position with its game history.
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) st: State,
    /// Keys of the positions before each move played so far (for repetitions).
    pub(crate) history: Vec<u64>,
}

impl PartialEq for Board {
    /// Same pieces, side to move and rule counters; the history is not compared.
    fn eq(&self, other: &Board) -> bool {
        self.st == other.st
    }
}

impl Board {
    /// A position from bitboards of the layout of `squares`. The caller has checked that the
    /// sets are disjoint, on playable squares, and that kings belong to a side.
    pub(crate) fn from_parts(white: u64, black: u64, kings: u64, side: Side) -> Board {
        let mut st = State {
            pieces: [white & VALID, black & VALID],
            kings: kings & (white | black) & VALID,
            side,
            key: 0,
            quiet_plies: 0,
            lone: Lone::None,
            lone_plies: 0,
            five_plies: 0,
        };
        st.key = compute_key(&st);
        st.lone = rules::lone_category(&st);
        Board {
            st,
            history: Vec::with_capacity(256),
        }
    }

    /// The side to move.
    pub fn side(&self) -> Side {
        self.st.side
    }

    /// All pieces of `side`.
    pub fn pieces(&self, side: Side) -> u64 {
        self.st.pieces[side.index()]
    }

    /// The men of `side`.
    pub fn men(&self, side: Side) -> u64 {
        self.st.pieces[side.index()] & !self.st.kings
    }

    /// The kings of `side`.
    pub fn kings(&self, side: Side) -> u64 {
        self.st.pieces[side.index()] & self.st.kings
    }

    /// Every occupied square.
    pub fn occupied(&self) -> u64 {
        self.st.pieces[0] | self.st.pieces[1]
    }

    /// Every empty square.
    pub fn empty(&self) -> u64 {
        VALID & !self.occupied()
    }

    /// Consecutive plies in which only kings moved and nothing was captured (25-move rule).
    pub fn quiet_plies(&self) -> u32 {
        self.st.quiet_plies as u32
    }

    /// Plies played since a lone-king ending (16- or 5-move rule) arose; `None` outside one.
    pub fn lone_king_plies(&self) -> Option<u32> {
        match self.st.lone {
            Lone::None => None,
            _ => Some(self.st.lone_plies as u32),
        }
    }

    /// Number of moves played from the position the board was set up from.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The key recomputed from the pieces (the incremental key must always equal it).
    pub fn key_from_scratch(&self) -> u64 {
        compute_key(&self.st)
    }

    /// Plays a legal move and returns the undo record.
    #[inline]
    pub(crate) fn do_move(&mut self, m: Move) -> Undo {
        let undo = self.st;
        self.history.push(self.st.key);
        apply(&mut self.st, m);
        undo
    }

    #[inline]
    pub(crate) fn undo_move(&mut self, undo: Undo) {
        self.st = undo;
        self.history.pop();
    }
}

/// Applies a legal move to the state.
#[inline]
fn apply(st: &mut State, m: Move) {
    let us = st.side.index();
    let them = 1 - us;
    let from = 1u64 << m.from;
    let to = 1u64 << m.to;
    let was_king = st.kings & from != 0;
    let (man_kind, king_kind) = kinds(st.side);
    let z = &zobrist::PIECES;

    // A capture may end on its own start square: the xors then cancel, as they should.
    st.pieces[us] ^= from ^ to;
    let moved_kind = if was_king { king_kind } else { man_kind };
    let landed_kind = if was_king || m.promotes {
        king_kind
    } else {
        man_kind
    };
    st.key ^= z[moved_kind][m.from as usize] ^ z[landed_kind][m.to as usize];
    if was_king {
        st.kings ^= from ^ to;
    } else if m.promotes {
        st.kings |= to;
    }

    if m.captured != 0 {
        let (their_man, their_king) = kinds(st.side.flip());
        for b in Bits(m.captured) {
            let kind = if st.kings & (1u64 << b) != 0 {
                their_king
            } else {
                their_man
            };
            st.key ^= z[kind][b as usize];
        }
        st.pieces[them] &= !m.captured;
        st.kings &= !m.captured;
    }

    st.side = st.side.flip();
    st.key ^= zobrist::BLACK_TO_MOVE;

    st.quiet_plies = if was_king && m.captured == 0 {
        st.quiet_plies.saturating_add(1)
    } else {
        0
    };
    rules::update_lone(st, m.captured != 0 || m.promotes);
}

/// Passes the turn (the null move: a side flip only).
pub(crate) fn flip_side(st: &mut State) {
    st.side = st.side.flip();
    st.key ^= zobrist::BLACK_TO_MOVE;
}

/// The Zobrist kinds (man, king) of a side.
#[inline(always)]
fn kinds(side: Side) -> (usize, usize) {
    match side {
        Side::First => (zobrist::WHITE_MAN, zobrist::WHITE_KING),
        Side::Second => (zobrist::BLACK_MAN, zobrist::BLACK_KING),
    }
}

/// The key of a state, from its pieces and side to move.
pub(crate) fn compute_key(st: &State) -> u64 {
    let mut key = 0;
    for side in Side::BOTH {
        let (man, king) = kinds(side);
        let own = st.pieces[side.index()];
        for b in Bits(own & !st.kings) {
            key ^= zobrist::PIECES[man][b as usize];
        }
        for b in Bits(own & st.kings) {
            key ^= zobrist::PIECES[king][b as usize];
        }
    }
    if st.side == Side::Second {
        key ^= zobrist::BLACK_TO_MOVE;
    }
    key
}
