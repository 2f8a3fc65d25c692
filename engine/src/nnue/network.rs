//! A quantised network and its file format.
//!
//! Scheme: `inputs -> hidden` feature transformer shared by both perspectives (one accumulator
//! per side), SCReLU, then `2 * hidden -> 1` output weights over the side to move's
//! accumulator followed by the other side's, one set of output weights per output bucket (the
//! feature set picks the bucket of a position, chess by the number of pieces on the board, so
//! that the last layer can weigh the same hidden units differently in an endgame). The float
//! model the trainer fits is
//!
//! ```text
//! h_p = B1 + sum over active inputs f of W1[f]                  (p = side to move, other side)
//! a_p = clamp(h_p, 0, 1)^2                                       (SCReLU)
//! eval = (W2[b]_us . a_us + W2[b]_them . a_them + B2[b]) * SCALE (centipawns, bucket b)
//! ```
//!
//! Quantisation: `W1` and `B1` are stored as `round(x * QA)` in i16 with `QA = 181`; `W2` as
//! `round(x * QB)` clamped to +/-127 with `QB = 64`; `B2` as `round(x * QA * QB)` in i32. With
//! an accumulator value `c = clamp(h, 0, QA)`, `c * w2` stays below 2^15 (181 * 127), so the
//! SIMD trick of multiplying by `w2` in i16 and by `c` again in the pairwise i32 sum is exact,
//! and each perspective's `QA^2 * 127 * hidden` fits an i32 for hidden up to 512; the two
//! perspectives are added in i64 (larger nets still evaluate the same way everywhere, as sums
//! wrap alike on every level). The integer output is `(sum / QA + B2q) * SCALE / (QA * QB)`,
//! with Rust's truncating division.
//!
//! File format (version 2, all little-endian): magic `TTNN`, `u16` version, `u8` length and
//! the feature-set name (UTF-8), `u32` inputs, `u32` hidden, `u32` output buckets, `u8`
//! activation (1 = SCReLU), `i16` QA, `i16` QB, `i32` SCALE, then `inputs * hidden` i16 `W1`
//! (one row of `hidden` per input), `hidden` i16 `B1`, `buckets * 2 * hidden` i16 `W2` (bucket
//! by bucket), `buckets` i32 `B2`, and an FNV-1a 64-bit checksum of every byte before it.
//! Loading checks every field and the exact length. (Version 1 had no bucket count: one
//! bucket; no feature set that version-1 files were made for is read any more.)

use super::simd::{self, Level, LANES};

/// Accumulator scale.
pub const QA: i16 = 181;
/// Output weight scale.
pub const QB: i16 = 64;
/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;
/// Largest output weight magnitude after quantisation (keeps `QA * w` inside i16).
pub const W2_MAX: i16 = 127;

const MAGIC: &[u8; 4] = b"TTNN";
const VERSION: u16 = 2;
const SCRELU: u8 = 1;
/// The largest hidden size a file may declare (guards allocation on a corrupt header).
const MAX_HIDDEN: usize = 4096;
const MAX_INPUTS: usize = 1 << 16;
/// The most output buckets a file may declare.
const MAX_BUCKETS: usize = 64;

