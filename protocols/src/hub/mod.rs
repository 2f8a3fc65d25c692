//! The hub front end: not yet implemented.

use crate::io::{Input, Output};

/// Runs a hub session until `quit` or end of input. `first` is a line already read.
pub fn run(input: Input, _out: Output, first: Option<String>) {
    eprintln!("tetrarch: the hub protocol is not implemented yet");
    drop((input, first));
}
