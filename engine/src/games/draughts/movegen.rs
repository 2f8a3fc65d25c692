//! Move generation: quiet moves by bitboard shifts, captures by a depth-first search per piece
//! under the majority rule.
//!
//! Scheme. Quiet men moves are one shift of the men bitboard per forward direction; a flying
//! king's moves on a ray are the ray up to its nearest blocker (one bit scan, see `squares`).
//!
//! Captures. Which men can capture is known from shifts alone; kings are tried ray by ray. From
//! each piece that can capture, a depth-first search follows every continuation: the moving piece
//! leaves its start square (which is then empty and may be crossed or landed on); captured pieces
//! stay on the board until the move ends, so they block rays and can never be jumped again (the
//! Turkish strike); a man captures in all four directions and is not crowned by passing its far
//! row, only by ending there. A sequence ends where no further capture exists. All pieces share
//! one running maximum, so only the sequences taking the most pieces (a king counts as one) are
//! kept: when a longer one appears the list is cut back to where the captures began.
//!
//! Men are searched over per-direction target sets (the enemy pieces with an empty square
//! behind them, computed once per piece): since nothing on the board changes during a man's
//! capture but the pieces it has taken, a step is a constant shift and two masks, and a
//! landing square with no jump left is recorded at once rather than visited. The order moves
//! are found in is that of the plain search (`reference_captures`, which the tests compare
//! with), because the search's move ordering starts from it.
//!
//! Sinks. Sequences go to a `Sink`: the move list (`Distinct`), the list with path counts
//! (`Paths`), or, for perft's last ply, counters that list nothing (`CountDistinct`,
//! `CountPaths`); quiet moves are counted as target-set sizes (`count_quiet`). The counters
//! (`count_moves`) search only when a king can capture or a man may jump four times: men's
//! sequences of up to three jumps are counted as sets of landing squares (`MenJumps`).
//!
//! Duplicates. Two sequences with the same start, end and captured set are one move. In the
//! distinct generator a king that captures and can land on several squares of the same ray
//! continues straight ahead only from the farthest of them (the same piece is next in line from
//! all of them); with that, sequences of one or two captures cannot coincide, so the list is
//! searched for an equal move only from three captures up. The paths generator (`Paths` sink,
//! for the 'keep duplicates' perft convention) follows every landing square in every direction,
//! as pydraughts and dctl do, and counts how many paths reach each distinct move.
//!
//! Capacity: a list never grows past `MAX_MOVES`; a further move is dropped rather than
//! panicking. Real positions stay far below it (quiet moves are bounded by about 4 per empty
//! square; capture lists are short), so this is a guard against crafted input only.

use arrayvec::ArrayVec;

use super::board::Board;
use super::moves::Move;
use super::squares::{nearest, opposite, shift, Bits, DIRS, RAYS, VALID};
use crate::game::{MoveList, Side, MAX_MOVES};

/// Where capture sequences go once they end.
pub(crate) trait Sink {
    /// Whether every landing square is followed in every direction (path counting).
    const PATHS: bool;
    /// A sequence that took `n` pieces ended; `m` is its move.
    fn record(&mut self, m: Move, n: u32);
}

/// Collects distinct majority captures into a move list, after index `start`.
pub(crate) struct Distinct<'a> {
    out: &'a mut MoveList<Move>,
    start: usize,
    best: u32,
}

impl<'a> Distinct<'a> {
    pub(crate) fn new(out: &'a mut MoveList<Move>) -> Distinct<'a> {
        let start = out.len();
        Distinct {
            out,
            start,
            best: 1,
        }
    }
}

impl Sink for Distinct<'_> {
    const PATHS: bool = false;

    #[inline]
    fn record(&mut self, m: Move, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.out.truncate(self.start);
            self.best = n;
        } else if n >= 3 && self.out[self.start..].contains(&m) {
            return;
        }
        if !self.out.is_full() {
            self.out.push(m);
        }
    }
}

/// Collects distinct majority captures with the number of paths reaching each.
pub(crate) struct Paths<'a> {
    out: &'a mut MoveList<Move>,
    counts: &'a mut ArrayVec<u32, MAX_MOVES>,
    start: usize,
    best: u32,
}

