//! The search tree: one arena of nodes with atomic statistics, shared by all search threads.
//!
//! Scheme: nodes live in a preallocated array and are never freed during a search; the
//! children of a node are one contiguous block, reserved with a single `fetch_add` on the
//! arena's top. A node is expanded by the one thread that moves its state from `LEAF` to
//! `EXPANDING`; it writes the children, then publishes them with a release store of
//! `EXPANDED`, which readers load with acquire. Statistics are relaxed atomics: visits, the sum
//! of results (fixed point), the AMAF visits and sum, and the sum and sum of squares of score
//! margins. Every
//! statistic is from the view of the player who made the move leading to the node. When the
//! arena is full, no more nodes are made and the search goes on with playouts from the leaves.
//!
//! Between moves the subtree of the move played is copied to the front of the arena
//! ([`Tree::reroot`]): the tree is reused and everything else is freed.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// Fixed-point scale of result sums: a result of 1.0 adds `ONE`.
pub const ONE: f64 = (1u64 << 20) as f64;
/// Fixed-point scale of AMAF visit counts (AMAF credits may be weighted).
pub const AMAF_ONE: u32 = 16;
/// Fixed-point scale of score sums.
pub const SCORE_ONE: f64 = 16.0;

const LEAF: u32 = 0;
const EXPANDING: u32 = 1;
const EXPANDED: u32 = 2;

/// One node: the move into it, its prior, its statistics and its children.
#[derive(Default)]
pub struct Node {
    pub visits: AtomicU32,
    pub amaf_visits: AtomicU32,
    pub value: AtomicU64,
    pub amaf_value: AtomicU64,
    pub score: AtomicI64,
    pub score_sq: AtomicU64,
    first_child: AtomicU32,
    /// Bits 0..16: the move index; bits 16..32: the number of children.
    info: AtomicU32,
    prior_visits: AtomicU32,
    prior_value: AtomicU32,
    state: AtomicU32,
}

/// A plain copy of a node, for rerooting.
#[derive(Clone, Copy)]
struct NodeData {
    visits: u32,
    amaf_visits: u32,
    value: u64,
    amaf_value: u64,
    score: i64,
    score_sq: u64,
    first_child: u32,
    info: u32,
    prior_visits: u32,
    prior_value: u32,
    state: u32,
}

impl Node {
    #[inline]
    pub fn move_index(&self) -> usize {
        (self.info.load(Ordering::Relaxed) & 0xffff) as usize
    }

    #[inline]
    pub fn prior(&self) -> (f32, f32) {
        (
            f32::from_bits(self.prior_visits.load(Ordering::Relaxed)),
            f32::from_bits(self.prior_value.load(Ordering::Relaxed)),
        )
    }

    /// The children as a range of node indices, once the node is expanded.
    #[inline]
    pub fn children(&self) -> Option<std::ops::Range<usize>> {
        if self.state.load(Ordering::Acquire) != EXPANDED {
            return None;
        }
        let first = self.first_child.load(Ordering::Relaxed) as usize;
        let n = (self.info.load(Ordering::Relaxed) >> 16) as usize;
        Some(first..first + n)
    }

    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.state.load(Ordering::Acquire) == EXPANDED
    }

    /// Mean result from real playouts only (no prior), or `None` before the first.
    pub fn mean(&self) -> Option<f64> {
        let n = self.visits.load(Ordering::Relaxed);
        (n > 0).then(|| self.value.load(Ordering::Relaxed) as f64 / ONE / n as f64)
    }

    fn load(&self) -> NodeData {
        NodeData {
            visits: self.visits.load(Ordering::Relaxed),
            amaf_visits: self.amaf_visits.load(Ordering::Relaxed),
            value: self.value.load(Ordering::Relaxed),
            amaf_value: self.amaf_value.load(Ordering::Relaxed),
            score: self.score.load(Ordering::Relaxed),
            score_sq: self.score_sq.load(Ordering::Relaxed),
            first_child: self.first_child.load(Ordering::Relaxed),
            info: self.info.load(Ordering::Relaxed),
            prior_visits: self.prior_visits.load(Ordering::Relaxed),
            prior_value: self.prior_value.load(Ordering::Relaxed),
            state: self.state.load(Ordering::Relaxed),
        }
    }

    fn store(&self, d: &NodeData) {
        self.visits.store(d.visits, Ordering::Relaxed);
        self.amaf_visits.store(d.amaf_visits, Ordering::Relaxed);
        self.value.store(d.value, Ordering::Relaxed);
        self.amaf_value.store(d.amaf_value, Ordering::Relaxed);
        self.score.store(d.score, Ordering::Relaxed);
        self.score_sq.store(d.score_sq, Ordering::Relaxed);
        self.first_child.store(d.first_child, Ordering::Relaxed);
        self.info.store(d.info, Ordering::Relaxed);
        self.prior_visits.store(d.prior_visits, Ordering::Relaxed);
        self.prior_value.store(d.prior_value, Ordering::Relaxed);
        self.state.store(d.state, Ordering::Relaxed);
    }

    fn reset(&self) {
        self.store(&NodeData {
            visits: 0,
            amaf_visits: 0,
            value: 0,
            amaf_value: 0,
            score: 0,
            score_sq: 0,
            first_child: 0,
            info: 0,
            prior_visits: 0,
            prior_value: 0,
            state: LEAF,
        });
    }
}

