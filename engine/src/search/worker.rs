//! One search thread: iterative deepening, principal variation search and quiescence.
//!
//! Scheme: each thread owns a [`Worker`] for its whole life (history tables, stacks) and runs
//! the same iterative deepening over a private copy of the root position; threads cooperate
//! through the shared transposition table (Lazy SMP) and through the depth they have reached:
//! helpers skip depths in staggered blocks, the first thread to complete an iteration publishes
//! it, and every thread still searching that depth gives it up for the next one (the main
//! thread adopting the published result as its own, so its reports and time checks go on).
//! Each iteration searches every MultiPV line in an aspiration window around the previous
//! score, widened on failure (a fail high also retries one ply shallower). The node search is
//! a principal variation search:
//!
//! - before the moves: rule results (`rule_outcome`), a known result from the evaluator
//!   (`Evaluator::probe`, an endgame table: exact, so it ends the node, in quiescence too),
//!   mate-distance pruning, a table probe
//!   (cutoff at non-PV nodes), the static evaluation (cached in the table) with the
//!   "improving" flag, then razoring, reverse futility, null move (where the game allows it,
//!   verified at high depth) and ProbCut (none of these four at the reply to a root move), and
//!   internal iterative reduction;
//! - in the move loop: late-move, futility, history and SEE pruning of late moves, judged at
//!   the depth the move would be reduced to (a quiet move's history moves that depth as it
//!   moves the reduction); a quiet move that gives check, told by `Position::gives_check`
//!   before it is made, is exempt from all but a noisy move's exchange test, so quiet mates
//!   are not pruned away; singular
//!   (with double and negative) extensions of the table move, check extensions, and late-move
//!   reductions from a `ln(depth) * ln(moves)` table adjusted by history and node type; once
//!   a move has raised alpha (at middle depths), the later moves are searched a ply shallower;
//! - after: history, killer, countermove and continuation updates with gravity, a table store.
//!   Quiet (butterfly) history is read and updated in each move's threat bucket
//!   (`Position::threat_bucket`), from threats the game computes once per node before the
//!   move loop (`Position::threat_info`), the same bucket for a move wherever the node reads or
//!   updates it; capture history under `Position::noisy_index` (chess: the kind captured too).
//!   Each new static evaluation also scores the opponent's quiet move that led to it, by how
//!   far that move moved the evaluation in the opponent's favour.
//!
//! Quiescence follows noisy moves (all moves in check) with stand-pat, delta pruning and SEE
//! pruning where the game supplies them; where the game forces a noisy move
//! (`Position::noisy_forced`) it does not stand pat, and at the horizon a quiet threat
//! (`Position::quiet_threat`) buys one ply of quiet moves; where the game asks for it
//! (`Position::QUIESCENCE_CHECKS`), a horizon node that stands pat also tries quiet checks.
//! Scores use `crate::score`'s mate encoding; draws come only from the game's `rule_outcome`
//! and `no_move_outcome`, so this file names no game.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::game::{Evaluator, GenKind, MoveList, Position, STRUCTURE_KEYS};
use crate::report::{Line, ScoreBound};
use crate::score::{
    self, from_tt, is_decisive, mate_in, mated_in, Score, DRAW, INFINITE, MATE_IN_MAX_PLY,
    MAX_EVAL, MAX_PLY,
};
use crate::search::history::{move_pair_key, History, CORRECTION_TABLES};
use crate::search::job::Job;
use crate::search::params::Params;
use crate::search::picker::{ContPrev, Picker};
use crate::tt::{Bound, Table};

/// Whether helper `id` (1 and up) skips iteration `depth`: helpers are spread over block sizes
/// 1, 2, 3, 4 (2, 4, 6, 8 helpers of each), each at its own phase within its block.
fn skips(id: usize, depth: i32) -> bool {
    let mut i = (id - 1) % 20;
    let mut size = 1;
    while i >= 2 * size {
        i -= 2 * size;
        size += 1;
    }
    let (size, phase) = (size as i32, i as i32);
    ((depth + phase) / size) % 2 != 0
}

/// The history a quiet move earns per unit of static evaluation it gained for its side, and
/// the most it loses and earns that way: a few cutoffs' worth.
const EVAL_HISTORY_MUL: i32 = 20;
const EVAL_HISTORY_MIN: i32 = -3500;
const EVAL_HISTORY_MAX: i32 = 3000;

/// Marks a static evaluation that was not computed (in check).
const NO_EVAL: Score = -32_767;

/// One root move with what the search learned about it.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// Score of the current iteration (or `-INFINITE` once it failed low in it).
    pub score: Score,
    pub prev_score: Score,
    /// Running average, which seeds the aspiration window.
    pub average: Score,
    pub bound: ScoreBound,
    pub seldepth: usize,
    pub pv: Vec<M>,
    /// Nodes spent below this move in the current search.
    pub nodes: u64,
}

#[derive(Clone, Copy)]
struct Frame<M> {
    /// The move made at this ply (`None` for a null move).
    mv: Option<M>,
    /// Its history index (`None` for a null move).
    cont: Option<usize>,
    /// Its butterfly threat bucket when it was a quiet move (`None`: noisy or null).
    quiet_bucket: Option<usize>,
    /// Static evaluation, corrected (`NO_EVAL` in check), and as the evaluator gave it.
    eval: Score,
    raw_eval: Score,
    excluded: Option<M>,
    killers: [Option<M>; 2],
    double_ext: i32,
    cutoffs: i32,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            mv: None,
            cont: None,
            quiet_bucket: None,
            eval: NO_EVAL,
            raw_eval: NO_EVAL,
            excluded: None,
            killers: [None, None],
            double_ext: 0,
            cutoffs: 0,
        }
    }
}

