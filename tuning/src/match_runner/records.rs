//! Game records: PGN (chess, xiangqi), SGF (Go) and PDN (draughts).
//!
//! Scheme: each writer turns a [`GameRecord`] into one game's text, appended to the output file
//! as games finish. PGN follows cutechess-cli's shape: the seven-tag roster, `FEN`/`SetUp` when
//! the game did not start from the initial position (xiangqi always gets `Variant` and `FEN`),
//! `TimeControl`, `PlyCount`, `Termination`, moves in the record notation (SAN for chess) with a
//! `{score/depth time}` comment per engine move and `{book}` for opening moves, and the reason
//! as the final comment. SGF writes vertices in SGF letters (`aa` top left); PDN writes
//! draughts moves as the referee spells them, with FMJD results `2-0`, `1-1`, `0-2`.

use std::time::UNIX_EPOCH;

use tetrarch::game::Side;

use super::game::{GameRecord, GameResult};

/// Civil date (UTC) of a system time, as `YYYY.MM.DD`.
fn date(record: &GameRecord) -> String {
    let secs = record
        .started
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}.{m:02}.{d:02}")
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN `Termination` value for a reason.
fn termination(record: &GameRecord) -> &'static str {
    let r = record.reason.as_str();
    if r.contains("on time") {
        "time forfeit"
    } else if r.contains("illegal move")
        || r.contains("crash")
        || r.contains("stalls")
        || r.contains("malformed")
        || r.contains("false claim")
        || r.contains("no move in a position")
        || r.contains("refused")
        || r.contains("failed to start")
    {
        "rules infraction"
    } else if r.contains("adjudication") || r.contains("move limit") {
        "adjudication"
    } else if record.result == GameResult::Unfinished {
        "unterminated"
    } else {
        "normal"
    }
}

fn move_comment(m: &super::game::RecordedMove) -> String {
    if m.book {
        return "book".into();
    }
    let mut c = String::new();
    match (m.info.mate, m.info.score) {
        (Some(mate), _) => c.push_str(&format!(
            "{}M{}",
            if mate > 0 { "+" } else { "-" },
            mate.abs()
        )),
        (None, Some(s)) => c.push_str(&format!("{:+.2}", s as f64 / 100.0)),
        _ => {}
    }
    if let Some(d) = m.info.depth {
        c.push_str(&format!("/{d}"));
    }
    if !c.is_empty() {
        c.push(' ');
    }
    c.push_str(&format!("{:.3}s", m.used_ms as f64 / 1000.0));
    c
}

/// Side to move and full-move number of a FEN-like start text (`w`/`b` second field, move
/// number sixth).
fn fen_side_and_number(fen: &str) -> (Side, u32) {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let side = match f.get(1) {
        Some(&"b") => Side::Second,
        _ => Side::First,
    };
    let n = f.get(5).and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    (side, n)
}

/// A PGN game (chess and xiangqi).
pub fn pgn(record: &GameRecord, event: &str, round: usize) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag(&mut s, "Event", event);
    tag(&mut s, "Site", "?");
    tag(&mut s, "Date", &date(record));
    tag(&mut s, "Round", &round.to_string());
    tag(&mut s, "White", &record.names[0]);
    tag(&mut s, "Black", &record.names[1]);
    tag(&mut s, "Result", record.result.pgn());
    let variant = record.kind.pgn_variant();
    if let Some(v) = variant {
        tag(&mut s, "Variant", v);
    }
    if !record.start_is_initial || variant.is_some() {
        tag(&mut s, "FEN", &record.start);
        tag(&mut s, "SetUp", "1");
    }
    let tc = if record.tcs[0] == record.tcs[1] {
        record.tcs[0].pgn_tag()
    } else {
        format!("{}:{}", record.tcs[0].pgn_tag(), record.tcs[1].pgn_tag())
    };
    tag(&mut s, "TimeControl", &tc);
    tag(&mut s, "PlyCount", &record.moves.len().to_string());
    tag(&mut s, "Termination", termination(record));
    s.push('\n');

    let (mut side, mut number) = fen_side_and_number(&record.start);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if side == Side::First {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.record.clone());
        tokens.push(format!("{{{}}}", move_comment(m)));
        if side == Side::Second {
            number += 1;
        }
        side = side.flip();
    }
    tokens.push(format!("{{{}}}", record.reason.replace('}', ")")));
    tokens.push(record.result.pgn().to_string());
    wrap(&mut s, &tokens, 80);
    s.push('\n');
    s
}

