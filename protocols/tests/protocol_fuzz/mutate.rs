//! Turning well-formed lines into malformed ones, and making garbage from nothing.
//!
//! Scheme: a mutated line is a valid line with one to three edits, each picked at random from
//! byte-level edits (bit flips, replaced, inserted or deleted bytes, truncation, a stray NUL, CR,
//! tab or a non-UTF-8 sequence), token-level edits (a token duplicated, dropped, swapped,
//! upper-cased, emptied, or a number replaced by a hostile one: huge, negative, NaN, infinite,
//! fractional, hexadecimal, signed) and length edits (the line or one token repeated into a
//! very long line). Garbage is one of random bytes (any value but the line end), a salad of the
//! protocol's own keywords and numbers, a very long run, or whitespace and control characters
//! only. Nothing here knows a protocol beyond the keyword list it is given; what a protocol must
//! never receive (say `quit`) is the protocol's sanitiser's business.

use rand::rngs::StdRng;
use rand::Rng;

/// Numbers no well-behaved parser should choke on, and few should accept.
pub const HOSTILE_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "+5",
    "1.5",
    "-2.5",
    "1e9",
    "1e308",
    "1e999",
    "-1e999",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "0x10",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999999999",
    "000000000000000000000000000001",
    "1_000",
    "١٢",
    "",
];

/// Odd byte sequences to splice into a line.
const ODD_BYTES: &[&[u8]] = &[
    b"\0",
    b"\r",
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\x1b[0m",
    b"\x7f",
    b"\xff",
    b"\xc3",
    b"\xc3\x28",
    b"\xe2\x82",
    b"\xf0\x9f\x92\xa9",
    b"\xc2\xa0",     // no-break space
    b"\xe3\x80\x80", // ideographic space
    b"\xc2\x85",     // next line (Unicode whitespace)
    b"\xef\xbb\xbf", // byte order mark
    b"\"",
    b"=",
    b"#",
    b"  ",
];

/// The longest line the generators build (bytes).
pub const LONG_LINE: usize = 70_000;

fn tokens(line: &[u8]) -> Vec<Vec<u8>> {
    line.split(|&b| b == b' ').map(<[u8]>::to_vec).collect()
}

fn join(tokens: &[Vec<u8>]) -> Vec<u8> {
    tokens.join(&b' ')
}

fn is_number(t: &[u8]) -> bool {
    !t.is_empty()
        && t.iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'+'))
        && t.iter().any(u8::is_ascii_digit)
}

/// A number token somewhere in the line (also inside `name=value`), as a byte range.
fn number_spans(line: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i].is_ascii_digit()
            || (line[i] == b'-' && line.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < line.len() && (line[i].is_ascii_digit() || line[i] == b'.') {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// One to three random edits of `line`.
pub fn mutate(rng: &mut StdRng, line: &[u8]) -> Vec<u8> {
    let mut v = line.to_vec();
    for _ in 0..rng.gen_range(1..=3) {
        v = edit(rng, v);
    }
    v
}

fn edit(rng: &mut StdRng, mut v: Vec<u8>) -> Vec<u8> {
    let pos = |rng: &mut StdRng, len: usize| rng.gen_range(0..=len);
    match rng.gen_range(0..16) {
        0 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            v[i] ^= 1 << rng.gen_range(0..8);
        }
        1 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            v[i] = rng.gen();
        }
        2 => {
            let i = pos(rng, v.len());
            v.insert(i, rng.gen());
        }
        3 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            let n = rng.gen_range(1..=(v.len() - i).min(8));
            v.drain(i..i + n);
        }
        4 => {
            let i = pos(rng, v.len());
            v.truncate(i);
        }
        5 => {
            let odd = ODD_BYTES[rng.gen_range(0..ODD_BYTES.len())];
            let i = pos(rng, v.len());
            v.splice(i..i, odd.iter().copied());
        }
        6 => {
            let mut t = tokens(&v);
            let i = rng.gen_range(0..t.len());
            let copy = t[i].clone();
            for _ in 0..rng.gen_range(1..=3) {
                t.insert(i, copy.clone());
            }
            v = join(&t);
        }
        7 => {
            let mut t = tokens(&v);
            if t.len() > 1 {
                t.remove(rng.gen_range(0..t.len()));
            }
            v = join(&t);
        }
        8 => {
            let mut t = tokens(&v);
            let (a, b) = (rng.gen_range(0..t.len()), rng.gen_range(0..t.len()));
            t.swap(a, b);
            v = join(&t);
        }
        9 | 10 => {
            // A number becomes a hostile one (or, without numbers, one is appended).
            let spans = number_spans(&v);
            let n = HOSTILE_NUMBERS[rng.gen_range(0..HOSTILE_NUMBERS.len())].as_bytes();
            if spans.is_empty() {
                v.push(b' ');
                v.extend_from_slice(n);
            } else {
                let (a, b) = spans[rng.gen_range(0..spans.len())];
                v.splice(a..b, n.iter().copied());
            }
        }
        11 => {
            // A token emptied (two spaces in a row, or `name=` with no value).
            let mut t = tokens(&v);
            let i = rng.gen_range(0..t.len());
            match t[i].iter().position(|&b| b == b'=') {
                Some(eq) => t[i].truncate(eq + 1),
                None => t[i].clear(),
            }
            v = join(&t);
        }
        12 => {
            let mut t = tokens(&v);
            let i = rng.gen_range(0..t.len());
            t[i].make_ascii_uppercase();
            v = join(&t);
        }
        13 => {
            // The whole line repeated into a long one.
            let unit = v.clone();
            if !unit.is_empty() {
                let target = rng.gen_range(1_000..LONG_LINE);
                while v.len() < target {
                    v.push(b' ');
                    v.extend_from_slice(&unit);
                }
            }
        }
        14 => {
            // One token repeated many times (a long list, a long name or number).
            let mut t = tokens(&v);
            let i = rng.gen_range(0..t.len());
            let unit = if t[i].is_empty() {
                b"9".to_vec()
            } else {
                t[i].clone()
            };
            let count = rng.gen_range(100..(LONG_LINE / (unit.len() + 1)).max(101));
            let sep: &[u8] = if rng.gen_bool(0.5) { b" " } else { b"" };
            let mut long = Vec::with_capacity(count * (unit.len() + 1));
            for k in 0..count {
                if k > 0 {
                    long.extend_from_slice(sep);
                }
                long.extend_from_slice(&unit);
            }
            t[i] = long;
            v = join(&t);
        }
        _ => {
            // A number token replaced by a huge digit string.
            let mut t = tokens(&v);
            if let Some(i) = (0..t.len()).find(|&i| is_number(&t[i])) {
                t[i] = vec![b'9'; rng.gen_range(20..400)];
            } else {
                t.push(vec![b'7'; rng.gen_range(20..400)]);
            }
            v = join(&t);
        }
    }
    v
}

