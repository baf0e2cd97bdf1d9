"""Names from a file are plain text in every figure: no live link, no markup, no
double-escaped entity (issue 27). Plotly renders a subset of HTML in titles, hovers,
legends, ticks and annotations; `viz.labels.plain_text` escapes ``<``, ``>``, ``&`` once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import make_moons

from ternary import TernaryTreeClassifier
from ternary.explain import explain_node
from viz.inspector import INSPECTOR_METHODS, node_inspector_figure
from viz.labels import plain_text
from viz.regions import RegionGrid, decision_regions_figure

LINK = '<a href="https://evil.example/">click</a>'
QUOTED = 'say "hi" & <b>bye</b>'
ESCAPED_LINK = '&lt;a href="https://evil.example/"&gt;click&lt;/a&gt;'
ESCAPED_QUOTED = 'say "hi" &amp; &lt;b&gt;bye&lt;/b&gt;'


def _texts(node) -> list[str]:
    """Every string in a figure's JSON (titles, names, hovertemplates, ticks, annotations)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, (list, tuple)):
        return [t for v in node for t in _texts(v)]
    return []


def _assert_plain(fig) -> str:
    texts = _texts(fig.to_plotly_json())
    joined = "\n".join(t for t in texts if not t.startswith("data:image"))
    assert "<a" not in joined and "<b>" not in joined, joined
    assert "&quot;" not in joined and "&amp;lt;" not in joined
    return joined


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(200, noise=0.3, random_state=0)
    return pd.DataFrame(X, columns=[LINK, QUOTED]), np.where(y == 1, LINK, QUOTED)


def test_regions_figure_shows_hostile_feature_and_class_names_as_text(moons):
    X, y = moons
    model = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X.to_numpy(), y)
    grid = RegionGrid.around(X.to_numpy(), 20, 0.05)
    proba = model.predict_proba(grid.points)
    verdict = model.predict_verdict(grid.points)
    fig = decision_regions_figure(
        X, y, grid, classes=model.classes_, proba=proba, verdict=verdict, scores=(0.9, 0.1)
    )
    joined = _assert_plain(fig)
    assert fig.layout.xaxis.title.text == ESCAPED_LINK
    assert fig.layout.yaxis.title.text == ESCAPED_QUOTED  # the quote shown as a quote
    names = {t.name for t in fig.data}
    assert f"class {ESCAPED_LINK}" in names and f"class {ESCAPED_QUOTED}" in names
    assert f"class {ESCAPED_QUOTED}<br>" in joined  # the hover: the figure's <br> stays


@pytest.mark.parametrize("method", INSPECTOR_METHODS)
def test_inspector_titles_legends_hovers_and_ticks_are_plain(moons, method):
    X, y = moons
    delta = "margin" if method == "none" else method
    model = TernaryTreeClassifier(delta_method=delta, max_depth=2, random_state=0).fit(X, y)
    e = explain_node(model, X.to_numpy(), y, 0)
    fig = node_inspector_figure(e, method=method)
    joined = _assert_plain(fig)
    title = fig.layout.title.text
    feature = X.columns[int(model.tree_.feature[0])]
    assert f": {plain_text(feature)} ≤ θ" in title and "<br><sup>" in title
    assert ESCAPED_LINK in joined or ESCAPED_QUOTED in joined


def test_inspector_feature_name_override_is_escaped_too(moons):
    X, y = moons
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    e = explain_node(model, X.to_numpy(), y, 0)
    fig = node_inspector_figure(e, feature_name=LINK, class_names=[QUOTED, "b & c"])
    joined = _assert_plain(fig)
    assert f"Node 0: {ESCAPED_LINK} ≤ θ" in fig.layout.title.text
    assert "class b &amp; c" in joined


@given(st.text(alphabet=st.sampled_from("<>&;%{}x\"'a \u2060"), max_size=30))
def test_plain_text_undoes_to_the_name_as_plotly_decodes_it(name):
    """Plotly decodes &lt; &gt; &amp; (and numeric entities) once: the name comes back,
    but for the word joiners that keep a hover template from filling in %{...}."""
    shown = plain_text(name)
    assert "<" not in shown and ">" not in shown and "%{" not in shown
    decoded = shown.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    assert decoded.replace("\u2060", "") == name.replace("\u2060", "")


def test_a_template_in_a_class_name_is_not_filled_in(moons):
    X, y = moons
    y = np.where(y == LINK, "%{x} rows", "%{customdata}")
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X.to_numpy(), y)
    grid = RegionGrid.around(X.to_numpy(), 10, 0.05)
    fig = decision_regions_figure(
        X, y, grid, classes=model.classes_, proba=model.predict_proba(grid.points),
        verdict=model.predict_verdict(grid.points), scores=(0.9, 0.1),
    )  # fmt: skip
    hovers = [t.hovertemplate for t in fig.data if (t.name or "").startswith("class ")]
    assert hovers and all("%{x:.4g}" in h for h in hovers)  # the figure's own fields stay
    assert all("%{x} rows" not in h and "%{customdata}" not in h for h in hovers)
