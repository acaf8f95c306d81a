"""Datasets: shards written and read back as training examples."""

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
