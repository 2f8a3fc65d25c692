//! The search's threads: helpers live across searches, and a panic in any search thread is
//! raised in the caller with the tree let go, so the next search runs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;

use super::{Config, Mcts, PlayoutLimits};
use crate::games::go::Board;

fn mcts(threads: usize) -> Mcts<Board> {
    Mcts::new(Config {
        threads,
        max_nodes: 50_000,
        ..Config::default()
    })
}

fn search(m: &mut Mcts<Board>, root: &Board, playouts: u64) -> u64 {
    let limits = PlayoutLimits {
        playouts: Some(playouts),
        ..PlayoutLimits::default()
    };
    m.search(root, &limits, &AtomicBool::new(false), &mut |_| {})
        .playouts
}

#[test]
fn helper_threads_are_started_once_and_kept() {
    let root = Board::new(9);
    let mut m = mcts(3);
    assert_eq!(m.helper_threads_started(), 0);
    for _ in 0..5 {
        m.clear();
        let playouts = search(&mut m, &root, 300);
        assert!(playouts >= 300);
        // Every thread's playouts are in the one tree, and all of them were over when the
        // search returned.
        assert_eq!(m.root_visits(), playouts);
    }
    assert_eq!(m.helper_threads(), 2);
    assert_eq!(
        m.helper_threads_started(),
        2,
        "threads were started per search"
    );
    // Fewer threads end the extra helper; more start only the missing ones.
    m.config.threads = 2;
    search(&mut m, &root, 100);
    assert_eq!((m.helper_threads(), m.helper_threads_started()), (1, 2));
    m.config.threads = 4;
    search(&mut m, &root, 100);
    assert_eq!((m.helper_threads(), m.helper_threads_started()), (3, 4));
    m.config.threads = 1;
    search(&mut m, &root, 100);
    assert_eq!(m.helper_threads(), 0);
}

#[test]
fn a_panic_in_a_helper_or_the_first_thread_is_raised_and_the_next_search_runs() {
    let root = Board::new(9);
    for thread in [1, 0] {
        let mut m = mcts(2);
        search(&mut m, &root, 200);
        m.panic_in_thread = Some(thread);
        let r = catch_unwind(AssertUnwindSafe(|| search(&mut m, &root, 1_000_000)));
        assert!(r.is_err(), "thread {thread}: the panic was swallowed");
        m.panic_in_thread = None;
        // The tree is ours again (clearing needs it unshared), and the same helper serves.
        m.clear();
        let playouts = search(&mut m, &root, 300);
        assert!(playouts >= 300);
        assert_eq!(m.root_visits(), playouts);
        assert_eq!(m.helper_threads_started(), 1, "thread {thread}");
    }
}

#[test]
fn one_thread_with_the_same_seed_searches_the_same() {
    // A short game, each move from a fixed number of playouts on a kept tree: two searches
    // with the same seed walk the same line (the first thread uses no helper).
    let line = || {
        let mut m = mcts(1);
        let mut b = Board::new(9);
        let mut moves = Vec::new();
        for _ in 0..6 {
            let limits = PlayoutLimits {
                playouts: Some(300),
                ..PlayoutLimits::default()
            };
            let snap = m.search(&b, &limits, &AtomicBool::new(false), &mut |_| {});
            let best = snap.best().unwrap();
            moves.push((best, snap.root_visits, snap.winrate.to_bits()));
            m.advance(&b, best);
            b.play(best);
        }
        assert_eq!(m.helper_threads_started(), 0);
        moves
    };
    assert_eq!(line(), line());
}
