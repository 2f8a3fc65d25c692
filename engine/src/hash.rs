//! The one 64-bit mixer of the project: splitmix64 (Steele, Lea and Flood, 2014).
//!
//! Scheme: [`finalize`] scrambles a word so that every input bit reaches every output bit;
//! [`splitmix`] steps a splitmix64 stream (add the golden-ratio increment, then finalize).
//! Zobrist tables, hashed pattern and structure keys, and the tuners' reproducible choices all
//! draw on these two, so the constants live in one place.

/// The golden-ratio increment of the splitmix64 stream.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's finalizer: a bijection of `u64` with full avalanche.
#[inline]
pub const fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of a splitmix64 stream: the next state and the value it yields.
#[inline]
pub const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(GOLDEN);
    (next, finalize(next))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_matches_splitmix64s_published_first_value() {
        // splitmix64 seeded with 0 yields 0xE220A8397B1DCDAF first (the reference
        // implementation's well-known output).
        assert_eq!(splitmix(0).1, 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix(0).0, GOLDEN);
    }
}
