//! Engine drivers: one per protocol, all behind the [`Player`] trait.
//!
//! Scheme: the game loop asks a player for a move with a [`MoveRequest`] (the game so far in
//! the referee's notation, both clocks, the limits, and the instant by which the answer must be
//! in) and gets a [`Reply`] or a [`PlayerError`] saying what went wrong (crash, hang, garbage).
//! Each driver translates positions and moves to its protocol's dialect through
//! [`super::dialect`] and never judges legality: the referee does. Stateless protocols (UCI,
//! UCCI, Hub) are sent the whole game each move; stateful ones (GTP, DXP) are kept in step and
//! re-synchronised when they drift.

pub mod dxp;
pub mod gtp;
pub mod hub;
pub mod uci;

use std::time::{Duration, Instant};

use tetrarch::game::Side;
use tetrarch::time::Clock;

use super::process::{EngineProcess, Launch, LinkError};
use super::rules::GameKind;
use super::tc::TimeControl;

/// The protocols the runner speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Ucci,
    Gtp,
    Hub,
    /// Scan 2.0's first Hub (`pos <board>`, `move M`, `depth N`, `go` ... `move M`).
    Hub1,
    Dxp,
}

impl Protocol {
    pub fn parse(text: &str) -> Result<Protocol, String> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "ucci" => Ok(Protocol::Ucci),
            "gtp" => Ok(Protocol::Gtp),
            "hub" => Ok(Protocol::Hub),
            "hub1" => Ok(Protocol::Hub1),
            "dxp" => Ok(Protocol::Dxp),
            _ => Err(format!(
                "unknown protocol '{text}' (uci, ucci, gtp, hub, hub1 or dxp)"
            )),
        }
    }

    /// The protocol a game is usually played over.
    pub fn default_for(kind: GameKind) -> Protocol {
        Protocol::parse(kind.protocol()).expect("every game's protocol is one of these")
    }

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Gtp => "gtp",
            Protocol::Hub => "hub",
            Protocol::Hub1 => "hub1",
            Protocol::Dxp => "dxp",
        }
    }
}

/// Everything needed to start and configure one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    pub launch: Launch,
    pub proto: Protocol,
    /// Protocol options (`option.NAME=VALUE`), sent in order.
    pub options: Vec<(String, String)>,
    /// The engine's own time control, when it differs from the match's.
    pub tc: Option<TimeControl>,
    /// Extra time over the clock before a move counts as late (ms).
    pub margin_ms: u64,
    /// DXP: where the engine's server listens.
    pub host: String,
    pub port: u16,
    /// Xiangqi over UCI: whether the engine writes ranks 1-10 (Fairy-Stockfish) rather than
    /// 0-9 (Pikafish, UCCI). `None`: detect (an engine offering `UCI_Variant` is taken to be
    /// Fairy-Stockfish's dialect).
    pub xiangqi_ranks_from_one: Option<bool>,
    /// Commands sent to the engine right after its handshake (`initstr=`).
    pub init: Vec<String>,
}

impl EngineConfig {
    pub fn new(cmd: &str) -> EngineConfig {
        EngineConfig {
            name: String::new(),
            launch: Launch {
                cmd: cmd.to_string(),
                ..Launch::default()
            },
            proto: Protocol::Uci,
            options: Vec::new(),
            tc: None,
            margin_ms: 0,
            host: "127.0.0.1".into(),
            port: 27531,
            xiangqi_ranks_from_one: None,
            init: Vec::new(),
        }
    }
}

/// Settings of one game the engines are told at its start.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub kind: GameKind,
    /// Go: board size and komi.
    pub board_size: u32,
    pub komi: f64,
    /// The player's side in this game.
    pub side: Side,
    /// The player's time control.
    pub tc: TimeControl,
    /// The opponent's name (DXP sends its own; UCI may use it).
    pub opponent: String,
}

