"""Check a loaded model's contents before anything is scored: what no fit makes is refused.

A file may hold only allowed types and still describe what no fit makes. The routing
kernels index the node arrays by the child ids and the rows by the split features without
bounds checks, so a child id past the end crashes the process and a child pointing back
loops for ever; in a tree this project fits (grafted ones too) every node but the root has
one parent. Values matter as much: a threshold stored as text or a complex leaf value
ends in a traceback, and δ = inf, a NaN threshold or a negative leaf value give NaN or
negative probabilities that ``ternary predict`` would write out as answers.

So every tree must have, per node: integer children and features (in range, one parent
each), a float threshold that is finite (the leaf marker `ternary.tree.UNDEFINED`, −2, is
one), a float δ that is finite and ≥ 0 with θ ± δ and 2δ finite at each split, a class
distribution of finite values ≥ 0 summing to 1 (as the tree's ``value`` is defined), and
finite counts ≥ 0. The estimator around it must have as many classes as the leaves' columns
(distinct and sorted, which the forest's column lookup needs), ``n_classes_`` equal to
their number, a per-feature scale of finite values > 0 wherever it is stored or the
ranking reads it, and settings (routing, zone edges, confidence) among the allowed ones. A
forest must have at least one member, each a ternary tree over the forest's features whose
classes are the forest's own. Arrays that pass are given the dtypes the kernels take
(``intp``, ``float64``, ``bool``, native byte order).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["model_problem"]

_INTEGER = ("children_left", "children_right", "children_middle", "feature", "n_node_samples")
_FLOAT = ("threshold", "delta", "value", "weighted_n_node_samples", "impurity")
#: settings read when scoring, and the values they may take
_CHOICES = {
    "routing": ("probabilistic", "hard_middle", "deferred"),
    "zone_edges": ("open", "closed"),
    "confidence": ("laplace", "paper"),
}


def _objects(model: Any):
    """Every object of ternary's own classes in ``model``, each once."""
    seen: set[int] = set()
    stack = [model]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, np.ndarray)):
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif type(obj).__module__.startswith("ternary") and hasattr(obj, "__dict__"):
            yield obj
            stack.extend(vars(obj).values())


def model_problem(model: Any) -> tuple[str, str] | None:
    """What no fit makes in ``model``: (``"tree"``, ``"forest"`` or ``"model"``, what), or None.

    Parameters
    ----------
    model : object
        A model skops built from a file (only allowed types).

    Returns
    -------
    (str, str) or None
        What is damaged and how, or None when nothing is.
    """
    from ternary.tree import TernaryTree

    for obj in _objects(model):
        attrs = vars(obj)
        if "tree_" in attrs or "estimators_" in attrs:
            problem = _settings_problem(attrs)
            if problem is not None:
                return "model", problem
        if "tree_" in attrs:
            n_features = attrs.get("n_features_in_")
            tree = attrs["tree_"]
            problem = (
                _tree_problem(tree, n_features, TernaryTree)
                or _owner_problem(obj, tree, n_features)
                or _values_problem(tree)
            )
            if problem is not None:
                return "tree", problem
        if "estimators_" in attrs:
            problem = _forest_problem(obj)
            if problem is not None:
                return "forest", problem
        elif "classes_" in attrs and "tree_" not in attrs:
            problem = _classes_problem(obj)
            inner = getattr(attrs.get("estimator_"), "classes_", None)
            if problem is None and inner is not None and not np.array_equal(inner, obj.classes_):
                problem = "its classes are not those of the model it wraps"
            if problem is not None:
                return "model", problem
    return None


def _settings_problem(attrs: dict) -> str | None:
    for setting, allowed in _CHOICES.items():
        value = attrs.get(setting, allowed[0])
        if not isinstance(value, str) or value not in allowed:
            return f"{setting} is {value!r}, not one of {', '.join(allowed)}"
    share = attrs.get("min_decided_fraction", 0.5)
    if not isinstance(share, numbers.Real) or not 0 <= float(share) <= 1:
        return f"min_decided_fraction is {share!r}, not a number in [0, 1]"
    scale = attrs.get("delta_scale_", 1.0)  # what the zones were scaled by at fit
    if not isinstance(scale, numbers.Real) or not 0 <= float(scale) < np.inf:
        return f"delta_scale_ is {scale!r}, not a finite number of at least 0"
    return None


