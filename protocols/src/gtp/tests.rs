//! GTP transcripts, in process: a session runs on its own thread, reading lines that the test
//! feeds with pauses (so analysis has time to stream), and writing into a captured output.

use std::thread;
use std::time::Duration;

use crossbeam::channel::Sender;

use super::{run_with, starts_session, GtpArgs};
use crate::io::{Input, Output};

struct Gtp {
    tx: Option<Sender<Vec<u8>>>,
    handle: Option<thread::JoinHandle<()>>,
    cap: crate::io::Captured,
}

impl Gtp {
    fn start(args: GtpArgs) -> Gtp {
        let (tx, input) = Input::fed();
        let (out, cap) = Output::capture();
        let handle = thread::spawn(move || run_with(input, out, None, &args));
        Gtp {
            tx: Some(tx),
            handle: Some(handle),
            cap,
        }
    }

    fn fast() -> Gtp {
        Gtp::start(GtpArgs {
            playouts: Some(400),
            max_nodes: Some(100_000),
            seed: Some(1),
            ..GtpArgs::default()
        })
    }

    fn send(&self, line: &str) -> &Self {
        self.tx
            .as_ref()
            .unwrap()
            .send(format!("{line}\n").into_bytes())
            .unwrap();
        self
    }

    fn wait(&self, ms: u64) -> &Self {
        thread::sleep(Duration::from_millis(ms));
        self
    }

    /// Waits until the output holds `n` complete responses (or 20 s pass).
    fn responses(&self, n: usize) -> Vec<String> {
        for _ in 0..2000 {
            let r = split(&self.cap.text());
            if r.len() >= n {
                return r;
            }
            thread::sleep(Duration::from_millis(10));
        }
        panic!("only got:\n{}", self.cap.text());
    }

    /// Ends the input and returns the whole output.
    fn finish(mut self) -> String {
        drop(self.tx.take());
        self.handle.take().unwrap().join().unwrap();
        self.cap.text()
    }
}

/// Complete responses: text up to each empty line.
fn split(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("\n\n") {
        out.push(rest[..i].to_string());
        rest = &rest[i + 2..];
    }
    out
}

/// Sends `lines` and returns the responses, closing the input only once every command up to a
/// `quit` has its answer (the end of input would cut searches short).
fn transcript(lines: &[&str]) -> Vec<String> {
    let g = Gtp::fast();
    for l in lines {
        g.send(l);
    }
    let mut answered = 0;
    for l in lines {
        if let Some(l) = super::preprocess(l) {
            answered += 1;
            if super::split_id(&l).1.first() == Some(&"quit") {
                break;
            }
        }
    }
    g.responses(answered);
    let text = g.finish();
    assert!(text.ends_with("\n\n"), "{text:?}");
    split(&text)
}

#[test]
fn first_line_detection() {
    for yes in [
        "protocol_version",
        "1 name",
        "  12   boardsize 19",
        "list_commands # hi",
        "genmove b\r",
    ] {
        assert!(starts_session(yes), "{yes}");
    }
    for no in ["uci", "hub", "", "# comment", "12", "nonsense", "Name"] {
        assert!(!starts_session(no), "{no}");
    }
}

#[test]
fn framing_ids_and_errors() {
    let r = transcript(&[
        "protocol_version",
        "12 name",
        "  \t 13\tversion  ",
        "# a comment line",
        "",
        "known_command lz-analyze",
        "known_command frobnicate",
        "99 frobnicate",
        "boardsize 26",
        "boardsize 1",
        "boardsize x",
        "7 boardsize 9",
        "komi seven",
        "komi 6.5",
        "quit",
        "name",
    ]);
    assert_eq!(
        r,
        vec![
            "= 2",
            "=12 Tetrarch",
            &format!("=13 {}", env!("CARGO_PKG_VERSION")),
            "= true",
            "= false",
            "?99 unknown command",
            "? unacceptable size",
            "? unacceptable size",
            "? syntax error",
            "=7 ",
            "? komi not a float",
            "= ",
            "= ",
        ]
    );
}

