"""Ternary decision trees with locally-adaptive uncertainty zones, and tree grafting.

The library behind the ``ternary`` Streamlit app. It imports numpy, scipy, pandas
and scikit-learn only (openml lazily, where a loader needs it); figures live in
the separate ``viz`` package.

>>> from ternary import TernaryTreeClassifier
>>> from sklearn.datasets import make_moons
>>> X, y = make_moons(300, noise=0.3, random_state=0)
>>> clf = TernaryTreeClassifier(delta_method="margin", random_state=0).fit(X, y)
>>> clf.predict_verdict(X[:5]).dtype
dtype('int8')
"""

from ternary._classes import DELTA_METHODS, ROUTINGS, TernaryTreeClassifier, rezone
from ternary._forest import TernaryForestClassifier
from ternary._tree import TernaryTree
from ternary.export import export_text

__all__ = [
    "DELTA_METHODS",
    "ROUTINGS",
    "TernaryForestClassifier",
    "TernaryTree",
    "TernaryTreeClassifier",
    "export_text",
    "rezone",
]
__version__ = "0.1.0"
