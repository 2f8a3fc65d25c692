//! Every weight of the chess evaluation, in one table a tuner can fit.
//!
//! Scheme: each weight is an [`S`], a pair of midgame and endgame values that the evaluation
//! blends by game phase. [`Weights`] groups them by term; [`Weights::visit_mut`] walks every
//! pair with a stable name and index, which is all a tuner needs to read and write the table
//! as a flat vector. Piece-square tables are written from White's side with a1 first; the
//! default values ([`Weights::geometric`]) come from simple geometric rules (centralisation,
//! advancement, king shelter) applied in `default_psts`, not from another engine's tables;
//! [`Weights::fitted`] is a first table fitted from them by `examples/fit_eval.rs` (never
//! shown to be stronger in games). [`Weights::tuned`] (`tuned.rs`, written by
//! `tetrarch-tune texel` from self-play results, starting from the geometric table) is the
//! one the engine plays with, as it beat the geometric table in an SPRT.

use crate::linear::ramp;
pub use crate::linear::S;

crate::weights! {
    /// The evaluation's weights.
    ///
    /// `repr(C)` with nothing but pairs and arrays of pairs, declared in [`Weights::visit_mut`]'s
    /// order: the table is laid out as one flat array of [`S`], so a field's address gives its
    /// flat index ([`Weights::flat_index`]), which is how the evaluation's tracer names weights.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Weights for "chess", rows 8, defaults geometric {
        /// Pawn, knight, bishop, rook, queen.
        pub material: [S; 5] = [
            S(88, 118),
            S(340, 320),
            S(360, 345),
            S(480, 560),
            S(1020, 1010),
        ],
        /// Per kind (pawn .. king), per square from White's side.
        pub pst: [[S; 64]; 6] = default_psts(),
        /// By the number of safe squares reached.
        pub knight_mobility: [S; 9] = ramp(S(-40, -50), S(30, 25), 0.6),
        pub bishop_mobility: [S; 14] = ramp(S(-35, -55), S(45, 50), 0.5),
        pub rook_mobility: [S; 15] = ramp(S(-30, -60), S(30, 60), 0.6),
        pub queen_mobility: [S; 28] = ramp(S(-25, -60), S(40, 70), 0.5),
        /// Pawn structure.
        pub passed: [S; 8] = [
            S(0, 0),
            S(-4, 6),
            S(-6, 12),
            S(0, 30),
            S(20, 58),
            S(50, 110),
            S(90, 180),
            S(0, 0),
        ],
        pub passed_free: [S; 8] = [
            S(0, 0),
            S(0, 2),
            S(0, 4),
            S(2, 8),
            S(6, 18),
            S(12, 40),
            S(24, 70),
            S(0, 0),
        ],
        pub passed_own_king: [S; 8] = [
            S(0, 0),
            S(0, 0),
            S(0, -2),
            S(0, -4),
            S(0, -8),
            S(0, -12),
            S(0, -16),
            S(0, 0),
        ],
        pub passed_their_king: [S; 8] = [
            S(0, 0),
            S(0, 0),
            S(0, 4),
            S(0, 10),
            S(0, 18),
            S(0, 28),
            S(0, 36),
            S(0, 0),
        ],
        pub isolated: S = S(-10, -14),
        pub doubled: S = S(-8, -22),
        pub backward: S = S(-6, -8),
        pub connected: [S; 8] = [
            S(0, 0),
            S(4, 0),
            S(8, 4),
            S(10, 8),
            S(18, 20),
            S(34, 40),
            S(60, 80),
            S(0, 0),
        ],
        /// Pieces.
        pub bishop_pair: S = S(30, 55),
        pub rook_open: S = S(36, 10),
        pub rook_semi_open: S = S(16, 8),
        pub rook_seventh: S = S(4, 18),
        pub knight_outpost: S = S(24, 12),
        pub bishop_bad_pawns: S = S(-2, -5),
        /// Threats: a piece of each kind attacked by a pawn, by a minor, by a rook; hanging pieces.
        pub threat_by_pawn: [S; 6] = [S(0, 0), S(60, 40), S(60, 40), S(80, 30), S(80, 30), S(0, 0)],
        pub threat_by_minor: [S; 6] = [S(2, 14), S(0, 0), S(18, 30), S(46, 30), S(46, 40), S(0, 0)],
        pub threat_by_rook: [S; 6] = [S(0, 16), S(20, 30), S(20, 30), S(0, 0), S(50, 30), S(0, 0)],
        pub hanging: S = S(30, 16),
        /// King safety: attack weight per attacking kind, safe checks per kind, shelter.
        pub king_attack: [S; 6] = [S(0, 0), S(20, 0), S(20, 0), S(28, 0), S(44, 0), S(0, 0)],
        pub safe_check: [S; 6] = [S(0, 0), S(60, 0), S(40, 0), S(70, 0), S(60, 0), S(0, 0)],
        pub king_zone_weak: S = S(8, 0),
        pub shelter: [S; 8] = [
            S(-36, 0),
            S(0, 0),
            S(12, 0),
            S(20, 0),
            S(22, 0),
            S(0, 0),
            S(0, 0),
            S(0, 0),
        ],
        pub king_open_file: S = S(-18, 0),
        /// A bishop on a pawn-guarded square no enemy pawn can challenge.
        pub bishop_outpost: S = S(14, 6),
        /// A knight or bishop with a pawn right in front of it.
        pub minor_behind_pawn: S = S(10, 2),
        /// A safe pawn push that would attack an enemy piece.
        pub threat_push: S = S(30, 20),
        /// An undefended enemy piece or pawn next to our king.
        pub threat_by_king: S = S(10, 30),
        /// An enemy pawn storming our king, per file next to it, by its rank from our side
        /// (index 0: no enemy pawn in front of the king on that file).
        pub storm: [S; 8] = [
            S(0, 0),
            S(0, 0),
            S(-30, 0),
            S(-20, 0),
            S(-8, 0),
            S(0, 0),
            S(0, 0),
            S(0, 0),
        ],
        pub tempo: S = S(18, 8),
        /// Per square both sides attack that the enemy does not hold strongly (by a pawn, or
        /// twice against our once): pieces whose moves are contested.
        pub restricted: S = S(4, 4),
        /// Per square of Chebyshev distance from our king to our nearest pawn.
        pub king_pawn_distance: S = S(0, -8),
        /// A king on a flank (its file's four-file side) with no pawn of either colour.
        pub pawnless_flank: S = S(-10, -40),
        /// Our rook on a passed pawn's file behind it.
        pub rook_behind_passer: S = S(0, 15),
    }
}

