//! Move features for learned move priors: the "team members" of a Bradley-Terry model of
//! move choice, after Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go"
//! (2007). A move's strength is the product of the gammas of its features; the chance that
//! it is the move played is its strength over the sum of all legal moves' strengths.
//!
//! Scheme: every feature is a `(group, key)` pair and a move has at most one feature per
//! group, which is what lets minorization-maximization fit one group at a time
//! (`tetrarch-tune go-patterns`). The groups:
//! - shapes, seen from the side to move (own, opponent, empty, off board), reduced to a
//!   canonical form over the 8 rotations and reflections (the smallest key of the 8):
//!   the 3x3 neighbourhood with each stone's liberties (1, 2, 3 or more), and the
//!   diamonds of Manhattan radius 2, 3 and 4, colours only, hashed to 64 bits;
//! - tactics: capture (by size, and whether it saves an own group in atari or takes the
//!   last-moved group), atari (a plain one, or the start of a working ladder), extending an
//!   own group out of atari (to three liberties or more, to two and no ladder, into a
//!   ladder), self-atari (one stone, more, nakade);
//! - distance to the last and second-last move, `|dx| + |dy| + max(|dx|, |dy|)` capped at
//!   17 (Coulom's measure), and the line from the edge (1 to 5, 5 meaning 5 or more);
//! - passing, a group of its own.
//!
//! The fitted gammas ship in `learned_priors` (9x9) and `learned_priors_19x19` (generated), one
//! table per board class ([`gammas`]); a feature missing there has gamma 1. Computing a move's
//! features costs eight transforms of up to 40 points each: meant for node expansion and
//! training, not for every playout move.

use std::collections::HashMap;

use arrayvec::ArrayVec;
use once_cell::sync::Lazy;

use super::board::{stone, Board, Move, BORDER, EMPTY};
use super::patterns::{ORDER, TRANSFORMS};
use crate::game::Side;

/// Feature groups (the `group` of a [`Feature`]).
pub const PASS: u8 = 0;
pub const PAT3: u8 = 1;
pub const DIAMOND2: u8 = 2;
pub const DIAMOND3: u8 = 3;
pub const DIAMOND4: u8 = 4;
pub const CAPTURE: u8 = 5;
pub const ATARI: u8 = 6;
pub const ESCAPE: u8 = 7;
pub const SELF_ATARI: u8 = 8;
pub const DIST_LAST: u8 = 9;
pub const DIST_LAST2: u8 = 10;
pub const EDGE: u8 = 11;
/// Number of groups.
pub const GROUPS: usize = 12;
/// Names of the groups, for reports.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "pass",
    "3x3+liberties",
    "diamond r2",
    "diamond r3",
    "diamond r4",
    "capture",
    "atari",
    "escape",
    "self-atari",
    "distance to last move",
    "distance to second-last move",
    "line",
];

/// One feature: its group and its key within the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Feature {
    pub group: u8,
    pub key: u64,
}

/// The features of one move (at most one per group).
pub type Features = ArrayVec<Feature, GROUPS>;

/// What a position tells every candidate move: computed once per position.
pub struct Context {
    side: Side,
    last: Option<(i32, i32)>,
    last2: Option<(i32, i32)>,
    last_point: Option<usize>,
    /// Points where an atari starts a working ladder.
    ladder_ataris: ArrayVec<u16, 32>,
}

/// Offsets of the diamond of radius 4 without its centre, ordered by radius, so the
/// diamonds of radius 2 and 3 are prefixes.
static DIAMOND: Lazy<Vec<(i32, i32)>> = Lazy::new(|| {
    let mut v = Vec::new();
    for r in 1..=4i32 {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs() + dy.abs() == r {
                    v.push((dx, dy));
                }
            }
        }
    }
    v
});
/// Points in the diamonds of radius 1..=4 (without the centre).
const DIAMOND_LEN: [usize; 5] = [0, 4, 12, 24, 40];

