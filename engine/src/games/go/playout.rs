//! The playout policy and the prior knowledge of the tree: what the board knows about good
//! moves without searching, and its [`MctsState`] implementation.
//!
//! Scheme: a playout move is chosen by the first rule that yields a candidate, each tried
//! around the opponent's last move, the way the strong classic programs do it:
//! 1. *atari*: capture the last-moved group if it is in atari; save an own group next to the
//!    last move that is in atari, by capturing a neighbour in atari or by extending when that
//!    gives three liberties, or two that are no ladder;
//! 2. *vital point*: the middle of a three-point eye space next to the last move that only
//!    the last mover's stones enclose (what a capture inside a nakade leaves);
//! 3. *patterns*: a 3x3 shape move (see `patterns`) among the 8 neighbours of the last move;
//! 4. *fill the board* (13x13 and up): a few random tries for an empty point in open space;
//! 5. *random*: a uniformly random legal move that neither fills one's own eye nor puts a
//!    group of two or more stones into atari, unless that is a nakade (a group of at most
//!    three stones sacrificed inside the opponent's closed space, see `tactics`), which is
//!    how such a space is killed. No move left means pass.
//!
//! With `p_softmax` (off by default), rules 3 to 5 give way, at that chance a move, to a
//! draw from the softmax over learned playout features (`playout_features`, `softmax`):
//! every empty point weighed by the product of the gammas of its 3x3 shape with atari bits,
//! capture, extension, self-atari and nearness to the last move, fitted by MM on game records;
//! the weights are kept up to date move by move, and a drawn point the simple ko bans or that
//! is a bad self-atari (as above) is refused and the draw repeated. Rules 1 and 2 stay first:
//! they read more than the features see.
//!
//! More rules exist behind knobs (`knobs`), off by default because matches did not show them
//! paying for their cost: starting a ladder against the last-moved group, two-liberty attacks
//! and defences next to the last move, atari checks around our previous move, fighting a ko
//! captured in the last few moves (first of all), the last good reply to the last moves
//! (`replies`, after the atari rule), and approaching a group on two liberties from its other
//! liberty where the random move would be a self-atari.
//!
//! Candidates are gathered in small stack arrays and the empty points come from the board's
//! list, so a playout allocates nothing. Scoring at the end is by area: after a playout the
//! remaining empty points are eyes, owned by whoever surrounds them.
//!
//! Below 13x13 (its gammas were fitted on 9x9) the priors add (or, with `prior_learned_only`,
//! use instead) the learned Bradley-Terry move model of `move_features`, weighted by the
//! `prior_learned` knob, at nodes that reach `prior_learned_visits` visits (the tree's
//! `refine` hook): computing the model for every new node costs more than it gains. A move's
//! share of that weight is the square root of its strength over the best move's, or, with
//! `prior_learned_form 1`, of its probability under the model, then counted as wins only (as
//! Pachi counts its pattern prior), so an unlikely move gets almost no prior at all.
//!
//! The tree's priors use the same knowledge, as equivalent experience (virtual wins and
//! visits): captures, atari escapes, working ladders, two-liberty fights, patterns and
//! nearness to the last move (in the common fate graph) are encouraged; self-atari, running
//! into a ladder and passing are discouraged; own true eyes are never filled. On big boards,
//! in open areas, the third and fourth lines are encouraged and the first two discouraged, as
//! is the centre while nine tenths of the board are empty; the 3-3, 3-4 and 4-4 points of an
//! empty corner get more.

use arrayvec::ArrayVec;
use rand::rngs::SmallRng;
use rand::RngCore;

use super::board::{stone, Board, Move, BLACK, BORDER, EMPTY, WHITE};
use super::knobs::{self, K};
use super::move_features;
use super::patterns;
use super::replies::Replies;
use super::softmax::Softmax;
use crate::game::{MctsState, PlayoutEnd, Prior, Side};

