//! The match runner: engine-vs-engine games for all four games over UCI, UCCI, GTP, Hub and
//! DXP, refereed with the engine crate's own rules.
//!
//! Scheme: [`cli`] turns cutechess-style arguments into a [`config::MatchConfig`];
//! [`tournament`] schedules the games (gauntlet or round robin, paired openings); worker
//! threads play them with [`game::play_game`], each holding its own engine processes
//! ([`drivers`]) and a [`rules::Rules`] referee per game; results flow back to the main thread,
//! which keeps the statistics, prints progress and stops an SPRT when a bound is crossed;
//! [`journal`] lets a stopped match resume.

pub mod cli;
pub mod dialect;
pub mod drivers;
pub mod game;
pub mod go_rules;
pub mod journal;
pub mod openings;
pub mod process;
pub mod records;
pub mod rules;
pub mod runner;
pub mod tc;
pub mod tournament;