/// The 3x3 neighbourhood's offsets, in `pattern3`'s bit order.
const SQUARE: [(i32, i32); 8] = ORDER;

impl Context {
    pub fn new(b: &Board) -> Context {
        let side = b.to_move();
        let enemy = stone(side.flip());
        let at = |m: Move| {
            m.point().filter(|&p| b.at(p) != EMPTY).map(|p| {
                let (x, y) = b.coords(p);
                (x as i32, y as i32)
            })
        };
        let mut ladder_ataris = ArrayVec::new();
        for p in b.board_points() {
            if b.at(p) == enemy
                && b.group_of(p) == p
                && b.group_size(p) <= 12
                && !ladder_ataris.is_full()
            {
                if let Some(a) = b.ladder_atari(p, side) {
                    ladder_ataris.push(a as u16);
                }
            }
        }
        Context {
            side,
            last: at(b.last_move()),
            last2: at(b.last_move2()),
            last_point: b.last_move().point().filter(|&p| b.at(p) != EMPTY),
            ladder_ataris,
        }
    }
}

/// A point's value seen from `side`: 0 empty, 1 own, 2 opponent, 3 off the board.
#[inline]
fn rel(b: &Board, x: i32, y: i32, side: Side) -> u64 {
    let n = b.size() as i32;
    if x < 0 || y < 0 || x >= n || y >= n {
        return 3;
    }
    let c = b.at(b.point(x as usize, y as usize));
    if c == EMPTY {
        0
    } else if c == BORDER {
        3
    } else if c == stone(side) {
        1
    } else {
        2
    }
}

/// For each transform, the index of the point each point of `offsets` is read from: entry `i`
/// of transform `t` is the index of `t(offsets[i])` in `offsets`, which must map onto itself.
/// Computed once per shape, so a key is built by indexing alone.
fn transform_table<const N: usize>(offsets: &[(i32, i32)]) -> [[u8; N]; 8] {
    let mut perm = [[0u8; N]; 8];
    for (t, row) in TRANSFORMS.iter().zip(perm.iter_mut()) {
        for (i, &(dx, dy)) in offsets.iter().enumerate().take(N) {
            let to = t(dx, dy);
            row[i] = offsets
                .iter()
                .position(|&o| o == to)
                .expect("a shape maps onto itself") as u8;
        }
    }
    perm
}
static DIAMOND_PERM: Lazy<[[u8; 40]; 8]> = Lazy::new(|| transform_table(&DIAMOND));
static SQUARE_PERM: Lazy<[[u8; 8]; 8]> = Lazy::new(|| transform_table(&SQUARE));

/// The canonical key of the 3x3 neighbourhood of (x, y) with liberties: 4 bits a point
/// (colour, and for a stone its liberties 1, 2, 3+), the smallest over the 8 transforms.
fn pat3_key(b: &Board, x: i32, y: i32, side: Side) -> u64 {
    let mut vals = [0u64; 8];
    for (v, &(dx, dy)) in vals.iter_mut().zip(SQUARE.iter()) {
        let (qx, qy) = (x + dx, y + dy);
        let c = rel(b, qx, qy, side);
        let libs = if c == 1 || c == 2 {
            let g = b.group_of(b.point(qx as usize, qy as usize));
            b.liberty_count(g, 3) as u64
        } else {
            0
        };
        *v = c | libs << 2;
    }
    SQUARE_PERM
        .iter()
        .map(|row| row.iter().fold(0u64, |key, &i| key << 4 | vals[i as usize]))
        .min()
        .unwrap_or(0)
}

