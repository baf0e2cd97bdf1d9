"""Scoring in the database: export_sql on SQLite and DuckDB against the library, in one run.

Usage: python benchmarks/bench_sql.py [--rows 50000] [--chains]

For a tree (max_depth=6, probabilistic and deferred, margin δ) and a forest of 10 trees
(max_depth=5) fitted on 2,000 rows of a three-class problem, it scores ``--rows`` rows three
ways and prints the best CPU time of three runs of each: the library
(``predict_proba_verdict``), the exported query on an in-memory SQLite table (Python's
sqlite3) and on DuckDB, with the query's length and the ratio to the library. It also
checks the three agree (verdicts equal, probabilities within 1e-6), so a figure never comes
from a wrong answer.

``--chains`` times chain-shaped trees instead, the shape where the query once grew with the
square of the depth: chains of the node cap's size for each routing (built as the tests
build them, tests/rules/test_export_sql_chains.py), the issue's chain of 1,801 nodes and a
real fit of 150 runs of alternating classes (depth 149), each on the tests' 200 rows, with
the query's size and one run's CPU seconds per engine (DuckDB also on one thread).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ternary import TernaryForestClassifier, TernaryTreeClassifier, export_sql


def _time(call, repeats=3):
    """Best CPU time of ``repeats`` calls, this process's threads summed.

    CPU time, not wall time: on the shared machine other jobs stretch the wall clock but
    not the work done; DuckDB's worker threads are counted, so its figure is work too.
    """
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        out = call()
        best = min(best, time.process_time() - start)
    return best, out


def chains() -> int:
    """Chain-shaped trees on 200 rows: size of the query, CPU seconds on each engine."""
    import duckdb

    from ternary.codegen import MAX_EXPORT_NODES
    from tests.rules.test_export_sql_chains import chain_model, runs_fit, scoring_rows

    models = {
        f"chain, {routing}, {MAX_EXPORT_NODES:,}-node cap": chain_model(
            MAX_EXPORT_NODES, routing, "open"
        )
        for routing in ("probabilistic", "deferred", "hard_middle")
    }
    models["chain, probabilistic, 1,801 nodes (the issue's)"] = chain_model(
        1801, "probabilistic", "open"
    )
    models["real fit: 150 alternating runs, probabilistic"] = runs_fit("probabilistic")
    print("200 rows; CPU seconds of one run (DuckDB's threads summed)")
    print("| tree | nodes | depth | query MB | SQLite | DuckDB | DuckDB, 1 thread |")
    print("|---|---|---|---|---|---|---|")
    for label, model in models.items():
        rows = scoring_rows(model)
        frame = pd.DataFrame({"i": np.arange(rows.shape[0]), "x0": rows[:, 0]})
        query = export_sql(model, table="t", key="i")
        proba, verdict = model.predict_proba_verdict(rows)
        lite = sqlite3.connect(":memory:")
        frame.to_sql("t", lite, index=False)
        seconds = []
        t_lite, got = _time(lambda q=query, c=lite: c.execute(q).fetchall(), repeats=1)
        answers = [got]
        for threads in (None, 1):
            duck = duckdb.connect()
            if threads:
                duck.execute(f"SET threads={threads}")
            duck.register("t", frame)
            t_duck, got = _time(lambda q=query, d=duck: d.execute(q).fetchall(), repeats=1)
            seconds.append(t_duck)
            answers.append(got)
        for got in answers:
            out = np.array(got, dtype=float)
            assert (out[:, 2] == verdict).all() and np.abs(out[:, 3:] - proba).max() <= 1e-9
        tree, size = model.tree_, len(query.encode()) / 1e6
        print(
            f"| {label} | {tree.node_count:,} | {tree.max_depth:,} | {size:.2f} | "
            f"{t_lite:.2f} | {seconds[0]:.2f} | {seconds[1]:.2f} |",
            flush=True,
        )
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--chains", action="store_true", help="time chain-shaped trees")
    args = parser.parse_args(argv)
    if args.chains:
        return chains()
    import duckdb

    X, y = make_classification(
        2_000 + args.rows, n_features=6, n_informative=4, n_classes=3, random_state=0
    )
    names = [f"f{i}" for i in range(X.shape[1])]
    train = pd.DataFrame(X[:2_000], columns=names)
    rows = pd.DataFrame(X[2_000:], columns=names)
    rows.insert(0, "id", np.arange(len(rows)))
    models = {
        "tree, probabilistic": TernaryTreeClassifier(max_depth=6, random_state=0),
        "tree, deferred": TernaryTreeClassifier(max_depth=6, routing="deferred", random_state=0),
        "forest of 10": TernaryForestClassifier(n_estimators=10, max_depth=5, random_state=0),
    }
    lite = sqlite3.connect(":memory:")
    rows.to_sql("rows", lite, index=False)
    duck = duckdb.connect()
    duck.register("rows", rows)
    print(f"{args.rows:,} rows; best CPU seconds of 3 (ratio to the library)")
    print("| model | query chars | library | SQLite | DuckDB |")
    print("|---|---|---|---|---|")
    for label, model in models.items():
        model.fit(train, y[:2_000])
        query = export_sql(model, table="rows", key="id")
        model.predict_proba_verdict(rows[names].iloc[:10])  # numba's compile or cache load
        t_lib, (proba, verdict) = _time(lambda m=model: m.predict_proba_verdict(rows[names]))
        t_lite, got_lite = _time(lambda q=query: lite.execute(q).fetchall())
        t_duck, got_duck = _time(lambda q=query: duck.execute(q).fetchnumpy())
        lite_arr = np.array(sorted(got_lite), dtype=float)
        order = np.argsort(got_duck["id"])
        assert (lite_arr[:, 2] == verdict).all() and (got_duck["verdict"][order] == verdict).all()
        assert np.abs(lite_arr[:, 3:] - proba).max() <= 1e-6
        print(
            f"| {label} | {len(query):,} | {t_lib:.3f} | {t_lite:.2f} ({t_lite / t_lib:.0f}×) "
            f"| {t_duck:.2f} ({t_duck / t_lib:.0f}×) |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
