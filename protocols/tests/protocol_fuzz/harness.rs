//! The engine under test as a child process, and the run loop every stdin protocol shares.
//!
//! Scheme: [`Engine`] starts `tetrarch` with piped stdio in a scratch directory. A writer
//! thread owns stdin (so a stuck engine can never block the test itself: probes notice it by
//! their deadline), a reader thread turns stdout into lines on a channel, and another keeps
//! stderr and raises a flag on panic text. [`run_text`] drives a [`Grammar`]: each line is
//! valid (from the grammar), mutated (a valid line edited by `mutate`) or garbage, passes the
//! grammar's sanitiser, and is sent; every [`PROBE_EVERY`] lines a liveness probe goes out and
//! must be answered within the deadline. Probe answers are counted, and the sanitisers keep
//! the probe command out of the fuzzed lines, so the count is exact: probe `k` is answered when
//! `k` answers have been read. Any failure (an unanswered probe, an exit, panic text on stderr,
//! an unclean end) panics with the seed, the last [`HISTORY`] lines sent, the last output lines
//! and the end of stderr; the seed replays the run, and `TETRARCH_FUZZ_DUMP` keeps its input.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::mutate::{garbage, mutate, one_line};

/// A liveness probe goes out after this many fuzzed lines.
pub const PROBE_EVERY: usize = 50;
/// How often a drain check ends a search that holds up the queue.
const NUDGE_EVERY: Duration = Duration::from_millis(20);
/// How many sent lines a failure report shows.
pub const HISTORY: usize = 50;

/// Lines per protocol when `TETRARCH_FUZZ_LINES` is not set.
pub const DEFAULT_LINES: usize = 4_000;
/// The run seed when `TETRARCH_FUZZ_SEED` is not set.
pub const DEFAULT_SEED: u64 = 0x7e7a_2c4b;
/// A probe's deadline when `TETRARCH_FUZZ_DEADLINE_MS` is not set: generous, since the machine
/// may be loaded, yet far below anything a hung engine would meet.
pub const DEFAULT_DEADLINE_MS: u64 = 10_000;

/// What a run is asked to do, from the environment.
#[derive(Clone, Debug)]
pub struct Config {
    pub lines: usize,
    pub seed: u64,
    pub deadline: Duration,
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name}={v} is not a number"))
        }
        Err(_) => default,
    }
}

impl Config {
    pub fn from_env() -> Config {
        Config {
            lines: env_number("TETRARCH_FUZZ_LINES", DEFAULT_LINES as u64) as usize,
            seed: env_number("TETRARCH_FUZZ_SEED", DEFAULT_SEED),
            deadline: Duration::from_millis(env_number(
                "TETRARCH_FUZZ_DEADLINE_MS",
                DEFAULT_DEADLINE_MS,
            )),
        }
    }

    /// The random stream of one protocol's run: the run seed mixed with the protocol's name, so
    /// that the runs differ but each depends on the seed alone.
    pub fn rng(&self, protocol: &str) -> StdRng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in protocol.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        StdRng::seed_from_u64(self.seed ^ h)
    }
}

/// How many lines of each kind a run sent.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub valid: usize,
    pub mutated: usize,
    pub garbage: usize,
    /// Lines the sanitisers added or substituted (safe levels before `go`, replacements).
    pub inserted: usize,
    pub probes: usize,
    pub elapsed: Duration,
    /// Output lines read, and how many of them were results (a best move, a GTP response).
    pub output: usize,
    pub results: usize,
}

impl Stats {
    pub fn total(&self) -> usize {
        self.valid + self.mutated + self.garbage + self.inserted + self.probes
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} lines ({} valid, {} mutated, {} garbage, {} inserted, {} probes) in {:.1} s; \
             {} lines read, {} results",
            self.total(),
            self.valid,
            self.mutated,
            self.garbage,
            self.inserted,
            self.probes,
            self.elapsed.as_secs_f64(),
            self.output,
            self.results
        )
    }
}

/// What kind of line the run loop generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Valid,
    Mutated,
    Garbage,
}

/// The last lines sent, for failure reports.
#[derive(Default)]
pub struct History {
    lines: VecDeque<Vec<u8>>,
}

impl History {
    pub fn push(&mut self, line: &[u8]) {
        if self.lines.len() == HISTORY {
            self.lines.pop_front();
        }
        self.lines.push_back(line.to_vec());
    }

    pub fn render(&self) -> String {
        let mut s = String::new();
        for l in &self.lines {
            s.push_str("  > ");
            s.push_str(&shown(l));
            s.push('\n');
        }
        s
    }
}

