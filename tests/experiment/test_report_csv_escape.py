"""`ternary report --format csv` escapes a dataset name a spreadsheet would run (issue 27).

Dataset names come from file names, so ``=1+1.arff`` gives a dataset ``=1+1``.
"""

from __future__ import annotations

import csv
import io
import zlib
from pathlib import Path

import pandas as pd

from ternary.experiment import report_main

STORED = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "reproduce_paper_rows.csv"
HOSTILE = "=HYPERLINK(1)"


def _renamed(tmp_path: Path) -> Path:
    """The stored run with dataset diabetes renamed, each row's CRC cell recomputed."""
    lines = STORED.read_text(encoding="utf-8").splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        body = line.rsplit(",", 1)[0]
        if body.startswith("diabetes,"):
            body = HOSTILE + body[len("diabetes") :]
        out.append(f"{body},{zlib.crc32(body.encode('utf-8')):08x}")
    path = tmp_path / "rows.csv"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_a_hostile_dataset_name_is_escaped_in_the_csv_report(tmp_path, capsys):
    assert report_main([str(_renamed(tmp_path)), "--format", "csv", "--per-dataset"]) == 0
    text = capsys.readouterr().out
    block = next(b for b in text.split("# ") if b.startswith("Per dataset"))
    rows = list(csv.reader(io.StringIO(block.split("\n", 1)[1])))
    names = [row[0] for row in rows[1:] if row]
    assert "'" + HOSTILE in names and HOSTILE not in names
    assert not any(line.startswith("=") for line in text.splitlines())
    per = pd.read_csv(io.StringIO(block.split("\n", 1)[1]))
    assert per["CART acc."].dtype.kind == "f"  # numbers stay numbers
