//! Tests of the generic search on connect four: forced wins against an exact solver,
//! determinism with one thread, stop, ponder, limits, MultiPV, threads sharing the table.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam::channel::{self, Receiver, Sender};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::testgame::{solve, wins_within, Connect4, Connect4Eval};
use super::{Engine, Options, Skill};
use crate::game::{GenKind, MoveList, Position};
use crate::limits::Limits;
use crate::report::{Iteration, Line, Reporter};
use crate::score::{is_decisive, mate_in, MATE};
use crate::time::Clock;

type C4 = Connect4<false>;
type C4Null = Connect4<true>;

#[derive(Clone, Debug)]
struct Info {
    depth: u32,
    nodes: u64,
    lines: Vec<Line<u8>>,
}

type BestMove = (Option<u8>, Option<u8>);

struct Collector {
    infos: Mutex<Vec<Info>>,
    best: Sender<BestMove>,
}

impl<P: Position<Move = u8>> Reporter<P> for Collector {
    fn iteration(&self, info: &Iteration<'_, P>) {
        self.infos.lock().unwrap().push(Info {
            depth: info.depth,
            nodes: info.nodes,
            lines: info.lines.clone(),
        });
    }
    fn best_move(&self, _root: &P, best: Option<u8>, ponder: Option<u8>) {
        self.best.send((best, ponder)).unwrap();
    }
}

fn collector() -> (Arc<Collector>, Receiver<BestMove>) {
    let (tx, rx) = channel::unbounded();
    (
        Arc::new(Collector {
            infos: Mutex::new(Vec::new()),
            best: tx,
        }),
        rx,
    )
}

struct Outcome {
    best: Option<u8>,
    ponder: Option<u8>,
    last: Info,
}

/// Runs a search to its end and returns the best move and the final report.
fn run<const N: bool>(
    engine: &mut Engine<Connect4<N>, Connect4Eval>,
    limits: Limits<u8>,
) -> Outcome {
    let (c, rx) = collector();
    engine.go(limits, c.clone());
    let (best, ponder) = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the search ends");
    engine.wait();
    assert!(rx.try_recv().is_err(), "exactly one best move per search");
    let last = c.infos.lock().unwrap().last().cloned().expect("a report");
    Outcome { best, ponder, last }
}

fn engine_with<const N: bool>(
    pos: Connect4<N>,
    threads: usize,
) -> Engine<Connect4<N>, Connect4Eval> {
    Engine::with_options(
        pos,
        Connect4Eval,
        Options {
            threads,
            hash_mb: 4,
            seed: Some(1),
            ..Options::default()
        },
    )
}

/// Random positions a few plies from the end of the game (not yet decided).
fn endgame_positions(count: usize, empties: usize, seed: u64) -> Vec<C4> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = C4::empty();
        let mut played = 0;
        loop {
            if pos.rule_outcome(0).is_some() {
                break;
            }
            if 42 - played == empties {
                out.push(pos.clone());
                break;
            }
            let mut moves = MoveList::new();
            pos.generate(GenKind::All, &mut moves);
            let m = moves[rng.gen_range(0..moves.len())];
            pos.make(m);
            played += 1;
        }
    }
    out
}

/// Plies to the end claimed by a score (positive: win).
fn claimed_plies(score: i32) -> Option<i32> {
    if score >= MATE - 300 {
        Some(MATE - score)
    } else if score <= -(MATE - 300) {
        Some(-(MATE + score))
    } else {
        None
    }
}

#[test]
fn finds_an_immediate_win_and_a_double_threat() {
    // First player has three on the bottom row (columns 1-3) and wins at column 4.
    let pos = C4::from_moves("112233");
    let out = run(&mut engine_with(pos, 1), Limits::depth(6));
    assert_eq!(out.best, Some(3));
    assert_eq!(out.last.lines[0].score, mate_in(1));

    // Two discs in the middle of the bottom row with both ends open: a third makes a double
    // threat, a win in 3 plies (and not in 1).
    let pos = C4::from_moves("3747");
    assert!(wins_within(&mut pos.clone(), 3) && !wins_within(&mut pos.clone(), 1));
    let out = run(&mut engine_with(pos.clone(), 1), Limits::depth(10));
    assert_eq!(out.last.lines[0].score, mate_in(3), "{:?}", out.last);
    let mut after = pos.clone();
    after.make(out.best.unwrap());
    let mut replies = MoveList::new();
    after.generate(GenKind::All, &mut replies);
    for &r in replies.iter() {
        after.make(r);
        assert!(wins_within(&mut after, 1), "the chosen move keeps the win");
        after.unmake(r, ());
    }
}

