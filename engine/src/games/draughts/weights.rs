//! Every weight of the draughts evaluation, in one table.
//!
//! Scheme: the evaluation (`eval`) is linear in these weights: each feature contributes
//! `count * weight`, where the count is the difference between White's and Black's value of
//! the feature, and every weight is a pair (middlegame, endgame) blended by the number of men on
//! the board. A Texel tuner fits the table by regressing game results on
//! `eval::trace`'s counts, which are exactly the coefficients the evaluation multiplies by
//! these weights; the only non-linear step (the drawish-endgame scaling) is applied after the
//! sum. The table round-trips through a plain text form, one `name mg eg` line per weight, so
//! tuned values can be loaded without a rebuild.
//!
//! Units: a man in the middlegame is 100. Features are counted from each player's own side
//! ("rows advanced" from the player's back row, "left" as the player sees the board).

/// Men, then kings.
pub const MAN: usize = 0;
pub const KING: usize = 1;
/// Men by rows advanced from their own back row (0 = back row .. 8 = one step from crowning):
/// tempo and development.
pub const MAN_ROW: usize = 2;
const MAN_ROWS: usize = 9;
/// Men on the six central squares (22-24 and 27-29).
pub const CENTRE: usize = MAN_ROW + MAN_ROWS;
/// Men on the side files.
pub const EDGE: usize = CENTRE + 1;
/// |men on the left half - men on the right half|: left-right balance.
pub const IMBALANCE: usize = EDGE + 1;
/// Men on the three central squares of the fifth row (White's 22-24): outposts.
pub const OUTPOST: usize = IMBALANCE + 1;
/// Own pieces on the two squares right behind an outpost.
pub const OUTPOST_SUPPORT: usize = OUTPOST + 1;
/// Men with an own piece right behind them (or on the back row): they cannot be attacked
/// from behind.
pub const SUPPORTED: usize = OUTPOST_SUPPORT + 1;
/// Men with no enemy piece in the cone ahead of them and no enemy king on the board: they
/// crown unless something changes. Counted once per runaway ...
pub const RUNAWAY: usize = SUPPORTED + 1;
/// ... and once per row each runaway still has to go.
pub const RUNAWAY_DISTANCE: usize = RUNAWAY + 1;
/// Men three or fewer rows from crowning with an empty square ahead: breakthroughs.
pub const BREAKTHROUGH: usize = RUNAWAY_DISTANCE + 1;
/// Men whose every forward square is an enemy piece or the edge: locked formations.
pub const LOCKED: usize = BREAKTHROUGH + 1;
/// Forward steps the men can make to empty squares.
pub const MOBILITY: usize = LOCKED + 1;
/// Kings on the main diagonal (46-5).
pub const KING_DIAGONAL: usize = MOBILITY + 1;
/// Empty squares next to a king.
pub const KING_MOBILITY: usize = KING_DIAGONAL + 1;
/// Piece-count lead times the number of pieces already traded (40 - pieces on the board):
/// trading down when ahead.
pub const TRADE: usize = KING_MOBILITY + 1;
/// Number of weights.
pub const COUNT: usize = TRADE + 1;

/// The weights' names, in table order.
pub const NAMES: [&str; COUNT] = [
    "man",
    "king",
    "man_row_0",
    "man_row_1",
    "man_row_2",
    "man_row_3",
    "man_row_4",
    "man_row_5",
    "man_row_6",
    "man_row_7",
    "man_row_8",
    "centre",
    "edge",
    "imbalance",
    "outpost",
    "outpost_support",
    "supported",
    "runaway",
    "runaway_distance",
    "breakthrough",
    "locked",
    "mobility",
    "king_diagonal",
    "king_mobility",
    "trade",
];

/// A full set of weights: `mg[i]` and `eg[i]` for feature `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub mg: [i32; COUNT],
    pub eg: [i32; COUNT],
}

impl Weights {
    /// The hand-set starting point (not yet tuned).
    pub const DEFAULT: Weights = {
        let mut w = Weights {
            mg: [0; COUNT],
            eg: [0; COUNT],
        };
        w = w.with(MAN, 100, 100);
        w = w.with(KING, 300, 330);
        let rows_mg = [2, 0, 3, 6, 9, 11, 12, 16, 24];
        let rows_eg = [0, 4, 8, 14, 22, 32, 45, 60, 80];
        let mut r = 0;
        while r < MAN_ROWS {
            w = w.with(MAN_ROW + r, rows_mg[r], rows_eg[r]);
            r += 1;
        }
        w = w.with(CENTRE, 10, 4);
        w = w.with(EDGE, -8, -2);
        w = w.with(IMBALANCE, -4, -2);
        w = w.with(OUTPOST, 6, 4);
        w = w.with(OUTPOST_SUPPORT, 4, 2);
        w = w.with(SUPPORTED, 3, 2);
        w = w.with(RUNAWAY, 120, 150);
        w = w.with(RUNAWAY_DISTANCE, -12, -10);
        w = w.with(BREAKTHROUGH, 10, 20);
        w = w.with(LOCKED, -6, -10);
        w = w.with(MOBILITY, 2, 3);
        w = w.with(KING_DIAGONAL, 20, 25);
        w = w.with(KING_MOBILITY, 2, 3);
        w = w.with(TRADE, 1, 1);
        w
    };

    /// Material only (man 100, king 300), every positional weight zero: the baseline the
    /// evaluation is measured against.
    pub const MATERIAL_ONLY: Weights = Weights {
        mg: [0; COUNT],
        eg: [0; COUNT],
    }
    .with(MAN, 100, 100)
    .with(KING, 300, 300);

    /// A copy with one weight changed.
    pub const fn with(mut self, index: usize, mg: i32, eg: i32) -> Weights {
        self.mg[index] = mg;
        self.eg[index] = eg;
        self
    }

    /// The table as text: one `name mg eg` line per weight.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (i, name) in NAMES.iter().enumerate() {
            s.push_str(&format!("{name} {} {}\n", self.mg[i], self.eg[i]));
        }
        s
    }

    /// Reads `name mg eg` lines over a copy of `self`; blank lines and `#` comments are
    /// skipped. An unknown name or a malformed line is an error naming it.
    pub fn parse_over(&self, text: &str) -> Result<Weights, String> {
        let mut w = *self;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, mg, eg] = fields[..] else {
                return Err(format!("line {}: expected 'name mg eg'", n + 1));
            };
            let i = NAMES
                .iter()
                .position(|&x| x == name)
                .ok_or_else(|| format!("line {}: unknown weight '{name}'", n + 1))?;
            let parse = |t: &str| {
                t.parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= 10_000)
                    .ok_or_else(|| format!("line {}: '{t}' is not a weight", n + 1))
            };
            w.mg[i] = parse(mg)?;
            w.eg[i] = parse(eg)?;
        }
        Ok(w)
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_rejects_nonsense() {
        let w = Weights::DEFAULT;
        assert_eq!(Weights::MATERIAL_ONLY.parse_over(&w.to_text()), Ok(w));
        let changed = w.parse_over("# tuned\nking 310 340\n\n").unwrap();
        assert_eq!((changed.mg[KING], changed.eg[KING]), (310, 340));
        assert_eq!(changed.mg[MAN], 100);
        assert!(w.parse_over("queen 900 900").is_err());
        assert!(w.parse_over("king 3x0 1").is_err());
        assert!(w.parse_over("king 1").is_err());
        assert_eq!(NAMES.len(), COUNT);
        assert_eq!(NAMES[TRADE], "trade");
        assert_eq!(NAMES[MAN_ROW + 8], "man_row_8");
    }
}
