//! `tetrarch-tune convert`: text data (`FEN | score | result`, as `datagen` writes) to the
//! 32-byte records of [`crate::packed`], for the network trainer.
//!
//! Scheme: one pass over the text, line by line; a line that does not parse (a partial last
//! line of a file still being written, or anything else) is counted and skipped, never fatal.
//! Score and result keep the text's first-player (White) view.

use std::io::{BufRead, BufReader, BufWriter, Write};

use tetrarch::game::Notation;
use tetrarch::games::chess::Board;

use crate::commands::Args;
use crate::datagen::parse_line;
use crate::packed::Record;

pub const HELP: &str = "\
tetrarch-tune convert: chess text data (FEN | score | result lines) to 32-byte records.

  -in FILE     the text file (datagen's text format)
  -out FILE    the binary file to write (replaced)
";

/// How a conversion went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    pub written: usize,
    pub skipped: usize,
}

/// Converts `input` text to records in `output`.
pub fn convert(input: impl BufRead, mut output: impl Write) -> Result<Converted, String> {
    let mut done = Converted::default();
    for line in input.lines() {
        let line = line.map_err(|e| format!("reading: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let Some(sample) = parse_line(&line) else {
            done.skipped += 1;
            continue;
        };
        let Ok(board) = Board::from_text(&sample.fen) else {
            done.skipped += 1;
            continue;
        };
        let result = (sample.result * 2.0).round() as u8;
        let r = Record::new(&board, sample.score, result);
        output
            .write_all(&r.0)
            .map_err(|e| format!("writing: {e}"))?;
        done.written += 1;
    }
    output.flush().map_err(|e| format!("writing: {e}"))?;
    Ok(done)
}

pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-help" || a == "--help") {
        print!("{HELP}");
        return Ok(());
    }
    let a = Args::parse(args, &[])?;
    let input = a.str("in").ok_or("-in FILE is required")?;
    let out = a.str("out").ok_or("-out FILE is required")?;
    a.finish()?;
    let reader = BufReader::new(
        std::fs::File::open(&input).map_err(|e| format!("cannot read {input}: {e}"))?,
    );
    let writer = BufWriter::new(
        std::fs::File::create(&out).map_err(|e| format!("cannot write {out}: {e}"))?,
    );
    let done = convert(reader, writer)?;
    println!(
        "convert: {} positions written to {out}, {} lines skipped",
        done.written, done.skipped
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::records;

    #[test]
    fn text_lines_become_records_and_bad_lines_are_skipped() {
        let text = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 35 | 1.0
garbage line
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 | -20 | 0.0

8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.5
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 1";
        let mut out = Vec::new();
        let done = convert(text.as_bytes(), &mut out).unwrap();
        assert_eq!(
            done,
            Converted {
                written: 3,
                skipped: 3
            }
        );
        let rs: Vec<Record> = records(&out).collect();
        assert_eq!(rs.len(), 3);
        assert_eq!((rs[0].score(), rs[0].result()), (35, 2));
        assert!(!rs[0].white_to_move());
        assert_eq!((rs[1].score(), rs[1].result()), (-20, 0));
        assert_eq!(rs[2].result(), 1);
        assert_eq!(
            rs[1].fen(),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        );
    }
}
