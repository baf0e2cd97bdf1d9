"""`TernaryTreeClassifier`: CART with a locally-adaptive uncertainty zone per split.

The binary structure is scikit-learn's own compiled CART builder
(`sklearn.tree.DecisionTreeClassifier`), so with δ = 0 the model *is* CART.
The δ computations (`ternary.delta`) and the ternary prediction
(`ternary.tree.traverse`) are ours. Hard-middle trees change the training
partition, so they are grown by our own builder, which the estimator configures with
its parameters (`ternary._hard_middle.HardMiddleBuilder`). `fit` orchestrates:
validate, calibrate the scale, grow (CART or hard-middle), zone
(`ternary.delta.split_deltas`), graft (`ternary.graft`). The prediction methods the
forest shares come from `ternary._base.TernaryPredictMixin`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import metadata_routing
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

from ternary._base import TernaryPredictMixin, store_params
from ternary._confidence import smoothed_confidence, smoothed_outputs
from ternary._hard_middle import HardMiddleBuilder
from ternary._params import DELTA_METHODS, GRAFT_MODES, ROUTINGS, validate_tree_params
from ternary._validation import check_labels, check_sample_weight
from ternary.delta import DeltaParams, resolve_n_bootstraps, split_deltas
from ternary.stopping import check as check_stop
from ternary.tree import (
    TernaryTree,
    impurity_importances,
    stored_importances,
    traverse,
    zone_distance,
)

__all__ = [
    "DELTA_METHODS",
    "GRAFT_MODES",
    "ROUTINGS",
    "REZONE_PARAMS",
    "TernaryTreeClassifier",
    "rezone",
    "validate_tree_params",
]


def _criterion(estimator) -> str:
    """The impurity of `ternary.delta` matching CART's criterion ("log_loss" is entropy)."""
    return "gini" if estimator.criterion == "gini" else "entropy"


def delta_params_of(estimator, delta_scale: float) -> DeltaParams:
    """The δ parameters of a fitted estimator, with the given scale."""
    return DeltaParams(
        method=estimator.delta_method,
        criterion=_criterion(estimator),
        epsilon=float(estimator.epsilon),
        alpha=float(estimator.alpha),
        q=float(estimator.q),
        n_bootstraps=int(estimator.n_bootstraps_),
        min_samples_leaf=int(estimator.min_samples_leaf),
        max_delta_fraction=float(estimator.max_delta_fraction),
        delta_scale=float(delta_scale),
    )


