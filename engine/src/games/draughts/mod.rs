//! International draughts (10x10, FMJD rules): the board, move generation, rule results and
//! notation behind `Position` and `Notation`.
//!
//! Scheme: `squares` fixes the bitboard layout (50 squares with ghost bits in a `u64`, every
//! diagonal step one shift); `moves` the move value (start, end, captured set, promotion);
//! `board` the copy-make position with its history and rule counters; `movegen` the quiet and
//! majority-capture generators; `rules` the results by rule; `zobrist` the keys; `notation` FEN,
//! Hub and move text; `position` the trait glue; `perft` the bulk-counting perft of both conventions; `eval` the
//! evaluation over the weight table in `weights`, `patterns` its 4x4 region patterns.

pub mod bench;
pub mod bitbase;
mod board;
pub mod eval;
mod movegen;
mod moves;
mod notation;
pub mod patterns;
mod perft;
mod position;
mod rules;
pub mod squares;
pub mod strength;
mod tuned;
pub mod weights;
mod zobrist;

#[cfg(test)]
mod reference_captures;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod tests;

pub use board::{Board, State, Undo};
pub use eval::Eval;
pub use moves::Move;
pub use notation::START_FEN;
pub use perft::{divide_distinct, divide_paths, perft_distinct, perft_paths};
pub use position::{KING_VALUE, MAN_VALUE};
pub use rules::Lone;

/// The search parameters draughts plays with: the shared defaults, less the pruning that leans
/// on a chess-like static evaluation. A quiet draughts move often prepares a shot that only
/// the next captures reveal, so quiet moves are not pruned by futility, and nodes far below
/// alpha are not razored (Scan does neither). The later moves of a node whose alpha was
/// raised keep their full depth: that reduction was measured on chess and xiangqi only.
pub const SEARCH_PARAMS: crate::search::Params = {
    let mut p = crate::search::Params::DEFAULT;
    p.fp_depth = 0;
    p.razor_base = 100_000;
    p.alpha_raise_depth = 0;
    p
};
