//! Move-ordering statistics one search thread learns as it goes.
//!
//! Scheme: the tables are indexed by the game's dense `Position::move_index` (for chess, piece
//! and target square), but for capture history. *Butterfly* history scores quiet moves per
//! side and per threat bucket of the move at its node (`Position::threat_bucket`; chess:
//! whether the opponent attacks the move's origin, its target, both or neither), so a move
//! that flees an attack or walks into one learns apart from the same move elsewhere; *capture*
//! history corrects MVV/LVA for noisy moves, per side and `Position::noisy_index` (chess:
//! piece, target square and the kind captured); *continuation* history scores a quiet move by the move played one, two and four
//! plies before it (one table, indexed by the pair of indices), when the index space is small
//! enough for the pair table to stay in a few megabytes; the *countermove* table remembers the
//! quiet reply that refuted each move. *Correction* history is not about moves: per side, per
//! structure key of the game (chess: the pawns, and each side's other pieces), and per the
//! last two moves played (a key the search supplies), and per bucket of that key, a running
//! average of how far searches found the static evaluation off; the entries of a position's
//! keys are added to its later static evaluations. Updates use
//! "history gravity": `h += bonus - h * |bonus| / MAX`, which keeps every entry inside `±MAX`
//! and lets old knowledge decay as new bonuses arrive. Tables live as long as the thread and
//! are cleared on a new game.

use crate::game::{Side, STRUCTURE_KEYS};

/// Bound of every history entry.
pub const MAX_HISTORY: i32 = 16_384;
/// Largest index space for which the continuation pair table is kept (its size is the square).
const MAX_CONT_SPACE: usize = 1600;
/// Correction tables: one per structure key of the game, and one for the last two moves
/// (the search supplies that key, see [`move_pair_key`]).
pub const CORRECTION_TABLES: usize = STRUCTURE_KEYS + 1;
/// Buckets of a correction table per side and key (a power of two).
const CORRECTION_BUCKETS: usize = 16_384;
/// Correction entries are fixed point, in 1/GRAIN of an evaluation unit.
const CORRECTION_GRAIN: i32 = 256;
/// Largest correction, in evaluation units (a chess pawn is about 100).
const CORRECTION_MAX: i32 = 96;
// The entries are stored as `i16`.
const _: () = assert!(CORRECTION_MAX * CORRECTION_GRAIN <= i16::MAX as i32);

/// The learned tables of one thread. `M` is the game's move type (for countermoves).
pub struct History<M> {
    space: usize,
    /// Threat buckets of the butterfly table.
    buckets: usize,
    /// Index space of the capture table.
    noisy_space: usize,
    butterfly: Vec<i16>,
    capture: Vec<i16>,
    cont: Vec<i16>,
    counter: Vec<Option<M>>,
    /// Bounded by `CORRECTION_MAX * CORRECTION_GRAIN`, which fits an `i16`: half the bytes
    /// of `i32` entries, so more of the tables (several are read per evaluation, each at its
    /// own key) stay in the cache.
    correction: Vec<i16>,
    /// A continuation row of zeros, what `cont_row` gives for an untracked move, so that the
    /// scoring of a node's quiet moves reads every row alike, with no test per move.
    zero_row: Vec<i16>,
}

/// The correction key of the last two moves (their history indices): how a static
/// evaluation errs depends also on what was just played (a capture not yet recaptured, a
/// piece just attacked), which no structure key sees.
#[inline]
pub fn move_pair_key(last: usize, before: usize) -> u64 {
    let k = ((last as u64) << 32) | before as u64;
    // Spread the indices over the bucket bits, which are the low bits of the key.
    k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let v = *entry as i32;
    let bonus = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    *entry = (v + bonus - v * bonus.abs() / MAX_HISTORY) as i16;
}

