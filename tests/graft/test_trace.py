"""`ternary.graft.graft_trace` and ``graft_tree(max_grafts=…)``: grafting step by step.

The steps on Webb's worked example (§3) carry his numbers: the leaf A ≤ 2 at 5/6 =
0.833, its best cut B ≤ 3 at 10/11 = 0.909 from the root after the parent offered nothing
better, the region B ≤ 5 (1 ·, 4 *, 9 o) at 0.625 among the root's cuts; the leaf
B ≤ 5 at 5/7 = 0.714, grafted first with A ≤ 5 from its parent (10 ·, 0.917) and then
with B ≤ 3 from the root (9 o, 0.909). Everything else is checked against the tree and
report `graft_tree` gives, and the regions against a count of the rows inside them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryTree, TernaryTreeClassifier
from ternary.data import load_builtin
from ternary.graft import GRAFT_TRACE_COLUMNS, graft_trace, graft_tree
from ternary.tree import iter_node_rows
from tests.graft.test_graft import CIRCLE, DOT, STAR, webb_example

CLASSES = ["o", "*", "·"]  # the codes CIRCLE, STAR, DOT of tests/graft/test_graft.py


def _step(trace, leaf, feature, side):
    steps = trace.steps
    pick = steps[(steps["leaf"] == leaf) & (steps["feature"] == feature) & (steps["side"] == side)]
    assert len(pick) == 1, pick
    return pick.iloc[0]


def test_webb_steps_carry_the_papers_laplace_values():
    X, y, tree = webb_example()  # nodes: 3 leaf A ≤ 2, 5 leaf B ≤ 5, 4 its parent, 0 root
    trace = graft_trace(tree, X, y, alpha=0.05, feature_names=["A", "B"], class_names=CLASSES)
    steps = trace.steps
    assert list(steps.columns) == list(GRAFT_TRACE_COLUMNS)
    # leaf A ≤ 2: "four points all of which are correctly classified ... 5/6 = 0.833"
    first = _step(trace, 3, 1, "<=")
    assert (first["ancestor"], first["cut"], first["class"]) == (0, 3.0, CIRCLE)
    assert round(first["laplace_leaf"], 3) == 0.833 and round(first["laplace_cut"], 3) == 0.909
    assert (first["n_region"], first["n_class"]) == (9, 9)
    # the binomial test as stated: (5/6)^9 = 0.194, above 0.05 (the paper grafts it anyway,
    # see the user guide); the step says so
    assert first["p_value"] == pytest.approx((5 / 6) ** 9)
    assert (first["decision"], first["reason"]) == ("reject", "not_significant")
    assert "0.909" in first["why"] and "0.833" in first["why"] and "0.194" in first["why"]
    # "climbs to its parent node, at which no better cuts can be found, and then to the root"
    climb = trace.climb[(trace.climb["leaf"] == 3) & (trace.climb["feature"] == 1)]
    at = dict(zip(climb["ancestor"], climb["laplace"], strict=True))
    assert at[1] <= 5 / 6 < at[0] == pytest.approx(10 / 11)
    # "A cut at 5 results in a partition containing 1 ·, 4 * and 9 o ... 0.625"
    cuts = trace.cuts
    b5 = cuts[(cuts["leaf"] == 3) & (cuts["ancestor"] == 0) & (cuts["feature"] == 1)]
    b5 = b5[b5["cut"] == 5].iloc[0]
    assert (b5["n_region"], b5["n_class"], b5["class"]) == (14, 9, CIRCLE)
    assert round(b5["laplace"], 3) == 0.625
    # leaf B ≤ 5: 5/7 = 0.714; A ≤ 5 at the parent (10 ·, 0.917), then B ≤ 3 at the root
    a5, b3 = _step(trace, 5, 0, "<="), _step(trace, 5, 1, "<=")
    assert round(a5["laplace_leaf"], 3) == 0.714
    assert (a5["ancestor"], a5["cut"], a5["class"], a5["n_region"]) == (4, 5.0, DOT, 10)
    assert round(a5["laplace_cut"], 3) == 0.917 and a5["p_value"] == pytest.approx((5 / 7) ** 10)
    assert (b3["ancestor"], b3["cut"], b3["class"], b3["n_region"]) == (0, 3.0, CIRCLE, 9)
    assert round(b3["laplace_cut"], 3) == 0.909 and b3["p_value"] == pytest.approx((5 / 7) ** 9)
    # "grafted in order of their accuracy estimate": A ≤ 5 is step before B ≤ 3
    assert (a5["decision"], b3["decision"]) == ("graft", "graft")
    assert (a5["graft"], b3["graft"], a5["step"] + 1) == (0, 1, b3["step"])
    assert a5["why"].startswith("Grafted (·)") and "0.0346" in a5["why"]
    # "No better cuts can be found" for the leaves A > 7 and B > 5: nothing grafted there
    assert set(steps.loc[steps["leaf"].isin([2, 6]), "decision"]) <= {"reject", "none"}
    assert steps["leaf"].tolist() == sorted(steps["leaf"], key=list(tree.preorder()).index)


def test_webb_first_leaf_is_grafted_once_alpha_passes_its_p_value():
    X, y, tree = webb_example()
    trace = graft_trace(tree, X, y, alpha=0.25)
    assert _step(trace, 3, 1, "<=")["decision"] == "graft"
    assert trace.steps.loc[trace.steps["decision"] == "graft", "leaf"].tolist() == [3, 5, 5]


def test_webb_region_of_each_step():
    X, y, tree = webb_example()
    trace = graft_trace(tree, X, y, alpha=0.25)
    a5 = _step(trace, 5, 0, "<=")
    j = int(a5["step"])
    # the parent's region (A ≤ 7, A > 2) cut at A ≤ 5 on A; B as the parent has it
    np.testing.assert_array_equal(trace.region_low[j], [2, -np.inf])
    np.testing.assert_array_equal(trace.region_high[j], [5, np.inf])
    np.testing.assert_array_equal(trace.leaf_low[j], [2, -np.inf])
    np.testing.assert_array_equal(trace.leaf_high[j], [7, 5])
    b3 = int(_step(trace, 3, 1, "<=")["step"])  # from the root: B ≤ 3 over every A
    np.testing.assert_array_equal(trace.region_low[b3], [-np.inf, -np.inf])
    np.testing.assert_array_equal(trace.region_high[b3], [np.inf, 3])


def _rows_inside(trace, j, X, tree):
    """Training rows of the step's ancestor inside its candidate region (counted here)."""
    anc = int(trace.steps["ancestor"].iat[j])
    rows = dict(iter_node_rows(tree, X))[anc]
    x = X[rows].astype(np.float64)
    inside = np.all((x > trace.region_low[j]) & (x <= trace.region_high[j]), axis=1)
    return rows[inside]


