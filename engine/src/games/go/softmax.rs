//! The softmax playout policy's state: every empty point's weight for both colours under the
//! playout features (`playout_features`), kept up to date move by move, and the draw.
//!
//! Scheme: at the start of a playout every empty point's weight is computed for Black and
//! for White (0 for an own eye or suicide), with per-side row sums and totals. After each
//! move only the points whose features may have changed are recomputed:
//! - the 3x3 neighbourhood of the move and of every stone it captured (colours changed);
//! - the liberties of every group whose liberties changed (the groups next to the move and
//!   the mover's groups next to the captured stones) where that group has at most two
//!   liberties before the move or after it: a point's features see a neighbouring group's
//!   liberty set (atari, self-atari, extension) only while it has at most two, and "three or
//!   more" otherwise. So the lists to walk are short: at most two points a group, the ones
//!   before taken while the board still has them.
//!
//! Each empty point keeps its raw key and the product of its non-shape gammas per colour. A
//! point whose 3x3 colours alone changed (a diagonal neighbour of the move or of a captured
//! stone, or an orthogonal one with no atari bit and two empty neighbours before and after)
//! gets the new colour put into its key and is reweighed from the kept product: its other
//! features see only its orthogonal neighbours and their groups, and a group that changed in
//! a way it sees has it on its short list. Only the rest is recomputed in full, and an eye
//! (weight 0 for both colours) skips its other features. A test checks every kept weight,
//! key and product against a recomputation after every move.
//!
//! Weights are fixed-point integers, so the row sums and totals update exactly by
//! differences and never drift. A draw picks a row by its sum, then a point in it: O(rows +
//! columns), not O(points). Contiguity (the 8 neighbours of the last move, gamma `c`) is a
//! mixture: the board's weights as they are, plus the neighbours' weights times `c - 1`
//! (a gamma below 1 counts as 1). A drawn point is checked by the caller (ko, and the bad
//! self-atari test); a refused one is taken out for this move only and the draw repeated;
//! nothing left is a pass.
//!
//! The state lives in a thread-local (one per search thread, allocated once), not in the
//! `Board`, which the tree copies for every simulation; the playout loop allocates nothing.

use std::cell::RefCell;

use arrayvec::ArrayVec;
use rand::rngs::SmallRng;
use rand::RngCore;

use super::board::{stone, Board, EMPTY, MAX_POINTS, MAX_SIZE};
use super::knobs::{self, K};
use super::playout_features::{around_pattern, PlayoutGammas, GAMMAS};
use crate::game::Side;

/// A tactical product not computed (no gamma product is negative).
const UNKNOWN: f32 = -1.0;

/// Whether a point with raw key `key` has the shape alone for features: no atari bit and two
/// empty orthogonal neighbours or more (`PlayoutGammas::tactical`'s first case).
#[inline]
fn simple(key: u32) -> bool {
    // Orthogonal slots are the even ones: bits 0-1, 4-5, 8-9, 12-13.
    let orth = key & 0x3333;
    let taken = (orth | orth >> 1) & 0x1111;
    // At most two bits set: clearing the lowest twice leaves nothing (no popcount needed).
    let once = taken & taken.wrapping_sub(1);
    key >> 16 == 0 && once & once.wrapping_sub(1) == 0
}

thread_local! {
    static SOFTMAX: RefCell<Option<Box<Softmax>>> = const { RefCell::new(None) };
}

