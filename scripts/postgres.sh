#!/usr/bin/env bash
# Makes sure a local PostgreSQL server (Debian's `postgresql` package) runs, with a role
# `umpire` and a database for this checkout, and prints its URL on stdout. Idempotent and
# quick when everything is already there. Installs the package with apt-get when missing
# (as root, or with sudo). Used by .ci/run so that the PostgreSQL tests always run in CI.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "postgres.sh: need root or sudo" >&2; exit 1; }
    sudo=sudo
fi
if ! command -v pg_lsclusters >/dev/null; then
    echo "postgres.sh: installing postgresql (Debian) with apt-get" >&2
    $sudo apt-get update -qq >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
# The newest installed version, and its cluster `main` (created if missing).
version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "$version/main"; then
    $sudo pg_createcluster "$version" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $4}' | grep -q online; then
    $sudo pg_ctlcluster "$version" main start >&2
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')
# One database per checkout, so that worktrees testing at once do not share one.
db="umpire_ci_$(printf '%s' "$PWD" | sha256sum | cut -c1-8)"
as_postgres() { $sudo runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qtAc "$1"; }
for _ in $(seq 1 50); do
    as_postgres "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.2
done
if [ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname = 'umpire'")" != 1 ]; then
    as_postgres "CREATE ROLE umpire LOGIN PASSWORD 'umpire'" >&2
fi
if [ "$(as_postgres "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
    as_postgres "CREATE DATABASE $db OWNER umpire" >&2
fi
echo "postgres://umpire:umpire@127.0.0.1:$port/$db"
