//! Connect four, a small real game for testing the generic search (tests only).
//!
//! Scheme: two bitboards in the usual 7-bit-per-column layout (6 playing rows and a sentinel
//! row), a height per column, make/unmake by column. A move that completes four is "noisy", so
//! quiescence follows immediate wins. The game result is a rule result: the side to move has
//! lost when the previous mover has four in a row, and a full board is a draw. The null move
//! (a plain side flip) is unsound here, as zugzwang rules connect four, so `NULL` lets the
//! tests choose: exactness tests run with it off.

use crate::game::{
    Evaluator, GenKind, MoveList, Notation, Outcome, Position, Reason, Side, TextError,
};

const W: usize = 7;
const H: usize = 6;

#[derive(Clone, Debug)]
pub struct Connect4<const NULL: bool> {
    bb: [u64; 2],
    height: [u8; W],
    side: Side,
}

fn bit(col: usize, row: usize) -> u64 {
    1u64 << (col * (H + 1) + row)
}

fn has_four(b: u64) -> bool {
    for shift in [1, H + 1, H, H + 2] {
        let m = b & (b >> shift);
        if m & (m >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl<const NULL: bool> Connect4<NULL> {
    pub fn empty() -> Self {
        Connect4 {
            bb: [0; 2],
            height: [0; W],
            side: Side::First,
        }
    }

    /// A position from a string of column digits 1-7, played alternately from the empty board.
    pub fn from_moves(moves: &str) -> Self {
        let mut p = Self::empty();
        for c in moves.chars() {
            let col = c.to_digit(10).expect("column digit") as u8 - 1;
            assert!(p.height[col as usize] < H as u8, "column {c} full");
            p.make(col);
        }
        p
    }

    fn wins(&self, col: u8) -> bool {
        let c = col as usize;
        self.height[c] < H as u8
            && has_four(self.bb[self.side.index()] | bit(c, self.height[c] as usize))
    }

    fn full(&self) -> bool {
        self.height.iter().all(|&h| h == H as u8)
    }
}

impl<const NULL: bool> Position for Connect4<NULL> {
    type Move = u8;
    type CheckInfo = ();
    type ThreatInfo = ();
    type Undo = ();
    const NULL_MOVE_OK: bool = NULL;
    const HAS_CHECKS: bool = false;
    const MOVE_INDEX_SPACE: usize = W * H;

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn key(&self) -> u64 {
        mix(self.bb[0].wrapping_mul(3) ^ mix(self.bb[1] ^ 0x1234_5678)) ^ self.side.index() as u64
    }

    fn generate(&self, kind: GenKind, out: &mut MoveList<u8>) {
        // Centre columns first: a natural order that also exercises the picker's sorting.
        for col in [3u8, 2, 4, 1, 5, 0, 6] {
            if self.height[col as usize] >= H as u8 {
                continue;
            }
            let noisy = self.wins(col);
            match kind {
                GenKind::All => out.push(col),
                GenKind::Noisy if noisy => out.push(col),
                GenKind::Quiet if !noisy => out.push(col),
                _ => {}
            }
        }
    }

    fn is_pseudo_legal(&self, m: u8) -> bool {
        (m as usize) < W && self.height[m as usize] < H as u8
    }

    fn is_legal(&self, _m: u8) -> bool {
        true
    }

    fn is_noisy(&self, m: u8) -> bool {
        self.wins(m)
    }

    fn make(&mut self, m: u8) {
        let c = m as usize;
        self.bb[self.side.index()] |= bit(c, self.height[c] as usize);
        self.height[c] += 1;
        self.side = self.side.flip();
    }

    fn unmake(&mut self, m: u8, _undo: ()) {
        let c = m as usize;
        self.side = self.side.flip();
        self.height[c] -= 1;
        self.bb[self.side.index()] &= !bit(c, self.height[c] as usize);
    }

    fn make_null(&mut self) {
        self.side = self.side.flip();
    }

    fn unmake_null(&mut self, _undo: ()) {
        self.side = self.side.flip();
    }

    fn rule_outcome(&self, _ply: usize) -> Option<Outcome> {
        if has_four(self.bb[self.side.flip().index()]) {
            Some(Outcome::loss(Reason::Score))
        } else if self.full() {
            Some(Outcome::draw(Reason::NoLegalMove))
        } else {
            None
        }
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::draw(Reason::NoLegalMove)
    }

    fn move_index(&self, m: u8) -> usize {
        m as usize * H + (self.height[m as usize] as usize).min(H - 1)
    }

    fn noisy_value(&self, m: u8) -> i32 {
        if self.wins(m) {
            1000
        } else {
            0
        }
    }

    fn pack(m: u8) -> u32 {
        m as u32
    }

    fn unpack(&self, bits: u32) -> Option<u8> {
        (bits < W as u32 && self.is_pseudo_legal(bits as u8)).then_some(bits as u8)
    }
}

impl<const NULL: bool> Notation for Connect4<NULL> {
    fn start() -> Self {
        Self::empty()
    }

    fn from_text(text: &str) -> Result<Self, TextError> {
        if !text.chars().all(|c| ('1'..='7').contains(&c)) {
            return Err(TextError::new("columns are digits 1 to 7"));
        }
        Ok(Self::from_moves(text))
    }

    fn to_text(&self) -> String {
        String::new()
    }

    fn parse_move(&self, text: &str) -> Result<u8, TextError> {
        let col = text
            .parse::<u8>()
            .ok()
            .filter(|c| (1..=7).contains(c))
            .ok_or_else(|| TextError::new("bad column"))?
            - 1;
        if self.is_pseudo_legal(col) {
            Ok(col)
        } else {
            Err(TextError::new("column full"))
        }
    }

    fn move_text(&self, m: u8) -> String {
        (m + 1).to_string()
    }
}

/// Counts open lines: every window of four holding only one side's discs scores for it,
/// more the fuller it is.
#[derive(Clone, Default)]
pub struct Connect4Eval;

impl<const NULL: bool> Evaluator<Connect4<NULL>> for Connect4Eval {
    fn evaluate(&mut self, pos: &Connect4<NULL>) -> i32 {
        const VALUE: [i32; 4] = [0, 1, 8, 40];
        let mut score = [0i32; 2];
        let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for c in 0..W as i32 {
            for r in 0..H as i32 {
                for (dc, dr) in dirs {
                    let (ec, er) = (c + 3 * dc, r + 3 * dr);
                    if !(0..W as i32).contains(&ec) || !(0..H as i32).contains(&er) {
                        continue;
                    }
                    let mut count = [0usize; 2];
                    for k in 0..4 {
                        let b = bit((c + k * dc) as usize, (r + k * dr) as usize);
                        for (n, side) in count.iter_mut().zip(pos.bb) {
                            *n += (side & b != 0) as usize;
                        }
                    }
                    for s in 0..2 {
                        if count[1 - s] == 0 {
                            score[s] += VALUE[count[s].min(3)];
                        }
                    }
                }
            }
        }
        let us = pos.side.index();
        score[us] - score[1 - us]
    }
}

/// Exact game value by plain negamax (no pruning besides alpha-beta, no table), in plies:
/// `Some(n)` with `n > 0` for a win in `n` plies, `n < 0` for a loss in `-n`, `None` for a
/// draw. Only for positions near the end of the game.
pub fn solve<const NULL: bool>(pos: &mut Connect4<NULL>) -> Option<i32> {
    fn value<const N: bool>(pos: &mut Connect4<N>, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        // Scores: 100 - ply for a win, ply - 100 for a loss, 0 for a draw.
        if let Some(o) = pos.rule_outcome(0) {
            return match o.verdict {
                crate::game::Verdict::Loss => ply - 100,
                crate::game::Verdict::Win => 100 - ply,
                crate::game::Verdict::Draw => 0,
            };
        }
        let mut moves = MoveList::new();
        pos.generate(GenKind::All, &mut moves);
        let mut best = -1000;
        for &m in moves.iter() {
            pos.make(m);
            let v = -value(pos, ply + 1, -beta, -alpha);
            pos.unmake(m, ());
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    let v = value(pos, 0, -1000, 1000);
    match v {
        0 => None,
        v if v > 0 => Some(100 - v),
        v => Some(-(100 + v)),
    }
}

/// Whether the side to move can force a win within `plies` plies (its own moves included).
pub fn wins_within<const NULL: bool>(pos: &mut Connect4<NULL>, plies: i32) -> bool {
    if plies <= 0 || pos.rule_outcome(0).is_some() {
        return false;
    }
    let mut moves = MoveList::new();
    pos.generate(GenKind::All, &mut moves);
    moves.iter().any(|&m| {
        pos.make(m);
        let won = match pos.rule_outcome(0) {
            Some(o) => o.verdict == crate::game::Verdict::Loss,
            None => {
                let mut replies = MoveList::new();
                pos.generate(GenKind::All, &mut replies);
                !replies.is_empty()
                    && replies.iter().all(|&r| {
                        pos.make(r);
                        let w = wins_within(pos, plies - 2);
                        pos.unmake(r, ());
                        w
                    })
            }
        };
        pos.unmake(m, ());
        won
    })
}
