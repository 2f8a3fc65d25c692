//! Playout features: the cheap Bradley-Terry model of move choice that the softmax playout
//! policy samples from (CrazyStone's playout features, after Coulom, "Computing Elo Ratings
//! of Move Patterns in the Game of Go", 2007). A point's weight is the product of the gammas
//! of its features; the playout plays a point with probability weight over the sum.
//!
//! Scheme: the features of an empty point for the side to move, at most one per group:
//! - *pattern*: the 3x3 neighbourhood seen from the side to move (empty, own, opponent, off
//!   the board: 2 bits a point in [`Board::pattern3`]'s order N, NE, E, SE, S, SW, W, NW) and
//!   an atari bit for each of the four orthogonal neighbours (a stone whose group has one
//!   liberty): a 20-bit raw key. The fit uses the canonical key, the smallest over the 8
//!   rotations and reflections; the shipped table is expanded at load time into a flat array
//!   over all 2^20 raw keys (4 MB), so the playouts never canonicalise. Keys whose centre is
//!   an own eye ([`Board::is_eye`]) or suicide get 0: the policy never plays there, and both
//!   are read off the key alone;
//! - *capture* of an adjacent opponent group in atari: one stone, or two or more;
//! - *extension*: an own group next to the point is in atari, the move captures nothing and
//!   leaves the stone with two liberties or more;
//! - *self-atari*: the move leaves its group with one liberty (captures counted as
//!   liberties, as [`Board::libs_after`] counts them): a single stone, or two or more;
//! - *contiguity*: the point is one of the 8 neighbours of the last move. It changes with
//!   every move, so the weights the playout keeps leave it out and the draw applies it
//!   (`softmax`).
//!
//! Everything but contiguity is a function of the point's 3x3 colours and of the liberty
//! sets of the groups next to it, and only of "three or more" for a group with three
//! liberties or more: that is what lets `softmax` keep every point's weight up to date by
//! recomputing only the points around a move, its captures and the groups whose liberties
//! moved below three or up from it. The gammas are fitted by `tetrarch-tune go-patterns
//! -model playout` into `playout_gammas` (generated).

use once_cell::sync::Lazy;

use super::board::{stone, Board, BORDER, EMPTY};
use super::patterns::{ORDER, TRANSFORMS};
use crate::game::Side;

/// Feature groups of the playout model (the `group` of a fitted gamma).
pub const PATTERN: u8 = 0;
pub const CAPTURE: u8 = 1;
pub const EXTENSION: u8 = 2;
pub const SELF_ATARI: u8 = 3;
pub const CONTIGUITY: u8 = 4;
/// Number of groups.
pub const GROUPS: usize = 5;
/// Names of the groups, for reports.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "3x3+atari",
    "capture",
    "extension",
    "self-atari",
    "contiguity",
];

/// Bits of a raw pattern key: 16 of colours, 4 atari bits (N, E, S, W) above them.
pub const KEY_BITS: u32 = 20;

/// What a point's features for both sides share: its 3x3 colours, which orthogonal
/// neighbours are stones in atari, and how many are empty.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    /// [`Board::pattern3`]: absolute colours.
    pub pat: u16,
    /// Bit `i` for the orthogonal neighbour in `pattern3` slot `2 * i` (N, E, S, W).
    pub atari: u8,
    pub empties: u8,
}

/// The orthogonal neighbours of `p` in atari-bit order: N, E, S, W.
#[inline]
fn orthogonal(b: &Board, p: usize) -> [usize; 4] {
    let s = b.stride();
    [p + s, p + 1, p - s, p - 1]
}

/// The shared part of an empty point's features.
#[inline]
pub fn around(b: &Board, p: usize) -> Around {
    around_pattern(b, p, b.pattern3(p))
}

/// [`around`] for a caller who knows the point's `pattern3`.
#[inline]
pub fn around_pattern(b: &Board, p: usize, pat: u16) -> Around {
    let mut atari = 0u8;
    let mut empties = 0u8;
    for (i, q) in orthogonal(b, p).into_iter().enumerate() {
        // The colour from the pattern: slot 2i.
        let c = (pat >> (4 * i) & 3) as u8;
        if c == EMPTY {
            empties += 1;
        } else if c != BORDER && b.in_atari(b.group_of(q)) {
            atari |= 1 << i;
        }
    }
    Around {
        pat,
        atari,
        empties,
    }
}