fn wrap(out: &mut String, tokens: &[String], width: usize) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push('\n');
}

/// SGF coordinates of a GTP vertex on a board of `size` (`D4` on 19x19 is `dp`); `pass` and
/// unreadable text give the empty string.
pub fn sgf_point(vertex: &str, size: u32) -> String {
    let v = vertex.trim().to_ascii_uppercase();
    let mut chars = v.chars();
    let Some(col) = chars.next() else {
        return String::new();
    };
    if !col.is_ascii_uppercase() || col == 'I' {
        return String::new();
    }
    let Ok(row) = chars.as_str().parse::<u32>() else {
        return String::new();
    };
    let x = (col as u8 - b'A') - u8::from(col > 'I');
    if row == 0 || row > size || x as u32 >= size {
        return String::new();
    }
    let y = size - row;
    format!("{}{}", (b'a' + x) as char, (b'a' + y as u8) as char)
}

/// An SGF game (Go).
pub fn sgf(record: &GameRecord, board_size: u32, komi: f64) -> String {
    let esc = |t: &str| t.replace('\\', "\\\\").replace(']', "\\]");
    let mut s = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[tetrarch-tune]SZ[{board_size}]KM[{komi}]RU[Chinese]DT[{}]PB[{}]PW[{}]",
        date(record).replace('.', "-"),
        esc(&record.names[0]),
        esc(&record.names[1])
    );
    let re = match record.result {
        GameResult::Win(w) => {
            let c = if w == Side::First { "B" } else { "W" };
            let how = if record.reason.contains("resigns") {
                "R".to_string()
            } else if record.reason.contains("on time") {
                "T".to_string()
            } else if let Some(m) = record.reason.split("by ").nth(1).and_then(|t| {
                t.split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<f64>().ok())
            }) {
                format!("{m}")
            } else if record.reason.contains("on points") {
                String::new()
            } else {
                "F".to_string()
            };
            format!("{c}+{how}")
        }
        GameResult::Draw => "0".into(),
        GameResult::Unfinished => "Void".into(),
    };
    s.push_str(&format!("RE[{re}]C[{}]", esc(&record.reason)));
    let mut side = Side::First;
    for m in &record.moves {
        let c = if side == Side::First { 'B' } else { 'W' };
        let p = if m.text.eq_ignore_ascii_case("pass") {
            String::new()
        } else {
            sgf_point(&m.text, board_size)
        };
        s.push_str(&format!(";{c}[{p}]"));
        side = side.flip();
    }
    s.push_str(")\n");
    s
}