#[test]
fn agrees_with_the_exact_solver_on_endgames() {
    for (i, pos) in endgame_positions(40, 12, 11).into_iter().enumerate() {
        let truth = solve(&mut pos.clone());
        let out = run(&mut engine_with(pos.clone(), 1), Limits::depth(48));
        let score = out.last.lines[0].score;
        let claimed = claimed_plies(score);
        match truth {
            None => assert!(!is_decisive(score), "#{i}: draw, search says {score}"),
            Some(n) if n > 0 => {
                assert_eq!(
                    claimed.map(|c| c > 0),
                    Some(true),
                    "#{i}: win in {n}, got {score}"
                );
                assert!(
                    claimed.unwrap() >= n,
                    "#{i}: claims a win faster than possible"
                );
                let mut after = pos.clone();
                after.make(out.best.unwrap());
                // The solver says "loss in 0" (`Some(0)`) when the move itself won.
                assert!(
                    solve(&mut after).is_some_and(|v| v <= 0),
                    "#{i}: move throws the win"
                );
            }
            Some(n) => {
                assert_eq!(
                    claimed.map(|c| c < 0),
                    Some(true),
                    "#{i}: loss in {n}, got {score}"
                )
            }
        }
    }
}

#[test]
fn one_thread_is_deterministic() {
    let pos = C4::from_moves("4453");
    let a = run(&mut engine_with(pos.clone(), 1), Limits::depth(12));
    let b = run(&mut engine_with(pos.clone(), 1), Limits::depth(12));
    assert_eq!(a.last.nodes, b.last.nodes);
    assert_eq!(a.last.lines, b.last.lines);
    assert_eq!((a.best, a.ponder), (b.best, b.ponder));
    // A node-bounded search is deterministic too, and stops at the exact count.
    let mut e = engine_with(pos.clone(), 1);
    let c = run(&mut e, Limits::nodes(20_000));
    e.new_game();
    let d = run(&mut e, Limits::nodes(20_000));
    assert_eq!(c.last.nodes, d.last.nodes);
    assert!(c.last.nodes <= 20_000);
    assert_eq!(c.best, d.best);
}

#[test]
fn stop_ends_an_infinite_search_with_one_best_move() {
    let mut e = engine_with(C4::empty(), 1);
    let (c, rx) = collector();
    e.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        c,
    );
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        rx.try_recv().is_err(),
        "an infinite search never ends by itself"
    );
    assert!(e.is_searching());
    e.stop();
    let (best, _) = rx.recv_timeout(Duration::from_secs(10)).expect("stopped");
    assert!(best.is_some());
    e.wait();
    assert!(!e.is_searching());
}

/// Announces the best move, then lingers, as a search's last moments after its `bestmove` is
/// written do (on a loaded machine, for milliseconds).
struct SlowAnnouncer {
    best: Sender<BestMove>,
}

