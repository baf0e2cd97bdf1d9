"""Hostile input through the loaders: outcome, time and peak memory of every input, in one run.

Usage: python benchmarks/bench_fuzz.py [--mutations 700] [--seed 0] [--quick] [--models 300]

Prints (and writes to benchmarks/results/bench_fuzz.md):

* the named pathological inputs (the quote patterns that made csv.Sniffer
  backtrack, a 50 MB row of 25 million fields, /dev/zero, a named pipe with no
  writer, a 20 MB data row, a 200 KB wide upload, files at the size and value
  limits, the silent misreads) with their outcome, time and peak memory;
* seeded random mutations of valid CSV and ARFF files (the mutator of
  tests/data/test_fuzz.py) plus random bytes: how many loaded, how many were
  refused with a DataError, and how many raised anything else (crashes, which
  must be 0), with the slowest input and the largest peak memory.

* ``--models N``: model files through ``ternary.pipeline.load_model`` (what ``ternary
  predict`` opens): named hostile files (a FunctionTransformer chain to ``eval``, a module
  attribute, zip bombs, 50,001 members, a member whose declared size lies, an ``.npy``
  header declaring a billion values, a schema nested 100,000 deep, a pickle, empty and
  truncated files; issue 36's end records that dodge the pre-check, schemas whose parse
  passes the bounds) and N seeded mutations of a saved pipeline (bytes of the archive,
  bytes of its schema, nodes of its schema given hostile types and loaders, an array's
  values or dtype, its end record). A model or a ModelFileError is a clean outcome;
  anything else is a crash.

Every input runs in a forked child of a process that has already imported the
loaders, so a hang or a blow-up cannot take the benchmark down: the parent kills
a child after ``--timeout`` seconds. Peak memory is the child's maximum resident
size (``wait4``) minus that of a child that does nothing, i.e. what the load
itself added. The target for each input: at most 5 s and at most 10 × its size +
200 MB. ``--quick`` leaves out the inputs of 40 MB and more.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from ternary.data import DataError, load_arff, load_csv  # noqa: E402
from tests.data.test_fuzz import SPARSE_ARFF, VALID_ARFF, VALID_CSV, mutate  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
MB = 2**20
TIME_TARGET = 5.0


def run_isolated(fn: Callable[[], str], timeout: float, refusal: type = DataError) -> dict:
    """Run ``fn`` in a forked child; return its outcome, seconds and peak RSS in KB
    (a ``refusal`` exception is the outcome "DataError", a clean refusal)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, report on the pipe, and leave without cleanup
        os.close(read_end)
        start = time.perf_counter()
        try:
            result = {"outcome": "loaded", "detail": fn()}
        except refusal as exc:
            result = {"outcome": "DataError", "detail": str(exc)}
        except BaseException as exc:  # noqa: BLE001 - a crash is what is being counted
            result = {"outcome": "crash", "detail": f"{type(exc).__name__}: {exc}"}
        result["seconds"] = time.perf_counter() - start
        result["detail"] = result["detail"][:300]
        result["message_chars"] = len(result["detail"])
        with os.fdopen(write_end, "w") as fh:
            json.dump(result, fh)
        os._exit(0)
    os.close(write_end)
    deadline = time.perf_counter() + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            os.close(read_end)
            return {"outcome": "timeout", "detail": "", "seconds": timeout, "rss_kb": 0}
        time.sleep(0.002)
    with os.fdopen(read_end) as fh:
        text = fh.read()
    result = json.loads(text) if text else {"outcome": "crash", "detail": "child died"}
    result.setdefault("seconds", float("nan"))
    result["rss_kb"] = usage.ru_maxrss
    return result


