//! Xiangqi move text: coordinates for the protocols, Chinese and WXF notation for people.
//!
//! Coordinates are the file letter `a`..`i` (Red's left to right) and the rank, origin then
//! target, with two rank numberings in use:
//! - UCCI, Pikafish, ICCS and UCI-Cyclone count ranks 0..9 from Red's back rank: `h2e2`, `b9c7`;
//! - Fairy-Stockfish's plain UCI counts 1..10: `h3e3`, `b10c8`.
//!
//! Writing follows the board's [`MoveStyle`]. Reading accepts both and decides per move by the
//! token's shape: a rank `10` can only be the 1..10 numbering and a rank `0` only the 0..9 one;
//! a move with neither (say `a9a8`) is read in the board's style, never guessed from legality.
//! ICCS's upper-case `H2-E2` is read too.
//!
//! Chinese notation (纵线记法) names the piece, its file counted from the mover's right (Red in
//! Chinese numerals 一..九, Black in digits 1..9), the direction 进 (forward), 退 (back) or
//! 平 (sideways) and the target: the new file for sideways moves and for the diagonal movers
//! (advisor, elephant, horse), otherwise the number of points moved, e.g. 炮二平五, 马2进3.
//! Pieces of one kind on one file are told apart front to back as 前/后 (two), 前/中/后 (three
//! soldiers) or 一/二/三/四/五 (four or five soldiers), written in place of the file: 前炮平五.
//! When soldiers stand two or more deep on more than one file, the file follows the position
//! word in place of the piece name: 前三平四. Advisors and elephants are never told apart
//! this way: on one file, their direction already differs. WXF notation is the same
//! description in letters (`C2.5`, `H8+7`, `C+.5`, tandem soldiers as in the WXF's tables).

use crate::game::{Side, TextError};

use super::board::{Board, MoveStyle};
use super::geometry::{point_name, Square};
use super::moves::Move;
use super::piece::Kind;

/// A move in coordinates, in the given style.
pub(crate) fn coordinates(m: Move, style: MoveStyle) -> String {
    if !m.is_on_board() {
        return "0000".to_string();
    }
    let base = style.rank_base();
    format!("{}{}", point_name(m.from(), base), point_name(m.to(), base))
}

/// Splits `e10` into file and rank number.
fn point(text: &str) -> Option<(u8, u8)> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !('a'..='i').contains(&f) {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() == 2 && digits != "10" {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    Some((f as u8 - b'a', rank))
}

/// Reads coordinates (either numbering, see the module doc) into a move, legal or not.
pub(crate) fn parse_coordinates(text: &str, style: MoveStyle) -> Result<Move, TextError> {
    let malformed = || {
        TextError::new(format!(
            "malformed move '{text}': expected coordinates like h2e2 (ranks 0-9) or h3e3 (ranks 1-10)"
        ))
    };
    let t = text.trim();
    if !t.is_ascii() || t.len() < 4 || t.len() > 7 {
        return Err(malformed());
    }
    let lower = t.to_ascii_lowercase();
    // ICCS writes a dash between the points; otherwise the target's file letter is the
    // token's second letter.
    let (a, b) = match lower.split_once('-') {
        Some(parts) => parts,
        None => {
            let split = lower
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .ok_or_else(malformed)?;
            lower.split_at(split)
        }
    };
    let (f1, r1) = point(a).ok_or_else(malformed)?;
    let (f2, r2) = point(b).ok_or_else(malformed)?;
    let has = |n: u8| r1 == n || r2 == n;
    let base = match (has(0), has(10)) {
        (true, true) => {
            return Err(TextError::new(format!(
                "malformed move '{text}': mixes rank 0 (ranks 0-9) with rank 10 (ranks 1-10)"
            )))
        }
        (true, false) => 0,
        (false, true) => 1,
        (false, false) => style.rank_base(),
    };
    let from = Square::new(f1, r1.wrapping_sub(base)).ok_or_else(malformed)?;
    let to = Square::new(f2, r2.wrapping_sub(base)).ok_or_else(malformed)?;
    Ok(Move::new(from, to))
}

/// Reads a move and checks that it is legal on `board`.
pub(crate) fn parse_move(board: &Board, text: &str) -> Result<Move, TextError> {
    let m = parse_coordinates(text, board.style)?;
    if board.core.is_pseudo_legal(m) && board.core.is_legal(&board.cur.guard, m) {
        Ok(m)
    } else {
        Err(TextError::new(format!(
            "illegal move '{}' in this position",
            text.trim()
        )))
    }
}

/// Which of several same pieces on one file moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Locator {
    /// The only one on its file: the file number (1..9, the mover's own count).
    File(u8),
    /// The `index`-th from the front (0 = front) of `count` pieces on the file.
    Tandem { index: u8, count: u8 },
    /// As `Tandem`, for soldiers when more than one file has two or more: the file is written.
    TandemFile { index: u8, count: u8, file: u8 },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Advance,
    Retreat,
    Traverse,
}

/// A move described the way both Chinese and WXF notation describe it.
#[derive(Clone, Copy, Debug)]
struct Described {
    side: Side,
    kind: Kind,
    locator: Locator,
    action: Action,
    /// A file number (1..9) or a number of points.
    target: u8,
}

/// The file number of `file` (0 = `a`) for `side`: counted from that side's right.
fn own_file(side: Side, file: u8) -> u8 {
    match side {
        Side::First => 9 - file,
        Side::Second => file + 1,
    }
}

/// How far forward `rank` is for `side`.
fn own_rank(side: Side, rank: u8) -> u8 {
    match side {
        Side::First => rank,
        Side::Second => 9 - rank,
    }
}