/// What a thread hands back at the end of a search.
#[derive(Clone, Debug)]
pub struct ThreadResult<M> {
    pub id: usize,
    /// The last completed iteration.
    pub depth: i32,
    /// The root moves as the search left them (possibly mid-iteration).
    pub root_moves: Vec<RootMove<M>>,
    /// The best root move as the last completed iteration left it.
    pub best: Option<RootMove<M>>,
}

pub struct Worker<P: Position, E: Evaluator<P>> {
    pub id: usize,
    pos: P,
    eval: E,
    hist: History<P::Move>,
    stack: Vec<Frame<P::Move>>,
    pv: Vec<Vec<P::Move>>,
    pub nodes: u64,
    seldepth: usize,
    pub root_moves: Vec<RootMove<P::Move>>,
    pv_idx: usize,
    params: Params,
    lmr: Vec<[i32; 64]>,
    tt: Arc<Table>,
    job: Option<Arc<Job<P>>>,
    stopped: bool,
    node_limit: u64,
    main: bool,
    pub completed_depth: i32,
    completed_best: Option<RootMove<P::Move>>,
    root_depth: i32,
    nmp_min_ply: usize,
    /// Set when this thread gives up its iteration because another one completed that depth.
    abandoned: bool,
}

impl<P: Position, E: Evaluator<P>> Worker<P, E> {
    pub fn new(id: usize, root: P, eval: E) -> Self {
        Worker {
            id,
            pos: root,
            eval,
            hist: History::new(P::MOVE_INDEX_SPACE, P::THREAT_BUCKETS, P::NOISY_INDEX_SPACE),
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            nodes: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            pv_idx: 0,
            params: Params::DEFAULT,
            lmr: Vec::new(),
            tt: Arc::new(Table::tiny()),
            job: None,
            stopped: false,
            node_limit: u64::MAX,
            main: id == 0,
            completed_depth: 0,
            completed_best: None,
            root_depth: 0,
            nmp_min_ply: 0,
            abandoned: false,
        }
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.hist.clear();
    }

