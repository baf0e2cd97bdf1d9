"""Time `load_csv` on a generated file near the 200 MB byte limit (issue 29's speed check).

Usage: python benchmarks/bench_big_load.py [--repeats 3] [--path /tmp/big.csv]

The file (written once, reused when present): 200,000 rows × 50 columns (10 million
values, the loaders' limit): 46 columns of 15-digit numbers, a text column of 5
levels, a text column with 'none' and 'NA' markers, an ISO date column and the
label. Prints the median load time and the load average, for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ternary.data import load_csv


def write(path: Path, n: int = 200_000) -> None:
    rng = np.random.default_rng(0)
    cols = {f"x{i}": np.round(rng.normal(size=n) * 1e6, 8) for i in range(46)}
    cols["colour"] = rng.choice(["red", "green", "blue", "cyan", "grey"], n)
    cols["plan"] = rng.choice(["none", "basic", "gold", "NA"], n, p=[0.6, 0.2, 0.15, 0.05])
    days = rng.integers(0, 3000, n)
    cols["day"] = (np.datetime64("2015-01-01") + days).astype(str)
    cols["y"] = rng.integers(0, 2, n)
    pd.DataFrame(cols).to_csv(path, index=False)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--path", default="/tmp/bench_big_load.csv")
    args = parser.parse_args(argv)
    path = Path(args.path)
    if not path.exists():
        write(path)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        ds = load_csv(path, max_bytes=250 * 2**20)
        times.append(time.perf_counter() - start)
    print(
        f"{path.stat().st_size / 2**20:.0f} MB, {ds.n_samples} rows x {ds.n_features} features: "
        f"median {sorted(times)[len(times) // 2]:.2f} s of {args.repeats} "
        f"(load average {os.getloadavg()[0]:.2f})"
    )


if __name__ == "__main__":
    main()
