//! Draughts perft in both counting conventions, with the last two plies counted in bulk.
//!
//! Conventions. 'Distinct' (Moby Dam's and dctl's default): a capture is one move per distinct
//! start, end and captured set, as `generate` lists them. 'Paths' (dctl's 'keep duplicates',
//! pydraughts): every capture path counts as its own move, even when several lead to the same
//! position.
//!
//! Scheme: perft works on the pieces alone ([`Pieces`]: no count depends on the key or the rule
//! counters, and perft counts the whole tree whatever the rules would have ended), with the
//! side to move a type ([`Colour`]), so that the forward directions and the far row are
//! constants and each node is one copy of three words. Quiet moves are never listed: they are
//! played straight from their target sets. Captures are listed by the capture search (in the
//! paths convention with the number of paths reaching each distinct move: paths that end in the
//! same move leave the same position, so the count below it is multiplied instead of searched
//! again).
//!
//! At depth 1 nothing is made or listed: `movegen::count_moves` counts quiet moves as the sizes
//! of their target sets and single jumps from jump sets, and searches only longer captures and
//! king captures into a counting sink. At depth 2, below a position without a capture, the
//! children differ only by one piece moved from `f` to `t`: when the opponent has no king, its
//! quiet-move count in each child is the count in the parent's occupancy, plus the moves onto
//! `f`, minus those onto `t` ([`QuietLeaves`]), and only a child where the opponent can capture
//! is counted in full. The counts equal those of the generic `crate::perft` over `generate`
//! (tests check both).

use arrayvec::ArrayVec;

use super::board::Board;
use super::movegen::{
    count_moves, king_capturers, king_ray_moves, men_capturers, popcount2, promotion_row,
    search_captures, Distinct, MenJumps, Paths,
};
use super::moves::Move;
use super::squares::{shift, Bits, DIRS, VALID};
use crate::game::{GenKind, MoveList, Position, Side, MAX_MOVES};

/// The side to move, known at compile time.
trait Colour {
    const SIDE: Side;
    /// The index of the side's pieces in [`Pieces::by_side`] (`Side::index`).
    const US: usize;
    /// The forward directions of the side's men (values of `DIRS`).
    const FORWARD: [i32; 2];
    type Other: Colour;
}

struct White;
struct Black;

impl Colour for White {
    const SIDE: Side = Side::First;
    const US: usize = 0;
    const FORWARD: [i32; 2] = [DIRS[0], DIRS[1]];
    type Other = Black;
}

impl Colour for Black {
    const SIDE: Side = Side::Second;
    const US: usize = 1;
    const FORWARD: [i32; 2] = [DIRS[2], DIRS[3]];
    type Other = White;
}

/// What a perft node needs of a position: the pieces (the side to move is the [`Colour`]).
#[derive(Clone, Copy)]
struct Pieces {
    by_side: [u64; 2],
    kings: u64,
}

impl Pieces {
    fn of(board: &Board) -> Pieces {
        Pieces {
            by_side: board.st.pieces,
            kings: board.st.kings,
        }
    }

    /// Plays a listed move of `C` (a capture; quiet moves are played where they are found).
    #[inline(always)]
    fn play<C: Colour>(self, m: Move) -> Pieces {
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        let mut q = self;
        // A capture may end on its own start square: the xors then cancel, as they should.
        q.by_side[C::US] ^= from ^ to;
        if self.kings & from != 0 {
            q.kings ^= from ^ to;
        } else if m.promotes {
            q.kings |= to;
        }
        q.by_side[1 - C::US] &= !m.captured;
        q.kings &= !m.captured;
        q
    }
}

/// The number of legal move sequences of length `depth` from `board`, a capture counted once
/// per distinct move.
pub fn perft_distinct(board: &mut Board, depth: u32) -> u64 {
    let p = Pieces::of(board);
    match board.st.side {
        Side::First => perft::<White, false>(p, depth),
        Side::Second => perft::<Black, false>(p, depth),
    }
}

/// The number of move paths of length `depth` from `board`, every capture path counted.
pub fn perft_paths(board: &mut Board, depth: u32) -> u64 {
    let p = Pieces::of(board);
    match board.st.side {
        Side::First => perft::<White, true>(p, depth),
        Side::Second => perft::<Black, true>(p, depth),
    }
}

/// Perft of `p` with `C` to move, in the paths convention if `PATHS`.
fn perft<C: Colour, const PATHS: bool>(p: Pieces, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => leaf::<C, PATHS>(p),
        _ => node::<C, PATHS>(p, depth),
    }
}

/// The number of moves of `C` in `p`.
#[inline(always)]
fn leaf<C: Colour, const PATHS: bool>(p: Pieces) -> u64 {
    count_moves::<PATHS>(p.by_side[C::US], p.by_side[1 - C::US], p.kings, C::SIDE)
}

/// Perft at `depth` >= 2.
fn node<C: Colour, const PATHS: bool>(p: Pieces, depth: u32) -> u64 {
    let own = p.by_side[C::US];
    let enemy = p.by_side[1 - C::US];
    let occ = own | enemy;
    let empty = VALID & !occ;
    let men_c = men_capturers(own & !p.kings, enemy, empty);
    let kings_c = king_capturers(own & p.kings, enemy, occ, empty);
    if men_c | kings_c != 0 {
        return captures::<C, PATHS>(p, depth, men_c, kings_c);
    }
    let mut nodes = 0;
    if depth == 2 {
        let leaves = QuietLeaves::new::<C>(p);
        for_each_quiet::<C>(p, |q, f, t| {
            nodes += leaves.count::<C, PATHS>(q, f, t);
        });
    } else {
        for_each_quiet::<C>(p, |q, _, _| {
            nodes += node::<C::Other, PATHS>(q, depth - 1);
        });
    }
    nodes
}

