#!/usr/bin/env python3
"""GNU Go or Pachi self-play over GTP, one SGF file per game, for fitting Go move priors.

One engine process plays both colours (genmove b / genmove w alternately) until two passes
in a row, a resignation or a move cap, and the moves are written as SGF. Each game gets its
own seed, and with GNU Go a level drawn from the given list, so the games differ; Pachi plays
a fixed number of playouts a move on one thread (`--playouts`), so its strength does not
depend on the machine or its load. Resumable: a game whose file exists is skipped, so
rerunning the same command continues where it stopped. Progress goes to stderr. Run it under
`nice -n 19`; it runs one engine process at a time.

usage: go_selfplay_sgf.py OUTDIR --size 9 --games 300 [--levels 1,3,5,8,10] [--first-seed 1]
       go_selfplay_sgf.py OUTDIR --engine pachi --pachi PATH --playouts 5000 --size 9 ...
"""
import argparse
import os
import subprocess
import sys
import time


def gtp(proc, line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    out = []
    while True:
        l = proc.stdout.readline()
        if l == "":
            raise RuntimeError("gnugo exited")
        l = l.rstrip("\n")
        if l == "" and out:
            break
        if l == "" and not out:
            continue
        out.append(l)
    head = out[0]
    if not head.startswith("="):
        raise RuntimeError(f"{line}: {head}")
    return head[1:].strip()


def sgf_point(mv, size):
    """GTP vertex (letters skip I, row 1 at the bottom) to SGF (aa top left); pass is ''."""
    if mv == "pass":
        return ""
    col = "abcdefghjklmnopqrstuvwxyz".index(mv[0])
    row = size - int(mv[1:])
    return "abcdefghijklmnopqrstuvwxyz"[col] + "abcdefghijklmnopqrstuvwxyz"[row]


def play_one(cmd, name, size, seed, path):
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        gtp(proc, f"boardsize {size}")
        gtp(proc, "komi 7.5")
        gtp(proc, "clear_board")
        passes, moves, colour, nodes, result = 0, 0, "b", [], "?"
        while passes < 2 and moves < 3 * size * size:
            mv = gtp(proc, f"genmove {colour}").lower()
            if mv == "resign":
                result = ("W" if colour == "b" else "B") + "+R"
                break
            passes = passes + 1 if mv == "pass" else 0
            nodes.append(f";{colour.upper()}[{sgf_point(mv, size)}]")
            moves += 1
            colour = "w" if colour == "b" else "b"
        if result == "?":
            result = gtp(proc, "final_score")
        body = (f"(;GM[1]FF[4]SZ[{size}]KM[7.5]RU[Chinese]PB[{name}]PW[{name}]"
                f"RE[{result}]GC[seed {seed}]\n" + "".join(nodes) + ")\n")
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(body)
        os.replace(tmp, path)
        return moves
    finally:
        try:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        except OSError:
            pass
        proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--levels", default="1,3,5,7,9,10")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    ap.add_argument("--engine", choices=["gnugo", "pachi"], default="gnugo")
    ap.add_argument("--pachi", default="pachi", help="the Pachi binary")
    ap.add_argument("--playouts", type=int, default=5000, help="Pachi's playouts a move")
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(",")]
    os.makedirs(a.outdir, exist_ok=True)
    start = time.time()
    for i in range(a.games):
        seed = a.first_seed + i
        # The player's setting: a GNU Go level, or Pachi's playouts.
        if a.engine == "gnugo":
            level = levels[i % len(levels)]
            setting = f"L{level}"
            cmd = [a.gnugo, "--mode", "gtp", "--level", str(level), "--seed", str(seed),
                   "--chinese-rules", "--komi", "7.5"]
        else:
            setting = f"p{a.playouts}"
            cmd = [a.pachi, "-s", str(seed), "-t", f"={a.playouts}", "-D", "threads=1"]
        path = os.path.join(a.outdir, f"{a.engine}-{a.size}x{a.size}-{setting}-s{seed}.sgf")
        if os.path.exists(path):
            continue
        n = play_one(cmd, f"{a.engine}-{setting}", a.size, seed, path)
        print(f"[{i + 1}/{a.games}] {os.path.basename(path)} {n} moves "
              f"{time.time() - start:.0f}s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
