//! 3x3 shape knowledge: the classic Monte-Carlo Go patterns (hane, cut, edge shapes; after
//! Gelly, Wang, Munos and Teytaud, "Modification of UCT with patterns in Monte-Carlo Go",
//! 2006), written here in our own notation and expanded into a lookup table.
//!
//! Scheme: the 3x3 neighbourhood of a point is 16 bits (see [`Board::pattern3`]); a table of
//! 65,536 bytes holds, per neighbourhood, whether the centre is a good move for Black (bit 0)
//! and for White (bit 1). Each pattern is given once with `X` the player to move and is
//! expanded to its 8 rotations and reflections and to both colours. One table read per
//! candidate point: cheap enough for every playout move.
//!
//! [`Board::pattern3`]: super::Board::pattern3

use once_cell::sync::Lazy;

use super::board::{BLACK, BORDER, EMPTY, WHITE};
use crate::game::Side;

/// The patterns, rows from top to bottom, the move at the centre. `X` the player to move,
/// `O` the opponent, `.` empty, `x` not `X` (empty or `O`), `o` not `O` (empty or `X`),
/// `#` off the board, `?` anything.
const PATTERNS: &[[&str; 3]] = &[
    // Hane: playing diagonally around the head of an opponent stone.
    ["XOX", "...", "???"], // enclosing hane
    ["XO.", "...", "?.?"], // hane that leaves no cut
    ["XO?", "X..", "x.?"], // magari (turning around)
    ["XOO", "...", "?.?"], // hane at the head of two stones
    [".O.", "X..", "..."], // diagonal attachment next to one's own stone
    // Cuts.
    ["XO?", "O.o", "?o?"], // cutting an unprotected diagonal
    ["XO?", "O.X", "???"], // cutting after a peep
    ["?X?", "O.O", "ooo"], // pushing through between two stones
    // Edge shapes (the bottom row is off the board).
    ["X.?", "O.?", "###"], // chasing along the edge
    ["OX?", "X.O", "###"], // blocking a cut on the edge
    ["?X?", "x.O", "###"], // blocking a connection along the edge
    ["?XO", "x.x", "###"], // descending to the edge
    ["?OX", "X.O", "###"], // cutting on the edge
];

/// Bit per colour to move: set when the centre matches a pattern.
static TABLE: Lazy<Box<[u8; 65536]>> = Lazy::new(build);

/// Whether the neighbourhood `key` makes its centre a pattern move for `side`.
#[inline]
pub fn matches(key: u16, side: Side) -> bool {
    TABLE[key as usize] & (1 << side.index()) != 0
}

/// Offsets of the 8 neighbours in `pattern3` bit order: N, NE, E, SE, S, SW, W, NW, as (dx, dy)
/// with y growing upward.
pub(super) const ORDER: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// A rotation or reflection of the square, as a map of (dx, dy).
type Transform = fn(i32, i32) -> (i32, i32);

/// The 8 symmetries of the square.
pub(super) const TRANSFORMS: [Transform; 8] = [
    |x, y| (x, y),
    |x, y| (-y, x),
    |x, y| (-x, -y),
    |x, y| (y, -x),
    |x, y| (-x, y),
    |x, y| (y, x),
    |x, y| (x, -y),
    |x, y| (-y, -x),
];

fn build() -> Box<[u8; 65536]> {
    let mut table = Box::new([0u8; 65536]);
    for pat in PATTERNS {
        for t in TRANSFORMS {
            for (bit, me, them) in [(1u8, BLACK, WHITE), (2u8, WHITE, BLACK)] {
                // Allowed values of each neighbour slot in `pattern3` order.
                let mut allowed = [[false; 4]; 8];
                for (row, text) in pat.iter().enumerate() {
                    for (col, ch) in text.bytes().enumerate() {
                        let (dx, dy) = (col as i32 - 1, 1 - row as i32);
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let (tx, ty) = t(dx, dy);
                        let slot = ORDER.iter().position(|&o| o == (tx, ty)).unwrap();
                        let ok = &mut allowed[slot];
                        match ch {
                            b'X' => ok[me as usize] = true,
                            b'O' => ok[them as usize] = true,
                            b'.' => ok[EMPTY as usize] = true,
                            b'x' => {
                                ok[EMPTY as usize] = true;
                                ok[them as usize] = true;
                            }
                            b'o' => {
                                ok[EMPTY as usize] = true;
                                ok[me as usize] = true;
                            }
                            b'#' => ok[BORDER as usize] = true,
                            _ => *ok = [true; 4],
                        }
                    }
                }
                fill(&mut table, &allowed, 0, 0, bit);
            }
        }
    }
    table
}

fn fill(table: &mut [u8; 65536], allowed: &[[bool; 4]; 8], slot: usize, key: u16, bit: u8) {
    if slot == 8 {
        table[key as usize] |= bit;
        return;
    }
    for v in 0..4u16 {
        if allowed[slot][v as usize] {
            fill(table, allowed, slot + 1, key | v << (2 * slot), bit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{Board, Move};
    use super::*;

    fn board_with(stones: &[(&str, Side)], size: usize) -> Board {
        let mut b = Board::new(size);
        for &(v, side) in stones {
            let p = b.parse_vertex(v).unwrap().point().unwrap();
            b.setup_stone(p, side).unwrap();
        }
        b
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        // Black to move: white D5 with black C5 and E5 on either side; D4 encloses it.
        for (a, o, c, mv) in [
            ("C5", "D5", "E5", "D4"),
            ("C3", "D3", "E3", "D4"),
            ("E3", "E4", "E5", "D4"),
            ("C3", "C4", "C5", "D4"),
        ] {
            let b = board_with(&[(a, Side::First), (o, Side::Second), (c, Side::First)], 9);
            let p = b.parse_vertex(mv).unwrap().point().unwrap();
            assert!(matches(b.pattern3(p), Side::First), "{a} {o} {c} {mv}");
            // With the colours swapped it is White's pattern.
            let b = board_with(&[(a, Side::Second), (o, Side::First), (c, Side::Second)], 9);
            assert!(matches(b.pattern3(p), Side::Second), "{a} {o} {c} {mv}");
        }
    }

    #[test]
    fn empty_area_matches_nothing() {
        let b = Board::new(9);
        let p = b.parse_vertex("E5").unwrap().point().unwrap();
        assert!(!matches(b.pattern3(p), Side::First));
        assert!(!matches(b.pattern3(p), Side::Second));
        assert_eq!(b.last_move(), Move::PASS);
    }

    #[test]
    fn edge_block_matches_only_on_the_edge() {
        // "?X? / x.O / ###": black D2, white E1; D1 blocks the connection along the edge.
        let b = board_with(&[("D2", Side::First), ("E1", Side::Second)], 9);
        let p = b.parse_vertex("D1").unwrap().point().unwrap();
        assert!(matches(b.pattern3(p), Side::First));
        // A lone friendly stone next to the point is no pattern (every pattern has an
        // opponent stone).
        let b = board_with(&[("D5", Side::First)], 9);
        let p = b.parse_vertex("D4").unwrap().point().unwrap();
        assert!(!matches(b.pattern3(p), Side::First));
        assert!(!matches(b.pattern3(p), Side::Second));
    }
}