class TernaryTreeClassifier(TernaryPredictMixin, ClassifierMixin, BaseEstimator):
    """A decision tree that says where it is unsure (Smits 2026).

    Each split node carries an uncertainty zone ``(θ−δ, θ+δ)`` whose half-width
    δ is computed locally from the training rows reaching the node. Rows that
    fall inside a zone still get a prediction, blended from both subtrees
    (or from a dedicated middle subtree), and are flagged boundary-uncertain.
    The paper closes the zone at θ+δ, ``(θ−δ, θ+δ]``; ``zone_edges="closed"`` does so.

    Parameters
    ----------
    delta_method : {"margin", "node_bootstrap", "quality_plateau", "gain_ratio", \
"class_overlap", "none"}, default="margin"
        How δ is computed at each node; "none" gives plain CART (see `ternary.delta`).
    routing : {"probabilistic", "hard_middle", "deferred"}, default="probabilistic"
        How a row inside a zone is routed (see `ternary.tree.traverse`).
    max_depth : int or None, default=4
        The deepest a leaf may lie; None grows until the leaves are pure.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
    min_samples_split : int, default=2
        As in scikit-learn: the fewest rows a node needs to be split.
    min_samples_leaf : int, default=1
        As in scikit-learn: the fewest rows each child of a split must keep.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        As in scikit-learn: the minimum share of the total sample weight in a leaf.
    max_features : int, float, "sqrt", "log2" or None, default=None
        As in scikit-learn: the number of features drawn at random and searched at each
        split (an int; a float is a fraction of the features; "sqrt"/"log2" of their count;
        None searches them all). It goes to scikit-learn's CART builder for the binary
        routings and to the depth-1 CART that picks each hard-middle split; the random
        draws follow ``random_state``. δ is always computed on the chosen split's feature.
    epsilon : float in [0, 1], default=0.05
        Quality-plateau tolerance ε.
    alpha : float ≥ 0, default=0.10
        Gain-ratio scale α.
    q : float in [0, 0.5], default=0.10
        Class-overlap percentile, as a fraction.
    n_bootstraps : "auto" or int ≥ 2, default="auto"
        Node-bootstrap resamples B; "auto" is 20 below 2,000 training rows,
        15 below 10,000 and 10 above.
    max_delta_fraction : float ≥ 0, default=0.25
        The largest δ, as a fraction of the node's feature range (δ is clamped to it).
    delta_scale : float ≥ 0 or "bayes", default=1.0
        Global multiplier applied to every δ after the clamp. ``"bayes"`` calibrates it
        to the data: the Bayes error is estimated from the training rows
        (`ternary.metrics.bayes_error_bound`, the Cover–Hart bound on a
        cross-validated 1-NN error), and the scale is set so that the expected share
        of flagged rows equals that estimate: the geometric mean of two quantiles, at
        the estimate, of `boundary_distance` at scale 1, out of fold (5 folds) and in
        sample (on generated data they err on opposite sides). Hard-middle trees borrow the
        scale measured with probabilistic routing. It costs about six fits and a
        1-NN pass. See `ternary.metrics.bayes_error_bound` for how to read it.
    min_samples_middle : int ≥ 1, default=5
        Hard-middle only: a middle zone with fewer training rows becomes a leaf.
    class_weight : dict, "balanced" or None, default=None
        As in scikit-learn: weights of the classes, multiplied into the sample weights.
    random_state : int, RandomState or None, default=None
        Seeds CART's feature permutation and the node bootstrap.
    graft : {"none", "all", "one"}, default="none"
        Webb's (1997) C4.5+ grafting after growing (and pruning) the tree.
    graft_alpha : float in [0, 1], default=0.05
        Significance level of the binomial test that accepts a graft.
    ccp_alpha : float ≥ 0, default=0.0
        CART cost-complexity pruning, applied before grafting (binary routings).
    zone_edges : {"open", "closed"}, default="open"
        Whether a zone holds its upper end. "closed" is the paper's zone
        ``θ−δ < x ≤ θ+δ``; "open" is ``θ−δ < x < θ+δ``, which flags a row only where the
        blend sends it both ways (``0 < w_L < 1``) at some split it reaches. The paper's
        blend gives a row at exactly θ+δ the weight ``w_L = 0``: all of it goes right and
        its probabilities are CART's, yet the closed zone flags it. On integer-valued
        features the margin method puts θ+δ on a training value (θ = (a+b)/2,
        δ = (b−a)/2 for a clean split between a and b), so there most flagged rows are
        such edge rows (measured on the CC18 tables in BENCHMARKS.md, "zone edges"). With
        probabilistic routing the setting changes the verdicts only (and what follows
        from them: `boundary_distance`, `ternary.explain.explain_row`, the rules and the
        exports), never `predict_proba`. With deferred routing a row at θ+δ has not
        entered that zone, so a zone below can still blend it. With hard_middle routing
        the middle child is grown on the rows of the zone and receives them at predict
        time, so a row at θ+δ goes right in growth and prediction alike (the tree
        itself can differ). The paper's reproduction uses "closed".
    confidence : {"laplace", "paper"}, default="laplace"
        The ranking `predict_confidence` gives (`predict_proba` is the paper's blend
        whatever it is). "laplace": the blended probability of the predicted class with
        every leaf Laplace-smoothed, ``(n_c+1)/(n+K)``, the row's smallest
        ``|x − θ| / std`` on its path breaking ties; "paper": the maximum blended
        probability, the zone distance breaking ties (the ranking before issue 30). It
        is read at prediction time, so ``set_params`` changes it without a refit.
        Measured against CART with Laplace leaves in BENCHMARKS.md (issue 30).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when fitted on a DataFrame with string columns
    n_bootstraps_ : int, the resolved B
    tree_ : TernaryTree, the flat per-node arrays
    delta_scale_ : float
        The scale used: ``delta_scale`` itself, or the calibrated one for ``"bayes"``.
    bayes_error_estimate_ : float or None
        With ``delta_scale="bayes"``, the estimated Bayes error the scale aims at (the
        expected share of flagged rows); None otherwise.
    feature_importances_ : ndarray of shape (n_features,)
        Impurity-based importances normalised to sum to 1, as in scikit-learn: each
        split's weighted impurity decrease over the training partition, credited to
        its feature. Grafted splits count, and so do the splits of hard-middle trees'
        middle subtrees (their three-way partition). All zeros when the tree is a
        single leaf. With ``delta_method="none"`` they equal `DecisionTreeClassifier`'s.
    graft_report_ : pandas.DataFrame or None
        One row per graft (see `ternary.graft.graft_tree`), with the grafted class both as
        a code (``class``) and as a label (``class_label``); None without grafting.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = TernaryTreeClassifier(delta_method="margin", max_depth=2, random_state=0).fit(X, y)
    >>> verdict = clf.predict_verdict(X)
    >>> bool(0 < verdict.mean() <= 1)
    True
    """

    def __init__(
        self,
        *,
        delta_method="margin",
        routing="probabilistic",
        max_depth=4,
        criterion="gini",
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features=None,
        epsilon=0.05,
        alpha=0.10,
        q=0.10,
        n_bootstraps="auto",
        max_delta_fraction=0.25,
        delta_scale=1.0,
        min_samples_middle=5,
        class_weight=None,
        random_state=None,
        graft="none",
        graft_alpha=0.05,
        ccp_alpha=0.0,
        zone_edges="open",
        confidence="laplace",
    ):
        store_params(self, locals())

    # ------------------------------------------------------------------ fit
    # check_input is an optimisation, not metadata to route (as in scikit-learn's trees)
    __metadata_request__fit = {"check_input": metadata_routing.UNUSED}

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        check_input: bool = True,
    ) -> TernaryTreeClassifier:
        """Grow the tree, compute every node's δ, and graft if asked.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The training rows, finite numbers (numpy or pandas).
        y : array-like of shape (n_samples,)
            The class labels, of any type (strings work).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative row weights; None weighs every row 1.
        check_input : bool, default=True
            False skips the checks of ``X`` and ``y``, as scikit-learn's trees allow, for
            a caller that made them already: ``X`` a 2-D float32 ndarray of finite
            values, ``y`` a 1-D ndarray of labels. `ternary.experiment.run_cv` and the
            forest's members fit that way; do not use it otherwise.

        Returns
        -------
        TernaryTreeClassifier
            The fitted estimator itself.
        """
        validate_tree_params(self)
        check_stop()  # a stop check of `ternary.stopping.stop_when`, if one is set
        X, y, y_enc, weights = self._prepare(X, y, sample_weight, check_input)
        probe = self._set_scale(X, y, sample_weight, weights)
        if self.routing == "hard_middle":
            # one stream for every random draw after the stumps' seeds (node bootstrap)
            rng = check_random_state(self.random_state)
            self.tree_ = self._hard_middle_builder().build(X, y_enc, weights, rng)
            self.graft_report_, self._cart, self._delta_base = None, None, None
        elif probe is not None:
            self._scale_probe(probe)
        else:
            cart = self._grow_cart(X, y_enc, weights)
            check_stop()  # scikit-learn's growth is one compiled call: checked after it
            self._zone(X, y_enc, weights, cart)
        self.tree_.zone_edges = self.zone_edges  # every walk of the tree reads it there
        if self.routing != "hard_middle" and self.graft_report_ is None:
            # CART's own partition: its stored impurities give the importances directly,
            # without walking the rows again (a fifth of a forest member's fit time)
            self.feature_importances_ = stored_importances(self.tree_, self.n_features_in_)
        else:
            self.feature_importances_ = impurity_importances(
                self.tree_, X, y_enc, weights, _criterion(self), self.routing, self.n_features_in_
            )
        self._fit_confidence(X)
        return self

    def _fit_confidence(self, X):
        """The features' standard deviations, the unit of the smoothed ranking's tie-break."""
        scale = X.std(axis=0, dtype=np.float64)
        scale[~(scale > 0)] = 1.0  # a constant feature is never split on
        self._feature_scale = scale

    def _set_scale(self, X, y, sample_weight, weights):
        """Set ``delta_scale_`` (and the Bayes estimate); the bayes probe fit, if any."""
        if isinstance(self.delta_scale, str):
            from ternary._calibration import bayes_scale  # sklearn.neighbors only when asked

            self.bayes_error_estimate_, self.delta_scale_, probe = bayes_scale(
                self, X, y, sample_weight, weights
            )
            return probe
        self.bayes_error_estimate_, self.delta_scale_ = None, float(self.delta_scale)
        return None

    def _scale_probe(self, probe):
        """Take the tree of ``probe`` (this estimator fitted at scale 1) at ``delta_scale_``.

        A binary-routing tree's structure, grafts and unscaled δ do not depend on the
        scale, so this is the tree a fit at ``delta_scale_`` grows, bit for bit (with an
        integer ``random_state``), one fit fewer.
        """
        self._cart, self.graft_report_ = probe._cart, probe.graft_report_
        self._delta_base = probe._delta_base.copy()
        tree = probe.tree_.copy()
        # the same product node_delta forms with the scale inside, bit for bit
        tree.delta = self._delta_base * self.delta_scale_
        self.tree_ = tree

    def _prepare(
        self, X, y, sample_weight, check_input: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Validated ``X`` (float32), ``y``, class codes and effective weights; sets the
        attributes that depend only on the data."""
        if check_input:
            check_labels(y)
            # float32 like scikit-learn's trees, so thresholds and routing agree with CART
            X, y = validate_data(self, X, y, dtype=np.float32)
            check_classification_targets(y)
        else:  # what validate_data records of arrays without column names
            self.n_features_in_ = X.shape[1]
            if hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        weights = self._effective_weights(y, sample_weight, X.shape[0])
        self.n_bootstraps_ = resolve_n_bootstraps(self.n_bootstraps, X.shape[0])
        return X, y, y_enc, weights

    def _zone(self, X, y_enc, weights, cart):
        """Set ``tree_``: the CART tree ``cart`` with every split's δ, grafted if asked.

        δ is computed at scale 1 and multiplied by ``delta_scale_`` last, so the unscaled
        δ (``_delta_base``) is known exactly and `boundary_distance` can say which rows
        any other scale flags. A zone never changes the binary structure, so one CART
        serves every δ method, scale and binary routing (see `rezone`).
        """
        # one stream for every random draw after CART's own (node bootstrap, then grafts)
        rng = check_random_state(self.random_state)
        params = delta_params_of(self, 1.0)
        tree = cart.copy()
        # rezone needs the tree before grafting; without grafts tree_ is that tree plus δ
        self._cart = cart if self.graft != "none" else None
        tree.delta[:] = split_deltas(tree, X, y_enc, weights, self.n_classes_, params, rng)
        self.graft_report_ = None
        if self.graft != "none":
            check_stop()
            tree = self._graft(tree, X, y_enc, weights, params, rng)
        self._delta_base = tree.delta.copy()
        # the same product node_delta forms with the scale inside, bit for bit
        tree.delta = tree.delta * self.delta_scale_
        tree.zone_edges = self.zone_edges
        self.tree_ = tree

    def _graft(self, tree, X, y_enc, weights, params, rng):
        """``tree`` grafted (Webb 1997); sets ``graft_report_`` with the classes' labels."""
        from ternary.graft import graft_tree  # scipy and pandas only when grafting

        tree, report = graft_tree(
            tree,
            X,
            y_enc,
            mode=self.graft,
            alpha=self.graft_alpha,
            sample_weight=weights,
            delta_params=params,
            random_state=rng,
            feature_names=getattr(self, "feature_names_in_", None),
        )
        report.insert(
            report.columns.get_loc("class") + 1,
            "class_label",
            self.classes_[report["class"].to_numpy(dtype=np.intp)],
        )
        self.graft_report_ = report
        return tree

    def _effective_weights(self, y, sample_weight, n):
        weights = check_sample_weight(sample_weight, n)
        if weights is None:
            weights = np.ones(n)
        if self.class_weight is not None:
            weights = weights * compute_sample_weight(self.class_weight, y)
        if weights.sum() <= 0:
            raise ValueError(
                "The sample weights sum to zero; at least one row needs a positive weight."
            )
        return weights

    def _hard_middle_builder(self) -> HardMiddleBuilder:
        """The hard-middle growth configured with this estimator's parameters."""
        return HardMiddleBuilder(
            n_classes=self.n_classes_,
            delta=delta_params_of(self, self.delta_scale_),
            criterion=self.criterion,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_weight_fraction_leaf=self.min_weight_fraction_leaf,
            max_features=self.max_features,
            min_samples_middle=self.min_samples_middle,
            zone_edges=self.zone_edges,
            # the stream is fit's own only when seeded by an integer
            private_stream=isinstance(self.random_state, (int, np.integer)),
        )

    def _grow_cart(self, X, y_enc, weights):
        """scikit-learn's CART on the data, as a `TernaryTree` with δ = 0."""
        cart = DecisionTreeClassifier(
            criterion=self.criterion,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_weight_fraction_leaf=self.min_weight_fraction_leaf,
            max_features=self.max_features,
            random_state=self.random_state,
            ccp_alpha=self.ccp_alpha,
        )
        # X is validated float32 already: skip scikit-learn's second check of it
        cart.fit(X, y_enc, sample_weight=weights, check_input=False)
        # CART only knows the classes it saw with positive weight; map its columns back
        return TernaryTree.from_sklearn(cart.tree_, cart.classes_.astype(np.intp), self.n_classes_)

    # ------------------------------------------------------------------ predict
    def _route(self, X, proba=True):
        check_is_fitted(self, "tree_")
        X = validate_data(self, X, reset=False, dtype=np.float32)
        return traverse(self.tree_, X, self.routing, proba=proba)

    def predict_proba_verdict(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities and verdicts from one walk of the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to route, with the features the tree was fitted on.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            As `predict_proba`.
        verdict : ndarray of shape (n_samples,), int8
            As `predict_verdict`: 1 = decided, 0 = boundary-uncertain.
        """
        return self._route(X)

    def predict_verdict(self, X: ArrayLike) -> np.ndarray:
        """Eq. 8 of the paper: 1 (True, decided) or 0 (Undec, boundary-uncertain).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to route, with the features the tree was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,), int8
            1 where the row met no zone on its way, 0 where it did.
        """
        return self._route(X, proba=False)[1]

    def boundary_distance(self, X: ArrayLike) -> np.ndarray:
        """How far each row lies inside or outside the zones on its path, in units of δ.

        For the binary routings, the smallest ``|x_f − θ| / δ`` over the split nodes on
        the row's CART path (the path CART would route it along, ``x ≤ θ`` left),
        ``inf`` where every δ on the path is 0. A row is flagged exactly when some
        zone on that path holds it, under probabilistic and deferred routing alike,
        so the distance predicts the verdicts of other scales: refitting with
        ``delta_scale = delta_scale_ · s`` (same data and integer ``random_state``)
        flags exactly the rows whose distance is below ``s``; with
        ``zone_edges="closed"`` also those at exactly ``s`` whose nearest node has them
        right of θ, where the zone ``θ−δ < x ≤ θ+δ`` is closed. The invariant holds to
        the last bit: each node's distance is the float at which that zone's
        comparisons flip.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to route, with the features the tree was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
            The distance of each row, in [0, inf].

        Raises
        ------
        ValueError
            For ``routing="hard_middle"``: its zones shape the tree while it grows
            (zone rows build a middle subtree), so a tree refitted at another scale
            is another tree, and no distance to this tree's zones predicts its verdicts.
        """
        check_is_fitted(self, "tree_")
        if self.routing == "hard_middle":
            raise ValueError(
                "boundary_distance is defined for routing='probabilistic' or 'deferred' only: "
                "a hard_middle tree grows middle subtrees from its zones, so refitting it at "
                "another delta_scale grows a different tree, and no distance to these zones "
                "predicts its verdicts. Fit with a binary routing to rank rows by distance."
            )
        rows: np.ndarray = validate_data(self, X, reset=False, dtype=np.float32)
        return zone_distance(self.tree_, rows, self.routing, self._delta_base, self.delta_scale_)

    def predict_confidence(self, X: ArrayLike) -> np.ndarray:
        """A score that ranks rows for selective prediction: higher, more likely correct.

        With ``confidence="laplace"`` (the default): the blended probability of the
        predicted class with every leaf Laplace-smoothed, ``(n_c+1)/(n+K)``, binned to
        steps of 2⁻³⁰, plus ``g/(1+g)`` of a step for the row's smallest
        ``g = |x_f − θ| / std(x_f)`` over the splits on its path; smoothing ranks a pure
        leaf of one row below a pure leaf of a hundred, which a raw frequency cannot
        (BENCHMARKS.md, issue 30).

        With ``confidence="paper"``: the maximum blended class probability, with the
        zone distance breaking ties:
        the probability is binned to steps of 2⁻³⁰ (about 1e-9) and the distance
        ``D`` adds ``D/(1+D)`` of a step, so rows whose probabilities differ by more
        than a step are ordered by probability, and rows in one step (the decided
        rows of a leaf share one exactly) by distance, the farther from every zone
        the more confident. ``D`` is the smallest ``|x_f − θ| / δ`` over the split
        nodes on the row's path (`boundary_distance`; for hard_middle the three-way
        path the row takes, where no refit invariant holds but a row near a split
        is still the less sure); ``inf`` counts as the largest.
        A score of one row never depends on the other rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to route, with the features the tree was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
            The score of each row, in [0, 1).
        """
        return self._selective_outputs(X)[2]

    def _selective_outputs(self, X) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(predict_proba, predict_verdict, predict_confidence)`` from one check of ``X``
        and one walk of the tree (what `ternary.experiment` scores each fold with)."""
        check_is_fitted(self, "tree_")
        rows: np.ndarray = validate_data(self, X, reset=False, dtype=np.float32)
        if getattr(self, "confidence", "paper") != "paper":
            # raw and smoothed leaves blended side by side in one compiled pass
            return smoothed_outputs(self.tree_, rows, self.routing, self._feature_scale)
        proba, verdict = traverse(self.tree_, rows, self.routing, proba=True)
        return proba, verdict, self._confidence(proba, rows)

    def _confidence(self, proba: np.ndarray, rows: np.ndarray) -> np.ndarray:
        ranking = getattr(self, "confidence", "paper")  # a tree pickled before it existed
        if ranking != "paper":
            predicted = np.argmax(proba, axis=1)
            return smoothed_confidence(
                self.tree_, rows, self.routing, predicted, self._feature_scale
            )
        distance = zone_distance(self.tree_, rows, self.routing)
        steps = 2.0**30
        with np.errstate(invalid="ignore"):
            tie = np.where(np.isinf(distance), 1.0, distance / (1.0 + distance))
        # below 1, so a row never reaches the next step's floor
        tie = np.minimum(tie, 1.0 - 2.0**-20)
        return (np.floor(proba.max(axis=1) * (steps - 1)) + tie) / steps

    # ------------------------------------------------------------------ structure
    def get_depth(self) -> int:
        """Depth of the fitted tree (a lone leaf has depth 0).

        Returns
        -------
        int
            The longest root-to-leaf path, in splits.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree.

        Returns
        -------
        int
            The count of nodes without children.
        """
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags

    def __getstate__(self):
        state = dict(super().__getstate__())  # scikit-learn's may be the instance's __dict__
        report = state.get("graft_report_")
        if report is not None and hasattr(report, "columns"):
            # skops cannot save a DataFrame (a grafted tree's download failed): the graft
            # report travels as its column names and plain Python values per column
            state["graft_report_"] = {
                "columns": [str(c) for c in report.columns],
                "dtypes": [str(report[c].dtype) for c in report.columns],
                "values": [
                    [v.item() if isinstance(v, np.generic) else v for v in report[c].tolist()]
                    for c in report.columns
                ],
            }
        return state

    def __setstate__(self, state):
        report = state.get("graft_report_")
        if isinstance(report, dict):
            import pandas as pd

            parts = zip(report["columns"], report["dtypes"], report["values"], strict=True)
            columns = {name: pd.Series(values, dtype=dtype) for name, dtype, values in parts}
            state = {**state, "graft_report_": pd.DataFrame(columns)}
        # a model saved before zone_edges existed was fitted, and keeps routing, with the
        # paper's closed zone (its tree_ reads "closed" too: TernaryTree's class default)
        super().__setstate__({"zone_edges": "closed", **state})


