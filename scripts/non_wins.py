#!/usr/bin/env python3
"""Classifies the games an agent did not win, from the records `umpire match --out DIR` writes.

For each game the agent named AGENT did not win: the ending (threefold, fifty moves, stalemate,
insufficient material, checkmate, ply cap), each side's men at the end, who was ahead in
material and by how much, and the last accepted moves. Ends with counts per class. Usage:
scripts/non_wins.py AGENT DIR [DIR ...]
"""

import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from material_lost import material, replay  # noqa: E402

import json  # noqa: E402


def men(board, white):
    pieces = sorted(
        (p.upper() for p in board.values() if p.isupper() == white),
        key="KQRBNP".index,
    )
    return "".join(pieces)


def main(agent, dirs):
    classes = collections.Counter()
    games = 0
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("*game-*.json")):
            record = json.loads(path.read_text())
            games += 1
            tags = record["tags"]
            white = tags["White"] == agent
            result = record.get("result", {})
            score = result.get("score", "?")
            won = score == ("1-0" if white else "0-1")
            if won:
                continue
            board, _ = replay(record)
            diff = material(board, white) - material(board, not white)
            reason = result.get("reason", "?")
            lead = "ahead" if diff > 0 else ("behind" if diff < 0 else "level")
            classes[f"{reason} ({'lost' if score in ('1-0', '0-1') else 'draw'}, {lead})"] += 1
            moves = [
                e["command"]
                for e in record["entries"]
                if e.get("verdict") == "accepted" and "command" in e
            ]
            print(
                f"{path.name}: {reason} {score}, {agent} {'White' if white else 'Black'} "
                f"{men(board, white)} vs {men(board, not white)}, material {diff:+g}, "
                f"{len(moves)} moves; last: {' '.join(moves[-16:])}"
            )
    print(f"{games} games; non-wins of {agent} by class:")
    for name, n in classes.most_common():
        print(f"  {n:3d}  {name}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
