//! DXP (DamExchange) engines: the runner connects over loopback TCP to an engine that serves
//! DXP (Scan's `dxp` mode, Moby Dam) and plays the Initiator's role for the other player.
//!
//! Scheme: the engine process is started from `cmd` (if given) and the runner connects to
//! `host:port` (`{port}` in the arguments is replaced by the port, which is offset per
//! concurrent game). A game begins with GAMEREQ (`R`: version 01, our name, the engine's colour,
//! the thinking time in minutes, no move limit, the start position) answered by GAMEACC (`A`,
//! code 0). Then MOVE messages (`M`: seconds used, from, to, the captured squares) alternate:
//! the driver sends the opponent's moves the engine has not seen and waits for the engine's.
//! A GAMEEND (`E`) from the engine instead of a move is a resignation (reason 1) or a claim
//! the referee checks (2 draw, 3 win). At the end of a game the runner sends its own GAMEEND
//! and reads the engine's acknowledgement. DXP cannot interrupt a search; a late engine is
//! marked unhealthy.

use std::time::{Duration, Instant};

use tetrarch::game::Verdict;
use tetrarch::games::draughts::Board;
use tetrarch_wire::dxp::{end_reason, sender_verdict, Conn, Message, Received, RecvError, Trace};

use super::super::dialect::{draughts_move_at, DraughtsBoard};
use super::super::process::EngineProcess;
use super::super::tc::TimeControl;
use super::{
    spawn, Answer, EngineConfig, GameSetup, MoveRequest, Player, PlayerError, Reply, SearchInfo,
};

/// How long a late move is still awaited before the engine counts as hung.
const LATE_GRACE: Duration = Duration::from_secs(5);

pub struct DxpPlayer {
    name: String,
    /// The engine's process, when the runner started it.
    process: Option<EngineProcess>,
    conn: Conn,
    healthy: bool,
    sent_at: Instant,
    setup: Option<GameSetup>,
    /// Whether GAMEREQ was accepted for the current game.
    in_game: bool,
    /// Moves the engine has seen in the current game.
    synced: usize,
}

/// The MOVE message for a move.
fn move_message(secs: u64, from: u8, to: u8, captured: &[u8]) -> Message {
    Message::Move {
        seconds: secs.min(9999) as u32,
        from,
        to,
        captured: captured.to_vec(),
    }
}

/// A move in Hub text (`from-to`, or `fromxto` and the captured squares).
fn hub_text(from: u8, to: u8, captured: &[u8]) -> String {
    if captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut s = format!("{from}x{to}");
        for c in captured {
            s.push_str(&format!("x{c}"));
        }
        s
    }
}

impl DxpPlayer {
    pub fn start(
        config: &EngineConfig,
        label: &str,
        debug: bool,
        timeout: Duration,
        port_offset: u16,
    ) -> Result<DxpPlayer, PlayerError> {
        let port = config.port.saturating_add(port_offset);
        let process = if config.launch.cmd.is_empty() {
            None
        } else {
            Some(spawn(config, label, debug, Some(port))?)
        };
        let addr = format!("{}:{port}", config.host);
        let trace = debug.then(|| Trace {
            sent: format!("{label} < "),
            received: format!("{label} > "),
        });
        let conn = Conn::connect(&addr, timeout, Duration::from_millis(50), trace)
            .map_err(PlayerError::Startup)?;
        Ok(DxpPlayer {
            name: if config.name.is_empty() {
                format!("dxp@{addr}")
            } else {
                config.name.clone()
            },
            process,
            conn,
            healthy: true,
            sent_at: Instant::now(),
            setup: None,
            in_game: false,
            synced: 0,
        })
    }

    fn send(&mut self, msg: &Message) -> Result<(), PlayerError> {
        self.conn.send(msg).map_err(|e| {
            self.healthy = false;
            self.crash(RecvError::Closed, format!("write failed: {e}"))
        })
    }

    fn crash(&mut self, e: RecvError, why: String) -> PlayerError {
        match e {
            RecvError::Timeout => PlayerError::Timeout,
            RecvError::Closed => {
                let status = self.process.as_mut().and_then(|p| p.exit_status());
                PlayerError::Crashed(status.unwrap_or(why))
            }
        }
    }