def _arrays(tree: TernaryTree) -> dict:
    return {name: getattr(tree, name) for name in TernaryTree._ARRAYS}


def check_trace(tree, X, y, mode, alpha, sample_weight=None):
    """The trace's grafts are `graft_tree`'s; every step's numbers hold against the data."""
    new, report = graft_tree(tree, X, y, mode=mode, alpha=alpha, sample_weight=sample_weight)
    trace = graft_trace(tree, X, y, mode=mode, alpha=alpha, sample_weight=sample_weight)
    pd.testing.assert_frame_equal(trace.report, report, check_exact=True)
    for name, arr in _arrays(new).items():
        np.testing.assert_array_equal(getattr(trace.tree, name), arr, err_msg=name)
    steps = trace.steps
    grafted = steps[steps["decision"] == "graft"]
    assert grafted["graft"].tolist() == list(range(len(report)))
    np.testing.assert_array_equal(grafted["laplace_cut"], report["laplace_cut"])
    np.testing.assert_array_equal(grafted["p_value"], report["p_value"])
    np.testing.assert_array_equal(grafted["new_leaf"], report["new_leaf"])
    assert steps["grafts_made"].tolist() == np.cumsum(steps["decision"] == "graft").tolist()
    for j, step in steps.iterrows():
        reason = step["reason"]
        if step["decision"] == "none":
            assert step["ancestor"] == -1
            continue
        if reason == "not_better":
            assert step["laplace_cut"] <= step["laplace_leaf"] and np.isnan(step["p_value"])
        else:
            assert step["laplace_cut"] > step["laplace_leaf"]
            assert (step["p_value"] < alpha) == (reason != "not_significant")
        if mode == "one" and reason == "one":
            assert (steps.loc[steps["leaf"] == step["leaf"], "decision"] == "graft").sum() <= 1
        if sample_weight is None:  # unit weights: T and P are plain counts of the region
            inside = _rows_inside(trace, j, X, tree)
            assert inside.size == step["n_region"], step
            assert np.sum(y[inside] == step["class"]) == step["n_class"], step
        # the climb's best for this tuple is the step's; the scanned cuts' best is the climb's
        climb = trace.climb
        mine = climb[
            (climb["leaf"] == step["leaf"])
            & (climb["feature"] == step["feature"])
            & (climb["side"] == step["side"])
        ]
        assert mine["laplace"].max() == step["laplace_cut"]
    return trace


