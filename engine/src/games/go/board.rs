//! The Go board: stones, groups with incremental pseudo-liberties, captures, ko, positional
//! superko, and area scoring.
//!
//! Scheme: a one-dimensional mailbox of `(size + 2)^2` points with a border ring, so the four
//! neighbours of a point are `p ± 1` and `p ± stride` with no bounds checks. Every stone knows
//! the head of its group (`head`) and the next stone of the group (`next`, a circular list).
//! A group keeps *pseudo-liberties*: one count per (stone, empty neighbour) adjacency, plus the
//! sum and the sum of squares of those liberty points. All three update in O(1) when a stone is
//! placed or removed and simply add up when groups merge; a group is in atari exactly when all
//! its pseudo-liberties are one point, that is when `count * sum_sq == sum^2`, and that point
//! is `sum / count`. Exact liberty lists are computed on demand by walking a group (rare).
//!
//! The position key is a Zobrist hash of the stones only (positional superko ignores the side
//! to move). Each group also carries the hash of its stones, so the key after a move, captures
//! included, is known in O(1) before playing it. The game history is a shared set of every
//! earlier key (`Arc`, copied only when the game itself moves on) plus a short inline list of
//! the keys reached since, so a search can test superko without allocating.
//!
//! Playouts use [`Board::play_fast`], which only checks the simple ko ban; everything a
//! protocol or the tree plays goes through the full check of [`Board::is_legal`].

use std::fmt;
use std::sync::Arc;

use once_cell::sync::Lazy;

use crate::game::Side;

/// The largest board (GTP vertices reach Z without I: 25 columns).
pub const MAX_SIZE: usize = 25;
/// The smallest board.
pub const MIN_SIZE: usize = 2;
/// The default board.
pub const DEFAULT_SIZE: usize = 19;
/// The default komi (Chinese rules: 3 3/4 stones).
pub const DEFAULT_KOMI: f32 = 7.5;
/// The smallest big board. Big boards (13x13 and up) are played the 19x19 way: playouts that
/// fill open space, priors for the corners and the third and fourth lines, learned priors
/// fitted on 19x19 games, and ranks read through the 19x19 table. Smaller ones the 9x9 way.
pub const BIG_SIZE: usize = 13;

/// Whether a board of `size` is big (see [`BIG_SIZE`]).
pub fn is_big_size(size: usize) -> bool {
    size >= BIG_SIZE
}

/// Points in the largest mailbox, border included.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);

/// Contents of a point.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const BORDER: u8 = 3;

/// The colour value of a side: Black moves first.
#[inline]
pub fn stone(side: Side) -> u8 {
    match side {
        Side::First => BLACK,
        Side::Second => WHITE,
    }
}

/// The side of a stone colour (`BLACK` or `WHITE`).
#[inline]
pub fn side_of(colour: u8) -> Side {
    if colour == BLACK {
        Side::First
    } else {
        Side::Second
    }
}

/// A move: a point of the mailbox, or a pass (point 0 is border, never a board point).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    pub const PASS: Move = Move(0);

    #[inline]
    pub fn at(point: usize) -> Move {
        Move(point as u16)
    }

    #[inline]
    pub fn is_pass(self) -> bool {
        self.0 == 0
    }

    /// The point of a stone move.
    #[inline]
    pub fn point(self) -> Option<usize> {
        (self.0 != 0).then_some(self.0 as usize)
    }
}

/// Zobrist keys per colour and point, from a fixed seed so keys are the same in every run.
static ZOBRIST: Lazy<Box<[[u64; MAX_POINTS]; 2]>> = Lazy::new(|| {
    let mut state: u64 = 0x7e7a_5c4a_11d1_0901;
    let mut next = || {
        let (next, z) = crate::hash::splitmix(state);
        state = next;
        z
    };
    let mut table = Box::new([[0u64; MAX_POINTS]; 2]);
    for colour in table.iter_mut() {
        for key in colour.iter_mut() {
            *key = next();
        }
    }
    table
});

#[inline]
fn zobrist(colour: u8, p: usize) -> u64 {
    ZOBRIST[(colour - 1) as usize][p]
}

/// Per-group data, stored at the group's head stone.
#[derive(Clone, Copy, Default, Debug)]
struct Group {
    /// Pseudo-liberty count (one per stone-liberty adjacency).
    libs: u16,
    /// Stones in the group.
    size: u16,
    /// Sum of pseudo-liberty points.
    lib_sum: u32,
    /// Sum of squares of pseudo-liberty points.
    lib_sq: u32,
    // No key of the group's own: twelve bytes keep the board small to copy (the ladder
    // reader and every simulation copy it), and a captured group's stones are walked anyway.
}

impl Group {
    #[inline]
    fn in_atari(&self) -> bool {
        self.libs > 0 && (self.libs as u64) * (self.lib_sq as u64) == (self.lib_sum as u64).pow(2)
    }
}

/// The set of keys of every earlier position of the game: a sorted list behind a small bit
/// filter, so most lookups (keys not in the set) cost one memory read.
#[derive(Clone, Debug)]
pub struct PositionSet {
    filter: Box<[u64; 128]>,
    keys: Vec<u64>,
}

impl Default for PositionSet {
    fn default() -> Self {
        PositionSet {
            filter: Box::new([0; 128]),
            keys: Vec::new(),
        }
    }
}

