//! Monte-Carlo tree search over [`MctsState`] (Go), tree-parallel with virtual loss.
//!
//! Scheme: UCT with RAVE. Each simulation copies the root state, walks down the tree picking
//! the child with the best blend of its own mean and its AMAF (all-moves-as-first) mean, with
//! the AMAF weight `beta = n_amaf / (n_amaf + n + n * n_amaf / rave_equiv)` fading as real
//! visits accumulate, plus a small UCB exploration term. A child's real statistics start from
//! the game's prior knowledge as equivalent experience. A leaf is expanded once it has been
//! visited `expand_visits` times (more as the arena fills); then the game's playout policy
//! plays the game out, and the result (and score margin) is backed up along the path, with
//! AMAF credit to every sibling whose move the same player played first later in the
//! simulation, weighted toward moves played soon after the node (`amaf_distance`).
//!
//! Node statistics live in [`tree`]; nodes are about 64 bytes.
//!
//! Threads share one [`tree::Tree`]. The first search thread is the caller's; the others are
//! helpers of a [`pool`] that the search keeps from one search to the next, parked in between
//! (no thread is started per search). A thread counts its visit on every node of its path on
//! the way down, before the result is known: that is the virtual loss, which steers the other
//! threads to other lines. The first thread also keeps time, decides when to stop, and calls
//! the progress reporter. A panic in any search thread ends the search for all of them and is
//! raised again in the caller once every helper has let go of the tree.
//!
//! Time: the caller passes a [`TimeBudget`] (`crate::time`); the search stops at the optimum
//! when the most visited move is also the best by value, otherwise it goes on, at most to the
//! maximum. It stops early when the second move cannot catch the first in the playouts left.
//! The final ownership of every cell, averaged over the playouts, is kept for the game to
//! judge dead stones and to report.
//!
//! The tree survives between searches: [`Mcts::advance`] keeps the subtree of a move played.
//!
//! Reports at another margin ([`PlayoutLimits::report_offset`], Go's dynamic komi): the tree
//! searches by one result while the reports must give another, the real game's. Each playout
//! through a root move is then also judged by its final margin plus the offset, in counters
//! kept per root move for this search only, and the snapshot's winrates and scores are those;
//! the tree's own means stay in [`MoveStats::search_winrate`] for the caller's decisions.

mod pool;
pub mod skill;
#[cfg(test)]
mod tests;
pub mod tree;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::game::{MctsState, Prior, Side};
use crate::time::TimeBudget;
use tree::{Tree, AMAF_ONE, ONE, SCORE_ONE};

/// Playouts between two tests of the stop conditions by the first thread (a 19x19 playout
/// takes about half a millisecond, so time limits are still checked often enough).
const STOP_CHECK_EVERY: u64 = 4;

/// Search parameters.
#[derive(Clone, Debug)]
pub struct Config {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Arena size in nodes (about 64 bytes each).
    pub max_nodes: usize,
    /// Visits a leaf needs before it is expanded.
    pub expand_visits: u32,
    /// RAVE: the number of visits at which the AMAF and real means weigh the same.
    pub rave_equiv: f32,
    /// UCB exploration coefficient.
    pub explore: f32,
    /// Whether the prior counts in the AMAF statistics as well as in the real ones.
    pub prior_in_amaf: bool,
    /// Extra AMAF weight of a move played right after a node, fading linearly to none at the
    /// end of the simulation (0: every AMAF credit weighs the same).
    pub amaf_distance: f32,
    /// Seed of the playout random numbers (per thread and search).
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            max_nodes: 1 << 21,
            expand_visits: 2,
            rave_equiv: 3000.0,
            explore: 0.05,
            amaf_distance: 3.0,
            prior_in_amaf: false,
            seed: 0x7e7a_5c4a,
        }
    }
}

