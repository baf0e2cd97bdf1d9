"""Where the (combination, fold) fits run: joblib on this machine, or a Dask cluster.

A *runner* is a callable ``runner(func, calls)`` that evaluates ``func(*args)`` for
every ``args`` in ``calls`` and yields the results as they finish, in any order.
The driver keeps everything else (folds, the results file), so whichever runner
is used the numbers are the same: every tree is seeded.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from joblib import Parallel, delayed

Runner = Callable[[Callable, Sequence[tuple]], Iterator[Any]]


class ClusterError(RuntimeError):
    """The Dask cluster cannot be reached or cannot run the fits; the message says why."""


_SAME_ENVIRONMENT = (
    "Every machine of the cluster, the scheduler and each worker, needs ternary and "
    "dask[distributed] installed in the versions this machine has."
)


def joblib_runner(n_jobs: int) -> Runner:
    """Run the calls through joblib with ``n_jobs`` workers (the active joblib backend)."""

    def run(func, calls):
        if n_jobs == 1:  # no pool to start, no pickling
            return (func(*args) for args in calls)
        return Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(func)(*args) for args in calls
        )

    return run


def exit_with_parent(parent_pid: int, interval: float = 1.0) -> None:
    """Start a thread that ends this worker process once ``parent_pid`` is gone.

    Meant as a joblib/loky worker initializer. A driver killed with SIGKILL cannot
    stop its workers, and a worker it killed halfway through sending a task blocks
    forever reading the rest of it, so no idle timeout ends it either. Its parent
    process id changes when the parent dies (the orphan is adopted), which this
    thread notices within ``interval`` seconds.
    """

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise ImportError(
            "scheduler= needs Dask's distributed scheduler, which is not installed: run "
            "pip install 'ternary[dask]' (or pip install 'dask[distributed]'), on this "
            "machine and on every worker."
        ) from None
    return distributed


@contextmanager
def dask_runner(scheduler: Any, n_workers: int | None = None) -> Iterator[Runner]:
    """A runner on a Dask cluster, for as long as the ``with`` block lasts.

    Parameters
    ----------
    scheduler : "local", an address such as ``"tcp://host:8786"``, or a
        ``distributed.Client``
        ``"local"`` starts a ``LocalCluster`` of ``n_workers`` single-threaded
        worker processes on 127.0.0.1 (stopped at the end); an address connects
        to a running scheduler; a Client is used as it is and left open.
    n_workers : int, optional
        Worker processes of a ``"local"`` cluster (default: one per core).
    """
    distributed = _import_distributed()
    cluster = client = None
    owned = not hasattr(scheduler, "submit")
    try:
        if scheduler == "local":
            cluster = distributed.LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            client = distributed.Client(cluster)
        elif isinstance(scheduler, str):
            try:
                client = distributed.Client(scheduler, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise ClusterError(
                    f"Cannot reach the Dask scheduler at {scheduler!r} ({exc}). Start one with "
                    "`dask scheduler` and workers with `dask worker <address>`, or use "
                    "scheduler='local'."
                ) from exc
        elif owned:
            raise TypeError(
                "scheduler must be None, 'local', a scheduler address such as "
                f"'tcp://host:8786', or a distributed.Client; got {scheduler!r}."
            )
        else:
            client = scheduler
        yield _client_runner(client, distributed)
    finally:
        if owned and client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _client_runner(client, distributed) -> Runner:
    def run(func, calls):
        # each fold's arrays go to the cluster once, not once per combination
        scattered: dict[int, Any] = {}

        def remote(arg):
            if not isinstance(arg, np.ndarray):
                return arg
            if id(arg) not in scattered:
                scattered[id(arg)] = client.scatter(arg, hash=False)
            return scattered[id(arg)]

        futures = []
        try:
            futures = [
                client.submit(func, *[remote(a) for a in args], pure=False) for args in calls
            ]
            for future in distributed.as_completed(futures):
                yield future.result()
        except RuntimeError as exc:
            # what Dask raises when the scheduler or a worker cannot unpickle the task,
            # almost always a machine without ternary or with other versions of it
            text = " ".join(str(exc).split())
            first = text.split(". ")[0].rstrip(".") if text else type(exc).__name__
            raise ClusterError(
                f"The Dask cluster could not run the fits ({first}). {_SAME_ENVIRONMENT}"
            ) from exc
        finally:
            # an interrupted driver leaves no work queued on the cluster
            client.cancel(futures)
            client.cancel(list(scattered.values()))

    return run
