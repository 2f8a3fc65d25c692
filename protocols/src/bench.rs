//! `tetrarch bench [--game chess|xiangqi|draughts] [depth]`: a fixed-depth search of fixed
//! positions, whose total node count is the engine's signature (OpenBench reads the last line,
//! `<N> nodes <M> nps`). Chess is the default and its count is the one OpenBench knows; every
//! game's positions and default depth are its descriptor's (`Game::BENCH_POSITIONS`,
//! `Game::BENCH_DEPTH`: chess 13, xiangqi 12, draughts 14), searched with its own search
//! parameters. Chess searches with the evaluation a UCI session plays by default: the
//! embedded network (`--hce`: the hand-written evaluation, `--eval-file`: another network).
//!
//! Scheme: one thread, a 16 MB table, and a new game (table and histories cleared) before each
//! position, so the count depends on nothing but the code: the same on every run and machine.
//! `--threads N` (and `--hash MB`) measure time to depth instead, as Stockfish's `bench 16 2 13`
//! does: each position's time is printed, and with more than one thread the node count varies
//! from run to run (the helpers race for the table).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use tetrarch::game::{Evaluator, Notation, Position};
use tetrarch::games::{Game, GameKind, WithGame};
use tetrarch::limits::Limits;
use tetrarch::nnue::Network;
use tetrarch::search::{Engine, Options};

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth per position (chess 13, xiangqi 12, draughts 14 by default).
    depth: Option<u32>,
    /// chess, xiangqi or draughts (each with its own positions).
    #[arg(long, default_value = "chess")]
    game: String,
    /// Search threads; more than one makes the node count vary between runs.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Chess only: evaluate with the hand-written evaluation instead of the embedded network
    /// (another node count: the search follows another evaluation).
    #[arg(long, conflicts_with = "eval_file")]
    hce: bool,
    /// Chess only: evaluate with this network file instead of the embedded one.
    #[arg(long, value_name = "FILE")]
    eval_file: Option<String>,
}

/// The bench of one game: its positions searched to `depth` (the game's own depth when
/// `None`) with `threads` threads and a `hash_mb` table. Runs to the depth searched, the
/// positions' count, and the total nodes and elapsed milliseconds.
pub struct Bench {
    pub depth: Option<u32>,
    pub threads: usize,
    pub hash_mb: usize,
    /// Each position's count and time to stderr.
    pub verbose: bool,
}

/// What a bench run found: the depth searched, the number of positions, and the total nodes
/// and elapsed milliseconds (or the position that would not parse).
pub struct Summary {
    pub depth: u32,
    pub positions: usize,
    pub result: Result<(u64, u128), String>,
}

impl WithGame for Bench {
    type Output = Summary;
    fn run<G: Game>(self) -> Summary {
        let depth = self.depth.unwrap_or(G::BENCH_DEPTH).clamp(1, 64);
        Summary {
            depth,
            positions: G::BENCH_POSITIONS.len(),
            result: bench_positions::<G>(depth, self.threads, self.hash_mb, self.verbose),
        }
    }
}

fn bench_positions<G: Game>(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    verbose: bool,
) -> Result<(u64, u128), String> {
    let opts = Options {
        threads,
        hash_mb,
        params: G::search_params(),
        ..Options::default()
    };
    search_all(G::BENCH_POSITIONS, G::Eval::default(), opts, depth, verbose)
}

/// Searches `positions` to `depth` with `eval`, a new game before each: total nodes and ms.
fn search_all<P: Position + Notation, E: Evaluator<P>>(
    positions: &[&str],
    eval: E,
    opts: Options,
    depth: u32,
    verbose: bool,
) -> Result<(u64, u128), String> {
    let mut engine = Engine::with_options(P::start(), eval, opts);
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

/// The network a chess bench searches with: `--eval-file`'s, else the embedded one; `None`
/// under `--hce`, for another game, or when the build embeds none.
fn bench_network(args: &BenchArgs) -> Result<Option<Arc<Network>>, String> {
    use tetrarch::games::chess::nnue::{embedded_network, load_network};
    let chess = GameKind::parse(&args.game).ok() == Some(GameKind::Chess);
    if !chess && (args.hce || args.eval_file.is_some()) {
        return Err("--hce and --eval-file are for chess".into());
    }
    match &args.eval_file {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let net = load_network(&bytes).map_err(|e| format!("{path}: {e}"))?;
            Ok(Some(Arc::new(net)))
        }
        None if chess && !args.hce => Ok(embedded_network()),
        None => Ok(None),
    }
}

