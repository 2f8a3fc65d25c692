//! `tetrarch bench --game draughts [depth]`: the draughts counterpart of the chess bench, a
//! fixed-depth search of fixed positions whose total node count is the draughts signature.
//!
//! Scheme: as the chess bench (one thread, a 16 MB table, a new game before each position, so
//! the count depends only on the code), with the draughts search parameters. The positions
//! are the start, a middlegame and king endings from the project's perft tests, and positions
//! from the engine's own self-play games, from the opening to the king endgame.

use std::time::Instant;

use tetrarch::game::Notation;
use tetrarch::games::draughts::{Board, Eval, SEARCH_PARAMS};
use tetrarch::limits::Limits;
use tetrarch::search::{Engine, Options};

pub const DEFAULT_DEPTH: u32 = 14;

const POSITIONS: &[&str] = &[
    "W:W31-50:B1-20",
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    "W:WK2,K19,K28,K37,K46,31,33,35:BK5,K14,K23,K41,K50,16,18,20",
    "B:W28,31,33,35,37,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,14,15,16,17,19,21,23,24",
    "W:W24,30,31,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,13,14,15,16,21,22,28",
    "B:W16,27,29,32,33,34,37,40,42,43,44,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,15,17,18,19,23,35",
    "W:W30,31,33,35,37,39,40,41,43,46,47,48,49,50:B1,2,3,4,5,7,10,11,14,18,19,21,23,24",
    "B:W16,21,26,28,34,38,41,43,45,47,48,49,50:B1,2,4,7,8,9,11,13,14,19,24",
    "B:W27,28,32,33,34,35,39,48,49,50:B1,3,4,10,11,12,17,18,19,24",
    "B:W17,22,31,32,33,34,36,37,39:B7,8,16,19,23,24,25,26,35",
    "W:W17,25,28,39,40,47:B6,8,10,19,21,29,36",
    "W:W29,33,34,36,42:B1,3,13,18,26,28,35",
    "W:W23,26,29,33:B9,11,13,15,22,32,K47",
    "B:W16,18,27:B7,8,40,K44",
    "W:WK1,15,20,45:BK37",
    "B:WK19,28:BK20,25",
];

/// Searches every draughts bench position to `depth`; returns total nodes and milliseconds.
pub fn bench(depth: u32, verbose: bool) -> Result<(u64, u128), String> {
    let mut engine = Engine::with_options(
        Board::start(),
        Eval::default(),
        Options {
            threads: 1,
            hash_mb: 16,
            params: SEARCH_PARAMS,
            ..Options::default()
        },
    );
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Board::from_text(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.new_game();
        engine.set_position(pos, &[]);
        let nodes = engine.search(Limits::depth(depth)).nodes;
        if verbose {
            eprintln!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1);
        }
        total += nodes;
    }
    Ok((total, start.elapsed().as_millis()))
}

/// The number of positions, for the summary line.
pub fn positions() -> usize {
    POSITIONS.len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn positions_parse_and_the_count_is_repeatable() {
        let (a, _) = super::bench(5, false).unwrap();
        let (b, _) = super::bench(5, false).unwrap();
        assert!(a > 1000);
        assert_eq!(a, b);
    }
}
