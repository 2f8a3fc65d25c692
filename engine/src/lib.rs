//! Tetrarch's engine library: the rules of chess, xiangqi, international draughts and Go, one
//! alpha-beta search generic over the rules, and a Monte-Carlo tree search for Go.
//!
//! Scheme: [`game`] is the seam. Each game under [`games`] implements its traits; [`search`]
//! (alpha-beta) and [`mcts`] consume them and never name a game. The library does no I/O: it
//! never reads stdin or prints; protocols live in the `tetrarch` binary and receive search
//! events through [`report`].

pub mod game;
pub mod games;
pub mod hash;
pub mod limits;
pub mod linear;
pub mod mcts;
pub mod nnue;
pub mod perft;
pub mod report;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod strength;
#[cfg(test)]
pub(crate) mod testutil;
pub mod threads;
pub mod time;
pub mod tt;