/// What to search for.
#[derive(Clone, Debug, Default)]
pub struct PlayoutLimits {
    /// New playouts in this search (all threads together).
    pub playouts: Option<u64>,
    /// Visits of the root, counting those a reused tree brings.
    pub visits: Option<u64>,
    /// The time budget.
    pub time: Option<TimeBudget>,
    /// Whether the search may stop before its limits when the choice cannot change.
    pub early_stop: bool,
    /// Interval of progress reports.
    pub report_every: Option<Duration>,
    /// When set, only root moves whose index is marked true are searched.
    pub root_filter: Option<Vec<bool>>,
    /// When set, the snapshots judge the root moves by the final margin plus this offset, for
    /// the player to move at the root, instead of by the results the tree searches with: a
    /// playout is won above zero, drawn at zero. Their winrates and lcbs count this search's
    /// playouts through a move (a move with none, only visits of a reused tree, keeps the
    /// tree's); their scores are the tree's plus the offset. For games whose result is the
    /// sign of the margin (Go: the tree plays for a dynamic komi, the reports give the real
    /// one). `None` leaves every number the tree's, and the search exactly as without it.
    pub report_offset: Option<f32>,
}

/// Statistics of one root move.
#[derive(Clone, Debug)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u32,
    /// Mean result for the player to move at the root, in [0, 1].
    pub winrate: f32,
    /// The tree's mean result, which the search compares moves by: the winrate, unless the
    /// search reported at an offset ([`PlayoutLimits::report_offset`]).
    pub search_winrate: f32,
    /// A lower confidence bound of the winrate.
    pub lcb: f32,
    /// The prior as a probability over the root moves.
    pub prior: f32,
    /// Mean final margin for the player to move at the root.
    pub score: f32,
    /// Standard deviation of the final margin.
    pub score_stdev: f32,
    /// Principal variation starting with this move.
    pub pv: Vec<M>,
}

/// The state of a search, for reports and for choosing a move.
#[derive(Clone, Debug)]
pub struct Snapshot<M> {
    /// Root moves with at least one visit, most visited first.
    pub moves: Vec<MoveStats<M>>,
    /// Visits of the root (reused ones included).
    pub root_visits: u64,
    /// Winrate of the player to move (of the most visited move), 0.5 when nothing is known.
    pub winrate: f32,
    /// Mean margin of the player to move.
    pub score: f32,
    /// Playouts of this search.
    pub playouts: u64,
    pub elapsed: Duration,
    /// Per cell, `(first - second) / playouts`: +1 owned by the first player in every playout.
    pub ownership: Vec<f32>,
    /// Per cell, the fraction of playouts in which nobody owned it.
    pub neutral: Vec<f32>,
    /// The root move the prior knowledge likes best (for answering without a search).
    pub prior_best: Option<M>,
}

impl<M: Copy> Snapshot<M> {
    /// The most visited move.
    pub fn best(&self) -> Option<M> {
        self.moves.first().map(|m| m.mv)
    }
}

/// The weight of a root move's prior value (a winrate in [0, 1]) in the prior shares the
/// search reports: the fourth power sharpens the values, which lie close together, into
/// something like a move probability.
pub fn prior_weight(value: f32) -> f32 {
    value.clamp(0.0, 1.0).powi(4)
}

/// Per-thread scratch, allocated once per search.
struct Worker<S: MctsState> {
    state: S,
    rng: SmallRng,
    path: Vec<(u32, Side)>,
    tree_moves: Vec<(Side, u32)>,
    trace: Vec<(Side, u32)>,
    priors: Vec<Prior<S::Move>>,
    children: Vec<(u16, f32, f32)>,
    first_player: Vec<u8>,
    first_at: Vec<u32>,
}

impl<S: MctsState> Worker<S> {
    /// The state's priors from `source` (`expand` or `refine`), as the tree's children
    /// entries (move index, prior visits, prior value) in `self.children`.
    fn gather_priors(&mut self, source: fn(&S, &mut Vec<Prior<S::Move>>)) {
        self.priors.clear();
        source(&self.state, &mut self.priors);
        self.children.clear();
        for p in &self.priors {
            self.children.push((
                self.state.move_index(p.mv) as u16,
                p.visits,
                p.value.clamp(0.0, 1.0),
            ));
        }
    }
}

