//! Chess (and Chess960): the rules behind `crate::game`'s `Position` and `Notation`.
//!
//! Scheme: bitboards with magic-bitboard slider attacks (`attacks`), a board with mailbox,
//! incremental Zobrist keys and a key history (`board`, `zobrist`), a legal move generator
//! (`movegen`), make/unmake with an undo record (`makemove`), FEN with X-FEN and Shredder-FEN
//! (`fen`), UCI move text in both castling forms (`notation`), static exchange evaluation
//! (`see`), rule results (`rules`), legality of moves from elsewhere (`validate`), the trait
//! glue (`position`), a counting perft (`perft`), and the evaluation (`eval`, with its weights
//! table in `weights`). One file per concept; each starts with its own scheme.

pub mod attacks;
pub mod bench;
pub mod bitboard;
mod board;
pub mod eval;
mod fen;
mod makemove;
mod movegen;
pub mod nnue;
mod notation;
mod perft;
mod position;
mod rules;
pub mod san;
mod see;
pub mod strength;
mod tuned;
pub mod types;
mod validate;
pub mod weights;
mod zobrist;

pub use board::{
    Board, Undo, BLACK_KINGSIDE, BLACK_QUEENSIDE, PHASE_WEIGHTS, PIECE_VALUES, WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
};
pub use fen::START_FEN;
pub use makemove::CheckInfo;
pub use notation::move_text;
pub use types::{Color, Move, PieceKind, Square};
