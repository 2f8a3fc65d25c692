//! The DXP run: an initiator that plays real games against `tetrarch dxp --listen` on
//! 127.0.0.1 and fuzzes the messages in between.
//!
//! Scheme: the follower is started on a loopback port it chooses and names (`--listen 0`;
//! `--depth 2`, so its moves are quick) and the run opens exactly one connection to it; it
//! does not mind whether the follower exits or keeps listening once the run closes its
//! socket. The run is a series of episodes: reset (a GAMEEND, which ends whatever
//! game the follower is in, then a probe), a valid GAMEREQ (the initial position or a random
//! playout's, either colour) answered by GAMEACC, then a stretch of lines: our moves when it is
//! our turn (legal, or now and then illegal, which ends the game), takeback requests that wait
//! for their BACKACC, chat, GAMEEND, and mutated and garbage messages (NULs inside split them).
//! The run follows the game from the follower's MOVE messages; when it loses track (a mutated
//! message was played as a move, say) it stops moving and the next reset puts things right. A
//! GAMEEND from the follower is answered by our own, as the protocol asks.
//!
//! The probe is BACKREQ `B999W` (or `Z`): a takeback to a move no game has reached, which the
//! follower refuses with BACKACC `K2` in a game and out of one. While the follower waits for
//! the answer to its own GAMEEND it reads nothing else, so a GAMEEND arriving during a probe is
//! answered and the probe repeated. The sanitiser keeps the count of BACKACCs exact by turning
//! any fuzzed message that would parse as a BACKREQ into one of an unknown type, and it turns a
//! GAMEEND stop code 1 ("stop entirely", which rightly ends the follower) into 0.

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use tetrarch::game::{Notation, Position, Side};
use tetrarch::games::draughts::{Board, Move};
use tetrarch::search::legal_moves;

use crate::harness::{shown, Config, Engine, History, Scratch, Stats, HISTORY, PROBE_EVERY};
use crate::mutate::{garbage, mutate};
use crate::positions::playout;

const WORDS: &[&str] = &[
    "R01", "A", "M0001", "E00", "E20", "C", "B001W", "K0", "K2", "W", "Z", "e", "w", "z",
    "Tetrarch", "3228", "1923", "00", "01", "\0",
];

/// How long a line waits for the follower's move before going ahead without it.
const REPLY_WAIT: Duration = Duration::from_secs(1);

fn padded(name: &str) -> String {
    format!("{name:<32}")
}

fn colour(side: Side) -> char {
    match side {
        Side::First => 'W',
        Side::Second => 'Z',
    }
}

/// DXP's board text: side to move, then squares 1-50 as `e w z W Z`.
fn board_text(b: &Board) -> String {
    b.to_hub()
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'B') => 'Z',
            (_, 'b') => 'z',
            (_, 'B') => 'Z',
            (_, c) => c,
        })
        .collect()
}

fn move_message(rng: &mut StdRng, m: Move) -> String {
    let caps: Vec<u8> = m.captured_squares().collect();
    let mut s = format!(
        "M{:04}{:02}{:02}{:02}",
        rng.gen_range(0..30),
        m.from_square(),
        m.to_square(),
        caps.len()
    );
    let mut order = caps.clone();
    order.shuffle(rng); // any order is allowed
    for c in order {
        s.push_str(&format!("{c:02}"));
    }
    s
}

/// A MOVE message's squares, as the follower writes them.
fn parse_move(text: &str) -> Option<(u8, u8, Vec<u8>)> {
    let num = |a: usize, b: usize| text.get(a..b)?.trim().parse::<u8>().ok();
    let (from, to, n) = (num(5, 7)?, num(7, 9)?, num(9, 11)? as usize);
    let caps = (0..n)
        .map(|k| num(11 + 2 * k, 13 + 2 * k))
        .collect::<Option<Vec<u8>>>()?;
    Some((from, to, caps))
}

