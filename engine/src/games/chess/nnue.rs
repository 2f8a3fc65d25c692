//! Chess behind the network code: the 768 inputs and the evaluator the protocols switch.
//!
//! Scheme: [`Chess768`] is one input per (colour relative to the perspective, kind, square),
//! `rel * 384 + kind * 64 + square`, with the board mirrored vertically (square ^ 56) for
//! Black's perspective, so both perspectives see "our pieces move up", and mirrored a-h
//! (square ^ 7) for a perspective whose own king stands on files e-h, so each perspective
//! sees its king on the queen's side ("horizontal mirroring"): what a net learns about a
//! king's shelter on one wing serves the other, which halves what the data must teach. A
//! move changes at most two inputs on and two off per perspective (castling); a king move
//! across the d/e boundary re-mirrors its own side's view and asks for that perspective's
//! refresh. The output bucket is the number of pieces on the board (kings included), in
//! eight bands of four, so the last layer can weigh the hidden units apart in the endgame.
//! [`ChessEvaluator`] is the evaluator the UCI session plays with: the hand-written
//! evaluation ([`ChessEval`], the default, which the Texel tuner fits) or a network, chosen
//! by the `Use NNUE` option; the hooks cost one predictable branch per move when the network
//! is off, and the searches the bench runs use `ChessEval` directly.

use std::sync::Arc;

use arrayvec::ArrayVec;

use super::bitboard::squares;
use super::board::{Board, CastlingSetup};
use super::eval::ChessEval;
use super::types::{code_color, code_kind, Color, Move, PieceKind, Square, NO_PIECE};
use crate::game::{Evaluator, Side};
use crate::nnue::{Delta, FeatureSet, Network, NnueEval, MAX_ACTIVE};

/// The 768 piece-square inputs, mirrored to the king's wing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chess768;

/// Whether a perspective whose king stands on `king_sq` sees the board mirrored a-h.
#[inline(always)]
pub fn mirrored(king_sq: usize) -> bool {
    king_sq & 7 >= 4
}

/// The input of a piece of colour `color` and kind `kind` on `sq`, seen from `perspective`,
/// whose view is mirrored a-h when `mirror` (see [`mirrored`]).
#[inline(always)]
pub fn feature(perspective: Side, color: usize, kind: usize, sq: usize, mirror: bool) -> usize {
    let p = perspective.index();
    let rel = usize::from(color != p);
    let sq = if p == 0 { sq } else { sq ^ 56 };
    let sq = if mirror { sq ^ 7 } else { sq };
    rel * 384 + kind * 64 + sq
}

/// The output bucket of a position with `pieces` pieces on the board (kings included).
#[inline(always)]
pub fn bucket_of(pieces: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(Chess768::OUTPUT_BUCKETS - 1)
}

/// The inputs of both perspectives (side to move's first) and the output bucket of a
/// position given by its pieces `(colour, kind, square)` (colour 0 White, kind 0 pawn to 5
/// king): the trainer's reading of a record, by the same rules as [`Chess768`].
pub fn inputs_of_pieces(
    white_to_move: bool,
    pieces: &[(usize, usize, usize)],
) -> ([ArrayVec<u16, MAX_ACTIVE>; 2], usize) {
    let stm = if white_to_move {
        Side::First
    } else {
        Side::Second
    };
    let king = PieceKind::King.index();
    let mut flip = [false; 2];
    for &(color, kind, sq) in pieces {
        if kind == king {
            flip[color] = mirrored(sq);
        }
    }
    let view = |p: Side| {
        pieces
            .iter()
            .take(MAX_ACTIVE)
            .map(|&(color, kind, sq)| feature(p, color, kind, sq, flip[p.index()]) as u16)
            .collect::<ArrayVec<u16, MAX_ACTIVE>>()
    };
    ([view(stm), view(stm.flip())], bucket_of(pieces.len()))
}

/// Whether `perspective` sees `pos` mirrored.
#[inline(always)]
fn flip_of(pos: &Board, perspective: usize) -> bool {
    let color = if perspective == 0 {
        Color::White
    } else {
        Color::Black
    };
    mirrored(pos.king_square(color).index())
}

impl FeatureSet<Board> for Chess768 {
    const NAME: &'static str = "chess768hm";
    const INPUTS: usize = 768;
    const OUTPUT_BUCKETS: usize = 8;

