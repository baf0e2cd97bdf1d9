"""ternary.make_pipeline: raw rows in, the tree's answers out, exactly as on ds.X."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ternary import TernaryForestClassifier, TernaryTreeClassifier, make_pipeline
from ternary.data import Preprocessor, load_csv
from ternary.explain import explain_row
from ternary.pipeline import TernaryPipeline, score
from ternary.selective import RiskControlledClassifier


def _patients(n: int = 300, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    lines = ["patient_id,age,sex,smoking,glucose,label"]
    for i in range(n):
        age = "" if i % 17 == 0 else str(int(rng.integers(20, 80)))
        smoking = ["never", "former", "current", ""][int(rng.integers(0, 4))]
        glucose = float(rng.normal(100, 20))
        label = "high" if glucose + (int(age or 50) - 50) * 0.5 > 105 else "low"
        if rng.random() < 0.1:
            label = "mid"
        lines.append(f"P{i:05d},{age},{'FM'[i % 2]},{smoking},{glucose:.2f},{label}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def ds():
    return load_csv(_patients())


def _raw(ds):
    return ds.raw.drop(columns=[ds.target])


def test_pipeline_on_raw_rows_gives_exactly_the_tree_on_ds_x(ds):
    tree = TernaryTreeClassifier(max_depth=4, random_state=0).fit(ds.X, ds.y)
    pipe = make_pipeline(ds.preprocessor, tree)
    raw = _raw(ds)
    assert isinstance(pipe, TernaryPipeline)
    assert np.array_equal(pipe.predict_proba(raw), tree.predict_proba(ds.X))
    assert np.array_equal(pipe.predict(raw), tree.predict(ds.X))
    assert np.array_equal(pipe.predict_verdict(raw), tree.predict_verdict(ds.X))
    assert np.array_equal(pipe.predict_confidence(raw), tree.predict_confidence(ds.X))
    assert np.array_equal(pipe.boundary_distance(raw), tree.boundary_distance(ds.X))
    pred, verdict = pipe.predict_with_verdict(raw.iloc[::-1])
    assert np.array_equal(pred, tree.predict(ds.X)[::-1])
    assert np.array_equal(verdict, tree.predict_verdict(ds.X)[::-1])
    # the columns in another order, plus one the model does not know
    shuffled = raw[raw.columns[::-1]].assign(note="x")
    assert np.array_equal(pipe.predict_proba(shuffled), tree.predict_proba(ds.X))


def test_explain_row_goes_through_the_preprocessor(ds):
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
    pipe = make_pipeline(ds.preprocessor, tree)
    row = _raw(ds).iloc[7]
    got = pipe.explain_row(row)
    want = explain_row(tree, ds.X.iloc[7].to_numpy())
    assert got.sentence == want.sentence
    assert np.array_equal(got.proba, want.proba)
    assert [s.feature_name for s in got.steps] == [s.feature_name for s in want.steps]


def test_methods_exist_exactly_when_the_final_step_has_them(ds):
    forest = TernaryForestClassifier(n_estimators=5, max_depth=3, random_state=0)
    risk = RiskControlledClassifier(
        TernaryTreeClassifier(max_depth=3, random_state=0), target_risk=0.3, random_state=0
    )
    fp = make_pipeline(Preprocessor(), forest).fit(_raw(ds), ds.y)
    rp = make_pipeline(Preprocessor(), risk).fit(_raw(ds), ds.y)
    assert not hasattr(fp, "explain_row") and not hasattr(fp, "boundary_distance")
    assert hasattr(fp, "predict_confidence") and hasattr(fp, "predict_verdict")
    assert not hasattr(rp, "predict_confidence") and not hasattr(rp, "boundary_distance")
    forest_on_x = fp[-1]
    X = fp[0].transform(_raw(ds))
    assert np.array_equal(fp.predict_verdict(_raw(ds)), forest_on_x.predict_verdict(X))
    assert np.array_equal(rp.predict_verdict(_raw(ds)), rp[-1].predict_verdict(X))
    # a fitted-in-pipeline tree equals the loader's ds.X fit: the preprocessor is the loader's
    tp = make_pipeline(Preprocessor(), TernaryTreeClassifier(max_depth=3, random_state=0))
    tp.fit(_raw(ds), ds.y)
    direct = TernaryTreeClassifier(max_depth=3, random_state=0).fit(ds.X, ds.y)
    assert np.array_equal(tp.predict_proba(_raw(ds)), direct.predict_proba(ds.X))


def test_score_table_matches_the_pipeline(ds):
    tree = TernaryTreeClassifier(max_depth=4, random_state=0).fit(ds.X, ds.y)
    pipe = make_pipeline(ds.preprocessor, tree)
    raw = _raw(ds)
    out = score(pipe, raw, chunk_size=64)
    assert list(out.columns) == ["prediction", "verdict", "confidence"] + [
        f"P({c})" for c in tree.classes_
    ]
    assert np.array_equal(out["prediction"].to_numpy(), pipe.predict(raw))
    assert np.array_equal(out["verdict"].to_numpy(), pipe.predict_verdict(raw))
    assert np.array_equal(out.iloc[:, 3:].to_numpy(), pipe.predict_proba(raw))


def test_skops_round_trip_scores_raw_rows_with_gaps_and_unseen_category(ds, tmp_path):
    sio = pytest.importorskip("skops.io")
    tree = TernaryTreeClassifier(max_depth=4, random_state=0).fit(ds.X, ds.y)
    pipe = make_pipeline(ds.preprocessor, tree)
    path = tmp_path / "model.skops"
    sio.dump(pipe, path)
    untrusted = sio.get_untrusted_types(file=path)
    assert all(t.startswith(("ternary.", "sklearn.", "numpy.")) for t in untrusted), untrusted
    loaded = sio.load(path, trusted=untrusted)
    new = pd.DataFrame(
        {
            "age": [None, 44, 61],
            "sex": ["F", "M", None],
            "smoking": ["vaping", "never", ""],  # unseen, known, gap
            "glucose": [98.5, None, 130.0],
        }
    )
    got = loaded.predict_proba(new)
    assert np.array_equal(got, pipe.predict_proba(new))
    # each gap / unseen value scored as its imputed value would be
    pre = ds.preprocessor
    X, report = pre.transform_with_report(new)
    assert np.array_equal(got, tree.predict_proba(pd.DataFrame(X, columns=ds.X.columns)))
    assert report.unseen == {"smoking": 1} and report.gaps == {
        "age": 1,
        "sex": 1,
        "smoking": 1,
        "glucose": 1,
    }
    assert np.array_equal(loaded.predict_verdict(new), pipe.predict_verdict(new))


def test_empty_pipeline_is_refused():
    with pytest.raises(ValueError, match="at least one step"):
        make_pipeline()