/// What every search thread reads and writes: the tree and the ownership counts.
struct Shared {
    tree: Tree,
    /// Per cell and side: playouts that ended with the cell owned by that side.
    owner: Vec<AtomicU32>,
    owner_playouts: AtomicU64,
    /// This search's [`PlayoutLimits::report_offset`].
    report_offset: Option<f32>,
    /// With a report offset, per root move index: this search's playouts through the move
    /// judged at the offset (empty otherwise).
    judged: Vec<Judged>,
}

/// Playouts through a root move judged at the report offset.
#[derive(Default)]
struct Judged {
    /// Results in half points: 2 a win, 1 a draw.
    halves: AtomicU32,
    playouts: AtomicU32,
}

/// The search and its tree.
pub struct Mcts<S: MctsState> {
    pub config: Config,
    /// Shared with the helper threads during a search only; the search owns it alone between
    /// searches.
    shared: Arc<Shared>,
    root_key: Option<u64>,
    searches: u64,
    pool: pool::Pool<S>,
    /// Tests: the search thread of this index panics in its next simulation.
    #[cfg(test)]
    pub(crate) panic_in_thread: Option<usize>,
}

impl<S: MctsState> Mcts<S> {
    pub fn new(config: Config) -> Mcts<S> {
        Mcts {
            shared: Arc::new(Shared::new(config.max_nodes)),
            config,
            root_key: None,
            searches: 0,
            pool: pool::Pool::default(),
            #[cfg(test)]
            panic_in_thread: None,
        }
    }

    /// The tree and counts, outside a search (no helper holds them then).
    fn shared_mut(&mut self) -> &mut Shared {
        Arc::get_mut(&mut self.shared).expect("no search thread holds the tree between searches")
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.shared_mut().tree.clear();
        self.root_key = None;
    }

    /// After a search panicked: a consistent empty tree again (a node may have been left half
    /// expanded). A new arena if anything still held the old one.
    pub fn recover(&mut self) {
        if Arc::get_mut(&mut self.shared).is_none() {
            self.shared = Arc::new(Shared::new(self.config.max_nodes));
        }
        self.clear();
    }

    /// Changes the arena size (clears the tree).
    pub fn set_max_nodes(&mut self, nodes: usize) {
        self.config.max_nodes = nodes;
        self.shared_mut().tree = Tree::new(nodes);
        self.root_key = None;
    }

    /// The tree's nodes in use.
    pub fn tree_size(&self) -> usize {
        self.shared.tree.len()
    }

    /// Visits of the current root.
    pub fn root_visits(&self) -> u64 {
        self.shared.tree.root().visits.load(Ordering::Relaxed) as u64
    }

    /// Helper threads alive (parked between searches): the last search's threads but one.
    pub fn helper_threads(&self) -> usize {
        self.pool.len()
    }

    /// Helper threads started so far (each lives on across searches).
    pub fn helper_threads_started(&self) -> usize {
        self.pool.started()
    }

    /// The move `m` is played from `before`: keep its subtree as the new tree if the tree
    /// belongs to `before`, else start afresh.
    pub fn advance(&mut self, before: &S, m: S::Move) {
        if self.root_key == Some(before.key())
            && self.shared_mut().tree.reroot(before.move_index(m))
        {
            let mut after = before.clone();
            after.play(m);
            self.root_key = Some(after.key());
        } else {
            self.clear();
        }
    }

