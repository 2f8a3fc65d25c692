//! Go: the board and its rules, the knowledge the Monte-Carlo search uses, the game record
//! (undo, handicap, SGF) and the engine that plays it.
//!
//! Rules (Chinese, stated here as the engine plays them): boards 2x2 to 25x25, suicide illegal, positional
//! superko over the whole game (the side to move is not part of a position), area scoring with
//! komi 7.5 by default. Scheme of each part in its own module:
//! - [`board`]: stones, groups and pseudo-liberties, captures, superko, area scoring, vertices;
//! - `patterns`: 3x3 shape table; `tactics`: ladder reading; `playout`: playout policy, tree
//!   priors, `MctsState`;
//! - [`playout_features`]: the cheap features of the softmax playout policy (gammas fitted
//!   by `tetrarch-tune go-patterns -model playout` into `playout_gammas`), and `softmax`:
//!   that policy's weights, kept up to date move by move;
//! - [`record`]: the game record (undo, handicap, SGF via [`sgf`]);
//! - [`move_features`]: features of a move for the learned priors (Bradley-Terry, fitted by
//!   `tetrarch-tune go-patterns` into `learned_priors` for 9x9 and `learned_priors_19x19`
//!   for the big boards);
//! - [`knobs`]: run-time weights of the policy and priors, for tuning; [`positions`]: fixed
//!   positions for benchmarks;
//! - [`dynkomi`]: dynamic komi, the komi the move search plays for in handicap games;
//! - [`engine`]: the player: search, clocks, pass and resign, dead stones, final score;
//! - [`bot`]: the engine with a search thread of its own (moves, analysis, pondering in the
//!   background), which is what a protocol talks to.

pub mod board;
pub mod bot;
pub mod dynkomi;
pub mod engine;
pub mod knobs;
mod learned_priors;
mod learned_priors_19x19;
pub mod move_features;
mod patterns;
mod playout;
pub mod playout_features;
mod playout_gammas;
pub mod positions;
pub mod record;
mod replies;
pub mod sgf;
mod softmax;
pub mod strength;
mod tactics;

pub use board::{Board, Illegal, Move, DEFAULT_KOMI, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
pub use bot::{Ended, GoBot, OnAnalysis, OnMove, OnProgress, SearchFailed};
pub use engine::{
    AnalysisRequest, Decision, GoEngine, MoveRequest, PlayerClock, SearchSummary, Settings, Status,
    TimeControl,
};
pub use record::{HandicapError, Record};

#[cfg(test)]
mod tests;
