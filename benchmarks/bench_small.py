"""Speed on the small data of a live page, against scikit-learn in the same run (issue 23).

Usage: python benchmarks/bench_small.py [--pairs 7] [--quick]

Three ratios, each the median over ``--pairs`` alternating (ours, scikit-learn's)
pairs of timings, so a machine whose load changes during the run slows both sides
of a pair alike:

* ``run_cv``: the paper's 11 combinations x 5 folds on 1,000 rows of
  ``make_classification(1000, 10, n_informative=5, random_state=0)`` against eleven
  ``cross_val_score(DecisionTreeClassifier(max_depth=4), X, y, cv=5)`` calls (one
  per combination). Goal: at most 1.5x.
* ``hard_middle`` fit (margin δ, depth 4 and unlimited) on 1,000 and 20,000 rows
  against ``DecisionTreeClassifier`` of the same depth on the same rows. Goal: 1.5x.
* ``TernaryForestClassifier`` (50 trees, depth 8, margin δ, ``n_jobs=1``) on 5,000
  rows against ``RandomForestClassifier`` with the same trees. Goal: 1.5x.

Prints one Markdown table, then the CPU and wall seconds of ``run_cv`` on 5,000 x 10 rows
(what the accuracy–coverage page estimates before it runs unasked), and the load average
at start and end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ternary import TernaryForestClassifier, TernaryTreeClassifier  # noqa: E402
from ternary.experiment import run_cv  # noqa: E402


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def paired_ratio(ours, theirs, pairs: int) -> tuple[float, float, float]:
    """Median of ours/theirs over alternating pairs; also the median seconds of each."""
    ours(), theirs()  # warm: compile, caches, imports
    a, b = [], []
    for _ in range(pairs):
        a.append(_seconds(ours))
        b.append(_seconds(theirs))
    ratios = np.asarray(a) / np.asarray(b)
    return float(np.median(ratios)), float(np.median(a)), float(np.median(b))


def _cases(quick: bool):
    X1, y1 = make_classification(1000, 10, n_informative=5, random_state=0)
    n_big = 5_000 if quick else 20_000
    Xb, yb = make_classification(n_big, 10, n_informative=5, random_state=1)
    Xf, yf = make_classification(5_000, 20, n_informative=8, random_state=0)

    def cv_ours():
        run_cv(X1, y1)

    def cv_theirs():
        for _ in range(11):
            cross_val_score(DecisionTreeClassifier(max_depth=4), X1, y1, cv=5)

    def hard(X, y, depth):
        def ours():
            TernaryTreeClassifier(
                delta_method="margin", routing="hard_middle", max_depth=depth, random_state=0
            ).fit(X, y)

        def theirs():
            DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)

        return ours, theirs

    def forest_ours():
        TernaryForestClassifier(n_estimators=50, max_depth=8, random_state=0, n_jobs=1).fit(Xf, yf)

    def forest_theirs():
        RandomForestClassifier(n_estimators=50, max_depth=8, random_state=0, n_jobs=1).fit(Xf, yf)

    yield "run_cv 11 combos x 5 folds, 1,000 rows", cv_ours, cv_theirs
    for X, y, label in ((X1, y1, "1,000"), (Xb, yb, f"{len(yb):,}")):
        for depth in (4, None):
            yield (f"hard_middle fit, {label} rows, depth {depth}", *hard(X, y, depth))
    yield "forest 50 trees depth 8, 5,000 rows", forest_ours, forest_theirs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 pairs, 5,000 instead of 20,000")
    args = parser.parse_args(argv)
    pairs = 3 if args.quick else args.pairs
    load_start = os.getloadavg()[0]
    print("| case | ours (s) | scikit-learn (s) | ratio |")
    print("|---|---:|---:|---:|")
    for label, ours, theirs in _cases(args.quick):
        ratio, a, b = paired_ratio(ours, theirs, pairs)
        print(f"| {label} | {a:.3f} | {b:.3f} | {ratio:.2f}x |", flush=True)
    X5, y5 = make_classification(5_000, 10, n_informative=5, random_state=0)
    cpu, wall = time.process_time(), time.perf_counter()
    run_cv(X5, y5)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"\nrun_cv on 5,000 x 10 (the coverage page's on-arrival case): {cpu:.2f} s CPU, "
        f"{wall:.2f} s wall (the page estimates it from appkit.coverage._FIT_SECONDS)"
    )
    print(f"load average (1 min): {load_start:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
