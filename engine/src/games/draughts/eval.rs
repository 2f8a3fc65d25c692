//! The draughts evaluation: material, tempo and development, centre, left-right balance,
//! outposts, runaway men and breakthroughs, locked formations, king activity, trading down
//! when ahead, and learned patterns of men in 4x4 regions (`patterns`); plus a scaling of
//! drawish endgames.
//!
//! Scheme: every term is counted from each player's own side and scored White minus Black.
//! Black's pieces are first turned half a board round ([`rotate`]: square `s` becomes `51 - s`,
//! which in the ghost-bit layout is a bit reversal), so one routine, written for men moving
//! towards squares 1-5, scores both players. The terms feed a `linear::Sink`: play's
//! multiplies each count by its (middlegame, endgame) weight from `weights`, the tuner's
//! ([`trace`]) records the counts themselves, so the two can never disagree. The blend is by
//! men on the board (40 = middlegame, 0 = endgame).
//!
//! After the linear sum, endgames that the rules or technique make drawish are scaled towards
//! zero: when the side behind has a king, a lead counts for a quarter less, and when the side
//! ahead has at most three pieces against a king nothing can be forced (the 16- and 5-move
//! rules end such games); four kings against a lone king keep their whole lead (a win). The score is from the side to move's view, in units where a man is 100.
//! With endgame tables loaded (`Eval::with_bitbases`), positions they hold are scored by
//! `Evaluator::probe` instead, exactly.

use std::sync::Arc;

use super::bitbase::{Bitbases, Wdl};
use super::board::Board;
use super::patterns::{self, OWN_REGIONS};
use super::squares::{shift, Bits, VALID};
use super::weights::{Weights, S};
use crate::game::{Evaluator, Side, Verdict};
use crate::linear::{FormBuilder, LinearEval, LinearForm, Play, Sink, Summed, Tracer, WeightInfo};

/// Turns a bitboard half a board round: square `s` goes to `51 - s` (bit `b` to `53 - b`).
#[inline(always)]
pub fn rotate(b: u64) -> u64 {
    b.reverse_bits() >> 10
}

/// Row (0 = squares 1-5) and column (0-9, left to right as White sees the board) of a bit.
const fn row_col(bit: u32) -> (i32, i32) {
    let i = (bit - bit / 11) as i32;
    let row = i / 5;
    let col = 2 * (i % 5) + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

const fn mask_of(squares: &[u32]) -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < squares.len() {
        let i = squares[k] - 1;
        m |= 1u64 << (i + i / 10);
        k += 1;
    }
    m
}

/// Squares with a column in `lo..=hi`.
const fn columns(lo: i32, hi: i32) -> u64 {
    let mut m = 0u64;
    let mut b = 0;
    while b < 54 {
        if VALID & (1u64 << b) != 0 {
            let (_, c) = row_col(b);
            if c >= lo && c <= hi {
                m |= 1u64 << b;
            }
        }
        b += 1;
    }
    m
}

/// Rows advanced by a man of the player moving up (towards row 0) standing on each bit.
static ADVANCE: [u8; 54] = {
    let mut t = [0u8; 54];
    let mut b = 0;
    while b < 54 {
        if VALID & (1u64 << b) != 0 {
            t[b as usize] = (9 - row_col(b).0) as u8;
        }
        b += 1;
    }
    t
};

/// For a man moving up on each bit: the squares ahead of it that an enemy piece would have to
/// occupy to stop or catch it (the widening triangle up to row 0), plus the two squares right
/// behind it (from where an enemy man could capture it backwards).
static CONE: [u64; 54] = {
    let mut t = [0u64; 54];
    let mut b = 0;
    while b < 54 {
        if VALID & (1u64 << b) != 0 {
            let (r, c) = row_col(b);
            let mut m = 0u64;
            let mut o = 0;
            while o < 54 {
                if VALID & (1u64 << o) != 0 {
                    let (r2, c2) = row_col(o);
                    let dc = if c2 > c { c2 - c } else { c - c2 };
                    if (r2 < r && dc <= r - r2) || (r2 == r + 1 && dc == 1) {
                        m |= 1u64 << o;
                    }
                }
                o += 1;
            }
            t[b as usize] = m;
        }
        b += 1;
    }
    t
};

