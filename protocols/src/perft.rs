//! `tetrarch perft`: leaf counts of the legal move tree, per game, in Stockfish's output form.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tetrarch::game::Notation;

#[derive(Args)]
pub struct PerftArgs {
    /// chess, xiangqi or draughts.
    #[arg(long, default_value = "chess")]
    game: String,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// The position (the game's FEN); the initial position when absent.
    #[arg(long)]
    fen: Option<String>,
    /// One `<move>: <count>` line per root move before the total.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: &PerftArgs) -> ExitCode {
    match args.game.as_str() {
        "xiangqi" => count::<tetrarch::games::xiangqi::Board>(args),
        other => {
            eprintln!("tetrarch perft: unknown game '{other}' (try chess, xiangqi or draughts)");
            ExitCode::FAILURE
        }
    }
}

/// Runs perft on one game's position type and prints the result.
#[allow(dead_code)] // each game's arm in `run` calls it
fn count<P: Notation>(args: &PerftArgs) -> ExitCode {
    let mut pos = match args.fen.as_deref() {
        None => P::start(),
        Some(text) => match P::from_text(text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("tetrarch perft: bad position: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let start = Instant::now();
    let total = if args.divide {
        let split = tetrarch::perft::divide(&mut pos, args.depth.max(1));
        for (mv, n) in &split {
            println!("{mv}: {n}");
        }
        println!();
        split.iter().map(|(_, n)| n).sum()
    } else {
        tetrarch::perft::perft(&mut pos, args.depth)
    };
    let ms = start.elapsed().as_millis().max(1);
    eprintln!("time {ms} ms, {} nodes/s", total as u128 * 1000 / ms);
    println!("Nodes searched: {total}");
    ExitCode::SUCCESS
}