impl PositionSet {
    #[inline]
    fn bit(key: u64) -> (usize, u64) {
        let b = (key >> 51) as usize; // 13 bits
        (b >> 6, 1u64 << (b & 63))
    }

    pub fn insert(&mut self, key: u64) {
        let (w, m) = Self::bit(key);
        self.filter[w] |= m;
        if let Err(i) = self.keys.binary_search(&key) {
            self.keys.insert(i, key);
        }
    }

    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        let (w, m) = Self::bit(key);
        self.filter[w] & m != 0 && self.keys.binary_search(&key).is_ok()
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Keys reached since the shared history was last committed (the search tree's path). Past
/// this many the oldest are dropped, so inside a search superko looks back over the game and at
/// most the last 32 plies of the line searched: longer cycles are left to the root's check.
const RECENT: usize = 32;

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The point is off the board.
    OffBoard,
    /// The point holds a stone.
    Occupied,
    /// The stone would have no liberty and captures nothing.
    Suicide,
    /// The move would recreate an earlier whole-board position.
    Superko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "vertex off the board",
            Illegal::Occupied => "point occupied",
            Illegal::Suicide => "suicide",
            Illegal::Superko => "positional superko",
        })
    }
}

/// A Go position with its game history.
pub struct Board {
    size: u8,
    stride: u16,
    /// Mailbox points in use: `(size + 2)^2`.
    points: u16,
    to_move: Side,
    /// The point the side to move may not play at once (simple ko), or 0.
    ko: u16,
    /// The point of the latest ko capture (where the captured stone stood), kept a few moves
    /// after the ban lapses so the playouts can fight the ko, and the moves played since.
    last_ko: u16,
    last_ko_age: u8,
    last: Move,
    last2: Move,
    /// Consecutive passes just played.
    passes: u8,
    komi: f32,
    hash: u64,
    /// Stones captured by each side.
    captures: [u32; 2],
    n_empty: u16,
    colour: [u8; MAX_POINTS],
    head: [u16; MAX_POINTS],
    next: [u16; MAX_POINTS],
    groups: [Group; MAX_POINTS],
    /// The empty points, in any order, and each empty point's index in that list.
    empties: [u16; MAX_POINTS],
    empty_at: [u16; MAX_POINTS],
    history: Arc<PositionSet>,
    recent: [u64; RECENT],
    n_recent: u8,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        let mut b = Board::new_uninit(self.size as usize, self.history.clone());
        b.clone_from(self);
        b
    }

    /// Copies only the mailbox points in use, and shares the history: allocation-free, so the
    /// search can copy its root for every simulation.
    fn clone_from(&mut self, src: &Self) {
        self.copy_position_from(src);
        if !Arc::ptr_eq(&self.history, &src.history) {
            self.history = src.history.clone();
        }
        let r = src.n_recent as usize;
        self.recent[..r].copy_from_slice(&src.recent[..r]);
        self.n_recent = src.n_recent;
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diagram())
    }
}

impl Board {
    fn new_uninit(size: usize, history: Arc<PositionSet>) -> Board {
        Board {
            size: size as u8,
            stride: (size + 2) as u16,
            points: ((size + 2) * (size + 2)) as u16,
            to_move: Side::First,
            ko: 0,
            last_ko: 0,
            last_ko_age: u8::MAX,
            last: Move::PASS,
            last2: Move::PASS,
            passes: 0,
            komi: DEFAULT_KOMI,
            hash: 0,
            captures: [0; 2],
            n_empty: 0,
            colour: [BORDER; MAX_POINTS],
            head: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            groups: [Group::default(); MAX_POINTS],
            empties: [0; MAX_POINTS],
            empty_at: [0; MAX_POINTS],
            history,
            recent: [0; RECENT],
            n_recent: 0,
        }
    }

    /// A board for reading sequences (ladders) on copies: no history of its own.
    pub fn scratch() -> Board {
        static NO_HISTORY: Lazy<Arc<PositionSet>> = Lazy::new(|| Arc::new(PositionSet::default()));
        Board::new_uninit(MAX_SIZE, NO_HISTORY.clone())
    }

    /// Copies the position of `src` (everything but the game history), touching only the
    /// mailbox points in use: the fast copy for reading ahead.
    pub fn copy_position_from(&mut self, src: &Board) {
        let n = src.points as usize;
        self.size = src.size;
        self.stride = src.stride;
        self.points = src.points;
        self.to_move = src.to_move;
        self.ko = src.ko;
        self.last_ko = src.last_ko;
        self.last_ko_age = src.last_ko_age;
        self.last = src.last;
        self.last2 = src.last2;
        self.passes = src.passes;
        self.komi = src.komi;
        self.hash = src.hash;
        self.captures = src.captures;
        self.n_empty = src.n_empty;
        self.colour[..n].copy_from_slice(&src.colour[..n]);
        self.head[..n].copy_from_slice(&src.head[..n]);
        self.next[..n].copy_from_slice(&src.next[..n]);
        self.groups[..n].copy_from_slice(&src.groups[..n]);
        let e = src.n_empty as usize;
        self.empties[..e].copy_from_slice(&src.empties[..e]);
        self.empty_at[..n].copy_from_slice(&src.empty_at[..n]);
        self.n_recent = 0;
    }