/// A PDN game (international draughts).
pub fn pdn(record: &GameRecord, event: &str, round: usize) -> String {
    let result = match record.result {
        GameResult::Win(Side::First) => "2-0",
        GameResult::Win(Side::Second) => "0-2",
        GameResult::Draw => "1-1",
        GameResult::Unfinished => "*",
    };
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag(&mut s, "Event", event);
    tag(&mut s, "Date", &date(record));
    tag(&mut s, "Round", &round.to_string());
    tag(&mut s, "White", &record.names[0]);
    tag(&mut s, "Black", &record.names[1]);
    tag(&mut s, "Result", result);
    tag(&mut s, "GameType", "20");
    tag(&mut s, "Termination", termination(record));
    if !record.start_is_initial {
        let fen = super::dialect::DraughtsBoard::parse(&record.start)
            .map(|b| b.fen())
            .unwrap_or_else(|_| record.start.clone());
        tag(&mut s, "FEN", &fen);
    }
    s.push('\n');
    let mut side = if record.start.trim_start().starts_with('B') {
        Side::Second
    } else {
        Side::First
    };
    let mut number = 1;
    let mut tokens = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if side == Side::First {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.record.clone());
        if side == Side::Second {
            number += 1;
        }
        side = side.flip();
    }
    tokens.push(format!("{{{}}}", record.reason.replace('}', ")")));
    tokens.push(result.to_string());
    wrap(&mut s, &tokens, 80);
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::super::rules::GameKind;
    use super::*;

    #[test]
    fn sgf_points() {
        assert_eq!(sgf_point("A19", 19), "aa");
        assert_eq!(sgf_point("D4", 19), "dp");
        assert_eq!(sgf_point("J1", 9), "ii");
        assert_eq!(sgf_point("H1", 9), "hi");
        assert_eq!(sgf_point("T19", 19), "sa");
        assert_eq!(sgf_point("I5", 9), "");
        assert_eq!(sgf_point("pass", 9), "");
        assert_eq!(sgf_point("K5", 9), "");
    }

    fn record(
        kind: GameKind,
        start: &str,
        moves: &[&str],
        result: GameResult,
        reason: &str,
    ) -> GameRecord {
        use super::super::drivers::SearchInfo;
        use super::super::game::RecordedMove;
        use super::super::tc::TimeControl;
        GameRecord {
            kind,
            names: ["A".into(), "B \"x\"".into()],
            start: start.into(),
            start_is_initial: false,
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| RecordedMove {
                    text: m.to_string(),
                    record: m.to_string(),
                    after: String::new(),
                    used_ms: 1234,
                    info: SearchInfo {
                        score: Some(-35),
                        depth: Some(9),
                        ..SearchInfo::default()
                    },
                    book: i == 0,
                })
                .collect(),
            result,
            reason: reason.into(),
            failed: None,
            tcs: [TimeControl::parse("40/60+0.5").unwrap(); 2],
            started: UNIX_EPOCH + std::time::Duration::from_secs(1_764_374_400),
            wall: std::time::Duration::ZERO,
            thinking: std::time::Duration::ZERO,
            referee: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn pgn_from_a_black_to_move_start() {
        let r = record(
            GameKind::Chess,
            "8/8/8/8/8/8/5k2/7K b - - 10 60",
            &["Kg3", "Kg1"],
            GameResult::Draw,
            "Draw by adjudication",
        );
        let t = pgn(&r, "ev", 3);
        assert!(t.contains("[Date \"2025.11.29\"]"), "{t}");
        assert!(t.contains("[Black \"B \\\"x\\\"\"]"), "{t}");
        assert!(
            t.contains("[FEN \"8/8/8/8/8/8/5k2/7K b - - 10 60\"]\n[SetUp \"1\"]"),
            "{t}"
        );
        assert!(t.contains("[TimeControl \"40/60+0.5\"]"), "{t}");
        assert!(t.contains("[Termination \"adjudication\"]"), "{t}");
        assert!(
            t.contains("60... Kg3 {book} 61. Kg1 {-0.35/9 1.234s} {Draw by adjudication} 1/2-1/2"),
            "{t}"
        );
    }

    #[test]
    fn sgf_and_pdn_records() {
        let r = record(
            GameKind::Go,
            "",
            &["D4", "pass", "C3"],
            GameResult::Win(Side::Second),
            "Black resigns",
        );
        let t = sgf(&r, 9, 7.5);
        assert!(t.starts_with("(;GM[1]FF[4]CA[UTF-8]AP[tetrarch-tune]SZ[9]KM[7.5]RU[Chinese]DT[2025-11-29]PB[A]PW[B \"x\"]RE[W+R]"), "{t}");
        assert!(t.ends_with(";B[df];W[];B[cg])\n"), "{t}");
        let r = record(
            GameKind::Draughts,
            "B:W28,31:B19",
            &["19-23", "28x19"],
            GameResult::Win(Side::First),
            "White wins: Black has no pieces",
        );
        let t = pdn(&r, "ev", 1);
        assert!(t.contains("[Result \"2-0\"]"), "{t}");
        assert!(t.contains("[FEN \"B:W28,31:B19\"]"), "{t}");
        assert!(
            t.contains("1... 19-23 2. 28x19 {White wins: Black has no pieces} 2-0"),
            "{t}"
        );
    }

    #[test]
    fn fen_side_and_move_number() {
        assert_eq!(
            fen_side_and_number("8/8/8/8/8/8/8/K1k5 b - - 3 41"),
            (Side::Second, 41)
        );
        assert_eq!(fen_side_and_number("garbage"), (Side::First, 1));
    }
}
