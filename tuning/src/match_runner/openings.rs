//! Opening books: EPD, PGN, SGF and PDN files.
//!
//! Scheme: a book is read once into [`Opening`]s, each a start position (or the initial one)
//! and a list of moves still in the file's own notation (SAN, coordinates, SGF points, draughts
//! numbers). The referee resolves the moves when a game starts ([`resolve`]): each move is
//! matched against the position's legal moves by canonical text or by record text (SAN), so no
//! notation parser beyond the rules is needed. `plies` truncates each opening; `order` picks
//! them in file order or shuffled by the match seed.

use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::rules::{GameKind, Rules};

/// One opening: a start position (position text) and moves in the file's notation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opening {
    pub start: Option<String>,
    pub moves: Vec<String>,
}

/// File formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    Epd,
    Pgn,
    Sgf,
    Pdn,
}

impl BookFormat {
    pub fn parse(text: &str) -> Result<BookFormat, String> {
        match text.to_ascii_lowercase().as_str() {
            "epd" | "fen" => Ok(BookFormat::Epd),
            "pgn" => Ok(BookFormat::Pgn),
            "sgf" => Ok(BookFormat::Sgf),
            "pdn" => Ok(BookFormat::Pdn),
            _ => Err(format!(
                "unknown opening format '{text}' (epd, pgn, sgf or pdn)"
            )),
        }
    }
}

/// Reads a book's text.
pub fn read(text: &str, format: BookFormat, kind: GameKind) -> Result<Vec<Opening>, String> {
    let v = match format {
        BookFormat::Epd => read_epd(text, kind),
        BookFormat::Pgn | BookFormat::Pdn => read_pgn(text),
        BookFormat::Sgf => read_sgf(text)?,
    };
    if v.is_empty() {
        return Err("the opening file holds no openings".into());
    }
    Ok(v)
}

/// EPD: one position per line; the first four fields are the position, and the move counters
/// are kept when present (six-field FEN lines) or set to `0 1`.
fn read_epd(text: &str, kind: GameKind) -> Vec<Opening> {
    let mut v = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !kind.fen_counters() {
            v.push(Opening {
                start: Some(line.split_whitespace().next().unwrap_or("").to_string()),
                moves: Vec::new(),
            });
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 2 {
            continue;
        }
        let numeric = |s: Option<&&str>| s.is_some_and(|s| s.parse::<u32>().is_ok());
        let fen = if f.len() >= 6 && numeric(f.get(4)) && numeric(f.get(5)) {
            f[..6].join(" ")
        } else {
            // EPD: four position fields, then operations (`bm e5;`, `id "x";`).
            let mut base: Vec<&str> = f.iter().take(4).copied().collect();
            while base.len() < 4 {
                base.push("-");
            }
            format!("{} 0 1", base.join(" "))
        };
        v.push(Opening {
            start: Some(fen),
            moves: Vec::new(),
        });
    }
    v
}

