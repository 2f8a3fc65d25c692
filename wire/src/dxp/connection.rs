//! DXP layer 1: a TCP connection that carries [`Message`]s.
//!
//! Scheme: the socket's reading half belongs to a reader thread ([`crate::frames`] with
//! [`Framing::DXP`]): it cuts NUL-ended messages of at most 127 characters, refusing a longer
//! one as soon as it passes the limit, and puts them with the instant they were read on a
//! channel. [`Conn::recv`] waits on that channel (until an optional deadline) and decodes;
//! what does not decode comes back as an error text for the caller to answer or report. The
//! reader's end is visible without reading a message: [`Conn::gone`] is a channel that
//! disconnects when the peer has closed the connection, for a search to `select!` on. A write
//! that fails closes the connection. Two of our messages with none of the peer's between them
//! can be spaced by a minimum gap ([`Conn::set_send_gap`]), which pydraughts needs: its
//! receiver reads one socket chunk per message and drops whatever follows the first NUL in it.
//! Every message can be traced to stderr with a prefix per direction.

use std::io::{self, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError, TryRecvError};

use super::message::Message;
use crate::frames::{spawn_reader, Frame, Framing};

/// Prefixes for tracing messages to stderr.
#[derive(Clone, Debug)]
pub struct Trace {
    pub sent: String,
    pub received: String,
}

/// One message as it arrived: decoded, or what is wrong with it; and when it was read.
#[derive(Clone, Debug)]
pub struct Received {
    pub message: Result<Message, String>,
    pub at: Instant,
}

/// Why no message came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecvError {
    /// The deadline passed first.
    Timeout,
    /// The peer closed the connection (or a write to it failed).
    Closed,
}

/// A DXP connection; see the module doc.
pub struct Conn {
    incoming: Receiver<(Frame, Instant)>,
    /// Never carries a message: it disconnects when the reader thread ends.
    gone: Receiver<()>,
    writer: TcpStream,
    trace: Option<Trace>,
    send_gap: Duration,
    /// When the last message went out, unless one has come in since.
    last_send: Option<Instant>,
    closed: bool,
}

impl Conn {
    pub fn new(stream: TcpStream, trace: Option<Trace>) -> io::Result<Conn> {
        Conn::with_close_hook(stream, trace, || {})
    }

    /// As `new`, and `on_close` runs as soon as the connection is closed, by the peer or by
    /// dropping the `Conn` (from the reader thread, before `recv` reports it).
    pub fn with_close_hook(
        stream: TcpStream,
        trace: Option<Trace>,
        on_close: impl FnOnce() + Send + 'static,
    ) -> io::Result<Conn> {
        stream.set_nodelay(true)?;
        let read_half = stream.try_clone()?;
        let (tx, incoming) = channel::unbounded();
        let (gone_tx, gone) = channel::bounded::<()>(0);
        spawn_reader(
            read_half,
            Framing::DXP,
            "dxp reader",
            move |frame, at| tx.send((frame, at)).is_ok(),
            move || {
                drop(gone_tx);
                on_close();
            },
        )?;
        Ok(Conn {
            incoming,
            gone,
            writer: stream,
            trace,
            send_gap: Duration::ZERO,
            last_send: None,
            closed: false,
        })
    }

