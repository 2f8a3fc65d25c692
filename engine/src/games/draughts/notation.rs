//! Position and move text: the draughts FEN, Hub's 51-character `pos=` string, and move text in
//! the short, Hub and full-path forms.
//!
//! Positions. FEN is `W:W31,32,K46:B1-20` (side to move, then each colour's list; `K` marks a
//! king; ranges `a-b` allowed, also `Ka-b` for kings; either list first; an optional trailing
//! `.`; a PDN tag `[FEN "..."]` around it is accepted). Written with the White list first and
//! squares ascending, kings marked in place. The Hub string is the side (`W`/`B`) and one
//! character per square 1..=50: `w`, `b` (men), `W`, `B` (kings), `e` (empty). Both are checked:
//! squares 1..=50 only, none given twice, no man on its own crowning row, and the side that has
//! just moved must have a piece (as Scan checks).
//!
//! Moves. Quiet moves are `32-28`. Captures are written `28x19` (short form) when no other legal
//! capture has the same start and end, else in Hub's form `from x to x captured...` with the
//! captured squares ascending. Parsing accepts the short form (rejected as ambiguous when two
//! legal captures share start and end), Hub's form (captured squares in any order) and the full
//! path `from x landing x ... x end`; which of the last two is meant follows from the number of
//! squares, since every legal capture of a position takes the same number of pieces.

use super::board::Board;
use super::moves::Move;
use super::squares::{bit_of_square, mask_of_square, square_of_bit, squares, Bits};
use super::squares::{BLACK_PROMOTION, WHITE_PROMOTION};
use crate::game::{GenKind, MoveList, Position, Side, TextError};

/// The initial position in FEN.
pub const START_FEN: &str = "W:W31-50:B1-20";

impl Board {
    /// The initial position.
    pub fn start_position() -> Board {
        Board::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Reads either a FEN or a Hub `pos=` string.
    pub fn parse(text: &str) -> Result<Board, TextError> {
        let t = text.trim();
        if t.contains(':') {
            Board::from_fen(t)
        } else if t.chars().count() == 51 || (t.len() > 1 && t.chars().all(|c| "WBwbe".contains(c)))
        {
            Board::from_hub(t)
        } else {
            Err(TextError::new(format!(
                "not a draughts position: '{}' is neither a FEN (W:W31,...:B1,...) nor a \
                 51-character Hub position",
                clip(t)
            )))
        }
    }

    /// Reads Hub's position string: side to move then 50 squares of `w b W B e`.
    pub fn from_hub(text: &str) -> Result<Board, TextError> {
        let t = text.trim();
        let n = t.chars().count();
        if n != 51 {
            return Err(TextError::new(format!(
                "Hub position must be 51 characters (side + 50 squares), got {n}"
            )));
        }
        let mut chars = t.chars();
        let side = match chars.next() {
            Some('W') => Side::First,
            Some('B') => Side::Second,
            Some(c) => {
                return Err(TextError::new(format!(
                    "Hub position must start with the side to move W or B, not '{c}'"
                )))
            }
            None => unreachable_empty()?,
        };
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        for (i, c) in chars.enumerate() {
            let bit = 1u64 << bit_of_square(i as u8 + 1);
            match c {
                'w' => white |= bit,
                'b' => black |= bit,
                'W' => {
                    white |= bit;
                    kings |= bit
                }
                'B' => {
                    black |= bit;
                    kings |= bit
                }
                'e' => {}
                other => {
                    return Err(TextError::new(format!(
                        "bad character '{other}' for square {} in Hub position (use w, b, W, B \
                         or e)",
                        i + 1
                    )))
                }
            }
        }
        finish(white, black, kings, side)
    }

    /// Writes Hub's position string.
    pub fn to_hub(&self) -> String {
        let mut s = String::with_capacity(51);
        s.push(if self.st.side == Side::First {
            'W'
        } else {
            'B'
        });
        for sq in 1..=50u8 {
            let bit = 1u64 << bit_of_square(sq);
            let king = self.st.kings & bit != 0;
            s.push(if self.st.pieces[0] & bit != 0 {
                if king {
                    'W'
                } else {
                    'w'
                }
            } else if self.st.pieces[1] & bit != 0 {
                if king {
                    'B'
                } else {
                    'b'
                }
            } else {
                'e'
            });
        }
        s
    }

    /// Reads a draughts FEN (see the module doc).
    pub fn from_fen(text: &str) -> Result<Board, TextError> {
        let mut t = text.trim();
        if let Some(inner) = t.strip_prefix("[FEN") {
            t = inner.trim().trim_end_matches(']').trim();
        }
        t = t.trim_matches('"').trim();
        t = t.strip_suffix('.').unwrap_or(t).trim_end();
        let mut fields = t.split(':');
        let side = match fields.next().map(str::trim) {
            Some("W") | Some("w") => Side::First,
            Some("B") | Some("b") => Side::Second,
            Some(other) => {
                return Err(TextError::new(format!(
                    "FEN must start with the side to move W or B, not '{}'",
                    clip(other)
                )))
            }
            None => unreachable_empty()?,
        };
        let mut lists: [Option<(u64, u64)>; 2] = [None, None];
        for field in fields {
            let field = field.trim();
            let (colour, rest) = match field.chars().next() {
                Some('W') | Some('w') => (0, &field[1..]),
                Some('B') | Some('b') => (1, &field[1..]),
                _ => {
                    return Err(TextError::new(format!(
                        "FEN piece list '{}' must start with W or B",
                        clip(field)
                    )))
                }
            };
            if lists[colour].is_some() {
                return Err(TextError::new(format!(
                    "FEN gives the {} pieces twice",
                    colour_name(colour)
                )));
            }
            lists[colour] = Some(parse_list(rest, colour)?);
        }
        let (white, wk) =
            lists[0].ok_or_else(|| TextError::new("FEN has no White piece list (W...)"))?;
        let (black, bk) =
            lists[1].ok_or_else(|| TextError::new("FEN has no Black piece list (B...)"))?;
        if let Some(s) = squares(white & black).next() {
            return Err(TextError::new(format!(
                "FEN gives square {s} to both White and Black"
            )));
        }
        finish(white, black, wk | bk, side)
    }

    /// Writes the FEN: White list first, squares ascending, kings marked with `K`.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(160);
        s.push(if self.st.side == Side::First {
            'W'
        } else {
            'B'
        });
        for (letter, side) in [('W', 0), ('B', 1)] {
            s.push(':');
            s.push(letter);
            let own = self.st.pieces[side];
            let mut first = true;
            for b in Bits(own) {
                if !first {
                    s.push(',');
                }
                first = false;
                if self.st.kings & (1u64 << b) != 0 {
                    s.push('K');
                }
                s.push_str(&square_of_bit(b).to_string());
            }
        }
        s
    }

