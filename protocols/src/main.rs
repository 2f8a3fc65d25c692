//! `tetrarch`: one binary for every GUI and protocol.
//!
//! Scheme: with no argument, the first non-empty input line picks the protocol (`uci`, `ucci`,
//! `hub`, or any GTP command), the way Fairy-Stockfish serves several protocols from one loop;
//! a subcommand names it outright. The protocol modules only parse and format: all game
//! knowledge is in the engine library. Utility subcommands: `perft`, `bench` and `spsa`.
//! Arguments that are UCI commands (OpenBench runs `./engine "genfens N seed S book B" "quit"`)
//! are fed to a UCI session as its input lines, one per argument.

mod analysis;
mod bench;
mod gtp;
mod hub;
mod io;
mod options;
mod perft;
mod spsa;
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
    Gtp(gtp::GtpArgs),
    /// Speak KataGo's JSON analysis engine protocol (Go): one query per line on stdin, one
    /// response per line on stdout.
    Analysis(analysis::AnalysisArgs),
    /// Speak Hub (international draughts).
    Hub,
    /// Count the leaf nodes of the legal move tree.
    Perft(perft::PerftArgs),
    /// Search fixed chess (or, with --game xiangqi, xiangqi) positions to a fixed depth; the
    /// last line is `<N> nodes <M> nps`.
    Bench(bench::BenchArgs),
    /// Play draughts over DXP: `--listen [PORT]` (follower) or `--connect HOST:PORT`.
    Dxp(hub::dxp::DxpArgs),
    /// Print the search parameters as OpenBench's SPSA input (`name, int, default, min, max,
    /// c_end, r_end`); a build with the `tuning` feature accepts them as UCI options (and as
    /// Hub params for draughts).
    Spsa(spsa::SpsaArgs),
}

/// UCI commands that may be given as arguments (each argument one command line). `uci` is not
/// among them: `tetrarch uci` is the subcommand that speaks UCI on stdin.
const ARGUMENT_COMMANDS: [&str; 2] = ["genfens", "setoption"];

/// The input lines when the arguments are UCI commands, else `None` (clap parses them).
fn argument_commands(args: &[String]) -> Option<String> {
    let first = args.first()?.split_whitespace().next()?;
    if !ARGUMENT_COMMANDS.contains(&first) {
        return None;
    }
    let lines: Vec<String> = if args.iter().any(|a| a.contains(' ')) {
        args.to_vec()
    } else {
        // `tetrarch genfens 8 seed 1 book None`: one command in separate words.
        vec![args.join(" ")]
    };
    Some(lines.join("\n") + "\nquit\n")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(text) = argument_commands(&args) {
        let input = Input::from_reader(std::io::Cursor::new(text.into_bytes()));
        uci::run(input, Output::stdout(), None);
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    let out = Output::stdout();
    match cli.command {
        None => auto(Input::stdin(), out),
        Some(Command::Uci) => uci::run(Input::stdin(), out, None),
        Some(Command::Ucci) => ucci::run(Input::stdin(), out, None),
        Some(Command::Gtp(args)) => gtp::run_with(Input::stdin(), out, None, &args),
        Some(Command::Analysis(args)) => analysis::run(Input::stdin(), out, &args),
        Some(Command::Hub) => hub::run(Input::stdin(), out, None),
        Some(Command::Perft(args)) => return perft::run(&args),
        Some(Command::Bench(args)) => return bench::run(&args),
        Some(Command::Spsa(args)) => return spsa::run(&args),
        Some(Command::Dxp(args)) => return hub::dxp::run(&args),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn uci_commands_as_arguments_become_input_lines() {
        assert_eq!(
            argument_commands(&words(&["genfens 4 seed 9 book None ", "quit"])).as_deref(),
            Some("genfens 4 seed 9 book None \nquit\nquit\n")
        );
        assert_eq!(
            argument_commands(&words(&["genfens", "4", "seed", "9", "book", "None"])).as_deref(),
            Some("genfens 4 seed 9 book None\nquit\n")
        );
        assert_eq!(argument_commands(&words(&["bench", "5"])), None);
        assert_eq!(argument_commands(&words(&["uci"])), None);
        assert_eq!(argument_commands(&words(&["perft", "--depth", "3"])), None);
        assert_eq!(argument_commands(&[]), None);
    }
}
