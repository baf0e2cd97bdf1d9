"""A row's review flag depends on that row alone (issue 38 item 2): the same whether it is
scored alone, in a 20-row file or in a 50-row file, on the Your data page or by
``ternary predict`` with the page's model download."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ternary.cli import main as ternary_main
from ternary.review import flag_least_confident
from tests.app.helpers import assert_clean, open_app
from tests.app.test_yourdata import patients_csv

pytestmark = pytest.mark.skipif(
    not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files"
)
pytest.importorskip("skops.io")


def _lines(data: bytes) -> list[str]:
    return data.decode().splitlines()


def _file(head: str, rows: list[str]) -> bytes:
    return ("\n".join([head, *rows]) + "\n").encode()


def _scored_on_the_page(at: AppTest, downloads, name: str, data: bytes) -> pd.DataFrame:
    at.file_uploader(key="score_upload").set_value((name, data, "text/csv")).run()
    assert_clean(at)
    return pd.read_csv(io.BytesIO(downloads[f"scored_{name}"]), keep_default_na=False)


def _scored_by_predict(model, tmp_path, name: str, data: bytes) -> pd.DataFrame:
    path, out = tmp_path / name, tmp_path / f"out_{name}"
    path.write_bytes(data)
    assert ternary_main(["predict", str(model), str(path), "--out", str(out)]) == 0
    return pd.read_csv(out, keep_default_na=False)


def test_a_rows_review_flag_is_the_same_alone_in_20_in_50_on_the_page_and_by_predict(
    downloads, tmp_path
):
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("pat.csv", patients_csv(), "text/csv")).run()
    assert_clean(at)
    at.slider(key="review_pct").set_value(30).run()  # a budget that flags many new rows
    assert_clean(at)
    model = tmp_path / "model.skops"
    model.write_bytes(downloads["ternary_pat.skops"])

    new = _lines(patients_csv(50, label=False, seed=11))
    head, rows = new[0], new[1:]
    files = {"fifty.csv": rows, "twenty.csv": rows[:20]}
    files.update({f"alone{i}.csv": [rows[i]] for i in (0, 3, 7, 12, 19)})
    flags: dict[str, dict[str, list[int]]] = {"page": {}, "predict": {}}
    for name, part in files.items():
        data = _file(head, part)
        flags["page"][name] = _scored_on_the_page(at, downloads, name, data)["review"].tolist()
        flags["predict"][name] = _scored_by_predict(model, tmp_path, name, data)["review"].tolist()
    fifty = flags["predict"]["fifty.csv"]
    assert 0 < sum(fifty) < 50  # some rows flagged, not all: the test can tell them apart
    for where in ("page", "predict"):
        assert flags[where]["fifty.csv"] == fifty
        assert flags[where]["twenty.csv"] == fifty[:20]
        for i in (0, 3, 7, 12, 19):
            assert flags[where][f"alone{i}.csv"] == [fifty[i]], (where, i)

    # a per-file quota (the old rule) flags a row by what else is in its file: alone, a
    # 30 % quota of one row flags nothing, while some of these rows are flagged among 50
    conf = _scored_by_predict(model, tmp_path, "c.csv", _file(head, rows))["confidence"]
    quota50 = flag_least_confident(conf.to_numpy(), 0.3)
    assert any(quota50[i] and not flag_least_confident([conf[i]], 0.3)[0] for i in range(50))