/// Counts attack units into king danger: `units^2 / DANGER_DIV` midgame, a fraction endgame.
pub const DANGER_DIV: i32 = 256;
/// The most king danger can be worth (midgame).
pub const DANGER_CAP: i32 = 1500;

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

impl Default for Weights {
    /// The table the engine plays with: the one Texel-tuned on self-play games
    /// ([`Weights::tuned`]), which beat the hand-made [`Weights::geometric`] by SPRT:
    /// +94 +/- 32 Elo, 243 wins, 130 losses and 56 draws in 429 games at 10,000 nodes per
    /// move. The first fit, [`Weights::fitted`], scored +7 +/- 93 Elo over 47 games.
    fn default() -> Self {
        Weights::tuned()
    }
}

impl Weights {
    /// The table the engine plays with: `tuned.rs` over the geometric defaults.
    pub fn tuned() -> Weights {
        Weights::geometric().overlay(super::tuned::TUNED)
    }

    /// The table fitted by `engine/examples/fit_eval.rs` from [`Weights::geometric`]: about
    /// 9,000 positions from engine games, each labelled with Stockfish 15.1's evaluation at
    /// depth 8 (a shallow search of the reference engine as the target, not its code). It
    /// fits those labels far better (mean squared win-probability error 0.0232 against 0.0510)
    /// but overfits some endgame terms (the passed pawn's own-king distance) on so few
    /// positions; in games it scored +7 +/- 93 Elo against the hand-made table (47 games).
    pub fn fitted() -> Weights {
        Weights::geometric().overlay(FITTED)
    }
}

