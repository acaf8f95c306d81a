#!/usr/bin/env python3
"""Bradley–Terry ratings on the Elo scale over pairings played in separate runs: reads the lines
`scripts/score_records.py` prints (`A vs B: N games, W-D-L, ...`) from standard input, adds the
results of lines that name the same two agents, gives every pairing one virtual draw (as
`umpire match --round-robin` does, so that a pairing won outright keeps a finite rating) and
prints each agent's rating, average 0, weakest first. Usage:

    scripts/score_records.py DIR1 DIR2 ... | scripts/rate_pairs.py

The same games must not be read twice (a round robin and a match started with the same seed
play the same first pairing's games: read one of them).
"""

import collections
import math
import re
import sys

LINE = re.compile(r"(\S+) vs (\S+): (\d+) games, (\d+)-(\d+)-(\d+)")


def read(lines):
    """(a, b) -> [a's score, games], a before b as first read."""
    pairs = collections.OrderedDict()
    for line in lines:
        m = LINE.match(line.strip())
        if not m:
            continue
        a, b = m.group(1), m.group(2)
        games, wins, draws, _losses = (int(x) for x in m.groups()[2:])
        if (b, a) in pairs:
            pairs[(b, a)][0] += games - wins - draws / 2
            pairs[(b, a)][1] += games
        else:
            entry = pairs.setdefault((a, b), [0.0, 0])
            entry[0] += wins + draws / 2
            entry[1] += games
    return pairs


def fit(pairs, rounds=5000):
    """Maximum-likelihood ratings by Newton steps per agent, one virtual draw per pairing."""
    names = sorted({x for pair in pairs for x in pair})
    rating = {x: 0.0 for x in names}
    scale = 400 / math.log(10)
    for _ in range(rounds):
        for x in names:
            gradient, curvature = 0.0, 0.0
            for (a, b), (score, games) in pairs.items():
                if x not in (a, b):
                    continue
                other = b if x == a else a
                own = (score if x == a else games - score) + 0.5
                expected = 1 / (1 + 10 ** ((rating[other] - rating[x]) / 400))
                gradient += own - (games + 1) * expected
                curvature += (games + 1) * expected * (1 - expected)
            if curvature > 0:
                rating[x] += scale * gradient / curvature / 2
        mean = sum(rating.values()) / len(rating)
        for x in names:
            rating[x] -= mean
    return rating


def main():
    pairs = read(sys.stdin)
    if not pairs:
        sys.exit("no `A vs B: N games, W-D-L` lines on standard input")
    rating = fit(pairs)
    games = sum(g for _, g in pairs.values())
    for name in sorted(rating, key=rating.get):
        print(f"{rating[name]:+7.0f}  {name}")
    print(f"{games} games in {len(pairs)} pairings")


if __name__ == "__main__":
    main()
