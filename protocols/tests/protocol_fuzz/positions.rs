//! Real positions and moves for the grammars, from random playouts by the engine's own rules.
//!
//! Scheme: a playout plays uniformly random legal moves from a start position and stops early
//! when the game has no legal move. A position command is then a start (the initial position or
//! the FEN of a position along the playout) plus the following moves as the protocol writes
//! them; the grammar decides whether to spoil it with an illegal move. Playouts are cheap (a few
//! microseconds a ply), so every position line gets a fresh one.

use rand::rngs::StdRng;
use rand::Rng;
use tetrarch::game::Notation;
use tetrarch::search::legal_moves;

/// A playout: the position after `skip` random plies, and the texts of up to `more` further
/// random legal moves from there (as `text` writes them).
pub fn playout<P: Notation>(
    rng: &mut StdRng,
    start: P,
    skip: usize,
    more: usize,
    text: impl Fn(&P, P::Move) -> String,
) -> (P, Vec<String>) {
    let mut pos = start;
    for _ in 0..skip {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let _ = pos.make(m);
    }
    let base = pos.clone();
    let mut texts = Vec::new();
    for _ in 0..more {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        texts.push(text(&pos, m));
        let _ = pos.make(m);
    }
    (base, texts)
}

/// A random square-to-square text on a board of `files` x `ranks` (likely illegal), with rank
/// numbers from `first_rank`.
pub fn random_coordinate_move(rng: &mut StdRng, files: u8, ranks: u8, first_rank: u8) -> String {
    let sq = |rng: &mut StdRng| {
        format!(
            "{}{}",
            (b'a' + rng.gen_range(0..files + 1)) as char,
            rng.gen_range(first_rank..first_rank + ranks + 1)
        )
    };
    format!("{}{}", sq(rng), sq(rng))
}