    /// Connects to `addr`, retrying every `pause` until `patience` has passed (the peer may
    /// still be starting its server).
    pub fn connect(
        addr: &str,
        patience: Duration,
        pause: Duration,
        trace: Option<Trace>,
    ) -> Result<Conn, String> {
        let until = Instant::now() + patience;
        let stream = loop {
            match TcpStream::connect(addr) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= until => {
                    return Err(format!("cannot connect to {addr}: {e}"))
                }
                Err(_) => std::thread::sleep(pause),
            }
        };
        Conn::new(stream, trace).map_err(|e| format!("cannot read from {addr}: {e}"))
    }

    /// The least time between two of our messages with none of the peer's between them.
    pub fn set_send_gap(&mut self, gap: Duration) {
        self.send_gap = gap;
    }

    /// Disconnects once the peer has closed the connection: for `select!` beside a search.
    pub fn gone(&self) -> &Receiver<()> {
        &self.gone
    }

    /// Whether the connection is closed: by the peer, or by a failed write. Messages that came
    /// before the close may still be waiting for `recv`.
    pub fn is_closed(&self) -> bool {
        self.closed || matches!(self.gone.try_recv(), Err(TryRecvError::Disconnected))
    }

    /// Sends one message. An error means the peer is gone; the connection is closed then.
    pub fn send(&mut self, m: &Message) -> io::Result<()> {
        if self.closed {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "connection closed",
            ));
        }
        if let Some(at) = self.last_send {
            let since = at.elapsed();
            if since < self.send_gap {
                std::thread::sleep(self.send_gap - since);
            }
        }
        self.last_send = Some(Instant::now());
        let text = m.encode();
        if let Some(t) = &self.trace {
            eprintln!("{}{text}", t.sent);
        }
        let sent = self
            .writer
            .write_all(text.as_bytes())
            .and_then(|_| self.writer.write_all(&[0]))
            .and_then(|_| self.writer.flush());
        if sent.is_err() {
            self.closed = true;
        }
        sent
    }

    /// The next message, waiting until `deadline` (forever with `None`). Empty messages are
    /// skipped; one that does not decode, or is too long, comes back as its error text.
    pub fn recv(&mut self, deadline: Option<Instant>) -> Result<Received, RecvError> {
        loop {
            if self.closed {
                return Err(RecvError::Closed);
            }
            let next = match deadline {
                None => self
                    .incoming
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => self
                    .incoming
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            let (frame, at) = match next {
                Ok(x) => x,
                Err(RecvTimeoutError::Timeout) => return Err(RecvError::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Err(RecvError::Closed);
                }
            };
            self.last_send = None;
            let message = match frame {
                Frame::TooLong => {
                    if let Some(t) = &self.trace {
                        eprintln!("{}(over 127 characters)", t.received);
                    }
                    Err("message longer than 127 characters".to_string())
                }
                Frame::Message(text) => {
                    if let Some(t) = &self.trace {
                        eprintln!("{}{text}", t.received);
                    }
                    if text.is_empty() {
                        continue;
                    }
                    Message::decode(&text)
                }
            };
            return Ok(Received { message, at });
        }
    }

    /// Drops every message already received.
    pub fn drain(&mut self) {
        while self.incoming.try_recv().is_ok() {}
    }
}

impl Drop for Conn {
    /// Ends the reader thread too (its blocked read returns).
    fn drop(&mut self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;

    fn pair() -> (Conn, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let conn = Conn::connect(
            &addr,
            Duration::from_secs(5),
            Duration::from_millis(10),
            None,
        )
        .unwrap();
        let (peer, _) = listener.accept().unwrap();
        (conn, peer)
    }

    #[test]
    fn messages_go_out_nul_ended_and_come_in_decoded() {
        let (mut conn, mut peer) = pair();
        conn.send(&Message::GameEnd { reason: 2, stop: 0 }).unwrap();
        let mut got = [0u8; 4];
        peer.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"E20\0");
        peer.write_all(b"K0\0\0E123\0").unwrap();
        let until = Some(Instant::now() + Duration::from_secs(10));
        let first = conn.recv(until).unwrap();
        assert_eq!(first.message, Ok(Message::BackAcc { code: 0 }));
        assert!(conn.recv(until).unwrap().message.is_err());
        let soon = Some(Instant::now() + Duration::from_millis(20));
        assert_eq!(conn.recv(soon).unwrap_err(), RecvError::Timeout);
        assert!(!conn.is_closed());
        drop(peer);
        assert!(conn.gone().recv_timeout(Duration::from_secs(10)).is_err());
        assert!(conn.is_closed());
        assert_eq!(conn.recv(until).unwrap_err(), RecvError::Closed);
    }
}
