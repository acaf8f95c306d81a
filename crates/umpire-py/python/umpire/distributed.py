"""Matches and self-play on Ray: the games of one run fanned out as Ray tasks, one per batch.

:func:`match` plays what ``umpire match A B --seed S`` (or ``--run-key K``) plays, and
:func:`selfplay` what ``umpire selfplay --agent X --seed S`` plays: game ``i`` of a run is a
function of the run's key and ``i`` alone (the seeds of its seats are keyed hashes of the
game's index and side, ``docs/ENGINE.md``), so batches played on any machine, in any order,
give exactly the games of the single-machine run. Under a node budget (``nodes=``) the records
and the score are the same to the byte; under ``movetime=`` each decision depends on the
machine, as it does for the CLI.

Results come back to the caller as a summary with the keys of ``umpire match --json``
(wins, draws, losses, reasons, score and Elo with intervals, ...); records, when asked for,
go to Parquet through Ray Data (``out=DIR``), one row per game with the schema of
:mod:`umpire.datasets` (``rules``, ``fen``, ``result``, ``record``, ``white_view``,
``black_view``), or back to the caller (``records=True``).

Ray is imported only when a run starts (``pip install "ray[data]"``); a run uses the Ray
already initialised in the process, or calls ``ray.init()``, which joins the cluster named by
``RAY_ADDRESS`` or starts a local one. See ``docs/PYTHON.md``, "Matches and self-play on Ray".
"""

from __future__ import annotations

import json
import math
import secrets
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Tuple

from . import _umpire

#: The most games one batch (one Ray task) plays.
MAX_BATCH = 100_000

#: Ray tasks waiting or running at once, per CPU of the cluster, unless ``in_flight`` says.
IN_FLIGHT_PER_CPU = 2


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError('umpire.distributed needs Ray: pip install "ray[data]"') from e
    if not ray.is_initialized():
        ray.init()
    return ray


def _cluster_cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _batches(games: int, batch: Optional[int], cpus: int) -> List[Tuple[int, int]]:
    if games < 0:
        raise ValueError("games must be at least 0")
    if batch is None:
        # A few batches per CPU, so that a slow batch does not hold the end of the run.
        batch = max(1, math.ceil(games / (4 * cpus)))
    if not 1 <= batch <= MAX_BATCH:
        raise ValueError(f"batch must be between 1 and {MAX_BATCH}")
    return [(i, min(i + batch, games)) for i in range(0, games, batch)]


def _key(seed: Optional[int], run_key: Optional[str]) -> Tuple[Optional[int], str]:
    """The run's seed (if chosen) and key (hex): a fresh secret key when neither is given,
    as the CLI draws one."""
    if seed is not None and run_key is not None:
        raise ValueError("give seed or run_key, not both")
    if seed is not None:
        return seed, _umpire.match_header("random", "random", seed=seed)["run_key"]
    if run_key is None:
        run_key = secrets.token_hex(32)
    # Checked (and lower-cased) by the native code.
    return None, _umpire.match_header("random", "random", run_key=run_key)["run_key"]


def _pyarrow_table(rows: List[Dict[str, Any]]):
    import pyarrow as pa

    from .datasets import COLUMNS

    return pa.table({c: pa.array([r[c] for r in rows], type=pa.string()) for c in COLUMNS})


def _run_tasks(ray, task, batches: List[Tuple[int, int]], in_flight: int,
               on_done: Callable[[List[Dict[str, Any]]], None]) -> Tuple[List[Any], List[str]]:
    """Submits one task per batch, at most ``in_flight`` at once; hands each batch's reports
    to ``on_done`` in batch order; returns the batches' row-table references (in order) and
    the Ray node ids that played."""
    pending: Deque[Tuple[Any, Any]] = deque()
    tables: List[Any] = []
    nodes: List[str] = []
    todo: Iterator[Tuple[int, int]] = iter(batches)

    def submit() -> bool:
        nxt = next(todo, None)
        if nxt is None:
            return False
        pending.append(tuple(task(*nxt)))
        return True

    if in_flight < 1:
        raise ValueError("in_flight must be at least 1")
    for _ in range(in_flight):
        if not submit():
            break
    try:
        while pending:
            reports_ref, table_ref = pending.popleft()
            node, reports = ray.get(reports_ref)
            if node not in nodes:
                nodes.append(node)
            on_done(reports)
            tables.append(table_ref)
            submit()
    except BaseException:
        # A failed batch (a broken engine program, ...) ends the run: the others are dropped.
        for refs in pending:
            ray.cancel(refs[0])
        raise
    return tables, nodes


