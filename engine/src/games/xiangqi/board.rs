//! The xiangqi position: piece placement, side to move, incremental key and game history.
//!
//! Scheme: [`Core`] is the placement alone (a 256-cell padded mailbox, the point of each
//! piece id, the side to move; about 300 bytes, `Copy`), so rule code can replay moves on a
//! scratch copy on the stack. [`Board`] adds the per-ply [`State`] (key, check information,
//! counters, the move that led here) and the stack of earlier states: `make` pushes,
//! `unmake` pops, so the history that repetition rules read is always exact and no node
//! allocates once the stack has grown to the game's length.
//!
//! Check information is computed once per position, in `make`, from the at most nine enemy
//! pieces that can attack at all: the number of checkers and a mask of points. Out of check,
//! the mask holds the few points where moving a piece away (a pin by a chariot or the enemy
//! general, one of two cannon screens, a horse's leg next to the general) or onto (between
//! the general and a cannon with an open line) could expose the general; in check, the points
//! a move must empty or fill to parry. See `movegen` for how legality uses them.

use crate::game::Side;

use super::geometry::{forward, Sq, Square, E, HORSE_ATTACKS, IN_BOARD, N, S, W};
use super::moves::Move;
use super::piece::{code, general_id, side_mask, Kind, CODE, KIND_OF, OFF};
use super::zobrist::{PIECE_KEYS, SIDE_KEY};

/// The placement: cells, piece points and side to move.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Core {
    /// 0 empty, a piece id (16..48), or `OFF`.
    pub cells: [u8; 256],
    /// Mailbox point of each id, 0 when that piece is not on the board.
    pub sq_of: [u8; 48],
    pub side: Side,
}

/// A set of mailbox points.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct Mask(pub [u64; 4]);

impl Mask {
    #[inline]
    pub fn set(&mut self, sq: Sq) {
        self.0[(sq >> 6) as usize] |= 1u64 << (sq & 63);
    }

    #[inline]
    pub fn has(&self, sq: Sq) -> bool {
        (self.0[(sq >> 6) as usize] >> (sq & 63)) & 1 != 0
    }
}

/// Check information for the side to move.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct Guard {
    /// Number of enemy pieces giving check (the facing general counts).
    pub checkers: u8,
    /// Not in check: the points whose emptying or filling by a non-general move may expose
    /// the general. In check: the points a non-general move must empty or fill to parry it
    /// (each checker's point, the points between a line checker and the general, a checking
    /// cannon's screen, a checking horse's leg); a move touching none of them stays in check.
    pub danger: Mask,
}

/// What a position knows beyond its placement.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub key: u64,
    pub guard: Guard,
    /// Plies since the last capture (or since the position the game was set up from, plus the
    /// FEN's counter).
    pub halfmove: u32,
    /// Plies since the last null move or set-up: repetitions are only looked for this far.
    pub from_null: u32,
    /// The move that produced this position ([`Move::NONE`] after set-up or a null move).
    pub mv: Move,
    /// The id that move captured, 0 if none.
    pub captured: u8,
}

/// How [`Notation::move_text`](crate::game::Notation::move_text) writes moves; parsing accepts
/// both (see [`Board::parse_move`](super::Board)).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MoveStyle {
    /// UCCI, Pikafish and ICCS: ranks 0..9 from Red's side (`h2e2`, `b9c7`).
    #[default]
    Ucci,
    /// Fairy-Stockfish's plain UCI: ranks 1..10 (`h3e3`, `b10c8`).
    RanksFromOne,
}

impl MoveStyle {
    /// The number of Red's back rank in this style.
    pub const fn rank_base(self) -> u8 {
        match self {
            MoveStyle::Ucci => 0,
            MoveStyle::RanksFromOne => 1,
        }
    }
}

/// The default natural move limit: 60 moves (120 plies) without a capture draws.
pub const DEFAULT_MOVE_LIMIT: u32 = 120;

/// A xiangqi position with its game history. Implements
/// [`Position`](crate::game::Position) and [`Notation`](crate::game::Notation).
#[derive(Clone)]
pub struct Board {
    pub(crate) core: Core,
    pub(crate) cur: State,
    /// States of the earlier positions of the game, oldest first.
    pub(crate) hist: Vec<State>,
    /// Full-move number and side to move of the set-up position (for writing FEN).
    pub(crate) fullmove0: u32,
    pub(crate) side0: Side,
    /// Plies without capture after which the game is drawn.
    pub(crate) move_limit: u32,
    pub(crate) style: MoveStyle,
}

