//! The Go playouts and search simulations allocate nothing once warmed up: a counting global
//! allocator (this test binary's own, counting per thread so parallel tests do not mix) watches
//! a thousand playouts, and searches of different lengths.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrarch::game::MctsState;
use tetrarch::games::go::positions;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

/// Counts this thread's allocations while `f` runs.
fn allocations_in<T>(f: impl FnOnce() -> T) -> (usize, T) {
    ALLOCATIONS.with(|a| a.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.with(|a| a.get()), r)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // Const-initialised thread locals of plain cells: no allocation, no re-entry.
        if COUNTING.with(|c| c.get()) {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
        }
        // SAFETY: forwarding the caller's layout to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn playouts_do_not_allocate() {
    for (name, sgf) in positions::BENCH {
        let root = positions::board(sgf);
        let mut b = root.clone();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut trace = Vec::with_capacity(8192);
        // Warm up: the ladder reader's per-thread boards, lazily built tables.
        for _ in 0..50 {
            b.clone_from(&root);
            trace.clear();
            b.playout(&mut rng, &mut trace);
        }
        let (n, ()) = allocations_in(|| {
            for _ in 0..1000 {
                b.clone_from(&root);
                trace.clear();
                b.playout(&mut rng, &mut trace);
            }
        });
        assert_eq!(n, 0, "{name}");
    }
}

#[test]
fn search_allocations_do_not_grow_with_playouts() {
    use tetrarch::mcts::{Config, Mcts, PlayoutLimits};
    let root = positions::board(positions::BENCH[1].1);
    let mut mcts: Mcts<tetrarch::games::go::Board> = Mcts::new(Config {
        max_nodes: 400_000,
        ..Config::default()
    });
    let mut count = |playouts: u64| {
        mcts.clear();
        let limits = PlayoutLimits {
            playouts: Some(playouts),
            ..PlayoutLimits::default()
        };
        let (n, snap) =
            allocations_in(|| mcts.search(&root, &limits, &AtomicBool::new(false), &mut |_| {}));
        assert!(snap.playouts >= playouts);
        n
    };
    count(200); // warm up
    let few = count(500);
    let many = count(5000);
    // Per-search buffers and the final snapshot only: ten times the playouts, not ten times
    // the allocations (the snapshot's lists may grow a little with more root moves visited).
    eprintln!("{few} allocations for 500 playouts, {many} for 5000");
    assert!(
        many <= few + 100,
        "{few} allocations for 500 playouts, {many} for 5000"
    );
}