/// Canonical hashes of the diamonds of radius 2 up to `radius` around (x, y): colours only
/// (larger radii are left 0). Each diamond's key is its points' colours, 2 bits each in
/// `DIAMOND` order (radius 2 is the first 12 points, 3 the first 24, 4 all 40), the smallest
/// over the 8 transforms. The 40-point key needs 80 bits: it is kept as the 24-point key and
/// the 16 points after it, whose pair orders as the 80-bit number does.
fn diamond_keys(b: &Board, x: i32, y: i32, side: Side, radius: usize) -> [u64; 3] {
    let d = &*DIAMOND;
    let len = DIAMOND_LEN[radius];
    let mut vals = [0u8; 40];
    for (v, &(dx, dy)) in vals.iter_mut().zip(&d[..len]) {
        *v = rel(b, x + dx, y + dy, side) as u8;
    }
    let fold = |row: &[u8; 40], from: usize, to: usize, key: u64| {
        row[from..to]
            .iter()
            .fold(key, |k, &i| k << 2 | vals[i as usize] as u64)
    };
    let mut best = [u128::MAX; 3];
    for row in DIAMOND_PERM.iter() {
        let k2 = fold(row, 0, 12, 0);
        best[0] = best[0].min(k2 as u128);
        if radius >= 3 {
            let k3 = fold(row, 12, 24, k2);
            best[1] = best[1].min(k3 as u128);
            if radius >= 4 {
                let tail = fold(row, 24, 40, 0);
                best[2] = best[2].min((k3 as u128) << 32 | tail as u128);
            }
        }
    }
    let mut out = [0u64; 3];
    for r in 2..=radius {
        let k = best[r - 2];
        out[r - 2] = mix(k as u64 ^ mix((k >> 64) as u64));
    }
    out
}

/// A 64-bit mix of `z` (one splitmix64 step from it).
#[inline]
fn mix(z: u64) -> u64 {
    crate::hash::splitmix(z).1
}

/// Coulom's distance between two points, capped at 17.
fn distance(a: (i32, i32), b: (i32, i32)) -> u64 {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    (dx + dy + dx.max(dy)).min(17) as u64
}

/// The features of the move `m` (legal, for the side to move of `b`). `radius` (2 to 4)
/// is the largest diamond computed.
pub fn move_features(b: &Board, ctx: &Context, m: Move, radius: usize, out: &mut Features) {
    let Some(p) = m.point() else {
        out.push(Feature {
            group: PASS,
            key: 0,
        });
        return;
    };
    let side = ctx.side;
    let me = stone(side);
    let enemy = stone(side.flip());
    let (ux, uy) = b.coords(p);
    let (x, y) = (ux as i32, uy as i32);
    let f = |group, key| Feature { group, key };
    out.push(f(PAT3, pat3_key(b, x, y, side)));
    let radius = radius.clamp(2, 4);
    let d = diamond_keys(b, x, y, side, radius);
    for r in 2..=radius {
        out.push(f(DIAMOND2 + (r - 2) as u8, d[r - 2]));
    }
    // Tactics from the neighbours' groups.
    let mut captured = 0usize;
    let mut takes_last = false;
    let mut saves = false;
    let mut atari = false;
    let mut own_in_atari = false;
    let mut seen: ArrayVec<u16, 4> = ArrayVec::new();
    for q in b.neighbours(p) {
        let c = b.at(q);
        if c != me && c != enemy {
            continue;
        }
        let g = b.group_of(q);
        if seen.contains(&(g as u16)) {
            continue;
        }
        seen.push(g as u16);
        let libs = b.liberty_count(g, 3);
        if c == enemy {
            if libs == 1 {
                captured += b.group_size(g);
                if ctx.last_point.is_some_and(|l| b.group_of(l) == g) {
                    takes_last = true;
                }
                // Does it touch an own group in atari?
                for s in b.group_stones(g) {
                    for r in b.neighbours(s) {
                        if b.at(r) == me && b.in_atari(b.group_of(r)) {
                            saves = true;
                        }
                    }
                }
            } else if libs == 2 {
                atari = true;
            }
        } else if libs == 1 {
            own_in_atari = true;
        }
    }
    if captured > 0 {
        let size = match captured {
            1 => 0,
            2 | 3 => 1,
            _ => 2,
        };
        out.push(f(
            CAPTURE,
            1 + size + 3 * (saves as u64) + 6 * (takes_last as u64),
        ));
    }
    let (libs, size) = b.libs_after(p, side, 3);
    if ctx.ladder_ataris.contains(&(p as u16)) {
        out.push(f(ATARI, 2));
    } else if atari && libs >= 2 {
        out.push(f(ATARI, 1));
    }
    if own_in_atari && captured == 0 {
        let key = if libs >= 3 {
            1
        } else if libs == 2 && !b.extends_into_ladder(p, side) {
            2
        } else {
            3
        };
        out.push(f(ESCAPE, key));
    }
    if libs < 2 && captured == 0 {
        let key = if size >= 2 && b.is_nakade(p, side, 3) {
            3
        } else if size >= 2 {
            2
        } else {
            1
        };
        out.push(f(SELF_ATARI, key));
    }
    if let Some(l) = ctx.last {
        out.push(f(DIST_LAST, distance((x, y), l)));
    }
    if let Some(l) = ctx.last2 {
        out.push(f(DIST_LAST2, distance((x, y), l)));
    }
    let n = b.size() as i32;
    let line = x.min(y).min(n - 1 - x).min(n - 1 - y) + 1;
    out.push(f(EDGE, line.min(5) as u64));
}

