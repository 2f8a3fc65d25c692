//! One search as the threads see it, and how it ends.
//!
//! Scheme: the facade builds a [`Job`] per `go` and hands an `Arc` of it to every thread. The
//! helpers search until the stop flag rises and send their [`ThreadResult`] back; meanwhile
//! whichever thread completes an iteration first publishes it ([`Job::publish`]), for the
//! others to give that depth up and for the main thread to adopt. The main
//! thread searches, raises the flag when its limits are reached (or waits for `stop` or
//! `ponderhit` when the protocol forbids ending on its own), gathers the helpers' results,
//! picks the move (by a depth-weighted vote across threads, or by the strength limiter), sends
//! the final report and the one `best_move` event, and only then signals the facade that the
//! search is over. Iteration reports are rate-limited: once iterations come faster than one per
//! 20 ms beyond depth 12 only some are sent, but the last completed one always precedes the
//! best move. A panic in any thread is contained (`Job::run_thread`): the search still ends
//! with one legal best move and the facade's signal, so a protocol can always stop and quit.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam::channel::{Receiver, Sender};
use rand::rngs::SmallRng;

use crate::game::{Evaluator, Position};
use crate::limits::Limits;
use crate::report::{Iteration, Line, Reporter};
use crate::score::{Score, MATE_IN_MAX_PLY};
use crate::search::control::Control;
use crate::search::params::Params;
use crate::search::skill::Skill;
use crate::search::worker::{RootMove, ThreadResult, Worker};
use crate::threads::Signals;
use crate::tt::Table;

pub struct Job<P: Position> {
    pub root: P,
    /// The legal root moves this search may play (after `searchmoves` and `banmoves`).
    pub root_moves: Vec<P::Move>,
    pub limits: Limits<P::Move>,
    pub tt: Arc<Table>,
    pub signals: Arc<Signals>,
    pub control: Control,
    pub reporter: Arc<dyn Reporter<P>>,
    pub threads: usize,
    /// Lines searched (the strength limiter searches more than it shows).
    pub multipv: usize,
    /// Lines reported.
    pub shown_multipv: usize,
    pub params: Params,
    pub skill: Option<Skill>,
    pub results_tx: Sender<ThreadResult<P::Move>>,
    pub results_rx: Receiver<ThreadResult<P::Move>>,
    pub done_tx: Sender<()>,
    /// Set just before the best move is reported: from then on the search is over for the
    /// protocol, which may read the move and answer it before `done_tx` is sent. Also keeps
    /// `fail` from announcing a second move.
    answered: AtomicBool,
    /// Milliseconds (since the start) of the last iteration report, and its depth.
    last_report: AtomicU64,
    reported_depth: AtomicU64,
    /// Helper results taken from `results_rx` so far (so that `fail` takes only the rest).
    collected: AtomicUsize,
    pub rng: Mutex<Option<SmallRng>>,
    /// The deepest iteration any thread has completed (with more than one thread).
    team_best: Mutex<Option<TeamBest<P::Move>>>,
}

/// An iteration one thread completed, as the others may adopt it: the depth, the best root
/// move with its line, and the share (per mille) of that thread's nodes the move took, which
/// the time manager reads as the main thread's own.
#[derive(Clone, Debug)]
pub struct TeamBest<M> {
    pub depth: i32,
    pub best: RootMove<M>,
    pub effort: u64,
}