/// PGN and PDN: tag pairs (a `FEN` tag sets the start), then movetext; comments, variations,
/// NAGs, move numbers and results are skipped.
fn read_pgn(text: &str) -> Vec<Opening> {
    let mut v = Vec::new();
    let mut cur = Opening::default();
    let mut in_moves = false;
    let mut depth_paren = 0;
    let mut in_brace = false;
    let flush = |cur: &mut Opening, v: &mut Vec<Opening>| {
        if cur.start.is_some() || !cur.moves.is_empty() {
            v.push(std::mem::take(cur));
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if !in_brace && depth_paren == 0 && t.starts_with('[') {
            if in_moves {
                flush(&mut cur, &mut v);
                in_moves = false;
            }
            if let Some(rest) = t.strip_prefix("[FEN ") {
                let value = rest.trim_end_matches(']').trim().trim_matches('"');
                cur.start = Some(value.to_string());
            }
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let mut tokens = Vec::new();
        for c in t.chars() {
            if in_brace {
                if c == '}' {
                    in_brace = false;
                }
                continue;
            }
            match c {
                '{' => {
                    in_brace = true;
                    tokens.push(std::mem::take(&mut token));
                }
                ';' => break,
                '(' => {
                    depth_paren += 1;
                    tokens.push(std::mem::take(&mut token));
                }
                ')' => {
                    depth_paren -= 1;
                    token.clear();
                }
                c if c.is_whitespace() => tokens.push(std::mem::take(&mut token)),
                c if depth_paren == 0 => token.push(c),
                _ => {}
            }
        }
        tokens.push(token);
        for tok in tokens {
            let tok = tok.trim();
            if tok.is_empty() {
                continue;
            }
            in_moves = true;
            if matches!(
                tok,
                "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1" | "0-0"
            ) {
                flush(&mut cur, &mut v);
                in_moves = false;
                continue;
            }
            if tok.starts_with('$') {
                continue;
            }
            // Strip a leading move number ("12." "12..." or "12.e4").
            let stripped = tok.trim_start_matches(|c: char| c.is_ascii_digit());
            let mv = if stripped.starts_with('.') {
                stripped.trim_start_matches('.')
            } else {
                tok
            };
            if mv.is_empty() {
                continue;
            }
            cur.moves.push(mv.to_string());
        }
    }
    flush(&mut cur, &mut v);
    v
}

/// SGF: each game tree's main line (the first variation at every branch) of `B[..]` / `W[..]`
/// moves as GTP vertices. Setup stones (`AB`, `AW`) are not supported: such a file is an error.
fn read_sgf(text: &str) -> Result<Vec<Opening>, String> {
    let mut v = Vec::new();
    let mut size = 19u32;
    let mut cur: Option<Opening> = None;
    let mut depth = 0;
    // Per open parenthesis: whether its nodes are on the main line, and whether it already
    // had a child variation (later siblings are side lines).
    let mut main: Vec<bool> = Vec::new();
    let mut had_child: Vec<bool> = Vec::new();
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut prop = String::new();
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            '(' => {
                depth += 1;
                if depth == 1 {
                    cur = Some(Opening::default());
                    main.push(true);
                } else {
                    let parent_main = main.last().copied().unwrap_or(false);
                    let first = !had_child.last().copied().unwrap_or(true);
                    if let Some(h) = had_child.last_mut() {
                        *h = true;
                    }
                    main.push(parent_main && first);
                }
                had_child.push(false);
            }
            ')' => {
                if depth == 1 {
                    if let Some(o) = cur.take() {
                        v.push(o);
                    }
                }
                main.pop();
                had_child.pop();
                depth -= 1;
            }
            '[' => {
                let mut value = String::new();
                i += 1;
                while i < bytes.len() && bytes[i] != ']' {
                    if bytes[i] == '\\' {
                        i += 1;
                    }
                    if i < bytes.len() {
                        value.push(bytes[i]);
                    }
                    i += 1;
                }
                let name = if prop.is_empty() { "" } else { prop.as_str() };
                match name {
                    "SZ" => size = value.trim().parse().unwrap_or(19),
                    "AB" | "AW" => return Err("SGF setup stones (AB/AW) are not supported".into()),
                    "B" | "W" if main.last() == Some(&true) => {
                        if let Some(o) = cur.as_mut() {
                            o.moves.push(sgf_to_vertex(&value, size));
                        }
                    }
                    _ => {}
                }
            }
            c if c.is_ascii_uppercase() => {
                if i > 0 && !bytes[i - 1].is_ascii_uppercase() {
                    prop.clear();
                }
                prop.push(c);
            }
            _ => {
                if c == ';' {
                    prop.clear();
                }
            }
        }
        i += 1;
    }
    Ok(v)
}

/// A GTP vertex from SGF letters (`dp` on 19x19 is `D4`); empty or `tt` is a pass.
fn sgf_to_vertex(value: &str, size: u32) -> String {
    let b = value.as_bytes();
    if b.len() != 2 || (value == "tt" && size <= 19) {
        return "pass".into();
    }
    let x = b[0].wrapping_sub(b'a');
    let y = b[1].wrapping_sub(b'a') as u32;
    let col = (b'A' + x + u8::from(x >= 8)) as char;
    format!("{col}{}", size.saturating_sub(y))
}

