#!/usr/bin/env python3
"""Draughts matches: tetrarch (over Hub) against tetrarch or against the engines py-draughts
ships (TurboEngine, SimpleEngine), refereed by py-draughts' rules (majority capture, 25-move,
16/5-move and repetition draws).

Run it with the python of a venv that has py-draughts (PyPI `py-draughts`; not pydraughts,
which has the same import name):

  python3 -m venv ~/.local/share/tetrarch-peers/pydraughts-engine-venv
  ~/.local/share/tetrarch-peers/pydraughts-engine-venv/bin/pip install py-draughts
  .../pydraughts-engine-venv/bin/python tools/draughts-match.py \
      --a 'tetrarch level="nodes=20000"' --b 'tetrarch eval=material level="nodes=20000"' \
      --games 200

Engine specs: `tetrarch [exe=PATH] [param=value ...] [level="<Hub level pairs>"]` (params are
Hub set-param names, e.g. eval=material, threads=1, hash=16; the binary is exe=, else
$TETRARCH, else target/release/tetrarch), `turbo depth=N | time=SECONDS`, `simple depth=N`. Each opening (a
few random plies from the start, fixed by --seed) is played twice with colours swapped.
Prints a line per game and the score of A with an Elo estimate (95% interval).
"""

import argparse
import math
import os
import random
import shlex
import subprocess
import sys
import time

import draughts
from draughts import Board
from draughts.engines.simple import SimpleEngine
from draughts.engines.turbo import TurboEngine

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def hub_move(m):
    """A py-draughts move in Hub notation: from-to, or from x to x captured..."""
    a, b = m.square_list[0] + 1, m.square_list[-1] + 1
    if not m.captured_list:
        return f"{a}-{b}"
    return "x".join(str(s) for s in [a, b] + sorted(c + 1 for c in m.captured_list))


def fen_of(board):
    f = board.fen
    if f.startswith("[FEN"):
        f = f.split('"')[1]
    return f


class Tetrarch:
    def __init__(self, params, level, exe=None):
        exe = exe or os.environ.get("TETRARCH") or os.path.join(REPO, "target/release/tetrarch")
        self.p = subprocess.Popen([exe, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.level = level
        self.send("hub")
        self.read_until("wait")
        for k, v in params.items():
            self.send(f"set-param name={k} value={v}")
        self.send("init")
        self.read_until("ready")
        self.name = "tetrarch " + " ".join(f"{k}={v}" for k, v in params.items())
        self.name += f" [{level}]"

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("tetrarch exited")
            line = line.strip()
            if line.startswith("error"):
                raise RuntimeError(line)
            if line.split(" ")[0] == word:
                return line

    def new_game(self):
        self.send("new-game")

    def move(self, start_fen, moves, board):
        self.send(f'pos pos={start_fen} moves="{" ".join(moves)}"')
        self.send(f"level {self.level}")
        self.send("go think")
        done = self.read_until("done")
        text = done.split()[1].split("=", 1)[1]
        for m in board.legal_moves:
            if hub_move(m) == text:  # both write captured squares ascending
                return m
        raise RuntimeError(f"tetrarch played {text}, not legal in {fen_of(board)}")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


class PyEngine:
    def __init__(self, kind, opts):
        depth = int(opts["depth"]) if "depth" in opts else None
        tl = float(opts["time"]) if "time" in opts else None
        if kind == "turbo":
            self.e = TurboEngine(depth_limit=depth, time_limit=tl)
        else:
            self.e = SimpleEngine(depth_limit=depth or 4)
        self.name = f"py-draughts {kind} " + " ".join(f"{k}={v}" for k, v in opts.items())

    def new_game(self):
        pass

    def move(self, start_fen, moves, board):
        return self.e.get_best_move(board)

    def close(self):
        pass


def make_engine(spec):
    words = shlex.split(spec)
    kind, opts = words[0], dict(w.split("=", 1) for w in words[1:])
    if kind == "tetrarch":
        level = opts.pop("level", "nodes=20000")
        exe = opts.pop("exe", None)
        return Tetrarch(opts, level, exe)
    if kind in ("turbo", "simple"):
        return PyEngine(kind, opts)
    raise SystemExit(f"unknown engine kind {kind}")


def openings(n, plies, seed):
    rng = random.Random(seed)
    seen, out = set(), []
    tries = 0
    while len(out) < n and tries < 100 * n:
        tries += 1
        b = Board()
        for _ in range(plies):
            ms = b.legal_moves
            if not ms:
                break
            b.push(rng.choice(ms))
        f = fen_of(b)
        if f not in seen and not b.game_over:
            seen.add(f)
            out.append(f)
    return out


def play(white, black, start_fen, max_plies, positions=None):
    board = Board.from_fen(start_fen)
    moves = []
    for e in (white, black):
        e.new_game()
    while not board.game_over and len(moves) < max_plies:
        if positions is not None:
            positions.append(fen_of(board))
        e = white if board.turn == draughts.Color.WHITE else black
        m = e.move(start_fen, moves, board)
        moves.append(hub_move(m))
        board.push(m)
    r = board.result
    return ("1/2-1/2" if r == "-" else r), len(moves)


def elo(score, n):
    if n == 0 or score <= 0 or score >= n:
        return float("nan"), float("nan")
    p = score / n
    d = -400 * math.log10(1 / p - 1)
    se = math.sqrt(p * (1 - p) / n)
    lo = -400 * math.log10(1 / min(max(p - 1.96 * se, 1e-6), 1 - 1e-6) - 1)
    hi = -400 * math.log10(1 / min(max(p + 1.96 * se, 1e-6), 1 - 1e-6) - 1)
    return d, (hi - lo) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", help="append 'FEN|result' lines (result 1, 0.5, 0 for White) "
                    "of every position played, for fitting the evaluation")
    args = ap.parse_args()
    dump = open(args.dump, "a") if args.dump else None
    a, b = make_engine(args.a), make_engine(args.b)
    print(f"A: {a.name}\nB: {b.name}", flush=True)
    books = openings((args.games + 1) // 2, args.opening_plies, args.seed)
    w = d = l = 0
    t0 = time.time()
    for g in range(args.games):
        fen = books[(g // 2) % len(books)]
        a_white = g % 2 == 0
        positions = [] if dump else None
        res, plies = (play(a, b, fen, args.max_plies, positions) if a_white
                      else play(b, a, fen, args.max_plies, positions))
        if dump:
            white_score = {"1-0": "1", "0-1": "0"}.get(res, "0.5")
            dump.writelines(f"{p}|{white_score}\n" for p in positions)
            dump.flush()
        if res == "1/2-1/2":
            d += 1
        elif (res == "1-0") == a_white:
            w += 1
        else:
            l += 1
        n = w + d + l
        e, err = elo(w + d / 2, n)
        print(f"game {g + 1}: A {'white' if a_white else 'black'} {res} in {plies} plies | "
              f"A +{w} ={d} -{l}  elo {e:+.0f} +/- {err:.0f}  ({time.time() - t0:.0f} s)", flush=True)
    a.close()
    b.close()


if __name__ == "__main__":
    main()
