//! `tetrarch-tune book`: a file of balanced opening positions for any alpha-beta game, for
//! the match runner's `-openings file=F format=epd`.
//!
//! Scheme: random walks of a few plies from the initial position, each kept only when a short
//! node-bounded search of our own engine scores it within a margin
//! ([`tetrarch::selfplay::genfens`], the code OpenBench's `genfens` uses), and only once
//! (positions that two walks reach are written once). Chess and xiangqi have `genfens` over UCI
//! already; this is the one tool for every game, draughts included, whose Hub protocol has no
//! such command. The same seed gives the same file on every machine.

use std::collections::HashSet;
use std::io::Write;

use tetrarch::game::Notation;
use tetrarch::games::{Game, GameKind, WithGame};
use tetrarch::search::{Engine, Options};
use tetrarch::selfplay::{self, OpeningRule};

use crate::commands::Args;

pub const HELP: &str = "\
tetrarch-tune book: balanced opening positions, one per line (the game's position text), for
the match runner's -openings file=F format=epd.

  -game chess|xiangqi|draughts   the game
  -out FILE              the file to write (default: standard output)
  -count N               positions (default 100)
  -seed N                seed of the walks (default 1)
  -plies MIN-MAX         random plies from the initial position (default 6-8)
  -nodes N               nodes of the search that vets a position (default 20000)
  -score S               largest score it may give either side (default 30)
";

/// How the book is made.
#[derive(Clone, Debug, PartialEq)]
pub struct BookConfig {
    pub count: usize,
    pub seed: u64,
    pub rule: OpeningRule,
}

/// The positions of a book for game `G`, distinct, in the order the walks found them.
pub fn make<G: Game>(cfg: &BookConfig) -> Vec<String> {
    let mut engine = Engine::with_options(
        G::Position::start(),
        G::Eval::default(),
        Options {
            hash_mb: 16,
            params: G::search_params(),
            ..Options::default()
        },
    );
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(cfg.count);
    // Each round asks for the positions still missing, from a seed of its own, so duplicates
    // are replaced; a game with fewer distinct balanced positions than asked stops early.
    for round in 0..10u64 {
        let missing = cfg.count - out.len();
        if missing == 0 {
            break;
        }
        let seed = cfg
            .seed
            .wrapping_add(round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for pos in selfplay::genfens(&mut engine, &[], missing, seed, &cfg.rule) {
            let text = pos.to_text();
            if seen.insert(text.clone()) {
                out.push(text);
            }
        }
    }
    out
}

pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &[])?;
    let game = a
        .str("game")
        .ok_or("-game chess|xiangqi|draughts is required")?;
    let out = a.str("out");
    let (min_plies, max_plies) = a.range("plies", (6, 8))?;
    let cfg = BookConfig {
        count: a.get("count", 100)?,
        seed: a.get("seed", 1)?,
        rule: OpeningRule {
            min_plies,
            max_plies,
            nodes: a.get("nodes", 20_000)?,
            max_score: a.get("score", 30)?,
            // Enough tries that a tight margin still finds positions; the last walk is kept
            // regardless only when every try failed, which a tight margin makes rare.
            attempts: 200,
        },
    };
    a.finish()?;
    struct Make(BookConfig);
    impl WithGame for Make {
        type Output = Vec<String>;
        fn run<G: Game>(self) -> Vec<String> {
            make::<G>(&self.0)
        }
    }
    let lines = GameKind::parse(&game)
        .ok()
        .and_then(|kind| kind.with_game(Make(cfg.clone())))
        .ok_or_else(|| format!("no alpha-beta engine plays '{game}'"))?;
    let mut text = String::new();
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    match out {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    if lines.len() < cfg.count {
        eprintln!(
            "tetrarch-tune book: only {} distinct positions found of {} asked",
            lines.len(),
            cfg.count
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch::games::Draughts;

    #[test]
    fn draughts_books_are_distinct_balanced_and_repeat_with_the_seed() {
        let cfg = BookConfig {
            count: 6,
            seed: 5,
            rule: OpeningRule {
                min_plies: 4,
                max_plies: 6,
                nodes: 2000,
                max_score: 30,
                attempts: 200,
            },
        };
        let book = make::<Draughts>(&cfg);
        assert_eq!(book.len(), 6);
        assert_eq!(book.iter().collect::<HashSet<_>>().len(), 6);
        assert_eq!(book, make::<Draughts>(&cfg));
        let other = make::<Draughts>(&BookConfig {
            seed: 6,
            ..cfg.clone()
        });
        assert_ne!(book, other);
        // Every line reads back as a position that is not the initial one.
        let start = <Draughts as Game>::Position::start().to_text();
        for line in &book {
            let pos = <Draughts as Game>::Position::from_text(line).unwrap();
            assert_eq!(pos.to_text(), *line);
            assert_ne!(*line, start);
        }
    }
}
