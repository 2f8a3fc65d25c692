//! A GUI may send its next command the moment it reads `bestmove`: from then on the search is
//! over for it, even while the engine's threads still wind down. These tests drive the real
//! binary through pipes, as a GUI does, and answer each `bestmove` at once; the window between
//! the line and the threads' end is microseconds wide, so each race is run many times.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(first: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tetrarch");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut e = Engine {
            child,
            stdin,
            stdout,
        };
        e.send(first);
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to tetrarch");
        self.stdin.flush().unwrap();
    }

    /// Reads lines up to and including the first that satisfies `done`.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let start = Instant::now();
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .expect("read from tetrarch");
            assert!(n > 0, "tetrarch ended; read {lines:?}");
            let line = line.trim_end().to_string();
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "{lines:?}");
        }
    }

    fn bestmove(&mut self) -> Vec<String> {
        self.until(|l| l.starts_with("bestmove") || l == "nobestmove")
    }

    /// Everything written up to the answer of a liveness probe.
    fn ready(&mut self, probe: &str, answer: &str) -> Vec<String> {
        self.send(probe);
        self.until(|l| l == answer)
    }

    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read the child's /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a VmRSS line")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.contains("error")).collect()
}

/// Runs `rounds` times: `go_lines`, then (at once after `bestmove`) `after`; no error may
/// follow before the next `readyok`.
fn race(go_lines: &[&str], after: &[&str], rounds: usize) {
    let mut e = Engine::start("uci");
    e.until(|l| l == "uciok");
    e.ready("isready", "readyok");
    let mut refused = Vec::new();
    for round in 0..rounds {
        e.send("position startpos");
        for line in go_lines {
            if *line == "stop" {
                // Let the search start before it is stopped.
                std::thread::sleep(Duration::from_millis(5));
            }
            e.send(line);
        }
        e.bestmove();
        for line in after {
            e.send(line);
        }
        let lines = e.ready("isready", "readyok");
        if !errors(&lines).is_empty() {
            refused.push((round, lines));
        }
    }
    assert!(
        refused.is_empty(),
        "{go_lines:?} then {after:?}: {} of {rounds} rounds refused: {refused:?}",
        refused.len()
    );
}

#[test]
fn threads_change_at_once_after_movetime() {
    race(
        &["go movetime 20"],
        &[
            "setoption name Threads value 2",
            "setoption name Threads value 1",
        ],
        40,
    );
}

#[test]
fn threads_change_at_once_after_infinite_and_stop() {
    race(
        &["go infinite", "stop"],
        &["setoption name Threads value 2"],
        100,
    );
}

#[test]
fn threads_change_at_once_after_depth() {
    race(
        &["go depth 6"],
        &[
            "setoption name Threads value 2",
            "setoption name Threads value 1",
        ],
        200,
    );
}

#[test]
fn variant_changes_at_once_after_bestmove() {
    let mut e = Engine::start("uci");
    e.until(|l| l == "uciok");
    for round in 0..40 {
        e.send("position startpos");
        e.send("go movetime 20");
        e.bestmove();
        e.send("setoption name UCI_Variant value xiangqi");
        e.send("d");
        let lines = e.until(|l| l.starts_with("info string variant"));
        assert!(errors(&lines).is_empty(), "round {round}: {lines:?}");
        assert!(
            lines
                .last()
                .unwrap()
                .starts_with("info string variant xiangqi "),
            "round {round}: {lines:?}"
        );
        e.send("setoption name UCI_Variant value chess");
        e.ready("isready", "readyok");
    }
}

#[test]
fn a_smaller_hash_frees_the_larger_table() {
    // The larger table is set after a search, at once after its `bestmove`, as a GUI
    // changing its settings between games would; then shrunk the same way.
    let mut e = Engine::start("uci");
    e.until(|l| l == "uciok");
    e.ready("isready", "readyok");
    let base = e.rss_kb();
    for round in 0..8 {
        e.send("position startpos");
        e.send("go movetime 20");
        e.bestmove();
        e.send("setoption name Hash value 64");
        let lines = e.ready("isready", "readyok");
        assert!(errors(&lines).is_empty(), "round {round}: {lines:?}");
        assert!(
            e.rss_kb() > base + 30_000,
            "round {round}: 64 MB table not in RSS"
        );
        e.send("go movetime 20");
        e.bestmove();
        e.send("setoption name Hash value 1");
        let lines = e.ready("isready", "readyok");
        assert!(errors(&lines).is_empty(), "round {round}: {lines:?}");
        // The search that answered may still be letting go of the old table (its thread
        // drops it as it ends, just after `bestmove`): give that a moment on a loaded machine.
        let mut rss = e.rss_kb();
        for _ in 0..100 {
            if rss < base + 10_000 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
            rss = e.rss_kb();
        }
        assert!(
            rss < base + 10_000,
            "round {round}: RSS {rss} kB after Hash 1 (started at {base} kB)"
        );
    }
}

#[test]
fn ucci_takes_the_next_position_at_once_after_bestmove() {
    let mut e = Engine::start("ucci");
    e.until(|l| l == "ucciok");
    for round in 0..40 {
        e.send("position startpos");
        e.send("go depth 4");
        e.bestmove();
        e.send("setoption threads 2");
        e.send("setoption threads 1");
        let lines = e.ready("isready", "readyok");
        assert!(errors(&lines).is_empty(), "round {round}: {lines:?}");
    }
}