/// Returned by `make`; everything needed to take a move back lives in the board's history.
#[derive(Debug)]
pub struct Undo {
    _private: (),
}

impl Core {
    /// An empty board, Red to move.
    pub fn empty() -> Core {
        let mut cells = [OFF; 256];
        for (i, &on) in IN_BOARD.iter().enumerate() {
            if on {
                cells[i] = 0;
            }
        }
        Core {
            cells,
            sq_of: [0; 48],
            side: Side::First,
        }
    }

    /// Puts piece `id` on the empty point `sq`.
    pub fn put(&mut self, id: u8, sq: Sq) {
        debug_assert!(self.cells[sq as usize] == 0);
        self.cells[sq as usize] = id;
        self.sq_of[id as usize] = sq;
    }

    /// Moves the piece on `from` to `to`, capturing what stands there; returns the captured id
    /// (0 if none). Flips the side to move. No key, no legality: the caller knows the move.
    #[inline]
    pub fn move_piece(&mut self, from: Sq, to: Sq) -> u8 {
        let pid = self.cells[from as usize];
        let cap = self.cells[to as usize];
        self.cells[to as usize] = pid;
        self.cells[from as usize] = 0;
        self.sq_of[pid as usize] = to;
        self.sq_of[cap as usize] = 0;
        self.side = self.side.flip();
        cap
    }

    /// Takes back [`move_piece`](Core::move_piece).
    #[inline]
    pub fn unmove_piece(&mut self, from: Sq, to: Sq, cap: u8) {
        let pid = self.cells[to as usize];
        self.cells[from as usize] = pid;
        self.cells[to as usize] = cap;
        self.sq_of[pid as usize] = from;
        if cap != 0 {
            self.sq_of[cap as usize] = to;
        }
        self.side = self.side.flip();
    }