/// A uniform integer below `n` (`n` > 0) from 32 random bits, without division.
#[inline]
fn below(rng: &mut SmallRng, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// True with probability `p / 256`.
#[inline]
fn chance(rng: &mut SmallRng, p: i32) -> bool {
    p >= 256 || (p > 0 && ((rng.next_u32() & 255) as i32) < p)
}

impl Board {
    /// Plays the game out from here with the playout policy until two passes in a row (or a
    /// move cap) and returns the result for the side to move at the start. Records every stone
    /// move as `(side, point)` in `trace`.
    pub fn run_playout(&mut self, rng: &mut SmallRng, trace: &mut Vec<(Side, u32)>) -> PlayoutEnd {
        let reply = knobs::get(K::P_REPLY) > 0;
        let soft = knobs::get(K::P_SOFTMAX) > 0;
        match (reply, soft) {
            (false, false) => self.run_playout_with::<false>(rng, trace, None, None),
            (true, false) => Replies::with(self.mailbox_len(), |r| {
                self.run_playout_with::<false>(rng, trace, Some(r), None)
            }),
            (false, true) => {
                Softmax::with(|s| self.run_playout_with::<true>(rng, trace, None, Some(s)))
            }
            (true, true) => Replies::with(self.mailbox_len(), |r| {
                Softmax::with(|s| self.run_playout_with::<true>(rng, trace, Some(r), Some(s)))
            }),
        }
    }

    /// [`run_playout`](Board::run_playout), consulting and teaching the last good replies
    /// when given, and keeping the softmax policy's weights when `SOFT` (and given). A
    /// separate copy for each, so the policy without the softmax runs the code it always
    /// did.
    pub(super) fn run_playout_with<const SOFT: bool>(
        &mut self,
        rng: &mut SmallRng,
        trace: &mut Vec<(Side, u32)>,
        mut replies: Option<&mut Replies>,
        mut soft: Option<&mut Softmax>,
    ) -> PlayoutEnd {
        let start = self.to_move();
        let point = |m: Move| m.point().unwrap_or(0) as u16;
        if let Some(r) = replies.as_deref_mut() {
            r.start(start, point(self.last_move2()), point(self.last_move()));
        }
        if let Some(s) = soft.as_deref_mut() {
            s.start(self);
        }
        // A finished game is judged by playing on: dead stones get captured.
        let mut passes = 0;
        let cap = 3 * self.size() * self.size() + 20;
        let mut moves = 0;
        while passes < 2 && moves < cap {
            let m = self.policy_move_with::<SOFT>(rng, replies.as_deref(), soft.as_deref_mut());
            match m.point() {
                Some(p) => {
                    trace.push((self.to_move(), p as u32));
                    passes = 0;
                }
                None => passes += 1,
            }
            if let Some(r) = replies.as_deref_mut() {
                r.push(point(m));
            }
            match (m.point(), soft.as_deref_mut()) {
                // The weights follow every move, whichever rule chose it.
                (Some(p), Some(s)) if SOFT => {
                    s.before_move(self, p, self.to_move());
                    self.play_fast(m);
                    s.after_move(self, p);
                }
                _ => self.play_fast(m),
            }
            moves += 1;
        }
        let margin = self.playout_margin();
        let black = match margin.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        };
        if let Some(r) = replies {
            let winner = if black > 0.5 {
                Some(Side::First)
            } else if black < 0.5 {
                Some(Side::Second)
            } else {
                None
            };
            r.learn(winner);
        }
        match start {
            Side::First => PlayoutEnd {
                value: black,
                score: margin,
            },
            Side::Second => PlayoutEnd {
                value: 1.0 - black,
                score: -margin,
            },
        }
    }

    /// Black's area margin at the end of a playout: stones, and empty points whose
    /// neighbours all have one colour.
    pub fn playout_margin(&self) -> f32 {
        let mut b = 0i32;
        let mut w = 0i32;
        for p in self.board_points() {
            match self.point_owner(p) {
                BLACK => b += 1,
                WHITE => w += 1,
                _ => {}
            }
        }
        (b - w) as f32 - self.komi()
    }

    /// The owner of a point after a playout: its stone's colour, or the single colour around
    /// an empty point, else `EMPTY`.
    #[inline]
    pub fn point_owner(&self, p: usize) -> u8 {
        let c = self.at(p);
        if c != EMPTY {
            return c;
        }
        let mut seen = 0u8;
        for q in self.neighbours(p) {
            let c = self.at(q);
            if c == BLACK || c == WHITE {
                seen |= c;
            }
        }
        match seen {
            BLACK => BLACK,
            WHITE => WHITE,
            _ => EMPTY,
        }
    }

    /// The playout policy's move for the side to move.
    pub fn policy_move(&self, rng: &mut SmallRng) -> Move {
        self.policy_move_with::<false>(rng, None, None)
    }

    /// [`policy_move`](Board::policy_move), with the last good replies when given, and with
    /// the softmax policy's weights when `SOFT` (and given; then their `chance` says how
    /// often the softmax stands in for the patterns, fill-the-board and the random move).
    pub(super) fn policy_move_with<const SOFT: bool>(
        &self,
        rng: &mut SmallRng,
        replies: Option<&Replies>,
        soft: Option<&mut Softmax>,
    ) -> Move {
        let side = self.to_move();
        // Rolled once a move, and only with the softmax on: off, the policy draws exactly
        // the random numbers it always did.
        let soft = if SOFT {
            soft.filter(|s| chance(rng, s.chance))
        } else {
            None
        };
        if chance(rng, knobs::get(K::P_KO)) {
            let age = knobs::get(K::KO_AGE).clamp(0, 255) as u8;
            if let Some(k) = self.recent_ko(age) {
                if self.is_legal_fast(k, side) && !self.is_bad_self_atari(k, side, rng) {
                    return Move::at(k);
                }
            }
        }
        if let Some(last) = self.last_move().point() {
            if self.at(last) != EMPTY {
                if chance(rng, knobs::get(K::P_ATARI)) {
                    if let Some(p) = self.atari_move(last, side, rng) {
                        return Move::at(p);
                    }
                }
                if let Some(r) = replies {
                    if chance(rng, knobs::get(K::P_REPLY)) {
                        let prev2 = self.last_move2().point().unwrap_or(0) as u16;
                        let p = r.reply(side, prev2, last as u16) as usize;
                        if p != 0
                            && self.is_legal_fast(p, side)
                            && !self.is_eye(p, side)
                            && !self.is_bad_self_atari(p, side, rng)
                        {
                            return Move::at(p);
                        }
                    }
                }
                if chance(rng, knobs::get(K::P_TWO_LIB)) {
                    if let Some(p) = self.two_lib_move(last, side, rng) {
                        return Move::at(p);
                    }
                }
                if chance(rng, knobs::get(K::P_VITAL)) {
                    if let Some(p) = self.vital_point(last, side) {
                        return Move::at(p);
                    }
                }
                // The softmax's pattern gammas stand in for the hand-written shapes.
                if soft.is_none() && chance(rng, knobs::get(K::P_PATTERN)) {
                    if let Some(p) = self.pattern_move(last, side, rng) {
                        return Move::at(p);
                    }
                }
            }
        }
        // Our own previous move's neighbourhood may hold a group in atari too.
        if let Some(prev) = self.last_move2().point() {
            if self.at(prev) != EMPTY && chance(rng, knobs::get(K::P_ATARI2)) {
                if let Some(p) = self.atari_move(prev, side, rng) {
                    return Move::at(p);
                }
            }
        }
        if let Some(s) = soft {
            return self.softmax_move(s, side, rng);
        }
        if self.is_big() && chance(rng, knobs::get(K::P_FILL)) {
            if let Some(p) = self.fill_board_move(rng) {
                return Move::at(p);
            }
        }
        self.random_move(side, rng)
    }

    /// A move drawn from the softmax over the playout features (see `softmax`): a drawn
    /// point the simple ko bans or that is a bad self-atari (as for the random move) is
    /// refused and the draw repeated; pass when nothing is left.
    fn softmax_move(&self, s: &mut Softmax, side: Side, rng: &mut SmallRng) -> Move {
        let found = s.draw(self, side, rng, |p, rng| {
            self.is_legal_fast(p, side) && !self.is_bad_self_atari(p, side, rng)
        });
        found.map_or(Move::PASS, Move::at)
    }

    /// A random empty point whose eight neighbours are all empty and on the board (MoGo's
    /// "fill the board"): on a big board the uniform random move mostly lands in the open
    /// or on the first line, where it says little about the position; a move in open space
    /// claims it the way real play does. A few tries only, so a crowded board costs little.
    pub(crate) fn fill_board_move(&self, rng: &mut SmallRng) -> Option<usize> {
        let n = self.empty_count();
        if n == 0 {
            return None;
        }
        for _ in 0..knobs::get(K::FILL_TRIES) {
            let p = self.empty_point(below(rng, n));
            // An all-empty neighbourhood (EMPTY is 0, the border is not) makes the move legal
            // (no ko, no suicide) and neither an eye nor a self-atari.
            if self.pattern3(p) == 0 {
                return Some(p);
            }
        }
        None
    }

    /// Groups next to the last move left with two liberties: take one from an opponent group
    /// when its answer on the other leaves it short (at most two liberties), and give an own
    /// group a third.
    fn two_lib_move(&self, last: usize, side: Side, rng: &mut SmallRng) -> Option<usize> {
        let mut cands: ArrayVec<u16, 16> = ArrayVec::new();
        self.two_lib_candidates(last, side, &mut cands);
        (!cands.is_empty()).then(|| cands[below(rng, cands.len())] as usize)
    }

    /// The moves of [`two_lib_move`](Board::two_lib_move).
    fn two_lib_candidates(&self, last: usize, side: Side, cands: &mut ArrayVec<u16, 16>) {
        let me = stone(side);
        let mut seen: ArrayVec<u16, 5> = ArrayVec::new();
        let nb = self.neighbours(last);
        for q in std::iter::once(last).chain(nb) {
            let c = self.at(q);
            if c == EMPTY || c == BORDER {
                continue;
            }
            let g = self.group_of(q);
            if seen.contains(&(g as u16)) {
                continue;
            }
            seen.push(g as u16);
            let Some(libs) = self.two_liberties(g) else {
                continue;
            };
            for i in 0..2 {
                let (a, e) = (libs[i], libs[1 - i]);
                if !self.is_legal_fast(a, side) || cands.is_full() {
                    continue;
                }
                let ours = self.libs_after(a, side, 3).0;
                if c == me {
                    // Extending must reach three liberties.
                    if ours >= 3 {
                        cands.push(a as u16);
                    }
                } else if ours >= 2 && self.libs_after(e, side.flip(), 4).0 <= 3 {
                    // An atari the opponent cannot answer by running into the open.
                    cands.push(a as u16);
                }
            }
        }
    }

    /// Capture the last-moved group in atari, or save an own group next to the last move.
    fn atari_move(&self, last: usize, side: Side, rng: &mut SmallRng) -> Option<usize> {
        let mut cands: ArrayVec<u16, 24> = ArrayVec::new();
        let me = stone(side);
        let gl = self.group_of(last);
        if self.in_atari(gl) {
            let lib = self.atari_liberty(gl);
            if self.is_legal_fast(lib, side) {
                cands.push(lib as u16);
            }
        } else if self.group_size(gl) as i32 <= knobs::get(K::LADDER_STONES) {
            // A small group on two liberties that a ladder catches.
            if let Some(a) = self.ladder_atari(gl, side) {
                cands.push(a as u16);
            }
        }
        let mut seen: ArrayVec<u16, 4> = ArrayVec::new();
        for q in self.neighbours(last) {
            if self.at(q) != me {
                continue;
            }
            let g = self.group_of(q);
            if seen.contains(&(g as u16)) || !self.in_atari(g) {
                continue;
            }
            seen.push(g as u16);
            self.escapes(g, side, &mut cands);
        }
        (!cands.is_empty()).then(|| cands[below(rng, cands.len())] as usize)
    }

    /// Moves that save own group `g` in atari: capturing an adjacent enemy group in atari, or
    /// extending at the liberty when that gives at least two liberties.
    fn escapes<const N: usize>(&self, g: usize, side: Side, out: &mut ArrayVec<u16, N>) {
        let enemy = stone(side.flip());
        let mut checked: ArrayVec<u16, 8> = ArrayVec::new();
        'stones: for s in self.group_stones(g) {
            for q in self.neighbours(s) {
                if self.at(q) != enemy {
                    continue;
                }
                let e = self.group_of(q);
                if checked.contains(&(e as u16)) {
                    continue;
                }
                if checked.is_full() {
                    break 'stones;
                }
                checked.push(e as u16);
                if self.in_atari(e) {
                    let lib = self.atari_liberty(e);
                    if self.is_legal_fast(lib, side)
                        && !out.is_full()
                        && !out.contains(&(lib as u16))
                    {
                        out.push(lib as u16);
                    }
                }
            }
        }
        let lib = self.atari_liberty(g);
        if self.is_legal_fast(lib, side) && !out.is_full() && !out.contains(&(lib as u16)) {
            // Running helps only with three liberties, or two that are not a ladder.
            let libs = self.libs_after(lib, side, 3).0;
            if libs >= 3 || (libs == 2 && !self.extends_into_ladder(lib, side)) {
                out.push(lib as u16);
            }
        }
    }

    /// The vital point of a three-point eye space next to the last move, enclosed by the last
    /// mover's stones alone (as a capture inside a nakade leaves it): the middle point, which
    /// leaves the space one eye. `side` (the other player) takes it.
    // Inlined as before there were two policies calling it: the default policy's code does
    // not change with the softmax's.
    #[inline(always)]
    pub fn vital_point(&self, last: usize, side: Side) -> Option<usize> {
        let owner = self.at(last);
        for q in self.neighbours(last) {
            if self.at(q) != EMPTY {
                continue;
            }
            // The empty region of q, given up past three points or at any other colour.
            let mut region: ArrayVec<u16, 4> = ArrayVec::new();
            region.push(q as u16);
            let mut i = 0;
            let mut closed = true;
            'flood: while i < region.len() {
                let r = region[i] as usize;
                i += 1;
                for t in self.neighbours(r) {
                    let c = self.at(t);
                    if c == EMPTY {
                        if !region.contains(&(t as u16)) {
                            if region.len() == 3 {
                                closed = false;
                                break 'flood;
                            }
                            region.push(t as u16);
                        }
                    } else if c != BORDER && c != owner {
                        closed = false;
                        break 'flood;
                    }
                }
            }
            if !closed || region.len() != 3 {
                continue;
            }
            // The middle point touches both others.
            let Some(vital) = region.iter().map(|&r| r as usize).find(|&r| {
                self.neighbours(r)
                    .iter()
                    .filter(|&&t| region.contains(&(t as u16)))
                    .count()
                    == 2
            }) else {
                continue;
            };
            if self.is_legal_fast(vital, side) {
                return Some(vital);
            }
        }
        None
    }

    /// A 3x3 pattern move among the neighbours of the last move.
    // Inlined as before there were two policies calling it: the default policy's code does
    // not change with the softmax's.
    #[inline(always)]
    fn pattern_move(&self, last: usize, side: Side, rng: &mut SmallRng) -> Option<usize> {
        let mut cands: ArrayVec<u16, 8> = ArrayVec::new();
        let s = self.stride();
        for p in [
            last + s,
            last - s,
            last + 1,
            last - 1,
            last + s + 1,
            last + s - 1,
            last - s + 1,
            last - s - 1,
        ] {
            if self.at(p) == EMPTY
                && patterns::matches(self.pattern3(p), side)
                && self.is_legal_fast(p, side)
                && !self.is_self_atari(p, side)
            {
                cands.push(p as u16);
            }
        }
        (!cands.is_empty()).then(|| cands[below(rng, cands.len())] as usize)
    }

    /// A random legal move that fills no own eye and puts no group of two stones or more into
    /// atari (but for a nakade); pass when there is none.
    // Inlined as before there were two policies calling it: the default policy's code does
    // not change with the softmax's.
    #[inline(always)]
    fn random_move(&self, side: Side, rng: &mut SmallRng) -> Move {
        let n = self.empty_count();
        if n == 0 {
            return Move::PASS;
        }
        let start = below(rng, n);
        for i in 0..n {
            let mut k = start + i;
            if k >= n {
                k -= n;
            }
            let p = self.empty_point(k);
            if self.is_eye(p, side) || !self.is_legal_fast(p, side) {
                continue;
            }
            if self.is_bad_self_atari(p, side, rng) {
                if chance(rng, knobs::get(K::P_SELF_ATARI_OTHER)) {
                    if let Some(q) = self.approach_instead(p, side, rng) {
                        return Move::at(q);
                    }
                }
                continue;
            }
            return Move::at(p);
        }
        Move::PASS
    }

    /// For a self-atari at `p` next to an opponent group on two liberties: that group's other
    /// liberty, when it is playable and no bad self-atari itself. Approaching from outside
    /// is how a capturing race is won where the inside liberty would only give stones away.
    fn approach_instead(&self, p: usize, side: Side, rng: &mut SmallRng) -> Option<usize> {
        let enemy = stone(side.flip());
        for q in self.neighbours(p) {
            if self.at(q) != enemy {
                continue;
            }
            let Some([a, b]) = self.two_liberties(self.group_of(q)) else {
                continue;
            };
            let other = if a == p { b } else { a };
            if other != p
                && self.is_legal_fast(other, side)
                && !self.is_eye(other, side)
                && !self.is_bad_self_atari(other, side, rng)
            {
                return Some(other);
            }
        }
        None
    }

    /// A self-atari that gives away a group of two stones or more (or, sometimes, one), unless
    /// it is a nakade.
    #[inline]
    fn is_bad_self_atari(&self, p: usize, side: Side, rng: &mut SmallRng) -> bool {
        let mut empty = 0;
        for q in self.neighbours(p) {
            empty += (self.at(q) == EMPTY) as u32;
        }
        if empty >= 2 {
            return false;
        }
        let (libs, size) = self.libs_after(p, side, 2);
        if libs >= 2 {
            return false;
        }
        if size == 1 {
            return chance(rng, knobs::get(K::SINGLE_SELF_ATARI));
        }
        !self.is_nakade(p, side, knobs::get(K::NAKADE).max(0) as usize)
    }

    /// Whether the board is big ([`super::board::is_big_size`]): the playouts fill open
    /// space, the priors favour the corners and the third and fourth lines, and the learned
    /// priors use the gammas fitted on 19x19.
    pub(super) fn is_big(&self) -> bool {
        super::board::is_big_size(self.size())
    }

    /// When the learned priors join a node: `None` where they are off (the `prior_learned`
    /// knob at 0, or no gammas for this board size), else at that many visits (0: when the
    /// node is made).
    fn learned_prior_visits(&self) -> Option<u32> {
        if knobs::get(K::PRIOR_LEARNED) <= 0 || move_features::gammas(self).is_empty() {
            return None;
        }
        Some(knobs::get(K::PRIOR_LEARNED_VISITS).max(0) as u32)
    }

    /// The tree's candidate moves with priors (see the module doc). With
    /// `prior_learned_visits` set, a new node gets the hand-written priors alone and the
    /// learned ones join at that many visits ([`Board::busy_priors`]).
    pub fn priors(&self, out: &mut Vec<Prior<Move>>) {
        self.priors_with(out, self.learned_prior_visits() == Some(0));
    }

    /// The priors of a node the search keeps returning to: the learned ones included
    /// wherever they are on.
    pub fn busy_priors(&self, out: &mut Vec<Prior<Move>>) {
        self.priors_with(out, self.learned_prior_visits().is_some());
    }

    fn priors_with(&self, out: &mut Vec<Prior<Move>>, with_learned: bool) {
        let side = self.to_move();
        let me = stone(side);
        let enemy = stone(side.flip());
        let n = self.size();
        let big = self.is_big();
        let last = self.last_move().point().filter(|&l| self.at(l) != EMPTY);

        // Local knowledge: escapes of own groups in atari (anywhere), extensions that run
        // into a ladder, ataris that start a working ladder, and the playouts' two-liberty
        // moves around the last move.
        let mut escapes: ArrayVec<u16, 64> = ArrayVec::new();
        let mut ladder_runs: ArrayVec<u16, 32> = ArrayVec::new();
        let mut ladder_ataris: ArrayVec<u16, 32> = ArrayVec::new();
        for p in self.board_points() {
            let c = self.at(p);
            if (c != me && c != enemy) || self.group_of(p) != p {
                continue;
            }
            if c == me && self.in_atari(p) {
                if !escapes.is_full() {
                    self.escapes(p, side, &mut escapes);
                }
                let lib = self.atari_liberty(p);
                if !ladder_runs.is_full() && self.extends_into_ladder(lib, side) {
                    ladder_runs.push(lib as u16);
                }
            } else if c == enemy && self.group_size(p) <= 12 && !ladder_ataris.is_full() {
                if let Some(a) = self.ladder_atari(p, side) {
                    ladder_ataris.push(a as u16);
                }
            }
        }
        let mut two_lib: ArrayVec<u16, 16> = ArrayVec::new();
        if let Some(l) = last {
            self.two_lib_candidates(l, side, &mut two_lib);
        }
        // Equivalent experience grows on big boards, where playouts are noisier.
        let scale = if big { 20.0 / 14.0 } else { 1.0 };
        let eq = |k: K| knobs::get(k) as f32 * scale;
        let ladder_k = eq(K::PRIOR_LADDER);
        let two_lib_k = eq(K::PRIOR_TWO_LIB);
        let even = eq(K::PRIOR_EVEN);
        let capture_k = eq(K::PRIOR_CAPTURE);
        let escape_k = eq(K::PRIOR_ESCAPE);
        let self_atari_k = eq(K::PRIOR_SELF_ATARI);
        let pattern_k = eq(K::PRIOR_PATTERN);
        let nakade = knobs::get(K::NAKADE).max(0) as usize;
        // Nearness to the last move in the common fate graph (a group is one node).
        let mut cfg = [u8::MAX; super::board::MAX_POINTS];
        if let Some(l) = last {
            self.cfg_distances(l, 3, &mut cfg);
        }
        let near_big = if big { 10.0 } else { 0.0 };
        let cfg_k = [
            knobs::get(K::PRIOR_CFG1) as f32 + near_big,
            knobs::get(K::PRIOR_CFG2) as f32 + near_big,
            knobs::get(K::PRIOR_CFG3) as f32,
        ];
        let opening = big && self.empty_count() * 10 > n * n * 9;
        let line1_k = eq(K::PRIOR_LINE1);
        let line3_k = eq(K::PRIOR_LINE3);
        let corner_k = eq(K::PRIOR_CORNER);
        // The learned priors (see `move_features`): each move's strength relative to the
        // best move's, as wins out of `learned_k` visits.
        let learned_k = eq(K::PRIOR_LEARNED);
        // Whether they are on here is `learned_prior_visits`'s to say.
        let learned = with_learned;
        let hand = !(learned && knobs::get(K::PRIOR_LEARNED_ONLY) != 0);
        let probability_form = knobs::get(K::PRIOR_LEARNED_FORM) == 1;
        // On the stack: the search allocates nothing per node.
        let mut learned_moves: ArrayVec<Move, { super::board::MAX_POINTS }> = ArrayVec::new();
        let mut strengths: ArrayVec<f32, { super::board::MAX_POINTS }> = ArrayVec::new();
        if learned {
            for i in 0..self.empty_count() {
                let p = self.empty_point(i);
                if !self.is_eye(p, side) && self.check(Move::at(p)).is_ok() {
                    learned_moves.push(Move::at(p));
                }
            }
            move_features::move_strengths(self, &learned_moves, &mut strengths);
            // The strengths become the share of `learned_k` a move wins: relative to the best
            // move's, or (form 1, all wins) as the move's probability under the model.
            let norm = if probability_form {
                strengths.iter().sum::<f32>()
            } else {
                strengths.iter().cloned().fold(0.0, f32::max)
            }
            .max(f32::MIN_POSITIVE);
            for s in &mut strengths {
                *s = (*s / norm).sqrt();
            }
        }
        let mut next_learned = 0;
        for i in 0..self.empty_count() {
            let p = self.empty_point(i);
            if self.is_eye(p, side) || self.check(Move::at(p)).is_err() {
                continue;
            }
            let mut visits = even;
            let mut wins = even / 2.0;
            if learned {
                // Same order as `learned_moves`.
                let r = strengths[next_learned];
                next_learned += 1;
                // Form 1 counts wins only: as many visits as wins.
                visits += if probability_form {
                    learned_k * r
                } else {
                    learned_k
                };
                wins += learned_k * r;
            }
            if !hand {
                out.push(Prior {
                    mv: Move::at(p),
                    visits,
                    value: wins / visits,
                });
                continue;
            }
            let mut bonus = |v: f32, w: f32| {
                visits += v;
                wins += w;
            };
            // Captures.
            let mut captures = 0;
            for q in self.neighbours(p) {
                if self.at(q) == enemy && self.in_atari(self.group_of(q)) {
                    captures += self.group_size(self.group_of(q));
                }
            }
            if captures > 0 {
                let k = capture_k + 5.0 * scale * (captures.min(6) as f32);
                bonus(k, k);
            }
            if escapes.contains(&(p as u16)) {
                bonus(escape_k, escape_k);
            }
            if ladder_runs.contains(&(p as u16)) {
                bonus(ladder_k, 0.0);
            }
            if ladder_ataris.contains(&(p as u16)) {
                bonus(ladder_k, ladder_k);
            }
            if two_lib.contains(&(p as u16)) {
                bonus(two_lib_k, two_lib_k);
            }
            let (libs, size) = self.libs_after(p, side, 2);
            if libs < 2 && captures == 0 && !(size >= 2 && self.is_nakade(p, side, nakade)) {
                // Self-atari: bad, the more stones the worse (a nakade is no mistake).
                let k = if size >= 2 {
                    self_atari_k
                } else {
                    self_atari_k / 3.0
                };
                bonus(k, 0.0);
            }
            if patterns::matches(self.pattern3(p), side) {
                bonus(pattern_k, pattern_k);
            }
            match cfg[p] {
                1 => bonus(cfg_k[0], cfg_k[0]),
                2 => bonus(cfg_k[1], cfg_k[1]),
                3 => bonus(cfg_k[2], cfg_k[2]),
                _ => {}
            }
            if big {
                let (x, y) = self.coords(p);
                let line = x.min(y).min(n - 1 - x).min(n - 1 - y);
                if self.empty_around(p, 2) {
                    match line {
                        0 | 1 => bonus(line1_k, 0.0),
                        2 | 3 => bonus(line3_k, line3_k),
                        // The open centre before the corners and sides are taken.
                        _ if opening => bonus(line1_k / 2.0, 0.0),
                        _ => {}
                    }
                    // The 3-3, 3-4 and 4-4 points of a corner still empty: corners first.
                    let (lx, ly) = (x.min(n - 1 - x), y.min(n - 1 - y));
                    if (2..=3).contains(&lx) && (2..=3).contains(&ly) && self.empty_around(p, 3) {
                        bonus(corner_k, corner_k);
                    }
                }
            }
            out.push(Prior {
                mv: Move::at(p),
                visits,
                value: wins / visits,
            });
        }
        out.push(Prior {
            mv: Move::PASS,
            visits: knobs::get(K::PRIOR_PASS) as f32,
            value: if out.is_empty() { 0.5 } else { 0.1 },
        });
    }

    /// Distances from the group at `from` in the common fate graph, where a group is one
    /// node: its liberties are at 1, their other neighbours at 2, and so on, a whole group at
    /// once. Points farther than `max` stay at `u8::MAX`.
    pub fn cfg_distances(&self, from: usize, max: u8, dist: &mut [u8; super::board::MAX_POINTS]) {
        let mut queue: ArrayVec<u16, { super::board::MAX_POINTS }> = ArrayVec::new();
        let reach = |q: usize,
                     d: u8,
                     dist: &mut [u8; super::board::MAX_POINTS],
                     queue: &mut ArrayVec<u16, { super::board::MAX_POINTS }>| {
            let c = self.at(q);
            if c == BORDER || dist[q] != u8::MAX {
                return;
            }
            if c == EMPTY {
                dist[q] = d;
                queue.push(q as u16);
            } else {
                for s in self.group_stones(self.group_of(q)) {
                    dist[s] = d;
                    queue.push(s as u16);
                }
            }
        };
        reach(from, 0, dist, &mut queue);
        let mut i = 0;
        while i < queue.len() {
            let q = queue[i] as usize;
            i += 1;
            let d = dist[q];
            if d >= max {
                continue;
            }
            for r in self.neighbours(q) {
                reach(r, d + 1, dist, &mut queue);
            }
        }
    }

    /// Whether every point within Manhattan distance `d` of `p` is empty or off the board.
    fn empty_around(&self, p: usize, d: usize) -> bool {
        let (x, y) = self.coords(p);
        let n = self.size() as i32;
        let d = d as i32;
        for dy in -d..=d {
            for dx in -(d - dy.abs())..=(d - dy.abs()) {
                let (qx, qy) = (x as i32 + dx, y as i32 + dy);
                if qx < 0 || qy < 0 || qx >= n || qy >= n {
                    continue;
                }
                let q = self.point(qx as usize, qy as usize);
                let c = self.at(q);
                if c != EMPTY && c != BORDER {
                    return false;
                }
            }
        }
        true
    }
}