    #[inline]
    fn output_bucket(pos: &Board) -> usize {
        bucket_of(pos.occupied().count_ones() as usize)
    }

    fn active(pos: &Board, perspective: Side, out: &mut ArrayVec<u16, MAX_ACTIVE>) {
        let flip = flip_of(pos, perspective.index());
        for sq in squares(pos.occupied()) {
            let code = pos.mailbox[sq.index()];
            out.push(feature(
                perspective,
                code_color(code),
                code_kind(code),
                sq.index(),
                flip,
            ) as u16);
        }
    }

    #[inline]
    fn delta(pos: &Board, m: Move) -> Delta {
        let mut d = Delta::default();
        let us = pos.side.index();
        let (from, to) = (m.from(), m.to());
        let code = pos.mailbox[from.index()];
        let kind = code_kind(code);
        let flip = [flip_of(pos, 0), flip_of(pos, 1)];
        let mut piece = |on: bool, color: usize, kind: usize, sq: Square| {
            d.push(on, |p| feature(p, color, kind, sq.index(), flip[p.index()]));
        };
        let king_to = if m.is_castle() {
            // The king "takes" its own rook: `to` is the rook's square.
            let index = us * 2 + usize::from(to.file() < from.file());
            let (kto, rto) = CastlingSetup::destinations(index);
            let rook = PieceKind::Rook.index();
            piece(false, us, kind, from);
            piece(false, us, rook, to);
            piece(true, us, kind, kto);
            piece(true, us, rook, rto);
            Some(kto)
        } else if m.is_en_passant() {
            let cap = Square::from_file_rank(to.file(), from.rank());
            piece(false, us, kind, from);
            piece(false, 1 - us, PieceKind::Pawn.index(), cap);
            piece(true, us, kind, to);
            None
        } else {
            let captured = pos.mailbox[to.index()];
            if captured != NO_PIECE {
                piece(false, code_color(captured), code_kind(captured), to);
            }
            piece(false, us, kind, from);
            let placed = m.promotion_kind().map_or(kind, PieceKind::index);
            piece(true, us, placed, to);
            (kind == PieceKind::King.index()).then_some(to)
        };
        // A king crossing to the other wing turns its own side's whole view.
        if king_to.is_some_and(|k| mirrored(k.index()) != flip[us]) {
            d.side[us].refresh = true;
        }
        d
    }
}

/// The chess network evaluator.
pub type ChessNnue = NnueEval<Board, Chess768>;

/// Reads a chess network file.
pub fn load_network(bytes: &[u8]) -> Result<Network, String> {
    Network::from_bytes(
        bytes,
        Chess768::NAME,
        Chess768::INPUTS,
        Chess768::OUTPUT_BUCKETS,
    )
}

/// The default network file, built into the binary (`engine/nets/`; README says how it was
/// made and how to rebuild it).
const EMBEDDED: &[u8] = include_bytes!("../../../nets/chess-default.tnn");

/// The network built into the binary (read once), or `None` if the embedded file does not
/// load (a test makes sure it does).
pub fn embedded_network() -> Option<Arc<Network>> {
    static NET: std::sync::OnceLock<Option<Arc<Network>>> = std::sync::OnceLock::new();
    NET.get_or_init(|| load_network(EMBEDDED).ok().map(Arc::new))
        .clone()
}

/// The evaluation a chess session plays with: hand-written or network.
#[derive(Clone)]
pub enum ChessEvaluator {
    Hand(ChessEval),
    Net(Box<ChessNnue>),
}

impl Default for ChessEvaluator {
    fn default() -> Self {
        ChessEvaluator::Hand(ChessEval::default())
    }
}

impl ChessEvaluator {
    /// The network evaluator for `net`.
    pub fn network(net: Arc<Network>) -> ChessEvaluator {
        ChessEvaluator::Net(Box::new(ChessNnue::new(net)))
    }
}

impl Evaluator<Board> for ChessEvaluator {
    #[inline]
    fn evaluate(&mut self, pos: &Board) -> i32 {
        match self {
            ChessEvaluator::Hand(e) => e.evaluate(pos),
            ChessEvaluator::Net(e) => e.evaluate(pos),
        }
    }

    #[inline]
    fn on_make(&mut self, pos: &Board, m: Move) {
        if let ChessEvaluator::Net(e) = self {
            e.on_make(pos, m);
        }
    }

