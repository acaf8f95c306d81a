#!/usr/bin/env python3
"""Random-playout throughput of the PyPI `kriegspiel` package, single thread.

Prints ONE JSON object per rule set in the shape of `umpire bench --json`:

  {"impl":"pypi-kriegspiel","rules":"wild16","games":N,"seconds":S,"games_per_sec":...,
   "attempts_per_sec":...,"attempts_per_game":...,"plies_per_game":...,...}

`rules` uses our identifiers (`berkeley-any`); `pypi_ruleset` gives the
package's own (`berkeley_any`).

How the package works (kriegspiel/game.py, rulesets.py, version 1.7.3):
  * `game.possible_to_ask` is the list of questions the mover may ask: the
    legal moves of its own board with the opponent's men removed, plus the
    pawn-capture tries the rule set allows at that moment (all diagonals in
    Berkeley/English; only when pawn tries were announced in wild16 /
    Cincinnati; only from the announced pawns in RAND), plus `ASK_ANY` where
    the rule set has it (berkeley_any, english). A rejected attempt is removed
    from it for the rest of the turn, and after "has any" it shrinks to pawn
    captures. We pick uniformly from it.
  * attempt = one `game.ask_for(...)` call (an `ASK_ANY` question counts as an
    attempt, as in `umpire bench`);
  * ply = one answer with `answer.move_done` true;
  * a game ends when `game.game_over` (checkmate, stalemate, insufficient
    material, or the package's own HALFMOVE_CLOCK_LIMIT = 2000 reversible
    half-moves). The package has NO threefold-repetition and no 50-move rule,
    so we also stop a game after --max-plies half-moves (default 2000) and
    report how many games hit that cap (`capped_games`).

The package is pure Python (python-chess underneath), so the loop's own
overhead (one `random.choice` per attempt) is negligible next to `ask_for`.

`possible_to_ask` is built from a set whose order depends on Python's string
hashing, so for a reproducible --seed the script re-executes itself with
PYTHONHASHSEED=0 unless PYTHONHASHSEED is already set.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

if "PYTHONHASHSEED" not in os.environ:
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

try:
    import kriegspiel
    from kriegspiel.game import KriegspielGame
except ImportError:  # pragma: no cover
    sys.exit("pypi_kriegspiel_bench: cannot import kriegspiel; run `pip install kriegspiel==1.7.3`")

# our id -> the package's ruleset id
RULE_SETS = {
    "wild16": "wild16",
    "berkeley": "berkeley",
    "berkeley-any": "berkeley_any",
    "cincinnati": "cincinnati",
    "english": "english",
    "rand": "rand",
}


def run(our_id: str, seconds: float, seed: int, max_plies: int) -> dict:
    ruleset = RULE_SETS[our_id]
    rng = random.Random(seed)
    choice = rng.choice
    perf = time.perf_counter
    games = attempts = plies = capped = 0
    start = perf()
    deadline = start + seconds
    while True:
        game = KriegspielGame(ruleset=ruleset)
        ask = game.ask_for
        n = p = 0
        while not game.game_over:
            if p >= max_plies:
                capped += 1
                break
            if ask(choice(game.possible_to_ask)).move_done:
                p += 1
            n += 1
        attempts += n
        plies += p
        games += 1
        if perf() >= deadline:
            break
    secs = perf() - start
    return {
        "impl": "pypi-kriegspiel",
        "rules": our_id,
        "pypi_ruleset": ruleset,
        "kriegspiel_version": kriegspiel.__version__,
        "seed": seed,
        "games": games,
        "seconds": round(secs, 3),
        "games_per_sec": games / secs,
        "attempts_per_sec": attempts / secs,
        "attempts_per_game": attempts / games,
        "plies_per_game": plies / games,
        "max_plies": max_plies,
        "capped_games": capped,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per rule set")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", action="append", metavar="ID",
                    help="rule set (repeatable): " + ", ".join(RULE_SETS)
                    + " (berkeley_any also accepted); default: all")
    ap.add_argument("--max-plies", type=int, default=2000,
                    help="stop a game unfinished after this many half-moves (default 2000)")
    args = ap.parse_args()

    ids = []
    for r in args.rules or list(RULE_SETS):
        r = r.replace("_", "-")
        if r not in RULE_SETS:
            ap.error(f"unknown rule set {r!r}; known: {', '.join(RULE_SETS)}")
        ids.append(r)
    for our_id in ids:
        print(json.dumps(run(our_id, args.seconds, args.seed, args.max_plies)), flush=True)


if __name__ == "__main__":
    main()
