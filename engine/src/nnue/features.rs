//! Input feature sets: what a game tells the network about a position.
//!
//! Scheme: a network sees a position once per perspective (each side in turn as "us"). A
//! [`FeatureSet`] names the size of that input space, lists the active (value 1) inputs of a
//! position for one perspective, and lists the inputs a move switches on and off, again per
//! perspective, so that accumulators can follow the game by a few row additions instead of a
//! full refresh. A move whose change does not fit a [`Delta`] (a king-bucket change, a long
//! draughts capture) sets the perspective's `refresh` flag and the accumulator is rebuilt from
//! the position instead. Chess uses 768 inputs (colour relative to the perspective x kind x
//! square, the board mirrored vertically for the second player); xiangqi (90 squares x 7 kinds
//! x 2) and draughts (50 squares x 2 kinds x 2) fit the same trait.

use arrayvec::ArrayVec;

use crate::game::{Position, Side};

/// Most inputs a move can switch on, and switch off, per perspective, before a refresh is
/// asked for instead. Chess needs 2 and 2 (castling: king and rook both move).
pub const DELTA_CAP: usize = 4;

/// Most inputs active in one position and perspective (chess: 32 pieces; xiangqi 32; draughts 40).
pub const MAX_ACTIVE: usize = 64;

/// The inputs one perspective gains and loses by a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideDelta {
    add: [u16; DELTA_CAP],
    sub: [u16; DELTA_CAP],
    adds: u8,
    subs: u8,
    /// The change is too large or not local (rebuild the accumulator from the position).
    pub refresh: bool,
}

impl SideDelta {
    /// The inputs switched on.
    #[inline(always)]
    pub fn add(&self) -> &[u16] {
        &self.add[..self.adds as usize]
    }

    /// The inputs switched off.
    #[inline(always)]
    pub fn sub(&self) -> &[u16] {
        &self.sub[..self.subs as usize]
    }

    /// Records one input switched on (`on`) or off; past the capacity, asks for a refresh.
    #[inline(always)]
    pub fn push(&mut self, on: bool, feature: u16) {
        let (list, n) = if on {
            (&mut self.add, &mut self.adds)
        } else {
            (&mut self.sub, &mut self.subs)
        };
        match list.get_mut(*n as usize) {
            Some(slot) => {
                *slot = feature;
                *n += 1;
            }
            None => self.refresh = true,
        }
    }
}

/// What a move changes, for both perspectives (indexed by `Side::index`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    pub side: [SideDelta; 2],
}

impl Delta {
    /// Records a piece placement `feature(perspective)` appearing (`on`) or vanishing.
    #[inline(always)]
    pub fn push(&mut self, on: bool, feature: impl Fn(Side) -> usize) {
        for p in Side::BOTH {
            self.side[p.index()].push(on, feature(p) as u16);
        }
    }
}

/// A game's network inputs. Implemented by a zero-sized marker type per game and feature set.
pub trait FeatureSet<P: Position>: Clone + Send + Sync + 'static {
    /// The name written in network files, so a net for another feature set is refused.
    const NAME: &'static str;
    /// Inputs per perspective.
    const INPUTS: usize;
    /// Output buckets: sets of output weights, one chosen per position.
    const OUTPUT_BUCKETS: usize = 1;

    /// The output bucket of `pos`, below `OUTPUT_BUCKETS`.
    fn output_bucket(_pos: &P) -> usize {
        0
    }

    /// Appends the active inputs of `pos` seen from `perspective` (each below `INPUTS`).
    fn active(pos: &P, perspective: Side, out: &mut ArrayVec<u16, MAX_ACTIVE>);

    /// What the legal move `m` of `pos` changes (called before the move is made).
    fn delta(pos: &P, m: P::Move) -> Delta;
}