#[test]
fn ids_of_any_length_are_echoed() {
    // Issue 18, defect 8: u64::MAX was answered without its id. The spec's id is a run of
    // digits: echo it whatever its length (leading zeros dropped, as GNU Go's integer does).
    let r = transcript(&[
        "18446744073709551615 name",
        "18446744073709551614 name",
        "123456789012345678901234567890 protocol_version",
        "18446744073709551616 frobnicate",
        "007 name",
        "0 name",
        "000 name",
    ]);
    assert_eq!(
        r,
        vec![
            "=18446744073709551615 Tetrarch",
            "=18446744073709551614 Tetrarch",
            "=123456789012345678901234567890 2",
            "?18446744073709551616 unknown command",
            "=7 Tetrarch",
            "=0 Tetrarch",
            "=0 Tetrarch",
        ]
    );
}

#[test]
fn bad_moves_leave_the_board_unchanged() {
    let r = transcript(&[
        "boardsize 9",
        "clear_board",
        "play b e5",
        "showboard",
        "play w e5",     // occupied
        "play x e4",     // bad colour
        "play b z9",     // off the board
        "play b i5",     // no I column
        "play b",        // missing vertex
        "play w resign", // not a vertex
        "showboard",
        "undo",
        "undo",
    ]);
    assert_eq!(r[4], "? illegal move");
    assert_eq!(r[5], "? invalid color or coordinate");
    assert_eq!(r[6], "? invalid color or coordinate");
    assert_eq!(r[7], "? invalid color or coordinate");
    assert_eq!(r[8], "? syntax error");
    assert_eq!(r[9], "? invalid color or coordinate");
    assert_eq!(r[3], r[10], "the board changed after refused moves");
    assert!(r[3].contains(" 5  . . . . X . . . . 5"), "{}", r[3]);
    assert_eq!(r[11], "= ");
    assert_eq!(r[12], "? cannot undo");
}

#[test]
fn suicide_and_superko_are_refused() {
    // Send-two-return-one from the shared cases: B E1, W C1, then B D1 repeats the start.
    let r = transcript(&[
        "boardsize 9",
        "play b b2",
        "play b c2",
        "play b b1",
        "play b d1",
        "play w d2",
        "play w e2",
        "play w f2",
        "play w f1",
        "play b e1",
        "play w c1",
        "showboard",
        "play b d1",
        "showboard",
        "clear_board",
        "play w b1",
        "play w a2",
        "play b a1",
        "play w a1",
    ]);
    assert!(r[..11].iter().all(|x| x == "= "), "{r:?}");
    assert_eq!(r[12], "? illegal move");
    assert_eq!(r[11], r[13]);
    assert_eq!(r[17], "? illegal move"); // suicide
    assert_eq!(r[18], "= "); // white may (it captures nothing but has liberties)
}

#[test]
fn handicap_commands() {
    let r = transcript(&[
        "boardsize 19",
        "fixed_handicap 9",
        "fixed_handicap 2",
        "clear_board",
        "fixed_handicap 10",
        "fixed_handicap 1",
        "fixed_handicap x",
        "fixed_handicap 3",
        "clear_board",
        "set_free_handicap D4",
        "set_free_handicap D4 D4",
        "set_free_handicap D4 Q16 pass",
        "set_free_handicap D4 Q16 K10",
        "clear_board",
        "place_free_handicap 4",
        "clear_board",
        "boardsize 9",
        "place_free_handicap 12",
        "genmove b",
    ]);
    let mut stones: Vec<&str> = r[1][2..].split(' ').collect();
    stones.sort();
    assert_eq!(
        stones,
        ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
    );
    assert_eq!(r[2], "? board not empty");
    assert_eq!(r[4], "? invalid number of stones");
    assert_eq!(r[5], "? invalid number of stones");
    assert_eq!(r[6], "? invalid number of stones");
    assert_eq!(r[7].split(' ').count(), 4); // "=" + 3 vertices
    assert_eq!(r[9], "? bad vertex list");
    assert_eq!(r[10], "? bad vertex list");
    assert_eq!(r[11], "? bad vertex list");
    assert_eq!(r[12], "= ");
    assert_eq!(r[14].split(' ').count(), 5);
    assert_eq!(r[17].split(' ').count(), 13, "{}", r[17]);
    assert!(r[18].starts_with("= "), "{}", r[18]);
}

