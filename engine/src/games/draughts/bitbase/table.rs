//! One class's table of results in memory and its file form.
//!
//! Scheme: in memory a table is 2 bits per index slot, four slots a byte, lowest slot in the
//! lowest bits (0 draw, 1 win, 2 loss for the side to move), so a probe is one shift and mask.
//! On disk a file is a 24-byte header and a body:
//!
//! - bytes 0-7: the magic `TDWDL\0\0\x01` (the last byte is the format version);
//! - bytes 8-11: the class counts (White men, White kings, Black men, Black kings);
//! - bytes 12-19: the number of slots, little-endian (checked against the class);
//! - byte 20: the body encoding, 0 for the packed bytes as they are, 1 for runs;
//! - bytes 21-23: zero.
//!
//! The run encoding writes the packed bytes as pairs of a byte value and a run length in
//! LEB128 (7 bits a byte, low first). Draws dominate most classes and overlapping placements
//! hold a draw too, so long runs of zero bytes are common; the writer keeps whichever body is
//! smaller. Reading checks every field and the body length and returns an error, never panics.

use super::index::Class;

/// A game-theoretic result for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The result for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            Wdl::Draw => 0,
            Wdl::Win => 1,
            Wdl::Loss => 2,
        }
    }

    fn from_code(c: u8) -> Wdl {
        match c {
            1 => Wdl::Win,
            2 => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }
}

const MAGIC: [u8; 8] = *b"TDWDL\0\0\x01";
const HEADER: usize = 24;

/// The results of every White-to-move position of one class.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Table {
    class: Class,
    slots: u64,
    packed: Vec<u8>,
}

impl Table {
    /// A table from one 2-bit code per slot.
    pub(crate) fn from_codes(class: Class, codes: impl Iterator<Item = u8>) -> Table {
        let slots = class.size();
        let mut packed = vec![0u8; slots.div_ceil(4) as usize];
        let mut n = 0u64;
        for (i, c) in codes.enumerate() {
            packed[i / 4] |= (c & 3) << (2 * (i % 4));
            n += 1;
        }
        debug_assert_eq!(n, slots);
        Table {
            class,
            slots,
            packed,
        }
    }

    pub fn class(&self) -> Class {
        self.class
    }

    /// The result of slot `i` (below the class size).
    #[inline]
    pub fn get(&self, i: u64) -> Wdl {
        let byte = self.packed[(i / 4) as usize];
        Wdl::from_code((byte >> (2 * (i % 4))) & 3)
    }

    /// The wins, draws and losses of White to move over the placements of the class (the
    /// slots of overlapping placements left out).
    pub fn tally(&self) -> [u64; 3] {
        let mut n = [0u64; 3];
        for i in 0..self.slots {
            if self.class.unindex(i).is_some() {
                n[match self.get(i) {
                    Wdl::Win => 0,
                    Wdl::Draw => 1,
                    Wdl::Loss => 2,
                }] += 1;
            }
        }
        n
    }

    /// Bytes the table takes in memory.
    pub fn memory(&self) -> usize {
        self.packed.len()
    }

    /// The file form (see the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let runs = encode_runs(&self.packed);
        let (encoding, body) = if runs.len() < self.packed.len() {
            (1u8, runs)
        } else {
            (0u8, self.packed.clone())
        };
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(&MAGIC);
        let c = self.class;
        out.extend_from_slice(&[c.white_men, c.white_kings, c.black_men, c.black_kings]);
        out.extend_from_slice(&self.slots.to_le_bytes());
        out.extend_from_slice(&[encoding, 0, 0, 0]);
        out.extend_from_slice(&body);
        out
    }

    /// Reads the file form, checking it throughout.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, String> {
        if bytes.len() < HEADER || bytes[..8] != MAGIC {
            return Err("not a draughts WDL table (bad header)".into());
        }
        let counts = &bytes[8..12];
        if counts.iter().map(|&c| c as usize).sum::<usize>() > super::index::MAX_PIECES {
            return Err("table class has too many pieces".into());
        }
        let class = Class::new(counts[0], counts[1], counts[2], counts[3]);
        if !class.both_sides() {
            return Err("table class lacks a side".into());
        }
        let slots = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        if slots != class.size() {
            return Err(format!(
                "table for {class} holds {slots} slots, the class has {}",
                class.size()
            ));
        }
        let want = slots.div_ceil(4) as usize;
        let body = &bytes[HEADER..];
        let packed = match bytes[20] {
            0 => body.to_vec(),
            1 => decode_runs(body, want)?,
            e => return Err(format!("unknown table encoding {e}")),
        };
        if packed.len() != want {
            return Err(format!(
                "table for {class}: body holds {} bytes, expected {want}",
                packed.len()
            ));
        }
        Ok(Table {
            class,
            slots,
            packed,
        })
    }
}

fn encode_runs(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        let mut j = i + 1;
        while j < data.len() && data[j] == b {
            j += 1;
        }
        out.push(b);
        let mut n = (j - i) as u64;
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(low);
                break;
            }
            out.push(low | 0x80);
        }
        i = j;
    }
    out
}

fn decode_runs(body: &[u8], want: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(want);
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        i += 1;
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let Some(&c) = body.get(i) else {
                return Err("table body ends inside a run".into());
            };
            i += 1;
            if shift > 56 {
                return Err("table run length too long".into());
            }
            n |= ((c & 0x7f) as u64) << shift;
            shift += 7;
            if c & 0x80 == 0 {
                break;
            }
        }
        if n == 0 || out.len() as u64 + n > want as u64 {
            return Err("table runs do not add up to the class size".into());
        }
        out.resize(out.len() + n as usize, b);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_form_round_trips_and_rejects_damage() {
        let class = Class::new(0, 1, 0, 1);
        let t = Table::from_codes(class, (0..class.size()).map(|i| (i % 97 == 0) as u8 * 2));
        let bytes = t.to_bytes();
        assert_eq!(bytes[20], 1, "mostly zeros: the runs body is smaller");
        assert_eq!(Table::from_bytes(&bytes).unwrap(), t);
        assert_eq!(t.get(97), Wdl::Loss);
        assert_eq!(t.get(98), Wdl::Draw);
        let mut bad = bytes.clone();
        bad.truncate(bad.len() - 1);
        assert!(Table::from_bytes(&bad).is_err());
        let mut bad = bytes.clone();
        bad[8] = 3;
        assert!(Table::from_bytes(&bad).is_err());
        assert!(Table::from_bytes(b"junk").is_err());
        // A table with no runs to speak of is stored packed.
        let noisy = Table::from_codes(class, (0..class.size()).map(|i| (i * 7 % 3) as u8));
        let bytes = noisy.to_bytes();
        assert_eq!(bytes[20], 0);
        assert_eq!(Table::from_bytes(&bytes).unwrap(), noisy);
    }
}
