//! A plain reference capture generator, for tests only: the depth-first search the fast
//! generator of `movegen` replaced, kept to check it move for move and in the same order (the
//! search's move ordering, and so its node counts, depend on that order).
//!
//! Scheme: from every piece that can capture, in bit order, kings before men, a depth-first
//! search in direction order; captured pieces stay on the board until the move ends (Turkish
//! strike), the moving piece's start square is empty. A king follows every landing square;
//! only the sequences taking the most pieces are kept, and a move equal to one kept already
//! (same start, end and captured set) counts as one more path of it.

use super::board::Board;
use super::moves::Move;
use super::squares::{nearest, opposite, shift, Bits, DIRS, RAYS, VALID};
use crate::game::Side;

/// The majority captures with their path counts. With `farthest_only`, a king continues
/// straight ahead only from the farthest landing square of a ray, as the distinct generator
/// does; the moves are then the same, but the path counts and possibly the order differ.
pub(crate) fn captures(board: &Board, farthest_only: bool) -> Vec<(Move, u32)> {
    let st = &board.st;
    let us = st.side.index();
    let own = st.pieces[us];
    let enemy = st.pieces[1 - us];
    let mut r = Ref {
        out: Vec::new(),
        best: 1,
        enemy,
        occ: 0,
        from: 0,
        promotion: match st.side {
            Side::First => super::squares::WHITE_PROMOTION,
            Side::Second => super::squares::BLACK_PROMOTION,
        },
        farthest_only,
    };
    for k in Bits(own & st.kings) {
        r.occ = (own | enemy) & !(1u64 << k);
        r.from = k;
        r.king(k, 0, 0, 4, true);
    }
    for m in Bits(own & !st.kings) {
        r.occ = (own | enemy) & !(1u64 << m);
        r.from = m;
        r.man(m, 0, 0);
    }
    r.out
}

struct Ref {
    out: Vec<(Move, u32)>,
    best: u32,
    enemy: u64,
    occ: u64,
    from: u32,
    promotion: u64,
    farthest_only: bool,
}

impl Ref {
    fn record(&mut self, m: Move, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.out.clear();
            self.best = n;
        }
        match self.out.iter_mut().find(|(x, _)| *x == m) {
            Some((_, c)) => *c += 1,
            None => self.out.push((m, 1)),
        }
    }

    fn man(&mut self, b: u32, caps: u64, n: u32) {
        let bit = 1u64 << b;
        let jumpable = self.enemy & !caps;
        let empty = VALID & !self.occ;
        let mut ended = true;
        for d in DIRS {
            let victim = shift(bit, d) & jumpable;
            let land = shift(victim, d) & empty;
            if victim != 0 && land != 0 {
                ended = false;
                self.man(land.trailing_zeros(), caps | victim, n + 1);
            }
        }
        if ended && n > 0 {
            let promotes = bit & self.promotion != 0;
            self.record(Move::new(self.from, b, caps, promotes), n);
        }
    }

    fn king(&mut self, b: u32, caps: u64, n: u32, came: usize, farthest: bool) {
        let jumpable = self.enemy & !caps;
        let mut ended = true;
        for d in 0..4 {
            if came < 4 && (d == opposite(came) || (self.farthest_only && d == came && !farthest)) {
                continue;
            }
            let blockers = RAYS[b as usize][d] & self.occ;
            if blockers == 0 {
                continue;
            }
            let x = nearest(blockers, d);
            if (1u64 << x) & jumpable == 0 {
                continue;
            }
            // The empty squares beyond the victim, up to the next piece.
            let mut lands = Vec::new();
            let mut cur = 1u64 << x;
            loop {
                cur = shift(cur, DIRS[d]);
                if cur == 0 || cur & self.occ != 0 {
                    break;
                }
                lands.push(cur.trailing_zeros());
            }
            lands.sort_unstable();
            let far = if DIRS[d] > 0 {
                lands.last()
            } else {
                lands.first()
            }
            .copied();
            for &l in &lands {
                ended = false;
                self.king(l, caps | (1u64 << x), n + 1, d, Some(l) == far);
            }
        }
        if ended && n > 0 {
            self.record(Move::new(self.from, b, caps, false), n);
        }
    }
}
