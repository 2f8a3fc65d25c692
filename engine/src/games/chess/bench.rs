//! The positions of `tetrarch bench` for chess, whose total node count at [`DEPTH`] is the
//! engine's signature (the one OpenBench knows).
//!
//! Scheme: the set spans openings, middlegames, sharp tactics and endgames: the project's
//! perft reference positions, middlegames reached by playing common openings (written out by
//! us and converted to FEN), and composed endgames. Changing a position changes the
//! signature.

/// The depth each position is searched to.
pub const DEPTH: u32 = 13;

/// The positions, as FEN.
pub const POSITIONS: &[&str] = &[
    // Perft reference positions (testdata/chess_perft.epd).
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    // Openings played out to the middlegame (Italian, Sicilian English attack, QGD, King's
    // Indian, Ruy Lopez, French Winawer, English, Caro-Kann, Slav, King's Gambit,
    // Scandinavian, King's Indian Attack, Scotch, Nimzo-Indian).
    "r1bqr1k1/bpp2pp1/p1np1n1p/4p3/4P3/1BPP1N1P/PP1N1PP1/R1BQR1K1 w - - 2 11",
    "r2q1rk1/3nbppp/p2pbn2/4p1P1/1p2P3/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 13",
    "r1b2rk1/pp1nqppp/2p5/4p3/2BP4/2R1PN2/PP3PPP/3Q1RK1 w - - 0 13",
    "r1bq1rk1/ppp1n1bp/3p1n2/2PPp1p1/4Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 14",
    "r1b2rk1/2q1bppp/2np1n2/pp2p3/3PP3/1N3N1P/PPB2PP1/R1BQR1K1 w - - 0 15",
    "r1b1k1r1/ppq1np1Q/2n1p3/3pP3/5P2/P1p5/2P1N1PP/R1B1KB1R w KQq - 0 12",
    "r2q1rk1/1pp1bppp/1n2b3/pP2p3/3n4/P1NP1NP1/4PPBP/R1BQ1RK1 w - - 1 12",
    "r3kb1r/pp1q1ppp/2n1p3/4Pb2/Q1B5/4B3/PP3PPP/RN2K2R w KQkq - 1 12",
    "r2q1rk1/pp1n1ppp/4p3/3pP2b/Pb1P4/3B1N2/1P2QPPP/R1B2RK1 w - - 0 14",
    "rnb2rk1/ppp2p1p/3b4/3PN2n/2BP1pp1/8/PPP3P1/RNB1R1K1 w - - 1 12",
    "r3k2r/ppqn1ppp/4pn2/3p1b2/2B5/P1B2N2/1PP1QPPP/2KR3R w kq - 0 13",
    "r1bq1rk1/3nbppp/2n1p3/2ppP3/pp3B1P/P2P1NP1/1PP2PB1/R2QRNK1 b - - 0 13",
    "3rk2r/ppp1nppp/1bp1bq2/8/N3P3/2PB4/PP1Q1PPP/R1B2RK1 w k - 1 12",
    "rn3rk1/p4ppp/bq2pn2/2p3B1/Q7/P3PN2/1P3PPP/R3KB1R w KQ - 1 13",
    // Endgames: rook, bishop and knight mate, pawn race, minor pieces, opposite bishops,
    // back-rank rook ending.
    "8/8/4k3/3r4/8/3KP3/8/4R3 w - - 0 1",
    "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1",
    "8/p6k/8/8/8/8/6P1/K7 w - - 0 1",
    "8/5pk1/6p1/3n3p/7P/4B1P1/5PK1/8 w - - 0 1",
    "8/4kp2/3b2p1/7p/2B4P/6P1/5PK1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];