def _finish_rows(ray, tables: List[Any], out: Optional[str], records: bool,
                 summary: Dict[str, Any]) -> None:
    if out is not None and tables:
        ray.data.from_arrow_refs(tables).write_parquet(str(out))
        summary["out"] = str(out)
    if records:
        summary["records"] = [r for t in ray.get(tables) for r in t.column("record").to_pylist()]


def _options(scheduling_strategy: Optional[str]) -> Dict[str, Any]:
    return {"num_returns": 2, "scheduling_strategy": scheduling_strategy or "DEFAULT"}


def _match_batch(args: Dict[str, Any], keep_rows: bool, start: int, end: int):
    """One Ray task: games ``[start, end)`` of the match (runs in a worker)."""
    import ray

    games = _umpire.match_slice(start=start, end=end, **args)
    rows = [g.pop("row") for g in games]
    node = ray.get_runtime_context().get_node_id()
    return (node, games), (_pyarrow_table(rows) if keep_rows else None)


class MatchTally:
    """The running summary of a match's games (dicts as ``match_slice`` gives), with the
    keys and arithmetic of ``umpire match --json`` (timings apart, which are measurements).
    It keeps counts, not games, so a run of any length fits."""

    _KEYS = {"win": "wins", "draw": "draws", "loss": "losses"}

    def __init__(self) -> None:
        self.counts = {"wins": 0, "draws": 0, "losses": 0}
        self.checkmates = self.plies = self.mate_plies = 0
        self.reasons: Dict[str, Dict[str, int]] = {}
        self.decisions, self.nodes, self.think_us = [0, 0], [0, 0], [0, 0]
        self.faults: List[Dict[str, Any]] = []

    def add(self, g: Dict[str, Any]) -> None:
        """Counts one game (in index order, so that faults are listed by game)."""
        k = self._KEYS[g["points"]]
        self.counts[k] += 1
        r = self.reasons.setdefault(g["termination"], {"wins": 0, "draws": 0, "losses": 0})
        r[k] += 1
        self.plies += g["plies"]
        if k == "wins" and g["termination"] == "checkmate":
            self.checkmates += 1
            self.mate_plies += g["plies"]
        if g["fault"] is not None:
            self.faults.append({"game": g["index"] + 1, "error": g["fault"]})
        for side in (0, 1):
            self.decisions[side] += g["decisions"][side]
            self.nodes[side] += g["nodes"][side]
            self.think_us[side] += g["think_us"][side]

    def summary(self) -> Dict[str, Any]:
        """The summary so far."""
        wins, draws, losses = self.counts["wins"], self.counts["draws"], self.counts["losses"]
        n = wins + draws + losses
        d, nodes = self.decisions, self.nodes
        out: Dict[str, Any] = {"games": n, "wins": wins, "draws": draws, "losses": losses,
                               "checkmates": self.checkmates,
                               "reasons": {k: dict(v) for k, v in sorted(self.reasons.items())}}
        out.update(_umpire.tally_figures(wins, draws, losses))
        out["mean_plies"] = self.plies / n if n else None
        out["mean_plies_to_mate"] = self.mate_plies / self.checkmates if self.checkmates else None
        out["decisions"] = list(d)
        out["nodes_per_decision"] = [
            nodes[i] / d[i] if d[i] > 0 and nodes[i] > 0 else None for i in (0, 1)]
        out["ms_per_decision"] = [
            self.think_us[i] / 1000.0 / d[i] if d[i] > 0 else None for i in (0, 1)]
        out["faults"] = list(self.faults)
        return out


def match(a: str, b: str, games: int = 10, *, rules: str = "wild16",
          movetime: Optional[int] = None, nodes: Optional[int] = None,
          seed: Optional[int] = None, run_key: Optional[str] = None,
          batch: Optional[int] = None, max_plies: int = 2000, out: Optional[str] = None,
          records: bool = False, in_flight: Optional[int] = None,
          scheduling_strategy: Optional[str] = "SPREAD") -> Dict[str, Any]:
    """Plays ``games`` games of agent ``a`` against ``b`` (A White in even games) as Ray tasks
    of ``batch`` games each; the same games and score as ``umpire match a b --games GAMES
    --rules RULES --nodes N --seed SEED --max-plies MAX`` (or ``--movetime``, ``--run-key``).

    Returns the summary with the keys of ``umpire match --json`` (``ms_per_decision`` as
    measured; no percentiles), plus ``ray_nodes`` (how many Ray nodes played), ``out`` (when
    the records were written to Parquet there through Ray Data) and ``records`` (the JSON
    records in game order, when ``records=True``). Without ``seed`` or ``run_key`` a secret
    key is drawn and returned (``run_key``) so the run can be replayed.
    """
    ray = _ray()
    seed, key = _key(seed, run_key)
    header = _umpire.match_header(a, b, movetime=movetime, nodes=nodes, run_key=key)
    args = {"a": a, "b": b, "rules": rules, "movetime": movetime, "nodes": nodes,
            "run_key": key, "max_plies": max_plies}
    # Fail here, not in a worker, on a bad rule set, agent or budget.
    _umpire.match_slice(start=0, end=0, **args)
    cpus = _cluster_cpus(ray)
    batches = _batches(games, batch, cpus)
    keep_rows = out is not None or records
    remote = ray.remote(_match_batch).options(**_options(scheduling_strategy))
    tally = MatchTally()
    tables, ray_nodes = _run_tasks(
        ray, lambda s, e: remote.remote(args, keep_rows, s, e), batches,
        IN_FLIGHT_PER_CPU * cpus if in_flight is None else in_flight,
        lambda reports: [tally.add(g) for g in reports])
    summary = tally.summary()
    summary.update({"a": header["a"], "b": header["b"], "rules": rules, "seed": seed,
                    "run_key": key, "budget": header["budget"], "budgets": header["budgets"],
                    "ray_nodes": len(ray_nodes)})
    _finish_rows(ray, tables if keep_rows else [], out, records, summary)
    return summary


