//! FEN reading and writing, with X-FEN and Shredder-FEN castling fields for Chess960.
//!
//! Scheme: the reader builds the board field by field and rejects, with a message naming the
//! problem, anything that is not a position a game could reach in the ways that matter to the
//! engine: a wrong field count (6, or 4 without the clocks as many GUIs send), bad letters,
//! ranks that are not 8 squares, missing or extra kings, impossible material, pawns on the
//! first or last rank, the side not to move in check, castling rights without their king and
//! rook, and en-passant squares that no double push could have produced. An en-passant square
//! that is plausible but allows no legal capture (a pinned pawn, say) is accepted and then
//! dropped, as the board stores it only when a capture is legal.
//!
//! Castling letters: `KQkq` name the outermost rook on that side of the king (X-FEN); a file
//! letter `A`-`H` / `a`-`h` names the rook's file (Shredder-FEN). A Shredder letter, or any right
//! whose king or rook is off the standard squares, marks the position as Chess960. The writer
//! uses `KQkq` in standard mode (a file letter only for an inner rook) and Shredder letters in
//! Chess960 mode, as Stockfish does.

use super::bitboard::{rank_bb, squares, RANK_1, RANK_8};
use super::board::Board;
use super::types::{piece_code, Color, PieceKind, Square};
use crate::game::TextError;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, TextError> {
    Err(TextError::new(msg))
}

/// Reads a FEN (6 fields, or 4 without the clocks).
pub fn parse_fen(text: &str) -> Result<Board, TextError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 6 && fields.len() != 4 {
        return err(format!(
            "FEN has {} fields; expected 6 (placement, side, castling, en passant, halfmove clock, \
             fullmove number), or the first 4",
            fields.len()
        ));
    }
    let mut board = Board::empty();
    parse_placement(&mut board, fields[0])?;
    check_material(&board)?;

    board.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return err(format!("side to move must be 'w' or 'b', not '{other}'")),
    };
    let us = board.side;
    if board.is_attacked_by(board.king_square(!us), board.occupied(), us) {
        return err(format!(
            "the side not to move ({}) is in check, which no legal game reaches",
            color_name(!us)
        ));
    }

    let shredder = parse_castling(&mut board, fields[2])?;
    board.chess960 = shredder || !standard_castling(&board);
    let ep = parse_en_passant(&board, fields[3])?;

    if fields.len() == 6 {
        board.halfmove = match fields[4].parse::<u32>() {
            Ok(n) if n <= 100_000 => n,
            _ => {
                return err(format!(
                    "bad halfmove clock '{}': expected a number of plies",
                    fields[4]
                ))
            }
        };
        let fullmove = match fields[5].parse::<u32>() {
            Ok(n) if n <= 100_000 => n.max(1),
            _ => {
                return err(format!(
                    "bad fullmove number '{}': expected a positive number",
                    fields[5]
                ))
            }
        };
        board.game_ply = (fullmove - 1) * 2 + us.index() as u32;
    } else {
        board.game_ply = us.index() as u32;
    }

    board.update_check_info();
    if let Some(ep) = ep {
        if board.any_legal_en_passant(ep) {
            board.ep = Some(ep);
        }
    }
    board.key = board.compute_key();
    board.pawn_key = board.compute_pawn_key();
    Ok(board)
}

fn parse_placement(board: &mut Board, field: &str) -> Result<(), TextError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return err(format!(
            "the piece placement has {} ranks; expected 8 separated by '/'",
            ranks.len()
        ));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        let mut after_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return err(format!("bad empty-square count '{c}' in rank {}", rank + 1));
                }
                if after_digit {
                    return err(format!(
                        "two digits in a row in rank {} ('{text}')",
                        rank + 1
                    ));
                }
                after_digit = true;
                file += d;
                if file > 8 {
                    break;
                }
                continue;
            } else if let Some(kind) = PieceKind::from_letter(c) {
                if file < 8 {
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    board.put(
                        piece_code(color, kind),
                        Square::from_file_rank(file as u8, rank),
                    );
                }
                file += 1;
            } else {
                return err(format!("bad piece letter '{c}' in rank {}", rank + 1));
            }
            after_digit = false;
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            let more = if file > 8 {
                "more than 8"
            } else {
                "fewer than 8"
            };
            return err(format!(
                "rank {} ('{text}') describes {more} squares",
                rank + 1
            ));
        }
    }
    Ok(())
}

/// Kings, pawns on the edge ranks, and material no sequence of promotions could produce.
fn check_material(board: &Board) -> Result<(), TextError> {
    for color in Color::BOTH {
        let name = color_name(color);
        let kings = board.pieces(color, PieceKind::King).count_ones();
        if kings == 0 {
            return err(format!("{name} has no king"));
        }
        if kings > 1 {
            return err(format!("{name} has {kings} kings"));
        }
        let count = |k: PieceKind| board.pieces(color, k).count_ones() as i32;
        let pawns = count(PieceKind::Pawn);
        let promoted = (count(PieceKind::Queen) - 1).max(0)
            + (count(PieceKind::Rook) - 2).max(0)
            + (count(PieceKind::Bishop) - 2).max(0)
            + (count(PieceKind::Knight) - 2).max(0);
        if pawns > 8 || board.color_bb(color).count_ones() > 16 || promoted > 8 - pawns {
            return err(format!(
                "{name} has more pieces than promotions from 8 pawns could give"
            ));
        }
    }
    let edge_pawns = board.kind_bb(PieceKind::Pawn) & (RANK_1 | RANK_8);
    if edge_pawns != 0 {
        let sq = super::bitboard::lsb(edge_pawns);
        return err(format!("a pawn stands on {sq}, on the first or last rank"));
    }
    Ok(())
}

