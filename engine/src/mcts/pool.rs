//! The helper threads of a multi-threaded search, kept alive from one search to the next.
//!
//! Scheme: a [`Pool`] owns `threads - 1` helper threads, each parked on its own channel between
//! searches. A search sends every helper a [`Round`]: shared handles (`Arc`) to the tree and
//! ownership counts, the root, the root-move filter, the parameters and its seed, and the
//! round's [`Progress`] (the playout count and the flag that ends it). The helper simulates
//! until that flag is set, then drops the round, and only then acknowledges on the pool's
//! channel, so once [`Pool::finish`] has every acknowledgement no thread holds a handle to the
//! tree and the search owns it alone again (`Arc::get_mut` succeeds). A helper catches a panic
//! of its own simulation: it ends the round for everyone and reports the failure in its
//! acknowledgement, and the thread lives on for the next search. The first search thread is
//! the caller's own; it needs no helper (one thread starts none).

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam::channel::{self, Receiver, Sender};

use super::{Config, Shared};
use crate::game::MctsState;

/// What the threads of one search share about its course.
#[derive(Default)]
pub(super) struct Progress {
    /// Playouts of this search, all threads together.
    pub playouts: AtomicU64,
    /// Set when the search ends: by the first thread, or by a helper that failed.
    pub done: AtomicBool,
}

/// One helper's part in one search.
pub(super) struct Round<S: MctsState> {
    pub shared: Arc<Shared>,
    pub root: Arc<S>,
    pub root_filter: Option<Arc<[bool]>>,
    pub config: Config,
    pub seed: u64,
    pub progress: Arc<Progress>,
    /// Tests: this helper panics in its first simulation.
    #[cfg(test)]
    pub panic: bool,
}

impl<S: MctsState> Round<S> {
    /// Simulates until the round is done.
    fn run(self) {
        let mut w = super::Worker::new(&*self.root, self.seed);
        let filter = self.root_filter.as_deref();
        while !self.progress.done.load(Ordering::Relaxed) {
            #[cfg(test)]
            assert!(!self.panic, "a test's panic in a helper");
            self.shared
                .simulate(&self.config, &mut w, &self.root, filter);
            self.progress.playouts.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A parked helper thread and the channel that wakes it.
struct Helper<S: MctsState> {
    rounds: Option<Sender<Round<S>>>,
    handle: Option<JoinHandle<()>>,
}

impl<S: MctsState> Drop for Helper<S> {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop.
        drop(self.rounds.take());
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The helper threads of a search.
pub(super) struct Pool<S: MctsState> {
    helpers: Vec<Helper<S>>,
    /// Helper threads started over the pool's life.
    started: usize,
    /// Acknowledgements: `true` when a helper's round ended normally.
    acks: Receiver<bool>,
    ack_sender: Sender<bool>,
}

impl<S: MctsState> Default for Pool<S> {
    fn default() -> Self {
        let (ack_sender, acks) = channel::unbounded();
        Pool {
            helpers: Vec::new(),
            started: 0,
            acks,
            ack_sender,
        }
    }
}

impl<S: MctsState> Pool<S> {
    /// Helper threads alive now.
    pub fn len(&self) -> usize {
        self.helpers.len()
    }

    /// Helper threads started over the pool's life.
    pub fn started(&self) -> usize {
        self.started
    }

    /// Keeps exactly `n` helpers: starts the missing ones, ends the extra ones.
    pub fn resize(&mut self, n: usize) {
        self.helpers.truncate(n);
        while self.helpers.len() < n {
            let (tx, rx) = channel::bounded::<Round<S>>(1);
            let acks = self.ack_sender.clone();
            let handle = std::thread::Builder::new()
                .name(format!("mcts-helper-{}", self.helpers.len() + 1))
                .spawn(move || {
                    for round in rx.iter() {
                        let progress = round.progress.clone();
                        // The round is moved into the closure: it is dropped there, on return
                        // or while unwinding, before the acknowledgement goes out.
                        let ok = panic::catch_unwind(AssertUnwindSafe(move || round.run())).is_ok();
                        if !ok {
                            progress.done.store(true, Ordering::Relaxed);
                        }
                        drop(progress);
                        if acks.send(ok).is_err() {
                            break;
                        }
                    }
                })
                .expect("spawning a search helper thread");
            self.started += 1;
            self.helpers.push(Helper {
                rounds: Some(tx),
                handle: Some(handle),
            });
        }
    }

    /// Sends each helper its round; returns how many started.
    pub fn start(&self, rounds: impl Iterator<Item = Round<S>>) -> usize {
        let mut started = 0;
        for (h, r) in self.helpers.iter().zip(rounds) {
            if h.rounds.as_ref().is_some_and(|tx| tx.send(r).is_ok()) {
                started += 1;
            }
        }
        started
    }

    /// Waits for `started` helpers to finish their rounds (the caller has set `done`); returns
    /// whether all of them ended normally.
    pub fn finish(&self, started: usize) -> bool {
        let mut all_ok = true;
        for _ in 0..started {
            // Every helper that got its round acknowledges, even after a panic (caught), and
            // the pool holds a sender itself: this waits only for helpers still simulating.
            match self.acks.recv() {
                Ok(ok) => all_ok &= ok,
                Err(_) => return false,
            }
        }
        all_ok
    }
}
