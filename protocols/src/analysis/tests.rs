//! Transcripts of the analysis session, in process: the session runs on its own thread, the
//! test feeds it query lines and reads the JSON responses it writes.

use std::collections::VecDeque;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam::channel::Sender;

use super::json::{parse, Json};
use super::{run, AnalysisArgs};
use crate::io::{Captured, Input, Output};

struct Engine {
    tx: Option<Sender<Vec<u8>>>,
    handle: Option<thread::JoinHandle<()>>,
    cap: Captured,
    seen: usize,
    /// Responses read but not yet handed to the test.
    pending: VecDeque<Json>,
}

impl Engine {
    fn start() -> Engine {
        let args = AnalysisArgs {
            max_nodes: Some(200_000),
            seed: Some(3),
            ..AnalysisArgs::default()
        };
        let (tx, input) = Input::fed();
        let (out, cap) = Output::capture();
        let handle = thread::spawn(move || run(input, out, &args));
        Engine {
            tx: Some(tx),
            handle: Some(handle),
            cap,
            seen: 0,
            pending: VecDeque::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let tx = self.tx.as_ref().expect("input open");
        tx.send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// Responses until the first that satisfies `last` (that one included); fails the test
    /// after 60 s without it.
    fn until(&mut self, last: impl Fn(&Json) -> bool) -> Vec<Json> {
        let start = Instant::now();
        let mut got = Vec::new();
        loop {
            while let Some(r) = self.pending.pop_front() {
                let done = last(&r);
                got.push(r);
                if done {
                    return got;
                }
            }
            for l in self.cap.lines_since(&mut self.seen) {
                let r = parse(&l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"));
                self.pending.push_back(r);
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no such response: {got:?}"
            );
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Ends the input and waits for the session to end; the responses written meanwhile.
    fn close(&mut self) -> Vec<Json> {
        drop(self.tx.take());
        self.handle
            .take()
            .unwrap()
            .join()
            .expect("the session panicked");
        let text = self.cap.text();
        let lines: Vec<&str> = text.lines().collect();
        let rest = lines[self.seen.min(lines.len())..].to_vec();
        self.seen = lines.len();
        let mut got: Vec<Json> = self.pending.drain(..).collect();
        got.extend(rest.iter().map(|l| parse(l).unwrap()));
        got
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        drop(self.tx.take());
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn s<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("no string {key} in {}", v.to_line()))
}

fn n(v: &Json, key: &str) -> f64 {
    v.get(key)
        .and_then(Json::as_f64)
        .unwrap_or_else(|| panic!("no number {key} in {}", v.to_line()))
}

fn list<'a>(v: &'a Json, key: &str) -> &'a [Json] {
    v.get(key)
        .and_then(Json::as_array)
        .unwrap_or_else(|| panic!("no array {key} in {}", v.to_line()))
}

fn is_final(v: &Json) -> bool {
    v.get("isDuringSearch") == Some(&Json::Bool(false))
}

fn finals(id: &str, responses: &[Json]) -> Vec<Json> {
    responses
        .iter()
        .filter(|r| r.get("id").and_then(Json::as_str) == Some(id) && is_final(r))
        .cloned()
        .collect()
}

#[test]
fn each_turn_gets_one_final_response_with_katago_fields() {
    let mut e = Engine::start();
    e.send(
        r#"{"id":"g1","moves":[["B","E5"],["W","C3"]],"rules":"chinese","komi":7.5,
            "boardXSize":9,"boardYSize":9,"analyzeTurns":[0,1],"maxVisits":60,
            "includeOwnership":true,"includePolicy":true,"analysisPVLen":3}"#
            .replace('\n', " ")
            .as_str(),
    );
    let got = e.until(|r| is_final(r) && r.get("turnNumber") == Some(&Json::Int(1)));
    let finals = finals("g1", &got);
    assert_eq!(finals.len(), 2, "{got:?}");
    for (i, r) in finals.iter().enumerate() {
        assert_eq!(n(r, "turnNumber"), i as f64);
        let root = r.get("rootInfo").unwrap();
        assert_eq!(s(root, "currentPlayer"), ["B", "W"][i]);
        assert_eq!(n(root, "visits"), 60.0);
        let w = n(root, "winrate");
        assert!((0.0..=1.0).contains(&w));
        let infos = list(r, "moveInfos");
        assert!(!infos.is_empty());
        let mut visits = 0.0;
        for (order, m) in infos.iter().enumerate() {
            assert_eq!(n(m, "order"), order as f64);
            for key in ["winrate", "prior", "lcb"] {
                assert!((0.0..=1.0).contains(&n(m, key)), "{key} {}", m.to_line());
            }
            assert_eq!(n(m, "scoreLead"), n(m, "scoreMean"));
            assert!((n(m, "utility") - (2.0 * n(m, "winrate") - 1.0)).abs() < 1e-5);
            let pv = list(m, "pv");
            assert_eq!(pv[0].as_str(), Some(s(m, "move")));
            assert!(pv.len() <= 4, "analysisPVLen 3: the move and three more");
            visits += n(m, "visits");
        }
        assert_eq!(visits, 60.0, "every playout goes through a root move");
        // Most visited first.
        assert!(infos
            .windows(2)
            .all(|w| n(&w[0], "visits") >= n(&w[1], "visits")));
        assert_eq!(list(r, "ownership").len(), 81);
        let policy = list(r, "policy");
        assert_eq!(policy.len(), 82);
        let legal: f64 = policy
            .iter()
            .map(|p| p.as_f64().unwrap())
            .filter(|&p| p >= 0.0)
            .sum();
        assert!((legal - 1.0).abs() < 1e-3, "{legal}");
    }
    // E5 holds a stone at turn 1: row 5 from the top is index 4, column E index 4.
    assert_eq!(list(&finals[1], "policy")[4 * 9 + 4], Json::Int(-1));
    assert_ne!(list(&finals[0], "policy")[4 * 9 + 4], Json::Int(-1));
    assert!(e.close().is_empty());
}

/// 5x5, Black owns columns A to C and White D and E, komi 0.5: Black wins by 4.5.
const WON_FOR_BLACK: &str = r#""initialStones":[["B","C1"],["B","C2"],["B","C3"],["B","C4"],
    ["B","C5"],["W","D1"],["W","D2"],["W","D3"],["W","D4"],["W","D5"]],"moves":[],
    "initialPlayer":"W","rules":"tromp-taylor","komi":0.5,"boardXSize":5,"boardYSize":5,
    "maxVisits":300,"includeOwnership":true"#;

#[test]
fn values_are_from_the_side_to_move_unless_told_otherwise() {
    // Two engines with the same seed search the same position alike: only the view differs.
    let base = WON_FOR_BLACK.replace('\n', " ");
    let mut a = Engine::start();
    a.send(&format!(r#"{{"id":"q",{base}}}"#));
    let mut b = Engine::start();
    b.send(&format!(
        r#"{{"id":"q",{base},"overrideSettings":{{"reportAnalysisWinratesAs":"BLACK"}}}}"#
    ));
    let mover = a.until(is_final).pop().unwrap();
    let black = b.until(is_final).pop().unwrap();
    let (rm, rb) = (
        mover.get("rootInfo").unwrap(),
        black.get("rootInfo").unwrap(),
    );
    assert_eq!(s(rm, "currentPlayer"), "W");
    assert_eq!(s(rb, "currentPlayer"), "W");
    assert!((n(rm, "winrate") + n(rb, "winrate") - 1.0).abs() < 1e-5);
    assert!((n(rm, "scoreLead") + n(rb, "scoreLead")).abs() < 1e-4);
    let (im, ib) = (list(&mover, "moveInfos"), list(&black, "moveInfos"));
    assert_eq!(im.len(), ib.len());
    for (x, y) in im.iter().zip(ib) {
        assert_eq!(s(x, "move"), s(y, "move"));
        assert!((n(x, "winrate") + n(y, "winrate") - 1.0).abs() < 1e-5);
        assert!((n(x, "lcb") + n(y, "lcb") - 1.0).abs() < 1e-5);
        assert!((n(x, "utility") + n(y, "utility")).abs() < 1e-5);
        assert!((n(x, "scoreMean") + n(y, "scoreMean")).abs() < 1e-4);
        assert_eq!(n(x, "prior"), n(y, "prior"));
    }
    let (om, ob) = (list(&mover, "ownership"), list(&black, "ownership"));
    assert_eq!(om.len(), 25);
    for (x, y) in om.iter().zip(ob) {
        assert!((x.as_f64().unwrap() + y.as_f64().unwrap()).abs() < 1e-5);
    }
    // A1 (bottom row, first column: the last row of the list) is inside Black's wall; E5 (top
    // right, the fifth entry) is White's.
    assert!(ob[20].as_f64().unwrap() > 0.3, "{}", black.to_line());
    assert!(ob[4].as_f64().unwrap() < -0.3, "{}", black.to_line());
}

#[test]
fn bad_lines_get_errors_and_the_session_goes_on() {
    let mut e = Engine::start();
    let deep = "[".repeat(10_000);
    for line in [
        "not json",
        "[1,2]",
        r#"{"id":5}"#,
        r#"{"moves":[]}"#,
        r#"{"id":"x","action":"dance"}"#,
        r#"{"id":"x","action":"terminate"}"#,
        r#"{"id":"x","action":"terminate","terminateId":"y","turnNumbers":"all"}"#,
        r#"{"id":"ill","moves":[["B","A1"],["W","A1"]],"rules":"chinese","boardXSize":9,"boardYSize":9}"#,
        r#"{"id":"big","moves":[],"rules":"chinese","boardXSize":30,"boardYSize":30}"#,
        r#"{"id":"trunc","moves":[["B","A1"]"#,
        "{\"id\":\"\\ud800\"}",
        &deep,
        "",
        r#"{"id":"ok","moves":[],"rules":"chinese","boardXSize":7,"boardYSize":7,"maxVisits":20}"#,
    ] {
        e.send(line);
    }
    let got = e.until(|r| r.get("id") == Some(&"ok".into()) && is_final(r));
    let errors: Vec<(Option<&str>, Option<&str>)> = got
        .iter()
        .filter(|r| r.get("error").is_some())
        .map(|r| {
            (
                r.get("field").and_then(Json::as_str),
                r.get("id").and_then(Json::as_str),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            (None, None),
            (None, None),
            (None, None),
            (None, None),
            (Some("action"), Some("x")),
            (Some("terminateId"), Some("x")),
            (Some("turnNumbers"), Some("x")),
            (Some("moves"), Some("ill")),
            (Some("boardXSize"), Some("big")),
            (None, None),
            (None, None),
            (None, None),
        ],
        "{got:?}"
    );
    assert!(
        s(&got[0], "error").contains("could not parse")
            || s(&got[0], "error").contains("Could not parse")
    );
    assert_eq!(s(&got[7], "error"), "Illegal move 1: A1 (point occupied)");
    assert_eq!(
        got.len(),
        errors.len() + 1,
        "one answer per line, the blank one none"
    );
}

#[test]
fn terminate_stops_the_running_job_and_drops_queued_ones() {
    let mut e = Engine::start();
    // Three turns of a 19x19 game, each a search of a billion visits.
    e.send(
        r#"{"id":"long","moves":[["B","Q16"],["W","D4"]],"rules":"chinese","boardXSize":19,
            "boardYSize":19,"analyzeTurns":[0,1,2],"maxVisits":1000000000,
            "reportDuringSearchEvery":0.05}"#
            .replace('\n', " ")
            .as_str(),
    );
    let partial = e.until(|r| r.get("isDuringSearch") == Some(&Json::Bool(true)));
    assert_eq!(n(partial.last().unwrap(), "turnNumber"), 0.0);
    // Terminating turn 2 only leaves turn 0 running.
    e.send(r#"{"id":"t1","action":"terminate","terminateId":"long","turnNumbers":[2]}"#);
    let got = e.until(|r| r.get("noResults").is_some());
    assert!(
        got.iter().any(|r| r.get("id") == Some(&"t1".into())),
        "the echo"
    );
    let dropped = got.last().unwrap();
    assert_eq!((s(dropped, "id"), n(dropped, "turnNumber")), ("long", 2.0));
    assert!(is_final(dropped));
    // Now everything of it.
    let asked = Instant::now();
    e.send(r#"{"id":"t2","action":"terminate","terminateId":"long"}"#);
    let got = e.until(|r| is_final(r) && r.get("noResults").is_some());
    let got2 = e.until(|r| is_final(r) && r.get("moveInfos").is_some());
    let took = asked.elapsed();
    let all: Vec<Json> = got.into_iter().chain(got2).collect();
    let f = finals("long", &all);
    assert_eq!(f.len(), 2, "{all:?}");
    let turn0 = f.iter().find(|r| n(r, "turnNumber") == 0.0).unwrap();
    let turn1 = f.iter().find(|r| n(r, "turnNumber") == 1.0).unwrap();
    assert!(turn1.get("noResults").is_some(), "queued: no results");
    let visits = n(turn0.get("rootInfo").unwrap(), "visits");
    assert!(visits > 0.0 && visits < 1e9);
    assert!(took < Duration::from_secs(3), "{took:?}");
    // The engine serves the next query.
    e.send(r#"{"id":"after","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":10}"#);
    let got = e.until(|r| is_final(r) && r.get("id") == Some(&"after".into()));
    assert_eq!(
        n(got.last().unwrap().get("rootInfo").unwrap(), "visits"),
        10.0
    );
}

#[test]
fn max_time_ends_a_search_and_end_of_input_runs_the_queue() {
    let mut e = Engine::start();
    e.send(
        r#"{"id":"timed","moves":[],"rules":"chinese","boardXSize":19,"boardYSize":19,
            "maxVisits":1000000000,"overrideSettings":{"maxTime":0.3}}"#
            .replace('\n', " ")
            .as_str(),
    );
    e.send(r#"{"id":"next","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisits":30}"#);
    e.send(r#"{"id":"v","action":"query_version","extra":[1]}"#);
    e.send(r#"{"id":"c","action":"clear_cache"}"#);
    e.send(r#"{"id":"m","action":"query_models"}"#);
    let started = Instant::now();
    let got = e.close();
    assert!(started.elapsed() < Duration::from_secs(10));
    // The actions answer at once, before the searches end.
    assert_eq!(s(&got[0], "id"), "v");
    assert_eq!(s(&got[0], "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(got[0].get("extra"), Some(&Json::Array(vec![Json::Int(1)])));
    assert_eq!(got[1].to_line(), r#"{"id":"c","action":"clear_cache"}"#);
    assert_eq!(list(&got[2], "models").len(), 0);
    let timed = &finals("timed", &got)[0];
    let visits = n(timed.get("rootInfo").unwrap(), "visits");
    assert!(visits > 0.0 && visits < 1e9);
    let next = &finals("next", &got)[0];
    assert_eq!(n(next.get("rootInfo").unwrap(), "visits"), 30.0);
    assert_eq!(got.len(), 5);
}
