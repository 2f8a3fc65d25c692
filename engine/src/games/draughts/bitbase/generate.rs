//! The retrograde generator: solves a class and its colour mirror at once.
//!
//! Scheme. A capture always leaves a class with fewer pieces and a crowning one with a man
//! fewer, so with classes taken in order of pieces, then men ([`order`]), every move that
//! leaves the class lands in a table already solved. Moves that stay inside (quiet man moves
//! that do not crown, quiet king moves) go from a White-to-move position of the class to a
//! Black-to-move one, which is a White-to-move position of the mirrored class: the two
//! tables are solved together, as one index space (one table when the class is its own mirror).
//!
//! 1. Initialisation, every position once, in parallel: with a capture (compulsory) every move
//!    leaves the class and the value is final (a win if some capture leaves the opponent lost,
//!    else a draw if one leaves a draw, else a loss). Without one, a move that leaves the
//!    opponent lost (a crowning into a won table) makes a win, no move at all a loss; otherwise
//!    the position keeps a count of its moves that stay inside, and a flag when some crowning
//!    reaches a draw (then it can never be lost: the count is set out of reach).
//! 2. Propagation, level by level, in parallel over the positions decided at the previous
//!    level: the predecessors inside the pair are found by unmoving the side that just moved
//!    (a man one step back, a king back along any open ray), kept only when the predecessor
//!    has no capture (or the quiet move would not have been legal there). A lost position makes
//!    each predecessor a win; a won position takes one from each predecessor's count, and a
//!    count reaching zero makes a loss. Values and counts are atomics, and a position changes
//!    from undecided exactly once (compare-and-swap), so the result does not depend on how the
//!    threads interleave.
//! 3. What is still undecided when a level adds nothing is a draw: neither side can force
//!    anything (the rule draws are not counted, see the module doc of `bitbase`).

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use super::super::board::Board;
use super::super::movegen::king_ray_moves;
use super::super::moves::Move;
use super::super::squares::{shift, Bits, DIRS, VALID};
use super::index::{Class, Pieces};
use super::table::{Table, Wdl};
use super::Bitbases;
use crate::game::{MoveList, Side};

const UNDECIDED: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const INVALID: u8 = 3;
/// A count that no number of won successors brings to zero (the position has a drawing exit).
const NEVER: u8 = 255;

/// What the generator reports while it works.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// Initialisation done: positions (valid placements), and how many were decided.
    Initialised { positions: u64, decided: u64 },
    /// A propagation level done: its number and the positions it decided.
    Level { level: u32, decided: u64 },
}

/// The classes to generate for tables of up to `max_pieces` pieces, in an order where each
/// class's captures and crownings lead to classes before it. Only one class of each mirror
/// pair is listed: [`generate`] returns both.
pub fn order(max_pieces: usize) -> Vec<Class> {
    let mut out = Vec::new();
    for n in 2..=max_pieces.min(super::MAX_PIECES) {
        let mut classes: Vec<Class> = Class::all_with(n)
            .into_iter()
            .filter(|c| *c <= c.mirror())
            .collect();
        classes.sort_by_key(|c| (c.men(), *c));
        out.extend(classes);
    }
    out
}

/// Every table of up to `max_pieces` pieces, generated in memory in [`order`] (small sets for
/// tests and tools; the full sets are written class by class by `tetrarch-tune bitbase`).
pub fn generate_all(max_pieces: usize, threads: usize) -> Bitbases {
    let mut db = Bitbases::new();
    for c in order(max_pieces) {
        for t in generate(c, &db, threads, &|_| {}) {
            db.insert(t);
        }
    }
    db
}

/// The position after White plays `m` in `p`, turned round so that the opponent is White.
#[inline]
fn after(p: Pieces, m: Move) -> Pieces {
    let from = 1u64 << m.from;
    let to = 1u64 << m.to;
    let mut white = p.white ^ from ^ to;
    let mut kings = p.kings;
    if kings & from != 0 {
        kings ^= from ^ to;
    } else if m.promotes {
        kings |= to;
    }
    let black = p.black & !m.captured;
    kings &= !m.captured;
    white &= VALID;
    Pieces {
        white,
        black,
        kings,
    }
    .mirror()
}

