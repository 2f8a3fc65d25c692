//! DXP (DamExchange): engine-against-engine draughts over TCP, both roles.
//!
//! Scheme: [`Message`] is the layer-2 message set with its fixed-width text form (`encode`,
//! `decode`, which rejects a fixed-width message of the wrong length); [`Conn`] frames messages
//! on the socket (ASCII, 1-127 characters, each ended by a NUL; a longer one is refused as soon
//! as it passes the limit) on a reader thread of its own, so a search sees the peer go away
//! and ends at once. A session is a [`Player`]: the engine, the game, and the settings from the
//! command line. The follower (`tetrarch dxp --listen`) serves connections one after another,
//! refusing a second one while a first is open, and answers game requests; the initiator (`tetrarch dxp --connect`) sends one game request per game,
//! alternating colours. In a game each side either moves or, when the game is over by rule on
//! its turn (or the agreed number of moves is played), sends GAMEEND with its result; the other
//! side answers with its own GAMEEND (reason 0). A back request inside the game is granted
//! (BACKACC 0) and the game goes back to it; chat is logged. Malformed or illegal messages are
//! answered with a chat line and otherwise ignored, except an illegal move, which ends the game
//! (unknown result). Results go to stdout one line per game; with `--verbose`, every move and
//! message goes to stderr.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crossbeam::channel::{self, Receiver, TryRecvError};
use tetrarch::game::{Notation, Outcome, Position, Side, Verdict};
use tetrarch::games::draughts::squares::mask_of_square;
use tetrarch::games::draughts::{Board, Move};
use tetrarch::limits::Limits;
use tetrarch::score::{Score, MATE_IN_MAX_PLY};
use tetrarch::time::Clock;

use super::{new_engine, DraughtsEngine};

/// The DXP port everyone uses.
pub const DEFAULT_PORT: u16 = 27531;

/// Command-line options of `tetrarch dxp`.
#[derive(clap::Args, Clone, Debug)]
pub struct DxpArgs {
    /// Follower (server) role: wait for game requests on this port of 127.0.0.1 (27531 when
    /// no port is given).
    #[arg(long, value_name = "PORT", num_args = 0..=1, default_missing_value = "27531",
          conflicts_with = "connect")]
    pub listen: Option<u16>,
    /// Initiator (client) role: connect to HOST:PORT and request games.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Initiator: number of games, colours alternating (we take White first).
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Initiator: thinking time per game in minutes (the follower takes the request's).
    #[arg(long, default_value_t = 5)]
    pub minutes: u32,
    /// Initiator: moves per game before adjudication (0: no limit).
    #[arg(long, default_value_t = 0)]
    pub moves: u32,
    /// Search to this depth instead of by the clock.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search this many nodes instead of by the clock.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Think this many milliseconds per move instead of by the clock.
    #[arg(long)]
    pub movetime: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Name announced to the opponent.
    #[arg(long, default_value = "Tetrarch")]
    pub name: String,
    /// Log moves and messages to stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// A DXP layer-2 message.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `R`: version, initiator name, the follower's colour, minutes, moves, start position
    /// (`None` for the initial position with White to move).
    GameReq {
        version: u32,
        name: String,
        follower: Side,
        minutes: u32,
        moves: u32,
        start: Option<Board>,
    },
    /// `A`: follower name, acceptance code (0 accept, 1 wrong version, 2 not this game, 3 no).
    GameAcc { name: String, code: u8 },
    /// `M`: seconds used, from, to, captured squares (any order).
    Move {
        seconds: u32,
        from: u8,
        to: u8,
        captured: Vec<u8>,
    },
    /// `E`: reason (0 unknown, 1 I lose, 2 draw, 3 I win), stop code (0 next game, 1 stop).
    GameEnd { reason: u8, stop: u8 },
    /// `C`: free text.
    Chat(String),
    /// `B`: go back to this move number with this side to move.
    BackReq { move_number: u32, side: Side },
    /// `K`: 0 accept, 1 not supported, 2 refused.
    BackAcc { code: u8 },
}

fn colour_char(side: Side) -> char {
    match side {
        Side::First => 'W',
        Side::Second => 'Z',
    }
}

fn colour_of(c: char) -> Option<Side> {
    match c {
        'W' | 'w' => Some(Side::First),
        'Z' | 'z' | 'B' | 'b' => Some(Side::Second),
        _ => None,
    }
}

fn padded(name: &str, width: usize) -> String {
    let clean: String = name
        .chars()
        .filter(|c| c.is_ascii() && !c.is_ascii_control())
        .take(width)
        .collect();
    let clean = clean.trim_start();
    format!("{clean:<width$}")
}

/// DXP's board text: the side to move (`W`/`Z`) and squares 1-50 as `e w z W Z`.
fn board_text(b: &Board) -> String {
    b.to_hub()
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'B') => 'Z',
            (_, 'b') if i > 0 => 'z',
            (_, 'B') => 'Z',
            (_, c) => c,
        })
        .collect()
}

