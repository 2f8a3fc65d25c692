//! `genfens N seed S book <None|FILE> [extra]`: OpenBench's request for opening positions.
//!
//! Scheme: OpenBench's worker starts the engine as `./engine "genfens N seed S book B" "quit"`
//! (each argument one command; `main.rs` feeds them to the UCI loop), splits a test's openings
//! over several such processes with different seeds, and reads every line that begins
//! `info string genfens ` as one FEN (it then rewrites the two clock fields as EPD `hmvc` and
//! `fmvn`, so the FEN must carry all six fields). We answer with exactly `N` such lines, the
//! same for the same seed: positions from the book (EPD or FEN lines, chosen by the seed) or
//! the initial position, plus random legal plies, kept when the game goes on and a short search
//! scores them within two pawns (`selfplay::genfens`). Anything after the book is ignored, as
//! OpenBench may append engine-specific words there.

use tetrarch::game::Notation;
use tetrarch::search::{Engine, Options};
use tetrarch::selfplay::{self, OpeningRule};

use super::options::Values;
use super::session::UciGame;
use crate::io::Output;

/// The parsed request.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub count: usize,
    pub seed: u64,
    pub book: Option<String>,
}

/// Reads `N seed S book <None|FILE> [...]`.
pub fn parse(args: &str) -> Result<Request, String> {
    let t: Vec<&str> = args.split_whitespace().collect();
    let usage = "genfens N seed S book <None|FILE>";
    let count = t
        .first()
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("{usage}: N must be a whole number"))?;
    let mut seed = None;
    let mut book = None;
    let mut i = 1;
    while i < t.len() {
        match t[i] {
            "seed" => {
                seed = Some(
                    t.get(i + 1)
                        .and_then(|s| s.parse::<u64>().ok())
                        .ok_or_else(|| format!("{usage}: seed must be a whole number"))?,
                );
                i += 2;
            }
            "book" => {
                let b = t
                    .get(i + 1)
                    .ok_or_else(|| format!("{usage}: book needs a value"))?;
                book = if b.eq_ignore_ascii_case("none") {
                    None
                } else {
                    Some(b.to_string())
                };
                i += 2;
            }
            // Extra words (OpenBench passes engine-specific ones after the book).
            _ => i += 1,
        }
    }
    Ok(Request {
        count,
        seed: seed.ok_or_else(|| format!("{usage}: the seed is missing"))?,
        book,
    })
}

/// The position text of an EPD line (four fields and `hmvc`/`fmvn` operations) or a FEN.
fn book_line_text(line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() > 4 && line.contains(';') {
        let op = |name: &str| {
            line.split(';')
                .filter_map(|p| p.trim().strip_prefix(name))
                .map(|v| v.trim().to_string())
                .next()
        };
        format!(
            "{} {} {}",
            fields[..4].join(" "),
            op("hmvc").unwrap_or_else(|| "0".into()),
            op("fmvn").unwrap_or_else(|| "1".into())
        )
    } else {
        line.trim().to_string()
    }
}

