"""`export_python`: a fitted ternary tree or forest as one standalone Python function.

The generated source defines a single function (no import, no module state) that scores one
row the way the library does: it rounds each value to float32 in plain double arithmetic
(Veltkamp's split, exact for float32's normal range; a scaled rounding below it), routes
with the library's comparisons and blends with its kernels' operations in their order, so
its prediction, verdict and probabilities equal ``predict``, ``predict_verdict`` and
``predict_proba`` (the probabilities to the last bit in practice). The tree is held in
tuples, one entry per node, and walked by a small loop, so the source grows linearly with
the tree.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import unicodedata

import numpy as np

from ternary.codegen import (
    F32_OVERFLOW,
    F32_SUBNORMAL,
    TreePlan,
    check_export_size,
    export_label,
    feature_names,
    forest_min_decided,
    members,
    tree_plan,
)

__all__ = ["export_python"]

_BODY = """
    names = {names}
    if hasattr(row, "keys"):
        row = [row[name] for name in names]
    if len(row) != {n_features}:
        raise ValueError("expected {n_features} values, one per feature: " + ", ".join(names))
    x = []
    for value in row:
        v = float(value)
        if v != v or abs(v) >= {overflow!r}:
            raise ValueError("values must be finite and within float32's range; got %r" % value)
        if abs(v) < {subnormal!r}:
            # float32's subnormal range: a multiple of 2**-149, ties to even
            v = ((v * {scale!r} + 6755399441055744.0) - 6755399441055744.0) / {scale!r}
        else:
            # Veltkamp's split: v rounded to 24 significant bits, ties to even, as float32 does
            c = v * 536870913.0
            v = c - (c - v)
        x.append(v)

    def route(tree):
        left, right, middle, feature, threshold, lo, hi = tree[:7]
        hi = tree[13]  # the zone's upper test: θ+δ, or the double below it (open zone)
        node, decided = 0, True
        while left[node] != -1:
            v = x[feature[node]]
            if middle[node] != -1:  # hard_middle: three ways, the middle flags the row
                if v <= lo[node]:
                    node = left[node]
                elif v <= hi[node]:
                    node, decided = middle[node], False
                else:
                    node = right[node]
                continue
            if lo[node] < v <= hi[node]:
                decided = False
            node = left[node] if v <= threshold[node] else right[node]
        return node, decided

    def blend(tree):
        left, right, middle, feature, threshold, lo, hi, inv, twice, value = tree[:10]
        dense, deferred = tree[10], tree[11]
        acc = [0.0] * len(value[0])
        stack = [(0, 1.0, False)]
        while stack:
            node, w, entered = stack.pop()
            if left[node] == -1:
                for k, v in enumerate(value[node]):
                    if v != 0.0:
                        acc[k] += w * v
                continue
            v = x[feature[node]]
            hard = 1.0 if v <= threshold[node] else 0.0
            zone = lo[node] < v <= tree[13][node]
            if (deferred and entered) or not (inv[node] if dense else twice[node]):
                factor = hard
            elif dense:
                factor = min(max((hi[node] - v) * inv[node], 0.0), 1.0)
            elif zone:
                factor = min(max((hi[node] - v) / twice[node], 0.0), 1.0)
            else:
                factor = 1.0 if v <= lo[node] else 0.0
            now = entered or zone
            stack.append((right[node], w * (1.0 - factor), now))
            stack.append((left[node], w * factor, now))
        total = 0.0
        for a in acc:
            total += a
        return [a / total for a in acc]

    proba = [0.0] * {n_classes}
    votes = 0
    for tree, columns in trees:
        leaf, decided = route(tree)
        p = list(tree[9][leaf]) if decided or tree[12] else blend(tree)
        for k, column in enumerate(columns):
            proba[column] += p[k]
        votes += decided
    proba = [p / {n_trees!r} for p in proba] if {n_trees!r} > 1 else proba
    best = 0
    for k in range(1, {n_classes}):
        if proba[k] > proba[best]:
            best = k
    verdict = 1 if votes >= {min_votes} else 0
    return classes[best], verdict, proba