fn find_move(b: &Board, from: u8, to: u8, caps: &[u8]) -> Option<Move> {
    let mut want = caps.to_vec();
    want.sort_unstable();
    legal_moves(b).into_iter().find(|m| {
        let mut got: Vec<u8> = m.captured_squares().collect();
        got.sort_unstable();
        m.from_square() == from && m.to_square() == to && got == want
    })
}

/// The follower's reading of one NUL-free message, as far as the sanitiser cares.
fn sanitize_message(seg: &mut [u8]) {
    let text = String::from_utf8_lossy(seg).into_owned();
    if text.is_empty() || text.len() > 127 {
        return; // skipped, or refused for its length
    }
    let t = text.trim_end_matches(['\0', '\r', '\n']);
    if !t.is_ascii() || t.is_empty() {
        return;
    }
    // The follower's field reader: a fixed-width field, trimmed, as a number.
    let num = |from: usize, len: usize| {
        t.get(from..from + len)
            .and_then(|f| f.trim().parse::<u32>().ok())
    };
    match t.as_bytes()[0] {
        b'B' => {
            let side = t.get(4..5).and_then(|c| c.chars().next());
            if num(1, 3).is_some() && matches!(side, Some('W' | 'w' | 'Z' | 'z' | 'B' | 'b')) {
                seg[0] = b'b';
            }
        }
        b'E' if num(1, 1).is_some() && num(2, 1) == Some(1) => seg[2] = b'0',
        _ => {}
    }
}

/// Applies [`sanitize_message`] to every message of a fuzzed chunk (NULs split it).
fn sanitize(mut bytes: Vec<u8>) -> Vec<u8> {
    let mut start = 0;
    for i in 0..=bytes.len() {
        if i == bytes.len() || bytes[i] == 0 {
            sanitize_message(&mut bytes[start..i]);
            start = i + 1;
        }
    }
    bytes
}

#[derive(Clone)]
struct Game {
    start: Board,
    moves: Vec<Move>,
    board: Board,
    ours: Side,
}

impl Game {
    fn go_to(&mut self, ply: usize) {
        self.moves.truncate(ply);
        let mut b = self.start.clone();
        for &m in &self.moves {
            let _ = b.make(m);
        }
        self.board = b;
    }
}

#[derive(Clone)]
enum Phase {
    /// No game (as far as we know).
    Idle,
    Playing(Game),
    /// The follower's state is not what we think: play no moves until the next reset.
    Lost,
}

struct Run<'a> {
    cfg: &'a Config,
    engine: Engine,
    stream: TcpStream,
    incoming: Receiver<String>,
    history: History,
    stats: Stats,
    phase: Phase,
    since_probe: usize,
    /// BACKACC messages read (each answers one of our probes or takeback requests).
    backaccs: usize,
    /// BACKREQ messages we sent that can be answered.
    backreqs: usize,
    recent: Vec<String>,
    /// `TETRARCH_FUZZ_DUMP`: the bytes sent (NUL-terminated messages, as on the wire) and the
    /// messages read, one a line.
    dump: Option<(std::fs::File, std::fs::File)>,
}

