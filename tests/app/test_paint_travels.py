"""Painted points are the dataset of every page (issue 37, item 3): painted on Decision
regions or brought by a link, they are what Tree diagram and Accuracy vs. coverage fit and
name, the link keeps carrying them, and picking another dataset in the sidebar ends it.
"""

from __future__ import annotations

from appkit import links, paint
from tests.app.helpers import assert_clean, open_link

#: two tight clusters, eight points each: a one-split tree, every page can fit them
A = [(0, round(0.1 + 0.02 * k, 3), round(0.2 + 0.01 * k, 3)) for k in range(8)]
B = [(1, round(0.8 + 0.02 * k, 3), round(0.7 + 0.01 * k, 3)) for k in range(8)]
POINTS = A + B


def _captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def test_painted_points_reach_the_tree_page_named_and_carried_in_the_link():
    at = open_link({"paint": paint.encode(POINTS)}, page="regions")
    assert_clean(at)
    at.switch_page("app_pages/2_tree_diagram.py").run()
    assert_clean(at)
    said = _captions(at)
    # the tree page fits the 16 points (11 training rows at test fraction 0.3), and says so
    assert "painted points" in said, said
    assert "fitted on 11 training rows" in said, said
    assert "fitted on 350 training rows" not in said  # not two moons' 500 rows
    assert paint.decode(at.query_params["paint"]) == POINTS
    assert any("painted points" in i.value for i in at.sidebar.info)


def test_accuracy_coverage_cross_validates_the_painted_points():
    at = open_link({"paint": paint.encode(POINTS), "cv_folds": "2"}, page="coverage")
    assert_clean(at)
    assert "painted points" in _captions(at)
    assert "two moons" not in " ".join(t.value for t in at.title)


def test_picking_another_dataset_ends_the_painting_everywhere():
    at = open_link({"paint": paint.encode(POINTS)}, page="tree")
    assert_clean(at)
    assert "painted points" in _captions(at)
    at.sidebar.selectbox(key="dataset").set_value("blobs").run()
    assert_clean(at)
    assert not at.session_state["paint_on"]
    assert "paint" not in at.query_params
    said = _captions(at)
    assert "painted points" not in said and "blobs" in said, said


def test_painting_follows_the_session_state_it_is_given():
    s = {"paint_on": True, "paint_points": POINTS, "dataset": "two moons"}
    assert links.painting(s)
    assert not links.end_paint_on_new_pick(s)  # the dataset it was painted over, remembered
    s["dataset"] = "blobs"
    assert links.end_paint_on_new_pick(s)
    assert not s["paint_on"] and not links.painting(s)
