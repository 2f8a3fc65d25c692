//! chess: not yet implemented.
