//! Xiangqi FEN, read and written as Fairy-Stockfish, Pikafish and UCCI do.
//!
//! Scheme: ten ranks from Black's back rank (rank 9) down to Red's, `/`-separated, digits for
//! runs of empty points; Red upper case, Black lower case; `K A B N R C P`, with ElephantEye's
//! `E` (elephant) and `H` (horse) accepted. Then the side to move (`w` or `r` for Red, `b` for
//! Black), two `-` placeholders (castling and en passant, meaningless here), the half-move
//! counter (plies since the last capture) and the full-move number. Everything after the board
//! may be missing (Red to move, counters 0 and 1).
//!
//! A position is accepted only if it could arise in a game: one general a side, at most 2 of
//! each other kind and 5 soldiers, every general and advisor in its palace on a point it can
//! reach, elephants on their seven points, soldiers never behind their starting rank nor off a
//! soldier file (nor two on one file) before the river, the generals not facing, and the side that just moved not in
//! check. Each rejection names the problem.

use crate::game::{Side, TextError};

use super::board::{Board, Core};
use super::geometry::{mb, point_name, Square};
use super::piece::{side_mask, Kind, CODE, KIND_OF};

/// The initial position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn err(message: String) -> TextError {
    TextError::new(format!("bad FEN: {message}"))
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "black",
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::General => "general",
        Kind::Advisor => "advisor",
        Kind::Elephant => "elephant",
        Kind::Horse => "horse",
        Kind::Chariot => "chariot",
        Kind::Cannon => "cannon",
        Kind::Soldier => "soldier",
    }
}

/// Whether a piece of this kind and side may stand on (file, rank) in a real game.
fn reachable(side: Side, kind: Kind, file: u8, rank: u8) -> bool {
    // Mirror Black onto Red's side: the rules are symmetric.
    let r = match side {
        Side::First => rank,
        Side::Second => 9 - rank,
    };
    match kind {
        Kind::General => (3..=5).contains(&file) && r <= 2,
        Kind::Advisor => matches!((file, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        Kind::Elephant => matches!(
            (file, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        Kind::Soldier => r >= 5 || (r >= 3 && file.is_multiple_of(2)),
        Kind::Horse | Kind::Chariot | Kind::Cannon => true,
    }
}

/// Reads a FEN.
pub(crate) fn parse(text: &str) -> Result<Board, TextError> {
    let mut fields = text.split_whitespace();
    let Some(placement) = fields.next() else {
        return Err(err("the text is empty".into()));
    };
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 10 {
        return Err(err(format!(
            "the board has {} ranks, expected 10",
            ranks.len()
        )));
    }
    let mut core = Core::empty();
    let mut counts = [[0u8; 7]; 2];
    for (row, text) in ranks.iter().enumerate() {
        let rank = 9 - row as u8;
        let mut file: u32 = 0;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10) {
                if n == 0 {
                    return Err(err(format!("rank {} has an empty run of 0", rank)));
                }
                file += n;
                continue;
            }
            let Some(kind) = Kind::from_letter(c) else {
                return Err(err(format!("'{c}' is not a xiangqi piece letter")));
            };
            let side = if c.is_ascii_uppercase() {
                Side::First
            } else {
                Side::Second
            };
            if file >= 9 {
                return Err(err(format!(
                    "rank {rank} ('{text}') is longer than 9 points"
                )));
            }
            let f = file as u8;
            let name = || {
                format!(
                    "{} {} on {}",
                    side_name(side),
                    kind_name(kind),
                    Square::new(f, rank)
                        .map(|sq| point_name(sq, 0))
                        .unwrap_or_default()
                )
            };
            if !reachable(side, kind, f, rank) {
                let why = match kind {
                    Kind::General => "outside its palace",
                    Kind::Advisor => "not on one of its palace's five advisor points",
                    Kind::Elephant => "not on one of its side's seven elephant points",
                    _ => "behind its starting rank or off a soldier file before the river",
                };
                return Err(err(format!("{} is {why}", name())));
            }
            let n = &mut counts[side.index()][kind.index()];
            if *n as usize >= kind.max_count() {
                return Err(err(format!(
                    "{} has more than {} {}{}",
                    side_name(side),
                    kind.max_count(),
                    kind_name(kind),
                    if kind.max_count() > 1 { "s" } else { "" }
                )));
            }
            let id = side_mask(side) + kind.first_slot() + *n;
            *n += 1;
            core.put(id, mb(f, rank));
            file += 1;
        }
        if file != 9 {
            return Err(err(format!(
                "rank {rank} ('{text}') covers {file} points, expected 9"
            )));
        }
    }
    for side in Side::BOTH {
        if counts[side.index()][Kind::General.index()] == 0 {
            return Err(err(format!("the {} general is missing", side_name(side))));
        }
        // A soldier only leaves its file after crossing the river, so before the river each
        // file holds at most the one soldier that started there.
        let mut seen = [false; 9];
        for sq in Square::all() {
            let id = core.cells[sq.mailbox() as usize];
            if id != 0
                && CODE[id as usize] == super::piece::code(side, Kind::Soldier)
                && sq.on_own_half(side)
            {
                let file = sq.file() as usize;
                if seen[file] {
                    return Err(err(format!(
                        "two {} soldiers stand on the {} file before the river",
                        side_name(side),
                        (b'a' + sq.file()) as char
                    )));
                }
                seen[file] = true;
            }
        }
    }

    let side = match fields.next() {
        None => Side::First,
        Some("w") | Some("r") | Some("W") | Some("R") => Side::First,
        Some("b") | Some("B") => Side::Second,
        Some(other) => {
            return Err(err(format!(
                "the side to move is '{other}', expected w (or r) for Red or b for Black"
            )))
        }
    };
    core.side = side;

    // Up to two '-' placeholders, then the two counters; every field is optional.
    let rest: Vec<&str> = fields.collect();
    let mut numbers = Vec::new();
    for (i, f) in rest.iter().enumerate() {
        if *f == "-" && numbers.is_empty() && i < 2 {
            continue;
        }
        match f.parse::<u32>() {
            Ok(n) if numbers.len() < 2 && n <= 1_000_000 => numbers.push(n),
            Ok(_) if numbers.len() < 2 => {
                return Err(err(format!("the counter '{f}' is out of range")));
            }
            _ => {
                return Err(err(format!(
                    "unexpected field '{f}' after the side to move"
                )))
            }
        }
    }
    let halfmove = numbers.first().copied().unwrap_or(0);
    let fullmove = numbers.get(1).copied().unwrap_or(1);

    if core.generals_face() {
        let f = (b'a' + super::geometry::file_of(core.general_sq(Side::First))) as char;
        return Err(err(format!("the generals face each other on the {f} file")));
    }
    let waiting = side.flip();
    if core.in_check(waiting) {
        return Err(err(format!(
            "{} is in check but it is {}'s turn",
            side_name(waiting),
            side_name(side)
        )));
    }
    Ok(Board::from_core(core, halfmove, fullmove))
}

/// Writes the FEN of a board.
pub(crate) fn write(board: &Board) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let id = board.core.cells[mb(file, rank) as usize];
            if id == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            let letter = KIND_OF[id as usize].letter();
            s.push(if CODE[id as usize] >= 7 {
                letter.to_ascii_lowercase()
            } else {
                letter
            });
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let side = if board.core.side == Side::First {
        'w'
    } else {
        'b'
    };
    let plies = board.hist.len() as u32 + board.side0 as u32;
    let fullmove = board.fullmove0 + plies / 2;
    s.push_str(&format!(" {side} - - {} {fullmove}", board.cur.halfmove));
    s
}
