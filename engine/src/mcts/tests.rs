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

#[test]
fn a_report_offset_changes_the_reports_only() {
    // The same seeded search of a 9x9 position, with and without an offset: the tree walks the
    // same playouts (visits and the tree's means to the bit), and only the reported winrates
    // and scores move.
    let mut root = Board::new(9);
    for (x, y) in [(4, 4), (2, 2), (6, 6)] {
        root.play(crate::games::go::Move::at(root.point(x, y)));
    }
    let run = |offset: Option<f32>| {
        let mut m = mcts(1);
        let limits = PlayoutLimits {
            playouts: Some(600),
            report_offset: offset,
            ..PlayoutLimits::default()
        };
        m.search(&root, &limits, &AtomicBool::new(false), &mut |_| {})
    };
    let plain = run(None);
    // By move: moves with equal visits are listed in the order of their reported winrates,
    // which the offset is meant to change.
    let tree = |s: &crate::mcts::Snapshot<crate::games::go::Move>| -> Vec<(u16, u32, u32)> {
        let mut t: Vec<_> = s
            .moves
            .iter()
            .map(|m| (m.mv.0, m.visits, m.search_winrate.to_bits()))
            .collect();
        t.sort_unstable();
        t
    };
    for m in &plain.moves {
        assert_eq!(m.winrate.to_bits(), m.search_winrate.to_bits());
    }
    // A huge offset wins every playout for the player to move, a huge negative one loses it.
    for (offset, winrate) in [(1000.0, 1.0), (-1000.0, 0.0)] {
        let shifted = run(Some(offset));
        assert_eq!(tree(&shifted), tree(&plain));
        assert_eq!(shifted.playouts, plain.playouts);
        for a in &shifted.moves {
            let b = plain.moves.iter().find(|b| b.mv == a.mv).unwrap();
            assert_eq!(a.winrate, winrate, "{a:?}");
            assert!((a.score - b.score - offset).abs() < 1e-3, "{a:?} {b:?}");
        }
        assert_eq!(shifted.winrate, winrate);
    }
}

/// One choice among four moves, every playout a draw: only the priors tell the moves apart.
/// `expand` gives none; `refine` favours move 3 heavily, from `refine_at` visits on.
#[derive(Clone)]
struct OneChoice {
    played: Option<u16>,
    refine_at: u32,
}

impl crate::game::MctsState for OneChoice {
    type Move = u16;
    fn to_move(&self) -> crate::game::Side {
        crate::game::Side::First
    }
    fn key(&self) -> u64 {
        self.played.map_or(99, u64::from)
    }
    fn is_over(&self) -> bool {
        self.played.is_some()
    }
    fn legal_moves(&self, out: &mut Vec<u16>) {
        out.extend(0..4);
    }
    fn refine_visits(&self) -> u32 {
        self.refine_at
    }
    fn refine(&self, out: &mut Vec<crate::game::Prior<u16>>) {
        out.extend((0..4).map(|mv| crate::game::Prior {
            mv,
            visits: 50.0,
            value: if mv == 3 { 1.0 } else { 0.0 },
        }));
    }
    fn play(&mut self, m: u16) {
        self.played = Some(m);
    }
    fn move_index_space(&self) -> usize {
        4
    }
    fn move_index(&self, m: u16) -> usize {
        m as usize
    }
    fn index_move(&self, index: usize) -> u16 {
        index as u16
    }
    fn playout(
        &mut self,
        _rng: &mut rand::rngs::SmallRng,
        _trace: &mut Vec<(crate::game::Side, u32)>,
    ) -> crate::game::PlayoutEnd {
        crate::game::PlayoutEnd {
            value: 0.5,
            score: 0.0,
        }
    }
}

#[test]
fn a_busy_node_gets_its_refined_priors() {
    let visits_of_3 = |refine_at: u32| {
        let mut m: Mcts<OneChoice> = Mcts::new(Config::default());
        let root = OneChoice {
            played: None,
            refine_at,
        };
        let limits = PlayoutLimits {
            playouts: Some(400),
            ..PlayoutLimits::default()
        };
        let snap = m.search(&root, &limits, &AtomicBool::new(false), &mut |_| {});
        let of3 = snap
            .moves
            .iter()
            .find(|s| s.mv == 3)
            .map_or(0, |s| s.visits);
        (of3, snap.root_visits)
    };
    // Without refinement the four moves share the playouts.
    let (plain, total) = visits_of_3(0);
    assert!(plain < total as u32 / 2, "{plain} of {total}");
    // Refined at the root's 10th visit, the favoured move takes nearly all the rest.
    let (refined, total) = visits_of_3(10);
    assert!(refined > total as u32 * 3 / 4, "{refined} of {total}");
}