/// A reusable board for move generation.
fn scratch() -> Board {
    Board::from_parts(0, 0, 0, Side::First)
}

#[inline]
fn set(board: &mut Board, p: Pieces, side: Side) {
    board.st.pieces = [p.white, p.black];
    board.st.kings = p.kings;
    board.st.side = side;
}

/// Solves `class` and its mirror from the tables in `done` (which must hold every class
/// that a capture or crowning of theirs leads to), with `threads` threads. Returns the
/// table of `class` and, unless the class is its own mirror, that of the mirror.
///
/// # Panics
/// When `done` lacks a table the class depends on, or the pair has more than `u32::MAX`
/// slots (more than any class of up to 6 pieces but the largest).
pub fn generate(
    class: Class,
    done: &Bitbases,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Table> {
    assert!(class.both_sides(), "a class needs a piece of each side");
    let classes: Vec<Class> = if class == class.mirror() {
        vec![class]
    } else {
        vec![class, class.mirror()]
    };
    let n = class.size();
    let total = n * classes.len() as u64;
    assert!(total < u32::MAX as u64, "class {class} too large");
    let threads = threads.max(1);
    let values: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(UNDECIDED)).collect();
    let counts: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(0)).collect();
    // The table in the other half: where a move from table `t` lands.
    let other = |t: usize| if classes.len() == 1 { 0 } else { 1 - t };
    let locate = |g: u64| ((g / n) as usize, g % n);

    // 1. Initialisation.
    let next = AtomicUsize::new(0);
    const CHUNK: u64 = 1 << 14;
    let chunks = total.div_ceil(CHUNK) as usize;
    let mut frontier: Vec<u32> = Vec::new();
    let mut valid = 0u64;
    crossbeam::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|_| {
                    let mut board = scratch();
                    let mut moves = MoveList::new();
                    let mut decided = Vec::new();
                    let mut valid = 0u64;
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break;
                        }
                        let lo = c as u64 * CHUNK;
                        for g in lo..(lo + CHUNK).min(total) {
                            let (t, i) = locate(g);
                            let Some(p) = classes[t].unindex(i) else {
                                values[g as usize].store(INVALID, Ordering::Relaxed);
                                continue;
                            };
                            valid += 1;
                            let (v, count) = initial(&mut board, &mut moves, p, done);
                            values[g as usize].store(v, Ordering::Relaxed);
                            counts[g as usize].store(count, Ordering::Relaxed);
                            if v == WIN || v == LOSS {
                                decided.push(g as u32);
                            }
                        }
                    }
                    (decided, valid)
                })
            })
            .collect();
        for h in handles {
            let (d, v) = h.join().expect("generator thread");
            frontier.extend(d);
            valid += v;
        }
    })
    .expect("generator threads");
    progress(Progress::Initialised {
        positions: valid,
        decided: frontier.len() as u64,
    });

    // 2. Propagation.
    let mut level = 0;
    while !frontier.is_empty() {
        level += 1;
        let next = AtomicUsize::new(0);
        const STEP: usize = 1 << 12;
        let mut found: Vec<u32> = Vec::new();
        let frontier_ref = &frontier;
        crossbeam::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|_| {
                        let mut board = scratch();
                        let mut decided = Vec::new();
                        loop {
                            let c = next.fetch_add(STEP, Ordering::Relaxed);
                            if c >= frontier_ref.len() {
                                break;
                            }
                            for &g in &frontier_ref[c..(c + STEP).min(frontier_ref.len())] {
                                let (t, i) = locate(g as u64);
                                let q = classes[t].unindex(i).expect("decided slots are valid");
                                let lost = values[g as usize].load(Ordering::Relaxed) == LOSS;
                                let base = other(t) as u64 * n;
                                let target = classes[other(t)];
                                predecessors(&mut board, q, |pred| {
                                    let h = (base + target.index(pred)) as usize;
                                    if values[h].load(Ordering::Relaxed) != UNDECIDED {
                                        return;
                                    }
                                    if lost {
                                        if values[h]
                                            .compare_exchange(
                                                UNDECIDED,
                                                WIN,
                                                Ordering::Relaxed,
                                                Ordering::Relaxed,
                                            )
                                            .is_ok()
                                        {
                                            decided.push(h as u32);
                                        }
                                    } else if counts[h].fetch_sub(1, Ordering::Relaxed) == 1
                                        && values[h]
                                            .compare_exchange(
                                                UNDECIDED,
                                                LOSS,
                                                Ordering::Relaxed,
                                                Ordering::Relaxed,
                                            )
                                            .is_ok()
                                    {
                                        decided.push(h as u32);
                                    }
                                });
                            }
                        }
                        decided
                    })
                })
                .collect();
            for h in handles {
                found.extend(h.join().expect("generator thread"));
            }
        })
        .expect("generator threads");
        // A fixed order makes the next level's work split the same way every run.
        found.sort_unstable();
        progress(Progress::Level {
            level,
            decided: found.len() as u64,
        });
        frontier = found;
    }

    // 3. Whatever is undecided is a draw.
    classes
        .iter()
        .enumerate()
        .map(|(t, &c)| {
            let lo = t as u64 * n;
            Table::from_codes(
                c,
                (lo..lo + n).map(|g| match values[g as usize].load(Ordering::Relaxed) {
                    WIN => Wdl::Win.code(),
                    LOSS => Wdl::Loss.code(),
                    _ => Wdl::Draw.code(),
                }),
            )
        })
        .collect()
}

