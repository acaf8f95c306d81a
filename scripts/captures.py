#!/usr/bin/env python3
"""Every capture and promotion of the games an agent did not win, ply by ply, from match records.

For each game of DIR the agent named AGENT did not win, prints one line per capture or
promotion: the ply, who moved, the move, the man that moved and the man taken, whether the
man was taken back on the next ply, and the agent's lead in material after it (P 1, N 3,
B 3.25, R 5, Q 9). The lines where the agent lost a man are marked `<<`. Used to classify where
an agent fell behind. Usage: scripts/captures.py AGENT DIR [DIR ...]
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from material_lost import START, VALUE, board_of, material, sq  # noqa: E402


def accepted(record):
    for e in record["entries"]:
        cmd = e.get("command", "")
        if e.get("verdict") == "accepted" and len(cmd) >= 4 and cmd[0].isalpha():
            yield e["side"], cmd


def events(record, white_agent):
    board = board_of(record.get("fen") or START)
    moves = list(accepted(record))
    out = []
    for ply, (side, cmd) in enumerate(moves, 1):
        a, b = sq(cmd[:2]), sq(cmd[2:4])
        piece = board.pop(a, None)
        if piece is None:
            continue
        victim = board.get(b)
        if victim is None and piece.lower() == "p" and a[0] != b[0]:
            victim = board.pop((b[0], a[1]), None)
        if piece.lower() == "k" and abs(a[0] - b[0]) == 2:
            rf, rt = (7, 5) if b[0] > a[0] else (0, 3)
            rook = board.pop((rf, a[1]), None)
            if rook:
                board[(rt, a[1])] = rook
        promoted = len(cmd) == 5
        if promoted:
            piece = cmd[4].upper() if piece.isupper() else cmd[4].lower()
        board[b] = piece
        if victim is None and not promoted:
            continue
        lead = material(board, white_agent) - material(board, not white_agent)
        taken_back = (
            ply < len(moves)
            and victim is not None
            and moves[ply][1][2:4] == cmd[2:4]
        )
        agent_moved = (side == "white") == white_agent
        note = []
        if victim is not None:
            note.append(f"{piece.upper()}x{victim.upper()}")
        if promoted:
            note.append(f"={cmd[4].upper()}")
        if taken_back:
            note.append("taken back")
        mark = "<<" if victim is not None and not agent_moved else "  "
        out.append(f"  {mark} ply {ply:3d} {side:5s} {cmd:6s} {' '.join(note):22s} lead {lead:+g}")
    return out


def main(agent, dirs):
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("*game-*.json")):
            record = json.loads(path.read_text())
            white = record["tags"]["White"] == agent
            score = record.get("result", {}).get("score", "?")
            if score == ("1-0" if white else "0-1"):
                continue
            reason = record.get("result", {}).get("reason", "?")
            print(f"{d}/{path.name}: {agent} {'White' if white else 'Black'}, {reason} {score}")
            print("\n".join(events(record, white)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
