//! The transposition table shared by every search thread.
//!
//! Scheme: an array (of any length) of 64-byte buckets (one cache line), each holding four entries of
//! two `AtomicU64` words. Word `data` packs the move (32 bits, from `Position::pack`), the score
//! and the static evaluation (16 bits each); word `check` is `(key_check << 24 | meta) ^ data`,
//! where `key_check` is the low 40 bits of the Zobrist key and `meta` packs depth, bound, a PV
//! flag, a move-present flag and the search generation. A reader loads both words and accepts
//! the entry only when `check ^ data` reproduces its key: a write torn between two threads (each
//! word is atomic, the pair is not) fails that test like any other key mismatch, so no lock and
//! no `unsafe` is needed (Hyatt's lockless hashing; the one `unsafe` here is the prefetch hint,
//! [`Table::prefetch`], which touches no data). The bucket is chosen from the key's high
//! bits by a multiply-shift, so the check bits and the index bits are independent.
//!
//! Replacement keeps, per bucket, the entry worth most: an entry of the same key is overwritten
//! (keeping its move when the new write has none); otherwise the entry with the lowest
//! `depth - 8 * age` goes, where age counts searches since the entry was written. `hashfull` is
//! the per-mille share of the first thousand entries written in the current search. Clearing
//! zeroes the table in parallel slices; resizing builds a new table (the engine swaps its `Arc`
//! between searches).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::score::Score;

const ENTRIES: usize = 4;
const KEY_BITS: u32 = 40;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Stored depths are offset so that quiescence depths (down to `DEPTH_OFFSET` below zero) fit
/// in a byte and a stored byte is never zero (zero marks an empty entry).
const DEPTH_OFFSET: i32 = 8;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move beat alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// One entry read back from the table. Scores are as stored: relative to the storing node
/// (see `score::from_tt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The packed best move, if one was stored.
    pub mv: Option<u32>,
    pub score: Score,
    pub eval: Score,
    pub depth: i32,
    pub bound: Bound,
    /// Whether the entry was written by a PV node.
    pub pv: bool,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    words: [[AtomicU64; 2]; ENTRIES],
}

/// The shared table. Every method takes `&self`: entries are atomics.
pub struct Table {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// Panics only if the memory cannot be had; [`try_new`](Table::try_new) reports that.
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).expect("allocating the transposition table")
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot be reserved.
    pub fn try_new(mb: usize) -> Result<Table, String> {
        let n = (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB table"))?;
        buckets.extend((0..n).map(|_| Bucket::default()));
        Ok(Table {
            buckets: buckets.into_boxed_slice(),
            generation: AtomicU8::new(0),
        })
    }

    /// A table of one bucket: a placeholder for threads between searches.
    pub fn tiny() -> Table {
        Table {
            buckets: vec![Bucket::default()].into_boxed_slice(),
            generation: AtomicU8::new(0),
        }
    }

    /// The size in megabytes, as created.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Marks the start of a new search, so entries from earlier searches age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Empties the table, zeroing it in `threads` parallel slices.
    pub fn clear(&self, threads: usize) {
        let threads = threads.clamp(1, 64);
        let chunk = self.buckets.len().div_ceil(threads);
        std::thread::scope(|s| {
            for slice in self.buckets.chunks(chunk.max(1)) {
                s.spawn(move || {
                    for bucket in slice {
                        for w in &bucket.words {
                            w[0].store(0, Relaxed);
                            w[1].store(0, Relaxed);
                        }
                    }
                });
            }
        });
        self.generation.store(0, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the CPU to start loading `key`'s bucket into the cache, so that a probe made a
    /// little later (the search calls this right after making a move, the child probes once
    /// its draw and capture checks are done) finds it there instead of waiting on memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: `_mm_prefetch` is only unsafe because it is an intrinsic with a target
            // feature (SSE, which every x86_64 CPU has). It is a hint: it reads nothing the
            // program can observe, writes nothing and cannot fault, whatever the address; and
            // `line` points into `self.buckets` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let check = key & KEY_MASK;
        for w in &self.bucket(key).words {
            let data = w[1].load(Relaxed);
            let x = w[0].load(Relaxed) ^ data;
            if x >> 24 == check && x & 0xff != 0 {
                return Some(decode(x, data));
            }
        }
        None
    }

    /// Stores a search result. `mv` is a packed move; `score` is already relative to this node.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<u32>,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let check = key & KEY_MASK;
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);

        // Pick the slot: the same key if present, else the least valuable entry.
        let mut slot = 0;
        let mut old: Option<(u64, u64)> = None;
        let mut worst = i32::MAX;
        for (i, w) in bucket.words.iter().enumerate() {
            let data = w[1].load(Relaxed);
            let x = w[0].load(Relaxed) ^ data;
            if x & 0xff == 0 {
                // Empty: worth nothing.
                if worst > i32::MIN {
                    worst = i32::MIN;
                    slot = i;
                }
                continue;
            }
            if x >> 24 == check {
                slot = i;
                old = Some((x, data));
                break;
            }
            let age = generation.wrapping_sub((x >> 12) as u8) as i32;
            let value = (x & 0xff) as i32 - 8 * age;
            if value < worst {
                worst = value;
                slot = i;
            }
        }

        let mut mv = mv;
        if let Some((x, data)) = old {
            let old_depth = (x & 0xff) as i32 - DEPTH_OFFSET;
            let old_mv = (x >> 11) & 1 != 0;
            // Keep a deeper entry of the current search unless the new one is exact.
            let same_gen = (x >> 12) as u8 == generation;
            if bound != Bound::Exact && same_gen && depth + 4 < old_depth {
                return;
            }
            if mv.is_none() && old_mv {
                mv = Some(data as u32);
            }
        }

        let depth_byte = (depth + DEPTH_OFFSET).clamp(1, 255) as u64;
        let meta = depth_byte
            | (bound as u64) << 8
            | (pv as u64) << 10
            | (mv.is_some() as u64) << 11
            | (generation as u64) << 12;
        let data = mv.unwrap_or(0) as u64
            | ((score.clamp(-32_767, 32_767) as i16 as u16 as u64) << 32)
            | ((eval.clamp(-32_767, 32_767) as i16 as u16 as u64) << 48);
        let w = &bucket.words[slot];
        w[0].store((check << 24 | meta) ^ data, Relaxed);
        w[1].store(data, Relaxed);
    }

    /// Per-mille share of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for w in &bucket.words {
                let x = w[0].load(Relaxed) ^ w[1].load(Relaxed);
                if x & 0xff != 0 && (x >> 12) as u8 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