const LEFT_HALF: u64 = columns(0, 4);
const RIGHT_HALF: u64 = columns(5, 9);
const EDGE_FILES: u64 = columns(0, 0) | columns(9, 9);
const CENTRE: u64 = mask_of(&[22, 23, 24, 27, 28, 29]);
const OUTPOSTS: u64 = mask_of(&[22, 23, 24]);
const BACK_ROW: u64 = mask_of(&[46, 47, 48, 49, 50]);
const MAIN_DIAGONAL: u64 = mask_of(&[5, 10, 14, 19, 23, 28, 32, 37, 41, 46]);
/// Squares that have a neighbour up-left (shift -6) and up-right (shift -5).
const HAS_UP_LEFT: u64 = shift(VALID, 6);
const HAS_UP_RIGHT: u64 = shift(VALID, 5);

/// The coefficients of each weight in a position's evaluation (White minus Black), and the
/// phase, for a tuner: `evaluate = scale((Σ mg[i]·c[i]·phase + Σ eg[i]·c[i]·(40-phase)) / 40)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// (flat index in [`Weights::visit_mut`] order, count), by increasing index, the nonzero
    /// counts only (the pattern tables make the table large and a position's use of it sparse).
    pub counts: Vec<(usize, i32)>,
    /// Men on the board, 0..=40 (40 = pure middlegame weights).
    pub phase: i32,
}

/// Hands each count to the summed sink for one player, skipping zero counts.
struct Signed<'a, 'b, K: Sink> {
    acc: &'a mut Summed<'b, K>,
    side: Side,
}

impl<K: Sink> Signed<'_, '_, K> {
    #[inline(always)]
    fn add(&mut self, w: &S, n: i32) {
        if n != 0 {
            self.acc.add(self.side, w, n);
        }
    }
}

#[inline(always)]
fn count(b: u64) -> i32 {
    b.count_ones() as i32
}

/// One player's terms, for pieces oriented so that its men move towards row 0.
#[inline(always)]
fn side_terms<K: Sink>(
    acc: &mut Signed<'_, '_, K>,
    w: &Weights,
    men: u64,
    kings: u64,
    their: u64,
    their_kings: u64,
    patterns: bool,
) {
    let own = men | kings;
    let empty = VALID & !(own | their);

    acc.add(&w.man, count(men));
    acc.add(&w.king, count(kings));

    let mut runaways = 0;
    let mut distance = 0;
    for b in Bits(men) {
        let adv = ADVANCE[b as usize] as usize;
        acc.add(&w.man_row[adv], 1);
        if adv >= 3 && their_kings == 0 && CONE[b as usize] & their == 0 {
            runaways += 1;
            distance += 9 - adv as i32;
        }
    }
    acc.add(&w.runaway, runaways);
    acc.add(&w.runaway_distance, distance);

    acc.add(&w.centre, count(men & CENTRE));
    acc.add(&w.edge, count(men & EDGE_FILES));
    acc.add(
        &w.imbalance,
        (count(men & LEFT_HALF) - count(men & RIGHT_HALF)).abs(),
    );

    let outposts = men & OUTPOSTS;
    acc.add(&w.outpost, count(outposts));
    acc.add(
        &w.outpost_support,
        count(shift(outposts, 5) & own) + count(shift(outposts, 6) & own),
    );
    // An own piece right behind (down-left +5, down-right +6) covers a man from behind.
    acc.add(
        &w.supported,
        count(men & (shift(own, -5) | shift(own, -6) | BACK_ROW)),
    );

    let steps_left = shift(men, -6) & empty;
    let steps_right = shift(men, -5) & empty;
    acc.add(&w.mobility, count(steps_left) + count(steps_right));
    // Men three or fewer rows from crowning (rows 1-3) with a free square ahead.
    let near = men & (0b11111u64 << 5 | 0b11111u64 << 11 | 0b11111u64 << 16) & VALID;
    acc.add(
        &w.breakthrough,
        count(near & (shift(empty, 6) | shift(empty, 5))),
    );
    // Both forward squares an enemy or the edge, and at least one an enemy.
    let enemy_ul = shift(their, 6);
    let enemy_ur = shift(their, 5);
    let locked =
        men & (!HAS_UP_LEFT | enemy_ul) & (!HAS_UP_RIGHT | enemy_ur) & (enemy_ul | enemy_ur);
    acc.add(&w.locked, count(locked));

    // Kings are not part of a pattern: they count as empty squares there.
    if patterns {
        let their_men = their & !their_kings;
        for r in &OWN_REGIONS {
            acc.add(
                &w.pattern[r.class as usize][patterns::state(men, their_men, r)],
                1,
            );
        }
    }

    if kings != 0 {
        acc.add(&w.king_diagonal, count(kings & MAIN_DIAGONAL));
        let mut around = 0;
        for d in [-6, -5, 5, 6] {
            around += count(shift(kings, d) & empty);
        }
        acc.add(&w.king_mobility, around);
    }
}

