//! The Go bot: a [`GoEngine`] with a search thread of its own, so a protocol asks for a move,
//! an analysis or pondering and starts no thread itself.
//!
//! Scheme: [`GoBot`] starts one search thread when it is made and keeps it until it is
//! dropped. Between searches the engine lives in the bot, and [`GoBot::engine`] lends it to the
//! caller (for the rules, the clocks, the settings); a search moves the engine to the search
//! thread together with an order (a move, an analysis, pondering), and the thread sends it back
//! when the search is over. Every search ends by itself or when [`GoBot::stop`] sets the shared
//! stop flag; [`GoBot::stop_and_wait`] also takes the engine back, and every call that needs the
//! engine or starts a search does that first, so at most one search runs and the caller never
//! sees a half-searched engine. Results come through callbacks run on the search thread: the
//! move through a one-shot callback, progress through a repeated one. The synchronous
//! [`GoBot::genmove`] is `genmove_async` plus the wait.
//!
//! A panic inside a search is caught on the search thread: the game record as it was before
//! the search is put back, the search tree is forgotten (a node may be half built), the move
//! callback hears [`SearchFailed`], and the thread serves the next order. The game, its clocks
//! and the settings survive; only what the failed search learned is lost.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam::channel::{self, Receiver, Sender};

use super::board::{Board, Move};
use super::engine::{AnalysisRequest, Decision, GoEngine, MoveRequest, Settings};
use crate::game::Side;
use crate::mcts::Snapshot;

/// Progress of a search: the root position and the search's state, every report interval.
pub type OnProgress = Box<dyn FnMut(&Board, &Snapshot<Move>) + Send>;

/// The end of a `genmove`: the decision, or the failure of the search.
pub type OnMove = Box<dyn FnOnce(Result<Decision, SearchFailed>) + Send>;

/// The end of an analysis: its final state, or the failure of the search.
pub type OnAnalysis = Box<dyn FnOnce(Result<Snapshot<Move>, SearchFailed>) + Send>;

/// A search panicked; the game is as it was before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFailed;

impl std::fmt::Display for SearchFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the search failed")
    }
}

/// How the last search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// By itself or by the stop flag.
    Normally,
    /// It panicked; the game was kept.
    Failed,
}

/// What the search thread is asked to do.
enum Order {
    Genmove {
        request: MoveRequest,
        progress: OnProgress,
        done: OnMove,
    },
    Analyze {
        side: Side,
        request: AnalysisRequest,
        progress: OnProgress,
        done: Option<OnAnalysis>,
    },
    Ponder,
}

/// A Go player with a search thread of its own.
pub struct GoBot {
    /// The engine; `None` while the search thread holds it.
    engine: Option<GoEngine>,
    orders: Option<Sender<(GoEngine, Order)>>,
    /// The engine coming back, with how the search ended.
    returns: Receiver<(GoEngine, Ended)>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Default for GoBot {
    fn default() -> Self {
        GoBot::new(Settings::default())
    }
}

impl GoBot {
    pub fn new(settings: Settings) -> GoBot {
        GoBot::with_engine(GoEngine::new(settings))
    }

    /// A bot over an engine already set up.
    pub fn with_engine(engine: GoEngine) -> GoBot {
        let (orders, inbox) = channel::unbounded::<(GoEngine, Order)>();
        let (outbox, returns) = channel::unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("go-search".into())
            .spawn(move || {
                for (mut engine, order) in inbox.iter() {
                    let ended = execute(&mut engine, order, &flag);
                    if outbox.send((engine, ended)).is_err() {
                        break;
                    }
                }
            })
            .expect("spawning the Go search thread");
        GoBot {
            engine: Some(engine),
            orders: Some(orders),
            returns,
            stop,
            thread: Some(thread),
        }
    }

    /// The engine, once any search has stopped: for the rules, clocks and settings.
    pub fn engine(&mut self) -> &mut GoEngine {
        self.stop_and_wait();
        self.engine
            .as_mut()
            .expect("the engine is back once the search thread is idle")
    }

    /// Whether a search holds the engine.
    pub fn is_searching(&self) -> bool {
        self.engine.is_none()
    }

