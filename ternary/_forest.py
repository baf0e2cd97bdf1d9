"""`TernaryForestClassifier`: a random forest of ternary trees.

Each member is a `TernaryTreeClassifier` grown on a bootstrap sample with a random feature
subset drawn at every split (scikit-learn's compiled CART builder does the drawing, through the
tree's ``max_features``). A member computes δ at each of its nodes from the bootstrap rows that
reached that node, exactly as a lone tree fitted on that sample would. The forest averages the
members' blended probabilities and lets them vote on whether a row is decided.

The bootstrap is passed to a member as *row indices* (the member is fitted on ``X[indices]``,
repeated rows and all), not as integer sample weights as scikit-learn's forests do. For CART and
for the margin, quality-plateau and gain-ratio δ the two are the same, but class_overlap's
percentiles and node_bootstrap's resampling count rows, not weights: with row indices every δ
method sees a bootstrap sample exactly as a tree fitted on it would, so each member *is*
``TernaryTreeClassifier(...).fit(X[indices], y[indices])``. (``min_samples_leaf`` and
``min_samples_split`` count the repeated rows too, as they would in that tree.) Where the
two are provably the same tree (`_counts_serve`: the weight-only δ methods, default leaf
and split sizes, no row weights) the member is fitted on the sample's distinct rows with
the draw counts as weights, which is cheaper, and its row counts are set to the sample's;
a test holds every member array equal to the repeated-row fit.
"""

from __future__ import annotations

import warnings
from typing import cast

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from ternary._base import TernaryPredictMixin, labels_of, store_params
from ternary._classes import TernaryTreeClassifier
from ternary._confidence import member_sums, smoothed_aggregate
from ternary._params import FOREST_TREE_PARAMS, validate_forest_params
from ternary._validation import check_sample_weight
from ternary.stopping import Feed

__all__ = ["TernaryForestClassifier"]

_MAX_SEED = np.iinfo(np.int32).max

#: Ties in the forest's top probability are broken by the share of deciding trees, scaled
#: down so far that it can never reorder two rows whose top probabilities differ by more
#: than floating-point noise in an average of at most a few thousand trees.
_TIE_BREAK = 1e-9


def _bootstrap_indices(seed: int, n_samples: int) -> np.ndarray:
    """The rows a member is grown on: ``n_samples`` draws with replacement, from its seed.

    The same draw as scikit-learn's forests (one ``RandomState(seed).randint`` call), so a
    forest and a `RandomForestClassifier` with the same ``random_state`` see the same samples.
    """
    return np.random.RandomState(seed).randint(0, n_samples, n_samples, dtype=np.int32)


def _member_rows(seed, n_samples, weights):
    """The rows a member is fitted on, or None for all of them.

    A sample of zero-weight rows only would be refused by the tree; such a draw holds no
    information, so that tree is grown on every row instead (rare: it needs almost all the
    weight on a handful of rows), and it has no out-of-bag rows.
    """
    rows = _bootstrap_indices(seed, n_samples)
    if weights is not None and not np.any(weights[rows] > 0):
        return None
    return rows


#: Members fit on their sample's distinct rows weighted by their counts wherever that is the
#: same tree as the repeated rows (see `_counts_serve`); False always repeats the rows (the
#: reference the tests compare against).
_COUNTS_AS_WEIGHTS = True
#: The δ methods that read a node's rows only through weighted class counts and distinct
#: values; class_overlap's percentiles and node_bootstrap's resamples count rows.
_WEIGHT_ONLY_METHODS = ("margin", "gain_ratio", "quality_plateau", "none")


