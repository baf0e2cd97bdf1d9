"""Record what the loaders make of every shared ARFF file, to compare two versions.

For each ``../shared/datasets/*.arff`` the script stores the load report and the
feature names of `load_arff`, and of `load_csv` on the same table written as a
CSV (``Dataset.raw`` saved by pandas, gaps as empty cells): the CSV route is the
one an upload takes. Run it before and after a change to the cleaning and compare::

    python benchmarks/bench_loaders_diff.py /tmp/loaders_before.json
    python benchmarks/bench_loaders_diff.py /tmp/loaders_after.json --diff /tmp/loaders_before.json

``--diff`` prints each file and column whose report line or feature names changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from ternary.data import DataError, load_arff, load_csv

DATASETS = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def _record(ds) -> dict:
    return {"report": list(ds.report), "features": list(ds.feature_names)}


def snapshot(folder: Path = DATASETS) -> dict:
    """``{file: {"arff": {...}, "csv": {...}}}`` for every ARFF file in ``folder``."""
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(folder.glob("*.arff")):
            entry: dict = {}
            try:
                ds = load_arff(path)
            except DataError as err:
                out[path.name] = {"arff": {"error": str(err)}}
                continue
            entry["arff"] = _record(ds)
            csv = Path(tmp) / (path.stem + ".csv")
            ds.raw.to_csv(csv, index=False)
            try:
                entry["csv"] = _record(load_csv(csv, target=ds.target))
            except DataError as err:
                entry["csv"] = {"error": str(err)}
            out[path.name] = entry
            print(path.name, file=sys.stderr, flush=True)
    return out


def diff(before: dict, after: dict) -> list[str]:
    """One line per file and route whose report or feature names differ."""
    lines = []
    for name in sorted(set(before) | set(after)):
        for route in ("arff", "csv"):
            b = before.get(name, {}).get(route, {})
            a = after.get(name, {}).get(route, {})
            if a == b:
                continue
            gone = [x for x in b.get("report", []) if x not in a.get("report", [])]
            new = [x for x in a.get("report", []) if x not in b.get("report", [])]
            fb, fa = b.get("features", []), a.get("features", [])
            lines.append(f"## {name} ({route})")
            lines += [f"  - {x}" for x in gone] + [f"  + {x}" for x in new]
            if fb != fa:
                lines.append(f"  features removed: {[f for f in fb if f not in fa]}")
                lines.append(f"  features added:   {[f for f in fa if f not in fb]}")
            if "error" in a or "error" in b:
                lines.append(f"  error: {b.get('error')} -> {a.get('error')}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="where to write the JSON snapshot")
    parser.add_argument("--diff", help="an earlier snapshot to compare with")
    args = parser.parse_args(argv)
    snap = snapshot()
    Path(args.out).write_text(json.dumps(snap, indent=1))
    if args.diff:
        print("\n".join(diff(json.loads(Path(args.diff).read_text()), snap)))


if __name__ == "__main__":
    main()