    /// Asks the running search, if any, to end now; returns at once. A `genmove` still
    /// answers, with what its search found.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Ends the running search, if any, and waits until the engine is back; `None` when no
    /// search was running.
    pub fn stop_and_wait(&mut self) -> Option<Ended> {
        if self.engine.is_some() {
            return None;
        }
        self.stop();
        match self.returns.recv() {
            Ok((engine, ended)) => {
                self.engine = Some(engine);
                Some(ended)
            }
            // The thread ends only when the bot drops its order channel, or if recovering from
            // a failed search failed too: then the game is lost, but the bot still answers.
            Err(_) => {
                self.engine = Some(GoEngine::default());
                Some(Ended::Failed)
            }
        }
    }

    /// Starts choosing a move; `done` receives it (on the search thread) and `progress` the
    /// reports every `request.interval`. A running search is stopped first.
    pub fn genmove_async(&mut self, request: MoveRequest, progress: OnProgress, done: OnMove) {
        self.dispatch(Order::Genmove {
            request,
            progress,
            done,
        });
    }

    /// Chooses a move and waits for it.
    pub fn genmove(
        &mut self,
        request: MoveRequest,
        progress: OnProgress,
    ) -> Result<Decision, SearchFailed> {
        let (tx, rx) = channel::bounded(1);
        self.genmove_async(
            request,
            progress,
            Box::new(move |d| {
                let _ = tx.send(d);
            }),
        );
        let decision = rx.recv().unwrap_or(Err(SearchFailed));
        self.stop_and_wait();
        decision
    }

    /// Starts analysing the position with `side` to move, until [`stop`](GoBot::stop):
    /// `progress` receives the state of the search every `request.interval` (the period).
    pub fn analyze_async(&mut self, side: Side, request: AnalysisRequest, progress: OnProgress) {
        self.dispatch(Order::Analyze {
            side,
            request,
            progress,
            done: None,
        });
    }

    /// [`analyze_async`](GoBot::analyze_async) that also ends by itself after
    /// `request.playouts`, and hands the final state of the search to `done` (on the search
    /// thread) however it ended: by itself, by [`stop`](GoBot::stop), or by a failure.
    pub fn analyze_then(
        &mut self,
        side: Side,
        request: AnalysisRequest,
        progress: OnProgress,
        done: OnAnalysis,
    ) {
        self.dispatch(Order::Analyze {
            side,
            request,
            progress,
            done: Some(done),
        });
    }

    /// Starts searching the current position on the opponent's time, until
    /// [`stop`](GoBot::stop); the next move's search starts from the tree it grows.
    pub fn ponder(&mut self) {
        self.dispatch(Order::Ponder);
    }