impl<'a> Paths<'a> {
    pub(crate) fn new(
        out: &'a mut MoveList<Move>,
        counts: &'a mut ArrayVec<u32, MAX_MOVES>,
    ) -> Paths<'a> {
        let start = out.len();
        counts.truncate(start);
        Paths {
            out,
            counts,
            start,
            best: 1,
        }
    }
}

impl Sink for Paths<'_> {
    const PATHS: bool = true;

    fn record(&mut self, m: Move, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.out.truncate(self.start);
            self.counts.truncate(self.start);
            self.best = n;
        } else if let Some(i) = self.out[self.start..].iter().position(|&x| x == m) {
            self.counts[self.start + i] += 1;
            return;
        }
        if !self.out.is_full() {
            self.out.push(m);
            self.counts.push(1);
        }
    }
}

/// Counts the distinct majority captures without listing them (perft's last ply). Only moves
/// of three captures and more are kept, to find duplicates among: shorter ones cannot coincide
/// (see the module doc), so they are just counted. The kept list is short; when it fills up,
/// `overflow` is set and the caller counts with the full generator instead.
pub(crate) struct CountDistinct {
    seen: ArrayVec<Move, 16>,
    count: u64,
    best: u32,
    overflow: bool,
}

impl CountDistinct {
    pub(crate) fn new() -> CountDistinct {
        CountDistinct {
            seen: ArrayVec::new(),
            count: 0,
            best: 1,
            overflow: false,
        }
    }
}

impl Sink for CountDistinct {
    const PATHS: bool = false;

    #[inline]
    fn record(&mut self, m: Move, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.seen.clear();
            self.count = 0;
            self.best = n;
            self.overflow = false;
        }
        if n >= 3 {
            if self.seen.contains(&m) {
                return;
            }
            if self.seen.is_full() {
                self.overflow = true;
                return;
            }
            self.seen.push(m);
        }
        self.count += 1;
    }
}

/// Counts the majority capture paths (perft's last ply in the paths convention).
pub(crate) struct CountPaths {
    count: u64,
    best: u32,
}

impl Sink for CountPaths {
    const PATHS: bool = true;

    #[inline]
    fn record(&mut self, _m: Move, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.count = 0;
            self.best = n;
        }
        self.count += 1;
    }
}

/// The capture search of one piece.
struct Search<'s, S: Sink> {
    sink: &'s mut S,
    /// Enemy pieces (jumpable unless already captured in this sequence).
    enemy: u64,
    /// Every piece on the board except the capturing piece itself (captured pieces included).
    occ: u64,
    /// For a man, per direction: the enemy pieces with an empty square right behind them
    /// (the mover's start square counts as empty). The squares a man passes over stay as
    /// they were until the move ends, so these sets hold for the whole search and each step
    /// is a shift and two masks. Unused for kings.
    targets: [u64; 4],
    from: u32,
    /// The mover's far row, for crowning a man that ends there.
    promotion: u64,
}

/// A one-step shift in direction `DIRS[d]` without the board mask, for sets that the caller
/// intersects with a masked set anyway.
#[inline(always)]
const fn step(b: u64, d: usize) -> u64 {
    let s = DIRS[d];
    if s > 0 {
        b << s
    } else {
        b >> -s
    }
}

