//! The positions of `tetrarch bench --game draughts`, whose total node count at [`DEPTH`] is
//! the draughts signature.
//!
//! Scheme: the start, a middlegame and king endings from the project's perft tests, and
//! positions from the engine's own self-play games, from the opening to the king endgame.
//! Changing a position changes the signature.

/// The depth each position is searched to.
pub const DEPTH: u32 = 14;

/// The positions, as Hub/PDN position text.
pub const POSITIONS: &[&str] = &[
    "W:W31-50:B1-20",
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    "W:WK2,K19,K28,K37,K46,31,33,35:BK5,K14,K23,K41,K50,16,18,20",
    "B:W28,31,33,35,37,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,14,15,16,17,19,21,23,24",
    "W:W24,30,31,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,13,14,15,16,21,22,28",
    "B:W16,27,29,32,33,34,37,40,42,43,44,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,15,17,18,19,23,35",
    "W:W30,31,33,35,37,39,40,41,43,46,47,48,49,50:B1,2,3,4,5,7,10,11,14,18,19,21,23,24",
    "B:W16,21,26,28,34,38,41,43,45,47,48,49,50:B1,2,4,7,8,9,11,13,14,19,24",
    "B:W27,28,32,33,34,35,39,48,49,50:B1,3,4,10,11,12,17,18,19,24",
    "B:W17,22,31,32,33,34,36,37,39:B7,8,16,19,23,24,25,26,35",
    "W:W17,25,28,39,40,47:B6,8,10,19,21,29,36",
    "W:W29,33,34,36,42:B1,3,13,18,26,28,35",
    "W:W23,26,29,33:B9,11,13,15,22,32,K47",
    "B:W16,18,27:B7,8,40,K44",
    "W:WK1,15,20,45:BK37",
    "B:WK19,28:BK20,25",
];
