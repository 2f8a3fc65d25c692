//! `tetrarch perft`: leaf counts of the legal move tree, per game, in Stockfish's output form.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tetrarch::game::Notation;
use tetrarch::games::chess::Board as Chess;
use tetrarch::games::{Game, GameKind, WithGame};

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
    /// Draughts only: count every capture path separately (dctl's 'keep duplicates'), instead
    /// of distinct moves (same start, end and captured set counted once).
    #[arg(long)]
    paths: bool,
    /// Chess: write castling moves as king takes rook (`e1h1`). Chess960 FENs (Shredder
    /// letters, or king and rooks off the standard squares) turn it on by themselves.
    #[arg(long)]
    chess960: bool,
}

pub fn run(args: &PerftArgs) -> ExitCode {
    let Ok(kind) = GameKind::parse(&args.game) else {
        return unknown(args);
    };
    if args.paths && kind != GameKind::Draughts {
        eprintln!("tetrarch perft: --paths applies to draughts only");
        return ExitCode::FAILURE;
    }
    // The two flags that change what one game counts or prints; every other game (and these
    // games without them) goes through its descriptor's perft.
    match kind {
        GameKind::Chess if args.chess960 => chess960(args),
        GameKind::Draughts if args.paths => draughts_paths(args),
        _ => kind.with_game(Count(args)).unwrap_or_else(|| unknown(args)),
    }
}

fn unknown(args: &PerftArgs) -> ExitCode {
    let other = &args.game;
    eprintln!("tetrarch perft: unknown game '{other}' (try chess, xiangqi or draughts)");
    ExitCode::FAILURE
}

/// Runs a game's descriptor perft (`Game::perft`, `Game::divide`) and prints the result.
struct Count<'a>(&'a PerftArgs);

impl WithGame for Count<'_> {
    type Output = ExitCode;
    fn run<G: Game>(self) -> ExitCode {
        let Some(mut pos) = load::<G::Position>(self.0) else {
            return ExitCode::FAILURE;
        };
        report(self.0, &mut pos, G::perft, G::divide)
    }
}

/// Chess with castling written as king takes rook (`--chess960`), through the chess perft.
fn chess960(args: &PerftArgs) -> ExitCode {
    let Some(mut pos) = load::<Chess>(args) else {
        return ExitCode::FAILURE;
    };
    pos.set_chess960(true);
    report(args, &mut pos, |p, d| p.perft(d), |p, d| p.divide(d))
}

/// The position named by `--fen`, or the initial one; `None` (after a message) if malformed.
fn load<P: Notation>(args: &PerftArgs) -> Option<P> {
    match args.fen.as_deref() {
        None => Some(P::start()),
        Some(text) => match P::from_text(text) {
            Ok(pos) => Some(pos),
            Err(e) => {
                eprintln!("tetrarch perft: bad position: {e}");
                None
            }
        },
    }
}

/// Counts with the given perft and divide functions and prints in Stockfish's form.
fn report<P>(
    args: &PerftArgs,
    pos: &mut P,
    perft: impl Fn(&mut P, u32) -> u64,
    divide: impl Fn(&mut P, u32) -> Vec<(String, u64)>,
) -> ExitCode {
    // Write errors (a closed pipe, as with `| head`) end the output quietly instead of panicking.
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let total = if args.divide {
        let split = divide(pos, args.depth.max(1));
        for (mv, n) in &split {
            let _ = writeln!(out, "{mv}: {n}");
        }
        let _ = writeln!(out);
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(pos, args.depth)
    };
    let ms = start.elapsed().as_millis().max(1);
    eprintln!("time {ms} ms, {} nodes/s", total as u128 * 1000 / ms);
    let _ = writeln!(out, "Nodes searched: {total}");
    ExitCode::SUCCESS
}

/// Draughts counting every capture path (`--paths`, dctl's convention), by its own bulk
/// perft; the distinct-capture count goes through the descriptor (`Game::perft`).
fn draughts_paths(args: &PerftArgs) -> ExitCode {
    use tetrarch::games::draughts::{divide_paths, perft_paths};
    let Some(mut pos) = load::<tetrarch::games::draughts::Board>(args) else {
        return ExitCode::FAILURE;
    };
    report(args, &mut pos, perft_paths, |p, d| {
        divide_paths(p, d)
            .into_iter()
            .map(|(mv, _, n)| (mv, n))
            .collect()
    })
}