impl<P: Position> Job<P> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        root: P,
        root_moves: Vec<P::Move>,
        limits: Limits<P::Move>,
        tt: Arc<Table>,
        control: Control,
        reporter: Arc<dyn Reporter<P>>,
        threads: usize,
        params: Params,
        skill: Option<Skill>,
        rng: Option<SmallRng>,
        done_tx: Sender<()>,
    ) -> Job<P> {
        let shown = limits.multipv.max(1);
        let multipv = match skill {
            Some(s) => shown.max(s.lines()),
            None => shown,
        };
        let (results_tx, results_rx) = crossbeam::channel::unbounded();
        Job {
            root,
            root_moves,
            limits,
            tt,
            signals: Arc::new(Signals::new(threads)),
            control,
            reporter,
            threads,
            multipv,
            shown_multipv: shown,
            params,
            skill,
            results_tx,
            results_rx,
            done_tx,
            answered: AtomicBool::new(false),
            last_report: AtomicU64::new(0),
            reported_depth: AtomicU64::new(0),
            collected: AtomicUsize::new(0),
            rng: Mutex::new(rng),
            team_best: Mutex::new(None),
        }
    }

    /// A thread completed an iteration of `depth` with `best` first. The threads searching
    /// that depth give it up (`Signals::team_depth`), and the main thread takes this result.
    /// The result is stored before the depth is announced, so whoever sees the depth finds it.
    pub fn publish(&self, depth: i32, best: &RootMove<P::Move>, effort: u64) {
        if self.threads > 1 {
            let mut slot = self.team_best.lock().unwrap_or_else(|e| e.into_inner());
            if slot.as_ref().is_none_or(|t| t.depth < depth) {
                *slot = Some(TeamBest {
                    depth,
                    best: best.clone(),
                    effort,
                });
            }
        }
        self.signals.completed(depth);
    }

    /// The deepest iteration completed so far, by any thread.
    pub fn team_best(&self) -> Option<TeamBest<P::Move>> {
        self.team_best
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether the best move has been (or is being) reported.
    pub fn answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    fn iteration_info(&self, depth: u32, lines: Vec<Line<P::Move>>) -> Iteration<'_, P> {
        let nodes = self.signals.total_nodes();
        let time_ms = self.control.elapsed_ms();
        Iteration {
            root: &self.root,
            depth,
            lines,
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.tt.hashfull(),
        }
    }

    /// Reports the main thread's lines after an iteration (or an aspiration bound).
    pub fn report<E: Evaluator<P>>(
        &self,
        w: &Worker<P, E>,
        depth: u32,
        multipv: usize,
        bound: bool,
    ) {
        let now = self.control.elapsed_ms();
        let last = self.last_report.load(Ordering::Relaxed);
        if !bound && depth > 12 && now < last + 20 {
            return;
        }
        self.signals.set_nodes(w.id, w.nodes);
        let lines = w.lines(depth, multipv.min(self.shown_multipv));
        self.reporter.iteration(&self.iteration_info(depth, lines));
        self.last_report.store(now, Ordering::Relaxed);
        if !bound {
            self.reported_depth.store(depth as u64, Ordering::Relaxed);
        }
    }

    /// One thread's part of the search, with a panic contained: a helper that panics still
    /// sends a result (an empty one), so that the main thread's collection cannot wait for
    /// ever; a main thread that panics, in its search or while choosing and reporting the
    /// move, ends the search through [`Job::fail`], which still announces a legal move exactly
    /// once and signals the facade. Either way the thread itself lives on for the next search
    /// (`Worker::run` resets all per-search state), and the protocol can still stop and quit.
    pub fn run_thread<E: Evaluator<P>>(self: &Arc<Self>, main: bool, w: &mut Worker<P, E>) {
        let searched = panic::catch_unwind(AssertUnwindSafe(|| w.run(self.clone())));
        if !main {
            let result = searched.unwrap_or_else(|_| ThreadResult {
                id: w.id,
                depth: 0,
                root_moves: Vec::new(),
                best: None,
            });
            let _ = self.results_tx.send(result);
            return;
        }
        let finished = match searched {
            Ok(result) => panic::catch_unwind(AssertUnwindSafe(|| self.finish(w, result))).is_ok(),
            Err(_) => false,
        };
        if !finished {
            self.fail();
        }
    }

    /// The end of a search whose main thread panicked: as `finish`, wait if the protocol
    /// says so and collect the helpers not yet collected, then play the helpers' choice if
    /// one completed an iteration, else the first root move. The move is announced unless
    /// `finish` already did, and the facade is signalled in any case.
    fn fail(&self) {
        self.await_end();
        let mut results = Vec::new();
        while self.collected.load(Ordering::Relaxed) + 1 < self.threads {
            self.collected.fetch_add(1, Ordering::Relaxed);
            if let Ok(r) = self.results_rx.recv() {
                results.push(r);
            }
        }
        if !self.answered.swap(true, Ordering::AcqRel) {
            let chosen = vote(&results);
            let best = results
                .get(chosen)
                .and_then(|r| r.best.as_ref())
                .map(|rm| rm.mv)
                .or_else(|| self.root_moves.first().copied());
            let _ = panic::catch_unwind(AssertUnwindSafe(|| {
                self.reporter.best_move(&self.root, best, None)
            }));
        }
        let _ = self.done_tx.send(());
    }

    /// Holds the search open while the protocol forbids ending it on its own (pondering, or
    /// an infinite search), then raises the stop flag for every thread.
    fn await_end(&self) {
        while !self.signals.stopped() && (self.control.pondering() || self.limits.infinite) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.signals.stop();
    }

    /// The main thread's end of the search: wait if the protocol says so, collect the helpers,
    /// choose and announce the move.
    pub fn finish<E: Evaluator<P>>(&self, main: &mut Worker<P, E>, mine: ThreadResult<P::Move>) {
        self.await_end();
        let mut results = vec![mine];
        while self.collected.load(Ordering::Relaxed) + 1 < self.threads {
            self.collected.fetch_add(1, Ordering::Relaxed);
            if let Ok(r) = self.results_rx.recv() {
                results.push(r);
            }
        }
        let chosen = if self.threads > 1 && self.multipv == 1 {
            vote(&results)
        } else {
            0
        };
        let result = &results[chosen];

        // The final reports. The main thread's last completed iteration comes first unless the
        // last report already showed it (the rate limit may have skipped it, and a GUI should
        // see the deepest line reached); then, when the vote chose a helper, that helper's line
        // at its completed depth.
        let main_depth = results[0].depth.max(1) as u32;
        if self.reported_depth.load(Ordering::Relaxed) != main_depth as u64 {
            self.signals.set_nodes(main.id, main.nodes);
            let lines = main.lines(main_depth, self.multipv.min(self.shown_multipv));
            self.reporter
                .iteration(&self.iteration_info(main_depth, lines));
        }
        if chosen != 0 {
            let depth = result.depth.max(1) as u32;
            let rm = result.best.as_ref().unwrap_or(&result.root_moves[0]);
            let line = Line {
                rank: 1,
                depth,
                seldepth: rm.seldepth.max(1) as u32,
                score: rm.score,
                bound: rm.bound,
                pv: rm.pv.clone(),
            };
            self.reporter
                .iteration(&self.iteration_info(depth, vec![line]));
        }

        let mut pick = 0;
        if let Some(skill) = self.skill {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(rng) = rng.as_mut() {
                let n = self.multipv.min(result.root_moves.len());
                let scores: Vec<Score> = result.root_moves[..n].iter().map(|r| r.score).collect();
                pick = skill.pick(&scores, rng);
            }
        }
        let rm = match (&result.best, chosen) {
            (Some(best), c) if c != 0 => best,
            _ => &result.root_moves[pick],
        };
        let best = rm.mv;
        let ponder = if rm.pv.len() > 1 {
            Some(rm.pv[1])
        } else {
            self.ponder_from_table(best)
        };
        self.answered.store(true, Ordering::Release);
        self.reporter.best_move(&self.root, Some(best), ponder);
        let _ = self.done_tx.send(());
    }

    /// A reply to `best` from the table, when the line ended at the root move.
    fn ponder_from_table(&self, best: P::Move) -> Option<P::Move> {
        let mut pos = self.root.clone();
        let _undo = pos.make(best);
        if pos.rule_outcome(1).is_some() {
            return None;
        }
        let hit = self.tt.probe(pos.key())?;
        let m = pos.unpack(hit.mv?)?;
        pos.is_legal(m).then_some(m)
    }
}

