//! `tetrarch-tune` as a library: the match runner and its statistics, self-play data
//! generation and the tuners, so that integration tests can drive them without going through
//! the command line.
//!
//! Scheme: [`stats`] holds the arithmetic (Elo, error bars, pentanomial, SPRT, the Chinese Chess
//! Association's rating method); [`match_runner`] plays engine-vs-engine games over every protocol
//! with a referee that checks each move with the engine crate's own rules.

pub mod bitbase;
pub mod book;
pub mod calibrate;
pub mod commands;
pub mod convert;
pub mod datagen;
pub mod distill;
pub mod go_patterns;
pub mod match_runner;
pub mod nnue;
pub mod packed;
pub mod spsa;
pub mod stats;
pub mod texel;