fn describe(board: &Board, m: Move) -> Option<Described> {
    if !m.is_on_board() {
        return None;
    }
    let (from, to) = (m.from(), m.to());
    let (side, kind) = board.piece_at(from)?;
    let action = if from.rank() == to.rank() {
        Action::Traverse
    } else if own_rank(side, to.rank()) > own_rank(side, from.rank()) {
        Action::Advance
    } else {
        Action::Retreat
    };
    let diagonal = matches!(kind, Kind::Advisor | Kind::Elephant | Kind::Horse);
    let target = if action == Action::Traverse || diagonal {
        own_file(side, to.file())
    } else {
        from.rank().abs_diff(to.rank())
    };
    // Same pieces on the origin's file, front first.
    let mut on_file: Vec<Square> = board
        .pieces(side, kind)
        .filter(|s| s.file() == from.file())
        .collect();
    on_file.sort_by_key(|s| std::cmp::Reverse(own_rank(side, s.rank())));
    let count = on_file.len() as u8;
    let index = on_file.iter().position(|&s| s == from).unwrap_or(0) as u8;
    let locator = if count < 2 || matches!(kind, Kind::Advisor | Kind::Elephant) {
        Locator::File(own_file(side, from.file()))
    } else if kind == Kind::Soldier && {
        let mut files = [0u8; 9];
        for s in board.pieces(side, Kind::Soldier) {
            files[s.file() as usize] += 1;
        }
        files.iter().filter(|&&n| n >= 2).count() >= 2
    } {
        Locator::TandemFile {
            index,
            count,
            file: own_file(side, from.file()),
        }
    } else {
        Locator::Tandem { index, count }
    };
    Some(Described {
        side,
        kind,
        locator,
        action,
        target,
    })
}

const CHINESE_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn chinese_number(side: Side, n: u8) -> char {
    let n = n.clamp(1, 9);
    match side {
        Side::First => CHINESE_DIGITS[n as usize - 1],
        Side::Second => char::from(b'0' + n),
    }
}

/// Position words front to back for `count` pieces on one file.
fn chinese_position(index: u8, count: u8) -> char {
    match count {
        2 => ['前', '后'][index.min(1) as usize],
        3 => ['前', '中', '后'][index.min(2) as usize],
        _ => CHINESE_DIGITS[index.min(8) as usize],
    }
}

/// A legal move of `board` in Chinese notation (see the module doc); `None` when no piece of
/// the side to move stands on the move's origin.
pub(crate) fn chinese(board: &Board, m: Move) -> Option<String> {
    let d = describe(board, m)?;
    if d.side != board.side() {
        return None;
    }
    let mut s = String::new();
    match d.locator {
        Locator::File(f) => {
            s.push(d.kind.chinese(d.side));
            s.push(chinese_number(d.side, f));
        }
        Locator::Tandem { index, count } => {
            s.push(chinese_position(index, count));
            s.push(d.kind.chinese(d.side));
        }
        Locator::TandemFile { index, count, file } => {
            s.push(chinese_position(index, count));
            s.push(chinese_number(d.side, file));
        }
    }
    s.push(match d.action {
        Action::Advance => '进',
        Action::Retreat => '退',
        Action::Traverse => '平',
    });
    s.push(chinese_number(d.side, d.target));
    Some(s)
}

/// A legal move of `board` in WXF notation (`C2.5`, `H8+7`, `R+.4`); `None` as for [`chinese`].
pub(crate) fn wxf(board: &Board, m: Move) -> Option<String> {
    let d = describe(board, m)?;
    if d.side != board.side() {
        return None;
    }
    let letter = d.kind.wxf_letter();
    let digit = |n: u8| char::from(b'0' + n.clamp(1, 9));
    // WXF tandem marks: two pieces '+' / '-'; three: '+', the file, '-'; four and five: the
    // outer two doubled ("++", "--" replacing the letter too), the inner as for three.
    let marks = |index: u8, count: u8, file: u8| -> (Option<char>, char) {
        match (count, index) {
            (2, 0) | (3, 0) => (None, '+'),
            (2, _) | (3, 2) => (None, '-'),
            (3, _) => (None, digit(file)),
            (4, 0) | (5, 0) => (Some('+'), '+'),
            (4, 3) | (5, 4) => (Some('-'), '-'),
            (4, 1) | (5, 1) => (None, '+'),
            (4, _) | (5, 3) => (None, '-'),
            _ => (None, digit(file)),
        }
    };
    let mut s = String::new();
    match d.locator {
        Locator::File(f) => {
            s.push(letter);
            s.push(digit(f));
        }
        Locator::Tandem { index, count } => {
            let file = own_file(d.side, m.from().file());
            let (first, second) = marks(index, count, file);
            s.push(first.unwrap_or(letter));
            s.push(second);
        }
        Locator::TandemFile { index, count, file } => {
            let (_, second) = marks(index, count.min(3), file);
            s.push(digit(file));
            s.push(second);
        }
    }
    s.push(match d.action {
        Action::Advance => '+',
        Action::Retreat => '-',
        Action::Traverse => '.',
    });
    s.push(digit(d.target));
    Some(s)
}

impl Board {
    /// A legal move in Chinese notation (炮二平五, 马2进3, 前车进一; see the module doc of
    /// `notation`), for GUIs and logs. `None` when no piece of the side to move stands on the
    /// move's origin.
    pub fn chinese_move_text(&self, m: Move) -> Option<String> {
        chinese(self, m)
    }

    /// A legal move in WXF notation (`C2.5`, `H2+3`, `R+.4`); `None` as for
    /// [`chinese_move_text`](Board::chinese_move_text).
    pub fn wxf_move_text(&self, m: Move) -> Option<String> {
        wxf(self, m)
    }
}