/// Reads the castling field into the board's rights and setup; returns whether it used
/// Shredder file letters.
fn parse_castling(board: &mut Board, field: &str) -> Result<bool, TextError> {
    if field == "-" {
        return Ok(false);
    }
    let mut shredder = false;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let name = color_name(color);
        let lower = c.to_ascii_lowercase();
        if !matches!(lower, 'k' | 'q' | 'a'..='h') {
            return err(format!("bad castling letter '{c}' in '{field}'"));
        }
        let back = if color == Color::White { 0 } else { 7 };
        let king = board.king_square(color);
        if king.rank() != back {
            return err(format!(
                "castling right '{c}' but the {name} king is not on its first rank"
            ));
        }
        let rooks = board.pieces(color, PieceKind::Rook) & rank_bb(back);
        let h_side = rooks & !((king.bb() << 1).wrapping_sub(1));
        let a_side = rooks & (king.bb() - 1);
        let (side, rook) = match lower {
            'k' => match squares(h_side).last() {
                Some(r) => (0, r),
                None => {
                    return err(format!(
                        "castling right '{c}' but {name} has no rook on the h-side of its king"
                    ))
                }
            },
            'q' => match squares(a_side).next() {
                Some(r) => (1, r),
                None => {
                    return err(format!(
                        "castling right '{c}' but {name} has no rook on the a-side of its king"
                    ))
                }
            },
            _ => {
                shredder = true;
                let sq = Square::from_file_rank(lower as u8 - b'a', back);
                if rooks & sq.bb() == 0 {
                    return err(format!(
                        "castling right '{c}' but no {name} rook stands on {sq}"
                    ));
                }
                (usize::from(sq.file() < king.file()), sq)
            }
        };
        let index = color.index() * 2 + side;
        if board.castling & (1 << index) != 0 {
            return err(format!(
                "castling field '{field}' gives the same right twice"
            ));
        }
        board.castling |= 1 << index;
        board.setup.add(index, king, rook);
    }
    Ok(shredder)
}

/// Whether every castling right has its king on the e-file and rook in the corner.
fn standard_castling(board: &Board) -> bool {
    (0..4).filter(|i| board.castling & (1 << i) != 0).all(|i| {
        let setup = &board.setup;
        setup.king[i / 2].file() == 4 && setup.rook[i].file() == if i & 1 == 0 { 7 } else { 0 }
    })
}

fn parse_en_passant(board: &Board, field: &str) -> Result<Option<Square>, TextError> {
    if field == "-" {
        return Ok(None);
    }
    let Some(sq) = Square::parse(field) else {
        return err(format!("bad en-passant square '{field}'"));
    };
    let us = board.side;
    let (rank, ordinal) = if us == Color::White {
        (5, "sixth")
    } else {
        (2, "third")
    };
    if sq.rank() != rank {
        return err(format!(
            "en-passant square {sq} is not on the {ordinal} rank, where it must be with {} to move",
            color_name(us)
        ));
    }
    let (pawn_sq, origin) = if us == Color::White {
        (
            Square::from_file_rank(sq.file(), 4),
            Square::from_file_rank(sq.file(), 6),
        )
    } else {
        (
            Square::from_file_rank(sq.file(), 3),
            Square::from_file_rank(sq.file(), 1),
        )
    };
    if board.pieces(!us, PieceKind::Pawn) & pawn_sq.bb() == 0 {
        return err(format!(
            "en-passant square {sq} but no {} pawn on {pawn_sq} could just have moved two squares",
            color_name(!us)
        ));
    }
    if board.occupied() & (sq.bb() | origin.bb()) != 0 {
        return err(format!(
            "en-passant square {sq} but {sq} or {origin} is occupied"
        ));
    }
    Ok(Some(sq))
}

/// Writes the position as FEN (Shredder castling letters in Chess960 mode).
pub fn write_fen(board: &Board) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board.piece_at(Square::from_file_rank(file, rank)) {
                None => empty += 1,
                Some((color, kind)) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let c = kind.letter();
                    s.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if board.side == Color::White {
        " w "
    } else {
        " b "
    });
    if board.castling == 0 {
        s.push('-');
    }
    for index in 0..4 {
        if board.castling & (1 << index) == 0 {
            continue;
        }
        let color = Color::from_index(index / 2);
        let rook = board.setup.rook[index];
        let rooks = board.pieces(color, PieceKind::Rook) & rank_bb(rook.rank());
        let outer = if index & 1 == 0 {
            rooks & !((rook.bb() << 1).wrapping_sub(1))
        } else {
            rooks & (rook.bb() - 1)
        };
        let letter = if board.chess960 || outer != 0 {
            (b'a' + rook.file()) as char
        } else if index & 1 == 0 {
            'k'
        } else {
            'q'
        };
        s.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    match board.ep {
        Some(ep) => s.push_str(&format!(" {ep} ")),
        None => s.push_str(" - "),
    }
    s.push_str(&format!("{} {}", board.halfmove, board.fullmove_number()));
    s
}
