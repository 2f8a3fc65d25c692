//! The positions of `tetrarch bench --game xiangqi`, whose total node count at [`DEPTH`] is
//! the xiangqi signature.
//!
//! Scheme: the start, positions from the xiangqi perft file, middlegames from Tetrarch's own
//! games against Fairy-Stockfish (common openings), and endgames. Changing a position changes
//! the signature.

/// The depth each position is searched to.
pub const DEPTH: u32 = 12;

/// The positions, as FEN.
pub const POSITIONS: &[&str] = &[
    // The start, and perft reference positions (testdata/xiangqi_perft.epd).
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    // Middlegames from games between Tetrarch and Fairy-Stockfish (central cannon openings).
    "r1baka2r/9/2n1b2R1/p3n3p/1cp3p2/1C2P4/P1P3P1P/6N2/9/RNBAKAB2 w - - 5 9",
    "2bak4/4a4/2n1b2R1/4nr3/pcp3p1p/1CP1P4/P3N1P1P/6N2/4A4/2B1KAB2 w - - 7 19",
    "r2akab1r/9/bcn4c1/p3p3p/2p3pR1/1C7/P1P1P1P1P/4B1N2/4N4/R2AKAB2 w - - 1 9",
    "3nka3/4a4/b4c1R1/p1P1pr3/8p/6P2/P3P3P/3rB1N2/4N4/2RAKAB2 w - - 3 19",
    "r1b1kabr1/4a4/4c1n2/p1p1n1p1p/9/4C4/P1P1P1P1P/1R4N2/9/1NBAKAB1R w - - 1 9",
    "r1b1kab2/2n1a4/4R1n1r/p5p1p/2p6/1c2C2c1/P1P1P1P1P/4C4/9/RNBAKABN1 w - - 13 9",
    "2bak3C/3ra2R1/c1n1b1c2/p5p1p/9/2P6/P3PrP1P/2N6/1R7/2BAKABN1 w - - 9 19",
    "1rb1kab1r/4a4/3c2nc1/p3p3p/2pn2p2/C8/P1P1P1P1P/N3C1N2/5R3/2BAKABR1 w - - 16 9",
    "2b1kab2/4aR3/6n1c/8p/C1p1p1p2/3c5/P1P1P1P1P/N5Nr1/4A4/2BAK1B2 w - - 1 19",
    // Endgames: chariot against defenders, horse and soldier, cannon and soldiers, chariot
    // against horse and cannon, and the perft file's chariot-cannon ending.
    "3aka3/9/4b4/9/9/9/9/9/4A4/R2AK4 w - - 0 1",
    "4k4/4a4/3a5/9/2P6/9/9/4N4/9/4K4 w - - 0 1",
    "3k5/9/4ba3/9/9/2P1P4/9/4C4/4A4/3AK4 w - - 0 1",
    "3akab2/9/2n1b4/9/4c4/9/9/4B4/9/R2AKAB2 w - - 0 1",
    "5kb2/4a2c1/9/6N2/9/R8/9/1r6C/4A4/4K4 w - - 0 1",
];