fn decode(x: u64, data: u64) -> Hit {
    Hit {
        mv: ((x >> 11) & 1 != 0).then_some(data as u32),
        score: (data >> 32) as u16 as i16 as Score,
        eval: (data >> 48) as u16 as i16 as Score,
        depth: (x & 0xff) as i32 - DEPTH_OFFSET,
        bound: Bound::from_bits(x >> 8),
        pv: (x >> 10) & 1 != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn stores_and_reads_back_every_field() {
        let t = Table::new(1);
        t.store(
            0xdead_beef_1234_5678,
            Some(77),
            -31_990,
            45,
            12,
            Bound::Lower,
            true,
        );
        let hit = t.probe(0xdead_beef_1234_5678).expect("stored");
        assert_eq!(
            hit,
            Hit {
                mv: Some(77),
                score: -31_990,
                eval: 45,
                depth: 12,
                bound: Bound::Lower,
                pv: true
            }
        );
        // A key differing only in the checked bits misses.
        assert_eq!(t.probe(0xdead_beef_1234_5679), None);
    }

    #[test]
    fn quiescence_depths_and_missing_moves_round_trip() {
        let t = Table::new(1);
        t.store(42, None, 5, -7, -1, Bound::Upper, false);
        let hit = t.probe(42).unwrap();
        assert_eq!((hit.mv, hit.depth, hit.bound), (None, -1, Bound::Upper));
        // A later write without a move keeps the stored move.
        t.store(43, Some(9), 0, 0, 3, Bound::Exact, false);
        t.store(43, None, 1, 0, 4, Bound::Upper, false);
        assert_eq!(t.probe(43).unwrap().mv, Some(9));
    }

    #[test]
    fn clear_empties_and_hashfull_counts_this_search() {
        let t = Table::new(1);
        for k in 0..20_000u64 {
            t.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Some(1),
                0,
                0,
                5,
                Bound::Exact,
                false,
            );
        }
        let full = t.hashfull();
        assert!(full > 100, "hashfull {full}");
        t.new_search();
        assert_eq!(t.hashfull(), 0);
        t.clear(2);
        assert_eq!(t.probe(0x9e37_79b9_7f4a_7c15), None);
    }

    #[test]
    fn concurrent_writers_never_produce_a_mixed_entry() {
        // Each writer stores entries whose fields are all derived from the key; a torn entry
        // would pair one key's check word with another's data and fail the key test, so every
        // hit must be self-consistent.
        let t = Arc::new(Table::new(1));
        let keys: Vec<u64> = (0..64u64)
            .map(|k| (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        std::thread::scope(|s| {
            for id in 0..3u64 {
                let t = &t;
                let keys = &keys;
                s.spawn(move || {
                    for round in 0..20_000u64 {
                        let key = keys[((round * 7 + id * 13) % 64) as usize];
                        let tag = (key >> 40) as u32;
                        let d = (key % 50) as i32;
                        t.store(key, Some(tag), d, -d, d, Bound::Exact, false);
                        if let Some(hit) = t.probe(keys[(round % 64) as usize]) {
                            let k = keys[(round % 64) as usize];
                            assert_eq!(hit.mv, Some((k >> 40) as u32));
                            assert_eq!(hit.score, (k % 50) as i32);
                        }
                    }
                });
            }
        });
    }
}
