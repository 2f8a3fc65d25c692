#!/usr/bin/env bash
# Perft speed, Tetrarch against Stockfish, side by side on one machine in one run.
#
# Positions: perft 6 from the start position, perft 5 from Kiwipete. Single thread for both.
# Each engine runs each position RUNS times (default 5), interleaved (tetrarch, stockfish,
# tetrarch, ...), and the script prints the median wall time of each and the ratio
# stockfish / tetrarch (above 1: Tetrarch is faster). Node counts are checked to agree.
#
# Timing: Tetrarch is timed as a whole `tetrarch perft` process (start-up included; its tables
# are static, so start-up is about a millisecond). Stockfish is started once per run, given
# `Threads 1`, and timed from `go perft N` to its `Nodes searched` line, so its start-up (net
# loading) is not counted against it.
#
# Usage: tools/perft-vs-stockfish.sh   (env: STOCKFISH=/usr/games/stockfish TETRARCH=path RUNS=5)
set -euo pipefail
cd "$(dirname "$0")/.."
STOCKFISH="${STOCKFISH:-/usr/games/stockfish}"
RUNS="${RUNS:-5}"
if [[ -z "${TETRARCH:-}" ]]; then
  cargo build --release -q -p tetrarch-protocols
  TETRARCH="$PWD/target/release/tetrarch"
fi
[[ -x "$STOCKFISH" ]] || { echo "no Stockfish at $STOCKFISH" >&2; exit 1; }

TETRARCH="$TETRARCH" STOCKFISH="$STOCKFISH" RUNS="$RUNS" python3 - <<'PY'
import os, statistics, subprocess, time

tetrarch, stockfish, runs = os.environ["TETRARCH"], os.environ["STOCKFISH"], int(os.environ["RUNS"])
positions = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]

def nodes_of(line):
    return int(line.split(":")[1])

def run_tetrarch(fen, depth):
    start = time.perf_counter()
    out = subprocess.run([tetrarch, "perft", "--game", "chess", "--depth", str(depth), "--fen", fen],
                         capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - start
    line = [l for l in out.splitlines() if l.startswith("Nodes searched")][-1]
    return elapsed, nodes_of(line)

def run_stockfish(fen, depth):
    p = subprocess.Popen([stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()
    def wait_for(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("stockfish exited early")
            if line.startswith(prefix):
                return line
    send("uci"); wait_for("uciok")
    send("setoption name Threads value 1"); send("isready"); wait_for("readyok")
    send("position fen " + fen); send("isready"); wait_for("readyok")
    start = time.perf_counter()
    send("go perft %d" % depth)
    line = wait_for("Nodes searched")
    elapsed = time.perf_counter() - start
    send("quit"); p.wait()
    return elapsed, nodes_of(line)

print(f"tetrarch:  {tetrarch}")
banner = subprocess.run([stockfish], input="quit\n", capture_output=True, text=True).stdout.splitlines()[0]
print(f"stockfish: {stockfish} ({banner})")
print(f"{runs} runs each, interleaved, single thread\n")
print(f"{'position':<10} {'depth':>5} {'nodes':>12} {'tetrarch s':>11} {'stockfish s':>12} {'tetrarch Mnps':>14} {'stockfish Mnps':>15} {'ratio':>6}")
for name, fen, depth in positions:
    t, s = [], []
    for _ in range(runs):
        et, nt = run_tetrarch(fen, depth)
        es, ns = run_stockfish(fen, depth)
        if nt != ns:
            raise SystemExit(f"{name}: node counts differ: tetrarch {nt}, stockfish {ns}")
        t.append(et); s.append(es)
    mt, ms = statistics.median(t), statistics.median(s)
    print(f"{name:<10} {depth:>5} {nt:>12} {mt:>11.3f} {ms:>12.3f} {nt / mt / 1e6:>14.1f} {nt / ms / 1e6:>15.1f} {ms / mt:>5.2f}x")
PY