/// A line as a failure report shows it: escaped, and cut when long.
pub fn shown(line: &[u8]) -> String {
    const MAX: usize = 240;
    if line.len() <= MAX {
        line.escape_ascii().to_string()
    } else {
        format!("{} ... ({} bytes)", line[..MAX].escape_ascii(), line.len())
    }
}

/// A scratch directory (the engine's working directory), removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(protocol: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("tetrarch-fuzz-{protocol}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The engine process under test.
pub struct Engine {
    child: Child,
    stdin: Option<Sender<Vec<u8>>>,
    pub out: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    panicked: Arc<AtomicBool>,
    recent: VecDeque<String>,
}

/// Whether stderr text shows a Rust panic (or an abort that Rust reports).
fn panic_text(text: &str) -> bool {
    text.contains("panicked") || text.contains("RUST_BACKTRACE") || text.contains("fatal runtime")
}

impl Engine {
    pub fn spawn(args: &[String], dir: &Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting tetrarch");

        let mut stdin = child.stdin.take().expect("piped stdin");
        let (in_tx, in_rx) = channel::unbounded::<Vec<u8>>();
        std::thread::spawn(move || {
            for bytes in in_rx {
                if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
            // Dropping stdin here is the engine's end of input.
        });

        let stdout = child.stdout.take().expect("piped stdout");
        let (out_tx, out_rx) = channel::unbounded();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        if out_tx
                            .send(String::from_utf8_lossy(&buf).into_owned())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let panicked = Arc::new(AtomicBool::new(false));
        {
            let mut pipe = child.stderr.take().expect("piped stderr");
            let (stderr, panicked) = (stderr.clone(), panicked.clone());
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                let mut tail = String::new();
                loop {
                    match pipe.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let text = String::from_utf8_lossy(&chunk[..n]);
                            // Check across chunk boundaries too.
                            tail.push_str(&text);
                            if panic_text(&tail) {
                                panicked.store(true, Ordering::SeqCst);
                            }
                            let keep = tail.len().saturating_sub(64);
                            let cut = (keep..=tail.len())
                                .find(|&i| tail.is_char_boundary(i))
                                .unwrap_or(tail.len());
                            tail.drain(..cut);
                            let mut all = stderr.lock().unwrap_or_else(|e| e.into_inner());
                            all.extend_from_slice(&chunk[..n]);
                            // Keep the end; the start of a long diagnostic stream says little.
                            if all.len() > 1 << 20 {
                                let cut = all.len() - (1 << 19);
                                all.drain(..cut);
                            }
                        }
                    }
                }
            });
        }

        Engine {
            child,
            stdin: Some(in_tx),
            out: out_rx,
            stderr,
            panicked,
            recent: VecDeque::new(),
        }
    }

    /// Sends bytes to stdin as they are.
    pub fn send_raw(&self, bytes: Vec<u8>) {
        if let Some(tx) = &self.stdin {
            let _ = tx.send(bytes);
        }
    }

    /// Ends the engine's input.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Remembers an output line for reports.
    pub fn saw(&mut self, line: &str) {
        if self.recent.len() == 30 {
            self.recent.pop_front();
        }
        let mut l = line.to_string();
        if l.len() > 200 {
            let cut = (200..l.len())
                .find(|&i| l.is_char_boundary(i))
                .unwrap_or(l.len());
            l.truncate(cut);
            l.push_str(" ...");
        }
        self.recent.push_back(l);
    }

    /// The next output line, waiting until `until` at most. `Err(true)` when stdout closed.
    pub fn next_line(&mut self, until: Instant) -> Result<String, bool> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.out.recv_timeout(wait) {
            Ok(l) => {
                self.saw(&l);
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => Err(false),
            Err(RecvTimeoutError::Disconnected) => Err(true),
        }
    }

    /// An output line if one is waiting.
    pub fn try_line(&mut self) -> Option<String> {
        match self.out.try_recv() {
            Ok(l) => {
                self.saw(&l);
                Some(l)
            }
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => None,
        }
    }

    pub fn panicked(&self) -> bool {
        self.panicked.load(Ordering::SeqCst)
    }

    /// The exit status if the process has ended.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits for the process to end on its own, up to `deadline`; kills it after that.
    pub fn wait_exit(&mut self, deadline: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + deadline;
        while Instant::now() < until {
            if let Some(s) = self.exited() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// Everything the engine has written to stderr so far (the end of it, past a megabyte).
    pub fn stderr_text(&self) -> String {
        let err = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&err).into_owned()
    }

    pub fn report(&self) -> String {
        let err = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&err);
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        let mut s = String::from("last output lines:\n");
        for l in &self.recent {
            s.push_str("  < ");
            s.push_str(l);
            s.push('\n');
        }
        s.push_str("end of stderr:\n");
        for l in tail.iter().rev() {
            s.push_str("  ! ");
            s.push_str(l);
            s.push('\n');
        }
        s
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Only our own child, by its handle.
        if self.exited().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A protocol's line generator and rules for the run loop.
pub trait Grammar {
    /// The protocol's name in reports and seeds.
    fn name(&self) -> &'static str;
    /// The arguments after the binary.
    fn args(&self) -> Vec<String>;
    /// Files the session may read, written into its scratch directory before it starts.
    fn prepare(&mut self, _dir: &Path) {}
    /// The handshake lines, sent first.
    fn opening(&mut self) -> Vec<Vec<u8>>;
    /// One well-formed line (a command with good or bad arguments, as the grammar says).
    fn valid(&mut self, rng: &mut StdRng) -> Vec<u8>;
    /// The protocol's keywords, for garbage.
    fn words(&self) -> &'static [&'static str];
    /// What is actually sent for a generated line: the line itself, a replacement for a line
    /// the run must not send (one that quits, would block or would mimic a probe), or extra
    /// lines before it. `kind` says where the line came from.
    fn sanitize(&mut self, rng: &mut StdRng, line: Vec<u8>, kind: Kind) -> Vec<Vec<u8>>;
    /// The probe line for probe number `k` (from 1).
    fn probe(&mut self, k: usize) -> Vec<u8>;
    /// Whether an output line is a probe's answer.
    fn is_answer(&self, line: &str) -> bool;
    /// Whether an output line is a result worth counting (the run checks there are some).
    fn is_result(&self, line: &str) -> bool;
    /// For a protocol whose probe is answered out of turn (Hub answers `ping` during a search
    /// while the lines after it wait), a check after each probe that every line was handled.
    fn drain(&self) -> Option<Drain> {
        None
    }
}

