//! GTP engines (Go).
//!
//! Scheme: GTP is stateful, so the driver remembers the moves the engine has on its board and,
//! per request, plays only the ones it lacks (`play <colour> <vertex>`); if the game in the
//! request does not extend what the engine has, it clears the board and replays. Clocks go out
//! as `time_settings` (or `kgs-time_settings byoyomi` for Japanese byo-yomi when the engine
//! lists it) at the start of a game and `time_left` before each `genmove`. Responses are read
//! up to their blank line; anything before a `=` or `?` line is stray output and is skipped. GTP
//! has no way to stop a search, so an engine that misses its deadline is marked unhealthy and
//! restarted, rather than leaving its late answer in the stream.

use std::time::{Duration, Instant};

use tetrarch::game::Side;

use super::super::process::{EngineProcess, LinkError};
use super::super::tc::TimeControl;
use super::{
    link_error, spawn, Answer, EngineConfig, GameSetup, MoveRequest, Player, PlayerError, Reply,
    SearchInfo,
};

pub struct GtpPlayer {
    name: String,
    process: EngineProcess,
    commands: Vec<String>,
    /// Moves on the engine's board, as played (vertex text).
    synced: Vec<String>,
    healthy: bool,
    sent_at: Instant,
    setup: Option<GameSetup>,
    /// A response that arrived after its deadline (within the grace).
    late: Option<String>,
}

/// How long a late response is still awaited before the engine counts as hung.
const LATE_GRACE: Duration = Duration::from_secs(5);

/// A GTP failure response (`? message`).
#[derive(Debug)]
enum GtpError {
    Failure(String),
    Player(PlayerError),
}

impl From<PlayerError> for GtpError {
    fn from(e: PlayerError) -> Self {
        GtpError::Player(e)
    }
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "b",
        Side::Second => "w",
    }
}

impl GtpPlayer {
    pub fn start(
        config: &EngineConfig,
        label: &str,
        debug: bool,
        timeout: Duration,
    ) -> Result<GtpPlayer, PlayerError> {
        let process = spawn(config, label, debug, None)?;
        let mut p = GtpPlayer {
            name: config.name.clone(),
            process,
            commands: Vec::new(),
            synced: Vec::new(),
            healthy: true,
            sent_at: Instant::now(),
            setup: None,
            late: None,
        };
        let deadline = Instant::now() + timeout;
        let startup = |e: GtpError| match e {
            GtpError::Failure(m) => PlayerError::Startup(format!("handshake refused: {m}")),
            GtpError::Player(e) => PlayerError::Startup(format!("handshake: engine {e}")),
        };
        p.command("protocol_version", deadline).map_err(startup)?;
        if p.name.is_empty() {
            p.name = p
                .command("name", deadline)
                .map_err(startup)?
                .trim()
                .to_string();
        }
        if let Ok(list) = p.command("list_commands", deadline) {
            p.commands = list.lines().map(|l| l.trim().to_string()).collect();
        }
        for line in &config.init {
            p.command(line, deadline).map_err(startup)?;
        }
        for (name, value) in &config.options {
            // GTP has no options; `option.NAME=VALUE` is sent as the command `NAME VALUE`.
            p.command(&format!("{name} {value}"), deadline)
                .map_err(startup)?;
        }
        Ok(p)
    }

    fn supports(&self, cmd: &str) -> bool {
        self.commands.iter().any(|c| c == cmd)
    }

    /// Sends a command and reads its response (without the marker).
    fn command(&mut self, cmd: &str, deadline: Instant) -> Result<String, GtpError> {
        self.command_timed(cmd, deadline).map(|(r, _)| r)
    }

    /// Sends a command and reads its response. A response that misses `deadline` is still
    /// read for a short grace, so the engine stays in step (GTP cannot stop a search): the
    /// call then fails with a timeout and leaves the late response in `self.late`.
    fn command_timed(
        &mut self,
        cmd: &str,
        mut deadline: Instant,
    ) -> Result<(String, Instant), GtpError> {
        self.late = None;
        let mut timed_out = false;
        // The clock starts before the write (see the UCI driver).
        self.sent_at = Instant::now();
        if let Err(e) = self.process.link.send(cmd) {
            self.healthy = false;
            return Err(link_error(e, &mut self.process).into());
        }
        let mut body: Option<(bool, String, Instant)> = None;
        loop {
            let (line, at) = match self.process.link.recv(deadline) {
                Ok(x) => x,
                Err(LinkError::Timeout) if !timed_out => {
                    timed_out = true;
                    deadline += LATE_GRACE;
                    continue;
                }
                Err(e) => {
                    self.healthy = false;
                    return Err(match e {
                        LinkError::Timeout => GtpError::Player(PlayerError::Timeout),
                        e => link_error(e, &mut self.process).into(),
                    });
                }
            };
            let line = line.replace('\t', " ");
            match &mut body {
                None => {
                    let t = line.trim_start();
                    if let Some(rest) = t.strip_prefix('=').or_else(|| t.strip_prefix('?')) {
                        let ok = t.starts_with('=');
                        // Skip an id after the marker.
                        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                        body = Some((ok, rest.trim().to_string(), at));
                    }
                    // Anything else before a response is stray output: skipped.
                }
                Some((ok, text, first_at)) => {
                    if line.trim().is_empty() {
                        let (ok, text, first_at) = (*ok, std::mem::take(text), *first_at);
                        if timed_out {
                            self.late = ok.then_some(text);
                            return Err(GtpError::Player(PlayerError::Timeout));
                        }
                        return if ok {
                            Ok((text, first_at))
                        } else {
                            Err(GtpError::Failure(text))
                        };
                    }
                    text.push('\n');
                    text.push_str(line.trim());
                }
            }
        }
    }