    /// The next message until `deadline` that is not a chat line (chat is not an answer).
    fn next(&mut self, deadline: Instant) -> Result<Received, RecvError> {
        loop {
            let r = self.conn.recv(Some(deadline))?;
            if !matches!(r.message, Ok(Message::Chat(_))) {
                return Ok(r);
            }
        }
    }

    /// As `next`, with a failure marking the engine unhealthy.
    fn recv(&mut self, deadline: Instant) -> Result<Received, PlayerError> {
        self.next(deadline).map_err(|e| {
            self.healthy = false;
            self.crash(e, "output closed".into())
        })
    }

    fn request_game(&mut self, req: &MoveRequest) -> Result<(), PlayerError> {
        let setup = self
            .setup
            .clone()
            .ok_or_else(|| PlayerError::Refused("DXP game requested before new_game".into()))?;
        let minutes = match setup.tc {
            TimeControl::Clock { base_ms, .. } => base_ms.div_ceil(60_000).clamp(1, 999),
            TimeControl::MoveTime(ms) => (ms * 100).div_ceil(60_000).clamp(1, 999),
            _ => 999,
        };
        let start = DraughtsBoard::parse(req.start).map_err(PlayerError::Refused)?;
        let start = if req.start_is_initial {
            None
        } else {
            Some(Board::from_hub(&start.hub()).map_err(|e| PlayerError::Refused(e.to_string()))?)
        };
        let msg = Message::GameReq {
            version: 1,
            name: format!("tetrarch-tune vs {}", setup.opponent),
            follower: setup.side,
            minutes: minutes as u32,
            moves: 0,
            start,
        };
        // Anything left from the last game (a late GAMEEND) is not the answer to this request.
        self.conn.drain();
        self.send(&msg)?;
        let deadline = Instant::now() + Duration::from_secs(30);
        let reply = loop {
            let r = self.recv(deadline)?;
            if !matches!(r.message, Ok(Message::GameEnd { .. })) {
                break r.message;
            }
        };
        match reply {
            Ok(Message::GameAcc { code: 0, name }) => {
                if self.name.starts_with("dxp@") && !name.is_empty() {
                    self.name = name;
                }
            }
            Ok(Message::GameAcc { code, .. }) => {
                return Err(PlayerError::Refused(format!(
                    "game request declined (code {code})"
                )))
            }
            Ok(other) => {
                return Err(PlayerError::Malformed(format!(
                    "expected GAMEACC, got '{}'",
                    other.encode()
                )))
            }
            Err(e) => return Err(PlayerError::Malformed(format!("bad GAMEACC: {e}"))),
        }
        self.in_game = true;
        self.synced = 0;
        Ok(())
    }
}