/// The queue check of a protocol that queues lines behind a search: `marker` is sent
/// and must be answered by `answer` (a line the sanitiser keeps the fuzzed lines from causing;
/// `before` such lines came from the opening), while `nudge` lines end each search that the
/// queue starts and nothing else would end (a `go ponder` whose `stop` was used up earlier).
pub struct Drain {
    pub marker: &'static [u8],
    pub answer: &'static str,
    pub before: usize,
    pub nudge: &'static [u8],
}

/// A stdin protocol's run in progress.
pub struct TextRun<'a> {
    pub engine: Engine,
    /// `TETRARCH_FUZZ_DUMP`: the bytes sent and the lines read, for replaying a run.
    dump: Option<(std::fs::File, std::fs::File)>,
    pub history: History,
    pub stats: Stats,
    pub cfg: &'a Config,
    pub name: &'static str,
    answers: usize,
    /// Lines read that are the drain check's answer, and drain checks made.
    drained: usize,
    drains: usize,
    drain_answer: Option<&'static str>,
}

impl TextRun<'_> {
    pub fn fail(&self, what: &str) -> ! {
        panic!(
            "{} fuzz failed: {what}\nseed {:#x} (TETRARCH_FUZZ_SEED), {} lines sent\nlast {} lines \
             sent:\n{}{}",
            self.name,
            self.cfg.seed,
            self.stats.total(),
            HISTORY,
            self.history.render(),
            self.engine.report()
        );
    }

    fn send(&mut self, line: Vec<u8>) {
        let mut line = one_line(line);
        self.history.push(&line);
        line.push(b'\n');
        if let Some((input, _)) = &mut self.dump {
            let _ = input.write_all(&line);
        }
        self.engine.send_raw(line);
    }

    fn read<G: Grammar>(&mut self, g: &G, line: &str) {
        self.stats.output += 1;
        if let Some((_, output)) = &mut self.dump {
            let _ = writeln!(output, "{line}");
        }
        if g.is_answer(line) {
            self.answers += 1;
        }
        if g.is_result(line) {
            self.stats.results += 1;
        }
        if self.drain_answer == Some(line.trim_end()) {
            self.drained += 1;
        }
    }

    /// Sends the drain marker and nudges until it is answered (see [`Drain`]).
    fn drain_queue<G: Grammar>(&mut self, g: &G) {
        let Some(d) = g.drain() else {
            return;
        };
        self.drains += 1;
        self.stats.inserted += 1;
        self.send(d.marker.to_vec());
        let until = Instant::now() + self.cfg.deadline;
        let mut nudge_at = Instant::now() + NUDGE_EVERY;
        while self.drained < d.before + self.drains {
            match self.engine.next_line(nudge_at.min(until)) {
                Ok(l) => self.read(g, &l),
                Err(true) => self.fail("stdout closed while draining the queue"),
                Err(false) if Instant::now() >= until => self.fail(&format!(
                    "the queued lines were not all handled within {:?} ('{}' unanswered)",
                    self.cfg.deadline,
                    shown(d.marker)
                )),
                Err(false) => {}
            }
            if Instant::now() >= nudge_at {
                self.stats.inserted += 1;
                self.send(d.nudge.to_vec());
                nudge_at += NUDGE_EVERY;
            }
        }
    }

    fn drain<G: Grammar>(&mut self, g: &G) {
        while let Some(l) = self.engine.try_line() {
            self.read(g, &l);
        }
    }

    fn check_alive(&mut self) {
        if self.engine.panicked() {
            self.fail("panic text on stderr");
        }
        if let Some(s) = self.engine.exited() {
            self.fail(&format!("the engine exited ({s})"));
        }
    }

    fn probe<G: Grammar>(&mut self, g: &mut G) {
        self.check_alive();
        self.stats.probes += 1;
        let k = self.stats.probes;
        let line = g.probe(k);
        let shown_probe = shown(&line);
        self.send(line);
        let until = Instant::now() + self.cfg.deadline;
        while self.answers < k {
            match self.engine.next_line(until) {
                Ok(l) => self.read(g, &l),
                Err(closed) => {
                    let why = if closed {
                        "stdout closed"
                    } else {
                        "no answer within the deadline"
                    };
                    self.fail(&format!(
                        "probe {k} ({shown_probe}): {why} ({:?})",
                        self.cfg.deadline
                    ))
                }
            }
        }
        self.check_alive();
    }
}