    /// The key of the placement and side to move, from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for id in 16..48u8 {
            let sq = self.sq_of[id as usize];
            if sq != 0 {
                key ^= PIECE_KEYS[CODE[id as usize] as usize][sq as usize];
            }
        }
        if self.side == Side::Second {
            key ^= SIDE_KEY;
        }
        key
    }

    #[inline]
    pub fn general_sq(&self, side: Side) -> Sq {
        self.sq_of[general_id(side) as usize]
    }

    /// Check information for `us`, computed from the enemy pieces that could give check.
    pub fn guard(&self, us: Side) -> Guard {
        let mut g = Guard::default();
        let mut parry = Mask::default();
        let k = self.general_sq(us);
        if k == 0 {
            return g;
        }
        let them = us.flip();
        let tb = side_mask(them);
        // Line pieces: the enemy general (facing), chariots and cannons.
        for slot in [0u8, 7, 8, 9, 10] {
            let s = self.sq_of[(tb + slot) as usize];
            if s == 0 {
                continue;
            }
            let d = if (s ^ k) & 15 == 0 {
                if s > k {
                    N
                } else {
                    S
                }
            } else if (s ^ k) >> 4 == 0 {
                if s > k {
                    E
                } else {
                    W
                }
            } else {
                continue;
            };
            let mut count = 0;
            let mut blockers = [0u8; 2];
            let mut t = k.wrapping_add(d);
            while t != s {
                if self.cells[t as usize] != 0 {
                    if count < 2 {
                        blockers[count] = t;
                    }
                    count += 1;
                }
                t = t.wrapping_add(d);
            }
            let checks = if slot >= 9 { count == 1 } else { count == 0 };
            if checks {
                // Parried by taking the checker or changing what stands between.
                let mut t = k;
                while t != s {
                    t = t.wrapping_add(d);
                    parry.set(t);
                }
            }
            if slot >= 9 {
                // Cannon: one screen checks; with none, filling any point between checks;
                // with two, emptying either does.
                match count {
                    1 => g.checkers += 1,
                    0 => {
                        let mut t = k.wrapping_add(d);
                        while t != s {
                            g.danger.set(t);
                            t = t.wrapping_add(d);
                        }
                    }
                    2 => {
                        g.danger.set(blockers[0]);
                        g.danger.set(blockers[1]);
                    }
                    _ => {}
                }
            } else {
                // Chariot or facing general: an open line checks; a single blocker is pinned.
                match count {
                    0 => g.checkers += 1,
                    1 => g.danger.set(blockers[0]),
                    _ => {}
                }
            }
        }
        // Horses: check through an empty leg; an occupied leg is a point not to empty.
        for slot in [5u8, 6] {
            let h = self.sq_of[(tb + slot) as usize];
            if h == 0 {
                continue;
            }
            let leg = HORSE_LEG_FROM_TARGET[h.wrapping_sub(k) as usize];
            if leg != 0 {
                let l = k.wrapping_add(leg);
                if self.cells[l as usize] == 0 {
                    g.checkers += 1;
                    parry.set(l);
                    parry.set(h);
                } else {
                    g.danger.set(l);
                }
            }
        }
        // Soldiers that have crossed (any enemy soldier next to the palace has): in front and
        // beside the general.
        let soldier = code(them, Kind::Soldier);
        for d in [forward(us), E, W] {
            if CODE[self.cells[k.wrapping_add(d) as usize] as usize] == soldier {
                g.checkers += 1;
                parry.set(k.wrapping_add(d));
            }
        }
        if g.checkers > 0 {
            g.danger = parry;
        }
        g
    }

    /// Whether `us`'s general, standing on `k` once the piece on `from` has moved to `to`, is
    /// attacked (the facing general counts). `from`/`to` may be 0 (no change). Reads the cells
    /// through the hypothetical move instead of making it, so it works on `&self`. Looks from
    /// the few enemy pieces that can attack at all: most are not aligned with the general.
    pub fn attacked_after(&self, k: Sq, from: Sq, to: Sq, us: Side) -> bool {
        let tb = side_mask(us.flip());
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
        // Line pieces: the enemy general (facing), chariots, cannons. A piece standing on `to`
        // has just been captured.
        for slot in [0u8, 7, 8, 9, 10] {
            let s = self.sq_of[(tb + slot) as usize];
            if s == 0 || s == to {
                continue;
            }
            let d = if (s ^ k) & 15 == 0 {
                if s > k {
                    N
                } else {
                    S
                }
            } else if (s ^ k) >> 4 == 0 {
                if s > k {
                    E
                } else {
                    W
                }
            } else {
                continue;
            };
            let mut between = 0;
            let mut t = k.wrapping_add(d);
            while t != s {
                between += (get(t) != 0) as u8;
                t = t.wrapping_add(d);
            }
            if between == (slot >= 9) as u8 {
                return true;
            }
        }
        for slot in [5u8, 6] {
            let h = self.sq_of[(tb + slot) as usize];
            if h == 0 || h == to {
                continue;
            }
            let leg = HORSE_LEG_FROM_TARGET[h.wrapping_sub(k) as usize];
            if leg != 0 && get(k.wrapping_add(leg)) == 0 {
                return true;
            }
        }
        let soldier = code(us.flip(), Kind::Soldier);
        for d in [forward(us), E, W] {
            if CODE[get(k.wrapping_add(d)) as usize] == soldier {
                return true;
            }
        }
        false
    }

    /// Whether `side`'s general is attacked in this placement.
    #[inline]
    pub fn in_check(&self, side: Side) -> bool {
        let k = self.general_sq(side);
        k != 0 && self.attacked_after(k, 0, 0, side)
    }

    /// Whether the generals stand on one file with nothing between.
    pub fn generals_face(&self) -> bool {
        let r = self.general_sq(Side::First);
        let b = self.general_sq(Side::Second);
        if r == 0 || b == 0 || (r ^ b) & 15 != 0 {
            return false;
        }
        let mut t = r.wrapping_add(N);
        while t != b {
            if self.cells[t as usize] != 0 {
                return false;
            }
            t = t.wrapping_add(N);
        }
        true
    }
}

/// For a point and a horse at `point + diff` (wrapping), the offset from the point of the
/// horse's leg, or 0 when no horse move joins them.
pub(crate) static HORSE_LEG_FROM_TARGET: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 8 {
        t[HORSE_ATTACKS[i].0 as usize] = HORSE_ATTACKS[i].1;
        i += 1;
    }
    t
};

impl Board {
    /// A board from a placement, with fresh history.
    pub(crate) fn from_core(core: Core, halfmove: u32, fullmove: u32) -> Board {
        let cur = State {
            key: core.compute_key(),
            guard: core.guard(core.side),
            halfmove,
            from_null: 0,
            mv: Move::NONE,
            captured: 0,
        };
        Board {
            core,
            cur,
            hist: Vec::with_capacity(256),
            fullmove0: fullmove.max(1),
            side0: core.side,
            move_limit: DEFAULT_MOVE_LIMIT,
            style: MoveStyle::Ucci,
        }
    }

