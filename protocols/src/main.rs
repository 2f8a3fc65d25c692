//! `tetrarch`: one binary for every GUI and protocol.
//!
//! Scheme: with no argument, the first non-empty input line picks the protocol (`uci`, `ucci`,
//! `hub`, or any GTP command), the way Fairy-Stockfish serves several protocols from one loop;
//! a subcommand names it outright. The protocol modules only parse and format: all game
//! knowledge is in the engine library. Utility subcommands: `perft` and `bench`.

mod bench;
mod gtp;
mod hub;
mod io;
mod perft;
mod ucci;
mod uci;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::io::{Input, Output};

#[derive(Parser)]
#[command(
    name = "tetrarch",
    version,
    about = "Chess (UCI), xiangqi (UCCI and UCI), Go (GTP) and international draughts (Hub, DXP)",
    long_about = "Chess (UCI), xiangqi (UCCI and UCI), Go (GTP) and international draughts \
                  (Hub, DXP). With no subcommand, the first command read from stdin picks the \
                  protocol."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI (chess; xiangqi with UCI_Variant=xiangqi).
    Uci,
    /// Speak UCCI (xiangqi).
    Ucci,
    /// Speak GTP v2 (Go).
    Gtp,
    /// Speak Hub (international draughts).
    Hub,
    /// Count the leaf nodes of the legal move tree.
    Perft(perft::PerftArgs),
    /// Search fixed chess (or, with --game xiangqi, xiangqi) positions to a fixed depth; the
    /// last line is `<N> nodes <M> nps`.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = Output::stdout();
    match cli.command {
        None => auto(Input::stdin(), out),
        Some(Command::Uci) => uci::run(Input::stdin(), out, None),
        Some(Command::Ucci) => ucci::run(Input::stdin(), out, None),
        Some(Command::Gtp) => gtp::run(Input::stdin(), out, None),
        Some(Command::Hub) => hub::run(Input::stdin(), out, None),
        Some(Command::Perft(args)) => return perft::run(&args),
        Some(Command::Bench(args)) => return bench::run(&args),
    }
    ExitCode::SUCCESS
}

/// Reads until a line names a protocol, then hands the session to it, first line included.
fn auto(input: Input, out: Output) {
    while let Some(line) = input.recv() {
        let Some(word) = line.split_whitespace().next() else {
            continue;
        };
        match word {
            "uci" => return uci::run(input, out, Some(line)),
            "ucci" => return ucci::run(input, out, Some(line)),
            "hub" => return hub::run(input, out, Some(line)),
            "quit" => return,
            _ if gtp::starts_session(&line) => return gtp::run(input, out, Some(line)),
            _ => eprintln!(
                "tetrarch: '{word}' names no protocol; start with uci, ucci, hub or a GTP command"
            ),
        }
    }
}