/// Lazy SMP's choice among threads, from each thread's last completed iteration: each thread
/// votes for its best move with weight `(score - worst + 14) * depth`; the move with most votes
/// wins, played from the thread that searched it deepest. A proven win is taken from the thread
/// with the shortest one; a loss the main thread has proven stays its choice (helpers that do
/// not see it only searched less). `results[0]` is the main thread's.
fn vote<M: Copy + Eq>(results: &[ThreadResult<M>]) -> usize {
    let valid: Vec<usize> = (0..results.len())
        .filter(|&i| results[i].best.is_some() && results[i].depth > 0)
        .collect();
    if valid.is_empty() {
        return 0;
    }
    let best_of = |i: usize| results[i].best.as_ref().expect("filtered on best");
    if valid[0] == 0 && best_of(0).score <= -MATE_IN_MAX_PLY {
        return 0;
    }
    let worst = valid.iter().map(|&i| best_of(i).score).min().unwrap_or(0);
    let mut votes: Vec<(M, i64)> = Vec::new();
    for &i in &valid {
        let w = (best_of(i).score - worst + 14) as i64 * results[i].depth as i64;
        match votes.iter_mut().find(|(m, _)| *m == best_of(i).mv) {
            Some(v) => v.1 += w,
            None => votes.push((best_of(i).mv, w)),
        }
    }
    let mut chosen = valid[0];
    for &i in &valid[1..] {
        let (a, b) = (best_of(chosen), best_of(i));
        let va = votes.iter().find(|(m, _)| *m == a.mv).map_or(0, |v| v.1);
        let vb = votes.iter().find(|(m, _)| *m == b.mv).map_or(0, |v| v.1);
        let better = if a.score >= MATE_IN_MAX_PLY || b.score >= MATE_IN_MAX_PLY {
            b.score > a.score
        } else {
            vb > va || (vb == va && results[i].depth > results[chosen].depth)
        };
        if better {
            chosen = i;
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ScoreBound;
    use crate::search::worker::RootMove;

    fn result(id: usize, depth: i32, mv: u8, score: Score) -> ThreadResult<u8> {
        let root_moves = vec![RootMove {
            mv,
            score,
            prev_score: score,
            average: score,
            bound: ScoreBound::Exact,
            seldepth: 1,
            pv: vec![mv],
            nodes: 0,
        }];
        ThreadResult {
            id,
            depth,
            best: Some(root_moves[0].clone()),
            root_moves,
        }
    }

    #[test]
    fn publish_keeps_the_deepest_iteration_and_announces_it() {
        type C4 = crate::search::testgame::Connect4<false>;
        struct Silent;
        impl Reporter<C4> for Silent {
            fn iteration(&self, _: &Iteration<'_, C4>) {}
            fn best_move(&self, _: &C4, _: Option<u8>, _: Option<u8>) {}
        }
        let (done_tx, _done_rx) = crossbeam::channel::unbounded();
        let job: Job<C4> = Job::new(
            C4::empty(),
            vec![0, 1],
            Limits::depth(5),
            Arc::new(Table::new(1)),
            Control::new(None, false, false),
            Arc::new(Silent),
            2,
            Params::DEFAULT,
            None,
            None,
            done_tx,
        );
        let rm = |mv: u8, score: Score| result(0, 1, mv, score).root_moves[0].clone();
        assert!(job.team_best().is_none());
        job.publish(3, &rm(1, 10), 500);
        job.publish(2, &rm(0, 20), 900);
        let team = job.team_best().expect("published");
        assert_eq!((team.depth, team.best.mv, team.effort), (3, 1, 500));
        assert_eq!(job.signals.team_depth(), 3);
        job.publish(4, &rm(0, 30), 700);
        assert_eq!(job.team_best().map(|t| t.depth), Some(4));
        assert_eq!(job.signals.team_depth(), 4);
    }

    #[test]
    fn vote_prefers_the_majority_and_proven_wins() {
        let r = [
            result(0, 10, 1, 20),
            result(1, 10, 2, 30),
            result(2, 11, 2, 25),
        ];
        assert_eq!(r[vote(&r)].root_moves[0].mv, 2);
        let r = [
            result(0, 10, 1, 20),
            result(1, 8, 3, crate::score::mate_in(5)),
        ];
        assert_eq!(vote(&r), 1);
        // A loss the main thread proved is not traded for a helper's shallower hope.
        let r = [
            result(0, 12, 1, crate::score::mated_in(6)),
            result(1, 11, 2, -40),
        ];
        assert_eq!(vote(&r), 0);
    }
}