/// A quantised network, as loaded from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The feature set it was trained for ([`super::FeatureSet::NAME`]).
    pub features: String,
    pub inputs: usize,
    pub hidden: usize,
    /// Output buckets ([`super::FeatureSet::OUTPUT_BUCKETS`]).
    pub buckets: usize,
    /// `inputs * hidden`, input-major.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    /// `buckets * 2 * hidden`: per bucket, the side to move's half first.
    pub out_weights: Vec<i16>,
    /// One per bucket.
    pub out_bias: Vec<i32>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!(
                "the file ends early (at byte {})",
                self.bytes.len()
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn i16(&mut self) -> Result<i16, String> {
        Ok(i16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let raw = self.take(n.checked_mul(2).ok_or("size overflow")?)?;
        Ok(raw
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl Network {
    /// A network of zeros (evaluates everything as 0), for tests and as a trainer's start.
    pub fn zeroed(features: &str, inputs: usize, hidden: usize, buckets: usize) -> Network {
        Network {
            features: features.into(),
            inputs,
            hidden,
            buckets,
            ft_weights: vec![0; inputs * hidden],
            ft_bias: vec![0; hidden],
            out_weights: vec![0; buckets * 2 * hidden],
            out_bias: vec![0; buckets],
        }
    }

    /// The output weights of `bucket`: the side to move's half, then the other side's.
    #[inline(always)]
    pub fn out_row(&self, bucket: usize) -> &[i16] {
        &self.out_weights[bucket * 2 * self.hidden..][..2 * self.hidden]
    }

    /// The feature transformer's row of input `f`.
    #[inline(always)]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The output layer of `bucket` over two accumulators (side to move's first), in
    /// centipawns.
    #[inline]
    pub fn output(&self, level: Level, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let w = self.out_row(bucket);
        let sum = simd::screlu_dot(level, us, &w[..h], QA) as i64
            + simd::screlu_dot(level, them, &w[h..], QA) as i64;
        let v = sum / QA as i64 + self.out_bias[bucket] as i64;
        (v * SCALE as i64 / (QA as i64 * QB as i64)) as i32
    }

    /// Reads a network file, checking that it was made for `features` with `inputs` inputs
    /// and `buckets` output buckets.
    pub fn from_bytes(
        bytes: &[u8],
        features: &str,
        inputs: usize,
        buckets: usize,
    ) -> Result<Network, String> {
        if bytes.len() < 8 + 4 {
            return Err("not a network file (too short)".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader { bytes: body, at: 0 };
        if r.take(4)? != MAGIC {
            return Err("not a network file (no TTNN header)".into());
        }
        let version = r.u16()?;
        if version != VERSION {
            return Err(format!(
                "network file version {version}; this build reads {VERSION}"
            ));
        }
        let name_len = r.u8()? as usize;
        let name = String::from_utf8(r.take(name_len)?.to_vec())
            .map_err(|_| "the feature-set name is not UTF-8")?;
        if name != features {
            return Err(format!(
                "the network is for features '{name}', not '{features}'"
            ));
        }
        let file_inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        if file_inputs != inputs || inputs > MAX_INPUTS {
            return Err(format!(
                "the network has {file_inputs} inputs, not {inputs}"
            ));
        }
        if hidden == 0 || !hidden.is_multiple_of(LANES) || hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden size {hidden} is not a multiple of {LANES} up to {MAX_HIDDEN}"
            ));
        }
        let file_buckets = r.u32()? as usize;
        if file_buckets != buckets || buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!(
                "the network has {file_buckets} output buckets, not {buckets}"
            ));
        }
        let activation = r.u8()?;
        if activation != SCRELU {
            return Err(format!("unknown activation {activation}"));
        }
        let (qa, qb, scale) = (r.i16()?, r.i16()?, r.i32()?);
        if (qa, qb, scale) != (QA, QB, SCALE) {
            return Err(format!(
                "quantisation QA={qa} QB={qb} SCALE={scale}; this build uses {QA}/{QB}/{SCALE}"
            ));
        }
        let ft_weights = r.i16s(inputs * hidden)?;
        let ft_bias = r.i16s(hidden)?;
        let out_weights = r.i16s(buckets * 2 * hidden)?;
        let out_bias = (0..buckets)
            .map(|_| r.i32())
            .collect::<Result<Vec<_>, _>>()?;
        if r.at != body.len() {
            return Err(format!(
                "{} bytes after the network's last field",
                body.len() - r.at
            ));
        }
        if u64::from_le_bytes(sum.try_into().unwrap()) != fnv1a(body) {
            return Err("checksum mismatch (the file is damaged)".into());
        }
        Ok(Network {
            features: name,
            inputs,
            hidden,
            buckets,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The file form [`from_bytes`](Network::from_bytes) reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.ft_weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.features.len() as u8);
        out.extend_from_slice(self.features.as_bytes());
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        out.push(SCRELU);
        out.extend_from_slice(&QA.to_le_bytes());
        out.extend_from_slice(&QB.to_le_bytes());
        out.extend_from_slice(&SCALE.to_le_bytes());
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The evaluation from scratch in plain integer arithmetic (no SIMD, no incremental state):
    /// the reference the fast paths are tested against.
    pub fn reference_eval(&self, us: &[u16], them: &[u16], bucket: usize) -> i32 {
        let acc = |features: &[u16]| -> Vec<i32> {
            let mut a: Vec<i32> = self.ft_bias.iter().map(|&b| b as i32).collect();
            for &f in features {
                for (x, &w) in a.iter_mut().zip(self.row(f as usize)) {
                    *x += w as i32;
                }
            }
            a
        };
        let mut sum = 0i64;
        for (half, features) in [us, them].into_iter().enumerate() {
            let a = acc(features);
            let mut half_sum = 0i64;
            for (j, &x) in a.iter().enumerate() {
                // An i16 accumulator wraps; the reference follows it so huge nets agree too.
                let c = (x as i16).clamp(0, QA) as i64;
                half_sum += c * c * self.out_row(bucket)[half * self.hidden + j] as i64;
            }
            // So does each perspective's i32 sum (exact up to 512 hidden).
            sum += half_sum as i32 as i64;
        }
        let v = sum / QA as i64 + self.out_bias[bucket] as i64;
        (v * SCALE as i64 / (QA as i64 * QB as i64)) as i32
    }

    /// The float model the quantised weights stand for (dequantised), in centipawns.
    pub fn float_eval(&self, us: &[u16], them: &[u16], bucket: usize) -> f64 {
        let qa = QA as f64;
        let qb = QB as f64;
        let mut out = self.out_bias[bucket] as f64 / (qa * qb);
        for (half, features) in [us, them].into_iter().enumerate() {
            for j in 0..self.hidden {
                let mut h = self.ft_bias[j] as f64 / qa;
                for &f in features {
                    h += self.ft_weights[f as usize * self.hidden + j] as f64 / qa;
                }
                let a = h.clamp(0.0, 1.0);
                out += a * a * self.out_row(bucket)[half * self.hidden + j] as f64 / qb;
            }
        }
        out * SCALE as f64
    }
}
