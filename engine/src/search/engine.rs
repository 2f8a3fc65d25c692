//! The engine facade the protocols talk to.
//!
//! Scheme: an [`Engine`] holds one game's current position, the shared transposition table,
//! the persistent thread pool and the options, and runs at most one search at a time. `go`
//! returns at once: the search runs on the pool and reports through the caller's
//! [`Reporter`], ending with exactly one `best_move`, while the protocol's loop stays free to
//! answer `isready` and to call [`stop`](Engine::stop) or [`ponderhit`](Engine::ponderhit).
//! Every command that needs the engine idle (a new `go`, a thread-count change, a new game)
//! first ends the running search. Resizing the table builds a new one that the next search
//! uses, so a running search is never stalled by it. [`search`](Engine::search) is the blocking
//! form for callers that want only the result: it runs `go` with a reporter of its own and
//! returns the best move and the last reported line once the search ends. Protocols translate
//! their own commands into these calls and never see a search internal.

use std::sync::Arc;

use crossbeam::channel::{self, Receiver};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::game::{Evaluator, GenKind, MoveList, Position};
use crate::limits::Limits;
use crate::report::{Iteration, Line, Reporter, ScoreBound};
use crate::score;
use crate::search::control::Control;
use crate::search::job::Job;
use crate::search::params::Params;
use crate::search::skill::Skill;
use crate::search::worker::Worker;
use crate::threads::Pool;
use crate::time::{self, TimeBudget};
use crate::tt::Table;

/// Options that shape every search.
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub hash_mb: usize,
    /// Lag the GUI or network adds per move, in milliseconds; taken off once per move.
    pub move_overhead_ms: u64,
    /// The game's estimate of how many more moves a side plays, for sudden-death budgets.
    pub moves_left_hint: u32,
    /// A strength limit, or `None` for full strength.
    pub skill: Option<Skill>,
    pub params: Params,
    /// Seed of the strength limiter's choices; `None` seeds from the clock.
    pub seed: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            hash_mb: 16,
            move_overhead_ms: 10,
            moves_left_hint: 40,
            skill: None,
            params: Params::DEFAULT,
            seed: None,
        }
    }
}

/// What a finished search found, as its reports gave it: the answer of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<M> {
    /// The move to play; `None` when the position has no legal move.
    pub best: Option<M>,
    /// The expected reply, when one is known and legal.
    pub ponder: Option<M>,
    /// The best line of the last report, whatever its bound (`None` if none was reported).
    pub line: Option<Line<M>>,
    /// The score of the last best line reported with an exact bound.
    pub exact_score: Option<score::Score>,
    /// Nodes of all threads at the last report.
    pub nodes: u64,
}

/// The reporter behind [`Engine::search`]: keeps the last report and the best move.
struct Collect<M>(std::sync::Mutex<Found<M>>);

impl<P: Position> Reporter<P> for Collect<P::Move> {
    fn iteration(&self, info: &Iteration<'_, P>) {
        let mut found = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(line) = info.lines.first() {
            if line.bound == ScoreBound::Exact {
                found.exact_score = Some(line.score);
            }
            found.line = Some(line.clone());
        }
        found.nodes = info.nodes;
    }

    fn best_move(&self, _root: &P, best: Option<P::Move>, ponder: Option<P::Move>) {
        let mut found = self.0.lock().unwrap_or_else(|e| e.into_inner());
        found.best = best;
        found.ponder = ponder;
    }
}

struct Running<P: Position> {
    job: Arc<Job<P>>,
    done: Receiver<()>,
}

/// One game's engine: position, table, threads, options.
pub struct Engine<P: Position, E: Evaluator<P>> {
    pool: Pool<Worker<P, E>>,
    tt: Arc<Table>,
    evaluator: E,
    position: P,
    options: Options,
    running: Option<Running<P>>,
}

impl<P: Position, E: Evaluator<P>> Engine<P, E> {
    pub fn new(position: P, evaluator: E) -> Self {
        Engine::with_options(position, evaluator, Options::default())
    }

    pub fn with_options(position: P, evaluator: E, options: Options) -> Self {
        let tt = Arc::new(Table::new(options.hash_mb));
        let pool = Self::make_pool(&position, &evaluator, options.threads);
        Engine {
            pool,
            tt,
            evaluator,
            position,
            options,
            running: None,
        }
    }

