//! xiangqi: not yet implemented.
