//! DXP layer 2: the message set and its fixed-width text form.
//!
//! Scheme: a [`Message`] is one of the seven message types, each with its fields typed
//! (sides, squares, the start position as a [`Board`]). [`Message::encode`] writes the wire
//! text (without the NUL): numbers zero-padded to their width, names space-padded to 32 and
//! never starting with a blank, chat cut to 126 printable characters. [`Message::decode`] reads
//! it back and is strict where the spec is fixed: every message but CHAT has one length for its
//! type (a MOVE's follows from its capture count), numbers are digits, squares 1-50, and
//! codes in the spec's range, so junk after a message is an error, not ignored. The result
//! of a game travels as a GAMEEND reason from its sender's view: [`end_reason`] and
//! [`sender_verdict`] map it to and from the engine's [`Verdict`].

use tetrarch::game::{Side, Verdict};
use tetrarch::games::draughts::Board;

/// The GAMEEND reason a side sends for its own result (`None`: unknown).
pub fn end_reason(ours: Option<Verdict>) -> u8 {
    match ours {
        None => 0,
        Some(Verdict::Loss) => 1,
        Some(Verdict::Draw) => 2,
        Some(Verdict::Win) => 3,
    }
}

/// The sender's result that a GAMEEND reason states (`None` for 0, unknown).
pub fn sender_verdict(reason: u8) -> Option<Verdict> {
    match reason {
        1 => Some(Verdict::Loss),
        2 => Some(Verdict::Draw),
        3 => Some(Verdict::Win),
        _ => None,
    }
}

/// A DXP layer-2 message.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `R`: version, initiator name, the follower's colour, minutes, moves, start position
    /// (`None` for the initial position with White to move).
    GameReq {
        version: u32,
        name: String,
        follower: Side,
        minutes: u32,
        moves: u32,
        start: Option<Board>,
    },
    /// `A`: follower name, acceptance code (0 accept, 1 wrong version, 2 not this game, 3 no).
    GameAcc { name: String, code: u8 },
    /// `M`: seconds used, from, to, captured squares (any order).
    Move {
        seconds: u32,
        from: u8,
        to: u8,
        captured: Vec<u8>,
    },
    /// `E`: reason (0 unknown, 1 I lose, 2 draw, 3 I win), stop code (0 next game, 1 stop).
    GameEnd { reason: u8, stop: u8 },
    /// `C`: free text.
    Chat(String),
    /// `B`: go back to this move number with this side to move.
    BackReq { move_number: u32, side: Side },
    /// `K`: 0 accept, 1 not supported, 2 refused.
    BackAcc { code: u8 },
}

/// DXP's letter for a side: `W` (white) or `Z` (zwart, black).
pub fn colour_char(side: Side) -> char {
    match side {
        Side::First => 'W',
        Side::Second => 'Z',
    }
}

fn colour_of(c: char) -> Option<Side> {
    match c {
        'W' | 'w' => Some(Side::First),
        'Z' | 'z' | 'B' | 'b' => Some(Side::Second),
        _ => None,
    }
}

/// A name in a fixed-width field: printable ASCII, space-padded, never starting with a blank
/// (an empty name becomes `T`).
fn padded(name: &str, width: usize) -> String {
    let clean: String = name
        .chars()
        .filter(|c| c.is_ascii() && !c.is_ascii_control())
        .take(width)
        .collect();
    let clean = match clean.trim_start() {
        "" => "T",
        c => c,
    };
    format!("{clean:<width$}")
}

/// DXP's board text: the side to move (`W`/`Z`) and squares 1-50 as `e w z W Z`.
pub fn board_text(b: &Board) -> String {
    b.to_hub()
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'B') => 'Z',
            (_, 'b') if i > 0 => 'z',
            (_, 'B') => 'Z',
            (_, c) => c,
        })
        .collect()
}

fn board_from_text(t: &str) -> Result<Board, String> {
    let hub: String = t
        .chars()
        .enumerate()
        .map(|(i, c)| match (i, c) {
            (0, 'Z') | (0, 'z') => 'B',
            (_, 'z') => 'b',
            (_, 'Z') => 'B',
            (_, c) => c,
        })
        .collect();
    Board::from_hub(&hub).map_err(|e| e.to_string())
}

