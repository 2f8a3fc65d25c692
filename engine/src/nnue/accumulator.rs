//! The accumulator stack: a network evaluation that follows the search move by move.
//!
//! Scheme: [`NnueEval`] is an [`Evaluator`] that keeps one entry per ply of the current line.
//! The search tells it about each move before making it ([`Evaluator::on_make`]), which
//! records the move's [`Delta`] (cheap: a few mailbox reads) and pushes an entry; unmaking
//! pops it ([`Evaluator::on_unmake`]). The i16 arithmetic is lazy: only when a position is
//! evaluated does the stack walk back, per perspective, to the nearest entry whose accumulator
//! is up to date and apply the recorded deltas forwards (one fused add/sub pass per move: two
//! rows for a quiet move, three for a capture or promotion, four for castling). An entry is up
//! to date when its accumulator was computed for the key of the position it now stands for,
//! which covers a new search root (the key at depth 0 changes) without any extra hook. When
//! no such entry exists, or a move asked for a refresh, the accumulator is rebuilt from the
//! position's active features (bias plus one row per feature).

use std::marker::PhantomData;
use std::sync::Arc;

use arrayvec::ArrayVec;

use super::features::{Delta, FeatureSet, DELTA_CAP, MAX_ACTIVE};
use super::network::Network;
use super::simd::{self, Level};
use crate::game::{Evaluator, Position, Side};

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The key of the position this ply stands for (set when known: on make from it, or on
    /// evaluation of it).
    key: u64,
    /// Per perspective: the key the accumulator was computed for, if any.
    computed: [Option<u64>; 2],
    /// The move from the previous ply to this one.
    delta: Delta,
}

/// A network evaluator for game `P` with input features `F`; one per search thread.
pub struct NnueEval<P: Position, F: FeatureSet<P>> {
    net: Arc<Network>,
    level: Level,
    entries: Vec<Entry>,
    /// `entries.len() * 2 * hidden` values: ply-major, then perspective.
    acc: Vec<i16>,
    depth: usize,
    _game: PhantomData<fn() -> (P, F)>,
}

impl<P: Position, F: FeatureSet<P>> Clone for NnueEval<P, F> {
    fn clone(&self) -> Self {
        // A clone starts with an empty line: it will meet other positions.
        NnueEval::with_level(self.net.clone(), self.level)
    }
}

impl<P: Position, F: FeatureSet<P>> NnueEval<P, F> {
    /// An evaluator for `net` with the best instruction set of this CPU. The net must be for
    /// `F` (the loader checks the feature-set name and input count).
    pub fn new(net: Arc<Network>) -> Self {
        NnueEval::with_level(net, Level::detect())
    }