impl Player for DxpPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.setup = Some(setup.clone());
        self.in_game = false;
        self.synced = 0;
        Ok(())
    }

    fn go(&mut self, req: &MoveRequest) -> Result<Answer, PlayerError> {
        if !self.in_game {
            self.request_game(req)?;
        }
        self.sent_at = Instant::now();
        if self.synced > req.moves.len() {
            return Err(PlayerError::Refused(
                "the game went back behind the DXP engine's position".into(),
            ));
        }
        for i in self.synced..req.moves.len() {
            let m = draughts_move_at(req.start, req.moves, i).map_err(PlayerError::Refused)?;
            let secs = req.moves[i].used_ms / 1000;
            let msg = move_message(secs, m.from, m.to, &m.captured);
            // The clock starts as the last move goes out (see the UCI driver for why before).
            self.sent_at = Instant::now();
            self.send(&msg)?;
        }
        self.synced = req.moves.len();
        let received = match self.next(req.deadline) {
            Ok(r) => r,
            Err(RecvError::Timeout) => {
                // DXP cannot stop a search: wait a little for the late move so the engine
                // stays in step for the end of the game; past that it counts as hung.
                match self.recv(req.deadline + LATE_GRACE) {
                    Ok(Received {
                        message: Ok(Message::Move { .. }),
                        ..
                    }) => self.synced += 1,
                    Ok(_) => {}
                    Err(_) => self.healthy = false,
                }
                return Err(PlayerError::Timeout);
            }
            Err(e) => {
                self.healthy = false;
                return Err(self.crash(e, "output closed".into()));
            }
        };
        let at = received.at;
        let reply = match received.message {
            Ok(Message::Move {
                from, to, captured, ..
            }) => Reply::Move(hub_text(from, to, &captured)),
            Ok(Message::GameEnd { reason, .. }) => {
                self.in_game = false;
                match sender_verdict(reason) {
                    Some(Verdict::Draw) => Reply::Claim(Verdict::Draw),
                    Some(Verdict::Win) => Reply::Claim(Verdict::Win),
                    Some(Verdict::Loss) | None => Reply::Resign,
                }
            }
            Ok(m @ Message::BackReq { .. }) => {
                // A takeback request in an engine match: decline and keep waiting is not
                // possible within one request, so treat it as malformed play.
                let _ = self.send(&Message::BackAcc { code: 1 });
                return Err(PlayerError::Malformed(format!(
                    "takeback request '{}' instead of a move",
                    m.encode()
                )));
            }
            Ok(m) => {
                return Err(PlayerError::Malformed(format!(
                    "unexpected DXP message '{}'",
                    m.encode()
                )))
            }
            Err(e) => {
                return Err(PlayerError::Malformed(format!(
                    "malformed DXP message: {e}"
                )))
            }
        };
        if matches!(reply, Reply::Move(_)) {
            self.synced += 1;
        }
        Ok(Answer {
            reply,
            info: SearchInfo::default(),
            answered_at: at,
        })
    }

    fn request_sent(&self) -> Instant {
        self.sent_at
    }

    fn game_over(&mut self, end: &MoveRequest, result: Option<Verdict>) {
        if !self.in_game {
            return;
        }
        self.in_game = false;
        // The engine is owed the moves it has not seen (the one that ended the game); seeing
        // it, the side to move may end the game itself with its own GAMEEND, which we answer.
        let mut sent_final = false;
        for i in self.synced.min(end.moves.len())..end.moves.len() {
            let Ok(m) = draughts_move_at(end.start, end.moves, i) else {
                break;
            };
            let msg = move_message(end.moves[i].used_ms / 1000, m.from, m.to, &m.captured);
            if self.send(&msg).is_err() {
                return;
            }
            sent_final = true;
        }
        self.synced = end.moves.len();
        let is_end = |r: &Received| matches!(r.message, Ok(Message::GameEnd { .. }));
        if sent_final {
            let until = Instant::now() + Duration::from_millis(500);
            while let Ok(r) = self.conn.recv(Some(until)) {
                if is_end(&r) {
                    let _ = self.send(&Message::GameEnd { reason: 0, stop: 0 });
                    return;
                }
            }
        }
        // Our GAMEEND speaks for the opponent: the engine's win is our loss.
        let reason = end_reason(result.map(Verdict::flip));
        if self.send(&Message::GameEnd { reason, stop: 0 }).is_ok() {
            let until = Instant::now() + Duration::from_secs(2);
            while let Ok(r) = self.conn.recv(Some(until)) {
                if is_end(&r) {
                    break;
                }
            }
        }
    }

    fn healthy(&self) -> bool {
        self.healthy && !self.conn.is_closed()
    }

    fn quit(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.finish(Duration::from_millis(300));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_messages_round_trip() {
        assert_eq!(move_message(12, 6, 11, &[]).encode(), "M0012061100");
        let m = move_message(12, 5, 25, &[4, 22, 23]);
        assert_eq!(m.encode(), "M0012052503042223");
        let Ok(Message::Move {
            from, to, captured, ..
        }) = Message::decode("M0012052503042223")
        else {
            panic!("not a move");
        };
        assert_eq!(hub_text(from, to, &captured), "5x25x4x22x23");
        assert_eq!(hub_text(6, 11, &[]), "6-11");
        assert!(Message::decode("M00120525030422").is_err());
        assert!(Message::decode("M0012990000").is_err());
    }
}
