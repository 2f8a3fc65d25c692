//! Hub line syntax: `command name=value name="value with spaces" flag ...`.
//!
//! Scheme: a line is a command word followed by pairs. A name or an unquoted value is a run of
//! characters that are not whitespace, control characters, `=` or `"`; a quoted value runs to
//! the next `"` (there is no escape). A name without `=` is a bare flag whose value is empty.
//! Parsing never fails: stray `=` or `"` characters are skipped, so a garbled line still yields
//! its command and whatever pairs can be read. Output quotes a value only when it must (empty,
//! or containing a space, `=` or `"`); a `"` inside a value, which no quoting can carry, becomes
//! `'`.

/// A parsed line: the command and its pairs in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub pairs: Vec<(String, String)>,
}

impl Line {
    /// The value of the first pair named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether a pair (or bare flag) named `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !c.is_control() && c != '=' && c != '"'
}

/// Splits a line into its command and pairs (see the module doc). `None` for a blank line.
pub fn parse(text: &str) -> Option<Line> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let skip_space = |i: &mut usize| {
        while *i < chars.len() && !is_word_char(chars[*i]) && chars[*i] != '"' && chars[*i] != '=' {
            *i += 1;
        }
    };
    let word = |i: &mut usize| {
        let start = *i;
        while *i < chars.len() && is_word_char(chars[*i]) {
            *i += 1;
        }
        chars[start..*i].iter().collect::<String>()
    };

    skip_space(&mut i);
    // Stray `=` and `"` before the command are noise.
    while i < chars.len() && !is_word_char(chars[i]) {
        i += 1;
    }
    let command = word(&mut i);
    if command.is_empty() {
        return None;
    }
    let mut pairs = Vec::new();
    loop {
        skip_space(&mut i);
        if i >= chars.len() {
            break;
        }
        if !is_word_char(chars[i]) {
            // A `=` or `"` where a name should start: skip a quoted run or the character.
            if chars[i] == '"' {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
            }
            i += 1;
            continue;
        }
        let name = word(&mut i);
        let mut value = String::new();
        if i < chars.len() && chars[i] == '=' {
            i += 1;
            if i < chars.len() && chars[i] == '"' {
                i += 1;
                let start = i;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
                value = chars[start..i].iter().collect();
                i += 1; // the closing quote (or past the end)
            } else {
                value = word(&mut i);
            }
        }
        pairs.push((name, value));
    }
    Some(Line { command, pairs })
}

/// A value as it must appear on the wire.
pub fn quote(value: &str) -> String {
    let clean: String = value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    if clean.is_empty() || clean.contains([' ', '=']) {
        format!("\"{clean}\"")
    } else {
        clean
    }
}

/// Builds an output line from a command and pairs.
pub fn format(command: &str, pairs: &[(&str, &str)]) -> String {
    let mut s = command.to_string();
    for (name, value) in pairs {
        s.push(' ');
        s.push_str(name);
        s.push('=');
        s.push_str(&quote(value));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(line: &Line) -> Vec<(&str, &str)> {
        line.pairs
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn reads_pairs_quotes_and_flags() {
        let l = parse(r#"pos pos=Wbbbbe moves="32-28 19-23" start"#).unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(
            pairs(&l),
            vec![("pos", "Wbbbbe"), ("moves", "32-28 19-23"), ("start", "")]
        );
        assert!(l.has("start"));
        assert_eq!(l.get("moves"), Some("32-28 19-23"));
        assert_eq!(parse("  \t "), None);
        assert_eq!(parse("go   think").unwrap().pairs[0].0, "think");
        let empty = parse(r#"param name=x value="""#).unwrap();
        assert_eq!(empty.get("value"), Some(""));
    }

    #[test]
    fn garbled_lines_never_panic() {
        for text in [
            "=",
            "\"",
            "pos pos=\"unterminated",
            "level = = time=",
            "==x=y \"a\" b=\"c\"d e",
            "\u{fffd}\u{fffd} x=1",
        ] {
            let _ = parse(text);
        }
        let l = parse("level = = time=").unwrap();
        assert_eq!(l.get("time"), Some(""));
    }

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(quote("32-28"), "32-28");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
        assert_eq!(
            format("error", &[("message", "bad move")]),
            "error message=\"bad move\""
        );
        let round = parse(&format("info", &[("pv", "32-28 19-23"), ("depth", "3")])).unwrap();
        assert_eq!(round.get("pv"), Some("32-28 19-23"));
    }
}
