//! Two tetrarch processes play whole DXP games against each other on loopback.

use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// The `key=value` fields of a result line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line
        .find(&format!("{key}="))
        .unwrap_or_else(|| panic!("no {key}= in {line}"));
    let rest = &line[at + key.len() + 1..];
    rest.split(' ').next().unwrap_or("")
}

#[test]
fn two_engines_play_two_games_over_dxp() {
    let exe = env!("CARGO_BIN_EXE_tetrarch");
    let port = free_port().to_string();
    let follower = Command::new(exe)
        .args(["dxp", "--listen", &port, "--depth", "3", "--hash", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the follower");
    let initiator = Command::new(exe)
        .args([
            "dxp",
            "--connect",
            &format!("127.0.0.1:{port}"),
            "--depth",
            "3",
            "--hash",
            "4",
            "--games",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the initiator");

    let start = Instant::now();
    let init = initiator.wait_with_output().expect("initiator output");
    let foll = follower.wait_with_output().expect("follower output");
    assert!(start.elapsed() < Duration::from_secs(120));
    let init_out = String::from_utf8_lossy(&init.stdout);
    let foll_out = String::from_utf8_lossy(&foll.stdout);
    assert!(
        init.status.success() && foll.status.success(),
        "initiator: {init_out}{}\nfollower: {foll_out}{}",
        String::from_utf8_lossy(&init.stderr),
        String::from_utf8_lossy(&foll.stderr)
    );
    let a: Vec<&str> = init_out
        .lines()
        .filter(|l| l.starts_with("game="))
        .collect();
    let b: Vec<&str> = foll_out
        .lines()
        .filter(|l| l.starts_with("game="))
        .collect();
    assert_eq!(a.len(), 2, "{init_out}");
    assert_eq!(b.len(), 2, "{foll_out}");
    for (x, y) in a.iter().zip(&b) {
        // Both sides saw the same game end the same way, by a rule.
        for key in ["result", "plies", "fen"] {
            assert_eq!(field(x, key), field(y, key), "{x}\n{y}");
        }
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&field(x, "result")),
            "{x}"
        );
        assert_ne!(field(x, "we"), field(y, "we"));
        assert!(field(x, "plies").parse::<u32>().unwrap() > 10, "{x}");
    }
    // The initiator took White in the first game and Black in the second.
    assert_eq!(field(a[0], "we"), "white");
    assert_eq!(field(a[1], "we"), "black");
}
