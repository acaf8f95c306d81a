#!/usr/bin/env bash
# Runs the whole test suite: Rust unit, property and integration tests, then the
# differential tests against the PyPI `kriegspiel` package and python-chess.
#
# The Python packages go into a virtual environment (default `.venv` in the repository, or
# $UMPIRE_VENV), never into the system interpreter; it is created on first use and refreshed
# when tests/python/requirements.txt changes. On Debian, where `python3 -m venv` needs the
# python3-venv package, the script installs it with apt-get if it can (as root or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${UMPIRE_VENV:-$PWD/.venv}"
requirements=tests/python/requirements.txt

make_venv() {
    python3 -m venv "$venv" 2>/dev/null && return 0
    rm -rf "$venv"
    echo "python3 -m venv failed: installing python3-venv (Debian) with apt-get" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "need root or sudo to install python3-venv" >&2; return 1; }
        sudo=sudo
    fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
    python3 -m venv "$venv"
}

if [ ! -x "$venv/bin/python" ]; then
    make_venv
fi
stamp="$venv/.requirements"
if ! cmp -s "$requirements" "$stamp"; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
fi

# The `ci` profile is release without link-time optimisation (Cargo.toml): the tests run at
# release speed and build in about half the time.
cargo build --profile ci --bin umpire
cargo test --workspace --profile ci
# The PostgreSQL storage tests, where a server is given (.ci/run starts one: scripts/postgres.sh).
if [ -n "${UMPIRE_TEST_POSTGRES:-}" ]; then
    cargo test --profile ci -p umpire-server --test postgres --test lobby --test names -- --ignored
    cargo test --profile ci -p umpire-cli --test serve -- --ignored postgres
    # Several nodes (docs/CLUSTER.md): the locks under kill/restart schedules, then three
    # `umpire serve` nodes behind HAProxy (installed by .ci/run) with one killed mid-game.
    cargo test --profile ci -p umpire-server --test cluster_locks -- --ignored
    # Non-interference across an owner change: paired games on two nodes, one draining midway.
    cargo test --profile ci -p umpire-server --test cluster_hiding -- --ignored --test-threads 1
    # One at a time: the node sets share the one PostgreSQL database.
    cargo test --profile ci -p umpire-cli --test cluster -- --ignored --test-threads 1
fi
# The web site (docs/WEB.md): the committed web/dist must be what `npm run build` makes of
# web/src (built afresh into a temporary directory and compared), the page logic's unit tests,
# then the browser tests against the binary just built (Debian's chromium, installed by .ci/run).
(
    cd web
    npm ci --no-audit --no-fund
    npm run check
    npm test
    UMPIRE_BIN="${CARGO_TARGET_DIR:-$PWD/../target}/ci/umpire" node e2e/run.mjs
    # The site through HAProxy across a kill of its game's owner (docs/CLUSTER.md): where the
    # PostgreSQL tests run; it says `skip` without UMPIRE_TEST_POSTGRES or haproxy.
    UMPIRE_BIN="${CARGO_TARGET_DIR:-$PWD/../target}/ci/umpire" node e2e/cluster.mjs
)
UMPIRE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/ci/umpire" "$venv/bin/python" -m pytest -q tests/python

# The Python bindings (crates/umpire-py, issue 26): build the wheel with maturin in the `ci`
# profile (it reuses the dependencies cargo test just built), install it into the venv, run
# their pytest suite. pytest's exit 5 (no test collected) is reported, not taken for success.
# The suite includes the Ray tests of umpire.distributed (issue 27: a local Ray of 2 CPUs and a
# simulated two-node cluster, about 75 s; Ray comes from the requirements); UMPIRE_SKIP_RAY=1
# leaves them out.
wheels="${CARGO_TARGET_DIR:-$PWD/target}/wheels-ci"
rm -rf "$wheels"
"$venv/bin/maturin" build --quiet --profile ci -m crates/umpire-py/Cargo.toml \
    --interpreter "$venv/bin/python" --out "$wheels"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "$wheels"/*.whl
rc=0
# UMPIRE_BIN: the CLI the server and engine tests start; UMPIRE_ORACLE_PAIRS: the example
# `cargo test` built that writes the oracle's paired histories for the leak test.
(cd crates/umpire-py && UMPIRE_BIN="${CARGO_TARGET_DIR:-$PWD/../../target}/ci/umpire" \
    UMPIRE_ORACLE_PAIRS="${CARGO_TARGET_DIR:-$PWD/../../target}/ci/examples/oracle_pairs" \
    "$venv/bin/python" -m pytest -q tests/python) || rc=$?
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no test of the Python bindings" >&2
    exit 1
fi
exit "$rc"
