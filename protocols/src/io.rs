//! Line I/O shared by every protocol: a stdin reader thread and a flushed line writer.
//!
//! Scheme: one reader thread (the shared `tetrarch_wire::frames` reader) turns the input bytes
//! into lines and sends them on a crossbeam channel, so a protocol's session loop can `select!`
//! over input lines and search events and answer `isready`, `ping` or `protocol_version` while
//! a search runs. Bytes that are not UTF-8 are replaced (never a panic); `\r\n` and `\n` both
//! end a line; end of input closes the channel, which every protocol treats as `quit`.
//! [`Output`] writes whole lines and flushes each one, from any thread, so lines from the
//! search and the session never interleave mid-line.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use crossbeam::channel::{self, Receiver};
use tetrarch_wire::frames::{spawn_reader, Frame, Framing};

/// Input lines, in order; the channel closes at end of input.
pub struct Input {
    rx: Receiver<String>,
}

impl Input {
    /// Starts the reader thread over stdin.
    pub fn stdin() -> Input {
        Input::from_reader(io::stdin())
    }

    /// Starts a reader thread over any byte source (tests feed transcripts through this).
    pub fn from_reader<R: io::Read + Send + 'static>(reader: R) -> Input {
        let (tx, rx) = channel::unbounded();
        let deliver = move |frame, _at| match frame {
            Frame::Message(line) => tx.send(line).is_ok(),
            Frame::TooLong => true, // lines have no limit
        };
        spawn_reader(reader, Framing::LINES, "input", deliver, || {})
            .expect("spawning the input thread");
        Input { rx }
    }

    /// The next line, or `None` at end of input.
    pub fn recv(&self) -> Option<String> {
        self.rx.recv().ok()
    }

    /// The channel itself, for `select!` against search events.
    #[allow(dead_code)] // for protocols that select! over input and engine events
    pub fn receiver(&self) -> &Receiver<String> {
        &self.rx
    }
}

/// A shared line writer. Cloning it shares the same sink.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Writes to stdout.
    pub fn stdout() -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(io::stdout()))),
        }
    }

    /// Writes into a shared buffer that a test can read back with [`Captured::text`].
    #[cfg_attr(not(test), allow(dead_code))] // transcript tests
    pub fn capture() -> (Output, Captured) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let out = Output {
            sink: Arc::new(Mutex::new(Box::new(SharedBuf(buf.clone())))),
        };
        (out, Captured(buf))
    }

    /// Writes one line and flushes it. A closed stdout (the GUI went away) is ignored here;
    /// the session ends when its input closes.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.write_all(b"\n");
        let _ = sink.flush();
    }
}

/// What a captured [`Output`] received.
#[derive(Clone)]
#[cfg_attr(not(test), allow(dead_code))]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

#[cfg_attr(not(test), allow(dead_code))]
impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// Input for in-process transcript tests: each message sent arrives as soon as it is sent, and
/// the input ends when the sender is dropped (as a pipe that stays open until then).
#[cfg(test)]
impl Input {
    pub fn fed() -> (channel::Sender<Vec<u8>>, Input) {
        struct Fed {
            rx: Receiver<Vec<u8>>,
            buf: Vec<u8>,
        }
        impl io::Read for Fed {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.buf.is_empty() {
                    match self.rx.recv() {
                        Ok(b) => self.buf = b,
                        Err(_) => return Ok(0),
                    }
                }
                let n = out.len().min(self.buf.len());
                out[..n].copy_from_slice(&self.buf[..n]);
                self.buf.drain(..n);
                Ok(n)
            }
        }
        let (tx, rx) = channel::unbounded();
        let input = Input::from_reader(Fed {
            rx,
            buf: Vec::new(),
        });
        (tx, input)
    }
}

/// Transcript-test helpers over the captured lines: each test session keeps a count of the
/// lines it has read.
#[cfg(test)]
impl Captured {
    /// The lines written after the first `*seen`; advances `*seen` past them.
    pub fn lines_since(&self, seen: &mut usize) -> Vec<String> {
        let text = self.text();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let new = lines[(*seen).min(lines.len())..].to_vec();
        *seen = lines.len();
        new
    }

    /// Reads new lines until one satisfies `done` and returns all of them; fails the test after
    /// 60 s without such a line.
    pub fn wait_for(&self, seen: &mut usize, done: impl Fn(&str) -> bool) -> Vec<String> {
        let start = std::time::Instant::now();
        let mut got = Vec::new();
        loop {
            got.extend(self.lines_since(seen));
            if got.iter().any(|l| done(l)) {
                return got;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "no final line: {got:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

/// A line-at-a-time adapter under transcript test: UCI and UCCI take one input line per call.
#[cfg(test)]
pub trait LineAdapter {
    /// Handles one input line; false once the adapter has quit.
    fn handle(&mut self, line: &str) -> bool;
}

/// A transcript-test session over a [`LineAdapter`]: lines in, the captured output read back
/// in order.
#[cfg(test)]
pub struct Transcript<A> {
    pub adapter: A,
    pub cap: Captured,
    pub seen: usize,
}

#[cfg(test)]
impl<A: LineAdapter> Transcript<A> {
    pub fn open(make: impl FnOnce(Output) -> A) -> Transcript<A> {
        let (out, cap) = Output::capture();
        Transcript {
            adapter: make(out),
            cap,
            seen: 0,
        }
    }

    pub fn send(&mut self, line: &str) -> bool {
        self.adapter.handle(line)
    }

    /// Lines written since the last call.
    pub fn take(&mut self) -> Vec<String> {
        self.cap.lines_since(&mut self.seen)
    }

    /// Waits for the end of a search (`bestmove ...`, or UCCI's `nobestmove`) and returns
    /// everything up to it.
    pub fn until_bestmove(&mut self) -> Vec<String> {
        self.cap.wait_for(&mut self.seen, |l| {
            l.starts_with("bestmove") || l == "nobestmove"
        })
    }
}

/// The `bestmove` line among `lines`.
#[cfg(test)]
pub fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .map(String::as_str)
        .unwrap()
}

/// Runs `script` against a fresh session made by `open` on its own thread and fails (rather
/// than hanging the test run) unless the session, including dropping it, ends within `limit`.
/// A panic in the script fails the calling test as it is. The session is made on that thread,
/// so it need not be `Send`.
#[cfg(test)]
pub fn within<S: 'static>(
    limit: std::time::Duration,
    open: fn() -> S,
    script: impl FnOnce(&mut S) + Send + 'static,
) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut s = open();
            script(&mut s);
            drop(s);
        }));
        let _ = tx.send(result);
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => std::panic::resume_unwind(e),
        Err(_) => panic!("the session did not end within {limit:?}"),
    }
}

#[cfg_attr(not(test), allow(dead_code))]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_on_lf_and_crlf_and_survive_bad_bytes() {
        let input = Input::from_reader(&b"uci\r\nisready\n\xff\xfegarbage\nlast"[..]);
        assert_eq!(input.recv().as_deref(), Some("uci"));
        assert_eq!(input.recv().as_deref(), Some("isready"));
        assert_eq!(input.recv().as_deref(), Some("\u{fffd}\u{fffd}garbage"));
        assert_eq!(input.recv().as_deref(), Some("last"));
        assert_eq!(input.recv(), None);
    }

    #[test]
    fn captured_output_collects_lines() {
        let (out, cap) = Output::capture();
        out.line("uciok");
        out.clone().line("readyok");
        assert_eq!(cap.text(), "uciok\nreadyok\n");
    }
}