    /// Brings the engine's board to the request's game.
    fn sync(&mut self, req: &MoveRequest, deadline: Instant) -> Result<(), PlayerError> {
        let n = req.moves.len();
        let prefix = self.synced.len() <= n
            && self
                .synced
                .iter()
                .zip(req.moves)
                .all(|(a, b)| a.eq_ignore_ascii_case(&b.text));
        if !prefix {
            self.simple("clear_board", deadline)?;
            self.synced.clear();
        }
        for i in self.synced.len()..n {
            // The last move was by the opponent of the side to move; colours alternate back.
            let side = if (n - i).is_multiple_of(2) {
                req.side
            } else {
                req.side.flip()
            };
            let text = req.moves[i].text.clone();
            self.simple(&format!("play {} {}", colour(side), text), deadline)?;
            self.synced.push(text);
        }
        Ok(())
    }

    /// A command whose failure means the engine refused something it must accept.
    fn simple(&mut self, cmd: &str, deadline: Instant) -> Result<String, PlayerError> {
        self.command(cmd, deadline).map_err(|e| match e {
            GtpError::Failure(m) => PlayerError::Refused(format!("{cmd}: {m}")),
            GtpError::Player(p) => p,
        })
    }

    fn time_left(&mut self, side: Side, req: &MoveRequest, deadline: Instant) {
        let Some(clock) = req.clocks[side.index()] else {
            return;
        };
        let (secs, stones) = match (clock.byoyomi, clock.moves_to_go) {
            (Some(b), _) if clock.remaining_ms <= 0 => (b.period_ms / 1000, b.periods as i64),
            (_, Some(stones)) => (clock.remaining_ms / 1000, stones as i64),
            _ => (clock.remaining_ms.max(0) / 1000, 0),
        };
        let _ = self.command(
            &format!("time_left {} {secs} {stones}", colour(side)),
            deadline,
        );
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        let deadline = Instant::now() + Duration::from_secs(30);
        self.simple(&format!("boardsize {}", setup.board_size), deadline)?;
        self.simple("clear_board", deadline)?;
        self.synced.clear();
        self.simple(&format!("komi {}", setup.komi), deadline)?;
        let secs = |ms: u64| ms / 1000;
        let ts = match setup.tc {
            TimeControl::Clock { base_ms, .. } => {
                Some(format!("time_settings {} 0 0", secs(base_ms)))
            }
            TimeControl::ByoYomi {
                base_ms,
                period_ms,
                periods,
            } => Some(if self.supports("kgs-time_settings") {
                format!(
                    "kgs-time_settings byoyomi {} {} {periods}",
                    secs(base_ms),
                    secs(period_ms)
                )
            } else {
                // Plain GTP knows Canadian overtime only: one stone per period is the same
                // promise for a single period.
                format!("time_settings {} {} 1", secs(base_ms), secs(period_ms))
            }),
            TimeControl::Canadian {
                base_ms,
                period_ms,
                stones,
            } => Some(format!(
                "time_settings {} {} {stones}",
                secs(base_ms),
                secs(period_ms)
            )),
            TimeControl::MoveTime(ms) => Some(format!("time_settings 0 {} 1", secs(ms).max(1))),
            _ => None,
        };
        if let Some(ts) = ts {
            // An engine without time commands still plays; it just does not know the clock.
            let _ = self.command(&ts, deadline);
        }
        self.setup = Some(setup.clone());
        Ok(())
    }

    fn go(&mut self, req: &MoveRequest) -> Result<Answer, PlayerError> {
        self.sync(req, req.deadline)?;
        self.time_left(req.side, req, req.deadline);
        let cmd = if req.cleanup && self.supports("kgs-genmove_cleanup") {
            format!("kgs-genmove_cleanup {}", colour(req.side))
        } else {
            format!("genmove {}", colour(req.side))
        };
        let (text, at) = match self.command_timed(&cmd, req.deadline) {
            Ok(x) => x,
            Err(GtpError::Failure(m)) => {
                return Err(PlayerError::Malformed(format!("{cmd} failed: {m}")))
            }
            Err(GtpError::Player(e)) => {
                // A late move was played on the engine's board all the same.
                if let Some(late) = self.late.take() {
                    if let Some(mv) = late.split_whitespace().next() {
                        if !mv.eq_ignore_ascii_case("resign") {
                            self.synced.push(mv.to_string());
                        }
                    }
                }
                return Err(e);
            }
        };
        let mv = text.split_whitespace().next().unwrap_or("").to_string();
        if mv.is_empty() {
            return Err(PlayerError::Malformed(format!("'{cmd}' answered no move")));
        }
        let reply = if mv.eq_ignore_ascii_case("resign") {
            Reply::Resign
        } else {
            // The engine has played the move on its own board.
            self.synced.push(mv.clone());
            Reply::Move(if mv.eq_ignore_ascii_case("pass") {
                "pass".into()
            } else {
                mv
            })
        };
        Ok(Answer {
            reply,
            info: SearchInfo::default(),
            answered_at: at,
        })
    }

    fn request_sent(&self) -> Instant {
        self.sent_at
    }

    fn dead_stones(&mut self, req: &MoveRequest) -> Result<Vec<String>, PlayerError> {
        let deadline = Instant::now() + Duration::from_secs(60);
        self.sync(req, deadline)?;
        let list = self.simple("final_status_list dead", deadline)?;
        Ok(list
            .split_whitespace()
            .map(|v| v.to_ascii_uppercase())
            .collect())
    }

    fn healthy(&self) -> bool {
        self.healthy && !self.process.link.is_closed()
    }

    fn quit(&mut self) {
        let _ = self.process.link.send("quit");
        self.process.finish(Duration::from_millis(500));
    }
}
