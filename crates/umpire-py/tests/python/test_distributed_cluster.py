"""umpire.distributed on a simulated Ray cluster of two nodes (ray.cluster_utils.Cluster):
the head node, where the driver runs, has no CPU for tasks, so every batch plays on the other
node, and the games are those of the single-machine run. (Ray's SPREAD is best effort: with
games this short, batches may all land on one node, so the test does not count on it.) Set
UMPIRE_SKIP_RAY=1 to leave it out (where Ray is not installed)."""

import os

import pytest

import umpire

if os.environ.get("UMPIRE_SKIP_RAY"):
    pytest.skip("UMPIRE_SKIP_RAY is set", allow_module_level=True)

# No usage report: the tests must not reach out of the machine.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from umpire import distributed  # noqa: E402


def test_a_simulated_cluster_of_two_nodes_plays_the_same_games():
    expected = [g["row"]["record"] for g in
                umpire._umpire.match_slice("guided-random", "random", 0, 8, seed=21,
                                           max_plies=120, nodes=10)]
    cluster = Cluster(initialize_head=True,
                      head_node_args={"num_cpus": 0, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        got = distributed.match("guided-random", "random", 8, seed=21, max_plies=120,
                                nodes=10, batch=1, records=True)
        assert got["records"] == expected
        assert got["ray_nodes"] == 1, "only the second node has a CPU for tasks"
    finally:
        ray.shutdown()
        cluster.shutdown()