/// The value (`WIN`, `LOSS` or `UNDECIDED`) and in-class move count of White to move in `p`
/// from the moves that leave the class.
fn initial(board: &mut Board, moves: &mut MoveList<Move>, p: Pieces, done: &Bitbases) -> (u8, u8) {
    set(board, p, Side::First);
    moves.clear();
    board.gen_distinct_captures(moves);
    let exit = |m: Move| {
        done.lookup(after(p, m))
            .unwrap_or_else(|| panic!("no table for {} (after {m:?})", after(p, m).class()))
    };
    if !moves.is_empty() {
        let mut best = LOSS;
        for &m in moves.iter() {
            match exit(m) {
                Wdl::Loss => return (WIN, NEVER),
                Wdl::Draw => best = UNDECIDED,
                Wdl::Win => {}
            }
        }
        return (best, NEVER);
    }
    board.gen_quiet(moves);
    if moves.is_empty() {
        return (LOSS, NEVER);
    }
    let mut inside = 0u8;
    let mut drawn_exit = false;
    for &m in moves.iter() {
        if m.promotes {
            match exit(m) {
                Wdl::Loss => return (WIN, NEVER),
                Wdl::Draw => drawn_exit = true,
                Wdl::Win => {}
            }
        } else {
            inside += 1;
        }
    }
    match (inside, drawn_exit) {
        (0, false) => (LOSS, NEVER),
        (_, true) => (UNDECIDED, NEVER),
        (k, false) => (UNDECIDED, k),
    }
}

/// Calls `f` with every position (White to move, that is the mirror of the position before
/// Black's last move) from which a quiet in-class move of Black's led to `q`.
#[inline]
fn predecessors(board: &mut Board, q: Pieces, mut f: impl FnMut(Pieces)) {
    let occ = q.white | q.black;
    let empty = VALID & !occ;
    let mut visit = |from: u64, to: u64, king: bool| {
        let black = q.black ^ from ^ to;
        let kings = if king { q.kings ^ from ^ to } else { q.kings };
        let p = Pieces {
            white: q.white,
            black,
            kings,
        };
        set(board, p, Side::Second);
        if !board.has_capture() {
            f(p.mirror());
        }
    };
    let men = q.black & !q.kings;
    // Black men move down (+5, +6): back up is -6 and -5.
    for d in [DIRS[0], DIRS[1]] {
        for b in Bits(men) {
            let back = shift(1u64 << b, d) & empty;
            if back != 0 {
                visit(1u64 << b, back, false);
            }
        }
    }
    for k in Bits(q.black & q.kings) {
        for d in 0..4 {
            for b in Bits(king_ray_moves(k, d, occ)) {
                visit(1u64 << k, 1u64 << b, true);
            }
        }
    }
}