/// Feeds every term of the position to `acc` (White minus Black); returns the phase. Without
/// `patterns` the pattern term is skipped, which changes nothing when its weights are all zero.
#[inline(always)]
fn terms<K: Sink>(acc: &mut Summed<'_, K>, t: &Weights, board: &Board, patterns: bool) -> i32 {
    let (w, b) = (board.pieces(Side::First), board.pieces(Side::Second));
    let (wk, bk) = (board.kings(Side::First), board.kings(Side::Second));
    let (wm, bm) = (w & !wk, b & !bk);
    side_terms(
        &mut Signed {
            acc,
            side: Side::First,
        },
        t,
        wm,
        wk,
        b,
        bk,
        patterns,
    );
    side_terms(
        &mut Signed {
            acc,
            side: Side::Second,
        },
        t,
        rotate(bm),
        rotate(bk),
        rotate(w),
        rotate(wk),
        patterns,
    );
    let pieces = count(w | b);
    acc.add(
        Side::First,
        &t.trade,
        (count(w) - count(b)) * (40 - pieces).max(0),
    );
    count(wm | bm).min(40)
}

/// Blends the phases and scales drawish endgames; White's view.
#[inline(always)]
fn finish(board: &Board, mg: i32, eg: i32, phase: i32) -> i32 {
    let v = (mg * phase + eg * (40 - phase)) / 40;
    scale(board, v)
}

/// Drawish endgames (see the module doc), White's view in and out.
#[inline(always)]
fn scale(board: &Board, v: i32) -> i32 {
    match scale_eighths(board, v) {
        8 => v,
        1 => v / 8,
        _ => v * 3 / 4,
    }
}

/// The drawish-endgame factor for the unscaled White's-view value `v`, in eighths: 8 (none),
/// 6 (the side behind has a king) or 1 (and the side ahead has at most three pieces). Four
/// kings or more against a lone king is a win that no rule stops (the 16- and 5-move rules
/// are for three pieces or fewer, and the win takes fewer than 25 moves), so no factor.
#[inline(always)]
fn scale_eighths(board: &Board, v: i32) -> i32 {
    let (ahead, behind) = if v > 0 {
        (Side::First, Side::Second)
    } else {
        (Side::Second, Side::First)
    };
    if board.kings(behind) == 0
        || (board.pieces(behind).count_ones() == 1 && board.kings(ahead).count_ones() >= 4)
    {
        8
    } else if board.pieces(ahead).count_ones() <= 3 {
        1
    } else {
        6
    }
}

/// The evaluation of `board` under `w`, from the side to move's view.
pub fn evaluate_with(w: &Weights, board: &Board) -> i32 {
    evaluate_in(w, true, board)
}

/// [`evaluate_with`], skipping the pattern term unless `patterns` (see [`terms`]).
#[inline(always)]
fn evaluate_in(w: &Weights, patterns: bool, board: &Board) -> i32 {
    let mut play = Play;
    let mut sum = Summed::new(&mut play);
    let phase = terms(&mut sum, w, board, patterns);
    let v = finish(board, sum.sum.0, sum.sum.1, phase);
    if board.side() == Side::First {
        v
    } else {
        -v
    }
}

