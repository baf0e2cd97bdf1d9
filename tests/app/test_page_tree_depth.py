"""The tree page collapses a deep tree's subtrees instead of shrinking it (issue 32, item 2)."""

from __future__ import annotations

from appkit import tree
from tests.app.helpers import assert_clean, open_link


def _drawn_depth_boxes(dot: str) -> int:
    return dot.count('label="(…)"')


def test_a_deep_tree_is_drawn_down_to_the_chosen_depth():
    at = open_link({"dataset": "digits", "max_depth": "8"}, "tree")
    assert_clean(at)
    depth_input = at.number_input(key="diagram_depth")
    assert depth_input.value == tree.DIAGRAM_DEPTH and depth_input.max == 8
    tree_dot = at.get("graphviz_chart")[0].proto.spec
    collapsed = _drawn_depth_boxes(tree_dot)
    assert collapsed > 0  # subtrees below the first depth are "(…)"
    assert "rankdir=LR" in tree_dot
    depth_input.set_value(8).run()
    assert_clean(at)
    assert _drawn_depth_boxes(at.get("graphviz_chart")[0].proto.spec) == 0
    at.number_input(key="diagram_depth").set_value(3).run()
    assert _drawn_depth_boxes(at.get("graphviz_chart")[0].proto.spec) > 0


def test_a_shallow_tree_has_no_depth_control():
    at = open_link({"dataset": "breast cancer", "max_depth": "4"}, "tree")
    assert_clean(at)
    assert not [n for n in at.number_input if n.key == "diagram_depth"]
    assert "(…)" not in at.get("graphviz_chart")[0].proto.spec
