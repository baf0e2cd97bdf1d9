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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The public names load on first use (PEP 562), so ``import ternary`` stays cheap: the
# estimators need scikit-learn, whose import (with scipy and pandas) takes seconds on a
# cold start. ``from ternary import TernaryTreeClassifier`` loads it as usual.
_PUBLIC = {
    "DELTA_METHODS": "ternary._params",
    "FOREST_PARAMETERS": "ternary._params",
    "GRAFT_MODES": "ternary._params",
    "PARAMETERS": "ternary._params",
    "ROUTINGS": "ternary._params",
    "ZONE_EDGES": "ternary._params",
    "default_feature_names": "ternary._validation",
    "validate_params": "ternary._params",
    "TernaryTreeClassifier": "ternary._classes",
    "rezone": "ternary._classes",
    "TernaryForestClassifier": "ternary._forest",
    "TernaryTree": "ternary.tree",
    "export_text": "ternary.export",
    "export_python": "ternary._export_python",
    "export_sql": "ternary._export_sql",
    "extract_rules": "ternary.rules",
    "make_pipeline": "ternary.pipeline",
    "TernaryPipeline": "ternary.pipeline",
}

__all__ = [
    "DELTA_METHODS",
    "FOREST_PARAMETERS",
    "GRAFT_MODES",
    "PARAMETERS",
    "ROUTINGS",
    "ZONE_EDGES",
    "TernaryForestClassifier",
    "TernaryPipeline",
    "TernaryTree",
    "TernaryTreeClassifier",
    "export_python",
    "export_sql",
    "export_text",
    "extract_rules",
    "make_pipeline",
    "default_feature_names",
    "rezone",
    "validate_params",
]
__version__ = "0.1.0"

if TYPE_CHECKING:  # static tools see the names directly
    from ternary._classes import TernaryTreeClassifier, rezone
    from ternary._export_python import export_python
    from ternary._export_sql import export_sql
    from ternary._forest import TernaryForestClassifier
    from ternary._params import (
        DELTA_METHODS,
        FOREST_PARAMETERS,
        GRAFT_MODES,
        PARAMETERS,
        ROUTINGS,
        ZONE_EDGES,
        validate_params,
    )
    from ternary._validation import default_feature_names
    from ternary.export import export_text
    from ternary.pipeline import TernaryPipeline, make_pipeline
    from ternary.rules import extract_rules
    from ternary.tree import TernaryTree


def __getattr__(name: str):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'ternary' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