/// A move already played, in the referee's canonical notation, with the position it led to
/// (drivers whose protocol spells moves by the squares they empty need it).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub text: String,
    pub after: String,
    /// Thinking time the mover used (ms).
    pub used_ms: u64,
}

/// The game so far and the constraints of the move asked for.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    pub kind: GameKind,
    /// Position text the game started from (referee notation).
    pub start: &'a str,
    /// Whether `start` is the game's standard initial position.
    pub start_is_initial: bool,
    pub moves: &'a [PlayedMove],
    /// The side to move: the player's side.
    pub side: Side,
    /// Both clocks, indexed by `Side::index()`.
    pub clocks: [Option<Clock>; 2],
    /// The mover's time control (node and depth limits live here).
    pub tc: TimeControl,
    /// The instant after which the runner stops waiting.
    pub deadline: Instant,
    /// Go: whether to ask for a move that cleans up dead stones before passing.
    pub cleanup: bool,
}

/// What the engine said about its search, for adjudication and the game record.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Centipawn-like score from the mover's view (a mate score is mapped to +-100000 less the
    /// distance).
    pub score: Option<i32>,
    /// Mate distance in moves (positive: the mover mates).
    pub mate: Option<i32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl SearchInfo {
    pub const MATE_SCORE: i32 = 100_000;

    fn set_mate(&mut self, moves: i32) {
        self.mate = Some(moves);
        self.score = Some(if moves > 0 {
            Self::MATE_SCORE - moves
        } else {
            -Self::MATE_SCORE - moves
        });
    }
}

/// An engine's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move, in the referee's notation (Go: a vertex or `pass`). Not yet checked for legality.
    Move(String),
    /// The engine resigned.
    Resign,
    /// The engine says it has no move (`bestmove (none)`, `nobestmove`).
    NoMove,
    /// The engine offered or claimed a draw along with a move (UCCI `bestmove m draw`).
    MoveWithDrawOffer(String),
    /// The engine ended the game with a claim (DXP GAMEEND), from its own view; the referee
    /// checks it against the rules.
    Claim(tetrarch::game::Verdict),
}

/// What went wrong with an engine; each loses the game with its reason.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerError {
    /// The engine's process ended or closed its output.
    Crashed(String),
    /// No answer before the deadline (on a clock: a loss on time).
    Timeout,
    /// The engine sent something the protocol does not allow where an answer was due.
    Malformed(String),
    /// The engine rejected a command it must accept (for example, a legal position).
    Refused(String),
    /// The engine could not be started or failed its handshake.
    Startup(String),
}

impl std::fmt::Display for PlayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerError::Crashed(s) => write!(f, "crashed ({s})"),
            PlayerError::Timeout => f.write_str("did not answer in time"),
            PlayerError::Malformed(s) => write!(f, "sent malformed output: {s}"),
            PlayerError::Refused(s) => write!(f, "refused a command: {s}"),
            PlayerError::Startup(s) => write!(f, "failed to start: {s}"),
        }
    }
}

/// The result of a move request: the answer, the search info, and when the answer was read.
#[derive(Clone, Debug)]
pub struct Answer {
    pub reply: Reply,
    pub info: SearchInfo,
    pub answered_at: Instant,
}

/// One engine as the game loop drives it.
pub trait Player: Send {
    /// The name for records and tables.
    fn name(&self) -> &str;

    /// Prepares for a new game.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError>;

    /// Asks for a move. The returned `answered_at` is when the answer was read; the caller
    /// times the move from the instant it sent the request, which it gets from
    /// [`Player::request_sent`] after the call.
    fn go(&mut self, req: &MoveRequest) -> Result<Answer, PlayerError>;

    /// When the last `go` request was written (the start of the engine's thinking time).
    fn request_sent(&self) -> Instant;

    /// Go: the vertices of the stones the engine considers dead in the final position.
    fn dead_stones(&mut self, _req: &MoveRequest) -> Result<Vec<String>, PlayerError> {
        Err(PlayerError::Refused("not a Go engine".into()))
    }

