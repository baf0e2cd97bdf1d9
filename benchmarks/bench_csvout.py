"""What escaping costs: `ternary.data.to_csv` against pandas' own ``DataFrame.to_csv``.

``python benchmarks/bench_csvout.py [--rows 200000]`` writes a table the size of the largest
file ``ternary predict`` reads (200,000 rows) with 15 float columns and 5 text columns three
ways: friendly text, 10 % formula-like cells (escaped, written as pandas writes them), and the
same with a semicolon in one cell (every text cell then quoted). Prints the median time of
each writer (3 runs, measured in the same run) and the ratio, with the load average.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pandas as pd
from _timing import median_time  # the script folder is on sys.path

from ternary.data import to_csv


def _table(rows: int, hostile: float, semicolon: bool) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f"x{i}": rng.normal(size=rows) for i in range(15)})
    for i in range(5):
        cells = rng.choice(["red", "green", "-1", "blue sky"], size=rows).astype(object)
        formula = rng.random(rows) < hostile
        cells[formula] = "=HYPERLINK(1)"
        frame[f"s{i}"] = cells
    if semicolon:
        frame.loc[0, "s0"] = "a;b"
    return frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.rows:,} rows x 20 columns; load average {os.getloadavg()[0]:.1f}")
    print("| table | pandas to_csv | ternary.data.to_csv | ratio |")
    print("|---|---:|---:|---:|")
    cases = [("friendly", 0.0, False), ("10 % formulas", 0.1, False), ("+ one ';'", 0.1, True)]
    for label, hostile, semicolon in cases:
        frame = _table(args.rows, hostile, semicolon)
        plain = median_time(lambda f=frame: f.to_csv(index=False), args.repeats)
        safe = median_time(lambda f=frame: to_csv(f), args.repeats)
        print(f"| {label} | {plain:.2f} s | {safe:.2f} s | {safe / plain:.2f} |")


if __name__ == "__main__":
    main()