impl MctsState for Board {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Side {
        Board::to_move(self)
    }

    fn key(&self) -> u64 {
        let mut k = self.hash() ^ (self.ko_point().unwrap_or(0) as u64).wrapping_mul(0x9e37_79b9);
        if Board::to_move(self) == Side::Second {
            k ^= 0x5555_5555_5555_5555;
        }
        k ^ (self.passes().min(2) as u64) << 60
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.passes() >= 2
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        for i in 0..self.empty_count() {
            let m = Move::at(self.empty_point(i));
            if self.is_legal(m) {
                out.push(m);
            }
        }
        out.push(Move::PASS);
    }

    fn expand(&self, out: &mut Vec<Prior<Move>>) {
        self.priors(out);
    }

    fn refine_visits(&self) -> u32 {
        self.learned_prior_visits().unwrap_or(0)
    }

    fn refine(&self, out: &mut Vec<Prior<Move>>) {
        self.busy_priors(out);
    }

    #[inline]
    fn play(&mut self, m: Move) {
        Board::play(self, m);
    }

    #[inline]
    fn move_index_space(&self) -> usize {
        self.mailbox_len()
    }

    #[inline]
    fn move_index(&self, m: Move) -> usize {
        m.0 as usize
    }

    #[inline]
    fn index_move(&self, index: usize) -> Move {
        Move(index as u16)
    }

    #[inline]
    fn amaf_eligible(&self, m: Move) -> bool {
        !m.is_pass()
    }

    fn playout(&mut self, rng: &mut SmallRng, trace: &mut Vec<(Side, u32)>) -> PlayoutEnd {
        self.run_playout(rng, trace)
    }

    fn cells(&self) -> usize {
        self.size() * self.size()
    }

    #[inline]
    fn cell_owner(&self, cell: usize) -> Option<Side> {
        let n = self.size();
        let p = self.point(cell % n, cell / n);
        match self.point_owner(p) {
            BLACK => Some(Side::First),
            WHITE => Some(Side::Second),
            _ => None,
        }
    }
}
