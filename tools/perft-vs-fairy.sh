#!/usr/bin/env bash
# Xiangqi perft speed: Tetrarch against Fairy-Stockfish's `go perft`, side by side in one run.
#
# For each position (from testdata/xiangqi_perft.epd) both programs count the same tree,
# single-threaded, RUNS times, alternating, timed by wall clock around the whole process
# (start-up included for both). Prints the median times, nodes per second and the ratio
# Fairy-Stockfish time / Tetrarch time (above 1 means Tetrarch is faster); node counts must
# agree or the script fails. On a shared machine the figures are preliminary.
#
# Usage: tools/perft-vs-fairy.sh            (RUNS=5 by default; FAIRY=path overrides the engine)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
TETRARCH=target/release/tetrarch

build_log=$(mktemp)
if ! cargo build --release -q -p tetrarch-protocols 2>"$build_log"; then
  cat "$build_log" >&2
  exit 1
fi
rm -f "$build_log"

# name|depth|fen
POSITIONS=(
  "startpos|5|rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
  "cpw-2|4|r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
  "cpw-10|5|1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1"
  "fsf-1|4|1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"
  "folium-1|4|r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"
  "horse-leg-blocks|5|4ka1r1/9/1c3n3/9/4p1p2/3CN4/2P6/9/2N6/1R2K4 w - - 0 1"
)

now_ns() { date +%s%N; }

# Prints "<nanoseconds> <nodes>".
run_tetrarch() {
  local depth=$1 fen=$2 t0 t1 out
  t0=$(now_ns)
  out=$("$TETRARCH" perft --game xiangqi --depth "$depth" --fen "$fen" 2>/dev/null)
  t1=$(now_ns)
  echo "$((t1 - t0)) $(sed -n 's/^Nodes searched: //p' <<<"$out")"
}

run_fairy() {
  local depth=$1 fen=$2 t0 t1 out
  t0=$(now_ns)
  out=$(printf 'uci\nsetoption name Threads value 1\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\nquit\n' \
    "$fen" "$depth" | "$FAIRY" 2>/dev/null)
  t1=$(now_ns)
  echo "$((t1 - t0)) $(sed -n 's/^Nodes searched: //p' <<<"$out")"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-18s %5s %12s %12s %12s %9s %9s %7s\n' position depth nodes tetrarch_ms fairy_ms tet_Mnps fsf_Mnps ratio
for entry in "${POSITIONS[@]}"; do
  IFS='|' read -r name depth fen <<<"$entry"
  tet_times=() fsf_times=()
  for ((i = 0; i < RUNS; i++)); do
    read -r t n1 < <(run_tetrarch "$depth" "$fen")
    tet_times+=("$t")
    read -r f n2 < <(run_fairy "$depth" "$fen")
    fsf_times+=("$f")
    if [[ "$n1" != "$n2" ]]; then
      echo "node counts differ on $name depth $depth: tetrarch $n1, fairy-stockfish $n2" >&2
      exit 1
    fi
  done
  tm=$(printf '%s\n' "${tet_times[@]}" | median)
  fm=$(printf '%s\n' "${fsf_times[@]}" | median)
  awk -v name="$name" -v d="$depth" -v n="$n1" -v t="$tm" -v f="$fm" 'BEGIN {
    printf "%-18s %5d %12d %12.1f %12.1f %9.1f %9.1f %7.2f\n",
      name, d, n, t / 1e6, f / 1e6, n / (t / 1e3), n / (f / 1e3), f / t }'
done
