#!/usr/bin/env bash
# Installs what the test suite drives besides Rust: the reference engines (Debian packages:
# stockfish, fairy-stockfish, gnugo) and the real protocol clients (PyPI: python-chess, pyffish,
# sgfmill, pytest; pydraughts in its own virtual environment because py-draughts shares its
# import name). Idempotent: skips what is already there. Needs root (or sudo) for apt.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
venv=${TETRARCH_DRAUGHTS_VENV:-${XDG_DATA_HOME:-$HOME/.local/share}/tetrarch-peers/venv}
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo

missing=()
for pkg in stockfish:/usr/games/stockfish fairy-stockfish:/usr/games/fairy-stockfish gnugo:/usr/games/gnugo; do
  [ -x "${pkg#*:}" ] || missing+=("${pkg%%:*}")
done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! python3 -c 'import chess, pyffish, sgfmill, pytest' >/dev/null 2>&1; then
  python3 -m pip install -q --disable-pip-version-check chess pyffish sgfmill pytest
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import draughts, pytest' >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check pydraughts pytest
fi
echo "test dependencies ready (pydraughts venv: $venv)"