impl<S: Sink> Search<'_, S> {
    /// The pieces a man on `bit` can jump next, one set per direction, given the pieces
    /// `caps` taken so far.
    #[inline(always)]
    fn man_victims(&self, bit: u64, caps: u64) -> [u64; 4] {
        // Written out: `array::map` is not reliably inlined here.
        let t = &self.targets;
        [
            step(bit, 0) & t[0] & !caps,
            step(bit, 1) & t[1] & !caps,
            step(bit, 2) & t[2] & !caps,
            step(bit, 3) & t[3] & !caps,
        ]
    }

    /// Follows every jump of a man on `b` that has taken `n` pieces (`caps`) and has at least
    /// one jump left. A landing square without a further jump ends a sequence there and is
    /// recorded at once, in the order a plain depth-first search would reach it, so only
    /// squares with a continuation cost a call.
    fn man(&mut self, b: u32, caps: u64, n: u32) {
        let [v0, v1, v2, v3] = self.man_victims(1u64 << b, caps);
        // One call per direction with the direction a constant, so each step is one shift.
        self.man_jump::<0>(v0, caps, n);
        self.man_jump::<1>(v1, caps, n);
        self.man_jump::<2>(v2, caps, n);
        self.man_jump::<3>(v3, caps, n);
    }

    /// The jump over `victim` (none when 0) in direction `D`, see [`Search::man`].
    #[inline(always)]
    fn man_jump<const D: usize>(&mut self, victim: u64, caps: u64, n: u32) {
        if victim == 0 {
            return;
        }
        let land = step(victim, D);
        let caps = caps | victim;
        let [a, b, c, e] = self.man_victims(land, caps);
        if a | b | c | e != 0 {
            self.man(land.trailing_zeros(), caps, n + 1);
        } else {
            let promotes = land & self.promotion != 0;
            self.sink.record(
                Move::new(self.from, land.trailing_zeros(), caps, promotes),
                n + 1,
            );
        }
    }

    /// `came` is the direction index of the capture that landed here (4 at the start);
    /// `farthest` whether this is the last empty square of that ray beyond the captured piece.
    fn king(&mut self, b: u32, caps: u64, n: u32, came: usize, farthest: bool) {
        let jumpable = self.enemy & !caps;
        let mut ended = true;
        for d in 0..4 {
            if came < 4 {
                // Straight back runs into the piece just captured.
                if d == opposite(came) {
                    continue;
                }
                // Straight ahead is the same from every landing square: follow it once.
                if !S::PATHS && d == came && !farthest {
                    continue;
                }
            }
            let blockers = RAYS[b as usize][d] & self.occ;
            if blockers == 0 {
                continue;
            }
            let x = nearest(blockers, d);
            let xb = 1u64 << x;
            if xb & jumpable == 0 {
                continue;
            }
            let beyond = RAYS[x as usize][d];
            let next = beyond & self.occ;
            let lands = if next == 0 {
                beyond
            } else {
                let y = nearest(next, d);
                beyond & !(RAYS[y as usize][d] | (1u64 << y))
            };
            if lands == 0 {
                continue;
            }
            ended = false;
            let far = if DIRS[d] > 0 {
                63 - lands.leading_zeros()
            } else {
                lands.trailing_zeros()
            };
            for l in Bits(lands) {
                self.king(l, caps | xb, n + 1, d, l == far);
            }
        }
        if ended && n > 0 {
            self.sink.record(Move::new(self.from, b, caps, false), n);
        }
    }
}

/// `a.count_ones() + b.count_ones()` in one pass of the bit-parallel count (the baseline
/// x86-64 target has no POPCNT): the two sums share the last steps.
#[inline(always)]
pub(crate) fn popcount2(a: u64, b: u64) -> u32 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const H01: u64 = 0x0101_0101_0101_0101;
    let a = a - ((a >> 1) & M1);
    let b = b - ((b >> 1) & M1);
    // Nibbles of at most 4 each; their sum fits a nibble.
    let s = (a & M2) + ((a >> 2) & M2) + (b & M2) + ((b >> 2) & M2);
    let s = (s + (s >> 4)) & M4;
    (s.wrapping_mul(H01) >> 56) as u32
}

/// The men of `men` that can capture one of `enemy` with a landing square in `empty` (all
/// three on playable squares).
#[inline(always)]
pub(crate) fn men_capturers(men: u64, enemy: u64, empty: u64) -> u64 {
    let mut r = 0;
    for d in 0..4 {
        // Unmasked steps: a bit shifted onto a ghost or off the board meets no piece.
        r |= men & step(enemy & step(empty, opposite(d)), opposite(d));
    }
    r
}