def _counts_serve(tree: TernaryTreeClassifier, weights) -> bool:
    """Whether a member fitted on distinct rows weighted by their draw counts is, bit for
    bit, the member fitted on the repeated rows.

    CART's split search, its stopping at ``min_samples_split=2``, cost-complexity pruning
    and the margin, gain-ratio and quality-plateau δ read a node's rows through weighted
    class counts and distinct values only: a row drawn k times and a row of weight k give
    the same integer sums, the same candidate thresholds, the same random feature draws.
    Row counts enter through ``min_samples_leaf`` above 1, larger ``min_samples_split``,
    the other δ methods, the Bayes scale's neighbours and non-integer row weights (a
    weight added k times is not k times the weight to the last bit), which all keep the
    repeated rows.
    """
    return (
        _COUNTS_AS_WEIGHTS
        and weights is None
        and tree.delta_method in _WEIGHT_ONLY_METHODS
        and not isinstance(tree.delta_scale, str)
        and tree.min_samples_leaf == 1
        and tree.min_samples_split == 2
        and not isinstance(tree.min_samples_leaf, float)
        and not isinstance(tree.min_samples_split, float)
    )


def _fit_member(tree, X, y, weights, bootstrap):
    """Fit one member on its bootstrap sample (X and y validated by the forest)."""
    rows = _member_rows(tree.random_state, X.shape[0], weights) if bootstrap else None
    if rows is None:
        return tree.fit(X, y, sample_weight=weights, check_input=False)
    if _counts_serve(tree, weights):
        counts = np.bincount(rows, minlength=X.shape[0])
        drawn = np.flatnonzero(counts)
        tree.fit(
            X[drawn], y[drawn], sample_weight=counts[drawn].astype(np.float64), check_input=False
        )
        # as fitted on the repeated rows: each node's row count is its drawn rows' count
        tree.tree_.n_node_samples = np.rint(tree.tree_.weighted_n_node_samples).astype(
            tree.tree_.n_node_samples.dtype
        )
        return tree
    weights = None if weights is None else weights[rows]
    return tree.fit(X[rows], y[rows], sample_weight=weights, check_input=False)


