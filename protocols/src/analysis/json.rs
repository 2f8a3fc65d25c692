//! A small JSON reader and writer for the analysis engine's one-line queries and responses.
//!
//! Scheme: [`parse`] is a recursive-descent parser over the bytes of one line, after RFC 8259:
//! objects keep their members in input order (a repeated key: the last one counts, as in most
//! readers), numbers are [`Json::Int`] when written without a fraction or exponent and fit an
//! `i64`, else [`Json::Float`], and strings decode every escape, `\u` surrogate pairs included.
//! Anything else is an error that says what was expected and at which byte: lone surrogates,
//! control characters inside strings, trailing text, nesting deeper than [`MAX_DEPTH`] (so a
//! hostile line cannot overflow the stack). [`Json::write`] prints compactly, with the escapes
//! JSON requires and non-ASCII text as UTF-8; a float that is not finite prints as `null`.

use std::fmt::Write as _;

/// Deepest nesting of arrays and objects a line may have.
pub const MAX_DEPTH: usize = 64;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number written without fraction or exponent that fits an `i64`.
    Int(i64),
    Float(f64),
    String(String),
    Array(Vec<Json>),
    /// Members in input order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object (the last one if repeated); `None` for other values.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An integer: written as one (`3`, not `3.0`).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// Any number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Int(i) => Some(*i as f64),
            Json::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// A float rounded to six decimals, so responses carry what the search knows and not
    /// the noise of `f32` arithmetic printed in full.
    pub fn num(v: f32) -> Json {
        Json::Float((v as f64 * 1e6).round() / 1e6)
    }

    /// The value as one line of JSON.
    pub fn to_line(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }

    /// Appends the value, compactly, to `out`.
    pub fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Json::Float(f) if f.is_finite() => {
                // Rust prints the shortest text that reads back as the same value, and never
                // an exponent: both are valid JSON.
                let _ = write!(out, "{f}");
            }
            Json::Float(_) => out.push_str("null"),
            Json::String(s) => write_string(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<i64> for Json {
    fn from(i: i64) -> Json {
        Json::Int(i)
    }
}

/// Builds an object from `(key, value)` pairs, in order.
pub fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
    Json::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            // Line and paragraph separators are valid JSON but end lines in some readers.
            '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Why a text is not JSON: what was wrong, and the byte offset where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub at: usize,
    pub what: &'static str,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

/// Parses one JSON text (surrounding whitespace allowed, nothing else after it).
pub fn parse(text: &str) -> Result<Json, ParseError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &'static str) -> ParseError {
        ParseError { at: self.i, what }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn expect(&mut self, word: &'static [u8], what: &'static str) -> Result<(), ParseError> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, ParseError> {
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self
                .expect(b"true", "invalid literal")
                .map(|_| Json::Bool(true)),
            Some(b'f') => self
                .expect(b"false", "invalid literal")
                .map(|_| Json::Bool(false)),
            Some(b'n') => self.expect(b"null", "invalid literal").map(|_| Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("expected a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        self.i += 1;
        let mut members = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string key"));
            }
            let key = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.i += 1;
            self.ws();
            let v = self.value(depth)?;
            members.push((key, v));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .ok_or_else(|| self.err("truncated \\u escape"))?;
        let mut v = 0;
        for &d in digits {
            let h = (d as char)
                .to_digit(16)
                .ok_or_else(|| self.err("bad hex digit in \\u escape"))?;
            v = v * 16 + h;
        }
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            // Copy the run of plain bytes at once; the input is a `str`, so a run that stops
            // at an ASCII byte is whole UTF-8.
            let start = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).expect("input is UTF-8"));
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(self.err("unterminated string"));
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = match hi {
                                0xd800..=0xdbff => {
                                    if !self.s[self.i..].starts_with(b"\\u") {
                                        return Err(self.err("lone high surrogate"));
                                    }
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    if !(0xdc00..=0xdfff).contains(&lo) {
                                        return Err(self.err("bad low surrogate"));
                                    }
                                    0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                                }
                                0xdc00..=0xdfff => return Err(self.err("lone low surrogate")),
                                c => c,
                            };
                            out.push(char::from_u32(code).ok_or_else(|| self.err("bad escape"))?);
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("bad escape"));
                        }
                    }
                }
                Some(_) => return Err(self.err("control character in a string")),
            }
        }
    }

    fn number(&mut self) -> Result<Json, ParseError> {
        let start = self.i;
        let digits = |p: &mut Parser| {
            let from = p.i;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i - from
        };
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.err("expected a digit")),
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            integral = false;
            self.i += 1;
            if digits(self) == 0 {
                return Err(self.err("expected a digit after '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integral = false;
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("expected a digit in the exponent"));
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).expect("ASCII");
        if integral {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Json::Int(i));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Json::Float(f)),
            _ => Err(ParseError {
                at: start,
                what: "number out of range",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_value() {
        let v = parse(r#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d"}, "e": []} "#)
            .unwrap();
        assert_eq!(
            v.get("a").unwrap().as_array().unwrap(),
            &[
                Json::Int(1),
                Json::Float(-2.5),
                Json::Float(300.0),
                Json::Bool(true),
                Json::Bool(false),
                Json::Null
            ]
        );
        assert_eq!(v.get("b").unwrap().get("c").unwrap().as_str(), Some("d"));
        assert_eq!(v.get("e").unwrap().as_array().unwrap().len(), 0);
        assert_eq!(v.get("zz"), None);
        assert_eq!(parse("-0").unwrap(), Json::Int(0));
        assert_eq!(
            parse("7.0").unwrap().as_i64(),
            None,
            "7.0 is not an integer"
        );
        assert_eq!(parse("7.0").unwrap().as_f64(), Some(7.0));
        // Too big for an i64: a float.
        assert_eq!(
            parse("123456789012345678901234").unwrap(),
            Json::Float(1.2345678901234568e23)
        );
        // The last of a repeated key counts.
        assert_eq!(
            parse(r#"{"k":1,"k":2}"#).unwrap().get("k"),
            Some(&Json::Int(2))
        );
    }

    #[test]
    fn decodes_escapes_and_unicode() {
        let v = parse(r#""a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00 é中""#).unwrap();
        assert_eq!(v.as_str().unwrap(), "a\"b\\c/d\u{8}\u{c}\n\r\té中😀 é中");
        // Upper-case hex digits too.
        assert_eq!(parse(r#""\u00C9""#).unwrap().as_str(), Some("É"));
    }

    #[test]
    fn rejects_malformed_text_with_a_position() {
        for (bad, at) in [
            ("", 0),
            ("{", 1),
            ("{\"a\"}", 4),
            ("{\"a\":1,}", 7),
            ("[1,2", 4),
            ("[1 2]", 3),
            ("{'a':1}", 1),
            ("tru", 0),
            ("nul", 0),
            ("01", 1),
            ("1.", 2),
            ("1e", 2),
            ("-", 1),
            ("+1", 0),
            (".5", 0),
            ("\"abc", 4),
            ("\"a\nb\"", 2),
            ("\"\\x\"", 2),
            ("\"\\u12\"", 3),
            ("\"\\u12g4\"", 3),
            ("\"\\ud800\"", 7),
            ("\"\\ud800\\u0041\"", 13),
            ("\"\\udc00\"", 7),
            ("{} x", 3),
            ("[1]]", 3),
            ("1e999", 0),
            ("NaN", 0),
        ] {
            let e = parse(bad).expect_err(bad);
            assert_eq!(e.at, at, "{bad:?}: {e}");
        }
        // Deep nesting is refused, not a stack overflow.
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(parse(&deep).unwrap_err().what, "nested too deeply");
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn writes_compact_json_that_reads_back() {
        let v = object([
            ("id", "q\"1\"\n\u{1}é😀\u{2028}".into()),
            ("n", Json::Int(-3)),
            ("x", Json::num(0.1)),
            ("big", Json::Float(1e21)),
            ("nan", Json::Float(f64::NAN)),
            ("list", Json::Array(vec![Json::Bool(true), Json::Null])),
            ("empty", Json::Object(vec![])),
        ]);
        let line = v.to_line();
        assert_eq!(
            line,
            "{\"id\":\"q\\\"1\\\"\\n\\u0001é😀\\u2028\",\"n\":-3,\"x\":0.1,\
             \"big\":1000000000000000000000,\"nan\":null,\"list\":[true,null],\"empty\":{}}"
        );
        let back = parse(&line).unwrap();
        assert_eq!(back.get("id"), v.get("id"));
        assert_eq!(back.get("x"), Some(&Json::Float(0.1)));
        assert_eq!(back.get("nan"), Some(&Json::Null));
        assert!(!line.contains('\n'));
    }
}
