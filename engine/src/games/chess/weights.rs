//! Every weight of the chess evaluation, in one table a tuner can fit.
//!
//! Scheme: each weight is an [`S`], a pair of midgame and endgame values that the evaluation
//! blends by game phase. [`Weights`] groups them by term; [`Weights::visit_mut`] walks every
//! pair with a stable name and index, which is all a tuner needs to read and write the table
//! as a flat vector. Piece-square tables are written from White's side with a1 first; the
//! defaults come from simple geometric rules (centralisation, advancement, king shelter)
//! applied in `default_psts`, not from another engine's tables.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A midgame/endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// The evaluation's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Pawn, knight, bishop, rook, queen.
    pub material: [S; 5],
    /// Per kind (pawn .. king), per square from White's side.
    pub pst: [[S; 64]; 6],
    /// By the number of safe squares reached.
    pub knight_mobility: [S; 9],
    pub bishop_mobility: [S; 14],
    pub rook_mobility: [S; 15],
    pub queen_mobility: [S; 28],
    /// Pawn structure.
    pub passed: [S; 8],
    pub passed_free: [S; 8],
    pub passed_own_king: [S; 8],
    pub passed_their_king: [S; 8],
    pub isolated: S,
    pub doubled: S,
    pub backward: S,
    pub connected: [S; 8],
    /// Pieces.
    pub bishop_pair: S,
    pub rook_open: S,
    pub rook_semi_open: S,
    pub rook_seventh: S,
    pub knight_outpost: S,
    pub bishop_bad_pawns: S,
    /// Threats: a piece of each kind attacked by a pawn, by a minor, by a rook; hanging pieces.
    pub threat_by_pawn: [S; 6],
    pub threat_by_minor: [S; 6],
    pub threat_by_rook: [S; 6],
    pub hanging: S,
    /// King safety: attack weight per attacking kind, safe checks per kind, shelter.
    pub king_attack: [S; 6],
    pub safe_check: [S; 6],
    pub king_zone_weak: S,
    pub shelter: [S; 8],
    pub king_open_file: S,
    pub tempo: S,
}

/// Counts attack units into king danger: `units^2 / DANGER_DIV` midgame, a fraction endgame.
pub const DANGER_DIV: i32 = 256;

// One square at a time fills all six tables, so the index is the natural loop variable.
#[allow(clippy::needless_range_loop)]
fn default_psts() -> [[S; 64]; 6] {
    let mut t = [[S(0, 0); 64]; 6];
    for sq in 0..64usize {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        // Distance from the centre, 0 (d4/e5 block) to 3 (edge).
        let fc = if file < 4 { 3 - file } else { file - 4 };
        let rc = if rank < 4 { 3 - rank } else { rank - 4 };
        let centre = fc.max(rc);
        let centre_sum = fc + rc;

        // Pawns: advance, the centre files early, the last ranks late.
        let pawn_mg = if (1..7).contains(&rank) {
            let central = [0, 2, 6, 12, 12, 6, 2, 0][file as usize];
            (rank - 1) * 3 + central * (rank.min(4) - 1).max(0) / 2 - 4
        } else {
            0
        };
        let pawn_eg = if (1..7).contains(&rank) {
            [0, -6, -4, 4, 16, 40, 80, 0][rank as usize]
        } else {
            0
        };
        t[0][sq] = S(pawn_mg, pawn_eg);
        // Knights: strongly central, and forward but not too far.
        let fwd = [0, 2, 6, 10, 12, 10, 4, -4][rank as usize];
        t[1][sq] = S(
            -12 * centre - 4 * centre_sum / 2 + fwd,
            -10 * centre - 2 * centre_sum,
        );
        // Bishops: mildly central, the long diagonals.
        let diag = if file == rank || file + rank == 7 {
            8
        } else {
            0
        };
        t[2][sq] = S(
            -5 * centre + diag - if rank == 0 { 6 } else { 0 },
            -6 * centre,
        );
        // Rooks: the seventh rank and central files in the midgame.
        let rook_mg = if rank == 6 { 14 } else { 0 } + [-4, 0, 2, 6, 6, 2, 0, -4][file as usize];
        t[3][sq] = S(rook_mg, if rank == 6 { 10 } else { 0 });
        // Queens: out of the corners, not too early.
        t[4][sq] = S(-3 * centre - if rank >= 5 { 2 } else { 0 }, -8 * centre);
        // King: sheltered on the back rank by a wing in the midgame, central in the endgame.
        let king_mg = match rank {
            0 => [24, 30, 14, -4, -4, 8, 32, 22][file as usize],
            1 => [8, 6, -8, -20, -20, -10, 6, 8][file as usize],
            _ => -30 - 10 * (rank - 2).min(3),
        };
        t[5][sq] = S(king_mg, -14 * centre - 2 * centre_sum);
    }
    t
}

