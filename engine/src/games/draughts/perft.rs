//! Perft in the 'paths' convention (dctl's 'keep duplicates', pydraughts): every capture path
//! counts as its own move, even when several lead to the same position.
//!
//! Scheme: paths that end in the same move (same start, end and captured set) leave the same
//! position, so the generator returns each distinct move once with the number of its paths, and
//! the count below a move is multiplied by that number instead of being searched again. The
//! 'distinct' convention is the generic `crate::perft` over the ordinary generator.

use arrayvec::ArrayVec;

use super::board::Board;
use crate::game::{MoveList, MAX_MOVES};

/// The number of move paths of length `depth` from `board`, every capture path counted.
pub fn perft_paths(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    let mut counts = ArrayVec::<u32, MAX_MOVES>::new();
    board.gen_with_paths(&mut moves, &mut counts);
    if depth == 1 {
        return counts.iter().map(|&c| c as u64).sum();
    }
    let mut nodes = 0;
    for (&m, &c) in moves.iter().zip(counts.iter()) {
        let undo = board.do_move(m);
        nodes += c as u64 * perft_paths(board, depth - 1);
        board.undo_move(undo);
    }
    nodes
}

/// [`perft_paths`] split by root move: `(move text, paths of that move, count)`, in generation
/// order. The move text is `Notation::move_text` (short form unless two moves share start and
/// end, then Hub's form), as the distinct divide writes it.
pub fn divide_paths(board: &mut Board, depth: u32) -> Vec<(String, u32, u64)> {
    let mut moves = MoveList::new();
    let mut counts = ArrayVec::<u32, MAX_MOVES>::new();
    board.gen_with_paths(&mut moves, &mut counts);
    let mut out = Vec::with_capacity(moves.len());
    for (&m, &c) in moves.iter().zip(counts.iter()) {
        let text = board.short_move_text(m);
        let undo = board.do_move(m);
        let n = c as u64 * perft_paths(board, depth.saturating_sub(1));
        board.undo_move(undo);
        out.push((text, c, n));
    }
    out
}
