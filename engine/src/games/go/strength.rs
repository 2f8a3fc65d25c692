//! Go's Elo table and ranks: a kyu/dan rank or an Elo to strength level (see
//! `crate::strength` and `crate::mcts::skill`).
//!
//! Scale: ranks as Elo the way the EGF rating system writes them, 100 points a rank with 1 dan
//! at 2100 (so 1 kyu is 2000, 7 kyu 1400, 15 kyu 600, 30 kyu -900). The anchor is GNU Go 3.8
//! (`--level 10`, 9x9), taken as 7 kyu (1400): the rank GNU Go 3.8's bots were commonly
//! quoted at on KGS, an assumption rather than a measurement, and a 19x19 figure applied to
//! 9x9 games. Our side plays at fixed playouts and GNU Go at a fixed level, so the table does
//! not depend on the machine. Measured on 9x9, komi 7, with the learned priors on (the 9x9
//! default), 20 games a match against GNU Go levels 10, 5 and 1 from the 2-move openings of
//! `tools/openings/go-9x9.sgf`, 240 games in all (see README, "Strength settings"): levels 0,
//! 4, 8 and 12 (64, 282, 1,250 and 5,529 playouts) fitted jointly at 995 +/- 156, 1263 +/- 95,
//! 1605 +/- 103 and 1794 +/- 150, so ranks run from 11 kyu to 3 kyu. GNU Go's three levels came
//! out alike on 9x9 (levels 5 and 1 fitted at 1400 and 1407). `tetrarch-tune calibrate -game
//! go` replays the ladder and prints a new table.

use crate::strength::EloTable;

pub const ELO: EloTable = EloTable {
    anchors: &[(995, 0.0), (1263, 4.0), (1605, 8.0), (1794, 12.0)],
    scale: "GNU Go 3.8 level 10 on 9x9 = 7 kyu = 1400",
};

/// The Elo of 1 dan; each rank is 100 more (dan) or less (kyu).
const ONE_DAN: i32 = 2100;

/// Reads a rank: `15k`, `15kyu`, `1d`, `3dan` (any case). `None` for anything else, or a rank
/// beyond 30 kyu or 9 dan.
pub fn parse_rank(text: &str) -> Option<i32> {
    let t = text.trim().to_ascii_lowercase();
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: i32 = digits.parse().ok()?;
    match &t[digits.len()..] {
        "k" | "kyu" if (1..=30).contains(&n) => Some(ONE_DAN - 100 * n),
        "d" | "dan" if (1..=9).contains(&n) => Some(ONE_DAN + 100 * (n - 1)),
        _ => None,
    }
}

/// The nearest rank of an Elo, as `15k` or `1d`.
pub fn rank_text(elo: i32) -> String {
    let steps = (f64::from(elo - ONE_DAN) / 100.0).round() as i32;
    if steps >= 0 {
        format!("{}d", (steps + 1).min(9))
    } else {
        format!("{}k", (-steps).min(30))
    }
}

/// The weakest and the strongest rank whose Elo lies in `lo..=hi` (ranks are 100 apart, so
/// the ends of a fitted table are rounded inwards), as Elo; `None` when no rank fits.
pub fn ranks_within(lo: i32, hi: i32) -> Option<(i32, i32)> {
    let weakest = ONE_DAN + 100 * (lo - ONE_DAN + 99).div_euclid(100);
    let strongest = ONE_DAN + 100 * (hi - ONE_DAN).div_euclid(100);
    (weakest <= strongest).then_some((weakest, strongest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_read_and_print() {
        assert_eq!(parse_rank("1d"), Some(2100));
        assert_eq!(parse_rank("1k"), Some(2000));
        assert_eq!(parse_rank("7K"), Some(1400));
        assert_eq!(parse_rank("15kyu"), Some(600));
        assert_eq!(parse_rank("3dan"), Some(2300));
        for bad in ["", "k", "0k", "31k", "10d", "5x", "-3k", "1.5k"] {
            assert_eq!(parse_rank(bad), None, "{bad}");
        }
        for r in ["30k", "15k", "1k", "1d", "9d"] {
            assert_eq!(rank_text(parse_rank(r).unwrap()), r);
        }
        assert_eq!(rank_text(1440), "7k");
        assert_eq!(ranks_within(995, 1794), Some((1000, 1700)));
        assert_eq!(ranks_within(1000, 1800), Some((1000, 1800)));
        assert_eq!(ranks_within(1010, 1090), None);
    }
}