/// The weights of one playout and the scratch lists of its updates.
pub struct Softmax {
    /// Chance /256 that the policy draws from the softmax at a move the atari and vital-point
    /// rules leave open: the `p_softmax` knob, read when the thread's state is handed out.
    pub chance: i32,
    gammas: &'static PlayoutGammas,
    stride: usize,
    size: usize,
    /// `[side][point]`: 0 off the board, at stones, own eyes and suicides.
    w: [[u32; MAX_POINTS]; 2],
    /// `[side][row]`: sums of `w` over each row (row 0 is the bottom one).
    rows: [[u32; MAX_SIZE]; 2],
    total: [u32; 2],
    /// Per empty point: its raw key in absolute colours (`pattern3`, atari bits above), and
    /// the product of its other gammas for Black and White, so a point whose 3x3 colours
    /// alone changed is reweighed from them.
    key: [u32; MAX_POINTS],
    tactical: [[f32; 2]; MAX_POINTS],
    /// Row of each board point.
    row_of: [u8; MAX_POINTS],
    /// Marks of points queued for an update and of groups (by head) already looked at: equal
    /// to `stamp` when marked during the current move.
    stamp: u32,
    mark: [u32; MAX_POINTS],
    shape_mark: [u32; MAX_POINTS],
    gmark: [u32; MAX_POINTS],
    /// Points to recompute in full, and points whose 3x3 colours alone changed.
    todo: ArrayVec<u16, MAX_POINTS>,
    shape_todo: ArrayVec<u16, MAX_POINTS>,
    captured: ArrayVec<u16, MAX_POINTS>,
    /// One stone of each of the mover's groups next to a captured stone.
    gainers: ArrayVec<u16, MAX_POINTS>,
    /// Points refused during the current draw, with the weight they had.
    refused: ArrayVec<(u16, u32), MAX_POINTS>,
}

impl Softmax {
    /// A state drawing from `gammas`.
    pub fn new(gammas: &'static PlayoutGammas) -> Softmax {
        Softmax {
            chance: 256,
            gammas,
            stride: 0,
            size: 0,
            w: [[0; MAX_POINTS]; 2],
            rows: [[0; MAX_SIZE]; 2],
            total: [0; 2],
            key: [0; MAX_POINTS],
            tactical: [[1.0; 2]; MAX_POINTS],
            row_of: [0; MAX_POINTS],
            stamp: 0,
            mark: [0; MAX_POINTS],
            shape_mark: [0; MAX_POINTS],
            gmark: [0; MAX_POINTS],
            todo: ArrayVec::new(),
            shape_todo: ArrayVec::new(),
            captured: ArrayVec::new(),
            gainers: ArrayVec::new(),
            refused: ArrayVec::new(),
        }
    }

    /// Runs `f` with this thread's state (made on first use, with the shipped gammas).
    pub fn with<R>(f: impl FnOnce(&mut Softmax) -> R) -> R {
        SOFTMAX.with(|cell| {
            let mut s = cell.borrow_mut();
            let s = s.get_or_insert_with(|| Box::new(Softmax::new(&GAMMAS)));
            s.chance = knobs::get(K::P_SOFTMAX);
            f(s)
        })
    }

    /// Computes every weight of `b` from scratch: the start of a playout.
    pub fn start(&mut self, b: &Board) {
        let n = b.size();
        if n != self.size {
            // Off the board the weights stay 0 from here on.
            self.stride = b.stride();
            self.size = n;
            self.w = [[0; MAX_POINTS]; 2];
            for y in 0..n {
                for x in 0..n {
                    self.row_of[b.point(x, y)] = y as u8;
                }
            }
        }
        for side in 0..2 {
            self.rows[side][..n].fill(0);
            self.total[side] = 0;
        }
        // Stones weigh nothing; the empty points are computed (`set` counts them in).
        for y in 0..n {
            let row = b.point(0, y);
            for side in 0..2 {
                self.w[side][row..row + n].fill(0);
            }
        }
        for i in 0..b.empty_count() {
            let p = b.empty_point(i);
            self.update(b, p);
        }
    }

    /// Recomputes empty point `p` in full.
    #[inline]
    fn update(&mut self, b: &Board, p: usize) {
        self.update_from(b, p, b.pattern3(p));
    }

    /// Recomputes empty point `p` in full, its `pattern3` being `pat`.
    #[inline]
    fn update_from(&mut self, b: &Board, p: usize, pat: u16) {
        let a = around_pattern(b, p, pat);
        let key = a.pat as u32 | (a.atari as u32) << 16;
        self.key[p] = key;
        let shape = self.gammas.shape(key);
        if shape == [0.0; 2] {
            // An eye, or suicide for both: no need of the other features (many points late
            // in a playout). Marked unknown for `update_shape`.
            self.tactical[p] = [UNKNOWN; 2];
            self.set(p, [0, 0]);
            return;
        }
        let t = self.gammas.tactical(b, p, &a);
        self.tactical[p] = t;
        self.set(p, PlayoutGammas::combine(shape, t));
    }

