//! DXP (DamExchange), the engine-against-engine draughts protocol over TCP: its messages
//! ([`message`]) and its connection ([`connection`]). The sessions that play over it live
//! with their users: `tetrarch dxp` (both roles) and the match runner's DXP driver.

pub mod connection;
pub mod message;

pub use connection::{Conn, Received, RecvError, Trace};
pub use message::{end_reason, sender_verdict, Message};

/// The port DXP programs listen on by default.
pub const DEFAULT_PORT: u16 = 27531;
