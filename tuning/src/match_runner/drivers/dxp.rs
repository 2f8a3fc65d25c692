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

use tetrarch::game::{Side, Verdict};

use super::super::dialect::{draughts_move_at, DraughtsBoard};
use super::super::process::{connect_nul_framed, EngineProcess, Link, LinkError};
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
    link: Link,
    healthy: bool,
    sent_at: Instant,
    setup: Option<GameSetup>,
    /// Whether GAMEREQ was accepted for the current game.
    in_game: bool,
    /// Moves the engine has seen in the current game.
    synced: usize,
}

fn pad_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .filter(|c| c.is_ascii() && !c.is_ascii_control())
        .take(32)
        .collect();
    if s.is_empty() || s.starts_with(' ') {
        s = format!("T{}", s.trim_start());
        s.truncate(32);
    }
    format!("{s:<32}")
}

/// The MOVE message for a move.
fn move_message(secs: u64, from: u8, to: u8, captured: &[u8]) -> String {
    let mut s = format!(
        "M{:04}{:02}{:02}{:02}",
        secs.min(9999),
        from,
        to,
        captured.len()
    );
    for c in captured {
        s.push_str(&format!("{c:02}"));
    }
    s
}

/// Reads a MOVE message into Hub move text.
fn parse_move(msg: &str) -> Result<String, String> {
    let b = msg.as_bytes();
    let num = |i: usize, n: usize| -> Result<u32, String> {
        msg.get(i..i + n)
            .filter(|s| s.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("malformed DXP move '{msg}'"))
    };
    if b.first() != Some(&b'M') {
        return Err(format!("not a DXP move: '{msg}'"));
    }
    let from = num(5, 2)?;
    let to = num(7, 2)?;
    let n = num(9, 2)? as usize;
    let mut caps = Vec::with_capacity(n);
    for k in 0..n {
        caps.push(num(11 + 2 * k, 2)?);
    }
    if from == 0 || from > 50 || to == 0 || to > 50 || caps.iter().any(|&c| c == 0 || c > 50) {
        return Err(format!("DXP move '{msg}' names a square outside 1-50"));
    }
    Ok(if caps.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut s = format!("{from}x{to}");
        for c in caps {
            s.push_str(&format!("x{c}"));
        }
        s
    })
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
        let link =
            connect_nul_framed(&addr, label, debug, timeout).map_err(PlayerError::Startup)?;
        Ok(DxpPlayer {
            name: if config.name.is_empty() {
                format!("dxp@{addr}")
            } else {
                config.name.clone()
            },
            process,
            link,
            healthy: true,
            sent_at: Instant::now(),
            setup: None,
            in_game: false,
            synced: 0,
        })
    }

    fn send(&mut self, msg: &str) -> Result<(), PlayerError> {
        self.link.send(msg).map_err(|e| {
            self.healthy = false;
            self.crash(e)
        })
    }

    fn crash(&mut self, e: LinkError) -> PlayerError {
        match e {
            LinkError::Timeout => PlayerError::Timeout,
            LinkError::Closed(why) => {
                let status = self.process.as_mut().and_then(|p| p.exit_status());
                PlayerError::Crashed(status.unwrap_or(why))
            }
        }
    }

    /// The next message that is not a chat line.
    fn recv(&mut self, deadline: Instant) -> Result<(String, Instant), PlayerError> {
        loop {
            match self.link.recv(deadline) {
                Ok((m, at)) => {
                    if m.starts_with('C') {
                        continue;
                    }
                    return Ok((m, at));
                }
                Err(e) => {
                    self.healthy = false;
                    return Err(self.crash(e));
                }
            }
        }
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
        let colour = match setup.side {
            Side::First => 'W',
            Side::Second => 'Z',
        };
        let start = DraughtsBoard::parse(req.start).map_err(PlayerError::Refused)?;
        let mut msg = format!(
            "R01{}{colour}{minutes:03}000",
            pad_name(&format!("tetrarch-tune vs {}", setup.opponent))
        );
        if req.start_is_initial {
            msg.push('A');
        } else {
            msg.push('B');
            msg.push_str(&start.dxp());
        }
        // Anything left from the last game (a late GAMEEND) is not the answer to this request.
        self.link.drain();
        self.send(&msg)?;
        let deadline = Instant::now() + Duration::from_secs(30);
        let (reply, _) = loop {
            let (m, at) = self.recv(deadline)?;
            if !m.starts_with('E') {
                break (m, at);
            }
        };
        if !reply.starts_with('A') {
            return Err(PlayerError::Malformed(format!(
                "expected GAMEACC, got '{reply}'"
            )));
        }
        let code = reply.chars().nth(33).unwrap_or('?');
        if reply.len() < 34 {
            return Err(PlayerError::Malformed(format!("short GAMEACC '{reply}'")));
        }
        if code != '0' {
            return Err(PlayerError::Refused(format!(
                "game request declined (code {code})"
            )));
        }
        if reply.len() >= 33 && self.name.starts_with("dxp@") {
            let n = reply[1..33].trim();
            if !n.is_empty() {
                self.name = n.to_string();
            }
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
        let (msg, at) = loop {
            match self.link.recv(req.deadline) {
                // Chat is not an answer.
                Ok((m, _)) if m.starts_with('C') => continue,
                Ok(x) => break x,
                Err(LinkError::Timeout) => {
                    // DXP cannot stop a search: wait a little for the late move so the engine
                    // stays in step for the end of the game; past that it counts as hung.
                    match self.recv(req.deadline + LATE_GRACE) {
                        Ok((m, _)) if m.starts_with('M') => self.synced += 1,
                        Ok(_) => {}
                        Err(_) => self.healthy = false,
                    }
                    return Err(PlayerError::Timeout);
                }
                Err(e) => {
                    self.healthy = false;
                    return Err(self.crash(e));
                }
            }
        };
        let reply = match msg.chars().next() {
            Some('M') => Reply::Move(parse_move(&msg).map_err(PlayerError::Malformed)?),
            Some('E') => {
                self.in_game = false;
                match msg.chars().nth(1) {
                    Some('1') => Reply::Resign,
                    Some('2') => Reply::Claim(Verdict::Draw),
                    Some('3') => Reply::Claim(Verdict::Win),
                    _ => Reply::Resign,
                }
            }
            Some('B') => {
                // A takeback request in an engine match: decline and keep waiting is not
                // possible within one request, so treat it as malformed play.
                let _ = self.send("K1");
                return Err(PlayerError::Malformed(format!(
                    "takeback request '{msg}' instead of a move"
                )));
            }
            _ => {
                return Err(PlayerError::Malformed(format!(
                    "unexpected DXP message '{msg}'"
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
        if sent_final {
            let until = Instant::now() + Duration::from_millis(500);
            while let Ok((m, _)) = self.link.recv(until) {
                if m.starts_with('E') {
                    let _ = self.send("E00");
                    return;
                }
            }
        }
        // Our GAMEEND speaks for the opponent: the engine's win is our loss.
        let reason = match result {
            Some(Verdict::Win) => '1',
            Some(Verdict::Draw) => '2',
            Some(Verdict::Loss) => '3',
            None => '0',
        };
        if self.send(&format!("E{reason}0")).is_ok() {
            let until = Instant::now() + Duration::from_secs(2);
            while let Ok((m, _)) = self.link.recv(until) {
                if m.starts_with('E') {
                    break;
                }
            }
        }
    }

    fn healthy(&self) -> bool {
        self.healthy && !self.link.is_closed()
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
        assert_eq!(move_message(12, 6, 11, &[]), "M0012061100");
        assert_eq!(parse_move("M0012061100").unwrap(), "6-11");
        let m = move_message(12, 5, 25, &[4, 22, 23]);
        assert_eq!(m, "M0012052503042223");
        assert_eq!(parse_move("M0012052503042223").unwrap(), "5x25x4x22x23");
        assert!(parse_move("M00120525030422").is_err());
        assert!(parse_move("M0012990000").is_err());
    }

    #[test]
    fn names_are_padded_to_32() {
        assert_eq!(pad_name("Scan").len(), 32);
        assert!(!pad_name(" x").starts_with(' '));
    }
}