def named_inputs(folder: Path, quick: bool) -> list[tuple[str, Callable[[], str], int]]:
    """(description, loader call, size in bytes) of the named pathological inputs."""
    os.mkfifo(folder / "pipe.csv")
    rows = "".join(f"{i},{i % 2},{'yn'[i % 2]},{20 + i}\n" for i in range(1, 41))
    wide = ",".join(f"c{i}" for i in range(20_000)) + "\n" + ",".join("1" * 20_000) + "\n"
    arff = "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
    small = [
        ("64 KB CSV, `,'a` × 21,800 in line 1", load_csv, ",'a" * 21_800 + "\n1,2\n"),
        ('60 KB CSV, `x,"a` × 15,000 in line 1', load_csv, 'x,"a' * 15_000 + "\n1,2\n"),
        ("/dev/zero given as a path", load_csv, Path("/dev/zero")),
        ("a named pipe with no writer", load_csv, folder / "pipe.csv"),
        ("200 KB wide upload: 20,000 columns", load_csv, wide),
        ("one field more than the header (`3,0,y,21`)", load_csv, "a,b,label\n" + rows),
        ("Excel `sep=;` first line", load_csv, "sep=;\nh;w;label\n1,5;2;x\n2,5;3;y\n3,0;1;x\n"),
        ("BOM followed by invalid UTF-8", load_csv, b"\xef\xbb\xbfa,b,y\n1,2,p\n3,\xff4,q\n"),
        ("unclosed sparse ARFF row `{0 1, 50 y`", load_arff, arff + "{0 1, 1 x}\n{0 1, 50 y\n"),
        ("ARFF values `gr%en`, `50%` not declared", load_arff, arff + "1,gr%en\n2,x\n3,50%\n"),
        ("labels 0.5 / 1.5", load_csv, "a,y\n1,0.5\n2,1.5\n3,0.5\n4,1.5\n"),
        ("a label `inf`", load_csv, "a,y\n1,0\n2,inf\n3,0\n4,1\n"),
        ("feature values 1e39 (beyond float32)", load_csv, "a,y\n1e39,0\n2,1\n-3e40,0\n4,1\n"),
        ("ARFF with a 900 KB attribute type", load_arff, arff.replace("numeric", "x" * 900_000)),
        ("ARFF with a 1 MB line of quote characters", load_arff, arff + "1,x" + "'" * (MB - 10)),
        *issue22_small(),
    ]  # fmt: skip
    cases = []
    for name, loader, data in small:
        data = data.encode() if isinstance(data, str) else data
        size = len(data) if isinstance(data, bytes) else 0
        cases.append((name, lambda f=loader, d=data: str(f(d).X.shape), size))
    big = [
        ("CSV: one row of 25,000,000 fields", load_csv, b"", b"a,", 25_000_000),
        ("CSV: one data row of 10,000,000 fields", load_csv, b"a,b,y\n", b"1,", 10_000_000),
        ("CSV at the size limit, short numbers", load_csv, _header(2000), _rows(2000, 2), 25_000),
        ("ARFF at the size limit", load_arff, _arff_header(2000), _rows(2000, 2), 25_000),
        ("CSV at the value limit, 2,000 columns", load_csv, _header(2000), _rows(2000, 2), 2_497),
        ("CSV at the value limit, 50 columns", load_csv, _header(50), _rows(50, 100), 1_999),
        ("CSV, 200,000 rows × 21", load_csv, _header(21), _rows(21, 50), 4_000),
        ("ARFF, 200,000 rows × 21 (pandas)", load_arff, _arff_header(21), _rows(21, 50), 4_000),
        ("ARFF, 40,000 rows × 22, quoted text (pandas)", load_arff, _arff_header(21, True),
         _rows(21, 50, True), 800),
        ("ARFF, 22,000 rows × 22, double-quoted (liac-arff)", load_arff, _arff_header(21, True),
         _rows(21, 50, True).replace(b"'", b'"'), 440),
        ("ARFF, 40,000 rows × 22, double-quoted (refused)", load_arff, _arff_header(21, True),
         _rows(21, 50, True).replace(b"'", b'"'), 800),
        ("CSV, 7,600 × 2,000 in rows ended by a lone CR", load_csv, _header(2000),
         _rows(2000, 2).replace(b"\n", b"\r"), 3_800),
        ("CSV, 150 MB in rows ended by a lone CR", load_csv, _header(2000),
         _rows(2000, 2).replace(b"\n", b"\r"), 18_750),
        ("CSV, 150 MB at the value limit (50 columns of 15-digit numbers)", load_csv, _header(50),
         _long_rows(50, 100), 2_000),
        ("CSV, 187 MB at the value limit (50 columns of 19-digit numbers)", load_csv,
         _header(50), _long_rows(50, 100, 19), 2_000),
    ]  # fmt: skip
    for name, loader, head, unit, count in big:
        if quick and len(head) + len(unit) * count > 40 * MB:
            continue
        path = folder / f"{len(cases)}.{'arff' if loader is load_arff else 'csv'}"
        write_repeated(path, head, unit, count)
        cases.append((name, lambda p=path, f=loader: str(f(p).X.shape), path.stat().st_size))
    return cases


