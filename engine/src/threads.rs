//! Persistent search threads, the stop flag and per-thread node counters.
//!
//! Scheme: a [`Pool`] owns one OS thread per worker, created once (and again only when the
//! thread count changes). Each thread owns its worker state `S` (search stacks, history tables)
//! for its whole life, so that state survives between searches without being shared, and
//! sleeps on a crossbeam channel until a job arrives: parked threads cost nothing. A job is a
//! boxed closure run against the thread's state; one boxed call per search, none per node.
//! [`Signals`] is what the threads of one search share besides the transposition table: an
//! atomic stop flag, the deepest iteration any thread has completed, and one cache-padded node
//! counter per thread, written only by its owner and summed by whoever reports.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::thread::JoinHandle;

use crossbeam::channel::{self, Sender};
use crossbeam::utils::CachePadded;

/// Stack size of a search thread: recursion reaches `score::MAX_PLY` plies, each frame holding
/// move lists.
const STACK_BYTES: usize = 64 * 1024 * 1024;

type Task<S> = Box<dyn FnOnce(&mut S) + Send>;

struct Handle<S> {
    tx: Option<Sender<Task<S>>>,
    thread: Option<JoinHandle<()>>,
}

/// A fixed set of parked threads, each owning one `S`.
pub struct Pool<S: Send + 'static> {
    handles: Vec<Handle<S>>,
}

impl<S: Send + 'static> Pool<S> {
    /// Starts `states.len()` threads, one per state.
    pub fn new(states: Vec<S>) -> Pool<S> {
        let handles = states
            .into_iter()
            .enumerate()
            .map(|(i, mut state)| {
                let (tx, rx) = channel::unbounded::<Task<S>>();
                let thread = std::thread::Builder::new()
                    .name(format!("search-{i}"))
                    .stack_size(STACK_BYTES)
                    .spawn(move || {
                        while let Ok(job) = rx.recv() {
                            // A job that panics must not take the thread with it: later jobs
                            // sent to this thread would never run, and whoever waits on them
                            // would wait for ever. The job owner contains its own panics
                            // (the search reports one as its end); this is the last guard.
                            let _ = panic::catch_unwind(AssertUnwindSafe(|| job(&mut state)));
                        }
                    })
                    .expect("spawning a search thread");
                Handle {
                    tx: Some(tx),
                    thread: Some(thread),
                }
            })
            .collect();
        Pool { handles }
    }

    /// The number of threads.
    pub fn len(&self) -> usize {
        self.handles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    /// Hands a job to thread `i`; it runs after any job already queued there.
    pub fn run(&self, i: usize, job: impl FnOnce(&mut S) + Send + 'static) {
        if let Some(tx) = &self.handles[i].tx {
            // The thread only ends when the pool drops its sender, so the send cannot fail.
            let _ = tx.send(Box::new(job));
        }
    }
}

impl<S: Send + 'static> Drop for Pool<S> {
    fn drop(&mut self) {
        for h in &mut self.handles {
            h.tx = None; // closes the channel: the thread leaves its loop after its current job
        }
        for h in &mut self.handles {
            if let Some(t) = h.thread.take() {
                let _ = t.join();
            }
        }
    }
}

/// What the threads of one search share: the stop flag, the deepest completed iteration and
/// the node counters.
pub struct Signals {
    stop: AtomicBool,
    /// The deepest iteration any thread has completed.
    depth: CachePadded<AtomicI32>,
    nodes: Box<[CachePadded<AtomicU64>]>,
}

impl Signals {
    pub fn new(threads: usize) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            depth: CachePadded::new(AtomicI32::new(0)),
            nodes: (0..threads.max(1))
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
        }
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Publishes thread `i`'s node count (only thread `i` calls this).
    #[inline]
    pub fn set_nodes(&self, i: usize, nodes: u64) {
        self.nodes[i].store(nodes, Ordering::Relaxed);
    }

    /// Records that some thread completed an iteration of `depth`.
    #[inline]
    pub fn completed(&self, depth: i32) {
        self.depth.fetch_max(depth, Ordering::Release);
    }

    /// The deepest iteration any thread has completed.
    #[inline]
    pub fn team_depth(&self) -> i32 {
        self.depth.load(Ordering::Acquire)
    }

    /// The nodes of all threads together.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn threads_keep_their_state_between_jobs() {
        let pool = Pool::new(vec![0u64, 100]);
        let (tx, rx) = channel::unbounded();
        for round in 0..3 {
            for i in 0..pool.len() {
                let tx = tx.clone();
                pool.run(i, move |s: &mut u64| {
                    *s += 1;
                    tx.send((i, round, *s)).unwrap();
                });
            }
        }
        let mut seen: Vec<_> = (0..6).map(|_| rx.recv().unwrap()).collect();
        seen.sort();
        assert_eq!(
            seen,
            vec![
                (0, 0, 1),
                (0, 1, 2),
                (0, 2, 3),
                (1, 0, 101),
                (1, 1, 102),
                (1, 2, 103)
            ]
        );
    }

    #[test]
    fn signals_sum_nodes_and_carry_stop() {
        let s = Arc::new(Signals::new(3));
        s.set_nodes(0, 5);
        s.set_nodes(2, 7);
        assert_eq!(s.total_nodes(), 12);
        assert!(!s.stopped());
        let pool = Pool::new(vec![s.clone()]);
        let (tx, rx) = channel::bounded(1);
        pool.run(0, move |s: &mut Arc<Signals>| {
            while !s.stopped() {
                std::thread::yield_now();
            }
            tx.send(()).unwrap();
        });
        s.stop();
        rx.recv().unwrap();
    }
}
