#!/usr/bin/env python3
"""Material lost per game, by agent, from the records `umpire match --out DIR` writes.

Replays each record's accepted moves on a plain board (castling, en passant and promotion
included) and counts, for each agent, the material (P 1, N 3, B 3.25, R 5, Q 9) it lost; also
the games that ended by threefold repetition while one side was ahead in material, and whom that
side was. Usage: scripts/material_lost.py DIR [DIR ...]
"""

import json
import pathlib
import sys

VALUE = {"p": 1.0, "n": 3.0, "b": 3.25, "r": 5.0, "q": 9.0, "k": 0.0}
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def board_of(fen):
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board[(f, 7 - r)] = c
                f += 1
    return board


def sq(text):
    return (ord(text[0]) - ord("a"), int(text[1]) - 1)


def material(board, white):
    return sum(VALUE[p.lower()] for p in board.values() if p.isupper() == white)


def replay(record):
    board = board_of(record.get("fen") or START)
    lost = {"white": 0.0, "black": 0.0}
    for e in record["entries"]:
        if e.get("verdict") != "accepted":
            continue
        cmd = e.get("command", "")
        if len(cmd) < 4 or not cmd[0].isalpha():
            continue
        a, b = sq(cmd[:2]), sq(cmd[2:4])
        piece = board.pop(a, None)
        if piece is None:
            continue
        victim = board.get(b)
        if victim is None and piece.lower() == "p" and a[0] != b[0]:
            victim = board.pop((b[0], a[1]), None)  # en passant
        if victim is not None:
            lost["white" if victim.isupper() else "black"] += VALUE[victim.lower()]
        if piece.lower() == "k" and abs(a[0] - b[0]) == 2:
            rf, rt = (7, 5) if b[0] > a[0] else (0, 3)
            rook = board.pop((rf, a[1]), None)
            if rook:
                board[(rt, a[1])] = rook
        if len(cmd) == 5:
            piece = cmd[4].upper() if piece.isupper() else cmd[4].lower()
        board[b] = piece
    return board, lost


def main(dirs):
    per_agent = {}
    games = 0
    threefold_ahead = []
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("*game-*.json")):
            record = json.loads(path.read_text())
            board, lost = replay(record)
            games += 1
            for side in ("white", "black"):
                name = record["tags"][side.capitalize()]
                n, total = per_agent.get(name, (0, 0.0))
                per_agent[name] = (n + 1, total + lost[side])
            if record.get("result", {}).get("reason") == "threefold_repetition":
                diff = material(board, True) - material(board, False)
                if diff != 0:
                    ahead = record["tags"]["White" if diff > 0 else "Black"]
                    threefold_ahead.append((path.name, ahead, abs(diff)))
    print(f"{games} games")
    for name, (n, total) in sorted(per_agent.items()):
        print(f"{name}: {total / n:.2f} material lost per game over {n} games")
    print(f"threefold repetition with one side ahead in material: {len(threefold_ahead)}")
    for name, ahead, diff in threefold_ahead:
        print(f"  {name}: {ahead} ahead by {diff:g}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