def test_trace_agrees_with_graft_tree_on_the_webb_example():
    X, y, tree = webb_example()
    for mode in ("all", "one"):
        for alpha in (0.05, 0.25, 1.0):
            check_trace(tree, X, y, mode, alpha)


@pytest.mark.parametrize("name", ["two moons", "iris", "wine", "xor"])
def test_trace_agrees_with_graft_tree_on_builtin_datasets(name):
    ds = load_builtin(name)
    X = ds.X.to_numpy(np.float32)
    _, y = np.unique(ds.y, return_inverse=True)
    tree = TernaryTreeClassifier(delta_method="none", max_depth=5, random_state=0).fit(X, y).tree_
    for mode, alpha in (("all", 0.05), ("all", 0.5), ("one", 0.2)):
        trace = check_trace(tree, X, y, mode, alpha)
    w = np.random.RandomState(0).uniform(0.2, 2.0, size=y.size)
    check_trace(tree, X, y, "all", 0.3, sample_weight=w)
    assert (trace.steps["decision"] == "graft").any() or name == "xor"


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(8, 60),
    depth=st.integers(1, 4),
    mode=st.sampled_from(["all", "one"]),
    alpha=st.sampled_from([0.05, 0.3, 1.0]),
)
def test_trace_agrees_with_graft_tree_on_random_data(seed, n, depth, mode, alpha):
    rng = np.random.RandomState(seed)
    X = rng.randint(0, 6, size=(n, 2)).astype(np.float32)
    y = rng.randint(0, 3, size=n)
    if np.unique(y).size < 2:
        y[0] = (y[0] + 1) % 3
    _, y = np.unique(y, return_inverse=True)
    tree = TernaryTreeClassifier(delta_method="none", max_depth=depth).fit(X, y).tree_
    check_trace(tree, X, y, mode, alpha)


def test_max_grafts_builds_the_tree_one_graft_at_a_time():
    X, y, tree = webb_example()
    full, report = graft_tree(tree, X, y, alpha=0.25)
    assert len(report) == 3
    for j in range(5):
        part, part_report = graft_tree(tree, X, y, alpha=0.25, max_grafts=j)
        pd.testing.assert_frame_equal(part_report, report.iloc[:j] if j else part_report)
        assert len(part_report) == min(j, 3)
        assert part.node_count == tree.node_count + 2 * min(j, 3)
        if j >= 3:
            for name, arr in _arrays(full).items():
                np.testing.assert_array_equal(getattr(part, name), arr, err_msg=name)
    # after one graft the leaf A ≤ 2 predicts o below B = 3, the leaf B ≤ 5 is untouched
    one, _ = graft_tree(tree, X, y, alpha=0.25, max_grafts=1)
    from tests.graft.test_graft import hard_predict

    q = np.array([[1.5, 2.0], [3.5, 4.0]], dtype=np.float32)
    assert hard_predict(one, q).tolist() == [CIRCLE, STAR]


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_max_grafts_refuses_what_is_not_a_count(bad):
    X, y, tree = webb_example()
    with pytest.raises(ValueError, match="max_grafts"):
        graft_tree(tree, X, y, max_grafts=bad)


def test_trace_without_cuts_and_when_nothing_is_searched():
    X, y, tree = webb_example()
    lean = graft_trace(tree, X, y, alpha=0.25, keep_cuts=False)
    assert lean.cuts.empty and len(lean.climb) and len(lean.report) == 3
    none = graft_trace(tree, X, y, mode="none")
    assert none.steps.empty and none.report.empty and none.region_low.shape == (0, 2)
