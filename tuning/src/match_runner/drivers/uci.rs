//! UCI and UCCI engines (chess; xiangqi over UCCI or Fairy-Stockfish's and Pikafish's UCI).
//!
//! Scheme: handshake (`uci`/`ucciok`), options, `isready`; per move the whole game as
//! `position startpos|fen ... moves ...` and one `go` with the clocks or limits, then lines are
//! read until `bestmove` (or UCCI `nobestmove`), keeping the last reported score and depth. Lines
//! the protocol does not define are ignored, as the UCI spec asks of GUIs; only a missing or
//! unreadable `bestmove` is malformed. On the deadline the driver sends `stop` and waits a short
//! grace for the `bestmove` so the engine is back in step for the next game; an engine that
//! does not answer even then is marked unhealthy (the runner restarts it with `-recover`).

use std::time::{Duration, Instant};

use tetrarch::game::Side;

use super::super::dialect::shift_ranks;
use super::super::rules::GameKind;
use super::super::tc::TimeControl;
use super::{
    ms, spawn, Answer, Conn, EngineConfig, GameSetup, MoveRequest, Player, PlayerError, Protocol,
    Reply, SearchInfo,
};

/// Time to wait for `bestmove` after `stop`, and for `readyok`.
const GRACE: Duration = Duration::from_millis(1000);

pub struct UciPlayer {
    name: String,
    conn: Conn,
    ucci: bool,
    /// Options the engine declared (names as declared).
    declared: Vec<String>,
    /// Xiangqi moves in ranks 1-10 (Fairy-Stockfish's UCI).
    ranks_from_one: bool,
    /// UCCI: times in milliseconds (after `setoption usemillisec true`), else seconds; an
    /// engine configured with `option.usemillisec=false` gets seconds.
    millis: bool,
    sent_at: Instant,
}

impl UciPlayer {
    pub fn start(
        config: &EngineConfig,
        kind: GameKind,
        label: &str,
        debug: bool,
        timeout: Duration,
    ) -> Result<UciPlayer, PlayerError> {
        let ucci = config.proto == Protocol::Ucci;
        let process = spawn(config, label, debug, None)?;
        let mut p = UciPlayer {
            name: config.name.clone(),
            conn: Conn::new(process),
            ucci,
            declared: Vec::new(),
            ranks_from_one: false,
            millis: !ucci,
            sent_at: Instant::now(),
        };
        p.handshake(config, kind, timeout)
            .map_err(|e| PlayerError::Startup(format!("handshake: engine {e}")))?;
        Ok(p)
    }

    fn handshake(
        &mut self,
        config: &EngineConfig,
        kind: GameKind,
        timeout: Duration,
    ) -> Result<(), PlayerError> {
        let deadline = Instant::now() + timeout;
        let (hello, ok) = if self.ucci {
            ("ucci", "ucciok")
        } else {
            ("uci", "uciok")
        };
        self.conn.send(hello)?;
        let mut id_name = None;
        loop {
            let (line, _) = self.conn.recv(deadline)?;
            let line = line.trim();
            if line == ok {
                break;
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some("id") if words.next() == Some("name") => {
                    id_name = Some(words.collect::<Vec<_>>().join(" "));
                }
                Some("option") => {
                    if let Some(name) = option_name(line, self.ucci) {
                        self.declared.push(name);
                    }
                }
                _ => {}
            }
        }
        if self.name.is_empty() {
            self.name = id_name.unwrap_or_else(|| config.launch.cmd.clone());
        }
        let has = |declared: &[String], n: &str| declared.iter().any(|d| d.eq_ignore_ascii_case(n));
        if self.ucci {
            // Milliseconds always: Fairy-Stockfish reads UCCI times as milliseconds without
            // declaring the option, ElephantEye never parses it, and engines that honour it
            // switch from seconds. Unknown options are harmless in UCCI.
            self.conn.send("setoption usemillisec true")?;
            self.millis = true;
            // Fairy-Stockfish's UCCI mode offers its variant option too; name the variant
            // rather than trust its default.
            if kind == GameKind::Xiangqi && has(&self.declared, "UCI_Variant") {
                self.conn.send("setoption UCI_Variant xiangqi")?;
            }
        } else if kind == GameKind::Xiangqi {
            let variant = has(&self.declared, "UCI_Variant");
            if variant {
                self.conn.send("setoption name UCI_Variant value xiangqi")?;
            }
            self.ranks_from_one = config.xiangqi_ranks_from_one.unwrap_or(variant);
        }
        if self.ucci {
            if let Some(r) = config.xiangqi_ranks_from_one {
                self.ranks_from_one = r;
            }
        }
        for (name, value) in &config.options {
            if self.ucci && name.eq_ignore_ascii_case("usemillisec") {
                self.millis = value != "false" && value != "off";
            }
            let line = if self.ucci {
                format!("setoption {name} {value}")
            } else {
                format!("setoption name {name} value {value}")
            };
            self.conn.send(&line)?;
        }
        for line in &config.init {
            self.conn.send(line)?;
        }
        self.sync(deadline)
    }

