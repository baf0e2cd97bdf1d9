"""`ShadowTree`: a read-only view of one fitted ternary tree, the input of the tree drawings.

After dtreeviz's "shadow tree": one adapter holds what a drawing reads of a fitted
tree (the per-node arrays in scikit-learn's layout, the zone bounds θ ± δ, the
counts, the feature and class names, the routing) and the drawings take it, or
plain arrays, and never call the model.

Why it lives in `viz` and not in `appkit`: it is the type the figure builders
take, so it belongs beside them, and a notebook or the documentation's gallery
can then draw a tree with `viz` alone, without Streamlit (which `appkit`
imports). Building one calls no estimator method: `ShadowTree.from_estimator`
reads fitted attributes (``tree_``, ``classes_``, ``feature_names_in_``,
``n_features_in_``, ``routing``) and the tree structure's own walks (preorder,
depth, middle-branch reach). Questions only the model can answer (probabilities
and verdicts on a grid, scores) are asked by the caller, the app layer, which
passes the answers as arrays.

>>> from sklearn.datasets import load_iris
>>> from ternary import TernaryTreeClassifier
>>> X, y = load_iris(return_X_y=True)
>>> shadow = ShadowTree.from_estimator(TernaryTreeClassifier(max_depth=2).fit(X, y))
>>> shadow.preorder[0], shadow.n_classes, shadow.class_names
(0, 3, ('0', '1', '2'))
>>> import numpy as np
>>> bool(np.allclose(shadow.zone_high - shadow.zone_low, 2 * shadow.delta))
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ternary import default_feature_names

__all__ = ["ShadowTree"]

#: the per-node arrays copied from the fitted tree (a subset of ``TernaryTree``'s, same names)
NODE_ARRAYS = (
    "children_left",
    "children_right",
    "children_middle",
    "feature",
    "threshold",
    "delta",
    "value",
    "n_node_samples",
    "grafted",
)


def _frozen_copy(array) -> np.ndarray:
    out = np.array(array, copy=True)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class ShadowTree:
    """What the drawings read of a fitted tree, frozen: arrays are read-only copies.

    Attributes
    ----------
    children_left, children_right, children_middle : ndarray of int
        Child ids, ``-1`` where absent (only hard-middle trees have middle children).
    feature : ndarray of int, the split feature (``-2`` at leaves)
    threshold : ndarray of float, θ (``-2`` at leaves)
    delta : ndarray of float, the zone half-width δ (0 at leaves)
    value : ndarray of shape (node_count, n_classes), class shares (rows sum to 1)
    n_node_samples : ndarray of int, training rows reaching each node
    grafted : ndarray of bool, the nodes grafting added
    depth : ndarray of int, each node's depth (root 0)
    through_middle : ndarray of bool, nodes whose path takes a middle branch
    preorder : tuple of int, the reachable node ids, parents before children
    feature_names, class_names : tuple of str, the names a drawing prints
    routing : str, the tree's routing ("probabilistic", "deferred" or "hard_middle")
    zone_edges : str, "open" (θ−δ < x < θ+δ) or "closed" (the paper's θ−δ < x ≤ θ+δ);
        a tree fitted before the setting existed has the paper's closed zone
    """

    children_left: np.ndarray
    children_right: np.ndarray
    children_middle: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    delta: np.ndarray
    value: np.ndarray
    n_node_samples: np.ndarray
    grafted: np.ndarray
    depth: np.ndarray
    through_middle: np.ndarray
    preorder: tuple[int, ...]
    feature_names: tuple[str, ...]
    class_names: tuple[str, ...]
    routing: str
    zone_edges: str = "closed"

    @classmethod
    def from_estimator(cls, model, *, feature_names=None, class_names=None) -> ShadowTree:
        """The view of a fitted `ternary.TernaryTreeClassifier` (or a bare `ternary.TernaryTree`).

        Parameters
        ----------
        model : fitted TernaryTreeClassifier, or TernaryTree
            Read, never called: only fitted attributes and the structure's walks.
        feature_names, class_names : sequences of str, optional
            Explicit names win; otherwise the estimator's ``feature_names_in_`` and
            ``classes_``; otherwise the library's default names (``x0``, ``x1``, …,
            `ternary.default_feature_names`) and the class codes.

        Returns
        -------
        ShadowTree
        """
        tree = model.tree_ if hasattr(model, "tree_") else model
        arrays = {name: _frozen_copy(getattr(tree, name)) for name in NODE_ARRAYS}
        routing = getattr(model, "routing", None)
        if routing is None:
            routing = "hard_middle" if np.any(tree.children_middle >= 0) else "probabilistic"
        return cls(
            **arrays,
            depth=_frozen_copy(tree.node_depth()),
            through_middle=_frozen_copy(tree.reached_through_middle()),
            preorder=tuple(int(n) for n in tree.preorder()),
            feature_names=_feature_names(model, tree, feature_names),
            class_names=_class_names(model, tree, class_names),
            routing=str(routing),
            zone_edges=str(getattr(tree, "zone_edges", "closed")),
        )

    @classmethod
    def of(cls, source, feature_names=None, class_names=None) -> ShadowTree:
        """``source`` as a `ShadowTree` (itself when it is one), with the names given.

        The drawings accept a shadow tree or anything `from_estimator` reads, and
        turn it into a shadow tree once, here.
        """
        if not isinstance(source, ShadowTree):
            return cls.from_estimator(source, feature_names=feature_names, class_names=class_names)
        return source.named(feature_names, class_names)

    def named(self, feature_names=None, class_names=None) -> ShadowTree:
        """The same tree with other feature and/or class names (None keeps the current ones)."""
        changes = {}
        if feature_names is not None:
            changes["feature_names"] = tuple(str(f) for f in feature_names)
        if class_names is not None:
            changes["class_names"] = tuple(str(c) for c in class_names)
        return replace(self, **changes) if changes else self

    @property
    def node_count(self) -> int:
        """Number of nodes."""
        return int(self.children_left.shape[0])

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return int(self.value.shape[1])

    @property
    def is_leaf(self) -> np.ndarray:
        """True at the leaves (no left child)."""
        return self.children_left == -1

    @property
    def zone_low(self) -> np.ndarray:
        """θ − δ, the lower end of every node's zone."""
        return self.threshold - self.delta

    @property
    def zone_high(self) -> np.ndarray:
        """θ + δ, the upper end of every node's zone."""
        return self.threshold + self.delta

    @property
    def has_zones(self) -> bool:
        """Whether any node has a zone (δ > 0); a tree without one is plain CART."""
        return bool(np.any(self.delta > 0))


def _feature_names(model, tree, given) -> tuple[str, ...]:
    if given is not None:
        return tuple(str(f) for f in given)
    names = getattr(model, "feature_names_in_", None)
    if names is None:
        n_features = getattr(model, "n_features_in_", None)
        if n_features is None:
            used = tree.feature[tree.feature >= 0]
            n_features = int(used.max()) + 1 if used.size else 0
        names = default_feature_names(n_features)
    return tuple(str(f) for f in names)


def _class_names(model, tree, given) -> tuple[str, ...]:
    if given is None:
        classes = getattr(model, "classes_", None)
        given = classes if classes is not None else np.arange(tree.n_classes)
    return tuple(str(c) for c in given)