    /// Searches `root` until a limit is reached or `stop` is set, reporting progress through
    /// `report` (called from the first search thread), and returns the final snapshot.
    pub fn search(
        &mut self,
        root: &S,
        limits: &PlayoutLimits,
        stop: &AtomicBool,
        report: &mut (dyn FnMut(&Snapshot<S::Move>) + Send),
    ) -> Snapshot<S::Move> {
        let key = root.key();
        if self.root_key != Some(key) {
            self.shared_mut().tree.clear();
            self.root_key = Some(key);
        }
        let cells = root.cells();
        let shared = self.shared_mut();
        shared.owner = (0..cells * 2).map(|_| AtomicU32::new(0)).collect();
        shared.owner_playouts.store(0, Ordering::Relaxed);
        shared.report_offset = limits.report_offset;
        shared.judged = match limits.report_offset {
            Some(_) => (0..root.move_index_space())
                .map(|_| Judged::default())
                .collect(),
            None => Vec::new(),
        };
        self.searches += 1;

        let start = Instant::now();
        let threads = self.config.threads.max(1);
        let seed = self.config.seed ^ self.searches.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let progress = Arc::new(pool::Progress::default());
        if self.pool.len() != threads - 1 {
            self.pool.resize(threads - 1);
        }
        let mut round = RoundGuard {
            pool: &self.pool,
            progress: &progress,
            helpers: 0,
        };
        if threads > 1 {
            let root = Arc::new(root.clone());
            let root_filter: Option<Arc<[bool]>> = limits.root_filter.as_deref().map(Arc::from);
            round.helpers = self.pool.start((1..threads).map(|t| pool::Round {
                shared: self.shared.clone(),
                root: root.clone(),
                root_filter: root_filter.clone(),
                config: self.config.clone(),
                seed: seed.wrapping_add(t as u64),
                progress: progress.clone(),
                #[cfg(test)]
                panic: self.panic_in_thread == Some(t),
            }));
        }
        // The first thread searches too, and keeps time.
        let this = &*self;
        let shared = &*this.shared;
        let mut w = Worker::new(root, seed);
        let mut next_report = limits.report_every.map(|d| start + d);
        let filter = limits.root_filter.as_deref();
        loop {
            if progress.done.load(Ordering::Relaxed) {
                break;
            }
            #[cfg(test)]
            assert!(
                this.panic_in_thread != Some(0),
                "a test's panic in the search"
            );
            shared.simulate(&this.config, &mut w, root, filter);
            let n = progress.playouts.fetch_add(1, Ordering::Relaxed) + 1;
            // One simulation even when stopped at once: it expands the root, so a move cut
            // short still has the prior's choice.
            if stop.load(Ordering::Relaxed) || limits.playouts.is_some_and(|l| n >= l) {
                break;
            }
            // The stop test runs every few playouts, counted rather than timed: a search
            // bounded by playouts then stops at the same count on an idle or a loaded machine,
            // so a fixed-playout, seeded game replays move for move.
            let now = Instant::now();
            if n % STOP_CHECK_EVERY == 0 && this.should_stop(limits, start, n) {
                break;
            }
            if let Some(t) = next_report {
                if now >= t {
                    report(&this.snapshot(root, n, start.elapsed()));
                    next_report = Some(now + limits.report_every.unwrap());
                }
            }
        }
        // Every thread has finished its last simulation: the statistics are complete.
        assert!(round.finish(), "a search thread panicked");
        self.snapshot(
            root,
            progress.playouts.load(Ordering::Relaxed),
            start.elapsed(),
        )
    }
}

impl<S: MctsState> Worker<S> {
    fn new(root: &S, seed: u64) -> Worker<S> {
        Worker {
            state: root.clone(),
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::with_capacity(256),
            tree_moves: Vec::with_capacity(256),
            trace: Vec::with_capacity(2048),
            priors: Vec::with_capacity(root.move_index_space()),
            children: Vec::with_capacity(root.move_index_space()),
            first_player: vec![0; root.move_index_space()],
            first_at: vec![0; root.move_index_space()],
        }
    }
}

/// The helpers of one search, from the start of the search to the moment they all let go of
/// the tree. Dropping it (also while a panic unwinds the first thread) ends the search for the
/// helpers and waits for them.
struct RoundGuard<'a, S: MctsState> {
    pool: &'a pool::Pool<S>,
    progress: &'a pool::Progress,
    helpers: usize,
}

