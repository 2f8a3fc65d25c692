//! The `tetrarch analysis` process driven as KaTrain drives KataGo's analysis engine: start it,
//! ask its version, send queries on stdin, read JSON responses from stdout by id, terminate
//! one, close stdin and see it exit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Reads lines until one contains every one of `needles`; fails after `secs` seconds.
fn read_until(rx: &mpsc::Receiver<String>, needles: &[&str], secs: u64) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut got = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                let done = needles.iter().all(|n| line.contains(n));
                got.push(line);
                if done {
                    return got;
                }
            }
            Err(_) => panic!("no line with {needles:?} in {secs} s; got {got:#?}"),
        }
    }
}

#[test]
fn katrain_style_session_over_pipes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
        .args(["analysis", "--max-visits", "40", "--seed", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tetrarch analysis");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };

    send(r#"{"id":"version","action":"query_version"}"#);
    let got = read_until(&rx, &[r#""id":"version""#], 5);
    assert!(got[0].contains(r#""version":""#), "{got:?}");

    // The query KaTrain sends for one move of a game, Black's view as its config asks.
    send(concat!(
        r#"{"id":"QUERY:1","rules":"japanese","priority":0,"analyzeTurns":[3],"#,
        r#""maxVisits":120,"komi":6.5,"boardXSize":9,"boardYSize":9,"#,
        r#""includeOwnership":true,"includeMovesOwnership":false,"includePolicy":true,"#,
        r#""initialStones":[],"initialPlayer":"B","#,
        r#""moves":[["B","E5"],["W","C4"],["B","G4"]],"#,
        r#""reportDuringSearchEvery":0.02,"#,
        r#""overrideSettings":{"reportAnalysisWinratesAs":"BLACK","wideRootNoise":0.0}}"#
    ));
    let got = read_until(&rx, &[r#""id":"QUERY:1""#, r#""isDuringSearch":false"#], 8);
    let last = got.last().unwrap();
    // Japanese rules are played as area scoring, and wideRootNoise is not ours: warnings.
    assert!(got
        .iter()
        .any(|l| l.contains(r#""warning""#) && l.contains(r#""field":"rules""#)));
    assert!(got
        .iter()
        .any(|l| l.contains(r#""warning""#) && l.contains("wideRootNoise")));
    for field in [
        r#""turnNumber":3"#,
        r#""moveInfos":[{"move":""#,
        r#""rootInfo":{"currentPlayer":"W","visits":120,"#,
        r#""ownership":["#,
        r#""policy":["#,
        r#""scoreLead":"#,
        r#""prior":"#,
        r#""order":0"#,
        r#""pv":[""#,
    ] {
        assert!(last.contains(field), "{field} missing in {last}");
    }
    // Every line is one JSON object.
    assert!(got.iter().all(|l| l.starts_with('{') && l.ends_with('}')));

    // A long query, terminated while it runs; the engine answers the next one.
    send(concat!(
        r#"{"id":"long","rules":"chinese","boardXSize":19,"boardYSize":19,"#,
        r#""moves":[],"maxVisits":1000000000,"reportDuringSearchEvery":0.05}"#
    ));
    read_until(&rx, &[r#""id":"long""#, r#""isDuringSearch":true"#], 5);
    send(r#"{"id":"stop","action":"terminate","terminateId":"long"}"#);
    let got = read_until(&rx, &[r#""id":"long""#, r#""isDuringSearch":false"#], 5);
    assert!(got.iter().any(|l| l.contains(r#""id":"stop""#)));
    send(r#"{"id":"bad","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[["B","J10"]]}"#);
    let got = read_until(&rx, &[r#""id":"bad""#], 5);
    assert!(
        got.last().unwrap().contains(r#""field":"moves""#),
        "{got:?}"
    );

    // End of input: the queued query still runs, then the process exits.
    send(r#"{"id":"final","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[]}"#);
    drop(stdin);
    let got = read_until(&rx, &[r#""id":"final""#, r#""isDuringSearch":false"#], 5);
    assert!(
        got.last().unwrap().contains(r#""visits":40,"#),
        "--max-visits"
    );
    let closed = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if closed.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after its queue was done and stdin closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status:?}");
    reader.join().unwrap();
}
