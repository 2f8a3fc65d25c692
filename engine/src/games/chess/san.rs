//! Standard algebraic notation (SAN) for chess game records and opening books.
//!
//! Scheme: written over the seam rather than the chess board's internals: the position's FEN
//! (`Notation::to_text`) tells which piece stands where, the legal moves (`generate` +
//! `is_legal`, in UCI text) give disambiguation, and making the move on a copy tells check and
//! mate. Castling is the king moving two files or onto its own rook (Chess960's UCI form).
//! Reading SAN needs no parser of its own: a book move is matched against the SAN of each
//! legal move (the match runner's `openings::resolve`).

use crate::game::{GenKind, MoveList, Notation};

/// The pieces of a FEN's board field, indexed by square (a1 = 0, h8 = 63).
fn board(fen: &str) -> [Option<char>; 64] {
    let mut b = [None; 64];
    let field = fen.split_whitespace().next().unwrap_or("");
    for (r, row) in field.split('/').enumerate() {
        let rank = 7usize.saturating_sub(r);
        let mut file = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else {
                if file < 8 && r < 8 {
                    b[rank * 8 + file] = Some(c);
                }
                file += 1;
            }
        }
    }
    b
}

fn square(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

/// The SAN of a legal move `m` of `pos`, for a chess position whose text is FEN and whose
/// move text is UCI.
pub fn san<P: Notation>(pos: &P, m: P::Move) -> String {
    let uci = pos.move_text(m);
    let (Some(from), Some(to)) = (
        uci.get(0..2).and_then(square),
        uci.get(2..4).and_then(square),
    ) else {
        return uci;
    };
    let promo = uci.get(4..5).map(|p| p.to_ascii_uppercase());
    let b = board(&pos.to_text());
    let Some(piece) = b[from] else {
        return uci;
    };
    let white = piece.is_ascii_uppercase();
    let kind = piece.to_ascii_uppercase();
    let target = b[to];
    let own_rook =
        target.is_some_and(|t| t.is_ascii_uppercase() == white && t.eq_ignore_ascii_case(&'r'));
    let file_of = |s: usize| (b'a' + (s % 8) as u8) as char;
    let rank_of = |s: usize| (b'1' + (s / 8) as u8) as char;

    let mut text = String::new();
    if kind == 'K' && (own_rook || (from % 8).abs_diff(to % 8) == 2) {
        text.push_str(if to % 8 > from % 8 { "O-O" } else { "O-O-O" });
    } else {
        let capture = target.is_some_and(|t| t.is_ascii_uppercase() != white)
            || (kind == 'P' && from % 8 != to % 8);
        if kind == 'P' {
            if capture {
                text.push(file_of(from));
            }
        } else {
            text.push(kind);
            // Other pieces of the same kind that can reach the same square.
            let mut legal = MoveList::new();
            pos.generate(GenKind::All, &mut legal);
            let rivals: Vec<usize> = legal
                .iter()
                .filter(|&&o| o != m && pos.is_legal(o))
                .filter_map(|&o| {
                    let t = pos.move_text(o);
                    let (f, d) = (t.get(0..2).and_then(square)?, t.get(2..4).and_then(square)?);
                    (d == to && f != from && b[f] == Some(piece)).then_some(f)
                })
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|&f| f % 8 != from % 8) {
                    text.push(file_of(from));
                } else if rivals.iter().all(|&f| f / 8 != from / 8) {
                    text.push(rank_of(from));
                } else {
                    text.push(file_of(from));
                    text.push(rank_of(from));
                }
            }
        }
        if capture {
            text.push('x');
        }
        text.push(file_of(to));
        text.push(rank_of(to));
        if let Some(p) = promo {
            text.push('=');
            text.push_str(&p);
        }
    }
    let mut after = pos.clone();
    after.make(m);
    if after.in_check() {
        text.push(if after.has_legal_move() { '+' } else { '#' });
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_boards() {
        let b = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(b[square("e4").unwrap()], Some('P'));
        assert_eq!(b[square("e2").unwrap()], None);
        assert_eq!(b[square("a8").unwrap()], Some('r'));
        assert_eq!(b[square("e1").unwrap()], Some('K'));
        assert_eq!(square("i1"), None);
    }
}
