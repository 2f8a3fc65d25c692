//! `tetrarch bench [--game chess|xiangqi|draughts] [depth]`: a fixed-depth search of fixed
//! positions, whose total node count is the engine's signature (OpenBench reads the last line,
//! `<N> nodes <M> nps`). Chess is the default and its count is the one OpenBench knows;
//! `--game xiangqi` searches the xiangqi positions below instead (default depth 12), and
//! `--game draughts` the draughts positions of `hub::bench`.
//!
//! Scheme: one thread, a 16 MB table, and a new game (table and histories cleared) before each
//! position, so the count depends on nothing but the code: the same on every run and machine.
//! `--threads N` (and `--hash MB`) measure time to depth instead, as Stockfish's `bench 16 2 13`
//! does: each position's time is printed, and with more than one thread the node count varies
//! from run to run (the helpers race for the table).
//! The positions span openings, middlegames, sharp tactics and
//! endgames: the project's perft reference positions, middlegames reached by playing
//! common openings (written out by us and converted to FEN), and composed endgames. The
//! xiangqi set likewise: the start, positions from the xiangqi perft file, middlegames from
//! Tetrarch's own games against Fairy-Stockfish (common openings), and endgames.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tetrarch::game::{Evaluator, Notation};
use tetrarch::games::chess::eval::ChessEval;
use tetrarch::games::xiangqi::XiangqiEval;
use tetrarch::games::GameKind;
use tetrarch::limits::Limits;
use tetrarch::search::{Engine, Options};

pub const DEFAULT_DEPTH: u32 = 13;
pub const XIANGQI_DEPTH: u32 = 12;

const XIANGQI_POSITIONS: &[&str] = &[
    // The start, and perft reference positions (testdata/xiangqi_perft.epd).
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    // Middlegames from games between Tetrarch and Fairy-Stockfish (central cannon openings).
    "r1baka2r/9/2n1b2R1/p3n3p/1cp3p2/1C2P4/P1P3P1P/6N2/9/RNBAKAB2 w - - 5 9",
    "2bak4/4a4/2n1b2R1/4nr3/pcp3p1p/1CP1P4/P3N1P1P/6N2/4A4/2B1KAB2 w - - 7 19",
    "r2akab1r/9/bcn4c1/p3p3p/2p3pR1/1C7/P1P1P1P1P/4B1N2/4N4/R2AKAB2 w - - 1 9",
    "3nka3/4a4/b4c1R1/p1P1pr3/8p/6P2/P3P3P/3rB1N2/4N4/2RAKAB2 w - - 3 19",
    "r1b1kabr1/4a4/4c1n2/p1p1n1p1p/9/4C4/P1P1P1P1P/1R4N2/9/1NBAKAB1R w - - 1 9",
    "r1b1kab2/2n1a4/4R1n1r/p5p1p/2p6/1c2C2c1/P1P1P1P1P/4C4/9/RNBAKABN1 w - - 13 9",
    "2bak3C/3ra2R1/c1n1b1c2/p5p1p/9/2P6/P3PrP1P/2N6/1R7/2BAKABN1 w - - 9 19",
    "1rb1kab1r/4a4/3c2nc1/p3p3p/2pn2p2/C8/P1P1P1P1P/N3C1N2/5R3/2BAKABR1 w - - 16 9",
    "2b1kab2/4aR3/6n1c/8p/C1p1p1p2/3c5/P1P1P1P1P/N5Nr1/4A4/2BAK1B2 w - - 1 19",
    // Endgames: chariot against defenders, horse and soldier, cannon and soldiers, chariot
    // against horse and cannon, and the perft file's chariot-cannon ending.
    "3aka3/9/4b4/9/9/9/9/9/4A4/R2AK4 w - - 0 1",
    "4k4/4a4/3a5/9/2P6/9/9/4N4/9/4K4 w - - 0 1",
    "3k5/9/4ba3/9/9/2P1P4/9/4C4/4A4/3AK4 w - - 0 1",
    "3akab2/9/2n1b4/9/4c4/9/9/4B4/9/R2AKAB2 w - - 0 1",
    "5kb2/4a2c1/9/6N2/9/R8/9/1r6C/4A4/4K4 w - - 0 1",
];