/// The moves a model chooses among: every legal point but own true eyes, and pass.
pub fn candidates(b: &Board, out: &mut Vec<Move>) {
    let side = b.to_move();
    for i in 0..b.empty_count() {
        let p = b.empty_point(i);
        if !b.is_eye(p, side) && b.check(Move::at(p)).is_ok() {
            out.push(Move::at(p));
        }
    }
    out.push(Move::PASS);
}

/// A shipped table of fitted gammas: the gamma of each feature (1 where it is missing) and the
/// largest diamond radius its shapes were fitted with.
pub struct Gammas {
    radius: usize,
    by_feature: HashMap<Feature, f32>,
}

impl Gammas {
    fn from_table(radius: usize, table: &[(u8, u64, f32)]) -> Gammas {
        let by_feature = table
            .iter()
            .map(|&(group, key, g)| (Feature { group, key }, g))
            .collect();
        Gammas { radius, by_feature }
    }

    /// Whether the table is empty (the build may ship one).
    pub fn is_empty(&self) -> bool {
        self.by_feature.is_empty()
    }

    /// The largest diamond radius the table uses.
    pub fn radius(&self) -> usize {
        self.radius
    }

    /// The strength of a move with these features.
    pub fn strength(&self, features: &Features) -> f32 {
        let mut s = 1.0f32;
        for f in features {
            if let Some(g) = self.by_feature.get(f) {
                s *= g;
            }
        }
        s
    }
}

/// Gammas fitted on 9x9 games, for the boards below `board::BIG_SIZE`.
static SMALL: Lazy<Gammas> = Lazy::new(|| {
    use super::learned_priors as t;
    Gammas::from_table(t::RADIUS, t::GAMMAS)
});
/// Gammas fitted on 19x19 games, for the big boards: big-board play differs from 9x9's in
/// what matters most (the opening's corners and lines, and fights with room around them).
static BIG: Lazy<Gammas> = Lazy::new(|| {
    use super::learned_priors_19x19 as t;
    Gammas::from_table(t::RADIUS, t::GAMMAS)
});

/// The shipped gammas for a board of this size (`Board::is_big` draws the line).
pub fn gammas(b: &Board) -> &'static Gammas {
    if b.is_big() {
        &BIG
    } else {
        &SMALL
    }
}

