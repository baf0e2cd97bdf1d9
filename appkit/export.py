"""Take the model away: the fitted tree in the skops format, and a script that rebuilds it."""

from __future__ import annotations

import streamlit as st

from appkit.model import FitSpec
from ternary.data import Dataset

__all__ = ["LOAD_SNIPPET", "downloadable", "model_bytes", "rebuild_script"]

#: how to open the downloaded file: ternary's loader builds only the types its models
#: hold (ternary.pipeline.MODEL_TYPES) and refuses any other file before it runs
LOAD_SNIPPET = """from ternary.pipeline import load_model

clf = load_model("{file}")  # refuses a file holding anything but ternary's model types
"""


@st.cache_data(show_spinner=False, max_entries=16)
def model_bytes(_model, key: tuple) -> bytes:
    """``_model`` serialised with skops (a format that loads without running pickle code)."""
    import skops.io as sio

    return sio.dumps(_model)


def downloadable(ds: Dataset, spec: FitSpec, clf):
    """What the skops download holds: for a loaded file on every feature, the pipeline of
    the loader's preprocessor and ``clf``, which takes the file's raw rows; else ``clf``."""
    if ds.preprocessor is None or spec.features is not None:
        return clf
    from ternary import make_pipeline

    return make_pipeline(ds.preprocessor, clf)


def _data_lines(ds: Dataset, generator_kwargs: dict | None, upload: dict | None) -> list[str]:
    if generator_kwargs is not None:
        args = "".join(f", {k}={v!r}" for k, v in generator_kwargs.items())
        return [
            "from ternary.data import load_builtin",
            "",
            f"ds = load_builtin({ds.name!r}{args})",
        ]
    if upload is not None:
        file = upload["file"]
        options = f", target={upload['target']!r}, missing={upload['missing']!r}"
    else:
        file, options = f"{ds.name}.csv", ""
    return [
        "import sys",
        "from pathlib import Path",
        "",
        "from ternary.data import load_file",
        "",
        f"# usage: python THIS_SCRIPT.py PATH/TO/FILE  (default: {file!r} in the current folder)",
        f"default = Path({file!r})",
        "path = Path(sys.argv[1]) if len(sys.argv) > 1 else default",
        "if not path.is_file():",
        '    sys.exit(f"No data file {path}: give the path of {default.name} as argument 1.")',
        "# your file, read with the options the app used",
        f"ds = load_file(path{options})",
    ]


def _import_lines(estimator: str) -> list[str]:
    """The script's ternary import, with a plain message where ternary is not installed."""
    return [
        "try:",
        f"    from ternary import {estimator}, export_text",
        "except ModuleNotFoundError:  # run outside the clone without installing it",
        "    raise SystemExit(",
        '        "This script needs the ternary package: pip install -e PATH/TO/ternary "',
        '        "(the clone), or pip install ternary."',
        "    ) from None",
    ]


def _scale_lines(standardize: bool) -> list[str]:
    if not standardize:
        return []
    return [
        "from sklearn.preprocessing import StandardScaler",
        "",
        "# the app's 'Standardise features': mean 0, variance 1 over every row",
        "ds.X[:] = StandardScaler().fit_transform(ds.X)",
    ]


def _split_lines(spec: FitSpec) -> list[str]:
    if spec.test_size <= 0:
        return [
            "# test fraction 0: fitted on every row, the figures computed on those same rows",
            "X_train, X_test, y_train, y_test = X, X, ds.y, ds.y",
        ]
    return [
        "_, counts = np.unique(ds.y, return_counts=True)",
        f"n_test = int(np.ceil({spec.test_size!r} * len(ds.y)))",
        "stratify = ds.y if counts.min() >= 2 and n_test >= len(counts) else None",
        "X_train, X_test, y_train, y_test = train_test_split(",
        f"    X, ds.y, test_size={spec.test_size!r}, random_state={spec.seed!r}, stratify=stratify",
        ")",
    ]


def rebuild_script(
    ds: Dataset,
    spec: FitSpec,
    *,
    generator_kwargs: dict | None = None,
    upload: dict | None = None,
    member: int | None = None,
    standardize: bool = False,
) -> str:
    """A short Python script that loads the data, splits it and fits the same tree (or forest).

    For a forest, ``member`` is the member tree whose rules the script prints;
    ``standardize`` repeats the app's "Standardise features" setting.

    The split repeats the app's (stratified when every class has two rows and
    the test part can hold each class), so the fitted tree is the app's.
    """
    features = "ds.X" if spec.features is None else f"ds.X[{list(spec.features)!r}]"
    params = ",\n".join(f"    {k}={v!r}" for k, v in spec.params.items())
    estimator = "TernaryForestClassifier" if spec.forest else "TernaryTreeClassifier"
    what = "forest" if spec.forest else "tree"
    # the name comes from the upload's file name: a repr() literal (not a triple-quoted
    # docstring it could close) keeps it text whatever quotes it holds
    docstring = repr(f"Rebuild the ternary {what} the app showed for {ds.name!r}.")
    lines = [
        docstring,
        "",
        "import numpy as np",
        "from sklearn.model_selection import train_test_split",
        "",
        *_import_lines(estimator),
        *_data_lines(ds, generator_kwargs, upload),
        *_scale_lines(standardize),
        f"X = {features}",
        *_split_lines(spec),
        f"clf = {estimator}(",
        params + ",",
        ").fit(X_train, y_train)",
        "",
        "pred, verdict = clf.predict_with_verdict(X_test)",
        "print(export_text(clf))"
        if member is None or not spec.forest
        else f"print(export_text(clf.estimators_[{member}], feature_names=list(X.columns)))",
        'print(f"boundary-uncertain: {np.mean(verdict == 0):.1%} of the test rows")',
        "",
    ]
    return "\n".join(lines)
