//! The match runner.