/// A key of `pattern3` colours (atari bits above them or not) seen from `side`: own 1,
/// opponent 2 (Black's view is the board's own coding; White's swaps 1 and 2 in every 2-bit
/// colour field, leaving empty, border and the atari bits).
#[inline]
pub fn relative(x: u32, side: Side) -> u32 {
    if side == Side::First {
        x
    } else {
        // Fields whose two bits differ (1 or 2) get both flipped.
        let d = (x ^ (x >> 1)) & 0x5555;
        x ^ (d * 3)
    }
}

/// The features of an empty point for one side; contiguity is left to the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointFeatures {
    /// Raw pattern key: relative colours, atari bits at 16..20.
    pub key: u32,
    /// 0 none, 1 one stone, 2 two or more.
    pub capture: u8,
    pub extension: bool,
    /// 0 none, 1 a single stone, 2 a group of two or more.
    pub self_atari: u8,
}

/// The features of empty `p` for `side`, from its shared part `a`.
#[inline]
pub fn side_features(b: &Board, p: usize, side: Side, a: &Around) -> PointFeatures {
    let key = relative(a.pat as u32 | (a.atari as u32) << 16, side);
    let mut capture = 0u8;
    let mut own_atari = false;
    if a.atari != 0 {
        let enemy = stone(side.flip());
        let nb = orthogonal(b, p);
        let mut seen = [0usize; 4];
        let mut n = 0;
        let mut stones = 0;
        for (i, &q) in nb.iter().enumerate() {
            if a.atari & (1 << i) == 0 {
                continue;
            }
            if b.at(q) == enemy {
                let g = b.group_of(q);
                if !seen[..n].contains(&g) {
                    seen[n] = g;
                    n += 1;
                    stones += b.group_size(g);
                }
            } else {
                own_atari = true;
            }
        }
        capture = match stones {
            0 => 0,
            1 => 1,
            _ => 2,
        };
    }
    // Two empty neighbours are two liberties: no self-atari, and an extension if anything.
    let two = a.empties >= 2 || b.two_libs_after(p, side);
    let self_atari = match two {
        true => 0,
        false if b.size_after(p, side) == 1 => 1,
        false => 2,
    };
    PointFeatures {
        key,
        capture,
        extension: own_atari && capture == 0 && two,
        self_atari,
    }
}

/// The features of empty `p` for `side`.
pub fn point_features(b: &Board, p: usize, side: Side) -> PointFeatures {
    side_features(b, p, side, &around(b, p))
}

/// Whether empty `p` is one of the 8 neighbours of the last move (a stone move).
pub fn contiguous(b: &Board, p: usize) -> bool {
    let Some(l) = b.last_move().point() else {
        return false;
    };
    let s = b.stride();
    p != l && p + s + 1 >= l && p <= l + s + 1 && (p + s + 1 - l) % s <= 2
}

/// For each of the 8 symmetries, the slot of `pattern3` each slot reads from.
static SLOT_PERM: Lazy<[[u8; 8]; 8]> = Lazy::new(|| {
    let mut perm = [[0u8; 8]; 8];
    for (t, row) in TRANSFORMS.iter().zip(perm.iter_mut()) {
        for (i, &(dx, dy)) in ORDER.iter().enumerate() {
            let to = t(dx, dy);
            row[i] = ORDER.iter().position(|&o| o == to).unwrap() as u8;
        }
    }
    perm
});

/// The key with every slot moved as symmetry `t` moves it (atari bits with their points).
fn transform(key: u32, t: usize) -> u32 {
    let perm = &SLOT_PERM[t];
    let mut out = 0u32;
    for (i, &from) in perm.iter().enumerate() {
        let from = from as u32;
        out |= (key >> (2 * from) & 3) << (2 * i);
        // Orthogonal slots (even) map to orthogonal slots.
        if i % 2 == 0 && key >> (16 + from / 2) & 1 != 0 {
            out |= 1 << (16 + i / 2);
        }
    }
    out
}

/// The 8 images of a raw key under the symmetries of the square (with repeats for
/// symmetric shapes).
pub fn symmetries(key: u32) -> [u32; 8] {
    std::array::from_fn(|t| transform(key, t))
}

/// The canonical form of a raw key: the smallest of its 8 images.
pub fn canonical(key: u32) -> u32 {
    symmetries(key).into_iter().min().unwrap()
}

