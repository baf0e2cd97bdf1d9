"""Hostile results databases through `ternary report` and a resumed `ternary run --out`.

Usage: python benchmarks/bench_fuzz_results.py [--mutations 300] [--seed 0] [--quick]

Every input is a SQLite file built here. Each one is

1. reported: ``ternary report FILE --per-dataset`` (exit 0 is a report, exit 2 a
   refusal with a message; anything raised is a crash), then
2. resumed: ``run_suite`` of a 40-row dataset (2 combinations, 2 folds) into a copy of
   the file (rows added, or `ResultsFileError`; anything else is a crash).

The named inputs are the attacks of issue 27 (an endless recursive view as ``results``
and as ``protocol``, a view of two 200 MB text cells, triggers, a generated column, a
virtual table, an expression index, 200,001 rows, 300 columns, a 100 MB stored cell,
protocol values nested 100,000 deep) and the files an honest user has (CART rows only,
a file from before the Chow and AURC columns, impossible folds, numbers stored as text,
``|`` and newlines in names, a truncated file). The mutations start from a valid
database and change its cells (text, blobs, huge integers, infinities, NULLs), its
columns (dropped, added, typed) or its bytes.

Every input runs in a forked child (``bench_fuzz.run_isolated``): the parent kills a
child after ``--timeout`` seconds, and peak memory is the child's maximum resident size
minus that of a child that does nothing. Target per input: at most 5 s and 200 MB.
``--quick`` leaves out the 100 MB file.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_fuzz import run_isolated  # noqa: E402

from ternary.data import make_moons_dataset  # noqa: E402
from ternary.experiment import ResultsFileError, report_main, run_suite  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
TIME_TARGET, MEMORY_TARGET_MB = 5.0, 200.0
COLUMNS = [
    ("dataset", "TEXT"),
    ("combo", "TEXT"),
    ("fold", "INTEGER"),
    ("cv", ""),
    ("seed", ""),
    ("decided_accuracy", ""),
    ("uncertain_rate", ""),
    ("accuracy", ""),
    ("cart_accuracy", ""),
    ("chow_decided_accuracy", ""),
    ("aurc", ""),
    ("cart_aurc", ""),
]
COMBOS = ("CART", "margin / probabilistic", "gain_ratio / probabilistic")
DATA = [("moons", lambda: make_moons_dataset(n_samples=40, random_state=0))]


def valid_rows(n_sets: int = 4) -> list[list]:
    rng = random.Random(1)
    rows = []
    for d in range(n_sets):
        for c in COMBOS:
            for f in range(5):
                cart = 0.7 + 0.05 * rng.random()
                gain = 0.0 if c == "CART" else 0.04 * rng.random() - 0.01
                rows.append([f"set{d}", c, f, 5, 42, cart + gain, 0.1, cart, cart, cart, 0.1, 0.1])
    return rows


def build(path: Path, rows=None, columns=COLUMNS, sql=(), table=True) -> Path:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA user_version=1")  # run_suite's schema: a resumed run writes
        if table:
            cells = ", ".join(f'"{n}" {t}'.strip() for n, t in columns)
            names = [n for n, _ in columns]
            if {"dataset", "combo", "fold"} <= set(names):  # run_suite's key, as it makes it
                cells += ", UNIQUE (dataset, combo, fold)"
            conn.execute(f"CREATE TABLE results ({cells})")
            rows = valid_rows() if rows is None else rows
            if rows:
                marks = ", ".join("?" * len(columns))
                conn.executemany(f"INSERT OR IGNORE INTO results VALUES ({marks})", rows)
        for statement in sql:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()
    return path


VIEW = (
    "CREATE VIEW {name} AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n) "
    "SELECT 'd' || i AS dataset, 'CART' AS combo, 0 AS fold, 'k' || i AS key, 'v' AS value, "
    "0.5 AS decided_accuracy, 0.0 AS uncertain_rate, 0.5 AS accuracy, 0.5 AS cart_accuracy "
    "FROM n"
)


def named_inputs(folder: Path, quick: bool) -> list[tuple[str, Path]]:
    """The attacks of issue 27 and the honest partial files, built in ``folder``."""
    f = folder
    out = [
        (
            "endless recursive VIEW as results",
            build(f / "v1", table=False, sql=[VIEW.format(name="results")]),
        ),
        ("endless recursive VIEW as protocol", build(f / "v2", sql=[VIEW.format(name="protocol")])),
        (
            "VIEW of two 200 MB text cells",
            build(
                f / "v3",
                table=False,
                sql=[
                    "CREATE VIEW results AS SELECT printf('%.*c', 200000000, 'x') AS dataset, "
                    "'CART' AS combo, 0 AS fold "
                    "UNION ALL SELECT printf('%.*c', 200000000, 'y'), 'CART', 1"
                ],
            ),
        ),
        (
            "trigger on insert",
            build(
                f / "t1",
                sql=[
                    "CREATE TABLE fired (x)",
                    "CREATE TRIGGER t AFTER INSERT ON results "
                    "BEGIN INSERT INTO fired VALUES (1); END",
                ],
            ),
        ),
        ("generated column of 1 MB per read", _generated(f / "g1")),
        (
            "virtual table (fts5) as results",
            build(
                f / "vt",
                table=False,
                sql=[
                    "CREATE VIRTUAL TABLE results USING fts5(dataset, combo, fold)",
                    "INSERT INTO results VALUES ('a', 'CART', 0)",
                ],
            ),
        ),
        (
            "expression index evaluated on insert",
            build(
                f / "ix",
                sql=["CREATE INDEX slow ON results (length(printf('%.*c', 50000000, dataset)))"],
            ),
        ),
        (
            "200,001 rows",
            build(
                f / "many",
                columns=COLUMNS[:3],
                rows=[[f"d{k % 50}", "CART", k] for k in range(200_001)],
            ),
        ),
        (
            "300 columns",
            build(
                f / "wide",
                columns=[*COLUMNS, *[(f"c{k}", "") for k in range(288)]],
                rows=[[*r, *([0.5] * 288)] for r in valid_rows(1)],
            ),
        ),
        (
            "protocol value nested 100,000 deep",
            build(
                f / "deep",
                sql=[
                    "CREATE TABLE protocol (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                    "INSERT INTO protocol VALUES ('cv', '" + "[" * 30_000 + "]" * 30_000 + "')",
                ],
            ),
        ),
        ("protocol of 5,000 rows", _big_protocol(f / "proto")),
    ]
    return out + honest_inputs(folder, quick)


def honest_inputs(folder: Path, quick: bool) -> list[tuple[str, Path]]:
    """Partial, older and odd files an honest user can hold, built in ``folder``."""
    f = folder
    out = [
        (
            "only CART rows (interrupted run)",
            build(f / "cart", rows=[r for r in valid_rows() if r[1] == "CART"]),
        ),
        (
            "older file: no Chow, no AURC",
            build(f / "old", columns=COLUMNS[:9], rows=[r[:9] for r in valid_rows()]),
        ),
        (
            "no cart_accuracy column",
            build(f / "nocart", columns=COLUMNS[:8], rows=[r[:8] for r in valid_rows()]),
        ),
        ("folds as text, negative, 2^62", build(f / "folds", rows=_odd_folds())),
        ("metrics as text and blobs", build(f / "text", rows=_text_metrics())),
        ("metrics inf, -inf, 1e308, 2^63-1", build(f / "inf", rows=_huge_metrics())),
        (
            "| and newlines in names",
            build(
                f / "names",
                rows=[[f"set|{r[0]}\n", r[1].replace(" / ", " | "), *r[2:]] for r in valid_rows()],
            ),
        ),
        ("WITHOUT ROWID table", _without_rowid(f / "norowid")),
        ("empty database", build(f / "empty", table=False)),
        ("truncated to half", _truncated(f / "half")),
    ]
    if not quick:
        out.append(
            (
                "stored 100 MB text cell",
                build(
                    f / "big",
                    rows=[["x" * 100_000_000, "CART", 0, 5, 42, 0.5, 0, 0.5, 0.5, 0.5, 0.1, 0.1]],
                ),
            )
        )
    return out  # fmt: skip


def _generated(path: Path) -> Path:
    gen = ("big", "TEXT GENERATED ALWAYS AS (printf('%.*c', 1000000, 'x')) VIRTUAL")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=1")
    cells = ", ".join(f'"{n}" {t}'.strip() for n, t in [*COLUMNS, gen])
    conn.execute(f"CREATE TABLE results ({cells})")
    names = ", ".join(f'"{n}"' for n, _ in COLUMNS)
    marks = ", ".join("?" * len(COLUMNS))
    conn.executemany(f"INSERT INTO results ({names}) VALUES ({marks})", valid_rows())
    conn.commit()
    conn.close()
    return path


def _big_protocol(path: Path) -> Path:
    build(path, sql=["CREATE TABLE protocol (key TEXT PRIMARY KEY, value TEXT NOT NULL)"])
    conn = sqlite3.connect(path)
    conn.executemany("INSERT INTO protocol VALUES (?, '1')", [(f"k{k}",) for k in range(5000)])
    conn.commit()
    conn.close()
    return path


def _odd_folds() -> list[list]:
    rows = valid_rows()
    odd = ["abc", -1, 2**62, 1.5, None, b"\x00", "0", 3.0, "", 1e30]
    for k, fold in zip(range(0, 40, 4), odd, strict=True):
        rows[k][2] = fold
    return rows


def _text_metrics() -> list[list]:
    rows = valid_rows()
    for k in range(0, len(rows), 3):
        rows[k][5 + k % 7] = ["0.9", "abc", b"\x01\x02", "", "1e5", "NaN", "inf"][k % 7]
    return rows


def _huge_metrics() -> list[list]:
    rows = valid_rows()
    for k in range(0, len(rows), 2):
        rows[k][5 + k % 7] = [float("inf"), float("-inf"), 1e308, 2**63 - 1, -(2**63), 0.0, -0.0][
            k % 7
        ]
    return rows


def _without_rowid(path: Path) -> Path:
    cells = ", ".join(f'"{n}" {t}'.strip() for n, t in COLUMNS)
    return build(
        path,
        table=False,
        sql=[f"CREATE TABLE results ({cells}, PRIMARY KEY (dataset, combo, fold)) WITHOUT ROWID"],
    )


def _truncated(path: Path) -> Path:
    build(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def mutations(folder: Path, count: int, seed: int) -> list[tuple[str, Path]]:
    """``count`` seeded changes of a valid database: cells, columns or bytes."""
    rng = random.Random(seed)
    values = [
        None, "", "x" * 70_000, "a|b\nc", b"\xff" * 10, 2**63 - 1, -(2**63), float("inf"),
        float("-inf"), -1, 0, 1, 1.5, 1e308, "NaN", "CART", "=cmd|' /C calc'!A0", "🙂" * 100,
    ]  # fmt: skip
    out = []
    for k in range(count):
        path = folder / f"m{k}"
        kind = rng.choice(["cells", "columns", "bytes"])
        if kind == "cells":
            rows = valid_rows()
            for _ in range(rng.randint(1, 12)):
                rows[rng.randrange(len(rows))][rng.randrange(len(COLUMNS))] = rng.choice(values)
            build(path, rows=rows)
        elif kind == "columns":
            columns = list(COLUMNS)
            rows = valid_rows()
            for i in range(rng.randint(1, 3)):
                j = rng.randrange(len(columns))
                if rng.random() < 0.5 and len(columns) > 1:
                    del columns[j]
                    rows = [r[:j] + r[j + 1 :] for r in rows]
                else:
                    extra = (f"extra{i}", rng.choice(["", "TEXT", "BLOB", "REAL"]))
                    columns.insert(j, extra)
                    rows = [r[:j] + [rng.choice(values)] + r[j:] for r in rows]
            build(path, rows=rows, columns=columns)
        else:
            build(path)
            data = bytearray(path.read_bytes())
            for _ in range(rng.randint(1, 20)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            path.write_bytes(bytes(data))
        out.append((f"mutation {k} ({kind})", path))
    return out


def attack(path: Path, scratch: Path) -> str:
    """Report ``path``, then resume a run into a copy; the outcomes in a word each."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        code = report_main([str(path), "--per-dataset", "--output", str(scratch / "r.md")])
    if code not in (0, 2):
        raise RuntimeError(f"report exit {code}")
    reported = "report" if code == 0 else "refused"
    copy = scratch / "copy.sqlite"
    shutil.copyfile(path, copy)
    try:
        run_suite(DATA, copy, combos=[{"delta_method": "margin"}, {"delta_method": "none"}], cv=2)
        resumed = "resumed"
    except ResultsFileError:
        resumed = "refused"
    return f"{reported}/{resumed}: {sink.getvalue().strip()[-160:]}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mutations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder, scratch = Path(tmp) / "in", Path(tmp) / "scratch"
        folder.mkdir()
        scratch.mkdir()
        attack(build(folder / "warm"), scratch)  # imports and first calls out of every child
        baseline = min(run_isolated(lambda: "", 10)["rss_kb"] for _ in range(3))
        named = _run_all(named_inputs(folder, args.quick), scratch, args, baseline, True)
        fuzz = _run_all(mutations(folder, args.mutations, args.seed), scratch, args, baseline)
    text = _report(named, fuzz, args, started, load)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_fuzz_results.md").write_text(text + "\n", encoding="utf-8")
    return 0


