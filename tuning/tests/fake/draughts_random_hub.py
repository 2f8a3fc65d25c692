#!/usr/bin/env python3
"""A fake Hub engine for international draughts that plays a random legal move at once, using
pydraughts (run it with the pydraughts virtual environment's python). Seeded by argv[1], the
game count and the position, so matches are repeatable. It keeps `pos` and does its work after
`go`, so the runner's overhead measured around it is the runner's own."""
import random
import sys

from draughts import Board, Move

seed = sys.argv[1] if len(sys.argv) > 1 else "0"
pos = None
games = 0
# The last board and how it was reached, so each search only plays the new moves.
cache = (None, [], None)


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def hub_to_fen(hub):
    white, black = [], []
    for i, c in enumerate(hub[1:], start=1):
        if c in "wW":
            white.append(("K" if c == "W" else "") + str(i))
        elif c in "bB":
            black.append(("K" if c == "B" else "") + str(i))
    return "%s:W%s:B%s" % (hub[0], ",".join(white), ",".join(black))


def field(line, key):
    rest = line.split(key + "=", 1)
    if len(rest) < 2:
        return None
    v = rest[1]
    if v.startswith('"'):
        return v[1:].split('"', 1)[0]
    return v.split()[0]


for raw in sys.stdin:
    line = raw.strip()
    cmd = line.split(" ")[0] if line else ""
    if cmd == "hub":
        out("id name=random-%s version=1" % seed)
        out("wait")
    elif cmd == "init":
        out("ready")
    elif cmd == "ping":
        out("pong")
    elif cmd == "new-game":
        games += 1
    elif cmd == "pos":
        pos = line
    elif cmd == "go":
        start = field(pos, "pos")
        moves = field(pos, "moves")
        moves = moves.split() if moves else []
        c_start, c_moves, c_board = cache
        if c_start == start and moves[: len(c_moves)] == c_moves:
            board, done = c_board, len(c_moves)
        else:
            board, done = Board(variant="standard", fen=hub_to_fen(start)), 0
        for m in moves[done:]:
            board.push(Move(board, hub_move=m))
        cache = (start, moves, board)
        legal = sorted(m.hub_move for m in board.legal_moves())
        rng = random.Random("%s %d %s" % (seed, games, board.fen))
        out("info depth=1 score=0.00")
        out("done move=%s" % rng.choice(legal))
    elif cmd == "quit":
        break