/// The kings of `kings` that can capture one of `enemy` (`occ` every piece, `empty` its
/// complement). With many kings, all at once: for each direction, the enemies with an empty
/// square behind them are filled backwards over empty squares, and a king the fill reaches sees
/// such an enemy first on its ray. With one or two kings, ray by ray, which is cheaper then.
#[inline(always)]
pub(crate) fn king_capturers(kings: u64, enemy: u64, occ: u64, empty: u64) -> u64 {
    if kings == 0 {
        return 0;
    }
    let mut r = 0;
    // At most two bits set (without popcnt, which the baseline x86-64 target lacks).
    let rest = kings & kings.wrapping_sub(1);
    if rest & rest.wrapping_sub(1) == 0 {
        for k in Bits(kings) {
            for d in 0..4 {
                let blockers = RAYS[k as usize][d] & occ;
                if blockers != 0 {
                    let x = 1u64 << nearest(blockers, d);
                    if x & enemy != 0 && shift(x, DIRS[d]) & empty != 0 {
                        r |= 1u64 << k;
                        break;
                    }
                }
            }
        }
        return r;
    }
    for d in DIRS {
        let mut f = shift(enemy & shift(empty, -d), -d);
        while f != 0 {
            r |= f & kings;
            f = shift(f & empty, -d);
        }
    }
    r
}

/// The jumps of a side's men, per direction `d` (an index of `DIRS`).
#[derive(Clone, Copy)]
pub(crate) struct MenJumps {
    /// The squares from which a jump over an enemy piece onto an empty square starts
    /// (unmasked: they may hold ghost bits, which meet no piece and no landing square).
    sources: [u64; 4],
    /// The men on those squares.
    men: [u64; 4],
}

impl MenJumps {
    /// The jumps of `men` over pieces of `enemy` onto `empty`.
    #[inline(always)]
    pub(crate) fn new(men: u64, enemy: u64, empty: u64) -> MenJumps {
        let sources = [
            step(enemy & step(empty, 3), 3),
            step(enemy & step(empty, 2), 2),
            step(enemy & step(empty, 1), 1),
            step(enemy & step(empty, 0), 0),
        ];
        MenJumps {
            sources,
            men: [
                men & sources[0],
                men & sources[1],
                men & sources[2],
                men & sources[3],
            ],
        }
    }

    /// The men that can capture.
    #[inline(always)]
    pub(crate) fn capturers(&self) -> u64 {
        self.men[0] | self.men[1] | self.men[2] | self.men[3]
    }

    /// The number of captures of the side to move (`own`, against `enemy`) when its men have
    /// these jumps (at least one) and none of its kings can capture, in either convention.
    ///
    /// Most such positions have only single jumps: when no jump lands where a second jump
    /// starts, every jump is its own move of one capture in both conventions, and the jumps are
    /// counted without a search. A second jump from a landing square is seen in the jump
    /// sources of the position as it is: the squares that change during the capture (the start
    /// square emptied, the victim kept on the board) only matter for the jump straight back,
    /// which is excluded.
    #[inline(always)]
    pub(crate) fn count_captures<const PATHS: bool>(
        &self,
        own: u64,
        enemy: u64,
        side: Side,
    ) -> u64 {
        let [s0, s1, s2, s3] = self.sources;
        let j = &self.men;
        // Landing squares of each direction against the sources of every direction but back.
        let more = (step(step(j[0], 0), 0) & (s0 | s1 | s2))
            | (step(step(j[1], 1), 1) & (s0 | s1 | s3))
            | (step(step(j[2], 2), 2) & (s0 | s2 | s3))
            | (step(step(j[3], 3), 3) & (s1 | s2 | s3));
        if more == 0 {
            return (popcount2(j[0], j[1]) + popcount2(j[2], j[3])) as u64;
        }
        self.count_short::<PATHS>(own, enemy, side)
    }

    /// [`MenJumps::count_captures`] when some jump continues: sequences of up to three jumps
    /// are followed as sets, one set of landing squares per sequence of directions (each
    /// square one sequence, since the steps are fixed shifts). Up to three jumps the position
    /// as it is decides every jump: a man cannot meet a piece it took, nor come back to its
    /// start square (which is then empty), before a fourth jump, apart from straight back,
    /// which is excluded. For the same reason two such sequences never make the same move, so
    /// the count is the same in both conventions. When a fourth jump may exist (onto an empty
    /// square or the start square), the capture search counts instead.
    #[inline(never)]
    fn count_short<const PATHS: bool>(&self, own: u64, enemy: u64, side: Side) -> u64 {
        let mut tally = Tally { best: 0, count: 0 };
        // Every direction is a constant parameter, so that each step is one fixed shift.
        let short = self.first::<0>(&mut tally, own, enemy)
            && self.first::<1>(&mut tally, own, enemy)
            && self.first::<2>(&mut tally, own, enemy)
            && self.first::<3>(&mut tally, own, enemy);
        if !short {
            return count_captures::<PATHS>(own, enemy, side, self.capturers(), 0);
        }
        tally.count
    }