    /// The game is over: `end` holds the final game (a stateful protocol may still owe the
    /// engine the last move), `result` is from the player's view (DXP's GAMEEND).
    fn game_over(&mut self, _end: &MoveRequest, _result: Option<tetrarch::game::Verdict>) {}

    /// Whether the engine can play on (false after a crash or a hang it did not recover from).
    fn healthy(&self) -> bool;

    /// Ends the engine politely, then firmly.
    fn quit(&mut self);
}

/// Starts a player for a game.
pub fn start_player(
    config: &EngineConfig,
    kind: GameKind,
    label: &str,
    debug: bool,
    port_offset: u16,
) -> Result<Box<dyn Player>, PlayerError> {
    let timeout = Duration::from_secs(30);
    Ok(match config.proto {
        Protocol::Uci | Protocol::Ucci => {
            Box::new(uci::UciPlayer::start(config, kind, label, debug, timeout)?)
        }
        Protocol::Gtp => Box::new(gtp::GtpPlayer::start(config, label, debug, timeout)?),
        Protocol::Hub | Protocol::Hub1 => {
            Box::new(hub::HubPlayer::start(config, label, debug, timeout)?)
        }
        Protocol::Dxp => Box::new(dxp::DxpPlayer::start(
            config,
            label,
            debug,
            timeout,
            port_offset,
        )?),
    })
}

/// Starts the engine process.
fn spawn(
    config: &EngineConfig,
    label: &str,
    debug: bool,
    port: Option<u16>,
) -> Result<EngineProcess, PlayerError> {
    let mut launch = config.launch.clone();
    if let Some(port) = port {
        // `{port}` in the command line lets one DXP engine serve each concurrent game.
        launch.args = launch
            .args
            .iter()
            .map(|a| a.replace("{port}", &port.to_string()))
            .collect();
    }
    EngineProcess::spawn(&launch, label, debug).map_err(PlayerError::Startup)
}

/// An engine process as the line-based drivers (UCI, UCCI, Hub) hold it: any failure other
/// than a timeout marks the engine unhealthy, so the runner restarts it (or stops the match).
struct Conn {
    process: EngineProcess,
    healthy: bool,
}

impl Conn {
    fn new(process: EngineProcess) -> Conn {
        Conn {
            process,
            healthy: true,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let r = self.process.link.send(line);
        r.map_err(|e| {
            self.healthy = false;
            link_error(e, &mut self.process)
        })
    }

    fn recv(&mut self, deadline: Instant) -> Result<(String, Instant), PlayerError> {
        let r = self.process.link.recv(deadline);
        r.map_err(|e| {
            if e != LinkError::Timeout {
                self.healthy = false;
            }
            link_error(e, &mut self.process)
        })
    }

    fn healthy(&self) -> bool {
        self.healthy && !self.process.link.is_closed()
    }

    /// Sends the protocol's quit command, then ends the process.
    fn quit(&mut self) {
        let _ = self.process.link.send("quit");
        self.process.finish(Duration::from_millis(500));
    }
}

/// Maps a link failure to the player error, with the process's exit status when it has one.
fn link_error(e: LinkError, process: &mut EngineProcess) -> PlayerError {
    match e {
        LinkError::Timeout => PlayerError::Timeout,
        LinkError::Closed(why) => {
            // Give the process a moment to be reaped so the status is known.
            for _ in 0..20 {
                if let Some(status) = process.exit_status() {
                    return PlayerError::Crashed(status);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            PlayerError::Crashed(why)
        }
    }
}

/// Milliseconds as a protocol integer, never negative.
fn ms(v: i64) -> i64 {
    v.max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_default_protocol() {
        let protocols: Vec<Protocol> = GameKind::ALL
            .into_iter()
            .map(Protocol::default_for)
            .collect();
        assert_eq!(
            protocols,
            [Protocol::Uci, Protocol::Ucci, Protocol::Gtp, Protocol::Hub]
        );
    }
}
