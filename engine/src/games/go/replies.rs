//! Last good replies with forgetting (Baier and Drake, "The Power of Forgetting: Improving
//! the Last-Good-Reply Policy in Monte Carlo Go", 2010): the playouts remember, for each
//! side, which answer to the opponent's last move (and to the last two moves) won a playout,
//! and play it again while it keeps winning.
//!
//! Scheme: two flat tables of mailbox points per side, one keyed by the previous move and
//! one by the two previous moves; 0 means no reply. After a playout every move of the winner
//! is stored as the reply to the moves before it, and a loser's move that is the stored reply
//! is deleted (the forgetting, which keeps stale replies from lingering). Passes are never
//! stored nor used as a context. The tables live in a thread-local, one per search thread, so
//! the search needs no locks; they carry over between searches of the same board size, as a
//! stored reply is only a suggestion that the playout checks for legality and sense.

use std::cell::RefCell;

use crate::game::Side;

thread_local! {
    static REPLIES: RefCell<Replies> = RefCell::new(Replies::default());
}

/// The reply tables of one thread, and the move sequence of the playout in progress.
#[derive(Default)]
pub struct Replies {
    /// Mailbox points of the board the tables are for.
    points: usize,
    /// `[side][prev]`.
    one: Vec<u16>,
    /// `[side][prev2][prev]`.
    two: Vec<u16>,
    /// The moves of the playout in progress, 0 for a pass, preceded by the two moves before it.
    seq: Vec<u16>,
    /// The side that plays `seq[2]`.
    first: Option<Side>,
}

impl Replies {
    /// Runs `f` with this thread's tables, made ready for a board of `points` mailbox points.
    pub fn with<R>(points: usize, f: impl FnOnce(&mut Replies) -> R) -> R {
        REPLIES.with(|cell| {
            let mut r = cell.borrow_mut();
            if r.points != points {
                r.points = points;
                r.one = vec![0; 2 * points];
                r.two = vec![0; 2 * points * points];
            }
            f(&mut r)
        })
    }

    /// Starts a playout whose first move is `side`'s, after `prev2` and then `prev` (0 for a
    /// pass or no move).
    pub fn start(&mut self, side: Side, prev2: u16, prev: u16) {
        self.seq.clear();
        self.seq.push(prev2);
        self.seq.push(prev);
        self.first = Some(side);
    }

    /// Records the next move of the playout (0 for a pass).
    #[inline]
    pub fn push(&mut self, point: u16) {
        self.seq.push(point);
    }

    /// The stored reply for `side` after `prev2` and then `prev`: the two-move reply when
    /// there is one, else the one-move reply; 0 for none.
    #[inline]
    pub fn reply(&self, side: Side, prev2: u16, prev: u16) -> u16 {
        if prev == 0 {
            return 0;
        }
        let s = side.index();
        let n = self.points;
        if prev2 != 0 {
            let r = self.two[(s * n + prev2 as usize) * n + prev as usize];
            if r != 0 {
                return r;
            }
        }
        self.one[s * n + prev as usize]
    }

    /// Learns from the finished playout: `winner` (None for a jigo) keeps its replies, the
    /// other side forgets the ones it played.
    pub fn learn(&mut self, winner: Option<Side>) {
        let (Some(first), Some(winner)) = (self.first, winner) else {
            return;
        };
        let n = self.points;
        let mut side = first;
        for i in 2..self.seq.len() {
            let (prev2, prev, m) = (self.seq[i - 2], self.seq[i - 1], self.seq[i]);
            if m != 0 && prev != 0 {
                let s = side.index();
                let one = s * n + prev as usize;
                let two = (prev2 != 0).then(|| (s * n + prev2 as usize) * n + prev as usize);
                if side == winner {
                    self.one[one] = m;
                    if let Some(t) = two {
                        self.two[t] = m;
                    }
                } else {
                    if self.one[one] == m {
                        self.one[one] = 0;
                    }
                    if let Some(t) = two {
                        if self.two[t] == m {
                            self.two[t] = 0;
                        }
                    }
                }
            }
            side = side.flip();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Teaches `r` a playout of `moves` (0 a pass), `first` to move first, won by `winner`.
    fn teach(r: &mut Replies, first: Side, moves: &[u16], winner: Side) {
        r.start(first, 0, 0);
        for &p in moves {
            r.push(p);
        }
        r.learn(Some(winner));
    }

    #[test]
    fn a_winning_reply_is_kept_and_a_losing_one_forgotten() {
        Replies::with(121, |r| {
            // Black 30, White 40, Black 50: Black wins, so 50 answers 40 (and 30, 40).
            teach(r, Side::First, &[30, 40, 50], Side::First);
            assert_eq!(r.reply(Side::First, 30, 40), 50);
            assert_eq!(r.reply(Side::First, 0, 40), 50);
            assert_eq!(
                r.reply(Side::First, 31, 40),
                50,
                "falls back to the one-move reply"
            );
            assert_eq!(r.reply(Side::Second, 30, 40), 0);
            // The same moves lost: Black forgets both replies.
            teach(r, Side::First, &[30, 40, 50], Side::Second);
            assert_eq!(r.reply(Side::First, 30, 40), 0);
            // White's reply to 30 was 40 in a won playout.
            assert_eq!(r.reply(Side::Second, 0, 30), 40);
        });
    }

    #[test]
    fn a_pass_is_no_reply_and_no_context() {
        Replies::with(121, |r| {
            teach(r, Side::First, &[30, 0, 50, 60], Side::Second);
            assert_eq!(r.reply(Side::Second, 30, 0), 0);
            assert_eq!(r.reply(Side::Second, 0, 30), 0, "a pass is never a reply");
            assert_eq!(r.reply(Side::Second, 0, 50), 60);
        });
    }
}
