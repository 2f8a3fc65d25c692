#!/usr/bin/env python3
"""Writes tools/openings/xiangqi-40.epd: varied xiangqi openings for engine matches.

Each line is a common opening's first four or six plies (moves with ranks 1..10, as pyffish
and Fairy-Stockfish write them): central cannon against screen horses, same- and
opposite-direction cannons, single horse and reverse palace horses; the pawn, elephant and
horse openings; palace-corner and crossing cannons. pyffish checks every move and that no two
lines reach the same position (a transposition would be the same opening twice). The output
is EPD (board, side, two placeholder fields, then the moves as a `c0` comment), which
`tetrarch-tune match -openings file=... format=epd` reads.

Usage: python3 tools/gen-xiangqi-openings.py > tools/openings/xiangqi-40.epd
"""

import pyffish as sf

LINES = """
h3e3 h10g8 h1g3 i10h10
h3e3 h10g8 h1g3 b10c8
h3e3 h10g8 h1g3 c7c6
h3e3 h10g8 b1c3 b10c8
h3e3 h8e8 h1g3 h10g8
h3e3 h8e8 h1g3 b10c8
h3e3 b8e8 h1g3 b10c8
h3e3 b10c8 h1g3 h8f8
h3e3 b10a8 h1g3 a10b10
h3e3 h10g8 h1g3 h8i8
h3e3 c7c6 h1g3 b10c8
h3e3 g7g6 h1g3 h10g8
h3e3 g10e8 h1g3 h10g8
h3e3 h10g8 g4g5 c7c6
b3e3 b10c8 b1c3 a10b10
b3e3 h10g8 b1c3 b10c8
g4g5 c7c6 h1g3 b10c8
g4g5 b8c8 h1g3 b10a8
g4g5 h8g8 h3e3 h10i8
g4g5 g10e8 h1g3 h10g8
c4c5 g7g6 b1c3 h10g8
c1e3 h8e8 b1c3 h10g8
c1e3 c7c6 b1c3 b10c8
g1e3 g7g6 h1g3 h10g8
g1e3 h8e8 h1i3 h10g8
b1c3 c7c6 g4g5 b10c8
h1g3 b10c8 c4c5 h10g8
h1g3 h8e8 g4g5 h10g8
h3f3 h10g8 h1g3 i10h10
b3d3 b10c8 b1c3 a10b10
h3d3 h10g8 h1g3 i10h10
b3f3 h8e8 b1c3 h10g8
h3g3 b10c8 h1i3 c7c6
h3e3 h10g8 h1g3 i10h10 i1h1 b10c8
h3e3 h10g8 h1g3 i10h10 b1c3 b10c8
h3e3 h10g8 h1g3 b10c8 b1c3 c7c6
h3e3 h8e8 h1g3 h10g8 i1h1 i10h10
c1e3 h10g8 h1g3 i10h10 i1h1 b10c8
g4g5 h10g8 h1g3 i10h10 i1h1 b10c8
b1c3 h10g8 c4c5 i10h10 a1b1 b10c8
"""

start = sf.start_fen("xiangqi")
seen = set()
for line in LINES.strip().splitlines():
    moves = line.split()
    for i, m in enumerate(moves):
        assert m in sf.legal_moves("xiangqi", start, moves[:i]), (line, m)
    board, side = sf.get_fen("xiangqi", start, moves).split()[:2]
    assert (board, side) not in seen, f"transposition: {line}"
    seen.add((board, side))
    print(f'{board} {side} - - c0 "{line}";')
