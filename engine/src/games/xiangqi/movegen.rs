//! Move generation and legality for xiangqi.
//!
//! Scheme: pseudo-legal generation over the piece slots on the padded mailbox (chariot and
//! cannon rays walk until a non-empty cell; horse legs, elephant eyes, the palace and the
//! river are table lookups), with captures and quiet moves generated separately or together
//! through const generics, so a `Noisy` or `Quiet` list costs no per-move branch.
//!
//! Legality is a cheap filter over the position's check information (`Core::guard`): out of
//! check, a move that is not the general's and touches no danger point is legal without
//! further work, and one through a danger point re-examines only the line or horse leg through
//! it; in check, a move touching none of the parry points is illegal at once. Only general
//! moves and possible parries pay for the full attack test, which looks from the enemy pieces
//! that can attack through the hypothetical move.

use crate::game::{MoveList, Side};

use super::board::{Board, Core, Guard};
use super::geometry::{
    forward, side_bit, Sq, E, ELEPHANT_STEPS, HALF, HORSE_ATTACKS, HORSE_STEPS, IN_BOARD, N,
    PALACE, S, W,
};
use super::moves::Move;
use super::piece::{code, general_id, side_mask, Kind, CODE, KIND_OF, OFF};

impl Core {
    /// Appends the pseudo-legal moves of the side to move: captures if `CAPS`, quiet moves if
    /// `QUIETS`.
    pub(crate) fn generate<const CAPS: bool, const QUIETS: bool>(&self, out: &mut MoveList<Move>) {
        let us = self.side;
        let own = side_mask(us);
        let base = own;
        let cells = &self.cells;

        macro_rules! target {
            ($from:expr, $to:expr) => {{
                let c = cells[$to as usize];
                if c == 0 {
                    if QUIETS {
                        out.push(Move::mb($from, $to));
                    }
                } else if CAPS && c & own == 0 {
                    out.push(Move::mb($from, $to));
                }
            }};
        }

        // Chariots.
        for id in base + 7..base + 9 {
            let from = self.sq_of[id as usize];
            if from == 0 {
                continue;
            }
            for d in [N, S, E, W] {
                let mut to = from.wrapping_add(d);
                loop {
                    let c = cells[to as usize];
                    if c == 0 {
                        if QUIETS {
                            out.push(Move::mb(from, to));
                        }
                        to = to.wrapping_add(d);
                        continue;
                    }
                    if CAPS && c & own == 0 {
                        out.push(Move::mb(from, to));
                    }
                    break;
                }
            }
        }
        // Cannons: move like a chariot, capture over exactly one screen.
        for id in base + 9..base + 11 {
            let from = self.sq_of[id as usize];
            if from == 0 {
                continue;
            }
            for d in [N, S, E, W] {
                let mut to = from.wrapping_add(d);
                let mut c = cells[to as usize];
                while c == 0 {
                    if QUIETS {
                        out.push(Move::mb(from, to));
                    }
                    to = to.wrapping_add(d);
                    c = cells[to as usize];
                }
                if !CAPS || c == super::piece::OFF {
                    continue;
                }
                to = to.wrapping_add(d);
                c = cells[to as usize];
                while c == 0 {
                    to = to.wrapping_add(d);
                    c = cells[to as usize];
                }
                if c & own == 0 {
                    out.push(Move::mb(from, to));
                }
            }
        }
        // Horses.
        for id in base + 5..base + 7 {
            let from = self.sq_of[id as usize];
            if from == 0 {
                continue;
            }
            for (step, leg) in HORSE_STEPS {
                let to = from.wrapping_add(step);
                if cells[from.wrapping_add(leg) as usize] == 0 {
                    target!(from, to);
                }
            }
        }
        // Soldiers: forward; sideways too once across the river.
        let fwd = forward(us);
        let home = side_bit(us);
        for id in base + 11..base + 16 {
            let from = self.sq_of[id as usize];
            if from == 0 {
                continue;
            }
            target!(from, from.wrapping_add(fwd));
            if HALF[from as usize] & home == 0 {
                target!(from, from.wrapping_add(E));
                target!(from, from.wrapping_add(W));
            }
        }
        // Elephants: two points diagonally, eye empty, never across the river.
        for id in base + 3..base + 5 {
            let from = self.sq_of[id as usize];
            if from == 0 {
                continue;
            }
            for (step, eye) in ELEPHANT_STEPS {
                let to = from.wrapping_add(step);
                if HALF[to as usize] & home != 0 && cells[from.wrapping_add(eye) as usize] == 0 {
                    target!(from, to);
                }
            }
        }
        // Advisors: one point diagonally inside the palace.
        for id in base + 1..base + 3 {
            let from = self.sq_of[id as usize];
            if from == 0 {
                continue;
            }
            for d in super::geometry::DIAG {
                let to = from.wrapping_add(d);
                if PALACE[to as usize] & home != 0 {
                    target!(from, to);
                }
            }
        }
        // General: one point orthogonally inside the palace.
        let from = self.sq_of[base as usize];
        if from != 0 {
            for d in [N, S, E, W] {
                let to = from.wrapping_add(d);
                if PALACE[to as usize] & home != 0 {
                    target!(from, to);
                }
            }
        }
    }

