//! Alpha-beta search generic over `game::Position`, shared by chess, xiangqi and draughts.
//!
//! Scheme: [`Engine`] is the facade a protocol drives (position, `go`, `stop`, `ponderhit`,
//! options); it builds a [`job::Job`] per search and runs it on the persistent thread pool of
//! `crate::threads`, one [`worker::Worker`] per thread sharing `crate::tt`'s table (Lazy SMP).
//! The worker holds the search proper; [`picker`] orders moves, [`history`] keeps what ordering
//! learns, [`control`] decides when to stop, [`skill`] weakens play on request, and every
//! tunable number lives in [`params`]. The search is monomorphised per game and names none:
//! rule results come only through `Position::rule_outcome` and `Position::no_move_outcome`.

pub mod control;
pub mod engine;
pub mod history;
pub mod job;
pub mod params;
pub mod picker;
pub mod skill;
pub mod worker;

#[cfg(test)]
mod testgame;
#[cfg(test)]
mod tests;

pub use engine::{legal_moves, Engine, Found, Options};
pub use params::Params;
pub use skill::Skill;
