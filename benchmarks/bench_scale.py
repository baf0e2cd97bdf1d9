"""How fast the paper's cross-validation runs: one dataset for the app, and the whole CC18 suite.

Usage: python benchmarks/bench_scale.py [--repeats 5] [--max-rows N] [--skip-suite]

Four measurements, written to benchmarks/results/bench_scale.md:

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
3. **The results store**: 4,000 rows added one at a time, each committed (the SQLite
   database, WAL with ``synchronous=NORMAL``), against the CSV file that is rewritten
   whole per row (``--csv-rows``, default 1,000, since it grows quadratically).
4. **The command line over many datasets**: ``python -m ternary.experiment --data-dir``
   (in-process, ``--jobs 1``, the paper's 11 combinations, 5 folds) on 8 and on 64 small
   generated datasets, writing a database and writing a CSV file. Linear growth means
   64 datasets take about 8× the time of 8; the target is at most 10×.
5. **The report on the stored paper run** (benchmarks/results/reproduce_paper_rows.csv):
   ``ternary report`` printed as it is, with its critical-difference diagram in
   benchmarks/results/cd_paper_run.svg. ``--report-only`` replaces just this part of
   bench_scale.md (it measures nothing, so it needs no quiet machine).
"""

from __future__ import annotations

import argparse
import contextlib
import io
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

from ternary.data import make_moons_dataset, make_waveform, make_xor_dataset  # noqa: E402
from ternary.experiment import (  # noqa: E402
    DEFAULT_COMBOS,
    _tasks,
    report_main,  # noqa: E402
    run_cv,
    run_suite,
)
from ternary.experiment import main as cli_main  # noqa: E402
from ternary.experiment._csvstore import _CsvStore  # noqa: E402
from ternary.experiment._store import ResultsDatabase  # noqa: E402

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
                Path(tmp) / f"{label}.sqlite",
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