impl<S: MctsState> RoundGuard<'_, S> {
    /// Ends the helpers' search and waits for them; whether they all ended normally.
    fn finish(&mut self) -> bool {
        self.progress.done.store(true, Ordering::Relaxed);
        let helpers = std::mem::take(&mut self.helpers);
        helpers == 0 || self.pool.finish(helpers)
    }
}

impl<S: MctsState> Drop for RoundGuard<'_, S> {
    fn drop(&mut self) {
        if self.helpers > 0 {
            self.finish();
        }
    }
}

impl Shared {
    fn new(nodes: usize) -> Shared {
        Shared {
            tree: Tree::new(nodes),
            owner: Vec::new(),
            owner_playouts: AtomicU64::new(0),
            report_offset: None,
            judged: Vec::new(),
        }
    }

    /// One simulation: descend, expand, play out, back up.
    fn simulate<S: MctsState>(
        &self,
        config: &Config,
        w: &mut Worker<S>,
        root: &S,
        root_filter: Option<&[bool]>,
    ) {
        let tree = &self.tree;
        w.state.clone_from(root);
        w.path.clear();
        w.tree_moves.clear();
        let mut node = 0usize;
        let mut mover = root.to_move().flip();
        let refine_at = match root.refine_visits() {
            0 => u32::MAX,
            v => v,
        };
        loop {
            let n = tree.node(node);
            let seen = n.visits.fetch_add(1, Ordering::Relaxed) + 1;
            w.path.push((node as u32, mover));
            // One thread sees each count, so a busy node is refined once.
            if seen == refine_at && n.is_expanded() {
                w.gather_priors(S::refine);
                tree.set_priors(node, &w.children);
            }
            if !n.is_expanded() {
                if w.state.is_over() || tree.is_full() || !tree.is_leaf(node) {
                    break;
                }
                let visits = n.visits.load(Ordering::Relaxed);
                if node != 0 && visits < self.expand_threshold(config) {
                    break;
                }
                w.gather_priors(S::expand);
                if w.children.is_empty() || !tree.expand(node, &w.children) {
                    break;
                }
            }
            let filter = if node == 0 { root_filter } else { None };
            let Some(child) = self.select(config, node, filter) else {
                break;
            };
            let m = w.state.index_move(tree.node(child).move_index());
            mover = w.state.to_move();
            w.state.play(m);
            if w.state.amaf_eligible(m) {
                w.tree_moves
                    .push((mover, tree.node(child).move_index() as u32));
            }
            node = child;
        }

        let leaf_side = w.state.to_move();
        w.trace.clear();
        let end = w.state.playout(&mut w.rng, &mut w.trace);

        // Ownership of the final position.
        let cells = w.state.cells();
        if cells > 0 && self.owner.len() == cells * 2 {
            for c in 0..cells {
                if let Some(s) = w.state.cell_owner(c) {
                    self.owner[c * 2 + s.index()].fetch_add(1, Ordering::Relaxed);
                }
            }
            self.owner_playouts.fetch_add(1, Ordering::Relaxed);
        }

        // Back up the result along the path.
        for &(idx, mv_side) in &w.path {
            let n = tree.node(idx as usize);
            let (v, s) = if mv_side == leaf_side {
                (end.value, end.score)
            } else {
                (1.0 - end.value, -end.score)
            };
            n.value
                .fetch_add((v as f64 * ONE) as u64, Ordering::Relaxed);
            n.score
                .fetch_add((s as f64 * SCORE_ONE) as i64, Ordering::Relaxed);
            n.score_sq
                .fetch_add((s as f64 * s as f64 * SCORE_ONE) as u64, Ordering::Relaxed);
        }
        // The root move's result at the report offset (the second path entry is the root
        // move, played by the root player).
        if let (Some(offset), Some(&(child, root_player))) = (self.report_offset, w.path.get(1)) {
            let margin = if root_player == leaf_side {
                end.score
            } else {
                -end.score
            } + offset;
            let halves = match margin.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => 2,
                Some(std::cmp::Ordering::Less) => 0,
                _ => 1,
            };
            if let Some(j) = self.judged.get(tree.node(child as usize).move_index()) {
                j.halves.fetch_add(halves, Ordering::Relaxed);
                j.playouts.fetch_add(1, Ordering::Relaxed);
            }
        }

