"""The Grafting page's stepper (issue 37 item 4) and its notes (items 6 and 7).

On Webb's preset (§3: C4.5's depth-3 tree on all 30 rows) the stepper walks five steps:
the leaf A ≤ 2.5 with B ≤ 3 from the root (0.909 vs 0.833, p = 0.194: no graft at 0.05),
then the leaf 2.5 < A ≤ 7.5, B ≤ 5.5 grafted with A ≤ 5 from its parent (0.917 vs 0.714,
p = 0.0346) and B ≤ 3 from the root (0.909, p = 0.0484), then the two leaves no cut
improves. Each step's line, table, regions and tree are checked as the page shows them.
"""

from __future__ import annotations

import re

import numpy as np

from appkit import datasets, grafting, links
from appkit.state import DEFAULTS
from ternary import TernaryTree
from tests.app.helpers import assert_clean, open_app, open_link

WEBB = links.PRESETS[-1][2]


def _line(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Step "))


def _shown(text):
    """A table cell as st.table's markdown shows it: the escapes of `guard.plain` undone."""
    return re.sub(r"\\(.)", r"\1", text.replace("\u2060", "")) if isinstance(text, str) else text


def _numbers(at) -> dict:
    table = next(t.value for t in at.table if "decision" in map(_shown, t.value.index))
    return {_shown(k): _shown(v) for k, v in table.iloc[:, 0].items()}


def _step_chart(at):
    import plotly.io as pio

    chart = next(c for c in at.get("plotly_chart") if "graft_step_chart" in c.proto.id)
    return pio.from_json(chart.proto.spec)


def test_the_stepper_walks_webbs_worked_example():
    at = open_link(WEBB, "grafting")
    assert_clean(at)
    assert at.slider(key="graft_step").value == 1 and at.slider(key="graft_step").max == 5
    line = _line(at)
    # the leaf A ≤ 2: "5/6 = 0.833"; its best cut B ≤ 3 at the root, 9 o: 0.909; the test
    # as stated, (5/6)^9 = 0.194, rejects it at 0.05 (the paper grafts it: see the guide)
    for text in ("Step 1 of 5", "0 grafts made", "Leaf 2", "node 0", "B ≤ 3", "0\\.909"):
        assert text in line, line
    assert "0\\.833" in line and "0\\.194" in line and line.endswith("**no graft**")
    numbers = _numbers(at)
    assert numbers["Laplace, leaf"] == "0.833" and numbers["Laplace, region"] == "0.909"
    assert numbers["region's class and rows"] == "circle: 9 of 9"
    assert numbers["binomial test p"] == "0.1938" and numbers["decision"] == "no graft"

    at.button(key="graft_next").click().run()
    assert_clean(at)
    line = _line(at)
    # the leaf B ≤ 5 (5/7 = 0.714): A ≤ 5 at its parent, 10 ·: 0.917, (5/7)^10 = 0.0346
    assert "Step 2 of 5" in line and "1 graft made" in line and "A ≤ 5 → dot" in line
    assert "0\\.917 vs 0\\.714" in line and "0\\.0346" in line and line.endswith("**graft**")
    numbers = _numbers(at)
    assert numbers["evidence from"] == "node 3" and numbers["candidate region"] == "2.5 < A ≤ 5"
    assert numbers["region's class and rows"] == "dot: 10 of 10"
    # the regions: the leaf outlined (2.5 < A ≤ 7.5, B ≤ 5.5), the candidate shaded
    fig = _step_chart(at)
    region, leaf = fig.layout.shapes[-2], fig.layout.shapes[-1]
    assert (region.x0, region.x1, region.y1) == (2.5, 5.0, fig.layout.yaxis.range[1])
    assert (leaf.x0, leaf.x1, leaf.y1) == (2.5, 7.5, 5.5)
    # the tree after the graft: CART's 7 nodes and the split A ≤ 5 with its new leaf; the
    # leaf outlined in red, the path from the evidence node 3 to it drawn thick
    step_tree = at.get("graphviz_chart")[0].proto.spec
    assert step_tree.count('tooltip="node') == 9
    assert "  8 [label=<<B>A</B><BR/>θ = 5<BR/>n = 5>" in step_tree
    assert 'tooltip="node 4"' in step_tree and 'color="#C0392B", penwidth=3, tooltip="node 4"' in (
        step_tree
    )
    assert "3 -> 8 [label=<≤ θ>, color=" in step_tree

    at.button(key="graft_next").click().run()
    line = _line(at)
    assert "Step 3 of 5" in line and "2 grafts made" in line and "B ≤ 3 → circle" in line
    assert "0\\.909 vs 0\\.714" in line and "0\\.0484" in line and line.endswith("**graft**")
    step_tree = at.get("graphviz_chart")[0].proto.spec
    assert step_tree.count('tooltip="node') == 11 and "θ = 3<BR/>n = 4>" in step_tree
    for _ in range(3):  # to the end, and no further
        at.button(key="graft_next").click().run()
    assert at.slider(key="graft_step").value == 5 and line.startswith("**Step 3")
    assert "Step 5 of 5" in _line(at) and _line(at).endswith("**no graft**")
    at.button(key="graft_prev").click().run()
    assert at.slider(key="graft_step").value == 4
    at.slider(key="graft_step").set_value(1).run()
    assert "Step 1 of 5" in _line(at)
    assert_clean(at)


def test_the_last_step_is_the_pages_grafted_tree():
    for params in (WEBB, {}):
        at = open_link(params, "grafting") if params else open_app("grafting")
        assert_clean(at)
        dataset = params.get("dataset", DEFAULTS["dataset"])
        ds, key = datasets.load_builtin(
            dataset, **({} if params else dict(n_samples=500, noise=0.3, random_state=0))
        )
        cart_spec, graft_spec = grafting.graft_specs(
            key,
            list(ds.X.columns[:2]),
            mode="all",
            graft_alpha=0.05,
            ccp_alpha=0.0,
            max_depth=int(params.get("graft_max_depth", DEFAULTS["graft_max_depth"])),
            test_size=float(params.get("test_size", DEFAULTS["test_size"])),
            seed=DEFAULTS["seed"],
        )
        res = grafting.graft_comparison(ds, cart_spec, graft_spec)
        steps = grafting.graft_steps(ds, cart_spec, graft_spec)
        last = grafting.step_model(steps, steps.n_steps - 1).tree_
        for name in ("children_left", "children_right", "feature", "threshold", "grafted"):
            np.testing.assert_array_equal(getattr(last, name), getattr(res.grafted.tree_, name))
        np.testing.assert_allclose(last.value, res.grafted.tree_.value)
        assert len(steps.trace.report) == int(res.grafted.tree_.grafted.sum()) // 2
        assert isinstance(last, TernaryTree)


def test_a_grafted_leaf_with_no_rows_is_explained():
    at = open_link(WEBB, "grafting")
    notes = [c.value for c in at.caption if "reads n \\= 0" in c.value]
    # B ≤ 3 grafted under the leaf 2.5 < A ≤ 7.5, B ≤ 5.5: none of its five rows has B ≤ 3
    assert len(notes) == 1, notes
    assert "class circle" in notes[0] and "9 of the 9 training rows of node 0" in notes[0]


def test_the_default_example_says_why_test_accuracy_fell():
    at = open_app("grafting")
    note = next(m.value for m in at.markdown if "lowered the test accuracy" in m.value)
    assert "from 89\\.3 % to 88\\.0 %" in note
    assert "4 change their prediction, 1 to the true class and 3 away from it" in note
    # the rows it broke, by grafted leaf: they add up to 3
    counts = [int(n) for n in re.findall(r"(\d+) lies? in grafted leaf", note)]
    assert sum(counts) == 3 and len(counts) >= 1, note
    assert "Webb \\(1997, Table 2\\)" in note and "cross\\-validated" in note


def test_all_features_says_why_there_is_no_stepper():
    at = open_link({"dataset": "wine"}, "grafting")
    assert [s for s in at.slider if s.key == "graft_step"]  # two plotted features: stepper
    at.radio(key="graft_features").set_value("all features").run()
    assert_clean(at)
    assert not [s for s in at.slider if s.key == "graft_step"]
    assert any("needs two features" in c.value for c in at.caption)


def test_presenting_puts_the_stepper_in_one_box():
    at = open_link({**WEBB, "present": "1"}, "grafting")
    assert_clean(at)
    assert "COLLAPSED" in str(at.slider(key="graft_step").label_visibility)
    assert "Step 1 of 5" in _line(at)
    # the caption folds into the title's "?"; the figure goes to the box, legend under it
    fig = _step_chart(at)
    assert fig.layout.title.text is None and fig.layout.legend.orientation == "h"


def test_painted_points_are_grafted_and_named():
    from appkit import paint

    # two noisy clusters of painted points: a tree with leaves to step through
    rng = np.random.RandomState(0)
    points = [(int(c), *np.round(rng.normal(0.3 + 0.4 * c, 0.15, 2), 3)) for c in [0, 1] * 15]
    at = open_link({"paint": paint.encode(points)}, page="grafting")
    assert_clean(at)
    said = " ".join(c.value for c in at.caption)
    assert "painted points" in said and "two moons" not in said, said
    # the stepper grafts the painted points' tree: 21 training rows at test fraction 0.3
    assert at.slider(key="graft_step").max >= 2
    table = at.dataframe[0].value
    assert table["nodes"].iloc[0] >= 3 and "Step 1 of" in _line(at)


def test_webbs_first_graft_passes_once_alpha_exceeds_its_p_value():
    at = open_link({**WEBB, "graft_alpha": "0.2"}, "grafting")
    assert_clean(at)
    line = _line(at)
    assert "Step 1 of 5" in line and "1 graft made" in line and line.endswith("**graft**")
    assert any("(5/6)^9 = 0.194" in c.value for c in at.caption)
