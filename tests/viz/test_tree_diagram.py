"""Tree DOT (Figs. 3–4) and the shared label formatter."""

import copy
import re
import shutil

import graphviz
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris

from ternary import TernaryTreeClassifier
from viz.colors import GRAFTED_COLOR, UNCERTAIN_COLOR, tint
from viz.labels import format_number, node_label_lines
from viz.tree_diagram import tree_dot, tree_svg

HAS_DOT = shutil.which("dot") is not None


@pytest.fixture(scope="module")
def cancer():
    data = load_breast_cancer(as_frame=True)
    return data.data, data.target


def _fit(cancer, routing, method="margin", depth=2, **params):
    X, y = cancer
    return TernaryTreeClassifier(
        delta_method=method, routing=routing, max_depth=depth, random_state=42, **params
    ).fit(X, y)


def _node_line(dot, node):
    return next(line for line in dot.splitlines() if line.strip().startswith(f"{node} ["))


def _edges(dot):
    return [line for line in dot.splitlines() if "->" in line]


@pytest.mark.parametrize(
    "value,text",
    [
        (16.795, "16.795"),
        (0.17499924, "0.175"),
        (0.0021, "0.0021"),
        (2.805, "2.805"),
        (-3.14159, "-3.1416"),
        (0.0, "0"),
        (1234567.0, "1.235e+06"),
        (12345.67, "12346"),
        (1e-7, "1.000e-07"),
        (100.0, "100"),
    ],
)
def test_format_number_keeps_five_significant_digits(value, text):
    assert format_number(value) == text


def test_root_label_has_theta_delta_and_blend_range(cancer):
    model = _fit(cancer, "probabilistic")
    t = model.tree_
    theta, delta = t.threshold[0], t.delta[0]
    assert delta > 0
    dot = tree_dot(model)
    root = _node_line(dot, 0)
    assert "worst radius" in root
    assert f"θ = {format_number(theta)}" in root
    assert f"δ = {format_number(delta)}" in root
    assert f"[{format_number(theta - delta)}, {format_number(theta + delta)}]" in root
    assert f"n = {len(cancer[1])}" in root
    # δ in red like the paper
    assert re.search(r'<FONT COLOR="#[0-9A-Fa-f]{6}">δ = ', root)


def test_leaf_label_shows_class_confidence_and_n(cancer):
    model = _fit(cancer, "probabilistic")
    t = model.tree_
    leaf = int(np.flatnonzero(t.is_leaf)[0])
    k = int(np.argmax(t.value[leaf]))
    lines = node_label_lines(model, leaf, class_names=["malignant", "benign"])
    assert lines == [
        f"Class: {['malignant', 'benign'][k]}",
        f"conf = {t.value[leaf].max():.2f}",
        f"n = {t.n_node_samples[leaf]}",
    ]
    assert lines[0] in tree_dot(model, class_names=["malignant", "benign"])


def test_hard_middle_edges_are_dashed_orange_and_middle_nodes_shaded(cancer):
    model = _fit(cancer, "hard_middle")
    t = model.tree_
    n_middle = int(np.sum(t.children_middle >= 0))
    assert n_middle > 0
    dot = tree_dot(model)
    middle_edges = [e for e in _edges(dot) if "label=<zone>" in e]
    assert len(middle_edges) == n_middle
    for edge in middle_edges:
        assert "style=dashed" in edge and f'color="{UNCERTAIN_COLOR}"' in edge
    assert all("dashed" not in e for e in _edges(dot) if "label=<zone>" not in e)
    shaded = tint(UNCERTAIN_COLOR, 0.35)
    through = t.reached_through_middle()
    for node in t.preorder():
        assert (f'fillcolor="{shaded}"' in _node_line(dot, node)) == bool(through[node])
    # each middle edge goes to the middle child
    for node in np.flatnonzero(t.children_middle >= 0):
        assert any(
            e.strip().startswith(f"{node} -> {t.children_middle[node]} ") for e in middle_edges
        )
    # the default open zone leaves a row at θ+δ decided: its right edge holds it
    assert "≤ θ−δ" in dot and "≥ θ+δ" in dot and "&gt; θ+δ" not in dot
    assert "middle branch: θ−δ &lt; x &lt; θ+δ" in dot


def test_the_drawing_states_the_zone_its_tree_tests(cancer):
    # the paper's closed zone holds θ+δ; the legend and edges must say which one is drawn
    for routing in ("hard_middle", "probabilistic"):
        closed = tree_dot(_fit(cancer, routing, zone_edges="closed"))
        opened = tree_dot(_fit(cancer, routing))
        assert "θ−δ &lt; x ≤ θ+δ" in closed and "θ−δ &lt; x ≤ θ+δ" not in opened
        assert "θ−δ &lt; x &lt; θ+δ" in opened and "θ−δ &lt; x &lt; θ+δ" not in closed


def test_probabilistic_tree_has_binary_edges_and_routing_rules(cancer):
    model = _fit(cancer, "probabilistic")
    dot = tree_dot(model)
    edges = _edges(dot)
    assert len(edges) == 2 * int(np.sum(~model.tree_.is_leaf))
    assert not any("dashed" in e for e in edges)
    assert "routing rules" in dot and "blended" in dot


