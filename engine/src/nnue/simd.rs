//! The two inner loops of the network, in portable Rust and with `std::arch` intrinsics.
//!
//! Scheme: [`update`] computes `dst = src + sum(add rows) - sum(sub rows)` over i16 lanes
//! (accumulator refreshes and incremental updates), [`screlu_dot`] computes
//! `sum(clamp(a, 0, QA)^2 * w)` over i16 lanes into an i32 (the output layer). Each has a
//! portable version and AVX2 and AVX-512 (BW) versions, chosen once at run time by
//! [`Level::detect`] (`is_x86_feature_detected!`). All versions give bit-identical results:
//! i16 additions wrap in every version (`_mm*_add_epi16` wraps, the portable code uses
//! `wrapping_add`); the product `c * w` is taken modulo 2^16 as `_mm*_mullo_epi16` does, then
//! multiplied by `c` and summed in pairs as `_mm*_madd_epi16` does, and i32 sums wrap, so the
//! summation order (which differs between lane widths) cannot change the result. A test checks
//! the levels against each other on random data.
//!
//! Slice lengths must be equal multiples of [`LANES`]; that is checked (a panic, not undefined
//! behaviour) before any intrinsic runs, and network loading refuses other sizes.

/// Every vector length used divides this: the hidden size must be a multiple of it.
pub const LANES: usize = 32;

/// An instruction set level for the inner loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Portable,
    Avx2,
    Avx512,
}

impl Level {
    /// The best level this CPU supports (cached after the first call).
    pub fn detect() -> Level {
        static LEVEL: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
        *LEVEL.get_or_init(|| {
            let all = Level::available();
            *all.last().expect("portable is always available")
        })
    }

    /// Every level this CPU can run, portable first.
    pub fn available() -> Vec<Level> {
        #[allow(unused_mut)]
        let mut out = vec![Level::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                out.push(Level::Avx2);
            }
            // AVX-512 is used only on top of AVX2 (every such CPU has both), so that any level
            // above portable implies AVX2.
            if is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
            {
                out.push(Level::Avx512);
            }
        }
        out
    }
}

fn check_lengths(dst: usize, src: usize, rows: &[&[i16]]) {
    assert!(
        dst == src && dst.is_multiple_of(LANES),
        "accumulator length {dst}/{src}"
    );
    for r in rows {
        assert_eq!(r.len(), dst, "weight row length");
    }
}

/// `dst = src + sum(add) - sum(sub)`, lane by lane, wrapping.
///
/// `level` must be one of [`Level::available`] (a level the CPU lacks falls back to portable).
#[inline]
pub fn update(level: Level, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_lengths(dst.len(), src.len(), add);
    check_lengths(dst.len(), src.len(), sub);
    let n = dst.len();
    // SAFETY (of the kernel call): `dst` and `src` are distinct live slices of length `n`.
    unsafe { update_raw(level, dst.as_mut_ptr(), src.as_ptr(), n, add, sub) }
}

/// `acc += sum(add) - sum(sub)`, lane by lane, wrapping.
#[inline]
pub fn update_in_place(level: Level, acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    check_lengths(acc.len(), acc.len(), add);
    check_lengths(acc.len(), acc.len(), sub);
    let n = acc.len();
    let p = acc.as_mut_ptr();
    // SAFETY (of the kernel call): `p` covers `n` values; the kernels read lane `i` of the
    // source before writing lane `i` of the destination, so one buffer may be both.
    unsafe { update_raw(level, p, p, n, add, sub) }
}

/// # Safety
/// `dst` must be valid for writes and `src` for reads of `n` values (they may be the same
/// buffer), `n` a multiple of [`LANES`], and every row `n` long (checked by the callers).
#[inline]
unsafe fn update_raw(
    level: Level,
    dst: *mut i16,
    src: *const i16,
    n: usize,
    add: &[&[i16]],
    sub: &[&[i16]],
) {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU supports AVX-512 F and BW (detected); the caller guarantees the
        // buffers and lengths, so the unaligned 32-lane loads and stores stay in bounds.
        Level::Avx512 if Level::detect() == Level::Avx512 => unsafe {
            x86::update_avx512(dst, src, n, add, sub)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 is present (any detected level above portable includes it); bounds as
        // above, with 16-lane loads and stores.
        Level::Avx2 | Level::Avx512 if Level::detect() != Level::Portable => unsafe {
            x86::update_avx2(dst, src, n, add, sub)
        },
        _ => {
            // SAFETY: `src` is readable and `dst` writable for `n` values; `copy` allows them
            // to be the same buffer. After it `src` is not used again, so the one mutable
            // slice over `dst` aliases nothing that is read.
            let d = unsafe {
                std::ptr::copy(src, dst, n);
                std::slice::from_raw_parts_mut(dst, n)
            };
            // Row by row, so that the compiler vectorises each pass with the baseline SIMD.
            for a in add {
                for (x, &w) in d.iter_mut().zip(a.iter()) {
                    *x = x.wrapping_add(w);
                }
            }
            for s in sub {
                for (x, &w) in d.iter_mut().zip(s.iter()) {
                    *x = x.wrapping_sub(w);
                }
            }
        }
    }
}

