//! Hub transcripts: a session run in-process on a pipe of input lines, its output captured and
//! checked line by line.

use std::time::{Duration, Instant};

use crossbeam::channel::{self, Sender};
use tetrarch::game::{Notation, Position};
use tetrarch::games::draughts::Board;

use super::*;
use crate::io::{Captured, Input, Output};

struct Hub {
    tx: Option<Sender<Vec<u8>>>,
    cap: Captured,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Hub {
    fn start() -> Hub {
        let (tx, input) = Input::fed();
        let (out, cap) = Output::capture();
        let thread = std::thread::spawn(move || run(input, out, None));
        Hub {
            tx: Some(tx),
            cap,
            thread: Some(thread),
        }
    }

    fn send(&self, line: &str) {
        let mut b = line.as_bytes().to_vec();
        b.push(b'\n');
        self.tx.as_ref().unwrap().send(b).unwrap();
    }

    fn lines(&self) -> Vec<String> {
        self.cap.text().lines().map(str::to_string).collect()
    }

    /// Waits until the output has a line starting with `prefix` after line `from`; returns
    /// its index.
    fn wait_for(&self, prefix: &str, from: usize) -> usize {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let lines = self.lines();
            if let Some(i) = lines.iter().skip(from).position(|l| l.starts_with(prefix)) {
                return from + i;
            }
            assert!(
                Instant::now() < deadline,
                "no line starting with '{prefix}' after line {from} in:\n{}",
                lines.join("\n")
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `ping` and waits for its `pong`: everything sent before has been handled.
    fn sync(&self) -> usize {
        let from = self.lines().len();
        self.send("ping");
        self.wait_for("pong", from)
    }

    fn quit(mut self) {
        self.send("quit");
        self.tx.take();
        self.thread.take().unwrap().join().unwrap();
    }
}

/// Every line the engine wrote is a command followed by key=value pairs only.
fn assert_key_value(lines: &[String]) {
    for l in lines {
        let parsed = wire::parse(l).unwrap_or_else(|| panic!("blank line in output"));
        let mut rest = l[parsed.command.len()..].trim().to_string();
        // Remove the quoted values, then every remaining token must be name=value.
        while let Some(a) = rest.find('"') {
            let b = rest[a + 1..]
                .find('"')
                .map(|b| a + 1 + b)
                .expect("closing quote");
            rest.replace_range(a..=b, "Q");
        }
        for tok in rest.split_whitespace() {
            let (k, v) = tok
                .split_once('=')
                .unwrap_or_else(|| panic!("bare token '{tok}' in '{l}'"));
            assert!(!k.is_empty() && !v.is_empty() && !v.contains('='), "'{l}'");
        }
    }
}

fn done_move(line: &str) -> String {
    let l = wire::parse(line).unwrap();
    assert_eq!(l.command, "done");
    assert_eq!(l.pairs[0].0, "move", "move= must come first: {line}");
    l.pairs[0].1.clone()
}

#[test]
fn handshake_declares_params_as_pairs() {
    let hub = Hub::start();
    hub.send("hub");
    let wait = hub.wait_for("wait", 0);
    let lines = hub.lines();
    assert!(
        lines[0].starts_with("id name=Tetrarch version="),
        "{lines:?}"
    );
    assert!(lines[1..wait].iter().all(|l| l.starts_with("param name=")));
    assert!(lines[1..wait]
        .iter()
        .any(|l| l.contains("name=variant") && l.contains("values=normal")));
    assert_key_value(&lines[..wait]);
    hub.send("set-param name=threads value=2");
    hub.send("set-param name=hash value=8");
    hub.send("set-param name=variant value=normal");
    hub.send("init");
    let ready = hub.wait_for("ready", wait);
    assert_eq!(ready, wait + 1, "{:?}", hub.lines());
    hub.quit();
}

/// A tuning build declares draughts' search parameters as params, with draughts' values; a
/// set takes effect, and a parameter draughts switched off is not offered.
#[cfg(feature = "tuning")]
#[test]
fn tuning_builds_declare_search_parameters() {
    let hub = Hub::start();
    hub.send("hub");
    let wait = hub.wait_for("wait", 0);
    let lines = hub.lines();
    assert!(lines[..wait]
        .iter()
        .any(|l| l.starts_with("param name=lmr_base value=80 type=int")));
    assert!(lines[..wait]
        .iter()
        .any(|l| l.starts_with("param name=alpha_raise_depth value=0 ")));
    assert!(!lines[..wait].iter().any(|l| l.contains("name=fp_depth ")));
    hub.send("set-param name=lmr_base value=120");
    let at = hub.sync();
    assert!(!hub.lines()[wait..at].iter().any(|l| l.starts_with("error")));
    hub.send("set-param name=fp_depth value=5");
    let from = hub.sync();
    assert!(hub.lines()[at..from].iter().any(|l| l.starts_with("error")));
    hub.send("hub");
    let again = hub.wait_for("wait", from);
    assert!(hub.lines()[from..again]
        .iter()
        .any(|l| l.starts_with("param name=lmr_base value=120 ")));
    hub.quit();
}

#[test]
fn think_reports_info_then_one_done_with_a_legal_move() {
    let hub = Hub::start();
    hub.send("init");
    hub.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 18-23\"");
    hub.send("level depth=6");
    hub.send("go think");
    let done = hub.wait_for("done", 0);
    let lines = hub.lines();
    assert!(lines[..done].iter().any(|l| l.starts_with("info depth=")));
    assert_key_value(&lines);
    let mv = done_move(&lines[done]);
    let mut pos = Board::start();
    for m in ["32-28", "18-23"] {
        let m = pos.parse_move(m).unwrap();
        let _ = pos.make(m);
    }
    assert!(pos.parse_move(&mv).is_ok(), "{mv}");
    // Exactly one done.
    let after = hub.sync();
    assert_eq!(
        hub.lines()[..after]
            .iter()
            .filter(|l| l.starts_with("done"))
            .count(),
        1
    );
    hub.quit();
}

#[test]
fn ping_is_answered_during_a_search_and_stop_still_sends_done() {
    let hub = Hub::start();
    hub.send("pos start");
    hub.send("level infinite");
    hub.send("go analyze");
    hub.send("ping");
    let pong = hub.wait_for("pong", 0);
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        !hub.lines().iter().any(|l| l.starts_with("done")),
        "an infinite analysis ended on its own"
    );
    hub.send("stop");
    let done = hub.wait_for("done", pong);
    let mv = done_move(&hub.lines()[done]);
    assert!(Board::start().parse_move(&mv).is_ok(), "{mv}");
    hub.quit();
}

#[test]
fn ponder_waits_for_ponder_hit() {
    let hub = Hub::start();
    hub.send("pos start moves=\"32-28\"");
    hub.send("level time=1 inc=0");
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    hub.sync();
    assert!(!hub.lines().iter().any(|l| l.starts_with("done")));
    hub.send("ponder-hit");
    let done = hub.wait_for("done", 0);
    let mv = done_move(&hub.lines()[done]);
    let mut pos = Board::start();
    let m = pos.parse_move("32-28").unwrap();
    let _ = pos.make(m);
    assert!(pos.parse_move(&mv).is_ok(), "{mv}");
    // A late ponder-hit or stop after done is harmless.
    hub.send("ponder-hit");
    hub.send("stop");
    hub.sync();
    hub.quit();
}

#[test]
fn bad_input_gets_errors_and_the_session_goes_on() {
    let hub = Hub::start();
    hub.send("pos start moves=\"32-28\"");
    let cases = [
        ("pos pos=Wxyz", "bad position"),
        (
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwww",
            "bad position",
        ),
        (
            "pos pos=Wwbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "bad position",
        ),
        ("pos", "bad position"),
        ("pos start moves=\"32-28 32-28\"", "illegal move"),
        ("pos start moves=\"32-28 19x\"", "bad move"),
        ("frobnicate now", "unknown command"),
        ("level depth=zero", "level depth"),
        ("level time=soon", "level time"),
        ("go sideways", "go needs"),
        ("set-param name=threads value=many", "threads"),
        ("set-param name=variant value=frisian", "not supported"),
        ("set-param name=nonsense value=1", "unknown parameter"),
        ("set-param value=1", "needs name"),
        ("set-param name=bitbases value=/no/such/dir", "bitbases"),
        ("\u{1}\u{2}garbage \u{fffd}", "unknown command"),
    ];
    for (line, want) in cases {
        let from = hub.lines().len();
        hub.send(line);
        let at = hub.wait_for("error message=", from);
        let text = &hub.lines()[at];
        assert!(text.contains(want), "'{line}' gave '{text}'");
        assert_key_value(&hub.lines()[at..=at]);
    }
    let at = hub.sync();
    // The position from before the errors is still there: White played 32-28, Black moves.
    hub.send("level depth=3");
    hub.send("go think");
    let done = hub.wait_for("done", at);
    let mv = done_move(&hub.lines()[done]);
    let mut pos = Board::start();
    let m = pos.parse_move("32-28").unwrap();
    let _ = pos.make(m);
    assert!(
        pos.parse_move(&mv).is_ok(),
        "{mv} is not Black's move after 32-28"
    );
    hub.quit();
}

#[test]
fn an_ambiguous_capture_is_refused_and_the_full_form_accepted() {
    // The king on 19 ends on 25 after taking 20, 24, 33, 34 and either 8 or 13.
    let fen = "W:WK19:B4,8,13,20,24,33,34,35";
    let pos = Board::from_text(fen).unwrap();
    let moves = tetrarch::search::legal_moves(&pos);
    let mut twin = None;
    for a in &moves {
        for b in &moves {
            if a != b && a.from_square() == b.from_square() && a.to_square() == b.to_square() {
                twin = Some((*a, *b));
            }
        }
    }
    let Some((a, _)) = twin else {
        // The position must have twins for this test to mean anything.
        panic!("no two captures share start and end in {fen}: {moves:?}");
    };
    let hub = Hub::start();
    let short = format!("{}x{}", a.from_square(), a.to_square());
    hub.send(&format!("pos pos={} moves=\"{short}\"", pos.to_hub()));
    let at = hub.wait_for("error", 0);
    assert!(hub.lines()[at].contains("ambiguous"), "{}", hub.lines()[at]);
    let from = hub.lines().len();
    hub.send(&format!(
        "pos pos={} moves=\"{}\"",
        pos.to_hub(),
        pos.hub_move_text(a)
    ));
    let pong = hub.sync();
    assert!(
        !hub.lines()[from..pong]
            .iter()
            .any(|l| l.starts_with("error")),
        "{:?}",
        &hub.lines()[from..]
    );
    hub.quit();
}

#[test]
fn a_command_during_a_search_waits_for_its_done() {
    let hub = Hub::start();
    hub.send("pos start");
    hub.send("level infinite");
    hub.send("go think");
    hub.send("pos start moves=\"32-28\"");
    hub.send("level depth=2");
    hub.send("go think");
    let first = hub.wait_for("done", 0);
    let second = hub.wait_for("done", first + 1);
    let first_mv = done_move(&hub.lines()[first]);
    let second_mv = done_move(&hub.lines()[second]);
    assert!(Board::start().parse_move(&first_mv).is_ok());
    let mut pos = Board::start();
    let m = pos.parse_move("32-28").unwrap();
    let _ = pos.make(m);
    assert!(pos.parse_move(&second_mv).is_ok(), "{second_mv}");
    hub.quit();
}

#[test]
fn a_forced_move_is_played_at_once_and_new_game_works() {
    let hub = Hub::start();
    // Black's only move is the capture 22x31 (captures are compulsory).
    hub.send("pos pos=Beeeeeeeeeeeeeeeeeeeeebeeeeweeeeeeeeeeeeeeeeeweeeee");
    hub.send("level time=600");
    hub.send("go think");
    let done = hub.wait_for("done", 0);
    assert_eq!(done_move(&hub.lines()[done]), "22x31x27");
    hub.send("new-game");
    hub.sync();
    hub.quit();
}

#[test]
fn level_adds_the_increment_before_the_move() {
    let (tx, _rx) = channel::unbounded();
    let (out, _cap) = Output::capture();
    let mut s = Session {
        out,
        engine: new_engine(1, 1),
        position: Board::start(),
        level: Level::default(),
        searching: false,
        pending: VecDeque::new(),
        events_tx: tx,
        ponder: false,
        eval_name: "full".into(),
        eval_file: String::new(),
        bitbases: None,
        bitbases_dir: String::new(),
        elo: 0,
        skill_level: 20,
    };
    s.set_level(&wire::parse("level moves=40 time=59.5 inc=0.5").unwrap());
    let c = s.level.clock.expect("a clock");
    assert_eq!(c.remaining_ms, 60_000);
    assert_eq!(c.increment_ms, 500);
    assert_eq!(c.moves_to_go, Some(40));
    s.set_level(&wire::parse("level move-time=1.25").unwrap());
    assert_eq!(s.level.move_time_ms, Some(1250));
    assert!(s.level.clock.is_none());
    s.set_level(&wire::parse("level nodes=5000").unwrap());
    assert_eq!(s.level.nodes, Some(5000));
}

#[test]
fn a_bad_level_field_keeps_the_others_and_never_thinks_long() {
    // One unreadable field is reported, the rest of the line holds, and the search keeps
    // within the time the GUI stated (or, stating none, a one-ply search): never the
    // 10-second default of a `go` without `level`.
    let hub = Hub::start();
    let cases = [
        ("level time=1 inc=nan", "level inc="),
        ("level moves=-3 time=1", "level moves="),
        ("level depth=0", "level depth="),
        ("level time=nan", "level time="),
    ];
    for (line, want) in cases {
        hub.send("pos start");
        let from = hub.sync();
        hub.send(line);
        let at = hub.wait_for("error message=", from);
        let text = hub.lines()[at].clone();
        assert!(text.contains(want), "'{line}' gave '{text}'");
        assert_key_value(&hub.lines()[at..=at]);
        let start = Instant::now();
        hub.send("go think");
        let done = hub.wait_for("done", at);
        let took = start.elapsed();
        assert!(
            took < Duration::from_secs(4),
            "'{line}': done after {took:?}"
        );
        assert!(done_move(&hub.lines()[done]).contains('-'));
    }
    hub.quit();
}

#[test]
fn level_keeps_its_valid_fields() {
    let (tx, _rx) = channel::unbounded();
    let (out, cap) = Output::capture();
    let mut s = Session {
        out,
        engine: new_engine(1, 1),
        position: Board::start(),
        level: Level::default(),
        searching: false,
        pending: VecDeque::new(),
        events_tx: tx,
        ponder: false,
        eval_name: "full".into(),
        eval_file: String::new(),
        bitbases: None,
        bitbases_dir: String::new(),
        elo: 0,
        skill_level: 20,
    };
    s.set_level(&wire::parse("level time=1 inc=nan").unwrap());
    let c = s.level.clock.expect("time= kept");
    assert_eq!((c.remaining_ms, c.increment_ms), (1000, 0));
    s.set_level(&wire::parse("level moves=-3 time=1").unwrap());
    let c = s.level.clock.expect("time= kept");
    assert_eq!((c.remaining_ms, c.moves_to_go), (1000, None));
    s.set_level(&wire::parse("level depth=0").unwrap());
    assert_eq!(s.level.depth, Some(1));
    s.set_level(&wire::parse("level nodes=0 move-time=0.5").unwrap());
    assert_eq!((s.level.nodes, s.level.move_time_ms), (Some(1), Some(500)));
    let errors = cap
        .text()
        .lines()
        .filter(|l| l.starts_with("error "))
        .count();
    assert_eq!(errors, 4, "{}", cap.text());
}

#[test]
fn scores_are_men_with_results_near_100() {
    use tetrarch::score::{mate_in, mated_in};
    assert_eq!(score_text(0), "0.00");
    assert_eq!(score_text(-5), "-0.05");
    assert_eq!(score_text(123), "1.23");
    assert_eq!(score_text(19_999), "89.99");
    assert_eq!(score_text(mate_in(7)), "99.93");
    assert_eq!(score_text(mated_in(4)), "-99.96");
}

/// `stop` and `ponder-hit` that arrive behind lines still queued after a search belong to the
/// search those lines start, not to the one running: as Scan reads one line at a time.
#[test]
fn stop_and_ponder_hit_behind_a_queue_reach_the_search_they_follow() {
    for (second, last) in [("stop", "stop"), ("ponder-hit", "ponder-hit")] {
        let hub = Hub::start();
        for l in [
            "hub",
            "init",
            "pos start",
            "level move-time=5",
            "go think",
            "level move-time=0.05",
            "go ponder",
            last,
        ] {
            hub.send(l);
        }
        // The first search ends at once (the queued `level` stops it); the `go ponder` then
        // starts, and the queued `stop` or `ponder-hit` must end it (a `ponder-hit` switches
        // it to its 50 ms clock), without any other input.
        let first = hub.wait_for("done", 0);
        let started = Instant::now();
        let deadline = Duration::from_secs(20);
        loop {
            let lines = hub.lines();
            if lines.iter().skip(first + 1).any(|l| l.starts_with("done")) {
                break;
            }
            assert!(
                started.elapsed() < deadline,
                "the {second} behind the queue never reached the ponder search:\n{}",
                lines.join("\n")
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        hub.quit();
    }
}

#[test]
fn endgame_tables_load_by_parameter_and_score_exactly() {
    use tetrarch::games::draughts::bitbase::{file_name, generate, order, Bitbases};
    let dir = std::env::temp_dir().join(format!("tetrarch-hub-bb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut db = Bitbases::new();
    for c in order(2) {
        for t in generate(c, &db, 1, &|_| {}) {
            std::fs::write(dir.join(file_name(t.class())), t.to_bytes()).unwrap();
            db.insert(t);
        }
    }
    let hub = Hub::start();
    hub.send(&format!("set-param name=bitbases value={}", dir.display()));
    hub.send("hub");
    let wait = hub.wait_for("wait", 0);
    let declared = hub.lines()[..wait]
        .iter()
        .find(|l| l.contains("name=bitbases"))
        .cloned()
        .expect("bitbases declared");
    assert!(declared.contains(&dir.display().to_string()), "{declared}");
    // Kings in the single corners: every White move steps into the capture. The tables say
    // so at once, as a known loss (below the results near 100 that mean a forced end).
    hub.send("pos pos=W:WK5:BK46");
    hub.send("level depth=2");
    let from = hub.lines().len();
    hub.send("go think");
    let done = hub.wait_for("done", from);
    let info = hub.lines()[from..done]
        .iter()
        .rev()
        .find(|l| l.starts_with("info"))
        .cloned()
        .expect("an info line");
    assert!(info.contains("score=-89.99"), "{info}");
    hub.send("set-param name=bitbases value=none");
    hub.sync();
    hub.quit();
    let _ = std::fs::remove_dir_all(&dir);
}