    /// The sequences that start with a jump in direction `D`; false when one may go on to a
    /// fourth jump.
    #[inline(always)]
    fn first<const D: usize>(&self, tally: &mut Tally, own: u64, enemy: u64) -> bool {
        let lands = step2(self.men[D], D);
        if lands == 0 {
            return true;
        }
        let mut ended = lands;
        let short = self.second::<D, 0>(lands, &mut ended, tally, own, enemy)
            && self.second::<D, 1>(lands, &mut ended, tally, own, enemy)
            && self.second::<D, 2>(lands, &mut ended, tally, own, enemy)
            && self.second::<D, 3>(lands, &mut ended, tally, own, enemy);
        tally.record(1, ended);
        short
    }

    /// A second jump in direction `E` after one in `D` from the landing squares `lands`, whose
    /// squares with this jump leave `ended`.
    #[inline(always)]
    fn second<const D: usize, const E: usize>(
        &self,
        lands: u64,
        ended: &mut u64,
        tally: &mut Tally,
        own: u64,
        enemy: u64,
    ) -> bool {
        let on = lands & self.sources[E];
        if E == opposite(D) || on == 0 {
            return true;
        }
        *ended &= !on;
        let lands = step2(on, E);
        let mut ended2 = lands;
        let short = self.third::<E, 0>(lands, &mut ended2, tally, own, enemy)
            && self.third::<E, 1>(lands, &mut ended2, tally, own, enemy)
            && self.third::<E, 2>(lands, &mut ended2, tally, own, enemy)
            && self.third::<E, 3>(lands, &mut ended2, tally, own, enemy);
        tally.record(2, ended2);
        short
    }

    /// A third jump in direction `G` after one in `E`, as [`MenJumps::second`]; false when a
    /// fourth may follow. A fourth jump may land on the start square, now empty: a landing on
    /// any own piece counts as possible (the search settles it).
    #[inline(always)]
    fn third<const E: usize, const G: usize>(
        &self,
        lands: u64,
        ended: &mut u64,
        tally: &mut Tally,
        own: u64,
        enemy: u64,
    ) -> bool {
        let on = lands & self.sources[G];
        if G == opposite(E) || on == 0 {
            return true;
        }
        *ended &= !on;
        let lands = step2(on, G);
        let mut fourth = 0;
        for h in 0..4 {
            if h != opposite(G) {
                let back = opposite(h);
                fourth |= self.sources[h] | step(enemy & step(own, back), back);
            }
        }
        if lands & fourth != 0 {
            return false;
        }
        tally.record(3, lands);
        true
    }
}

/// The longest men capture sequences found so far and how many end there.
struct Tally {
    best: u32,
    count: u64,
}

impl Tally {
    /// Sequences of `n` jumps end on the squares of `ended` (one sequence per square).
    #[inline(always)]
    fn record(&mut self, n: u32, ended: u64) {
        if ended != 0 && n >= self.best {
            if n > self.best {
                self.best = n;
                self.count = 0;
            }
            self.count += ended.count_ones() as u64;
        }
    }
}

/// Two steps in direction `DIRS[d]`, unmasked (see [`step`]).
#[inline(always)]
const fn step2(b: u64, d: usize) -> u64 {
    step(step(b, d), d)
}

/// The number of legal moves of the side to move, whose pieces are `own` (the opponent's
/// `enemy`, the kings of both `kings`), in either convention: captures as distinct moves, or
/// (`PATHS`) as paths. Nothing is listed: quiet moves are counted from their target sets,
/// men's captures of up to three jumps from jump sets (`MenJumps::count_captures`), and longer
/// captures and king captures by the capture search into a counting sink.
#[inline(always)]
pub(crate) fn count_moves<const PATHS: bool>(own: u64, enemy: u64, kings: u64, side: Side) -> u64 {
    let occ = own | enemy;
    let empty = VALID & !occ;
    let jumps = MenJumps::new(own & !kings, enemy, empty);
    let king_c = king_capturers(own & kings, enemy, occ, empty);
    if king_c != 0 {
        return count_captures::<PATHS>(own, enemy, side, jumps.capturers(), king_c);
    }
    if jumps.capturers() != 0 {
        return jumps.count_captures::<PATHS>(own, enemy, side);
    }
    count_quiet(own, enemy, kings, side)
}

