//! The DXP sessions of `tetrarch dxp`: the follower's listener and both roles' games.
//!
//! Scheme: a session is a [`Player`]: the engine, the connection (`tetrarch_wire::dxp`), the
//! game, and the settings from the command line. The follower serves connections one after
//! another, refusing a second one while a first is open, and answers game requests; the
//! initiator sends one game request per game, alternating colours. In a game each side either
//! moves or, when the game is over on its turn (by rule, as `Position::outcome` says, or
//! because the agreed number of moves is played, adjudicated on the last score as Scan does),
//! sends GAMEEND with its result; the other side answers with its own GAMEEND (reason 0). The
//! search watches the connection and ends at once when the peer goes away. A back request
//! inside the game is granted (BACKACC 0) and the game goes back to it; chat is logged.
//! Malformed or illegal messages are answered with an `error: ...` chat line and otherwise
//! ignored, except an illegal move, which ends the game (unknown result). Results go to stdout
//! one line per game; with `--verbose`, every move and message goes to stderr.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam::channel;
use tetrarch::game::{Notation, Position, Side, Verdict};
use tetrarch::games::draughts::squares::mask_of_square;
use tetrarch::games::draughts::{Board, Eval, Move};
use tetrarch::limits::Limits;
use tetrarch::score::{Score, MATE_IN_MAX_PLY};
use tetrarch::time::Clock;
use tetrarch_wire::dxp::{end_reason, sender_verdict, Conn, Message, RecvError, Trace};

use super::DxpArgs;
use crate::hub::{new_engine, strength_of, DraughtsEngine};

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

    /// Our result (`None`: unknown) and why, if the game is over on the side to move's turn:
    /// by rule, or by the move limit, adjudicated on our last score as Scan does.
    fn over(&self) -> Option<(Option<Verdict>, String)> {
        if let Some(outcome) = self.board.outcome() {
            let ours = if self.board.side_to_move() == self.side {
                outcome.verdict
            } else {
                outcome.verdict.flip()
            };
            return Some((Some(ours), format!("{:?}", outcome.reason)));
        }
        if self.move_limit > 0 && self.moves.len() as u32 >= 2 * self.move_limit {
            let r = if self.last_score >= 300 {
                Some(Verdict::Win)
            } else if self.last_score <= -300 {
                Some(Verdict::Loss)
            } else {
                None
            };
            return Some((r, format!("{} moves played", self.move_limit)));
        }
        None
    }
}

