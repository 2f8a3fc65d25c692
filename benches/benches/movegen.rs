//! Chess move generation: perft from the start position and from Kiwipete, through the chess
//! perft (last ply counted by popcount) and through the generic perft (every ply listed), plus
//! plain generation and make/unmake of every move.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tetrarch::game::{GenKind, MoveList, Notation, Position};
use tetrarch::games::chess::Board;

const POSITIONS: [(&str, &str, u32, u64); 2] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in POSITIONS {
        let board = Board::from_text(fen).unwrap();
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("bulk", name), &board, |b, board| {
            let mut pos = board.clone();
            b.iter(|| assert_eq!(pos.perft(depth), nodes));
        });
        group.bench_with_input(BenchmarkId::new("generic", name), &board, |b, board| {
            let mut pos = board.clone();
            b.iter(|| assert_eq!(tetrarch::perft::perft(&mut pos, depth), nodes));
        });
    }
    group.finish();
}

fn generate_and_make(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_movegen");
    for (name, fen, _, _) in POSITIONS {
        let board = Board::from_text(fen).unwrap();
        group.bench_with_input(
            BenchmarkId::new("generate_all", name),
            &board,
            |b, board| {
                b.iter(|| {
                    let mut list = MoveList::new();
                    board.generate(GenKind::All, &mut list);
                    list.len()
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("make_unmake_all", name),
            &board,
            |b, board| {
                let mut pos = board.clone();
                let mut list = MoveList::new();
                pos.generate(GenKind::All, &mut list);
                b.iter(|| {
                    let mut checks = 0;
                    for &m in &list {
                        let undo = pos.make(m);
                        checks += pos.in_check() as u32;
                        pos.unmake(m, undo);
                    }
                    checks
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, perft, generate_and_make);
criterion_main!(benches);
