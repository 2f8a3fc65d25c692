//! Two tetrarch processes play whole DXP games against each other on loopback.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Starts `tetrarch dxp --listen 0 ARGS...` and waits until it names the port the system gave
/// it. A port chosen here and handed over could be taken by another program first, and an
/// initiator connecting in a loop to a port nobody holds yet can connect to itself; the
/// follower's own choice avoids both. Returns the process (stdout piped), the port, and the
/// thread that collects the rest of its stderr.
fn spawn_follower(args: &[&str]) -> (Child, u16, JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrarch"))
        .args(["dxp", "--listen", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the follower");
    let err = child.stderr.take().expect("piped stderr");
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        for l in std::io::BufReader::new(err).lines().map_while(Result::ok) {
            if let Some(p) = l.strip_prefix("dxp: listening on 127.0.0.1:") {
                let _ = port_tx.send(p.trim().parse::<u16>().ok());
            }
            text.push_str(&l);
            text.push('\n');
        }
        text
    });
    match port_rx.recv_timeout(Duration::from_secs(20)) {
        Ok(Some(port)) => (child, port, log),
        Ok(None) => panic!("the follower named no port"),
        Err(_) => {
            let _ = child.kill();
            panic!(
                "the follower never listened: {}",
                log.join().unwrap_or_default()
            )
        }
    }
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
    let (follower, port, follower_log) = spawn_follower(&["--depth", "3", "--hash", "4"]);
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
        follower_log.join().unwrap_or_default()
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

/// A follower (`tetrarch dxp --listen`) under test, with its stdout lines on a channel. It is
/// killed when dropped.
struct Follower {
    child: std::process::Child,
    port: u16,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Follower {
    /// Starts a follower on a free loopback port and waits until it listens.
    fn start(extra: &[&str]) -> Follower {
        let mut args = vec!["--hash", "4", "--verbose"];
        args.extend_from_slice(extra);
        let (mut child, port, _log) = spawn_follower(&args);
        let (tx, lines) = std::sync::mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        Follower { child, port, lines }
    }

    /// The next result line within `wait`.
    fn result_line(&self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with("game=") => return Some(l),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    fn peer(&self) -> Peer {
        Peer::connect(self.port)
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Our end of a DXP connection, spoken by hand.
struct Peer {
    stream: std::net::TcpStream,
    buf: Vec<u8>,
}

impl Peer {
    fn connect(port: u16) -> Peer {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        Peer {
            stream,
            buf: Vec::new(),
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.stream.write_all(bytes).expect("send");
    }

    fn send(&mut self, msg: &str) {
        self.send_raw(format!("{msg}\0").as_bytes());
    }

    /// The next message within `wait`; `None` on timeout or when the follower closed.
    fn recv(&mut self, wait: Duration) -> Option<String> {
        use std::io::Read;
        let until = Instant::now() + wait;
        loop {
            if let Some(at) = self.buf.iter().position(|&b| b == 0) {
                let msg: Vec<u8> = self.buf.drain(..=at).collect();
                return Some(String::from_utf8_lossy(&msg[..at]).into_owned());
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            self.stream.set_read_timeout(Some(left)).unwrap();
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// The next message that is not chat, within `wait`.
    fn recv_play(&mut self, wait: Duration) -> Option<String> {
        loop {
            let m = self.recv(wait)?;
            if !m.starts_with('C') {
                return Some(m);
            }
        }
    }

    /// Whether the follower closed the connection within `wait` (reading what it still sent).
    fn closed_within(&mut self, wait: Duration) -> bool {
        use std::io::Read;
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            self.stream.set_read_timeout(Some(left)).unwrap();
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) => return true,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
                Err(_) => return false,
            }
        }
    }
}

/// A game request: the follower plays `colour` (`W` or `Z`) with `minutes` thinking time.
fn game_request(colour: char, minutes: u32) -> String {
    format!("R01{:<32}{colour}{minutes:03}000A", "test peer")
}

#[test]
fn the_follower_serves_one_connection_after_another_and_refuses_a_second_at_once() {
    let f = Follower::start(&["--depth", "2"]);
    let mut first = f.peer();
    first.send(&game_request('Z', 1));
    let acc = first.recv_play(Duration::from_secs(10)).expect("GAMEACC");
    assert!(acc.starts_with('A') && acc.ends_with('0'), "{acc}");

    // A second connection while the first is in a game is told why and closed.
    let mut second = f.peer();
    second.send(&game_request('Z', 1));
    let said = second.recv(Duration::from_secs(10)).expect("a refusal");
    assert!(said.starts_with('C') && said.contains("busy"), "{said}");
    assert!(second.closed_within(Duration::from_secs(10)));
    // The first game goes on: our move is answered.
    first.send("M0001322800");
    let reply = first.recv_play(Duration::from_secs(10)).expect("a move");
    assert!(reply.starts_with('M'), "{reply}");

    // The first connection ends; its game gets its result line and the follower waits for the
    // next connection, which it serves.
    drop(first);
    let line = f
        .result_line(Duration::from_secs(10))
        .expect("a result line");
    assert!(line.contains("connection closed"), "{line}");
    for _ in 0..2 {
        let mut next = f.peer();
        next.send(&game_request('W', 1));
        let acc = next.recv_play(Duration::from_secs(10)).expect("GAMEACC");
        assert!(acc.starts_with('A') && acc.ends_with('0'), "{acc}");
        let mv = next
            .recv_play(Duration::from_secs(10))
            .expect("the follower's first move");
        assert!(mv.starts_with('M'), "{mv}");
        next.send("E00");
        let end = next
            .recv_play(Duration::from_secs(10))
            .expect("its GAMEEND");
        assert!(end.starts_with('E'), "{end}");
        assert!(f.result_line(Duration::from_secs(10)).is_some());
    }
}

#[test]
fn a_peer_that_drops_while_the_follower_thinks_ends_the_search_at_once() {
    // Ten minutes a game: the first move would take many seconds.
    let mut f = Follower::start(&[]);
    let mut p = f.peer();
    p.send(&game_request('W', 10));
    let acc = p.recv_play(Duration::from_secs(10)).expect("GAMEACC");
    assert!(acc.starts_with('A'), "{acc}");
    std::thread::sleep(Duration::from_millis(200));
    let dropped = Instant::now();
    drop(p);
    let line = f
        .result_line(Duration::from_secs(3))
        .expect("a result line soon after the drop");
    assert!(dropped.elapsed() < Duration::from_secs(3));
    assert!(line.contains("connection closed"), "{line}");
    assert!(line.contains("result=*"), "{line}");
    // Still alive and serving.
    assert!(f.child.try_wait().unwrap().is_none(), "the follower exited");
    let mut again = f.peer();
    again.send(&game_request('Z', 1));
    let acc = again.recv_play(Duration::from_secs(10)).expect("GAMEACC");
    assert!(acc.starts_with('A'), "{acc}");
}

#[test]
fn fixed_width_messages_of_the_wrong_length_are_rejected_with_a_chat_error() {
    let f = Follower::start(&["--depth", "2"]);
    let mut p = f.peer();
    // A game request with junk after it is not a game request.
    p.send(&format!("{}junk", game_request('Z', 1)));
    let said = p.recv(Duration::from_secs(10)).expect("an answer");
    assert!(said.starts_with("Cerror"), "{said}");
    p.send(&game_request('Z', 1));
    let acc = p.recv_play(Duration::from_secs(10)).expect("GAMEACC");
    assert!(acc.starts_with('A'), "{acc}");
    // `M000132280099` is not 32-28 with junk ignored, and `E123` is not a game end.
    for bad in ["M000132280099", "E123"] {
        p.send(bad);
        let said = p.recv(Duration::from_secs(10)).expect("an answer");
        assert!(said.starts_with("Cerror"), "{bad}: {said}");
    }
    // The game is still on, waiting for our first move.
    p.send("M0001322800");
    let reply = p.recv_play(Duration::from_secs(10)).expect("a move");
    assert!(reply.starts_with('M'), "{reply}");
}

#[test]
fn a_message_past_127_characters_is_refused_before_its_end() {
    let f = Follower::start(&["--depth", "2"]);
    let mut p = f.peer();
    // 200 characters and no NUL yet: the follower must not wait for the end of it.
    p.send_raw(&[b'C'; 200]);
    let said = p
        .recv(Duration::from_secs(5))
        .expect("an answer before the NUL");
    assert!(said.starts_with("Cerror") && said.contains("127"), "{said}");
    // Lots more without a NUL, then the end of it: the next message is read normally.
    for _ in 0..64 {
        p.send_raw(&[b'x'; 16 * 1024]);
    }
    p.send_raw(b"\0");
    p.send(&game_request('Z', 1));
    let acc = p.recv_play(Duration::from_secs(10)).expect("GAMEACC");
    assert!(acc.starts_with('A'), "{acc}");
}
