//! `tetrarch-tune`: the match runner, self-play data generation and the tuners.
//!
//! Scheme: the first argument names the tool; each takes cutechess-cli-style options (see
//! `tetrarch-tune <tool> -help`). `match` runs a match and prints its report on stdout, with
//! the live progress line on stderr; `datagen` writes self-play positions; `texel` fits the
//! evaluation's weights to them; `spsa` tunes search parameters by playing games;
//! `bitbase` generates the draughts endgame tables; `book` writes balanced opening positions.

use std::process::ExitCode;

use tetrarch_tuning::match_runner::{cli, runner};
use tetrarch_tuning::{
    bitbase, book, calibrate, commands, convert, distill, go_patterns, nnue, spsa,
};

const USAGE: &str =
    "Usage: tetrarch-tune <match|datagen|convert|nnue|texel|spsa|bitbase|calibrate|go-patterns|book> [OPTIONS]   \
                     (tetrarch-tune <tool> -help for the options)";

/// Runs a tool that reports errors as text: exit 2 for usage errors is not told apart here.
fn report(tool: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("tetrarch-tune {tool}: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("match") => {
            let config = match cli::parse(&args[1..]) {
                Ok(c) => c,
                Err(msg) if msg == cli::HELP => {
                    print!("{msg}");
                    return ExitCode::SUCCESS;
                }
                Err(msg) => {
                    eprintln!("tetrarch-tune match: {msg}");
                    return ExitCode::from(2);
                }
            };
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            match runner::run_match(&config, &mut out) {
                // An engine failure that ended the match early is a failure of the run.
                Ok(summary) if summary.aborted => ExitCode::FAILURE,
                Ok(_) => ExitCode::SUCCESS,
                Err(msg) => {
                    eprintln!("tetrarch-tune match: {msg}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("datagen") => report("datagen", commands::datagen(&args[1..])),
        Some("texel") => report("texel", commands::texel_cmd(&args[1..])),
        Some("convert") => report("convert", convert::main(&args[1..])),
        Some("nnue") => report("nnue", nnue::main(&args[1..])),
        Some("distill") => report("distill", distill::main(&args[1..])),
        Some("spsa") => report("spsa", spsa::main(&args[1..])),
        Some("bitbase") => report("bitbase", bitbase::main(&args[1..])),
        Some("book") => report("book", book::main(&args[1..])),
        Some("calibrate") => report("calibrate", calibrate::main(&args[1..])),
        Some("go-patterns") => report("go-patterns", go_patterns::go_patterns_cmd(&args[1..])),
        Some("-h") | Some("--help") | Some("help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
