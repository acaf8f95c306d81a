#!/usr/bin/env bash
# Legality-check times of Haft Schrödinger chess, all measured in one run: the SAT umpire on
# batsat (default), CaDiCaL and varisat, the brute-force enumeration, and python-constraint.
# Needs Rust 1.95, a C++ compiler (for CaDiCaL) and Python 3 with pip.
# Usage: bash bench/schroedinger/run.sh [GAMES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
games="${1:-20}"
seed="${2:-1}"
out="$(mktemp -d)"
python3 -m pip install --quiet --disable-pip-version-check -r bench/schroedinger/requirements.txt
cargo bench -p umpire-schroedinger --features cadical,varisat --bench legality -- \
    --games "$games" --min-plies 100 --max-plies 300 --seed "$seed" \
    --facts "$out/facts.json" --summary "$out/rust.json" > "$out/rust.jsonl"
python3 bench/schroedinger/python_constraint_bench.py "$out/facts.json" --summary "$out/rust.json"
rm -r "$out"
