#!/usr/bin/env bash
# One `umpire loadtest` run against a fresh `umpire serve`, for docs/BENCHMARKS.md ("Server under
# load"). Usage: scripts/loadbench.sh UMPIRE_BINARY sqlite|postgres GAMES SECONDS [RATE]
# Prints one line: the loadtest's JSON, the server's RSS after the run (kB), its peak RSS
# (VmHWM, kB: while every game was live; the RSS after the run is read once the load generator
# has closed its sockets, while the server may still be freeing them), the commands stored, the
# load average. PostgreSQL: the database umpire_load on the local cluster is
# dropped and created again (scripts/postgres.sh starts the cluster and makes the role).
# UMPIRE_LOADTEST=BINARY runs the load generator of another build (to compare servers under
# the same load). SERVER_CPUS=LIST and CLIENT_CPUS=LIST pin the server and the load generator
# to those cores (`taskset -c`), e.g. SERVER_CPUS=0 CLIENT_CPUS=1.
# Also printed: the server's CPU seconds during the load test (user + system, /proc).
set -euo pipefail
bin=$1 backend=$2 games=$3 seconds=$4 rate=${5:-}
# LOADBENCH_PORT: the port of the server (default 18300; pick a free one on a shared machine).
port=${LOADBENCH_PORT:-18300}
server_pin=() client_pin=()
[ -n "${SERVER_CPUS:-}" ] && server_pin=(taskset -c "$SERVER_CPUS")
[ -n "${CLIENT_CPUS:-}" ] && client_pin=(taskset -c "$CLIENT_CPUS")
dir=$(mktemp -d /tmp/umpire-loadbench.XXXXXX)
pg="postgres://umpire:umpire@127.0.0.1:5432/umpire_load"
if [ "$backend" = postgres ]; then
    as_postgres() { runuser -u postgres -- psql -qtAc "$1"; }
    as_postgres "DROP DATABASE IF EXISTS umpire_load" >/dev/null
    as_postgres "CREATE DATABASE umpire_load OWNER umpire" >/dev/null
    "${server_pin[@]}" "$bin" serve --metrics --listen 127.0.0.1:$port --database "$pg" >"$dir/serve.log" 2>&1 &
else
    "${server_pin[@]}" "$bin" serve --metrics --listen 127.0.0.1:$port --data "$dir" >"$dir/serve.log" 2>&1 &
fi
server=$!
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/api/games" && break
    sleep 0.1
done
args=(--server "http://127.0.0.1:$port" --games "$games" --seconds "$seconds" --json)
[ -n "$rate" ] && args+=(--rate "$rate")
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
ticks0=$(cpu_ticks "$server")
report=$(nice -n 5 "${client_pin[@]}" "${UMPIRE_LOADTEST:-$bin}" loadtest "${args[@]}")
ticks1=$(cpu_ticks "$server")
rss=$(ps -o rss= -p "$server")
rss_peak=$(awk '/^VmHWM:/ { print $2 }' "/proc/$server/status")
if [ "$backend" = postgres ]; then
    stored=$(PGPASSWORD=umpire psql -h 127.0.0.1 -U umpire -d umpire_load -qtAc "SELECT COUNT(*) FROM commands")
else
    stored=$(sqlite3 "$dir/umpire.sqlite3" "SELECT COUNT(*) FROM commands")
fi
load=$(cut -d' ' -f1-3 /proc/loadavg)
kill "$server"
wait "$server" || true
rm -rf "$dir"
echo "$report rss_kb=$rss rss_peak_kb=$rss_peak stored=$stored server_cpu_s=$(( (ticks1 - ticks0) / 100 )).$(printf %02d $(( (ticks1 - ticks0) % 100 ))) load=$load"
