//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.
//!
//! Scheme: generic over [`Position`], so every alpha-beta game shares one implementation; it
//! counts legal moves in bulk at the last ply instead of making them. Single-threaded, as the
//! reference tools are, so the counts and speeds compare like for like.

use crate::game::{GenKind, MoveList, Notation, Position};

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate(GenKind::All, &mut moves);
    if depth == 1 {
        return moves.iter().filter(|&&m| pos.is_legal(m)).count() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        if !pos.is_legal(m) {
            continue;
        }
        let undo = pos.make(m);
        nodes += perft(pos, depth - 1);
        pos.unmake(m, undo);
    }
    nodes
}

/// Perft split by root move: `(move text, count)` for each legal root move, in generation order.
pub fn divide<P: Notation>(pos: &mut P, depth: u32) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    pos.generate(GenKind::All, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        if !pos.is_legal(m) {
            continue;
        }
        let text = pos.move_text(m);
        let undo = pos.make(m);
        let n = perft(pos, depth.saturating_sub(1));
        pos.unmake(m, undo);
        out.push((text, n));
    }
    out
}
