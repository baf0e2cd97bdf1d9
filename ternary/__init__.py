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

The public surface, in one screen:

* the estimators `TernaryTreeClassifier` and `TernaryForestClassifier`, and `rezone`
  (new zones on a fitted tree's structure);
* `make_pipeline` and `TernaryPipeline`: preprocessing and a model in one object
  (`ternary.pipeline` also saves, loads and scores them);
* `TernaryTree`, a fitted tree's arrays (`ternary.tree` walks them);
* the exporters `export_text`, `export_python`, `export_sql` and `extract_rules`;
* the choices of the main parameters: `DELTA_METHODS`, `ROUTINGS`, `GRAFT_MODES`,
  `ZONE_EDGES`;
* the modules `ternary.data` (datasets and loaders), `ternary.selective`,
  `ternary.review`, `ternary.metrics`, `ternary.explain`, `ternary.rules`,
  `ternary.delta`, `ternary.graft`, `ternary.experiment`, `ternary.codegen` and
  `ternary.compiled`.

The parameter table the app builds its widgets from (``PARAMETERS``,
``FOREST_PARAMETERS``, ``validate_params``) and ``default_feature_names`` are
importable from ``ternary`` too, but are not part of this surface.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The public names load on first use (PEP 562), so ``import ternary`` stays cheap: the
# estimators need scikit-learn, whose import (with scipy and pandas) takes seconds on a
# cold start. ``from ternary import TernaryTreeClassifier`` loads it as usual.
_PUBLIC = {
    "DELTA_METHODS": "ternary._params",
    "GRAFT_MODES": "ternary._params",
    "ROUTINGS": "ternary._params",
    "ZONE_EDGES": "ternary._params",
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
# The app's plumbing: importable from ``ternary`` (the app and the tests take it from
# here, never from a private module), loaded lazily like the rest, not in ``__all__``.
_PLUMBING = {
    "FOREST_PARAMETERS": "ternary._params",
    "PARAMETERS": "ternary._params",
    "default_feature_names": "ternary._validation",
    "validate_params": "ternary._params",
}

__all__ = [
    "DELTA_METHODS",
    "GRAFT_MODES",
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
    "rezone",
]
__version__ = "0.1.0"

if TYPE_CHECKING:  # static tools see the names directly
    from ternary._classes import TernaryTreeClassifier, rezone
    from ternary._export_python import export_python
    from ternary._export_sql import export_sql
    from ternary._forest import TernaryForestClassifier
    from ternary._params import DELTA_METHODS, GRAFT_MODES, ROUTINGS, ZONE_EDGES

    # the plumbing, re-exported under its own name (importable, not in __all__)
    from ternary._params import FOREST_PARAMETERS as FOREST_PARAMETERS
    from ternary._params import PARAMETERS as PARAMETERS
    from ternary._params import validate_params as validate_params
    from ternary._validation import default_feature_names as default_feature_names
    from ternary.export import export_text
    from ternary.pipeline import TernaryPipeline, make_pipeline
    from ternary.rules import extract_rules
    from ternary.tree import TernaryTree


def __getattr__(name: str):
    module = _PUBLIC.get(name) or _PLUMBING.get(name)
    if module is None:
        raise AttributeError(f"module 'ternary' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC) | set(_PLUMBING))