/// The captures of a node: listed, then each played and counted below.
#[inline(never)]
fn captures<C: Colour, const PATHS: bool>(p: Pieces, depth: u32, men_c: u64, kings_c: u64) -> u64 {
    let own = p.by_side[C::US];
    let enemy = p.by_side[1 - C::US];
    let promotion = promotion_row(C::SIDE);
    let mut moves = MoveList::new();
    let mut counts = ArrayVec::<u32, MAX_MOVES>::new();
    if PATHS {
        let mut sink = Paths::new(&mut moves, &mut counts);
        search_captures(own, enemy, promotion, men_c, kings_c, &mut sink);
    } else {
        let mut sink = Distinct::new(&mut moves);
        search_captures(own, enemy, promotion, men_c, kings_c, &mut sink);
    }
    let mut nodes = 0;
    for (i, &m) in moves.iter().enumerate() {
        let below = perft::<C::Other, PATHS>(p.play::<C>(m), depth - 1);
        nodes += if PATHS {
            counts[i] as u64 * below
        } else {
            below
        };
    }
    nodes
}

/// Calls `visit(child, from, to)` for every quiet move of `C` in `p` (which the caller knows
/// has no capture), with the child position and the move's start and end bits.
#[inline(always)]
fn for_each_quiet<C: Colour>(p: Pieces, mut visit: impl FnMut(Pieces, u32, u32)) {
    let own = p.by_side[C::US];
    let occ = own | p.by_side[1 - C::US];
    let empty = VALID & !occ;
    let men = own & !p.kings;
    let promotion = promotion_row(C::SIDE);
    for d in C::FORWARD {
        for t in Bits(shift(men, d) & empty) {
            let f = (t as i32 - d) as u32;
            let moved = (1u64 << f) | (1u64 << t);
            let mut q = p;
            q.by_side[C::US] ^= moved;
            q.kings |= (1u64 << t) & promotion;
            visit(q, f, t);
        }
    }
    for k in Bits(own & p.kings) {
        let reach = king_ray_moves(k, 0, occ)
            | king_ray_moves(k, 1, occ)
            | king_ray_moves(k, 2, occ)
            | king_ray_moves(k, 3, occ);
        for t in Bits(reach) {
            let moved = (1u64 << k) | (1u64 << t);
            let mut q = p;
            q.by_side[C::US] ^= moved;
            q.kings ^= moved;
            visit(q, k, t);
        }
    }
}

/// The leaf counts of the children of a position without a capture, from what the children
/// share: the opponent's men and their forward targets. A child moved one piece from `f` to
/// `t`, so where the opponent has no capture its quiet moves are the parent-occupancy count
/// plus the moves onto `f` minus those onto `t`. With opponent kings (whose rays the move can
/// open or close anywhere) every child is counted in full.
struct QuietLeaves {
    /// The opponent's men.
    men: u64,
    /// Their targets in their two forward directions, empty or not.
    a: u64,
    b: u64,
    /// Their quiet moves in the parent's occupancy.
    base: u64,
    has_kings: bool,
}

impl QuietLeaves {
    /// For the children of `p`, `C` to move in `p`.
    #[inline(always)]
    fn new<C: Colour>(p: Pieces) -> QuietLeaves {
        let theirs = p.by_side[1 - C::US];
        let empty = VALID & !(theirs | p.by_side[C::US]);
        let men = theirs & !p.kings;
        let [da, db] = <C::Other as Colour>::FORWARD;
        let (a, b) = (shift(men, da), shift(men, db));
        QuietLeaves {
            men,
            a,
            b,
            base: popcount2(a & empty, b & empty) as u64,
            has_kings: theirs & p.kings != 0,
        }
    }

    /// The leaf count of child `q`, reached by `C`'s quiet move from bit `f` to bit `t`.
    #[inline(always)]
    fn count<C: Colour, const PATHS: bool>(&self, q: Pieces, f: u32, t: u32) -> u64 {
        if self.has_kings {
            return self.count_with_kings::<C, PATHS>(q);
        }
        let ours = q.by_side[C::US];
        let jumps = MenJumps::new(self.men, ours, VALID & !(ours | q.by_side[1 - C::US]));
        if jumps.capturers() != 0 {
            return Self::count_captures::<C, PATHS>(q, jumps);
        }
        let gained = ((self.a >> f) & 1) + ((self.b >> f) & 1);
        let lost = ((self.a >> t) & 1) + ((self.b >> t) & 1);
        self.base + gained - lost
    }

    /// A child where the opponent has kings: counted in full. Out of line, like
    /// [`QuietLeaves::count_captures`], so that the common case is inlined into the move loop.
    #[inline(never)]
    fn count_with_kings<C: Colour, const PATHS: bool>(&self, q: Pieces) -> u64 {
        leaf::<C::Other, PATHS>(q)
    }

    /// A child where the opponent's men, which `jumps` are, must capture (it has no king).
    #[inline(never)]
    fn count_captures<C: Colour, const PATHS: bool>(q: Pieces, jumps: MenJumps) -> u64 {
        let (ours, theirs) = (q.by_side[C::US], q.by_side[1 - C::US]);
        jumps.count_captures::<PATHS>(theirs, ours, <C::Other as Colour>::SIDE)
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
