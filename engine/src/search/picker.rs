//! Staged move ordering.
//!
//! Scheme: moves come out in the order most likely to cut off, and are generated only when an
//! earlier stage has not already produced a cutoff: the table move (no generation at all), then
//! noisy moves by MVV/LVA corrected by capture history (under `Position::noisy_index`; chess:
//! piece, target square and kind captured), those that lose material by static exchange set
//! aside; then the two killers and the countermove (checked for pseudo-legality, since they
//! come from other positions); then quiet moves by butterfly history (in each move's threat
//! bucket, from the node's `Position::threat_info` the picker is given), continuation history
//! and the game's static `Position::quiet_order_bonus` (chess: a piece fleeing or walking into
//! an attack by a lesser piece), the first few picked by selection, the rest sorted only when
//! reached; then the set-aside losing noisy moves. Quiescence uses only the table move and the
//! noisy stage (and the quiet stage where it does not stand pat, as in check). Moves already
//! returned by an earlier stage are skipped when regenerated. The picker yields pseudo-legal
//! moves; the caller checks legality.

use arrayvec::ArrayVec;

use crate::game::{GenKind, MoveList, Position, MAX_MOVES};
use crate::search::history::History;

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Stage {
    Tt,
    GenNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// Continuation-history context: the move indices played 1, 2 and 4 plies earlier.
pub type ContPrev = [Option<usize>; 3];

/// `T` is the game's `Position::ThreatInfo`, read for the quiet moves' threat buckets.
pub struct Picker<M, T> {
    stage: Stage,
    tt: Option<M>,
    killers: [Option<M>; 2],
    counter: Option<M>,
    moves: ArrayVec<(M, i32), MAX_MOVES>,
    next: usize,
    bad: ArrayVec<M, MAX_MOVES>,
    bad_next: usize,
    /// Only noisy moves (quiescence outside check).
    noisy_only: bool,
    /// Set by the search once late quiet moves are pruned wholesale.
    pub skip_quiets: bool,
    /// Set by the search once only a few of the remaining quiet moves (the checks) will be
    /// searched: their order hardly matters, so they come out as generated, unsorted.
    pub unordered_quiets: bool,
    cont: ContPrev,
    /// The node's threats, for the butterfly history's threat buckets.
    threats: T,
    /// Whether noisy moves that lose material by SEE wait until after the quiet moves.
    see_sort: bool,
    /// Whether the quiet moves from `next` on are already in order.
    quiets_sorted: bool,
}

impl<M: Copy + Eq, T: Copy> Picker<M, T> {
    /// The picker of a full-width node; `threats` is the node's `Position::threat_info`.
    pub fn main(
        tt: Option<M>,
        killers: [Option<M>; 2],
        counter: Option<M>,
        cont: ContPrev,
        threats: T,
    ) -> Self {
        Picker {
            stage: Stage::Tt,
            tt,
            killers,
            counter,
            moves: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
            bad_next: 0,
            noisy_only: false,
            skip_quiets: false,
            unordered_quiets: false,
            cont,
            threats,
            see_sort: true,
            quiets_sorted: false,
        }
    }

    /// The picker of a quiescence node: the table move (if noisy) then the noisy moves, or
    /// every move when in check (only then are `threats`, the node's `Position::threat_info`,
    /// read).
    pub fn quiescence(tt: Option<M>, in_check: bool, cont: ContPrev, threats: T) -> Self {
        Picker {
            stage: Stage::Tt,
            tt,
            killers: [None; 2],
            counter: None,
            moves: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
            bad_next: 0,
            noisy_only: !in_check,
            skip_quiets: false,
            unordered_quiets: false,
            cont,
            threats,
            see_sort: false,
            quiets_sorted: false,
        }
    }

    /// Whether `m` is one of the killers or the countermove.
    pub fn is_refutation(&self, m: M) -> bool {
        self.killers[0] == Some(m) || self.killers[1] == Some(m) || self.counter == Some(m)
    }

    fn is_special(&self, m: M) -> bool {
        Some(m) == self.tt
            || (!self.noisy_only
                && (self.killers[0] == Some(m)
                    || self.killers[1] == Some(m)
                    || self.counter == Some(m)))
    }

    /// The next pseudo-legal move, or `None` when all are out.
    ///
    /// Most calls hand out the next quiet move of a list already scored: that path is inlined
    /// into the caller, so it does not pay the entry and exit of the whole staged machine
    /// (`next_staged`), which were a good part of the picker's cost.
    #[inline(always)]
    pub fn next<P: Position<Move = M, ThreatInfo = T>>(
        &mut self,
        pos: &P,
        hist: &History<M>,
    ) -> Option<M> {
        if self.stage == Stage::Quiet && !self.skip_quiets && self.next < self.moves.len() {
            if !self.unordered_quiets {
                self.order_next_quiet();
            }
            self.next += 1;
            return Some(self.moves[self.next - 1].0);
        }
        self.next_staged(pos, hist)
    }

    /// Every stage's work: generation, scoring, the noisy and refutation stages, and the end
    /// of the quiet stage.
    #[inline(never)]
    fn next_staged<P: Position<Move = M, ThreatInfo = T>>(
        &mut self,
        pos: &P,
        hist: &History<M>,
    ) -> Option<M> {
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::GenNoisy;
                    if let Some(m) = self.tt {
                        if !self.noisy_only || pos.is_noisy(m) {
                            return Some(m);
                        }
                        self.tt = None;
                    }
                }
                Stage::GenNoisy => {
                    self.gen_noisy(pos, hist);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    if let Some(m) = self.pick_best() {
                        if self.see_sort && !pos.see_ge(m, 0) {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    self.stage = if self.noisy_only {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let (cand, next) = match self.stage {
                        Stage::Killer1 => (self.killers[0], Stage::Killer2),
                        Stage::Killer2 => (self.killers[1], Stage::Counter),
                        _ => (self.counter, Stage::GenQuiet),
                    };
                    self.stage = next;
                    if self.skip_quiets {
                        continue;
                    }
                    if let Some(m) = cand {
                        let dup = Some(m) == self.tt
                            || (next == Stage::Counter && self.killers[0] == Some(m))
                            || (next == Stage::GenQuiet
                                && (self.killers[0] == Some(m) || self.killers[1] == Some(m)));
                        if !dup && pos.is_pseudo_legal(m) && !pos.is_noisy(m) {
                            return Some(m);
                        }
                    }
                }
                Stage::GenQuiet => {
                    self.stage = Stage::Quiet;
                    self.moves.clear();
                    self.next = 0;
                    if self.skip_quiets {
                        continue;
                    }
                    self.gen_quiet(pos, hist);
                    self.quiets_sorted = false;
                }
                Stage::Quiet => {
                    if !self.skip_quiets && self.next < self.moves.len() {
                        if !self.unordered_quiets {
                            self.order_next_quiet();
                        }
                        self.next += 1;
                        return Some(self.moves[self.next - 1].0);
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    // The two generation stages run once per node each: out of line, so that the stage
    // loop, entered once per move, does not set up what only they need.

    /// Generates and scores the noisy moves (but the table move).
    #[inline(never)]
    fn gen_noisy<P: Position<Move = M, ThreatInfo = T>>(&mut self, pos: &P, hist: &History<M>) {
        let mut list = MoveList::new();
        pos.generate(GenKind::Noisy, &mut list);
        let side = pos.side_to_move();
        self.moves.clear();
        for &m in list.iter() {
            if Some(m) == self.tt {
                continue;
            }
            let score = pos.noisy_value(m) * 8 + hist.noisy(side, pos.noisy_index(m)) / 2;
            self.moves.push((m, score));
        }
        self.next = 0;
    }

    /// Generates and scores the quiet moves (but the table move and the refutations).
    #[inline(never)]
    fn gen_quiet<P: Position<Move = M, ThreatInfo = T>>(&mut self, pos: &P, hist: &History<M>) {
        let mut list = MoveList::new();
        pos.generate(GenKind::Quiet, &mut list);
        let side = pos.side_to_move();
        // The three continuation rows are looked up once, not once per move.
        let rows = self.cont.map(|prev| hist.cont_row(prev));
        for &m in list.iter() {
            if self.is_special(m) {
                continue;
            }
            if self.unordered_quiets {
                // They come out as generated: no history to read.
                self.moves.push((m, 0));
                continue;
            }
            let idx = pos.move_index(m);
            let bucket = pos.threat_bucket(&self.threats, m);
            let score = hist.quiet(side, bucket, idx)
                + rows[0][idx] as i32
                + rows[1][idx] as i32
                + rows[2][idx] as i32 / 2
                + pos.quiet_order_bonus(&self.threats, m);
            self.moves.push((m, score));
        }
    }

    /// Puts the next quiet move in place, in the order of a stable sort by score, best first.
    /// Most nodes cut off (or prune the remaining quiets) after a few of them, so the first
    /// few are found by selection, rotated into place so that the rest keep their generated
    /// order; only a node that goes on past them pays for sorting the remainder.
    #[inline(always)]
    fn order_next_quiet(&mut self) {
        if self.quiets_sorted {
            return;
        }
        self.order_unsorted_quiet();
    }

    /// `order_next_quiet`'s work while the quiets are not yet sorted, kept out of line.
    #[inline(never)]
    fn order_unsorted_quiet(&mut self) {
        const SELECT_FIRST: usize = 4;
        let rest = &mut self.moves[self.next..];
        if self.next < SELECT_FIRST {
            // The first best: the rotation below then keeps equal scores in generated order.
            let mut best = 0;
            let mut best_score = rest[0].1;
            for (i, &(_, score)) in rest.iter().enumerate().skip(1) {
                if score > best_score {
                    best = i;
                    best_score = score;
                }
            }
            rest[..=best].rotate_right(1);
        } else {
            for i in 1..rest.len() {
                let x = rest[i];
                let mut j = i;
                while j > 0 && rest[j - 1].1 < x.1 {
                    rest[j] = rest[j - 1];
                    j -= 1;
                }
                rest[j] = x;
            }
            self.quiets_sorted = true;
        }
    }

    /// Selection sort step over the noisy list: the best remaining move.
    fn pick_best(&mut self) -> Option<M> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        let mut best_score = self.moves[best].1;
        for i in self.next + 1..self.moves.len() {
            if self.moves[i].1 > best_score {
                best = i;
                best_score = self.moves[i].1;
            }
        }
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1].0)
    }
}