impl<P: Position<Move = u8>> Reporter<P> for SlowAnnouncer {
    fn iteration(&self, _info: &Iteration<'_, P>) {}
    fn best_move(&self, _root: &P, best: Option<u8>, ponder: Option<u8>) {
        self.best.send((best, ponder)).unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_search_is_over_once_its_best_move_is_out() {
    // The caller reads the move and at once asks whether the engine is idle: it must be, or
    // a GUI's next setoption or position is refused as arriving "during a search".
    let mut e = engine_with(C4::empty(), 1);
    let (tx, rx) = channel::unbounded();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    e.go(limits, Arc::new(SlowAnnouncer { best: tx }));
    rx.recv_timeout(Duration::from_secs(30))
        .expect("a best move");
    assert!(!e.is_searching());
    assert!(!e.is_running(), "is_searching waited for the threads");
    // A stop that crosses the answer finds a search still running, not an idle engine.
    let (tx, rx) = channel::unbounded();
    e.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Arc::new(SlowAnnouncer { best: tx }),
    );
    e.stop();
    rx.recv_timeout(Duration::from_secs(30))
        .expect("a best move");
    assert!(e.is_running());
    e.wait();
    assert!(!e.is_running() && !e.is_searching());
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_to_the_clock() {
    // A nearly decided position: the search runs out of depth quickly, and must still wait.
    let pos = C4::from_moves("112233");
    let mut e = engine_with(pos, 1);
    let (c, rx) = collector();
    e.go(
        Limits {
            ponder: true,
            clock: Some(Clock {
                remaining_ms: 1000,
                ..Clock::default()
            }),
            ..Limits::default()
        },
        c,
    );
    std::thread::sleep(Duration::from_millis(100));
    assert!(rx.try_recv().is_err(), "pondering never ends by itself");
    e.ponderhit();
    let (best, _) = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("ponderhit ends it");
    assert_eq!(best, Some(3));
}

#[test]
fn movetime_and_clock_searches_end_on_their_own() {
    let mut e = engine_with(C4::empty(), 1);
    let out = run(
        &mut e,
        Limits {
            movetime_ms: Some(60),
            ..Limits::default()
        },
    );
    assert!(out.best.is_some());
    let out = run(
        &mut e,
        Limits {
            clock: Some(Clock {
                remaining_ms: -50, // a late clock: answer at once
                ..Clock::default()
            }),
            ..Limits::default()
        },
    );
    assert!(out.best.is_some());
}

#[test]
fn no_legal_move_reports_none() {
    // Fill the board at random: the generator stops only when every column is full.
    let mut pos = C4::from_moves("123456712345671234567");
    let mut rng = SmallRng::seed_from_u64(3);
    loop {
        let mut ms = MoveList::new();
        pos.generate(GenKind::All, &mut ms);
        if ms.is_empty() {
            break;
        }
        pos.make(ms[rng.gen_range(0..ms.len())]);
    }
    let mut e = engine_with(pos, 1);
    let out = run(&mut e, Limits::depth(5));
    assert_eq!(out.best, None);
    assert_eq!(out.last.depth, 0);
}

#[test]
fn searchmoves_and_multipv() {
    let pos = C4::from_moves("112233");
    let mut e = engine_with(pos.clone(), 1);
    let out = run(
        &mut e,
        Limits {
            depth: Some(6),
            searchmoves: vec![5, 6],
            ..Limits::default()
        },
    );
    assert!(matches!(out.best, Some(5 | 6)));

    let out = run(
        &mut e,
        Limits {
            depth: Some(6),
            multipv: 3,
            ..Limits::default()
        },
    );
    let lines = &out.last.lines;
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].pv[0], 3);
    assert!(lines[0].score >= lines[1].score && lines[1].score >= lines[2].score);
    assert!(lines[0].pv[0] != lines[1].pv[0] && lines[1].pv[0] != lines[2].pv[0]);
    assert_eq!(
        lines.iter().map(|l| l.rank).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
}

#[test]
fn threads_share_the_table_and_agree_with_the_solver() {
    for threads in [2, 3] {
        for (i, pos) in endgame_positions(10, 14, 5 + threads as u64)
            .into_iter()
            .enumerate()
        {
            let truth = solve(&mut pos.clone());
            let mut e = engine_with(pos.clone(), threads);
            let out = run(&mut e, Limits::depth(40));
            let score = out.last.lines[0].score;
            match truth {
                None => assert!(!is_decisive(score), "#{i}: draw, search says {score}"),
                Some(n) => assert_eq!(
                    claimed_plies(score).map(|c| c > 0),
                    Some(n > 0),
                    "#{i}: truth {n}, score {score}"
                ),
            }
        }
    }
    // After a search of the opening, the table holds this search's entries.
    let mut e = engine_with(C4::empty(), 2);
    let (c, rx) = collector();
    e.go(Limits::depth(14), c.clone());
    rx.recv_timeout(Duration::from_secs(60)).unwrap();
    e.wait();
    let infos = c.infos.lock().unwrap();
    assert!(infos.iter().any(|i| i.depth >= 10));
}

#[test]
fn threads_that_give_up_a_finished_depth_still_report_every_depth_in_order() {
    // The main thread adopts a depth a helper completed first; its reports must still rise
    // and reach the limit. (The last report is the vote's choice, which may be a helper's
    // shallower line.)
    for threads in [2, 4] {
        let mut e = engine_with(C4::empty(), threads);
        let (c, rx) = collector();
        e.go(Limits::depth(16), c.clone());
        let (best, _) = rx.recv_timeout(Duration::from_secs(60)).unwrap();
        e.wait();
        assert!(best.is_some());
        let infos = c.infos.lock().unwrap();
        let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
        let before_vote = &depths[..depths.len() - 1];
        assert!(before_vote.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
        assert_eq!(depths.iter().max(), Some(&16), "{depths:?}");
    }
}

#[test]
fn null_move_version_still_finds_simple_wins() {
    let pos = C4Null::from_moves("3747");
    let mut e = engine_with(pos, 1);
    let out = run(&mut e, Limits::depth(12));
    assert_eq!(out.last.lines[0].score, mate_in(3), "{:?}", out.last);
}

#[test]
fn weakened_play_varies_but_stays_legal() {
    let mut chosen = std::collections::HashSet::new();
    for seed in 0..12 {
        let mut e = Engine::with_options(
            C4::from_moves("44"),
            Connect4Eval,
            Options {
                skill: Skill::from_level(0.0),
                seed: Some(seed),
                hash_mb: 1,
                ..Options::default()
            },
        );
        let out = run(&mut e, Limits::depth(20));
        assert!(out.best.is_some_and(|m| m < 7));
        assert!(out.last.nodes <= 400, "level 0 searches few nodes");
        chosen.insert(out.best.unwrap());
    }
    assert!(
        chosen.len() >= 2,
        "a weak level varies its moves: {chosen:?}"
    );
}

/// An evaluator that panics, while armed, on the search thread of the given name.
#[derive(Clone)]
struct Faulty {
    armed: Arc<std::sync::atomic::AtomicBool>,
    thread: &'static str,
}

impl crate::game::Evaluator<C4> for Faulty {
    fn evaluate(&mut self, pos: &C4) -> i32 {
        if self.armed.load(std::sync::atomic::Ordering::Relaxed)
            && std::thread::current().name() == Some(self.thread)
        {
            panic!("injected evaluator fault on {}", self.thread);
        }
        crate::game::Evaluator::evaluate(&mut Connect4Eval, pos)
    }
}

/// A reporter that panics on every iteration report.
struct PanickyReporter(Sender<BestMove>);

impl Reporter<C4> for PanickyReporter {
    fn iteration(&self, _info: &Iteration<'_, C4>) {
        panic!("injected reporter fault");
    }
    fn best_move(&self, _root: &C4, best: Option<u8>, ponder: Option<u8>) {
        self.0.send((best, ponder)).unwrap();
    }
}

/// A search thread that panics (in the main thread or a helper, in the search or while
/// reporting) still ends the search with exactly one legal best move, the engine searches
/// again afterwards, and dropping it does not hang.
#[test]
fn a_panicking_search_thread_still_answers_and_the_engine_lives_on() {
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for (thread, threads, panicky_reporter) in [
            ("search-0", 1, false),
            ("search-0", 2, false),
            ("search-1", 2, false),
            ("none", 1, true),
            ("none", 2, true),
        ] {
            let armed = Arc::new(std::sync::atomic::AtomicBool::new(true));
            let eval = Faulty {
                armed: armed.clone(),
                thread,
            };
            let mut e = Engine::with_options(
                C4::from_moves("44"),
                eval,
                Options {
                    threads,
                    hash_mb: 1,
                    ..Options::default()
                },
            );
            let case = format!("{thread} of {threads}, reporter panics: {panicky_reporter}");
            for _ in 0..2 {
                let (tx, rx) = channel::unbounded();
                let reporter: Arc<dyn Reporter<C4>> = if panicky_reporter {
                    Arc::new(PanickyReporter(tx))
                } else {
                    Arc::new(Collector {
                        infos: Mutex::new(Vec::new()),
                        best: tx,
                    })
                };
                e.go(Limits::depth(10), reporter);
                let (best, _) = rx
                    .recv_timeout(Duration::from_secs(30))
                    .unwrap_or_else(|_| panic!("{case}: no best move"));
                assert!(best.is_some_and(|m| m < 7), "{case}: {best:?}");
                e.wait();
                assert!(!e.is_searching(), "{case}");
                assert!(rx.try_recv().is_err(), "{case}: exactly one best move");
            }
            armed.store(false, std::sync::atomic::Ordering::Relaxed);
            let (c, rx) = collector();
            e.go(Limits::depth(4), c);
            let (best, _) = rx
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("{case}: no best move after the fault"));
            assert!(best.is_some_and(|m| m < 7), "{case}: {best:?}");
            drop(e);
        }
        let _ = done_tx.send(());
    });
    done_rx
        .recv_timeout(Duration::from_secs(120))
        .expect("every faulty search ends and the engine drops");
}
