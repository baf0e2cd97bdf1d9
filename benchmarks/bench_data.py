"""Loader speed: ternary.data.load_csv / load_arff against plain pandas, in one run.

Usage: python benchmarks/bench_data.py [--repeats 5]

Prints (and writes to benchmarks/results/bench_data.md) the median time to load a
20,000 × 20 CSV with `load_csv` (sniffing, validation, encoding, report) against
`pandas.read_csv` of the same bytes, and the time to load every ARFF file under
../shared/datasets (skipped with a message when the folder is absent) against
liac-arff's parse alone of the same files, in the same run: plain data sections
are parsed by pandas, so the full load (cleaning included) costs less than the
parse alone did.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import median_time  # noqa: E402

from ternary.data import load_arff, load_csv  # noqa: E402

SHARED = ROOT.parent / "shared" / "datasets"
RESULTS = Path(__file__).resolve().parent / "results"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(20_000, 20)), columns=[f"f{i}" for i in range(20)])
    frame["y"] = rng.integers(0, 2, 20_000)
    data = frame.to_csv(index=False).encode()
    load_csv(data)  # imports and first-call costs out of the measurement
    ours = median_time(lambda: load_csv(data), args.repeats)
    plain = median_time(lambda: pd.read_csv(io.BytesIO(data)), args.repeats)
    lines = [
        f"Median of {args.repeats}.",
        "",
        "| what | ternary.data | pandas.read_csv | ratio |",
        "|---|---:|---:|---:|",
        f"| CSV 20,000 × 20 ({len(data) / 2**20:.1f} MB) | {ours:.3f} s | {plain:.3f} s | "
        f"{ours / plain:.2f}× |",
    ]
    if SHARED.is_dir():
        import arff  # liac-arff, the parser load_arff used for every file before

        files = sorted(SHARED.glob("*.arff")) + sorted(SHARED.glob("webb1997/*.arff"))
        texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
        start = time.perf_counter()
        for path in files:
            load_arff(path)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        for text in texts:
            try:
                arff.loads(text)
            except Exception:  # noqa: BLE001 - files liac rejects count with their time
                pass
        liac = time.perf_counter() - start
        lines += [
            "",
            "| what | ternary.data.load_arff | liac-arff parse only | ratio |",
            "|---|---:|---:|---:|",
            f"| all {len(files)} shared ARFF files | {ours:.1f} s | {liac:.1f} s | "
            f"{ours / liac:.2f}× |",
        ]
    else:
        lines += ["", f"Shared ARFF folder {SHARED} absent: ARFF timing skipped."]
    text = "\n".join(lines)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_data.md").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
