#!/usr/bin/env bash
# Runs every test: formatting, lints, the Rust suite (unit, perft, transcripts) and the real
# clients (python-chess, pyffish, pydraughts, GNU Go) driving the built binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-test-deps.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --profile ci
# The tuning build's options (search parameters as UCI options and Hub params, for SPSA).
cargo test --profile ci -p tetrarch-protocols --features tuning tuning_builds
cargo build --profile ci -p tetrarch-protocols
export TETRARCH="$PWD/target/ci/tetrarch"
cargo build --profile ci -p tetrarch-tuning
export TETRARCH_TUNE="$PWD/target/ci/tetrarch-tune"
if compgen -G "tests/clients/test_*.py" >/dev/null; then
  python3 -m pytest -q tests/clients --ignore=tests/clients/draughts
fi
# pydraughts shares its import name with py-draughts, so it lives in its own venv: the Hub
# and DXP client tests (tests/clients/draughts) run under that venv's python.
export TETRARCH_DRAUGHTS_VENV="${TETRARCH_DRAUGHTS_VENV:-${XDG_DATA_HOME:-$HOME/.local/share}/tetrarch-peers/venv}"
"$TETRARCH_DRAUGHTS_VENV/bin/python" -m pytest -q tests/clients/draughts
