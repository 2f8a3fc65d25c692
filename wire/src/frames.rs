//! Cutting a byte stream into messages, on a reader thread.
//!
//! Scheme: a [`Framer`] reads messages that end in one byte ([`Framing::end`]: `\n` for the
//! line protocols, NUL for DXP). Bytes that are not UTF-8 are replaced, never an error. A line
//! loses its `\r\n` or `\n`; a message with a length limit ([`Framing::max`], 127 for DXP)
//! is never held past it: the framer reports [`Frame::TooLong`] as soon as the limit is
//! passed and then skips the rest up to the next end byte without storing it, so a peer that
//! sends no end byte costs no memory. [`spawn_reader`] runs a framer on a thread of its own and
//! hands every message, with the instant it was read, to a callback (which sends it on the
//! caller's channel), then runs a hook once the stream has ended. Readers of engines and GUIs
//! therefore never block the session that waits on them.

use std::io::{self, BufRead, BufReader, Read};
use std::thread::JoinHandle;
use std::time::Instant;

/// How a stream is cut into messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    /// The byte that ends a message (not part of it).
    pub end: u8,
    /// The most bytes a message may have, its end byte not counted; `None`: no limit.
    pub max: Option<usize>,
    /// Whether bytes left without an end byte when the stream ends are a message (a last
    /// line without its newline) or are dropped (a DXP message cut off).
    pub keep_partial: bool,
}

impl Framing {
    /// Newline-ended lines of any length (UCI, UCCI, GTP, Hub); `\r` before the newline is
    /// dropped too.
    pub const LINES: Framing = Framing {
        end: b'\n',
        max: None,
        keep_partial: true,
    };

    /// DXP's layer 1: NUL-ended messages of 1-127 characters.
    pub const DXP: Framing = Framing {
        end: 0,
        max: Some(127),
        keep_partial: false,
    };
}

/// What the framer read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// One message without its end byte (lossy UTF-8).
    Message(String),
    /// A message passed [`Framing::max`] with no end byte; its rest is skipped unread.
    TooLong,
}

/// Splits a byte stream into messages; see the module doc.
pub struct Framer<R> {
    reader: BufReader<R>,
    framing: Framing,
    /// Inside a message already reported as too long: drop bytes up to its end.
    skipping: bool,
}

impl<R: Read> Framer<R> {
    pub fn new(reader: R, framing: Framing) -> Framer<R> {
        Framer {
            reader: BufReader::new(reader),
            framing,
            skipping: false,
        }
    }

    /// Bytes read from the stream and not yet framed.
    pub fn buffered(&self) -> usize {
        self.reader.buffer().len()
    }

    /// The next message; `None` at the end of the stream (or a read error).
    pub fn next_frame(&mut self) -> Option<Frame> {
        let end = self.framing.end;
        let mut msg: Vec<u8> = Vec::new();
        loop {
            let buf = match self.reader.fill_buf() {
                Ok([]) => {
                    let partial = !msg.is_empty() && self.framing.keep_partial;
                    return partial.then(|| self.finish(msg));
                }
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            let found = buf.iter().position(|&b| b == end);
            if self.skipping {
                let used = found.map_or(buf.len(), |i| i + 1);
                self.skipping = found.is_none();
                self.reader.consume(used);
                continue;
            }
            let take = found.unwrap_or(buf.len());
            if self.framing.max.is_some_and(|max| msg.len() + take > max) {
                self.skipping = true;
                return Some(Frame::TooLong);
            }
            msg.extend_from_slice(&buf[..take]);
            match found {
                Some(_) => {
                    self.reader.consume(take + 1);
                    return Some(self.finish(msg));
                }
                None => self.reader.consume(take),
            }
        }
    }

    fn finish(&self, mut msg: Vec<u8>) -> Frame {
        if self.framing.end == b'\n' {
            while msg.last() == Some(&b'\r') {
                msg.pop();
            }
        }
        Frame::Message(String::from_utf8_lossy(&msg).into_owned())
    }
}

/// Runs a [`Framer`] over `reader` on a thread named `name`: each message goes to `deliver`
/// with the instant it was read, until `deliver` returns false or the stream ends; then
/// `on_close` runs.
pub fn spawn_reader<R: Read + Send + 'static>(
    reader: R,
    framing: Framing,
    name: &str,
    mut deliver: impl FnMut(Frame, Instant) -> bool + Send + 'static,
    on_close: impl FnOnce() + Send + 'static,
) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let mut framer = Framer::new(reader, framing);
            while let Some(frame) = framer.next_frame() {
                if !deliver(frame, Instant::now()) {
                    break;
                }
            }
            on_close();
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that counts the bytes taken from it.
    struct Counted<R>(R, std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            Ok(n)
        }
    }

    fn all(bytes: &[u8], framing: Framing) -> Vec<Frame> {
        let mut f = Framer::new(bytes, framing);
        std::iter::from_fn(|| f.next_frame()).collect()
    }

    fn msg(text: &str) -> Frame {
        Frame::Message(text.into())
    }

    #[test]
    fn lines_split_on_lf_and_crlf_and_survive_bad_bytes() {
        let got = all(b"uci\r\nisready\n\xff\xfegarbage\n\nlast", Framing::LINES);
        assert_eq!(
            got,
            vec![
                msg("uci"),
                msg("isready"),
                msg("\u{fffd}\u{fffd}garbage"),
                msg(""),
                msg("last")
            ]
        );
    }

    #[test]
    fn dxp_messages_end_in_nul_and_a_cut_one_is_dropped() {
        let got = all(b"E00\0\0M0012\r\n\0cut", Framing::DXP);
        assert_eq!(got, vec![msg("E00"), msg(""), msg("M0012\r\n")]);
        let text = [b'x'; 127];
        let exact = [&text[..], b"\0"].concat();
        assert_eq!(all(&exact, Framing::DXP), vec![msg(&"x".repeat(127))]);
    }

    #[test]
    fn the_framer_stops_at_127_characters_and_holds_no_more() {
        // 20 MB with no NUL: the framer says so after one buffer of it, not after all.
        let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let flood = io::repeat(b'x').take(20 << 20);
        let tail = &b"\0E21\0"[..];
        let mut f = Framer::new(Counted(flood.chain(tail), read.clone()), Framing::DXP);
        assert_eq!(f.next_frame(), Some(Frame::TooLong));
        let taken = read.load(std::sync::atomic::Ordering::Relaxed);
        assert!(taken <= 64 * 1024, "read {taken} bytes");
        assert!(f.buffered() <= 64 * 1024);
        // The rest of it is skipped; the next message is read.
        assert_eq!(f.next_frame(), Some(msg("E21")));
        assert_eq!(f.next_frame(), None);
    }

    #[test]
    fn the_reader_thread_delivers_in_order_then_closes() {
        let (tx, rx) = crossbeam::channel::unbounded();
        let (closed_tx, closed_rx) = crossbeam::channel::bounded(1);
        spawn_reader(
            &b"a\nb\n"[..],
            Framing::LINES,
            "test reader",
            move |f, _| tx.send(f).is_ok(),
            move || closed_tx.send(()).unwrap(),
        )
        .unwrap()
        .join()
        .unwrap();
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), vec![msg("a"), msg("b")]);
        assert!(closed_rx.try_recv().is_ok());
    }
}