    /// `isready` and wait for `readyok`.
    fn sync(&mut self, deadline: Instant) -> Result<(), PlayerError> {
        self.conn.send("isready")?;
        loop {
            let (line, _) = self.conn.recv(deadline)?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    fn position_line(&self, req: &MoveRequest) -> String {
        let mut line = if req.start_is_initial {
            "position startpos".to_string()
        } else {
            format!("position fen {}", req.start)
        };
        if !req.moves.is_empty() {
            line.push_str(" moves");
            for m in req.moves {
                line.push(' ');
                line.push_str(&self.referee_to_engine(&m.text));
            }
        }
        line
    }

    fn referee_to_engine(&self, mv: &str) -> String {
        if self.ranks_from_one {
            shift_ranks(mv, 1)
        } else {
            mv.to_string()
        }
    }

    fn engine_to_referee(&self, mv: &str) -> String {
        if self.ranks_from_one {
            shift_ranks(mv, -1)
        } else {
            mv.to_string()
        }
    }

    fn go_line(&self, req: &MoveRequest) -> String {
        match req.tc {
            TimeControl::MoveTime(t) => {
                if self.ucci {
                    format!("go time {} movestogo 1", self.ucci_time(t as i64))
                } else {
                    format!("go movetime {t}")
                }
            }
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Infinite => "go infinite".into(),
            _ => {
                let own = req.clocks[req.side.index()].unwrap_or_default();
                let opp = req.clocks[req.side.flip().index()].unwrap_or_default();
                if self.ucci {
                    let mut s = format!("go time {}", self.ucci_time(own.remaining_ms));
                    match own.moves_to_go {
                        Some(m) => s.push_str(&format!(" movestogo {m}")),
                        None => {
                            s.push_str(&format!(" increment {}", self.ucci_time(own.increment_ms)))
                        }
                    }
                    s.push_str(&format!(" opptime {}", self.ucci_time(opp.remaining_ms)));
                    match opp.moves_to_go {
                        Some(m) => s.push_str(&format!(" oppmovestogo {m}")),
                        None => s.push_str(&format!(
                            " oppincrement {}",
                            self.ucci_time(opp.increment_ms)
                        )),
                    }
                    s
                } else {
                    let (w, b) = match req.side {
                        Side::First => (own, opp),
                        Side::Second => (opp, own),
                    };
                    let mut s = format!(
                        "go wtime {} btime {}",
                        ms(w.remaining_ms),
                        ms(b.remaining_ms)
                    );
                    if w.increment_ms > 0 || b.increment_ms > 0 {
                        s.push_str(&format!(
                            " winc {} binc {}",
                            ms(w.increment_ms),
                            ms(b.increment_ms)
                        ));
                    }
                    if let Some(m) = own.moves_to_go {
                        s.push_str(&format!(" movestogo {m}"));
                    }
                    s
                }
            }
        }
    }

    fn ucci_time(&self, ms_value: i64) -> i64 {
        if self.millis {
            ms(ms_value)
        } else {
            ms(ms_value) / 1000
        }
    }

    /// After a timeout: stop the search and wait for its `bestmove`.
    fn recover_after_timeout(&mut self) {
        if self.conn.send("stop").is_err() {
            return;
        }
        let until = Instant::now() + GRACE;
        loop {
            match self.conn.process.link.recv(until) {
                Ok((line, _)) => {
                    let w = line.split_whitespace().next();
                    if w == Some("bestmove") || w == Some("nobestmove") {
                        return;
                    }
                }
                Err(_) => {
                    self.conn.healthy = false;
                    return;
                }
            }
        }
    }
}

/// The option name in an `option` line: UCI `option name <id> type ...`, UCCI
/// `option <id> type ...`.
fn option_name(line: &str, ucci: bool) -> Option<String> {
    let rest = line.strip_prefix("option")?.trim_start();
    let rest = if ucci {
        rest.strip_prefix("name ").unwrap_or(rest)
    } else {
        rest.strip_prefix("name ")?
    };
    let end = rest.find(" type ").unwrap_or(rest.len());
    let name = rest[..end].trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// Reads score, depth and nodes from an `info` line (UCI `score cp|mate`, UCCI bare `score`).
fn parse_info(line: &str, info: &mut SearchInfo) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    info.depth = Some(d);
                }
                i += 2;
            }
            "nodes" => {
                if let Some(n) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    info.nodes = Some(n);
                }
                i += 2;
            }
            "score" => match words.get(i + 1).copied() {
                Some("cp") => {
                    if let Some(v) = words.get(i + 2).and_then(|w| w.parse().ok()) {
                        info.score = Some(v);
                        info.mate = None;
                    }
                    i += 3;
                }
                Some("mate") => {
                    if let Some(v) = words.get(i + 2).and_then(|w| w.parse::<i32>().ok()) {
                        info.set_mate(v);
                    }
                    i += 3;
                }
                Some(v) => {
                    if let Ok(v) = v.parse() {
                        info.score = Some(v);
                        info.mate = None;
                    }
                    i += 2;
                }
                None => i += 1,
            },
            // The rest of the line is moves or text.
            "pv" | "string" | "currline" | "refutation" => break,
            _ => i += 1,
        }
    }
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _setup: &GameSetup) -> Result<(), PlayerError> {
        if self.ucci {
            if self
                .declared
                .iter()
                .any(|d| d.eq_ignore_ascii_case("newgame"))
            {
                self.conn.send("setoption newgame")?;
            }
        } else {
            self.conn.send("ucinewgame")?;
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        self.sync(deadline)
            .inspect_err(|_| self.conn.healthy = false)
    }

    fn go(&mut self, req: &MoveRequest) -> Result<Answer, PlayerError> {
        // One write for both lines: one wake-up of the engine, not two. The clock starts
        // before the write: on a busy machine the runner can be preempted right after it while
        // the engine already thinks, and that time is the engine's.
        let lines = format!("{}\n{}", self.position_line(req), self.go_line(req));
        self.sent_at = Instant::now();
        self.conn.send(&lines)?;
        let mut info = SearchInfo::default();
        loop {
            let (line, at) = match self.conn.recv(req.deadline) {
                Ok(x) => x,
                Err(PlayerError::Timeout) => {
                    self.recover_after_timeout();
                    return Err(PlayerError::Timeout);
                }
                Err(e) => return Err(e),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => parse_info(&line, &mut info),
                Some("nobestmove") => {
                    return Ok(Answer {
                        reply: Reply::NoMove,
                        info,
                        answered_at: at,
                    })
                }
                Some("bestmove") => {
                    let mv = words.next();
                    let rest: Vec<&str> = words.collect();
                    let reply = match mv {
                        None => {
                            return Err(PlayerError::Malformed(format!("'{line}' names no move")))
                        }
                        Some("(none)") | Some("none") | Some("NULL") => Reply::NoMove,
                        Some(m) => {
                            let m = self.engine_to_referee(m);
                            if self.ucci && rest.contains(&"resign") {
                                Reply::Resign
                            } else if self.ucci && rest.contains(&"draw") {
                                Reply::MoveWithDrawOffer(m)
                            } else {
                                Reply::Move(m)
                            }
                        }
                    };
                    return Ok(Answer {
                        reply,
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
    fn reads_scores_in_both_dialects() {
        let mut i = SearchInfo::default();
        parse_info(
            "info depth 12 seldepth 18 multipv 1 score cp -31 nodes 8123 pv e2e4 e7e5",
            &mut i,
        );
        assert_eq!(
            (i.depth, i.score, i.nodes),
            (Some(12), Some(-31), Some(8123))
        );
        parse_info("info depth 20 score mate -3 pv a1a2", &mut i);
        assert_eq!(i.mate, Some(-3));
        assert_eq!(i.score, Some(-SearchInfo::MATE_SCORE + 3));
        let mut u = SearchInfo::default();
        parse_info("info depth 6 score 4 pv b0c2 b9c7", &mut u);
        assert_eq!((u.depth, u.score), (Some(6), Some(4)));
        let mut s = SearchInfo::default();
        parse_info("info string score cp 99", &mut s);
        assert_eq!(s.score, None);
    }

    #[test]
    fn option_names() {
        assert_eq!(
            option_name("option name Clear Hash type button", false).as_deref(),
            Some("Clear Hash")
        );
        assert_eq!(
            option_name("option usemillisec type check default true", true).as_deref(),
            Some("usemillisec")
        );
        assert_eq!(option_name("option type spin", false), None);
    }
}