def _selfplay_batch(args: Dict[str, Any], keep_rows: bool, start: int, end: int):
    """One Ray task: games ``[start, end)`` of the self-play run (runs in a worker)."""
    import ray

    games = _umpire.selfplay_slice(start=start, end=end, **args)
    rows = [g.pop("row") for g in games]
    node = ray.get_runtime_context().get_node_id()
    return (node, games), (_pyarrow_table(rows) if keep_rows else None)


def selfplay(games: int = 10, *, agent: str = "random", rules: str = "wild16",
             fen: Optional[str] = None, seed: Optional[int] = None,
             run_key: Optional[str] = None, batch: Optional[int] = None,
             max_plies: int = 2000, out: Optional[str] = None, records: bool = False,
             in_flight: Optional[int] = None,
             scheduling_strategy: Optional[str] = "SPREAD") -> Dict[str, Any]:
    """Plays ``games`` games of ``agent`` against itself as Ray tasks of ``batch`` games; the
    same games as ``umpire selfplay --agent AGENT --games GAMES --seed SEED`` (agents built as
    the CLI builds them, with the default budget: use agents that do not search, such as
    ``random`` or ``guided``, for reproducible runs).

    Returns ``games``, ``attempts_per_game``, ``plies_per_game``, ``results`` (games per line
    of the CLI's summary: ``"1-0 checkmate"``, ``"* unfinished after N plies"``, ...),
    ``seed``, ``run_key``, ``ray_nodes`` and, as :func:`match`, ``out`` and ``records``.
    """
    ray = _ray()
    seed, key = _key(seed, run_key)
    args = {"agent": agent, "rules": rules, "fen": fen, "run_key": key, "max_plies": max_plies}
    _umpire.selfplay_slice(start=0, end=0, **args)
    cpus = _cluster_cpus(ray)
    batches = _batches(games, batch, cpus)
    keep_rows = out is not None or records
    remote = ray.remote(_selfplay_batch).options(**_options(scheduling_strategy))
    counts = {"games": 0, "attempts": 0, "plies": 0}
    results: Dict[str, int] = {}

    def add(reports: List[Dict[str, Any]]) -> None:
        for g in reports:
            counts["games"] += 1
            counts["attempts"] += g["attempts"]
            counts["plies"] += g["plies"]
            results[g["outcome"]] = results.get(g["outcome"], 0) + 1

    tables, ray_nodes = _run_tasks(
        ray, lambda s, e: remote.remote(args, keep_rows, s, e), batches,
        IN_FLIGHT_PER_CPU * cpus if in_flight is None else in_flight, add)
    n = max(counts["games"], 1)
    summary: Dict[str, Any] = {
        "games": counts["games"],
        "attempts_per_game": counts["attempts"] / n,
        "plies_per_game": counts["plies"] / n,
        "results": dict(sorted(results.items())),
        "seed": seed,
        "run_key": key,
        "ray_nodes": len(ray_nodes),
    }
    _finish_rows(ray, tables if keep_rows else [], out, records, summary)
    return summary


def read_records(directory: str) -> List[str]:
    """The JSON records of a Parquet dataset :func:`match` or :func:`selfplay` wrote, in game
    order (by the records' ``Round`` tag), read through Ray Data."""
    ray = _ray()
    rows = ray.data.read_parquet(str(directory)).select_columns(["record"]).take_all()
    return sorted((r["record"] for r in rows),
                  key=lambda text: int(json.loads(text)["tags"]["Round"]))