/// The captures of [`count_moves`] by search, out of line so that the common cases stay small.
#[inline(never)]
fn count_captures<const PATHS: bool>(
    own: u64,
    enemy: u64,
    side: Side,
    men_c: u64,
    kings_c: u64,
) -> u64 {
    let promotion = promotion_row(side);
    if PATHS {
        let mut sink = CountPaths { count: 0, best: 1 };
        search_captures(own, enemy, promotion, men_c, kings_c, &mut sink);
        return sink.count;
    }
    let mut sink = CountDistinct::new();
    search_captures(own, enemy, promotion, men_c, kings_c, &mut sink);
    if sink.overflow {
        return count_listed_captures(own, enemy, promotion, men_c, kings_c);
    }
    sink.count
}

/// Counts by listing: for the rare position with more long captures than `CountDistinct`
/// keeps (the list caps at `MAX_MOVES`, as the generator's does).
#[cold]
#[inline(never)]
fn count_listed_captures(own: u64, enemy: u64, promotion: u64, men_c: u64, kings_c: u64) -> u64 {
    let mut list = MoveList::new();
    let mut sink = Distinct::new(&mut list);
    search_captures(own, enemy, promotion, men_c, kings_c, &mut sink);
    list.len() as u64
}

/// The number of quiet moves of the side to move (pieces as in [`count_moves`]), whether or
/// not a capture exists: the sizes of the target sets of `gen_quiet`.
#[inline(always)]
pub(crate) fn count_quiet(own: u64, enemy: u64, kings: u64, side: Side) -> u64 {
    let occ = own | enemy;
    let empty = VALID & !occ;
    let men = own & !kings;
    let (a, b) = match side {
        Side::First => (shift(men, DIRS[0]), shift(men, DIRS[1])),
        Side::Second => (shift(men, DIRS[2]), shift(men, DIRS[3])),
    };
    let mut n = popcount2(a & empty, b & empty);
    for k in Bits(own & kings) {
        // The four rays of one king are disjoint: one count for all.
        let reach = king_ray_moves(k, 0, occ)
            | king_ray_moves(k, 1, occ)
            | king_ray_moves(k, 2, occ)
            | king_ray_moves(k, 3, occ);
        n += reach.count_ones();
    }
    n as u64
}

/// The capture search of the side to move (`own`, against `enemy`; `promotion` its far row) from its capturing men `men_c` and kings `kings_c`, into `sink`.
pub(crate) fn search_captures<S: Sink>(
    own: u64,
    enemy: u64,
    promotion: u64,
    men_c: u64,
    kings_c: u64,
    sink: &mut S,
) {
    let occ = own | enemy;
    let empty = VALID & !occ;
    for k in Bits(kings_c) {
        let occ = occ & !(1u64 << k);
        let mut s = Search {
            sink: &mut *sink,
            enemy,
            occ,
            targets: [0; 4],
            from: k,
            promotion,
        };
        s.king(k, 0, 0, 4, true);
    }
    if men_c == 0 {
        return;
    }
    let t = [
        enemy & step(empty, 3),
        enemy & step(empty, 2),
        enemy & step(empty, 1),
        enemy & step(empty, 0),
    ];
    for m in Bits(men_c) {
        let bit = 1u64 << m;
        let mut s = Search {
            sink: &mut *sink,
            enemy,
            occ: occ & !bit,
            // The start square is empty once the man has left it.
            targets: [
                t[0] | (enemy & step(bit, 3)),
                t[1] | (enemy & step(bit, 2)),
                t[2] | (enemy & step(bit, 1)),
                t[3] | (enemy & step(bit, 0)),
            ],
            from: m,
            promotion,
        };
        // `men_c` are the men with a capture: the search starts with a jump.
        s.man(m, 0, 0);
    }
}