    /// Whether `m` is a move [`generate`](Core::generate) could produce here. Total: any value.
    #[inline]
    pub(crate) fn is_pseudo_legal(&self, m: Move) -> bool {
        self.pseudo_legal_for(self.side, m)
    }

    /// Whether `m` would be a pseudo-legal move of `us` in this placement, whoever is to move.
    pub(crate) fn pseudo_legal_for(&self, us: Side, m: Move) -> bool {
        let from = m.src();
        let to = m.dst();
        if !IN_BOARD[from as usize] || !IN_BOARD[to as usize] || from == to {
            return false;
        }
        let own = side_mask(us);
        let pid = self.cells[from as usize];
        if pid & own == 0 {
            // Empty or the opponent's (off-board cells were excluded above).
            return false;
        }
        let target = self.cells[to as usize];
        if target & own != 0 {
            return false;
        }
        let diff = to.wrapping_sub(from);
        let home = side_bit(us);
        match KIND_OF[pid as usize] {
            Kind::General => matches!(diff, N | S | E | W) && PALACE[to as usize] & home != 0,
            Kind::Advisor => {
                super::geometry::DIAG.contains(&diff) && PALACE[to as usize] & home != 0
            }
            Kind::Elephant => ELEPHANT_STEPS.iter().any(|&(step, eye)| {
                step == diff
                    && HALF[to as usize] & home != 0
                    && self.cells[from.wrapping_add(eye) as usize] == 0
            }),
            Kind::Horse => HORSE_STEPS.iter().any(|&(step, leg)| {
                step == diff && self.cells[from.wrapping_add(leg) as usize] == 0
            }),
            Kind::Soldier => {
                diff == forward(us) || (HALF[from as usize] & home == 0 && (diff == E || diff == W))
            }
            kind @ (Kind::Chariot | Kind::Cannon) => {
                let d = if (from ^ to) & 15 == 0 {
                    if to > from {
                        N
                    } else {
                        S
                    }
                } else if (from ^ to) >> 4 == 0 {
                    if to > from {
                        E
                    } else {
                        W
                    }
                } else {
                    return false;
                };
                let mut between = 0;
                let mut t = from.wrapping_add(d);
                while t != to {
                    if self.cells[t as usize] != 0 {
                        between += 1;
                    }
                    t = t.wrapping_add(d);
                }
                if kind == Kind::Chariot || target == 0 {
                    between == 0
                } else {
                    between == 1
                }
            }
        }
    }