impl Message {
    /// The message's wire text (without the NUL).
    pub fn encode(&self) -> String {
        match self {
            Message::GameReq {
                version,
                name,
                follower,
                minutes,
                moves,
                start,
            } => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    version.min(&99),
                    padded(name, 32),
                    colour_char(*follower),
                    minutes.min(&999),
                    moves.min(&999)
                );
                match start {
                    None => s.push('A'),
                    Some(b) => {
                        s.push('B');
                        s.push_str(&board_text(b));
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", padded(name, 32), code.min(&9)),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    seconds.min(&9999),
                    from,
                    to,
                    captured.len().min(20)
                );
                for c in captured.iter().take(20) {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{}{}", reason.min(&9), stop.min(&9)),
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| {
                        if c.is_ascii() && !c.is_ascii_control() {
                            c
                        } else {
                            '?'
                        }
                    })
                    .take(126)
                    .collect();
                format!("C{}", if clean.is_empty() { " ".into() } else { clean })
            }
            Message::BackReq { move_number, side } => {
                format!("B{:03}{}", move_number.min(&999), colour_char(*side))
            }
            Message::BackAcc { code } => format!("K{}", code.min(&9)),
        }
    }

    /// Reads a message; the error names what is wrong. Every message but CHAT has a fixed
    /// layout, and one of another length (junk after it, a field missing) is an error, as is
    /// a field that is not zero-padded digits or a code outside the spec's range.
    pub fn decode(text: &str) -> Result<Message, String> {
        let t = text.trim_end_matches(['\0', '\r', '\n']);
        if !t.is_ascii() {
            return Err("message is not ASCII".into());
        }
        let kind = t.chars().next().ok_or("empty message")?;
        let rest = &t[1..];
        let num = |from: usize, len: usize, what: &str| -> Result<u32, String> {
            rest.get(from..from + len)
                .filter(|f| f.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|f| f.parse::<u32>().ok())
                .ok_or_else(|| format!("bad {what} in '{}'", clip(t)))
        };
        let code = |from: usize, max: u32, what: &str| -> Result<u8, String> {
            let c = num(from, 1, what)?;
            if c > max {
                return Err(format!("{what} {c} is not 0-{max} in '{}'", clip(t)));
            }
            Ok(c as u8)
        };
        let square = |from: usize, what: &str| -> Result<u8, String> {
            let sq = num(from, 2, what)?;
            if !(1..=50).contains(&sq) {
                return Err(format!("{what} {sq} is outside 1-50 in '{}'", clip(t)));
            }
            Ok(sq as u8)
        };
        let length = |want: usize, what: &str| -> Result<(), String> {
            if t.len() != want {
                return Err(format!(
                    "{what} of {} characters, not {want}: '{}'",
                    t.len(),
                    clip(t)
                ));
            }
            Ok(())
        };
        match kind {
            'R' => {
                let version = num(0, 2, "version")?;
                let name = rest
                    .get(2..34)
                    .ok_or("short game request")?
                    .trim()
                    .to_string();
                let follower = rest
                    .get(34..35)
                    .and_then(|c| colour_of(c.chars().next()?))
                    .ok_or("bad follower colour")?;
                let minutes = num(35, 3, "thinking time")?;
                let moves = num(38, 3, "number of moves")?;
                let start = match rest.get(41..42) {
                    Some("A") => {
                        length(43, "game request")?;
                        None
                    }
                    Some("B") => {
                        length(94, "game request with a position")?;
                        Some(board_from_text(&rest[42..93])?)
                    }
                    _ => return Err("bad start position code".into()),
                };
                Ok(Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    start,
                })
            }
            'A' => {
                length(34, "game accept")?;
                let name = rest[0..32].trim().to_string();
                let code = code(32, 3, "acceptance code")?;
                Ok(Message::GameAcc { name, code })
            }
            'M' => {
                let seconds = num(0, 4, "time")?;
                let from = square(4, "from square")?;
                let to = square(6, "to square")?;
                let n = num(8, 2, "capture count")? as usize;
                if n > 20 {
                    return Err(format!("capture count {n} is over 20"));
                }
                length(11 + 2 * n, &format!("move with {n} captures"))?;
                let captured = (0..n)
                    .map(|k| square(10 + 2 * k, "captured square"))
                    .collect::<Result<Vec<u8>, String>>()?;
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            'E' => {
                length(3, "game end")?;
                Ok(Message::GameEnd {
                    reason: code(0, 3, "reason")?,
                    stop: code(1, 1, "stop code")?,
                })
            }
            'C' => Ok(Message::Chat(rest.to_string())),
            'B' => {
                length(5, "back request")?;
                Ok(Message::BackReq {
                    move_number: num(0, 3, "move number")?,
                    side: rest
                        .get(3..4)
                        .and_then(|c| colour_of(c.chars().next()?))
                        .ok_or("bad colour in back request")?,
                })
            }
            'K' => {
                length(2, "back accept")?;
                Ok(Message::BackAcc {
                    code: code(0, 2, "acceptance code")?,
                })
            }
            other => Err(format!("unknown message type '{other}'")),
        }
    }
}

