"""After an upload builds its pipeline, every page still runs; scored labels are checked.

Building the Your data page's pipeline (its model download) once changed the dataset's
shared preprocessor to hand out DataFrames (``make_pipeline`` called ``set_output`` on
it), and Accuracy vs coverage and Grafting then failed with "The truth value of a Series
is ambiguous". A scored file whose label column holds no class of the model showed
"Decided accuracy 0 %".
"""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from appkit import yourdata
from appkit.model import model_params
from appkit.state import DEFAULTS
from ternary.data import load_csv
from tests.app.helpers import PAGES, assert_clean, open_app, shown

PARAMS = {**model_params(DEFAULTS), "max_depth": 3}


def credit_csv(n: int = 300, seed: int = 0, labels=("good", "bad")) -> bytes:
    """A credit-g-like table: text columns of 3 to 10 levels, numbers with gaps."""
    rng = np.random.default_rng(seed)
    purposes = ["radio/tv", "education", "new car", "used car", "business", "repairs"]
    lines = ["checking_status,duration,credit_history,purpose,credit_amount,housing,age,class"]
    for i in range(n):
        checking = ["<0", "0<=X<200", ">=200", "no checking"][int(rng.integers(0, 4))]
        duration = int(rng.integers(6, 60))
        history = ["critical", "existing paid", "delayed", ""][int(rng.integers(0, 4))]
        purpose = purposes[int(rng.integers(0, len(purposes)))]
        amount = "" if i % 17 == 0 else f"{rng.gamma(2.0, 1500):.0f}"
        housing = ["own", "rent", "for free"][int(rng.integers(0, 3))]
        age = int(rng.integers(19, 75))
        risk = duration / 60 + (checking == "<0") * 0.5 - (housing == "own") * 0.3
        label = labels[1] if risk + rng.normal(0, 0.3) > 0.6 else labels[0]
        row = f"{checking},{duration},{history},{purpose},{amount},{housing},{age},{label}"
        lines.append(row)
    return ("\n".join(lines) + "\n").encode()


def _upload(at: AppTest, key: str, name: str, data: bytes) -> None:
    at.file_uploader(key=key).set_value((name, data, "text/csv")).run()


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_every_page_runs_after_an_upload_built_its_pipeline():
    at = open_app("data")
    _upload(at, "upload", "credit.csv", credit_csv())
    assert_clean(at)
    labels = [b.label for b in at.get("download_button")]
    assert "Download the model (skops)" in labels  # the page built its pipeline
    ds = at.session_state["user_dataset"]
    assert ds.name == "credit" and ds.preprocessor is not None
    for page in ("coverage", "grafting", "tree", "regions", "coverage", "data"):
        at.switch_page(PAGES[page]).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, [e.value for e in at.error])
    # the page's preprocessor still hands out arrays, as it did before any pipeline
    assert isinstance(ds.preprocessor.transform(ds.raw.drop(columns=["class"])), np.ndarray)


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_a_scored_file_with_other_labels_says_so_instead_of_0_percent():
    at = open_app("data")
    _upload(at, "upload", "credit.csv", credit_csv())
    assert_clean(at)
    _upload(at, "score_upload", "other.csv", credit_csv(40, seed=3, labels=("1", "2")))
    assert not at.exception and not at.error
    warning = " ".join(shown(w) for w in at.warning)
    assert "No label in column 'class' is a class of the model" in warning
    assert "'1' (" in warning and "'2' (" in warning
    assert not any(m.label.startswith("Decided accuracy (new rows)") for m in at.metric)


def test_foreign_labels_are_counted_and_kept_out_of_the_accuracy():
    ds = load_csv(credit_csv())
    pipe = yourdata.full_pipeline.__wrapped__(ds, yourdata.cases_key(("k",), PARAMS))
    other = credit_csv(40, seed=3, labels=("1", "2"))
    result = yourdata.score_new_file(pipe, ds, other, "other.csv")
    truth = load_csv(other).raw["class"].astype(str)
    assert result.error is None and result.n_labelled == 40
    assert result.decided_accuracy is None
    assert result.foreign_labels == truth.value_counts().to_dict()
    assert "No label in column 'class'" in result.label_note
    # half the rows with a known label: those alone make the accuracy
    mixed_rows = credit_csv(40, seed=3).decode().splitlines()
    mixed_rows[1:21] = [line.rsplit(",", 1)[0] + ",unknown" for line in mixed_rows[1:21]]
    mixed = ("\n".join(mixed_rows) + "\n").encode()
    part = yourdata.score_new_file(pipe, ds, mixed, "mixed.csv")
    assert part.foreign_labels == {"unknown": 20}
    assert part.label_note.startswith("20 of 40 labelled rows have a label that is not a class")
    rows = load_csv(credit_csv(40, seed=3)).raw.iloc[20:]
    pred, verdict = pipe.predict_with_verdict(rows.drop(columns=["class"]))
    decided = verdict == 1
    expected = np.mean(pred[decided] == rows["class"].to_numpy()[decided])
    assert part.decided_accuracy == pytest.approx(expected)
    same = yourdata.score_new_file(pipe, ds, credit_csv(40, seed=3), "same.csv")
    assert same.foreign_labels == {} and same.label_note is None


def test_the_tree_pages_load_snippet_opens_its_download(tmp_path, monkeypatch):
    from appkit import export

    ds = load_csv(credit_csv())
    pipe = yourdata.full_pipeline.__wrapped__(ds, yourdata.cases_key(("k",), PARAMS))
    (tmp_path / "m.skops").write_bytes(export.model_bytes.__wrapped__(pipe, ("k",)))
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(export.LOAD_SNIPPET.format(file="m.skops"), namespace)  # noqa: S102 - our own text
    rows = ds.raw.drop(columns=["class"])
    assert namespace["clf"].predict(rows).tolist() == pipe.predict(rows).tolist()


def test_the_tree_page_downloads_a_grafted_tree():
    # the download of a grafted tree failed: its DataFrame graft report was unsavable
    at = open_app("tree")
    choice = next(w for w in [*at.selectbox, *at.radio] if w.key == "graft")
    choice.set_value("all").run()
    assert_clean(at)
    labels = [b.label for b in at.get("download_button")]
    assert "Download the model (skops)" in labels