"""


def _literal(value) -> str:
    """``value`` as Python source that reads back equal (labels: numbers, text, booleans)."""
    item = export_label(value, "export_python")
    text = repr(item)
    try:
        same = ast.literal_eval(text) == item
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise ValueError(
            f"class label {item!r} cannot be written as a Python literal; refit with labels "
            "that are numbers or strings."
        )
    return text


def _check_name(name) -> None:
    """Refuse a function name the generated source could not define and call as given."""
    if not isinstance(name, str) or not name.isidentifier():
        why = "is not a Python identifier"
    elif keyword.iskeyword(name) or keyword.issoftkeyword(name):
        why = "is a Python keyword"
    elif name in vars(builtins):
        why = "is a built-in name (the function calls float, len, abs … itself)"
    elif unicodedata.normalize("NFKC", name) != name:
        why = "is not in NFKC form (Python would define it under another spelling)"
    else:
        return
    raise ValueError(
        f"name={name!r} {why}; pass a plain identifier such as 'predict_row' or "
        "'score_row' (letters, digits and underscores, not starting with a digit)."
    )


def _floats(values) -> str:
    return "(" + ", ".join(repr(float(v)) for v in values) + ",)"


def _ints(values) -> str:
    return "(" + ", ".join(str(int(v)) for v in values) + ",)"


def _tree_source(plan: TreePlan) -> str:
    """One tree as a tuple of per-node tuples (the layout `route` and `blend` unpack)."""
    hard_middle = plan.routing == "hard_middle"
    middle = plan.middle if hard_middle else [-1] * plan.node_count
    # only zoned splits get a zone: δ = 0 (and hard_middle splits without a middle) never flag
    zoned = [plan.zoned(n) for n in range(plan.node_count)]
    lo = [plan.lo[n] if zoned[n] else 0.0 for n in range(plan.node_count)]
    hi = [plan.hi[n] if zoned[n] else -1.0 for n in range(plan.node_count)]
    # the zone's upper tests compare with these (open zones: the double below θ+δ)
    top = [plan.top(n) if zoned[n] else -1.0 for n in range(plan.node_count)]
    if hard_middle:
        middle = [plan.middle[n] if zoned[n] else -1 for n in range(plan.node_count)]
    inv = [plan.inv_two_delta[n] if plan.soft(n) else 0.0 for n in range(plan.node_count)]
    twice = [2.0 * d if d > 0.0 else 0.0 for d in plan.delta]
    value = "(" + ", ".join(_floats(row) for row in plan.value) + ",)"
    no_blend = hard_middle or not any(zoned)
    parts = [
        _ints(plan.left),
        _ints(plan.right),
        _ints(middle),
        _ints(plan.feature),
        _floats(plan.threshold),
        _floats(lo),
        _floats(hi),
        _floats(inv),
        _floats(twice),
        value,
        repr(plan.dense),
        repr(plan.routing == "deferred"),
        repr(no_blend),
        _floats(top),
    ]
    return "(\n            " + ",\n            ".join(parts) + ",\n        )"


def export_python(clf, *, name: str = "predict_row") -> str:
    """A fitted tree or forest as the source of one standalone Python function.

    The function takes one row (a sequence of feature values in the model's order, or a
    mapping from feature name to value) and returns ``(prediction, verdict, probabilities)``:
    the class label, 1 (decided) or 0 (boundary-uncertain), and a list of probabilities in
    the order of ``classes_``, equal to the library's ``predict``, ``predict_verdict`` and
    ``predict_proba`` for that row. It imports nothing. Like the library it raises
    ValueError for NaN, infinite or out-of-float32-range values.

    Parameters
    ----------
    clf : TernaryTreeClassifier or TernaryForestClassifier
        A fitted tree or forest.
    name : str, default="predict_row"
        The function's name: a Python identifier that is not a keyword (soft keywords
        such as ``match`` included) nor a built-in name.

    Returns
    -------
    str
        Python source defining the function.

    Raises
    ------
    ValueError
        When ``name`` is not a usable identifier; when the model has more than
        `ternary.codegen.MAX_EXPORT_NODES` nodes in all (the cap `export_sql` shares: the
        source would run to megabytes and take seconds to import); or when a class label
        cannot be written exactly (a date, bytes: refit with string labels).

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from ternary import TernaryTreeClassifier, export_python
    >>> X, y = make_moons(200, noise=0.3, random_state=0)
    >>> clf = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    >>> namespace = {}
    >>> exec(export_python(clf), namespace)
    >>> namespace["predict_row"]([0.5, 0.25])[:2]
    (1, 1)
    """
    _check_name(name)
    trees = members(clf)
    check_export_size(trees, "export_python")
    names = feature_names(clf, None)
    classes = np.asarray(clf.classes_)
    plans = [tree_plan(t) for t in trees]
    entries = []
    for plan, member in zip(plans, trees, strict=True):
        columns = np.searchsorted(classes, np.asarray(member.classes_))
        entries.append(f"        ({_tree_source(plan)}, {_ints(columns)}),")
    forest = len(trees) > 1 or hasattr(clf, "estimators_")
    min_votes = forest_min_decided(clf) if forest else 1
    kind = type(clf).__name__
    header = (
        f"def {name}(row):\n"
        f'    """Score one row as the fitted {kind} does: (prediction, verdict, probabilities).\n'
        "\n"
        "    Generated by ternary.export_python; it needs no import. verdict is 1 (decided) or\n"
        "    0 (boundary-uncertain); probabilities follow the order of `classes`.\n"
        '    """\n'
        f"    classes = ({', '.join(_literal(c) for c in classes)},)\n"
        "    trees = (\n" + "\n".join(entries) + "\n    )"
    )
    body = _BODY.format(
        names=repr(tuple(names)),
        n_features=len(names),
        overflow=F32_OVERFLOW,
        subnormal=F32_SUBNORMAL,
        scale=2.0**149,
        n_classes=classes.size,
        n_trees=len(trees),
        min_votes=min_votes,
    )
    return header + body