def issue22_small() -> list[tuple[str, Callable, bytes | str]]:
    """Issue 22's small shapes: nominal lists with trailing text, wide first rows, wide
    encodings with and without a byte-order mark, late bad bytes, thousands separators."""
    text = "x,température,label\n" + "".join(f"{k},{k % 7}.5,{'ab'[k % 2]}\n" for k in range(99))
    body = "".join(f"{i},{i % 3},{'ab'[i % 2]}\n" for i in range(20_000))

    def levels(n: int) -> str:
        declared = ",".join(f"v{i}" for i in range(n))
        return (f"@relation r\n@attribute a numeric\n@attribute code {{{declared}}} % site\n"
                f'@data\n1,v1\n2,"v2"\n3,v3\n')  # fmt: skip

    return [
        ("ARFF, 26 nominal levels and a comment after the brace", load_arff, levels(26)),
        ("ARFF, 40 nominal levels and a comment after the brace", load_arff, levels(40)),
        ("ARFF, 40 nominal levels, no closing brace", load_arff, levels(40).replace("} %", " %")),
        ("CSV, a 64 KB first data row longer than the header", load_csv,
         "a,b,y\n" + ",".join("1" * 32_000) + "\n1,2,3\n"),
        ("CSV, a 1 MB first data row of 500,000 fields", load_csv,
         "a,b,y\n" + ",".join("1" * 500_000) + "\n1,2,3\n"),
        ("CSV, CR line endings only (old Mac)", load_csv, text.replace("\n", "\r")),
        ("CSV in UTF-32 LE with a byte-order mark", load_csv, text.encode("utf-32")),
        ("CSV in UTF-32 BE with a byte-order mark", load_csv,
         "\ufeff".encode("utf-32-be") + text.encode("utf-32-be")),
        ("CSV in UTF-16 LE without a byte-order mark", load_csv, text.encode("utf-16-le")),
        ("CSV in UTF-32 LE without a byte-order mark", load_csv, text.encode("utf-32-le")),
        ("UTF-8 header, a cp1252 byte after 64 KB", load_csv,
         ("température,b,label\n" + body).encode() + b"1,2,\xe9\n"),
        ("a NUL byte in a label after 64 KB", load_csv,
         ("x,b,label\n" + body).encode() + b"1,2,a\0\n"),
        ("thousands separators, comma file (`\"1,234.5\"`)", load_csv,
         'x,y,label\n"1,234.5",1,a\n"12,345",2,b\n7.5,3,a\n"1,000,000",4,b\n'),
        ("thousands separators, semicolon file (`1.234,5`)", load_csv,
         "x;y;label\n1.234,5;1;a\n2.345,0;2;b\n3;3;a\n4.567.890;4;b\n"),
    ]  # fmt: skip


