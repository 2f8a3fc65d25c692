//! Translation between the referee's notation and the dialects engines speak.
//!
//! Scheme: the referee speaks each game's canonical text (the engine crate's `Notation`); the
//! drivers translate at the edge. Xiangqi: Fairy-Stockfish's plain UCI numbers ranks 1-10 where
//! UCCI and Pikafish use 0-9, so moves and nothing else shift by one. Draughts: Hub and DXP spell
//! a capture by its start, end and captured squares, which the runner takes from the board
//! before and after the move (so it does not depend on how the referee writes captures), and
//! Hub positions are 51 characters (`W` or `B`, then squares 1-50 as `w b W B e`) where PDN
//! uses `W:W31-50:B1-20`.

/// Shifts the rank numbers of a coordinate move (`h2e2` <-> `h3e3`, `a9a10`) by `delta`.
/// Text that is not a coordinate move is returned unchanged.
pub fn shift_ranks(mv: &str, delta: i32) -> String {
    let b = mv.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut squares = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            return mv.to_string();
        }
        let file = b[i] as char;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return mv.to_string();
        }
        let rank: i32 = mv[start..i].parse().unwrap_or(0);
        out.push(file);
        out.push_str(&(rank + delta).to_string());
        squares += 1;
    }
    if squares == 2 {
        out
    } else {
        mv.to_string()
    }
}

/// A draughts position as 50 squares (`w b W B e`) and the side to move (`W` or `B`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsBoard {
    pub white_to_move: bool,
    pub squares: [u8; 50],
}

impl DraughtsBoard {
    /// Reads a Hub position (51 characters) or a PDN FEN (`W:W31-50,K5:B1-20`, optional
    /// trailing `.`).
    pub fn parse(text: &str) -> Result<DraughtsBoard, String> {
        let t = text.trim().trim_matches('"');
        if t.len() == 51
            && matches!(t.as_bytes()[0], b'W' | b'B')
            && t.bytes().skip(1).all(|c| b"wbWBe".contains(&c))
        {
            let mut squares = [b'e'; 50];
            squares.copy_from_slice(&t.as_bytes()[1..]);
            return Ok(DraughtsBoard {
                white_to_move: t.as_bytes()[0] == b'W',
                squares,
            });
        }
        let bad = || format!("bad draughts position '{text}'");
        let t = t.trim_end_matches('.');
        let mut parts = t.split(':');
        let side = parts.next().ok_or_else(bad)?.trim();
        let white_to_move = match side {
            "W" => true,
            "B" => false,
            _ => return Err(bad()),
        };
        let mut squares = [b'e'; 50];
        for group in parts {
            let group = group.trim();
            if group.is_empty() {
                continue;
            }
            let (colour, list) = group.split_at(1);
            let (man, king) = match colour {
                "W" => (b'w', b'W'),
                "B" => (b'b', b'B'),
                _ => return Err(bad()),
            };
            for item in list.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let (piece, nums) = match item.strip_prefix('K') {
                    Some(rest) => (king, rest),
                    None => (man, item),
                };
                let (a, b) = match nums.split_once('-') {
                    Some((a, b)) => (a, b),
                    None => (nums, nums),
                };
                let a: usize = a.trim().parse().map_err(|_| bad())?;
                let b: usize = b.trim().parse().map_err(|_| bad())?;
                if a == 0 || b > 50 || a > b {
                    return Err(bad());
                }
                for s in a..=b {
                    squares[s - 1] = piece;
                }
            }
        }
        Ok(DraughtsBoard {
            white_to_move,
            squares,
        })
    }

    /// The Hub form: side, then 50 squares.
    pub fn hub(&self) -> String {
        let mut s = String::with_capacity(51);
        s.push(if self.white_to_move { 'W' } else { 'B' });
        s.push_str(std::str::from_utf8(&self.squares).unwrap_or(""));
        s
    }

    /// The PDN FEN form, kings prefixed with `K`.
    pub fn fen(&self) -> String {
        let list = |man: u8, king: u8| -> String {
            let mut items = Vec::new();
            for (i, &c) in self.squares.iter().enumerate() {
                if c == man {
                    items.push(format!("{}", i + 1));
                } else if c == king {
                    items.push(format!("K{}", i + 1));
                }
            }
            items.join(",")
        };
        format!(
            "{}:W{}:B{}",
            if self.white_to_move { 'W' } else { 'B' },
            list(b'w', b'W'),
            list(b'b', b'B')
        )
    }

    /// The DXP board: side (`W`/`Z`) and squares as `e w z W Z`.
    pub fn dxp(&self) -> String {
        let mut s = String::with_capacity(51);
        s.push(if self.white_to_move { 'W' } else { 'Z' });
        for &c in &self.squares {
            s.push(match c {
                b'b' => 'z',
                b'B' => 'Z',
                other => other as char,
            });
        }
        s
    }
}