/// The coefficients of every weight in `board`'s evaluation, for tuning (see [`Trace`]).
pub fn trace(board: &Board) -> Trace {
    // Any table will do: only the addresses of its pairs are read.
    let w = Weights::zero();
    let mut t = Tracer::new(&w, Weights::flat_index);
    let phase = terms(&mut Summed::new(&mut t), &w, board, true);
    let mut counts = t.counts;
    counts.sort_unstable_by_key(|&(i, _)| i);
    let mut merged: Vec<(usize, i32)> = Vec::with_capacity(counts.len());
    for (i, n) in counts {
        match merged.last_mut() {
            Some(last) if last.0 == i => last.1 += n,
            _ => merged.push((i, n)),
        }
    }
    merged.retain(|&(_, n)| n != 0);
    Trace {
        counts: merged,
        phase,
    }
}

/// The draughts [`Evaluator`]: a weight table (by default the tuned one, [`Weights::tuned`]),
/// and optionally the endgame tables, which answer [`Evaluator::probe`].
#[derive(Clone, Debug)]
pub struct Eval {
    /// Shared: with the pattern tables the table is some hundred kilobytes, and every search
    /// thread holds an evaluator.
    weights: Arc<Weights>,
    /// Whether any pattern weight is nonzero: play skips the pattern term otherwise.
    patterns: bool,
    bitbases: Option<Arc<Bitbases>>,
}

impl Eval {
    pub fn new(weights: Weights) -> Eval {
        Eval {
            patterns: weights.has_patterns(),
            weights: Arc::new(weights),
            bitbases: None,
        }
    }

    /// The same evaluation, probing `bitbases` (or nothing, with `None`) in the search.
    pub fn with_bitbases(mut self, bitbases: Option<Arc<Bitbases>>) -> Eval {
        self.bitbases = bitbases.filter(|b| !b.is_empty());
        self
    }

    /// The endgame tables the search probes, if any.
    pub fn bitbases(&self) -> Option<&Arc<Bitbases>> {
        self.bitbases.as_ref()
    }