def _classes_problem(owner: Any, n_columns: int | None = None) -> str | None:
    """What is wrong with ``owner.classes_`` and ``owner.n_classes_``, or None."""
    classes = getattr(owner, "classes_", None)
    if not isinstance(classes, np.ndarray) or classes.ndim != 1 or classes.size < 1:
        return "its classes are not a list of labels"
    if n_columns is not None and classes.shape != (n_columns,):
        return "its classes do not match its leaves' class columns"
    try:
        distinct = np.unique(classes)
    except TypeError:  # labels of types that do not compare
        distinct = None
    if distinct is None or distinct.shape != classes.shape or not np.all(distinct == classes):
        return "its classes are not distinct and sorted"
    n_classes = vars(owner).get("n_classes_", classes.size)
    if isinstance(n_classes, bool) or not isinstance(n_classes, numbers.Integral):
        return f"n_classes_ is {n_classes!r}, not a count"
    if n_classes != classes.size:
        return f"n_classes_ is {n_classes:,} but it has {classes.size:,} classes"
    return None


def _owner_problem(owner: Any, tree: Any, n_features: Any) -> str | None:
    """What does not fit between an estimator's attributes and its (sound) tree, or None."""
    problem = _classes_problem(owner, tree.value.shape[1])
    if problem is not None:
        return problem
    attrs = vars(owner)
    if "_feature_scale" not in attrs:  # a file saved before the scale existed
        if attrs.get("confidence", "paper") != "paper":
            return "_feature_scale, which its confidence ranking reads, is missing"
        return None
    scale = attrs["_feature_scale"]  # read per split feature by the ranking
    if not isinstance(scale, np.ndarray) or scale.shape != (n_features,):
        return "_feature_scale does not have one entry per feature"
    if scale.dtype.kind not in "fiu" or not np.all(np.isfinite(scale) & (scale > 0)):
        return "_feature_scale does not hold finite numbers > 0"
    owner._feature_scale = scale.astype(np.float64)
    return None


def _forest_problem(forest: Any) -> str | None:
    """What is wrong with a forest's members, or None (their trees are checked apart)."""
    members = vars(forest)["estimators_"]
    if not isinstance(members, list) or not members:
        return "it has no trees"
    problem = _classes_problem(forest)
    if problem is not None:
        return problem
    classes = forest.classes_
    for k, member in enumerate(members):
        if "tree_" not in getattr(member, "__dict__", {}):
            return f"member {k} is a {type(member).__name__}, not a fitted ternary tree"
        own = getattr(member, "classes_", None)
        if not isinstance(own, np.ndarray) or own.ndim != 1:
            return f"member {k}'s classes are not a list of labels"
        try:
            columns = np.searchsorted(classes, own)
            foreign = np.any(columns >= classes.size) or not np.all(
                classes[columns % classes.size] == own
            )
        except (TypeError, ValueError):  # labels of types that do not compare
            foreign = True
        if foreign:
            return f"member {k} names a class the forest does not have"
        if getattr(member, "n_features_in_", None) != getattr(forest, "n_features_in_", None):
            return f"member {k} reads another number of features than the forest"
    return None