    /// Plays a move known to be legal here (unchecked: use
    /// [`parse_move`](crate::game::Notation::parse_move) or the generator to get one).
    pub(crate) fn do_move(&mut self, m: Move) {
        let from = m.src();
        let to = m.dst();
        let prev = self.cur;
        self.hist.push(prev);
        let pid = self.core.cells[from as usize];
        let pc = CODE[pid as usize] as usize;
        let cap = self.core.move_piece(from, to);
        let mut key =
            prev.key ^ SIDE_KEY ^ PIECE_KEYS[pc][from as usize] ^ PIECE_KEYS[pc][to as usize];
        let halfmove = if cap != 0 {
            key ^= PIECE_KEYS[CODE[cap as usize] as usize][to as usize];
            0
        } else {
            prev.halfmove + 1
        };
        self.cur = State {
            key,
            guard: self.core.guard(self.core.side),
            halfmove,
            from_null: prev.from_null + 1,
            mv: m,
            captured: cap,
        };
    }

    pub(crate) fn undo_move(&mut self, m: Move) {
        let Some(prev) = self.hist.pop() else {
            debug_assert!(false, "unmake without make");
            return;
        };
        self.core.unmove_piece(m.src(), m.dst(), self.cur.captured);
        self.cur = prev;
    }

    pub(crate) fn do_null(&mut self) {
        let prev = self.cur;
        self.hist.push(prev);
        self.core.side = self.core.side.flip();
        self.cur = State {
            key: prev.key ^ SIDE_KEY,
            guard: self.core.guard(self.core.side),
            halfmove: prev.halfmove + 1,
            from_null: 0,
            mv: Move::NONE,
            captured: 0,
        };
    }

    pub(crate) fn undo_null(&mut self) {
        if let Some(prev) = self.hist.pop() {
            self.core.side = self.core.side.flip();
            self.cur = prev;
        }
    }

    pub(crate) fn new_undo() -> Undo {
        Undo { _private: () }
    }

    // ----- Accessors for evaluation, protocols and tests -----

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.core.side
    }

    /// The piece on a point, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<(Side, Kind)> {
        let id = self.core.cells[sq.mailbox() as usize];
        (id != 0).then(|| (super::piece::side_of_id(id), KIND_OF[id as usize]))
    }

    /// The point of `side`'s general.
    #[inline]
    pub fn general(&self, side: Side) -> Square {
        Square::from_mailbox(self.core.general_sq(side))
    }

    /// The points of `side`'s pieces of `kind`, in slot order.
    pub fn pieces(&self, side: Side, kind: Kind) -> impl Iterator<Item = Square> + '_ {
        let first = side_mask(side) + kind.first_slot();
        (first..first + kind.max_count() as u8).filter_map(move |id| {
            let sq = self.core.sq_of[id as usize];
            (sq != 0).then(|| Square::from_mailbox(sq))
        })
    }

    /// How many pieces of `kind` `side` has.
    pub fn count(&self, side: Side, kind: Kind) -> usize {
        self.pieces(side, kind).count()
    }

    /// Plies since the last capture (the FEN's half-move field).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.cur.halfmove
    }

    /// Plies played since the board was set up (null moves included).
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.hist.len()
    }

    /// The natural move limit in plies without capture (default 120, i.e. 60 moves).
    pub fn move_limit(&self) -> u32 {
        self.move_limit
    }

    /// Sets the natural move limit, in plies without capture (competitions may lower the
    /// rule's 60 moves; 0 turns the rule off).
    pub fn set_move_limit(&mut self, plies: u32) {
        self.move_limit = plies;
    }

    /// How moves are written.
    pub fn move_style(&self) -> MoveStyle {
        self.style
    }

    /// Sets how moves are written (and how ambiguous move text is read).
    pub fn set_move_style(&mut self, style: MoveStyle) {
        self.style = style;
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn key_from_scratch(&self) -> u64 {
        self.core.compute_key()
    }

    /// The moves played since set-up, oldest first (null moves as [`Move::NONE`]).
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.hist
            .iter()
            .skip(1)
            .chain(std::iter::once(&self.cur))
            .take(self.hist.len())
            .map(|s| s.mv)
    }
}