def _run_all(inputs, scratch, args, baseline, verbose=False) -> list[tuple[str, int, dict]]:
    out = []
    for name, path in inputs:
        size = path.stat().st_size
        result = run_isolated(lambda p=path: attack(p, scratch), args.timeout)
        result["peak_mb"] = max(0.0, (result["rss_kb"] - baseline) / 1024)
        out.append((name, size, result))
        path.unlink()
        if verbose:
            print(f"{result['seconds']:6.2f} s {result['peak_mb']:6.0f} MB  {name}: "
                  f"{result['outcome']} {result['detail'][:100]}", flush=True)  # fmt: skip
    return out


def _within(result: dict) -> bool:
    return result["seconds"] <= TIME_TARGET and result["peak_mb"] <= MEMORY_TARGET_MB


def _report(named, fuzz, args, started, load) -> str:
    lines = [
        "## Hostile results databases (issue 27): `ternary report` and a resumed run",
        "",
        f"`python benchmarks/bench_fuzz_results.py --mutations {args.mutations} --seed "
        f"{args.seed}{' --quick' if args.quick else ''}` on {started}, load average {load:.1f} "
        "(2 cores, shared). Each input: `ternary report FILE --per-dataset`, then `run_suite` "
        "resuming into a copy; a report or a refusal with a message is clean, anything "
        f"raised is a crash. Target: ≤ {TIME_TARGET:.0f} s and ≤ {MEMORY_TARGET_MB:.0f} MB "
        "(peak resident size over an idle child).",
        "",
        "| input | size | report / run | s | peak MB |",
        "|---|---:|---|---:|---:|",
    ]
    for name, size, r in named:
        verdict = r["detail"].split(":")[0] if r["outcome"] == "loaded" else r["outcome"]
        shown = name.replace("|", "\\|")
        lines.append(
            f"| {shown} | {_human(size)} | {verdict} | {r['seconds']:.2f} | {r['peak_mb']:.0f} |"
        )
    every = named + fuzz
    crashes = [(n, r) for n, _, r in every if r["outcome"] not in ("loaded",)]
    slow = max(every, key=lambda t: t[2]["seconds"])
    big = max(every, key=lambda t: t[2]["peak_mb"])
    kinds: dict[str, int] = {}
    for _, _, r in fuzz:
        key = r["detail"].split(":")[0] if r["outcome"] == "loaded" else r["outcome"]
        kinds[key] = kinds.get(key, 0) + 1
    lines += [
        "",
        f"{len(fuzz)} mutations (seed {args.seed}): "
        + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items()))
        + f". Crashes or timeouts over all {len(every)} inputs: {len(crashes)}"
        + (
            " (" + "; ".join(f"{n}: {r['detail'][:80]}" for n, r in crashes[:3]) + ")"
            if crashes
            else ""
        )
        + f". Slowest: {slow[0]} ({slow[2]['seconds']:.2f} s); largest peak: {big[0]} "
        f"({big[2]['peak_mb']:.0f} MB); within target: "
        f"{sum(_within(r) for _, _, r in every)} of {len(every)}.",
    ]
    return "\n".join(lines)


def _human(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{size / 1024:.0f} KB"


if __name__ == "__main__":
    raise SystemExit(main())
