//! Go's Elo tables and ranks: a kyu/dan rank or an Elo to strength level, one table per
//! board size class (see `crate::strength` and `crate::mcts::skill`).
//!
//! Scale: ranks as Elo the way the EGF rating system writes them, 100 points a rank with 1 dan
//! at 2100 (so 1 kyu is 2000, 7 kyu 1400, 15 kyu 600, 30 kyu -900). The anchor is GNU Go 3.8
//! at `--level 10`, taken as 7 kyu (1400): the rank GNU Go 3.8's bots were commonly quoted at
//! on KGS, an assumption rather than a measurement, and a 19x19 figure (applied to 9x9 games
//! too). Our side plays at fixed playouts and the references at a fixed level or playout
//! count, so the tables do not depend on the machine.
//!
//! 9x9 ([`ELO`]): komi 7, with the learned priors on (the 9x9 default), 20 games a match
//! against GNU Go levels 10, 5 and 1 from the 2-move openings of `tools/openings/go-9x9.sgf`,
//! 240 games in all (see README, "Calibration"): levels 0, 4, 8 and 12 (64, 282, 1,250 and
//! 5,529 playouts) fitted jointly at 995 +/- 156, 1263 +/- 95, 1605 +/- 103 and 1794 +/- 150,
//! so ranks run from 11 kyu to 4 kyu (whole ranks inside the range). GNU Go's three levels
//! came out alike on 9x9.
//!
//! 19x19 ([`ELO_19X19`]): a playout buys far less on the big board, so the same rank takes a
//! much higher level there. Komi 7, from the two-move openings of
//! `tools/openings/go-19x19.sgf`, against GNU Go levels 10 (stated 1400), 5 and 1 (rated through
//! the ladder), 10 games a match, 90 games in all (2026-12-07, see README, "Calibration"):
//! levels 6, 9, 12 and 14 (594, 1,813, 5,528 and 11,623 playouts) fitted at 733 +/- 265,
//! 1232 +/- 133, 1495 +/- 164 and 1532 +/- 231 (level 14 played GNU Go level 10 only, 7-3).
//! Level 3 (195 playouts), which loses to every GNU Go level, keeps the 216 +/- 372 of the
//! ladder before, which rated it through weaker references (our engine without the 19x19
//! priors at 250 and 1000 playouts). So ranks run from 18 kyu to 6 kyu. The ladder before
//! (4 to 6 games a match, references partly our own older engine) had levels 6 to 14 at 592,
//! 977, 1342 and 1470: the engine has gained at every level since, most at level 12 (1-3
//! then, 8-2 now against GNU Go level 10).
//!
//! `tetrarch-tune calibrate -game go [-size 19]` replays a ladder and prints a new table.

use crate::mcts::skill::PlayoutSkill;
use crate::strength::EloTable;

/// The 9x9 table, also the game's table where one table stands for Go (`GameKind::elo_table`).
pub const ELO: EloTable = EloTable {
    anchors: &[(995, 0.0), (1263, 4.0), (1605, 8.0), (1794, 12.0)],
    scale: "GNU Go 3.8 level 10 on 9x9 = 7 kyu = 1400",
};

/// The 19x19 table (see the module doc: GNU Go levels 10, 5 and 1; level 3 from the ladder
/// before).
pub const ELO_19X19: EloTable = EloTable {
    anchors: &[
        (216, 3.0),
        (733, 6.0),
        (1232, 9.0),
        (1495, 12.0),
        (1532, 14.0),
    ],
    scale: "GNU Go 3.8 level 10 on 19x19 = 7 kyu = 1400",
};

/// The table of a board size. A playout buys far less on a big board, so a rank needs more
/// playouts there: boards up to 12x12 use the 9x9 table, the big ones (13x13 and up,
/// [`super::board::is_big_size`]) the 19x19 table (13x13 is not measured; its play is closer
/// to 19x19's, with whole-board fights and big frameworks).
pub fn table(size: usize) -> EloTable {
    if super::board::is_big_size(size) {
        ELO_19X19
    } else {
        ELO
    }
}

/// Every board size's table.
pub const TABLES: [EloTable; 2] = [ELO, ELO_19X19];

/// A strength setting as the controller gave it: a rank is kept as its Elo and turned into a
/// level by the table of the board it is played on, so `rank` then `boardsize` means the same
/// as the other order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Strength {
    #[default]
    Full,
    /// A level (0..20) set directly, as calibration does: the same on every board.
    Level(PlayoutSkill),
    /// A rank, as Elo (see [`parse_rank`]).
    Rank(i32),
}

impl Strength {
    /// The strength of a level (0..20): 20 and above is full strength.
    pub fn from_level(level: f64) -> Strength {
        PlayoutSkill::from_level(level).map_or(Strength::Full, Strength::Level)
    }

    /// The limiter on a board of `size`, `None` at full strength.
    pub fn skill(self, size: usize) -> Option<PlayoutSkill> {
        match self {
            Strength::Full => None,
            Strength::Level(s) => Some(s),
            Strength::Rank(elo) => PlayoutSkill::from_level(table(size).level(elo)),
        }
    }

    /// For a rank beyond what a board of `size` is calibrated for: the rank asked for and the
    /// one played (the table's end), as Elo; `None` when the rank is played as asked.
    pub fn clamped_rank(self, size: usize) -> Option<(i32, i32)> {
        let Strength::Rank(elo) = self else {
            return None;
        };
        let t = table(size);
        let played = elo.clamp(t.min_elo(), t.max_elo());
        (played != elo).then_some((elo, played))
    }
}

/// The Elo range that some board's table supports (a rank outside every table is refused; on
/// a board whose table does not reach it, the level is clamped to that table's end).
pub fn rank_elo_range() -> (i32, i32) {
    let lo = TABLES.iter().map(|t| t.min_elo()).min().unwrap_or(0);
    let hi = TABLES.iter().map(|t| t.max_elo()).max().unwrap_or(0);
    (lo, hi)
}

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
    fn a_rank_is_read_through_its_board_sizes_table() {
        for t in TABLES {
            assert!(t.is_monotone(), "{}", t.scale);
        }
        let level = |s: Strength, size| s.skill(size).map(|k| k.level);
        let rank = Strength::Rank(1400);
        assert_eq!(level(rank, 9), Some(ELO.level(1400)));
        assert_eq!(level(rank, 19), Some(ELO_19X19.level(1400)));
        assert_eq!(level(rank, 13), level(rank, 19));
        // A level set directly is the same on every board; full strength has no limiter.
        let direct = Strength::Level(PlayoutSkill::from_level(5.5).unwrap());
        assert_eq!(level(direct, 9), level(direct, 19));
        assert_eq!(Strength::Full.skill(19), None);
        // A rank past a table's end is played at that end, and says so.
        let top = Strength::Rank(ELO.max_elo());
        assert_eq!(top.clamped_rank(9), None);
        assert_eq!(
            top.clamped_rank(19),
            Some((ELO.max_elo(), ELO_19X19.max_elo()))
        );
        assert_eq!(direct.clamped_rank(19), None);
        // Every table's range is inside the accepted one.
        let (lo, hi) = rank_elo_range();
        assert!(TABLES
            .iter()
            .all(|t| lo <= t.min_elo() && t.max_elo() <= hi));
    }

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
