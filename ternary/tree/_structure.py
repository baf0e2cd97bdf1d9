"""`TernaryTree`, the flat per-node arrays of a fitted tree, and `TreeBuilder`.

`TernaryTree` keeps parallel per-node arrays in scikit-learn's layout (root 0,
``-1`` for an absent child, feature ``-2`` at a leaf), plus a middle child for
hard-middle trees, a δ per node and a ``grafted`` flag. Trees not grown by CART
(hard-middle growth, grafting) are built through one `TreeBuilder`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ternary.tree._criterion import impurity

__all__ = ["LEAF", "UNDEFINED", "ZONE_EDGES", "TernaryTree", "TreeBuilder", "zone_top"]

LEAF = -1  #: child index marking "no child"
UNDEFINED = -2  #: feature/threshold at a leaf, as in scikit-learn
#: The names ``zone_edges`` accepts: the zone ``θ−δ < x < θ+δ`` ("open", where the blend is
#: two-sided) or the paper's ``θ−δ < x ≤ θ+δ`` ("closed").
ZONE_EDGES = ("open", "closed")


def zone_top(high, zone_edges: str):
    """The bound ``b`` of a zone's upper test ``x ≤ b``, for a zone ending at ``high = θ+δ``.

    The closed zone holds ``x ≤ θ+δ``, so ``b = θ+δ``; the open zone holds ``x < θ+δ``,
    which for every double ``x`` (a float32 row widened exactly, as the library compares)
    is ``x ≤ b`` with ``b`` the largest double below ``θ+δ``. Every walk then keeps one
    comparison, ``x ≤ b`` (zone) against ``x > b`` (right of the zone), for both settings.

    Parameters
    ----------
    high : float or ndarray of float64
        The zone's upper end θ+δ, computed in float64.
    zone_edges : {"open", "closed"}
        The setting.

    Returns
    -------
    float64 or ndarray of float64
        ``high`` itself ("closed") or the double just below it ("open").

    Examples
    --------
    >>> from ternary.tree import zone_top
    >>> float(zone_top(0.5, "closed")), float(zone_top(0.5, "open")) < 0.5
    (0.5, True)
    """
    high = np.asarray(high, dtype=np.float64)
    top = np.nextafter(high, -np.inf) if zone_edges == "open" else high
    return top[()] if top.ndim == 0 else top


class TernaryTree:
    """Flat arrays describing a fitted ternary tree.

    One entry per node, indexed by node id; the root is node 0. Every argument is
    keyword-only and is stored under its own name, converted to the dtype listed under
    Attributes.

    Parameters
    ----------
    children_left, children_right : array-like of int, shape (node_count,)
        The left (``x ≤ θ``) and right (``x > θ``) child of each node, ``-1`` where
        absent. A node is a leaf exactly when its left child is ``-1``.
    children_middle : array-like of int, shape (node_count,), optional
        The middle child (the uncertainty zone's branch) of each node, ``-1`` where
        absent; only hard-middle trees have middle children. Default: none anywhere.
        Routed ``"hard_middle"``, a split without one routes like CART (``x ≤ θ``).
    feature : array-like of int, shape (node_count,)
        The feature each split tests; ``-2`` at leaves.
    threshold : array-like of float, shape (node_count,)
        Each split's threshold θ, in the units of its feature; ``-2`` at leaves.
    delta : array-like of float, shape (node_count,), optional
        Each split's uncertainty half-width δ ≥ 0, in the units of its feature: the zone
        is ``θ − δ < x ≤ θ + δ`` (``< θ + δ`` with open ``zone_edges``). 0 at leaves and
        at splits without a zone. Default: 0 everywhere.
    value : array-like of float, shape (node_count, n_classes)
        The (weighted) class counts or distribution of each node. Each row is normalised
        to sum to 1; a row summing to 0 becomes uniform.
    n_node_samples : array-like of int, shape (node_count,)
        The number of training rows reaching each node.
    weighted_n_node_samples : array-like of float, shape (node_count,), optional
        Their total sample weight. Default: ``n_node_samples`` (unit weights).
    impurity : array-like of float, shape (node_count,)
        Each node's impurity under the criterion the tree was grown with.
    grafted : array-like of bool, shape (node_count,), optional
        True for the nodes that grafting added. Default: False everywhere.

    Attributes
    ----------
    children_left, children_right, children_middle : ndarray of intp, shape (node_count,)
        The child ids, ``-1`` where absent.
    feature : ndarray of intp, shape (node_count,)
        The split features (``-2`` at leaves).
    threshold, delta : ndarray of float64, shape (node_count,)
        The thresholds θ (``-2`` at leaves) and half-widths δ (0 at leaves).
    value : ndarray of float64, shape (node_count, n_classes)
        The class distribution of each node; every row sums to 1.
    n_node_samples : ndarray of intp, shape (node_count,)
        The training rows reaching each node.
    weighted_n_node_samples, impurity : ndarray of float64, shape (node_count,)
        Their weight, and each node's impurity.
    grafted : ndarray of bool, shape (node_count,)
        True for the nodes that grafting added.
    zone_edges : {"closed", "open"}
        Whether a zone holds its upper end θ+δ: "closed" is the paper's
        ``θ−δ < x ≤ θ+δ``, "open" is ``θ−δ < x < θ+δ``, only the rows the blend sends
        both ways (see `TernaryTreeClassifier`'s ``zone_edges``). Every walk of the tree
        reads it. "closed", the paper's, for a tree built here (assign the attribute to
        change it) and for a tree pickled before the setting existed; the estimators set
        their own.

    Examples
    --------
    A stump on feature 0 at θ = 0.5 with a zone of half-width 0.1:

    >>> from ternary.tree import TernaryTree
    >>> tree = TernaryTree(
    ...     children_left=[1, -1, -1],
    ...     children_right=[2, -1, -1],
    ...     feature=[0, -2, -2],
    ...     threshold=[0.5, -2, -2],
    ...     delta=[0.1, 0, 0],
    ...     value=[[3, 1], [3, 0], [0, 1]],
    ...     n_node_samples=[4, 3, 1],
    ...     impurity=[0.375, 0, 0],
    ... )
    >>> tree
    TernaryTree(node_count=3, n_leaves=2, max_depth=1, n_classes=2)
    >>> tree.value[0].tolist()
    [0.75, 0.25]
    """

    _ARRAYS = (
        "children_left",
        "children_right",
        "children_middle",
        "feature",
        "threshold",
        "delta",
        "value",
        "n_node_samples",
        "weighted_n_node_samples",
        "impurity",
        "grafted",
    )
    #: the class default serves trees pickled before the setting existed: the paper's zone
    zone_edges: str = "closed"

    def __init__(
        self,
        *,
        children_left: ArrayLike,
        children_right: ArrayLike,
        children_middle: ArrayLike | None = None,
        feature: ArrayLike,
        threshold: ArrayLike,
        delta: ArrayLike | None = None,
        value: ArrayLike,
        n_node_samples: ArrayLike,
        weighted_n_node_samples: ArrayLike | None = None,
        impurity: ArrayLike,
        grafted: ArrayLike | None = None,
    ) -> None:
        self.children_left = np.asarray(children_left, dtype=np.intp)
        n = self.children_left.shape[0]
        self.children_right = np.asarray(children_right, dtype=np.intp)
        self.children_middle = (
            np.full(n, LEAF, dtype=np.intp)
            if children_middle is None
            else np.asarray(children_middle, dtype=np.intp)
        )
        self.feature = np.asarray(feature, dtype=np.intp)
        self.threshold = np.asarray(threshold, dtype=np.float64)
        self.delta = np.zeros(n) if delta is None else np.asarray(delta, dtype=np.float64)
        value = np.asarray(value, dtype=np.float64)
        sums = value.sum(axis=1, keepdims=True)
        self.value = np.divide(
            value, sums, out=np.full_like(value, 1.0 / value.shape[1]), where=sums > 0
        )
        self.n_node_samples = np.asarray(n_node_samples, dtype=np.intp)
        self.weighted_n_node_samples = (
            self.n_node_samples.astype(np.float64)
            if weighted_n_node_samples is None
            else np.asarray(weighted_n_node_samples, dtype=np.float64)
        )
        self.impurity = np.asarray(impurity, dtype=np.float64)
        self.grafted = (
            np.zeros(n, dtype=bool) if grafted is None else np.asarray(grafted, dtype=bool)
        )

    # ------------------------------------------------------------------ structure
    @property
    def node_count(self) -> int:
        """The number of nodes, leaves included."""
        return int(self.children_left.shape[0])

    @property
    def open_edges(self) -> bool:
        """True when the zones are open at θ+δ (``zone_edges == "open"``)."""
        return self.zone_edges == "open"

    def zone_tops(self) -> np.ndarray:
        """Each node's `zone_top`: the bound of its zone's upper test ``x ≤ b``.

        Returns
        -------
        ndarray of float64, shape (node_count,)
            ``zone_top(threshold + delta, zone_edges)`` per node (meaningful at splits
            with δ > 0).
        """
        return np.asarray(zone_top(self.threshold + self.delta, self.zone_edges))

    @property
    def n_classes(self) -> int:
        """The number of classes each node's ``value`` counts."""
        return int(self.value.shape[1])

    @property
    def is_leaf(self) -> np.ndarray:
        """A boolean per node: True where the node has no children."""
        return self.children_left == LEAF

    @property
    def n_leaves(self) -> int:
        """The number of leaves."""
        return int(self.is_leaf.sum())

    def _derived(self, name: str, compute):
        """A structure-derived array, computed on first use and kept until the children
        arrays are replaced (assigning new arrays, as every builder and loader does)."""
        key = (self.children_left, self.children_right, self.children_middle)
        cache: tuple[tuple, dict[str, object]] | None = self.__dict__.get("_structure_cache")
        if cache is None or any(a is not b for a, b in zip(cache[0], key, strict=True)):
            cache = (key, {})
            self.__dict__["_structure_cache"] = cache
        if name not in cache[1]:
            cache[1][name] = compute()
        return cache[1][name]

    def _preorder(self) -> np.ndarray:
        order, stack = [], [0] if self.node_count else []
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(reversed(self.children(node)))
        return np.array(order, dtype=np.intp)

    def _preorder_array(self) -> np.ndarray:
        """`preorder` as an array of intp, computed once per tree structure (shared: never
        write to it).

        Returns
        -------
        ndarray of intp
            The reachable node ids, each parent before its children.
        """
        return self._derived("preorder", self._preorder)

    def preorder(self) -> list[int]:
        """Node ids reachable from the root, parents before children.

        Ids need not be in preorder themselves (grafting appends new split
        nodes above existing leaves), so walks go through this list. Computed once per
        tree structure (see `_preorder_array`).

        Returns
        -------
        list of int
            The reachable node ids, each parent before its children.
        """
        return self._preorder_array().tolist()

    def _node_depth(self) -> np.ndarray:
        depth = np.zeros(self.node_count, dtype=np.intp)
        for node in self._preorder_array().tolist():
            for child in self.children(node):
                depth[child] = depth[node] + 1
        return depth

    def node_depth(self) -> np.ndarray:
        """Depth of every node (root 0).

        Returns
        -------
        ndarray of shape (node_count,)
            The depth of each node, in splits from the root.
        """
        return self._derived("depth", self._node_depth).copy()

    @property
    def max_depth(self) -> int:
        """The depth of the deepest node (a lone leaf has depth 0)."""
        if not self.node_count:
            return 0
        return self._derived("max_depth", lambda: int(self.node_depth().max()))

    def children(self, node: int) -> list[int]:
        """Existing children of ``node``: left, right, then middle.

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        list of int
            The children's ids; empty for a leaf.
        """
        kids = (self.children_left[node], self.children_right[node], self.children_middle[node])
        return [int(k) for k in kids if k != LEAF]

    def parents(self) -> np.ndarray:
        """Parent of every node (−1 at the root).

        Returns
        -------
        ndarray of shape (node_count,)
            The parent's id of each node.
        """
        parent = np.full(self.node_count, LEAF, dtype=np.intp)
        for node in self.preorder():
            for child in self.children(node):
                parent[child] = node
        return parent

    def _through_middle(self) -> np.ndarray:
        mask = np.zeros(self.node_count, dtype=bool)
        for node in self._preorder_array().tolist():
            m = self.children_middle[node]
            if m != LEAF:
                mask[m] = True
            if mask[node]:
                for child in self.children(node):
                    mask[child] = True
        return mask

    def reached_through_middle(self) -> np.ndarray:
        """True for nodes whose path from the root takes a middle branch.

        Computed once per tree structure.

        Returns
        -------
        ndarray of shape (node_count,), bool
            The mask over the nodes.
        """
        return self._derived("middle", self._through_middle).copy()

    @classmethod
    def from_sklearn(cls, tree, columns: np.ndarray, n_classes: int) -> TernaryTree:
        """A `TernaryTree` with δ = 0 from scikit-learn's fitted ``tree_`` (one output).

        ``columns`` are the class codes of scikit-learn's value columns (a CART only
        knows the classes it saw with positive weight); the other classes get 0.
        """
        value = np.zeros((tree.node_count, n_classes))
        value[:, columns] = tree.value[:, 0, :]
        return cls(
            children_left=tree.children_left,
            children_right=tree.children_right,
            feature=tree.feature,
            threshold=tree.threshold,
            value=value,
            n_node_samples=tree.n_node_samples,
            weighted_n_node_samples=tree.weighted_n_node_samples,
            impurity=tree.impurity,
        )

    def __getstate__(self):
        # the structure cache is rebuilt on first use after loading, never saved
        state = self.__dict__.copy()
        state.pop("_structure_cache", None)
        return state

    def copy(self) -> TernaryTree:
        """An independent copy, bit for bit (no renormalisation of ``value``).

        Returns
        -------
        TernaryTree
            The copy; no array is shared with this tree.
        """
        new = TernaryTree.__new__(TernaryTree)
        for name in self._ARRAYS:
            setattr(new, name, getattr(self, name).copy())
        new.zone_edges = self.zone_edges
        return new

    def __repr__(self) -> str:
        return (
            f"TernaryTree(node_count={self.node_count}, n_leaves={self.n_leaves}, "
            f"max_depth={self.max_depth}, n_classes={self.n_classes})"
        )


class TreeBuilder:
    """Grow a `TernaryTree` node by node: the one way trees are built outside CART.

    Hard-middle growth starts empty and appends nodes in preorder; grafting starts
    from a fitted tree and appends split/leaf pairs after its nodes. Each node is
    added with its class counts (the impurity is computed from them) and linked to
    its parent with `set_child`, which also keeps the parent of every node.

    Parameters
    ----------
    n_classes : int
        The number of classes: the length of every node's class counts and ``value`` row.
    tree : TernaryTree, optional
        A tree to extend. Its nodes keep their ids, and `build` gives them back their
        ``value`` rows bit for bit (the constructor would renormalise them).

    Attributes
    ----------
    n_classes : int
        The number of classes.

    Examples
    --------
    >>> from ternary.tree import TreeBuilder
    >>> builder = TreeBuilder(n_classes=2)
    >>> def add(counts):
    ...     return builder.add_node(
    ...         counts,
    ...         n_node_samples=int(sum(counts)),
    ...         weighted_n_node_samples=sum(counts),
    ...         criterion="gini",
    ...     )
    >>> root, left, right = add([3.0, 1.0]), add([3.0, 0.0]), add([0.0, 1.0])
    >>> builder.set_split(root, feature=0, threshold=0.5, delta=0.1)
    >>> builder.set_child(root, "children_left", left)
    >>> builder.set_child(root, "children_right", right)
    >>> tree = builder.build()
    >>> tree.children_left.tolist(), tree.impurity.tolist()
    ([1, -1, -1], [0.375, 0.0, 0.0])
    """

    _SLOTS = ("children_left", "children_right", "children_middle")

    def __init__(self, n_classes: int, tree: TernaryTree | None = None) -> None:
        self.n_classes = int(n_classes)
        if tree is None:
            self._arrays: dict[str, list] = {name: [] for name in TernaryTree._ARRAYS}
            self._parent: list[int] = []
            self._original_value = None
        else:
            self._arrays = {name: list(getattr(tree, name)) for name in TernaryTree._ARRAYS}
            self._parent = [int(p) for p in tree.parents()]
            self._original_value = tree.value

    @property
    def node_count(self) -> int:
        """The number of nodes added so far (a tree being extended counts its own)."""
        return len(self._arrays["children_left"])

    def add_node(
        self,
        counts: np.ndarray,
        *,
        n_node_samples: int,
        weighted_n_node_samples: float,
        criterion: str,
        value: np.ndarray | None = None,
        grafted: bool = False,
    ) -> int:
        """Append a leaf and return its id.

        `set_split` makes it a split node; `set_child` hangs it under its parent.

        Parameters
        ----------
        counts : array-like of float, shape (n_classes,)
            The weighted class counts of the training rows reaching the node; its impurity
            is computed from them.
        n_node_samples : int
            The number of training rows reaching the node.
        weighted_n_node_samples : float
            Their total sample weight.
        criterion : {"gini", "entropy", "log_loss"}
            The impurity to store for the node.
        value : array-like of float, shape (n_classes,), optional
            Its class distribution (or counts) before the normalisation in `build`.
            Default: ``counts``.
        grafted : bool, default=False
            True for a node that grafting adds.

        Returns
        -------
        int
            The new node's id (the node count before it was added).
        """
        counts = np.asarray(counts, dtype=np.float64)
        node = self.node_count
        fields = {
            "children_left": LEAF,
            "children_right": LEAF,
            "children_middle": LEAF,
            "feature": UNDEFINED,
            "threshold": float(UNDEFINED),
            "delta": 0.0,
            "value": counts if value is None else np.asarray(value, dtype=np.float64),
            "n_node_samples": int(n_node_samples),
            "weighted_n_node_samples": float(weighted_n_node_samples),
            "impurity": float(impurity(counts, criterion)),
            "grafted": bool(grafted),
        }
        for name in TernaryTree._ARRAYS:
            self._arrays[name].append(fields[name])
        self._parent.append(LEAF)
        return node

    def set_split(self, node: int, feature: int, threshold: float, delta: float = 0.0) -> None:
        """Make a node a split testing ``x[feature]`` against ``threshold``.

        Parameters
        ----------
        node : int
            The node's id.
        feature : int
            The feature the split tests.
        threshold : float
            Its threshold θ: ``x ≤ θ`` goes left, ``x > θ`` right.
        delta : float, default=0.0
            Its uncertainty half-width δ ≥ 0 (0: no zone).
        """
        self._arrays["feature"][node] = int(feature)
        self._arrays["threshold"][node] = float(threshold)
        self._arrays["delta"][node] = float(delta)

    def set_child(self, node: int, slot: str, child: int) -> None:
        """Hang a node under a parent, recording the parent link too.

        Parameters
        ----------
        node : int
            The parent's id.
        slot : {"children_left", "children_right", "children_middle"}
            The branch of ``node`` to hang ``child`` on; a previous child there is
            replaced.
        child : int
            The child's id.

        Raises
        ------
        ValueError
            If ``slot`` is not one of the three branch names.
        """
        if slot not in self._SLOTS:
            raise ValueError(f"slot must be one of {self._SLOTS}; got {slot!r}.")
        self._arrays[slot][node] = int(child)
        self._parent[child] = int(node)

    def slot_of(self, node: int) -> tuple[int, str]:
        """Find where a node hangs: its parent and the branch that holds it.

        Parameters
        ----------
        node : int
            A node id other than the root's.

        Returns
        -------
        parent : int
            The parent's id.
        slot : {"children_left", "children_right", "children_middle"}
            The parent's branch holding ``node``.

        Raises
        ------
        ValueError
            If ``node`` is the root or hangs under no parent.
        """
        up = self._parent[node]
        if up == LEAF:
            raise ValueError(f"node {node} is the root or detached; it sits in no slot.")
        for slot in self._SLOTS:
            if self._arrays[slot][up] == node:
                return up, slot
        raise AssertionError("parent links out of step with the child arrays")

    def value_of(self, node: int) -> np.ndarray:
        """Read the ``value`` row a node was given.

        Parameters
        ----------
        node : int
            A node id.

        Returns
        -------
        ndarray of float64, shape (n_classes,)
            Its ``value`` row as added (not yet normalised by `build`), or the extended
            tree's normalised row for its own nodes.
        """
        return np.asarray(self._arrays["value"][node], dtype=np.float64)

    def set_samples(self, node: int, n_node_samples: int, weighted_n_node_samples: float) -> None:
        """Update the training rows counted at a node.

        Parameters
        ----------
        node : int
            The node's id.
        n_node_samples : int
            The number of training rows now reaching it.
        weighted_n_node_samples : float
            Their total sample weight.
        """
        self._arrays["n_node_samples"][node] = int(n_node_samples)
        self._arrays["weighted_n_node_samples"][node] = float(weighted_n_node_samples)

    def build(self) -> TernaryTree:
        """Build the tree's flat arrays.

        Returns
        -------
        TernaryTree
            The tree, every ``value`` row normalised to sum to 1, except the rows of an
            extended tree's own nodes, which it gets back bit for bit.
        """
        value = np.array(self._arrays["value"], dtype=np.float64).reshape(-1, self.n_classes)
        fields = {
            name: np.array(self._arrays[name]) for name in TernaryTree._ARRAYS if name != "value"
        }
        tree = TernaryTree(value=value, **fields)
        if self._original_value is not None:
            tree.value[: self._original_value.shape[0]] = self._original_value
        return tree