        // AMAF: the first player of every move after each node, credited to the siblings.
        // Positions in the sequence: the tree move into node d + 1 is at d, the playout's
        // moves follow the tree's. A credit weighs `1 + amaf_distance` for the move right
        // after the node, falling linearly to 1 at the end of the playout: moves far ahead
        // say less about playing now.
        let depth = w.path.len();
        let total = (depth - 1 + w.trace.len()) as f32;
        for (i, &(side, mv)) in w.trace.iter().enumerate().rev() {
            w.first_player[mv as usize] = 1 + side.index() as u8;
            w.first_at[mv as usize] = (depth - 1 + i) as u32;
        }
        let k = config.amaf_distance;
        for d in (0..depth).rev() {
            if d + 1 < depth {
                // The tree move from node d to node d + 1 (recorded only when AMAF-eligible).
                let (child, side) = w.path[d + 1];
                let mv = tree.node(child as usize).move_index();
                if w.state.amaf_eligible(w.state.index_move(mv)) {
                    w.first_player[mv] = 1 + side.index() as u8;
                    w.first_at[mv] = d as u32;
                }
            }
            let (idx, _) = w.path[d];
            let Some(children) = tree.node(idx as usize).children() else {
                continue;
            };
            // The player to move at node d is the mover of its children.
            let side = if d + 1 < depth {
                w.path[d + 1].1
            } else {
                leaf_side
            };
            let tag = 1 + side.index() as u8;
            let v = if side == leaf_side {
                end.value
            } else {
                1.0 - end.value
            };
            let span = (total - d as f32).max(1.0);
            for c in children {
                let cn = tree.node(c);
                let mv = cn.move_index();
                if w.first_player[mv] == tag {
                    let weight = 1.0 + k * (1.0 - (w.first_at[mv] as f32 - d as f32) / span);
                    let units = ((weight * AMAF_ONE as f32) as u32).max(1);
                    cn.amaf_visits.fetch_add(units, Ordering::Relaxed);
                    cn.amaf_value
                        .fetch_add((v as f64 * weight as f64 * ONE) as u64, Ordering::Relaxed);
                }
            }
        }
        for &(_, mv) in &w.trace {
            w.first_player[mv as usize] = 0;
        }
        for &(_, mv) in &w.tree_moves {
            w.first_player[mv as usize] = 0;
        }
    }

    /// Visits a leaf needs before expansion: `expand_visits` while the arena is less than
    /// half full, then rising to 16 times that as it fills, so a long search (analysis,
    /// pondering) keeps growing the tree where it matters instead of stopping dead when full.
    #[inline]
    fn expand_threshold(&self, config: &Config) -> u32 {
        let base = config.expand_visits.max(1);
        let fill = self.tree.len() as f32 / self.tree.capacity() as f32;
        if fill <= 0.5 {
            base
        } else {
            (base as f32 * (1.0 + 30.0 * (fill - 0.5))) as u32
        }
    }

    /// The child of `node` with the best RAVE-UCB value.
    fn select(&self, config: &Config, node: usize, filter: Option<&[bool]>) -> Option<usize> {
        let tree = &self.tree;
        let parent = tree.node(node);
        let children = parent.children()?;
        let parent_visits = parent.visits.load(Ordering::Relaxed) as f32;
        let log_n = (parent_visits + 1.0).ln();
        let equiv = config.rave_equiv;
        let explore = config.explore;
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        let allowed = |mv: usize| filter.is_none_or(|f| f.get(mv).copied().unwrap_or(false));
        let any_allowed =
            filter.is_none() || children.clone().any(|c| allowed(tree.node(c).move_index()));
        for c in children {
            let n = tree.node(c);
            if any_allowed && !allowed(n.move_index()) {
                continue;
            }
            let visits = n.visits.load(Ordering::Relaxed) as f32;
            let wins = (n.value.load(Ordering::Relaxed) as f64 / ONE) as f32;
            let (pv, pw) = n.prior();
            let nn = visits + pv;
            let ww = wins + pv * pw;
            let mean = if nn > 0.0 { ww / nn } else { 0.5 };
            // With `prior_in_amaf` the prior counts as experience in the AMAF statistics
            // too, so it keeps its weight while AMAF dominates a young node.
            let (apv, apw) = if config.prior_in_amaf {
                (pv, pv * pw)
            } else {
                (0.0, 0.0)
            };
            let an = n.amaf_visits.load(Ordering::Relaxed) as f32 / AMAF_ONE as f32 + apv;
            let aw = (n.amaf_value.load(Ordering::Relaxed) as f64 / ONE) as f32 + apw;
            let value = if an > 0.0 {
                let beta = an / (an + nn + an * nn / equiv);
                (1.0 - beta) * mean + beta * (aw / an)
            } else {
                mean
            };
            let v = value + explore * (log_n / (nn + 1.0)).sqrt();
            if v > best_value {
                best_value = v;
                best = Some(c);
            }
        }
        best
    }
}

