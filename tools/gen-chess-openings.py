#!/usr/bin/env python3
"""Writes balanced chess openings for engine matches: tools/openings/chess-100.epd.

Each line starts from one of the 50 named openings of tools/openings/chess-50.epd and adds
two to four random legal plies, drawn from the moves Stockfish ranks best (MultiPV 4 at a
short depth), so the lines stay plausible but varied. A line is kept only when Stockfish's
evaluation at depth 14 lies within +/-50 centipawns (balanced: neither colour starts with a
won game, so a colour-swapped pair measures the engines, not the opening), and no two lines
reach the same position. The output is EPD with the moves as a `c0` comment, which
`tetrarch-tune match -openings file=... format=epd` reads.

Usage: python3 tools/gen-chess-openings.py [--count 100] [--seed 1] [--stockfish /usr/games/stockfish]
"""

import argparse
import os
import random
import sys

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--window", type=int, default=50)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    here = os.path.dirname(os.path.abspath(__file__))
    base = []
    with open(os.path.join(here, "openings", "chess-50.epd")) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            moves = line.split('c0 "')[1].rstrip('";').split()
            base.append(moves)
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 1, "Hash": 16})
    seen = set()
    out = []
    tries = 0
    while len(out) < args.count and tries < args.count * 20:
        tries += 1
        moves = base[rng.randrange(len(base))]
        board = chess.Board()
        for san in moves:
            board.push_san(san)
        line = list(moves)
        for _ in range(rng.randint(2, 4)):
            infos = sf.analyse(board, chess.engine.Limit(depth=8), multipv=4)
            choices = [i["pv"][0] for i in infos if i.get("pv")]
            if not choices:
                break
            mv = rng.choice(choices)
            line.append(board.san(mv))
            board.push(mv)
        if board.is_game_over():
            continue
        key = board.epd()
        if key in seen:
            continue
        info = sf.analyse(board, chess.engine.Limit(depth=args.depth))
        score = info["score"].white().score()
        if score is None or abs(score) > args.window:
            continue
        seen.add(key)
        out.append(f'{key} c0 "{" ".join(line)}";')
        print(f"{len(out)}/{args.count} ({tries} tried)", file=sys.stderr)
    sf.quit()
    for line in out:
        print(line)


if __name__ == "__main__":
    main()
