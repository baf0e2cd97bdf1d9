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
import re
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


_COLUMN = re.compile(r"^(?:Warning: )?[Cc]olumn '([^']+)'[:( ]")
_KINDS = (
    ("text gaps: most frequent level -> level '(missing)'", r"kept as a level of their own"),
    ("numeric gaps: + 0/1 column 'name=(missing)'", r"marks them"),
    ("warning: > 20 % imputed", r"^Warning: column"),
    ("marker word kept as a level (was read as gaps)", r"is kept as a level, not read"),
    ("spellings merged", r"merged spellings"),
    ("gap markers named", r"cell\(s\) as gaps"),
    ("read as dates", r"as days since"),
    ("set aside as identifier", r"^Set aside"),
    ("coded by frequency (was alphabetical)", r"in order of frequency"),
)


def summary(before: dict, after: dict, route: str = "arff") -> list[str]:
    """One table row per changed file: the columns under each kind of change."""
    rows = ["| file | change | columns | features before -> after |", "|---|---|---|---|"]
    for name in sorted(set(before) | set(after)):
        b = before.get(name, {}).get(route, {})
        a = after.get(name, {}).get(route, {})
        if a == b:
            continue
        new = [x for x in a.get("report", []) if x not in b.get("report", [])]
        shape = f"{len(b.get('features', []))} -> {len(a.get('features', []))}"
        for kind, pattern in _KINDS:
            cols = [m.group(1) for x in new if re.search(pattern, x) and (m := _COLUMN.match(x))]
            if cols:
                rows.append(f"| {name} | {kind} | {', '.join(cols)} | {shape} |")
                shape = ""
        gone = [x for x in b.get("report", []) if x.startswith("Dropped") and "constant" in x]
        now = [x for x in a.get("report", []) if x.startswith("Dropped") and "constant" in x]
        if gone != now:
            rows.append(f"| {name} | constant columns | {gone or '—'} -> {now or '—'} | {shape} |")
    return rows


def _by_column(lines: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in lines:
        m = _COLUMN.match(line)
        key = m.group(1) if m else "(file)"
        text = line[m.end() :].strip() if m else line
        out.setdefault(key, []).append(("Warning: " if line.startswith("Warning") else "") + text)
    return out


def markdown(before: dict, after: dict, route: str = "arff") -> list[str]:
    """A table row per file and column whose report lines changed: before, after."""
    rows = ["| file | column | before | after |", "|---|---|---|---|"]
    for name in sorted(set(before) | set(after)):
        b = before.get(name, {}).get(route, {}).get("report", [])
        a = after.get(name, {}).get(route, {}).get("report", [])
        gone = _by_column([x for x in b if x not in a])
        new = _by_column([x for x in a if x not in b])
        for col in sorted(set(gone) | set(new), key=lambda c: (c == "(file)", c)):
            pair = (gone.get(col, []), new.get(col, []))
            cell = [" / ".join(x).replace("|", "\\|") for x in pair]
            rows.append(f"| {name} | {col} | {cell[0] or '—'} | {cell[1] or '—'} |")
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="where to write the JSON snapshot")
    parser.add_argument("--diff", help="an earlier snapshot to compare with")
    parser.add_argument("--markdown", help="with --diff: the route (arff or csv) as a table")
    parser.add_argument("--summary", help="with --diff: the route, one row per file and change")
    args = parser.parse_args(argv)
    snap = snapshot()
    Path(args.out).write_text(json.dumps(snap, indent=1))
    if args.diff and args.summary:
        print("\n".join(summary(json.loads(Path(args.diff).read_text()), snap, args.summary)))
    elif args.diff and args.markdown:
        print("\n".join(markdown(json.loads(Path(args.diff).read_text()), snap, args.markdown)))
    elif args.diff:
        print("\n".join(diff(json.loads(Path(args.diff).read_text()), snap)))


if __name__ == "__main__":
    main()