fn clip(t: &str) -> String {
    t.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch::game::Notation;

    #[test]
    fn messages_round_trip_with_fixed_widths() {
        let start = Board::from_text("B:W31,32,K46:B5,K10,19").unwrap();
        let msgs = [
            Message::GameReq {
                version: 1,
                name: "Tetrarch".into(),
                follower: Side::Second,
                minutes: 5,
                moves: 75,
                start: None,
            },
            Message::GameReq {
                version: 1,
                name: "Tetrarch".into(),
                follower: Side::First,
                minutes: 10,
                moves: 0,
                start: Some(start.clone()),
            },
            Message::GameAcc {
                name: "Scan 3.1".into(),
                code: 0,
            },
            Message::Move {
                seconds: 12,
                from: 6,
                to: 11,
                captured: vec![],
            },
            Message::Move {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![4, 22, 23, 20],
            },
            Message::GameEnd { reason: 2, stop: 1 },
            Message::Chat("hello there".into()),
            Message::BackReq {
                move_number: 12,
                side: Side::Second,
            },
            Message::BackAcc { code: 0 },
        ];
        for m in msgs {
            let text = m.encode();
            assert!(text.len() <= 127 && text.is_ascii(), "{text}");
            assert_eq!(Message::decode(&text), Ok(m), "{text}");
        }
        assert_eq!(
            Message::Move {
                seconds: 12,
                from: 6,
                to: 11,
                captured: vec![]
            }
            .encode(),
            "M0012061100"
        );
        assert_eq!(
            Message::GameAcc {
                name: "Tornado voor Windows 4.0".into(),
                code: 0
            }
            .encode(),
            "ATornado voor Windows 4.0        0"
        );
        let req = Message::GameReq {
            version: 1,
            name: "T".into(),
            follower: Side::First,
            minutes: 10,
            moves: 0,
            start: Some(start),
        }
        .encode();
        assert_eq!(req.len(), 1 + 2 + 32 + 1 + 3 + 3 + 1 + 51);
        assert_eq!(&req[41..44], "0BZ");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for text in [
            "",
            "X",
            "R",
            "R01",
            "M12",
            "Mabcd0102",
            "E",
            "B12",
            "K",
            "A short",
        ] {
            assert!(Message::decode(text).is_err(), "{text:?}");
        }
        assert!(Message::decode("M0001010299").is_err()); // 99 captures
        assert!(Message::decode("é").is_err());
    }

    #[test]
    fn fixed_width_messages_must_have_their_exact_length() {
        let req = Message::GameReq {
            version: 1,
            name: "T".into(),
            follower: Side::First,
            minutes: 10,
            moves: 0,
            start: None,
        }
        .encode();
        for text in [
            "E123".to_string(),
            "E0".to_string(),
            "M000132280099".to_string(),
            "M00013228".to_string(),
            "M00013228010".to_string(),
            format!("{req}junk"),
            format!("{req}Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"),
            "K00".to_string(),
            "B012WZ".to_string(),
            format!("A{:<32}00", "Scan"),
        ] {
            assert!(Message::decode(&text).is_err(), "{text:?}");
        }
        // Codes outside the spec's ranges are errors too.
        for text in ["E02", "E40", "K3", "M00013228-1"] {
            assert!(Message::decode(text).is_err(), "{text:?}");
        }
        assert!(Message::decode("E21").is_ok());
        assert!(Message::decode(&req).is_ok());
    }

    #[test]
    fn board_text_uses_dxp_letters() {
        let b = Board::from_text("B:W31,K46:B5,K10").unwrap();
        let t = board_text(&b);
        assert!(t.starts_with('Z'));
        assert_eq!(t.chars().nth(5), Some('z'));
        assert_eq!(t.chars().nth(10), Some('Z'));
        assert_eq!(t.chars().nth(46), Some('W'));
        assert_eq!(board_from_text(&t).unwrap(), b);
    }

    #[test]
    fn game_end_reasons_speak_for_their_sender() {
        for v in [
            None,
            Some(Verdict::Win),
            Some(Verdict::Draw),
            Some(Verdict::Loss),
        ] {
            assert_eq!(sender_verdict(end_reason(v)), v);
        }
        assert_eq!(end_reason(Some(Verdict::Loss)), 1);
        assert_eq!(end_reason(Some(Verdict::Win)), 3);
        assert_eq!(sender_verdict(0), None);
    }

    #[test]
    fn names_are_padded_to_32_and_never_start_blank() {
        assert_eq!(padded("Scan", 32).len(), 32);
        assert!(!padded(" x", 32).starts_with(' '));
        assert!(!padded("", 32).starts_with(' '));
    }
}
