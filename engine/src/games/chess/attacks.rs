//! Attack tables: leapers by lookup, sliders by "fancy" magic bitboards, and the between/line
//! tables that pins and checks use.
//!
//! Scheme: every table is a `static` computed by `const fn` at compile time, so a lookup is one
//! load from a fixed address, with no lazy-initialisation check, and nothing here needs a
//! particular CPU. A slider's attack set from square `s` depends only on the occupied squares
//! among its "relevant" squares (its rays without the board edge); multiplying those bits by
//! the square's magic number and keeping the top `bits` bits yields a dense index into that
//! square's slice of one shared table. The magic numbers were found by a fixed-seed random
//! search (see the ignored test `find_magics`, which prints a fresh set); `table_is_exact`
//! checks every entry against a ray walk.

use super::bitboard::Bitboard;
use super::types::{Color, Square};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Walks the four rays of a slider from `sq`, stopping at (and including) the first occupied
/// square on each.
const fn slide(sq: usize, occ: Bitboard, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy matters to a slider on `sq`: its rays minus the last square.
const fn relevant(sq: usize, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// One square's magic: relevant-occupancy mask, multiplier, right shift and table offset.
#[derive(Clone, Copy)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    const fn index(&self, occ: Bitboard) -> usize {
        self.offset + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

const fn magics(dirs: &[(i32, i32); 4], numbers: &[u64; 64]) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const fn table<const N: usize>(dirs: &[(i32, i32); 4], magics: &[Magic; 64]) -> [Bitboard; N] {
    let mut t = [0u64; N];
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Carry-Rippler: every subset of the mask, starting and ending at the empty set.
        let mut sub = 0u64;
        loop {
            t[m.index(sub)] = slide(sq, sub, dirs);
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
    t
}

#[rustfmt::skip]
const ROOK_NUMBERS: [u64; 64] = [
    0x2080_0020_8040_0010, 0x00C0_0020_0140_1000, 0x2100_1100_0840_2002, 0x0880_0800_8104_1000,
    0x0200_0200_2004_1008, 0x2300_0400_0801_0012, 0x0C00_2830_0400_8201, 0x0180_0100_0040_7A80,
    0x0168_8000_8040_0020, 0x0010_4000_4020_1000, 0x1001_0020_0100_1048, 0x1001_0024_0810_0100,
    0x0801_0004_0801_0012, 0x4001_0002_0900_0400, 0x08A2_0004_C802_0001, 0x2002_8011_4500_2280,
    0x0080_8600_2100_4200, 0x0010_00C0_0940_2002, 0x00B0_0020_0400_2800, 0x100A_8080_1002_0800,
    0x8101_0100_0800_0410, 0x0244_0080_0200_0480, 0x0000_0400_1081_0208, 0x2000_0200_0044_8534,
    0x4104_4004_8000_8033, 0x0000_8101_0020_4000, 0x0440_4309_0020_0010, 0x4600_2409_0010_0100,
    0x0060_0800_8004_0080, 0x0001_0003_0008_0400, 0x0004_0844_0001_1002, 0x0023_0402_0000_8041,
    0x0580_0500_4300_2080, 0x0400_8040_0280_2008, 0x0001_0020_0100_4010, 0x1000_2009_0100_1000,
    0x4410_8008_0180_0C00, 0xA012_0038_0600_1004, 0x0020_1001_0400_8802, 0x0004_8084_0200_0041,
    0x0010_4001_7089_8000, 0x0080_5000_2000_4004, 0x1040_4080_1202_0020, 0x8010_0400_0800_4040,
    0x2001_0801_0011_0004, 0x0000_0200_0400_8080, 0x0021_0108_1004_0002, 0x0800_008C_4302_0024,
    0x0000_8000_2100_5100, 0x0070_2010_4000_8080, 0x0000_D042_8200_6A00, 0x0010_0144_0008_0240,
    0x0001_0801_1005_0100, 0x0012_0008_1024_0600, 0x0402_0008_0104_0200, 0x0281_0010_8A00_4100,
    0x0050_8003_0010_2045, 0x8208_2100_4012_0882, 0x8010_6001_0118_3441, 0x020B_0009_1000_6045,
    0x0241_0010_0248_0005, 0x0081_0004_0088_0241, 0x0000_0090_0802_4124, 0x0048_1229_8041_0402,
];

#[rustfmt::skip]
const BISHOP_NUMBERS: [u64; 64] = [
    0x0848_0208_2204_0013, 0x8010_A400_8582_1200, 0x0008_0084_3084_0822, 0x0808_0481_0804_0000,
    0x1304_0421_0000_8104, 0x5001_0120_1020_4023, 0x8104_8801_B820_0420, 0x200A_0080_8401_2000,
    0x0040_1020_0104_2084, 0x840A_5050_4242_8020, 0x0000_7001_0220_2920, 0x4410_1C0C_1080_0002,
    0x0040_0404_2200_0000, 0x0180_0208_0209_0202, 0x4020_0208_1104_1202, 0x0001_0430_8C04_2000,
    0x4140_6610_0242_4400, 0x0028_0120_0801_0460, 0x0188_0621_0200_2A00, 0x0014_0048_4010_2008,
    0x0105_0002_9040_0002, 0x8001_0222_0041_0400, 0x104A_0419_1801_3446, 0x008A_0000_8200_8238,
    0x04A0_0600_0810_0430, 0x0008_2200_0882_0801, 0x2508_0412_0800_5010, 0x4008_0802_0020_2020,
    0x2441_0010_1300_4000, 0x0030_0080_6040_7000, 0x4008_1080_0042_0800, 0x0012_0210_5029_0100,
    0x0210_0804_8220_0500, 0xCC01_1120_4810_0480, 0x0020_4028_0650_0440, 0x0004_8E00_8058_0080,
    0x0040_1020_2002_0080, 0x0028_0104_4008_0807, 0x4601_0411_0800_8800, 0x8040_810E_0410_4200,
    0x9012_1011_0400_088A, 0xA003_0802_1208_1050, 0x00C1_0040_4840_1004, 0x9000_00A0_1440_0800,
    0x0008_0210_4040_5401, 0x4020_0082_0600_2090, 0x0004_1904_2403_0100, 0x0424_008A_0202_6250,
    0x8004_0882_5090_0040, 0x1C00_4300_88A0_4200, 0x0001_0200_9404_0001, 0x8040_2100_2088_0061,
    0x2010_0404_5044_2032, 0x0800_8408_5004_4001, 0x0004_0408_0214_0004, 0x0004_080A_0422_2020,
    0x8088_8021_1002_2000, 0x1081_A104_1611_4400, 0x0205_010A_2406_0820, 0x0000_0007_2041_1080,
    0x1008_0002_0843_0400, 0x580C_0260_2881_0840, 0x8020_2044_1020_A110, 0x12C0_0224_0102_0018,
];

/// Sum over squares of 2^(relevant bits): 102,400 rook and 5,248 bishop entries.
const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;

static ROOK_MAGICS: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_NUMBERS);
static BISHOP_MAGICS: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_NUMBERS);
#[allow(long_running_const_eval)]
static ROOK_TABLE: [Bitboard; ROOK_TABLE_SIZE] =
    table(&ROOK_DIRS, &magics(&ROOK_DIRS, &ROOK_NUMBERS));
static BISHOP_TABLE: [Bitboard; BISHOP_TABLE_SIZE] =
    table(&BISHOP_DIRS, &magics(&BISHOP_DIRS, &BISHOP_NUMBERS));

/// Squares a rook on `sq` attacks given the occupied squares `occ` (captures of either colour
/// included; the caller masks off its own pieces).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ROOK_TABLE[ROOK_MAGICS[sq.index()].index(occ)]
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    BISHOP_TABLE[BISHOP_MAGICS[sq.index()].index(occ)]
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

const fn leaper(steps: &[(i32, i32); 8]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            let f = (sq % 8) as i32 + steps[i].0;
            let r = (sq / 8) as i32 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

const fn pawn_table() -> [[Bitboard; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        if r < 7 {
            if f > 0 {
                t[0][sq] |= 1u64 << (sq + 7);
            }
            if f < 7 {
                t[0][sq] |= 1u64 << (sq + 9);
            }
        }
        if r > 0 {
            if f > 0 {
                t[1][sq] |= 1u64 << (sq - 9);
            }
            if f < 7 {
                t[1][sq] |= 1u64 << (sq - 7);
            }
        }
        sq += 1;
    }
    t
}

static PAWN: [[Bitboard; 64]; 2] = pawn_table();

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a pawn of `color` on `sq` attacks (equally: the squares from which a pawn of the
/// other colour attacks `sq`).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

const fn pseudo(dirs: &[(i32, i32); 4]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    t
}

static ROOK_EMPTY: [Bitboard; 64] = pseudo(&ROOK_DIRS);
static BISHOP_EMPTY: [Bitboard; 64] = pseudo(&BISHOP_DIRS);

/// Rook attacks on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_EMPTY[sq.index()]
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_EMPTY[sq.index()]
}

/// The squares from `sq` (exclusive) to the board edge in direction (df, dr).
const fn ray(sq: usize, df: i32, dr: i32) -> Bitboard {
    let mut out = 0u64;
    let mut f = (sq % 8) as i32 + df;
    let mut r = (sq / 8) as i32 + dr;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        out |= 1u64 << (r * 8 + f);
        f += df;
        r += dr;
    }
    out
}

/// (between, line) for every pair: the squares strictly between two aligned squares, and the
/// whole board line through them; both empty when the squares are not on one line.
const fn between_and_line() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            let full = ray(a, df, dr) | ray(a, -df, -dr) | (1u64 << a);
            // Walk b outward from a; `gap` collects the squares passed so far.
            let mut gap = 0u64;
            let mut f = (a % 8) as i32 + df;
            let mut r = (a / 8) as i32 + dr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = gap;
                line[a][b] = full;
                gap |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = between_and_line();

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN_LINE.0[a.index()][b.index()]
}

