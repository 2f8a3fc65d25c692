//! Move-ordering statistics one search thread learns as it goes.
//!
//! Scheme: all tables are indexed by the game's dense `Position::move_index` (for chess, piece
//! and target square). *Butterfly* history scores quiet moves per side; *capture* history
//! corrects MVV/LVA for noisy moves; *continuation* history scores a quiet move by the move
//! played one, two and four plies before it (one table, indexed by the pair of indices), when
//! the index space is small enough for the pair table to stay in a few megabytes; the
//! *countermove* table remembers the quiet reply that refuted each move. Updates use "history
//! gravity": `h += bonus - h * |bonus| / MAX`, which keeps every entry inside `±MAX` and lets
//! old knowledge decay as new bonuses arrive. Tables live as long as the thread and are cleared
//! on a new game.

use crate::game::Side;

/// Bound of every history entry.
pub const MAX_HISTORY: i32 = 16_384;
/// Largest index space for which the continuation pair table is kept (its size is the square).
const MAX_CONT_SPACE: usize = 1600;

/// The learned tables of one thread. `M` is the game's move type (for countermoves).
pub struct History<M> {
    space: usize,
    butterfly: Vec<i16>,
    capture: Vec<i16>,
    cont: Vec<i16>,
    counter: Vec<Option<M>>,
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let v = *entry as i32;
    let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    *entry = (v + bonus - v * bonus.abs() / MAX_HISTORY) as i16;
}

impl<M: Copy> History<M> {
    pub fn new(space: usize) -> History<M> {
        let cont_len = if space <= MAX_CONT_SPACE {
            space * space
        } else {
            0
        };
        History {
            space,
            butterfly: vec![0; 2 * space],
            capture: vec![0; 2 * space],
            cont: vec![0; cont_len],
            counter: vec![None; space],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.capture.fill(0);
        self.cont.fill(0);
        self.counter.fill(None);
    }

    /// Whether continuation history is kept for this game.
    #[inline]
    pub fn has_cont(&self) -> bool {
        !self.cont.is_empty()
    }

    #[inline]
    pub fn quiet(&self, side: Side, idx: usize) -> i32 {
        self.butterfly[side.index() * self.space + idx] as i32
    }

    #[inline]
    pub fn update_quiet(&mut self, side: Side, idx: usize, bonus: i32) {
        gravity(&mut self.butterfly[side.index() * self.space + idx], bonus);
    }

    #[inline]
    pub fn noisy(&self, side: Side, idx: usize) -> i32 {
        self.capture[side.index() * self.space + idx] as i32
    }

    #[inline]
    pub fn update_noisy(&mut self, side: Side, idx: usize, bonus: i32) {
        gravity(&mut self.capture[side.index() * self.space + idx], bonus);
    }

    /// Continuation score of `idx` after a move with index `prev` (0 when untracked).
    #[inline]
    pub fn cont(&self, prev: Option<usize>, idx: usize) -> i32 {
        match prev {
            Some(p) if self.has_cont() => self.cont[p * self.space + idx] as i32,
            _ => 0,
        }
    }

    #[inline]
    pub fn update_cont(&mut self, prev: Option<usize>, idx: usize, bonus: i32) {
        if let Some(p) = prev {
            if self.has_cont() {
                gravity(&mut self.cont[p * self.space + idx], bonus);
            }
        }
    }

    #[inline]
    pub fn counter(&self, prev: Option<usize>) -> Option<M> {
        prev.and_then(|p| self.counter[p])
    }

    #[inline]
    pub fn set_counter(&mut self, prev: Option<usize>, m: M) {
        if let Some(p) = prev {
            self.counter[p] = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded_and_moving() {
        let mut h: History<u8> = History::new(10);
        for _ in 0..1000 {
            h.update_quiet(Side::First, 3, 2000);
        }
        let v = h.quiet(Side::First, 3);
        assert!(v > 15_000 && v <= MAX_HISTORY, "{v}");
        assert_eq!(h.quiet(Side::Second, 3), 0);
        h.update_quiet(Side::First, 3, -2000);
        assert!(h.quiet(Side::First, 3) < v);
        for _ in 0..1000 {
            h.update_cont(Some(2), 5, -3000);
        }
        assert!(h.cont(Some(2), 5) >= -MAX_HISTORY);
        assert!(h.cont(Some(2), 5) < -15_000);
        assert_eq!(h.cont(None, 5), 0);
    }
}