const POSITIONS: &[&str] = &[
    // Perft reference positions (testdata/chess_perft.epd).
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    // Openings played out to the middlegame (Italian, Sicilian English attack, QGD, King's
    // Indian, Ruy Lopez, French Winawer, English, Caro-Kann, Slav, King's Gambit,
    // Scandinavian, King's Indian Attack, Scotch, Nimzo-Indian).
    "r1bqr1k1/bpp2pp1/p1np1n1p/4p3/4P3/1BPP1N1P/PP1N1PP1/R1BQR1K1 w - - 2 11",
    "r2q1rk1/3nbppp/p2pbn2/4p1P1/1p2P3/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 13",
    "r1b2rk1/pp1nqppp/2p5/4p3/2BP4/2R1PN2/PP3PPP/3Q1RK1 w - - 0 13",
    "r1bq1rk1/ppp1n1bp/3p1n2/2PPp1p1/4Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 14",
    "r1b2rk1/2q1bppp/2np1n2/pp2p3/3PP3/1N3N1P/PPB2PP1/R1BQR1K1 w - - 0 15",
    "r1b1k1r1/ppq1np1Q/2n1p3/3pP3/5P2/P1p5/2P1N1PP/R1B1KB1R w KQq - 0 12",
    "r2q1rk1/1pp1bppp/1n2b3/pP2p3/3n4/P1NP1NP1/4PPBP/R1BQ1RK1 w - - 1 12",
    "r3kb1r/pp1q1ppp/2n1p3/4Pb2/Q1B5/4B3/PP3PPP/RN2K2R w KQkq - 1 12",
    "r2q1rk1/pp1n1ppp/4p3/3pP2b/Pb1P4/3B1N2/1P2QPPP/R1B2RK1 w - - 0 14",
    "rnb2rk1/ppp2p1p/3b4/3PN2n/2BP1pp1/8/PPP3P1/RNB1R1K1 w - - 1 12",
    "r3k2r/ppqn1ppp/4pn2/3p1b2/2B5/P1B2N2/1PP1QPPP/2KR3R w kq - 0 13",
    "r1bq1rk1/3nbppp/2n1p3/2ppP3/pp3B1P/P2P1NP1/1PP2PB1/R2QRNK1 b - - 0 13",
    "3rk2r/ppp1nppp/1bp1bq2/8/N3P3/2PB4/PP1Q1PPP/R1B2RK1 w k - 1 12",
    "rn3rk1/p4ppp/bq2pn2/2p3B1/Q7/P3PN2/1P3PPP/R3KB1R w KQ - 1 13",
    // Endgames: rook, bishop and knight mate, pawn race, minor pieces, opposite bishops,
    // back-rank rook ending.
    "8/8/4k3/3r4/8/3KP3/8/4R3 w - - 0 1",
    "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1",
    "8/p6k/8/8/8/8/6P1/K7 w - - 0 1",
    "8/5pk1/6p1/3n3p/7P/4B1P1/5PK1/8 w - - 0 1",
    "8/4kp2/3b2p1/7p/2B4P/6P1/5PK1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth per position (chess 13, xiangqi 12, draughts 14 by default).
    depth: Option<u32>,
    /// chess, xiangqi or draughts (each with its own positions).
    #[arg(long, default_value = "chess")]
    game: String,
    /// Search threads (chess, xiangqi); more than one makes the node count vary between runs.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Transposition table size in MB (chess, xiangqi).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
}

/// Searches every chess bench position to `depth` with `threads` threads and a `hash_mb` table;
/// returns the total nodes and elapsed milliseconds.
pub fn bench(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    verbose: bool,
) -> Result<(u64, u128), String> {
    bench_positions(
        POSITIONS,
        ChessEval::default(),
        depth,
        threads,
        hash_mb,
        verbose,
    )
}

/// The same over the xiangqi positions.
pub fn bench_xiangqi(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    verbose: bool,
) -> Result<(u64, u128), String> {
    bench_positions(
        XIANGQI_POSITIONS,
        XiangqiEval::default(),
        depth,
        threads,
        hash_mb,
        verbose,
    )
}

fn bench_positions<P: Notation, E: Evaluator<P>>(
    positions: &[&str],
    evaluator: E,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    verbose: bool,
) -> Result<(u64, u128), String> {
    let mut engine = Engine::with_options(
        P::start(),
        evaluator,
        Options {
            threads,
            hash_mb,
            ..Options::default()
        },
    );
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in positions.iter().enumerate() {
        let pos = P::from_text(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.new_game();
        engine.set_position(pos, &[]);
        let searched = Instant::now();
        let nodes = engine.search(Limits::depth(depth)).nodes;
        let ms = searched.elapsed().as_millis();
        if verbose {
            eprintln!("position {:>2}: {nodes:>10} nodes {ms:>6} ms  {fen}", i + 1);
        }
        total += nodes;
    }
    Ok((total, start.elapsed().as_millis()))
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let (depth, result, count) = match GameKind::parse(&args.game) {
        Ok(GameKind::Chess) => {
            let depth = args.depth.unwrap_or(DEFAULT_DEPTH).clamp(1, 64);
            let result = bench(depth, args.threads.into(), args.hash as usize, true);
            (depth, result, POSITIONS.len())
        }
        Ok(GameKind::Xiangqi) => {
            let depth = args.depth.unwrap_or(XIANGQI_DEPTH).clamp(1, 64);
            let result = bench_xiangqi(depth, args.threads.into(), args.hash as usize, true);
            (depth, result, XIANGQI_POSITIONS.len())
        }
        Ok(GameKind::Draughts) => {
            let depth = args
                .depth
                .unwrap_or(crate::hub::bench::DEFAULT_DEPTH)
                .clamp(1, 64);
            let result = crate::hub::bench::bench(depth, true);
            (depth, result, crate::hub::bench::positions())
        }
        _ => {
            let other = &args.game;
            eprintln!("tetrarch bench: unknown game '{other}' (try chess, xiangqi or draughts)");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok((nodes, ms)) => {
            let nps = nodes as u128 * 1000 / ms.max(1);
            eprintln!("depth {depth}, {count} positions, {ms} ms");
            println!("{nodes} nodes {nps} nps");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tetrarch bench: {e}");
            ExitCode::FAILURE
        }
    }
}