/// The whole line (edge to edge) through `a` and `b` if they share a rank, file or diagonal,
/// else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    BETWEEN_LINE.1[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Every table entry equals a ray walk, for every square and every relevant occupancy.
    #[test]
    fn table_is_exact() {
        for (dirs, magics, name) in [
            (&ROOK_DIRS, &ROOK_MAGICS, "rook"),
            (&BISHOP_DIRS, &BISHOP_MAGICS, "bishop"),
        ] {
            for (s, m) in magics.iter().enumerate() {
                let mut sub = 0u64;
                loop {
                    // Occupied corners outside the mask must not change anything.
                    let noise = !m.mask & 0x8100_0000_0000_0081;
                    let got = if name == "rook" {
                        rook_attacks(Square::new(s as u8), sub | noise)
                    } else {
                        bishop_attacks(Square::new(s as u8), sub | noise)
                    };
                    assert_eq!(got, slide(s, sub | noise, dirs), "{name} on {s}");
                    sub = sub.wrapping_sub(m.mask) & m.mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
        assert_eq!(
            ROOK_MAGICS[63].offset + (1 << (64 - ROOK_MAGICS[63].shift)),
            ROOK_TABLE_SIZE
        );
        assert_eq!(
            BISHOP_MAGICS[63].offset + (1 << (64 - BISHOP_MAGICS[63].shift)),
            BISHOP_TABLE_SIZE
        );
    }

    #[test]
    fn leapers_and_pawns() {
        assert_eq!(knight_attacks(sq("a1")), sq("b3").bb() | sq("c2").bb());
        assert_eq!(king_attacks(sq("h8")).count_ones(), 3);
        assert_eq!(
            pawn_attacks(Color::White, sq("e4")),
            sq("d5").bb() | sq("f5").bb()
        );
        assert_eq!(pawn_attacks(Color::Black, sq("a5")), sq("b4").bb());
        assert_eq!(pawn_attacks(Color::White, sq("c8")), 0);
    }

    #[test]
    fn between_and_lines() {
        assert_eq!(between(sq("a1"), sq("d4")), sq("b2").bb() | sq("c3").bb());
        assert_eq!(between(sq("d4"), sq("a1")), sq("b2").bb() | sq("c3").bb());
        assert_eq!(between(sq("a1"), sq("b3")), 0);
        assert_eq!(between(sq("e1"), sq("e2")), 0);
        assert_eq!(line(sq("c3"), sq("e5")), 0x8040_2010_0804_0201);
        assert_eq!(line(sq("e5"), sq("c3")), 0x8040_2010_0804_0201);
        assert_eq!(line(sq("b1"), sq("g1")), 0xFF);
        assert_eq!(line(sq("a2"), sq("b4")), 0);
        assert_eq!(line(sq("h1"), sq("a8")), 0x0102_0408_1020_4080);
        for a in 0..64 {
            for b in 0..64 {
                let (a, b) = (Square::new(a), Square::new(b));
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
                if line(a, b) != 0 {
                    assert!(line(a, b).count_ones() >= 2);
                    assert_eq!(between(a, b) & !line(a, b), 0);
                }
            }
        }
    }

    /// Prints a fresh set of magic numbers (fixed seed): how the numbers above were made.
    #[test]
    #[ignore]
    fn find_magics() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
            println!("const {name}_NUMBERS: [u64; 64] = [");
            for s in 0..64 {
                let mask = relevant(s, dirs);
                let bits = mask.count_ones();
                let mut cases = vec![];
                let mut sub = 0u64;
                loop {
                    cases.push((sub, slide(s, sub, dirs)));
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
                let mut used = vec![(0u32, 0u64); 1 << bits];
                let mut attempt = 0u32;
                'search: loop {
                    attempt += 1;
                    let magic = rnd() & rnd() & rnd();
                    if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                        continue;
                    }
                    for &(occ, att) in &cases {
                        let i = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
                        if used[i].0 != attempt {
                            used[i] = (attempt, att);
                        } else if used[i].1 != att {
                            continue 'search;
                        }
                    }
                    println!("    0x{magic:016X},");
                    break;
                }
            }
            println!("];");
        }
    }
}
