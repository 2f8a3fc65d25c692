//! The GTP front end: not yet implemented.

use crate::io::{Input, Output};

/// Whether a first input line is a GTP command (optionally behind a numeric id).
pub fn starts_session(_line: &str) -> bool {
    false
}

/// Runs a GTP session until `quit` or end of input. `first` is a line already read.
pub fn run(input: Input, _out: Output, first: Option<String>) {
    eprintln!("tetrarch: the GTP protocol is not implemented yet");
    drop((input, first));
}
