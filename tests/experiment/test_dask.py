"""`run_suite` on a real Dask cluster: two worker processes on this machine.

The cluster is real (``distributed.LocalCluster`` with worker processes on
127.0.0.1), not a mock; only the data is tiny. Every tree is seeded, so the
cluster must give exactly the numbers of a local run.
"""

from __future__ import annotations

import os

import dask
import distributed
import pandas as pd
import pytest

from ternary.data import make_moons_dataset, make_xor_dataset
from ternary.experiment import main, read_results, run_suite

COMBOS = [{"delta_method": "margin"}, {"delta_method": "quality_plateau"}, {"delta_method": "none"}]


def _datasets():
    return [
        ("moons", lambda: make_moons_dataset(n_samples=80, random_state=1)),
        ("xor", lambda: make_xor_dataset(n_samples=80, random_state=1)),
    ]


def _numbers(frame: pd.DataFrame) -> pd.DataFrame:
    # fit times are measurements, everything else is computed
    return frame.drop(columns="fit_seconds")


@pytest.fixture(scope="module")
def cluster():
    # forked workers start with this process's imports; spawned ones (Dask's default) spend
    # seconds importing scikit-learn and pandas again, which the test does not need to time
    with (
        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
        (
            distributed.LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
        ) as running,
    ):
        yield running


def test_a_two_worker_cluster_gives_the_local_numbers_and_resumes(cluster, tmp_path):
    local = run_suite(_datasets(), tmp_path / "local.csv", combos=COMBOS, cv=3)
    out = tmp_path / "cluster.sqlite"  # the database, written by the client alone
    seen = []

    def stop_after_four(done, total, message):
        seen.append(done)
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_suite(
            _datasets(),
            out,
            combos=COMBOS,
            cv=3,
            scheduler=cluster.scheduler_address,
            progress=stop_after_four,
        )
    assert len(read_results(out)) == 4  # the driver wrote what finished
    remote = run_suite(_datasets(), out, combos=COMBOS, cv=3, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(_numbers(remote), _numbers(local))
    # both workers took part: the tasks really left this process
    workers = {w["name"] for w in cluster.scheduler_info["workers"].values()}
    assert len(workers) == 2
    with distributed.Client(cluster.scheduler_address) as client:
        pids = set(client.run(lambda: os.getpid()).values())
    assert len(pids) == 2 and os.getpid() not in pids


def test_cli_scheduler_flag_runs_on_the_cluster(cluster, tmp_path, capsys):
    from sklearn.datasets import load_iris

    frame = load_iris(as_frame=True).frame
    data = tmp_path / "iris.csv"
    frame.to_csv(data, index=False)
    common = ["--data", str(data), "--cv", "3", "--combos", "probabilistic", "--no-progress"]
    assert main([*common, "--out", str(tmp_path / "a.csv")]) == 0
    argv = [*common, "--out", str(tmp_path / "b.csv"), "--scheduler", cluster.scheduler_address]
    assert main(argv) == 0
    a, b = pd.read_csv(tmp_path / "a.csv"), pd.read_csv(tmp_path / "b.csv")
    key = ["combo", "fold"]
    a, b = a.sort_values(key, ignore_index=True), b.sort_values(key, ignore_index=True)
    pd.testing.assert_frame_equal(_numbers(b).drop(columns="crc"), _numbers(a).drop(columns="crc"))