#: The parameters `rezone` may change: they move the zones, never CART's binary structure.
REZONE_PARAMS = (
    "delta_method",
    "routing",
    "epsilon",
    "alpha",
    "q",
    "n_bootstraps",
    "delta_scale",
    "max_delta_fraction",
    "zone_edges",
)


def rezone(
    fitted: TernaryTreeClassifier,
    X: ArrayLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    **params,
) -> TernaryTreeClassifier:
    """A new fitted tree with other zone parameters, reusing ``fitted``'s CART structure.

    With the binary routings a zone never changes the tree's structure, so one CART
    serves every δ method, scale and binary routing: only δ (and the δ of grafted
    splits, whose placement does not depend on δ either) is recomputed. Cross-validating
    many combinations then costs one CART per fold.

    The result equals ``clone(fitted).set_params(**params).fit(X, y, sample_weight)``
    bit for bit, node_bootstrap included, when ``fitted`` was fitted on these same
    ``X``, ``y`` and ``sample_weight`` with an integer ``random_state``: δ is drawn
    from a fresh stream seeded by it, in the order a fresh fit draws. (With
    ``random_state=None`` or a ``RandomState`` a fresh fit is not reproducible
    itself.)

    Parameters
    ----------
    fitted : TernaryTreeClassifier
        Fitted with routing "probabilistic" or "deferred"; it is not modified.
    X : array-like of shape (n_samples, n_features)
        The rows ``fitted`` was fitted on.
    y : array-like of shape (n_samples,)
        Their labels.
    sample_weight : array-like of shape (n_samples,), optional
        The weights ``fitted`` was fitted with.
    **params
        New values for any of `REZONE_PARAMS`; routing may switch between
        "probabilistic" and "deferred".

    Returns
    -------
    TernaryTreeClassifier
        A new fitted tree; ``fitted`` is not modified.

    Raises
    ------
    ValueError
        For other parameters, hard_middle routing (its zones shape the tree) or data
        that cannot be the data ``fitted`` saw.
    """
    check_is_fitted(fitted, "tree_")
    unknown = sorted(set(params) - set(REZONE_PARAMS))
    if unknown:
        raise ValueError(
            f"rezone changes zone parameters only ({', '.join(REZONE_PARAMS)}); "
            f"{', '.join(unknown)} change the tree itself: fit a new estimator instead."
        )
    if "hard_middle" in (fitted.routing, params.get("routing")):
        raise ValueError(
            "rezone needs binary routings on both sides: a hard_middle tree grows middle "
            "subtrees from its zones, so its structure depends on δ. Fit it directly."
        )
    new: TernaryTreeClassifier = clone(fitted).set_params(**params)
    validate_tree_params(new)
    X, y, y_enc, weights = new._prepare(X, y, sample_weight)
    cart = fitted._cart
    if cart is None:  # no grafts: the structure is tree_'s own
        cart = fitted.tree_.copy()
        cart.delta[:] = 0.0
    if (
        X.shape[0] != cart.n_node_samples[0]
        or not np.array_equal(new.classes_, fitted.classes_)
        or not np.isclose(weights.sum(), cart.weighted_n_node_samples[0], rtol=1e-9)
    ):
        raise ValueError(
            "rezone needs the X, y and sample_weight the fitted tree was fitted on; these "
            "differ in rows, classes or total weight."
        )
    new._set_scale(X, y, sample_weight, weights)  # a bayes probe is not reused: cart is
    new._zone(X, y_enc, weights, cart)
    new._fit_confidence(X)
    # importances follow the structure, grafts included, which δ does not move
    new.feature_importances_ = fitted.feature_importances_.copy()
    return new
