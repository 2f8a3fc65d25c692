//! Hub engines (international draughts; Scan's protocol).
//!
//! Scheme: `hub` ... `wait`, `set-param` for each option, `init` ... `ready`; per move
//! `pos pos=<51 chars> moves="..."` with the game from its start (moves in Hub's
//! from-x-to-x-captured form, derived from the boards before and after each move), one `level`
//! (Scan resets it after every search), `go think`, then lines up to `done move=...`. Hub's
//! clock convention adds the increment before the move, so the runner sends the time left less
//! one increment. On the deadline the driver sends `stop` and waits briefly for `done`. Lines
//! are read and written with the shared Hub codec (`tetrarch_wire::hub`).
//!
//! `proto=hub1` speaks Scan 2.0's first Hub instead, a positional dialect: `name X` lines up to
//! `wait`, `set NAME VALUE`, `init` ... `ready`, `new` per game; per move `pos <board>` (side
//! in lower case) with the start of the game, one `move M` per move played since, the limit
//! (`depth N`, or `level MOVES TIME INC` and `time LEFT` in milliseconds; sent after `pos`,
//! which resets it), `go`, and the answer `move M [PONDER]`, after `info DEPTH PLY SCORE NODES
//! TIME SPEED PV` lines. Its only fixed-effort limit is depth, which makes Scan 2.0 a
//! load-independent reference.

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
    /// Scan 2.0's first Hub (`proto=hub1`) rather than Hub 2.
    v1: bool,
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
        let v1 = config.proto == super::Protocol::Hub1;
        let mut p = HubPlayer {
            name: config.name.clone(),
            v1,
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
                "name" if v1 && p.name.is_empty() => {
                    p.name = line.trim()["name".len()..].trim().to_string();
                }
                _ => {}
            }
        }
        if p.name.is_empty() {
            p.name = config.launch.cmd.clone();
        }
        for (name, value) in &config.options {
            let line = if v1 {
                format!("set {name} {value}")
            } else {
                hub::format("set-param", &[("name", name), ("value", value)])
            };
            p.conn.send(&line).map_err(startup)?;
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

    /// The first Hub's limit lines (in milliseconds); it has no node or infinite limit.
    fn level_v1(req: &MoveRequest) -> Result<String, PlayerError> {
        Ok(match req.tc {
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::MoveTime(ms) => format!("level 1 {ms} 0\ntime {ms}"),
            TimeControl::Nodes(_) | TimeControl::Infinite => {
                return Err(PlayerError::Refused(
                    "Scan 2.0's Hub has no node or infinite limit: use depth=N or a clock".into(),
                ))
            }
            _ => {
                let c = req.clocks[req.side.index()].unwrap_or_default();
                let left = (c.remaining_ms - c.increment_ms).max(0);
                format!(
                    "level {} {left} {}\ntime {left}",
                    c.moves_to_go.unwrap_or(0),
                    c.increment_ms
                )
            }
        })
    }
}

/// The first Hub's `info DEPTH PLY SCORE NODES TIME SPEED PV`, its score in centi-men.
fn info_v1(line: &str, info: &mut SearchInfo) {
    let f: Vec<&str> = line.split_whitespace().collect();
    if let Some(d) = f.get(1).and_then(|v| v.parse().ok()) {
        info.depth = Some(d);
    }
    if let Some(s) = f.get(3).and_then(|v| v.parse().ok()) {
        info.score = Some(s);
    }
    if let Some(n) = f.get(4).and_then(|v| v.parse().ok()) {
        info.nodes = Some(n);
    }
}

impl Player for HubPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _setup: &GameSetup) -> Result<(), PlayerError> {
        self.conn.send(if self.v1 { "new" } else { "new-game" })?;
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
        let lines = if self.v1 {
            let mut board = start.hub();
            board[..1].make_ascii_lowercase();
            let mut lines = format!("pos {board}");
            for m in &moves {
                lines.push_str(&format!("\nmove {m}"));
            }
            format!("{lines}\n{}\ngo", Self::level_v1(req)?)
        } else {
            let mut pos = format!("pos pos={}", start.hub());
            if !moves.is_empty() {
                pos.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
            }
            format!("{pos}\n{}\ngo think", Self::level(req))
        };
        // One write, the clock started before it (see the UCI driver).
        self.sent_at = Instant::now();
        self.conn.send(&lines)?;
        let mut info = SearchInfo::default();
        loop {
            let (line, at) = match self.conn.recv(req.deadline) {
                Ok(x) => x,
                Err(PlayerError::Timeout) => {
                    let answer = if self.v1 { "move" } else { "done" };
                    if self.conn.send("stop").is_ok() {
                        let until = Instant::now() + GRACE;
                        loop {
                            match self.conn.process.link.recv(until) {
                                Ok((l, _)) if parse_line(&l).command == answer => break,
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
            if self.v1 {
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("info") => info_v1(&line, &mut info),
                    Some("error") => {
                        return Err(PlayerError::Refused(format!("engine {}", line.trim())))
                    }
                    Some("move") => {
                        let Some(mv) = words.next() else {
                            return Err(PlayerError::Malformed(format!("'{line}' names no move")));
                        };
                        return Ok(Answer {
                            reply: Reply::Move(mv.to_string()),
                            info,
                            answered_at: at,
                        });
                    }
                    _ => {}
                }
                continue;
            }
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

    #[test]
    fn reads_the_first_hubs_positional_info() {
        // Scan 2.0: depth, average ply, score (centi-men), nodes, seconds, Mnps, line.
        let mut info = SearchInfo::default();
        info_v1("info 12 14.3 -35 183456 0.21 0.9 32-28 19-23", &mut info);
        assert_eq!(
            (info.depth, info.score, info.nodes),
            (Some(12), Some(-35), Some(183456))
        );
        let mut info = SearchInfo::default();
        info_v1("info x", &mut info);
        assert_eq!((info.depth, info.score, info.nodes), (None, None, None));
        assert_eq!(
            super::super::Protocol::parse("HUB1"),
            Ok(super::super::Protocol::Hub1)
        );
    }
}