/// A line of garbage for a protocol whose keywords are `words`.
pub fn garbage(rng: &mut StdRng, words: &[&str]) -> Vec<u8> {
    match rng.gen_range(0..10) {
        0..=3 => (0..rng.gen_range(0..300)).map(|_| rng.gen()).collect(),
        4..=6 => {
            // Keyword salad: the protocol's words in a random order, with numbers between.
            let mut v = Vec::new();
            for k in 0..rng.gen_range(1..12) {
                if k > 0 {
                    v.push(b' ');
                }
                if rng.gen_bool(0.25) {
                    let n = HOSTILE_NUMBERS[rng.gen_range(0..HOSTILE_NUMBERS.len())];
                    v.extend_from_slice(n.as_bytes());
                } else if rng.gen_bool(0.2) {
                    v.extend_from_slice(rng.gen_range(0..100).to_string().as_bytes());
                } else {
                    v.extend_from_slice(words[rng.gen_range(0..words.len())].as_bytes());
                }
            }
            v
        }
        7 => {
            let len = rng.gen_range(1_000..LONG_LINE);
            if rng.gen_bool(0.5) {
                vec![rng.gen_range(b' '..=b'~'); len]
            } else {
                (0..len).map(|_| rng.gen_range(b' '..=b'~')).collect()
            }
        }
        8 => {
            let ws: &[u8] = b" \t\r\x0b\x0c\0";
            (0..rng.gen_range(0..20))
                .map(|_| ws[rng.gen_range(0..ws.len())])
                .collect()
        }
        _ => (0..rng.gen_range(1..40))
            .map(|_| rng.gen_range(b' '..=b'~'))
            .collect(),
    }
}

/// Lines of a text protocol end at `\n`: one generated line must stay one line.
pub fn one_line(mut v: Vec<u8>) -> Vec<u8> {
    for b in v.iter_mut() {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    v
}

/// Replaces every decimal digit run in `line` whose value lies in `(cap, ceiling]` by `cap`:
/// options such as a hash size or a thread count then stay small enough for a shared machine,
/// while values past any option's maximum (which must be refused) are kept.
pub fn cap_numbers(line: &[u8], cap: u64, ceiling: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i].is_ascii_digit() {
            let start = i;
            while i < line.len() && line[i].is_ascii_digit() {
                i += 1;
            }
            let run = &line[start..i];
            let value = std::str::from_utf8(run)
                .ok()
                .and_then(|s| s.parse::<u64>().ok())
                .unwrap_or(u64::MAX);
            if value > cap && value <= ceiling {
                out.extend_from_slice(cap.to_string().as_bytes());
            } else {
                out.extend_from_slice(run);
            }
        } else {
            out.push(line[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capping_keeps_small_and_out_of_range_numbers() {
        assert_eq!(
            cap_numbers(b"setoption name Hash value 4096", 32, 1_000_000),
            b"setoption name Hash value 32"
        );
        assert_eq!(
            cap_numbers(b"value 16 and 99999999", 32, 1_000_000),
            b"value 16 and 99999999"
        );
        assert_eq!(cap_numbers(b"Threads 0003", 2, 1_000_000), b"Threads 2");
    }
}