    fn make_pool(position: &P, evaluator: &E, threads: usize) -> Pool<Worker<P, E>> {
        Pool::new(
            (0..threads.max(1))
                .map(|i| Worker::new(i, position.clone(), evaluator.clone()))
                .collect(),
        )
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The evaluator the searches are given (each thread works on its own clone).
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The position the next search starts from.
    pub fn position(&self) -> &P {
        &self.position
    }

    /// Sets the position: a start position and the moves played from it, which become the
    /// game history that repetition rules see. The moves must be legal (protocols parse them
    /// with `Notation::parse_move`).
    pub fn set_position(&mut self, start: P, moves: &[P::Move]) {
        let mut pos = start;
        for &m in moves {
            let _undo = pos.make(m);
        }
        self.position = pos;
    }

    /// Whether a search is running, as the protocol sees it: false from the moment its
    /// `best_move` is reported. A GUI may answer that move at once, while the search threads
    /// still wind down; if they do, this waits for them (microseconds), so every command that
    /// needs the engine idle may go ahead. UCI and UCCI alike decide "during a search" by this.
    pub fn is_searching(&mut self) -> bool {
        if self.running.as_ref().is_some_and(|r| r.job.answered()) {
            self.wait();
            return false;
        }
        self.is_running()
    }

    /// Whether a search's threads are still at work, even after its `best_move` is out. A
    /// `stop` arriving then crossed the answer rather than arrived when idle (UCCI answers
    /// the latter with `nobestmove`).
    pub fn is_running(&mut self) -> bool {
        match &self.running {
            Some(r) => match r.done.try_recv() {
                Ok(()) => {
                    self.running = None;
                    false
                }
                Err(channel::TryRecvError::Empty) => true,
                Err(channel::TryRecvError::Disconnected) => {
                    self.running = None;
                    false
                }
            },
            None => false,
        }
    }

    /// Asks the running search to end; its `best_move` follows shortly.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.job.signals.stop();
        }
    }

    /// The predicted move was played: a pondering search becomes a timed one from now.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.job.control.ponderhit();
        }
    }

    /// Blocks until the running search (if any) has reported its best move.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.done.recv();
        }
    }

    /// Stops the running search and waits for its best move.
    pub fn stop_and_wait(&mut self) {
        self.stop();
        self.wait();
    }

    /// A new game: forget the table and everything the threads learned.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.tt.clear(self.options.threads);
        let (tx, rx) = channel::unbounded();
        for i in 0..self.pool.len() {
            let tx = tx.clone();
            self.pool.run(i, move |w: &mut Worker<P, E>| {
                w.clear();
                let _ = tx.send(());
            });
        }
        for _ in 0..self.pool.len() {
            let _ = rx.recv();
        }
    }

    /// Empties the transposition table (safe during a search: entries are atomics).
    pub fn clear_hash(&mut self) {
        self.tt.clear(self.options.threads);
    }

    /// Resizes the table; a running search keeps the old one until it ends.
    ///
    /// When the memory cannot be had, the old size is restored and the error returned.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        let mb = mb.max(1);
        if mb == self.options.hash_mb {
            return Ok(());
        }
        // A finished search not yet reaped still holds the old table through its job.
        self.is_running();
        // Drop the old table first so that both never occupy memory at once when idle.
        self.tt = Arc::new(Table::tiny());
        match Table::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                self.options.hash_mb = mb;
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(
                    Table::try_new(self.options.hash_mb).unwrap_or_else(|_| Table::tiny()),
                );
                Err(e)
            }
        }
    }

    /// Changes the number of search threads (ends a running search first).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.pool.len() {
            self.stop_and_wait();
            self.options.threads = threads;
            self.pool = Pool::new(Vec::new()); // joins the old threads
            self.pool = Self::make_pool(&self.position, &self.evaluator, threads);
        }
    }

    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead_ms = ms;
    }

    pub fn set_moves_left_hint(&mut self, moves: u32) {
        self.options.moves_left_hint = moves.max(1);
    }

    pub fn set_skill(&mut self, skill: Option<Skill>) {
        self.options.skill = skill;
    }

    pub fn set_params(&mut self, params: Params) {
        self.options.params = params;
    }

    /// Replaces the evaluator (new weights) for the following searches.
    pub fn set_evaluator(&mut self, evaluator: E) {
        self.stop_and_wait();
        self.evaluator = evaluator.clone();
        self.pool = Pool::new(Vec::new());
        self.pool = Self::make_pool(&self.position, &self.evaluator, self.options.threads);
    }

    /// What the transposition table holds for a position key, if anything (UCCI's `probe`).
    /// Scores are as stored: relative to that position (see `score::from_tt`).
    pub fn probe(&self, key: u64) -> Option<crate::tt::Hit> {
        self.tt.probe(key)
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<P::Move> {
        legal_moves(&self.position)
    }

    /// Starts a search of the current position; returns at once. A search still running is
    /// stopped first (its best move is reported before this one starts).
    pub fn go(&mut self, limits: Limits<P::Move>, reporter: Arc<dyn Reporter<P>>) {
        self.stop_and_wait();
        let root = self.position.clone();
        let legal = legal_moves(&root);
        let (done_tx, done_rx) = channel::bounded(1);

        if legal.is_empty() {
            // Nothing to search: say why (mated or not) and that there is no move.
            let outcome = root.no_move_outcome();
            let line = Line {
                rank: 1,
                depth: 0,
                seldepth: 0,
                score: score::outcome_score(outcome, 0),
                bound: ScoreBound::Exact,
                pv: Vec::new(),
            };
            reporter.iteration(&Iteration {
                root: &root,
                depth: 0,
                lines: vec![line],
                nodes: 0,
                time_ms: 0,
                nps: 0,
                hashfull: self.tt.hashfull(),
            });
            reporter.best_move(&root, None, None);
            return;
        }

        let mut root_moves: Vec<P::Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .filter(|m| !limits.banmoves.contains(m))
            .collect();
        if root_moves.is_empty() {
            root_moves = legal;
        }

        let mut limits = limits;
        let skill = self.options.skill;
        if let Some(cap) = skill.and_then(|s| s.nodes()) {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }

        let overhead = self.options.move_overhead_ms;
        let (budget, flexible): (Option<TimeBudget>, bool) = if limits.infinite {
            (None, false)
        } else if let Some(mt) = limits.movetime_ms {
            (Some(time::allocate_movetime(mt, overhead)), false)
        } else if let Some(clock) = &limits.clock {
            (
                Some(time::allocate(
                    clock,
                    overhead,
                    self.options.moves_left_hint,
                )),
                true,
            )
        } else {
            (None, false)
        };
        let control = Control::new(budget, flexible, limits.ponder);

        let rng = skill.map(|_| {
            let seed = self.options.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
            });
            SmallRng::seed_from_u64(seed)
        });

        self.tt.new_search();
        let threads = self.pool.len();
        let job = Arc::new(Job::new(
            root,
            root_moves,
            limits,
            self.tt.clone(),
            control,
            reporter,
            threads,
            self.options.params,
            skill,
            rng,
            done_tx,
        ));
        for i in (0..threads).rev() {
            let job = job.clone();
            self.pool
                .run(i, move |w: &mut Worker<P, E>| job.run_thread(i == 0, w));
        }
        self.running = Some(Running { job, done: done_rx });
    }
}

