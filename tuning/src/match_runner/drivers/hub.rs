//! Hub engines (international draughts; Scan's protocol).
//!
//! Scheme: `hub` ... `wait`, `set-param` for each option, `init` ... `ready`; per move
//! `pos pos=<51 chars> moves="..."` with the game from its start (moves in Hub's
//! from-x-to-x-captured form, derived from the boards before and after each move), one `level`
//! (Scan resets it after every search), `go think`, then lines up to `done move=...`. Hub's
//! clock convention adds the increment before the move, so the runner sends the time left less
//! one increment. On the deadline the driver sends `stop` and waits briefly for `done`. Lines
//! are read and written with the shared Hub codec (`tetrarch_wire::hub`).

use std::time::{Duration, Instant};

use tetrarch_wire::hub::{self, Line};

use super::super::dialect::{draughts_move_at, DraughtsBoard};
use super::super::tc::TimeControl;
use super::{
    spawn, Answer, Conn, EngineConfig, GameSetup, MoveRequest, Player, PlayerError, Reply,
    SearchInfo,
};

const GRACE: Duration = Duration::from_millis(1000);

pub struct HubPlayer {
    name: String,
    conn: Conn,
    sent_at: Instant,
}

/// A Hub line read with the shared codec (a blank line has an empty command).
fn parse_line(line: &str) -> Line {
    hub::parse(line).unwrap_or(Line {
        command: String::new(),
        pairs: Vec::new(),
    })
}

fn secs(ms: i64) -> String {
    format!("{:.3}", ms.max(0) as f64 / 1000.0)
}

impl HubPlayer {
    pub fn start(
        config: &EngineConfig,
        label: &str,
        debug: bool,
        timeout: Duration,
    ) -> Result<HubPlayer, PlayerError> {
        let process = spawn(config, label, debug, None)?;
        let mut p = HubPlayer {
            name: config.name.clone(),
            conn: Conn::new(process),
            sent_at: Instant::now(),
        };
        let deadline = Instant::now() + timeout;
        let startup = |e: PlayerError| PlayerError::Startup(format!("handshake: engine {e}"));
        p.conn.send("hub").map_err(startup)?;
        loop {
            let (line, _) = p.conn.recv(deadline).map_err(startup)?;
            let l = parse_line(&line);
            match l.command.as_str() {
                "wait" => break,
                "id" if p.name.is_empty() => {
                    if let Some(n) = l.get("name") {
                        p.name = n.to_string();
                    }
                }
                _ => {}
            }
        }
        if p.name.is_empty() {
            p.name = config.launch.cmd.clone();
        }
        for (name, value) in &config.options {
            p.conn
                .send(&hub::format(
                    "set-param",
                    &[("name", name), ("value", value)],
                ))
                .map_err(startup)?;
        }
        for line in &config.init {
            p.conn.send(line).map_err(startup)?;
        }
        p.conn.send("init").map_err(startup)?;
        loop {
            let (line, _) = p.conn.recv(deadline).map_err(startup)?;
            if parse_line(&line).command == "ready" {
                break;
            }
        }
        Ok(p)
    }

    fn level(req: &MoveRequest) -> String {
        match req.tc {
            TimeControl::MoveTime(ms) => format!("level move-time={}", secs(ms as i64)),
            TimeControl::Nodes(n) => format!("level nodes={n}"),
            TimeControl::Depth(d) => format!("level depth={d}"),
            TimeControl::Infinite => "level infinite".into(),
            _ => {
                let c = req.clocks[req.side.index()].unwrap_or_default();
                let mut s = "level".to_string();
                if let Some(m) = c.moves_to_go {
                    s.push_str(&format!(" moves={m}"));
                }
                s.push_str(&format!(" time={}", secs(c.remaining_ms - c.increment_ms)));
                if c.increment_ms > 0 {
                    s.push_str(&format!(" inc={}", secs(c.increment_ms)));
                }
                s
            }
        }
    }
}