    fn build_lmr(&mut self) {
        let base = self.params.lmr_base as f64 / 100.0;
        let div = self.params.lmr_div as f64 / 100.0;
        self.lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let v = base + (d as f64).ln() * (m as f64).ln() / div;
                        *r = v.max(0.0) as i32;
                    }
                }
                row
            })
            .collect();
    }

    #[inline]
    fn reduction(&self, depth: i32, moves: usize) -> i32 {
        self.lmr[(depth as usize).min(63)][moves.min(63)]
    }

    /// Runs one search job to its end and returns this thread's result.
    pub fn run(&mut self, job: Arc<Job<P>>) -> ThreadResult<P::Move> {
        self.pos = job.root.clone();
        self.tt = job.tt.clone();
        if self.params != job.params || self.lmr.is_empty() {
            self.params = job.params;
            self.build_lmr();
        }
        self.stopped = false;
        self.abandoned = false;
        self.nodes = 0;
        self.completed_depth = 0;
        self.completed_best = None;
        self.nmp_min_ply = 0;
        self.node_limit = match job.limits.nodes {
            // One thread stops at the exact count, which keeps node-bounded searches
            // deterministic; with more, the main thread watches the sum.
            Some(n) if job.threads == 1 => n.max(1),
            _ => u64::MAX,
        };
        for f in self.stack.iter_mut() {
            *f = Frame::default();
        }
        self.root_moves = job
            .root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                average: -INFINITE,
                bound: ScoreBound::Exact,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
        self.job = Some(job.clone());
        self.iterate(&job);
        job.signals.set_nodes(self.id, self.nodes);
        self.job = None;
        // Let go of the table, so that a resize frees the old one at once.
        self.tt = Arc::new(Table::tiny());
        ThreadResult {
            id: self.id,
            depth: self.completed_depth,
            root_moves: self.root_moves.clone(),
            best: self.completed_best.take(),
        }
    }

    fn iterate(&mut self, job: &Job<P>) {
        let multipv = job.multipv.clamp(1, self.root_moves.len().max(1));
        let max_depth = job
            .limits
            .depth
            .map(|d| (d as i32).clamp(1, MAX_PLY as i32 - 1))
            .unwrap_or(MAX_PLY as i32 - 1);
        let mut last_best: Option<P::Move> = None;
        let mut stable = 0u32;
        let mut score_history: Vec<Score> = Vec::new();

        let mut depth = 0;
        loop {
            depth += 1;
            // A depth some thread has already completed is in the table: start past it. The
            // main thread (with one line) starts at it instead: its first poll sees the depth
            // done and adopts that thread's result, so its reports and time checks still pass
            // through every completed depth, up to the limit. Skipping it outright left a
            // search whose helper finished the last depth first without a report of it.
            let team = job.signals.team_depth();
            if team >= depth {
                depth = if self.main && job.multipv == 1 {
                    team
                } else {
                    team + 1
                };
            }
            if depth > max_depth {
                break;
            }
            // Lazy SMP: helpers skip depths in blocks, each helper with its own block size and
            // phase, so that the threads spread over the next few depths instead of racing
            // through the same one (the first helper takes every other depth, the next two
            // pairs of depths at two phases, and so on).
            if self.id > 0 && depth > 1 && depth < max_depth && skips(self.id, depth) {
                continue;
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].average;
                let mut delta = self.params.asp_window + prev.abs().min(MAX_EVAL) / 80;
                let (mut alpha, mut beta) = if depth >= 4 && prev > -INFINITE {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                let mut fail_high = 0;
                loop {
                    let d = (depth - fail_high).max(1);
                    let v = self.search::<true>(alpha, beta, d, 0, false);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        fail_high = 0;
                        self.report_bound(job, depth, multipv);
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        fail_high += 1;
                        self.report_bound(job, depth, multipv);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            let (depth, effort) = if !self.stopped {
                let best = &self.root_moves[0];
                let effort = best.nodes * 1000 / self.nodes.max(1);
                job.publish(depth, best, effort);
                (depth, effort)
            } else if self.abandoned && !job.signals.stopped() {
                self.stopped = false;
                self.abandoned = false;
                for rm in self.root_moves.iter_mut() {
                    rm.score = rm.prev_score;
                }
                match job.team_best() {
                    Some(team) if self.main && team.depth > self.completed_depth => {
                        if !self.adopt(&team.best) {
                            continue;
                        }
                        (team.depth, team.effort)
                    }
                    _ => continue,
                }
            } else {
                break;
            };
            self.completed_depth = depth;
            self.completed_best = Some(self.root_moves[0].clone());
            if !self.main {
                continue;
            }

            // The main thread reports and decides whether to go on.
            job.report(self, depth as u32, multipv, false);
            let best = self.root_moves[0].clone();
            if last_best == Some(best.mv) {
                stable += 1;
            } else {
                stable = 0;
            }
            last_best = Some(best.mv);
            score_history.push(best.score);

            if let Some(mate) = job.limits.mate {
                if best.score >= mate_in(2 * mate as usize) {
                    break;
                }
            }
            if job.limits.nodes.is_some() && job.signals.total_nodes() >= job.limits.nodes.unwrap()
            {
                break;
            }
            if job
                .limits
                .soft_nodes
                .is_some_and(|soft| job.signals.total_nodes() >= soft)
            {
                break;
            }
            let reference = if score_history.len() >= 4 {
                score_history[score_history.len() - 4]
            } else {
                best.score
            };
            let drop = if is_decisive(best.score) || is_decisive(reference) {
                0
            } else {
                reference - best.score
            };
            if job.control.soft_stop(
                &self.params,
                stable,
                effort,
                drop,
                self.root_moves.len() == 1,
            ) {
                break;
            }
        }
    }

    /// Takes another thread's completed iteration as this one's: its best move goes first,
    /// with that thread's score, bound and line (false if the move is not a root move here).
    fn adopt(&mut self, team: &RootMove<P::Move>) -> bool {
        let Some(i) = self.root_moves.iter().position(|rm| rm.mv == team.mv) else {
            return false;
        };
        self.root_moves[..=i].rotate_right(1);
        let rm = &mut self.root_moves[0];
        rm.score = team.score;
        rm.average = team.average;
        rm.bound = team.bound;
        rm.seldepth = team.seldepth;
        rm.pv.clone_from(&team.pv);
        true
    }

    fn report_bound(&self, job: &Job<P>, depth: i32, multipv: usize) {
        if self.main && job.control.elapsed_ms() > 2500 {
            job.report(self, depth as u32, multipv, true);
        }
    }

    /// The MultiPV lines as they stand.
    pub fn lines(&self, depth: u32, multipv: usize) -> Vec<Line<P::Move>> {
        self.root_moves
            .iter()
            .take(multipv)
            .enumerate()
            .map(|(i, rm)| {
                let updated = rm.score != -INFINITE;
                let (score, bound) = if updated {
                    (rm.score, rm.bound)
                } else {
                    (rm.prev_score, ScoreBound::Exact)
                };
                let d = if updated || i < self.pv_idx {
                    depth
                } else {
                    depth.saturating_sub(1).max(1)
                };
                Line {
                    rank: i + 1,
                    depth: d,
                    seldepth: rm.seldepth.max(1) as u32,
                    score: if score == -INFINITE { DRAW } else { score },
                    bound,
                    pv: rm.pv.clone(),
                }
            })
            .collect()
    }

    /// Polls for the end of the search; called at every node.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            let job = self.job.as_ref().expect("searching without a job");
            job.signals.set_nodes(self.id, self.nodes);
            if job.signals.stopped() {
                self.stopped = true;
            } else if job.signals.team_depth() >= self.root_depth
                && (!self.main || job.multipv == 1)
            {
                // Another thread has completed this iteration: its results are in the table,
                // so finishing it here would only repeat them. Move on to the next depth (the
                // main thread adopts that thread's result; with several lines it finishes its
                // own, since the others searched theirs in another order).
                self.stopped = true;
                self.abandoned = true;
            } else if self.main
                && self.completed_depth >= 1
                && (job.control.hard_stop()
                    || job
                        .limits
                        .nodes
                        .is_some_and(|n| job.signals.total_nodes() >= n))
            {
                job.signals.stop();
                self.stopped = true;
            }
        }
        self.stopped
    }

    #[inline]
    fn cont_prev(&self, ply: usize) -> ContPrev {
        let at = |k: usize| {
            if ply >= k {
                self.stack[ply - k].cont
            } else {
                None
            }
        };
        [at(1), at(2), at(4)]
    }

    #[inline]
    fn draw_score(&self) -> Score {
        // A tiny random-looking offset keeps the search from treating every repetition as an
        // equally good escape (and stays deterministic with one thread).
        DRAW + 1 - (self.nodes & 2) as Score
    }

    fn evaluate(&mut self) -> Score {
        self.eval.evaluate(&self.pos).clamp(-MAX_EVAL, MAX_EVAL)
    }

    // Every move the search plays on `self.pos` goes through these four, so an evaluator that
    // follows the line (NNUE's accumulator stack) hears of each make and unmake.
    #[inline(always)]
    fn make(&mut self, m: P::Move) -> P::Undo {
        self.eval.on_make(&self.pos, m);
        let undo = self.pos.make(m);
        // The child probes the table first thing: start loading its bucket now.
        self.tt.prefetch(self.pos.key());
        undo
    }

    #[inline(always)]
    fn unmake(&mut self, m: P::Move, undo: P::Undo) {
        self.pos.unmake(m, undo);
        self.eval.on_unmake();
    }

    #[inline(always)]
    fn make_null(&mut self) -> P::Undo {
        self.eval.on_make_null(&self.pos);
        self.pos.make_null()
    }

    #[inline(always)]
    fn unmake_null(&mut self, undo: P::Undo) {
        self.pos.unmake_null(undo);
        self.eval.on_unmake();
    }

    /// The keys of the correction tables at `ply`: the game's structure keys and the last
    /// two moves.
    #[inline]
    fn correction_keys(&self, ply: usize) -> [Option<u64>; CORRECTION_TABLES] {
        let structure = self.pos.structure_keys();
        let pair = match (P::MOVE_FEEDBACK && ply >= 2)
            .then(|| (self.stack[ply - 1].cont, self.stack[ply - 2].cont))
        {
            Some((Some(last), Some(before))) => Some(move_pair_key(last, before)),
            _ => None,
        };
        std::array::from_fn(|i| {
            if i < STRUCTURE_KEYS {
                structure[i]
            } else {
                pair
            }
        })
    }

    /// A raw static evaluation corrected by the correction history of the position's
    /// correction keys (`correction_keys`).
    #[inline]
    fn corrected(&self, raw: Score, keys: &[Option<u64>; CORRECTION_TABLES]) -> Score {
        match self.hist.correction(self.pos.side_to_move(), keys) {
            0 => raw,
            c => (raw + c).clamp(-MAX_EVAL, MAX_EVAL),
        }
    }

    fn search<const PV: bool>(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        let root = ply == 0;
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, true);
        }
        self.nodes += 1;
        if PV {
            self.pv[ply].clear();
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if !root {
            if self.should_stop() {
                return 0;
            }
            if let Some(outcome) = self.pos.rule_outcome(ply) {
                let s = score::outcome_score(outcome, ply);
                return if s == DRAW { self.draw_score() } else { s };
            }
            if let Some(s) = self.eval.probe(&self.pos) {
                return s;
            }
            if ply >= MAX_PLY - 1 {
                return if self.pos.in_check() {
                    DRAW
                } else {
                    self.evaluate()
                };
            }
            // Mate distance pruning: no line from here beats a mate already in hand.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let in_check = P::HAS_CHECKS && self.pos.in_check();
        // A forced noisy move (draughts capture): the static evaluation is about to change by
        // a piece, so it prunes nothing here; a single such move is also extended below.
        let forced = !in_check && self.pos.noisy_forced();
        let single_reply = forced && {
            let mut list = crate::game::MoveList::new();
            self.pos.generate(crate::game::GenKind::Noisy, &mut list);
            list.len() == 1
        };
        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let hit = if excluded.is_none() {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = if root {
            Some(self.root_moves[self.pv_idx].mv)
        } else {
            hit.and_then(|h| h.mv).and_then(|b| self.pos.unpack(b))
        };
        let tt_score = hit
            .filter(|h| h.score != NO_EVAL)
            .map(|h| from_tt(h.score, ply));
        let tt_pv = PV || hit.is_some_and(|h| h.pv);
        let tt_noisy = tt_move.is_some_and(|m| self.pos.is_noisy(m));

        if !PV && excluded.is_none() {
            if let (Some(h), Some(s)) = (hit, tt_score) {
                if h.depth >= depth
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    }
                {
                    // Reward a quiet table move that cuts off again.
                    if s >= beta {
                        if let Some(m) = tt_move {
                            if !tt_noisy {
                                let bonus = self.history_bonus(depth);
                                let side = self.pos.side_to_move();
                                let idx = self.pos.move_index(m);
                                // The move loop would have read it in this bucket too.
                                let threats = self.pos.threat_info();
                                let bucket = self.pos.threat_bucket(&threats, m);
                                self.hist.update_quiet(side, bucket, idx, bonus);
                            }
                        }
                    }
                    return s;
                }
            }
        }

        // Static evaluation: `raw_eval` as the evaluator gives it (what the table keeps),
        // `static_eval` corrected by what searches of similar structures found.
        let raw_eval;
        let static_eval;
        let mut eval;
        // The correction keys, kept for the correction update at the end of the node (the
        // position and the two moves before it are the same then).
        let mut corr_keys = None;
        if in_check {
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
            eval = NO_EVAL;
            self.stack[ply].eval = NO_EVAL;
        } else if excluded.is_some() {
            raw_eval = self.stack[ply].raw_eval;
            static_eval = self.stack[ply].eval;
            eval = static_eval;
        } else {
            raw_eval = match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => {
                    let e = self.evaluate();
                    if hit.is_none() {
                        self.tt
                            .store(key, None, NO_EVAL, e, -7, Bound::Upper, tt_pv);
                    }
                    e
                }
            };
            let keys = self.correction_keys(ply);
            static_eval = self.corrected(raw_eval, &keys);
            corr_keys = Some(keys);
            self.stack[ply].raw_eval = raw_eval;
            self.stack[ply].eval = static_eval;
            eval = static_eval;
            // The opponent's quiet move is judged by what it did to the static evaluation:
            // one that left us worse off than before it earns history, one that helped us
            // loses some.
            if P::MOVE_FEEDBACK && ply > 0 {
                let prev = &self.stack[ply - 1];
                if let (Some(idx), Some(bucket)) = (prev.cont, prev.quiet_bucket) {
                    if prev.eval != NO_EVAL {
                        let bonus = (-(prev.eval + static_eval) * EVAL_HISTORY_MUL)
                            .clamp(EVAL_HISTORY_MIN, EVAL_HISTORY_MAX);
                        let side = self.pos.side_to_move().flip();
                        self.hist.update_quiet(side, bucket, idx, bonus);
                    }
                }
            }
            // The table score is a better estimate when its bound points the right way.
            if let (Some(h), Some(s)) = (hit, tt_score) {
                if !is_decisive(s)
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => s > eval,
                        Bound::Upper => s < eval,
                    }
                {
                    eval = s;
                }
            }
        }
        let improving = !in_check
            && ply >= 2
            && if self.stack[ply - 2].eval != NO_EVAL {
                static_eval > self.stack[ply - 2].eval
            } else {
                ply >= 4
                    && self.stack[ply - 4].eval != NO_EVAL
                    && static_eval > self.stack[ply - 4].eval
            };
        self.stack[ply + 1].killers = [None, None];
        self.stack[ply + 1].excluded = None;
        self.stack[ply + 1].cutoffs = 0;
        if ply > 0 {
            self.stack[ply].double_ext = self.stack[ply - 1].double_ext;
        }

        // Not at the reply to a root move (ply 1): there these prunings decide a whole root
        // move on the static evaluation and a shallow null-move search, and they decide it the
        // same way every iteration, since a late root move meets the root's alpha, often far
        // above its static evaluation. A quiet root move whose point is a threat deeper than
        // the null move's reduced depth then never gets searched at all (s2-mate5-005 of the
        // mate suite: Rea8, ten pawns below the best move's score, was cut off by reverse
        // futility below depth 9 and by the null move above it, up to depth 23). Deeper in the
        // tree a wrong prune costs one line among many.
        if !PV && !in_check && !forced && excluded.is_none() && ply > 1 {
            // Razoring: far below alpha, see whether captures can even get back to it.
            if depth <= 3
                && eval + self.params.razor_base + self.params.razor_depth_mul * depth < alpha
            {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply, true);
                if v < alpha && !is_decisive(v) {
                    return v;
                }
            }
            // Reverse futility: far above beta with little depth left.
            if depth <= self.params.rfp_depth
                && !is_decisive(beta)
                && eval < MATE_IN_MAX_PLY
                && eval - self.params.rfp_margin * (depth - improving as i32) >= beta
            {
                return (eval + beta) / 2;
            }
            // Null move: if passing still keeps us above beta, a real move will too.
            if P::NULL_MOVE_OK
                && cut_node
                && depth >= self.params.nmp_min_depth
                && ply >= self.nmp_min_ply
                && eval >= beta
                && static_eval >= beta - 20 * depth + 180
                && !is_decisive(beta)
                && self.stack[ply - 1].mv.is_some()
                && self.pos.null_move_sound()
            {
                let r = (self.params.nmp_base
                    + depth / self.params.nmp_depth_div
                    + ((eval - beta) / self.params.nmp_eval_div).min(3))
                .min(depth);
                self.stack[ply].mv = None;
                self.stack[ply].cont = None;
                self.stack[ply].quiet_bucket = None;
                let undo = self.make_null();
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, false);
                self.unmake_null(undo);
                if self.stopped {
                    return 0;
                }
                if v >= beta && !is_decisive(v) {
                    if self.nmp_min_ply > 0 || depth < self.params.nmp_verify_depth {
                        return v;
                    }
                    // Verify at high depth with null moves off for a while (zugzwang guard).
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let w = self.search::<false>(beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
            // ProbCut: a noisy move beating beta by a margin at reduced depth cuts off.
            let pc_beta = beta + self.params.probcut_margin - 50 * improving as i32;
            if depth >= self.params.probcut_depth
                && !is_decisive(beta)
                && !(hit.is_some_and(|h| h.depth >= depth - 3)
                    && tt_score.is_some_and(|s| s < pc_beta))
            {
                let cont = self.cont_prev(ply);
                // Noisy moves only: no quiet history is read, so no threats are needed.
                let mut picker = Picker::quiescence(
                    tt_move.filter(|_| tt_noisy),
                    false,
                    cont,
                    P::ThreatInfo::default(),
                );
                while let Some(m) = picker.next(&self.pos, &self.hist) {
                    if Some(m) == excluded
                        || !self.pos.is_legal(m)
                        || !self.pos.see_ge(m, pc_beta - static_eval)
                    {
                        continue;
                    }
                    self.stack[ply].mv = Some(m);
                    self.stack[ply].cont = Some(self.pos.move_index(m));
                    self.stack[ply].quiet_bucket = None;
                    let undo = self.make(m);
                    let mut v = -self.qsearch::<false>(-pc_beta, -pc_beta + 1, ply + 1, false);
                    if v >= pc_beta {
                        v = -self.search::<false>(
                            -pc_beta,
                            -pc_beta + 1,
                            depth - 4,
                            ply + 1,
                            !cut_node,
                        );
                    }
                    self.unmake(m, undo);
                    if self.stopped {
                        return 0;
                    }
                    if v >= pc_beta {
                        self.tt.store(
                            key,
                            Some(P::pack(m)),
                            score::to_tt(v, ply),
                            raw_eval,
                            depth - 3,
                            Bound::Lower,
                            tt_pv,
                        );
                        return v;
                    }
                }
            }
        }

        // Internal iterative reduction: without a table move this node was not expected to
        // matter; search it a ply shallower.
        if !root && (PV || cut_node) && depth >= self.params.iir_depth && tt_move.is_none() {
            depth -= 1;
        }

        let side = self.pos.side_to_move();
        let cont = self.cont_prev(ply);
        let counter = self.hist.counter(cont[0]);
        // The threats decide each quiet move's butterfly history bucket: computed once, read
        // by the picker, the pruning and the updates below alike.
        let threats = self.pos.threat_info();
        let mut picker = Picker::main(tt_move, self.stack[ply].killers, counter, cont, threats);
        let mut best = -INFINITE;
        let mut best_move: Option<P::Move> = None;
        let mut move_count = 0usize;
        // The quiet moves searched without a cutoff: move, index and threat bucket.
        let mut quiets: ArrayVec<(P::Move, usize, usize), 64> = ArrayVec::new();
        // The noisy moves searched without a cutoff, by `Position::noisy_index`.
        let mut noisies: ArrayVec<usize, 32> = ArrayVec::new();
        let lmp_limit = (self.params.lmp_base + depth * depth) / (2 - improving as i32);
        // Set once late-move or futility pruning has given up on the quiet moves that do not
        // give check.
        let mut quiets_pruned = false;
        let check_info = self.pos.check_info();

        while let Some(m) = picker.next(&self.pos, &self.hist) {
            if Some(m) == excluded {
                continue;
            }
            if root && !self.root_moves[self.pv_idx..].iter().any(|rm| rm.mv == m) {
                continue;
            }
            if !self.pos.is_legal(m) {
                continue;
            }
            move_count += 1;
            let noisy = self.pos.is_noisy(m);
            let gives_check = P::HAS_CHECKS && self.pos.gives_check(&check_info, m);
            // Once the quiet moves that do not check are given up, skip them before their
            // history is read: the picker still yields every quiet (for the checks among
            // them), and those reads would cost more than the moves' own tests.
            if quiets_pruned && !noisy && !gives_check {
                continue;
            }
            let idx = self.pos.move_index(m);
            // A noisy move's capture history index, a quiet move's threat bucket.
            let (nidx, bucket) = if noisy {
                (self.pos.noisy_index(m), 0)
            } else {
                (0, self.pos.threat_bucket(&threats, m))
            };
            let hist_score = if noisy {
                self.hist.noisy(side, nidx)
            } else {
                self.hist.quiet(side, bucket, idx)
                    + self.hist.cont(cont[0], idx)
                    + self.hist.cont(cont[1], idx)
            };
            let base_r = self.reduction(depth, move_count);

            // Shallow-depth pruning of late moves, once a non-losing line is in hand.
            if !root && best > -MATE_IN_MAX_PLY {
                // The depth a late move would be searched at, a quiet move's history moving
                // it as it moves the reduction: a move that often cut off is pruned later.
                let lmr_depth = if noisy {
                    (depth - 1 - base_r).max(0)
                } else {
                    (depth - 1 - base_r + hist_score / self.params.lmr_history_div).max(0)
                };
                if noisy {
                    let gain = self.pos.noisy_value(m);
                    if !in_check
                        && !gives_check
                        && lmr_depth < 7
                        && gain > 0
                        && eval != NO_EVAL
                        && eval
                            + self.params.fp_noisy_base
                            + gain
                            + self.params.fp_noisy_mul * lmr_depth
                            <= alpha
                    {
                        continue;
                    }
                    if !self.pos.see_ge(m, -self.params.see_noisy * depth) {
                        continue;
                    }
                } else if gives_check {
                    // A quiet check is where quiet mates come from: no late-move, history or
                    // futility pruning, and only the exchange test of a noisy move (a checking
                    // sacrifice is pruned only when it loses much, at higher depth).
                    if !self.pos.see_ge(m, -self.params.see_noisy * depth) {
                        continue;
                    }
                } else {
                    // Late-move and futility pruning give up on the remaining quiet moves, but
                    // not on the quiet checks among them: the picker keeps yielding quiets,
                    // and only the checks are searched.
                    if move_count as i32 >= lmp_limit {
                        quiets_pruned = true;
                        picker.unordered_quiets = true;
                        continue;
                    }
                    if lmr_depth < self.params.hist_prune_depth
                        && hist_score < -self.params.hist_prune_margin * depth
                    {
                        continue;
                    }
                    if !in_check
                        && lmr_depth < self.params.fp_depth
                        && eval + self.params.fp_base + self.params.fp_mul * lmr_depth <= alpha
                    {
                        quiets_pruned = true;
                        picker.unordered_quiets = true;
                        continue;
                    }
                    if !self
                        .pos
                        .see_ge(m, -self.params.see_quiet * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                }
            }

            // Singular extension: is the table move the only good one here?
            let mut ext = 0;
            if !root
                && Some(m) == tt_move
                && excluded.is_none()
                && depth >= self.params.se_depth
                && ply < 2 * self.root_depth as usize
            {
                if let (Some(h), Some(s)) = (hit, tt_score) {
                    if h.bound != Bound::Upper && h.depth >= depth - 3 && !is_decisive(s) {
                        let s_beta = s - depth * self.params.se_margin_mul / 16;
                        let s_depth = (depth - 1) / 2;
                        self.stack[ply].excluded = Some(m);
                        let v = self.search::<false>(s_beta - 1, s_beta, s_depth, ply, cut_node);
                        self.stack[ply].excluded = None;
                        if self.stopped {
                            return 0;
                        }
                        if v < s_beta {
                            ext = 1;
                            if !PV
                                && v < s_beta - self.params.se_double_margin
                                && self.stack[ply].double_ext <= 8
                            {
                                ext = 2;
                                self.stack[ply].double_ext += 1;
                            }
                        } else if s_beta >= beta {
                            // Multi-cut: more than one move beats beta.
                            return s_beta;
                        } else if s >= beta || cut_node {
                            // The table move is not singular and the node is expected to
                            // cut off anyway: spend less on it.
                            ext = -1;
                        }
                    }
                }
            }

            self.stack[ply].mv = Some(m);
            self.stack[ply].cont = Some(idx);
            self.stack[ply].quiet_bucket = (!noisy).then_some(bucket);
            if PV {
                self.pv[ply + 1].clear();
            }
            let nodes_before = self.nodes;
            let undo = self.make(m);
            if (gives_check || single_reply) && ext == 0 && ply < 2 * self.root_depth as usize {
                ext = 1;
            }
            let mut new_depth = depth - 1 + ext;

            let mut v;
            if depth >= 2 && move_count > 1 + root as usize && (!noisy || !tt_pv) {
                let mut r = base_r;
                r += !improving as i32;
                r -= tt_pv as i32;
                r += 2 * cut_node as i32;
                r += tt_noisy as i32;
                r -= gives_check as i32;
                r -= picker.is_refutation(m) as i32;
                r -= (PV && !noisy) as i32;
                if self.stack[ply + 1].cutoffs > 3 {
                    r += 1;
                }
                r -= hist_score / self.params.lmr_history_div;
                let d = (new_depth - r).clamp(1, new_depth.max(1) + 1);
                v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
                if v > alpha && d < new_depth {
                    // The reduced search surprised us: research at full depth, a little deeper
                    // when it surprised us a lot.
                    if v > best + 50 + 2 * new_depth {
                        new_depth += 1;
                    } else if v < best + new_depth {
                        new_depth -= 1;
                    }
                    if d < new_depth {
                        v = -self.search::<false>(
                            -alpha - 1,
                            -alpha,
                            new_depth,
                            ply + 1,
                            !cut_node,
                        );
                    }
                    if !noisy {
                        let bonus = if v > alpha {
                            self.history_bonus(depth)
                        } else {
                            -self.history_bonus(depth)
                        };
                        self.hist.update_cont(cont[0], idx, bonus);
                        self.hist.update_cont(cont[1], idx, bonus);
                    }
                }
            } else if !PV || move_count > 1 {
                v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                v = alpha + 1; // forces the full-window search of the first PV move
            }
            if PV && (move_count == 1 || (v > alpha && (root || v < beta))) {
                v = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.unmake(m, undo);
            if self.stopped {
                return 0;
            }

            if root {
                let sel = self.seldepth;
                let spent = self.nodes - nodes_before;
                let child_pv: Vec<P::Move> = self.pv[1].clone();
                let rm = self
                    .root_moves
                    .iter_mut()
                    .find(|rm| rm.mv == m)
                    .expect("root move in list");
                rm.nodes += spent;
                if move_count == 1 || v > alpha {
                    rm.score = v;
                    rm.average = if rm.average == -INFINITE {
                        v
                    } else {
                        (rm.average + v) / 2
                    };
                    rm.seldepth = sel;
                    rm.bound = if v >= beta {
                        ScoreBound::Lower
                    } else if v <= alpha {
                        ScoreBound::Upper
                    } else {
                        ScoreBound::Exact
                    };
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&child_pv);
                } else {
                    rm.score = -INFINITE;
                }
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        self.stack[ply].cutoffs += 1;
                        break;
                    }
                    alpha = v;
                    // A move inside the window has raised alpha: the later moves need only
                    // prove they are no better than it, which a ply less shows nearly as well.
                    if !root
                        && depth > 2
                        && depth < self.params.alpha_raise_depth
                        && !is_decisive(v)
                    {
                        depth -= 1;
                    }
                }
            }
            if Some(m) != best_move {
                if noisy {
                    let _ = noisies.try_push(nidx);
                } else {
                    let _ = quiets.try_push((m, idx, bucket));
                }
            }
        }

        if move_count == 0 {
            if excluded.is_some() {
                return alpha;
            }
            return score::outcome_score(self.pos.no_move_outcome(), ply);
        }

        if best >= beta {
            if let Some(m) = best_move {
                self.update_histories(ply, m, depth, &threats, &quiets, &noisies);
            }
        }

        if excluded.is_none() && !(root && self.pv_idx > 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if PV && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            // Learn how far the static evaluation was off, when the search result says so
            // (a bound on the wrong side of it says nothing) and no capture decided it.
            if static_eval != NO_EVAL
                && !is_decisive(best)
                && best_move.is_none_or(|m| !self.pos.is_noisy(m))
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                let keys = corr_keys.unwrap_or_else(|| self.correction_keys(ply));
                let side = self.pos.side_to_move();
                self.hist
                    .update_correction(side, &keys, best - static_eval, depth);
            }
            self.tt.store(
                key,
                best_move.map(P::pack),
                score::to_tt(best, ply),
                raw_eval,
                depth,
                bound,
                tt_pv,
            );
        }
        best
    }

    fn history_bonus(&self, depth: i32) -> i32 {
        (self.params.hist_bonus_mul * depth - self.params.hist_bonus_sub)
            .clamp(0, self.params.hist_bonus_max)
    }

    fn update_histories(
        &mut self,
        ply: usize,
        best: P::Move,
        depth: i32,
        threats: &P::ThreatInfo,
        quiets: &[(P::Move, usize, usize)],
        noisies: &[usize],
    ) {
        let side = self.pos.side_to_move();
        let bonus = self.history_bonus(depth + 1);
        let cont = self.cont_prev(ply);
        let idx = self.pos.move_index(best);
        if !self.pos.is_noisy(best) {
            let k = &mut self.stack[ply].killers;
            if k[0] != Some(best) {
                k[1] = k[0];
                k[0] = Some(best);
            }
            self.hist.set_counter(cont[0], best);
            let bucket = self.pos.threat_bucket(threats, best);
            self.hist.update_quiet(side, bucket, idx, bonus);
            for &c in &cont {
                self.hist.update_cont(c, idx, bonus);
            }
            for &(_, q, b) in quiets {
                self.hist.update_quiet(side, b, q, -bonus);
                for &c in &cont {
                    self.hist.update_cont(c, q, -bonus);
                }
            }
        } else {
            self.hist
                .update_noisy(side, self.pos.noisy_index(best), bonus);
        }
        for &n in noisies {
            self.hist.update_noisy(side, n, -bonus);
        }
    }

    /// A new best move `m` at `ply`: its line becomes `m` followed by the child's line.
    fn update_pv(&mut self, ply: usize, m: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Quiescence. `horizon` marks a node where the main search ended (or a child of a threat
    /// ply, see below); only there does a quiet threat extend the search, and only there are
    /// quiet checks tried in games that ask for them (`Position::QUIESCENCE_CHECKS`).
    fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        horizon: bool,
    ) -> Score {
        self.nodes += 1;
        if PV {
            self.pv[ply].clear();
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if self.should_stop() {
            return 0;
        }
        if let Some(outcome) = self.pos.rule_outcome(ply) {
            let s = score::outcome_score(outcome, ply);
            return if s == DRAW { self.draw_score() } else { s };
        }
        // A known result (an endgame table) ends quiescence as it ends the main search.
        if ply > 0 {
            if let Some(s) = self.eval.probe(&self.pos) {
                return s;
            }
        }
        let in_check = P::HAS_CHECKS && self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        // No standing pat where the rules force a noisy move (draughts captures), nor at a
        // horizon node where the opponent threatens one: there one ply of quiet moves is
        // searched, whose children are horizon nodes again (as Scan resolves shots).
        let forced = !in_check && self.pos.noisy_forced();
        let threat = horizon && !in_check && !forced && self.pos.quiet_threat();
        let no_stand = in_check || forced || threat;

        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let tt_score = hit
            .filter(|h| h.score != NO_EVAL)
            .map(|h| from_tt(h.score, ply));
        let tt_pv = PV || hit.is_some_and(|h| h.pv);
        if !PV {
            if let (Some(h), Some(s)) = (hit, tt_score) {
                if h.depth >= 0
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    }
                {
                    return s;
                }
            }
        }
        let tt_move = hit.and_then(|h| h.mv).and_then(|b| self.pos.unpack(b));

        let raw_eval;
        let mut best;
        let futility_base;
        if no_stand {
            raw_eval = NO_EVAL;
            best = -INFINITE;
            futility_base = -INFINITE;
        } else {
            raw_eval = match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.evaluate(),
            };
            best = self.corrected(raw_eval, &self.correction_keys(ply));
            if let (Some(h), Some(s)) = (hit, tt_score) {
                if !is_decisive(s)
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => s > best,
                        Bound::Upper => s < best,
                    }
                {
                    best = s;
                }
            }
            if best >= beta {
                if hit.is_none() {
                    self.tt.store(
                        key,
                        None,
                        score::to_tt(best, ply),
                        raw_eval,
                        -1,
                        Bound::Lower,
                        false,
                    );
                }
                return best;
            }
            alpha = alpha.max(best);
            futility_base = best + self.params.qs_futility;
        }

        let cont = self.cont_prev(ply);
        // Only a node that does not stand pat orders quiet moves (evasions), by quiet history.
        let threats = if no_stand {
            self.pos.threat_info()
        } else {
            P::ThreatInfo::default()
        };
        let mut picker = Picker::quiescence(tt_move, no_stand, cont, threats);
        let mut best_move = None;
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.pos, &self.hist) {
            if !self.pos.is_legal(m) {
                continue;
            }
            move_count += 1;
            let noisy = self.pos.is_noisy(m);
            if best > -MATE_IN_MAX_PLY {
                if !no_stand {
                    let gain = self.pos.noisy_value(m);
                    if gain > 0 && futility_base + gain <= alpha {
                        best = best.max(futility_base + gain);
                        continue;
                    }
                    if !self.pos.see_ge(m, 0) {
                        continue;
                    }
                } else if in_check && !noisy && move_count > 3 {
                    // In check with a defence already found: skip late quiet evasions.
                    continue;
                }
            }
            self.stack[ply].mv = Some(m);
            self.stack[ply].cont = Some(self.pos.move_index(m));
            self.stack[ply].quiet_bucket = None;
            let undo = self.make(m);
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, threat);
            self.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }

        // Quiet checks (games where mates come through checks that capture nothing): only at
        // a horizon node that stood pat, only without a cutoff yet, and only checks that do
        // not hang the checking piece. Their replies are searched as ordinary quiescence.
        if P::QUIESCENCE_CHECKS && horizon && !no_stand && best < beta {
            let mut quiets = MoveList::new();
            self.pos.generate(GenKind::Quiet, &mut quiets);
            let check_info = self.pos.check_info();
            for &m in quiets.iter() {
                // The check test first: it is the cheaper one, and most quiet moves fail it.
                if !self.pos.gives_check(&check_info, m)
                    || !self.pos.is_legal(m)
                    || !self.pos.see_ge(m, 0)
                {
                    continue;
                }
                self.stack[ply].mv = Some(m);
                self.stack[ply].cont = Some(self.pos.move_index(m));
                self.stack[ply].quiet_bucket = None;
                let undo = self.make(m);
                let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, false);
                self.unmake(m, undo);
                if self.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v > alpha {
                        best_move = Some(m);
                        if PV {
                            self.update_pv(ply, m);
                        }
                        if v >= beta {
                            break;
                        }
                        alpha = v;
                    }
                }
            }
        }

        if no_stand && move_count == 0 {
            return score::outcome_score(self.pos.no_move_outcome(), ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map(P::pack),
            score::to_tt(best, ply),
            raw_eval,
            0,
            bound,
            tt_pv,
        );
        best
    }
}

#[cfg(test)]
mod skip_tests {
    use super::skips;

    #[test]
    fn helpers_spread_over_the_depths() {
        // The first helper takes every other depth, the second the others.
        for d in 2..30 {
            assert_ne!(skips(1, d), skips(2, d), "depth {d}");
        }
        // Helpers 3 to 6 skip in blocks of two at four phases: at every depth two of them
        // search.
        for d in 2..30 {
            let searching = (3..=6).filter(|&id| !skips(id, d)).count();
            assert_eq!(searching, 2, "depth {d}");
        }
        // No helper skips two blocks in a row for ever: each searches some depth in any
        // window of eight.
        for id in 1..=40 {
            for start in 2..20 {
                assert!((start..start + 8).any(|d| !skips(id, d)), "helper {id}");
            }
        }
    }
}