def _long_rows(n: int, k: int, digits: int = 15) -> bytes:
    """``k`` rows of ``n - 1`` numbers of ``digits`` characters and a 0/1 label."""
    rng = np.random.default_rng(n * 7 + k)
    values = rng.random((k, n - 1))
    lines = [",".join(f"{v:.{digits - 2}f}" for v in row) + f",{i % 2}" for i, row in
             enumerate(values)]  # fmt: skip
    return ("\n".join(lines) + "\n").encode()


def write_repeated(path: Path, head: bytes, unit: bytes, count: int) -> None:
    """Write ``head + unit * count`` in pieces, so the parent process stays small."""
    with open(path, "wb") as fh:
        fh.write(head)
        step = max(1, (4 * MB) // max(len(unit), 1))
        for start in range(0, count, step):
            fh.write(unit * min(step, count - start))


def _header(n: int) -> bytes:
    return (",".join(f"c{i}" for i in range(n - 1)) + ",y\n").encode()


def _rows(n: int, k: int, note: bool = False) -> bytes:
    """``k`` rows of ``n`` fields of short numbers, the last a 0/1 label."""
    rng = np.random.default_rng(n * 1000 + k)
    quoted = "'a note, quoted'," if note else ""
    lines = [
        ",".join(str(v) for v in rng.integers(0, 10, n - 1)) + f",{quoted}{i % 2}" for i in range(k)
    ]
    return ("\n".join(lines) + "\n").encode()


def _arff_header(n: int, note: bool = False) -> bytes:
    attrs = "".join(f"@attribute c{i} numeric\n" for i in range(n - 1))
    attrs += "@attribute note string\n" if note else ""
    return f"@relation big\n{attrs}@attribute y {{0,1}}\n@data\n".encode()


def mutation_inputs(count: int, seed: int) -> list[tuple[str, Callable[[], str], int]]:
    rng = random.Random(seed)
    bases = [(load_csv, VALID_CSV)] * 5 + [(load_arff, VALID_ARFF)] * 4 + [(load_arff, SPARSE_ARFF)]
    out = []
    for k in range(count):
        loader, base = bases[k % len(bases)]
        if k % 10 == 9:  # one in ten: bytes with no structure at all
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
        else:
            data = mutate(base, rng)
        out.append(
            (f"{loader.__name__} #{k}", lambda f=loader, d=data: str(f(d).X.shape), len(data))
        )
    return out


def within(result: dict, size: int) -> bool:
    peak_mb = result["peak_mb"]
    return result["seconds"] <= TIME_TARGET and peak_mb <= 10 * size / MB + 200


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mutations", type=int, default=700)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--models", type=int, default=300, help="model-file mutations (0: none)")
    parser.add_argument("--only-models", action="store_true", help="the model files alone")
    args = parser.parse_args(argv)
    if args.only_models:
        text = model_section(args)
        print(text)
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "bench_fuzz_models.md").write_text(text + "\n", encoding="utf-8")
        return
    load_csv(VALID_CSV)  # imports and first-call costs out of every child's measurement
    load_arff(VALID_ARFF)
    baseline = min(run_isolated(lambda: "", 10)["rss_kb"] for _ in range(3))
    with tempfile.TemporaryDirectory() as tmp:
        named = []
        for name, fn, size in named_inputs(Path(tmp), args.quick):
            result = run_isolated(fn, args.timeout)
            result["peak_mb"] = max(0.0, (result["rss_kb"] - baseline) / 1024)
            named.append((name, size, result))
            print(f"{result['seconds']:7.2f} s {result['peak_mb']:7.0f} MB  {name}: "
                  f"{result['outcome']} {result['detail'][:90]}", flush=True)  # fmt: skip
    fuzz = []
    for name, fn, size in mutation_inputs(args.mutations, args.seed):
        result = run_isolated(fn, args.timeout)
        result["peak_mb"] = max(0.0, (result["rss_kb"] - baseline) / 1024)
        fuzz.append((name, size, result))
    text = report(named, fuzz, args)
    if args.models:
        text += "\n\n" + model_section(args)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_fuzz.md").write_text(text + "\n", encoding="utf-8")


