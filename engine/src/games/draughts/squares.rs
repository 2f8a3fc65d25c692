//! The board layout: 50 playable squares in a `u64` with ghost bits, so that every diagonal step
//! is one fixed shift.
//!
//! Scheme: square `s` (1..=50, standard numbering, 1 on Black's side at the top) with index
//! `i = s - 1` lives at bit `i + i / 10`. Each pair of rows takes 11 bits: five squares of the
//! even row, five of the odd row and one ghost bit (10, 21, 32, 43) that is never a square. With
//! that gap a diagonal step is a shift by 5 or 6 in either direction, and a step off the left or
//! right edge lands on a ghost bit (or outside bits 0..=53), which every mask excludes. Bitboards
//! everywhere in the draughts module use this layout; [`bit_of_square`] and [`square_of_bit`]
//! convert.
//!
//! Directions: `-6` up-left, `-5` up-right (towards squares 1-5, White's forward), `+5`
//! down-left, `+6` down-right (towards 46-50, Black's forward). The opposite of a direction is its
//! negation. [`RAYS`] holds for every bit and direction the squares strictly beyond it, so the
//! nearest piece on a ray is one bit scan (lowest bit for `+`, highest for `-`).

/// Number of bit positions the layout spans (bits 0..=53).
pub const BITS: usize = 54;

/// Every playable square.
pub const VALID: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 50 {
        m |= 1u64 << (i + i / 10);
        i += 1;
    }
    m
};

/// The four diagonal directions as bit shifts: up-left, up-right, down-left, down-right.
pub const DIRS: [i32; 4] = [-6, -5, 5, 6];

/// The index in [`DIRS`] of the opposite direction.
#[inline]
pub const fn opposite(d: usize) -> usize {
    3 - d
}

/// Squares 1-5: where White men are crowned.
pub const WHITE_PROMOTION: u64 = 0b11111;
/// Squares 46-50: where Black men are crowned.
pub const BLACK_PROMOTION: u64 = 0b11111 << 49;

/// The bit of square `s` (1..=50). The caller guarantees the range.
#[inline]
pub const fn bit_of_square(s: u8) -> u32 {
    let i = s as u32 - 1;
    i + i / 10
}

/// The square number (1..=50) of a playable bit.
#[inline]
pub const fn square_of_bit(b: u32) -> u8 {
    (b - b / 11 + 1) as u8
}

/// Bit mask of square `s`, or 0 when `s` is not 1..=50.
#[inline]
pub fn mask_of_square(s: u32) -> u64 {
    if (1..=50).contains(&s) {
        1u64 << bit_of_square(s as u8)
    } else {
        0
    }
}

/// Shifts a bitboard one diagonal step in direction `d` (a value of [`DIRS`]), dropping squares
/// that leave the board.
#[inline(always)]
pub const fn shift(b: u64, d: i32) -> u64 {
    (if d > 0 { b << d } else { b >> -d }) & VALID
}

/// `RAYS[bit][dir]`: the squares strictly beyond `bit` in direction `DIRS[dir]`, to the edge.
/// Zero for ghost bits.
pub static RAYS: [[u64; 4]; BITS] = {
    let mut t = [[0u64; 4]; BITS];
    let mut b = 0;
    while b < BITS {
        if VALID & (1u64 << b) != 0 {
            let mut d = 0;
            while d < 4 {
                let mut ray = 0u64;
                let mut cur = 1u64 << b;
                loop {
                    cur = shift(cur, DIRS[d]);
                    if cur == 0 {
                        break;
                    }
                    ray |= cur;
                }
                t[b][d] = ray;
                d += 1;
            }
        }
        b += 1;
    }
    t
};

/// The bit of the square nearest to the ray's origin among `set` (non-empty, all on one ray in
/// direction `DIRS[dir]`).
#[inline(always)]
pub fn nearest(set: u64, dir: usize) -> u32 {
    debug_assert!(set != 0);
    if DIRS[dir] > 0 {
        set.trailing_zeros()
    } else {
        63 - set.leading_zeros()
    }
}

/// Iterates the bits of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

/// The square numbers (1..=50) of a bitboard, ascending.
pub fn squares(bb: u64) -> impl Iterator<Item = u8> {
    Bits(bb & VALID).map(square_of_bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row and column (0..10) of a square on the 10x10 board, from the standard numbering.
    fn coords(s: u8) -> (i32, i32) {
        let i = s as i32 - 1;
        let row = i / 5;
        let col = 2 * (i % 5) + if row % 2 == 0 { 1 } else { 0 };
        (row, col)
    }

    #[test]
    fn layout_round_trips() {
        assert_eq!(VALID.count_ones(), 50);
        for s in 1..=50u8 {
            assert_eq!(square_of_bit(bit_of_square(s)), s);
        }
        assert_eq!(
            squares(WHITE_PROMOTION).collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5]
        );
        assert_eq!(
            squares(BLACK_PROMOTION).collect::<Vec<_>>(),
            vec![46, 47, 48, 49, 50]
        );
    }

    #[test]
    fn shifts_are_diagonal_steps() {
        // Every shift of every square is either its true diagonal neighbour or off the board.
        for s in 1..=50u8 {
            let (r, c) = coords(s);
            for (d, (dr, dc)) in DIRS.iter().zip([(-1, -1), (-1, 1), (1, -1), (1, 1)]) {
                let to = shift(1u64 << bit_of_square(s), *d);
                let (nr, nc) = (r + dr, c + dc);
                if (0..10).contains(&nr) && (0..10).contains(&nc) {
                    let t = squares(to).next().expect("neighbour on board");
                    assert_eq!(coords(t), (nr, nc), "square {s} dir {d}");
                } else {
                    assert_eq!(to, 0, "square {s} dir {d} should leave the board");
                }
            }
        }
    }

    #[test]
    fn rays_and_nearest() {
        // Long diagonal 46-5: from 46 up-right.
        let ray = RAYS[bit_of_square(46) as usize][1];
        assert_eq!(
            squares(ray).collect::<Vec<_>>(),
            vec![5, 10, 14, 19, 23, 28, 32, 37, 41]
        );
        assert_eq!(square_of_bit(nearest(ray, 1)), 41);
        let down = RAYS[bit_of_square(5) as usize][2];
        assert_eq!(square_of_bit(nearest(down, 2)), 10);
        assert_eq!(opposite(0), 3);
        assert_eq!(opposite(1), 2);
    }
}
