"""The dataset container every loader returns, and the one exception they raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

# Quoted user text (a value, a type, a column name) is cut to this many characters
# in messages: a file can hold a single multi-megabyte token, and echoing it whole
# would make the message itself the problem.
_QUOTE_LIMIT = 200


class DataError(ValueError):
    """A dataset could not be loaded; the message says why and what to do."""


@dataclass
class Dataset:
    """A classification dataset ready for a tree.

    Parameters
    ----------
    X : pandas.DataFrame
        Numeric features, one float64 column per feature, named.
    y : numpy.ndarray
        1-D array of labels, keeping the original label values (e.g. strings).
    class_names : list of str
        Sorted unique labels, as strings.
    name : str
        Human-readable name.
    source : str
        Where it came from: "builtin", "sklearn", "breiman", "csv", "arff" or
        "openml".
    bayes_error : float or None
        Published (or analytic) Bayes error rate, when known.
    report : list of str
        Human-readable lines describing what loading did.
    preprocessor : Preprocessor or None
        The fitted `Preprocessor` that made ``X`` from ``raw`` (file loaders);
        ``preprocessor.transform(rows)`` builds the same matrix for new raw rows.
        None for the generated datasets.
    raw : pandas.DataFrame or None
        The rows of ``X`` as the file had them: every column (identifiers and the
        label included), as parsed; its index is the row's position among the
        file's data rows (0-based). None for the generated datasets.
    target : str or None
        The name of the label column in ``raw``.
    file_rows : int or None
        The data rows the file loader parsed, before any was dropped (a missing
        label, ``missing="drop"``); None for the generated datasets.
    file_lines : numpy.ndarray or None
        The 1-based line of the file on which each row of ``raw`` starts (the
        header, blank and comment lines, an Excel ``sep=`` line and quoted line
        breaks counted as the loader reads them); None when not known (generated
        data, OpenML, or a file whose records could not be matched to its rows).
    delimiter : str or None
        The field delimiter a CSV was read with (found or declared by ``sep=``);
        ``","`` for ARFF; None for the rest.
    """

    X: pd.DataFrame
    y: np.ndarray
    class_names: list[str]
    name: str
    source: str
    bayes_error: float | None = None
    report: list[str] = field(default_factory=list)
    preprocessor: Any = field(default=None, repr=False)
    raw: pd.DataFrame | None = field(default=None, repr=False)
    target: str | None = None
    file_rows: int | None = None
    file_lines: np.ndarray | None = field(default=None, repr=False)
    delimiter: str | None = None

    def __post_init__(self) -> None:
        # Catch programming errors early: a mismatch here would otherwise
        # surface as a confusing shape error deep inside a fit.
        if len(self.X) != len(self.y):
            raise DataError(
                f"X has {len(self.X)} rows but y has {len(self.y)} labels; "
                "build the Dataset from aligned features and labels."
            )

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """Number of feature columns."""
        return int(self.X.shape[1])

    @property
    def feature_names(self) -> list[str]:
        """Feature column names, in order."""
        return [str(c) for c in self.X.columns]

    @property
    def warnings(self) -> list[str]:
        """The report's warnings (lines that begin "Warning:"), for showing apart."""
        return [line for line in self.report if line.startswith("Warning:")]

    @property
    def n_classes(self) -> int:
        """Number of distinct labels."""
        return len(self.class_names)

    def summary(self) -> dict[str, Any]:
        """Describe the dataset in a small JSON-friendly dict.

        Returns
        -------
        dict
            Keys ``name``, ``source``, ``n_samples``, ``n_features``,
            ``n_classes``, ``class_names``, ``class_counts`` (label string to
            count), ``bayes_error``.
        """
        labels, counts = np.unique(self.y, return_counts=True)
        return {
            "name": self.name,
            "source": self.source,
            "n_samples": self.n_samples,
            "n_features": self.n_features,
            "n_classes": self.n_classes,
            "class_names": list(self.class_names),
            "class_counts": {str(k): int(v) for k, v in zip(labels, counts, strict=True)},
            "bayes_error": self.bayes_error,
        }


def _class_names(y: np.ndarray) -> list[str]:
    return [str(v) for v in np.unique(y)]


def _shorten(text: object, limit: int = _QUOTE_LIMIT) -> str:
    """``text`` as a string of at most ``limit`` characters, an ellipsis marking a cut."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _quoted(text: object, limit: int = _QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters, for quoting user text in a message."""
    return repr(_shorten(text, limit))


def _quote_list(names: list[str], limit: int = 30) -> str:
    shown = ", ".join(_quoted(n) for n in names[:limit])
    if len(names) > limit:
        shown += f", … ({len(names) - limit} more)"
    return shown