impl<P: Position, E: Evaluator<P>> Engine<P, E> {
    /// Searches the current position and returns once the search is over, with what it found:
    /// for callers that only want the result (bench, self-play, DXP), not the reports.
    pub fn search(&mut self, limits: Limits<P::Move>) -> Found<P::Move> {
        self.search_until(limits, &channel::never::<()>())
    }

    /// As [`search`](Engine::search), but the search ends early (and its best move so far is
    /// returned) as soon as `cancel` delivers a message or disconnects: a protocol passes the
    /// receiver that tells it its peer went away.
    pub fn search_until<T>(
        &mut self,
        limits: Limits<P::Move>,
        cancel: &Receiver<T>,
    ) -> Found<P::Move> {
        let collect = Arc::new(Collect(std::sync::Mutex::new(Found {
            best: None,
            ponder: None,
            line: None,
            exact_score: None,
            nodes: 0,
        })));
        self.go(limits, collect.clone());
        let finished = match &self.running {
            Some(r) => channel::select! {
                recv(r.done) -> _ => true,
                recv(cancel) -> _ => false,
            },
            None => true,
        };
        if finished {
            self.running = None;
        } else {
            self.stop_and_wait();
        }
        let found = collect.0.lock().unwrap_or_else(|e| e.into_inner());
        found.clone()
    }
}

impl<P: Position, E: Evaluator<P>> Drop for Engine<P, E> {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

/// The legal moves of a position, in generation order.
pub fn legal_moves<P: Position>(pos: &P) -> Vec<P::Move> {
    let mut list = MoveList::new();
    pos.generate(GenKind::All, &mut list);
    list.iter().copied().filter(|&m| pos.is_legal(m)).collect()
}