    /// Whether a pseudo-legal move is legal, given the position's check information.
    #[inline(always)]
    pub(crate) fn is_legal(&self, guard: &Guard, m: Move) -> bool {
        // Most moves: not in check, not the general, no danger point touched.
        if guard.checkers == 0
            && !guard.danger.has(m.src())
            && !guard.danger.has(m.dst())
            && self.cells[m.src() as usize] != general_id(self.side)
        {
            return true;
        }
        self.is_legal_slow(guard, m)
    }

    /// The rest of [`is_legal`](Core::is_legal), kept out of line so the common path inlines.
    #[inline(never)]
    fn is_legal_slow(&self, guard: &Guard, m: Move) -> bool {
        let from = m.src();
        let to = m.dst();
        let us = self.side;
        let gid = general_id(us);
        if self.cells[from as usize] != gid {
            if guard.checkers == 0 {
                // Not in check and not the general: only a line or a horse leg through a
                // danger point can open.
                let k = self.sq_of[gid as usize];
                let opened =
                    |p: Sq| guard.danger.has(p) && self.exposed_through(k, p, from, to, us);
                return !opened(from) && !opened(to);
            }
            if !guard.danger.has(from) && !guard.danger.has(to) {
                // In check, and the move touches nothing that could parry it.
                return false;
            }
        }
        let k = if self.cells[from as usize] == gid {
            to
        } else {
            self.sq_of[gid as usize]
        };
        !self.attacked_after(k, from, to, us)
    }

    /// Whether, once the piece on `from` has moved to `to`, `us`'s general on `k` is attacked
    /// along the line from `k` through the danger point `p`, or by a horse whose leg `p` is.
    /// (The attacks a non-general move can open when the general was not in check.)
    fn exposed_through(&self, k: Sq, p: Sq, from: Sq, to: Sq, us: Side) -> bool {
        let them = us.flip();
        let mine = side_mask(us);
        let get = |s: Sq| -> u8 {
            if s == to {
                mine
            } else if s == from {
                0
            } else {
                self.cells[s as usize]
            }
        };
        let d = if (p ^ k) & 15 == 0 {
            if p > k {
                N
            } else {
                S
            }
        } else if (p ^ k) >> 4 == 0 {
            if p > k {
                E
            } else {
                W
            }
        } else {
            // A horse leg: the two horse points behind it.
            let horse = code(them, Kind::Horse);
            let leg = p.wrapping_sub(k);
            return get(p) == 0
                && HORSE_ATTACKS
                    .iter()
                    .any(|&(h, l)| l == leg && CODE[get(k.wrapping_add(h)) as usize] == horse);
        };
        let mut s = k.wrapping_add(d);
        let mut c = get(s);
        while c == 0 {
            s = s.wrapping_add(d);
            c = get(s);
        }
        if c == OFF {
            return false;
        }
        let pc = CODE[c as usize];
        if pc == code(them, Kind::Chariot) || pc == code(them, Kind::General) {
            return true;
        }
        s = s.wrapping_add(d);
        c = get(s);
        while c == 0 {
            s = s.wrapping_add(d);
            c = get(s);
        }
        CODE[c as usize] == code(them, Kind::Cannon)
    }

