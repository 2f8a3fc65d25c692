//! DXP (DamExchange): engine-against-engine draughts over TCP, both roles.
//!
//! Scheme: [`Message`] is the layer-2 message set with its fixed-width text form (`encode`,
//! `decode`); [`Conn`] frames messages on the socket (ASCII, 1-127 characters, each ended by a
//! NUL). A session is a [`Player`]: the engine, the game, and the settings from the command
//! line. The follower (`tetrarch dxp --listen`) accepts one connection and answers game
//! requests; the initiator (`tetrarch dxp --connect`) sends one game request per game,
//! alternating colours. In a game each side either moves or, when the game is over by rule on
//! its turn (or the agreed number of moves is played), sends GAMEEND with its result; the other
//! side answers with its own GAMEEND (reason 0). A back request inside the game is granted
//! (BACKACC 0) and the game goes back to it; chat is logged. Malformed or illegal messages are
//! answered with a chat line and otherwise ignored, except an illegal move, which ends the game
//! (unknown result). Results go to stdout one line per game; with `--verbose`, every move and
//! message goes to stderr.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crossbeam::channel::{self, Sender};
use tetrarch::game::{Notation, Outcome, Position, Side, Verdict};
use tetrarch::games::draughts::squares::mask_of_square;
use tetrarch::games::draughts::{Board, Move};
use tetrarch::limits::Limits;
use tetrarch::report::{Iteration, Reporter, ScoreBound};
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

    /// Reads a message; the error names what is wrong.
    pub fn decode(text: &str) -> Result<Message, String> {
        let t = text.trim_end_matches(['\0', '\r', '\n']);
        if !t.is_ascii() {
            return Err("message is not ASCII".into());
        }
        let mut chars = t.chars();
        let kind = chars.next().ok_or("empty message")?;
        let rest = &t[1..];
        let num = |s: &str, from: usize, len: usize, what: &str| -> Result<u32, String> {
            s.get(from..from + len)
                .and_then(|f| f.trim().parse::<u32>().ok())
                .ok_or_else(|| format!("bad {what} in '{}'", clip(t)))
        };
        match kind {
            'R' => {
                let version = num(rest, 0, 2, "version")?;
                let name = rest
                    .get(2..34)
                    .ok_or("short game request")?
                    .trim()
                    .to_string();
                let follower = rest
                    .get(34..35)
                    .and_then(|c| colour_of(c.chars().next()?))
                    .ok_or("bad follower colour")?;
                let minutes = num(rest, 35, 3, "thinking time")?;
                let moves = num(rest, 38, 3, "number of moves")?;
                let start = match rest.get(41..42) {
                    Some("A") => None,
                    Some("B") => {
                        let pos = rest.get(42..93).ok_or("short start position")?;
                        Some(board_from_text(pos)?)
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
                let name = rest
                    .get(0..32)
                    .ok_or("short game accept")?
                    .trim()
                    .to_string();
                let code = num(rest, 32, 1, "acceptance code")? as u8;
                Ok(Message::GameAcc { name, code })
            }
            'M' => {
                let seconds = num(rest, 0, 4, "time")?;
                let from = num(rest, 4, 2, "from square")? as u8;
                let to = num(rest, 6, 2, "to square")? as u8;
                let n = num(rest, 8, 2, "capture count")? as usize;
                if n > 20 {
                    return Err(format!("capture count {n} is over 20"));
                }
                let mut captured = Vec::with_capacity(n);
                for k in 0..n {
                    captured.push(num(rest, 10 + 2 * k, 2, "captured square")? as u8);
                }
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            'E' => Ok(Message::GameEnd {
                reason: num(rest, 0, 1, "reason")? as u8,
                stop: num(rest, 1, 1, "stop code")? as u8,
            }),
            'C' => Ok(Message::Chat(rest.to_string())),
            'B' => Ok(Message::BackReq {
                move_number: num(rest, 0, 3, "move number")?,
                side: rest
                    .get(3..4)
                    .and_then(|c| colour_of(c.chars().next()?))
                    .ok_or("bad colour in back request")?,
            }),
            'K' => Ok(Message::BackAcc {
                code: num(rest, 0, 1, "acceptance code")? as u8,
            }),
            other => Err(format!("unknown message type '{other}'")),
        }
    }
}

fn clip(t: &str) -> String {
    t.chars().take(60).collect()
}

/// A DXP connection: NUL-framed messages.
///
/// Two messages sent back to back (GAMEACC then our first move, BACKACC then a move, a chat
/// then GAMEEND) are spaced by [`SEND_GAP`]: pydraughts' receiver reads one socket chunk per
/// message and drops whatever follows the first NUL in it, so two messages arriving together
/// lose the second.
pub struct Conn {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    verbose: bool,
    /// When the last message went out, unless one has come in since.
    last_send: Option<Instant>,
}

/// The least time between two of our messages with none of the peer's in between.
const SEND_GAP: std::time::Duration = std::time::Duration::from_millis(100);

impl Conn {
    pub fn new(stream: TcpStream, verbose: bool) -> std::io::Result<Conn> {
        stream.set_nodelay(true)?;
        Ok(Conn {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            verbose,
            last_send: None,
        })
    }

    pub fn send(&mut self, m: &Message) -> std::io::Result<()> {
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
        self.writer.write_all(text.as_bytes())?;
        self.writer.write_all(&[0])?;
        self.writer.flush()
    }

    /// The next message; `Ok(None)` when the peer closed the connection. A message that does
    /// not decode is answered with a chat line and skipped.
    pub fn recv(&mut self) -> std::io::Result<Option<Message>> {
        loop {
            let mut buf = Vec::new();
            let n = self.reader.read_until(0, &mut buf)?;
            if n == 0 {
                return Ok(None);
            }
            self.last_send = None;
            if buf.last() == Some(&0) {
                buf.pop();
            } else {
                return Ok(None); // connection closed mid-message
            }
            let text = String::from_utf8_lossy(&buf).into_owned();
            if self.verbose {
                eprintln!("dxp < {text}");
            }
            if text.is_empty() {
                continue;
            }
            if text.len() > 127 {
                self.send(&Message::Chat(
                    "error: message longer than 127 characters".into(),
                ))?;
                continue;
            }
            match Message::decode(&text) {
                Ok(m) => return Ok(Some(m)),
                Err(e) => self.send(&Message::Chat(format!("error: {e}")))?,
            }
        }
    }
}

/// Receives a search's end (and the last exact score) for a blocking `think`.
struct WaitReporter {
    tx: Sender<Option<Move>>,
    score: Arc<Mutex<Option<Score>>>,
}

impl Reporter<Board> for WaitReporter {
    fn iteration(&self, info: &Iteration<'_, Board>) {
        if let Some(line) = info.lines.first() {
            if line.bound == ScoreBound::Exact {
                *self.score.lock().unwrap_or_else(|e| e.into_inner()) = Some(line.score);
            }
        }
    }
    fn best_move(&self, _root: &Board, best: Option<Move>, _ponder: Option<Move>) {
        let _ = self.tx.send(best);
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
    let stream = if let Some(addr) = &args.connect {
        // The follower may be starting at the same moment: retry for a few seconds.
        let mut tries = 0;
        loop {
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
        }
    } else {
        let port = args.listen.unwrap_or(DEFAULT_PORT);
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
        match listener.accept() {
            Ok((s, _)) => s,
            Err(e) => {
                eprintln!("tetrarch dxp: accept failed: {e}");
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
    let mut player = Player {
        conn,
        engine: new_engine(args.threads, args.hash),
        args: args.clone(),
        games_played: 0,
        stop: false,
    };
    let result = if args.connect.is_some() {
        player.initiate()
    } else {
        player.follow()
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tetrarch dxp: {e}");
            ExitCode::FAILURE
        }
    }
}

impl Player {
    /// Initiator: request the games one by one.
    fn initiate(&mut self) -> std::io::Result<()> {
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
            })?;
            // Wait for the answer; chat may come first.
            loop {
                match self.conn.recv()? {
                    None => return Ok(()),
                    Some(Message::GameAcc { code: 0, name }) => {
                        if self.args.verbose {
                            eprintln!("dxp: {name} accepts");
                        }
                        break;
                    }
                    Some(Message::GameAcc { code, .. }) => {
                        println!("game request refused (code {code})");
                        return Ok(());
                    }
                    Some(Message::Chat(t)) => self.log_chat(&t),
                    Some(_) => {}
                }
            }
            let last = n + 1 == self.args.games;
            let game = Game::new(Board::start(), ours, self.args.minutes, self.args.moves);
            if !self.play(game, last)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Follower: answer game requests until told to stop or the connection closes.
    fn follow(&mut self) -> std::io::Result<()> {
        while !self.stop {
            match self.conn.recv()? {
                None => return Ok(()),
                Some(Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    start,
                }) => {
                    let me = self.args.name.clone();
                    if version != 1 {
                        self.conn.send(&Message::GameAcc { name: me, code: 1 })?;
                        continue;
                    }
                    if self.args.verbose {
                        eprintln!("dxp: game request from {name}");
                    }
                    self.conn.send(&Message::GameAcc { name: me, code: 0 })?;
                    let start = start.unwrap_or_else(Board::start);
                    let game = Game::new(start, follower, minutes, moves);
                    if !self.play(game, false)? {
                        return Ok(());
                    }
                }
                Some(Message::Chat(t)) => self.log_chat(&t),
                Some(Message::GameEnd { stop, .. }) => self.stop |= stop == 1,
                Some(Message::BackReq { .. }) => {
                    self.conn.send(&Message::BackAcc { code: 2 })?;
                }
                Some(_) => {
                    self.conn
                        .send(&Message::Chat("error: no game in progress".into()))?;
                }
            }
        }
        Ok(())
    }

    fn log_chat(&self, text: &str) {
        if self.args.verbose {
            eprintln!("dxp chat: {text}");
        }
    }

    /// Searches the game's position and returns the move and the seconds it took.
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
        self.engine.set_moves_left_hint(
            <tetrarch::games::Draughts as tetrarch::games::Game>::moves_left(&game.board),
        );
        self.engine.set_position(game.start.clone(), &game.moves);
        let (tx, rx) = channel::bounded(1);
        let score = Arc::new(Mutex::new(None));
        let reporter = Arc::new(WaitReporter {
            tx,
            score: score.clone(),
        });
        self.engine.go(limits, reporter);
        let best = rx.recv().ok().flatten();
        self.engine.wait();
        let elapsed = started.elapsed().as_millis() as u64;
        game.used_ms += elapsed;
        if let Some(s) = *score.lock().unwrap_or_else(|e| e.into_inner()) {
            if s.abs() < MATE_IN_MAX_PLY {
                game.last_score = s;
            }
        }
        best.map(|m| (m, (elapsed / 1000) as u32))
    }

    /// Plays one game to its end. `last`: the initiator's final game (stop code 1). Returns
    /// false when the session is over (connection closed or stop requested).
    fn play(&mut self, mut game: Game, last: bool) -> std::io::Result<bool> {
        self.engine.new_game();
        let stop_code = if last { 1 } else { 0 };
        loop {
            if game.board.side_to_move() == game.side {
                if let Some((result, why)) = game.over() {
                    self.conn.send(&Message::GameEnd {
                        reason: result.reason(),
                        stop: stop_code,
                    })?;
                    // The opponent confirms with its own GAMEEND.
                    let alive = self.await_game_end()?;
                    self.report(&game, result, &why);
                    return Ok(alive && !self.stop && !last);
                }
                let Some((m, seconds)) = self.think(&mut game) else {
                    return Ok(false);
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
                })?;
                game.play(m);
                continue;
            }
            let Some(msg) = self.conn.recv()? else {
                self.report(&game, Result_::Unknown, "connection closed");
                return Ok(false);
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
                        self.conn.send(&Message::Chat(text))?;
                        self.conn.send(&Message::GameEnd {
                            reason: 0,
                            stop: stop_code,
                        })?;
                        self.report(&game, Result_::Unknown, "illegal move received");
                        return Ok(!last);
                    }
                },
                Message::GameEnd { reason, stop } => {
                    self.stop |= stop == 1;
                    // The peer may close right after its GAMEEND (pydraughts does): a failed
                    // confirmation is no error.
                    let _ = self.conn.send(&Message::GameEnd {
                        reason: 0,
                        stop: stop.max(stop_code),
                    });
                    let result = Result_::from_their_reason(reason);
                    self.report(&game, result, "opponent ended the game");
                    return Ok(!self.stop && !last);
                }
                Message::BackReq { move_number, side } => {
                    // Plies from the start to the requested move and side to move.
                    let mut ply =
                        (move_number.max(1) as i64 - 1) * 2 + (side == Side::Second) as i64;
                    if game.start.side_to_move() == Side::Second {
                        ply -= 1;
                    }
                    if ply >= 0 && ply as usize <= game.moves.len() {
                        self.conn.send(&Message::BackAcc { code: 0 })?;
                        game.go_to(ply as usize);
                    } else {
                        self.conn.send(&Message::BackAcc { code: 2 })?;
                    }
                }
                Message::Chat(t) => self.log_chat(&t),
                Message::GameReq { .. } => {
                    self.conn
                        .send(&Message::Chat("error: game in progress".into()))?;
                }
                Message::GameAcc { .. } | Message::BackAcc { .. } => {}
            }
        }
    }

    /// After our GAMEEND: reads until the opponent's. False if the connection closed.
    fn await_game_end(&mut self) -> std::io::Result<bool> {
        loop {
            match self.conn.recv()? {
                None => return Ok(false),
                Some(Message::GameEnd { stop, .. }) => {
                    self.stop |= stop == 1;
                    return Ok(true);
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
