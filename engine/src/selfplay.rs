//! Pieces of self-play shared by data generation (`tetrarch-tune datagen`) and OpenBench's
//! `genfens`: random openings and a blocking search.
//!
//! Scheme: [`random_opening`] walks a number of uniformly random legal moves from a start
//! position and keeps the result only if the game goes on from there; [`search`] runs one
//! search on an [`Engine`] and waits for its result, keeping the last reported line's score.
//! [`balanced_opening`] combines them: random walks from the start, until a short search scores
//! the position within a margin (or the attempts run out). Everything is generic over
//! `game::Position` and driven by a caller's seeded generator, so with a node-bounded,
//! one-thread engine the same seed gives the same openings and games on every machine.
//! [`genfens`] makes a seeded list of such openings, as OpenBench asks engines for.
//! [`random_move`] is the one random move of test playouts and distillation walks.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::game::{Evaluator, Notation, Position};
use crate::limits::Limits;
use crate::score::{Score, DRAW};
use crate::search::{legal_moves, Engine};

/// A random legal move of `pos` (`None` when it has none): a noisy one with probability
/// `noisy_share` when there is one, so that walks shed material and reach endgames.
pub fn random_move<P: Position>(pos: &P, rng: &mut impl Rng, noisy_share: f64) -> Option<P::Move> {
    let legal = legal_moves(pos);
    if legal.is_empty() {
        return None;
    }
    let noisy: Vec<_> = legal.iter().copied().filter(|&m| pos.is_noisy(m)).collect();
    Some(if !noisy.is_empty() && rng.gen_bool(noisy_share) {
        noisy[rng.gen_range(0..noisy.len())]
    } else {
        legal[rng.gen_range(0..legal.len())]
    })
}

/// The position after `plies` uniformly random legal moves from `start`, or `None` when the
/// game ended on the way or at the end (no legal move, or a rule result).
pub fn random_opening<P: Position>(start: &P, plies: usize, rng: &mut SmallRng) -> Option<P> {
    let mut pos = start.clone();
    for _ in 0..plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let _ = pos.make(m);
        if pos.rule_outcome(0).is_some() {
            return None;
        }
    }
    if pos.outcome().is_some() {
        return None;
    }
    Some(pos)
}

/// What one search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched<M> {
    /// The move to play; `None` when the position has no legal move.
    pub best: Option<M>,
    /// The last reported score of the best line, side to move's view.
    pub score: Score,
    /// The depth of that line.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Searches `pos` (its game history included) with `limits` and waits for the result.
pub fn search<P: Position, E: Evaluator<P>>(
    engine: &mut Engine<P, E>,
    pos: &P,
    limits: Limits<P::Move>,
) -> Searched<P::Move> {
    engine.set_position(pos.clone(), &[]);
    let found = engine.search(limits);
    Searched {
        best: found.best,
        score: found.line.as_ref().map_or(DRAW, |l| l.score),
        depth: found.line.as_ref().map_or(0, |l| l.depth),
        nodes: found.nodes,
    }
}

/// How [`balanced_opening`] draws and vets openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningRule {
    /// Random plies, at least and at most (both inclusive).
    pub min_plies: usize,
    pub max_plies: usize,
    /// Nodes of the vetting search; 0 skips the search.
    pub nodes: u64,
    /// The largest score the vetting search may give either side.
    pub max_score: Score,
    /// Walks to try before taking the last one that the game goes on from anyway.
    pub attempts: usize,
}

/// A random opening from `start` whose short search scores it within `rule.max_score`; after
/// `rule.attempts` tries, the last playable one regardless of its score. `None` only if no walk
/// at all left a game going (a start position that is already over). The engine's table is
/// cleared before each vetting search, so the result depends only on the generator.
pub fn balanced_opening<P: Position, E: Evaluator<P>>(
    engine: &mut Engine<P, E>,
    start: &P,
    rule: &OpeningRule,
    rng: &mut SmallRng,
) -> Option<P> {
    let mut fallback = None;
    for _ in 0..rule.attempts.max(1) {
        let plies = rng.gen_range(rule.min_plies..=rule.max_plies.max(rule.min_plies));
        let Some(pos) = random_opening(start, plies, rng) else {
            continue;
        };
        if rule.nodes == 0 {
            return Some(pos);
        }
        engine.new_game();
        let found = search(engine, &pos, Limits::nodes(rule.nodes));
        if found.score.abs() <= rule.max_score {
            return Some(pos);
        }
        fallback = Some(pos);
    }
    fallback
}

/// OpenBench's `genfens`: `count` openings for a test, the same for the same `seed`. Each starts
/// from a position of `book` (chosen by the seed) or, with no book, from the initial position,
/// and adds random plies by [`balanced_opening`] under `rule`. An opening that cannot be made
/// (a book position already over) is skipped, so fewer may come back only for such books.
pub fn genfens<P: Notation, E: Evaluator<P>>(
    engine: &mut Engine<P, E>,
    book: &[P],
    count: usize,
    seed: u64,
    rule: &OpeningRule,
) -> Vec<P> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let initial = P::start();
    let mut out = Vec::with_capacity(count);
    let mut failures = 0;
    while out.len() < count && failures < 10 * count + 100 {
        let start = if book.is_empty() {
            &initial
        } else {
            &book[rng.gen_range(0..book.len())]
        };
        match balanced_opening(engine, start, rule, &mut rng) {
            Some(pos) => out.push(pos),
            None => failures += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::chess::eval::ChessEval;
    use crate::games::chess::Board;
    use crate::search::Options;

    #[test]
    fn openings_are_playable_and_repeat_with_the_seed() {
        let mut engine = Engine::with_options(
            Board::start(),
            ChessEval::default(),
            Options {
                hash_mb: 1,
                ..Options::default()
            },
        );
        let rule = OpeningRule {
            min_plies: 8,
            max_plies: 9,
            nodes: 500,
            max_score: 300,
            attempts: 20,
        };
        let run = |engine: &mut Engine<Board, ChessEval>, seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            (0..5)
                .map(|_| {
                    balanced_opening(engine, &Board::start(), &rule, &mut rng)
                        .unwrap()
                        .to_text()
                })
                .collect::<Vec<_>>()
        };
        let a = run(&mut engine, 3);
        assert_eq!(a, run(&mut engine, 3));
        assert_ne!(a, run(&mut engine, 4));
        for fen in &a {
            let b = Board::from_text(fen).unwrap();
            assert!(b.outcome().is_none(), "{fen}");
            // 8 or 9 plies from the start: move 5 with White or Black to move.
            assert!(fen.ends_with(" 5"), "{fen}");
        }
    }

    #[test]
    fn a_blocking_search_reports_a_move_and_a_score() {
        let mut engine = Engine::new(Board::start(), ChessEval::default());
        let mate_in_one = Board::from_text("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let found = search(&mut engine, &mate_in_one, Limits::depth(3));
        assert_eq!(
            found.best.map(|m| mate_in_one.move_text(m)),
            Some("d1d8".into())
        );
        assert!(crate::score::is_decisive(found.score));
        let stalemate = Board::from_text("7k/5Q2/8/8/8/8/8/K7 b - - 0 1").unwrap();
        assert_eq!(search(&mut engine, &stalemate, Limits::depth(3)).best, None);
    }
}
