//! `tetrarch-tune distill`: positions around the game positions of a record file, labelled
//! with an evaluation, for teaching a network what the search meets.
//!
//! Scheme: from every record's position, a few random walks of one to `-plies` legal moves
//! (captures taken half the time when there are any) each give their positions, not in check,
//! as new records whose score is the labelling evaluation (White's view: the hand-written one,
//! or a network with `-eval-file`; static, or a search of `-depth` plies with it) and whose
//! result is a draw (a trainer reads them with the result's weight at zero). Game positions
//! are quiet and sensible; the positions a search evaluates are not, and a network that never
//! saw a king walk or a piece en prise will score them at random. The walks are a pure
//! function of the seed and the record's index.

use std::io::Write;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrarch::game::{Evaluator, Notation, Position};
use tetrarch::games::chess::eval::ChessEval;
use tetrarch::games::chess::nnue::{white_score, ChessEvaluator};
use tetrarch::games::chess::Board;
use tetrarch::limits::Limits;
use tetrarch::search::{Engine, Options};

use crate::commands::Args;
use crate::packed::{records, Record};

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
  -eval-file FILE   label with this chess network instead of the hand-written evaluation
";

pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &[])?;
    let data = a.str("data").ok_or("-data FILE is required")?;
    let out = a.str("out").ok_or("-out FILE is required")?;
    let walks: usize = a.get("walks", 4)?;
    let plies: usize = a.get("plies", 6)?;
    let seed: u64 = a.get("seed", 1)?;
    let depth: u32 = a.get("depth", 0)?;
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
    let mut static_eval = labeller.clone();
    let mut engine = Engine::with_options(
        Board::start(),
        labeller,
        Options {
            threads: 1,
            hash_mb: 16,
            seed: Some(seed),
            ..Options::default()
        },
    );
    let mut written = 0usize;
    for (i, r) in records(&bytes).enumerate() {
        let mut rng =
            SmallRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let start = r.board()?;
        for _ in 0..walks {
            let mut b = start.clone();
            let n = rng.gen_range(1..=plies.max(1));
            for _ in 0..n {
                let Some(m) = tetrarch::selfplay::random_move(&b, &mut rng, 0.5) else {
                    break;
                };
                b.make(m);
                if b.in_check() {
                    continue;
                }
                let score = if depth == 0 {
                    white_score(&b, static_eval.evaluate(&b))
                } else {
                    let found = tetrarch::selfplay::search(&mut engine, &b, Limits::depth(depth));
                    if tetrarch::score::is_decisive(found.score) {
                        continue;
                    }
                    tetrarch::games::chess::nnue::white_score(&b, found.score)
                };
                w.write_all(&Record::new(&b, score, 1).0)
                    .map_err(|e| format!("writing {out}: {e}"))?;
                written += 1;
            }
        }
    }
    w.flush().map_err(|e| format!("writing {out}: {e}"))?;
    println!("distill: {written} positions written to {out}");
    Ok(())
}
