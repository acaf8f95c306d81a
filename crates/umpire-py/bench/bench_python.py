"""Random-playout environment steps per second from a Python loop (issue 26).

Each library plays random games from the standard start for about `--seconds` seconds in a
plain Python loop: at each step the mover's legal actions are listed and one is applied (an
attempt, legal or not, counts as one step). Run it in a venv with the libraries installed:

    python crates/umpire-py/bench/bench_python.py --seconds 10

Libraries: `umpire` (this crate: `pip install ./crates/umpire-py`), `pyspiel`
(`pip install open_spiel==2.0.2`), `kriegspiel` (PyPI `kriegspiel==1.7.3`). Missing ones are
skipped. `umpire.VectorEnv` is measured as researchers use vectorised environments: one Python
iteration draws an action per game with NumPy and steps 256 games with one call (on one thread,
then on two; the interleaved rows also 64 games on one thread), from the sorted lists
(`legal_actions`, `step`) and, the fast path, from the counts alone (`action_counts`,
`step_index`: the same draws play the same games). The batched `umpire.play_random_games` is
measured too, for the comparison with `umpire bench`.
"""

import argparse
import random
import time


def run_loop(make_state, step, seconds):
    rng = random.Random(1)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = make_state()
        while True:
            done = step(s, rng)
            steps += 1
            if done:
                break
        games += 1
    elapsed = time.perf_counter() - start
    return steps, games, elapsed


def bench_umpire(seconds, rules="wild16"):
    import umpire

    game = umpire.load_game("kriegspiel", rules=rules)

    def step(s, rng):
        s.apply_action(rng.choice(s.legal_actions()))
        return s.is_terminal()

    return run_loop(game.new_initial_state, step, seconds)


def bench_umpire_vector(seconds, n=256, threads=1, rules="wild16"):
    """The vectorised loop: each Python iteration lists every game's legal actions, draws one
    per game with NumPy and steps all `n` games with one call."""
    import numpy as np
    import umpire

    env = umpire.VectorEnv(n, rules=rules, threads=threads)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions, offsets = env.legal_actions()
        counts = np.diff(offsets)
        pick = offsets[:-1] + (rng.random(n) * counts).astype(np.uint32)
        env.step(actions[pick])
        steps += n
    elapsed = time.perf_counter() - start
    return steps, env.games_done, elapsed


def bench_umpire_vector_index(seconds, n=256, threads=1, rules="wild16"):
    """The vectorised loop by rank: each Python iteration reads every game's number of legal
    actions, draws a rank per game with NumPy and steps all `n` games with one call (the
    same draws as `bench_umpire_vector`'s, so the same games)."""
    import numpy as np
    import umpire

    env = umpire.VectorEnv(n, rules=rules, threads=threads)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        counts = env.action_counts()
        env.step_index((rng.random(n) * counts).astype(np.uint32))
        steps += n
    elapsed = time.perf_counter() - start
    return steps, env.games_done, elapsed


def bench_pyspiel(seconds):
    import pyspiel

    game = pyspiel.load_game("kriegspiel")

    def step(s, rng):
        s.apply_action(rng.choice(s.legal_actions()))
        return s.is_terminal()

    return run_loop(game.new_initial_state, step, seconds)


def bench_pypi(seconds):
    from kriegspiel.game import KriegspielGame

    def make():
        return KriegspielGame(ruleset="wild16")

    def step(g, rng):
        g.ask_for(rng.choice(g.possible_to_ask))
        return g.game_over

    return run_loop(make, step, seconds)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--only", default="", help="run only the rows whose name contains this")
    ap.add_argument("--rounds", type=int, default=1,
                    help="interleave the rows: each runs this many times for seconds/rounds, "
                         "and the median steps/s is shown (a shared machine's load drifts)")
    args = ap.parse_args()
    if args.rounds > 1:
        return interleaved(args)
    rows = []
    ap_vec = [("umpire.VectorEnv(256) (wild16, 1 thread)",
               lambda s: bench_umpire_vector(s, 256, 1)),
              ("umpire.VectorEnv(256) step_index (wild16, 1 thread)",
               lambda s: bench_umpire_vector_index(s, 256, 1)),
              ("umpire.VectorEnv(256, threads=2) (wild16)",
               lambda s: bench_umpire_vector(s, 256, 2))]
    for name, fn in [("umpire (wild16)", bench_umpire), *ap_vec,
                     ("pyspiel kriegspiel", bench_pyspiel),
                     ("PyPI kriegspiel 1.7.3 (wild16)", bench_pypi)]:
        if args.only not in name:
            continue
        try:
            steps, games, elapsed = fn(args.seconds)
        except ImportError as e:
            print(f"{name}: skipped ({e})")
            continue
        rows.append((name, steps / elapsed, games / elapsed, steps / max(games, 1)))
    try:
        import umpire

        n = 0
        r = None
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            r = umpire.play_random_games(200, rules="wild16", seed=n)
            n += 1
            if n == 1:
                total = dict(r)
            else:
                for k in ("games", "attempts", "seconds"):
                    total[k] += r[k]
        rows.append(("umpire.play_random_games (wild16, 1 thread)", total["attempts"] / total["seconds"],
                     total["games"] / total["seconds"], total["attempts"] / total["games"]))
    except ImportError:
        pass
    print("| library | steps/s | games/s | steps/game |")
    print("|---|---:|---:|---:|")
    for name, sps, gps, spg in rows:
        print(f"| {name} | {sps:,.0f} | {gps:,.1f} | {spg:,.0f} |")


def interleaved(args):
    """Each row `rounds` times in turn; the median of its steps per wall second and per
    process CPU second (the latter for one-thread rows: less sensitive to other work)."""
    import statistics

    rows = [("umpire (wild16), one state", bench_umpire),
            ("umpire.VectorEnv(256), 1 thread", lambda s: bench_umpire_vector(s, 256, 1)),
            ("umpire.VectorEnv(256) step_index, 1 thread",
             lambda s: bench_umpire_vector_index(s, 256, 1)),
            ("umpire.VectorEnv(64), 1 thread", lambda s: bench_umpire_vector(s, 64, 1)),
            ("umpire.VectorEnv(256, threads=2)", lambda s: bench_umpire_vector(s, 256, 2)),
            ("pyspiel kriegspiel, one state", bench_pyspiel)]
    wall = {name: [] for name, _ in rows}
    cpu = {name: [] for name, _ in rows}
    for _ in range(args.rounds):
        for name, fn in rows:
            if args.only not in name:
                continue
            c0 = time.process_time()
            try:
                steps, _games, elapsed = fn(args.seconds / args.rounds)
            except ImportError as e:
                print(f"{name}: skipped ({e})")
                continue
            wall[name].append(steps / elapsed)
            cpu[name].append(steps / max(time.process_time() - c0, 1e-9))
    base = wall.get("pyspiel kriegspiel, one state") or [0]
    base_cpu = cpu.get("pyspiel kriegspiel, one state") or [0]
    print(f"| loop | steps/s (median of {args.rounds}) | ÷ pyspiel | steps per CPU-second | ÷ pyspiel |")
    print("|---|---:|---:|---:|---:|")
    for name, _ in rows:
        if not wall[name]:
            continue
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        bw, bc = statistics.median(base), statistics.median(base_cpu)
        print(f"| {name} | {w:,.0f} | {w / bw if bw else 0:.1f}× | {c:,.0f} | "
              f"{c / bc if bc else 0:.1f}× |")


if __name__ == "__main__":
    main()