/// Runs one stdin protocol's fuzz session and returns what it sent.
pub fn run_text<G: Grammar>(mut g: G, cfg: &Config) -> Stats {
    let started = Instant::now();
    let mut rng = cfg.rng(g.name());
    let scratch = Scratch::new(g.name());
    g.prepare(&scratch.0);
    let dump = std::env::var_os("TETRARCH_FUZZ_DUMP").map(|dir| {
        let dir = PathBuf::from(dir);
        let file = |ext: &str| {
            std::fs::File::create(dir.join(format!("{}.{ext}", g.name())))
                .expect("a dump file in TETRARCH_FUZZ_DUMP")
        };
        (file("in"), file("out"))
    });
    let mut run = TextRun {
        engine: Engine::spawn(&g.args(), &scratch.0),
        dump,
        history: History::default(),
        stats: Stats::default(),
        cfg,
        name: g.name(),
        answers: 0,
        drained: 0,
        drains: 0,
        drain_answer: g.drain().map(|d| d.answer),
    };
    for line in g.opening() {
        run.stats.valid += 1;
        run.send(line);
    }
    let mut since_probe = 0;
    while run.stats.total() < cfg.lines {
        if since_probe >= PROBE_EVERY {
            run.probe(&mut g);
            run.drain_queue(&g);
            since_probe = 0;
        }
        let kind = match rng.gen_range(0..100) {
            0..=49 => Kind::Valid,
            50..=84 => Kind::Mutated,
            _ => Kind::Garbage,
        };
        let line = match kind {
            Kind::Valid => g.valid(&mut rng),
            Kind::Mutated => {
                let v = g.valid(&mut rng);
                mutate(&mut rng, &v)
            }
            Kind::Garbage => garbage(&mut rng, g.words()),
        };
        let out = g.sanitize(&mut rng, line, kind);
        let n = out.len();
        for (i, l) in out.into_iter().enumerate() {
            // The generated line is the last one; any before it were added.
            if i + 1 < n {
                run.stats.inserted += 1;
            } else {
                match kind {
                    Kind::Valid => run.stats.valid += 1,
                    Kind::Mutated => run.stats.mutated += 1,
                    Kind::Garbage => run.stats.garbage += 1,
                }
            }
            run.send(l);
            since_probe += 1;
        }
        run.drain(&g);
    }
    // A last probe (and drain), then end of input: the engine must quit by itself, cleanly.
    run.probe(&mut g);
    run.drain_queue(&g);
    run.engine.close_stdin();
    match run.engine.wait_exit(cfg.deadline) {
        Some(s) if s.success() => {}
        Some(s) => run.fail(&format!("exit status {s} after end of input")),
        None => run.fail("still running after end of input"),
    }
    // The reader threads see the last output and stderr once the process is gone.
    std::thread::sleep(Duration::from_millis(50));
    while let Ok(l) = run.engine.out.try_recv() {
        run.read(&g, &l);
    }
    if run.engine.panicked() {
        run.fail("panic text on stderr");
    }
    run.stats.elapsed = started.elapsed();
    run.stats.clone()
}
