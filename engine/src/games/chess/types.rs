//! Squares, colours, piece kinds and moves: the small value types the rest of the chess code uses.
//!
//! Scheme: a square is 0..64 with a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, so bit `s`
//! of a bitboard is square `s`. White is colour 0, Black 1. Piece kinds run pawn..king as 0..6.
//! A move is 16 bits: from (bits 0-5), to (6-11) and a flag (12-15). Castling is stored as
//! "king takes own rook" (from = king, to = rook), which names every Chess960 castle uniquely;
//! the text form is chosen only when the move is printed.

use std::fmt;

use crate::game::Side;

/// A square of the board, a1 = 0 ... h8 = 63.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// The square with this index; the index is reduced modulo 64, so this never panics.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        Square(index & 63)
    }

    /// The square on `file` (0 = a) and `rank` (0 = the first rank), both reduced modulo 8.
    #[inline(always)]
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square(((rank & 7) << 3) | (file & 7))
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for the a-file ... 7 for the h-file.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 for the first rank ... 7 for the eighth.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The bitboard with just this square.
    #[inline(always)]
    pub const fn bb(self) -> u64 {
        1u64 << self.0
    }

    /// The same square seen from Black's side (a1 <-> a8): for piece-square tables.
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square as `color` sees it: unchanged for White, mirrored for Black.
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        Square(self.0 ^ (56 * color as u8))
    }

    /// Reads `e4`-style text (exactly two characters).
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_file_rank(f - b'a', r - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A side in chess terms: White is the game's first side.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

impl From<Side> for Color {
    #[inline(always)]
    fn from(side: Side) -> Color {
        match side {
            Side::First => Color::White,
            Side::Second => Color::Black,
        }
    }
}

impl From<Color> for Side {
    #[inline(always)]
    fn from(color: Color) -> Side {
        match color {
            Color::White => Side::First,
            Color::Black => Side::Second,
        }
    }
}

/// A kind of piece, without colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index, or `None` outside 0..6.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 6 {
            Some(PieceKind::ALL[i])
        } else {
            None
        }
    }

    /// The FEN letter in lower case.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// Reads a FEN letter of either case.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceKind::Pawn,
            'n' => PieceKind::Knight,
            'b' => PieceKind::Bishop,
            'r' => PieceKind::Rook,
            'q' => PieceKind::Queen,
            'k' => PieceKind::King,
            _ => return None,
        })
    }
}

/// The mailbox code of a coloured piece: `kind | color << 3`. [`NO_PIECE`] marks an empty square.
pub(crate) type PieceCode = u8;
pub(crate) const NO_PIECE: PieceCode = 6;

#[inline(always)]
pub(crate) const fn piece_code(color: Color, kind: PieceKind) -> PieceCode {
    kind as u8 | (color as u8) << 3
}

#[inline(always)]
pub(crate) const fn code_kind(code: PieceCode) -> usize {
    (code & 7) as usize
}

#[inline(always)]
pub(crate) const fn code_color(code: PieceCode) -> usize {
    (code >> 3) as usize
}

/// A chess move in 16 bits. `Move::NULL` (a1a1) is never a legal move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NULL: Move = Move(0);

    pub(crate) const NORMAL: u16 = 0;
    pub(crate) const CASTLE: u16 = 1;
    pub(crate) const EN_PASSANT: u16 = 2;
    /// Flags 4..8 are promotions to knight, bishop, rook, queen.
    pub(crate) const PROMOTION: u16 = 4;

    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    /// Castling, as the king taking its own rook.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king.0 as u16 | (rook.0 as u16) << 6 | Move::CASTLE << 12)
    }

    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | Move::EN_PASSANT << 12)
    }

    /// A promotion to `kind`, which must be knight, bishop, rook or queen.
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, kind: PieceKind) -> Move {
        let k = (kind as u16).wrapping_sub(1) & 3;
        Move(from.0 as u16 | (to.0 as u16) << 6 | (Move::PROMOTION + k) << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// The target square; for castling, the castling rook's square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    #[inline(always)]
    pub(crate) const fn flag(self) -> u16 {
        self.0 >> 12
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag() == Move::CASTLE
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == Move::EN_PASSANT
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.flag() >= Move::PROMOTION
    }

    /// The piece a pawn becomes, for promotions.
    #[inline(always)]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        match self.flag() {
            4 => Some(PieceKind::Knight),
            5 => Some(PieceKind::Bishop),
            6 => Some(PieceKind::Rook),
            7 => Some(PieceKind::Queen),
            _ => None,
        }
    }

    /// The 16-bit encoding.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with this encoding. Any value decodes; whether it is playable is for
    /// `Board::is_pseudo_legal` to say.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

/// Raw coordinates, castling as king-takes-rook: for debugging. Use the board's `move_text`
/// for UCI text.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(kind) = self.promotion_kind() {
            write!(f, "{}", kind.letter())?;
        }
        match self.flag() {
            Move::CASTLE => f.write_str("(castle)"),
            Move::EN_PASSANT => f.write_str("(ep)"),
            Move::NORMAL | 4..=7 => Ok(()),
            _ => f.write_str("(bad flag)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_print() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(e4.index(), 28);
        assert_eq!(e4.to_string(), "e4");
        assert_eq!(e4.flip().to_string(), "e5");
        assert_eq!(e4.relative(Color::Black).to_string(), "e5");
        assert!(Square::parse("i1").is_none());
        assert!(Square::parse("e9").is_none());
        assert!(Square::parse("e").is_none());
        assert!(Square::parse("e44").is_none());
    }

    #[test]
    fn moves_encode_their_parts() {
        let a = Square::parse("a7").unwrap();
        let b = Square::parse("b8").unwrap();
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            let m = Move::promotion(a, b, kind);
            assert_eq!((m.from(), m.to(), m.promotion_kind()), (a, b, Some(kind)));
            assert!(m.is_promotion() && !m.is_castle() && !m.is_en_passant());
        }
        let c = Move::castle(Square::parse("e1").unwrap(), Square::parse("h1").unwrap());
        assert!(c.is_castle() && !c.is_promotion());
        assert_eq!(Move::from_bits(c.bits()), c);
    }
}