fn board_from_text(t: &str) -> Result<Board, String> {
    let hub: String = t
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'Z') | (0, 'z') => 'B',
            (_, 'z') => 'b',
            (_, 'Z') => 'B',
            (_, c) => c,
        })
        .collect();
    Board::from_hub(&hub).map_err(|e| e.to_string())
}

impl Message {
    /// The message's wire text (without the NUL).
    pub fn encode(&self) -> String {
        match self {
            Message::GameReq {
                version,
                name,
                follower,
                minutes,
                moves,
                start,
            } => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    version.min(&99),
                    padded(name, 32),
                    colour_char(*follower),
                    minutes.min(&999),
                    moves.min(&999)
                );
                match start {
                    None => s.push('A'),
                    Some(b) => {
                        s.push('B');
                        s.push_str(&board_text(b));
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", padded(name, 32), code.min(&9)),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    seconds.min(&9999),
                    from,
                    to,
                    captured.len().min(20)
                );
                for c in captured.iter().take(20) {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{}{}", reason.min(&9), stop.min(&9)),
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| {
                        if c.is_ascii() && !c.is_ascii_control() {
                            c
                        } else {
                            '?'
                        }
                    })
                    .take(126)
                    .collect();
                format!("C{}", if clean.is_empty() { " ".into() } else { clean })
            }
            Message::BackReq { move_number, side } => {
                format!("B{:03}{}", move_number.min(&999), colour_char(*side))
            }
            Message::BackAcc { code } => format!("K{}", code.min(&9)),
        }
    }

    /// Reads a message; the error names what is wrong. Every message but CHAT has a fixed
    /// layout, and one of another length (junk after it, a field missing) is an error, as is
    /// a field that is not zero-padded digits or a code outside the spec's range.
    pub fn decode(text: &str) -> Result<Message, String> {
        let t = text.trim_end_matches(['\0', '\r', '\n']);
        if !t.is_ascii() {
            return Err("message is not ASCII".into());
        }
        let kind = t.chars().next().ok_or("empty message")?;
        let rest = &t[1..];
        let num = |from: usize, len: usize, what: &str| -> Result<u32, String> {
            rest.get(from..from + len)
                .filter(|f| f.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|f| f.parse::<u32>().ok())
                .ok_or_else(|| format!("bad {what} in '{}'", clip(t)))
        };
        let code = |from: usize, max: u32, what: &str| -> Result<u8, String> {
            let c = num(from, 1, what)?;
            if c > max {
                return Err(format!("{what} {c} is not 0-{max} in '{}'", clip(t)));
            }
            Ok(c as u8)
        };
        let square = |from: usize, what: &str| -> Result<u8, String> {
            let sq = num(from, 2, what)?;
            if !(1..=50).contains(&sq) {
                return Err(format!("{what} {sq} is outside 1-50 in '{}'", clip(t)));
            }
            Ok(sq as u8)
        };
        let length = |want: usize, what: &str| -> Result<(), String> {
            if t.len() != want {
                return Err(format!(
                    "{what} of {} characters, not {want}: '{}'",
                    t.len(),
                    clip(t)
                ));
            }
            Ok(())
        };
        match kind {
            'R' => {
                let version = num(0, 2, "version")?;
                let name = rest
                    .get(2..34)
                    .ok_or("short game request")?
                    .trim()
                    .to_string();
                let follower = rest
                    .get(34..35)
                    .and_then(|c| colour_of(c.chars().next()?))
                    .ok_or("bad follower colour")?;
                let minutes = num(35, 3, "thinking time")?;
                let moves = num(38, 3, "number of moves")?;
                let start = match rest.get(41..42) {
                    Some("A") => {
                        length(43, "game request")?;
                        None
                    }
                    Some("B") => {
                        length(94, "game request with a position")?;
                        Some(board_from_text(&rest[42..93])?)
                    }
                    _ => return Err("bad start position code".into()),
                };
                Ok(Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    start,
                })
            }
            'A' => {
                length(34, "game accept")?;
                let name = rest[0..32].trim().to_string();
                let code = code(32, 3, "acceptance code")?;
                Ok(Message::GameAcc { name, code })
            }
            'M' => {
                let seconds = num(0, 4, "time")?;
                let from = square(4, "from square")?;
                let to = square(6, "to square")?;
                let n = num(8, 2, "capture count")? as usize;
                if n > 20 {
                    return Err(format!("capture count {n} is over 20"));
                }
                length(11 + 2 * n, &format!("move with {n} captures"))?;
                let captured = (0..n)
                    .map(|k| square(10 + 2 * k, "captured square"))
                    .collect::<Result<Vec<u8>, String>>()?;
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            'E' => {
                length(3, "game end")?;
                Ok(Message::GameEnd {
                    reason: code(0, 3, "reason")?,
                    stop: code(1, 1, "stop code")?,
                })
            }
            'C' => Ok(Message::Chat(rest.to_string())),
            'B' => {
                length(5, "back request")?;
                Ok(Message::BackReq {
                    move_number: num(0, 3, "move number")?,
                    side: rest
                        .get(3..4)
                        .and_then(|c| colour_of(c.chars().next()?))
                        .ok_or("bad colour in back request")?,
                })
            }
            'K' => {
                length(2, "back accept")?;
                Ok(Message::BackAcc {
                    code: code(0, 2, "acceptance code")?,
                })
            }
            other => Err(format!("unknown message type '{other}'")),
        }
    }
}

