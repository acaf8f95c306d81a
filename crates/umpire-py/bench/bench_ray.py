"""Games per second of one match: `umpire match` in one process (1 and 2 threads) against
`umpire.distributed.match` on a local Ray of 2 CPUs; checks on the way that all give the same
score (node budgets, one seed).

    UMPIRE_BIN=target/ci/umpire nice python crates/umpire-py/bench/bench_ray.py \
        --a mcts --b random --games 40 --nodes 50 --batch 5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time

import ray

from umpire import distributed


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--a", default="mcts")
    p.add_argument("--b", default="random")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--nodes", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default="wild16")
    p.add_argument("--max-plies", type=int, default=2000)
    p.add_argument("--batch", type=int, default=None)
    args = p.parse_args()
    cli = os.environ["UMPIRE_BIN"]
    common = ["--games", str(args.games), "--nodes", str(args.nodes), "--seed", str(args.seed),
              "--rules", args.rules, "--max-plies", str(args.max_plies), "--json"]
    rows = []
    scores = set()
    for threads in (1, 2):
        t = time.perf_counter()
        done = subprocess.run([cli, "match", args.a, args.b, *common, "--concurrency",
                               str(threads)], check=True, capture_output=True, text=True)
        seconds = time.perf_counter() - t
        s = json.loads(done.stdout)
        scores.add((s["wins"], s["draws"], s["losses"]))
        rows.append((f"umpire match, one process, {threads} thread(s)", seconds))
    t = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - t
    t = time.perf_counter()
    s = distributed.match(args.a, args.b, args.games, nodes=args.nodes, seed=args.seed,
                          rules=args.rules, max_plies=args.max_plies, batch=args.batch)
    seconds = time.perf_counter() - t
    scores.add((s["wins"], s["draws"], s["losses"]))
    rows.append((f"umpire.distributed.match, Ray 2 CPUs (ray.init {started:.1f} s apart)",
                 seconds))
    ray.shutdown()
    print(f"{args.a} vs {args.b}, {args.games} games, {args.nodes} nodes, seed {args.seed}, "
          f"{args.rules}; W/D/L {sorted(scores)}")
    for name, sec in rows:
        print(f"| {name} | {sec:.2f} | {args.games / sec:.2f} |")
    if len(scores) != 1:
        raise SystemExit("the runs disagree")


if __name__ == "__main__":
    main()
