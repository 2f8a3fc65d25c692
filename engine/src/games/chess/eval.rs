//! The chess evaluation: a tapered handcrafted evaluation over `weights::Weights`.
//!
//! Scheme: every term is a midgame/endgame pair ([`S`]) summed from White's view; the two
//! halves are blended by the game phase (24 with all pieces, 0 with pawns only), the endgame
//! half first scaled down in drawish material (no pawns and at most a minor piece ahead, two
//! knights, opposite-coloured bishops), and the result is returned from the side to move's
//! view. Terms: material and piece-square tables; mobility over the squares not held by enemy
//! pawns; pawn structure (passed, isolated, doubled, backward, connected), cached per thread by
//! the pawn key; passed-pawn dynamics (free path, king distances); bishop pair, bad bishop,
//! rooks on open and semi-open files and the seventh rank, knight outposts; threats by pawns,
//! minors and rooks and hanging pieces; squares both sides contest; king safety from attack
//! units on the king zone, safe checks and weak zone squares (quadratic in the units), pawn
//! shelter and open files by the king; the king's distance from its pawns and a pawnless flank
//! by it; a rook behind a passed pawn; a tempo bonus. A lone king against mating material is driven to the edge (to a
//! corner of the bishop's colour with bishop and knight) so that the search finds the mate.

use std::sync::Arc;

use once_cell::sync::Lazy;

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use super::bitboard::{file_bb, squares, Bitboard, DARK_SQUARES, FILE_A, FILE_H, RANK_3, RANK_6};
use super::board::Board;
use super::types::{Color, PieceKind, Square};
use super::weights::{Weights, DANGER_CAP, DANGER_DIV, S};
use crate::game::Evaluator;
use crate::linear::{FormBuilder, LinearEval, LinearForm, Play, Sink, Summed, Tracer, WeightInfo};

const PAWN_CACHE: usize = 1 << 14;

struct Masks {
    /// Squares ahead of a square on its file, per colour.
    forward: [[Bitboard; 64]; 2],
    /// Squares ahead on the same and adjacent files (no enemy pawn there: passed).
    passed: [[Bitboard; 64]; 2],
    /// Squares ahead on the adjacent files only (enemy pawns there can attack the square).
    attack_span: [[Bitboard; 64]; 2],
    adjacent_files: [Bitboard; 8],
    /// The king's square, its neighbours, and the three squares beyond them towards the enemy.
    king_zone: [[Bitboard; 64]; 2],
    /// Chebyshev distance between squares.
    distance: [[i32; 64]; 64],
}

static MASKS: Lazy<Masks> = Lazy::new(|| {
    let mut m = Masks {
        forward: [[0; 64]; 2],
        passed: [[0; 64]; 2],
        attack_span: [[0; 64]; 2],
        adjacent_files: [0; 8],
        king_zone: [[0; 64]; 2],
        distance: [[0; 64]; 64],
    };
    for f in 0..8u8 {
        let mut adj = 0;
        if f > 0 {
            adj |= file_bb(f - 1);
        }
        if f < 7 {
            adj |= file_bb(f + 1);
        }
        m.adjacent_files[f as usize] = adj;
    }
    for sq in 0..64usize {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        for (c, dir) in [(0usize, 1i32), (1, -1)] {
            let mut fwd = 0u64;
            let mut r = rank + dir;
            while (0..8).contains(&r) {
                fwd |= 1u64 << (r * 8 + file);
                r += dir;
            }
            m.forward[c][sq] = fwd;
            let adj = m.adjacent_files[file as usize];
            let mut ahead = 0u64;
            let mut r = rank + dir;
            while (0..8).contains(&r) {
                ahead |= 0xffu64 << (r * 8);
                r += dir;
            }
            m.attack_span[c][sq] = ahead & adj;
            m.passed[c][sq] = fwd | (ahead & adj);
            let around = king_attacks(Square::new(sq as u8)) | 1u64 << sq;
            let beyond = if dir > 0 { around << 8 } else { around >> 8 };
            m.king_zone[c][sq] = around | beyond;
        }
        for other in 0..64usize {
            let (f2, r2) = ((other % 8) as i32, (other / 8) as i32);
            m.distance[sq][other] = (file - f2).abs().max((rank - r2).abs());
        }
    }
    m
});

