"""Datasets of games: shards of JSON lines (and Parquet with ``pyarrow``) holding each game's
true history and both players' filtered views, and a loader that yields training examples.

Schema of one line / row (``docs/PYTHON.md``):

- ``rules`` (str), ``fen`` (str: the start), ``result`` (str or null);
- ``record`` (str): the lossless JSON record (the true history);
- ``white_view``, ``black_view`` (str): each player's filtered record (JSON).

:func:`write_random_games` makes a shard from random playouts, :func:`shard_from_run` one
from the records an ``umpire selfplay --out DIR`` or ``umpire match --out DIR`` run wrote; :func:`examples` reads a shard
and yields, for every command of every game and each player, ``(tensor, label, meta)``: the
player's observation tensor (from its view only), the true position's FEN as the belief label,
and the game index, ply and side.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple, Union

from . import STANDARD_FEN, Record, load_game

PathLike = Union[str, Path]

COLUMNS = ["rules", "fen", "result", "record", "white_view", "black_view"]


def game_row(record: Record) -> Dict[str, Any]:
    """One dataset row from a record."""
    return {
        "rules": record.rules,
        "fen": record.fen,
        "result": record.result,
        "record": record.to_json(),
        "white_view": record.player_json("white"),
        "black_view": record.player_json("black"),
    }


def random_records(n: int, rules: str = "wild16", seed: int = 0, max_commands: int = 20_000) -> List[Record]:
    """``n`` records of random games through the OpenSpiel-shaped state."""
    rng = random.Random(seed)
    game = load_game("kriegspiel", rules=rules)
    out = []
    for _ in range(n):
        s = game.new_initial_state()
        for _ in range(max_commands):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        out.append(s.record())
    return out


def write_jsonl(records: List[Record], path: PathLike) -> None:
    """Writes records as a JSON-lines shard."""
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(game_row(r)) + "\n")


def write_parquet(records: List[Record], path: PathLike) -> None:
    """Writes records as a Parquet shard (needs ``pyarrow``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [game_row(r) for r in records]
    table = pa.table({c: [row[c] for row in rows] for c in COLUMNS})
    pq.write_table(table, str(path))


def read_rows(path: PathLike) -> Iterator[Dict[str, Any]]:
    """The rows of a shard (``.jsonl`` / ``.json`` or ``.parquet``)."""
    p = Path(path)
    if p.suffix == ".parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(str(p))
        yield from table.to_pylist()
        return
    with open(p, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def records_in(directory: PathLike) -> List[Record]:
    """The game records an ``umpire selfplay --out DIR`` or ``umpire match --out DIR`` run
    wrote (``game-0001.json``, ...; the players' ``.white.json`` / ``.black.json`` views are
    left out), in name order."""
    paths = sorted(p for p in Path(directory).glob("*.json")
                   if not p.name.endswith((".white.json", ".black.json")))
    return [Record.load(p) for p in paths]


def shard_from_run(directory: PathLike, path: PathLike) -> int:
    """Writes the records of a ``selfplay`` / ``match`` output directory as one shard (format
    by the suffix of ``path``); returns the number of games."""
    records = records_in(directory)
    if Path(path).suffix == ".parquet":
        write_parquet(records, path)
    else:
        write_jsonl(records, path)
    return len(records)


def write_random_games(path: PathLike, n: int, rules: str = "wild16", seed: int = 0) -> None:
    """Writes ``n`` random games as a shard (format by the suffix)."""
    records = random_records(n, rules=rules, seed=seed)
    if Path(path).suffix == ".parquet":
        write_parquet(records, path)
    else:
        write_jsonl(records, path)


def examples(path: PathLike) -> Iterator[Tuple[List[float], str, Dict[str, Any]]]:
    """Training examples from a shard: after every command of every game, for each player,
    ``(observation_tensor, true_fen, {"game", "command", "side"})``. The tensor is the
    player's (its view only); the FEN is the label for belief learning."""
    for g, row in enumerate(read_rows(path)):
        record = Record.from_json(row["record"])
        fen = None if record.fen == STANDARD_FEN else record.fen
        game = load_game("kriegspiel", rules=record.rules, fen=fen)
        s = game.new_initial_state()
        sides = record.sides
        for i, command in enumerate(record.commands):
            if s.is_terminal():
                break
            s.submit(command, sides[i])
            for p in (0, 1):
                yield s.observation_tensor(p), str(s), {"game": g, "command": i, "side": p}