def report(named, fuzz, args) -> str:
    everything = named + fuzz
    counts = {k: sum(1 for _, _, r in everything if r["outcome"] == k) for k in
              ("loaded", "DataError", "crash", "timeout")}  # fmt: skip
    slowest = max(everything, key=lambda t: t[2]["seconds"])
    heaviest = max(everything, key=lambda t: t[2]["peak_mb"])
    misses = [n for n, s, r in everything if not within(r, s)]
    lines = [
        f"{len(everything)} inputs: {len(named)} named pathological ones and {len(fuzz)} seeded "
        f"mutations of valid CSV/ARFF files and random bytes (seed {args.seed}). Each ran in a "
        "forked child; peak memory is what the load added to the process.",
        "",
        "| inputs | loaded | DataError | crashes | timeouts | slowest | largest peak memory |",
        "|---:|---:|---:|---:|---:|---|---|",
        f"| {len(everything)} | {counts['loaded']} | {counts['DataError']} | {counts['crash']} | "
        f"{counts['timeout']} | {slowest[2]['seconds']:.2f} s ({slowest[0]}) | "
        f"{heaviest[2]['peak_mb']:.0f} MB ({heaviest[0]}, {heaviest[1] / MB:.0f} MB) |",
        "",
        f"Target per input: ≤ {TIME_TARGET:.0f} s and ≤ 10 × size + 200 MB. "
        + ("Every input met it." if not misses else f"Missed by: {', '.join(misses)}."),
        "",
        "| named input | size | outcome | time | peak memory | within target |",
        "|---|---:|---|---:|---:|:---:|",
    ]
    for name, size, r in named:
        detail = r["detail"].split(". ")[0].replace("|", "\\|")[:110]
        outcome = f"{r['outcome']}: {detail}" if r["outcome"] != "loaded" else f"loaded {detail}"
        lines.append(
            f"| {name} | {_human(size)} | {outcome} | {r['seconds']:.2f} s | "
            f"{r['peak_mb']:.0f} MB | {'yes' if within(r, size) else 'no'} |"
        )
    crashes = [(n, r["detail"]) for n, _, r in everything if r["outcome"] in ("crash", "timeout")]
    if crashes:
        lines += ["", "Crashes and timeouts:", ""] + [f"- {n}: {d}" for n, d in crashes[:20]]
    return "\n".join(lines)


def model_inputs(folder: Path, count: int, seed: int, quick: bool) -> list[tuple[str, Path]]:
    """The saved pipeline, the named hostile files (issue 36's with directories of 850,000
    entries, 47 MB, or 200,000 with ``quick``), then ``count`` seeded mutations."""
    from tests.pipeline.model_fuzz import (
        hostile_files,
        issue36_files,
        mutate_model,
        valid_model_blob,
    )

    blob = valid_model_blob()
    valid = folder / "valid.skops"
    valid.write_bytes(blob)
    inputs = [("the saved pipeline, as saved", valid), *hostile_files(folder, blob)]
    for k, (name, data) in enumerate(issue36_files(blob, 200_000 if quick else 850_000)):
        path = folder / f"issue36_{k}.skops"
        path.write_bytes(data)
        inputs.append((name, path))
    rng = random.Random(seed)
    for k in range(count):
        path = folder / f"mutation{k}.skops"
        path.write_bytes(mutate_model(blob, rng))
        inputs.append((f"mutation #{k}", path))
    return inputs