/// The game text of our result from White's view.
fn score_text(ours: Option<Verdict>, side: Side) -> &'static str {
    let white = match side {
        Side::First => ours,
        Side::Second => ours.map(Verdict::flip),
    };
    match white {
        Some(Verdict::Win) => "1-0",
        Some(Verdict::Loss) => "0-1",
        Some(Verdict::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// How the session traces messages with `--verbose`.
fn trace(verbose: bool) -> Option<Trace> {
    verbose.then(|| Trace {
        sent: "dxp > ".into(),
        received: "dxp < ".into(),
    })
}

/// Our messages are spaced by this much unless the peer's come between: see
/// `Conn::set_send_gap` (pydraughts loses a second message that arrives with the first).
const SEND_GAP: Duration = Duration::from_millis(100);

/// Runs `tetrarch dxp`.
pub fn run(args: &DxpArgs) -> ExitCode {
    if let Err(e) = args.tables() {
        eprintln!("tetrarch dxp: --bitbases: {e}");
        return ExitCode::from(2);
    }
    match &args.connect {
        Some(addr) => initiate(addr, args),
        None => listen(args.listen.unwrap_or(super::DEFAULT_PORT), args),
    }
}

/// The initiator: connect, play the games, exit.
fn initiate(addr: &str, args: &DxpArgs) -> ExitCode {
    // The follower may be starting at the same moment: retry for a few seconds.
    let patience = Duration::from_secs(5);
    match Conn::connect(
        addr,
        patience,
        Duration::from_millis(100),
        trace(args.verbose),
    ) {
        Ok(conn) => {
            Player::new(conn, args).initiate();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tetrarch dxp: {e}");
            ExitCode::FAILURE
        }
    }
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
    // Port 0 lets the system choose a free port, so a caller (a test, a script) never races
    // another program for one; it learns the port from this line.
    if args.verbose || port == 0 {
        match listener.local_addr() {
            Ok(addr) => eprintln!("dxp: listening on {addr}"),
            Err(_) => eprintln!("dxp: listening on 127.0.0.1:{port}"),
        }
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
                            let until = Instant::now() + Duration::from_secs(1);
                            while Instant::now() < until {
                                if !busy.swap(true, Ordering::SeqCst) {
                                    let _ = tx.send(stream);
                                    return;
                                }
                                std::thread::sleep(Duration::from_millis(10));
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
        match Conn::with_close_hook(stream, trace(args.verbose), on_close) {
            Ok(conn) => {
                let p = match player.as_mut() {
                    Some(p) => {
                        p.conn = conn;
                        p.conn.set_send_gap(SEND_GAP);
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
    let timeout = Some(Duration::from_secs(2));
    let _ = stream.set_write_timeout(timeout);
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.write_all(format!("{}\0", why.encode()).as_bytes());
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + Duration::from_secs(2);
    let mut sink = [0u8; 4096];
    while Instant::now() < until {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

impl Player {
    fn new(mut conn: Conn, args: &DxpArgs) -> Player {
        conn.set_send_gap(SEND_GAP);
        let mut engine = new_engine(args.threads, args.hash);
        // Checked in `run`, and read once per process.
        if let Ok(Some(tables)) = args.tables() {
            engine.set_evaluator(Eval::default().with_bitbases(Some(tables)));
        }
        engine.set_skill(args.elo.and_then(|e| strength_of(e, 20)));
        Player {
            conn,
            engine,
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
            self.send(&Message::GameReq {
                version: 1,
                name: self.args.name.clone(),
                follower: ours.flip(),
                minutes: self.args.minutes,
                moves: self.args.moves,
                start: None,
            });
            // Wait for the answer; chat may come first.
            loop {
                match self.recv() {
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
            let Some(msg) = self.recv() else { return };
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
                        self.send(&Message::GameAcc { name: me, code: 1 });
                        continue;
                    }
                    if self.args.verbose {
                        eprintln!("dxp: game request from {name}");
                    }
                    self.send(&Message::GameAcc { name: me, code: 0 });
                    let start = start.unwrap_or_else(Board::start);
                    let game = Game::new(start, follower, minutes, moves);
                    if !self.play(game, false) {
                        return;
                    }
                }
                Message::Chat(t) => self.log_chat(&t),
                Message::GameEnd { stop, .. } => self.stop |= stop == 1,
                Message::BackReq { .. } => {
                    self.send(&Message::BackAcc { code: 2 });
                }
                _ => {
                    self.send(&Message::Chat("error: no game in progress".into()));
                }
            }
        }
    }

    /// Sends a message; a failure (the peer is gone) shows at the next `recv`.
    fn send(&mut self, m: &Message) {
        if self.conn.send(m).is_err() && self.args.verbose {
            eprintln!("dxp: cannot send: the connection is closed");
        }
    }

    /// The next well-formed message, or `None` once the connection is closed. What does not
    /// decode is answered with an error chat line and skipped.
    fn recv(&mut self) -> Option<Message> {
        loop {
            match self.conn.recv(None) {
                Ok(r) => match r.message {
                    Ok(m) => return Some(m),
                    Err(e) => self.send(&Message::Chat(format!("error: {e}"))),
                },
                Err(RecvError::Closed | RecvError::Timeout) => return None,
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
        self.engine.set_moves_left_hint(
            <tetrarch::games::Draughts as tetrarch::games::Game>::moves_left(&game.board),
        );
        self.engine.set_position(game.start.clone(), &game.moves);
        let found = self.engine.search_until(limits, self.conn.gone());
        if self.conn.is_closed() {
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
                    self.send(&Message::GameEnd {
                        reason: end_reason(result),
                        stop: stop_code,
                    });
                    // The opponent confirms with its own GAMEEND.
                    let alive = self.await_game_end();
                    self.report(&game, result, &why);
                    return alive && !self.stop && !last;
                }
                let Some((m, seconds)) = self.think(&mut game) else {
                    self.report(&game, None, "connection closed");
                    return false;
                };
                if self.args.verbose {
                    eprintln!("dxp: we play {}", game.board.hub_move_text(m));
                }
                let captured: Vec<u8> = m.captured_squares().collect();
                self.send(&Message::Move {
                    seconds,
                    from: m.from_square(),
                    to: m.to_square(),
                    captured,
                });
                game.play(m);
                continue;
            }
            let Some(msg) = self.recv() else {
                self.report(&game, None, "connection closed");
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
                        self.send(&Message::Chat(text));
                        self.send(&Message::GameEnd {
                            reason: 0,
                            stop: stop_code,
                        });
                        self.report(&game, None, "illegal move received");
                        return !last;
                    }
                },
                Message::GameEnd { reason, stop } => {
                    self.stop |= stop == 1;
                    // The peer may close right after its GAMEEND (pydraughts does): a failed
                    // confirmation is no error.
                    self.send(&Message::GameEnd {
                        reason: 0,
                        stop: stop.max(stop_code),
                    });
                    let result = sender_verdict(reason).map(Verdict::flip);
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
                        self.send(&Message::BackAcc { code: 0 });
                        game.go_to(ply as usize);
                    } else {
                        self.send(&Message::BackAcc { code: 2 });
                    }
                }
                Message::Chat(t) => self.log_chat(&t),
                Message::GameReq { .. } => {
                    self.send(&Message::Chat("error: game in progress".into()));
                }
                Message::GameAcc { .. } | Message::BackAcc { .. } => {}
            }
        }
    }

    /// After our GAMEEND: reads until the opponent's. False if the connection closed.
    fn await_game_end(&mut self) -> bool {
        loop {
            match self.recv() {
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

    fn report(&mut self, game: &Game, result: Option<Verdict>, why: &str) {
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
    fn moves_are_found_by_start_end_and_captures() {
        let b = Board::from_text("W:W28:B22,23").unwrap();
        let m = find_move(&b, 28, 17, &[22]).expect("28x17");
        assert_eq!(m.capture_count(), 1);
        assert!(find_move(&b, 28, 17, &[23]).is_none());
        assert!(find_move(&b, 28, 17, &[99]).is_none());
    }
}
