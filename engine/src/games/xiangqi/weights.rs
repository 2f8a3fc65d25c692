//! Every weight of the xiangqi evaluation, in one table a tuner can fit.
//!
//! Scheme: as in chess, each weight is an [`S`] (midgame, endgame) pair that the evaluation
//! blends by game phase; [`Weights::visit_mut`] walks every pair with a stable name and index,
//! so a tuner reads and writes the table as a flat vector. Piece-square tables are written
//! from Red's side, indexed by `Square` (`rank * 9 + file`, a0 first); Black reads them through
//! `Square::flip`. The defaults come from plain xiangqi principles applied in `default_psts`
//! (soldiers gain once across the river and most near the palace, horses want the centre and
//! the points beside the enemy palace, cannons the central file and the enemy back rank,
//! chariots the ribs and deep ranks, the general stays home), not from another engine's tables.
//!
//! Values are in soldier-hundredths: a soldier at home is 80, a horse about 5 soldiers, a
//! chariot about twice a horse or cannon. The cannon is worth more than the horse while the
//! board is full (screens everywhere), the horse more in the endgame.

use crate::linear::ramp;
pub use crate::linear::S;

/// Attack-unit divisor of the king danger: `units^2 / DANGER_DIV` midgame, a fraction endgame.
pub const DANGER_DIV: i32 = 128;
/// The most king danger counts, whatever the units.
pub const DANGER_CAP: i32 = 1200;

crate::weights! {
    /// The evaluation's weights. Kind-indexed arrays follow `Kind` order: general, advisor,
    /// elephant, horse, chariot, cannon, soldier.
    ///
    /// `repr(C)` with nothing but pairs and arrays of pairs, declared in [`Weights::visit_mut`]'s
    /// order: the table is laid out as one flat array of [`S`], so a field's address gives its
    /// flat index ([`Weights::flat_index`]), which is how the evaluation's tracer names weights.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Weights for "xiangqi", rows 9, defaults handcrafted {
        pub material: [S; 7] = [
            S(0, 0),
            S(190, 200),
            S(190, 200),
            S(410, 470),
            S(950, 1020),
            S(460, 420),
            S(80, 110),
        ],
        /// Per kind, per point from Red's side.
        pub pst: [[S; 90]; 7] = default_psts(),
        /// By the number of points reached that no enemy soldier, advisor or elephant guards.
        pub horse_mobility: [S; 9] = ramp(S(-50, -60), S(30, 30), 0.5),
        pub chariot_mobility: [S; 18] = ramp(S(-40, -50), S(40, 50), 0.6),
        pub cannon_mobility: [S; 18] = ramp(S(-20, -20), S(20, 16), 0.6),
        /// King safety: a missing advisor or elephant, per enemy chariot, horse and cannon on the
        /// board (`[defender][attacker]`, defender 0 advisor, 1 elephant; attacker 0 chariot,
        /// 1 horse, 2 cannon).
        pub missing_defender: [[S; 3]; 2] = [
            [S(18, 10), S(12, 12), S(8, 6)],
            [S(8, 6), S(6, 8), S(16, 12)],
        ],
        /// An enemy cannon on the general's file or rank with nothing between (空头炮): any piece
        /// stepping between becomes a screen, so the general's side is frozen.
        pub hollow_cannon: S = S(70, 20),
        /// An enemy cannon behind two screens on the general's line: one screen moving away checks.
        pub cannon_two_screens: S = S(14, 6),
        /// The general's file with none of its own pieces in front of it, per enemy chariot.
        pub open_king_file: S = S(16, 6),
        /// Attack units per enemy piece kind reaching the palace (only the midgame half is read),
        /// and per palace point attacked.
        pub king_attack: [S; 7] = [
            S(0, 0),
            S(4, 0),
            S(4, 0),
            S(14, 0),
            S(20, 0),
            S(14, 0),
            S(10, 0),
        ],
        pub king_attack_point: S = S(5, 0),
        /// Attack units per point from which an enemy chariot, horse or cannon (in that order)
        /// could give check next move, that the defender does not guard (at most two counted
        /// per kind), and per such point it does guard.
        pub safe_check: [S; 3] = [S(40, 0), S(36, 0), S(30, 0)],
        pub unsafe_check: S = S(8, 0),
        /// Attack units by the number of the general's flight points (palace neighbours it could
        /// step to that no attacker covers), 0 to 4.
        pub king_flights: [S; 5] = [S(30, 0), S(16, 0), S(6, 0), S(0, 0), S(0, 0)],
        /// Coordination: bonus by the set of kinds (bit 0 chariot, bit 1 horse, bit 2 cannon)
        /// reaching the enemy palace together.
        pub attack_combo: [S; 8] = [
            S(0, 0),
            S(0, 0),
            S(0, 0),
            S(20, 10),
            S(0, 0),
            S(20, 10),
            S(20, 10),
            S(40, 20),
        ],
        /// Horses guarding each other (连环马).
        pub connected_horses: S = S(12, 8),
        /// Advisors, and elephants, guarding each other.
        pub connected_advisors: S = S(8, 8),
        pub connected_elephants: S = S(10, 10),
        /// Crossed soldiers side by side.
        pub connected_soldiers: S = S(10, 20),
        /// Threats: an enemy piece of each kind attacked and not guarded; attacked by a piece
        /// of a lower value class.
        pub hanging: [S; 7] = [
            S(0, 0),
            S(10, 10),
            S(10, 10),
            S(36, 30),
            S(60, 50),
            S(36, 30),
            S(10, 16),
        ],
        pub threat_by_lower: [S; 7] = [
            S(0, 0),
            S(0, 0),
            S(0, 0),
            S(30, 24),
            S(50, 40),
            S(30, 24),
            S(0, 0),
        ],
        pub tempo: S = S(20, 10),
    }
}