def model_section(args) -> str:
    """Model files through `load_model`, each in a forked child: the report's section."""
    from ternary.pipeline import ModelFileError, load_model

    with tempfile.TemporaryDirectory() as tmp:
        inputs = _apart(lambda: model_inputs(Path(tmp), args.models, args.seed, args.quick))
        _answers(load_model(inputs[0][1]))  # imports, kernels, first calls: not the children
        baseline = min(run_isolated(lambda: "", 10)["rss_kb"] for _ in range(3))
        runs = []
        for name, path in inputs:
            call = lambda p=path: _answers(load_model(p))  # noqa: E731
            result = run_isolated(call, args.timeout, refusal=ModelFileError)
            result["detail"] = result["detail"].replace(repr(str(path)), "the file")
            result["peak_mb"] = max(0.0, (result["rss_kb"] - baseline) / 1024)
            runs.append((name, path.stat().st_size, result))
    named = [r for r in runs if not r[0].startswith("mutation")]
    misses = [n for n, s, r in runs if not within(r, s)]
    counts = {k: sum(1 for *_, r in runs if r["outcome"] == k) for k in
              ("loaded", "DataError", "crash", "timeout")}  # fmt: skip
    slowest = max(runs, key=lambda t: t[2]["seconds"])
    heaviest = max(runs, key=lambda t: t[2]["peak_mb"])
    lines = [
        f"Model files: {len(runs)} through `ternary.pipeline.load_model` ({len(named)} named, "
        f"{len(runs) - len(named)} seeded mutations, seed {args.seed}).",
        "",
        "| files | loaded | refused | crashes | timeouts | slowest | largest peak memory |",
        "|---:|---:|---:|---:|---:|---|---|",
        f"| {len(runs)} | {counts['loaded']} | {counts['DataError']} | {counts['crash']} | "
        f"{counts['timeout']} | {slowest[2]['seconds']:.2f} s ({slowest[0]}) | "
        f"{heaviest[2]['peak_mb']:.0f} MB ({heaviest[0]}) |",
        "",
        f"Target per file: ≤ {TIME_TARGET:.0f} s and ≤ 10 × size + 200 MB. "
        + ("Every file met it." if not misses else f"Missed by: {', '.join(misses)}."),
        "",
        "| named file | size | outcome | time | peak memory | within target |",
        "|---|---:|---|---:|---:|:---:|",
    ]
    for name, size, r in named:
        detail = r["detail"].replace("|", "\\|")[:110]
        lines.append(
            f"| {name} | {_human(size)} | {r['outcome'].replace('DataError', 'refused')}: "
            f"{detail} | {r['seconds']:.2f} s | {r['peak_mb']:.0f} MB | "
            f"{'yes' if within(r, size) else 'no'} |"
        )
    crashes = [(n, r["detail"]) for n, _, r in runs if r["outcome"] in ("crash", "timeout")]
    if crashes:
        lines += ["", "Crashes and timeouts:", ""] + [f"- {n}: {d}" for n, d in crashes[:20]]
    return "\n".join(lines)


def _apart(build: Callable[[], list[tuple[str, Path]]]) -> list[tuple[str, Path]]:
    """``build()``'s (name, path) list, built in a forked child: the heap it leaves (850,000
    directory entries made in Python) would stay resident in this process and be reused,
    unseen, by the children that measure each file."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        with os.fdopen(write_end, "w") as fh:
            json.dump([(name, str(path)) for name, path in build()], fh)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as fh:
        text = fh.read()
    os.waitpid(pid, 0)
    return [(name, Path(path)) for name, path in json.loads(text)]


def _answers(model) -> str:
    """The model's class name once it has scored three rows of the saved pipeline's
    columns; an answer that is not a probability (NaN, negative, above 1) raises."""
    import pandas as pd

    rows = pd.DataFrame({"age": ["30", "", "70"], "colour": ["red", "blue", ""],
                         "size": ["4.5", "7", ""]})  # fmt: skip
    proba = np.asarray(model.predict_proba(rows), dtype=float)
    if not (np.isfinite(proba).all() and proba.min() >= 0 and proba.max() <= 1):
        raise AssertionError(f"answers that are not probabilities: {proba.tolist()}")
    return type(model).__name__


def _human(size: int) -> str:
    return f"{size / MB:.0f} MB" if size >= MB else f"{size / 1024:.0f} KB" if size else "–"


if __name__ == "__main__":
    main()