/// Whether a relative raw key makes its centre an own eye or suicide (the weight is 0 there):
/// the same tests as [`Board::is_eye`] and `Board::is_suicide`, read off the key.
pub fn forbidden(key: u32) -> bool {
    let slot = |i: u32| (key >> (2 * i) & 3) as u8;
    let orth = [0u32, 2, 4, 6];
    // Own eye: own stones or the edge around, and the diagonals not the opponent's (none at
    // the edge, at most one in the middle).
    if orth.iter().all(|&i| matches!(slot(i), 1 | 3)) {
        let mut bad = 0;
        let mut edge = 0;
        for i in [1u32, 3, 5, 7] {
            match slot(i) {
                3 => edge = 1,
                2 => bad += 1,
                _ => {}
            }
        }
        if bad + edge < 2 {
            return true;
        }
    }
    // Suicide: no empty neighbour, every own neighbour in atari, no opponent one.
    orth.iter().enumerate().all(|(k, &i)| {
        let atari = key >> (16 + k) & 1 != 0;
        match slot(i) {
            0 => false,
            1 => atari,
            2 => !atari,
            _ => true,
        }
    })
}

/// Weights are gamma products in fixed point: this many units for a gamma product of 1.
pub const SCALE: f32 = 4096.0;
/// The largest weight: 625 points of it still sum within 32 bits.
pub const MAX_WEIGHT: u32 = 1 << 21;

/// The shipped playout gammas, ready for the playouts.
pub struct PlayoutGammas {
    /// Per relative raw key, its gamma times [`SCALE`] (a gamma of 1 for a shape the fit did
    /// not keep; 0 where the centre is an own eye or suicide).
    pattern: Box<[f32]>,
    /// Indexed by the feature's key, 1 at 0 (feature absent).
    capture: [f32; 3],
    extension: [f32; 2],
    self_atari: [f32; 3],
    /// The contiguity gamma.
    pub contiguity: f32,
    /// Whether the table had no gammas at all (the build may ship an empty one).
    pub empty: bool,
}

impl PlayoutGammas {
    /// Builds the tables from `(group, key, gamma)` entries, pattern keys canonical.
    pub fn from_table(table: &[(u8, u64, f32)]) -> PlayoutGammas {
        let mut pattern = vec![1.0f32; 1 << KEY_BITS].into_boxed_slice();
        let mut g = PlayoutGammas {
            pattern: Box::default(),
            capture: [1.0; 3],
            extension: [1.0; 2],
            self_atari: [1.0; 3],
            contiguity: 1.0,
            empty: table.is_empty(),
        };
        for &(group, key, gamma) in table {
            let k = key as usize;
            match group {
                PATTERN => {
                    for s in symmetries(key as u32) {
                        pattern[s as usize] = gamma;
                    }
                }
                CAPTURE if k < 3 => g.capture[k] = gamma,
                EXTENSION if k < 2 => g.extension[k] = gamma,
                SELF_ATARI if k < 3 => g.self_atari[k] = gamma,
                CONTIGUITY => g.contiguity = gamma,
                _ => {}
            }
        }
        for (k, gamma) in pattern.iter_mut().enumerate() {
            *gamma = if forbidden(k as u32) {
                0.0
            } else {
                *gamma * SCALE
            };
        }
        g.pattern = pattern;
        g
    }

    /// The weight of a point with these features, contiguity left out: the gamma product in
    /// fixed point, 0 only for an own eye or suicide, else at least 1.
    #[inline]
    pub fn weight(&self, f: &PointFeatures) -> u32 {
        let g = self.pattern[f.key as usize];
        if g == 0.0 {
            return 0;
        }
        // In the order `tactical` and `combine` multiply, so the results are the same bits.
        let t = self.capture[f.capture as usize]
            * self.extension[f.extension as usize]
            * self.self_atari[f.self_atari as usize];
        quantise(g * t)
    }