    /// Material only: the baseline the full evaluation is measured against.
    pub fn material_only() -> Eval {
        Eval::new(Weights::material_only())
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl Default for Eval {
    fn default() -> Self {
        Eval::new(Weights::tuned())
    }
}

impl Evaluator<Board> for Eval {
    #[inline]
    fn evaluate(&mut self, pos: &Board) -> i32 {
        evaluate_in(&self.weights, self.patterns, pos)
    }

    /// The table result: a win or loss in the known-result band, ordered by the static
    /// evaluation so that the search still heads for captures and crownings; a draw as 0.
    #[inline]
    fn probe(&mut self, pos: &Board) -> Option<i32> {
        let db = self.bitbases.as_deref()?;
        let verdict = match db.probe(pos)? {
            Wdl::Win => Verdict::Win,
            Wdl::Draw => return Some(crate::score::DRAW),
            Wdl::Loss => Verdict::Loss,
        };
        Some(crate::score::known_result(
            verdict,
            evaluate_in(&self.weights, self.patterns, pos),
        ))
    }
}

impl LinearEval<Board> for Eval {
    fn weight_list(&self) -> Vec<WeightInfo> {
        self.weights.weight_list()
    }

    fn with_weights(&self, values: &[(i32, i32)]) -> Result<Eval, String> {
        Ok(Eval::new(Weights::from_flat(&self.weights, values)?)
            .with_bitbases(self.bitbases.clone()))
    }

    /// The traced counts with the phase blend folded in, times the drawish-endgame factor
    /// that the current weights' sum selects (it depends on the sign of the evaluation only).
    fn linear_form(&mut self, b: &Board) -> LinearForm {
        let w = &*self.weights;
        let mut t = Tracer::new(w, Weights::flat_index);
        let mut sum = Summed::new(&mut t);
        let phase = terms(&mut sum, w, b, true);
        let S(mg, eg) = sum.sum;
        let v = (mg * phase + eg * (40 - phase)) / 40;
        let f = scale_eighths(b, v) as f32 / 8.0;
        let mg_f = phase as f32 / 40.0 * f;
        let eg_f = (40 - phase) as f32 / 40.0 * f;
        let mut form = FormBuilder::new();
        t.fold_counts(&mut form, mg_f, 1.0, eg_f);
        form.build()
    }

    fn weights_source(&self, doc: &str) -> String {
        self.weights.tuned_source(doc)
    }
}

/// The phase halves of the evaluation before blending: `t`'s counts times `w`'s pairs.
#[cfg(test)]
fn weighted_sums(w: &Weights, t: &Trace) -> (i32, i32) {
    let list = w.weight_list();
    t.counts.iter().fold((0, 0), |(mg, eg), &(i, n)| {
        (mg + list[i].mg * n, eg + list[i].eg * n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn eval(fen: &str) -> i32 {
        evaluate_with(&Weights::handset(), &Board::from_text(fen).unwrap())
    }

    /// The same position with colours swapped and the board turned round.
    fn mirrored(fen: &str) -> String {
        let b = Board::from_text(fen).unwrap();
        let (w, bl) = (b.pieces(Side::First), b.pieces(Side::Second));
        let k = b.kings(Side::First) | b.kings(Side::Second);
        let list = |set: u64| {
            crate::games::draughts::squares::squares(rotate(set))
                .map(|s| {
                    let king =
                        rotate(k) & crate::games::draughts::squares::mask_of_square(s as u32) != 0;
                    format!("{}{s}", if king { "K" } else { "" })
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = if b.side() == Side::First { "B" } else { "W" };
        format!("{side}:W{}:B{}", list(bl), list(w))
    }

    #[test]
    fn rotation_maps_square_s_to_51_minus_s() {
        use crate::games::draughts::squares::{mask_of_square, squares};
        for s in 1..=50u32 {
            let r: Vec<u8> = squares(rotate(mask_of_square(s))).collect();
            assert_eq!(r, vec![(51 - s) as u8]);
        }
        assert_eq!(rotate(VALID), VALID);
    }

    #[test]
    fn start_is_balanced_and_colour_symmetric() {
        assert_eq!(eval(crate::games::draughts::START_FEN), 0);
        for fen in [
            "W:W28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
            "B:W17,K46,33,34:B5,K10,12,19",
            "W:W6,27,28,32,33,38,K44:B12,13,K21,22,23,24,25",
            "B:W11,31,32,36:B15,20,25,K40",
        ] {
            let m = mirrored(fen);
            assert_eq!(eval(fen), eval(&m), "{fen} vs {m}");
        }
    }

    #[test]
    fn material_and_kings_count() {
        // A man up is good for the side that has it, from either side's view.
        let up = eval("W:W31-50:B1-19");
        assert!(up > 60, "{up}");
        assert!(eval("B:W31-50:B1-19") < -60);
        // A king is worth more than a man.
        let king = eval("W:W31-49,K22:B1-19,26");
        let man = eval("W:W31-49,22:B1-19,26");
        assert!(king > man + 100, "{king} {man}");
    }

    #[test]
    fn a_runaway_man_counts_and_drawish_endings_shrink() {
        // White's man on 16 has a free road to the crown; Black's men are far away.
        let free = eval("W:W16,40,45:B4,5,35");
        let blocked = eval("W:W16,40,45:B4,5,11");
        assert!(free > blocked + 50, "{free} {blocked}");
        // Two kings against one: a rules draw, whatever the material says.
        let v = eval("W:WK10,K20:BK45");
        assert!(v.abs() < 60, "{v}");
        // Four kings against one: a win, the whole lead kept.
        let four = eval("W:WK10,K20,K30,K40:BK45");
        assert!(four > 300, "{four}");
        let three_and_a_man = eval("W:WK10,K20,K30,40:BK45");
        assert!(four > three_and_a_man * 5 / 4, "{four} {three_and_a_man}");
    }

    /// Positions from the opening to the ending, men and kings, both sides to move.
    const SAMPLES: [&str; 5] = [
        crate::games::draughts::START_FEN,
        "W:W28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
        "B:W17,K46,33,34:B5,K10,12,19",
        "W:W6,27,28,32,33,38,K44:B12,13,K21,22,23,24,25",
        "B:W11,31,32,36:B15,20,25,K40",
    ];

    #[test]
    fn the_linear_form_reproduces_the_evaluation() {
        let endings = [
            "W:WK10,K20:BK45",
            "B:WK10,K20,K30,K40:BK45",
            "W:W16,40,45:B4,5,35",
        ];
        let fens: Vec<&str> = SAMPLES.iter().chain(&endings).copied().collect();
        for weights in [Weights::handset(), Weights::material_only()] {
            let mut e = Eval::new(weights);
            let list = e.weight_list();
            assert_eq!(list.len(), Weights::LEN);
            assert_eq!((list[4].name, list[4].index), ("man_row", 2));
            let pairs: Vec<(f32, f32)> = list.iter().map(|w| (w.mg as f32, w.eg as f32)).collect();
            for &fen in &fens {
                let b = Board::from_text(fen).unwrap();
                let white = if b.side() == Side::First { 1 } else { -1 } * e.evaluate(&b);
                let form = e.linear_form(&b);
                let v = form.value(&pairs);
                // Integer division in the blend and the scaling: at most two units apart.
                assert!(
                    (v - white as f32).abs() <= 2.0,
                    "{fen}: form {v}, evaluate {white}"
                );
            }
        }
        // Replacing the weights through the flat list gives the same table back.
        let e = Eval::default();
        let values: Vec<(i32, i32)> = e.weight_list().iter().map(|w| (w.mg, w.eg)).collect();
        assert_eq!(e.with_weights(&values).unwrap().weights(), e.weights());
        assert!(e.with_weights(&values[1..]).is_err());
    }

    /// The handset table with every pattern weight set to an arbitrary, distinct value.
    fn with_patterns() -> Weights {
        let mut w = Weights::handset();
        for (c, table) in w.pattern.iter_mut().enumerate() {
            for (i, s) in table.iter_mut().enumerate() {
                let h = (i as i32 * 7919 + c as i32 * 104_729) % 61 - 30;
                *s = S(h, (h * 13) % 41);
            }
        }
        w
    }

    #[test]
    fn patterns_keep_colour_symmetry_and_the_linear_form() {
        let w = with_patterns();
        assert!(w.has_patterns());
        assert!(!Weights::handset().has_patterns());
        let fens = SAMPLES;
        for fen in fens {
            let b = Board::from_text(fen).unwrap();
            let m = Board::from_text(&mirrored(fen)).unwrap();
            assert_eq!(evaluate_with(&w, &b), evaluate_with(&w, &m), "{fen}");
            let mut e = Eval::new(w.clone());
            let pairs: Vec<(f32, f32)> = e
                .weight_list()
                .iter()
                .map(|x| (x.mg as f32, x.eg as f32))
                .collect();
            let white = if b.side() == Side::First { 1 } else { -1 } * e.evaluate(&b);
            let v = e.linear_form(&b).value(&pairs);
            assert!((v - white as f32).abs() <= 2.0, "{fen}: {v} vs {white}");
        }
        // The start: each player scores its own eight regions, White 31-50 and Black 1-20 seen
        // from its side, which are the same contents; the patterns cancel.
        let start = Board::from_text(crate::games::draughts::START_FEN).unwrap();
        assert_eq!(evaluate_with(&w, &start), 0);
        // A pattern moves the score: one White man's region entry changed alone.
        let fen = "W:W31,32,33:B3,4,5";
        let b = Board::from_text(fen).unwrap();
        let before = evaluate_with(&w, &b);
        let t = trace(&b);
        let list = w.weight_list();
        let (i, n) = *t
            .counts
            .iter()
            .find(|&&(i, _)| list[i].name == "pattern")
            .unwrap();
        assert_eq!(n.abs(), 1);
        let mut changed = w.clone();
        let mut k = 0;
        changed.visit_mut(|_, _, s| {
            if k == i {
                *s += S(400, 400);
            }
            k += 1;
        });
        let after = evaluate_with(&changed, &b);
        assert_eq!((after - before).signum(), n.signum(), "{before} {after}");
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        for fen in [
            crate::games::draughts::START_FEN,
            "W:W28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
            "B:W17,K46,33,34:B5,K10,12,19",
            "W:W6,27,28,32,33,38,K44:B12,13,K21,22,23,24,25",
        ] {
            let b = Board::from_text(fen).unwrap();
            let t = trace(&b);
            let w = with_patterns();
            let (mg, eg) = weighted_sums(&w, &t);
            let white = finish(&b, mg, eg, t.phase);
            let stm = if b.side() == Side::First {
                white
            } else {
                -white
            };
            assert_eq!(stm, evaluate_with(&w, &b), "{fen}");
        }
    }
}
