#!/usr/bin/env bash
# Draughts perft speed, single thread, release build: the start position and a king-heavy
# position (all-kings), in both counting conventions. Prints nodes and nodes per second.
# Leaf nodes are counted in bulk at the last ply (counted, neither made nor listed), as the
# published perft tools count them in bulk. Usage: tools/perft-draughts.sh [depth-start] [depth-kings]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p tetrarch-protocols
bin=target/release/tetrarch
start_depth=${1:-9}
kings_depth=${2:-9}
kings="W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
run() {
  local name=$1 depth=$2 fen=$3; shift 3
  local nodes
  nodes=$("$bin" perft --game draughts --depth "$depth" --fen "$fen" "$@" 2>"$tmp" | sed -n 's/^Nodes searched: //p')
  printf '%-10s %-10s depth %2d  nodes %12s  %s\n' "$name" "${1:---distinct}" "$depth" "$nodes" "$(cat "$tmp")"
}
run start "$start_depth" "W:W31-50:B1-20"
run start "$start_depth" "W:W31-50:B1-20" --paths
run all-kings "$kings_depth" "$kings"
run all-kings "$kings_depth" "$kings" --paths
