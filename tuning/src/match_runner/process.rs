//! A child engine process, or a TCP peer, seen as a stream of timestamped lines.
//!
//! Scheme: a reader thread owns the engine's output and turns it into [`Incoming`] messages on
//! a crossbeam channel: each line (or, for DXP, each NUL-terminated message) with the instant it
//! was read, then `Closed` at end of stream. The runner therefore never blocks on an engine: it
//! waits on the channel with a deadline, so a hang becomes a timeout and a crash becomes
//! `Closed`. Times of answers are taken from the reader's timestamps, which keeps the runner's
//! own scheduling delays out of the engines' clocks. Output is decoded as lossy UTF-8, so
//! garbage bytes arrive as text the protocol parsers reject, never as an error here.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError};

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

/// A bidirectional text link: a writer and a channel of incoming messages.
pub struct Link {
    label: String,
    writer: Box<dyn Write + Send>,
    rx: Receiver<Incoming>,
    /// Appended to every message written (newline for pipes, NUL for DXP).
    terminator: &'static [u8],
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
            .and_then(|_| self.writer.write_all(self.terminator))
            .and_then(|_| self.writer.flush());
        r.map_err(|e| LinkError::Closed(format!("write failed: {e}")))
    }

    /// Drops every message already received.
    pub fn drain(&mut self) {
        while let Ok(m) = self.rx.try_recv() {
            if matches!(m, Incoming::Closed) {
                self.closed = true;
            }
        }
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
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(Incoming::Line(line, at)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Incoming::Closed);
            })
            .map_err(|e| format!("cannot start reader thread: {e}"))?;
        Ok(EngineProcess {
            child,
            link: Link {
                label: label.to_string(),
                writer: Box::new(stdin),
                rx,
                terminator: b"\n",
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

/// Connects to a DXP peer: messages are NUL-terminated; a reader thread splits them.
pub fn connect_nul_framed(
    addr: &str,
    label: &str,
    debug: bool,
    timeout: Duration,
) -> Result<Link, String> {
    let until = Instant::now() + timeout;
    // The engine may still be starting its server: retry until the timeout.
    let stream = loop {
        match TcpStream::connect(addr) {
            Ok(s) => break s,
            Err(e) => {
                if Instant::now() >= until {
                    return Err(format!("cannot connect to {addr}: {e}"));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    };
    let _ = stream.set_nodelay(true);
    let read_half = stream
        .try_clone()
        .map_err(|e| format!("cannot clone socket: {e}"))?;
    let (tx, rx) = channel::unbounded();
    std::thread::Builder::new()
        .name(format!("read {label}"))
        .spawn(move || {
            let mut reader = BufReader::new(read_half);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        let text = String::from_utf8_lossy(&buf).to_string();
                        if tx.send(Incoming::Line(text, at)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Incoming::Closed);
        })
        .map_err(|e| format!("cannot start reader thread: {e}"))?;
    Ok(Link {
        label: label.to_string(),
        writer: Box::new(stream),
        rx,
        terminator: b"\0",
        debug,
        closed: false,
    })
}
