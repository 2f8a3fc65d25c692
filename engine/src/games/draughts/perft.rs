//! Draughts perft in both counting conventions, with the last ply counted in bulk.
//!
//! Conventions. 'Distinct' (Moby Dam's and dctl's default): a capture is one move per distinct
//! start, end and captured set, as `generate` lists them. 'Paths' (dctl's 'keep duplicates',
//! pydraughts): every capture path counts as its own move, even when several lead to the same
//! position.
//!
//! Scheme: below the root, moves are played on the pieces and the side to move only
//! (`State::play_pieces`): no move count depends on the key or the rule counters, and perft
//! counts the whole tree whatever the rules would have ended, so only those are kept current;
//! the search's make, which keeps everything, is tested on its own. At depth 1 nothing is
//! made or listed. The quiet moves are counted as the sizes of
//! their target sets (`Board::count_quiet`), and the captures by running the capture search
//! into a counting sink (`Board::count_moves`, `Board::count_paths`). Above that, in the paths
//! convention, paths that end in the same move leave the same position, so the generator
//! returns each distinct move once with the number of its paths, and the count below a move is
//! multiplied by that number instead of being searched again. The counts equal those of the
//! generic `crate::perft` over `generate` (tests check both).

use arrayvec::ArrayVec;

use super::board::Board;
use crate::game::{GenKind, MoveList, Position, MAX_MOVES};

/// The number of legal move sequences of length `depth` from `board`, a capture counted once
/// per distinct move.
pub fn perft_distinct(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves(),
        _ => {
            let mut moves = MoveList::new();
            board.generate(GenKind::All, &mut moves);
            let mut nodes = 0;
            let saved = board.st;
            for &m in moves.iter() {
                board.st.play_pieces(m);
                // Depth 2 counts its children directly, without a call frame per child.
                nodes += if depth == 2 {
                    board.count_moves()
                } else {
                    perft_distinct(board, depth - 1)
                };
                board.st = saved;
            }
            nodes
        }
    }
}

/// [`perft_distinct`] split by root move: `(move text, count)` in generation order, the move
/// text as `Notation::move_text` writes it.
pub fn divide_distinct(board: &mut Board, depth: u32) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    board.generate(GenKind::All, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let text = board.short_move_text(m);
        let undo = board.do_move(m);
        let n = perft_distinct(board, depth.saturating_sub(1));
        board.undo_move(undo);
        out.push((text, n));
    }
    out
}

/// The number of move paths of length `depth` from `board`, every capture path counted.
pub fn perft_paths(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_paths(),
        _ => {
            let mut moves = MoveList::new();
            let mut counts = ArrayVec::<u32, MAX_MOVES>::new();
            board.gen_with_paths(&mut moves, &mut counts);
            let mut nodes = 0;
            let saved = board.st;
            for (&m, &c) in moves.iter().zip(counts.iter()) {
                board.st.play_pieces(m);
                let below = if depth == 2 {
                    board.count_paths()
                } else {
                    perft_paths(board, depth - 1)
                };
                nodes += c as u64 * below;
                board.st = saved;
            }
            nodes
        }
    }
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
