#!/usr/bin/env python3
"""Turn the JSON lines of `umpire bench --json`, openspiel_bench.py and
pypi_kriegspiel_bench.py into a Markdown table with ratios (used by run_all.sh).

Usage: report.py --facts FACTS.json [--command CMD] RESULTS.jsonl...
Lines without an "impl" field are ours (`umpire bench --json`).
"""

from __future__ import annotations

import argparse
import json


def load(paths: list[str]) -> list[dict]:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                row = json.loads(line)
                row.setdefault("impl", "umpire")
                rows.append(row)
    return rows


def num(x: float, digits: int = 0) -> str:
    if digits == 0:
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


def ratio(ours: float | None, theirs: float | None) -> str:
    if not ours or not theirs:
        return "—"
    r = ours / theirs
    return f"{r:,.0f}×" if r >= 100 else f"{r:,.1f}×"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", required=True)
    ap.add_argument("--command", default="bench/compare/run_all.sh")
    ap.add_argument("results", nargs="+")
    args = ap.parse_args()

    with open(args.facts, encoding="utf-8") as f:
        facts = json.load(f)
    rows = load(args.results)
    ours = {r["rules"]: r for r in rows if r["impl"] == "umpire"}
    order = list(ours) + [r["rules"] for r in rows if r["rules"] not in ours]
    seen: list[str] = []
    for rules in order:
        if rules not in seen:
            seen.append(rules)

    out = []
    out.append("| rules | implementation | games | games/s | attempts/s | attempts/game | plies/game "
               "| ours ÷ it, attempts/s | ours ÷ it, games/s |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    for rules in seen:
        u = ours.get(rules)
        if u:
            out.append(f"| {rules} | **umpire (Rust)** | {num(u['games'])} | {num(u['games_per_sec'], 1)} "
                       f"| **{num(u['attempts_per_sec'])}** | {num(u['attempts_per_game'], 1)} "
                       f"| {num(u['plies_per_game'], 1)} | — | — |")
        for r in rows:
            if r["rules"] != rules or r["impl"] == "umpire":
                continue
            ua = u["attempts_per_sec"] if u else None
            ug = u["games_per_sec"] if u else None
            if r["impl"] == "openspiel":
                if "attempts_per_sec" in r:
                    out.append(
                        f"| {rules} | OpenSpiel {r.get('openspiel_version', '')} `kriegspiel`, Python loop "
                        f"| {num(r['games'])} | {num(r['games_per_sec'], 1)} | {num(r['attempts_per_sec'])} "
                        f"| {num(r['attempts_per_game'], 1)} | {num(r['plies_per_game'], 1)} "
                        f"| {ratio(ua, r['attempts_per_sec'])} | {ratio(ug, r['games_per_sec'])} |")
                if "cpp_games_per_sec" in r:
                    derived = r.get("cpp_attempts_per_sec_derived")
                    out.append(
                        f"| {rules} | OpenSpiel {r.get('openspiel_version', '')} `kriegspiel`, C++ rollouts "
                        f"| {num(r['cpp_games'])} | {num(r['cpp_games_per_sec'], 1)} "
                        f"| {num(derived) + ' (derived)' if derived else '—'} | — | — "
                        f"| {ratio(ua, derived)} | {ratio(ug, r['cpp_games_per_sec'])} |")
                p = r.get("params", {})
                notes.append(
                    f"OpenSpiel `kriegspiel` parameters: 50_move_rule={p.get('50_move_rule')}, "
                    f"threefold_repetition={p.get('threefold_repetition')}. Its '50-move rule' fires after 50 "
                    f"HALF-moves without capture or pawn move (a 25-move rule), and checkmate/stalemate are only "
                    f"found once the mover has tried and been refused every pseudo-legal move. Game ends in the "
                    f"Python loop: {r.get('end_reasons')}.")
                if "python_overhead_share" in r:
                    notes.append(
                        f"OpenSpiel Python loop = three pybind11 calls + one `random.choice` per attempt; "
                        f"OpenSpiel's own C++ `RandomRolloutEvaluator` plays the same uniform playouts "
                        f"{r['cpp_games_per_sec'] / r['games_per_sec']:.2f}× as fast, i.e. "
                        f"{100 * r['python_overhead_share']:.0f}% of the Python loop's time is Python/binding "
                        f"overhead. Its attempts/s is games/s × the Python loop's attempts/game.")
            elif r["impl"] == "pypi-kriegspiel":
                out.append(
                    f"| {rules} | PyPI `kriegspiel` {r.get('kriegspiel_version', '')} "
                    f"| {num(r['games'])} | {num(r['games_per_sec'], 2)} | {num(r['attempts_per_sec'])} "
                    f"| {num(r['attempts_per_game'], 1)} | {num(r['plies_per_game'], 1)} "
                    f"| {ratio(ua, r['attempts_per_sec'])} | {ratio(ug, r['games_per_sec'])} |")
                if r.get("capped_games"):
                    notes.append(f"PyPI `kriegspiel` {rules}: {r['capped_games']} of {r['games']} games "
                                 f"stopped at the {r['max_plies']}-half-move cap.")
    pypi = [r for r in rows if r["impl"] == "pypi-kriegspiel"]
    if pypi:
        capped = sum(r.get("capped_games", 0) for r in pypi)
        games = sum(r["games"] for r in pypi)
        notes.append(f"PyPI `kriegspiel` has no threefold-repetition and no 50-move rule (only its own draw after "
                     f"2000 reversible half-moves), so each game is cut off at {pypi[0].get('max_plies')} "
                     f"half-moves ({capped} of {games} games were). Attempt = one `ask_for` call (an 'Any?' "
                     f"question counts), ply = one answer with `move_done`. Its attempts/game and plies/game "
                     f"reflect those different draw rules; attempts/s is the like-for-like figure.")

    print(f"Measured {facts['date']} with `{args.command}`, one benchmark at a time, single thread each.")
    print()
    print(f"Machine: {facts['cpu']}, nproc {facts['nproc']}, {facts['python']}, {facts['rustc']}, "
          f"open_spiel {facts['open_spiel']}, kriegspiel {facts['kriegspiel']}; "
          f"load average before/after: {facts['load_before']} / {facts.get('load_after', '?')}"
          f"{' (machine shared with other work: figures are noisy)' if facts.get('busy') else ''}.")
    print()
    print("\n".join(out))
    if notes:
        print()
        for n in notes:
            print(f"- {n}")


if __name__ == "__main__":
    main()
