"""What the ternary classifiers share: their parameters stored, their predictions derived.

`TernaryTreeClassifier` and `TernaryForestClassifier` each implement one primitive,
``predict_proba_verdict(X)`` (the tree walks itself once, the forest walks its members
once), and `TernaryPredictMixin` derives `~TernaryPredictMixin.predict_proba`,
`~TernaryPredictMixin.predict` and `~TernaryPredictMixin.predict_with_verdict` from it, so
a label is ``classes_[argmax(proba)]`` in one place. `ternary.pipeline.TernaryPipeline`
reaches the same methods of its final step through its own `available_if` delegates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["TernaryPredictMixin", "labels_of", "store_params"]


def store_params(estimator, params: dict[str, Any]) -> None:
    """Store an ``__init__``'s keyword arguments under their own names, unchanged.

    scikit-learn's rule for ``__init__`` (validation waits for ``fit``, so ``set_params``
    and ``clone`` just work); ``params`` is the ``__init__``'s ``locals()``, read before
    it binds anything else, so it holds ``self`` and the keyword arguments only.
    """
    for name, value in params.items():
        if name not in ("self", "__class__"):
            setattr(estimator, name, value)


def labels_of(classes: np.ndarray, proba: np.ndarray) -> np.ndarray:
    """The label of each row's most probable class (the first one on a tie)."""
    return classes[np.argmax(proba, axis=1)]


class TernaryPredictMixin:
    """`predict_proba`, `predict` and `predict_with_verdict` from ``predict_proba_verdict``.

    A class that mixes it in (left of ``BaseEstimator``) has ``classes_`` once fitted and
    implements ``predict_proba_verdict(X) -> (proba, verdict)``; every method here walks
    the model once through it.
    """

    classes_: np.ndarray

    def predict_proba_verdict(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError  # each classifier walks its own trees

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities, blended across the zones a row falls into.

        A forest's are the mean of its trees' blended probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the model was fitted on.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Each row's probabilities, in the order of ``classes_``; they sum to 1 (a
            class a forest's tree never saw gets probability 0 from that tree).
        """
        return self.predict_proba_verdict(X)[0]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The most probable class; every row gets one, decided or not.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the model was fitted on.

        Returns
        -------
        ndarray of shape (n_samples,)
            A label of ``classes_`` per row.
        """
        proba = self.predict_proba(X)  # checks the fit before classes_ is read
        return labels_of(self.classes_, proba)

    def predict_with_verdict(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """``(predict(X), predict_verdict(X))`` from one walk of the model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score, with the features the model was fitted on.

        Returns
        -------
        prediction : ndarray of shape (n_samples,)
            As `predict`.
        verdict : ndarray of shape (n_samples,), int8
            As `predict_verdict`: 1 = decided, 0 = boundary-uncertain.
        """
        proba, verdict = self.predict_proba_verdict(X)
        return labels_of(self.classes_, proba), verdict
