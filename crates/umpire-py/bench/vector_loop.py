"""A fixed number of iterations of `bench_python.py`'s `VectorEnv(256)` loops, for cachegrind
(an instruction count is not disturbed by other work on the machine, a time is):

    valgrind --tool=cachegrind --cache-sim=yes python crates/umpire-py/bench/vector_loop.py 3000 index
    valgrind --tool=cachegrind --cache-sim=yes python crates/umpire-py/bench/vector_loop.py 1000 index

The difference of the two runs, divided by 2,000 × 256, is the cost of one step in the steady
state. `lists` (the default) draws from the sorted lists (`legal_actions`, `step`), `index`
from the counts (`action_counts`, `step_index`); both draw the same ranks, so they play the
same games (the number of games finished is printed on standard error).
"""

import sys

import numpy as np

import umpire


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    mode = sys.argv[2] if len(sys.argv) > 2 else "lists"
    n = 256
    env = umpire.VectorEnv(n, rules="wild16")
    rng = np.random.default_rng(1)
    if mode == "index":
        for _ in range(iterations):
            counts = env.action_counts()
            env.step_index((rng.random(n) * counts).astype(np.uint32))
    else:
        for _ in range(iterations):
            actions, offsets = env.legal_actions()
            counts = np.diff(offsets)
            pick = offsets[:-1] + (rng.random(n) * counts).astype(np.uint32)
            env.step(actions[pick])
    print(env.games_done, file=sys.stderr)


if __name__ == "__main__":
    main()