// One point at a time fills all seven tables, so the index is the natural loop variable.
#[allow(clippy::needless_range_loop)]
fn default_psts() -> [[S; 90]; 7] {
    let mut t = [[S(0, 0); 90]; 7];
    for sq in 0..90usize {
        let file = (sq % 9) as i32;
        let rank = (sq / 9) as i32;
        let fc = (file - 4).abs(); // 0 centre .. 4 edge
        let palace_file = (3..=5).contains(&file);

        // General: home on the back rank, the centre best; raising it costs in the midgame.
        t[0][sq] = if palace_file && rank <= 2 {
            S(
                [10, 0, -25][rank as usize] + if file == 4 { 4 } else { -2 },
                [0, 0, -10][rank as usize],
            )
        } else {
            S(0, 0)
        };
        // Advisors: the palace centre is the strong point.
        t[1][sq] = match (file, rank) {
            (4, 1) => S(10, 6),
            (3 | 5, 0) => S(0, 0),
            (3 | 5, 2) => S(-6, -4),
            _ => S(0, 0),
        };
        // Elephants: the central point joins both, the edges and the river are loose.
        t[2][sq] = match (file, rank) {
            (4, 2) => S(10, 6),
            (2 | 6, 0) => S(0, 0),
            (0 | 8, 2) => S(-6, -4),
            (2 | 6, 4) => S(-4, -4),
            _ => S(0, 0),
        };
        // Horses: central and forward, best beside the enemy palace; poor on the edge files
        // and on the enemy back rank, where they run out of moves.
        let fwd = [0, 4, 8, 12, 16, 20, 24, 28, 24, 4][rank as usize];
        let near_palace = if (6..=8).contains(&rank) && (2..=6).contains(&file) {
            14
        } else {
            0
        };
        let edge = if fc == 4 { -14 } else { 0 };
        t[3][sq] = S(
            fwd + near_palace + edge - 3 * fc,
            fwd / 2 + near_palace / 2 + edge - 6 * fc,
        );
        // Chariots: deep ranks, the ribs (files d and f) and the centre.
        let rank_bonus = [-6, 0, 0, 2, 6, 8, 10, 14, 12, 6][rank as usize];
        let file_bonus = [-4, 0, 0, 8, 4, 8, 0, 0, -4][file as usize];
        t[4][sq] = S(rank_bonus + file_bonus, rank_bonus / 2);
        // Cannons: the central file (centre cannon) and the enemy back rank; little else.
        let central = if file == 4 { 14 } else { 0 };
        let back = match rank {
            9 => 10,
            7 => 6,
            _ => 0,
        };
        t[5][sq] = S(central + back - fc, central / 2 - 2 * fc);
        // Soldiers: nothing at home; across the river they grow toward the palace and lose
        // most of their worth on the enemy back rank.
        let (mg, eg) = match rank {
            0..=3 => (0, 0),
            4 => (6, 6),
            5 => (26, 40),
            6 => (44, 62),
            7 => (56, 76),
            8 => (52, 70),
            _ => (6, 10),
        };
        let centre = if (5..=8).contains(&rank) {
            [0, 2, 6, 12, 18, 12, 6, 2, 0][file as usize]
        } else {
            0
        };
        t[6][sq] = S(mg + centre, eg + centre);
    }
    t
}

