//! Xiangqi (Chinese chess): board, move generation, rule results and notation.
//!
//! Scheme: [`Board`] implements the search's [`Position`](crate::game::Position) and the
//! protocols' [`Notation`](crate::game::Notation). Pieces live on a 16 x 16 padded mailbox
//! with a fixed id per piece (`geometry`, `piece`); generation is pseudo-legal with a
//! per-position check summary that lets almost every move skip the legality test (`movegen`,
//! `board`); keys are incremental Zobrist (`zobrist`). Rule results follow the Chinese and
//! Asian rules the project plays by: no legal move loses, perpetual check loses, a subset of
//! perpetual chase is judged, plain repetition draws, and 60 moves without capture draw
//! (`rules`, `chase`). Text: FEN as Fairy-Stockfish, Pikafish and UCCI write it (`fen`);
//! coordinates in UCCI's ranks 0-9 or Fairy-Stockfish's 1-10, and Chinese and WXF notation
//! (`notation`). Static exchange evaluation copes with cannon screens (`see`).

pub mod bench;
mod board;
mod chase;
pub mod eval;
mod fen;
mod geometry;
mod movegen;
mod moves;
mod notation;
mod piece;
mod position;
mod rules;
mod see;
pub mod strength;
mod tuned;
pub mod weights;
mod zobrist;

pub use board::{Board, MoveStyle, Undo, DEFAULT_MOVE_LIMIT};
pub use eval::XiangqiEval;
pub use fen::START_FEN;
pub use geometry::Square;
pub use moves::Move;
pub use piece::Kind;