impl<S: MctsState> Mcts<S> {
    /// Whether the first thread should end the search now.
    fn should_stop(&self, limits: &PlayoutLimits, start: Instant, playouts: u64) -> bool {
        let root = self.shared.tree.root();
        if limits
            .visits
            .is_some_and(|v| root.visits.load(Ordering::Relaxed) as u64 >= v)
        {
            return true;
        }
        let (first, second, best_by_value) = self.top_two();
        let elapsed = start.elapsed().as_millis() as u64;
        // Playouts still to come before the search would stop anyway.
        let mut remaining: Option<u64> = limits.playouts.map(|l| l.saturating_sub(playouts));
        if let Some(t) = limits.time {
            if elapsed >= t.maximum_ms {
                return true;
            }
            if elapsed >= t.optimum_ms && best_by_value {
                return true;
            }
            if elapsed > 20 {
                let rate = playouts as f64 / elapsed as f64;
                let left = (t.optimum_ms.max(elapsed) - elapsed) as f64 * rate;
                let left = if best_by_value {
                    left
                } else {
                    (t.maximum_ms - elapsed) as f64 * rate
                };
                remaining = Some(remaining.map_or(left as u64, |r| r.min(left as u64)));
            }
        }
        if limits.early_stop {
            if let Some(r) = remaining {
                if first > second + r && playouts >= 50 {
                    return true;
                }
            }
        }
        false
    }

    /// Visits of the two most visited root moves, and whether the most visited also has the
    /// best mean among moves with a tenth of its visits.
    fn top_two(&self) -> (u64, u64, bool) {
        let Some(children) = self.shared.tree.root().children() else {
            return (0, 0, true);
        };
        let (mut first, mut second) = (0u64, 0u64);
        let mut first_idx = usize::MAX;
        for c in children.clone() {
            let v = self.shared.tree.node(c).visits.load(Ordering::Relaxed) as u64;
            if v > first {
                second = first;
                first = v;
                first_idx = c;
            } else if v > second {
                second = v;
            }
        }
        if first_idx == usize::MAX {
            return (0, 0, true);
        }
        let best_mean = self.shared.tree.node(first_idx).mean().unwrap_or(0.0);
        let by_value = children.into_iter().all(|c| {
            let n = self.shared.tree.node(c);
            let v = n.visits.load(Ordering::Relaxed) as u64;
            c == first_idx || v * 10 < first || n.mean().unwrap_or(0.0) <= best_mean
        });
        (first, second, by_value)
    }

