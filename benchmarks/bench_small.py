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

``--zones`` instead times the zones computed in one compiled pass (quality_plateau,
gain_ratio, class_overlap; issue 23 item 2): each method's fit (depth 4 and unlimited,
1,000 and 20,000 rows) and ``run_cv`` (as above), each against scikit-learn and against
the same call with those methods' δ asked node by node (the code before the pass), in
alternating triples in one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ternary import TernaryForestClassifier, TernaryTreeClassifier  # noqa: E402
from ternary.delta import REGISTRY  # noqa: E402
from ternary.experiment import ChowReference, chow_decided_accuracy, run_cv  # noqa: E402
from ternary.selective import aurc, e_aurc  # noqa: E402


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


ZONE_METHODS = ("quality_plateau", "gain_ratio", "class_overlap")


def node_by_node(fn):
    """``fn`` with the zone methods' δ asked node by node (their whole-tree pass off)."""

    def run():
        saved = {name: REGISTRY[name] for name in ZONE_METHODS}
        for name in ZONE_METHODS:
            REGISTRY[name] = dataclasses.replace(saved[name], every_split=None)
        try:
            fn()
        finally:
            REGISTRY.update(saved)

    return run


def paired_triple(ours, before, theirs, pairs: int) -> tuple[float, ...]:
    """Medians of ours/theirs and before/theirs over alternating triples, and the seconds."""
    ours(), before(), theirs()  # warm: compile, caches, imports
    a, b, c = [], [], []
    for _ in range(pairs):
        a.append(_seconds(ours))
        b.append(_seconds(before))
        c.append(_seconds(theirs))
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    return (
        float(np.median(a / c)),
        float(np.median(b / c)),
        float(np.median(a)),
        float(np.median(b)),
        float(np.median(c)),
    )


def _zone_cases(quick: bool):
    X1, y1 = make_classification(1000, 10, n_informative=5, random_state=0)
    n_big = 5_000 if quick else 20_000
    Xb, yb = make_classification(n_big, 10, n_informative=5, random_state=1)

    def fit(X, y, method, depth):
        def ours():
            TernaryTreeClassifier(delta_method=method, max_depth=depth, random_state=0).fit(X, y)

        def theirs():
            DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)

        return ours, node_by_node(ours), theirs

    def cv_ours():
        run_cv(X1, y1)

    def cv_theirs():
        for _ in range(11):
            cross_val_score(DecisionTreeClassifier(max_depth=4), X1, y1, cv=5)

    yield "run_cv 11 combos x 5 folds, 1,000 rows", cv_ours, node_by_node(cv_ours), cv_theirs
    for method in ZONE_METHODS:
        for X, y, label in ((X1, y1, "1,000"), (Xb, yb, f"{len(yb):,}")):
            for depth in (4, None):
                yield (f"{method} fit, {label} rows, depth {depth}", *fit(X, y, method, depth))


def chow_fold_ratio(pairs: int) -> tuple[float, float, float]:
    """One fold's Chow scores for 11 combinations and CART's AURCs: one sort against many.

    A depth-4 CART on 800 rows of ``make_classification(1000, 10)`` scores the other 200;
    the old path calls `aurc`, `e_aurc` and `chow_decided_accuracy` (both tie rules, 11
    flag counts) as run_cv did, the new one `ChowReference` once and reads it 22 times.
    Returns the median new/old ratio and the median seconds of each.
    """
    X, y = make_classification(1000, 10, n_informative=5, random_state=0)
    cart = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X[:800], y[:800])
    y_test, proba = y[800:], cart.predict_proba(X[800:])
    y_pred, confidence = cart.classes_[np.argmax(proba, axis=1)], proba.max(axis=1)
    counts = np.linspace(0, 60, 11).astype(int)

    def old():
        aurc(y_test, y_pred, confidence), e_aurc(y_test, y_pred, confidence)
        for c in counts:
            chow_decided_accuracy(y_test, proba, c, cart.classes_)
            chow_decided_accuracy(y_test, proba, c, cart.classes_, ties="mean")

    def new():
        ref = ChowReference(y_test, proba, cart.classes_)
        for c in counts:
            ref.decided_accuracy(c), ref.decided_accuracy(c, "mean")

    return paired_ratio(new, old, pairs * 20)


def zones_main(pairs: int, quick: bool) -> None:
    """The ``--zones`` table: one compiled pass against node by node and scikit-learn."""
    ratio, new, old = chow_fold_ratio(pairs)
    print(
        f"one fold's Chow scores and AURCs (11 combos, 200 test rows): one sort {new * 1e3:.3f} "
        f"ms, separate sorts {old * 1e3:.3f} ms, ratio {ratio:.2f}x\n"
    )
    print("| case | one pass (s) | node by node (s) | scikit-learn (s) | one pass | node by node |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, ours, before, theirs in _zone_cases(quick):
        ratio, ratio_before, a, b, c = paired_triple(ours, before, theirs, pairs)
        print(
            f"| {label} | {a:.4f} | {b:.4f} | {c:.4f} | {ratio:.2f}x | {ratio_before:.2f}x |",
            flush=True,
        )


def methods_main(pairs: int, quick: bool) -> None:
    """The ``--methods`` table: a hard-middle fit with every δ method against CART."""
    n_big = 5_000 if quick else 20_000
    # the same data as the main table's hard_middle cases
    sets = {1000: make_classification(1000, 10, n_informative=5, random_state=0)}
    sets[n_big] = make_classification(n_big, 10, n_informative=5, random_state=1)
    methods = ["margin", "quality_plateau", "gain_ratio", "class_overlap", "node_bootstrap"]
    heads = [f"{n:,} rows, depth {d}" for n in sets for d in (4, None)]
    print("| δ method | " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * 4)
    for method in methods:
        cells = []
        for X, y in sets.values():
            for depth in (4, None):
                ours = partial(_hard_fit, X, y, method, depth)
                theirs = partial(DecisionTreeClassifier(max_depth=depth, random_state=0).fit, X, y)
                cells.append(f"{paired_ratio(ours, theirs, pairs)[0]:.2f}x")
        print(f"| {method} | " + " | ".join(cells) + " |", flush=True)


def _hard_fit(X, y, method, depth):
    TernaryTreeClassifier(
        delta_method=method, routing="hard_middle", max_depth=depth, random_state=0
    ).fit(X, y)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 pairs, 5,000 instead of 20,000")
    parser.add_argument("--zones", action="store_true", help="the one-pass zones' table only")
    parser.add_argument("--methods", action="store_true", help="hard-middle fits, every δ method")
    args = parser.parse_args(argv)
    pairs = 3 if args.quick else args.pairs
    load_start = os.getloadavg()[0]
    if args.zones or args.methods:
        (zones_main if args.zones else methods_main)(pairs, args.quick)
        print(f"load average (1 min): {load_start:.2f} at start, {os.getloadavg()[0]:.2f} at end")
        return 0
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