/// The pairs of [`Weights::fitted`], in the tuned-file form (`Weights::table_source`).
#[rustfmt::skip]
const FITTED: crate::linear::Tuned = &[
    ("material", &[(51, 93), (332, 342), (361, 351), (445, 543), (1017, 1008)]),
    ("pst", &[
        (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0),
        (-11, -3), (8, 15), (-11, 2), (-7, -6), (5, 3), (6, 4), (18, -5), (1, 6),
        (-5, 3), (1, -3), (-1, -4), (-7, -6), (0, -4), (-3, -2), (3, 7), (-3, -18),
        (0, -6), (-5, 0), (14, -1), (15, -5), (9, -5), (13, 4), (-11, -2), (-4, 6),
        (10, 18), (4, 13), (11, 6), (23, 5), (16, 14), (5, 16), (2, 4), (9, 12),
        (12, 40), (8, 39), (16, 41), (22, 41), (20, 30), (19, 40), (11, 35), (9, 41),
        (11, 74), (14, 80), (21, 81), (28, 79), (30, 82), (18, 78), (12, 81), (11, 80),
        (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0),
        (-48, -42), (-41, -42), (-43, -38), (-37, -34), (-39, -38), (-39, -35), (-41, -40), (-48, -42),
        (-45, -41), (-29, -27), (-30, -29), (-22, -22), (-20, -23), (-32, -26), (-31, -28), (-39, -40),
        (-41, -40), (-20, -25), (-19, -17), (-5, -13), (-4, -12), (-20, -19), (-23, -26), (-37, -36),
        (-31, -32), (-17, -25), (-8, -12), (-7, -3), (1, 2), (-2, -12), (-14, -21), (-27, -36),
        (-29, -35), (-15, -19), (-4, -10), (11, 1), (9, 3), (-3, -13), (-8, -20), (-29, -36),
        (-34, -36), (-21, -25), (-9, -14), (-1, -9), (-4, -11), (-4, -11), (-24, -26), (-32, -37),
        (-41, -39), (-29, -29), (-26, -27), (-26, -24), (-24, -25), (-28, -25), (-28, -27), (-42, -40),
        (-53, -42), (-50, -40), (-48, -37), (-46, -37), (-46, -36), (-49, -39), (-50, -40), (-58, -45),
        (-11, -16), (-21, -18), (-12, -14), (-18, -15), (-22, -20), (-31, -21), (-17, -17), (-13, -18),
        (-12, -20), (0, -12), (-6, -11), (-17, -18), (-10, -14), (-9, -13), (7, -13), (-13, -18),
        (-11, -18), (-1, -9), (-4, -8), (-4, -6), (-7, -3), (3, -4), (-6, -12), (-18, -18),
        (-16, -17), (-11, -12), (-8, -5), (10, 1), (5, 0), (-8, -6), (-6, -8), (-20, -20),
        (-16, -18), (-10, -11), (-5, -7), (7, -1), (6, -1), (-4, -5), (-14, -10), (-15, -19),
        (-15, -17), (-10, -12), (2, -6), (-6, -7), (-5, -4), (-2, -8), (-8, -12), (-15, -18),
        (-15, -18), (-1, -11), (-9, -12), (-10, -11), (-10, -12), (-7, -12), (-3, -12), (-16, -19),
        (-7, -18), (-15, -18), (-16, -18), (-16, -20), (-15, -18), (-17, -19), (-15, -18), (-7, -18),
        (-5, 2), (-10, -1), (8, 2), (1, -3), (2, -10), (-14, -8), (2, 0), (-9, 0),
        (-12, -4), (1, 2), (3, -3), (6, 1), (5, -2), (-3, -1), (0, -1), (-9, -2),
        (-2, 1), (1, 1), (0, -1), (1, -3), (8, 1), (1, 0), (0, -1), (-4, -1),
        (-5, 0), (1, 2), (2, 1), (6, -1), (6, 2), (2, 0), (0, 0), (-3, 2),
        (-3, 2), (0, 0), (5, 2), (4, -3), (12, 2), (5, 4), (2, 1), (-1, 2),
        (-3, 0), (-1, -1), (3, 0), (9, 2), (7, 1), (2, -1), (1, 0), (-4, 1),
        (11, 10), (9, 6), (15, 8), (16, 5), (22, 11), (14, 7), (15, 10), (9, 7),
        (-3, 4), (0, 2), (3, 1), (5, -1), (6, -1), (1, 0), (-1, 1), (-4, 1),
        (-9, -24), (-10, -24), (-6, -24), (-10, -24), (-11, -25), (-11, -25), (-9, -24), (-8, -24),
        (-11, -24), (-6, -17), (-4, -19), (0, -17), (-6, -15), (-8, -16), (-5, -17), (-10, -24),
        (-10, -24), (-10, -18), (0, -7), (-9, -9), (-6, -9), (-11, -10), (-10, -18), (-9, -24),
        (-6, -24), (-4, -15), (-5, -8), (-4, 0), (-1, -2), (-9, -9), (-6, -15), (-8, -24),
        (-8, -23), (-7, -16), (-2, -9), (-3, 0), (0, 1), (-4, -8), (-4, -15), (-5, -23),
        (-15, -24), (-6, -15), (-3, -7), (-3, -7), (-4, -8), (-2, -7), (-5, -15), (-10, -24),
        (-6, -23), (-9, -17), (-7, -16), (-6, -15), (-8, -16), (-7, -15), (-9, -16), (-11, -24),
        (-11, -24), (-10, -24), (-11, -24), (-11, -24), (-11, -24), (-11, -24), (-11, -24), (-9, -23),
        (22, -55), (28, -53), (17, -47), (-12, -49), (13, -46), (3, -45), (29, -46), (12, -62),
        (10, -53), (4, -35), (-6, -30), (-18, -31), (-23, -32), (-8, -37), (10, -33), (16, -45),
        (-29, -49), (-32, -37), (-31, -19), (-30, -19), (-30, -18), (-29, -21), (-29, -29), (-31, -50),
        (-41, -49), (-40, -32), (-40, -17), (-40, -2), (-40, 1), (-40, -19), (-41, -36), (-40, -48),
        (-50, -49), (-50, -33), (-50, -17), (-50, -1), (-50, 1), (-50, -19), (-49, -30), (-50, -48),
        (-60, -50), (-60, -34), (-60, -19), (-60, -16), (-60, -17), (-60, -18), (-60, -33), (-60, -49),
        (-60, -52), (-60, -36), (-60, -34), (-60, -32), (-60, -31), (-60, -34), (-60, -36), (-60, -52),
        (-60, -54), (-60, -52), (-60, -50), (-60, -48), (-60, -48), (-60, -50), (-60, -52), (-60, -54),
    ]),
    ("knight_mobility", &[
        (-41, -50), (-30, -30), (0, -16), (0, -8), (3, 2), (11, 12), (21, 22), (23, 26), (21, 20),
    ]),
    ("bishop_mobility", &[
        (-39, -55), (-16, -26), (0, -17), (7, -3), (12, 2), (20, 14), (17, 11), (23, 29), (26, 29),
        (24, 33), (35, 35), (38, 41), (41, 45), (45, 50),
    ]),
    ("rook_mobility", &[
        (-32, -61), (-25, -38), (-13, -22), (-7, -16), (3, -2), (-1, 6), (-6, 17), (9, 15),
        (10, 26), (8, 29), (21, 38), (11, 36), (23, 44), (29, 47), (30, 61),
    ]),
    ("queen_mobility", &[
        (-25, -60), (-13, -35), (-7, -25), (-3, -17), (0, -10), (8, -5), (8, 0), (4, 7), (9, 9),
        (14, 14), (14, 18), (15, 23), (15, 27), (16, 28), (19, 32), (16, 31), (26, 41), (27, 44),
        (28, 46), (30, 50), (30, 51), (33, 55), (33, 57), (34, 59), (36, 62), (37, 65), (38, 67),
        (40, 70),
    ]),
    ("passed", &[(0, 0), (-1, 10), (-7, 14), (-4, 30), (19, 54), (48, 104), (86, 177), (0, 0)]),
    ("passed_free", &[(0, 0), (-1, 4), (-1, 5), (0, 7), (5, 19), (13, 39), (23, 72), (0, 0)]),
    ("passed_own_king", &[
        (0, 0), (-9, 1), (-10, 7), (-9, -10), (0, -24), (-10, -31), (-18, -36), (0, 0),
    ]),
    ("passed_their_king", &[
        (0, 0), (1, 3), (-14, 7), (-2, 12), (-12, 19), (1, 25), (-3, 36), (0, 0),
    ]),
    ("isolated", &[(3, 5)]),
    ("doubled", &[(-7, -22)]),
    ("backward", &[(5, -1)]),
    ("connected", &[(0, 0), (4, 5), (9, 16), (8, 1), (11, -2), (30, 33), (61, 82), (0, 0)]),
    ("bishop_pair", &[(31, 61)]),
    ("rook_open", &[(38, -12)]),
    ("rook_semi_open", &[(11, 22)]),
    ("rook_seventh", &[(-4, 3)]),
    ("knight_outpost", &[(26, 23)]),
    ("bishop_bad_pawns", &[(-19, 0)]),
    ("threat_by_pawn", &[(1, 0), (77, 41), (83, 47), (83, 32), (80, 30), (0, 0)]),
    ("threat_by_minor", &[(6, 22), (18, -2), (20, 32), (50, 35), (38, 40), (0, 0)]),
    ("threat_by_rook", &[(0, 22), (21, 32), (27, 30), (3, 2), (51, 31), (0, 0)]),
    ("hanging", &[(51, 22)]),
    ("king_attack", &[(0, 0), (19, 0), (17, 0), (33, 0), (34, 0), (0, 0)]),
    ("safe_check", &[(0, 0), (55, 0), (36, 0), (76, 0), (62, 0), (0, 0)]),
    ("king_zone_weak", &[(19, 0)]),
    ("shelter", &[(1, 31), (22, 7), (5, -6), (-4, -17), (-5, -7), (1, -3), (-1, 0), (0, 0)]),
    ("king_open_file", &[(-5, -18)]),
    ("bishop_outpost", &[(0, 0)]),
    ("minor_behind_pawn", &[(0, 0)]),
    ("threat_push", &[(0, 0)]),
    ("threat_by_king", &[(0, 0)]),
    ("storm", &[(0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]),
    ("tempo", &[(54, 29)]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_fit_the_layout() {
        assert_eq!(
            Weights::overlay_errors(super::super::tuned::TUNED),
            Vec::<String>::new()
        );
        assert_eq!(Weights::overlay_errors(FITTED), Vec::<String>::new());
        // Material 5, tables 6 x 64, mobility 9 + 14 + 15 + 28, pawns 4 x 8 + 3 + 8, pieces 6,
        // threats 3 x 6 + 1, king 6 + 6 + 1 + 8 + 1, later terms 4 + 8, tempo 1, and the four
        // after it (restricted, king-pawn distance, pawnless flank, rook behind a passer).
        assert_eq!(Weights::LEN, 5 + 384 + 66 + 43 + 6 + 19 + 22 + 12 + 1 + 4);
    }

    /// The engine's table file is the writer's output: a tuner's file replaces it as it is.
    #[test]
    fn the_tuned_file_is_what_the_writer_writes() {
        let file = include_str!("tuned.rs");
        let doc = crate::linear::generated_doc(file);
        assert_eq!(Weights::tuned().tuned_source(&doc), file);
        assert!(!file.contains("/work/"), "no machine-local paths");
    }
}
