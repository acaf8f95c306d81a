#!/usr/bin/env bash
# Runs the whole test suite: Rust unit, property and integration tests, then the
# differential tests against the PyPI `kriegspiel` package.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
cargo build --release --bin umpire
cargo test --workspace --release
UMPIRE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/umpire" python3 -m pytest -q tests/python
