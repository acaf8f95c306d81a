#!/usr/bin/env python3
"""Score of a match from the records `umpire match --out DIR` wrote, for runs stopped before
their end (the summary is printed only at the end). Per pairing (the `I-J-` prefix of a round
robin, none for a match): games, the first agent's W-D-L and score with a 95 % interval
(normal approximation), and how the games ended. Usage: scripts/score_records.py DIR [DIR ...]
"""

import collections
import json
import math
import pathlib
import re
import sys


def main(dirs):
    pairings = collections.OrderedDict()
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("*game-*.json")):
            m = re.match(r"(?:(\d+)-(\d+)-)?game-(\d+)\.json$", path.name)
            if not m:
                continue
            record = json.loads(path.read_text())
            tags = record["tags"]
            index = int(m.group(3))
            # The first agent plays White in odd-numbered games.
            a = tags["White"] if index % 2 == 1 else tags["Black"]
            b = tags["Black"] if index % 2 == 1 else tags["White"]
            score = record.get("result", {}).get("score", "*")
            reason = record.get("result", {}).get("reason", "unfinished")
            a_white = index % 2 == 1
            if score == "1/2-1/2":
                points = 0.5
            elif score in ("1-0", "0-1"):
                points = 1.0 if (score == "1-0") == a_white else 0.0
            else:
                continue
            p = pairings.setdefault((a, b), {"points": [], "reasons": collections.Counter()})
            p["points"].append(points)
            p["reasons"][reason] += 1
    for (a, b), p in pairings.items():
        pts = p["points"]
        n = len(pts)
        s = sum(pts) / n
        w, d = pts.count(1.0), pts.count(0.5)
        sd = math.sqrt(sum((x - s) ** 2 for x in pts) / n / n) if n > 1 else 0.0
        reasons = ", ".join(f"{k} {v}" for k, v in p["reasons"].most_common())
        print(f"{a} vs {b}: {n} games, {w}-{d}-{n - w - d}, score {s:.3f} ± {1.96 * sd:.3f}; {reasons}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