fn ramp<const N: usize>(low: S, high: S, curve: f64) -> [S; N] {
    let mut out = [S(0, 0); N];
    for (i, v) in out.iter_mut().enumerate() {
        let x = (i as f64 / (N - 1).max(1) as f64).powf(curve);
        *v = S(
            low.0 + ((high.0 - low.0) as f64 * x) as i32,
            low.1 + ((high.1 - low.1) as f64 * x) as i32,
        );
    }
    out
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            material: [
                S(88, 118),
                S(340, 320),
                S(360, 345),
                S(480, 560),
                S(1020, 1010),
            ],
            pst: default_psts(),
            knight_mobility: ramp(S(-40, -50), S(30, 25), 0.6),
            bishop_mobility: ramp(S(-35, -55), S(45, 50), 0.5),
            rook_mobility: ramp(S(-30, -60), S(30, 60), 0.6),
            queen_mobility: ramp(S(-25, -60), S(40, 70), 0.5),
            passed: [
                S(0, 0),
                S(-4, 6),
                S(-6, 12),
                S(0, 30),
                S(20, 58),
                S(50, 110),
                S(90, 180),
                S(0, 0),
            ],
            passed_free: [
                S(0, 0),
                S(0, 2),
                S(0, 4),
                S(2, 8),
                S(6, 18),
                S(12, 40),
                S(24, 70),
                S(0, 0),
            ],
            passed_own_king: [
                S(0, 0),
                S(0, 0),
                S(0, -2),
                S(0, -4),
                S(0, -8),
                S(0, -12),
                S(0, -16),
                S(0, 0),
            ],
            passed_their_king: [
                S(0, 0),
                S(0, 0),
                S(0, 4),
                S(0, 10),
                S(0, 18),
                S(0, 28),
                S(0, 36),
                S(0, 0),
            ],
            isolated: S(-10, -14),
            doubled: S(-8, -22),
            backward: S(-6, -8),
            connected: [
                S(0, 0),
                S(4, 0),
                S(8, 4),
                S(10, 8),
                S(18, 20),
                S(34, 40),
                S(60, 80),
                S(0, 0),
            ],
            bishop_pair: S(30, 55),
            rook_open: S(36, 10),
            rook_semi_open: S(16, 8),
            rook_seventh: S(4, 18),
            knight_outpost: S(24, 12),
            bishop_bad_pawns: S(-2, -5),
            threat_by_pawn: [S(0, 0), S(60, 40), S(60, 40), S(80, 30), S(80, 30), S(0, 0)],
            threat_by_minor: [S(2, 14), S(0, 0), S(18, 30), S(46, 30), S(46, 40), S(0, 0)],
            threat_by_rook: [S(0, 16), S(20, 30), S(20, 30), S(0, 0), S(50, 30), S(0, 0)],
            hanging: S(30, 16),
            king_attack: [S(0, 0), S(20, 0), S(20, 0), S(28, 0), S(44, 0), S(0, 0)],
            safe_check: [S(0, 0), S(60, 0), S(40, 0), S(70, 0), S(60, 0), S(0, 0)],
            king_zone_weak: S(8, 0),
            shelter: [
                S(-36, 0),
                S(0, 0),
                S(12, 0),
                S(20, 0),
                S(22, 0),
                S(0, 0),
                S(0, 0),
                S(0, 0),
            ],
            king_open_file: S(-18, 0),
            tempo: S(18, 8),
        }
    }
}

impl Weights {
    /// Visits every weight as `(term name, index within the term, pair)`, in a fixed order.
    pub fn visit_mut(&mut self, mut f: impl FnMut(&'static str, usize, &mut S)) {
        macro_rules! one {
            ($name:ident) => {
                f(stringify!($name), 0, &mut self.$name)
            };
        }
        macro_rules! many {
            ($name:ident) => {
                for (i, s) in self.$name.iter_mut().enumerate() {
                    f(stringify!($name), i, s);
                }
            };
        }
        many!(material);
        for (k, table) in self.pst.iter_mut().enumerate() {
            for (i, s) in table.iter_mut().enumerate() {
                f("pst", k * 64 + i, s);
            }
        }
        many!(knight_mobility);
        many!(bishop_mobility);
        many!(rook_mobility);
        many!(queen_mobility);
        many!(passed);
        many!(passed_free);
        many!(passed_own_king);
        many!(passed_their_king);
        one!(isolated);
        one!(doubled);
        one!(backward);
        many!(connected);
        one!(bishop_pair);
        one!(rook_open);
        one!(rook_semi_open);
        one!(rook_seventh);
        one!(knight_outpost);
        one!(bishop_bad_pawns);
        many!(threat_by_pawn);
        many!(threat_by_minor);
        many!(threat_by_rook);
        one!(hanging);
        many!(king_attack);
        many!(safe_check);
        one!(king_zone_weak);
        many!(shelter);
        one!(king_open_file);
        one!(tempo);
    }

    /// The number of pairs [`visit_mut`](Weights::visit_mut) walks.
    pub fn len(&self) -> usize {
        let mut n = 0;
        self.clone().visit_mut(|_, _, _| n += 1);
        n
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