def _store_row(k: int) -> dict:
    """A results row as run_suite writes it (22 cells), under key number ``k``."""
    row = {"dataset": f"set {k // 55}", "bayes_error": float("nan"), "cv": 5, "seed": 42}
    row.update({"combo": f"combo {k % 11}", "delta_method": "margin", "routing": "probabilistic"})
    row.update({"graft": "none", "fold": (k // 11) % 5})
    row.update({f"metric_{j}": 0.123456789 * (j + 1) + k * 1e-6 for j in range(13)})
    return row


def _time_adds(store, n):
    """Wall and CPU seconds for n adds, and the mean ms per add over the first and last 100."""
    per = []
    start, cpu = time.perf_counter(), time.process_time()
    for k in range(n):
        t = time.perf_counter()
        store.add(_store_row(k))
        per.append(time.perf_counter() - t)
    total, cpu = time.perf_counter() - start, time.process_time() - cpu
    return total, cpu, 1000 * float(np.mean(per[:100])), 1000 * float(np.mean(per[-100:]))


def store_times(n_db=4000, n_csv=1000):
    out = {}
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:  # the repository's disk, not tmpfs
        with ResultsDatabase(Path(tmp) / "r.sqlite") as db:
            db.check_protocol({"cv": 5, "seed": 42})
            out["db"] = (n_db, *_time_adds(db, n_db))
        print(f"database: {out['db'][1]:.2f} s for {n_db} rows", file=sys.stderr, flush=True)
        with _CsvStore(Path(tmp) / "r.csv") as csv_store:
            out["csv"] = (n_csv, *_time_adds(csv_store, n_csv))
        print(f"CSV: {out['csv'][1]:.2f} s for {n_csv} rows", file=sys.stderr, flush=True)
    return out


def _write_sets(folder: Path, n: int) -> Path:
    makers = (make_moons_dataset, make_xor_dataset)
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(n):
        ds = makers[k % 2](n_samples=100, random_state=k)
        ds.X.assign(label=ds.y).to_csv(folder / f"set{k:02d}.csv", index=False)
    return folder


def cli_scaling(counts=(8, 64), repeats=1):
    """Median (wall, CPU) seconds of the CLI per (datasets, suffix), cells timed in turn.

    A first run on two datasets pays the one-off costs (imports, compiled kernels) so that
    no cell carries them; every timed run writes a new results file.
    """
    times: dict[tuple[int, str], list[float]] = {}
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        folders = {n: _write_sets(Path(tmp) / f"data{n}", n) for n in (2, *counts)}

        def run(n, suffix, tag):
            out = Path(tmp) / f"out{n}_{tag}{suffix}"
            argv = ["--data-dir", str(folders[n]), "--out", str(out), "--no-progress"]
            start, cpu = time.perf_counter(), time.process_time()
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                status = cli_main([*argv, "--jobs", "1"])
            assert status == 0, f"the CLI failed on {n} datasets"
            return time.perf_counter() - start, time.process_time() - cpu

        run(2, ".sqlite", "warm")
        for r in range(repeats):
            for n in counts:
                for suffix in (".sqlite", ".csv"):
                    times.setdefault((n, suffix), []).append(run(n, suffix, r))
                    wall, cpu = times[(n, suffix)][-1]
                    print(f"CLI {n} sets {suffix}: {wall:.1f} s ({cpu:.1f} s CPU)", file=sys.stderr)
    medians = {key: tuple(np.median(np.array(v), axis=0)) for key, v in times.items()}
    return medians, repeats


def store_lines(store, cli):
    cli, repeats = cli if cli else (None, 0)
    (n_db, t_db, c_db, first_db, last_db) = store["db"]
    (n_csv, t_csv, c_csv, first_csv, last_csv) = store["csv"]
    lines = [
        "",
        STORE_MARK.strip() + ": rows added one at a time, each committed",
        "",
        "Rows of run_suite's shape (22 cells), written on the repository's disk. The CSV "
        "file waits for an fsync per row, so its wall time is also the disk's latency under "
        "the other jobs' writes; CPU time is the store's own cost.",
        "",
        "| store | rows | wall s | CPU s | ms per row, first 100 | ms per row, last 100 |",
        "|---|---:|---:|---:|---:|---:|",
        f"| SQLite database (WAL, `synchronous=NORMAL`, one transaction per row) | {n_db:,} "
        f"| {t_db:.2f} | {c_db:.2f} | {first_db:.2f} | {last_db:.2f} |",
        f"| CSV file (whole file rewritten, fsynced and renamed per row) | {n_csv:,} "
        f"| {t_csv:.2f} | {c_csv:.2f} | {first_csv:.2f} | {last_csv:.2f} |",
        "",
        "The CSV file's cost per row grows with the rows already written (quadratic in all); "
        "it stays for `--out x.csv` and for reading old files.",
    ]
    if cli:
        counts = sorted({n for n, _ in cli})
        lo, hi = counts[0], counts[-1]
        lines += [
            "",
            f"## The command line on {lo} and {hi} small generated datasets",
            "",
            "`python -m ternary.experiment --data-dir DIR --jobs 1` (in-process): two-moons and "
            "XOR sets of 100 rows, the paper's 11 combinations × 5 folds = 55 rows per dataset. "
            + (f"Median of {repeats} runs" if repeats > 1 else "One run each")
            + ", the four cells timed in turn, after one warm-up run that pays the imports "
            "and compiled kernels.",
            "",
            f"| results file | {lo} datasets: wall s (CPU s) | {hi} datasets: wall s (CPU s) "
            f"| ratio, wall (linear: {hi / lo:.0f}×) | ratio, CPU |",
            "|---|---:|---:|---:|---:|",
        ]
        for suffix, name in ((".sqlite", "SQLite database"), (".csv", "CSV file")):
            (w_lo, c_lo), (w_hi, c_hi) = cli[(lo, suffix)], cli[(hi, suffix)]
            lines.append(
                f"| {name} | {w_lo:.1f} ({c_lo:.1f}) | {w_hi:.1f} ({c_hi:.1f}) "
                f"| {w_hi / w_lo:.1f}× | {c_hi / c_lo:.1f}× |"
            )
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        lines += [
            "",
            f"Target: at most 10× for the database. Load average {load:.1f} when this part "
            "ended, on 2 cores: wall times move with the other jobs, CPU times (this process "
            "alone) much less.",
        ]
    return lines


REPORT_MARK = "## `ternary report` on the stored paper run"
STORE_MARK = "\n## The results store"
STORED = RESULTS / "reproduce_paper_rows.csv"
NOT_CC18 = ["* (one-hot)", "* (generated)", "waveform-5000", "twonorm", "ringnorm"]
NOT_CC18 += ["heart-statlog", "mammography", "heart-c"]


def _report_text(argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = report_main(argv)
    assert status == 0, f"ternary report failed on {argv}"
    return out.getvalue()


def paper_report_lines() -> list[str]:
    """The report on the stored run under one heading, and its verdict on the CC18 subset."""
    rel = STORED.relative_to(ROOT)
    full = _report_text([str(STORED), "--cd-diagram", str(RESULTS / "cd_paper_run.svg")])
    exclude = [a for p in NOT_CC18 for a in ("--exclude", p)]
    cc18 = _report_text([str(STORED), *exclude])
    body = full.splitlines()
    title = body[0].removeprefix("# Results: ")
    body = body[1:]  # its tables are ### already: sections of this ## heading
    verdict = [line for line in cc18.splitlines() if line.startswith("- **vs ")]
    return [
        "",
        f"{REPORT_MARK} ({title})",
        "",
        f"`python -m ternary.experiment report {rel} --cd-diagram "
        "benchmarks/results/cd_paper_run.svg`, printed as it is (all 72 datasets of the run: "
        "CC18, Breiman, medical and the one-hot variants). The critical-difference diagram "
        "(mean ranks by decided accuracy, Nemenyi) is "
        "[benchmarks/results/cd_paper_run.svg](benchmarks/results/cd_paper_run.svg).",
        *body,
        "",
        "On the 50 CC18 datasets of Table 1 in the reproduction section below (the same "
        "command with "
        + " ".join(f"`--exclude '{p}'`" for p in NOT_CC18)
        + ") the report reproduces that table's numbers and says:",
        "",
        *verdict,
    ]


def _clock(seconds):
    minutes, sec = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {sec:02d} s" if minutes else f"{seconds:.1f} s"


def report(speed, suite, sets, left_out, args, store=None, cli=None):
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
    if store is not None:
        lines += store_lines(store, cli)
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-rows", type=int, default=None, help="leave out larger datasets")
    parser.add_argument("--skip-suite", action="store_true", help="no CC18 suite")
    parser.add_argument("--csv-rows", type=int, default=1000, help="rows for the CSV store")
    parser.add_argument(
        "--report-only", action="store_true", help="redo only the report on the stored run"
    )
    parser.add_argument(
        "--store-only",
        action="store_true",
        help="redo only the store, command-line and report parts (keep run_cv and the suite)",
    )
    args = parser.parse_args(argv)
    target = RESULTS / "bench_scale.md"
    if args.store_only:
        old = target.read_text(encoding="utf-8").split(STORE_MARK)[0].rstrip("\n")
        lines = store_lines(store_times(4000, args.csv_rows), cli_scaling())
        text = old + "\n" + "\n".join(lines + paper_report_lines()) + "\n"
        target.write_text(text, encoding="utf-8")
        print(text)
        return 0
    if args.report_only:
        old = target.read_text(encoding="utf-8").split("\n" + REPORT_MARK)[0].rstrip("\n")
        target.write_text(old + "\n" + "\n".join(paper_report_lines()) + "\n", encoding="utf-8")
        return 0

    store = store_times(4000, args.csv_rows)
    cli = cli_scaling()

    speed = cv_speed(args.repeats)
    print(f"run_cv ratio: {speed['shared'] / speed['reference']:.2f}×", file=sys.stderr)
    suite, sets, left_out = None, [], []
    if not args.skip_suite:
        sets, left_out = cc18_sets(args.max_rows)
        suite = suite_times(sets, args.jobs)
    text = report(speed, suite, sets, left_out, args, store, cli)
    text += "\n".join(paper_report_lines()) + "\n"
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_scale.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