fn clip(t: &str) -> String {
    t.chars().take(60).collect()
}

/// The most characters a message may have, its NUL not counted.
pub const MAX_MESSAGE: usize = 127;

/// What the framer read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// One message, its NUL taken off (lossy UTF-8).
    Message(String),
    /// A message passed [`MAX_MESSAGE`] characters with no NUL; its rest, up to the next NUL,
    /// is skipped unread.
    TooLong,
}

/// Splits a byte stream into NUL-ended messages, never holding more than [`MAX_MESSAGE`]
/// bytes of one: a peer that sends no NUL costs no memory.
pub struct Framer<R> {
    reader: BufReader<R>,
    /// Inside a message already reported as too long: drop bytes up to its NUL.
    skipping: bool,
}

impl<R: Read> Framer<R> {
    pub fn new(reader: R) -> Framer<R> {
        Framer {
            reader: BufReader::new(reader),
            skipping: false,
        }
    }

    /// The next message; `None` at the end of the stream (or a read error). A message cut
    /// off by the end of the stream is dropped.
    pub fn next_frame(&mut self) -> Option<Frame> {
        let mut msg: Vec<u8> = Vec::new();
        loop {
            let buf = match self.reader.fill_buf() {
                Ok([]) => return None,
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            let nul = buf.iter().position(|&b| b == 0);
            if self.skipping {
                let used = nul.map_or(buf.len(), |i| i + 1);
                self.skipping = nul.is_none();
                self.reader.consume(used);
                continue;
            }
            let take = nul.unwrap_or(buf.len());
            if msg.len() + take > MAX_MESSAGE {
                self.skipping = true;
                return Some(Frame::TooLong);
            }
            msg.extend_from_slice(&buf[..take]);
            match nul {
                Some(_) => {
                    self.reader.consume(take + 1);
                    return Some(Frame::Message(String::from_utf8_lossy(&msg).into_owned()));
                }
                None => self.reader.consume(take),
            }
        }
    }
}

/// A DXP connection: NUL-framed messages, read by a thread of their own so that a search can
/// watch for the peer going away.
///
/// Two messages sent back to back (GAMEACC then our first move, BACKACC then a move, a chat
/// then GAMEEND) are spaced by [`SEND_GAP`]: pydraughts' receiver reads one socket chunk per
/// message and drops whatever follows the first NUL in it, so two messages arriving together
/// lose the second. A write that fails (the peer is gone) closes the connection: the next
/// `recv` says so, and nothing is an error that ends the program.
pub struct Conn {
    incoming: Receiver<Frame>,
    /// Never carries a message: it disconnects when the reader thread ends (the peer closed).
    gone: Receiver<()>,
    writer: TcpStream,
    verbose: bool,
    /// When the last message went out, unless one has come in since.
    last_send: Option<Instant>,
    closed: bool,
}

/// The least time between two of our messages with none of the peer's in between.
const SEND_GAP: std::time::Duration = std::time::Duration::from_millis(100);

impl Conn {
    pub fn new(stream: TcpStream, verbose: bool) -> std::io::Result<Conn> {
        Conn::with_close_hook(stream, verbose, || {})
    }