    /// A move in Hub's form: `32-28`, or `from x to x captured...` (captured ascending).
    pub fn hub_move_text(&self, m: Move) -> String {
        if !m.is_well_formed() {
            return format!("{m:?}");
        }
        if m.captured == 0 {
            return format!("{}-{}", m.from_square(), m.to_square());
        }
        let mut s = format!("{}x{}", m.from_square(), m.to_square());
        for c in m.captured_squares() {
            s.push('x');
            s.push_str(&c.to_string());
        }
        s
    }

    /// A move as its full PDN path, `from x landing x ... x end` (one path where several lead
    /// to the same result); quiet moves as `32-28`.
    pub fn path_move_text(&self, m: Move) -> String {
        if m.captured == 0 || !m.is_well_formed() {
            return self.hub_move_text(m);
        }
        match self.capture_paths(m).into_iter().next() {
            Some(path) => {
                let mut s = m.from_square().to_string();
                for b in path {
                    s.push('x');
                    s.push_str(&square_of_bit(b).to_string());
                }
                s
            }
            None => self.hub_move_text(m),
        }
    }

    /// The move text `Notation::move_text` writes: short form unless ambiguous.
    pub fn short_move_text(&self, m: Move) -> String {
        if m.captured == 0 || !m.is_well_formed() {
            return self.hub_move_text(m);
        }
        let mut moves = MoveList::new();
        self.generate(GenKind::Noisy, &mut moves);
        let twins = moves
            .iter()
            .filter(|x| x.from == m.from && x.to == m.to)
            .count();
        if twins > 1 {
            self.hub_move_text(m)
        } else {
            format!("{}x{}", m.from_square(), m.to_square())
        }
    }

