//! `tetrarch-tune distill`: positions around the game positions of a record file, labelled
//! with an evaluation, for teaching a network what the search meets.
//!
//! Scheme: from every record's position, a few random walks of one to `-plies` legal moves
//! (captures taken half the time when there are any) each give their positions, not in check,
//! as new records whose score is the labelling evaluation (White's view: the hand-written one,
//! or a network with `-eval-file`; static, or a search of `-depth` plies with it) and whose
//! result is a draw (a trainer reads them with the result's weight at zero). With `-quiet-only` a
//! position where the side to move has a capture or promotion that wins material (by static
//! exchange) is walked through but not written: a static label there misses the material
//! about to change hands, which no static evaluation can see either. Game positions
//! are quiet and sensible; the positions a search evaluates are not, and a network that never
//! saw a king walk or a piece en prise will score them at random. The walks are a pure
//! function of the seed and the record's index. Worker threads take blocks of records and the
//! blocks are written in order; a search label comes from an engine cleared (table and
//! histories) at the start of each block, so the file is the same whatever the thread count.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crossbeam::channel;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{Evaluator, Notation, Position};
use tetrarch::games::chess::eval::ChessEval;
use tetrarch::games::chess::nnue::{white_score, ChessEvaluator};
use tetrarch::games::chess::Board;
use tetrarch::limits::Limits;
use tetrarch::search::{Engine, Options};

use crate::commands::Args;
use crate::packed::{records, Record, RECORD_BYTES};

pub const HELP: &str = "\
tetrarch-tune distill: random walks from each record's position, labelled with a static
evaluation (the hand-written one, or -eval-file's network; result: draw), as records for
`nnue -lambda 0`.

  -data FILE        record file to start from
  -out FILE         record file to write
  -walks N          walks per record (default 4)
  -plies N          longest walk (default 6)
  -seed N           (default 1)
  -depth D          label with a search of depth D instead (0: the static evaluation)
  -quiet-only       write only positions without a winning capture or promotion (by SEE)
  -eval-file FILE   label with this chess network instead of the hand-written evaluation
  -threads N        worker threads (default: every core); the output is the same for any N
  -block N          records a worker takes at a time (default 4096)
";

pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &["quiet-only"])?;
    let data = a.str("data").ok_or("-data FILE is required")?;
    let out = a.str("out").ok_or("-out FILE is required")?;
    let walks: usize = a.get("walks", 4)?;
    let plies: usize = a.get("plies", 6)?;
    let seed: u64 = a.get("seed", 1)?;
    let depth: u32 = a.get("depth", 0)?;
    let block: usize = a.get("block", 4096)?.max(1);
    let quiet = a.flag("quiet-only");
    let threads: usize = a
        .get(
            "threads",
            std::thread::available_parallelism().map_or(1, |n| n.get()),
        )?
        .max(1);
    let labeller = match a.str("eval-file") {
        None => ChessEvaluator::Hand(ChessEval::default()),
        Some(path) => {
            let (net, _) = crate::nnue::read_network_file(&path)?;
            ChessEvaluator::network(std::sync::Arc::new(net))
        }
    };
    a.finish()?;
    let bytes = std::fs::read(&data).map_err(|e| format!("cannot read {data}: {e}"))?;
    let file = std::fs::File::create(&out).map_err(|e| format!("cannot write {out}: {e}"))?;
    let mut w = std::io::BufWriter::new(file);
    let total = bytes.len() / RECORD_BYTES;
    let blocks = total.div_ceil(block);
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::unbounded::<(usize, Result<Vec<u8>, String>)>();
    let started = Instant::now();
    let mut written = 0usize;
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let (tx, next, bytes, labeller) = (tx.clone(), &next, &bytes, labeller.clone());
            scope.spawn(move || {
                let mut labels = Labeller::new(labeller, depth, seed, quiet);
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= blocks {
                        break;
                    }
                    let first = b * block;
                    let chunk =
                        &bytes[first * RECORD_BYTES..((b + 1) * block).min(total) * RECORD_BYTES];
                    let mut out = Vec::new();
                    labels.new_block();
                    let done = records(chunk)
                        .enumerate()
                        .try_for_each(|(k, r)| labels.walk(first + k, &r, walks, plies, &mut out));
                    // A failed block stops the run: the workers still running see the
                    // receiver gone and end at their next block.
                    if tx.send((b, done.map(|()| out))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Owned here, so that an early return drops it and the workers stop at their next send.
        let rx = rx;
        // Write the blocks strictly in order, so the file is the same for any thread count.
        let mut pending = BTreeMap::new();
        let mut next_block = 0;
        for (b, labelled) in rx.iter() {
            pending.insert(b, labelled?);
            while let Some(labelled) = pending.remove(&next_block) {
                w.write_all(&labelled)
                    .map_err(|e| format!("writing {out}: {e}"))?;
                written += labelled.len() / RECORD_BYTES;
                next_block += 1;
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                let done = (next_block * block).min(total);
                eprint!(
                    "\rdistill: {done}/{total} records ({:.1}%), {written} positions, {:.0} positions/s   ",
                    100.0 * done as f64 / total.max(1) as f64,
                    written as f64 / secs
                );
            }
        }
        Ok(())
    })?;
    w.flush().map_err(|e| format!("writing {out}: {e}"))?;
    eprintln!();
    println!("distill: {written} positions written to {out}");
    Ok(())
}

