//! SGF (FF[4]) reading and writing, as much as a Go engine needs: the main line of the first
//! game, its board size, komi, handicap, setup stones and moves.
//!
//! Scheme: a small recursive-descent parser turns the text into nodes of `(identifier,
//! values)` properties, following the first variation at every branch. Values keep SGF's
//! escapes resolved (`\]`, `\\`, escaped line breaks). Errors name the problem and the byte
//! offset; the parser never panics on any input.

/// One node of the main line: its properties in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    pub props: Vec<(String, Vec<String>)>,
}

impl Node {
    /// The values of property `id`, if present.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of property `id`.
    pub fn first(&self, id: &str) -> Option<&str> {
        self.get(id).and_then(|v| v.first()).map(String::as_str)
    }
}

/// Reads the main line of the first game tree in `text`.
pub fn parse_main_line(text: &str) -> Result<Vec<Node>, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    p.skip_ws();
    // Anything before the first '(' is ignored, as SGF readers do.
    while p.i < p.s.len() && p.s[p.i] != b'(' {
        p.i += 1;
    }
    if p.i >= p.s.len() {
        return Err("no game tree (missing '(')".into());
    }
    let mut nodes = Vec::new();
    p.game_tree(&mut nodes, 0)?;
    if nodes.is_empty() {
        return Err("empty game tree".into());
    }
    Ok(nodes)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }

    /// `( sequence game-tree* )`, appending the main line to `out`.
    fn game_tree(&mut self, out: &mut Vec<Node>, depth: usize) -> Result<(), String> {
        if depth > 1000 {
            return self.err("variations nested too deep");
        }
        self.skip_ws();
        if self.s.get(self.i) != Some(&b'(') {
            return self.err("expected '('");
        }
        self.i += 1;
        self.skip_ws();
        let mut any = false;
        while self.s.get(self.i) == Some(&b';') {
            self.i += 1;
            out.push(self.node()?);
            any = true;
            self.skip_ws();
        }
        if !any {
            return self.err("expected ';'");
        }
        // Variations: follow the first, skip the rest.
        let mut first = true;
        loop {
            self.skip_ws();
            match self.s.get(self.i) {
                Some(b'(') => {
                    if first {
                        self.game_tree(out, depth + 1)?;
                        first = false;
                    } else {
                        let mut ignored = Vec::new();
                        self.game_tree(&mut ignored, depth + 1)?;
                    }
                }
                Some(b')') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(_) => return self.err("unexpected character"),
                None => return self.err("unterminated game tree (missing ')')"),
            }
        }
    }

    fn node(&mut self) -> Result<Node, String> {
        let mut node = Node::default();
        loop {
            self.skip_ws();
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_alphabetic() {
                self.i += 1;
            }
            if self.i == start {
                return Ok(node);
            }
            // FF[3] allowed lower-case letters in identifiers; only the capitals count.
            let id: String = self.s[start..self.i]
                .iter()
                .filter(|c| c.is_ascii_uppercase())
                .map(|&c| c as char)
                .collect();
            let mut values = Vec::new();
            loop {
                self.skip_ws();
                if self.s.get(self.i) != Some(&b'[') {
                    break;
                }
                self.i += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return self.err("property without a value");
            }
            if id.is_empty() {
                return self.err("property identifier without capitals");
            }
            node.props.push((id, values));
        }
    }

    fn value(&mut self) -> Result<String, String> {
        let mut v = Vec::new();
        loop {
            match self.s.get(self.i) {
                None => return self.err("unterminated property value"),
                Some(b']') => {
                    self.i += 1;
                    return Ok(String::from_utf8_lossy(&v).into_owned());
                }
                Some(b'\\') => {
                    self.i += 1;
                    match self.s.get(self.i) {
                        None => return self.err("unterminated property value"),
                        // An escaped line break is removed.
                        Some(b'\n') | Some(b'\r') => {
                            let c = self.s[self.i];
                            self.i += 1;
                            let other = if c == b'\n' { b'\r' } else { b'\n' };
                            if self.s.get(self.i) == Some(&other) {
                                self.i += 1;
                            }
                        }
                        Some(&c) => {
                            v.push(c);
                            self.i += 1;
                        }
                    }
                }
                Some(&c) => {
                    v.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

/// Escapes a text value for SGF.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_line_follows_first_variations() {
        let nodes =
            parse_main_line("junk (;GM[1]SZ[9]C[a \\] b]AB[aa][bb];B[cc](;W[dd];B[ee])(;W[ff]))")
                .unwrap();
        assert_eq!(nodes.len(), 4);
        assert_eq!(nodes[0].first("SZ"), Some("9"));
        assert_eq!(nodes[0].first("C"), Some("a ] b"));
        assert_eq!(nodes[0].get("AB").unwrap(), ["aa", "bb"]);
        assert_eq!(nodes[2].first("W"), Some("dd"));
        assert_eq!(nodes[3].first("B"), Some("ee"));
    }

    #[test]
    fn malformed_text_is_an_error_not_a_panic() {
        for bad in [
            "",
            "(",
            "(;",
            "(;B[aa]",
            "(;B[aa",
            "(;B)",
            "()",
            "(;B[aa];W[bb]x)",
            "(;[aa])",
            "((;B[aa]))",
            "\u{ff}\u{fe}",
        ] {
            assert!(parse_main_line(bad).is_err(), "{bad:?}");
        }
        // Deep nesting is refused rather than overflowing the stack.
        let deep = "(;B[aa]".repeat(20_000) + &")".repeat(20_000);
        assert!(parse_main_line(&deep).is_err());
    }

    #[test]
    fn escapes_round_trip() {
        let text = format!("(;C[{}])", escape("x]y\\z"));
        let nodes = parse_main_line(&text).unwrap();
        assert_eq!(nodes[0].first("C"), Some("x]y\\z"));
    }
}
