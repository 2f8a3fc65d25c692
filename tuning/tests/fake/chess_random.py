#!/usr/bin/env python3
"""A fake UCI chess engine that plays a uniformly random legal move at once (python-chess),
seeded by argv[1] and the position, so games are repeatable. It keeps the `position` line and
does all its work after `go`, so the runner's overhead measured around it is the runner's own.
argv[2] (optional) names a misbehaviour after N plies: illegal@N, crash@N, hang@N."""
import random
import sys

import chess

seed = sys.argv[1] if len(sys.argv) > 1 else "0"
fault = sys.argv[2] if len(sys.argv) > 2 else ""
position = "position startpos"
games = 0


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        out("id name random-" + seed)
        out("uciok")
    elif words[0] == "ucinewgame":
        games += 1
    elif words[0] == "isready":
        out("readyok")
    elif words[0] == "position":
        position = raw.strip()
    elif words[0] == "go":
        w = position.split()
        if w[1] == "startpos":
            board = chess.Board()
            rest = w[2:]
        else:
            board = chess.Board(" ".join(w[2:8]))
            rest = w[8:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                board.push_uci(m)
        ply = len(board.move_stack)
        if fault:
            kind, at = fault.split("@")
            if ply >= int(at):
                if kind == "illegal":
                    out("bestmove a1a1")
                    continue
                if kind == "crash":
                    sys.exit(1)
                if kind == "hang":
                    continue
        moves = sorted(m.uci() for m in board.legal_moves)
        if not moves:
            out("bestmove (none)")
            continue
        rng = random.Random("%s %d %s" % (seed, games, board.fen()))
        out("info depth 1 score cp 0 nodes %d" % len(moves))
        out("bestmove " + rng.choice(moves))
    elif words[0] == "quit":
        break
