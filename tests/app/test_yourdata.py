"""appkit.yourdata: out-of-fold answers for every row, the cases table, a second file scored."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold
from streamlit.testing.v1 import AppTest

from appkit import datasets, yourdata
from appkit.model import model_params
from appkit.state import DEFAULTS
from ternary import TernaryTreeClassifier, make_pipeline
from ternary.data import Preprocessor, load_csv, to_csv
from tests.app.helpers import assert_clean, open_app

PARAMS = {**model_params(DEFAULTS), "max_depth": 3}


def patients_csv(n: int = 240, label: bool = True, seed: int = 0, blank_line: bool = False):
    rng = np.random.default_rng(seed)
    head = "patient_id,age,sex,smoking,glucose" + (",outcome" if label else "")
    lines = [head]
    for i in range(n):
        age = "" if i % 11 == 0 else str(int(rng.integers(20, 80)))
        smoking = ["never", "former", "current", ""][int(rng.integers(0, 4))]
        if not label and i == 3:
            smoking = "vaping"  # never seen in training
        glucose = rng.normal(100, 20)
        row = f"P{seed}{i:05d},{age},{'FM'[i % 2]},{smoking},{glucose:.1f}"
        if label:
            out = "high" if glucose + 0.4 * (int(age or 50) - 50) > 104 else "low"
            row += f",{out if rng.random() > 0.08 else 'mid'}"
        lines.append(row)
        if blank_line and i == 5:
            lines.append("")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def ds():
    return load_csv(patients_csv())


def test_out_of_fold_answers_come_from_models_that_did_not_see_the_row(ds):
    cases = yourdata.out_of_fold(ds, PARAMS, folds=4, seed=3)
    raw = ds.raw.drop(columns=[ds.target])
    y = np.asarray(ds.y)
    splitter = StratifiedKFold(n_splits=4, shuffle=True, random_state=3)
    for fold, (train, test) in enumerate(splitter.split(np.zeros((len(y), 1)), y)):
        pipe = make_pipeline(Preprocessor(), TernaryTreeClassifier(**PARAMS))
        pipe.fit(raw.iloc[train], y[train])
        proba, verdict = pipe.predict_proba_verdict(raw.iloc[test])
        columns = [f"P({c})" for c in pipe.classes_]
        assert np.array_equal(cases[columns].to_numpy()[test], proba)
        assert np.array_equal(cases["verdict"].to_numpy()[test], verdict)
        distance = pipe.boundary_distance(raw.iloc[test])
        assert np.array_equal(cases["boundary_distance"].to_numpy()[test], distance)
        assert (cases["fold"].to_numpy()[test] == fold).all()
    # an in-sample fit answers differently somewhere: the folds are not a formality
    full = TernaryTreeClassifier(**PARAMS).fit(ds.X, ds.y).predict_proba(ds.X)
    assert not np.array_equal(full, cases.filter(like="P(").to_numpy())


def test_cases_table_has_every_column_line_numbers_and_flagged_first():
    data = patients_csv(blank_line=True)
    ds = load_csv(data)
    cases = yourdata.out_of_fold(ds, PARAMS)
    table = yourdata.cases_table(ds, cases)  # the lines come from the loader
    # the answers first (issue 38 item 3), then the probabilities, then the file's columns
    answers = ["line", "prediction", "verdict", "confidence", "review", "flagged by"]
    assert list(table.columns[:6]) == answers
    assert list(table.columns[6:9]) == ["P(high)", "P(low)", "P(mid)"]
    assert list(table.columns[-6:]) == list(ds.raw.columns)
    assert {"boundary distance", "correct"} <= set(table.columns)
    # the download keeps the file's columns first, as in the file
    download = yourdata.download_order(table)
    assert list(download.columns[:7]) == ["line", *ds.raw.columns]
    assert list(download.columns[7:13]) == answers[1:] + ["P(high)"]
    text = data.decode().splitlines()
    for _, row in table.head(20).iterrows():  # the line holds that very row
        assert text[int(row["line"]) - 1].startswith(row["patient_id"] + ",")
    # the rows to review first, then the other boundary-zone rows, each least confident first
    verdict, review = table["verdict"].to_numpy(), table["review"].to_numpy()
    confidence = table["confidence"].to_numpy()
    n_review = int(review.sum())
    assert 0 < n_review <= len(table) // 10  # the default budget, 10 % (less on a tie)
    assert (review[:n_review] == 1).all()
    n_zone = int(((verdict == 0) & (review == 0)).sum())
    assert n_zone > 0 and (verdict[n_review : n_review + n_zone] == 0).all()
    assert np.all(np.diff(confidence[:n_review]) >= 0)
    assert np.all(np.diff(confidence[n_review : n_review + n_zone]) >= 0)
    assert confidence[:n_review].max() <= confidence[n_review:].min()
    wrong = yourdata.filter_cases(table, "wrong")
    assert (wrong["verdict"] == 1).all() and not wrong["correct"].any()
    assert len(yourdata.filter_cases(table, "flagged")) == int((verdict == 0).sum())
    assert len(yourdata.filter_cases(table, "review")) == n_review


def test_new_file_is_scored_by_the_full_model_never_refitted(ds):
    pipe = yourdata.full_pipeline.__wrapped__(ds, yourdata.cases_key(("k",), PARAMS))
    before = pipe[-1].tree_.threshold.copy()
    new = patients_csv(60, label=False, seed=5)
    result = yourdata.score_new_file(pipe, ds, new, "new.csv")
    assert result.error is None and result.n_rows == 60
    assert np.array_equal(pipe[-1].tree_.threshold, before)
    rows = pd.read_csv(pd.io.common.BytesIO(new), keep_default_na=False)
    # the answers first: the data row (1 = the first under the header), then the outputs
    assert list(result.table.columns[:4]) == ["data row", "prediction", "verdict", "confidence"]
    assert result.table["data row"].tolist() == list(range(1, 61))
    assert list(result.table.columns[-5:]) == list(rows.columns)
    download = yourdata.download_order(result.table)  # as ternary predict writes it
    assert list(download.columns[:5]) == list(rows.columns)
    assert list(download.columns[5:8]) == ["prediction", "verdict", "confidence"]
    assert "data row" not in download.columns
    notes = " ".join(result.notes)
    assert "1 value(s) never seen" in notes and "gap" in notes
    assert result.decided_accuracy is None  # no label column
    labelled = yourdata.score_new_file(pipe, ds, patients_csv(80, seed=9), "more.csv")
    assert labelled.n_labelled == 80 and 0 <= labelled.decided_accuracy <= 1
    assert not any("Ignored" in n for n in labelled.notes)  # the label is not "extra"
    lacking = b"age,sex,smoking\n40,F,never\n"
    message = yourdata.score_new_file(pipe, ds, lacking, "x.csv").error
    assert "'glucose'" in message


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_page_answers_every_row_and_scores_a_second_file():
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("pat.csv", patients_csv(), "text/csv")).run()
    assert_clean(at)
    frames = [d.value for d in at.dataframe]
    cases = next(f for f in frames if "verdict" in f.columns and "patient_id" in f.columns)
    assert len(cases) > 0 and "line" in cases.columns
    at.file_uploader(key="score_upload").set_value(
        ("new.csv", patients_csv(30, label=False, seed=2), "text/csv")
    ).run()
    assert_clean(at)
    assert any("Scored 30 rows" in s.value for s in at.success)
    ds = at.session_state["user_dataset"]
    assert ds.name == "pat" and datasets.preview(ds, 3).columns[-1] == "outcome"


def test_the_pages_snippet_loads_the_download_and_scores_a_csv(ds, tmp_path, monkeypatch):
    from appkit import export

    pipe = yourdata.full_pipeline.__wrapped__(ds, yourdata.cases_key(("k",), PARAMS))
    (tmp_path / "m.skops").write_bytes(export.model_bytes.__wrapped__(pipe, ("k",)))
    (tmp_path / "new_rows.csv").write_bytes(patients_csv(25, label=False, seed=7))
    monkeypatch.chdir(tmp_path)
    exec(yourdata.PIPELINE_SNIPPET.format(file="m.skops"), {})  # noqa: S102 - our own text
    scored = pd.read_csv(tmp_path / "scored.csv")
    rows = pd.read_csv(tmp_path / "new_rows.csv")
    assert list(scored.columns) == [*rows.columns, "prediction", "verdict"]
    from ternary.data import read_rows

    assert scored["verdict"].tolist() == pipe.predict_verdict(read_rows("new_rows.csv")).tolist()


def test_coverage_page_cross_validates_raw_rows_with_a_per_fold_preprocessor(ds):
    from appkit import coverage

    X, extra = coverage.cv_inputs(ds)
    assert list(X.columns) == [c for c in ds.raw.columns if c != ds.target]
    assert extra["preprocessor"] is not ds.preprocessor  # a clone, refitted in every fold
    assert not hasattr(extra["preprocessor"], "feature_names_out_")
    X2, none = coverage.cv_inputs(ds, ["age", "glucose"])
    assert none == {} and list(X2.columns) == ["age", "glucose"]


def test_review_columns_name_the_rule_that_flagged_each_row():
    confidence = np.array([0.9, 0.1, 0.4, 0.2, 0.8, 0.3])
    verdict = np.array([1, 0, 1, 1, 0, 0], dtype=np.int8)
    rule = yourdata.review_rule_of(pd.DataFrame({"confidence": confidence}), 0.5)
    assert rule.threshold == pytest.approx(0.35) and rule.expected == 0.5
    review, by = yourdata.review_columns(confidence, verdict, rule)  # 0.1, 0.2, 0.3
    assert review.tolist() == [0, 1, 0, 1, 0, 1]
    name = "confidence below 0.35 (out of fold, 50 %)"
    assert by.tolist() == ["", "both", "", name, "boundary zone", "both"]


def test_the_budget_sets_the_review_column_and_the_verdict_stays(ds):
    cases = yourdata.out_of_fold(ds, PARAMS)
    rule = yourdata.review_rule_of(cases, 0.25)
    table = yourdata.cases_table(ds, cases, rule)
    n = len(table)
    assert int(table["review"].sum()) == round(rule.expected * n) <= n // 4
    # the rows below the threshold are the least confident out-of-fold rows
    confidence = cases["confidence"].to_numpy()
    first = np.flatnonzero(confidence < rule.threshold)
    expected = np.sort(ds.file_lines[first])
    assert np.array_equal(np.sort(table.loc[table["review"] == 1, "line"]), expected)
    assert sorted(table["verdict"].tolist()) == sorted(cases["verdict"].tolist())
    zone_only = table[(table["verdict"] == 0) & (table["review"] == 0)]
    assert set(zone_only["flagged by"]) <= {"boundary zone"}
    text = to_csv(table)
    assert "review" in text.splitlines()[0] and "flagged by" in text.splitlines()[0]


def test_new_rows_get_review_columns_from_the_stored_threshold(ds):
    pipe = yourdata.full_pipeline.__wrapped__(ds, yourdata.cases_key(("k",), PARAMS))
    rule = yourdata.model_rule(ds, yourdata.cases_key(("k",), PARAMS), 0.1)
    new = patients_csv(60, label=False, seed=5)
    result = yourdata.score_new_file(yourdata.with_rule(pipe, rule), ds, new, "new.csv")
    assert list(result.table.columns[:7]) == [
        "data row",
        "prediction",
        "verdict",
        "confidence",
        "review",
        "flagged by",
        "review_rule",
    ]
    t = result.table
    zone, review = t["verdict"] == 0, t["review"] == 1
    assert set(t.loc[review & zone, "flagged by"]) <= {"both"}
    assert set(t.loc[review & ~zone, "flagged by"]) <= {rule.name}
    assert set(t.loc[zone & ~review, "flagged by"]) <= {"boundary zone"}
    assert set(t.loc[~zone & ~review, "flagged by"]) == {""}
    download = yourdata.download_order(t)  # ternary predict's columns: review_rule kept
    assert list(download.columns[5:10]) == [
        "prediction",
        "verdict",
        "confidence",
        "review",
        "review_rule",
    ]
    flagged = result.table["review"] == 1
    assert result.n_review == int(flagged.sum())
    assert flagged.tolist() == (result.table["confidence"] < rule.threshold).tolist()
    assert set(result.table.loc[flagged, "review_rule"]) == {rule.name}
    # the cached full pipeline itself carries no rule: the page's copy does
    assert not hasattr(pipe, "review_threshold_")
    assert "review" not in yourdata.score_new_file(pipe, ds, new, "new.csv").table


def test_an_excel_sep_line_upload_gets_its_file_lines():
    """The page counted lines on its own guess of the delimiter and took 'sep=;' for the
    header: the count missed by one and the table fell back to data row numbers."""
    data = b"sep=;\n" + patients_csv(60).replace(b",", b";")
    ds = load_csv(data)
    table = yourdata.cases_table(ds, yourdata.out_of_fold(ds, PARAMS))
    assert table.columns[0] == "line"
    text = data.decode().splitlines()
    for _, row in table.head(10).iterrows():
        assert text[int(row["line"]) - 1].startswith(row["patient_id"] + ";")


def test_a_hard_middle_tree_answers_every_row(ds):
    """boundary_distance refuses hard_middle; the page showed that refusal instead of cases."""
    params = {**PARAMS, "routing": "hard_middle"}
    table = yourdata.cases_table(ds, yourdata.out_of_fold(ds, params))
    assert len(table) == len(ds.raw) and table["boundary distance"].isna().all()


def test_a_rows_why_model_is_the_fold_model_that_gave_its_answer(ds):
    """Issue 38 item 1: the row's explanation comes from the model that held it out; its
    prediction and probabilities are the table's, the full model's may differ."""
    from ternary.pipeline import score

    cases = yourdata.out_of_fold(ds, PARAMS)
    raw = yourdata.features_frame(ds)
    pipe = yourdata.full_pipeline.__wrapped__(ds, yourdata.cases_key(("k",), PARAMS))
    table = yourdata.cases_table(ds, cases)
    differ = 0
    for shown in range(0, len(table), 7):
        position = yourdata.row_position(table, shown)
        assert table["line"][shown] == ds.file_lines[position]
        fold, model = yourdata.fold_answer(cases, position)
        assert fold == cases["fold"].iloc[position]
        row = raw.iloc[[position]]
        mine = score(model, row).iloc[0]
        for c in ["prediction", "verdict", "confidence", "P(high)", "P(low)", "P(mid)"]:
            assert mine[c] == table[c][shown], c
        explained = model.explain_row(row)
        assert np.allclose(explained.proba, table.loc[shown, ["P(high)", "P(low)", "P(mid)"]])
        differ += score(pipe, row)["P(high)"].iloc[0] != table["P(high)"][shown]
    assert differ > 0  # the full model answers otherwise somewhere: the two are not one


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_every_accuracy_on_the_page_has_the_majority_class_beside_it():
    """Issue 38 item 6: the majority-class rate of the same rows beside each accuracy."""
    at = open_app("data")
    data = patients_csv()
    at.file_uploader(key="upload").set_value(("pat.csv", data, "text/csv")).run()
    assert_clean(at)
    y = np.asarray(at.session_state["user_dataset"].y)
    captions = [c.value for c in at.caption if c.value.startswith("majority class")]
    values, counts = np.unique(y, return_counts=True)
    overall = f"majority class {100 * counts.max() / len(y):.1f} %"
    assert len(captions) == 2 and captions[1] == overall
    at.file_uploader(key="score_upload").set_value(("more.csv", data, "text/csv")).run()
    assert_clean(at)
    captions = [c.value for c in at.caption if c.value.startswith("majority class")]
    assert len(captions) == 3  # the new rows' decided accuracy too


def test_the_models_rule_is_learned_on_its_own_confidence_over_the_training_rows(ds):
    """The stored threshold is on the full model's scale: the fold models' threshold fell
    anywhere among a tree's few confidence values (credit-g: 0-45 % of new rows flagged
    at a 10 % budget), so the share stated on the page would be wrong."""
    from ternary.review import review_threshold

    key = yourdata.cases_key(("k",), PARAMS)
    pipe = yourdata.full_pipeline(ds, key)
    own = pipe.predict_confidence(yourdata.features_frame(ds))
    rule = yourdata.model_rule(ds, key, 0.1)
    assert rule.threshold == review_threshold(own, 0.1) and not rule.out_of_fold
    assert rule.expected == np.mean(own < rule.threshold) <= 0.1
    assert rule.name == f"confidence below {rule.threshold:.4g} (10 % of training rows)"