    /// As `new`, and `on_close` runs as soon as the connection is closed, by the peer or by
    /// dropping the `Conn` (from the reader thread, before `recv` reports it).
    pub fn with_close_hook(
        stream: TcpStream,
        verbose: bool,
        on_close: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<Conn> {
        stream.set_nodelay(true)?;
        let read_half = stream.try_clone()?;
        let (tx, incoming) = channel::unbounded();
        let (gone_tx, gone) = channel::bounded::<()>(0);
        std::thread::Builder::new()
            .name("dxp reader".into())
            .spawn(move || {
                let _gone = gone_tx; // dropped when the peer closes
                let mut framer = Framer::new(read_half);
                while let Some(frame) = framer.next_frame() {
                    if tx.send(frame).is_err() {
                        break;
                    }
                }
                on_close();
            })?;
        Ok(Conn {
            incoming,
            gone,
            writer: stream,
            verbose,
            last_send: None,
            closed: false,
        })
    }

    /// Disconnects once the peer has closed the connection: for `select!` beside a search.
    pub fn gone(&self) -> &Receiver<()> {
        &self.gone
    }

    /// Whether the peer has closed the connection (or a write to it failed).
    pub fn is_gone(&self) -> bool {
        self.closed || matches!(self.gone.try_recv(), Err(TryRecvError::Disconnected))
    }

    pub fn send(&mut self, m: &Message) {
        if self.closed {
            return;
        }
        if let Some(at) = self.last_send {
            let since = at.elapsed();
            if since < SEND_GAP {
                std::thread::sleep(SEND_GAP - since);
            }
        }
        self.last_send = Some(Instant::now());
        let text = m.encode();
        if self.verbose {
            eprintln!("dxp > {text}");
        }
        let sent = self
            .writer
            .write_all(text.as_bytes())
            .and_then(|_| self.writer.write_all(&[0]))
            .and_then(|_| self.writer.flush());
        if let Err(e) = sent {
            if self.verbose {
                eprintln!("dxp: cannot send ({e}): the connection is closed");
            }
            self.closed = true;
        }
    }

    /// The next message; `None` when the connection is closed. A message that does not decode
    /// (or is too long) is answered with a chat line and skipped.
    pub fn recv(&mut self) -> Option<Message> {
        while !self.closed {
            let Ok(frame) = self.incoming.recv() else {
                self.closed = true;
                break;
            };
            self.last_send = None;
            let text = match frame {
                Frame::TooLong => {
                    if self.verbose {
                        eprintln!("dxp < (over {MAX_MESSAGE} characters)");
                    }
                    self.send(&Message::Chat(format!(
                        "error: message longer than {MAX_MESSAGE} characters"
                    )));
                    continue;
                }
                Frame::Message(text) => text,
            };
            if self.verbose {
                eprintln!("dxp < {text}");
            }
            if text.is_empty() {
                continue;
            }
            match Message::decode(&text) {
                Ok(m) => return Some(m),
                Err(e) => self.send(&Message::Chat(format!("error: {e}"))),
            }
        }
        None
    }
}

impl Drop for Conn {
    /// Ends the reader thread too (its blocked read returns).
    fn drop(&mut self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

/// How a game ended, from our side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Result_ {
    Win,
    Draw,
    Loss,
    Unknown,
}

impl Result_ {
    /// GAMEEND reason as the sender of the first GAMEEND states it.
    fn reason(self) -> u8 {
        match self {
            Result_::Unknown => 0,
            Result_::Loss => 1,
            Result_::Draw => 2,
            Result_::Win => 3,
        }
    }
    /// Our result from the reason the opponent gave for its own side.
    fn from_their_reason(reason: u8) -> Result_ {
        match reason {
            1 => Result_::Win,
            2 => Result_::Draw,
            3 => Result_::Loss,
            _ => Result_::Unknown,
        }
    }
}

/// The game text of a result from White's view.
fn score_text(ours: Result_, side: Side) -> &'static str {
    let white_wins = match (ours, side) {
        (Result_::Win, Side::First) | (Result_::Loss, Side::Second) => Some(true),
        (Result_::Loss, Side::First) | (Result_::Win, Side::Second) => Some(false),
        _ => None,
    };
    match (ours, white_wins) {
        (Result_::Draw, _) => "1/2-1/2",
        (_, Some(true)) => "1-0",
        (_, Some(false)) => "0-1",
        _ => "*",
    }
}

/// One side of a DXP session.
struct Player {
    conn: Conn,
    engine: DraughtsEngine,
    args: DxpArgs,
    games_played: u32,
    /// Stop code seen or sent: no more games.
    stop: bool,
}

/// One game in progress.
struct Game {
    start: Board,
    moves: Vec<Move>,
    board: Board,
    side: Side,
    minutes: u32,
    move_limit: u32,
    used_ms: u64,
    last_score: Score,
}

impl Game {
    fn new(start: Board, side: Side, minutes: u32, move_limit: u32) -> Game {
        Game {
            board: start.clone(),
            start,
            moves: Vec::new(),
            side,
            minutes,
            move_limit,
            used_ms: 0,
            last_score: 0,
        }
    }

    fn play(&mut self, m: Move) {
        let _ = self.board.make(m);
        self.moves.push(m);
    }

    /// Goes back to `ply` moves after the start.
    fn go_to(&mut self, ply: usize) {
        self.moves.truncate(ply);
        let mut b = self.start.clone();
        for &m in &self.moves {
            let _ = b.make(m);
        }
        self.board = b;
    }

