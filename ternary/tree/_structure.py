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

__all__ = ["LEAF", "UNDEFINED", "TernaryTree", "TreeBuilder"]

LEAF = -1  #: child index marking "no child"
UNDEFINED = -2  #: feature/threshold at a leaf, as in scikit-learn


class TernaryTree:
    """Flat arrays describing a fitted ternary tree.

    Attributes
    ----------
    children_left, children_right, children_middle : ndarray of int
        Child node ids, ``-1`` where absent. Only hard-middle trees have middle
        children. A node is a leaf iff ``children_left == -1``.
    feature : ndarray of int, split feature (``-2`` at leaves)
    threshold : ndarray of float, θ (``-2`` at leaves)
    delta : ndarray of float, the uncertainty half-width δ (0 at leaves)
    value : ndarray of shape (node_count, n_classes), class distribution (rows sum to 1)
    n_node_samples : ndarray of int, training rows reaching the node
    weighted_n_node_samples : ndarray of float
    impurity : ndarray of float
    grafted : ndarray of bool, True for nodes that grafting added
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

    def preorder(self) -> list[int]:
        """Node ids reachable from the root, parents before children.

        Ids need not be in preorder themselves (grafting appends new split
        nodes above existing leaves), so walks go through this list.

        Returns
        -------
        list of int
            The reachable node ids, each parent before its children.
        """
        order, stack = [], [0] if self.node_count else []
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(reversed(self.children(node)))
        return order

    def node_depth(self) -> np.ndarray:
        """Depth of every node (root 0).

        Returns
        -------
        ndarray of shape (node_count,)
            The depth of each node, in splits from the root.
        """
        depth = np.zeros(self.node_count, dtype=np.intp)
        for node in self.preorder():
            for child in self.children(node):
                depth[child] = depth[node] + 1
        return depth

    @property
    def max_depth(self) -> int:
        """The depth of the deepest node (a lone leaf has depth 0)."""
        return int(self.node_depth().max()) if self.node_count else 0

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

    def reached_through_middle(self) -> np.ndarray:
        """True for nodes whose path from the root takes a middle branch.

        Returns
        -------
        ndarray of shape (node_count,), bool
            The mask over the nodes.
        """
        mask = np.zeros(self.node_count, dtype=bool)
        for node in self.preorder():
            m = self.children_middle[node]
            if m != LEAF:
                mask[m] = True
            if mask[node]:
                for child in self.children(node):
                    mask[child] = True
        return mask

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
        return new

    def __repr__(self) -> str:
        return (
            f"TernaryTree(node_count={self.node_count}, n_leaves={self.n_leaves}, "
            f"max_depth={self.max_depth}, n_classes={self.n_classes})"
        )


class TreeBuilder:
    """Grows a `TernaryTree` node by node: the one way trees are built outside CART.

    Hard-middle growth starts empty and appends nodes in preorder; grafting starts
    from a fitted tree and appends split/leaf pairs after its nodes. Each node is
    added with its class counts (the impurity is computed from them) and linked to
    its parent with `set_child`, which also keeps the parent of every node.

    Parameters
    ----------
    n_classes : int
    tree : TernaryTree, optional
        A tree to extend. Its nodes keep their ids, and `build` gives them back their
        ``value`` rows bit for bit (the constructor would renormalise them).
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

        ``counts`` are the weighted class counts its impurity is computed from;
        ``value`` (default: the counts) is its class distribution before the
        normalisation in `build`. `set_split` makes it a split node.
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
        """Make ``node`` test ``x[feature]`` against ``threshold`` with half-width ``delta``."""
        self._arrays["feature"][node] = int(feature)
        self._arrays["threshold"][node] = float(threshold)
        self._arrays["delta"][node] = float(delta)

    def set_child(self, node: int, slot: str, child: int) -> None:
        """Hang ``child`` under ``node`` in ``slot`` (one of `_SLOTS`)."""
        if slot not in self._SLOTS:
            raise ValueError(f"slot must be one of {self._SLOTS}; got {slot!r}.")
        self._arrays[slot][node] = int(child)
        self._parent[child] = int(node)

    def slot_of(self, node: int) -> tuple[int, str]:
        """``(parent, slot)`` currently holding ``node``; the root has no slot."""
        up = self._parent[node]
        if up == LEAF:
            raise ValueError(f"node {node} is the root or detached; it sits in no slot.")
        for slot in self._SLOTS:
            if self._arrays[slot][up] == node:
                return up, slot
        raise AssertionError("parent links out of step with the child arrays")

    def value_of(self, node: int) -> np.ndarray:
        """The ``value`` row ``node`` was given (not yet normalised)."""
        return np.asarray(self._arrays["value"][node], dtype=np.float64)

    def set_samples(self, node: int, n_node_samples: int, weighted_n_node_samples: float) -> None:
        """Update the training rows counted at ``node``."""
        self._arrays["n_node_samples"][node] = int(n_node_samples)
        self._arrays["weighted_n_node_samples"][node] = float(weighted_n_node_samples)

    def build(self) -> TernaryTree:
        """The tree as flat arrays, every ``value`` row normalised to sum to 1."""
        value = np.array(self._arrays["value"], dtype=np.float64).reshape(-1, self.n_classes)
        fields = {
            name: np.array(self._arrays[name]) for name in TernaryTree._ARRAYS if name != "value"
        }
        tree = TernaryTree(value=value, **fields)
        if self._original_value is not None:
            tree.value[: self._original_value.shape[0]] = self._original_value
        return tree