    #[inline]
    fn on_make_null(&mut self, pos: &Board) {
        if let ChessEvaluator::Net(e) = self {
            e.on_make_null(pos);
        }
    }

    #[inline]
    fn on_unmake(&mut self) {
        if let ChessEvaluator::Net(e) = self {
            e.on_unmake();
        }
    }
}

/// The active inputs of both perspectives, side to move's first, and the output bucket (for
/// the trainer and tests).
pub fn inputs(pos: &Board) -> ([ArrayVec<u16, MAX_ACTIVE>; 2], usize) {
    let stm: Side = pos.turn().into();
    let views = [stm, stm.flip()].map(|p| {
        let mut v = ArrayVec::new();
        Chess768::active(pos, p, &mut v);
        v
    });
    (views, Chess768::output_bucket(pos))
}

/// White's view of a side-to-move score.
pub fn white_score(pos: &Board, score: i32) -> i32 {
    if pos.turn() == Color::White {
        score
    } else {
        -score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GenKind, MoveList, Notation, Position};
    use crate::nnue::simd::Level;
    use crate::nnue::{QA, W2_MAX};
    use crate::testutil::random_playout;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn random_net(seed: u64, hidden: usize) -> Arc<Network> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut net = Network::zeroed(Chess768::NAME, 768, hidden, Chess768::OUTPUT_BUCKETS);
        net.ft_weights
            .iter_mut()
            .for_each(|w| *w = rng.gen_range(-40..=40));
        net.ft_bias
            .iter_mut()
            .for_each(|w| *w = rng.gen_range(-20..=QA));
        net.out_weights
            .iter_mut()
            .for_each(|w| *w = rng.gen_range(-W2_MAX..=W2_MAX));
        net.out_bias
            .iter_mut()
            .for_each(|b| *b = rng.gen_range(-20_000..=20_000));
        Arc::new(net)
    }

    const FENS: [&str; 4] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "1r2k2r/8/8/8/8/8/8/R3K1R1 w KQk - 0 1",
    ];

    fn legal(b: &Board) -> Vec<Move> {
        let mut moves = MoveList::new();
        b.generate(GenKind::All, &mut moves);
        moves.to_vec()
    }

    #[test]
    fn incremental_accumulators_equal_a_refresh_after_random_make_and_unmake() {
        let net = random_net(1, 64);
        let mut rng = SmallRng::seed_from_u64(2);
        for level in Level::available() {
            for fen in FENS.iter().copied().chain(["startpos"]) {
                let mut b = if fen == "startpos" {
                    Board::start()
                } else {
                    Board::from_text(fen).unwrap()
                };
                b.set_chess960(fen.starts_with("1r2k"));
                let mut e = ChessNnue::with_level(net.clone(), level);
                let mut line = Vec::new();
                for step in 0..400 {
                    let moves = legal(&b);
                    // Walk down, sometimes back up, evaluating at random plies (laziness).
                    if moves.is_empty() || line.len() > 12 || (step % 3 == 2 && !line.is_empty()) {
                        let (m, undo) = line.pop().unwrap();
                        b.unmake(m, undo);
                        e.on_unmake();
                    } else {
                        let m = moves[rng.gen_range(0..moves.len())];
                        e.on_make(&b, m);
                        let undo = b.make(m);
                        line.push((m, undo));
                    }
                    assert_eq!(e.depth(), line.len());
                    if rng.gen_bool(0.4) {
                        assert_eq!(
                            e.accumulators(&b),
                            e.refreshed(&b),
                            "{level:?} {fen} step {step}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_level_matches_the_integer_and_float_references() {
        let net = random_net(3, 256);
        let mut rng = SmallRng::seed_from_u64(4);
        let levels = Level::available();
        let mut evals: Vec<ChessNnue> = levels
            .iter()
            .map(|&l| ChessNnue::with_level(net.clone(), l))
            .collect();
        for _ in 0..200 {
            let b: Board = random_playout(&mut rng, 120, 0.3);
            let ([us, them], bucket) = inputs(&b);
            let want = net.reference_eval(&us, &them, bucket);
            for (e, level) in evals.iter_mut().zip(&levels) {
                assert_eq!(e.evaluate(&b), want, "{level:?} {}", b.to_text());
            }
            let float = net.float_eval(&us, &them, bucket);
            // Integer division truncates twice: within two centipawns of the float model.
            assert!((float - want as f64).abs() <= 2.0, "{float} vs {want}");
        }
    }

    /// A queen up is worth a lot to a trained network, from either side's view.
    fn assert_sees_material(net: Arc<Network>) {
        assert_eq!((net.inputs, net.hidden), (768, 256));
        let mut e = ChessNnue::new(net);
        let up = Board::from_text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let down = Board::from_text("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(e.evaluate(&up) > 300, "{}", e.evaluate(&up));
        assert!(e.evaluate(&down) < -300, "{}", e.evaluate(&down));
    }

    #[test]
    fn the_embedded_network_loads_and_sees_material() {
        assert_sees_material(embedded_network().expect("the embedded network loads"));
    }

    /// The candidate network (README, "Fine-tuning") is kept in the repository for the SPRT
    /// that decides whether it replaces the embedded one: it must load through `EvalFile`'s
    /// reader, play sensibly, and be another network than the embedded one.
    #[test]
    fn the_candidate_network_loads_and_differs_from_the_embedded_one() {
        let bytes: &[u8] = include_bytes!("../../../nets/chess-candidate.tnn");
        assert_ne!(bytes, EMBEDDED);
        assert_sees_material(Arc::new(load_network(bytes).expect("the candidate loads")));
    }

    #[test]
    fn a_position_and_its_wing_mirror_evaluate_alike() {
        let net = random_net(7, 64);
        let mut e = ChessNnue::new(net);
        // Kings on opposite wings, so each perspective turns the other way.
        for (a, b) in [
            (
                "6k1/5pp1/2n4p/8/3P4/2N5/PP3PPP/2K5 w - - 0 1",
                "1k6/1pp5/p4n2/8/4P3/5N2/PPP3PP/5K2 w - - 0 1",
            ),
            (
                "r3k3/8/8/8/8/8/8/4K2R b - - 0 1",
                "3k3r/8/8/8/8/8/8/R2K4 b - - 0 1",
            ),
        ] {
            let a = Board::from_text(a).unwrap();
            let b = Board::from_text(b).unwrap();
            assert_eq!(e.evaluate(&a), e.evaluate(&b));
        }
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        let net = random_net(5, 64);
        let mut e = ChessNnue::new(net);
        let a = Board::from_text("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1").unwrap();
        let b = Board::from_text("4k3/8/2n5/8/3P4/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(e.evaluate(&a), e.evaluate(&b));
    }

    /// Checks on every evaluation that the search kept the stack in step with the board.
    #[derive(Clone)]
    struct Checked(ChessNnue, Arc<AtomicUsize>, Arc<AtomicUsize>);

    impl Evaluator<Board> for Checked {
        fn evaluate(&mut self, pos: &Board) -> i32 {
            self.2.fetch_add(1, Ordering::Relaxed);
            if self.0.accumulators(pos) != self.0.refreshed(pos) {
                self.1.fetch_add(1, Ordering::Relaxed);
            }
            self.0.evaluate(pos)
        }
        fn on_make(&mut self, pos: &Board, m: Move) {
            self.0.on_make(pos, m)
        }
        fn on_make_null(&mut self, pos: &Board) {
            self.0.on_make_null(pos)
        }
        fn on_unmake(&mut self) {
            self.0.on_unmake()
        }
    }

    #[test]
    fn the_search_keeps_the_stack_in_step() {
        use crate::limits::Limits;
        use crate::search::Engine;
        let bad = Arc::new(AtomicUsize::new(0));
        let seen = Arc::new(AtomicUsize::new(0));
        let eval = Checked(ChessNnue::new(random_net(6, 32)), bad.clone(), seen.clone());
        // Whole games with one engine: every search starts at a new root and stops at its
        // node limit somewhere inside the tree, which must leave the stack balanced.
        for fen in FENS.iter().take(3) {
            let mut pos = Board::from_text(fen).unwrap();
            let mut engine = Engine::new(pos.clone(), eval.clone());
            for _ in 0..12 {
                let found = crate::selfplay::search(&mut engine, &pos, Limits::nodes(1500));
                let Some(m) = found.best else { break };
                pos.make(m);
            }
        }
        assert!(seen.load(Ordering::Relaxed) > 10_000);
        assert_eq!(bad.load(Ordering::Relaxed), 0);
    }
}
