//! go: not yet implemented.