    /// Whether the pseudo-legal move `m` of the side to move attacks the enemy general once
    /// made (the facing general counts, as in [`guard`](Core::guard); a legal move never
    /// makes the generals face). Reads the cells through the hypothetical move.
    ///
    /// First the moved piece from its target: a chariot or cannon along an open line or over
    /// exactly one screen, a horse through an empty leg, a soldier next to the general. Then the
    /// other pieces, but only when the move touches a point that can change their attacks:
    /// the origin or the target on the general's file or rank (a chariot or cannon line
    /// opened, a cannon screen added or taken away) or the origin diagonally next to the
    /// general (a horse leg emptied). Most moves touch none and cost a few comparisons.
    pub(crate) fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let from = m.src();
        let to = m.dst();
        let ek = self.general_sq(us.flip());
        let pid = self.cells[from as usize];
        if ek == 0 || CODE[pid as usize] == super::piece::NO_CODE {
            return false;
        }
        let get = |s: Sq| -> u8 {
            if s == to {
                pid
            } else if s == from {
                0
            } else {
                self.cells[s as usize]
            }
        };
        // Pieces between `ek` and `s` along a shared file or rank (None off the lines).
        let screens = |s: Sq| -> Option<u8> {
            let d = if (s ^ ek) & 15 == 0 {
                if s > ek {
                    N
                } else {
                    S
                }
            } else if (s ^ ek) >> 4 == 0 {
                if s > ek {
                    E
                } else {
                    W
                }
            } else {
                return None;
            };
            let mut count = 0;
            let mut t = ek.wrapping_add(d);
            while t != s {
                count += (get(t) != 0) as u8;
                t = t.wrapping_add(d);
            }
            Some(count)
        };
        let leg_open = |h: Sq| -> bool {
            let leg = super::board::HORSE_LEG_FROM_TARGET[h.wrapping_sub(ek) as usize];
            leg != 0 && get(ek.wrapping_add(leg)) == 0
        };
        let direct = match KIND_OF[pid as usize] {
            Kind::Chariot | Kind::General => screens(to) == Some(0),
            Kind::Cannon => screens(to) == Some(1),
            Kind::Horse => leg_open(to),
            Kind::Soldier => {
                // A soldier next to the enemy palace has crossed the river: it attacks forward
                // and sideways.
                let d = ek.wrapping_sub(to);
                d == forward(us) || d == E || d == W
            }
            Kind::Advisor | Kind::Elephant => false,
        };
        if direct {
            return true;
        }
        let on_lines = |s: Sq| (s ^ ek) & 15 == 0 || (s ^ ek) >> 4 == 0;
        let beside = super::geometry::DIAG.contains(&from.wrapping_sub(ek));
        if !on_lines(from) && !on_lines(to) && !beside {
            return false;
        }
        let base = side_mask(us);
        for slot in [0u8, 7, 8, 9, 10] {
            let id = base + slot;
            let s = self.sq_of[id as usize];
            if s == 0 || id == pid {
                continue;
            }
            if screens(s) == Some((slot >= 9) as u8) {
                return true;
            }
        }
        if beside {
            for slot in [5u8, 6] {
                let id = base + slot;
                let s = self.sq_of[id as usize];
                if s != 0 && id != pid && leg_open(s) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move has any legal move (stops at the first).
    pub(crate) fn has_legal_move(&self, guard: &Guard) -> bool {
        let mut moves = MoveList::new();
        self.generate::<true, true>(&mut moves);
        moves.iter().any(|&m| self.is_legal(guard, m))
    }

    /// Whether `us` may legally move the piece on `from` to `to` (capturing there) in this
    /// placement, whoever is to move: pseudo-legal, and its general not attacked afterwards.
    pub(crate) fn can_move(&self, us: Side, from: Sq, to: Sq) -> bool {
        if !self.pseudo_legal_for(us, Move::mb(from, to)) {
            return false;
        }
        let gid = general_id(us);
        let k = if self.cells[from as usize] == gid {
            to
        } else {
            self.sq_of[gid as usize]
        };
        !self.attacked_after(k, from, to, us)
    }
}

impl Board {
    /// Appends the legal moves (all kinds) to `out`; for notation and tests.
    pub fn legal_moves(&self) -> MoveList<Move> {
        let mut all = MoveList::new();
        self.core.generate::<true, true>(&mut all);
        all.retain(|m| self.core.is_legal(&self.cur.guard, *m));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    #[test]
    fn start_position_has_44_moves() {
        let b = Board::start();
        assert_eq!(b.legal_moves().len(), 44);
    }

    #[test]
    fn pseudo_legal_agrees_with_generation_on_every_value() {
        let b = Board::start();
        let mut gen = MoveList::new();
        b.core.generate::<true, true>(&mut gen);
        let mut count = 0;
        for bits in 0..=u16::MAX {
            let m = Move::from_bits(bits);
            let Some(m) = m else { continue };
            let p = b.core.is_pseudo_legal(m);
            assert_eq!(p, gen.contains(&m), "{m:?}");
            count += p as usize;
        }
        assert_eq!(count, gen.len());
    }
}

/// The legality filter (fast path, danger points, parries, the piece-driven attack test)
/// must agree with an independent attack test on every pseudo-legal move.
#[cfg(test)]
mod legality_tests {
    use super::*;
    use crate::game::{GenKind, Notation, Position};

    /// An independent attack test: make the move on a copy and look outward from the general
    /// along the four lines (chariot or general first, cannon second), at the eight horse
    /// points (leg empty) and at the three soldier points.
    fn slow_legal(b: &Board, m: Move) -> bool {
        let us = b.core.side;
        let them = us.flip();
        let mut c = b.core;
        c.move_piece(m.src(), m.dst());
        let k = c.general_sq(us);
        let is = |sq: Sq, kind: Kind| {
            let id = c.cells[sq as usize];
            CODE[id as usize] == code(them, kind)
        };
        for d in [N, S, E, W] {
            let mut s = k.wrapping_add(d);
            while c.cells[s as usize] == 0 {
                s = s.wrapping_add(d);
            }
            if is(s, Kind::Chariot) || is(s, Kind::General) {
                return false;
            }
            if c.cells[s as usize] == OFF {
                continue;
            }
            s = s.wrapping_add(d);
            while c.cells[s as usize] == 0 {
                s = s.wrapping_add(d);
            }
            if is(s, Kind::Cannon) {
                return false;
            }
        }
        for (h, leg) in HORSE_ATTACKS {
            if is(k.wrapping_add(h), Kind::Horse) && c.cells[k.wrapping_add(leg) as usize] == 0 {
                return false;
            }
        }
        for d in [forward(us), E, W] {
            if is(k.wrapping_add(d), Kind::Soldier) {
                return false;
            }
        }
        true
    }

    fn walk(b: &mut Board, depth: u32) {
        let mut moves = MoveList::new();
        b.generate(GenKind::All, &mut moves);
        for &m in moves.iter() {
            assert_eq!(b.is_legal(m), slow_legal(b, m), "{} {:?}", b.to_text(), m);
            if depth > 0 && b.is_legal(m) {
                b.make(m);
                walk(b, depth - 1);
                let u = Board::new_undo();
                b.unmake(m, u);
            }
        }
    }

    #[test]
    fn fast_legality_matches_slow() {
        for fen in [
            super::super::START_FEN,
            "1r1aka3/9/7c1/8p/9/4C4/P8/2N6/9/3AK4 w - - 0 1",
            "r1bak4/9/9/2n1c3p/9/9/P5P2/2C6/9/4KA1R1 b - - 0 1",
            "3a1k3/8r/1c7/2p6/9/9/6PC1/3n5/R8/2B1KA3 w - - 0 1",
            "3ak3r/9/6n2/4p4/9/P3c4/9/9/1R2C4/4KA3 w - - 0 1",
        ] {
            let mut b = Board::from_text(fen).unwrap();
            walk(&mut b, 2);
        }
    }

    #[test]
    fn fast_legality_matches_slow_along_random_games() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(17);
        let mut tested = 0;
        for _ in 0..400 {
            let mut b = Board::start();
            for _ in 0..rng.gen_range(10..160) {
                let mut moves = MoveList::new();
                b.generate(GenKind::All, &mut moves);
                for &m in moves.iter() {
                    assert_eq!(b.is_legal(m), slow_legal(&b, m), "{} {:?}", b.to_text(), m);
                    tested += 1;
                }
                moves.retain(|m| b.is_legal(*m));
                if moves.is_empty() {
                    break;
                }
                b.make(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(tested > 100_000);
    }
}
