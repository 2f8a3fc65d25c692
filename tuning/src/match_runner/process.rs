//! A child engine process seen as a stream of timestamped lines.
//!
//! Scheme: a reader thread (the shared `tetrarch_wire::frames` reader) owns the engine's output
//! and turns it into [`Incoming`] messages on a crossbeam channel: each line with the instant it
//! was read, then `Closed` at end of stream. (DXP engines, reached over TCP, have the wire
//! crate's `dxp::Conn` instead.) The runner therefore never blocks on an engine: it waits on
//! the channel with a deadline, so a hang becomes a timeout and a crash becomes `Closed`. Times
//! of answers are taken from the reader's timestamps, which keeps the runner's own scheduling
//! delays out of the engines' clocks. Output is decoded as lossy UTF-8, so garbage bytes arrive
//! as text the protocol parsers reject, never as an error here.

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError};
use tetrarch_wire::frames::{spawn_reader, Frame, Framing};

/// What the reader thread saw.
#[derive(Debug)]
pub enum Incoming {
    Line(String, Instant),
    Closed,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// No message before the deadline.
    Timeout,
    /// The engine closed its output or exited (with a description of how).
    Closed(String),
}

/// A bidirectional text link: a writer and a channel of incoming lines.
pub struct Link {
    label: String,
    writer: Box<dyn Write + Send>,
    rx: Receiver<Incoming>,
    debug: bool,
    closed: bool,
}

impl Link {
    /// Waits for the next message until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<(String, Instant), LinkError> {
        if self.closed {
            return Err(LinkError::Closed("output closed".into()));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Incoming::Line(line, at)) => {
                if self.debug {
                    eprintln!("{} > {}", self.label, line);
                }
                Ok((line, at))
            }
            Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(LinkError::Closed("output closed".into()))
            }
            Err(RecvTimeoutError::Timeout) => Err(LinkError::Timeout),
        }
    }

    /// Writes one message. A broken pipe means the engine is gone.
    pub fn send(&mut self, text: &str) -> Result<(), LinkError> {
        if self.debug {
            for line in text.lines() {
                eprintln!("{} < {}", self.label, line);
            }
        }
        let r = self
            .writer
            .write_all(text.as_bytes())
            .and_then(|_| self.writer.write_all(b"\n"))
            .and_then(|_| self.writer.flush());
        r.map_err(|e| LinkError::Closed(format!("write failed: {e}")))
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// A running engine process with its stdin/stdout link.
pub struct EngineProcess {
    child: Child,
    pub link: Link,
}

/// How to start an engine.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<String>,
    /// Where the engine's stderr goes (appended); discarded when `None`.
    pub stderr: Option<String>,
}

impl EngineProcess {
    /// Starts the engine; its stdout is read by a thread of its own.
    pub fn spawn(launch: &Launch, label: &str, debug: bool) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&launch.cmd);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &launch.stderr {
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open stderr file {path}: {e}"))?;
                cmd.stderr(f);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", launch.cmd))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel::unbounded();
        let closed = tx.clone();
        let deliver = move |frame, at| match frame {
            Frame::Message(line) => tx.send(Incoming::Line(line, at)).is_ok(),
            Frame::TooLong => true, // lines have no limit
        };
        let on_close = move || {
            let _ = closed.send(Incoming::Closed);
        };
        spawn_reader(
            stdout,
            Framing::LINES,
            &format!("read {label}"),
            deliver,
            on_close,
        )
        .map_err(|e| format!("cannot start reader thread: {e}"))?;
        Ok(EngineProcess {
            child,
            link: Link {
                label: label.to_string(),
                writer: Box::new(stdin),
                rx,
                debug,
                closed: false,
            },
        })
    }

    /// How the process ended, if it has.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(describe_exit(status)),
            _ => None,
        }
    }

    /// Waits up to `grace` for the process to exit by itself, then kills it.
    pub fn finish(&mut self, grace: Duration) {
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with code {c}"),
        None => "exited".into(),
    }
}