    /// An empty board of `size` (clamped to 2..=25), Black to move, komi 7.5. The empty
    /// position is the first entry of the game history.
    pub fn new(size: usize) -> Board {
        let size = size.clamp(MIN_SIZE, MAX_SIZE);
        let mut b = Board::new_uninit(size, Arc::new(PositionSet::default()));
        for y in 0..size {
            for x in 0..size {
                let p = b.point(x, y);
                b.colour[p] = EMPTY;
                b.empty_at[p] = b.n_empty;
                b.empties[b.n_empty as usize] = p as u16;
                b.n_empty += 1;
            }
        }
        Arc::make_mut(&mut b.history).insert(b.hash);
        b
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    #[inline]
    pub fn stride(&self) -> usize {
        self.stride as usize
    }

    /// Mailbox points in use, border included: moves and points are below this.
    #[inline]
    pub fn mailbox_len(&self) -> usize {
        self.points as usize
    }

    /// The mailbox point of column `x` (0 = A) and row `y` (0 = row 1, at the bottom).
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.stride as usize + x + 1
    }

    /// Column and row of a board point.
    #[inline]
    pub fn coords(&self, p: usize) -> (usize, usize) {
        let s = self.stride as usize;
        (p % s - 1, p / s - 1)
    }

    /// Whether `p` is a point of the board (not border, not outside the mailbox).
    #[inline]
    pub fn on_board(&self, p: usize) -> bool {
        p < self.points as usize && self.colour[p] != BORDER
    }

    #[inline]
    pub fn at(&self, p: usize) -> u8 {
        self.colour[p]
    }

    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Sets the side to move (GTP lets either colour play at any time).
    pub fn set_to_move(&mut self, side: Side) {
        if side != self.to_move {
            // The ko ban belongs to the player who was to move.
            self.ko = 0;
            self.to_move = side;
        }
    }

    #[inline]
    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    #[inline]
    pub fn last_move(&self) -> Move {
        self.last
    }

    #[inline]
    pub fn last_move2(&self) -> Move {
        self.last2
    }

    #[inline]
    pub fn passes(&self) -> u32 {
        self.passes as u32
    }

    /// The Zobrist key of the stones (side to move not included).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The point of a ko captured within the last `max_age` moves whose ban has lapsed (the
    /// side to move may play there), if any: where the playouts fight the ko.
    #[inline]
    pub fn recent_ko(&self, max_age: u8) -> Option<usize> {
        (self.ko == 0 && self.last_ko != 0 && self.last_ko_age < max_age)
            .then_some(self.last_ko as usize)
    }

    /// The simple-ko point banned for the side to move, if any.
    #[inline]
    pub fn ko_point(&self) -> Option<usize> {
        (self.ko != 0).then_some(self.ko as usize)
    }

    pub fn captures(&self, side: Side) -> u32 {
        self.captures[side.index()]
    }

    #[inline]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// The `i`-th empty point (any order).
    #[inline]
    pub fn empty_point(&self, i: usize) -> usize {
        self.empties[i] as usize
    }

    /// Whether no stone is on the board.
    pub fn is_empty(&self) -> bool {
        self.n_empty as usize == self.size() * self.size()
    }

    /// Stones of both colours: (black, white).
    pub fn stone_counts(&self) -> (usize, usize) {
        let mut counts = (0, 0);
        for p in self.board_points() {
            match self.colour[p] {
                BLACK => counts.0 += 1,
                WHITE => counts.1 += 1,
                _ => {}
            }
        }
        counts
    }

    /// Every board point, row by row from the bottom.
    pub fn board_points(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.size();
        (0..n).flat_map(move |y| (0..n).map(move |x| self.point(x, y)))
    }

    #[inline]
    pub fn neighbours(&self, p: usize) -> [usize; 4] {
        let s = self.stride as usize;
        [p - s, p - 1, p + 1, p + s]
    }

    #[inline]
    pub fn diagonals(&self, p: usize) -> [usize; 4] {
        let s = self.stride as usize;
        [p - s - 1, p - s + 1, p + s - 1, p + s + 1]
    }

    /// The head stone of the group at `p` (a stone).
    #[inline]
    pub fn group_of(&self, p: usize) -> usize {
        self.head[p] as usize
    }

    /// Stones in the group with head `g`.
    #[inline]
    pub fn group_size(&self, g: usize) -> usize {
        self.groups[g].size as usize
    }

