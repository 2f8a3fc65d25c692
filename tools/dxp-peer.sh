#!/bin/sh
# Start a draughts peer's DXP server on a given port, for `tetrarch-tune match ... proto=dxp`.
#
#   tools/dxp-peer.sh scan PORT     Scan 2.0 (`scan dxp`; the port comes from its scan.ini)
#   tools/dxp-peer.sh mobydam PORT  Moby Dam (`mobydam -p PORT`)
#
# Why a wrapper: the match runner gives each concurrent game its own port (`arg={port}`), but
# Scan reads its port only from scan.ini in its working directory, and both engines write logs
# to their working directory. So each port gets its own folder beside the built peer
# (PEERS/scan-PORT with its own scan.ini and a link to Scan's data/, PEERS/mobydam-PORT with
# the opening book), made on first use. PEERS is where ../shared/tools/build-peers.sh installs.
#
# Scan binds its port without SO_REUSEADDR: after a match, wait about a minute (TCP TIME_WAIT)
# before the next one on the same ports, or its server fails to start ("connection refused").
set -eu
engine=${1:?usage: dxp-peer.sh scan|mobydam PORT}
port=${2:?usage: dxp-peer.sh scan|mobydam PORT}
case $port in '' | *[!0-9]*) echo "dxp-peer.sh: bad port '$port'" >&2; exit 2 ;; esac
PEERS=${TETRARCH_PEERS:-${XDG_DATA_HOME:-$HOME/.local/share}/tetrarch-peers}
dir=$PEERS/$engine-$port
case $engine in
scan)
    [ -x "$PEERS/scan20/scan" ] || { echo "dxp-peer.sh: no $PEERS/scan20/scan (build-peers.sh --scan)" >&2; exit 1; }
    if [ ! -d "$dir" ]; then
        mkdir -p "$dir"
        ln -s "$PEERS/scan20/data" "$dir/data"
        sed "s/^dxp-port *=.*/dxp-port = $port/" "$PEERS/scan20/scan.ini" >"$dir/scan.ini"
    fi
    cd "$dir" && exec "$PEERS/scan20/scan" dxp
    ;;
mobydam)
    [ -x "$PEERS/mobydam/run/mobydam" ] || { echo "dxp-peer.sh: no $PEERS/mobydam/run/mobydam (build-peers.sh --mobydam)" >&2; exit 1; }
    if [ ! -d "$dir" ]; then
        mkdir -p "$dir"
        cp "$PEERS/mobydam/run/book.opn" "$dir/"
    fi
    cd "$dir" && exec "$PEERS/mobydam/run/mobydam" -p "$port"
    ;;
*)
    echo "dxp-peer.sh: unknown engine '$engine' (scan or mobydam)" >&2
    exit 2
    ;;
esac
