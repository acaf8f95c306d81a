"""Legality checks of Haft Schrödinger chess with the PyPI `python-constraint` library.

A small model of seed 003: one variable per back-rank man (natures K, Q, R, B, N) and per
promoted man (Q, R, B, N); per side at most 1 K, 1 Q, 2 R, 2 B, 2 N; each move restricts the
mover's nature, forbids the captured man to be the king, and forbids every pair "this man of
the mover is the king and that enemy man has a nature that attacks it" after the move.
python-constraint is not incremental, so each move's check builds the problem for the game so
far and asks for one solution.

The per-move facts (which natures move so, who attacks whom under which nature) come from
the Rust benchmark (`--facts`), so this measures the constraint solving, not move generation.

    python3 python_constraint_bench.py FACTS.json [--summary RUST_SUMMARY.json]
"""

import json
import statistics
import sys
import time

import constraint

COUNTS = {"K": 1, "Q": 1, "R": 2, "B": 2, "N": 2}


def counts_ok(*natures):
    for n, limit in COUNTS.items():
        if natures.count(n) > limit:
            return False
    return True


def not_king(n):
    return n != "K"


def make_pair(nature):
    def ok(king, enemy):
        return not (king == "K" and enemy == nature)

    return ok


def build(plies):
    """The problem for the game whose moves' facts are `plies`."""
    problem = constraint.Problem()
    back = [i for i in range(32) if i % 16 < 8]
    for v in back:
        problem.addVariable(v, ["K", "Q", "R", "B", "N"])
    for side in (0, 16):
        problem.addConstraint(constraint.FunctionConstraint(counts_ok), list(range(side, side + 8)))
        problem.addConstraint(
            constraint.FunctionConstraint(lambda *ns: "K" in ns), list(range(side, side + 8))
        )
    promoted = set()
    for ply in plies:
        mover = ply["mover"]
        if ply["allowed"] is not None:
            problem.addConstraint(constraint.InSetConstraint(set(ply["allowed"])), [mover])
        captured = ply["captured"]
        if captured is not None and captured % 16 < 8:
            problem.addConstraint(constraint.FunctionConstraint(not_king), [captured])
        for king in ply["pawn_attacked"]:
            problem.addConstraint(constraint.FunctionConstraint(not_king), [king])
        for king, enemy, nature in ply["pairs"]:
            problem.addConstraint(constraint.FunctionConstraint(make_pair(nature)), [king, enemy])
        if ply["promoted"] is not None and ply["promoted"] not in promoted:
            promoted.add(ply["promoted"])
            problem.addVariable(ply["promoted"], ["Q", "R", "B", "N"])
    return problem


def main():
    facts = json.load(open(sys.argv[1]))
    summary = None
    if "--summary" in sys.argv:
        summary = json.load(open(sys.argv[sys.argv.index("--summary") + 1]))
    times = []
    for game in facts:
        for t in range(len(game)):
            start = time.perf_counter()
            solution = build(game[: t + 1]).getSolution()
            times.append((time.perf_counter() - start) * 1e6)
            if solution is None:
                raise SystemExit(f"python-constraint finds {game[t]['move']} illegal: models disagree")
    times.sort()
    row = {
        "umpire": "python-constraint 1.4.0 (rebuilt and solved per move)",
        "judge_played": {
            "count": len(times),
            "median_us": statistics.median(times),
            "p99_us": times[round((len(times) - 1) * 0.99)],
            "max_us": times[-1],
            "mean_us": statistics.fmean(times),
        },
    }
    print(json.dumps(row))
    if summary is not None:
        rows = summary["rows"] + [row]
        base = rows[0]["judge_played"]["median_us"]
        print()
        print("| umpire | judge played move: median µs | p99 µs | max µs | median / SAT default |")
        print("|---|---|---|---|---|")
        for r in rows:
            j = r["judge_played"]
            print(
                f"| {r['umpire']} | {j['median_us']:.3f} | {j['p99_us']:.2f} | {j['max_us']:.1f} | {j['median_us'] / base:.1f}× |"
            )
        print()
        print("| umpire | all candidate moves: median µs | p99 µs | max µs | play + update: median µs | p99 µs | max µs |")
        print("|---|---|---|---|---|---|---|")
        for r in summary["rows"]:
            c = r["judge_candidates"]
            u = r["play_update"]
            cand = f"{c['median_us']:.3f} | {c['p99_us']:.2f} | {c['max_us']:.1f}" if c else "— | — | —"
            print(
                f"| {r['umpire']} | {cand} | {u['median_us']:.2f} | {u['p99_us']:.1f} | {u['max_us']:.1f} |"
            )


if __name__ == "__main__":
    main()