def test_grafted_nodes_get_their_own_colour(cancer):
    model = copy.deepcopy(_fit(cancer, "probabilistic"))
    assert GRAFTED_COLOR not in tree_dot(model)
    model.tree_.grafted[2] = True
    dot = tree_dot(model)
    assert f'color="{GRAFTED_COLOR}"' in _node_line(dot, 2)
    assert f'color="{GRAFTED_COLOR}"' not in _node_line(dot, 1)
    assert "Grafted node" in dot


def test_highlight_and_depth_limit(cancer):
    model = _fit(cancer, "probabilistic", depth=3)
    dot = tree_dot(model, highlight_node=1, max_depth=1)
    assert "penwidth=3" in _node_line(dot, 1)
    depth = model.tree_.node_depth()
    drawn = {int(m) for m in re.findall(r"^\s+(\d+) \[", dot, flags=re.M)}
    assert drawn == {n for n in model.tree_.preorder() if depth[n] <= 1}
    assert dot.count('label="(…)"') == int(np.sum(depth == 2))
    with pytest.raises(ValueError, match="highlight_node"):
        tree_dot(model, highlight_node=10_000)


def test_html_special_characters_in_names_are_escaped():
    X, y = load_iris(return_X_y=True)
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    dot = tree_dot(model, feature_names=["a<b", "c&d", "e>f", "g"], class_names=["x<1", "y", "z"])
    assert "a<b" not in dot and "c&d" not in dot
    graphviz.Source(dot)  # parses into a Source object


@pytest.mark.parametrize("routing", ["probabilistic", "hard_middle", "deferred"])
def test_dot_is_valid_and_renders(cancer, routing):
    model = _fit(cancer, routing, depth=3)
    dot = tree_dot(model, highlight_node=0)
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    source = graphviz.Source(dot)
    assert source.source == dot
    if not HAS_DOT:
        pytest.skip("Graphviz `dot` binary not installed; parsed the DOT only")
    svg = tree_svg(dot)
    assert svg is not None and b"<svg" in svg
    assert b"worst radius" in svg


def test_tree_svg_returns_none_without_the_dot_binary(monkeypatch):
    def missing(*args, **kwargs):
        raise graphviz.ExecutableNotFound(("dot",))

    monkeypatch.setattr(graphviz.Source, "pipe", missing)
    assert tree_svg("digraph { a -> b }") is None


def test_tree_dot_leaves_the_model_untouched(cancer):
    model = _fit(cancer, "hard_middle")
    before = {name: getattr(model.tree_, name).copy() for name in model.tree_._ARRAYS}
    tree_dot(model, highlight_node=0, max_depth=1)
    for name, arr in before.items():
        np.testing.assert_array_equal(getattr(model.tree_, name), arr)


def test_plain_cart_tree_has_no_delta_lines_or_routing_rules(cancer):
    model = _fit(cancer, "probabilistic", method="none")
    assert not np.any(model.tree_.delta > 0)
    dot = tree_dot(model)
    assert "δ =" not in dot and "blend" not in dot and "routing rules" not in dot
    assert f"θ = {format_number(model.tree_.threshold[0])}" in _node_line(dot, 0)
    assert "Split node (θ = threshold)" in dot


def test_a_really_grafted_tree_colours_exactly_its_grafted_nodes():
    X, y = load_iris(return_X_y=True)
    model = TernaryTreeClassifier(
        delta_method="none", graft="all", max_depth=2, random_state=0
    ).fit(X, y)
    # the check below means something only if grafting really added nodes here
    assert model.tree_.grafted.any() and not model.tree_.grafted.all()
    dot = tree_dot(model)
    for node in model.tree_.preorder():
        assert (f'color="{GRAFTED_COLOR}"' in _node_line(dot, node)) == bool(
            model.tree_.grafted[node]
        )


def test_a_rows_path_is_drawn_thick_with_the_forked_branches_in_the_zone_colour(cancer):
    model = _fit(cancer, "probabilistic", depth=2)
    # the root forked 30 % / 70 %, the right child took its share whole
    left, right = int(model.tree_.children_left[0]), int(model.tree_.children_right[0])
    grand = int(model.tree_.children_left[right])
    dot = tree_dot(model, path={0: 1.0, left: 0.3, right: 0.7, grand: 0.7})
    edges = {line.split("[")[0].strip(): line for line in _edges(dot)}
    assert UNCERTAIN_COLOR in edges[f"0 -> {left}"] and "30 %" in edges[f"0 -> {left}"]
    assert UNCERTAIN_COLOR in edges[f"0 -> {right}"] and "70 %" in edges[f"0 -> {right}"]
    whole = edges[f"{right} -> {grand}"]
    assert "penwidth=3" in whole and UNCERTAIN_COLOR not in whole and "%" not in whole
    assert "penwidth=3" not in edges[f"{left} -> {int(model.tree_.children_left[left])}"]
    assert 'penwidth="3"' in _node_line(dot, 0) or "penwidth=3" in _node_line(dot, 0)
    assert UNCERTAIN_COLOR in _node_line(dot, left)
