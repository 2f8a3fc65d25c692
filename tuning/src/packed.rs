//! The compact binary position record (32 bytes) that `datagen -format bin` writes, `convert`
//! makes from text data, and the network trainer reads.
//!
//! Scheme (chess; all little-endian): bytes 0..8 the occupancy bitboard (bit = square, a1 = 0);
//! bytes 8..24 one 4-bit piece code per occupied square in ascending square order, low nibble
//! first (code = colour * 8 + kind, kinds pawn..king = 0..5; at most 32 pieces); bytes 24..26
//! the search score as i16 from White's view (clamped to +/-32000); byte 26 the game result
//! from White's view (0 loss, 1 draw, 2 win); byte 27 the side to move (bit 0: Black) and the
//! castling rights (bits 1..4); byte 28 the en-passant square (64 for none); byte 29 the
//! halfmove clock (saturating at 255); bytes 30..32 the fullmove number (u16). The record
//! holds everything a FEN does, so [`Record::board`] gives the position back exactly, while
//! the trainer reads the pieces straight from bytes 0..24 without building a board.

use tetrarch::game::Notation;
use tetrarch::games::chess::{Board, Color, PieceKind, Square};

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// One packed position with its score and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record(pub [u8; RECORD_BYTES]);

/// A game position that has a packed form (chess now; the other games answer `None`). Every
/// position type gets it, so code generic over a game (datagen through the game descriptor)
/// needs no bound of its own; a game gains a packed form by an arm in this one impl.
pub trait Pack: Notation {
    /// The position packed with a first-player score and result (2 win, 1 draw, 0 loss).
    fn pack(&self, score: i32, result: u8) -> Option<Record>;
}

impl<P: Notation> Pack for P {
    fn pack(&self, score: i32, result: u8) -> Option<Record> {
        let any: &dyn std::any::Any = self;
        any.downcast_ref::<Board>()
            .map(|b| Record::new(b, score, result))
    }
}

impl Record {
    /// Packs a chess position (score and result from White's view).
    pub fn new(b: &Board, score: i32, result: u8) -> Record {
        let mut r = [0u8; RECORD_BYTES];
        let mut occ = 0u64;
        let mut n = 0usize;
        for sq in 0..64u8 {
            if let Some((color, kind)) = b.piece_at(Square::new(sq)) {
                occ |= 1 << sq;
                let code = (color.index() * 8 + kind.index()) as u8;
                if n < 32 {
                    r[8 + n / 2] |= code << (4 * (n % 2));
                }
                n += 1;
            }
        }
        r[0..8].copy_from_slice(&occ.to_le_bytes());
        let s = score.clamp(-32000, 32000) as i16;
        r[24..26].copy_from_slice(&s.to_le_bytes());
        r[26] = result.min(2);
        r[27] = u8::from(b.turn() == Color::Black) | (b.castling_rights() & 15) << 1;
        r[28] = b.en_passant().map_or(64, |s| s.index() as u8);
        r[29] = b.halfmove_clock().min(255) as u8;
        r[30..32].copy_from_slice(&(b.fullmove_number().min(65535) as u16).to_le_bytes());
        Record(r)
    }

    pub fn score(&self) -> i32 {
        i16::from_le_bytes([self.0[24], self.0[25]]) as i32
    }

    /// 0 loss, 1 draw, 2 win, from White's view.
    pub fn result(&self) -> u8 {
        self.0[26]
    }

    pub fn white_to_move(&self) -> bool {
        self.0[27] & 1 == 0
    }

    /// Calls `f(colour, kind, square)` for each piece (colour 0 White, kind 0..5).
    #[inline]
    pub fn pieces(&self, mut f: impl FnMut(usize, usize, usize)) {
        let mut occ = u64::from_le_bytes(self.0[0..8].try_into().unwrap());
        let mut n = 0;
        while occ != 0 && n < 32 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = (self.0[8 + n / 2] >> (4 * (n % 2))) & 15;
            f((code >> 3) as usize, (code & 7) as usize, sq);
            n += 1;
        }
    }

    /// The position as a FEN (for reading back into a board).
    pub fn fen(&self) -> String {
        let mut grid = [None; 64];
        self.pieces(|c, k, sq| grid[sq] = Some((c, k)));
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match grid[rank * 8 + file] {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = PieceKind::from_index(k).map_or('?', PieceKind::letter);
                        fen.push(if c == 0 {
                            l.to_ascii_uppercase()
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.white_to_move() { " w " } else { " b " });
        let rights = (self.0[27] >> 1) & 15;
        let mut any = false;
        for (bit, ch) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if rights & bit != 0 {
                fen.push(ch);
                any = true;
            }
        }
        if !any {
            fen.push('-');
        }
        fen.push(' ');
        match self.0[28] {
            sq @ 0..=63 => {
                fen.push((b'a' + sq % 8) as char);
                fen.push((b'1' + sq / 8) as char);
            }
            _ => fen.push('-'),
        }
        let fullmove = u16::from_le_bytes([self.0[30], self.0[31]]);
        fen.push_str(&format!(" {} {}", self.0[29], fullmove));
        fen
    }

    /// The position (standard chess castling; a Chess960 record reads back through X-FEN).
    pub fn board(&self) -> Result<Board, String> {
        Board::from_text(&self.fen()).map_err(|e| format!("record: {e}"))
    }
}

/// Whether a data file's bytes are records rather than `datagen` text: byte 26 of every record
/// is its result (0, 1 or 2), a control character no text line holds (a text file's first 32
/// bytes are all part of its first FEN). How `texel` takes either format through one `-data`.
pub fn is_records(bytes: &[u8]) -> bool {
    bytes.len() >= RECORD_BYTES && bytes[26] <= 2
}

/// Reads every whole record of a file's bytes (a partial last record is ignored).
pub fn records(bytes: &[u8]) -> impl Iterator<Item = Record> + '_ {
    bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| Record(c.try_into().unwrap()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch::game::{GenKind, MoveList, Position};

    #[test]
    fn records_give_back_the_position_score_and_result() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/4k3/8/8/8/8/4K2R w K - 99 200",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let b = Board::from_text(fen).unwrap();
            let r = Record::new(&b, -123 * i as i32, (i % 3) as u8);
            assert_eq!(r.fen(), b.to_text(), "{fen}");
            assert_eq!(r.board().unwrap().key(), b.key());
            assert_eq!(r.score(), -123 * i as i32);
            assert_eq!(r.result(), (i % 3) as u8);
            let mut n = 0;
            r.pieces(|_, _, _| n += 1);
            assert_eq!(n, b.occupied().count_ones());
        }
        // Scores beyond i16 are clamped, not wrapped.
        let b = Board::start();
        // Record files and text files are told apart (a record's byte 26 is its result).
        for result in 0..=2 {
            assert!(is_records(&Record::new(&b, 5, result).0));
        }
        let line = format!("{} | 5 | 1.0\n", b.to_text());
        assert!(!is_records(line.as_bytes()));
        assert!(!is_records(b"8/8/8/8/8/8/8/8 w"));
        assert_eq!(Record::new(&b, 99_999, 1).score(), 32000);
        // A random game's positions all survive the round trip.
        let mut b = Board::start();
        for ply in 0..120 {
            let mut moves = MoveList::new();
            b.generate(GenKind::All, &mut moves);
            if moves.is_empty() {
                break;
            }
            assert_eq!(Record::new(&b, 0, 1).board().unwrap().key(), b.key());
            b.make(moves[(ply * 7919) % moves.len()]);
        }
    }
}