/// Orders a book: file order, or shuffled by `seed`.
pub fn arrange(
    mut openings: Vec<Opening>,
    random: bool,
    seed: u64,
    plies: Option<usize>,
) -> Vec<Opening> {
    if random {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        openings.shuffle(&mut rng);
    }
    if let Some(p) = plies {
        for o in &mut openings {
            o.moves.truncate(p);
        }
    }
    openings
}

/// Resolves an opening's moves to canonical text with the referee, playing them on `rules`.
pub fn resolve(opening: &Opening, rules: &mut dyn Rules) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(opening.moves.len());
    for m in &opening.moves {
        let canonical = find_move(rules, m)
            .ok_or_else(|| format!("opening move '{m}' is not legal after {}", out.join(" ")))?;
        rules.play(&canonical)?;
        out.push(canonical);
    }
    Ok(out)
}

/// The legal move a text names: by canonical text, by record text (SAN), or by the rules'
/// own parser; check and annotation marks are ignored.
fn find_move(rules: &mut dyn Rules, text: &str) -> Option<String> {
    let clean = |s: &str| {
        s.trim_end_matches(['+', '#', '!', '?'])
            .replace("0-0-0", "O-O-O")
            .replace("0-0", "O-O")
    };
    let mut want = clean(text);
    // Coordinates with a dash (`e2-e4`, xiangqi's `H2-E2`) are coordinate moves; draughts'
    // `32-28` has no letters and keeps its dash.
    let b = want.as_bytes();
    if b.len() == 5 && b[2] == b'-' && b[0].is_ascii_alphabetic() && b[3].is_ascii_alphabetic() {
        want = format!("{}{}", &want[..2], &want[3..]).to_ascii_lowercase();
    }
    let legal = rules.legal_moves();
    if let Some(m) = legal
        .iter()
        .find(|m| **m == want || m.eq_ignore_ascii_case(&want))
    {
        return Some(m.clone());
    }
    for m in &legal {
        if clean(&rules.record_text(m)) == want {
            return Some(m.clone());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_become_full_fens() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n\
                    # comment\n\
                    8/8/8/8/8/8/8/K1k5 w - - 5 60\n";
        let v = read(text, BookFormat::Epd, GameKind::Chess).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(
            v[0].start.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(v[1].start.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 5 60"));
    }

    #[test]
    fn pgn_games_and_their_moves() {
        let text = "[Event \"a\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n\n1. Ka2 {c} Kc2 (1... Kd1 2. Ka3) 2. Ka3 $1 1/2-1/2\n\n\
                    [Event \"b\"]\n\n1.e4 e5 2.Nf3 Nc6 *\n";
        let v = read(text, BookFormat::Pgn, GameKind::Chess).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].moves, ["Ka2", "Kc2", "Ka3"]);
        assert!(v[0].start.is_some());
        assert_eq!(v[1].moves, ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(v[1].start, None);
    }

    #[test]
    fn pdn_moves() {
        let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
        let v = read(text, BookFormat::Pdn, GameKind::Draughts).unwrap();
        assert_eq!(v[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
    }

    #[test]
    fn sgf_main_line_as_vertices() {
        let text = "(;GM[1]SZ[9]KM[7.5];B[ee];W[cc](;B[gg])(;B[dd]))\n(;SZ[19];B[dp];W[])";
        let v = read(text, BookFormat::Sgf, GameKind::Go).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].moves, ["E5", "C7", "G3"]);
        assert_eq!(v[1].moves, ["D4", "pass"]);
        assert!(read("(;AB[aa])", BookFormat::Sgf, GameKind::Go).is_err());
    }

    #[test]
    fn random_order_is_repeatable_and_plies_truncate() {
        let v: Vec<Opening> = (0..20)
            .map(|i| Opening {
                start: Some(format!("{i}")),
                moves: vec!["a".into(), "b".into(), "c".into()],
            })
            .collect();
        let a = arrange(v.clone(), true, 7, Some(2));
        let b = arrange(v.clone(), true, 7, Some(2));
        assert_eq!(a, b);
        assert_ne!(a, v);
        assert!(a.iter().all(|o| o.moves.len() == 2));
    }
}
