//! `tetrarch-tune`: the match runner (and, later, the tuners).
//!
//! Scheme: the first argument names the tool; `match` takes cutechess-cli-style options (see
//! `tetrarch-tune match -help`), runs the match and prints its report on stdout, with the live
//! progress line on stderr.

use std::process::ExitCode;

use tetrarch_tuning::match_runner::{cli, runner};

const USAGE: &str =
    "Usage: tetrarch-tune match [OPTIONS]   (tetrarch-tune match -help for the options)";

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