impl Player for HubPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _setup: &GameSetup) -> Result<(), PlayerError> {
        self.conn.send("new-game")?;
        // `ping` / `pong` makes sure the engine is listening before the first search.
        self.conn.send("ping")?;
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (line, _) = self.conn.recv(deadline)?;
            if parse_line(&line).command == "pong" {
                return Ok(());
            }
        }
    }

    fn go(&mut self, req: &MoveRequest) -> Result<Answer, PlayerError> {
        let start = DraughtsBoard::parse(req.start).map_err(PlayerError::Refused)?;
        let mut moves = Vec::with_capacity(req.moves.len());
        for i in 0..req.moves.len() {
            let m = draughts_move_at(req.start, req.moves, i).map_err(PlayerError::Refused)?;
            moves.push(m.hub());
        }
        let mut pos = format!("pos pos={}", start.hub());
        if !moves.is_empty() {
            pos.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        // One write, the clock started before it (see the UCI driver).
        let lines = format!("{pos}\n{}\ngo think", Self::level(req));
        self.sent_at = Instant::now();
        self.conn.send(&lines)?;
        let mut info = SearchInfo::default();
        loop {
            let (line, at) = match self.conn.recv(req.deadline) {
                Ok(x) => x,
                Err(PlayerError::Timeout) => {
                    if self.conn.send("stop").is_ok() {
                        let until = Instant::now() + GRACE;
                        loop {
                            match self.conn.process.link.recv(until) {
                                Ok((l, _)) if parse_line(&l).command == "done" => break,
                                Ok(_) => {}
                                Err(_) => {
                                    self.conn.healthy = false;
                                    break;
                                }
                            }
                        }
                    }
                    return Err(PlayerError::Timeout);
                }
                Err(e) => return Err(e),
            };
            let l = parse_line(&line);
            match l.command.as_str() {
                "info" => {
                    if let Some(s) = l.get("score").and_then(|v| v.parse::<f64>().ok()) {
                        // Hub scores are in men; keep centi-men like centipawns.
                        info.score = Some((s * 100.0).round() as i32);
                    }
                    if let Some(d) = l.get("depth").and_then(|v| v.parse().ok()) {
                        info.depth = Some(d);
                    }
                    if let Some(n) = l.get("nodes").and_then(|v| v.parse().ok()) {
                        info.nodes = Some(n);
                    }
                }
                "error" => {
                    let msg = l.get("message").unwrap_or("").to_string();
                    return Err(PlayerError::Refused(format!("engine error: {msg}")));
                }
                "done" => {
                    let mv = l.get("move").unwrap_or("").trim().to_string();
                    if mv.is_empty() {
                        return Err(PlayerError::Malformed(format!("'{line}' names no move")));
                    }
                    return Ok(Answer {
                        reply: Reply::Move(mv),
                        info,
                        answered_at: at,
                    });
                }
                _ => {}
            }
        }
    }

    fn request_sent(&self) -> Instant {
        self.sent_at
    }

    fn healthy(&self) -> bool {
        self.conn.healthy()
    }

    fn quit(&mut self) {
        self.conn.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_engine_lines_with_the_shared_codec() {
        let l = parse_line("id name=Scan version=3.1 author=\"Fabien Letouzey\" country=France");
        assert_eq!(l.command, "id");
        assert_eq!(l.get("author"), Some("Fabien Letouzey"));
        assert_eq!(l.get("country"), Some("France"));
        let l = parse_line("pos start");
        assert_eq!((l.command.as_str(), l.get("start")), ("pos", Some("")));
        let l = parse_line("done move=32x21x27 ponder=16-21");
        assert_eq!(l.command, "done");
        assert_eq!(l.get("move"), Some("32x21x27"));
        assert_eq!(parse_line("info score=\"\" = x").get("score"), Some(""));
        assert_eq!(parse_line("   ").command, "");
        assert_eq!(
            hub::format("set-param", &[("name", "a b"), ("value", "ab")]),
            "set-param name=\"a b\" value=ab"
        );
    }
}