/// Answers a `genfens` command for the game `G`.
pub fn run<G: UciGame>(args: &str, options: &Values, out: &Output) -> Result<(), String> {
    let req = parse(args)?;
    let mut book = Vec::new();
    if let Some(path) = &req.book {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("genfens: cannot read {path}: {e}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut pos = G::Pos::from_text(&book_line_text(line))
                .map_err(|e| format!("genfens: book line '{line}': {e}"))?;
            G::configure(&mut pos, options);
            book.push(pos);
        }
        if book.is_empty() {
            return Err(format!("genfens: {path} holds no positions"));
        }
    }
    let rule = OpeningRule {
        min_plies: if book.is_empty() { 8 } else { 2 },
        max_plies: if book.is_empty() { 9 } else { 3 },
        nodes: 1000,
        max_score: 200,
        attempts: 50,
    };
    let mut book_or_start = book;
    if book_or_start.is_empty() {
        // The initial position as the options configure it (Chess960 text form).
        let mut s = G::Pos::start();
        G::configure(&mut s, options);
        book_or_start.push(s);
    }
    let mut engine = Engine::with_options(
        book_or_start[0].clone(),
        G::Eval::default(),
        Options {
            threads: 1,
            hash_mb: 2,
            ..Options::default()
        },
    );
    let found = selfplay::genfens(&mut engine, &book_or_start, req.count, req.seed, &rule);
    if found.len() < req.count {
        return Err(format!(
            "genfens: only {} of {} openings could be made from the book",
            found.len(),
            req.count
        ));
    }
    for pos in found {
        out.line(&format!("info string genfens {}", pos.to_text()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_as_openbench_writes_them() {
        assert_eq!(
            parse("16 seed 12345 book None ").unwrap(),
            Request {
                count: 16,
                seed: 12345,
                book: None
            }
        );
        assert_eq!(
            parse("2 seed 7 book Books/UHO.epd extra words").unwrap(),
            Request {
                count: 2,
                seed: 7,
                book: Some("Books/UHO.epd".into())
            }
        );
        assert!(parse("x seed 1 book None").is_err());
        assert!(parse("3 book None").is_err());
        assert!(parse("3 seed -1 book None").is_err());
    }

    #[test]
    fn epd_operations_become_clock_fields() {
        assert_eq!(
            book_line_text(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;"
            ),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    fn genfens_lines(commands: &[&str]) -> Vec<String> {
        let (out, cap) = Output::capture();
        let mut uci = super::super::Uci::new(out);
        for c in commands {
            uci.handle(c);
        }
        cap.text().lines().map(str::to_string).collect()
    }

    fn fens(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                l.strip_prefix("info string genfens ")
                    .unwrap_or_else(|| panic!("unexpected line '{l}'"))
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn genfens_answers_legal_playable_fens_by_the_seed() {
        use tetrarch::game::Position;
        use tetrarch::games::chess::Board;
        let a = fens(&genfens_lines(&["genfens 12 seed 5 book None"]));
        assert_eq!(a.len(), 12);
        for fen in &a {
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
            let b = Board::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(b.outcome().is_none(), "{fen}");
            assert_eq!(b.to_text(), *fen);
        }
        assert_eq!(a, fens(&genfens_lines(&["genfens 12 seed 5 book None"])));
        assert_ne!(a, fens(&genfens_lines(&["genfens 12 seed 6 book None"])));
        // Errors are reported the UCI way, and the session goes on.
        let bad = genfens_lines(&["genfens many seed 1 book None", "isready"]);
        assert!(bad[0].starts_with("info string error: genfens"), "{bad:?}");
        assert_eq!(bad.last().map(String::as_str), Some("readyok"));
        let missing = genfens_lines(&["genfens 2 seed 1 book /no/such/book.epd"]);
        assert!(missing[0].starts_with("info string error: genfens: cannot read"));
    }

    #[test]
    fn genfens_starts_from_the_book() {
        use tetrarch::games::chess::Board;
        let dir = std::env::temp_dir().join(format!("tetrarch-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.epd");
        // One EPD line (no pawn on e2, Black's king on a8) and one Chess960 FEN.
        std::fs::write(
            &book,
            "k7/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQ - hmvc 0; fmvn 1;\n",
        )
        .unwrap();
        let cmd = format!("genfens 4 seed 1 book {} extra", book.display());
        let got = fens(&genfens_lines(&[&cmd]));
        assert_eq!(got.len(), 4);
        for fen in &got {
            let b = Board::from_text(fen).unwrap();
            // Two or three plies from the book position: move 2, and e2 still without a
            // pawn (pawns never move back), which no walk from the initial position gives.
            assert!(fen.ends_with(" 2"), "{fen}");
            assert_eq!(b.to_text(), *fen);
            let rank2: String =
                fen.split('/')
                    .nth(6)
                    .unwrap()
                    .chars()
                    .fold(String::new(), |mut acc, c| {
                        match c.to_digit(10) {
                            Some(n) => acc.extend(std::iter::repeat_n('.', n as usize)),
                            None => acc.push(c),
                        }
                        acc
                    });
            assert_ne!(rank2.chars().nth(4), Some('P'), "{fen}");
        }
        let shredder = dir.join("frc.epd");
        std::fs::write(
            &shredder,
            "bqnb1rkr/pppppppp/8/8/8/8/PPPPPPPP/BQNB1RKR w HFhf - 0 1\n",
        )
        .unwrap();
        let cmd = format!("genfens 2 seed 3 book {}", shredder.display());
        let got = fens(&genfens_lines(&[
            "setoption name UCI_Chess960 value true",
            &cmd,
        ]));
        assert_eq!(got.len(), 2, "{got:?}");
        for fen in &got {
            Board::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