#[test]
fn genmove_plays_and_reg_genmove_does_not() {
    let r = transcript(&[
        "boardsize 7",
        "komi 0.5",
        "play b d4",
        "reg_genmove w",
        "showboard",
        "genmove w",
        "showboard",
        "genmove x",
        "genmove",
        "kgs-genmove_cleanup b",
    ]);
    let v = &r[3][2..];
    assert!(v.len() >= 2 && v != "D4", "{v}");
    assert_eq!(r[4].matches('O').count(), 0, "{}", r[4]);
    let m = &r[5][2..];
    assert_ne!(m, "resign");
    assert_eq!(r[6].matches(" O").count(), 1, "{}", r[6]);
    assert_eq!(r[7], "? invalid color");
    assert_eq!(r[8], "? syntax error");
    assert!(r[9].starts_with("= "));
}

#[test]
fn sgf_load_and_print_and_final_status() {
    let dir = std::env::temp_dir().join(format!("tetrarch-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seki = dir.join("seki.sgf");
    std::fs::write(&seki, "(;FF[4]AB[ab][ba][bb][cb][dc][dd][de][df][dg][dh][di][ec][fc][ga][gb][gc][hc][ic]AW[ac][bc][cc][cd][ce][cf][cg][ch][ci][da][db][eb][fa][fb]GM[1]KM[7.5]PL[B]RU[Chinese]SZ[9];B[];W[])").unwrap();
    let bad = dir.join("bad.sgf");
    std::fs::write(&bad, "(;SZ[9];B[ee];W[ee])").unwrap();
    let out = dir.join("out.sgf");
    let r = transcript(&[
        "boardsize 9",
        "play b a1",
        &format!("loadsgf {}", bad.display()),
        "showboard",
        &format!("loadsgf {}", dir.join("missing.sgf").display()),
        &format!("loadsgf {}", seki.display()),
        "final_score",
        "final_status_list seki",
        "final_status_list dead",
        "final_status_list everything",
        &format!("loadsgf {} 1", seki.display()),
        "printsgf",
        &format!("printsgf {}", out.display()),
    ]);
    assert!(r[2].starts_with("? cannot load file"), "{}", r[2]);
    assert!(
        r[3].contains(" 1  X . ."),
        "the failed load changed the board: {}",
        r[3]
    );
    assert_eq!(r[4], "? cannot open file");
    assert_eq!(r[5], "= black");
    assert_eq!(r[6], "= B+18.5");
    let seki_groups: Vec<&str> = r[7][2..].lines().collect();
    assert_eq!(seki_groups.len(), 2, "{}", r[7]);
    assert_eq!(r[8], "= ");
    assert_eq!(r[9], "? invalid status");
    assert_eq!(r[10], "= black");
    assert!(
        r[11].starts_with("= (;GM[1]FF[4]") && r[11].contains("AB[ab]"),
        "{}",
        r[11]
    );
    assert_eq!(r[12], "= ");
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.trim(), &r[11][2..]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_commands() {
    let r = transcript(&[
        "time_settings 300 30 5",
        "time_settings 300 30",
        "time_settings a b c",
        "time_left b 120 0",
        "time_left w 20 3",
        "time_left b x 0",
        "kgs-time_settings none",
        "kgs-time_settings absolute 600",
        "kgs-time_settings byoyomi 600 30 5",
        "kgs-time_settings canadian 600 300 25",
        "kgs-time_settings byoyomi 600",
        "kgs-time_settings hourglass 60",
        "kata-time_settings fischer 60 1.5",
        "kgs-rules chinese",
        "kgs-rules japanese",
        "kgs-rules ing",
    ]);
    let ok = [0, 3, 4, 6, 7, 8, 9, 12, 13, 14];
    for (i, x) in r.iter().enumerate() {
        if ok.contains(&i) {
            assert_eq!(x, "= ", "{i}");
        } else {
            assert!(x.starts_with("? "), "{i}: {x}");
        }
    }
}

#[test]
fn lz_analyze_streams_until_the_next_command() {
    let g = Gtp::fast();
    g.send("boardsize 9")
        .send("12 lz-analyze B 5")
        .wait(600)
        .send("13 name");
    let text = g.finish();
    let r = split(&text);
    assert_eq!(r[0], "= ");
    let stream: Vec<&str> = r[1].lines().collect();
    assert_eq!(stream[0], "=12");
    assert!(stream.len() >= 3, "too few info lines: {text}");
    for line in &stream[1..] {
        assert!(line.starts_with("info move "), "{line}");
        // Every segment has integer fields and ends with its pv.
        for seg in line.split("info ").skip(1) {
            let w: Vec<&str> = seg.trim().split(' ').collect();
            assert_eq!(w[0], "move");
            for key in ["visits", "winrate", "prior", "lcb", "order"] {
                let i = w
                    .iter()
                    .position(|x| *x == key)
                    .unwrap_or_else(|| panic!("{key}"));
                w[i + 1]
                    .parse::<i64>()
                    .unwrap_or_else(|_| panic!("{key} in {seg}"));
            }
            let pv = w.iter().position(|x| *x == "pv").unwrap();
            assert!(pv + 1 < w.len());
            assert_eq!(w[pv + 1], w[1]);
        }
    }
    assert_eq!(r[2], "=13 Tetrarch");
}

#[test]
fn kata_analyze_with_ownership_and_cancel_by_empty_line() {
    let g = Gtp::fast();
    g.send("boardsize 5")
        .send("kata-analyze W interval 5 ownership true rootInfo true")
        .wait(700)
        .send("")
        .send("protocol_version");
    let text = g.finish();
    let r = split(&text);
    let stream: Vec<&str> = r[1].lines().collect();
    assert_eq!(stream[0], "=");
    let last = stream.last().unwrap();
    let (moves, own) = last.split_once(" ownership ").expect("ownership");
    assert_eq!(own.split(' ').count(), 25);
    assert!(own
        .split(' ')
        .all(|v| v.parse::<f32>().is_ok_and(|x| (-1.0..=1.0).contains(&x))));
    assert!(moves.contains(" rootInfo visits "));
    let first = moves.split("info ").nth(1).unwrap();
    let w: Vec<&str> = first.split(' ').collect();
    let wr: f32 = w[w.iter().position(|x| *x == "winrate").unwrap() + 1]
        .parse()
        .unwrap();
    assert!((0.0..=1.0).contains(&wr));
    assert!(first.contains(" scoreLead ") && first.contains(" pv "));
    assert_eq!(r[2], "= 2");
}

#[test]
fn genmove_analyze_ends_with_play() {
    let r = transcript(&[
        "boardsize 9",
        "3 lz-genmove_analyze b 1",
        "kata-genmove_analyze",
        "showboard",
    ]);
    let lines: Vec<&str> = r[1].lines().collect();
    assert_eq!(lines[0], "=3");
    let play = lines.last().unwrap();
    assert!(play.starts_with("play "), "{}", r[1]);
    assert!(lines[1..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("info move ")));
    assert_eq!(r[2], "? syntax error");
    assert_eq!(r[3].matches(" X").count(), 1, "{}", r[3]);
}

#[test]
fn bad_analysis_arguments_are_errors() {
    let r = transcript(&[
        "lz-analyze B 10 frobnicate 3",
        "kata-analyze 10 ownership maybe",
        "lz-analyze B 10 avoid b Q16,Z99 1",
        "name",
    ]);
    assert_eq!(r[0], "? syntax error");
    assert_eq!(r[1], "? syntax error");
    assert_eq!(r[2], "? syntax error");
    assert_eq!(r[3], "= Tetrarch");
}

#[test]
fn analysis_respects_allow() {
    let g = Gtp::fast();
    g.send("boardsize 9")
        .send("lz-analyze B 5 allow B C3,G7 1")
        .wait(400)
        .send("name");
    let text = g.finish();
    let r = split(&text);
    for line in r[1].lines().skip(1) {
        for seg in line.split("info move ").skip(1) {
            let mv = seg.split(' ').next().unwrap();
            assert!(mv == "C3" || mv == "G7", "{mv}");
        }
    }
}

#[test]
fn garbage_bytes_and_eof_mid_analysis() {
    let g = Gtp::fast();
    g.tx.as_ref()
        .unwrap()
        .send(b"\xff\xfe garbage\x01\n".to_vec())
        .unwrap();
    g.send("lz-analyze 5").wait(600);
    let text = g.finish();
    let r = split(&text);
    assert_eq!(r[0], "? unknown command");
    assert!(r[1].starts_with("=\ninfo move "), "{text}");
    assert!(text.ends_with("\n\n"));
}

#[test]
fn pondering_keeps_the_session_responsive() {
    let g = Gtp::start(GtpArgs {
        playouts: Some(200),
        ponder: true,
        seed: Some(3),
        max_nodes: Some(100_000),
        ..GtpArgs::default()
    });
    g.send("boardsize 9")
        .send("genmove b")
        .wait(300)
        .send("play w a1")
        .send("genmove b");
    let r = g.responses(4);
    assert!(r[1].starts_with("= "));
    assert_eq!(r[2], "= ");
    assert!(r[3].starts_with("= "));
    g.finish();
}

#[test]
fn end_of_input_cuts_searches_short_and_queued_commands_are_answered() {
    // Ten minutes of sudden death on 19x19: each move would think for many seconds. The
    // input ends right after the commands: both moves come at once, from the prior's choice
    // (not a pass), and the commands after them are answered.
    let g = Gtp::start(GtpArgs {
        max_nodes: Some(100_000),
        ..GtpArgs::default()
    });
    g.send("boardsize 19")
        .send("time_settings 600 0 0")
        .send("genmove b")
        .send("genmove w")
        .send("showboard");
    let start = std::time::Instant::now();
    let r = split(&g.finish());
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(r.len(), 5, "{r:?}");
    for m in &r[2..4] {
        let v = m.strip_prefix("= ").unwrap();
        assert!(v != "pass" && v != "resign", "{r:?}");
    }
    let stones: usize = r[4]
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.matches(['X', 'O']).count())
        .sum();
    assert_eq!(stones, 2, "{}", r[4]);
}

#[test]
fn a_short_clock_is_respected() {
    // Absolute time of 5 s for the whole game and no playout cap: three moves come back well
    // within the clock (the engine keeps its own account when no time_left arrives).
    let g = Gtp::start(GtpArgs {
        max_nodes: Some(200_000),
        ..GtpArgs::default()
    });
    let start = std::time::Instant::now();
    g.send("boardsize 9")
        .send("time_settings 5 0 0")
        .send("genmove b")
        .send("genmove w")
        .send("genmove b");
    let r = g.responses(5);
    let took = start.elapsed();
    assert!(
        took < Duration::from_millis(4000),
        "three moves took {took:?}"
    );
    for m in &r[2..] {
        let v = m.strip_prefix("= ").unwrap();
        assert!(v != "resign" && v != "pass", "{r:?}");
    }
    g.finish();
}

#[test]
fn a_playout_cap_is_not_cut_short_by_the_default_move_time() {
    let year = tetrarch::time::MAX_CLOCK_MS as u64;
    let args = |playouts: Option<u64>, movetime: Option<u64>| GtpArgs {
        playouts,
        movetime,
        ..GtpArgs::default()
    };
    assert_eq!(args(None, None).settings().movetime_ms, 2000);
    assert_eq!(args(Some(5000), None).settings().movetime_ms, year);
    assert_eq!(args(Some(5000), Some(700)).settings().movetime_ms, 700);
    let level = GtpArgs {
        level: Some(5.0),
        ..GtpArgs::default()
    };
    assert_eq!(level.settings().movetime_ms, year);
}
