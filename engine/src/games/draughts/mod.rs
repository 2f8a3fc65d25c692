//! draughts: not yet implemented.