    /// Whether the group with head `g` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, g: usize) -> bool {
        self.groups[g].in_atari()
    }

    /// The liberty of a group in atari.
    #[inline]
    pub fn atari_liberty(&self, g: usize) -> usize {
        let gr = &self.groups[g];
        (gr.lib_sum / gr.libs as u32) as usize
    }

    /// The stones of the group with head `g`.
    pub fn group_stones(&self, g: usize) -> GroupStones<'_> {
        GroupStones {
            board: self,
            first: g,
            cur: Some(g),
        }
    }

    /// The two liberties of the group with head `g` when it has exactly two.
    pub fn two_liberties(&self, g: usize) -> Option<[usize; 2]> {
        if self.liberty_count(g, 3) != 2 {
            return None;
        }
        let mut libs = [0u16; 2];
        self.liberties(g, 2, &mut libs);
        Some([libs[0] as usize, libs[1] as usize])
    }

    /// Up to `max` distinct liberties of the group with head `g`, appended to `out`; returns
    /// how many were found (never more than `max`).
    pub fn liberties(&self, g: usize, max: usize, out: &mut [u16]) -> usize {
        let mut n = 0;
        if self.groups[g].in_atari() {
            if max > 0 {
                out[0] = self.atari_liberty(g) as u16;
                return 1;
            }
            return 0;
        }
        for s in self.group_stones(g) {
            for q in self.neighbours(s) {
                if self.colour[q] == EMPTY && !out[..n].contains(&(q as u16)) {
                    if n == max {
                        return n;
                    }
                    out[n] = q as u16;
                    n += 1;
                }
            }
        }
        n
    }

    /// The exact number of liberties of the group with head `g`, counting at most `max`.
    pub fn liberty_count(&self, g: usize, max: usize) -> usize {
        let mut buf = [0u16; 8];
        let max = max.min(8);
        if self.groups[g].in_atari() {
            return 1;
        }
        self.liberties(g, max, &mut buf)
    }

    // ---------------------------------------------------------------------------------------
    // Legality

    /// Whether `side` may play at empty point `p` under the simple-ko rule: not occupied, not
    /// the banned ko point, not suicide. The playouts' test.
    #[inline]
    pub fn is_legal_fast(&self, p: usize, side: Side) -> bool {
        if self.colour[p] != EMPTY {
            return false;
        }
        if p == self.ko as usize && side == self.to_move {
            return false;
        }
        !self.is_suicide(p, side)
    }

    /// Whether a stone of `side` at empty `p` would have no liberty and capture nothing.
    #[inline]
    pub fn is_suicide(&self, p: usize, side: Side) -> bool {
        let me = stone(side);
        for q in self.neighbours(p) {
            let c = self.colour[q];
            if c == EMPTY {
                return false;
            }
            if c == BORDER {
                continue;
            }
            let atari = self.groups[self.head[q] as usize].in_atari();
            if (c == me) != atari {
                // Own group with another liberty, or an enemy group captured.
                return false;
            }
        }
        true
    }

    /// Xor of the Zobrist keys of the stones of the group with head `g`.
    fn group_hash(&self, g: usize) -> u64 {
        let c = self.colour[g];
        self.group_stones(g).fold(0, |h, s| h ^ zobrist(c, s))
    }

    /// The key after `side` plays at `p` (legal under simple ko), captures included.
    pub fn hash_after(&self, p: usize, side: Side) -> u64 {
        let me = stone(side);
        let mut h = self.hash ^ zobrist(me, p);
        let mut seen = [0u16; 4];
        let mut n = 0;
        for q in self.neighbours(p) {
            let c = self.colour[q];
            if c == EMPTY || c == BORDER || c == me {
                continue;
            }
            let g = self.head[q];
            if seen[..n].contains(&g) {
                continue;
            }
            seen[n] = g;
            n += 1;
            if self.groups[g as usize].in_atari() {
                h ^= self.group_hash(g as usize);
            }
        }
        h
    }

    /// Whether the position with key `key` occurred earlier in the game.
    #[inline]
    pub fn repeats(&self, key: u64) -> bool {
        self.recent[..self.n_recent as usize].contains(&key) || self.history.contains(key)
    }

    /// Checks a move of the side to move under the full rules (suicide, positional superko).
    pub fn check(&self, m: Move) -> Result<(), Illegal> {
        self.check_as(m, self.to_move)
    }

    /// Checks a move of `side` under the full rules.
    pub fn check_as(&self, m: Move, side: Side) -> Result<(), Illegal> {
        let Some(p) = m.point() else {
            return Ok(());
        };
        if !self.on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.colour[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if self.is_suicide(p, side) {
            return Err(Illegal::Suicide);
        }
        if self.repeats(self.hash_after(p, side)) {
            return Err(Illegal::Superko);
        }
        Ok(())
    }

    /// Whether the side to move may play `m` under the full rules.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.check(m).is_ok()
    }

    // ---------------------------------------------------------------------------------------
    // Playing

    /// Plays a move of the side to move that [`check`](Board::check) accepts, and records the
    /// new position in the recent history.
    pub fn play(&mut self, m: Move) {
        self.play_fast(m);
        if !m.is_pass() {
            if (self.n_recent as usize) == RECENT {
                self.recent.copy_within(1.., 0);
                self.n_recent -= 1;
            }
            self.recent[self.n_recent as usize] = self.hash;
            self.n_recent += 1;
        }
    }

    /// Plays a move that is legal under simple ko, without recording history (playouts).
    #[inline]
    pub fn play_fast(&mut self, m: Move) {
        let side = self.to_move;
        self.last2 = self.last;
        self.last = m;
        self.to_move = side.flip();
        match m.point() {
            None => {
                self.passes = self.passes.saturating_add(1);
                self.ko = 0;
            }
            Some(p) => {
                self.passes = 0;
                self.ko = self.place(p, side) as u16;
            }
        }
        if self.ko != 0 {
            self.last_ko = self.ko;
            self.last_ko_age = 0;
        } else {
            self.last_ko_age = self.last_ko_age.saturating_add(1);
        }
    }

    /// Moves the positions reached since the last commit into the shared game history (the
    /// game record calls this after each real move; the search never does).
    pub fn commit_history(&mut self) {
        if self.n_recent > 0 {
            let set = Arc::make_mut(&mut self.history);
            for &k in &self.recent[..self.n_recent as usize] {
                set.insert(k);
            }
            self.n_recent = 0;
        }
    }

    /// Forgets the game history: the current position becomes the only one (after setup
    /// stones, which are not moves).
    pub fn reset_history(&mut self) {
        let mut set = PositionSet::default();
        set.insert(self.hash);
        self.history = Arc::new(set);
        self.n_recent = 0;
    }

    /// Number of positions in the game history.
    pub fn history_len(&self) -> usize {
        self.history.len() + self.n_recent as usize
    }

    /// Puts a setup stone (handicap, SGF AB/AW) on an empty point, capturing as a move would.
    /// Does not change the side to move; the caller resets the history after the setup.
    pub fn setup_stone(&mut self, p: usize, side: Side) -> Result<(), Illegal> {
        if !self.on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.colour[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        if self.is_suicide(p, side) {
            return Err(Illegal::Suicide);
        }
        self.place(p, side);
        self.ko = 0;
        Ok(())
    }

    /// Places a stone (legal under simple ko) and resolves captures. Returns the new ko point,
    /// or 0.
    fn place(&mut self, p: usize, side: Side) -> usize {
        let me = stone(side);
        let enemy = stone(side.flip());
        self.remove_empty(p);
        self.colour[p] = me;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.groups[p] = Group {
            libs: 0,
            size: 1,
            lib_sum: 0,
            lib_sq: 0,
        };
        self.hash ^= zobrist(me, p);

        let nb = self.neighbours(p);
        for &q in &nb {
            match self.colour[q] {
                EMPTY => add_lib(&mut self.groups[p], q),
                BORDER => {}
                _ => {
                    let g = self.head[q] as usize;
                    remove_lib(&mut self.groups[g], p);
                }
            }
        }
        for &q in &nb {
            if self.colour[q] == me {
                let (a, b) = (self.head[p] as usize, self.head[q] as usize);
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let mut captured = 0;
        let mut ko = 0;
        for &q in &nb {
            if self.colour[q] == enemy {
                let g = self.head[q] as usize;
                if self.groups[g].libs == 0 {
                    let n = self.remove_group(g);
                    captured += n;
                    if n == 1 {
                        ko = q;
                    }
                }
            }
        }
        self.captures[side.index()] += captured as u32;
        let g = &self.groups[self.head[p] as usize];
        if captured == 1 && g.size == 1 && g.libs == 1 {
            ko
        } else {
            0
        }
    }

    /// Merges the groups with heads `a` and `b`; the larger keeps its head.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.groups[a].size >= self.groups[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        let sm = self.groups[small];
        let bg = &mut self.groups[big];
        bg.libs += sm.libs;
        bg.size += sm.size;
        bg.lib_sum += sm.lib_sum;
        bg.lib_sq += sm.lib_sq;
    }

    /// Removes a captured group; returns its size.
    fn remove_group(&mut self, g: usize) -> usize {
        let colour = self.colour[g];
        let size = self.groups[g].size as usize;
        let mut s = g;
        loop {
            self.hash ^= zobrist(colour, s);
            self.colour[s] = EMPTY;
            self.add_empty(s);
            for q in self.neighbours(s) {
                let c = self.colour[q];
                if c != EMPTY && c != BORDER && c != colour {
                    let h = self.head[q] as usize;
                    add_lib(&mut self.groups[h], s);
                }
            }
            s = self.next[s] as usize;
            if s == g {
                break;
            }
        }
        size
    }

    #[inline]
    fn remove_empty(&mut self, p: usize) {
        let i = self.empty_at[p] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        self.empties[i] = last;
        self.empty_at[last as usize] = i as u16;
    }

    #[inline]
    fn add_empty(&mut self, p: usize) {
        self.empty_at[p] = self.n_empty;
        self.empties[self.n_empty as usize] = p as u16;
        self.n_empty += 1;
    }

    // ---------------------------------------------------------------------------------------
    // Shape

    /// Whether empty `p` is an eye of `side`: every neighbour is its stone or the edge, and
    /// the diagonals are not held by the opponent (none of them at the edge, at most one in the
    /// middle), so the eye cannot be made false.
    #[inline]
    pub fn is_eye(&self, p: usize, side: Side) -> bool {
        let me = stone(side);
        for q in self.neighbours(p) {
            let c = self.colour[q];
            if c != me && c != BORDER {
                return false;
            }
        }
        let enemy = stone(side.flip());
        let mut bad = 0;
        let mut edge = 0;
        for q in self.diagonals(p) {
            match self.colour[q] {
                BORDER => edge = 1,
                c if c == enemy => bad += 1,
                _ => {}
            }
        }
        bad + edge < 2
    }

    /// Whether empty `p` is surrounded by `side`'s stones and the edge (an eye-like point, true
    /// or false).
    #[inline]
    pub fn is_eyelike(&self, p: usize, side: Side) -> bool {
        let me = stone(side);
        self.neighbours(p).iter().all(|&q| {
            let c = self.colour[q];
            c == me || c == BORDER
        })
    }

    /// After `side` plays at empty `p` (legal): the number of liberties of the new group,
    /// counted up to `max` (at most 4), and the number of stones it has. Captures count: each
    /// captured neighbour frees at least its point (a captured group of two or more stones
    /// counts as freeing two).
    ///
    /// No group is walked: a neighbour group's liberties other than the ones already found
    /// are its pseudo-liberties less those points, each taken as many times as the group has
    /// stones next to it; what remains is nothing, one point (found from the sums) or more.
    pub fn libs_after(&self, p: usize, side: Side, max: usize) -> (usize, usize) {
        let me = stone(side);
        let max = max.min(4);
        // Liberties known by their point, and a count of further ones known to exist.
        let mut found = [0u16; 8];
        let mut n = 0usize;
        let mut extra = 0usize;
        let mut size = 1;
        let mut own = [0u16; 4];
        let mut n_own = 0;
        let mut seen = [0u16; 4];
        let mut ns = 0;
        for q in self.neighbours(p) {
            let c = self.colour[q];
            if c == EMPTY {
                if !found[..n].contains(&(q as u16)) {
                    found[n] = q as u16;
                    n += 1;
                }
                continue;
            }
            if c == BORDER {
                continue;
            }
            let g = self.head[q];
            if seen[..ns].contains(&g) {
                continue;
            }
            seen[ns] = g;
            ns += 1;
            if c == me {
                size += self.groups[g as usize].size as usize;
                own[n_own] = g;
                n_own += 1;
            } else if self.groups[g as usize].in_atari() {
                // Captured: its stone next to p becomes a liberty; a bigger group frees more.
                if !found[..n].contains(&(q as u16)) {
                    found[n] = q as u16;
                    n += 1;
                }
                if self.groups[g as usize].size >= 2 {
                    extra += 1;
                }
            }
        }
        if n + extra >= max {
            return ((n + extra).min(max), size);
        }
        for &g in &own[..n_own] {
            let g = g as usize;
            let gr = &self.groups[g];
            let (mut cnt, mut sum, mut sq) = (gr.libs as i64, gr.lib_sum as i64, gr.lib_sq as i64);
            // Take out p and every liberty already found, with their multiplicities.
            let mut take = |x: usize| {
                if self.colour[x] != EMPTY {
                    return; // a captured stone's point is no liberty of g yet
                }
                let m = self
                    .neighbours(x)
                    .iter()
                    .filter(|&&y| self.head[y] as usize == g && self.colour[y] == me)
                    .count() as i64;
                let x = x as i64;
                cnt -= m;
                sum -= m * x;
                sq -= m * x * x;
            };
            take(p);
            for &f in &found[..n] {
                take(f as usize);
            }
            if cnt <= 0 {
                continue;
            }
            if cnt * sq == sum * sum {
                // One more distinct liberty.
                found[n] = (sum / cnt) as u16;
                n += 1;
            } else if n + extra + 2 >= max {
                // At least two more: enough.
                return (max, size);
            } else {
                // Two or more others that later groups may share: name them (rare).
                let mut buf = [0u16; 8];
                let k = self.liberties(g, 8, &mut buf);
                for &q in &buf[..k] {
                    if q as usize != p && !found[..n].contains(&q) && n < found.len() {
                        found[n] = q;
                        n += 1;
                    }
                }
            }
            if n + extra >= max {
                return ((n + extra).min(max), size);
            }
        }
        ((n + extra).min(max), size)
    }

    /// Whether `side` playing at empty `p` (legal) gets two liberties or more, counted as
    /// [`libs_after`](Board::libs_after) counts them (a captured group of two stones or more
    /// frees two): `libs_after(p, side, 2).0 >= 2`, in O(1). An own group's liberties other
    /// than `p` are its pseudo-liberties less `p`'s, which are nothing (it is in atari), one
    /// point (found from the sums) or more.
    #[inline]
    pub fn two_libs_after(&self, p: usize, side: Side) -> bool {
        let me = stone(side);
        let nb = self.neighbours(p);
        // A liberty found so far (0: none; point 0 is border, never a liberty).
        let mut first = 0usize;
        for (i, &q) in nb.iter().enumerate() {
            let c = self.colour[q];
            if c == EMPTY {
                // It may be the liberty an own group seen before still has.
                if first != 0 && first != q {
                    return true;
                }
                first = q;
                continue;
            }
            if c == BORDER {
                continue;
            }
            let g = self.head[q] as usize;
            if nb[..i]
                .iter()
                .any(|&r| self.colour[r] == c && self.head[r] as usize == g)
            {
                continue; // this group was seen
            }
            let gr = &self.groups[g];
            if c == me {
                if gr.in_atari() {
                    continue; // its one liberty is p
                }
                let m = nb
                    .iter()
                    .filter(|&&r| self.colour[r] == me && self.head[r] as usize == g)
                    .count() as u64;
                let pp = p as u64;
                let cnt = gr.libs as u64 - m;
                let sum = gr.lib_sum as u64 - m * pp;
                let sq = gr.lib_sq as u64 - m * pp * pp;
                if cnt * sq != sum * sum {
                    return true; // two others at least
                }
                let x = (sum / cnt) as usize;
                if first != 0 && first != x {
                    return true;
                }
                first = x;
            } else if gr.in_atari() {
                // Captured: its stone here becomes a liberty, and a bigger group frees two.
                if gr.size >= 2 || first != 0 {
                    return true;
                }
                first = q;
            }
        }
        false
    }

    /// Stones of the group `side` makes by playing at empty `p`: `p` and the own groups next
    /// to it.
    #[inline]
    pub fn size_after(&self, p: usize, side: Side) -> usize {
        let me = stone(side);
        let nb = self.neighbours(p);
        let mut size = 1;
        for (i, &q) in nb.iter().enumerate() {
            if self.colour[q] != me {
                continue;
            }
            let g = self.head[q];
            if !nb[..i]
                .iter()
                .any(|&r| self.colour[r] == me && self.head[r] == g)
            {
                size += self.groups[g as usize].size as usize;
            }
        }
        size
    }

    /// The liberties of the group of stone `from` when it has at most two (the points and how
    /// many), else `None`. O(1) but for finding one liberty, looked for from `from` on (so a
    /// stone known to touch one finds it at once): the pseudo-liberties less that one's are
    /// then one point or more.
    #[inline]
    pub fn short_liberties(&self, from: usize) -> Option<([u16; 2], usize)> {
        let g = self.head[from] as usize;
        let gr = &self.groups[g];
        if gr.in_atari() {
            return Some(([self.atari_liberty(g) as u16, 0], 1));
        }
        let mut a = 0;
        'find: for s in self.group_stones(from) {
            for q in self.neighbours(s) {
                if self.colour[q] == EMPTY {
                    a = q;
                    break 'find;
                }
            }
        }
        // Not in atari: something is left.
        self.other_liberty(g, a).map(|b| ([a as u16, b as u16], 2))
    }

    /// For the group with head `g` and its liberty `a`: its one other liberty when it has
    /// exactly two, else `None` (`a` alone or three or more). O(1): the pseudo-liberties less
    /// `a`'s (one per stone of `g` next to it).
    #[inline]
    pub fn other_liberty(&self, g: usize, a: usize) -> Option<usize> {
        let c = self.colour[g];
        let m = self
            .neighbours(a)
            .iter()
            .filter(|&&r| self.colour[r] == c && self.head[r] as usize == g)
            .count();
        self.other_liberty_counted(g, a, m)
    }

    /// [`other_liberty`](Board::other_liberty) for a caller who knows that `m` stones of `g`
    /// touch `a`.
    #[inline]
    pub fn other_liberty_counted(&self, g: usize, a: usize, m: usize) -> Option<usize> {
        let gr = &self.groups[g];
        let (m, aa) = (m as u64, a as u64);
        let cnt = gr.libs as u64 - m;
        let sum = gr.lib_sum as u64 - m * aa;
        let sq = gr.lib_sq as u64 - m * aa * aa;
        (cnt > 0 && cnt * sq == sum * sum).then(|| (sum / cnt) as usize)
    }

    /// Whether `side` playing at empty `p` leaves its group in atari (one liberty) without
    /// capturing anything that frees more.
    #[inline]
    pub fn is_self_atari(&self, p: usize, side: Side) -> bool {
        // Fast accept: two empty neighbours.
        let mut empty = 0;
        for q in self.neighbours(p) {
            if self.colour[q] == EMPTY {
                empty += 1;
            }
        }
        if empty >= 2 {
            return false;
        }
        self.libs_after(p, side, 2).0 < 2
    }

    /// The 3x3 neighbourhood of `p` as 16 bits: 2 bits per point (empty, black, white, edge),
    /// in the order N, NE, E, SE, S, SW, W, NW (rows grow upward: N is `p + stride`).
    #[inline]
    pub fn pattern3(&self, p: usize) -> u16 {
        let s = self.stride as usize;
        let c = &self.colour;
        (c[p + s] as u16)
            | (c[p + s + 1] as u16) << 2
            | (c[p + 1] as u16) << 4
            | (c[p - s + 1] as u16) << 6
            | (c[p - s] as u16) << 8
            | (c[p - s - 1] as u16) << 10
            | (c[p - 1] as u16) << 12
            | (c[p + s - 1] as u16) << 14
    }

    // ---------------------------------------------------------------------------------------
    // Scoring

    /// Area score of the position as it stands (every stone alive): stones plus empty regions
    /// that touch one colour only. Returns (black area, white area); points touching both
    /// (dame) count for neither.
    pub fn area(&self) -> (usize, usize) {
        self.area_with_dead(&[])
    }

    /// Area score with the stones on `dead` points counted as captured: a dead stone's point
    /// is empty for the count and belongs to whoever surrounds it.
    pub fn area_with_dead(&self, dead: &[usize]) -> (usize, usize) {
        let owners = self.owners_with_dead(dead);
        let mut area = (0, 0);
        for p in self.board_points() {
            match owners[p] {
                BLACK => area.0 += 1,
                WHITE => area.1 += 1,
                _ => {}
            }
        }
        area
    }

    /// The owner of each mailbox point (`BLACK`, `WHITE` or `EMPTY` for dame and border) with
    /// the stones on `dead` removed.
    pub fn owners_with_dead(&self, dead: &[usize]) -> Vec<u8> {
        let n = self.points as usize;
        let mut col: Vec<u8> = self.colour[..n].to_vec();
        for &d in dead {
            if d < n && (col[d] == BLACK || col[d] == WHITE) {
                col[d] = EMPTY;
            }
        }
        let mut owner = vec![EMPTY; n];
        let mut region = vec![u32::MAX; n];
        let mut stack = Vec::new();
        let mut members = Vec::new();
        for p in self.board_points() {
            match col[p] {
                BLACK | WHITE => owner[p] = col[p],
                _ if region[p] == u32::MAX => {
                    // Flood the empty region, noting which colours it touches.
                    let mut touches = 0u8;
                    members.clear();
                    stack.push(p);
                    region[p] = p as u32;
                    while let Some(q) = stack.pop() {
                        members.push(q);
                        for r in self.neighbours(q) {
                            match col[r] {
                                EMPTY if region[r] == u32::MAX => {
                                    region[r] = p as u32;
                                    stack.push(r);
                                }
                                BLACK => touches |= 1,
                                WHITE => touches |= 2,
                                _ => {}
                            }
                        }
                    }
                    let o = match touches {
                        1 => BLACK,
                        2 => WHITE,
                        _ => EMPTY,
                    };
                    for &q in &members {
                        owner[q] = o;
                    }
                }
                _ => {}
            }
        }
        owner
    }

    /// Black's margin by area with `dead` stones removed: black area minus white area minus
    /// komi. (Dame split half to each side changes nothing in the margin.)
    pub fn score_with_dead(&self, dead: &[usize]) -> f32 {
        let (b, w) = self.area_with_dead(dead);
        b as f32 - w as f32 - self.komi
    }

    // ---------------------------------------------------------------------------------------
    // Text

    /// Reads a GTP vertex (`D4`, case-insensitive, no `I`) or `pass`.
    pub fn parse_vertex(&self, text: &str) -> Option<Move> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Some(Move::PASS);
        }
        let mut chars = t.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() || letter == 'I' {
            return None;
        }
        let mut x = (letter as u8 - b'A') as usize;
        if letter > 'I' {
            x -= 1;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let y: usize = digits.parse().ok()?;
        if x >= self.size() || y == 0 || y > self.size() {
            return None;
        }
        Some(Move::at(self.point(x, y - 1)))
    }

    /// Writes a move as a GTP vertex (`D4`, `pass`).
    pub fn vertex(&self, m: Move) -> String {
        match m.point() {
            None => "pass".to_string(),
            Some(p) => self.point_name(p),
        }
    }

    /// The GTP name of a board point.
    pub fn point_name(&self, p: usize) -> String {
        let (x, y) = self.coords(p);
        format!("{}{}", column_letter(x), y + 1)
    }

    /// A text diagram, top row first, with coordinates; `X` black, `O` white.
    pub fn diagram(&self) -> String {
        let n = self.size();
        let mut s = String::new();
        let header: String = (0..n).map(|x| format!(" {}", column_letter(x))).collect();
        s.push_str(&format!("   {header}\n"));
        for y in (0..n).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..n {
                let p = self.point(x, y);
                let ch = match self.colour[p] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ if self.last.0 as usize == p => '*',
                    _ => '.',
                };
                s.push(' ');
                s.push(ch);
            }
            s.push_str(&format!(" {}\n", y + 1));
        }
        s.push_str(&format!("   {header}"));
        s
    }

    /// Checks every incremental structure against a recomputation (tests and debugging).
    pub fn validate(&self) -> Result<(), String> {
        let mut empties = 0;
        let mut hash = 0;
        for p in self.board_points() {
            match self.colour[p] {
                EMPTY => {
                    empties += 1;
                    let i = self.empty_at[p] as usize;
                    if i >= self.n_empty as usize || self.empties[i] as usize != p {
                        return Err(format!("empty list broken at {}", self.point_name(p)));
                    }
                }
                c => {
                    hash ^= zobrist(c, p);
                    let g = self.head[p] as usize;
                    if self.colour[g] != c {
                        return Err(format!("bad head at {}", self.point_name(p)));
                    }
                    if g == p {
                        // Recount this group.
                        let (mut libs, mut sum, mut sq, mut size) = (0u32, 0u32, 0u32, 0);
                        for s in self.group_stones(g) {
                            if self.head[s] as usize != g || self.colour[s] != c {
                                return Err(format!("stone list broken at {}", self.point_name(s)));
                            }
                            size += 1;
                            for q in self.neighbours(s) {
                                if self.colour[q] == EMPTY {
                                    libs += 1;
                                    sum += q as u32;
                                    sq += (q * q) as u32;
                                }
                            }
                            // Same-colour neighbours must share the group.
                            for q in self.neighbours(s) {
                                if self.colour[q] == c && self.head[q] as usize != g {
                                    return Err(format!("unmerged at {}", self.point_name(q)));
                                }
                            }
                        }
                        let gr = &self.groups[g];
                        if libs == 0 {
                            return Err(format!("group without liberty at {}", self.point_name(g)));
                        }
                        if gr.libs as u32 != libs
                            || gr.lib_sum != sum
                            || gr.lib_sq != sq
                            || gr.size as usize != size
                        {
                            return Err(format!("group data wrong at {}", self.point_name(g)));
                        }
                    }
                }
            }
        }
        if empties != self.n_empty as usize {
            return Err("empty count wrong".into());
        }
        if hash != self.hash {
            return Err("hash wrong".into());
        }
        Ok(())
    }
}

#[inline]
fn add_lib(g: &mut Group, q: usize) {
    g.libs += 1;
    g.lib_sum += q as u32;
    g.lib_sq += (q * q) as u32;
}

#[inline]
fn remove_lib(g: &mut Group, q: usize) {
    g.libs -= 1;
    g.lib_sum -= q as u32;
    g.lib_sq -= (q * q) as u32;
}

/// The GTP column letter of column `x` (A..Z without I).
pub fn column_letter(x: usize) -> char {
    let c = b'A' + x as u8;
    (if c >= b'I' { c + 1 } else { c }) as char
}

/// Iterator over the stones of a group.
pub struct GroupStones<'a> {
    board: &'a Board,
    first: usize,
    cur: Option<usize>,
}

impl Iterator for GroupStones<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let s = self.cur?;
        let n = self.board.next[s] as usize;
        self.cur = (n != self.first).then_some(n);
        Some(s)
    }
}