impl Board {
    /// Whether the side to move has a capture (and so must capture).
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.has_capture_for(self.st.side)
    }

    /// Whether `side` would have a capture if it were to move: for the side not to move, a
    /// threat (some piece of the mover's can be taken next turn unless it acts).
    pub fn has_capture_for(&self, side: Side) -> bool {
        let us = side.index();
        let own = self.st.pieces[us];
        let enemy = self.st.pieces[1 - us];
        let occ = own | enemy;
        let empty = VALID & !occ;
        if men_capturers(own & !self.st.kings, enemy, empty) != 0 {
            return true;
        }
        king_capturers(own & self.st.kings, enemy, occ, empty) != 0
    }

    /// The men and the kings of the side to move that can capture.
    #[inline(always)]
    fn capturers(&self) -> (u64, u64) {
        let us = self.st.side.index();
        let own = self.st.pieces[us];
        let enemy = self.st.pieces[1 - us];
        let occ = own | enemy;
        let empty = VALID & !occ;
        (
            men_capturers(own & !self.st.kings, enemy, empty),
            king_capturers(own & self.st.kings, enemy, occ, empty),
        )
    }

    /// Appends the majority captures of the side to move to the sink.
    #[inline]
    pub(crate) fn gen_captures<S: Sink>(&self, sink: &mut S) {
        let (men, kings) = self.capturers();
        self.search_captures(men, kings, sink);
    }

    /// The capture search from the capturing `men` and `kings` of the side to move.
    #[inline]
    fn search_captures<S: Sink>(&self, men: u64, kings: u64, sink: &mut S) {
        let us = self.st.side.index();
        search_captures(
            self.st.pieces[us],
            self.st.pieces[1 - us],
            promotion_row(self.st.side),
            men,
            kings,
            sink,
        );
    }

    /// Appends the distinct majority captures (nothing when there is no capture).
    #[inline]
    pub(crate) fn gen_distinct_captures(&self, out: &mut MoveList<Move>) {
        let mut sink = Distinct::new(out);
        self.gen_captures(&mut sink);
    }

    /// The number of legal moves, captures counted as distinct moves (as `generate` lists
    /// them), without listing any.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let us = self.st.side.index();
        count_moves::<false>(
            self.st.pieces[us],
            self.st.pieces[1 - us],
            self.st.kings,
            self.st.side,
        )
    }

    /// The number of legal move paths: every capture path counted, as `perft_paths` does.
    #[inline]
    pub fn count_paths(&self) -> u64 {
        let us = self.st.side.index();
        count_moves::<true>(
            self.st.pieces[us],
            self.st.pieces[1 - us],
            self.st.kings,
            self.st.side,
        )
    }

    /// The number of quiet moves (whether or not a capture exists): the sizes of the target
    /// sets of `gen_quiet`.
    #[cfg(test)]
    pub(crate) fn count_quiet(&self) -> u64 {
        let us = self.st.side.index();
        count_quiet(
            self.st.pieces[us],
            self.st.pieces[1 - us],
            self.st.kings,
            self.st.side,
        )
    }

    /// Appends the quiet moves, whether or not a capture exists (callers check).
    pub(crate) fn gen_quiet(&self, out: &mut MoveList<Move>) {
        let us = self.st.side.index();
        let own = self.st.pieces[us];
        let occ = own | self.st.pieces[1 - us];
        let empty = VALID & !occ;
        let men = own & !self.st.kings;
        let promotion = promotion_row(self.st.side);
        let forward: [i32; 2] = match self.st.side {
            Side::First => [DIRS[0], DIRS[1]],
            Side::Second => [DIRS[2], DIRS[3]],
        };
        for d in forward {
            for t in Bits(shift(men, d) & empty) {
                if out.is_full() {
                    return;
                }
                let from = (t as i32 - d) as u32;
                out.push(Move::new(from, t, 0, (1u64 << t) & promotion != 0));
            }
        }
        for k in Bits(own & self.st.kings) {
            for d in 0..4 {
                for t in Bits(king_ray_moves(k, d, occ)) {
                    if out.is_full() {
                        return;
                    }
                    out.push(Move::new(k, t, 0, false));
                }
            }
        }
    }

    /// Appends every legal move with the number of capture paths leading to each (1 for a quiet
    /// move): the generator of the 'paths' perft convention.
    pub(crate) fn gen_with_paths(
        &self,
        out: &mut MoveList<Move>,
        counts: &mut ArrayVec<u32, MAX_MOVES>,
    ) {
        let start = out.len();
        {
            let mut sink = Paths::new(out, counts);
            self.gen_captures(&mut sink);
        }
        if out.len() == start {
            self.gen_quiet(out);
            counts.truncate(start);
            while counts.len() < out.len() {
                counts.push(1);
            }
        }
    }

    /// Every path of the capture `m` as its list of landing squares (bits), the last being the
    /// end square. Empty when `m` is not a legal capture here. For notation, not for search.
    pub(crate) fn capture_paths(&self, m: Move) -> Vec<Vec<u32>> {
        let us = self.st.side.index();
        let own = self.st.pieces[us];
        let from = 1u64 << (m.from & 63);
        if own & from == 0 || m.captured == 0 {
            return Vec::new();
        }
        let enemy = self.st.pieces[1 - us];
        let mut walk = PathWalk {
            enemy,
            occ: (own | enemy) & !from,
            target: m,
            king: self.st.kings & from != 0,
            stack: Vec::new(),
            found: Vec::new(),
        };
        walk.go(m.from as u32, 0);
        walk.found
    }
}

