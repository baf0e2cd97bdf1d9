"""Optional packages: import them, or say which extra of ``ternary`` installs them.

The library needs numpy, scipy, scikit-learn, pandas, joblib and liac-arff only. Everything
else is imported where it is used, through `optional_import`, so a missing package is named
as such, with the ``pip install 'ternary[extra]'`` that brings it, instead of surfacing as a
bare ``ModuleNotFoundError`` (or worse, as a failure of whatever the package was reading).
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: import name -> (distribution to install, extra of ternary that installs it or None when
#: ternary itself depends on it)
OPTIONAL_PACKAGES: dict[str, tuple[str, str | None]] = {
    "tqdm": ("tqdm", "cli"),
    "numba": ("numba", "fast"),
    "openml": ("openml", "openml"),
    "distributed": ("dask[distributed]", "dask"),
    "dask": ("dask[distributed]", "dask"),
    "skops": ("skops", "cli"),
    "arff": ("liac-arff", None),
}


class MissingOptionalDependency(ImportError):
    """An optional package is not installed; the message says how to install it."""


def missing_message(module: str, purpose: str) -> str:
    """The message for a missing optional package.

    Parameters
    ----------
    module : str
        The import name (``"tqdm"``, ``"openml"``, ``"distributed"`` ...).
    purpose : str
        What needs it, as the start of a sentence (``"Loading OpenML datasets"``).

    Returns
    -------
    str
        A sentence naming the package and the command that installs it.

    Examples
    --------
    >>> print(missing_message("tqdm", "A progress bar"))  # doctest: +NORMALIZE_WHITESPACE
    A progress bar needs the optional package 'tqdm', which is not installed:
    pip install 'ternary[cli]' (or pip install 'tqdm').
    """
    dist, extra = OPTIONAL_PACKAGES.get(module, (module, None))
    if extra is None:
        how = f"pip install '{dist}' (a dependency of ternary: reinstalling ternary brings it)"
    else:
        how = f"pip install 'ternary[{extra}]' (or pip install '{dist}')"
    return f"{purpose} needs the optional package {dist!r}, which is not installed: {how}."


def optional_import(module: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise `MissingOptionalDependency` saying how to install it.

    Parameters
    ----------
    module : str
        The import name, for example ``"tqdm"``.
    purpose : str
        What needs it, as the start of a sentence.

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    MissingOptionalDependency
        When the package is not installed (or one of its own dependencies is missing:
        the message then names that one too).

    Examples
    --------
    >>> optional_import("json", "Reading settings").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = missing_message(module.split(".")[0], purpose)
        missing = getattr(exc, "name", None)
        if missing and missing.split(".")[0] != module.split(".")[0]:
            message += f" (importing it failed on {missing!r})"
        raise MissingOptionalDependency(message) from exc