/// The chess bench with the network `net`.
fn chess_network_bench(args: &BenchArgs, net: Arc<Network>) -> Summary {
    use tetrarch::games::chess::nnue::ChessEvaluator;
    type C = tetrarch::games::Chess;
    let depth = args.depth.unwrap_or(C::BENCH_DEPTH).clamp(1, 64);
    let opts = Options {
        threads: args.threads.into(),
        hash_mb: args.hash as usize,
        params: C::search_params(),
        ..Options::default()
    };
    Summary {
        depth,
        positions: C::BENCH_POSITIONS.len(),
        result: search_all(
            C::BENCH_POSITIONS,
            ChessEvaluator::network(net),
            opts,
            depth,
            true,
        ),
    }
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let bench = Bench {
        depth: args.depth,
        threads: args.threads.into(),
        hash_mb: args.hash as usize,
        verbose: true,
    };
    let summary = match bench_network(args) {
        Ok(Some(net)) => Some(chess_network_bench(args, net)),
        Ok(None) => GameKind::parse(&args.game)
            .ok()
            .and_then(|kind| kind.with_game(bench)),
        Err(e) => {
            eprintln!("tetrarch bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(summary) = summary else {
        let other = &args.game;
        eprintln!("tetrarch bench: unknown game '{other}' (try chess, xiangqi or draughts)");
        return ExitCode::FAILURE;
    };
    let Summary {
        depth,
        positions,
        result,
    } = summary;
    match result {
        Ok((nodes, ms)) => {
            let nps = nodes as u128 * 1000 / ms.max(1);
            eprintln!("depth {depth}, {positions} positions, {ms} ms");
            println!("{nodes} nodes {nps} nps");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tetrarch bench: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(kind: GameKind, depth: u32) -> u64 {
        let bench = Bench {
            depth: Some(depth),
            threads: 1,
            hash_mb: 16,
            verbose: false,
        };
        let summary = kind.with_game(bench).unwrap();
        assert_eq!(summary.depth, depth);
        summary.result.unwrap().0
    }

    #[test]
    fn every_game_s_positions_parse_and_the_count_is_repeatable() {
        for kind in [GameKind::Chess, GameKind::Xiangqi, GameKind::Draughts] {
            let a = nodes(kind, 4);
            assert!(a > 1000, "{kind:?}: {a}");
            assert_eq!(a, nodes(kind, 4), "{kind:?}");
        }
        assert!(GameKind::Go
            .with_game(Bench {
                depth: None,
                threads: 1,
                hash_mb: 1,
                verbose: false
            })
            .is_none());
    }

    #[test]
    fn the_network_bench_is_chess_s_default_repeatable_and_chess_only() {
        let args = |game: &str, hce: bool| BenchArgs {
            depth: Some(4),
            game: game.into(),
            threads: 1,
            hash: 16,
            hce,
            eval_file: None,
        };
        let net = bench_network(&args("chess", false)).unwrap();
        let net = net.expect("chess benches the embedded network by default");
        let count = || chess_network_bench(&args("chess", false), net.clone()).result;
        let a = count().unwrap().0;
        assert!(a > 1000, "{a}");
        assert_eq!(count().unwrap().0, a);
        assert_ne!(
            a,
            nodes(GameKind::Chess, 4),
            "the network searches another tree"
        );
        assert!(bench_network(&args("chess", true)).unwrap().is_none());
        assert!(bench_network(&args("xiangqi", false)).unwrap().is_none());
        assert!(bench_network(&args("xiangqi", true)).is_err());
    }
}