/// Enumerates the landing sequences of one capture move (see [`Board::capture_paths`]).
struct PathWalk {
    enemy: u64,
    occ: u64,
    target: Move,
    king: bool,
    stack: Vec<u32>,
    found: Vec<Vec<u32>>,
}

impl PathWalk {
    fn go(&mut self, b: u32, caps: u64) {
        // Only captures of the target's pieces can lead to it.
        let jumpable = self.enemy & self.target.captured & !caps;
        if caps == self.target.captured {
            if b == self.target.to as u32 && self.ends_here(b, caps) {
                self.found.push(self.stack.clone());
            }
            return;
        }
        for d in 0..4 {
            let (victim, lands) = if self.king {
                let blockers = RAYS[b as usize][d] & self.occ;
                if blockers == 0 {
                    continue;
                }
                let x = 1u64 << nearest(blockers, d);
                let beyond = RAYS[x.trailing_zeros() as usize][d];
                let next = beyond & self.occ;
                let lands = if next == 0 {
                    beyond
                } else {
                    let y = nearest(next, d);
                    beyond & !(RAYS[y as usize][d] | (1u64 << y))
                };
                (x, lands)
            } else {
                let x = shift(1u64 << b, DIRS[d]);
                (x, shift(x, DIRS[d]) & !self.occ)
            };
            if victim & jumpable == 0 {
                continue;
            }
            for l in Bits(lands) {
                self.stack.push(l);
                self.go(l, caps | victim);
                self.stack.pop();
            }
        }
    }

    /// Whether a sequence that has taken every target piece may stop on `b` (no capture of
    /// another piece continues from there). The majority rule makes this hold for legal moves;
    /// checked anyway so a path never ends where the rules forbid stopping.
    fn ends_here(&self, b: u32, caps: u64) -> bool {
        let jumpable = self.enemy & !caps;
        let empty = VALID & !self.occ;
        if !self.king {
            return men_capturers(1u64 << b, jumpable, empty) == 0;
        }
        for d in 0..4 {
            let blockers = RAYS[b as usize][d] & self.occ;
            if blockers != 0 {
                let x = 1u64 << nearest(blockers, d);
                if x & jumpable != 0 && shift(x, DIRS[d]) & empty != 0 {
                    return false;
                }
            }
        }
        true
    }
}

/// The squares a king on bit `k` reaches along direction `d` before the first piece.
#[inline(always)]
pub(crate) fn king_ray_moves(k: u32, d: usize, occ: u64) -> u64 {
    let ray = RAYS[k as usize][d];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        let y = nearest(blockers, d);
        ray & !(RAYS[y as usize][d] | (1u64 << y))
    }
}

/// The far row where the men of `side` are crowned.
#[inline(always)]
pub(crate) fn promotion_row(side: Side) -> u64 {
    match side {
        Side::First => super::squares::WHITE_PROMOTION,
        Side::Second => super::squares::BLACK_PROMOTION,
    }
}