    /// The current statistics of the root.
    pub fn snapshot(&self, root: &S, playouts: u64, elapsed: Duration) -> Snapshot<S::Move> {
        let tree = &self.shared.tree;
        let mut moves = Vec::new();
        let mut prior_best = None;
        if let Some(children) = tree.root().children() {
            prior_best = children
                .clone()
                .max_by(|&a, &b| {
                    let (pa, pb) = (tree.node(a).prior(), tree.node(b).prior());
                    (pa.1 * pa.0.min(1.0))
                        .partial_cmp(&(pb.1 * pb.0.min(1.0)))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .map(|c| root.index_move(tree.node(c).move_index()));
            let weights: Vec<f32> = children
                .clone()
                .map(|c| prior_weight(tree.node(c).prior().1))
                .collect();
            let total: f32 = weights.iter().sum::<f32>().max(1e-9);
            for (i, c) in children.enumerate() {
                let n = tree.node(c);
                let visits = n.visits.load(Ordering::Relaxed);
                if visits == 0 {
                    continue;
                }
                let search_mean = n.mean().unwrap_or(0.5) as f32;
                let score = n.score.load(Ordering::Relaxed) as f64 / SCORE_ONE / visits as f64;
                let sq = n.score_sq.load(Ordering::Relaxed) as f64 / SCORE_ONE / visits as f64;
                let score_stdev = (sq - score * score).max(0.0).sqrt() as f32;
                let mut score = score as f32;
                // The winrate reported, and the playouts behind it.
                let (mut mean, mut count) = (search_mean, visits);
                if let Some(offset) = self.shared.report_offset {
                    score += offset;
                    if let Some(j) = self.shared.judged.get(n.move_index()) {
                        let playouts = j.playouts.load(Ordering::Relaxed);
                        if playouts > 0 {
                            mean = j.halves.load(Ordering::Relaxed) as f32 / 2.0 / playouts as f32;
                            count = playouts;
                        }
                    }
                }
                let sd = (mean * (1.0 - mean) / count as f32).sqrt();
                let mv = root.index_move(n.move_index());
                let mut pv = vec![mv];
                let mut cur = c;
                while pv.len() < 16 {
                    let Some(next) = self.most_visited(cur) else {
                        break;
                    };
                    pv.push(root.index_move(tree.node(next).move_index()));
                    cur = next;
                }
                moves.push(MoveStats {
                    mv,
                    visits,
                    winrate: mean,
                    search_winrate: search_mean,
                    lcb: (mean - 1.96 * sd).max(0.0),
                    prior: weights[i] / total,
                    score,
                    score_stdev,
                    pv,
                });
            }
        }
        moves.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(
                b.winrate
                    .partial_cmp(&a.winrate)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
        });
        let total = self.shared.owner_playouts.load(Ordering::Relaxed).max(1) as f32;
        let ownership = self
            .shared
            .owner
            .chunks(2)
            .map(|c| {
                (c[0].load(Ordering::Relaxed) as f32 - c[1].load(Ordering::Relaxed) as f32) / total
            })
            .collect();
        let neutral = self
            .shared
            .owner
            .chunks(2)
            .map(|c| {
                let owned =
                    c[0].load(Ordering::Relaxed) as f32 + c[1].load(Ordering::Relaxed) as f32;
                (1.0 - owned / total).max(0.0)
            })
            .collect();
        let (winrate, score) = moves.first().map_or((0.5, 0.0), |m| (m.winrate, m.score));
        Snapshot {
            moves,
            root_visits: tree.root().visits.load(Ordering::Relaxed) as u64,
            winrate,
            score,
            playouts,
            elapsed,
            ownership,
            neutral,
            prior_best,
        }
    }

    /// The most visited child of `node` with at least one visit.
    fn most_visited(&self, node: usize) -> Option<usize> {
        let children = self.shared.tree.node(node).children()?;
        children
            .filter(|&c| self.shared.tree.node(c).visits.load(Ordering::Relaxed) > 0)
            .max_by_key(|&c| self.shared.tree.node(c).visits.load(Ordering::Relaxed))
    }
}
