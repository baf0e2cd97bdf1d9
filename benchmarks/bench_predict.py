"""Prediction speed against scikit-learn, in one run (issue 41).

Usage: python benchmarks/bench_predict.py [--only one,trees,forest] [--repeats 7]
       [--rows 10000,100000] [--predict-rows 100000] [--jobs 2]

Every figure is the median over interleaved repeats of the ratio of our time to
scikit-learn's, each repeat timing the two back to back on the same rows, so a busy
machine slows both alike. Single-threaded work is timed in CPU seconds
(``time.process_time``), the steadier figure on a shared machine; the forest, which
runs on threads, in wall seconds and CPU seconds both. The load average is printed
beside the figures.

* ``one``: one row at a time, ``predict_proba`` and ``predict_verdict`` together, against
  ``DecisionTreeClassifier.predict_proba`` of one row, at depths 4, 8 and unlimited on
  100,000 training rows, each routing. Target ≤ 3×.
* ``trees``: ``predict_proba`` and ``predict`` of ``--predict-rows`` held-out rows at
  depths 4, 8 and unlimited, trees fitted on each of ``--rows``, probabilistic and
  deferred routing, against ``DecisionTreeClassifier`` fitted alike. Target ≤ 1.5×.
* ``confidence``: ``predict_confidence`` (the Laplace ranking) against scikit-learn's
  ``predict_proba``, trees fitted on 10,000 rows. Target ≤ 2×.
* ``forest``: ``predict_proba`` of 100 trees (``max_depth`` 10) on ``--predict-rows`` rows
  against ``RandomForestClassifier`` with the same ``n_jobs``. Target ≤ 1.5×.
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
from sklearn.tree import DecisionTreeClassifier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ternary import TernaryForestClassifier, TernaryTreeClassifier  # noqa: E402
from ternary.compiled import warm_up  # noqa: E402


def ratios(reference, candidate, repeats):
    """Median (wall ratio, CPU ratio, our CPU seconds, scikit-learn's CPU seconds)."""
    ref, cand = [], []
    for _ in range(repeats):
        for fn, store in ((reference, ref), (candidate, cand)):
            wall, cpu = time.perf_counter(), time.process_time()
            fn()
            store.append((time.perf_counter() - wall, time.process_time() - cpu))
    ref, cand = np.array(ref), np.array(cand)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.median(cand / ref, axis=0)
    return ratio[0], ratio[1], np.median(cand[:, 1]), np.median(ref[:, 1])


def _data(n, seed=0):
    X, y = make_classification(n, 20, n_informative=10, n_classes=3, flip_y=0.05, random_state=seed)
    return X.astype(np.float32), y


def bench_one(args):
    X, y = _data(100_000)
    print("\n## One row: predict_proba + predict_verdict vs sklearn predict_proba (CPU)")
    print("| routing | max_depth | nodes | ours (ms) | sklearn (ms) | ratio |")
    print("|---|---|---|---|---|---|")
    rows = [X[i : i + 1] for i in range(50)]
    for routing in ("probabilistic", "deferred", "hard_middle"):
        for depth in (4, 8, None):
            if routing == "hard_middle" and depth is None:
                depth = 14
            ours = TernaryTreeClassifier(routing=routing, max_depth=depth, random_state=0)
            ours.fit(X, y)
            ref = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)

            def mine(ours=ours):
                for row in rows:
                    ours.predict_proba(row)
                    ours.predict_verdict(row)

            def theirs(ref=ref):
                for row in rows:
                    ref.predict_proba(row)

            _, cpu, c, r = ratios(theirs, mine, args.repeats)
            n = ours.tree_.node_count
            print(f"| {routing} | {depth} | {n} | {c / 50e-3:.3f} | {r / 50e-3:.3f} | {cpu:.2f}× |")


def bench_trees(args):
    X_pred, _ = _data(args.predict_rows, seed=9)
    print(f"\n## Trees: {args.predict_rows:,} held-out rows (CPU ratios)")
    print("| fit rows | max_depth | routing | nodes | predict_proba | predict |")
    print("|---|---|---|---|---|---|")
    for n in args.rows:
        X, y = _data(n)
        for depth in (4, 8, None):
            ref = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
            for routing in ("probabilistic", "deferred"):
                ours = TernaryTreeClassifier(routing=routing, max_depth=depth, random_state=0)
                ours.fit(X, y)
                _, p, _, _ = ratios(
                    lambda r=ref: r.predict_proba(X_pred),
                    lambda o=ours: o.predict_proba(X_pred),
                    args.repeats,
                )
                _, q, _, _ = ratios(
                    lambda r=ref: r.predict(X_pred), lambda o=ours: o.predict(X_pred), args.repeats
                )
                nodes = ours.tree_.node_count
                print(f"| {n:,} | {depth} | {routing} | {nodes} | {p:.2f}× | {q:.2f}× |")


def bench_confidence(args):
    X, y = _data(10_000)
    X_pred, _ = _data(args.predict_rows, seed=9)
    print(f"\n## predict_confidence (Laplace) on {args.predict_rows:,} rows, fit on 10,000 (CPU)")
    print("| max_depth | ratio to sklearn predict_proba |")
    print("|---|---|")
    for depth in (4, 8, None):
        ours = TernaryTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
        ref = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
        _, cpu, _, _ = ratios(
            lambda r=ref: r.predict_proba(X_pred),
            lambda o=ours: o.predict_confidence(X_pred),
            args.repeats,
        )
        print(f"| {depth} | {cpu:.2f}× |")


def bench_forest(args):
    X, y = _data(20_000)
    X_pred, _ = _data(args.predict_rows, seed=9)
    common = dict(n_estimators=100, max_depth=10, random_state=0, n_jobs=args.jobs)
    ours = TernaryForestClassifier(**common).fit(X, y)
    ref = RandomForestClassifier(**common).fit(X, y)
    wall, cpu, c, r = ratios(
        lambda: ref.predict_proba(X_pred), lambda: ours.predict_proba(X_pred), args.repeats
    )
    print(f"\n## Forest: 100 trees, max_depth 10, n_jobs={args.jobs}, {args.predict_rows:,} rows")
    print(f"predict_proba: wall {wall:.2f}×, CPU {cpu:.2f}× (ours {c:.3f} s CPU, RF {r:.3f} s)")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="one,trees,confidence,forest")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rows", default="10000,100000")
    parser.add_argument("--predict-rows", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    args.rows = [int(r) for r in args.rows.split(",")]
    warm_up()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    parts = {
        "one": bench_one,
        "trees": bench_trees,
        "confidence": bench_confidence,
        "forest": bench_forest,
    }
    for name in args.only.split(","):
        parts[name](args)
    print(f"\nload average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