class TernaryForestClassifier(TernaryPredictMixin, ClassifierMixin, BaseEstimator):
    """A random forest of ternary trees: averaged blended probabilities and voted verdicts.

    Every member is a `TernaryTreeClassifier` fitted on a bootstrap sample of the rows (as
    row indices, so its δ are those of a tree fitted on that sample; see the module
    docstring), with ``max_features`` features drawn at random at every split. The forest's
    probabilities are the mean of the members' blended probabilities; a row is decided when
    at least ``min_decided_fraction`` of the members decide it.

    Parameters
    ----------
    n_estimators : int ≥ 1, default=100
        Number of trees.
    max_depth : int or None, default=None
        As in `TernaryTreeClassifier`; None grows each tree until its leaves are pure.
    max_features : int, float, "sqrt", "log2" or None, default="sqrt"
        Features drawn at random and searched at each split, as in a random forest.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample; False grows every tree on all rows (the trees
        then differ only through ``max_features``).
    delta_method : str, default="margin"
        How each tree computes δ at its nodes (see `ternary.delta`).
    routing : {"probabilistic", "deferred"}, default="probabilistic"
        How a member routes a row inside a zone. ``hard_middle`` is not offered: a
        hard-middle tree is grown node by node (a depth-1 CART per node, in Python), not by
        scikit-learn's compiled builder, so a forest of them would be far slower to fit, and
        its middle subtrees would be grown on the few zone rows of each bootstrap sample.
    criterion, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, epsilon, alpha, \
q, n_bootstraps, max_delta_fraction, delta_scale, ccp_alpha, zone_edges : as in \
`TernaryTreeClassifier`
        Passed to every member, with the meaning and defaults they have there
        (``min_weight_fraction_leaf`` is a share of the member's own sample weight).
    class_weight : dict, "balanced" or None, default=None
        Class weights computed once on all training rows (``"balanced"`` as in
        scikit-learn's forests) and multiplied into the sample weights.
    min_decided_fraction : float in [0, 1], default=0.5
        A row's forest verdict is 1 (decided) when at least this share of the trees decide
        it. 0.5 is a majority vote on "is this row outside every zone on my path"; 1.0 asks
        for a unanimous forest and flags the most rows (the most cautious setting); values
        near 0 decide a row as soon as a few trees do (lenient); 0 decides every row. It is
        read when verdicts are asked for, so ``set_params`` changes it without a refit.
    oob_score : bool, default=False
        Score each training row with the trees that did not see it (needs ``bootstrap``).
    n_jobs : int or None, default=None
        Trees fitted in parallel through joblib (None: one job; -1: every core), and rows
        predicted on as many threads (blocks of rows, every tree over a block). The result
        is the same for every value: each tree has its own seed, and each row's sum over
        the trees is taken in the same order.
    random_state : int, RandomState or None, default=None
        Draws one seed per tree, as scikit-learn's forests do; a tree's seed fixes its
        bootstrap sample, its feature draws and its node bootstrap.
    confidence : {"paper", "laplace"}, default="paper"
        The ranking `predict_confidence` gives (`predict_proba` is the mean blend
        whatever it is). "paper": the top mean blended probability; "laplace": the
        members' blends with Laplace-smoothed leaves (counted over each member's
        sample), averaged, for the predicted class. Each breaks ties by the share of
        deciding trees. Read at prediction time. Unlike a single tree's, the forest's
        default stays the paper's: averaging trees already smooths their leaves, and
        against a random forest with Laplace leaves the paper's ranking measured better
        at depths 4 and 8 and no worse unlimited (BENCHMARKS.md, issue 30).

    Attributes
    ----------
    estimators_ : list of TernaryTreeClassifier
        The fitted trees; each keeps the class labels it saw (a bootstrap may miss a class).
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when fitted on a DataFrame with string columns
    oob_score_ : float, only with ``oob_score=True``
        Accuracy of the out-of-bag predictions.
    oob_decision_function_ : ndarray of shape (n_samples, n_classes), only with ``oob_score``
        Mean blended probabilities over the trees that did not see each row (zeros for a
        row every tree saw, with a warning, as in scikit-learn).

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(300, noise=0.3, random_state=0)
    >>> forest = TernaryForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    >>> forest.predict_proba(X[:2]).shape
    (2, 2)
    >>> set(forest.predict_verdict(X).tolist()) <= {0, 1}
    True
    """

    def __init__(
        self,
        *,
        n_estimators=100,
        max_depth=None,
        max_features="sqrt",
        bootstrap=True,
        delta_method="margin",
        routing="probabilistic",
        criterion="gini",
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        epsilon=0.05,
        alpha=0.10,
        q=0.10,
        n_bootstraps="auto",
        max_delta_fraction=0.25,
        delta_scale=1.0,
        ccp_alpha=0.0,
        zone_edges="open",
        class_weight=None,
        min_decided_fraction=0.5,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        confidence="paper",
    ):
        store_params(self, locals())

    # ------------------------------------------------------------------ fit
    def _member_template(self) -> TernaryTreeClassifier:
        # the forest ranks rows from its members' trees itself: no member fits a model
        params = {name: getattr(self, name) for name in FOREST_TREE_PARAMS}
        return TernaryTreeClassifier(**params, confidence="paper")

    def _validate_params_forest(self) -> TernaryTreeClassifier:
        validate_forest_params(self)
        return self._member_template()

    def fit(
        self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> TernaryForestClassifier:
        """Grow ``n_estimators`` ternary trees on bootstrap samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The training rows, finite numbers (numpy or pandas).
        y : array-like of shape (n_samples,)
            The class labels, of any type (strings work).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative row weights; a member sees the weights of the rows it draws.

        Returns
        -------
        TernaryForestClassifier
            The fitted estimator itself.
        """
        template = self._validate_params_forest()
        X, y = cast("tuple[np.ndarray, np.ndarray]", validate_data(self, X, y, dtype=np.float32))
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        self.n_classes_ = len(self.classes_)
        weights = self._weights(y, sample_weight, X.shape[0])
        rng = check_random_state(self.random_state)
        # one seed per tree, drawn in order, like scikit-learn's forests
        seeds = [int(rng.randint(_MAX_SEED)) for _ in range(self.n_estimators)]
        members = [clone(template).set_params(random_state=seed) for seed in seeds]
        # handed out after a stop check each (`ternary.stopping`): a stop leaves the members
        # handed out to finish; in this thread (n_jobs=None) each member's fit checks too
        feed = Feed(members)
        estimators = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_member)(tree, X, y, weights, self.bootstrap) for tree in feed
        )
        feed.raise_if_stopped()
        self.estimators_ = estimators
        self._n_samples_fit = X.shape[0]
        # members whose draw held only zero-weight rows grew on every row (`_member_rows`)
        self._whole_sample_members = frozenset(
            i
            for i, seed in enumerate(seeds)
            if self.bootstrap and _member_rows(seed, X.shape[0], weights) is None
        )
        if self.oob_score:
            self._set_oob_score(X, y, weights)
        return self

    def _weights(self, y, sample_weight, n):
        weights = check_sample_weight(sample_weight, n)
        if self.class_weight is not None:
            if not (isinstance(self.class_weight, dict) or self.class_weight == "balanced"):
                raise ValueError(
                    f"class_weight={self.class_weight!r} is not supported; use None, "
                    "'balanced' or a dict mapping each class label to its weight."
                )
            class_weights = compute_sample_weight(self.class_weight, y)
            weights = class_weights if weights is None else weights * class_weights
        if weights is not None and weights.sum() <= 0:
            raise ValueError(
                "The sample weights sum to zero; at least one row needs a positive weight."
            )
        return weights

    def _set_oob_score(self, X, y, weights):
        n = X.shape[0]
        total = np.zeros((n, self.n_classes_))
        votes = np.zeros(n)
        for tree in self.estimators_:
            rows = _member_rows(tree.random_state, n, weights)
            if rows is None:
                continue
            drawn = np.bincount(rows, minlength=n)
            out = np.flatnonzero(drawn == 0)
            if out.size:
                total[out[:, None], self._columns(tree)] += tree.predict_proba(X[out])
                votes[out] += 1
        if np.any(votes == 0):
            warnings.warn(
                "Some training rows were drawn by every tree, so they have no out-of-bag "
                "prediction (their oob_decision_function_ rows are 0); oob_score_ may be "
                "unreliable. Use more trees (n_estimators).",
                UserWarning,
                stacklevel=3,
            )
        self.oob_decision_function_ = total / np.maximum(votes, 1)[:, None]
        predicted = labels_of(self.classes_, self.oob_decision_function_)
        self.oob_score_ = float(np.mean(predicted == y))

    # ------------------------------------------------------------------ predict
    def _columns(self, tree) -> np.ndarray:
        """The forest's column of each class the member saw."""
        return np.searchsorted(self.classes_, tree.classes_)

    def _aggregate(self, X):
        """Mean blended probabilities and the share of trees deciding each row."""
        check_is_fitted(self, "estimators_")
        X = validate_data(self, X, reset=False, dtype=np.float32)
        # row blocks on n_jobs threads, each row summed in member order: the same sums
        proba, _, decided = member_sums(
            self._members(), X, self.n_classes_, n_jobs=effective_n_jobs(self.n_jobs)
        )
        n = len(self.estimators_)
        return proba / n, decided / n

    def _members(self):
        """Each member's tree, routing and forest columns, as `member_sums` takes them."""
        return [(tree.tree_, tree.routing, self._columns(tree)) for tree in self.estimators_]

    def decided_fraction(self, X: ArrayLike) -> np.ndarray:
        """The share of trees that decide each row (0 = every tree flags it).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the forest was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
            Floats in [0, 1], multiples of ``1 / n_estimators``.
        """
        return self._aggregate(X)[1]

    def predict_verdict(self, X: ArrayLike) -> np.ndarray:
        """1 (decided) where at least ``min_decided_fraction`` of the trees decide, else 0.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the forest was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,), int8
            The forest's verdict per row.
        """
        return self._verdict(self.decided_fraction(X))

    @property
    def min_decided_count(self) -> int:
        """How many trees must decide a row for the forest to decide it (its vote rule).

        The smallest count ``≥ min_decided_fraction · n_estimators``, so that 0.5 of 4
        trees is exactly 2 (a tolerance of 1e-9 per tree absorbs the fraction's rounding).
        """
        check_is_fitted(self, "estimators_")
        n = len(self.estimators_)
        return int(np.ceil(self.min_decided_fraction * n - 1e-9 * n))

    def decided_count(self, X: ArrayLike) -> np.ndarray:
        """How many trees decide each row; the forest decides it from `min_decided_count`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the forest was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,), int
            The number of member trees that decide each row.
        """
        share = self._aggregate(X)[1]
        return np.round(share * len(self.estimators_)).astype(np.intp)

    def _verdict(self, share):
        # the share is a count over n_estimators: compare whole counts
        counts = np.round(share * len(self.estimators_))
        return (counts >= self.min_decided_count).astype(np.int8)

    @property
    def estimators_samples_(self) -> list[np.ndarray]:
        """The training rows each member tree was grown on, as row positions (with repeats).

        One bootstrap draw per member from its seed (``RandomState(seed).randint(0, n,
        n)``, as scikit-learn's forests draw), every row without bootstrap or when a draw
        held only rows of zero weight.
        """
        check_is_fitted(self, "estimators_")
        n = self._n_samples_fit
        return [
            _bootstrap_indices(tree.random_state, n)
            if self.bootstrap and i not in self._whole_sample_members
            else np.arange(n)
            for i, tree in enumerate(self.estimators_)
        ]

    def predict_proba_verdict(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """``(predict_proba(X), predict_verdict(X))`` from one walk of every tree.

        The same pair `TernaryTreeClassifier.predict_proba_verdict` returns, so code that
        draws both (a decision-region grid) walks the forest once instead of twice.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the forest was fitted on.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            As `predict_proba`.
        verdict : ndarray of shape (n_samples,), int8
            As `predict_verdict`.
        """
        proba, share = self._aggregate(X)
        return proba, self._verdict(share)

    def predict_confidence(self, X: ArrayLike) -> np.ndarray:
        """A score that ranks rows for selective prediction: higher = more likely correct.

        With ``confidence="paper"`` (the default), the forest's top mean blended
        probability; with ``"laplace"``, the mean over the trees of the blended
        probability of the predicted class, each tree's leaves Laplace-smoothed
        (``(n_c+1)/(n+K)`` over its sample). Either plus ``1e-9`` times the share of
        trees that decide the row. The second term only orders rows whose scores tie
        (common with pure leaves and "paper", where probabilities are multiples of
        ``1 / n_estimators``): among them, the rows fewer trees flag come first. It is
        a ranking, not a calibrated probability; use it with `ternary.selective` to draw
        risk-coverage curves.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the forest was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
            The score of each row (floats; higher ranks first).
        """
        ranking = getattr(self, "confidence", "paper")  # a forest pickled before it existed
        if ranking == "paper":
            proba, share = self._aggregate(X)
            return proba.max(axis=1) + _TIE_BREAK * share
        check_is_fitted(self, "estimators_")
        rows = validate_data(self, X, reset=False, dtype=np.float32)
        proba, smooth, share = smoothed_aggregate(
            self._members(), rows, self.n_classes_, n_jobs=effective_n_jobs(self.n_jobs)
        )
        predicted = np.argmax(proba, axis=1)
        return smooth[np.arange(rows.shape[0]), predicted] + _TIE_BREAK * share

    # ------------------------------------------------------------------ structure
    @property
    def feature_importances_(self) -> np.ndarray:
        """Impurity-based importances: the mean of the trees' own, renormalised to sum 1.

        Each tree's ``feature_importances_`` is its normalised mean decrease in impurity;
        trees without a split are left out, as in scikit-learn's forests, and without any
        split every importance is 0.
        """
        check_is_fitted(self, "estimators_")
        per_tree = [t.feature_importances_ for t in self.estimators_ if t.tree_.node_count > 1]
        if not per_tree:
            return np.zeros(self.n_features_in_)
        mean = np.mean(per_tree, axis=0)
        return mean / mean.sum()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags

    def __setstate__(self, state):
        # saved before zone_edges existed: its members were fitted with the paper's zone
        super().__setstate__({"zone_edges": "closed", **state})