impl Run<'_> {
    fn fail(&self, what: &str) -> ! {
        let mut got = String::new();
        for l in &self.recent {
            got.push_str("  < ");
            got.push_str(&shown(l.as_bytes()));
            got.push('\n');
        }
        panic!(
            "dxp fuzz failed: {what}\nseed {:#x} (TETRARCH_FUZZ_SEED), {} messages sent\nlast \
             {} messages sent (each ends with a NUL):\n{}last messages received:\n{got}{}",
            self.cfg.seed,
            self.stats.total(),
            HISTORY,
            self.history.render(),
            self.engine.report()
        );
    }

    fn send(&mut self, mut bytes: Vec<u8>) {
        self.history.push(&bytes);
        self.since_probe += 1;
        bytes.push(0);
        if let Some((sent, _)) = &mut self.dump {
            let _ = sent.write_all(&bytes);
        }
        if let Err(e) = self.stream.write_all(&bytes) {
            self.fail(&format!("writing to the follower: {e}"));
        }
    }

    fn check_alive(&mut self) {
        if self.engine.panicked() {
            self.fail("panic text on stderr");
        }
        if let Some(s) = self.engine.exited() {
            self.fail(&format!("the follower exited ({s})"));
        }
    }

    /// Handles one message from the follower; game tracking and the GAMEEND answer.
    fn on_message(&mut self, text: String) {
        if self.recent.len() == 30 {
            self.recent.remove(0);
        }
        self.recent.push(text.clone());
        self.stats.output += 1;
        if let Some((_, read)) = &mut self.dump {
            let _ = writeln!(read, "{}", shown(text.as_bytes()));
        }
        match text.as_bytes().first() {
            Some(b'K') => self.backaccs += 1,
            Some(b'E') => {
                // Their GAMEEND: ours answers it (reason 0, go on).
                self.stats.inserted += 1;
                self.send(b"E00".to_vec());
                self.phase = Phase::Idle;
            }
            Some(b'M') => {
                self.stats.results += 1;
                let phase = std::mem::replace(&mut self.phase, Phase::Lost);
                self.phase = match phase {
                    Phase::Playing(mut g) if g.board.side_to_move() != g.ours => {
                        match parse_move(&text).and_then(|(f, t, c)| find_move(&g.board, f, t, &c))
                        {
                            Some(m) => {
                                let _ = g.board.make(m);
                                g.moves.push(m);
                                Phase::Playing(g)
                            }
                            None => Phase::Lost,
                        }
                    }
                    Phase::Idle => Phase::Lost,
                    _ => Phase::Lost,
                };
            }
            // A game we did not ask for (a mutated GAMEREQ was accepted).
            Some(b'A') if text.ends_with('0') => self.phase = Phase::Lost,
            Some(b'C') if text.contains("no game in progress") => {
                if matches!(self.phase, Phase::Playing(_)) {
                    self.phase = Phase::Lost;
                }
            }
            _ => {}
        }
    }

    fn drain(&mut self) {
        while let Ok(m) = self.incoming.try_recv() {
            self.on_message(m);
        }
    }

    /// The next message within the deadline, or a failure naming `what`.
    fn next(&mut self, until: Instant, what: &str) -> String {
        match self
            .incoming
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => {
                self.fail(&format!("{what}: no answer within {:?}", self.cfg.deadline))
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.fail(&format!("{what}: the follower closed the connection"))
            }
        }
    }

    /// Sends a BACKREQ and waits for its BACKACC, which it returns. While the follower waits
    /// for the answer to its own GAMEEND it reads nothing else: a GAMEEND arriving meanwhile is
    /// answered (in `on_message`) and the request sent once more.
    fn backreq(&mut self, request: &str, what: &str) -> String {
        self.backreqs += 1;
        self.send(request.as_bytes().to_vec());
        let until = Instant::now() + self.cfg.deadline;
        let mut resent = false;
        let mut answer = None;
        // After a second request, one of the two may go unanswered.
        while self.backaccs + usize::from(resent) < self.backreqs {
            let m = self.next(until, what);
            let gameend = m.starts_with('E');
            if m.starts_with('K') && answer.is_none() {
                answer = Some(m.clone());
            }
            self.on_message(m);
            if gameend && !resent {
                resent = true;
                self.backreqs += 1;
                self.stats.inserted += 1;
                self.send(request.as_bytes().to_vec());
            }
        }
        if resent {
            // Both requests may have been answered after all: wait a little for the second
            // answer so that it cannot pass for the next probe's.
            let settle = Instant::now() + Duration::from_millis(500);
            while self.backaccs < self.backreqs {
                match self
                    .incoming
                    .recv_timeout(settle.saturating_duration_since(Instant::now()))
                {
                    Ok(m) => self.on_message(m),
                    Err(_) => break,
                }
            }
            self.backreqs = self.backaccs;
        }
        answer.unwrap_or_default()
    }

    fn probe(&mut self, rng: &mut StdRng) {
        self.check_alive();
        self.since_probe = 0;
        self.stats.probes += 1;
        let k = self.stats.probes;
        let probe = if rng.gen_bool(0.5) { "B999W" } else { "B999Z" };
        let answer = self.backreq(probe, &format!("probe {k} ({probe})"));
        if answer != "K2" {
            self.fail(&format!("probe {k} ({probe}) answered '{answer}', not K2"));
        }
        self.check_alive();
    }

    /// Ends any game the follower is in and checks it is alive.
    fn reset(&mut self, rng: &mut StdRng) {
        self.stats.inserted += 1;
        self.send(b"E00".to_vec());
        self.probe(rng);
        self.phase = Phase::Idle;
    }

    fn start_game(&mut self, rng: &mut StdRng) {
        let start = if rng.gen_bool(0.5) {
            Board::start()
        } else {
            let plies = rng.gen_range(1..60);
            playout(rng, Board::start(), plies, 0, |p, m| p.hub_move_text(m)).0
        };
        let follower = if rng.gen_bool(0.5) {
            Side::First
        } else {
            Side::Second
        };
        let initial = start == Board::start();
        let mut req = format!(
            "R01{}{}{:03}{:03}",
            padded("FuzzInitiator"),
            colour(follower),
            rng.gen_range(1..20),
            if rng.gen_bool(0.8) {
                0
            } else {
                rng.gen_range(1..200)
            }
        );
        if initial && rng.gen_bool(0.7) {
            req.push('A');
        } else {
            req.push('B');
            req.push_str(&board_text(&start));
        }
        self.stats.valid += 1;
        self.send(req.into_bytes());
        let until = Instant::now() + self.cfg.deadline;
        loop {
            let m = self.next(until, "GAMEREQ");
            let (accept, code) = (m.starts_with('A'), m.chars().last());
            self.on_message(m.clone());
            if accept {
                if code != Some('0') {
                    self.fail(&format!("a valid GAMEREQ refused: {m}"));
                }
                self.phase = Phase::Playing(Game {
                    board: start.clone(),
                    start,
                    moves: Vec::new(),
                    ours: follower.flip(),
                });
                return;
            }
        }
    }

    /// A takeback request inside the game, waited for.
    fn takeback(&mut self, rng: &mut StdRng, g: &Game) {
        let q = rng.gen_range(0..=g.moves.len());
        let shift = usize::from(g.start.side_to_move() == Side::Second);
        let n = (q + shift) / 2 + 1;
        let side = if (q + shift) % 2 == 0 { 'W' } else { 'Z' };
        self.stats.valid += 1;
        let answer = self.backreq(&format!("B{n:03}{side}"), "BACKREQ");
        if answer == "K0" {
            if let Phase::Playing(g) = &mut self.phase {
                g.go_to(q);
            }
        }
    }

    /// One line of the play phase.
    fn line(&mut self, rng: &mut StdRng) {
        let game = match &self.phase {
            Phase::Playing(g) => Some(g.clone()),
            _ => None,
        };
        let our_turn = game
            .as_ref()
            .is_some_and(|g| g.board.side_to_move() == g.ours);
        let roll = rng.gen_range(0..100);
        if game.is_some() && !our_turn && roll < 40 {
            // Mostly let the follower move before the next line, so games get somewhere; a
            // follower that does not is caught by the next probe, not here.
            let until = Instant::now() + REPLY_WAIT;
            while matches!(&self.phase, Phase::Playing(g) if g.board.side_to_move() != g.ours) {
                match self
                    .incoming
                    .recv_timeout(until.saturating_duration_since(Instant::now()))
                {
                    Ok(m) => self.on_message(m),
                    Err(_) => break,
                }
            }
            return;
        }
        if let (true, Some(g)) = (our_turn, &game) {
            if roll < 60 {
                let legal = legal_moves(&g.board);
                if legal.is_empty() {
                    return;
                }
                self.stats.valid += 1;
                if rng.gen_bool(0.96) {
                    let m = *legal.choose(rng).unwrap();
                    let msg = move_message(rng, m);
                    if let Phase::Playing(g) = &mut self.phase {
                        let _ = g.board.make(m);
                        g.moves.push(m);
                    }
                    self.send(msg.into_bytes());
                } else {
                    // Illegal: the follower ends the game.
                    let msg = format!(
                        "M0001{:02}{:02}00",
                        rng.gen_range(1..51),
                        rng.gen_range(1..51)
                    );
                    self.send(msg.into_bytes());
                }
                return;
            }
            if roll < 63 {
                self.takeback(rng, g);
                return;
            }
        }
        let kind = rng.gen_range(0..100);
        let valid = self.valid_message(rng);
        let bytes = if kind < 45 {
            self.stats.valid += 1;
            valid
        } else if kind < 82 {
            self.stats.mutated += 1;
            sanitize(mutate(rng, &valid))
        } else {
            self.stats.garbage += 1;
            sanitize(garbage(rng, WORDS))
        };
        self.send(bytes);
    }

    /// A well-formed message that is not one of our moves (those need the game).
    fn valid_message(&mut self, rng: &mut StdRng) -> Vec<u8> {
        let s = match rng.gen_range(0..100) {
            0..=41 => {
                let text: String = (0..rng.gen_range(1..=126))
                    .map(|_| rng.gen_range(b' '..=b'~') as char)
                    .collect();
                format!("C{text}")
            }
            42..=44 => format!("E{}0", ["0", "1", "2", "3"].choose(rng).unwrap()),
            45..=59 => {
                // A game request during the game (refused), an odd version, a bad position.
                match rng.gen_range(0..3) {
                    0 => format!("R01{}W005000A", padded("Again")),
                    1 => format!("R02{}Z005000A", padded("Future")),
                    _ => format!("R01{}W005000BW{}", padded("Broken"), "e".repeat(50)),
                }
            }
            60..=69 => format!("A{}0", padded("Confused")),
            70..=79 => format!("K{}", rng.gen_range(0..3)),
            80..=89 => {
                // A move out of turn or from nowhere.
                format!(
                    "M{:04}{:02}{:02}00",
                    rng.gen_range(0..9999),
                    rng.gen_range(0..60),
                    rng.gen_range(0..60)
                )
            }
            _ => format!(
                "M0001{:02}{:02}{:02}{}",
                rng.gen_range(1..51),
                rng.gen_range(1..51),
                rng.gen_range(0..21),
                "1".repeat(rng.gen_range(0..40))
            ),
        };
        s.into_bytes()
    }
}