impl<M: Copy> History<M> {
    /// Tables for moves indexed below `space`, the butterfly table with `buckets` threat
    /// buckets (`Position::THREAT_BUCKETS`), the capture table for noisy moves indexed below
    /// `noisy_space` (`Position::NOISY_INDEX_SPACE`).
    pub fn new(space: usize, buckets: usize, noisy_space: usize) -> History<M> {
        let cont_len = if space <= MAX_CONT_SPACE {
            space * space
        } else {
            0
        };
        History {
            space,
            buckets,
            noisy_space,
            butterfly: vec![0; 2 * buckets * space],
            capture: vec![0; 2 * noisy_space],
            cont: vec![0; cont_len],
            counter: vec![None; space],
            correction: vec![0; CORRECTION_TABLES * 2 * CORRECTION_BUCKETS],
            zero_row: vec![0; space],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.capture.fill(0);
        self.cont.fill(0);
        self.counter.fill(None);
        self.correction.fill(0);
    }

    /// Whether continuation history is kept for this game.
    #[inline]
    pub fn has_cont(&self) -> bool {
        !self.cont.is_empty()
    }

    #[inline]
    fn butterfly_slot(&self, side: Side, bucket: usize, idx: usize) -> usize {
        debug_assert!(bucket < self.buckets && idx < self.space);
        (side.index() * self.buckets + bucket) * self.space + idx
    }

    /// Butterfly score of the quiet move `idx` with threat bucket `bucket`.
    #[inline]
    pub fn quiet(&self, side: Side, bucket: usize, idx: usize) -> i32 {
        self.butterfly[self.butterfly_slot(side, bucket, idx)] as i32
    }

    #[inline]
    pub fn update_quiet(&mut self, side: Side, bucket: usize, idx: usize, bonus: i32) {
        let slot = self.butterfly_slot(side, bucket, idx);
        gravity(&mut self.butterfly[slot], bonus);
    }

    /// Capture history of the noisy move with `Position::noisy_index` `nidx`.
    #[inline]
    pub fn noisy(&self, side: Side, nidx: usize) -> i32 {
        debug_assert!(nidx < self.noisy_space);
        self.capture[side.index() * self.noisy_space + nidx] as i32
    }

    #[inline]
    pub fn update_noisy(&mut self, side: Side, nidx: usize, bonus: i32) {
        debug_assert!(nidx < self.noisy_space);
        gravity(
            &mut self.capture[side.index() * self.noisy_space + nidx],
            bonus,
        );
    }

    /// Continuation score of `idx` after a move with index `prev` (0 when untracked).
    #[inline]
    pub fn cont(&self, prev: Option<usize>, idx: usize) -> i32 {
        match prev {
            Some(p) if self.has_cont() => self.cont[p * self.space + idx] as i32,
            _ => 0,
        }
    }

    /// The continuation scores of every move after a move with index `prev`, by move index
    /// (zeros when untracked): `cont_row(prev)[idx]` is `cont(prev, idx)`.
    #[inline]
    pub fn cont_row(&self, prev: Option<usize>) -> &[i16] {
        match prev {
            Some(p) if self.has_cont() => &self.cont[p * self.space..(p + 1) * self.space],
            _ => &self.zero_row,
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
    fn correction_slot(side: Side, table: usize, key: u64) -> usize {
        (table * 2 + side.index()) * CORRECTION_BUCKETS + (key as usize & (CORRECTION_BUCKETS - 1))
    }

    /// What to add to a static evaluation of `side` to move with structure keys `keys`.
    #[inline]
    pub fn correction(&self, side: Side, keys: &[Option<u64>; CORRECTION_TABLES]) -> i32 {
        let mut sum = 0;
        for (table, key) in keys.iter().enumerate() {
            if let Some(k) = key {
                sum += self.correction[Self::correction_slot(side, table, *k)] as i32;
            }
        }
        sum / CORRECTION_GRAIN
    }

    /// A search at `depth` found the position `diff` better than its corrected static
    /// evaluation: move the average of each of its keys' buckets towards it, deeper searches
    /// weighing more.
    #[inline]
    pub fn update_correction(
        &mut self,
        side: Side,
        keys: &[Option<u64>; CORRECTION_TABLES],
        diff: i32,
        depth: i32,
    ) {
        for (table, key) in keys.iter().enumerate() {
            if let Some(k) = key {
                self.update_correction_table(side, table, *k, diff, depth);
            }
        }
    }

    fn update_correction_table(
        &mut self,
        side: Side,
        table: usize,
        key: u64,
        diff: i32,
        depth: i32,
    ) {
        let weight = (depth + 1).clamp(1, 16);
        let e = &mut self.correction[Self::correction_slot(side, table, key)];
        let old = *e as i32;
        let target = (old / CORRECTION_GRAIN + diff).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        let v = (old * (256 - weight) + target * CORRECTION_GRAIN * weight) / 256;
        *e = v.clamp(
            -CORRECTION_MAX * CORRECTION_GRAIN,
            CORRECTION_MAX * CORRECTION_GRAIN,
        ) as i16;
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
        let mut h: History<u8> = History::new(10, 4, 80);
        for _ in 0..1000 {
            h.update_quiet(Side::First, 2, 3, 2000);
        }
        let v = h.quiet(Side::First, 2, 3);
        assert!(v > 15_000 && v <= MAX_HISTORY, "{v}");
        assert_eq!(h.quiet(Side::Second, 2, 3), 0);
        // Another threat bucket of the same move is another entry.
        for b in [0, 1, 3] {
            assert_eq!(h.quiet(Side::First, b, 3), 0);
        }
        h.update_quiet(Side::First, 2, 3, -2000);
        assert!(h.quiet(Side::First, 2, 3) < v);
        // The last slot of the table is in range.
        h.update_quiet(Side::Second, 3, 9, 100);
        assert_eq!(h.quiet(Side::Second, 3, 9), 100);
        // The capture table has its own index space.
        h.update_noisy(Side::Second, 79, 100);
        assert_eq!(h.noisy(Side::Second, 79), 100);
        assert_eq!(h.noisy(Side::First, 79), 0);
        for _ in 0..1000 {
            h.update_cont(Some(2), 5, -3000);
        }
        assert!(h.cont(Some(2), 5) >= -MAX_HISTORY);
        assert!(h.cont(Some(2), 5) < -15_000);
        assert_eq!(h.cont(None, 5), 0);
        for prev in [None, Some(2), Some(9)] {
            let row = h.cont_row(prev);
            assert_eq!(row.len(), 10);
            assert!((0..10).all(|i| row[i] as i32 == h.cont(prev, i)));
        }
    }

    /// Keys with only slot `slot` filled.
    fn only(slot: usize, key: u64) -> [Option<u64>; CORRECTION_TABLES] {
        let mut keys = [None; CORRECTION_TABLES];
        keys[slot] = Some(key);
        keys
    }

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut h: History<u8> = History::new(10, 1, 10);
        let a = only(0, 77);
        assert_eq!(h.correction(Side::First, &a), 0);
        // The search keeps finding this structure 40 better than the corrected evaluation
        // says, until the correction has absorbed the difference.
        for _ in 0..400 {
            let off = 40 - h.correction(Side::First, &a);
            h.update_correction(Side::First, &a, off, 10);
        }
        let c = h.correction(Side::First, &a);
        assert!((35..=40).contains(&c), "{c}");
        assert_eq!(h.correction(Side::Second, &a), 0);
        // The same key in another table is another bucket.
        assert_eq!(h.correction(Side::First, &only(1, 77)), 0);
        let b = only(0, 5);
        for _ in 0..1000 {
            h.update_correction(Side::Second, &b, -10_000, 20);
        }
        let c = h.correction(Side::Second, &b);
        assert!((-CORRECTION_MAX..=-CORRECTION_MAX + 4).contains(&c), "{c}");
        h.clear();
        assert_eq!(h.correction(Side::First, &a), 0);
    }

    #[test]
    fn corrections_of_several_keys_add_up_to_what_the_search_found() {
        let mut h: History<u8> = History::new(10, 1, 10);
        let all: [Option<u64>; CORRECTION_TABLES] = std::array::from_fn(|i| Some(i as u64 + 1));
        for _ in 0..400 {
            let off = 60 - h.correction(Side::First, &all);
            h.update_correction(Side::First, &all, off, 10);
        }
        let c = h.correction(Side::First, &all);
        assert!((55..=60).contains(&c), "{c}");
        // Each key carries a share: a position that shares only the first key gets only
        // that share.
        let mut first = [Some(9); CORRECTION_TABLES];
        first[0] = Some(1);
        let one = h.correction(Side::First, &first);
        assert!(one > 0 && one < c, "{one} of {c}");
    }
}
