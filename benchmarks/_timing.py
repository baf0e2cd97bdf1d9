"""The one timing helper the benchmark scripts share."""

from __future__ import annotations

import time

import numpy as np


def median_time(fn, repeats: int, *, with_index: bool = False) -> float:
    """Median wall time of ``fn()`` over ``repeats`` calls (``fn(i)`` with ``with_index``).

    The index lets a caller defeat its own caches on purpose, one fresh key per call.
    """
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        fn(i) if with_index else fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))