    /// The same with a chosen instruction set level (tests compare levels).
    pub fn with_level(net: Arc<Network>, level: Level) -> Self {
        assert_eq!(net.inputs, F::INPUTS, "network for another feature set");
        assert_eq!(
            net.buckets,
            F::OUTPUT_BUCKETS,
            "network for another feature set"
        );
        let plies = crate::score::MAX_PLY + 8;
        NnueEval {
            acc: vec![0; plies * 2 * net.hidden],
            entries: vec![Entry::default(); plies],
            net,
            level,
            depth: 0,
            _game: PhantomData,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn grow(&mut self) {
        if self.depth + 1 >= self.entries.len() {
            let n = self.entries.len() * 2;
            self.entries.resize(n, Entry::default());
            self.acc.resize(n * 2 * self.net.hidden, 0);
        }
    }

    fn slot(&self, ply: usize, p: usize) -> std::ops::Range<usize> {
        let h = self.net.hidden;
        let at = (ply * 2 + p) * h;
        at..at + h
    }

    /// Rebuilds perspective `p` of ply `ply` from the position.
    fn refresh(&mut self, pos: &P, ply: usize, p: Side) {
        let mut active = ArrayVec::<u16, MAX_ACTIVE>::new();
        F::active(pos, p, &mut active);
        let range = self.slot(ply, p.index());
        let net = &*self.net;
        let dst = &mut self.acc[range];
        // Rows in groups of four per pass over the accumulator.
        dst.copy_from_slice(&net.ft_bias);
        for group in active.chunks(4) {
            let rows: ArrayVec<&[i16], 4> = group.iter().map(|&f| net.row(f as usize)).collect();
            simd::update_in_place(self.level, dst, &rows, &[]);
        }
        self.entries[ply].computed[p.index()] = Some(self.entries[ply].key);
    }

    /// Brings perspective `p` of the current ply up to date.
    fn bring_up_to_date(&mut self, pos: &P, p: Side) {
        let pi = p.index();
        let d = self.depth;
        let mut j = d;
        let base = loop {
            let e = &self.entries[j];
            if e.computed[pi] == Some(e.key) {
                break Some(j);
            }
            if j == 0 || e.delta.side[pi].refresh {
                break None;
            }
            j -= 1;
        };
        let Some(base) = base else {
            self.refresh(pos, d, p);
            return;
        };
        let h = self.net.hidden;
        for ply in base + 1..=d {
            let at = self.slot(ply, pi).start;
            let (before, after) = self.acc.split_at_mut(at);
            let src = &before[(ply - 1) * 2 * h + pi * h..][..h];
            let dst = &mut after[..h];
            let delta = &self.entries[ply].delta.side[pi];
            let net = &*self.net;
            // Fixed arrays rather than collected vectors: no length checks on the way in.
            let (adds, subs) = (delta.add(), delta.sub());
            let mut add: [&[i16]; DELTA_CAP] = [&[]; DELTA_CAP];
            let mut sub: [&[i16]; DELTA_CAP] = [&[]; DELTA_CAP];
            for (r, &f) in add.iter_mut().zip(adds) {
                *r = net.row(f as usize);
            }
            for (r, &f) in sub.iter_mut().zip(subs) {
                *r = net.row(f as usize);
            }
            simd::update(self.level, dst, src, &add[..adds.len()], &sub[..subs.len()]);
            self.entries[ply].computed[pi] = Some(self.entries[ply].key);
        }
    }

    /// The accumulators of the current ply after bringing them up to date, for tests.
    pub fn accumulators(&mut self, pos: &P) -> [Vec<i16>; 2] {
        self.entries[self.depth].key = pos.key();
        Side::BOTH.map(|p| {
            self.bring_up_to_date(pos, p);
            self.acc[self.slot(self.depth, p.index())].to_vec()
        })
    }

    /// A full refresh of `pos` in a fresh evaluator, for tests: what the incremental
    /// accumulators must equal.
    pub fn refreshed(&self, pos: &P) -> [Vec<i16>; 2] {
        let mut fresh = NnueEval::<P, F>::with_level(self.net.clone(), self.level);
        fresh.accumulators(pos)
    }

    /// How many plies deep the current line is.
    pub fn depth(&self) -> usize {
        self.depth
    }
}

impl<P: Position, F: FeatureSet<P>> Evaluator<P> for NnueEval<P, F> {
    fn evaluate(&mut self, pos: &P) -> i32 {
        let d = self.depth;
        self.entries[d].key = pos.key();
        self.bring_up_to_date(pos, Side::First);
        self.bring_up_to_date(pos, Side::Second);
        let stm = pos.side_to_move().index();
        let us = &self.acc[self.slot(d, stm)];
        let them = &self.acc[self.slot(d, 1 - stm)];
        self.net.output(self.level, us, them, F::output_bucket(pos))
    }

    #[inline]
    fn on_make(&mut self, pos: &P, m: P::Move) {
        self.entries[self.depth].key = pos.key();
        self.grow();
        self.depth += 1;
        let e = &mut self.entries[self.depth];
        e.delta = F::delta(pos, m);
        e.computed = [None; 2];
    }

    #[inline]
    fn on_make_null(&mut self, pos: &P) {
        self.entries[self.depth].key = pos.key();
        self.grow();
        self.depth += 1;
        let e = &mut self.entries[self.depth];
        e.delta = Delta::default();
        e.computed = [None; 2];
    }

    #[inline]
    fn on_unmake(&mut self) {
        debug_assert!(self.depth > 0, "unmake without make");
        self.depth = self.depth.saturating_sub(1);
    }
}