/// One worker's labelling evaluation: static, or a search of a fixed depth with it.
struct Labeller {
    static_eval: ChessEvaluator,
    engine: Option<Engine<Board, ChessEvaluator>>,
    depth: u32,
    seed: u64,
    /// Write only positions without a winning noisy move.
    quiet: bool,
}

impl Labeller {
    fn new(eval: ChessEvaluator, depth: u32, seed: u64, quiet: bool) -> Labeller {
        let engine = (depth > 0).then(|| {
            Engine::with_options(
                Board::start(),
                eval.clone(),
                Options {
                    threads: 1,
                    hash_mb: 16,
                    seed: Some(seed),
                    ..Options::default()
                },
            )
        });
        Labeller {
            static_eval: eval,
            engine,
            depth,
            seed,
            quiet,
        }
    }

    /// Forgets what earlier blocks' searches learned, so that a block's labels depend on the
    /// block alone.
    fn new_block(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
    }

    /// The walks from record number `index`, appended to `out` as records.
    fn walk(
        &mut self,
        index: usize,
        r: &Record,
        walks: usize,
        plies: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        let mut rng =
            SmallRng::seed_from_u64(self.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let start = r.board()?;
        for _ in 0..walks {
            let mut b = start.clone();
            let n = rng.gen_range(1..=plies.max(1));
            for _ in 0..n {
                let Some(m) = tetrarch::selfplay::random_move(&b, &mut rng, 0.5) else {
                    break;
                };
                b.make(m);
                if b.in_check() || (self.quiet && wins_material_now(&b)) {
                    continue;
                }
                let score = match &mut self.engine {
                    None => white_score(&b, self.static_eval.evaluate(&b)),
                    Some(engine) => {
                        let found =
                            tetrarch::selfplay::search(engine, &b, Limits::depth(self.depth));
                        if tetrarch::score::is_decisive(found.score) {
                            continue;
                        }
                        white_score(&b, found.score)
                    }
                };
                out.extend_from_slice(&Record::new(&b, score, 1).0);
            }
        }
        Ok(())
    }
}

/// Whether the side to move has a capture or promotion that gains material by static exchange.
fn wins_material_now(b: &Board) -> bool {
    tetrarch::search::legal_moves(b)
        .into_iter()
        .any(|m| b.is_noisy(m) && b.see_ge(m, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_labels_do_not_depend_on_the_thread_count() {
        let dir = std::env::temp_dir().join(format!("distill-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("games.bin");
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 b - - 0 40",
            "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ];
        let mut bytes = Vec::new();
        for fen in fens {
            let b = Board::from_text(fen).unwrap();
            bytes.extend_from_slice(&Record::new(&b, 0, 1).0);
        }
        std::fs::write(&data, &bytes).unwrap();
        let run = |threads: usize, depth: u32| -> Vec<u8> {
            let out = dir.join(format!("walks-{threads}-{depth}.bin"));
            let args: Vec<String> = [
                "-data",
                data.to_str().unwrap(),
                "-out",
                out.to_str().unwrap(),
                "-walks",
                "3",
                "-block",
                "2",
                "-threads",
                &threads.to_string(),
                "-depth",
                &depth.to_string(),
            ]
            .map(String::from)
            .to_vec();
            main(&args).unwrap();
            std::fs::read(out).unwrap()
        };
        let one = run(1, 3);
        assert!(!one.is_empty());
        assert_eq!(one, run(3, 3), "three threads write what one writes");
        let statics = run(2, 0);
        // The same walks, labelled otherwise: the positions agree where no search label was
        // dropped (a mate found), and the scores differ somewhere.
        assert_ne!(one, statics);
        for r in records(&one) {
            let b = r.board().unwrap();
            assert!(!b.in_check(), "walk positions are never in check");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn quiet_walks_leave_out_positions_with_a_winning_capture() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
        ];
        let walked = |quiet: bool| -> Vec<Board> {
            let mut labels = Labeller::new(ChessEvaluator::Hand(ChessEval::default()), 0, 5, quiet);
            let mut out = Vec::new();
            for (i, fen) in fens.iter().enumerate() {
                let r = Record::new(&Board::from_text(fen).unwrap(), 0, 1);
                labels.walk(i, &r, 16, 6, &mut out).unwrap();
            }
            records(&out).map(|r| r.board().unwrap()).collect()
        };
        let all = walked(false);
        let quiet = walked(true);
        // Walks take captures half the time, so many of their positions have one to answer.
        assert!(all.iter().any(wins_material_now));
        assert!(!quiet.is_empty() && quiet.len() < all.len());
        assert!(!quiet.iter().any(wins_material_now));
        // The same walks: the quiet ones are those of the others without a winning capture.
        let kept: Vec<_> = all.iter().filter(|b| !wins_material_now(b)).collect();
        assert_eq!(kept.len(), quiet.len());
        assert!(kept.iter().zip(&quiet).all(|(a, b)| a.key() == b.key()));
    }
}