def _tree_problem(tree: Any, n_features: Any, kind: Any) -> str | None:
    """What is wrong with ``tree``'s structure or values, or None."""
    if not isinstance(tree, kind):
        return f"its tree_ is a {type(tree).__name__}, not a TernaryTree"
    edges = getattr(tree, "zone_edges", "closed")
    if not isinstance(edges, str) or edges not in _CHOICES["zone_edges"]:
        return f"its tree's zone_edges is {edges!r}, not open or closed"
    if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
        return "its number of features is missing"
    arrays: dict[str, Any] = {a: getattr(tree, a, None) for a in kind._ARRAYS}
    if not all(isinstance(a, np.ndarray) for a in arrays.values()):
        return "a node array is missing"
    n = arrays["children_left"].shape[0] if arrays["children_left"].ndim == 1 else 0
    for attr, array in arrays.items():
        ndim = 2 if attr == "value" else 1
        if n < 1 or array.ndim != ndim or array.shape[0] != n or array.dtype.hasobject:
            return f"{attr} does not have one entry per node"
    if arrays["value"].shape[1] < 1:
        return "value has no classes"
    return _dtype_problem(arrays) or _structure_problem(arrays, n, n_features)


def _dtype_problem(arrays: dict) -> str | None:
    for attr in _INTEGER:
        if arrays[attr].dtype.kind not in "iu":
            return f"{attr} does not hold integers (it holds {arrays[attr].dtype})"
    for attr in _FLOAT:
        if arrays[attr].dtype.kind != "f":
            return f"{attr} does not hold real numbers (it holds {arrays[attr].dtype})"
    if arrays["grafted"].dtype.kind != "b":
        return f"grafted does not hold truth values (it holds {arrays['grafted'].dtype})"
    return None


def _structure_problem(arrays: dict, n: int, n_features: int) -> str | None:
    children = []
    for attr in ("children_left", "children_right", "children_middle"):
        child = arrays[attr]
        if not np.all((child >= -1) & (child < n)):
            return f"{attr} names a node that is not in the tree"
        children.append(child[child >= 0])
    # one parent per node and none for the root: then no walk from the root meets a
    # node twice (a cycle it can reach would give its first node two parents)
    parents = np.bincount(np.concatenate(children).astype(np.intp), minlength=n)
    if parents[0] or np.any(parents > 1):
        return "a node is the child of two splits, or of its own subtree"
    inner = arrays["children_left"] != -1
    feature = arrays["feature"]
    if np.any(arrays["children_right"][inner] == -1):
        return "a split has no right child"
    if np.any((feature[inner] < 0) | (feature[inner] >= n_features)):
        return f"a split tests a feature outside the model's {n_features}"
    return None


def _values_problem(tree: Any) -> str | None:
    """What is wrong with the values of a tree of sound structure, or None; when nothing
    is, its arrays are given the dtypes the kernels take (native byte order)."""
    arrays = {attr: getattr(tree, attr) for attr in tree._ARRAYS}
    problem = _numbers_problem(arrays)
    if problem is None:
        for attr, array in arrays.items():
            dtype = np.intp if attr in _INTEGER else np.float64 if attr in _FLOAT else bool
            setattr(tree, attr, np.ascontiguousarray(array, dtype=dtype))
    return problem


def _numbers_problem(arrays: dict) -> str | None:
    inner = arrays["children_left"] != -1
    threshold, delta, value = arrays["threshold"], arrays["delta"], arrays["value"]
    with np.errstate(over="ignore", invalid="ignore"):
        if not np.all(np.isfinite(threshold)):
            return "a threshold is not a finite number"
        if not np.all(np.isfinite(delta) & (delta >= 0)):
            return "a zone half-width δ is not a finite number ≥ 0"
        if not np.all(np.isfinite(np.abs(threshold[inner]) + 2 * delta[inner])):
            return "a zone's ends θ ± δ are beyond the floating-point range"
        if not np.all(np.isfinite(value) & (value >= 0)):
            return "a class distribution holds a value that is negative or not finite"
        if not np.allclose(value.sum(axis=1), 1.0, rtol=0, atol=1e-6):
            return "a class distribution does not sum to 1"
    weights = arrays["weighted_n_node_samples"]
    if np.any(arrays["n_node_samples"] < 0) or not np.all(np.isfinite(weights) & (weights >= 0)):
        return "a node's count of training rows is negative or not finite"
    if not np.all(np.isfinite(arrays["impurity"])):
        return "an impurity is not a finite number"
    return None
