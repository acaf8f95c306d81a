"""Datasets: shards written and read back as training examples."""

import os
import subprocess

import pytest

import umpire
from umpire import datasets


def test_jsonl_shard_and_examples(tmp_path):
    path = tmp_path / "games.jsonl"
    datasets.write_random_games(path, 2, seed=5)
    rows = list(datasets.read_rows(path))
    assert len(rows) == 2 and set(rows[0]) == set(datasets.COLUMNS)
    n = 0
    for tensor, fen, meta in datasets.examples(path):
        assert len(tensor) == umpire.TENSOR_PLANES * 64
        assert meta["side"] in (0, 1)
        assert len(fen.split()) == 6
        n += 1
    record = umpire.Record.from_json(rows[0]["record"])
    assert n >= 2 * len(record.commands)


def test_parquet_shard(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "games.parquet"
    datasets.write_random_games(path, 2, seed=6)
    assert len(list(datasets.read_rows(path))) == 2


@pytest.mark.skipif(not os.environ.get("UMPIRE_BIN"), reason="UMPIRE_BIN (the CLI) not given")
def test_a_selfplay_run_becomes_a_shard(tmp_path):
    run = tmp_path / "run"
    subprocess.run([os.environ["UMPIRE_BIN"], "selfplay", "--games", "3", "--seed", "2",
                    "--out", str(run), "--player-views"], check=True, capture_output=True)
    shard = tmp_path / "run.jsonl"
    assert datasets.shard_from_run(run, shard) == 3
    rows = list(datasets.read_rows(shard))
    assert [r["result"] for r in rows] == [umpire.Record.load(p).result
                                          for p in sorted(run.glob("game-000?.json"))]
    first = next(datasets.examples(shard))
    assert len(first[0]) == umpire.TENSOR_PLANES * 64
