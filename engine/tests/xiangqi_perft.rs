//! Perft of every position in testdata/xiangqi_perft.epd, against the counts that pyffish,
//! Fairy-Stockfish and an independent generator agree on.
//!
//! The default test runs every depth in the file (about 10 s in the `ci` profile on a shared
//! 2-core machine); the ignored test adds two deeper published counts (about a minute).

use tetrarch::game::Notation;
use tetrarch::games::xiangqi::Board;
use tetrarch::perft::perft;

struct Case {
    fen: String,
    id: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/xiangqi_perft.epd");
    let text = std::fs::read_to_string(path).expect("testdata/xiangqi_perft.epd is readable");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let mut counts = Vec::new();
        let mut id = String::new();
        for p in parts {
            let p = p.trim();
            if let Some(rest) = p.strip_prefix('D') {
                let mut it = rest.split_whitespace();
                let d: u32 = it.next().unwrap().parse().unwrap();
                let n: u64 = it.next().unwrap().parse().unwrap();
                counts.push((d, n));
            } else if let Some(rest) = p.strip_prefix("id") {
                id = rest.trim().trim_matches('"').to_string();
            }
        }
        out.push(Case { fen, id, counts });
    }
    out
}

/// Checks every (position, depth) count of the file; returns how many.
fn run() -> usize {
    let mut checked = 0;
    let all = cases();
    assert_eq!(all.len(), 34, "the file holds 34 positions");
    for case in &all {
        let mut board = Board::from_text(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in &case.counts {
            let got = perft(&mut board, depth);
            assert_eq!(got, expected, "{} depth {depth}", case.id);
            assert_eq!(
                board.to_text(),
                Board::from_text(&case.fen).unwrap().to_text()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn xiangqi_perft_suite() {
    assert_eq!(run(), 164, "every count in the file (497,110,659 nodes)");
}

/// Published counts beyond the file's 50 M node limit (testdata/README.md): the start
/// position at depth 6 and cpw-2 at depth 5.
#[test]
#[ignore = "5.4 G nodes: about a minute in the ci profile"]
fn xiangqi_perft_deep() {
    let mut start = Board::start();
    assert_eq!(perft(&mut start, 6), 5_392_831_844);
    let mut cpw2 =
        Board::from_text("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1")
            .unwrap();
    assert_eq!(perft(&mut cpw2, 5), 53_112_976);
}
