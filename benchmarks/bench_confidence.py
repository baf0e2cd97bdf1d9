"""The default confidence against the strongest zone-free ranking (issue 30, items 2 and 4).

Usage: python benchmarks/bench_confidence.py [--quick] [--sets a,b] [--depths 4,8,none]
       [--trees 25] [--no-forest]

Every ARFF file in ../shared/datasets (68), stratified 5-fold CV (seed 0), depths 4, 8
and unlimited. Per fold, the AURC (`ternary.selective.aurc`, ties averaged; lower is
better) of:

* the tree (default parameters but the depth, ``random_state`` = the fold) ranked by
  its default ``predict_confidence`` (``confidence="laplace"``) and by the old default
  ``confidence="paper"`` (one fit: the ranking is read at predict time);
* CART (scikit-learn, same depth and seed) ranked by Laplace-smoothed leaves with the
  scaled gap breaking ties (`ternary.experiment.laplace_cart_confidence`): the baseline;
* ``TernaryForestClassifier`` (``--trees`` trees, default 25, same depth, ``n_jobs=1``)
  ranked by ``confidence="laplace"`` and by its default "paper", against
  ``RandomForestClassifier`` with the same trees ranked by its trees' Laplace leaves
  averaged (`ternary.experiment.laplace_forest_confidence`).

Per dataset the fold mean; W/T/L (tie: |difference| < 1e-4) and a one-sided Wilcoxon
signed-rank p (``scipy.stats.wilcoxon``, alternative "less" on ours minus the
baseline). Goal: lower AURC on ≥ 2/3 of the sets with p < 0.01 at every depth. Each
(dataset, depth) result is cached in /tmp/bench_confidence/ (delete it after changing
the library). Writes benchmarks/results/bench_confidence.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ternary import TernaryForestClassifier, TernaryTreeClassifier  # noqa: E402
from ternary import data as tdata  # noqa: E402
from ternary.experiment import (  # noqa: E402
    laplace_cart_confidence,
    laplace_forest_confidence,
)
from ternary.selective import aurc  # noqa: E402

DATASETS = REPO.parent / "shared" / "datasets"
RESULTS = REPO / "benchmarks" / "results"
CACHE = Path("/tmp/bench_confidence")
QUICK_SETS = ["diabetes", "credit-g", "phoneme", "spambase"]
TIE = 1e-4
TREE_RANKINGS = ("laplace", "paper")
FOREST_RANKINGS = ("laplace", "paper")


def load(path):
    cached = CACHE / "data" / f"{path.stem}.npz"
    if cached.is_file():
        arrays = np.load(cached, allow_pickle=True)
        return arrays["X"], arrays["y"]
    ds = tdata.load_arff(path, ordinal_threshold=1)
    ids = [c for c in ds.X.columns if str(c).lower().startswith("instance_name")]
    X = ds.X.drop(columns=ids) if ids else ds.X
    X, y = np.asarray(X, dtype=np.float32), np.asarray(ds.y)
    cached.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cached, X=X, y=y)
    return X, y


def folds(y):
    with warnings.catch_warnings():  # a class smaller than 5 rows: split anyway
        warnings.simplefilter("ignore", UserWarning)
        cv = StratifiedKFold(5, shuffle=True, random_state=0)
        return list(cv.split(np.zeros(len(y)), y))


def tree_fold(X, y, train, test, depth, seed):
    """AURC of each tree ranking and of the CART baseline on one fold; fit seconds."""
    start = time.perf_counter()
    tree = TernaryTreeClassifier(max_depth=depth, random_state=seed).fit(X[train], y[train])
    seconds = time.perf_counter() - start
    pred = tree.predict(X[test])
    out = {}
    for ranking in TREE_RANKINGS:
        tree.set_params(confidence=ranking)
        out[f"tree {ranking}"] = aurc(y[test], pred, tree.predict_confidence(X[test]))
    cart = DecisionTreeClassifier(max_depth=depth, random_state=seed).fit(X[train], y[train])
    cart_pred, conf = laplace_cart_confidence(cart, X[test], X[train].std(axis=0))
    out["CART Laplace"] = aurc(y[test], cart_pred, conf)
    out["tree fit s"] = seconds
    return out


def forest_fold(X, y, train, test, depth, seed, n_trees):
    """AURC of each forest ranking and of the random-forest baseline on one fold."""
    forest = TernaryForestClassifier(
        n_estimators=n_trees, max_depth=depth, random_state=seed, n_jobs=1
    ).fit(X[train], y[train])
    pred = forest.predict(X[test])
    out = {}
    for ranking in FOREST_RANKINGS:
        forest.set_params(confidence=ranking)
        out[f"forest {ranking}"] = aurc(y[test], pred, forest.predict_confidence(X[test]))
    rf = RandomForestClassifier(
        n_estimators=n_trees, max_depth=depth, random_state=seed, n_jobs=1
    ).fit(X[train], y[train])
    rf_pred, conf = laplace_forest_confidence(rf, X[test])
    out["RF Laplace"] = aurc(y[test], rf_pred, conf)
    return out


def cached_means(key, compute):
    """The fold means ``compute()`` returns, read from /tmp when a run made them before."""
    cached = CACHE / f"{key}.json"
    if cached.is_file():
        return json.loads(cached.read_text())
    rows = compute()
    result = {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}
    CACHE.mkdir(exist_ok=True)
    cached.write_text(json.dumps(result))
    return result


def dataset_depth(path, depth, n_trees, forest):
    """Fold-mean AURCs of one dataset at one depth (trees, then forests if asked)."""
    X, y = load(path)
    splits = folds(y)
    result = cached_means(
        f"tree-{path.stem}-{depth}",
        lambda: [tree_fold(X, y, tr, te, depth, seed) for seed, (tr, te) in enumerate(splits)],
    )
    if forest:
        result.update(
            cached_means(
                f"forest-{path.stem}-{depth}-{n_trees}",
                lambda: [
                    forest_fold(X, y, tr, te, depth, seed, n_trees)
                    for seed, (tr, te) in enumerate(splits)
                ],
            )
        )
    result.update(dataset=path.stem, rows=len(y), depth=str(depth))
    return result


def compare(table, ours, base):
    diff = table[ours] - table[base]
    wins, losses = int((diff < -TIE).sum()), int((diff > TIE).sum())
    p = wilcoxon(table[ours], table[base], alternative="less").pvalue
    return (
        f"| {ours} | {base} | {len(diff)} | {table[ours].mean():.4f} | {table[base].mean():.4f} "
        f"| {wins}/{len(diff) - wins - losses}/{losses} | {wins / len(diff):.0%} | {p:.2g} |"
    )


PAIRS = [
    ("tree laplace", "CART Laplace"),
    ("tree paper", "CART Laplace"),
    ("tree laplace", "tree paper"),
    ("forest laplace", "RF Laplace"),
    ("forest paper", "RF Laplace"),
    ("forest laplace", "forest paper"),
]


def summary(frame):
    lines = []
    for depth, table in frame.groupby("depth", sort=False):
        lines += [
            f"\n**max_depth={depth}**\n",
            "| ours | baseline | sets | mean AURC ours | mean AURC baseline | W/T/L "
            "| share lower | Wilcoxon p (one-sided) |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        lines += [compare(table, a, b) for a, b in PAIRS if a in table and b in table]
        lines.append(f"\nmean default tree fit {table['tree fit s'].mean() * 1e3:.1f} ms per fold")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sets", default="")
    ap.add_argument("--depths", default="4,8,none")
    ap.add_argument("--trees", type=int, default=25)
    ap.add_argument("--no-forest", action="store_true")
    args = ap.parse_args(argv)
    paths = sorted(DATASETS.glob("*.arff"), key=lambda p: p.stat().st_size)
    only = set(filter(None, args.sets.split(",")))
    if only or args.quick:
        paths = [p for p in paths if p.stem in (only or set(QUICK_SETS))]
    depths = [None if d.lower() == "none" else int(d) for d in args.depths.split(",")]
    load0, start = os.getloadavg()[0], time.perf_counter()
    results = []
    for depth in depths:
        for path in paths:
            results.append(dataset_depth(path, depth, args.trees, not args.no_forest))
            print(f"{path.stem} depth {depth}: done", flush=True)
    frame = pd.DataFrame(results)
    lines = [
        f"# bench_confidence: {len(paths)} datasets, 5-fold, forests of {args.trees} trees",
        "",
        *summary(frame),
        "",
        f"{time.perf_counter() - start:.0f} s; load average {load0:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at end",
    ]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_confidence.md").write_text("\n".join(lines) + "\n")
    frame.to_csv(RESULTS / "bench_confidence.csv", index=False)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
