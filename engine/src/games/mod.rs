//! The four games. Each module holds one game's board, move generation, make/unmake, hashing,
//! notation, evaluation and rule results (behind `Position::rule_outcome`), and nothing else.

pub mod chess;
pub mod draughts;
pub mod go;
pub mod xiangqi;