    /// The product of the gammas of the features other than the pattern (and contiguity)
    /// of empty `p` for Black and White: what [`weight`](PlayoutGammas::weight) multiplies
    /// the pattern's gamma by. The same features as [`side_features`] (a test checks it),
    /// both sides at once: each neighbouring group is looked at once, for its liberties
    /// other than `p` (none, one point, or more), which is what both sides' liberty counts
    /// after a move at `p` are made of.
    #[inline]
    pub fn tactical(&self, b: &Board, p: usize, a: &Around) -> [f32; 2] {
        if a.atari == 0 && a.empties >= 2 {
            // No capture, extension nor self-atari (most points).
            return [1.0, 1.0];
        }
        let nb = orthogonal(b, p);
        // The empty neighbour, when there is just one.
        let mut empty = 0usize;
        // Per colour (Black, White): stones in atari next to p (groups counted once), the
        // liberty a move there gets from capturing them or from own groups' other
        // liberties (0: none yet), whether it has two already, and the stones it joins.
        let mut in_atari = [0usize; 2];
        let mut capture_lib = [0usize; 2];
        let mut own_lib = [0usize; 2];
        let mut two = [a.empties >= 2; 2];
        let mut joined = [0usize; 2];
        // The group of each neighbour stone (0 elsewhere, never a group's head).
        let colours: [u8; 4] = std::array::from_fn(|i| (a.pat >> (4 * i) & 3) as u8);
        let heads: [usize; 4] = std::array::from_fn(|i| {
            if colours[i] == EMPTY || colours[i] == BORDER {
                0
            } else {
                b.group_of(nb[i])
            }
        });
        for (i, &q) in nb.iter().enumerate() {
            let c = colours[i];
            if c == EMPTY {
                empty = q;
                continue;
            }
            if c == BORDER {
                continue;
            }
            let g = heads[i];
            if heads[..i].contains(&g) {
                continue; // seen at another neighbour
            }
            let k = (c - 1) as usize;
            let size = b.group_size(g);
            joined[k] += size;
            if a.atari & (1 << i) != 0 {
                // For the other colour a capture: this stone's point is a liberty, and a
                // bigger group frees two.
                in_atari[k] += size;
                if size >= 2 || capture_lib[1 - k] != 0 {
                    two[1 - k] = true;
                }
                capture_lib[1 - k] = q;
            } else {
                // For this colour, its liberties other than p (the group's stones next to p
                // are the neighbours with its head: they are counted out of its
                // pseudo-liberties).
                let m = heads.iter().filter(|&&h| h == g).count();
                match b.other_liberty_counted(g, p, m) {
                    None => two[k] = true,
                    Some(x) => {
                        if own_lib[k] != 0 && own_lib[k] != x {
                            two[k] = true;
                        }
                        own_lib[k] = x;
                    }
                }
            }
        }
        [0, 1].map(|k| {
            // Liberties by their points: the empty neighbour, a captured stone's point, an
            // own group's other liberty (the last can be the empty neighbour too).
            let libs = [empty, capture_lib[k], own_lib[k]];
            let distinct = (libs[0] != 0) as usize
                + (libs[1] != 0) as usize
                + (libs[2] != 0 && libs[2] != libs[0]) as usize;
            let two = two[k] || distinct >= 2;
            let capture = in_atari[1 - k].min(2);
            let self_atari = match two {
                true => 0,
                false if joined[k] == 0 => 1,
                false => 2,
            };
            let extension = in_atari[k] > 0 && capture == 0 && two;
            self.capture[capture] * self.extension[extension as usize] * self.self_atari[self_atari]
        })
    }

    /// The pattern gammas (times [`SCALE`]) for Black and White of a point with absolute raw
    /// key `key` (`pattern3` colours, atari bits above): 0 for a side where it is an own eye
    /// or suicide.
    #[inline]
    pub fn shape(&self, key: u32) -> [f32; 2] {
        [
            self.pattern[key as usize],
            self.pattern[relative(key, Side::Second) as usize],
        ]
    }

    /// The weights of a point from its pattern gammas (as [`shape`](PlayoutGammas::shape)
    /// gives them) and tactical products.
    #[inline]
    pub fn combine(shape: [f32; 2], tactical: [f32; 2]) -> [u32; 2] {
        [0, 1].map(|k| {
            if shape[k] == 0.0 {
                0
            } else {
                quantise(shape[k] * tactical[k])
            }
        })
    }

    /// The weights of empty `p` for Black and White.
    pub fn weights(&self, b: &Board, p: usize) -> [u32; 2] {
        let a = around(b, p);
        let t = self.tactical(b, p, &a);
        Self::combine(self.shape(a.pat as u32 | (a.atari as u32) << 16), t)
    }
}

