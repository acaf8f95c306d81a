#!/usr/bin/env bash
# Random-playout throughput of our umpire, OpenSpiel's C++ `kriegspiel` and the PyPI
# `kriegspiel` package, measured in the same run, one after the other (never in
# parallel), single thread each. Prints a Markdown table with ratios for
# docs/BENCHMARKS.md on stdout; progress goes to stderr.
#
# Usage: bench/compare/run_all.sh [--seconds S] [--seed N] [--rules ID] [--out DIR]
#                                 [--skip-openspiel] [--skip-pypi]
#   --seconds S  seconds per rule set (ours, PyPI) and per OpenSpiel measurement
#                (Python loop, then C++ rollouts); default 10
#   --rules ID   restrict to one rule set (ours and PyPI; OpenSpiel only runs for wild16)
#   --out DIR    keep the raw JSON lines and facts there (default: a temporary directory)
# Environment: UMPIRE_BIN (default target/release/umpire, built if missing), PYTHON (default python3).
# Needs: pip install -r bench/compare/requirements.txt
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
secs=10
seed=1
rules=""
out=""
skip_os=0
skip_pypi=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) secs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --rules) rules="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --skip-openspiel) skip_os=1; shift ;;
    --skip-pypi) skip_pypi=1; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "run_all.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
done
py="${PYTHON:-python3}"
bin="${UMPIRE_BIN:-$root/target/release/umpire}"
if [ -z "$out" ]; then out="$(mktemp -d)"; fi
mkdir -p "$out"
rm -f "$out"/*.jsonl

if [ ! -x "$bin" ]; then
  echo "== building $bin" >&2
  (cd "$root" && cargo build --release -p umpire-cli >&2)
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
cmd="bench/compare/run_all.sh --seconds $secs --seed $seed${rules:+ --rules $rules}"
load_before="$(load)"

rules_arg=()
if [ -n "$rules" ]; then rules_arg=(--rules "$rules"); fi

echo "== umpire bench --json --seconds $secs --seed $seed ${rules_arg[*]}" >&2
"$bin" bench --json --seconds "$secs" --seed "$seed" "${rules_arg[@]}" | tee "$out/umpire.jsonl" >&2

if [ "$skip_os" = 0 ] && { [ -z "$rules" ] || [ "$rules" = wild16 ]; }; then
  echo "== openspiel_bench.py --seconds $secs --seed $seed" >&2
  "$py" "$here/openspiel_bench.py" --seconds "$secs" --seed "$seed" | tee "$out/openspiel.jsonl" >&2
fi

if [ "$skip_pypi" = 0 ]; then
  pypi_rules=()
  if [ -n "$rules" ]; then
    case "$rules" in
      wild16|berkeley|berkeley-any|berkeley_any|cincinnati|english|rand) pypi_rules=(--rules "$rules") ;;
      *) skip_pypi=1 ;;
    esac
  fi
  if [ "$skip_pypi" = 0 ]; then
    echo "== pypi_kriegspiel_bench.py --seconds $secs --seed $seed ${pypi_rules[*]}" >&2
    "$py" "$here/pypi_kriegspiel_bench.py" --seconds "$secs" --seed "$seed" "${pypi_rules[@]}" \
      | tee "$out/pypi.jsonl" >&2
  fi
fi

load_after="$(load)"
"$py" - "$out/facts.json" "$load_before" "$load_after" <<'EOF'
import json, platform, subprocess, sys, datetime
from importlib.metadata import version, PackageNotFoundError

def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except Exception:
        return "unknown"

def pkg(name):
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"

cpu = "unknown"
for line in run("lscpu").splitlines():
    if line.startswith("Model name:"):
        cpu = line.split(":", 1)[1].strip()
path, before, after = sys.argv[1:4]
facts = {
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    "cpu": cpu,
    "nproc": run("nproc"),
    "python": "Python " + platform.python_version(),
    "rustc": run("rustc", "--version"),
    "open_spiel": pkg("open_spiel"),
    "kriegspiel": pkg("kriegspiel"),
    "load_before": before,
    "load_after": after,
    "busy": float(before.split()[0]) > 0.5 or float(after.split()[0]) > 1.5,
}
with open(path, "w") as f:
    json.dump(facts, f)
EOF

"$py" "$here/report.py" --facts "$out/facts.json" --command "$cmd" "$out"/*.jsonl
echo "== raw results in $out" >&2
