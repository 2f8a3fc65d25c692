#!/usr/bin/env bash
# Runs every test: formatting, lints, the Rust suite (unit, perft, transcripts) and the real
# clients (python-chess, pyffish, pydraughts, GNU Go) driving the built binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-test-deps.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --profile ci
cargo build --profile ci -p tetrarch-protocols
export TETRARCH="$PWD/target/ci/tetrarch"
cargo build --profile ci -p tetrarch-tuning
export TETRARCH_TUNE="$PWD/target/ci/tetrarch-tune"
if compgen -G "tests/clients/test_*.py" >/dev/null; then
  python3 -m pytest -q tests/clients
fi
