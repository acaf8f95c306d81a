"""Matches and self-play on Ray (umpire.distributed): the same games and score as the
single-machine CLI for the same seed, on a local Ray of 2 CPUs and on a simulated cluster of
two nodes. Set UMPIRE_SKIP_RAY=1 to leave them out (where Ray is not installed)."""

import json
import os
import subprocess

import pytest

import umpire
from umpire import datasets

if os.environ.get("UMPIRE_SKIP_RAY"):
    pytest.skip("UMPIRE_SKIP_RAY is set", allow_module_level=True)

# No usage report: the tests must not reach out of the machine.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
# Not importorskip: where the tests run, a missing Ray is a failure, not a skip.
import ray  # noqa: E402

from umpire import distributed  # noqa: E402

CLI = os.environ.get("UMPIRE_BIN")
needs_cli = pytest.mark.skipif(not CLI, reason="UMPIRE_BIN (the CLI) not given")

# What `umpire match --json` writes that the distributed summary repeats exactly (the
# timings are measurements of the machine and are left out).
EXACT = ["a", "b", "rules", "seed", "run_key", "budget", "budgets", "games", "wins", "draws",
         "losses", "checkmates", "reasons", "score", "score_interval", "elo", "elo_interval",
         "mean_plies", "mean_plies_to_mate", "decisions", "nodes_per_decision", "faults"]


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def cli_match(tmp_path, *args):
    out = tmp_path / "cli"
    done = subprocess.run([CLI, "match", *args, "--json", "--out", str(out)], check=True,
                          capture_output=True, text=True)
    summary = json.loads(done.stdout)
    records = [umpire.Record.load(p).to_json() for p in sorted(out.glob("game-*.json"))]
    return summary, records


@needs_cli
def test_a_ray_match_is_the_cli_match(local_ray, tmp_path):
    args = ["mcts", "random", "--games", "6", "--nodes", "20", "--seed", "3",
            "--max-plies", "300", "--rules", "berkeley"]
    cli, cli_records = cli_match(tmp_path, *args)
    out = tmp_path / "ray"
    got = distributed.match("mcts", "random", 6, nodes=20, seed=3, max_plies=300,
                            rules="berkeley", batch=4, out=str(out), records=True)
    for k in EXACT:
        assert got[k] == cli[k], k
    assert got["records"] == cli_records
    # Through Ray Data to Parquet, with the datasets' schema; read back in game order.
    assert distributed.read_records(str(out)) == cli_records
    shards = sorted(out.glob("*.parquet"))
    assert shards
    rows = [r for s in shards for r in datasets.read_rows(s)]
    assert set(rows[0]) == set(datasets.COLUMNS)
    assert sorted(r["record"] for r in rows) == sorted(cli_records)
    # The players' views carry neither seat's seed.
    for r in rows:
        seeds = json.loads(r["record"])["tags"]
        for view in (r["white_view"], r["black_view"]):
            assert seeds["WhiteSeed"] not in view and seeds["BlackSeed"] not in view


@needs_cli
def test_batches_do_not_change_the_games(local_ray, tmp_path):
    cli, cli_records = cli_match(tmp_path, "guided-random", "random", "--games", "5",
                                 "--seed", "8", "--max-plies", "200", "--nodes", "10")
    for batch in (1, 2, 5):
        got = distributed.match("guided-random", "random", 5, seed=8, max_plies=200,
                                nodes=10, batch=batch, records=True, in_flight=1)
        assert got["records"] == cli_records, batch
        assert (got["wins"], got["draws"], got["losses"]) == (
            cli["wins"], cli["draws"], cli["losses"])


@needs_cli
def test_an_engine_program_plays_in_a_ray_task(local_ray, tmp_path):
    engine = f"cmd:{CLI} engine --agent guided-random"
    cli, cli_records = cli_match(tmp_path, engine, "random", "--games", "2", "--seed", "5",
                                 "--max-plies", "120", "--nodes", "10")
    got = distributed.match(engine, "random", 2, seed=5, max_plies=120, nodes=10, batch=1,
                            records=True)
    assert got["faults"] == [] and cli["faults"] == []
    for k in EXACT:
        assert got[k] == cli[k], k
    assert got["records"] == cli_records


@needs_cli
def test_a_run_key_replays_as_the_cli_does(local_ray, tmp_path):
    first = distributed.match("random", "random", 3, max_plies=100, records=True)
    assert first["seed"] is None and len(first["run_key"]) == 64
    cli, cli_records = cli_match(tmp_path, "random", "random", "--games", "3",
                                 "--max-plies", "100", "--run-key", first["run_key"])
    assert first["records"] == cli_records
    assert cli["run_key"] == first["run_key"]
    again = distributed.match("random", "random", 3, max_plies=100, records=True)
    assert again["run_key"] != first["run_key"], "a fresh secret key for each unseeded run"


@needs_cli
def test_ray_selfplay_is_the_cli_selfplay(local_ray, tmp_path):
    for agent in ("random", "guided-random"):
        out = tmp_path / f"cli-{agent}"
        done = subprocess.run(
            [CLI, "selfplay", "--agent", agent, "--games", "4", "--seed", "12",
             "--max-plies", "150", "--rules", "cincinnati", "--out", str(out)],
            check=True, capture_output=True, text=True)
        cli_records = [r.to_json() for r in datasets.records_in(out)]
        got = distributed.selfplay(4, agent=agent, seed=12, max_plies=150,
                                   rules="cincinnati", batch=3, records=True,
                                   out=str(tmp_path / f"ray-{agent}"))
        assert got["records"] == cli_records, agent
        assert distributed.read_records(got["out"]) == cli_records
        lines = done.stdout.splitlines()
        assert (f"4 games under cincinnati ({agent} agents): "
                f"{got['attempts_per_game']:.1f} attempts and "
                f"{got['plies_per_game']:.1f} moves per game") == lines[0]
        cli_results = {}
        for line in lines[1:]:
            count, _, outcome = line.strip().partition("  ")
            if count.isdigit():
                cli_results[outcome] = int(count)
        assert got["results"] == cli_results


def test_bad_arguments_fail_before_any_task(local_ray):
    with pytest.raises(umpire.UmpireError):
        distributed.match("nobody", "random", 2, seed=1)
    with pytest.raises(umpire.UmpireError):
        distributed.match("random", "random", 2, seed=1, rules="chess960")
    with pytest.raises(umpire.UmpireError):
        distributed.match("random", "random", 2, seed=1, nodes=5, movetime=5)
    with pytest.raises(umpire.UmpireError):
        distributed.match("random", "random", 2, run_key="not hex")
    with pytest.raises(ValueError):
        distributed.match("random", "random", 2, seed=1, run_key="00" * 32)
    with pytest.raises(ValueError):
        distributed.match("random", "random", 2, seed=1, batch=0)
    with pytest.raises(ValueError):
        distributed.match("random", "random", 2, seed=1, in_flight=0)
    with pytest.raises(ValueError):
        distributed.selfplay(-1, seed=1)
    with pytest.raises(umpire.UmpireError):
        distributed.selfplay(2, seed=1, fen="not a position")
    with pytest.raises(umpire.UmpireError):
        umpire._umpire.match_slice("random", "random", 0, distributed.MAX_BATCH + 1, seed=1)


def test_an_empty_run(local_ray):
    got = distributed.match("random", "random", 0, seed=1)
    assert got["games"] == 0 and got["score"] is None and got["ray_nodes"] == 0
