"""viz calls no estimator method: read from its source with ast, and shown on sealed models.

The figure builders draw what they are given (arrays, a `viz.ShadowTree`); the
app layer asks the model (`appkit.answers`). The scan reads every call in viz/
and every import; the behavioural test hands the drawings a fitted model whose
methods raise when touched and records which attributes they read.
"""

import ast
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_moons

import viz
from ternary import TernaryForestClassifier, TernaryTreeClassifier, default_feature_names
from viz.labels import node_label_lines, resolve_names

VIZ = Path(__file__).resolve().parents[2] / "viz"

#: estimator methods (and the prefixes of their families) that viz must never call
FORBIDDEN_PREFIXES = ("predict", "fit", "decision", "explain", "score", "graft")
FORBIDDEN_NAMES = {
    "boundary_distance",
    "apply",
    "transform",
    "rezone",
    "get_params",
    "set_params",
    "staged_predict",
    "cost_complexity_pruning_path",
}
#: what `ShadowTree.from_estimator` reads of an estimator (its docstring's list)
READ_ATTRIBUTES = {"tree_", "classes_", "feature_names_in_", "n_features_in_", "routing"}


def _forbidden(name: str) -> bool:
    return name in FORBIDDEN_NAMES or name.startswith(FORBIDDEN_PREFIXES)


def _violations(path: Path) -> list[str]:
    """Calls of forbidden methods, getattr of their names, and imports of ternary modules."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and _forbidden(func.attr):
                found.append(f"{where} calls .{func.attr}()")
            if isinstance(func, ast.Name) and func.id in ("getattr", "hasattr"):
                for arg in node.args[1:2]:
                    if isinstance(arg, ast.Constant) and _forbidden(str(arg.value)):
                        found.append(f"{where} {func.id}(…, {arg.value!r})")
            if isinstance(func, ast.Attribute) and func.attr == "import_module":
                found.append(f"{where} imports a module by name")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ternary."):
            # public names of the package face are fine; its modules (metrics, the
            # estimators' internals) are where the model would be asked
            found.append(f"{where} imports from {node.module}")
        elif isinstance(node, ast.Import):
            found += [
                f"{where} imports {a.name}" for a in node.names if a.name.startswith("ternary")
            ]
    return found


def test_viz_source_calls_no_estimator_method_and_imports_no_ternary_module():
    files = sorted(VIZ.glob("*.py"))
    assert {"regions.py", "tree_diagram.py", "shadow.py", "labels.py"} <= {f.name for f in files}
    found = [v for path in files for v in _violations(path)]
    assert found == []


def test_the_scan_catches_what_it_looks_for(tmp_path):
    # the scan above must be able to fail: each line here is one kind of violation
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import ternary.metrics\n"
        "from ternary.metrics import decided_accuracy\n"
        "model.predict_proba(X)\n"
        "m.boundary_distance(X)\n"
        "getattr(model, 'predict_verdict')\n"
        "hasattr(model, 'fit')\n"
        "importlib.import_module('ternary.metrics')\n",
        encoding="utf-8",
    )
    assert len(_violations(bad)) == 7
    good = tmp_path / "good.py"
    good.write_text(
        "from ternary import default_feature_names\n"
        "tree.preorder()\nnp.argmax(value)\ngetattr(model, 'classes_', None)\n"
    )
    assert _violations(good) == []


class Touched(AssertionError):
    """Raised when a drawing reaches for an estimator method (not an AttributeError, so
    a ``hasattr`` probe fails loudly too)."""


class Sealed:
    """A fitted estimator whose methods raise when touched; records the attributes read."""

    def __init__(self, model):
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name):
        if _forbidden(name):
            raise Touched(f"viz touched {name}")
        self.read.add(name)
        return getattr(self._model, name)


@pytest.fixture(scope="module")
def fitted():
    X, y = make_moons(300, noise=0.3, random_state=0)
    trees = {
        "probabilistic": TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, y),
        "hard_middle": TernaryTreeClassifier(
            routing="hard_middle", max_depth=3, random_state=0
        ).fit(X, y),
        "grafted": TernaryTreeClassifier(
            delta_method="none", max_depth=2, graft="all", graft_alpha=0.2, random_state=0
        ).fit(X, y),
    }
    forest = TernaryForestClassifier(n_estimators=3, max_depth=3, random_state=0).fit(X, y)
    trees["forest member"] = forest.estimators_[1]
    return trees


def test_sealed_models_draw_exactly_like_the_models(fitted):
    for kind, model in fitted.items():
        sealed = Sealed(model)
        with pytest.raises(Touched):
            sealed.predict_proba  # noqa: B018 - the seal holds
        assert viz.tree_dot(sealed, highlight_node=0) == viz.tree_dot(model, highlight_node=0), kind
        shadow = viz.ShadowTree.from_estimator(sealed)
        assert viz.tree_dot(shadow, max_depth=1) == viz.tree_dot(model, max_depth=1), kind
        for node in shadow.preorder:
            assert node_label_lines(sealed, node) == node_label_lines(model, node), kind
        assert resolve_names(sealed) == resolve_names(model)
        assert sealed.read <= READ_ATTRIBUTES, (kind, sealed.read - READ_ATTRIBUTES)
        assert "tree_" in sealed.read


def test_the_shadow_tree_is_a_read_only_copy_of_the_fitted_tree(fitted):
    model = fitted["hard_middle"]
    tree = model.tree_
    shadow = viz.ShadowTree.from_estimator(model, class_names=["no", "yes"])
    for name in ("children_left", "children_middle", "feature", "threshold", "delta", "value"):
        np.testing.assert_array_equal(getattr(shadow, name), getattr(tree, name))
        assert not getattr(shadow, name).flags.writeable
        assert not np.shares_memory(getattr(shadow, name), getattr(tree, name))
    with pytest.raises(ValueError, match="read-only"):
        shadow.delta[0] = 99.0
    np.testing.assert_array_equal(shadow.depth, tree.node_depth())
    np.testing.assert_array_equal(shadow.through_middle, tree.reached_through_middle())
    assert shadow.through_middle.any()  # a hard-middle tree: the test can fail
    assert list(shadow.preorder) == tree.preorder()
    assert shadow.routing == "hard_middle" and shadow.class_names == ("no", "yes")
    # fitted on an array: the library's default names
    assert list(shadow.feature_names) == default_feature_names(2) == ["x0", "x1"]
    np.testing.assert_array_equal(shadow.zone_low, tree.threshold - tree.delta)
    np.testing.assert_array_equal(shadow.zone_high, tree.threshold + tree.delta)
    renamed = shadow.named(feature_names=["a", "b"])
    assert renamed.feature_names == ("a", "b") and renamed.class_names == ("no", "yes")
    assert renamed.delta is shadow.delta  # renaming shares the frozen arrays
    assert viz.ShadowTree.of(shadow) is shadow