    /// Reads a move in any accepted form and checks it is legal here.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, TextError> {
        let t = text.trim();
        let mut nums: Vec<u8> = Vec::new();
        for tok in t.split(['-', 'x', 'X']) {
            let tok = tok.trim();
            let n: u32 = tok.parse().map_err(|_| {
                TextError::new(format!(
                    "bad move '{}': '{}' is not a square number",
                    clip(t),
                    clip(tok)
                ))
            })?;
            if !(1..=50).contains(&n) {
                return Err(TextError::new(format!(
                    "bad move '{}': square {n} is not 1-50",
                    clip(t)
                )));
            }
            nums.push(n as u8);
        }
        if nums.len() < 2 {
            return Err(TextError::new(format!(
                "bad move '{}': a move needs a start and an end square",
                clip(t)
            )));
        }
        let mut legal = MoveList::new();
        self.generate(GenKind::All, &mut legal);
        let from = bit_of_square(nums[0]) as u8;
        let mut found: Vec<Move> = Vec::new();
        if nums.len() == 2 {
            let to = bit_of_square(nums[1]) as u8;
            found.extend(legal.iter().filter(|m| m.from == from && m.to == to));
        } else {
            let taken = legal.first().map_or(0, |m| m.capture_count()) as usize;
            // Hub's form: from, to, then every captured square.
            if nums.len() == taken + 2 {
                let to = bit_of_square(nums[1]) as u8;
                let mut caps = 0u64;
                for &c in &nums[2..] {
                    caps |= mask_of_square(c as u32);
                }
                found.extend(
                    legal
                        .iter()
                        .filter(|m| m.from == from && m.to == to && m.captured == caps),
                );
            }
            // The full path: from, then every landing square.
            if nums.len() == taken + 1 {
                let path: Vec<u32> = nums[1..].iter().map(|&s| bit_of_square(s)).collect();
                let to = *path.last().unwrap_or(&0) as u8;
                for m in legal.iter().filter(|m| m.from == from && m.to == to) {
                    if self.capture_paths(*m).contains(&path) && !found.contains(m) {
                        found.push(*m);
                    }
                }
            }
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(TextError::new(format!("illegal move '{}'", clip(t)))),
            _ => {
                let options: Vec<String> = found.iter().map(|&m| self.hub_move_text(m)).collect();
                Err(TextError::new(format!(
                    "ambiguous move '{}': it could be {}; give the captured squares",
                    clip(t),
                    options.join(" or ")
                )))
            }
        }
    }
}

/// Checks a parsed piece set and builds the board.
fn finish(white: u64, black: u64, kings: u64, side: Side) -> Result<Board, TextError> {
    if let Some(s) = squares(white & !kings & WHITE_PROMOTION).next() {
        return Err(TextError::new(format!(
            "a White man on square {s}: White men on 1-5 would already be kings"
        )));
    }
    if let Some(s) = squares(black & !kings & BLACK_PROMOTION).next() {
        return Err(TextError::new(format!(
            "a Black man on square {s}: Black men on 46-50 would already be kings"
        )));
    }
    let just_moved = if side == Side::First { black } else { white };
    if just_moved == 0 {
        return Err(TextError::new(format!(
            "{} has no pieces but is not to move",
            if side == Side::First {
                "Black"
            } else {
                "White"
            }
        )));
    }
    Ok(Board::from_parts(white, black, kings, side))
}

/// Parses one colour's comma list into (pieces, kings).
fn parse_list(text: &str, colour: usize) -> Result<(u64, u64), TextError> {
    let (mut pieces, mut kings) = (0u64, 0u64);
    if text.trim().is_empty() {
        return Ok((0, 0));
    }
    for item in text.split(',') {
        let item = item.trim();
        let (king, body) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (lo, hi) = match body.split_once('-') {
            Some((a, b)) => (
                square_number(a, item)?,
                square_number(b.trim_start_matches(['K', 'k']), item)?,
            ),
            None => {
                let s = square_number(body, item)?;
                (s, s)
            }
        };
        if lo > hi {
            return Err(TextError::new(format!(
                "FEN range '{}' runs backwards",
                clip(item)
            )));
        }
        for s in lo..=hi {
            let bit = mask_of_square(s);
            if pieces & bit != 0 {
                return Err(TextError::new(format!(
                    "FEN gives square {s} twice in the {} list",
                    colour_name(colour)
                )));
            }
            pieces |= bit;
            if king {
                kings |= bit;
            }
        }
    }
    Ok((pieces, kings))
}

fn square_number(text: &str, item: &str) -> Result<u32, TextError> {
    let text = text.trim();
    let n: u32 = text.parse().map_err(|_| {
        TextError::new(format!(
            "bad FEN entry '{}': '{}' is not a square number",
            clip(item),
            clip(text)
        ))
    })?;
    if (1..=50).contains(&n) {
        Ok(n)
    } else {
        Err(TextError::new(format!(
            "bad FEN entry '{}': square {n} is outside 1-50",
            clip(item)
        )))
    }
}

fn colour_name(colour: usize) -> &'static str {
    if colour == 0 {
        "White"
    } else {
        "Black"
    }
}

/// At most 60 characters of a user's text, for error messages.
fn clip(t: &str) -> String {
    if t.chars().count() <= 60 {
        t.to_string()
    } else {
        let mut s: String = t.chars().take(57).collect();
        s.push_str("...");
        s
    }
}

fn unreachable_empty<T>() -> Result<T, TextError> {
    Err(TextError::new("empty position text"))
}
