//! The `tetrarch gtp` process as a controller sees it: end of input during a search.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Closing stdin while `genmove` thinks on a long clock ends the process at once (issue 18,
/// defect 2: it used to think its full share of the 600 s clock, about 23 s, first).
#[test]
fn end_of_input_during_genmove_exits_at_once() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
        .args(["gtp", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tetrarch gtp");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"boardsize 19\ntime_settings 600 0 0\ngenmove b\n")
        .unwrap();
    stdin.flush().unwrap();
    // Let the search start.
    std::thread::sleep(Duration::from_millis(300));
    drop(stdin);
    let closed = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if closed.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running 10 s after the end of input");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = closed.elapsed();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(status.success(), "{status:?}: {out}");
    assert!(
        took < Duration::from_secs(2),
        "exited {took:?} after the end of input"
    );
    // Every command was answered, the genmove too (with what the cut search found).
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 3, "{out:?}");
    assert!(answers[..2].iter().all(|a| *a == "= "), "{out:?}");
    let mv = answers[2].strip_prefix("= ").expect("a move");
    assert!(!mv.is_empty() && mv != "resign", "{out:?}");
}