    /// Recomputes empty point `p`, whose kept key has been brought up to date and whose
    /// other features are as they were (computed in full if they were not known).
    #[inline]
    fn update_shape(&mut self, b: &Board, p: usize) {
        if self.tactical[p][0] == UNKNOWN {
            self.update(b, p);
            return;
        }
        let w = PlayoutGammas::combine(self.gammas.shape(self.key[p]), self.tactical[p]);
        self.set(p, w);
    }

    /// Sets the weights of point `p`, keeping the sums.
    #[inline]
    fn set(&mut self, p: usize, w: [u32; 2]) {
        let y = self.row_of[p] as usize;
        for (side, &new) in w.iter().enumerate() {
            let old = self.w[side][p];
            if old != new {
                self.w[side][p] = new;
                self.rows[side][y] = self.rows[side][y].wrapping_add(new).wrapping_sub(old);
                self.total[side] = self.total[side].wrapping_add(new).wrapping_sub(old);
            }
        }
    }

    /// Starts the bookkeeping of a move: a fresh stamp for the marks, and room for the one
    /// after it, which `after_move` takes for the groups.
    #[inline]
    fn next_stamp(&mut self) {
        if self.stamp >= u32::MAX - 2 {
            self.mark.fill(0);
            self.shape_mark.fill(0);
            self.gmark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// Queues `p` for a full update (once a move).
    #[inline]
    fn queue(&mut self, p: usize) {
        if self.mark[p] != self.stamp {
            self.mark[p] = self.stamp;
            self.todo.push(p as u16);
        }
    }

    /// Queues the liberties of the group of stone `from` when it has at most two.
    #[inline]
    fn queue_short_liberties(&mut self, b: &Board, from: usize) {
        if let Some((libs, n)) = b.short_liberties(from) {
            for &q in &libs[..n] {
                self.queue(q as usize);
            }
        }
    }

    /// Queues the empty points around `p`, whose colour changed, with `p`'s new colour put
    /// into their kept keys. A diagonal neighbour needs its key alone: its own neighbours
    /// are as they were, and a group next to it whose liberties changed in a way it sees
    /// has it on its short liberty list (queued in full). So does an orthogonal neighbour
    /// whose features were and stay the shape alone (no atari bit, two empty neighbours:
    /// `p` itself, if now a stone, is a group in atari only when the point is its liberty
    /// on that list); any other one is queued in full.
    #[inline]
    fn queue_around(&mut self, b: &Board, p: usize) {
        let s = self.stride;
        let c = b.at(p) as u32;
        // Each neighbour, and the slot `p` has in that neighbour's 3x3 (`pattern3` order).
        self.queue_neighbour(b, p - s, 0, true, c);
        self.queue_neighbour(b, p - s - 1, 1, false, c);
        self.queue_neighbour(b, p - 1, 2, true, c);
        self.queue_neighbour(b, p + s - 1, 3, false, c);
        self.queue_neighbour(b, p + s, 4, true, c);
        self.queue_neighbour(b, p + s + 1, 5, false, c);
        self.queue_neighbour(b, p + 1, 6, true, c);
        self.queue_neighbour(b, p - s + 1, 7, false, c);
    }

    /// [`queue_around`](Softmax::queue_around) for neighbour `q`, where the changed point
    /// is in slot `slot` and now has colour `c`.
    #[inline(always)]
    fn queue_neighbour(&mut self, b: &Board, q: usize, slot: u32, orthogonal: bool, c: u32) {
        if b.at(q) != EMPTY {
            return;
        }
        let old = self.key[q];
        let new = old & !(3 << (2 * slot)) | c << (2 * slot);
        self.key[q] = new;
        if orthogonal && !(simple(old) && simple(new)) {
            self.queue(q);
        } else if self.shape_mark[q] != self.stamp {
            self.shape_mark[q] = self.stamp;
            self.shape_todo.push(q as u16);
        }
    }

    /// Before `side` plays at `p` on `b` (legal): notes what the board knows only now, the
    /// stones the move captures and the short liberty lists of the groups it changes that
    /// the board after the move cannot give.
    pub fn before_move(&mut self, b: &Board, p: usize, side: Side) {
        self.next_stamp();
        self.todo.clear();
        self.shape_todo.clear();
        self.captured.clear();
        self.gainers.clear();
        let me = stone(side);
        let enemy = stone(side.flip());
        for q in b.neighbours(p) {
            let c = b.at(q);
            if c != me && c != enemy {
                continue;
            }
            let g = b.group_of(q);
            if self.gmark[g] == self.stamp {
                continue;
            }
            self.gmark[g] = self.stamp;
            if c == me {
                // It joins the mover's group, which may have three liberties or more after:
                // its other liberty, if it had just two, is seen by its points now.
                if let Some(x) = b.other_liberty(g, p) {
                    self.queue(x);
                }
            } else if b.in_atari(g) {
                // Captured: its stones, and the mover's groups next to them, which gain
                // liberties.
                for s in b.group_stones(g) {
                    self.captured.push(s as u16);
                    for r in b.neighbours(s) {
                        if b.at(r) == me {
                            let h = b.group_of(r);
                            if self.gmark[h] != self.stamp {
                                self.gmark[h] = self.stamp;
                                self.gainers.push(r as u16);
                                self.queue_short_liberties(b, r);
                            }
                        }
                    }
                }
            }
            // An opponent's group that survives only loses p: its liberties after the move
            // are the ones to see.
        }
    }

    /// After the move at `p` that [`before_move`](Softmax::before_move) saw has been played
    /// on `b`: recomputes every point whose features may have changed.
    pub fn after_move(&mut self, b: &Board, p: usize) {
        self.set(p, [0, 0]);
        // The captured points are recomputed from scratch below: marked, never queued.
        for i in 0..self.captured.len() {
            self.mark[self.captured[i] as usize] = self.stamp;
        }
        self.queue_around(b, p);
        for i in 0..self.captured.len() {
            let c = self.captured[i] as usize;
            self.queue_around(b, c);
        }
        // The groups after the move: the mover's (merged) group, the opponent's next to it,
        // and the mover's groups that captured. `gmark` holds this move's stamp for the
        // groups seen before the move; a second stamp (the point marks stay as they are)
        // keeps the ones seen after apart.
        let points = self.stamp;
        let after = points + 1;
        let enemy = b.at(p) ^ 3;
        self.gmark[b.group_of(p)] = after;
        // With two empty neighbours or more, the mover's group has no liberties but those
        // (queued already) or at least three.
        if b.neighbours(p)
            .iter()
            .filter(|&&q| b.at(q) == EMPTY)
            .count()
            < 2
        {
            self.queue_short_liberties(b, p);
        }
        for q in b.neighbours(p) {
            if b.at(q) == enemy {
                let h = b.group_of(q);
                if self.gmark[h] != after {
                    self.gmark[h] = after;
                    self.queue_short_liberties(b, q);
                }
            }
        }
        for i in 0..self.gainers.len() {
            let r = self.gainers[i] as usize;
            let h = b.group_of(r);
            if self.gmark[h] != after {
                self.gmark[h] = after;
                self.queue_short_liberties(b, r);
            }
        }
        self.stamp = after;
        // The captured points first, whose keys are stale: every other empty point's kept
        // key has its colours up to date (`queue_around` put in every change).
        for i in 0..self.captured.len() {
            let c = self.captured[i] as usize;
            self.update(b, c);
        }
        for i in 0..self.todo.len() {
            let q = self.todo[i] as usize;
            if b.at(q) == EMPTY {
                self.update_from(b, q, self.key[q] as u16);
            } else {
                self.set(q, [0, 0]);
            }
        }
        for i in 0..self.shape_todo.len() {
            let q = self.shape_todo[i] as usize;
            if self.mark[q] != points {
                self.update_shape(b, q);
            }
        }
    }

    /// Draws a point for `side` on `b` with probability weight over total (the last move's
    /// neighbours weighted by the contiguity gamma) until `accept` takes one; `None` when
    /// every point is refused or has weight 0. Refused points get their weights back after.
    pub fn draw(
        &mut self,
        b: &Board,
        side: Side,
        rng: &mut SmallRng,
        mut accept: impl FnMut(usize, &mut SmallRng) -> bool,
    ) -> Option<usize> {
        let s = side.index();
        let st = self.stride;
        // Contiguity as a fixed-point factor c - 1, in sixteenths.
        let extra_k = ((self.gammas.contiguity - 1.0) * 16.0).round().max(0.0) as u64;
        let near: Option<[usize; 8]> = b.last_move().point().filter(|_| extra_k > 0).map(|l| {
            [
                l + st,
                l - st,
                l + 1,
                l - 1,
                l + st + 1,
                l + st - 1,
                l - st + 1,
                l - st - 1,
            ]
        });
        let found = loop {
            let total = self.total[s] as u64;
            if total == 0 {
                break None;
            }
            let mut extra = 0u64;
            if let Some(near) = near {
                for q in near {
                    extra += self.w[s][q] as u64;
                }
                extra *= extra_k;
            }
            let mut r = below(rng, total * 16 + extra);
            let p = if r >= total * 16 {
                // Among the neighbours of the last move, by weight.
                r = (r - total * 16) / extra_k;
                let mut pick = 0;
                for q in near.unwrap() {
                    let w = self.w[s][q] as u64;
                    if r < w {
                        pick = q;
                        break;
                    }
                    r -= w;
                }
                pick
            } else {
                self.pick(s, (r / 16) as u32)
            };
            if accept(p, rng) {
                break Some(p);
            }
            // Out for this move.
            let old = self.w[s][p];
            self.refused.push((p as u16, old));
            let y = self.row_of[p] as usize;
            self.w[s][p] = 0;
            self.rows[s][y] -= old;
            self.total[s] -= old;
        };
        while let Some((p, old)) = self.refused.pop() {
            let p = p as usize;
            let y = self.row_of[p] as usize;
            self.w[s][p] = old;
            self.rows[s][y] += old;
            self.total[s] += old;
        }
        found
    }

    /// The point where the running sum of side `s`'s weights passes `r` (< the total).
    #[inline]
    fn pick(&self, s: usize, mut r: u32) -> usize {
        let rows = &self.rows[s];
        let mut y = 0;
        while y + 1 < self.size && r >= rows[y] {
            r -= rows[y];
            y += 1;
        }
        let start = (y + 1) * self.stride + 1;
        let w = &self.w[s];
        let mut p = start;
        while p + 1 < start + self.size && r >= w[p] {
            r -= w[p];
            p += 1;
        }
        p
    }

    /// Checks every kept weight, row sum and total against a recomputation on `b`.
    #[cfg(test)]
    pub fn validate(&self, b: &Board) -> Result<(), String> {
        let mut rows = [[0u32; MAX_SIZE]; 2];
        for p in b.board_points() {
            let w = if b.at(p) == EMPTY {
                let a = super::playout_features::around(b, p);
                let key = a.pat as u32 | (a.atari as u32) << 16;
                if self.key[p] != key {
                    return Err(format!(
                        "{}: key {:#x}, recomputed {key:#x}",
                        b.point_name(p),
                        self.key[p]
                    ));
                }
                let t = self.gammas.tactical(b, p, &a);
                let kept = self.tactical[p];
                if kept != t && !(kept == [UNKNOWN; 2] && self.gammas.shape(key) == [0.0; 2]) {
                    return Err(format!(
                        "{}: tactical {kept:?}, recomputed {t:?}",
                        b.point_name(p)
                    ));
                }
                self.gammas.weights(b, p)
            } else {
                [0, 0]
            };
            for side in 0..2 {
                if self.w[side][p] != w[side] {
                    return Err(format!(
                        "{} for {}: kept {}, recomputed {}",
                        b.point_name(p),
                        if side == 0 { "Black" } else { "White" },
                        self.w[side][p],
                        w[side]
                    ));
                }
                rows[side][b.coords(p).1] += w[side];
            }
        }
        for (side, recomputed) in rows.iter().enumerate() {
            if recomputed[..self.size] != self.rows[side][..self.size] {
                return Err(format!("row sums wrong for side {side}"));
            }
            if recomputed.iter().sum::<u32>() != self.total[side] {
                return Err(format!("total wrong for side {side}"));
            }
        }
        Ok(())
    }
}

/// A uniform integer below `n` (> 0) from 64 random bits, without division.
#[inline]
fn below(rng: &mut SmallRng, n: u64) -> u64 {
    ((rng.next_u64() as u128 * n as u128) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayoutEnd;
    use crate::games::go::board::Move;
    use crate::games::go::playout_features::scrambled;
    use once_cell::sync::Lazy;
    use rand::{Rng, SeedableRng};

    static SCRAMBLED: Lazy<PlayoutGammas> = Lazy::new(scrambled);

    /// Plays `m` on `b`, keeping `s` up to date as the playout does.
    fn play(s: &mut Softmax, b: &mut Board, m: Move) {
        match m.point() {
            Some(p) => {
                s.before_move(b, p, b.to_move());
                b.play_fast(m);
                s.after_move(b, p);
            }
            None => b.play_fast(m),
        }
    }

    #[test]
    fn kept_weights_match_a_recomputation_after_every_move() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut s = Box::new(Softmax::new(&SCRAMBLED));
        let mut checked = 0;
        for (size, games) in [(9, 40), (19, 6), (5, 40)] {
            for game in 0..games {
                let mut b = Board::new(size);
                // Half the games start from a random position partway through.
                if game % 2 == 1 {
                    for _ in 0..size * size / 3 {
                        let m = b.policy_move(&mut rng);
                        b.play_fast(m);
                    }
                }
                s.chance = [256, 128, 0][game % 3];
                s.start(&b);
                s.validate(&b).unwrap();
                let mut passes = 0;
                let mut moves = 0;
                while passes < 2 && moves < 3 * size * size {
                    let side = b.to_move();
                    let m = if rng.gen_bool(0.2) {
                        // A draw that refuses some points at random: they must come back.
                        let found = s.draw(&b, side, &mut rng, |p, r| {
                            b.is_legal_fast(p, side) && !b.is_self_atari(p, side) && r.gen_bool(0.6)
                        });
                        s.validate(&b).unwrap();
                        found.map_or(Move::PASS, Move::at)
                    } else {
                        b.policy_move_with::<true>(&mut rng, None, Some(&mut s))
                    };
                    passes = if m.is_pass() { passes + 1 } else { 0 };
                    play(&mut s, &mut b, m);
                    moves += 1;
                    if let Err(e) = s.validate(&b) {
                        panic!("{e} after {} ({moves} moves)\n{b:?}", b.vertex(m));
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 5000, "{checked} moves checked");
    }

    #[test]
    fn draws_follow_the_weights_and_contiguity() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut s = Box::new(Softmax::new(&SCRAMBLED));
        let mut b = Board::new(5);
        for v in ["C3", "B3", "C2", "D4", "B2"] {
            b.play(b.parse_vertex(v).unwrap());
        }
        s.start(&b);
        let side = b.to_move();
        let last = b.last_move().point().unwrap();
        let c = SCRAMBLED.contiguity;
        let kept = s.w[side.index()];
        let weight = |p: usize| {
            let w = kept[p] as f64;
            let near = p != last && {
                let (x, y) = b.coords(p);
                let (lx, ly) = b.coords(last);
                x.abs_diff(lx) <= 1 && y.abs_diff(ly) <= 1
            };
            if near {
                w * c as f64
            } else {
                w
            }
        };
        let total: f64 = b.board_points().map(weight).sum();
        let n = 200_000;
        let mut count = vec![0u32; b.mailbox_len()];
        for _ in 0..n {
            let p = s.draw(&b, side, &mut rng, |_, _| true).unwrap();
            count[p] += 1;
        }
        for p in b.board_points() {
            let expect = n as f64 * weight(p) / total;
            let sigma = expect.sqrt().max(1.0);
            assert!(
                (count[p] as f64 - expect).abs() < 5.0 * sigma,
                "{}: drawn {} times, expected {expect:.0}",
                b.point_name(p),
                count[p]
            );
        }
    }

    #[test]
    fn softmax_playouts_end_with_a_settled_board() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut s = Box::new(Softmax::new(&GAMMAS));
        s.chance = 256;
        let mut trace = Vec::new();
        for size in [9, 19] {
            let mut wins = 0.0;
            for _ in 0..40 {
                let mut b = Board::new(size);
                trace.clear();
                let end: PlayoutEnd =
                    b.run_playout_with::<true>(&mut rng, &mut trace, None, Some(&mut s));
                b.validate().unwrap();
                s.validate(&b).unwrap();
                assert!(trace.len() > size * size / 2);
                // Nothing left but eyes and the points both sides refuse.
                let owned = b
                    .board_points()
                    .filter(|&p| b.point_owner(p) != EMPTY)
                    .count();
                assert!(owned * 10 >= size * size * 9, "{owned} owned\n{b:?}");
                wins += end.value;
            }
            assert!(
                wins > 4.0 && wins < 36.0,
                "{size}x{size}: black won {wins} of 40"
            );
        }
    }
}
