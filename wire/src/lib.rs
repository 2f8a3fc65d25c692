//! Wire codecs shared by the engine's front ends (`tetrarch`) and the match runner
//! (`tetrarch-tune`), so that each message format is written once.
//!
//! Scheme: [`frames`] cuts a byte stream into messages (newline-ended lines, or DXP's
//! NUL-ended messages of at most 127 characters) on a reader thread of its own and hands each
//! one, with the instant it was read, to a callback; [`hub`] is the Hub protocol's
//! `command name=value ...` line syntax; [`dxp`] is the DamExchange layer-2 message set with its
//! fixed-width text form ([`dxp::message`]) and a TCP connection that frames, traces and paces
//! those messages ([`dxp::connection`]). Nothing here plays a game: sessions, engines and
//! referees stay with the protocols and the runner.

pub mod dxp;
pub mod frames;
pub mod hub;