/// A draughts move by its squares: start, end and captured squares (ascending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraughtsMove {
    pub from: u8,
    pub to: u8,
    pub captured: Vec<u8>,
}

impl DraughtsMove {
    /// The move between two positions. `text` (the move in any notation whose first number is
    /// the start square) resolves a capture that returns to its start square.
    pub fn between(
        before: &DraughtsBoard,
        after: &DraughtsBoard,
        text: &str,
    ) -> Result<DraughtsMove, String> {
        let white = before.white_to_move;
        let own = |c: u8| {
            if white {
                c == b'w' || c == b'W'
            } else {
                c == b'b' || c == b'B'
            }
        };
        let mut from = None;
        let mut to = None;
        let mut captured = Vec::new();
        for i in 0..50 {
            let (b, a) = (before.squares[i], after.squares[i]);
            if b == a {
                continue;
            }
            let sq = i as u8 + 1;
            if own(b) && a == b'e' {
                from = Some(sq);
            } else if b == b'e' && own(a) {
                to = Some(sq);
            } else if !own(b) && b != b'e' && a == b'e' {
                captured.push(sq);
            } else if own(b) && own(a) {
                // A man crowned on its own start square cannot happen; treat as from = to.
                from = Some(sq);
                to = Some(sq);
            }
        }
        let first_number = || -> Option<u8> {
            let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        };
        let (from, to) = match (from, to) {
            (Some(f), Some(t)) => (f, t),
            (None, None) if !captured.is_empty() => {
                let s = first_number().ok_or_else(|| format!("cannot read move '{text}'"))?;
                (s, s)
            }
            _ => return Err(format!("move '{text}' does not match the positions")),
        };
        Ok(DraughtsMove { from, to, captured })
    }

    /// Hub form: `32-28`, or `28x19x23` (start, end, captured squares).
    pub fn hub(&self) -> String {
        if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            let mut s = format!("{}x{}", self.from, self.to);
            for c in &self.captured {
                s.push_str(&format!("x{c}"));
            }
            s
        }
    }
}

/// The Hub (or DXP) spelling of the `index`-th move of a draughts game.
pub fn draughts_move_at(
    start: &str,
    moves: &[super::drivers::PlayedMove],
    index: usize,
) -> Result<DraughtsMove, String> {
    let before = if index == 0 {
        start
    } else {
        &moves[index - 1].after
    };
    let before = DraughtsBoard::parse(before)?;
    let after = DraughtsBoard::parse(&moves[index].after)?;
    DraughtsMove::between(&before, &after, &moves[index].text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_ranks_shift_both_ways() {
        assert_eq!(shift_ranks("h2e2", 1), "h3e3");
        assert_eq!(shift_ranks("a9a8", 1), "a10a9");
        assert_eq!(shift_ranks("a10a9", -1), "a9a8");
        assert_eq!(shift_ranks("(none)", 1), "(none)");
        assert_eq!(shift_ranks("e2e4q", 1), "e2e4q");
    }

    #[test]
    fn draughts_positions_convert() {
        let start = DraughtsBoard::parse("W:W31-50:B1-20").unwrap();
        assert_eq!(
            start.hub(),
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
        );
        assert_eq!(DraughtsBoard::parse(&start.hub()).unwrap(), start);
        let k = DraughtsBoard::parse("B:WK4,31:B12,K45.").unwrap();
        assert_eq!(k.squares[3], b'W');
        assert_eq!(k.squares[44], b'B');
        assert_eq!(k.fen(), "B:WK4,31:B12,K45");
        assert_eq!(DraughtsBoard::parse(&k.fen()).unwrap(), k);
        assert!(DraughtsBoard::parse("X:W1").is_err());
        assert!(DraughtsBoard::parse("W:W51").is_err());
    }

    #[test]
    fn draughts_moves_from_board_differences() {
        let before = DraughtsBoard::parse("W:W32:B23").unwrap();
        let after = DraughtsBoard::parse("B:W19:B").unwrap();
        let m = DraughtsMove::between(&before, &after, "32x19").unwrap();
        assert_eq!(m.hub(), "32x19x23");
        let quiet = DraughtsMove::between(
            &before,
            &DraughtsBoard::parse("B:W28:B23").unwrap(),
            "32-28",
        )
        .unwrap();
        assert_eq!(quiet.hub(), "32-28");
        // A king capture that comes back to its start square.
        let before = DraughtsBoard::parse("W:WK28:B22,23,32,33").unwrap();
        let after = DraughtsBoard::parse("B:WK28:B").unwrap();
        let m = DraughtsMove::between(&before, &after, "28x28").unwrap();
        assert_eq!(m.hub(), "28x28x22x23x32x33");
    }
}