impl Default for Weights {
    /// The fitted table (`tuned.rs`) over the hand-set defaults ([`Weights::handcrafted`]).
    fn default() -> Self {
        Weights::handcrafted().overlay(super::tuned::TUNED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visit_covers_every_weight_once() {
        let w = Weights::handcrafted();
        // Material 7, tables 7 x 90, mobility 9 + 18 + 18, missing defenders 6, cannon lines
        // and open file 3, king attack 7 + 1, checks 3 + 1, flights 5, combinations 8, pairs 4,
        // threats 7 + 7, tempo 1.
        assert_eq!(w.len(), 7 + 630 + 45 + 6 + 3 + 8 + 4 + 5 + 8 + 4 + 14 + 1);
        let mut names = Vec::new();
        w.clone().visit_mut(|n, i, _| names.push((n, i)));
        let mut dedup = names.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), names.len());
    }

    #[test]
    fn the_default_table_file_fits_the_table() {
        assert_eq!(
            Weights::overlay_errors(super::super::tuned::TUNED),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_flat_list_round_trips_and_checks_its_length() {
        let w = Weights::handcrafted();
        let mut flat = Vec::new();
        w.clone().visit_mut(|_, _, s| flat.push((s.0, s.1)));
        flat[3] = (123, -45);
        let back = Weights::from_flat(&Weights::default(), &flat).unwrap();
        assert_eq!(back.material[3], S(123, -45));
        assert_eq!(back.pst, w.pst);
        assert!(Weights::from_flat(&w, &flat[1..]).is_err());
    }

    /// The default table's file is the writer's output: a tuner's file replaces it as it is.
    #[test]
    fn the_default_table_file_is_what_the_writer_writes() {
        let file = include_str!("tuned.rs");
        let doc = crate::linear::generated_doc(file);
        assert_eq!(Weights::default().tuned_source(&doc), file);
    }

    #[test]
    fn rook_is_about_two_horses_and_cannon_leads_early() {
        // The hand-set table states the textbook ratio; a fitted table may move the chariot
        // off it (the self-play fit values it at about 2.15 cannons in the midgame) but must
        // keep the order every xiangqi text agrees on.
        let hand = Weights::handcrafted();
        let (horse, chariot, cannon) = (hand.material[3], hand.material[4], hand.material[5]);
        assert!(chariot.0 >= 2 * horse.0 - 50 && chariot.0 <= 2 * cannon.0 + 50);
        for w in [hand, Weights::default()] {
            let (horse, chariot, cannon) = (w.material[3], w.material[4], w.material[5]);
            assert!(chariot.0 > cannon.0 + horse.0 && chariot.1 > cannon.1 + horse.1);
            assert!(cannon.0 > horse.0 && horse.1 > cannon.1);
        }
    }
}