/// Strengths of `moves` (candidates of `b`) under the shipped table for `b`'s size, in order.
pub fn move_strengths(b: &Board, moves: &[Move], out: &mut impl Extend<f32>) {
    let ctx = Context::new(b);
    let gammas = gammas(b);
    for &m in moves {
        let mut fs = Features::new();
        move_features(b, &ctx, m, gammas.radius(), &mut fs);
        out.extend([gammas.strength(&fs)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &[&str]) -> Board {
        let mut b = Board::new(9);
        for v in moves {
            let m = b.parse_vertex(v).unwrap();
            b.play(m);
        }
        b
    }

    fn features_of(b: &Board, v: &str) -> Features {
        let ctx = Context::new(b);
        let mut fs = Features::new();
        move_features(b, &ctx, b.parse_vertex(v).unwrap(), 4, &mut fs);
        fs
    }

    fn key(fs: &Features, group: u8) -> Option<u64> {
        fs.iter().find(|f| f.group == group).map(|f| f.key)
    }

    #[test]
    fn shapes_are_the_same_under_symmetry_and_colour() {
        // Black C3 then White D4: a move at C4 for Black, mirrored to G4 / C6 / G6 and to
        // White's move in the colour-swapped position.
        let a = features_of(&board(&["C3", "D4"]), "C4");
        let b = features_of(&board(&["G3", "F4"]), "G4");
        let c = features_of(&board(&["C7", "D6"]), "C6");
        for g in [PAT3, DIAMOND2, DIAMOND3, DIAMOND4] {
            assert_eq!(key(&a, g), key(&b, g), "group {g}");
            assert_eq!(key(&a, g), key(&c, g), "group {g}");
        }
        let d = features_of(&board(&["A9", "C3", "D4"]), "C4");
        // With colours swapped (White to move, White at C3, Black at D4): same shape.
        assert_eq!(key(&a, PAT3), key(&d, PAT3));
        // Another shape differs.
        let e = features_of(&board(&["C3", "D4"]), "E3");
        assert_ne!(key(&a, PAT3), key(&e, PAT3));
        assert_ne!(key(&a, DIAMOND2), key(&e, DIAMOND2));
    }

    /// The diamond keys as the definition reads: for each transform, the colours of the
    /// transformed points in `DIAMOND` order, as one 2-bit-a-point number per radius; the
    /// smallest over the transforms, hashed.
    fn diamond_keys_by_definition(b: &Board, x: i32, y: i32, side: Side) -> [u64; 3] {
        let mut out = [0u64; 3];
        for r in 2..=4 {
            let k = TRANSFORMS
                .iter()
                .map(|t| {
                    DIAMOND[..DIAMOND_LEN[r]]
                        .iter()
                        .fold(0u128, |k, &(dx, dy)| {
                            let (tx, ty) = t(dx, dy);
                            k << 2 | rel(b, x + tx, y + ty, side) as u128
                        })
                })
                .min()
                .unwrap();
            out[r - 2] = mix(k as u64 ^ mix((k >> 64) as u64));
        }
        out
    }

    #[test]
    fn shape_keys_match_their_definition_on_random_positions() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for size in [9, 13] {
            let mut b = Board::new(size);
            for _ in 0..60 {
                let empty: Vec<usize> = (0..b.empty_count()).map(|i| b.empty_point(i)).collect();
                let p = empty[rng.gen_range(0..empty.len())];
                if b.check(Move::at(p)).is_ok() {
                    b.play(Move::at(p));
                }
                for q in b.board_points().filter(|&q| b.at(q) == EMPTY) {
                    let (x, y) = b.coords(q);
                    let (x, y) = (x as i32, y as i32);
                    let side = b.to_move();
                    assert_eq!(
                        diamond_keys(&b, x, y, side, 4),
                        diamond_keys_by_definition(&b, x, y, side)
                    );
                    // The 3x3 key: the transformed neighbours' 4-bit values, smallest number.
                    let value = |dx: i32, dy: i32| {
                        let c = rel(&b, x + dx, y + dy, side);
                        let libs = if c == 1 || c == 2 {
                            let p = b.point((x + dx) as usize, (y + dy) as usize);
                            b.liberty_count(b.group_of(p), 3) as u64
                        } else {
                            0
                        };
                        c | libs << 2
                    };
                    let pat3 = TRANSFORMS
                        .iter()
                        .map(|t| {
                            SQUARE.iter().fold(0u64, |k, &(dx, dy)| {
                                let (tx, ty) = t(dx, dy);
                                k << 4 | value(tx, ty)
                            })
                        })
                        .min()
                        .unwrap();
                    assert_eq!(pat3_key(&b, x, y, side), pat3);
                }
            }
        }
    }

    /// The candidates of `b`, their strengths under its shipped table, and the strongest's index.
    fn ranked(b: &Board) -> (Vec<Move>, Vec<f32>, usize) {
        let mut moves = Vec::new();
        candidates(b, &mut moves);
        let mut s = Vec::new();
        move_strengths(b, &moves, &mut s);
        let best = (0..moves.len())
            .max_by(|&i, &j| s[i].total_cmp(&s[j]))
            .unwrap();
        (moves, s, best)
    }

    #[test]
    fn shipped_gammas_prefer_capturing_the_last_move() {
        if gammas(&Board::new(9)).is_empty() {
            return;
        }
        // White has just played E5 into atari: taking it at E4 is the model's choice, far
        // ahead of a first-line move in the corner.
        let b = board(&["D5", "A9", "F5", "A8", "E6", "E5"]);
        let (moves, s, best) = ranked(&b);
        assert_eq!(b.vertex(moves[best]), "E4");
        let at = |v: &str| s[moves.iter().position(|&m| b.vertex(m) == v).unwrap()];
        assert!(at("E4") > 10.0 * at("J1"));
    }

    #[test]
    fn big_board_gammas_open_in_the_corners() {
        let b = Board::new(19);
        if gammas(&b).is_empty() {
            return;
        }
        // The 19x19 table is the one a 19x19 board reads, not the 9x9 one.
        assert!(!std::ptr::eq(gammas(&b), gammas(&Board::new(9))));
        // On the empty board the model's first choice is on the third or fourth line near a
        // corner, far ahead of the corner's 1-1 point and of the centre's tengen.
        let (moves, s, best) = ranked(&b);
        let (x, y) = b.coords(moves[best].point().unwrap());
        let near = |c: usize| c.min(18 - c);
        assert!(
            (2..=3).contains(&near(x)) && (2..=3).contains(&near(y)),
            "{}",
            b.vertex(moves[best])
        );
        let at = |v: &str| s[moves.iter().position(|&m| b.vertex(m) == v).unwrap()];
        assert!(s[best] > 10.0 * at("A1"));
        assert!(s[best] > 2.0 * at("K10"));
    }

    #[test]
    fn tactics_and_distances() {
        // White E5 in atari after Black D5, F5, E6: Black captures at E4 (a single stone,
        // the last-moved group is F4 so no "takes last").
        let b = board(&["D5", "E5", "F5", "A1", "E6", "F4"]);
        let fs = features_of(&b, "E4");
        assert_eq!(key(&fs, CAPTURE), Some(1));
        // A capture is no self-atari, and E4 is at distance 1+0+1 = 2 from F4.
        assert_eq!(key(&fs, SELF_ATARI), None);
        assert_eq!(key(&fs, DIST_LAST), Some(2));
        assert_eq!(key(&fs, EDGE), Some(4));
        // Filling A2 next to white A1 ataris it (A1 keeps B1 only).
        let fs = features_of(&b, "A2");
        assert_eq!(key(&fs, ATARI), Some(1));
        assert_eq!(key(&fs, EDGE), Some(1));
        let fs = features_of(&b, "pass");
        assert_eq!(
            fs.as_slice(),
            &[Feature {
                group: PASS,
                key: 0
            }]
        );
    }
}