#[cfg(test)]
fn update_portable(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    dst.copy_from_slice(src);
    for a in add {
        for (d, &w) in dst.iter_mut().zip(a.iter()) {
            *d = d.wrapping_add(w);
        }
    }
    for s in sub {
        for (d, &w) in dst.iter_mut().zip(s.iter()) {
            *d = d.wrapping_sub(w);
        }
    }
}

/// `sum over lanes of clamp(acc, 0, qa)^2 * w`, with the product `clamp * w` taken modulo
/// 2^16 (exact while `qa * |w| < 2^15`), and the sum wrapping in i32.
#[inline]
pub fn screlu_dot(level: Level, acc: &[i16], w: &[i16], qa: i16) -> i32 {
    check_lengths(acc.len(), w.len(), &[]);
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 if Level::detect() == Level::Avx512 => {
            // SAFETY: AVX-512 F and BW are present (detected); `acc` and `w` have one length,
            // a multiple of 32 lanes (checked), so the 32-lane loads stay in bounds.
            unsafe { x86::screlu_avx512(acc, w, qa) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 | Level::Avx512 if Level::detect() != Level::Portable => {
            // SAFETY: AVX2 is present (detected); one length, a multiple of 32 (checked), so
            // the 16-lane loads stay in bounds.
            unsafe { x86::screlu_avx2(acc, w, qa) }
        }
        _ => screlu_portable(acc, w, qa),
    }
}

fn screlu_portable(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    let mut sum = 0i32;
    for (a, w) in acc.chunks_exact(2).zip(w.chunks_exact(2)) {
        let c0 = a[0].clamp(0, qa);
        let c1 = a[1].clamp(0, qa);
        let p0 = c0.wrapping_mul(w[0]);
        let p1 = c1.wrapping_mul(w[1]);
        // What `madd_epi16` does with one pair: two exact i32 products, added with wrapping.
        let pair = (p0 as i32 * c0 as i32).wrapping_add(p1 as i32 * c1 as i32);
        sum = sum.wrapping_add(pair);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// One accumulator-update kernel per instruction set, from the same text: `dst = src +
    /// sum(add) - sum(sub)` over `n` lanes, `$lanes` at a time. The row counts of a quiet
    /// move, a capture, castling and a refresh group get loops of their own, with the rows
    /// unrolled; other counts take the general loop.
    macro_rules! update_kernel {
        ($name:ident, $feature:literal, $vec:ty, $lanes:literal,
         $load:ident, $store:ident, $add:ident, $sub:ident) => {
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn $name(
                dst: *mut i16,
                src: *const i16,
                n: usize,
                add: &[&[i16]],
                sub: &[&[i16]],
            ) {
                let load = |p: *const i16, i: usize| $load(p.add(i) as *const $vec);
                match (add, sub) {
                    ([a0], [s0]) => {
                        let mut i = 0;
                        while i < n {
                            let v = $add(load(src, i), load(a0.as_ptr(), i));
                            $store(dst.add(i) as *mut $vec, $sub(v, load(s0.as_ptr(), i)));
                            i += $lanes;
                        }
                    }
                    ([a0], [s0, s1]) => {
                        let mut i = 0;
                        while i < n {
                            let v = $add(load(src, i), load(a0.as_ptr(), i));
                            let v = $sub($sub(v, load(s0.as_ptr(), i)), load(s1.as_ptr(), i));
                            $store(dst.add(i) as *mut $vec, v);
                            i += $lanes;
                        }
                    }
                    ([a0, a1], [s0, s1]) => {
                        let mut i = 0;
                        while i < n {
                            let v = $add(load(src, i), load(a0.as_ptr(), i));
                            let v = $add(v, load(a1.as_ptr(), i));
                            let v = $sub($sub(v, load(s0.as_ptr(), i)), load(s1.as_ptr(), i));
                            $store(dst.add(i) as *mut $vec, v);
                            i += $lanes;
                        }
                    }
                    ([a0, a1, a2, a3], []) => {
                        let mut i = 0;
                        while i < n {
                            let v = $add(load(src, i), load(a0.as_ptr(), i));
                            let v = $add($add(v, load(a1.as_ptr(), i)), load(a2.as_ptr(), i));
                            $store(dst.add(i) as *mut $vec, $add(v, load(a3.as_ptr(), i)));
                            i += $lanes;
                        }
                    }
                    _ => {
                        let mut i = 0;
                        while i < n {
                            let mut v = load(src, i);
                            for a in add {
                                v = $add(v, load(a.as_ptr(), i));
                            }
                            for s in sub {
                                v = $sub(v, load(s.as_ptr(), i));
                            }
                            $store(dst.add(i) as *mut $vec, v);
                            i += $lanes;
                        }
                    }
                }
            }
        };
    }

    update_kernel!(
        update_avx2,
        "avx2",
        __m256i,
        16,
        _mm256_loadu_si256,
        _mm256_storeu_si256,
        _mm256_add_epi16,
        _mm256_sub_epi16
    );
    update_kernel!(
        update_avx512,
        "avx512f,avx512bw",
        __m512i,
        32,
        _mm512_loadu_si512,
        _mm512_storeu_si512,
        _mm512_add_epi16,
        _mm512_sub_epi16
    );

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn screlu_avx2(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < acc.len() {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let p = _mm256_mullo_epi16(c, _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(p, c));
            i += 16;
        }
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256::<1>(sum);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn screlu_avx512(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm512_setzero_si512();
        let top = _mm512_set1_epi16(qa);
        let mut sum = _mm512_setzero_si512();
        let mut i = 0;
        while i < acc.len() {
            let a = _mm512_loadu_si512(acc.as_ptr().add(i) as *const __m512i);
            let c = _mm512_min_epi16(_mm512_max_epi16(a, zero), top);
            let p = _mm512_mullo_epi16(c, _mm512_loadu_si512(w.as_ptr().add(i) as *const __m512i));
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(p, c));
            i += 32;
        }
        _mm512_reduce_add_epi32(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn random(rng: &mut SmallRng, n: usize, range: i16) -> Vec<i16> {
        (0..n).map(|_| rng.gen_range(-range..=range)).collect()
    }

    #[test]
    fn every_level_gives_the_portable_numbers() {
        let mut rng = SmallRng::seed_from_u64(7);
        for &n in &[32usize, 64, 256, 512] {
            for _ in 0..50 {
                let src = random(&mut rng, n, 3000);
                let rows: Vec<Vec<i16>> = (0..8).map(|_| random(&mut rng, n, 400)).collect();
                // Weights beyond qa * |w| < 2^15 too, to check that wrapping agrees.
                let w = random(&mut rng, n, i16::MAX);
                let dot = screlu_portable(&src, &w, 181);
                // The row counts with loops of their own, and others.
                for (na, ns) in [(1, 1), (1, 2), (2, 2), (4, 0), (2, 1), (3, 0), (0, 0)] {
                    let (add, sub): (Vec<&[i16]>, Vec<&[i16]>) = (
                        rows[..na].iter().map(|r| r.as_slice()).collect(),
                        rows[4..4 + ns].iter().map(|r| r.as_slice()).collect(),
                    );
                    let mut want = vec![0i16; n];
                    update_portable(&mut want, &src, &add, &sub);
                    for level in Level::available() {
                        let mut got = vec![0i16; n];
                        update(level, &mut got, &src, &add, &sub);
                        assert_eq!(got, want, "{level:?} update {na}/{ns}, n {n}");
                        let mut in_place = src.clone();
                        update_in_place(level, &mut in_place, &add, &sub);
                        assert_eq!(in_place, want, "{level:?} in place {na}/{ns}, n {n}");
                    }
                }
                for level in Level::available() {
                    assert_eq!(screlu_dot(level, &src, &w, 181), dot, "{level:?} dot");
                }
            }
        }
    }

    #[test]
    fn portable_loops_do_the_arithmetic() {
        let src = vec![5i16; 32];
        let a = vec![3i16; 32];
        let s = vec![1i16; 32];
        let mut dst = vec![0i16; 32];
        update_portable(&mut dst, &src, &[&a, &a], &[&s]);
        assert!(dst.iter().all(|&v| v == 10));
        let mut acc = vec![0i16; 32];
        acc[0] = 200; // clamped to 181
        acc[1] = -5; // clamped to 0
        acc[2] = 10;
        let w = vec![2i16; 32];
        assert_eq!(screlu_portable(&acc, &w, 181), 181 * 181 * 2 + 100 * 2);
    }
}
