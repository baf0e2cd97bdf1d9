"""``ternary predict --review-share``: the least confident rows named for review."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ternary import TernaryTreeClassifier, make_pipeline
from ternary.cli import main as ternary_main
from ternary.data import load_csv, read_rows
from ternary.pipeline import score

sio = pytest.importorskip("skops.io")


def _csv(n: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    lines = ["x1,x2,kind"]
    for _ in range(n):
        a, b = rng.uniform(0, 10, 2)
        label = "yes" if a + b + rng.normal(0, 2) > 10 else "no"
        lines.append(f"{a:.3f},{b:.3f},{label}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("review")
    ds = load_csv(_csv(300, 0).encode())
    tree = TernaryTreeClassifier(max_depth=4, random_state=0).fit(ds.X, ds.y)
    pipe = make_pipeline(ds.preprocessor, tree)
    model = folder / "model.skops"
    sio.dump(pipe, model)
    data = folder / "new.csv"
    data.write_text(
        _csv(83, 1).replace(",yes\n", "\n").replace(",no\n", "\n").replace("x1,x2,kind", "x1,x2")
    )
    return pipe, model, data, folder


def _run(saved, *extra):
    pipe, model, data, folder = saved
    out = folder / "scored.csv"
    code = ternary_main(["predict", str(model), str(data), "--out", str(out), *extra])
    return code, out


def test_review_share_flags_the_least_confident_rows(saved, capsys):
    pipe, _, data, _ = saved
    code, out = _run(saved, "--review-share", "10%")
    assert code == 0
    table = pd.read_csv(out, keep_default_na=False)
    assert list(table.columns[:6]) == ["x1", "x2", "prediction", "verdict", "confidence", "review"]
    assert table.columns[6] == "review_rule"
    conf = pipe.predict_confidence(read_rows(data))
    expected = np.zeros(len(conf), dtype=int)
    expected[np.argsort(conf, kind="stable")[:8]] = 1  # floor(0.1 * 83) = 8
    assert table["review"].tolist() == expected.tolist()
    # a per-file quota, labelled as one (issue 38 item 2)
    quota = "least confident 10 % of this file (quota)"
    assert set(table.loc[table["review"] == 1, "review_rule"]) == {quota}
    assert set(table.loc[table["review"] == 0, "review_rule"]) == {""}
    # the zone verdict is still the model's own, beside the review column
    assert table["verdict"].tolist() == pipe.predict_verdict(read_rows(data)).tolist()
    err = capsys.readouterr().err
    assert "8 of 83 rows flagged for review" in err and "per-file quota" in err


def test_review_share_as_a_number_gives_the_same_rows(saved):
    _, out = _run(saved, "--review-share", "10%")
    first = pd.read_csv(out, keep_default_na=False)["review"].tolist()
    _, out = _run(saved, "--review-share", "0.1", "--chunk-rows", "7")
    assert pd.read_csv(out, keep_default_na=False)["review"].tolist() == first


def test_without_review_share_no_review_columns(saved):
    _, out = _run(saved)
    table = pd.read_csv(out, keep_default_na=False)
    assert "review" not in table.columns and "review_rule" not in table.columns


@pytest.mark.parametrize("bad", ["1.5", "abc", "-10%", "nan"])
def test_bad_share_is_refused_with_a_message(saved, capsys, bad):
    with pytest.raises(SystemExit) as exit_info:
        _run(saved, f"--review-share={bad}")
    assert exit_info.value.code == 2
    assert "not a share of rows" in capsys.readouterr().err


def test_score_with_review_share_on_no_rows(saved):
    pipe, _, data, _ = saved
    empty = read_rows(data).head(0)
    table = score(pipe, empty, review_share=0.2)
    assert list(table.columns[:5]) == [
        "prediction",
        "verdict",
        "confidence",
        "review",
        "review_rule",
    ]
    with pytest.raises(ValueError, match="between 0 and 1"):
        score(pipe, read_rows(data), review_share=2.0)


def test_a_stored_threshold_flags_each_row_by_default(saved, capsys):
    """Issue 38 item 2: the model carries the review rule; ternary predict applies it by
    default, so a row's flag is the same alone and among other rows."""
    from ternary.review import threshold_rule, with_review_rule

    pipe, _, data, folder = saved
    conf = pipe.predict_confidence(read_rows(data))
    threshold = float(np.median(conf))
    model = folder / "ruled.skops"
    sio.dump(with_review_rule(pipe, threshold, 0.25), model)
    out = folder / "ruled.csv"
    assert ternary_main(["predict", str(model), str(data), "--out", str(out)]) == 0
    table = pd.read_csv(out, keep_default_na=False)
    assert table["review"].tolist() == (conf < threshold).astype(int).tolist()
    name = threshold_rule(threshold, 0.25)
    assert set(table.loc[table["review"] == 1, "review_rule"]) == {name}
    err = capsys.readouterr().err
    assert f"{int((conf < threshold).sum())} of 83 rows flagged for review" in err
    assert "the model's stored rule" in err and "expected 25 % of rows" in err
    # one row alone gets the flag it had among the 83
    single = folder / "one.csv"
    single.write_text(
        "\n".join(data.read_text().splitlines()[:1] + [data.read_text().splitlines()[5]])
    )
    assert ternary_main(["predict", str(model), str(single), "--out", str(out)]) == 0
    assert pd.read_csv(out)["review"].tolist() == [table["review"][4]]
    # --review-share overrides it with a quota of this file
    assert (
        ternary_main(["predict", str(model), str(data), "--out", str(out), "--review-share", "10%"])
        == 0
    )
    assert int(pd.read_csv(out)["review"].sum()) == 8


def test_a_labelled_file_gets_the_majority_class_beside_the_accuracy(saved, capsys):
    pipe, model, _, folder = saved
    labelled = folder / "labelled.csv"
    labelled.write_text(_csv(120, 3))
    out = folder / "labelled_scored.csv"
    assert ternary_main(["predict", str(model), str(labelled), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    rows = read_rows(labelled)
    verdict = pipe.predict_verdict(rows.drop(columns=["kind"]))
    labels = rows["kind"].astype(str).to_numpy()
    most = "yes" if np.mean(labels == "yes") > 0.5 else "no"  # the labelled rows' majority
    rate = np.mean(labels[verdict == 1] == most)  # on the rows the accuracy counts
    assert f"(majority class {100 * rate:.1f} %)" in err