#[inline(always)]
fn pawn_attacks_bb(pawns: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

#[inline(always)]
fn push(b: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

#[inline(always)]
fn rel_rank(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

#[inline(always)]
fn pst_index(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    }
}

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: S,
    passed: [Bitboard; 2],
}

/// The chess evaluator: shared weights and a per-thread pawn-structure cache.
#[derive(Clone)]
pub struct ChessEval {
    w: Arc<Weights>,
    pawns: Vec<PawnEntry>,
}

impl Default for ChessEval {
    fn default() -> Self {
        ChessEval::new(Arc::new(Weights::default()))
    }
}

impl ChessEval {
    pub fn new(w: Arc<Weights>) -> ChessEval {
        Lazy::force(&MASKS);
        ChessEval {
            w,
            pawns: vec![
                PawnEntry {
                    key: 1,
                    ..PawnEntry::default()
                };
                PAWN_CACHE
            ],
        }
    }

    pub fn weights(&self) -> &Weights {
        &self.w
    }

    fn pawn_entry(&mut self, b: &Board) -> PawnEntry {
        let key = b.pawn_key();
        let slot = (key as usize) & (PAWN_CACHE - 1);
        if self.pawns[slot].key == key {
            return self.pawns[slot];
        }
        let mut play = Play;
        let mut sum = Summed::new(&mut play);
        let passed = pawn_structure(&self.w, b, &mut sum);
        let e = PawnEntry {
            key,
            score: sum.sum,
            passed,
        };
        self.pawns[slot] = e;
        e
    }

    /// The evaluation from White's view (before the side-to-move flip), for tests and tools.
    pub fn white_view(&mut self, b: &Board) -> i32 {
        let v = self.evaluate(b);
        if b.turn() == Color::White {
            v
        } else {
            -v
        }
    }
}

/// Pawn-structure terms into `acc`; returns each side's passed pawns.
fn pawn_structure<K: Sink>(w: &Weights, b: &Board, acc: &mut Summed<'_, K>) -> [Bitboard; 2] {
    let m = &*MASKS;
    let mut passed = [0; 2];
    for us in Color::BOTH {
        let them = !us;
        let own = b.pieces(us, PieceKind::Pawn);
        let theirs = b.pieces(them, PieceKind::Pawn);
        let their_att = pawn_attacks_bb(theirs, them);
        for sq in squares(own) {
            let i = sq.index();
            let f = sq.file() as usize;
            let r = rel_rank(sq, us);
            if own & m.adjacent_files[f] == 0 {
                acc.add(us, &w.isolated, 1);
            }
            if own & m.forward[us.index()][i] != 0 {
                acc.add(us, &w.doubled, 1);
            } else if theirs & m.passed[us.index()][i] == 0 {
                passed[us.index()] |= sq.bb();
                acc.add(us, &w.passed[r], 1);
            }
            let phalanx = own & m.adjacent_files[f] & (0xffu64 << (sq.rank() * 8));
            let support = pawn_attacks_bb(sq.bb(), them) & own;
            if phalanx | support != 0 {
                acc.add(
                    us,
                    &w.connected[r],
                    1 + (phalanx != 0 && support != 0) as i32,
                );
            } else if own & m.adjacent_files[f] & !m.attack_span[us.index()][i] == 0
                && push(sq.bb(), us) & their_att != 0
            {
                // No pawn beside or behind can ever support it, and its advance is covered.
                acc.add(us, &w.backward, 1);
            }
        }
    }
    passed
}

/// Attack maps of one side.
#[derive(Default)]
struct Side {
    by_kind: [Bitboard; 6],
    all: Bitboard,
    /// Squares attacked twice.
    double: Bitboard,
    king_units: i32,
    king_attackers: i32,
}

impl Side {
    #[inline(always)]
    fn add(&mut self, kind: PieceKind, a: Bitboard) {
        self.double |= self.all & a;
        self.all |= a;
        self.by_kind[kind.index()] |= a;
    }
}

impl ChessEval {
    /// Every term but the tempo and mop-up into `acc`, from White's view.
    fn terms<K: Sink>(&mut self, b: &Board, acc: &mut Summed<'_, K>) {
        let passed = if K::TRACE {
            pawn_structure(&self.w, b, acc)
        } else {
            let pe = self.pawn_entry(b);
            acc.fixed(Color::White, pe.score);
            pe.passed
        };
        let w = &*self.w;
        let m = &*MASKS;
        let occ = b.occupied();
        let all_pawns =
            b.pieces(Color::White, PieceKind::Pawn) | b.pieces(Color::Black, PieceKind::Pawn);
        let mut sides = [Side::default(), Side::default()];

        let pawn_att = [
            pawn_attacks_bb(b.pieces(Color::White, PieceKind::Pawn), Color::White),
            pawn_attacks_bb(b.pieces(Color::Black, PieceKind::Pawn), Color::Black),
        ];

        for us in Color::BOTH {
            let them = !us;
            let u = us.index();
            let own_pawns = b.pieces(us, PieceKind::Pawn);
            let their_pawns = b.pieces(them, PieceKind::Pawn);
            let own_queens = b.pieces(us, PieceKind::Queen);
            let their_king = b.king_square(them);
            let zone = m.king_zone[them.index()][their_king.index()];
            let area = !(own_pawns | b.pieces(us, PieceKind::King)) & !pawn_att[them.index()];
            let side = &mut sides[u];
            side.add(PieceKind::Pawn, pawn_att[u]);

            // Material and placement.
            for kind in PieceKind::ALL {
                let pcs = b.pieces(us, kind);
                if kind != PieceKind::King && pcs != 0 {
                    acc.add(us, &w.material[kind.index()], pcs.count_ones() as i32);
                }
                for sq in squares(pcs) {
                    acc.add(us, &w.pst[kind.index()][pst_index(sq, us)], 1);
                }
            }

            // A minor's square that our pawn guards and no enemy pawn can ever attack.
            let outpost = |sq: Square| {
                (3..=5).contains(&rel_rank(sq, us))
                    && pawn_att[u] & sq.bb() != 0
                    && their_pawns & m.attack_span[u][sq.index()] == 0
            };
            let behind_pawn = |sq: Square| push(sq.bb(), us) & all_pawns != 0;

            for sq in squares(b.pieces(us, PieceKind::Knight)) {
                let a = knight_attacks(sq);
                side.add(PieceKind::Knight, a);
                acc.add(us, &w.knight_mobility[(a & area).count_ones() as usize], 1);
                if outpost(sq) {
                    acc.add(us, &w.knight_outpost, 1);
                }
                if behind_pawn(sq) {
                    acc.add(us, &w.minor_behind_pawn, 1);
                }
                if a & zone != 0 {
                    side.king_attackers += 1;
                    let reach = 4 * (a & zone).count_ones() as i32;
                    side.king_units += w.king_attack[1].0 + reach;
                    acc.sink.unit(us, &w.king_attack[1], 1);
                    acc.sink.unit_fixed(us, reach);
                }
            }
            for sq in squares(b.pieces(us, PieceKind::Bishop)) {
                let a = bishop_attacks(sq, occ ^ own_queens);
                side.add(PieceKind::Bishop, a);
                acc.add(us, &w.bishop_mobility[(a & area).count_ones() as usize], 1);
                let same_colour = if sq.bb() & DARK_SQUARES != 0 {
                    DARK_SQUARES
                } else {
                    !DARK_SQUARES
                };
                let bad = (own_pawns & same_colour).count_ones() as i32;
                if bad != 0 {
                    acc.add(us, &w.bishop_bad_pawns, bad);
                }
                if outpost(sq) {
                    acc.add(us, &w.bishop_outpost, 1);
                }
                if behind_pawn(sq) {
                    acc.add(us, &w.minor_behind_pawn, 1);
                }
                if a & zone != 0 {
                    side.king_attackers += 1;
                    let reach = 4 * (a & zone).count_ones() as i32;
                    side.king_units += w.king_attack[2].0 + reach;
                    acc.sink.unit(us, &w.king_attack[2], 1);
                    acc.sink.unit_fixed(us, reach);
                }
            }
            for sq in squares(b.pieces(us, PieceKind::Rook)) {
                let a = rook_attacks(sq, occ ^ own_queens ^ b.pieces(us, PieceKind::Rook));
                side.add(PieceKind::Rook, a);
                acc.add(us, &w.rook_mobility[(a & area).count_ones() as usize], 1);
                let file = file_bb(sq.file());
                if own_pawns & file == 0 {
                    if their_pawns & file == 0 {
                        acc.add(us, &w.rook_open, 1);
                    } else {
                        acc.add(us, &w.rook_semi_open, 1);
                    }
                }
                if rel_rank(sq, us) == 6 {
                    acc.add(us, &w.rook_seventh, 1);
                }
                if a & zone != 0 {
                    side.king_attackers += 1;
                    let reach = 4 * (a & zone).count_ones() as i32;
                    side.king_units += w.king_attack[3].0 + reach;
                    acc.sink.unit(us, &w.king_attack[3], 1);
                    acc.sink.unit_fixed(us, reach);
                }
            }
            for sq in squares(own_queens) {
                let a = queen_attacks(sq, occ);
                side.add(PieceKind::Queen, a);
                acc.add(us, &w.queen_mobility[(a & area).count_ones() as usize], 1);
                if a & zone != 0 {
                    side.king_attackers += 1;
                    let reach = 4 * (a & zone).count_ones() as i32;
                    side.king_units += w.king_attack[4].0 + reach;
                    acc.sink.unit(us, &w.king_attack[4], 1);
                    acc.sink.unit_fixed(us, reach);
                }
            }
            side.add(PieceKind::King, king_attacks(b.king_square(us)));
            if b.pieces(us, PieceKind::Bishop).count_ones() >= 2 {
                acc.add(us, &w.bishop_pair, 1);
            }
        }

        for us in Color::BOTH {
            let them = !us;
            let (u, t) = (us.index(), them.index());
            let their_king = b.king_square(them);
            let their_pawns = b.pieces(them, PieceKind::Pawn);

            // Threats.
            for kind in [
                PieceKind::Pawn,
                PieceKind::Knight,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Queen,
            ] {
                let targets = b.pieces(them, kind);
                if targets == 0 {
                    continue;
                }
                let k = kind.index();
                let defended = sides[t].all;
                let by_pawn = (targets & pawn_att[u]).count_ones() as i32;
                if by_pawn != 0 {
                    acc.add(us, &w.threat_by_pawn[k], by_pawn);
                }
                let minors = sides[u].by_kind[1] | sides[u].by_kind[2];
                let weak = if kind == PieceKind::Pawn {
                    targets & !defended
                } else {
                    targets
                };
                let by_minor = (weak & minors).count_ones() as i32;
                if by_minor != 0 {
                    acc.add(us, &w.threat_by_minor[k], by_minor);
                }
                let rook_targets = if kind == PieceKind::Queen {
                    targets
                } else {
                    targets & !defended
                };
                let by_rook = (rook_targets & sides[u].by_kind[3]).count_ones() as i32;
                if by_rook != 0 {
                    acc.add(us, &w.threat_by_rook[k], by_rook);
                }
                if kind != PieceKind::Pawn {
                    let hanging = (targets & sides[u].all & !defended).count_ones() as i32;
                    if hanging != 0 {
                        acc.add(us, &w.hanging, hanging);
                    }
                }
            }

            // Safe pawn pushes (one or two squares) that would attack a piece.
            let own_pawns = b.pieces(us, PieceKind::Pawn);
            let third = if us == Color::White { RANK_3 } else { RANK_6 };
            let single = push(own_pawns, us) & !occ;
            let pushes = (single | (push(single & third, us) & !occ))
                & !pawn_att[t]
                & (sides[u].all | !sides[t].all);
            let pieces = b.color_bb(them) & !their_pawns & !b.pieces(them, PieceKind::King);
            let by_push = (pawn_attacks_bb(pushes, us) & pieces).count_ones() as i32;
            if by_push != 0 {
                acc.add(us, &w.threat_push, by_push);
            }
            let by_king =
                (sides[u].by_kind[PieceKind::King.index()] & b.color_bb(them) & !sides[t].all)
                    .count_ones();
            if by_king != 0 {
                acc.add(us, &w.threat_by_king, by_king as i32);
            }

            // Squares both attack that they do not hold strongly.
            let strong = pawn_att[t] | (sides[t].double & !sides[u].double);
            let restricted = (sides[t].all & sides[u].all & !strong).count_ones() as i32;
            if restricted != 0 {
                acc.add(us, &w.restricted, restricted);
            }

            // King danger for them: quadratic in the attack units.
            let ksq = their_king;
            let zone = m.king_zone[t][ksq.index()];
            let attackers = sides[u].king_attackers;
            let has_queen = b.pieces(us, PieceKind::Queen) != 0;
            if attackers >= 2 || (attackers >= 1 && has_queen) {
                // Check squares we hold that they do not defend (or defend once against two).
                let safe = !b.color_bb(us)
                    & (!sides[t].all | (sides[u].double & !sides[t].double & !pawn_att[t]));
                let occ = b.occupied();
                let rook_lines = rook_attacks(ksq, occ);
                let bishop_lines = bishop_attacks(ksq, occ);
                let mut units = sides[u].king_units;
                let checks = [
                    knight_attacks(ksq) & sides[u].by_kind[1],
                    bishop_lines & sides[u].by_kind[2],
                    rook_lines & sides[u].by_kind[3],
                    (rook_lines | bishop_lines) & sides[u].by_kind[4],
                ];
                for (i, from) in checks.iter().enumerate() {
                    let n = (from & safe).count_ones().min(2) as i32;
                    units += w.safe_check[i + 1].0 * n;
                    acc.sink.unit(us, &w.safe_check[i + 1], n);
                }
                let weak = (zone & sides[u].all & !sides[t].double & !pawn_att[t]).count_ones();
                units += w.king_zone_weak.0 * weak as i32;
                acc.sink.unit(us, &w.king_zone_weak, weak as i32);
                if !has_queen {
                    units /= 2;
                }
                let danger = (units.max(0) * units.max(0) / DANGER_DIV).min(DANGER_CAP);
                let scale = if has_queen { 1.0 } else { 0.5 };
                acc.danger(us, scale, S(danger, danger / 8));
            } else {
                acc.sink.danger(us, None);
            }

            // Our king's pawn shelter (midgame).
            let ksq_own = b.king_square(us);
            let own_pawns = b.pieces(us, PieceKind::Pawn);
            let kf = ksq_own.file() as i32;
            for f in (kf - 1).max(0)..=(kf + 1).min(7) {
                let file = file_bb(f as u8);
                let front = own_pawns & shift_files(m.forward[u][ksq_own.index()], f - kf);
                let idx = if front == 0 {
                    0
                } else {
                    let nearest = if us == Color::White {
                        Square::new(front.trailing_zeros() as u8)
                    } else {
                        Square::new(63 - front.leading_zeros() as u8)
                    };
                    let d =
                        (rel_rank(nearest, us) as i32 - rel_rank(ksq_own, us) as i32).clamp(1, 7);
                    d as usize
                };
                acc.add(us, &w.shelter[idx], 1);
                let storm = their_pawns & shift_files(m.forward[u][ksq_own.index()], f - kf);
                let storm_idx = if storm == 0 {
                    0
                } else {
                    let nearest = if us == Color::White {
                        Square::new(storm.trailing_zeros() as u8)
                    } else {
                        Square::new(63 - storm.leading_zeros() as u8)
                    };
                    rel_rank(nearest, us)
                };
                acc.add(us, &w.storm[storm_idx], 1);
                if own_pawns & file == 0 {
                    acc.add(us, &w.king_open_file, 1);
                    if their_pawns & file == 0 {
                        acc.add(us, &w.king_open_file, 1);
                    }
                }
            }

            // Our king's nearness to our pawns, and a flank of its with no pawns at all.
            if own_pawns != 0 {
                let near = squares(own_pawns)
                    .map(|p| m.distance[ksq_own.index()][p.index()])
                    .min()
                    .unwrap_or(0);
                if near > 1 {
                    acc.add(us, &w.king_pawn_distance, near - 1);
                }
            }
            let flank = match kf {
                0..=2 => 0x0f0f_0f0f_0f0f_0f0fu64,
                3..=4 => 0x3c3c_3c3c_3c3c_3c3cu64,
                _ => 0xf0f0_f0f0_f0f0_f0f0u64,
            };
            if all_pawns & flank == 0 {
                acc.add(us, &w.pawnless_flank, 1);
            }

            // Passed pawns, with pieces and kings on the board.
            for sq in squares(passed[u]) {
                let r = rel_rank(sq, us);
                if b.pieces(us, PieceKind::Rook) & m.forward[t][sq.index()] != 0 {
                    acc.add(us, &w.rook_behind_passer, 1);
                }
                let stop = push(sq.bb(), us);
                if stop & b.occupied() == 0 && stop & sides[t].all == 0 {
                    acc.add(us, &w.passed_free[r], 1);
                }
                if stop != 0 {
                    let st = stop.trailing_zeros() as usize;
                    let own = m.distance[ksq_own.index()][st];
                    if own != 0 {
                        acc.add(us, &w.passed_own_king[r], own);
                    }
                    let their = m.distance[ksq.index()][st];
                    if their != 0 {
                        acc.add(us, &w.passed_their_king[r], their);
                    }
                }
            }
        }
    }
}

impl Evaluator<Board> for ChessEval {
    fn evaluate(&mut self, b: &Board) -> i32 {
        let mut play = Play;
        let mut acc = Summed::new(&mut play);
        self.terms(b, &mut acc);
        let total = acc.sum;
        let w = &*self.w;
        let phase = b.phase();
        let stm = b.turn();
        let mut mg = total.0;
        let mut eg = total.1;
        eg = eg * endgame_scale(b, eg) / 64;
        eg += mop_up(b);
        let tempo = w.tempo;
        if stm == Color::White {
            mg += tempo.0;
            eg += tempo.1;
        } else {
            mg -= tempo.0;
            eg -= tempo.1;
        }
        let mut v = (mg * phase + eg * (24 - phase)) / 24;
        // Long quiet shuffling leads towards the 50-move draw.
        v = v * (200 - b.halfmove_clock().min(100) as i32) / 200;
        if stm == Color::White {
            v
        } else {
            -v
        }
    }
}

impl LinearEval<Board> for ChessEval {
    fn weight_list(&self) -> Vec<WeightInfo> {
        self.w.weight_list()
    }

    fn with_weights(&self, values: &[(i32, i32)]) -> Result<ChessEval, String> {
        let w = Weights::from_flat(&self.w, values)?;
        Ok(ChessEval::new(Arc::new(w)))
    }

    /// The same sum as `evaluate`, with the blend folded into each weight's coefficients:
    /// the drawish scaling (decided by the current weights' endgame sum) applies to every
    /// term's endgame half but the tempo's; mop-up is the constant; king danger is a quadratic
    /// term over the unit weights' midgame halves.
    fn linear_form(&mut self, b: &Board) -> LinearForm {
        // A handle of its own: the tracer borrows the table while `terms` takes `self`.
        let w = Arc::clone(&self.w);
        let mut t = Tracer::new(&*w, Weights::flat_index);
        let mut summed = Summed::new(&mut t);
        self.terms(b, &mut summed);
        let total = summed.sum;
        let phase = b.phase() as f32;
        let scale = endgame_scale(b, total.1) as f32 / 64.0;
        let shrink = (200 - b.halfmove_clock().min(100) as i32) as f32 / 200.0;
        let mg_f = phase / 24.0 * shrink;
        let eg_f = (24.0 - phase) / 24.0 * shrink;
        let mut f = FormBuilder::new();
        t.fold_counts(&mut f, mg_f, scale, eg_f);
        let sign = if b.turn() == Color::White { 1.0 } else { -1.0 };
        let tempo = t.index_of(&self.w.tempo);
        f.term(tempo, sign * mg_f, sign * eg_f);
        f.constant(t.fixed.0 as f32 * mg_f + t.fixed.1 as f32 * scale * eg_f);
        f.constant(mop_up(b) as f32 * eg_f);
        // S(danger, danger / 8), with the units halved without a queen (the danger's scale).
        t.fold_dangers(
            &mut f,
            DANGER_DIV as f32,
            DANGER_CAP as f32,
            mg_f + scale * eg_f / 8.0,
        );
        f.build()
    }

    fn weights_source(&self, doc: &str) -> String {
        self.w.tuned_source(doc)
    }
}

/// Shifts a file-confined mask sideways by `df` files (masking wrap-around).
#[inline(always)]
fn shift_files(b: Bitboard, df: i32) -> Bitboard {
    match df {
        -1 => (b & !FILE_A) >> 1,
        1 => (b & !FILE_H) << 1,
        _ => b,
    }
}

/// Scale (out of 64) of the endgame half when the side ahead (by `eg`'s sign) may not win.
fn endgame_scale(b: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let pawns = b.pieces(strong, PieceKind::Pawn).count_ones();
    let npm = |c: Color| {
        b.pieces(c, PieceKind::Knight).count_ones() as i32 * 3
            + b.pieces(c, PieceKind::Bishop).count_ones() as i32 * 3
            + b.pieces(c, PieceKind::Rook).count_ones() as i32 * 5
            + b.pieces(c, PieceKind::Queen).count_ones() as i32 * 9
    };
    let (s, w) = (npm(strong), npm(weak));
    if pawns == 0 {
        if s - w <= 3 {
            // A minor piece up at most (or less): hardly winnable without pawns.
            return if s <= 3 { 0 } else { 8 };
        }
        if s == 6
            && b.pieces(strong, PieceKind::Knight).count_ones() == 2
            && w == 0
            && b.pieces(weak, PieceKind::Pawn) == 0
        {
            return 4; // two knights cannot force mate
        }
    }
    // Opposite-coloured bishops.
    let wb = b.pieces(Color::White, PieceKind::Bishop);
    let bb = b.pieces(Color::Black, PieceKind::Bishop);
    if wb.count_ones() == 1 && bb.count_ones() == 1 {
        let wd = wb & DARK_SQUARES != 0;
        let bd = bb & DARK_SQUARES != 0;
        if wd != bd {
            return if npm(Color::White) == 3 && npm(Color::Black) == 3 {
                30
            } else {
                48
            };
        }
    }
    if pawns == 1 && s <= w {
        return 32; // a lone pawn against equal pieces
    }
    64
}

/// Drives a bare king to the edge (to a corner of the bishop's colour with bishop and knight)
/// and brings the attacking king closer, from White's view.
fn mop_up(b: &Board) -> i32 {
    let m = &*MASKS;
    for strong in Color::BOTH {
        let weak = !strong;
        if b.color_bb(weak) != b.pieces(weak, PieceKind::King) {
            continue;
        }
        let heavy = b.pieces(strong, PieceKind::Queen) | b.pieces(strong, PieceKind::Rook);
        let bishops = b.pieces(strong, PieceKind::Bishop);
        let knights = b.pieces(strong, PieceKind::Knight);
        let mating = heavy != 0
            || bishops.count_ones() >= 2
            || (bishops != 0 && knights != 0)
            || b.pieces(strong, PieceKind::Pawn) != 0;
        if !mating {
            continue;
        }
        let wk = b.king_square(weak);
        let sk = b.king_square(strong);
        let (f, r) = (wk.file() as i32, wk.rank() as i32);
        let edge = (3 - f).max(f - 4) + (3 - r).max(r - 4); // 0 centre .. 6 corner
        let mut v = 40 * edge + 20 * (7 - m.distance[sk.index()][wk.index()]);
        if heavy == 0 && bishops.count_ones() == 1 && knights != 0 {
            // Bishop and knight: only the corners of the bishop's colour mate.
            let dark = bishops & DARK_SQUARES != 0;
            let corners: [usize; 2] = if dark { [0, 63] } else { [7, 56] };
            let d = corners
                .iter()
                .map(|&c| m.distance[wk.index()][c])
                .min()
                .unwrap_or(7);
            v += 60 * (7 - d);
        }
        if b.pieces(strong, PieceKind::Pawn) != 0 && heavy == 0 {
            v /= 4; // pawns promote on their own; only help a little
        }
        return if strong == Color::White { v } else { -v };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn eval(fen: &str) -> i32 {
        ChessEval::default().evaluate(&Board::from_text(fen).unwrap())
    }

    fn eval_with(w: &Weights, fen: &str) -> i32 {
        ChessEval::new(Arc::new(w.clone())).evaluate(&Board::from_text(fen).unwrap())
    }

    /// The same position with colours swapped (board mirrored top to bottom).
    fn colour_flip(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling: String = if f[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = f[2]
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect();
            c.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
            c.into_iter().collect()
        };
        format!("{} {side} {castling} - {} {}", ranks.join("/"), f[4], f[5])
    }

    const POSITIONS: [&str; 8] = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2Q1RK1 b - - 3 10",
        "6k1/5ppp/8/3P4/8/8/5PPP/3R2K1 w - - 0 30",
        "8/5k2/8/3P4/8/8/2K5/8 w - - 0 50",
        "r4rk1/1b2qppp/p3pn2/1p6/3N4/1BP1Q3/PP3PPP/R4RK1 w - - 0 17",
        "2kr3r/ppp2q2/2n1b3/3pPp1p/3P1Q2/2P1B3/P1B3PP/R4RK1 b - - 1 20",
        "8/8/4k3/8/1B6/4K3/4N3/8 w - - 0 60",
        "4r1k1/pp3ppp/8/3n4/8/1B6/PP3PPP/4R1K1 b - - 0 25",
    ];

    #[test]
    fn start_position_is_worth_the_tempo_and_colours_are_symmetric() {
        // Every term cancels in the start position except the mover's tempo (midgame phase).
        let e = ChessEval::default();
        let tempo = e.weights().tempo.0;
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            tempo
        );
        // Colour-flipped positions evaluate the same for the side to move, with both tables.
        for w in [Weights::default(), Weights::geometric()] {
            for fen in POSITIONS {
                let flipped = colour_flip(fen);
                assert_eq!(
                    eval_with(&w, fen),
                    eval_with(&w, &flipped),
                    "{fen} vs {flipped}"
                );
            }
        }
    }

    #[test]
    fn material_and_structure_point_the_right_way() {
        // A queen up is winning; the side to move's view flips the sign.
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 600);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -600);
        // A knight up without pawns is nearly a draw.
        assert!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").abs() < 60);
        // With the hand-made table, an advanced passed pawn is worth more than one further back.
        let g = Weights::geometric();
        let far = eval_with(&g, "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
        let near = eval_with(&g, "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1");
        assert!(far > near + 30, "{far} vs {near}");
    }

    #[test]
    fn mop_up_prefers_the_cornered_king() {
        let centre = eval("8/8/8/4k3/8/8/8/1R2K3 w - - 0 1");
        let corner = eval("k7/8/8/8/8/8/8/1R2K3 w - - 0 1");
        assert!(corner > centre, "{corner} vs {centre}");
    }

    /// Positions from random games (some captures, promotions, bare kings), seeded.
    fn random_positions(count: usize, seed: u64) -> Vec<Board> {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        (0..count)
            .map(|_| crate::testutil::random_playout(&mut rng, 160, 0.7))
            .collect()
    }

    #[test]
    fn the_linear_form_reproduces_the_evaluation() {
        let mut boards = random_positions(600, 7);
        boards.extend(POSITIONS.iter().map(|f| Board::from_text(f).unwrap()));
        for w in [Weights::default(), Weights::geometric(), Weights::fitted()] {
            let mut e = ChessEval::new(Arc::new(w.clone()));
            let flat: Vec<(f32, f32)> = e
                .weight_list()
                .iter()
                .map(|x| (x.mg as f32, x.eg as f32))
                .collect();
            let mut worst = 0f32;
            let mut dangerous = 0;
            for b in &boards {
                let form = e.linear_form(b);
                dangerous += !form.quadratic.is_empty() as usize;
                let linear = form.value(&flat);
                let exact = e.white_view(b) as f32;
                // Integer divisions (scaling, blend, 50-move shrink, king danger) round towards
                // zero.
                assert!(
                    (linear - exact).abs() < 3.0,
                    "{}: linear {linear} exact {exact}",
                    b.to_text()
                );
                worst = worst.max((linear - exact).abs());
            }
            assert!(
                worst > 0.0,
                "rounding never showed: is the form compared at all?"
            );
            assert!(dangerous > 50, "king danger in only {dangerous} positions");
        }
    }

    #[test]
    fn the_linear_form_follows_changed_weights() {
        // Change every weight pair and compare the form (built once) with the evaluation under
        // the new table: the form must be linear in the weights, not tied to their values.
        let boards = random_positions(200, 11);
        let mut base = ChessEval::default();
        let infos = base.weight_list();
        let changed: Vec<(i32, i32)> = infos
            .iter()
            .enumerate()
            .map(|(i, x)| (x.mg + (i as i32 % 7) - 3, x.eg + (i as i32 % 5) - 2))
            .collect();
        let mut other = base.with_weights(&changed).unwrap();
        let flat: Vec<(f32, f32)> = changed.iter().map(|&(a, b)| (a as f32, b as f32)).collect();
        let mut same_scale = 0;
        let mut dangerous = 0;
        for b in &boards {
            let form = base.linear_form(b);
            // The drawish scaling and king danger are fixed at the first table's values, so
            // compare where neither moved.
            let traced = |e: &mut ChessEval| {
                let w = Arc::clone(&e.w);
                let mut t = Tracer::new(&*w, Weights::flat_index);
                let mut summed = Summed::new(&mut t);
                e.terms(b, &mut summed);
                let total = summed.sum;
                (total, t.fixed)
            };
            let (total, fixed) = traced(&mut other);
            let (total0, fixed0) = traced(&mut base);
            if endgame_scale(b, total.1) != endgame_scale(b, total0.1) || fixed != fixed0 {
                continue;
            }
            same_scale += 1;
            dangerous += !form.quadratic.is_empty() as usize;
            let exact = other.white_view(b) as f32;
            assert!((form.value(&flat) - exact).abs() < 3.0, "{}", b.to_text());
        }
        assert!(same_scale > 100);
        assert!(dangerous > 20, "{dangerous}");
    }

    #[test]
    fn weights_round_trip_through_the_flat_list() {
        let e = ChessEval::new(Arc::new(Weights::fitted()));
        let flat: Vec<(i32, i32)> = e.weight_list().iter().map(|x| (x.mg, x.eg)).collect();
        let again = e.with_weights(&flat).unwrap();
        assert_eq!(*again.weights(), Weights::fitted());
        assert!(e.with_weights(&flat[1..]).is_err());
        let src = Weights::fitted().tuned_source("test");
        assert!(src.contains("pub(crate) const TUNED: crate::linear::Tuned = &[\n"));
        assert!(src.contains("    (\"bishop_pair\", &[(31, 61)]),\n"));
    }
}