/// The arena. Node 0 is the root.
pub struct Tree {
    nodes: Box<[Node]>,
    top: AtomicUsize,
    full: AtomicBool,
}

impl Tree {
    /// An arena of `capacity` nodes (at least 2), holding an unexpanded root.
    pub fn new(capacity: usize) -> Tree {
        let capacity = capacity.max(2);
        let nodes: Vec<Node> = (0..capacity).map(|_| Node::default()).collect();
        Tree {
            nodes: nodes.into_boxed_slice(),
            top: AtomicUsize::new(1),
            full: AtomicBool::new(false),
        }
    }

    #[inline]
    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    #[inline]
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes in use.
    pub fn len(&self) -> usize {
        self.top.load(Ordering::Relaxed).min(self.nodes.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() <= 1 && !self.root().is_expanded()
    }

    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Forgets everything: an unexpanded root again.
    pub fn clear(&mut self) {
        let used = self.len();
        for n in &self.nodes[..used] {
            n.reset();
        }
        self.top.store(1, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
    }

    /// Expands `node` with `children` (move index, prior visits, prior value), unless another
    /// thread is doing it or the arena is full. Returns whether the node is expanded now.
    pub fn expand(&self, node: usize, children: &[(u16, f32, f32)]) -> bool {
        let n = &self.nodes[node];
        if n.state
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return n.is_expanded();
        }
        let k = children.len();
        let first = self.top.fetch_add(k, Ordering::Relaxed);
        if first + k > self.nodes.len() || k >= 1 << 16 {
            self.full.store(true, Ordering::Relaxed);
            n.state.store(LEAF, Ordering::Release);
            return false;
        }
        for (i, &(mv, pv, pw)) in children.iter().enumerate() {
            let c = &self.nodes[first + i];
            c.reset();
            c.info.store(mv as u32, Ordering::Relaxed);
            c.prior_visits.store(pv.to_bits(), Ordering::Relaxed);
            c.prior_value.store(pw.to_bits(), Ordering::Relaxed);
        }
        n.first_child.store(first as u32, Ordering::Relaxed);
        let info = n.info.load(Ordering::Relaxed) & 0xffff;
        n.info.store(info | (k as u32) << 16, Ordering::Relaxed);
        n.state.store(EXPANDED, Ordering::Release);
        true
    }

    /// Replaces the priors of `node`'s children (move index, prior visits, prior value); a
    /// move that is not a child is ignored. The real statistics are kept apart from the prior,
    /// so a prior can change under a running search.
    pub fn set_priors(&self, node: usize, priors: &[(u16, f32, f32)]) {
        let Some(children) = self.nodes[node].children() else {
            return;
        };
        // A search of the children per prior: quadratic, but only busy nodes are refined, and
        // it allocates nothing.
        let children = &self.nodes[children];
        for &(mv, pv, pw) in priors {
            if let Some(c) = children.iter().find(|c| c.move_index() == mv as usize) {
                c.prior_visits.store(pv.to_bits(), Ordering::Relaxed);
                c.prior_value.store(pw.to_bits(), Ordering::Relaxed);
            }
        }
    }

    /// Whether `node` is being expanded or cannot be (used to avoid waiting on another thread).
    pub fn is_leaf(&self, node: usize) -> bool {
        self.nodes[node].state.load(Ordering::Acquire) == LEAF
    }

    /// Makes the child of the root with move index `mv` the new root, keeping its subtree and
    /// freeing the rest. Returns false (and clears the tree) when the root has no such child.
    pub fn reroot(&mut self, mv: usize) -> bool {
        let Some(children) = self.root().children() else {
            self.clear();
            return false;
        };
        let Some(child) = children.clone().find(|&c| self.nodes[c].move_index() == mv) else {
            self.clear();
            return false;
        };
        // Breadth-first copy of the subtree: order[k] is the old index of new node k.
        let mut order: Vec<u32> = vec![child as u32];
        let mut data: Vec<NodeData> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let old = &self.nodes[order[i] as usize];
            let mut d = old.load();
            if let Some(ch) = old.children() {
                d.first_child = order.len() as u32;
                order.extend(ch.map(|c| c as u32));
            } else {
                d.first_child = 0;
                d.state = LEAF;
                d.info &= 0xffff;
            }
            data.push(d);
            i += 1;
        }
        let used = self.len();
        for (k, d) in data.iter().enumerate() {
            self.nodes[k].store(d);
        }
        for n in &self.nodes[data.len()..used] {
            n.reset();
        }
        // The root's move index means nothing.
        let root = &self.nodes[0];
        let info = root.info.load(Ordering::Relaxed);
        root.info.store(info & !0xffff, Ordering::Relaxed);
        self.top.store(data.len(), Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expand_publishes_children_once() {
        let tree = Tree::new(16);
        assert!(tree.root().children().is_none());
        assert!(tree.expand(0, &[(5, 10.0, 0.5), (7, 10.0, 0.6)]));
        let ch = tree.root().children().unwrap();
        assert_eq!(ch.len(), 2);
        assert_eq!(tree.node(ch.start).move_index(), 5);
        assert_eq!(tree.node(ch.start + 1).prior(), (10.0, 0.6));
        // A second expansion is a no-op that reports the node as expanded.
        assert!(tree.expand(0, &[(9, 1.0, 0.5)]));
        assert_eq!(tree.root().children().unwrap().len(), 2);
    }

    #[test]
    fn full_arena_refuses_to_expand() {
        let tree = Tree::new(3);
        assert!(!tree.expand(0, &[(1, 0.0, 0.5), (2, 0.0, 0.5), (3, 0.0, 0.5)]));
        assert!(tree.is_full());
        assert!(tree.root().children().is_none());
    }

    #[test]
    fn reroot_keeps_the_subtree() {
        let mut tree = Tree::new(64);
        tree.expand(0, &[(1, 0.0, 0.5), (2, 0.0, 0.5)]);
        let ch = tree.root().children().unwrap();
        let b = ch.start + 1;
        tree.node(b).visits.store(42, Ordering::Relaxed);
        tree.expand(b, &[(3, 0.0, 0.5), (4, 0.0, 0.5), (5, 0.0, 0.5)]);
        let g = tree.node(b).children().unwrap().start + 2;
        tree.node(g).visits.store(7, Ordering::Relaxed);
        tree.expand(ch.start, &[(9, 0.0, 0.5)]);

        assert!(tree.reroot(2));
        assert_eq!(tree.root().visits.load(Ordering::Relaxed), 42);
        let ch = tree.root().children().unwrap();
        assert_eq!(ch.len(), 3);
        assert_eq!(tree.node(ch.start + 2).move_index(), 5);
        assert_eq!(tree.node(ch.start + 2).visits.load(Ordering::Relaxed), 7);
        assert_eq!(tree.len(), 4);
        // An unknown move clears the tree.
        assert!(!tree.reroot(77));
        assert!(tree.is_empty());
    }
}
