#!/usr/bin/env bash
# `umpire loadtest` through HAProxy against N `umpire serve` nodes on one PostgreSQL database,
# for docs/BENCHMARKS.md ("Several nodes"). Usage:
#   scripts/clusterbench.sh UMPIRE_BINARY NODES GAMES SECONDS [direct]
#   scripts/clusterbench.sh failover KILLS
# NODES is 1 to 3. A database umpire_cluster_PID on the local cluster (scripts/postgres.sh) is
# created for the run and dropped after it; the nodes listen on 127.0.0.1:BASE+1 to BASE+3, HAProxy
# (the shipped deploy/haproxy.cfg with these ports) on 127.0.0.1:BASE, where BASE is
# $CLUSTERBENCH_PORT (default 18380: pick another to run beside tests or another run; the
# failover mode takes free ports by itself). With `direct`, the load test talks to
# node 1 itself instead of HAProxy (the hop's overhead is the difference). Prints the loadtest's
# JSON. Everything runs under `nice`: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
# The failover time: three nodes behind HAProxy on free ports, one live game, its owner killed
# with SIGKILL KILLS times (started again after each); prints one JSON line with every time
# (ms), p50 and p99 (crates/umpire-cli/tests/cluster.rs, `failover_times`). Runs niced.
if [ "${1:-}" = failover ]; then
    db=$(bash scripts/postgres.sh)
    uptime >&2
    UMPIRE_TEST_POSTGRES="$db" UMPIRE_FAILOVER_KILLS="${2:-20}" nice -n 5 \
        cargo test -q --profile ci -p umpire-cli --test cluster -- --ignored --exact \
        failover_times --nocapture 2>&1 | grep '^{'
    uptime >&2
    exit 0
fi
bin=$(realpath "$1") nodes=$2 games=$3 seconds=$4 mode=${5:-proxy}
base=${CLUSTERBENCH_PORT:-18380}
case "$base" in
    '' | *[!0-9]*) echo "CLUSTERBENCH_PORT must be a port number, not '$base'" >&2; exit 2 ;;
esac
if [ "$base" -lt 1024 ] || [ "$base" -gt 65532 ]; then
    echo "CLUSTERBENCH_PORT must be 1024 to 65532 (it and the next 3 ports are used)" >&2
    exit 2
fi
dir=$(mktemp -d /tmp/umpire-clusterbench.XXXXXX)
name="umpire_cluster_$$"
pg="postgres://umpire:umpire@127.0.0.1:5432/$name"
as_postgres() { runuser -u postgres -- psql -qtAc "$1"; }
as_postgres "CREATE DATABASE $name OWNER umpire" >/dev/null
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    as_postgres "DROP DATABASE IF EXISTS $name" >/dev/null || true
}
trap cleanup EXIT
for k in $(seq 1 "$nodes"); do
    nice -n 5 "$bin" serve --metrics --node-id "n$k" --listen "127.0.0.1:$((base + k))" --database "$pg" \
        --trust-proxy 127.0.0.1 >"$dir/n$k.log" 2>&1 &
    pids+=($!)
    # One at a time: the first one runs the migrations.
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "http://127.0.0.1:$((base + k))/api/health" && break
        sleep 0.1
    done
done
# Through placeholders, so that no port put in is taken for one of the example's.
sed -e 's/127.0.0.1:808\([0-3]\)/127.0.0.1:@\1@/g' deploy/haproxy.cfg |
    sed -e "s/@0@/$base/g" -e "s/@1@/$((base + 1))/g" -e "s/@2@/$((base + 2))/g" \
        -e "s/@3@/$((base + 3))/g" >"$dir/haproxy.cfg"
nice -n 5 haproxy -db -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
pids+=($!)
# Every node up in HAProxy's view (checks every second, up after two) before the load: while
# they come up, the consistent hash moves games under their first sockets.
sleep 6
target="http://127.0.0.1:$base"
[ "$mode" = direct ] && target="http://127.0.0.1:$((base + 1))"
nice -n 5 "$bin" loadtest --server "$target" --games "$games" --seconds "$seconds" --json