    /// Our result if the game is over on the side to move's turn (by rule, or by the move
    /// limit, adjudicated on our last score as Scan does).
    fn over(&self) -> Option<(Result_, String)> {
        if let Some(Outcome { verdict, reason }) = self.board.outcome() {
            let mover = match verdict {
                Verdict::Win => Result_::Win,
                Verdict::Draw => Result_::Draw,
                Verdict::Loss => Result_::Loss,
            };
            let ours = if self.board.side_to_move() == self.side {
                mover
            } else {
                match mover {
                    Result_::Win => Result_::Loss,
                    Result_::Loss => Result_::Win,
                    r => r,
                }
            };
            return Some((ours, format!("{reason:?}")));
        }
        if self.move_limit > 0 && self.moves.len() as u32 >= 2 * self.move_limit {
            let r = if self.last_score >= 300 {
                Result_::Win
            } else if self.last_score <= -300 {
                Result_::Loss
            } else {
                Result_::Unknown
            };
            return Some((r, format!("{} moves played", self.move_limit)));
        }
        None
    }
}

/// Runs `tetrarch dxp`.
pub fn run(args: &DxpArgs) -> ExitCode {
    match &args.connect {
        Some(addr) => initiate(addr, args),
        None => listen(args.listen.unwrap_or(DEFAULT_PORT), args),
    }
}

/// The initiator: connect, play the games, exit.
fn initiate(addr: &str, args: &DxpArgs) -> ExitCode {
    // The follower may be starting at the same moment: retry for a few seconds.
    let mut tries = 0;
    let stream = loop {
        match TcpStream::connect(addr) {
            Ok(s) => break s,
            Err(_) if tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            Err(e) => {
                eprintln!("tetrarch dxp: cannot connect to {addr}: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let conn = match Conn::new(stream, args.verbose) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tetrarch dxp: {e}");
            return ExitCode::FAILURE;
        }
    };
    Player::new(conn, args).initiate();
    ExitCode::SUCCESS
}

/// The follower: serve connections one after another, as Scan and Moby Dam do, until a
/// GAMEEND with stop code 1 asks us to stop. A listener thread accepts every connection; while
/// one is open, another is told so in a chat line and closed. One that comes just after the
/// open one closed waits until its game is wound up.
fn listen(port: u16, args: &DxpArgs) -> ExitCode {
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("tetrarch dxp: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.verbose {
        eprintln!("dxp: listening on 127.0.0.1:{port}");
    }
    let busy = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::unbounded::<TcpStream>();
    {
        let busy = busy.clone();
        let verbose = args.verbose;
        let spawned = std::thread::Builder::new()
            .name("dxp listener".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    let Ok(stream) = stream else { continue };
                    if !busy.swap(true, Ordering::SeqCst) {
                        if tx.send(stream).is_err() {
                            break;
                        }
                        continue;
                    }
                    // A peer that closed and at once reconnects may come before we saw the
                    // close: give the open connection a moment to end before refusing.
                    let (busy, tx) = (busy.clone(), tx.clone());
                    let _ = std::thread::Builder::new()
                        .name("dxp second connection".into())
                        .spawn(move || {
                            let until = Instant::now() + std::time::Duration::from_secs(1);
                            while Instant::now() < until {
                                if !busy.swap(true, Ordering::SeqCst) {
                                    let _ = tx.send(stream);
                                    return;
                                }
                                std::thread::sleep(std::time::Duration::from_millis(10));
                            }
                            if verbose {
                                eprintln!("dxp: refusing a second connection");
                            }
                            refuse(stream);
                        });
                }
            });
        if let Err(e) = spawned {
            eprintln!("tetrarch dxp: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut player: Option<Player> = None;
    for stream in rx {
        // The next connection is welcome as soon as this one is closed, even while its game
        // is still being wound up here.
        let release = busy.clone();
        let on_close = move || release.store(false, Ordering::SeqCst);
        match Conn::with_close_hook(stream, args.verbose, on_close) {
            Ok(conn) => {
                let p = match player.as_mut() {
                    Some(p) => {
                        p.conn = conn;
                        p
                    }
                    None => player.insert(Player::new(conn, args)),
                };
                if args.verbose {
                    eprintln!("dxp: connection opened");
                }
                p.follow();
                if args.verbose {
                    eprintln!("dxp: connection ended");
                }
                if p.stop {
                    break;
                }
            }
            Err(e) => {
                eprintln!("tetrarch dxp: {e}");
                busy.store(false, Ordering::SeqCst);
            }
        }
    }
    ExitCode::SUCCESS
}

/// Turns away a connection that came while another is served: a chat line saying why, then
/// the close. What the peer sends meanwhile is read and dropped (for a few seconds at most),
/// so that the close does not reset the connection before the chat line is read.
fn refuse(mut stream: TcpStream) {
    let why = Message::Chat(
        "error: busy: this follower plays one connection at a time; try again later".into(),
    );
    let timeout = Some(std::time::Duration::from_secs(2));
    let _ = stream.set_write_timeout(timeout);
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.write_all(format!("{}\0", why.encode()).as_bytes());
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + std::time::Duration::from_secs(2);
    let mut sink = [0u8; 4096];
    while Instant::now() < until {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

impl Player {
    fn new(conn: Conn, args: &DxpArgs) -> Player {
        Player {
            conn,
            engine: new_engine(args.threads, args.hash),
            args: args.clone(),
            games_played: 0,
            stop: false,
        }
    }

    /// Initiator: request the games one by one.
    fn initiate(&mut self) {
        for n in 0..self.args.games {
            if self.stop {
                break;
            }
            let ours = if n % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            self.conn.send(&Message::GameReq {
                version: 1,
                name: self.args.name.clone(),
                follower: ours.flip(),
                minutes: self.args.minutes,
                moves: self.args.moves,
                start: None,
            });
            // Wait for the answer; chat may come first.
            loop {
                match self.conn.recv() {
                    None => return,
                    Some(Message::GameAcc { code: 0, name }) => {
                        if self.args.verbose {
                            eprintln!("dxp: {name} accepts");
                        }
                        break;
                    }
                    Some(Message::GameAcc { code, .. }) => {
                        println!("game request refused (code {code})");
                        return;
                    }
                    Some(Message::Chat(t)) => self.log_chat(&t),
                    Some(_) => {}
                }
            }
            let last = n + 1 == self.args.games;
            let game = Game::new(Board::start(), ours, self.args.minutes, self.args.moves);
            if !self.play(game, last) {
                return;
            }
        }
    }

    /// Follower: answer game requests until told to stop or the connection closes.
    fn follow(&mut self) {
        while !self.stop {
            let Some(msg) = self.conn.recv() else { return };
            match msg {
                Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    start,
                } => {
                    let me = self.args.name.clone();
                    if version != 1 {
                        self.conn.send(&Message::GameAcc { name: me, code: 1 });
                        continue;
                    }
                    if self.args.verbose {
                        eprintln!("dxp: game request from {name}");
                    }
                    self.conn.send(&Message::GameAcc { name: me, code: 0 });
                    let start = start.unwrap_or_else(Board::start);
                    let game = Game::new(start, follower, minutes, moves);
                    if !self.play(game, false) {
                        return;
                    }
                }
                Message::Chat(t) => self.log_chat(&t),
                Message::GameEnd { stop, .. } => self.stop |= stop == 1,
                Message::BackReq { .. } => {
                    self.conn.send(&Message::BackAcc { code: 2 });
                }
                _ => {
                    self.conn
                        .send(&Message::Chat("error: no game in progress".into()));
                }
            }
        }
    }

    fn log_chat(&self, text: &str) {
        if self.args.verbose {
            eprintln!("dxp chat: {text}");
        }
    }

    /// Searches the game's position and returns the move and the seconds it took; `None` when
    /// the peer closed the connection during the search, which then ends at once.
    fn think(&mut self, game: &mut Game) -> Option<(Move, u32)> {
        let started = Instant::now();
        let mut limits: Limits<Move> = Limits::default();
        if self.args.depth.is_some() || self.args.nodes.is_some() || self.args.movetime.is_some() {
            limits.depth = self.args.depth;
            limits.nodes = self.args.nodes;
            limits.movetime_ms = self.args.movetime;
        } else {
            let total = game.minutes as i64 * 60_000;
            let ours = game.moves.len() as u32 / 2;
            limits.clock = Some(Clock {
                remaining_ms: (total - game.used_ms as i64).max(0),
                moves_to_go: (game.move_limit > 0)
                    .then(|| game.move_limit.saturating_sub(ours).max(1)),
                ..Clock::default()
            });
        }
        let men = game.board.occupied().count_ones().min(40);
        self.engine.set_moves_left_hint(10 + 20 * men / 40);
        self.engine.set_position(game.start.clone(), &game.moves);
        let found = self.engine.search_until(limits, self.conn.gone());
        if self.conn.is_gone() {
            return None;
        }
        let elapsed = started.elapsed().as_millis() as u64;
        game.used_ms += elapsed;
        if let Some(s) = found.exact_score {
            if s.abs() < MATE_IN_MAX_PLY {
                game.last_score = s;
            }
        }
        found.best.map(|m| (m, (elapsed / 1000) as u32))
    }

    /// Plays one game to its end. `last`: the initiator's final game (stop code 1). Returns
    /// false when the session is over (connection closed or stop requested).
    fn play(&mut self, mut game: Game, last: bool) -> bool {
        self.engine.new_game();
        let stop_code = if last { 1 } else { 0 };
        loop {
            if game.board.side_to_move() == game.side {
                if let Some((result, why)) = game.over() {
                    self.conn.send(&Message::GameEnd {
                        reason: result.reason(),
                        stop: stop_code,
                    });
                    // The opponent confirms with its own GAMEEND.
                    let alive = self.await_game_end();
                    self.report(&game, result, &why);
                    return alive && !self.stop && !last;
                }
                let Some((m, seconds)) = self.think(&mut game) else {
                    self.report(&game, Result_::Unknown, "connection closed");
                    return false;
                };
                if self.args.verbose {
                    eprintln!("dxp: we play {}", game.board.hub_move_text(m));
                }
                let captured: Vec<u8> = m.captured_squares().collect();
                self.conn.send(&Message::Move {
                    seconds,
                    from: m.from_square(),
                    to: m.to_square(),
                    captured,
                });
                game.play(m);
                continue;
            }
            let Some(msg) = self.conn.recv() else {
                self.report(&game, Result_::Unknown, "connection closed");
                return false;
            };
            match msg {
                Message::Move {
                    from, to, captured, ..
                } => match find_move(&game.board, from, to, &captured) {
                    Some(m) => game.play(m),
                    None => {
                        let text = format!(
                            "error: illegal move {from}-{to} x{captured:?} in {}",
                            game.board.to_fen()
                        );
                        self.conn.send(&Message::Chat(text));
                        self.conn.send(&Message::GameEnd {
                            reason: 0,
                            stop: stop_code,
                        });
                        self.report(&game, Result_::Unknown, "illegal move received");
                        return !last;
                    }
                },
                Message::GameEnd { reason, stop } => {
                    self.stop |= stop == 1;
                    // The peer may close right after its GAMEEND (pydraughts does): a failed
                    // confirmation is no error.
                    self.conn.send(&Message::GameEnd {
                        reason: 0,
                        stop: stop.max(stop_code),
                    });
                    let result = Result_::from_their_reason(reason);
                    self.report(&game, result, "opponent ended the game");
                    return !self.stop && !last;
                }
                Message::BackReq { move_number, side } => {
                    // Plies from the start to the requested move and side to move.
                    let mut ply =
                        (move_number.max(1) as i64 - 1) * 2 + (side == Side::Second) as i64;
                    if game.start.side_to_move() == Side::Second {
                        ply -= 1;
                    }
                    if ply >= 0 && ply as usize <= game.moves.len() {
                        self.conn.send(&Message::BackAcc { code: 0 });
                        game.go_to(ply as usize);
                    } else {
                        self.conn.send(&Message::BackAcc { code: 2 });
                    }
                }
                Message::Chat(t) => self.log_chat(&t),
                Message::GameReq { .. } => {
                    self.conn
                        .send(&Message::Chat("error: game in progress".into()));
                }
                Message::GameAcc { .. } | Message::BackAcc { .. } => {}
            }
        }
    }

    /// After our GAMEEND: reads until the opponent's. False if the connection closed.
    fn await_game_end(&mut self) -> bool {
        loop {
            match self.conn.recv() {
                None => return false,
                Some(Message::GameEnd { stop, .. }) => {
                    self.stop |= stop == 1;
                    return true;
                }
                Some(Message::Chat(t)) => self.log_chat(&t),
                Some(_) => {}
            }
        }
    }

    fn report(&mut self, game: &Game, result: Result_, why: &str) {
        self.games_played += 1;
        let colour = if game.side == Side::First {
            "white"
        } else {
            "black"
        };
        println!(
            "game={} we={colour} result={} plies={} reason=\"{why}\" fen={}",
            self.games_played,
            score_text(result, game.side),
            game.moves.len(),
            game.board.to_fen()
        );
    }
}

/// The legal move with this start, end and captured set.
fn find_move(board: &Board, from: u8, to: u8, captured: &[u8]) -> Option<Move> {
    let mut caps = 0u64;
    for &c in captured {
        let bit = mask_of_square(c as u32);
        if bit == 0 {
            return None;
        }
        caps |= bit;
    }
    tetrarch::search::legal_moves(board)
        .into_iter()
        .find(|m| m.from_square() == from && m.to_square() == to && m.captured() == caps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_with_fixed_widths() {
        let start = Board::from_text("B:W31,32,K46:B5,K10,19").unwrap();
        let msgs = [
            Message::GameReq {
                version: 1,
                name: "Tetrarch".into(),
                follower: Side::Second,
                minutes: 5,
                moves: 75,
                start: None,
            },
            Message::GameReq {
                version: 1,
                name: "Tetrarch".into(),
                follower: Side::First,
                minutes: 10,
                moves: 0,
                start: Some(start.clone()),
            },
            Message::GameAcc {
                name: "Scan 3.1".into(),
                code: 0,
            },
            Message::Move {
                seconds: 12,
                from: 6,
                to: 11,
                captured: vec![],
            },
            Message::Move {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![4, 22, 23, 20],
            },
            Message::GameEnd { reason: 2, stop: 1 },
            Message::Chat("hello there".into()),
            Message::BackReq {
                move_number: 12,
                side: Side::Second,
            },
            Message::BackAcc { code: 0 },
        ];
        for m in msgs {
            let text = m.encode();
            assert!(text.len() <= 127 && text.is_ascii(), "{text}");
            assert_eq!(Message::decode(&text), Ok(m), "{text}");
        }
        assert_eq!(
            Message::Move {
                seconds: 12,
                from: 6,
                to: 11,
                captured: vec![]
            }
            .encode(),
            "M0012061100"
        );
        assert_eq!(
            Message::GameAcc {
                name: "Tornado voor Windows 4.0".into(),
                code: 0
            }
            .encode(),
            "ATornado voor Windows 4.0        0"
        );
        let req = Message::GameReq {
            version: 1,
            name: "T".into(),
            follower: Side::First,
            minutes: 10,
            moves: 0,
            start: Some(start),
        }
        .encode();
        assert_eq!(req.len(), 1 + 2 + 32 + 1 + 3 + 3 + 1 + 51);
        assert_eq!(&req[41..44], "0BZ");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for text in [
            "",
            "X",
            "R",
            "R01",
            "M12",
            "Mabcd0102",
            "E",
            "B12",
            "K",
            "A short",
        ] {
            assert!(Message::decode(text).is_err(), "{text:?}");
        }
        assert!(Message::decode("M0001010299").is_err()); // 99 captures
        assert!(Message::decode("é").is_err());
    }

    #[test]
    fn fixed_width_messages_must_have_their_exact_length() {
        let req = Message::GameReq {
            version: 1,
            name: "T".into(),
            follower: Side::First,
            minutes: 10,
            moves: 0,
            start: None,
        }
        .encode();
        for text in [
            "E123".to_string(),
            "E0".to_string(),
            "M000132280099".to_string(),
            "M00013228".to_string(),
            "M00013228010".to_string(),
            format!("{req}junk"),
            format!("{req}Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"),
            "K00".to_string(),
            "B012WZ".to_string(),
            format!("A{:<32}00", "Scan"),
        ] {
            assert!(Message::decode(&text).is_err(), "{text:?}");
        }
        // Codes outside the spec's ranges are errors too.
        for text in ["E02", "E40", "K3", "M00013228-1"] {
            assert!(Message::decode(text).is_err(), "{text:?}");
        }
        assert!(Message::decode("E21").is_ok());
        assert!(Message::decode(&req).is_ok());
    }

    /// A reader that counts the bytes taken from it.
    struct Counted<R>(R, std::rc::Rc<std::cell::Cell<usize>>);

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.set(self.1.get() + n);
            Ok(n)
        }
    }

    #[test]
    fn the_framer_stops_at_127_characters_and_holds_no_more() {
        let text = [b'x'; 127];
        let mut f = Framer::new(&b"E00\0\0"[..]);
        assert_eq!(f.next_frame(), Some(Frame::Message("E00".into())));
        assert_eq!(f.next_frame(), Some(Frame::Message(String::new())));
        assert_eq!(f.next_frame(), None);
        let exact = [&text[..], b"\0"].concat();
        let mut f = Framer::new(&exact[..]);
        assert_eq!(
            f.next_frame(),
            Some(Frame::Message(String::from_utf8_lossy(&text).into_owned()))
        );
        // 20 MB with no NUL: the framer says so after one buffer of it, not after all.
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let flood = std::io::repeat(b'x').take(20 << 20);
        let tail = &b"\0E21\0"[..];
        let mut f = Framer::new(Counted(flood.chain(tail), read.clone()));
        assert_eq!(f.next_frame(), Some(Frame::TooLong));
        assert!(read.get() <= 64 * 1024, "read {} bytes", read.get());
        assert!(f.reader.buffer().len() <= 64 * 1024);
        // The rest of it is skipped; the next message is read.
        assert_eq!(f.next_frame(), Some(Frame::Message("E21".into())));
        assert_eq!(f.next_frame(), None);
    }

    #[test]
    fn board_text_uses_dxp_letters() {
        let b = Board::from_text("B:W31,K46:B5,K10").unwrap();
        let t = board_text(&b);
        assert!(t.starts_with('Z'));
        assert_eq!(t.chars().nth(5), Some('z'));
        assert_eq!(t.chars().nth(10), Some('Z'));
        assert_eq!(t.chars().nth(46), Some('W'));
        assert_eq!(board_from_text(&t).unwrap(), b);
    }

    #[test]
    fn moves_are_found_by_start_end_and_captures() {
        let b = Board::from_text("W:W28:B22,23").unwrap();
        let m = find_move(&b, 28, 17, &[22]).expect("28x17");
        assert_eq!(m.capture_count(), 1);
        assert!(find_move(&b, 28, 17, &[23]).is_none());
        assert!(find_move(&b, 28, 17, &[99]).is_none());
    }
}