/// Starts the follower on a port the system chooses (`--listen 0`), reads that port from its
/// stderr line and connects to it. Choosing a free port here and handing it over would race
/// other programs for it, and connecting in a loop while the follower starts can even connect
/// the socket to itself (its source port drawn equal to the port): both once ended a run with
/// "the follower closed the connection".
fn start_follower(cfg: &Config, scratch: &Scratch) -> (Engine, TcpStream) {
    let args: Vec<String> = ["dxp", "--listen", "0", "--depth", "2", "--hash", "4"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut engine = Engine::spawn(&args, &scratch.0);
    let until = Instant::now() + cfg.deadline;
    let port = loop {
        let text = engine.stderr_text();
        let port = text
            .lines()
            .find_map(|l| l.strip_prefix("dxp: listening on 127.0.0.1:"))
            .and_then(|p| p.trim().parse::<u16>().ok());
        if let Some(port) = port {
            break port;
        }
        if let Some(s) = engine.exited() {
            panic!(
                "dxp: the follower exited before listening ({s})\n{}",
                engine.report()
            );
        }
        if Instant::now() > until {
            panic!(
                "dxp: the follower never said where it listens\n{}",
                engine.report()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    match TcpStream::connect(("127.0.0.1", port)) {
        Ok(s) => (engine, s),
        Err(e) => panic!(
            "dxp: cannot connect to the follower on port {port}: {e}\n{}",
            engine.report()
        ),
    }
}

/// Runs the DXP fuzz session and returns what it sent.
pub fn run(cfg: &Config) -> Stats {
    let started = Instant::now();
    let mut rng = cfg.rng("dxp");
    let scratch = Scratch::new("dxp");
    let (engine, stream) = start_follower(cfg, &scratch);
    stream.set_nodelay(true).expect("TCP_NODELAY");
    let (tx, incoming) = channel::unbounded();
    {
        let reader = stream.try_clone().expect("a second handle on the socket");
        std::thread::spawn(move || {
            let mut r = BufReader::new(reader);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
    let mut run = Run {
        cfg,
        engine,
        stream,
        incoming,
        history: History::default(),
        stats: Stats::default(),
        phase: Phase::Idle,
        since_probe: 0,
        backaccs: 0,
        backreqs: 0,
        recent: Vec::new(),
        dump: std::env::var_os("TETRARCH_FUZZ_DUMP").map(|dir| {
            let dir = std::path::PathBuf::from(dir);
            let file = |name: &str| {
                std::fs::File::create(dir.join(name)).expect("a dump file in TETRARCH_FUZZ_DUMP")
            };
            (file("dxp.in"), file("dxp.out"))
        }),
    };
    while run.stats.total() < cfg.lines {
        run.reset(&mut rng);
        if rng.gen_bool(0.15) {
            // Out of any game: fuzz the idle follower for a while.
            for _ in 0..rng.gen_range(5..30) {
                run.line(&mut rng);
                run.drain();
            }
            run.reset(&mut rng);
        }
        run.start_game(&mut rng);
        for _ in 0..rng.gen_range(40..200) {
            if run.since_probe >= PROBE_EVERY {
                run.probe(&mut rng);
            }
            run.drain();
            if !matches!(run.phase, Phase::Playing(_)) || run.stats.total() >= cfg.lines {
                break;
            }
            run.line(&mut rng);
        }
    }
    run.reset(&mut rng);
    // The end of the connection: the follower ends its game and waits for the next one; an
    // exit now must be a clean one. It is stopped when the run's `Engine` is dropped.
    let _ = run.stream.shutdown(Shutdown::Both);
    match run.engine.wait_exit(Duration::from_secs(3)) {
        Some(s) if !s.success() => {
            run.fail(&format!("exit status {s} after the connection closed"))
        }
        _ => {}
    }
    std::thread::sleep(Duration::from_millis(50));
    if run.engine.panicked() {
        run.fail("panic text on stderr");
    }
    run.stats.elapsed = started.elapsed();
    run.stats.clone()
}

#[test]
fn the_sanitiser_keeps_probes_and_the_follower_safe() {
    assert_eq!(sanitize(b"B001W".to_vec()), b"b001W");
    assert_eq!(sanitize(b"B 12z junk".to_vec()), b"b 12z junk");
    assert_eq!(sanitize(b"Bx01W".to_vec()), b"Bx01W");
    assert_eq!(sanitize(b"E01".to_vec()), b"E00");
    assert_eq!(
        sanitize(b"E21junk\0B999W\0E11".to_vec()),
        b"E20junk\0b999W\0E10"
    );
    assert_eq!(sanitize(b"E1x".to_vec()), b"E1x");
    assert_eq!(
        parse_move("M0012061100"),
        Some((6, 11, vec![])),
        "the DXP example move"
    );
    assert_eq!(
        parse_move("M001205250422122320"),
        Some((5, 25, vec![22, 12, 23, 20]))
    );
}
