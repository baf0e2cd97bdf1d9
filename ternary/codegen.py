"""What the SQL and Python exporters share: exact constants, float32 boundaries, tree plans.

The library casts every input row to float32 (as scikit-learn's trees do) and then compares
``float64(float32(x))`` with thresholds and zone edges held in float64, and blends with the
same float64 value of the float32 row. An exported model must reproduce both on the raw
double a database or a caller holds, so this module provides:

* `f32_le` — the boundary ``b`` and strictness with ``float32(x) ≤ t ⟺ x ≤ b`` (or ``x < b``).
  Rounding a double to float32 (round to nearest, ties to even) is monotone, so the set of
  doubles that round to at most ``t`` is a half-line. Its end is the midpoint ``m`` of the
  largest float32 ``F ≤ t`` and the next float32 up (a midpoint of two floats is a double,
  exactly); ``m`` itself rounds to whichever of the two has an even last bit, so the test is
  ``x ≤ m`` when that is ``F``, ``x < m`` otherwise.
* `sql_number` — a double as SQL text that every engine reads exactly: an integer
  significand (read exactly by any parser) scaled by exact divisions or multiplications by
  powers of two. Shortest decimal forms are not enough: SQLite 3.40 reads about one in
  40,000 of them one unit in the last place off, and a zone edge one ulp off moves a row.
* `tree_plan` — one tree's arrays in the form both exporters walk: preorder, depths, zone
  edges, the blend's constants, and which of the library's two blend kernels its size picks.

Only public fitted attributes are read (``tree_`` arrays, ``classes_``), so the exporters
follow the model, not the library's internals, except `blend_kernel_limit`: the leaf count
up to which the library blends with the dense kernel, whose weight formula differs from the
per-row walk's in the last bit.

The module is public so that another exporter (another SQL dialect, a spreadsheet, C) can
reuse the exact float32 boundaries and the tree plan instead of re-deriving them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "F32_OVERFLOW",
    "F32_SUBNORMAL",
    "MAX_EXPORT_NODES",
    "TreePlan",
    "blend_kernel_limit",
    "check_export_size",
    "export_label",
    "f32_le",
    "feature_names",
    "forest_min_decided",
    "members",
    "sql_number",
    "tree_plan",
]

#: Doubles of at least this magnitude round to ±inf in float32 (the library then refuses the
#: row): the midpoint of the largest float32 and 2**128, which rounds up (ties to even).
F32_OVERFLOW = 2.0**128 - 2.0**103
#: Below this magnitude float32 is subnormal (fewer significand bits than 24).
F32_SUBNORMAL = 2.0**-126
#: The most nodes (over all trees) an exporter writes: about 1 MB of SQL or 2.4 MB of Python
#: (15,351 nodes gave 1.8 MB that compiled in 4.5 s and +200 MB at load 9 on 2 cores); the
#: app's largest forest has about 100,000 nodes, which would take megabytes and gigabytes.
MAX_EXPORT_NODES = 20_000


def blend_kernel_limit() -> int:
    """Return the leaf count up to which the library blends with its dense kernel.

    A tree with at most this many leaf slots is blended by the dense kernel, whose left
    weight formula differs from the per-row walk's in the last bit (see `TreePlan.dense`).

    Returns
    -------
    int
        The largest number of leaves blended by the dense kernel.
    """
    from ternary.tree.kernels import MAX_DENSE_LEAVES

    return int(MAX_DENSE_LEAVES)


def f32_le(t: float) -> tuple[float, bool]:
    """Return the double boundary ``b`` with ``float32(x) ≤ t`` exactly when ``x ≤ b``.

    The test on the raw double ``x`` is ``x ≤ b`` when ``inclusive`` is True and ``x < b``
    otherwise. It holds for every double ``x`` that the float32 cast keeps finite.

    Parameters
    ----------
    t : float
        Any double: a threshold or zone edge that the library compares with
        ``float64(float32(x))``.

    Returns
    -------
    b : float
        The midpoint of the largest float32 ``F ≤ t`` and the next float32 up (``2**128``
        above the largest finite float32, so ``F32_OVERFLOW`` for any finite ``t`` beyond
        float32's range); ``-F32_OVERFLOW`` when ``t`` is below every finite float32, and
        ``inf`` when ``t`` is ``inf``.
    inclusive : bool
        True when ``b`` itself rounds down to ``F`` (``F`` has an even last bit), so the
        test is ``x ≤ b``; False when it is ``x < b``.

    Examples
    --------
    >>> from ternary.codegen import f32_le
    >>> f32_le(0.1)
    (0.09999999776482582, True)
    """
    t = float(t)
    # beyond float32's range the cast and the steps give ±inf, which is meant: silence them
    with np.errstate(over="ignore"):
        low = np.float32(t)
        if float(low) > t:  # rounded up: step down to the largest float32 ≤ t
            low = np.nextafter(low, np.float32(-np.inf))
        if np.isneginf(low):  # t below every finite float32: only -inf qualifies
            return -F32_OVERFLOW, True
        up = np.nextafter(low, np.float32(np.inf))
    top = 2.0**128 if np.isinf(up) else float(up)
    middle = (float(low) + top) / 2.0  # exact: two float32 and their midpoint fit a double
    even = int(np.array(low, dtype=np.float32).view(np.uint32)) % 2 == 0
    return middle, bool(even)


def sql_number(value: float) -> str:
    """Write a finite double as SQL text that SQLite and DuckDB read back bit for bit.

    Integers below 2**53 are written as ``123e0`` (an exponent makes DuckDB read a DOUBLE,
    not a DECIMAL); others as ``(M e0 / 2**k …)``, an odd integer significand and exact
    divisions (or multiplications) by powers of two of at most 2**62.

    Parameters
    ----------
    value : float
        The double to write; it must be finite.

    Returns
    -------
    str
        An SQL expression whose value is exactly ``value``.

    Raises
    ------
    ValueError
        If ``value`` is NaN or infinite.

    Examples
    --------
    >>> from ternary.codegen import sql_number
    >>> sql_number(3.0), sql_number(0.5)
    ('3e0', '(1e0/2)')
    """
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"cannot write {value!r} as an SQL number; the model holds a non-finite")
    if value == 0.0:
        return "0e0"
    mantissa, exponent = math.frexp(value)
    significand, power = int(mantissa * 2**53), exponent - 53
    while significand % 2 == 0:
        significand //= 2
        power += 1
    if 0 <= power and abs(significand) * 2**power < 2**53:
        return f"{significand * 2**power}e0"
    text = f"{significand}e0"
    while power > 0:
        step = min(power, 62)
        text += f"*{2**step}"
        power -= step
    while power < 0:
        step = min(-power, 62)
        text += f"/{2**step}"
        power += step
    return f"({text})"


@dataclass
class TreePlan:
    """One fitted tree, arranged for code generation.

    Every list holds one entry per node, indexed by node id (the root is 0), as in the
    estimator's ``tree_``. Build one with `tree_plan`.

    Parameters
    ----------
    left, right, middle : list of int
        The left, right and middle child of each node; ``-1`` where there is none (a leaf
        has none; only ``routing="hard_middle"`` grows middle children).
    feature : list of int
        The feature each split tests; ``-2`` at leaves.
    threshold, delta : list of float
        Each split's threshold θ and zone half-width δ (0 where the split has no zone).
    lo, hi : list of float
        The zone's edges ``θ − δ`` and ``θ + δ``, computed in float64 as the library does.
    value : ndarray of shape (node_count, n_classes)
        Each node's class distribution, as in ``tree_.value``.
    preorder : list of int
        The reachable nodes, parents first and the left subtree before the right (the
        order in which the blend sums the leaves).
    depth : list of int
        Each node's depth (the root is at depth 0).
    routing : str
        The estimator's ``routing``: "probabilistic", "hard_middle" or "deferred".
    dense : bool
        True when the library blends this tree with its dense kernel (at most
        `blend_kernel_limit` leaves): a split's left weight is then
        ``clip((θ+δ−x)·(0.5/δ), 0, 1)`` wherever δ > 0 and ``0.5/δ`` is finite, outside the
        zone too; with more leaves the per-row walk uses ``clip((θ+δ−x)/(2δ), 0, 1)`` inside
        the zone and exactly 1 or 0 outside. The two differ in the last bit only.
    inv_two_delta : list of float
        ``0.5/δ`` at each split with δ > 0 (inf where it overflows); 0 elsewhere.
    classes : ndarray of shape (n_classes,)
        This tree's own class labels (a forest member may lack some of the forest's).
    zone_edges : {"closed", "open"}, default="closed"
        The tree's ``zone_edges``: whether a zone holds its upper end θ+δ. The zone's
        tests compare with `top` (the blend's weights with `hi`).
    """

    left: list
    right: list
    middle: list
    feature: list
    threshold: list
    delta: list
    lo: list
    hi: list
    value: np.ndarray
    preorder: list
    depth: list
    routing: str
    dense: bool
    inv_two_delta: list
    classes: np.ndarray
    zone_edges: str = "closed"

    def top(self, node: int) -> float:
        """Return the bound ``b`` of a zone's upper test ``x ≤ b`` (float32 ``x`` widened).

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        float
            ``hi[node]`` when the zone is closed; the largest double below it when open
            (``x < θ+δ`` is ``x ≤ b`` for every double, see `ternary.tree.zone_top`).
        """
        from ternary.tree import zone_top  # the one definition of the open zone's bound

        return float(zone_top(self.hi[node], self.zone_edges))

    @property
    def node_count(self) -> int:
        """Number of nodes in the tree's arrays, reachable or not."""
        return len(self.left)

    def is_leaf(self, node: int) -> bool:
        """Tell whether a node is a leaf (it has no left child).

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        bool
            True when ``node`` is a leaf.
        """
        return self.left[node] == -1

    def zoned(self, node: int) -> bool:
        """Tell whether a node is a split with an uncertainty zone.

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        bool
            True when ``node`` is a split with δ > 0 and, for ``routing="hard_middle"``, a
            middle child; False at leaves and at splits that route every row hard.
        """
        if self.is_leaf(node) or not self.delta[node] > 0.0:
            return False
        return self.routing != "hard_middle" or self.middle[node] != -1

    def soft(self, node: int) -> bool:
        """Tell whether the dense kernel ramps a split's left weight.

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        bool
            True when δ > 0 and ``0.5/δ`` is finite, so the dense kernel's left weight is
            ``clip((θ+δ−x)·(0.5/δ), 0, 1)``; False when the split routes every row hard.
        """
        return self.delta[node] > 0.0 and math.isfinite(self.inv_two_delta[node])

    def children(self, node: int) -> list[int]:
        """List a node's children.

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        list of int
            The left, right and middle children that exist, in that order (empty at a leaf).
        """
        kids = (self.left[node], self.right[node], self.middle[node])
        return [k for k in kids if k != -1]

    def leaves(self) -> list[int]:
        """List the reachable leaves.

        Returns
        -------
        list of int
            The leaves reachable from the root, in `preorder` (the blend's sum order).
        """
        return [n for n in self.preorder if self.is_leaf(n)]

    def through_middle(self) -> set[int]:
        """Find the nodes whose path from the root takes a middle branch.

        Returns
        -------
        set of int
            Every node below some middle child, the middle children included (empty unless
            ``routing="hard_middle"``).
        """
        seen: set[int] = set()
        for node in self.preorder:
            for child in self.children(node):
                if node in seen or child == self.middle[node]:
                    seen.add(child)
        return seen


def tree_plan(estimator) -> TreePlan:
    """Arrange a fitted tree for code generation.

    Only the estimator's public fitted attributes are read: ``tree_``, ``classes_`` and
    ``routing``; the preorder and the depths are the tree's own
    (`ternary.tree.TernaryTree.preorder`, `ternary.tree.TernaryTree.node_depth`).

    Parameters
    ----------
    estimator : TernaryTreeClassifier
        A fitted tree, alone or a member of a fitted `TernaryForestClassifier`.

    Returns
    -------
    TreePlan
        Its arrays as lists, with the zone edges, the preorder, the depths and the blend's
        constants.
    """
    tree = estimator.tree_
    left = [int(v) for v in tree.children_left]
    right = [int(v) for v in tree.children_right]
    middle = [int(v) for v in tree.children_middle]
    threshold = [float(v) for v in tree.threshold]
    delta = [float(v) for v in tree.delta]
    # the very float64 operations the library performs
    lo = [t - d for t, d in zip(threshold, delta, strict=True)]
    hi = [t + d for t, d in zip(threshold, delta, strict=True)]
    with np.errstate(divide="ignore", over="ignore"):
        inv = np.where(np.asarray(delta) > 0, 0.5 / np.where(np.asarray(delta) > 0, delta, 1.0), 0)
    n_leaves = sum(1 for v in left if v == -1)  # every leaf slot, as the library counts
    return TreePlan(
        left=left,
        right=right,
        middle=middle,
        feature=[int(v) for v in tree.feature],
        threshold=threshold,
        delta=delta,
        lo=lo,
        hi=hi,
        value=np.asarray(tree.value, dtype=np.float64),
        # the tree's own walk order and depths (unreachable nodes at depth 0)
        preorder=tree.preorder(),
        depth=tree.node_depth().tolist(),
        routing=estimator.routing,
        dense=n_leaves <= blend_kernel_limit(),
        inv_two_delta=[float(v) for v in inv],
        classes=np.asarray(estimator.classes_),
        zone_edges=str(tree.zone_edges),
    )


def feature_names(model, columns) -> list[str]:
    """Name the column of each feature in the exported code.

    Parameters
    ----------
    model : TernaryTreeClassifier or TernaryForestClassifier
        A fitted model.
    columns : sequence of str or None
        One column name per feature, in the order the model was fitted with; None to use
        the model's ``feature_names_in_``, or ``x0, x1, …`` when it was fitted without names.

    Returns
    -------
    list of str
        ``n_features_in_`` column names.

    Raises
    ------
    ValueError
        If ``columns`` does not hold one name per feature.
    """
    n = int(model.n_features_in_)
    if columns is not None:
        names = [str(c) for c in columns]
        if len(names) != n:
            raise ValueError(
                f"columns has {len(names)} names; the model has {n} features. Pass one "
                "column name per feature, in the order the model was fitted with."
            )
        return names
    fitted = getattr(model, "feature_names_in_", None)
    return [str(v) for v in fitted] if fitted is not None else [f"x{i}" for i in range(n)]


def members(model) -> list:
    """List the fitted trees an exporter writes.

    Parameters
    ----------
    model : TernaryTreeClassifier or TernaryForestClassifier
        The model to export.

    Returns
    -------
    list of TernaryTreeClassifier
        A forest's member trees (its ``estimators_``), or ``[model]`` for a single tree.

    Raises
    ------
    TypeError
        If ``model`` is a pipeline or not a ternary tree or forest.
    sklearn.exceptions.NotFittedError
        If ``model`` is not fitted.
    """
    from sklearn.utils.validation import check_is_fitted

    if hasattr(model, "steps"):
        raise TypeError(
            "This exports a TernaryTreeClassifier or TernaryForestClassifier, not a pipeline: "
            "its preprocessing would not be in the code. Export the last step "
            "(pipeline[-1]) and feed it the preprocessed columns."
        )
    if not hasattr(model, "routing") or not hasattr(model, "delta_method"):
        raise TypeError(
            "Expected a TernaryTreeClassifier or TernaryForestClassifier; got "
            f"{type(model).__name__}."
        )
    if hasattr(model, "estimators_") or hasattr(model, "n_estimators"):
        check_is_fitted(model, "estimators_")
        return list(model.estimators_)
    check_is_fitted(model, "tree_")
    return [model]


def check_export_size(trees, exporter: str) -> None:
    """Refuse a model with more than `MAX_EXPORT_NODES` nodes over all its trees.

    Both exporters share this cap: generated code grows linearly with the nodes, and a large
    forest would give megabytes of SQL or Python that take seconds and gigabytes to load.

    Parameters
    ----------
    trees : list of TernaryTreeClassifier
        The fitted trees to write (`members` of the model).
    exporter : str
        The exporter's name, for the message ("export_sql", "export_python").

    Raises
    ------
    ValueError
        If the trees hold more than `MAX_EXPORT_NODES` nodes in all; the message says how
        to get a model that fits.
    """
    total = sum(int(t.tree_.node_count) for t in trees)
    if total > MAX_EXPORT_NODES:
        raise ValueError(
            f"The model has {total:,} nodes; {exporter} writes at most {MAX_EXPORT_NODES:,} "
            "(the code would run to megabytes and take seconds to load). Export a smaller "
            "model: fewer trees (n_estimators), a lower max_depth or a larger "
            "min_samples_leaf; or keep the model as a skops file, which has no size limit."
        )


def export_label(value, exporter: str):
    """Return a class label as the plain Python value an exporter writes, or refuse it.

    Exported code can return booleans, integers, finite floats and strings exactly. Other
    labels (dates, times, bytes, objects) would come back as something else, numbers or
    text that no longer equal the model's classes, so they are refused. SQL integers are
    64-bit: ``export_sql`` also refuses integers outside ``[-2**63, 2**63)`` (a uint64
    label of 2**63 or more), which SQLite would return as a rounded float.

    Parameters
    ----------
    value : object
        One entry of the model's ``classes_``.
    exporter : str
        "export_sql" or "export_python".

    Returns
    -------
    bool, int, float or str
        The label as a plain Python value.

    Raises
    ------
    ValueError
        If the label cannot be written exactly; the message says to refit with string (or
        small integer) labels.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.codegen import export_label
    >>> export_label(np.int64(3), "export_sql"), export_label(np.str_("ash"), "export_sql")
    (3, 'ash')
    """
    timelike = isinstance(value, np.datetime64 | np.timedelta64)
    item = value.item() if isinstance(value, np.generic) else value
    plain = isinstance(item, bool | int | float | str) and not timelike
    if plain and isinstance(item, float):
        plain = math.isfinite(item)
    if plain and isinstance(item, int) and exporter == "export_sql":
        plain = -(2**63) <= item < 2**63
    if not plain:
        raise ValueError(
            f"{exporter} cannot write the class label {value!r} ({type(value).__name__}) "
            "exactly: exported code returns booleans, integers (64-bit in SQL), finite floats "
            "and strings. Convert the labels to strings (for example y.astype(str)) and refit."
        )
    return item


def forest_min_decided(model) -> int:
    """Count the fewest deciding trees for which a forest's verdict is 1 (decided).

    It is the smallest count ``≥ min_decided_fraction · n_estimators``, found with the same
    float tolerance as the forest's own test.

    Parameters
    ----------
    model : TernaryForestClassifier
        A fitted forest.

    Returns
    -------
    int
        The number of member trees that must decide a row for the forest to decide it.
    """
    n = len(model.estimators_)
    needed = model.min_decided_fraction * n
    for count in range(n + 1):
        if count >= needed - 1e-9 * n:
            return count
    return n + 1
