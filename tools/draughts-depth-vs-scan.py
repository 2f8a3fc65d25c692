#!/usr/bin/env python3
"""Depth and nodes of Tetrarch and Scan 2.0 at equal time on the same draughts positions.

Usage: tools/draughts-depth-vs-scan.py TETRARCH SCAN_DIR POSITIONS [--ms 2000] [--count 20]

TETRARCH is the `tetrarch` binary (spoken to in Hub 2: `pos pos=...`, `level move-time=S`,
`go think`, answered by `info depth=... nodes=...` lines and `done`). SCAN_DIR is Scan 2.0's
folder (its `scan.ini` and `data/` are read from there), spoken to in its first Hub: `pos
<side><50 squares>` in lower case, `level 1 MS 0`, `time MS`, `go`, answered by `info DEPTH
SELDEPTH SCORE NODES SECONDS MNPS PV...` and `move ...`. POSITIONS is a file of FEN lines
(`W:W31,...:B1,...`, anything after the FEN on a line is ignored), for example a `datagen`
file; every step-th line is taken so that the positions spread over the file, skipping those
with fewer than 8 or more than 36 pieces (Scan's book answers those near the start at once).

Each position is searched by one engine, then the other, for the same fixed time with one
thread; the last `info` line of each search gives its depth and nodes. Run it on an idle
machine: it is a timed measurement. Prints one line per position and the medians.
"""

import argparse
import statistics
import subprocess
import sys
import time


def board_of(fen):
    """Hub board text (side then squares 1-50 as e/w/b/W/B) of a FEN, or None."""
    try:
        side, *parts = fen.strip().split(":")
        squares = ["e"] * 50
        for part in parts:
            colour, body = part[0], part[1:]
            for item in filter(None, body.split(",")):
                king = item.startswith("K")
                sq = int(item[1:] if king else item)
                ch = "w" if colour == "W" else "b"
                squares[sq - 1] = ch.upper() if king else ch
        return side.upper() + "".join(squares)
    except (ValueError, IndexError):
        return None


class Engine:
    def __init__(self, argv, cwd=None):
        self.p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.strip()
            lines.append(line)
            if pred(line):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def tetrarch_search(eng, board, ms):
    eng.send(f"pos pos={board}")
    eng.send(f"level move-time={ms / 1000:.3f}")
    start = time.monotonic()
    eng.send("go think")
    lines = eng.until(lambda l: l.startswith("done"))
    wall = time.monotonic() - start
    depth = nodes = 0
    for line in lines:
        if line.startswith("info "):
            fields = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
            if "depth" in fields and "nodes" in fields:
                depth, nodes = int(fields["depth"]), int(fields["nodes"])
    return depth, nodes, wall


def scan_search(eng, board, ms):
    eng.send("new")
    eng.send(f"pos {board[0].lower()}{board[1:]}")
    eng.send(f"level 1 {ms} 0")
    eng.send(f"time {ms}")
    start = time.monotonic()
    eng.send("go")
    lines = eng.until(lambda l: l.startswith("move") or l.startswith("error"))
    wall = time.monotonic() - start
    depth = nodes = 0
    for line in lines:
        f = line.split()
        if f[0] == "info" and len(f) >= 5:
            depth, nodes = int(f[1]), int(f[4])
    return depth, nodes, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tetrarch")
    ap.add_argument("scan_dir")
    ap.add_argument("positions")
    ap.add_argument("--ms", type=int, default=2000)
    ap.add_argument("--count", type=int, default=20)
    a = ap.parse_args()

    boards = []
    with open(a.positions) as f:
        fens = [line.split("|")[0].strip() for line in f if line.strip()]
    step = max(1, len(fens) // (a.count * 4))
    for fen in fens[::step]:
        b = board_of(fen)
        if b and 8 <= sum(c != "e" for c in b[1:]) <= 36:
            boards.append(b)
        if len(boards) == a.count:
            break

    ours = Engine([a.tetrarch, "hub"])
    ours.send("hub")
    ours.until(lambda l: l == "wait")
    ours.send("init")
    ours.until(lambda l: l == "ready")
    scan = Engine(["./scan", "hub"], cwd=a.scan_dir)
    scan.send("hub")
    scan.until(lambda l: l == "wait")
    scan.send("init")
    scan.until(lambda l: l == "ready")

    rows = []
    print("position                                             tetrarch depth/nodes   scan depth/nodes")
    for b in boards:
        ours.send("new-game")
        t = tetrarch_search(ours, b, a.ms)
        s = scan_search(scan, b, a.ms)
        rows.append((t, s))
        print(f"{b}  {t[0]:3d} {t[1]:10d}  {s[0]:3d} {s[1]:10d}", flush=True)
    ours.close()
    scan.close()
    if not rows:
        sys.exit("no positions")
    med = statistics.median
    td, tn = med(r[0][0] for r in rows), med(r[0][1] for r in rows)
    sd, sn = med(r[1][0] for r in rows), med(r[1][1] for r in rows)
    print(f"medians over {len(rows)} positions at {a.ms} ms: tetrarch depth {td} nodes {tn:.0f}; "
          f"scan depth {sd} nodes {sn:.0f}; node ratio scan/tetrarch {sn / max(tn, 1):.2f}")


if __name__ == "__main__":
    main()