    fn dispatch(&mut self, order: Order) {
        self.stop_and_wait();
        let engine = self.engine.take().expect("the engine is back");
        self.stop.store(false, Ordering::Relaxed);
        let orders = self
            .orders
            .as_ref()
            .expect("the order channel lives as long as the bot");
        if let Err(channel::SendError((engine, _))) = orders.send((engine, order)) {
            // Cannot happen while the thread lives; keep the engine anyway.
            self.engine = Some(engine);
        }
    }
}

impl Drop for GoBot {
    fn drop(&mut self) {
        self.stop_and_wait();
        drop(self.orders.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs one order on the search thread, catching a panic of the search.
fn execute(engine: &mut GoEngine, order: Order, stop: &AtomicBool) -> Ended {
    match order {
        Order::Genmove {
            request,
            mut progress,
            done,
        } => {
            // The record before the search: a panic while the move is played must not leave
            // a half-played move behind.
            let before = engine.record().clone();
            let result = panic::catch_unwind(AssertUnwindSafe(|| {
                engine.genmove_until(&request, stop, &mut |b, s| progress(b, s))
            }));
            let ended = match result {
                Ok(_) => Ended::Normally,
                Err(_) => {
                    engine.recover_from_failed_search();
                    engine.set_record(before);
                    Ended::Failed
                }
            };
            // The caller's callback must not take the thread down with it either.
            let result = result.map_err(|_| SearchFailed);
            let _ = panic::catch_unwind(AssertUnwindSafe(move || done(result)));
            ended
        }
        Order::Analyze {
            side,
            request,
            mut progress,
            done,
        } => {
            let mut last = None;
            let ended = guarded(engine, |e| {
                last = Some(e.analyze(side, &request, stop, &mut |b, s| progress(b, s)));
            });
            if let Some(done) = done {
                let result = last.ok_or(SearchFailed);
                let _ = panic::catch_unwind(AssertUnwindSafe(move || done(result)));
            }
            ended
        }
        Order::Ponder => guarded(engine, |e| e.ponder(stop)),
    }
}

/// Runs a search that does not change the game; after a panic the engine forgets the search.
fn guarded(engine: &mut GoEngine, search: impl FnOnce(&mut GoEngine)) -> Ended {
    match panic::catch_unwind(AssertUnwindSafe(|| search(engine))) {
        Ok(()) => Ended::Normally,
        Err(_) => {
            engine.recover_from_failed_search();
            Ended::Failed
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::thread::ThreadId;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::games::go::TimeControl;

    fn quick() -> Settings {
        Settings {
            max_playouts: Some(500),
            movetime_ms: 20_000,
            max_nodes: 100_000,
            ..Settings::default()
        }
    }

    fn silent() -> OnProgress {
        Box::new(|_, _| {})
    }

    /// A progress callback that notes the thread it runs on.
    fn noting(threads: &Arc<Mutex<Vec<ThreadId>>>) -> OnProgress {
        let threads = threads.clone();
        Box::new(move |_, _| threads.lock().unwrap().push(std::thread::current().id()))
    }

    #[test]
    fn genmove_plays_on_the_bots_own_thread_and_keeps_it() {
        let mut bot = GoBot::new(quick());
        bot.engine().set_board_size(9);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let every = Some(Duration::from_millis(1));
        let mut moves = Vec::new();
        for side in [Side::First, Side::Second, Side::First] {
            let request = MoveRequest {
                interval: every,
                ..MoveRequest::play(side)
            };
            let d = bot.genmove(request, noting(&seen)).unwrap();
            let Decision::Play(m) = d else {
                panic!("{d:?}")
            };
            moves.push((side, m));
        }
        // The moves are on the board, in the record.
        assert_eq!(bot.engine().record().moves(), moves.as_slice());
        // reg_genmove names a move and plays nothing.
        let request = MoveRequest {
            commit: false,
            ..MoveRequest::play(Side::Second)
        };
        assert!(matches!(
            bot.genmove(request, silent()),
            Ok(Decision::Play(_))
        ));
        assert_eq!(bot.engine().record().moves().len(), 3);
        // Every report of every search came from one thread, not the caller's.
        let seen = seen.lock().unwrap();
        assert!(!seen.is_empty());
        assert!(seen.iter().all(|&t| t == seen[0]), "{seen:?}");
        assert_ne!(seen[0], std::thread::current().id());
    }

    #[test]
    fn stop_cuts_a_long_genmove_short_and_it_still_answers() {
        // Ten minutes of sudden death on 19x19 with no playout cap: a search of many seconds.
        let mut bot = GoBot::new(Settings {
            max_playouts: None,
            ..quick()
        });
        bot.engine().set_board_size(19);
        bot.engine()
            .set_time_control(TimeControl::Absolute { main: 600_000 });
        let (tx, rx) = channel::bounded(1);
        bot.genmove_async(
            MoveRequest::play(Side::First),
            silent(),
            Box::new(move |d| tx.send(d).unwrap()),
        );
        std::thread::sleep(Duration::from_millis(200));
        assert!(bot.is_searching());
        assert!(rx.try_recv().is_err(), "the search ended by itself");
        let stopped = Instant::now();
        bot.stop();
        let d = rx.recv_timeout(Duration::from_secs(5)).expect("an answer");
        assert!(stopped.elapsed() < Duration::from_secs(1));
        assert!(matches!(d, Ok(Decision::Play(_))), "{d:?}");
        assert_eq!(bot.stop_and_wait(), Some(Ended::Normally));
        assert_eq!(bot.engine().record().moves().len(), 1);
    }

    #[test]
    fn analysis_reports_until_stopped_and_pondering_feeds_the_next_move() {
        let mut bot = GoBot::new(quick());
        bot.engine().set_board_size(9);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let request = AnalysisRequest {
            interval: Duration::from_millis(20),
            ..AnalysisRequest::default()
        };
        bot.analyze_async(Side::First, request, noting(&seen));
        // Reports keep coming while the analysis runs; waited for rather than timed, so a
        // loaded machine only makes the wait longer.
        let start = std::time::Instant::now();
        while seen.lock().unwrap().len() < 3 {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "fewer than 3 reports"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(bot.stop_and_wait(), Some(Ended::Normally));
        let after = seen.lock().unwrap().len();
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(seen.lock().unwrap().len(), after, "reports after the stop");
        assert_eq!(bot.stop_and_wait(), None, "nothing runs any more");

        // Pondering after our move grows the tree under it.
        bot.genmove(MoveRequest::play(Side::First), silent())
            .unwrap();
        let before = bot.engine().mcts_mut().root_visits();
        bot.ponder();
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(bot.stop_and_wait(), Some(Ended::Normally));
        assert!(bot.engine().mcts_mut().root_visits() > before);
        // The analysis and the ponder ran on the thread the genmove reports came from.
        bot.genmove(
            MoveRequest {
                interval: Some(Duration::from_millis(1)),
                ..MoveRequest::play(Side::Second)
            },
            noting(&seen),
        )
        .unwrap();
        let seen = seen.lock().unwrap();
        assert!(seen.iter().all(|&t| t == seen[0]));
    }

    #[test]
    fn a_bounded_analysis_ends_by_itself_and_hands_over_its_result() {
        let mut bot = GoBot::new(quick());
        bot.engine().set_board_size(9);
        let (tx, rx) = channel::bounded(1);
        let request = AnalysisRequest {
            interval: Duration::from_secs(3600),
            playouts: Some(300),
            ..AnalysisRequest::default()
        };
        bot.analyze_then(
            Side::First,
            request,
            silent(),
            Box::new(move |r| tx.send(r).unwrap()),
        );
        let snap = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the analysis ended by itself")
            .unwrap();
        assert_eq!(snap.playouts, 300);
        assert_eq!(snap.root_visits, 300, "a fresh tree");
        assert!(!snap.moves.is_empty());
        assert_eq!(snap.ownership.len(), 81);
        assert_eq!(bot.stop_and_wait(), Some(Ended::Normally));
        // Stopped early, it still answers, with fewer playouts.
        let (tx, rx) = channel::bounded(1);
        bot.engine().clear_board();
        bot.analyze_then(
            Side::First,
            AnalysisRequest {
                playouts: Some(50_000_000),
                ..AnalysisRequest::default()
            },
            silent(),
            Box::new(move |r| tx.send(r).unwrap()),
        );
        std::thread::sleep(Duration::from_millis(100));
        bot.stop();
        let snap = rx.recv_timeout(Duration::from_secs(5)).unwrap().unwrap();
        assert!(snap.playouts > 0 && snap.playouts < 50_000_000);
        // The policy: a share per candidate, summing to one.
        let policy = bot.engine().policy(Side::First);
        assert!(policy.len() > 70, "{}", policy.len());
        let sum: f32 = policy.iter().map(|&(_, p)| p).sum();
        assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    }

    #[test]
    fn a_panicking_search_keeps_the_game() {
        for (threads, panicking) in [(1, 0), (2, 1), (2, 0)] {
            let mut bot = GoBot::new(Settings { threads, ..quick() });
            bot.engine().set_board_size(9);
            bot.engine().set_komi(5.5);
            bot.genmove(MoveRequest::play(Side::First), silent())
                .unwrap();
            bot.genmove(MoveRequest::play(Side::Second), silent())
                .unwrap();
            let record = bot.engine().record().to_sgf();
            bot.engine().mcts_mut().panic_in_thread = Some(panicking);
            let d = bot.genmove(MoveRequest::play(Side::First), silent());
            assert_eq!(d, Err(SearchFailed), "{threads} threads");
            // Analysis fails the same way.
            bot.analyze_async(Side::First, AnalysisRequest::default(), silent());
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(bot.stop_and_wait(), Some(Ended::Failed));
            // The game is as it was, and the next search plays on.
            assert_eq!(bot.engine().record().to_sgf(), record);
            assert_eq!(bot.engine().board().komi(), 5.5);
            bot.engine().mcts_mut().panic_in_thread = None;
            let d = bot.genmove(MoveRequest::play(Side::First), silent());
            assert!(matches!(d, Ok(Decision::Play(_))), "{d:?}");
            assert_eq!(bot.engine().record().moves().len(), 3);
        }
    }
}