/// Gammas for tests: every pattern key its own gamma between 1/8 and 8 (forbidden keys still
/// 0), and distinct tactical ones, so a weight kept wrong shows.
#[cfg(test)]
pub(super) fn scrambled() -> PlayoutGammas {
    let mut g = PlayoutGammas::from_table(&[
        (CAPTURE, 1, 3.0),
        (CAPTURE, 2, 7.0),
        (EXTENSION, 1, 5.0),
        (SELF_ATARI, 1, 0.3),
        (SELF_ATARI, 2, 0.05),
        (CONTIGUITY, 1, 4.0),
    ]);
    for (k, gamma) in g.pattern.iter_mut().enumerate() {
        if *gamma != 0.0 {
            let h = (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54;
            *gamma = 2f32.powf(h as f32 / 1024.0 * 6.0 - 3.0);
        }
    }
    g
}

/// A weight from a gamma product times [`SCALE`]: at least 1, at most [`MAX_WEIGHT`].
#[inline]
fn quantise(x: f32) -> u32 {
    (x as u32).clamp(1, MAX_WEIGHT)
}

/// The shipped gammas (`playout_gammas`, fitted on 9x9 games; all boards use them).
pub static GAMMAS: Lazy<PlayoutGammas> =
    Lazy::new(|| PlayoutGammas::from_table(super::playout_gammas::GAMMAS));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::go::board::Move;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn relative_swaps_colours_only() {
        // N black, E white, S border, W empty; atari bits on N and S.
        let key: u32 = 1 | 2 << 4 | 3 << 8 | 0b101 << 16;
        assert_eq!(relative(key, Side::First), key);
        assert_eq!(
            relative(key, Side::Second),
            2 | 1 << 4 | 3 << 8 | 0b101 << 16
        );
    }

    #[test]
    fn symmetries_are_a_group_orbit() {
        // Every image of every image is among the images: the orbit is closed, so the
        // canonical key is the same from any of them.
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..200 {
            let key = rng.gen::<u32>() & ((1 << KEY_BITS) - 1);
            let images = symmetries(key);
            for &k in &images {
                assert_eq!(canonical(k), canonical(key));
                for k2 in symmetries(k) {
                    assert!(images.contains(&k2));
                }
            }
            assert!(images.contains(&key));
        }
    }

    #[test]
    fn rotated_positions_have_rotated_keys_and_the_same_canonical_key() {
        // A corner shape and its mirror images: black C3, white D3 in atari (D3's other
        // liberties filled), the point D4 for Black.
        let setups = [
            (["C3", "D2", "E3", "D3"], "D4"),
            (["G3", "F2", "E3", "F3"], "F4"),
            (["C7", "D8", "E7", "D7"], "D6"),
        ];
        let mut keys = Vec::new();
        for (stones, pt) in setups {
            let mut b = Board::new(9);
            for (i, v) in stones.iter().enumerate() {
                let p = b.parse_vertex(v).unwrap().point().unwrap();
                let side = if i < 3 { Side::First } else { Side::Second };
                b.setup_stone(p, side).unwrap();
            }
            let p = b.parse_vertex(pt).unwrap().point().unwrap();
            let f = point_features(&b, p, Side::First);
            assert_eq!(f.capture, 1, "{pt}");
            keys.push(canonical(f.key));
        }
        assert_eq!(keys[0], keys[1]);
        assert_eq!(keys[0], keys[2]);
    }

    #[test]
    fn forbidden_keys_are_own_eyes_and_suicides() {
        let mut rng = SmallRng::seed_from_u64(7);
        for size in [5, 9] {
            for _ in 0..20 {
                let mut b = Board::new(size);
                for _ in 0..(size * size * 3 / 2) {
                    let n = b.empty_count();
                    if n == 0 {
                        break;
                    }
                    let p = b.empty_point(rng.gen_range(0..n));
                    if b.check(Move::at(p)).is_ok() && !b.is_eye(p, b.to_move()) {
                        b.play(Move::at(p));
                    } else {
                        b.play(Move::PASS);
                    }
                    for i in 0..b.empty_count() {
                        let q = b.empty_point(i);
                        for side in Side::BOTH {
                            let f = point_features(&b, q, side);
                            let expect = b.is_eye(q, side) || b.is_suicide(q, side);
                            assert_eq!(forbidden(f.key), expect, "{}\n{b:?}", b.point_name(q));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn contiguity_is_the_eight_neighbours_of_the_last_move() {
        let mut b = Board::new(9);
        b.play(b.parse_vertex("A1").unwrap());
        let near: Vec<String> = b
            .board_points()
            .filter(|&p| contiguous(&b, p))
            .map(|p| b.point_name(p))
            .collect();
        assert_eq!(near, ["B1", "A2", "B2"]);
        b.play(b.parse_vertex("E5").unwrap());
        let near = b.board_points().filter(|&p| contiguous(&b, p)).count();
        assert_eq!(near, 8);
        b.play(Move::PASS);
        assert_eq!(b.board_points().filter(|&p| contiguous(&b, p)).count(), 0);
    }

    #[test]
    fn both_sides_at_once_is_each_side_alone() {
        // `weights` (the playouts' path) and `weight` of `side_features` (the definition the
        // fit uses) agree, for the shipped gammas and for scrambled ones.
        let scrambled = scrambled();
        each_playout_position(&[7, 9], 4, |b| {
            for i in 0..b.empty_count() {
                let q = b.empty_point(i);
                for g in [&*GAMMAS, &scrambled] {
                    let w = g.weights(b, q);
                    for side in Side::BOTH {
                        let f = point_features(b, q, side);
                        assert_eq!(w[side.index()], g.weight(&f), "{}", b.point_name(q));
                    }
                }
            }
        });
    }

    /// Calls `f` after every move of ten policy playouts of two moves a point on each board
    /// size, from a generator seeded with `seed`.
    fn each_playout_position(sizes: &[usize], seed: u64, mut f: impl FnMut(&Board)) {
        let mut rng = SmallRng::seed_from_u64(seed);
        for &size in sizes {
            for _ in 0..10 {
                let mut b = Board::new(size);
                for _ in 0..(size * size * 2) {
                    let m = b.policy_move(&mut rng);
                    b.play_fast(m);
                    f(&b);
                }
            }
        }
    }

    #[test]
    fn fast_liberty_helpers_agree_with_the_slow_ones() {
        let mut checked = 0;
        each_playout_position(&[5, 9, 13], 9, |b| {
            for i in 0..b.empty_count() {
                let q = b.empty_point(i);
                for side in Side::BOTH {
                    if !b.is_legal_fast(q, side) {
                        continue;
                    }
                    let (libs, size) = b.libs_after(q, side, 2);
                    assert_eq!(
                        b.two_libs_after(q, side),
                        libs >= 2,
                        "{} {side:?}\n{b:?}",
                        b.point_name(q)
                    );
                    assert_eq!(b.size_after(q, side), size);
                    checked += 1;
                }
            }
            for p in b.board_points() {
                if b.at(p) == EMPTY || b.group_of(p) != p {
                    continue;
                }
                let mut buf = [0u16; 3];
                let n = b.liberties(p, 3, &mut buf);
                let short = b.short_liberties(p);
                if n <= 2 {
                    let (mut got, k) = short.unwrap();
                    assert_eq!(k, n);
                    got[..k].sort();
                    buf[..n].sort();
                    assert_eq!(got[..k], buf[..n]);
                } else {
                    assert!(short.is_none());
                }
            }
        });
        assert!(checked > 10_000);
    }

    #[test]
    fn self_atari_extension_and_capture() {
        // White A1 and B1 with black A2, B2; C1 empty: White C1 extends... the pair is on
        // one liberty (C1), so White C1 extends it to two (D1 and C2); Black C1 captures two.
        let mut b = Board::new(9);
        for (v, side) in [
            ("A2", Side::First),
            ("B2", Side::First),
            ("A1", Side::Second),
            ("B1", Side::Second),
        ] {
            let p = b.parse_vertex(v).unwrap().point().unwrap();
            b.setup_stone(p, side).unwrap();
        }
        let c1 = b.parse_vertex("C1").unwrap().point().unwrap();
        let w = point_features(&b, c1, Side::Second);
        assert!(w.extension);
        assert_eq!((w.capture, w.self_atari), (0, 0));
        let k = point_features(&b, c1, Side::First);
        assert_eq!(k.capture, 2);
        assert!(!k.extension);
        // With black C2 as well, White C1 is a self-atari of three stones.
        let c2 = b.parse_vertex("C2").unwrap().point().unwrap();
        b.setup_stone(c2, Side::First).unwrap();
        let w = point_features(&b, c1, Side::Second);
        assert_eq!(w.self_atari, 2);
        assert!(!w.extension);
    }
}
