#!/usr/bin/env python3
"""Random-playout throughput of OpenSpiel's C++ `kriegspiel` game, single thread.

Prints ONE JSON object (OpenSpiel has one Kriegspiel rule set, closest to our
`wild16`) in the shape of `umpire bench --json`:

  {"impl":"openspiel","rules":"wild16","games":N,"seconds":S,"games_per_sec":...,
   "attempts_per_sec":...,"attempts_per_game":...,"plies_per_game":...,...}

How OpenSpiel's `kriegspiel` works (open_spiel/games/kriegspiel/kriegspiel.cc):
  * `legal_actions()` of the player to move are its pseudo-legal moves on its
    own board with enemy men ignored (`kBreachEnemyPieces`: sliders pass through
    unseen men, every pawn may try both diagonals), minus the moves already
    rejected this turn (`illegal_tried_moves_`, cleared when a move is
    accepted). That is exactly "uniform over the attempts the mover could make on
    its own board, never repeating a rejected attempt", so we pick uniformly
    from `legal_actions()`.
  * `apply_action(a)` is one attempt: the umpire rejects it ("Illegal move.",
    same player again) or plays it (the other player moves next).
  * The game is terminal on insufficient material, threefold repetition
    (`threefold_repetition=True`), when the mover has no untried attempt left
    (checkmate or stalemate are only found this way: the mated side must try
    and be refused every pseudo-legal move first), or when the irreversible
    move counter reaches 50 (`50_move_rule=True`; the counter is in HALF-moves,
    so this is a 25-move rule, not chess's 50-move rule).

Counting:
  * attempt = one `apply_action` call;
  * ply = one accepted move. Per step the loop does no bookkeeping at all;
    plies are read once per game from the final FEN (fullmove number and side
    to move), which `--check` cross-validates against current-player changes.

Two measurements (each for --seconds):
  * python-loop (headline, counted): `while not s.is_terminal():
    s.apply_action(choice(s.legal_actions()))` with bound methods, i.e. three
    pybind11 calls plus one `random.choice` per attempt; attempts and plies are
    counted exactly.
  * cpp-rollout: the same uniform random playouts run entirely in C++ by
    OpenSpiel's own `RandomRolloutEvaluator` (driven through `MCTSBot` with one
    simulation, whose single leaf evaluation plays `--rollouts-per-call`
    complete games from the initial state). Only games/s is measured there;
    its attempts/s is DERIVED as cpp games/s x attempts/game of the python
    loop (same distribution of games). This removes the Python overhead.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time

try:
    import pyspiel
except ImportError:  # pragma: no cover
    sys.exit("openspiel_bench: cannot import pyspiel; run `pip install open_spiel` "
             "(see bench/compare/requirements.txt)")

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def fen_plies(fen: str) -> int:
    """Half-moves played since the start of the game, from a FEN."""
    parts = fen.split()
    return 2 * (int(parts[5]) - 1) + (1 if parts[1] == "b" else 0)


def end_reason(state, fifty: bool) -> str:
    """Why a terminal state ended (cheap: once per game)."""
    if state.returns()[0] != 0:
        return "checkmate"
    # The observation string ends with the last umpire message.
    if state.observation_string(0).endswith("Illegal move."):
        return "stalemate"
    if fifty and int(state.to_string().split()[4]) >= 50:
        return "fifty_halfmoves"
    return "insufficient_or_threefold"


def python_loop(game, seconds: float, seed: int, fifty: bool) -> dict:
    rng = random.Random(seed)
    choice = rng.choice
    new_state = game.new_initial_state
    start_plies = fen_plies(new_state().to_string())
    perf = time.perf_counter
    games = attempts = plies = 0
    reasons: collections.Counter[str] = collections.Counter()
    start = perf()
    deadline = start + seconds
    while True:
        s = new_state()
        legal = s.legal_actions
        apply = s.apply_action
        terminal = s.is_terminal
        n = 0
        # The timed inner loop: nothing but the three OpenSpiel calls and the
        # random pick.
        while not terminal():
            apply(choice(legal()))
            n += 1
        attempts += n
        plies += fen_plies(s.to_string()) - start_plies
        reasons[end_reason(s, fifty)] += 1
        games += 1
        if perf() >= deadline:
            break
    secs = perf() - start
    return {
        "games": games,
        "seconds": secs,
        "attempts": attempts,
        "plies": plies,
        "end_reasons": dict(sorted(reasons.items())),
    }


def cpp_rollouts(game, seconds: float, seed: int, per_call: int) -> dict:
    evaluator = pyspiel.RandomRolloutEvaluator(per_call, seed)
    # uct_c, max_simulations=1, max_memory_mb, solve=False, seed, verbose=False
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 1000, False, seed, False)
    root = game.new_initial_state()
    perf = time.perf_counter
    games = 0
    start = perf()
    deadline = start + seconds
    while True:
        bot.step(root)  # plays `per_call` complete random games in C++
        games += per_call
        if perf() >= deadline:
            break
    secs = perf() - start
    return {"games": games, "seconds": secs}


def check(game, n_games: int, seed: int, fifty: bool) -> dict:
    """Instrumented games (not timed): validates how attempts/plies are counted."""
    rng = random.Random(seed ^ 0x5EED)
    attempts = plies_seen = exhaustion_attempts = 0
    for _ in range(n_games):
        s = game.new_initial_state()
        start_plies = fen_plies(s.to_string())
        plies = 0
        rejected: set[int] = set()
        turn_attempts = 0
        while not s.is_terminal():
            player = s.current_player()
            legal = s.legal_actions()
            assert not rejected & set(legal), "a rejected attempt was offered again"
            a = rng.choice(legal)
            s.apply_action(a)
            attempts += 1
            turn_attempts += 1
            if s.is_terminal():
                accepted = not s.observation_string(0).endswith("Illegal move.")
            else:
                accepted = s.current_player() != player
            if accepted:
                plies += 1
                rejected.clear()
                turn_attempts = 0
            else:
                rejected.add(a)
        if end_reason(s, fifty) in ("checkmate", "stalemate"):
            exhaustion_attempts += turn_attempts
        got = fen_plies(s.to_string()) - start_plies
        assert got == plies, f"FEN plies {got} != counted plies {plies}"
        plies_seen += plies
    return {
        "games": n_games,
        "attempts_per_game": attempts / n_games,
        "plies_per_game": plies_seen / n_games,
        "final_turn_attempts_per_game_in_mate_or_stalemate": exhaustion_attempts / n_games,
        "ok": True,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="seconds for each measurement (python loop, then C++ rollouts)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=("both", "python", "cpp"), default="both")
    ap.add_argument("--rollouts-per-call", type=int, default=20,
                    help="C++ games per MCTSBot.step call in the cpp-rollout measurement")
    ap.add_argument("--no-fifty-move-rule", action="store_true",
                    help="load the game with 50_move_rule=False (default: OpenSpiel's default, True)")
    ap.add_argument("--no-threefold", action="store_true",
                    help="load the game with threefold_repetition=False (default: True)")
    ap.add_argument("--check", type=int, default=0, metavar="N",
                    help="first play N instrumented games validating the counting (untimed; "
                         "summary on stderr)")
    args = ap.parse_args()

    fifty = not args.no_fifty_move_rule
    params = {"50_move_rule": fifty, "threefold_repetition": not args.no_threefold}
    game = pyspiel.load_game("kriegspiel", params)

    if args.check:
        print(json.dumps({"check": check(game, args.check, args.seed, fifty)}), file=sys.stderr)

    try:
        from importlib.metadata import version
        os_version = version("open_spiel")
    except Exception:  # pragma: no cover
        os_version = "unknown"

    out: dict = {
        "impl": "openspiel",
        "rules": "wild16",
        "openspiel_game": "kriegspiel",
        "openspiel_version": os_version,
        "params": {k: v for k, v in game.get_parameters().items() if k != "fen"},
        "seed": args.seed,
    }
    if args.mode in ("both", "python"):
        r = python_loop(game, args.seconds, args.seed, fifty)
        out.update({
            "mode": "python-loop",
            "games": r["games"],
            "seconds": round(r["seconds"], 3),
            "games_per_sec": r["games"] / r["seconds"],
            "attempts_per_sec": r["attempts"] / r["seconds"],
            "attempts_per_game": r["attempts"] / r["games"],
            "plies_per_game": r["plies"] / r["games"],
            "end_reasons": r["end_reasons"],
        })
    if args.mode in ("both", "cpp"):
        c = cpp_rollouts(game, args.seconds, args.seed, args.rollouts_per_call)
        cpp_gps = c["games"] / c["seconds"]
        out.update({
            "cpp_games": c["games"],
            "cpp_seconds": round(c["seconds"], 3),
            "cpp_games_per_sec": cpp_gps,
        })
        if "attempts_per_game" in out:
            out["cpp_attempts_per_sec_derived"] = cpp_gps * out["attempts_per_game"]
            out["python_overhead_share"] = 1.0 - out["games_per_sec"] / cpp_gps
        else:
            out["mode"] = "cpp-rollout"
            out["games"] = c["games"]
            out["seconds"] = round(c["seconds"], 3)
            out["games_per_sec"] = cpp_gps
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
