"""How fast the paper's cross-validation runs: one dataset for the app, and the whole CC18 suite.

Usage: python benchmarks/bench_scale.py [--repeats 5] [--max-rows N] [--skip-suite]

Two measurements, written to benchmarks/results/bench_scale.md:

1. **run_cv on 1,000 rows** (Breiman's waveform, 21 features, 3 classes): the paper's
   11 combinations × 5 folds against the scikit-learn reference, eleven
   ``cross_val_score(DecisionTreeClassifier(max_depth=4), cv=5)`` runs, timed back to
   back in the same run (median of ``--repeats``). Also timed: run_cv with every
   combination fitted afresh (no shared CART per fold), to show what sharing buys.
   Target (issue 10): at most 1.5× the reference.
2. **The paper's full protocol** on the local OpenML-CC18 files (stratified 5-fold,
   11 combinations, node_bootstrap included on every set, depth 4), once with joblib
   and ``--jobs 2`` on this machine and once on a 2-worker Dask ``LocalCluster``; the
   two runs' rows are compared number by number. ``--max-rows`` leaves out the larger
   sets, to fit a time budget on a busy machine. The paper reports 4 h 42 min on 8
   cores for its suite, skipping node_bootstrap above 20,000 rows.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import reproduce_paper  # noqa: E402

from ternary.data import make_waveform  # noqa: E402
from ternary.experiment import DEFAULT_COMBOS, _tasks, run_cv, run_suite  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
PAPER_SECONDS = 4 * 3600 + 42 * 60  # the paper's suite: 4 h 42 min on 8 cores


def paired_medians(calls, repeats):
    """Median seconds of each callable, the callables timed one after another per repeat."""
    times = [[] for _ in calls]
    for _ in range(repeats):
        for fn, out in zip(calls, times, strict=True):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return [float(np.median(t)) for t in times]


def cv_speed(repeats):
    ds = make_waveform(n_samples=1000, random_state=0)
    X, y = ds.X.to_numpy(), ds.y

    def reference():
        for _ in range(len(DEFAULT_COMBOS)):
            cross_val_score(DecisionTreeClassifier(max_depth=4, random_state=42), X, y, cv=5)

    def shared():
        run_cv(X, y)

    def afresh():
        _tasks._SHARE_CART = False
        try:
            run_cv(X, y)
        finally:
            _tasks._SHARE_CART = True

    binary = [c for c in DEFAULT_COMBOS if c["routing"] != "hard_middle"]
    middle = [c for c in DEFAULT_COMBOS if c["routing"] == "hard_middle"]

    def binary_only():
        run_cv(X, y, combos=binary)

    def middle_only():
        run_cv(X, y, combos=middle)

    shared(), afresh(), reference()  # warm caches and compiled kernels
    ref, fast, slow, part_b, part_m = paired_medians(
        [reference, shared, afresh, binary_only, middle_only], repeats
    )
    same = run_cv(X, y).drop(columns="fit_seconds")
    _tasks._SHARE_CART = False
    try:
        other = run_cv(X, y).drop(columns="fit_seconds")
    finally:
        _tasks._SHARE_CART = True
    equal = same.equals(other)
    return {
        "reference": ref,
        "shared": fast,
        "afresh": slow,
        "binary": part_b,
        "middle": part_m,
        "n_binary": len(binary),
        "n_middle": len(middle),
        "equal": equal,
    }


def cc18_sets(max_rows):
    table4 = pd.read_csv(reproduce_paper.TABLES / "smits_table4_cc18_per_dataset.csv")
    sets, left_out = [], []
    for _, stem in reproduce_paper._cc18_available(table4, quick=False):
        n = reproduce_paper._n_rows(stem)
        if max_rows is None or n <= max_rows:
            sets.append((stem, n))
        else:
            left_out.append((stem, n))
    return sets, left_out


def suite_times(sets, jobs):
    datasets = [(stem, reproduce_paper._arff_loader(stem)) for stem, _ in sets]
    out = {}
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for label, scheduler in (("joblib", None), ("dask", "local")):
            print(f"suite on {label} ({len(sets)} datasets)…", file=sys.stderr, flush=True)
            start = time.perf_counter()
            rows = run_suite(
                datasets,
                Path(tmp) / f"{label}.csv",
                combos=DEFAULT_COMBOS,
                cv=5,
                n_jobs=jobs,
                seed=42,
                errors="skip",
                scheduler=scheduler,
            )
            out[label] = (time.perf_counter() - start, rows)
    (t_local, local), (t_dask, dask) = out["joblib"], out["dask"]
    numbers = [c for c in local.columns if c != "fit_seconds"]
    equal = local[numbers].equals(dask[numbers])
    return {
        "joblib": t_local,
        "dask": t_dask,
        "rows": len(local),
        "datasets": local["dataset"].nunique() if len(local) else 0,
        "equal": equal,
        "skipped": local.attrs.get("skipped", {}),
    }


def _clock(seconds):
    minutes, sec = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {sec:02d} s" if minutes else f"{seconds:.1f} s"


def report(speed, suite, sets, left_out, args):
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    ratio_fast = speed["shared"] / speed["reference"]
    ratio_slow = speed["afresh"] / speed["reference"]
    lines = [
        "# Scale: run_cv for the app, and the paper's full protocol",
        "",
        f"Measured on {platform.machine()}, {os.cpu_count()} cores shared with other jobs "
        f"(load average {load:.1f} at the end), Python {platform.python_version()}.",
        "",
        "## run_cv, 11 combinations × 5 folds on 1,000 rows (waveform)",
        "",
        f"Median of {args.repeats}, each repeat timing the five back to back.",
        "",
        "| what | seconds | × reference |",
        "|---|---:|---:|",
        f"| 11 × `cross_val_score(DecisionTreeClassifier(max_depth=4), cv=5)` "
        f"| {speed['reference']:.3f} | 1.00 |",
        f"| `run_cv`, one CART per fold shared by the binary combinations "
        f"| {speed['shared']:.3f} | {ratio_fast:.2f} |",
        f"| `run_cv`, every combination fitted afresh | {speed['afresh']:.3f} | {ratio_slow:.2f} |",
        f"| of which: the {speed['n_binary']} binary-routing combinations alone "
        f"| {speed['binary']:.3f} | {speed['binary'] / speed['reference']:.2f} |",
        f"| of which: the {speed['n_middle']} hard_middle combinations alone "
        f"| {speed['middle']:.3f} | {speed['middle'] / speed['reference']:.2f} |",
        "",
        f"Target ≤ 1.5×, bar 2.0×. Both run_cv paths give the same numbers: {speed['equal']}.",
    ]
    if suite is not None:
        sizes = ", ".join(f"{s} ({n:,})" for s, n in sets)
        lines += [
            "",
            "## The paper's protocol on the local CC18 files",
            "",
            "Stratified 5-fold CV, 11 combinations (node_bootstrap on every set), depth 4, "
            f"seed 42: {suite['datasets']} datasets, {suite['rows']:,} (dataset, combination, "
            "fold) rows.",
            "",
            "| run | wall time | × paper |",
            "|---|---:|---:|",
            f"| paper (its CC18 suite, 8 cores, no node_bootstrap above 20,000 rows) "
            f"| {_clock(PAPER_SECONDS)} | 1 |",
            f"| joblib, `--jobs {args.jobs}`, this machine | {_clock(suite['joblib'])} "
            f"| {suite['joblib'] / PAPER_SECONDS:.4f} |",
            f"| Dask `LocalCluster`, {args.jobs} worker processes | {_clock(suite['dask'])} "
            f"| {suite['dask'] / PAPER_SECONDS:.4f} |",
            "",
            f"The two runs' rows are equal in every number but the fit times: {suite['equal']}.",
            "",
            f"Datasets (rows): {sizes}.",
        ]
        if left_out:
            lines.append(
                "Left out by `--max-rows`: " + ", ".join(f"{s} ({n:,})" for s, n in left_out) + "."
            )
        if suite["skipped"]:
            lines.append("Skipped: " + "; ".join(f"{k}: {v}" for k, v in suite["skipped"].items()))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-rows", type=int, default=None, help="leave out larger datasets")
    parser.add_argument("--skip-suite", action="store_true", help="only the run_cv ratio")
    args = parser.parse_args(argv)

    speed = cv_speed(args.repeats)
    print(f"run_cv ratio: {speed['shared'] / speed['reference']:.2f}×", file=sys.stderr)
    suite, sets, left_out = None, [], []
    if not args.skip_suite:
        sets, left_out = cc18_sets(args.max_rows)
        suite = suite_times(sets, args.jobs)
    text = report(speed, suite, sets, left_out, args)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_scale.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
