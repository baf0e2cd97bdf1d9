"""The loaders' cleaning as a fitted scikit-learn transformer: raw rows in, the feature matrix out.

`Preprocessor.fit` learns, from raw rows with a file's columns (the label excluded),
everything a loader decides: which columns are set aside (identifiers, empty or
constant columns), how each remaining column is read (numbers, numbers stored as
text, decimal commas, the few junk values a numeric column treats as missing) and
encoded (one 0/1 column, one-hot, ordinal codes), the imputation values and the
float32 clipping. `Preprocessor.transform` repeats exactly that on any rows, so a
model fitted on ``ds.X`` can score a new file as it comes. The loaders build their
``X`` with this class (``Dataset.preprocessor`` is the fitted one), so the two
can never drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._clean import (
    _MISSING_CHOICES,
    _ORDINAL_THRESHOLD,
    _Column,
    _convert_feature,
    _fill_value,
    _finite_float32,
    _is_constant,
    _is_missing,
    _looks_like_identifier,
    _names_tuple,
)
from ._columns import (
    _MISSING_TOKENS,
    _WARN_SHARE,
    GAP_LEVEL,
    _by_frequency,
    _gap_line,
    _is_numeric_identifier,
    _numbers_the_rows,
)
from ._dataset import DataError, _quote_list, _quoted
from ._dates import _flags, _sentinel_line, _sentinels
from ._encode import (
    _convert_new,
    _encode_values,
    _encoding_line,
    _encoding_of,
    _indicated,
    _output_names,
    _Rule,
)

__all__ = ["Preprocessor", "TransformReport"]


@dataclass
class TransformReport:
    """What `Preprocessor.transform_with_report` met in the rows it transformed.

    Each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    n_rows : int, default=0
        Rows transformed.
    extra_columns : list of str, default=[]
        Input columns the preprocessor does not know; they were ignored.
    gaps : dict of str to int, default={}
        Missing values per input column (filled as at fit, or left NaN with
        ``missing="keep"``); columns without a gap are absent.
    unseen : dict of str to int, default={}
        Values of a text column never seen at fit, per column; each is treated
        like a gap. Columns without such a value are absent.
    no_date : dict of str to int, default={}
        Rows of a date column holding a date that fit read as a probable "no date"
        (such as 9999-12-31), per column: a gap in the days, 1 in its own 0/1 column.
    beyond_training : dict of str to int, default={}
        Dates earlier or later than every date of the column at fit, per column:
        the model answers them as it answers its first or last dates.
    """

    n_rows: int = 0
    extra_columns: list = field(default_factory=list)
    gaps: dict = field(default_factory=dict)
    unseen: dict = field(default_factory=dict)
    no_date: dict = field(default_factory=dict)
    beyond_training: dict = field(default_factory=dict)

    def lines(self) -> list[str]:
        """Write the report as sentences, one per finding.

        Returns
        -------
        list of str
            At most five sentences, in this order: the ignored columns, the gaps
            filled, the values never seen at fit, the "no date" dates, the dates
            beyond the training dates. Empty when nothing was met.
        """
        out = []
        if self.extra_columns:
            out.append(
                f"Ignored {len(self.extra_columns)} column(s) the model does not use: "
                f"{_quote_list(self.extra_columns, limit=10)}."
            )
        if self.gaps:
            out.append(
                f"Filled {sum(self.gaps.values())} gap(s) as in training, in "
                f"{_quote_list(list(self.gaps), limit=10)}."
            )
        if self.unseen:
            out.append(
                f"{sum(self.unseen.values())} value(s) never seen in training, in "
                f"{_quote_list(list(self.unseen), limit=10)}, were treated as gaps."
            )
        if self.no_date:
            out.append(
                f"{sum(self.no_date.values())} date(s) that training read as a probable "
                f'"no date" (a placeholder such as 9999-12-31 that filled at least 2 % of its '
                f"column), in {_quote_list(list(self.no_date), limit=10)}, were treated as gaps "
                "and marked in their own 0/1 columns, as in training."
            )
        if self.beyond_training:
            out.append(
                f"{sum(self.beyond_training.values())} date(s) in "
                f"{_quote_list(list(self.beyond_training), limit=10)} lie before or after every "
                "training date: the model answers them as it answers the first or last dates "
                "it saw."
            )
        return out


class Preprocessor(TransformerMixin, BaseEstimator):
    """The loaders' cleaning, learned from raw rows and repeated on new ones.

    Parameters
    ----------
    missing : {"impute", "drop", "keep"}, default="impute"
        As for `load_csv`. ``"impute"`` fills a gap with the column's median
        (numbers; plus a 0/1 column ``name=(missing)`` when at least 5 % of the
        rows are gaps) or makes it a level of its own, ``(missing)`` (text; named
        ``(missing 2)`` where a value of the column is spelled ``(missing)``), learned
        at fit. ``"drop"`` drops the training rows with a gap
        (see `fit_transform`'s ``kept_rows_``) and fills gaps of new rows with
        the values learned from the remaining rows. ``"keep"`` leaves every gap
        as NaN, in every column a text value becomes.
    ordinal_threshold : int, default=10
        Text columns with at most this many levels are one-hot encoded (one 0/1
        column for two levels); more levels become codes in order of frequency at
        fit (declared levels: in the declared order).
    missing_tokens : collection of str or None, default=None
        Lower-case texts meaning "no value" (compared after stripping spaces);
        None: the CSV loader's spellings ("", "?", "NA", "null", ...).
    decimal_comma : bool, default=False
        Read "1,5" as 1.5 in a column that is numeric only that way.
    nominal_levels : dict of str to list of str, optional
        Declared level order of text columns (ARFF); other columns order their
        levels alphabetically.
    drop_constant : bool, default=True
        Set aside encoded columns with a single value at fit.
    merge_spellings : bool, default=True
        Read levels of a text column that differ only in letter case as one level,
        named by the most frequent spelling (surrounding spaces never count);
        False keeps letter cases apart. Declared (ARFF) levels are never merged.
    keep_columns : collection of str, default=()
        Columns to use as features although they look like identifiers (nearly
        all-different text, or all-different integers under a name such as ``id``).

    Attributes
    ----------
    feature_names_in_ : ndarray of str
        The raw columns seen at fit, in order.
    n_features_in_ : int
    set_aside_ : dict of str to str
        Raw columns that feed no feature, with the reason ("identifier",
        "empty", "constant").
    report_ : list of str
        What fit decided, in the loader's words.
    kept_rows_ : ndarray of bool
        Rows of the fit data that are in the matrix (all but, with
        ``missing="drop"``, those with a gap).

    Notes
    -----
    `transform` matches columns by name, in any order. A column it does not
    know is ignored; a missing one is a ValueError naming it. A gap is filled
    as at fit: the ``(missing)`` level of a text column that had gaps at fit,
    else its most frequent level; a number's median, marked in its
    ``name=(missing)`` column where it has one. The markers a column read as
    levels at fit (a frequent ``none``) stay levels. A text value never seen at
    fit, after matching letter case like fit did (``" NORTH"`` is ``North``), is
    treated as a gap, and so is a text in a date column that is no date in the
    formats fit met (both counted as unseen by `transform_with_report`). Other text
    in a numeric column is a ValueError, unless fit met that very text in that
    column and read it as missing. Infinities become gaps and magnitudes beyond
    float32 are clipped, as at fit.

    A text is a level exactly as fit mapped it: the gap level is reached by gaps
    only, never by a text spelled like it. Dates are days counted from the calendar
    (years 0001 to 9999 exact); a date fit read as a probable "no date" (9999-12-31
    filling at least 2 % of the rows, as `load_csv` reads dates) is a gap in the
    days and 1 in its own 0/1 column ``name=9999-12-31``, at fit and at transform;
    `transform_with_report` counts those and the dates before or after every
    training date.

    Examples
    --------
    >>> import pandas as pd
    >>> raw = pd.DataFrame({"age": [30, None, 50, 41], "sex": ["F", "M", "M", "F"]})
    >>> pre = Preprocessor().fit(raw)
    >>> pre.get_feature_names_out().tolist()
    ['age', 'sex=M']
    >>> pre.transform(pd.DataFrame({"sex": ["M"], "age": [None]})).tolist()
    [[41.0, 1.0]]
    """

    def __init__(
        self,
        missing: str = "impute",
        ordinal_threshold: int = _ORDINAL_THRESHOLD,
        missing_tokens=None,
        decimal_comma: bool = False,
        nominal_levels: dict | None = None,
        drop_constant: bool = True,
        merge_spellings: bool = True,
        keep_columns=(),
    ):
        self.missing = missing
        self.ordinal_threshold = ordinal_threshold
        self.missing_tokens = missing_tokens
        self.decimal_comma = decimal_comma
        self.nominal_levels = nominal_levels
        self.drop_constant = drop_constant
        self.merge_spellings = merge_spellings
        self.keep_columns = keep_columns

    # ------------------------------------------------------------------ fit
    def fit(self, X, y=None):
        """Learn the cleaning from raw rows.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_rows, n_columns)
            Raw rows: the file's columns (numbers or text), the label excluded. An
            array's columns are named ``x0``, ``x1``, ...
        y : None
            Ignored; accepted for scikit-learn's API.

        Returns
        -------
        Preprocessor
            This preprocessor, fitted.

        Raises
        ------
        DataError
            For a ``missing`` that is not a choice, or when no usable feature column
            (or, with ``missing="drop"``, no row) is left.
        ValueError
            When ``X`` is not 2-D or repeats a column name.
        """
        self._fit(_as_frame(X), report=[])
        return self

    def fit_transform(self, X, y=None, **fit_params):
        """Learn the cleaning from ``X`` and return its matrix (one pass).

        With ``missing="drop"`` the matrix holds only the rows in ``kept_rows_``.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_rows, n_columns)
            Raw rows, as for `fit`.
        y : None
            Ignored; accepted for scikit-learn's API.
        **fit_params : dict
            Ignored; accepted for scikit-learn's API.

        Returns
        -------
        ndarray of shape (n_kept_rows, n_features_out)
            The float64 feature matrix of the rows in ``kept_rows_``, equal to
            ``fit(X).transform(X)`` on those rows.

        Raises
        ------
        DataError, ValueError
            As for `fit`.
        """
        out = self._fit(_as_frame(X), report=[])
        return self._wrap(out, X)

    def _fit(
        self,
        frame: pd.DataFrame,
        report: list[str],
        keep: np.ndarray | None = None,
        columns: list[str] | None = None,
        labels: np.ndarray | None = None,
        parsed_gaps: dict | None = None,
    ):
        """Fit on ``frame`` (its ``columns``, rows ``keep``); return the float64 block.

        The loaders pass their whole parsed table with the feature columns and the
        labelled rows, so no copy of the table is made, and the labels of those rows
        for the check that dropping rows with gaps leaves two classes. ``parsed_gaps``
        (CSV) names, per column, the texts the parser already read as gaps, for the report.
        """
        if self.missing not in _MISSING_CHOICES:
            raise DataError(
                f"missing={_quoted(self.missing)} is not a choice; use 'impute', 'drop' or 'keep'."
            )
        columns = [str(c) for c in (frame.columns if columns is None else columns)]
        if len(set(columns)) != len(columns):
            raise ValueError("The rows have repeated column names; give every column one name.")
        self.feature_names_in_ = np.asarray(columns, dtype=object)
        self.n_features_in_ = len(columns)
        converted, rules, flags = self._convert_all(frame, columns, keep, report, parsed_gaps or {})
        rows = self._learn_missing(converted, report, flags)
        if labels is not None and len(np.unique(labels[rows])) < 2:
            raise DataError(
                "Only one class is left after removing rows with missing values; a classifier "
                "needs at least two. Use missing='impute' instead of 'drop'."
            )
        out = self._learn_encoding(converted, rules, report, flags)
        block = _block(out, int(rows.sum()))
        self._rules = rules
        self.kept_rows_ = rows
        self.report_ = list(report)
        self.set_aside_ = {
            r.name: ("identifier" if r.role == "id number" else r.role)
            if r.role != "feature"
            else "constant"
            for r in rules
            if r.role != "feature" or not any(r.kept)
        }
        self.feature_names_out_ = np.asarray(
            [n for r in rules for n, k in zip(r.outputs, r.kept, strict=True) if k], dtype=object
        )
        return block

    @property
    def _tokens(self) -> frozenset:
        if self.missing_tokens is None:
            return _MISSING_TOKENS
        return frozenset(str(t).strip().lower() for t in self.missing_tokens)

    def _convert_all(self, frame, columns, keep, report, parsed_gaps):
        levels = self.nominal_levels or {}
        every_row = keep is None or bool(keep.all())
        keep_columns = set(_names_tuple(self.keep_columns))
        converted, rules, from_text = [], [], []
        flags: dict[str, np.ndarray] = {}  # a date column's sentinel per row
        for name in columns:
            raw = frame[name] if every_row else frame[name][keep]
            c = _convert_feature(
                name,
                raw,
                levels.get(name),
                self.decimal_comma,
                report,
                self._tokens,
                merge=bool(self.merge_spellings),
            )
            line = _gap_line(name, c.gaps or {}, parsed_gaps.get(name))
            report.extend([line] if line else [])
            if c.kind == "numeric":
                _finite_float32(c, report)
            if c.kind == "numeric" and np.isnan(c.values).all():
                rules.append(_Rule(name, "empty"))
            elif name not in keep_columns and _is_identifier(c):
                rules.append(_Rule(name, "identifier" if c.kind != "numeric" else "id number"))
            else:
                comma = c.decimal_comma or (c.thousands and self.decimal_comma)
                rule = _Rule(name, "feature", c.kind, comma, c.thousands, tuple(sorted(c.junk)))
                rule.dates, rule.merge = c.dates, c.merge
                if c.tokens is not None and c.tokens != self._tokens:
                    rule.tokens = tuple(sorted(c.tokens))
                if c.dates:
                    _mark_sentinels(c, rule, report, flags)
                rules.append(rule)
                converted.append(c)
                from_text += [name] if c.from_text else []
        _report_set_aside(rules, from_text, report)
        if not converted:
            raise DataError(
                "No usable feature columns are left: every feature column is empty "
                "or an identifier. Add numeric or categorical feature columns."
            )
        ordered = [r for r in rules if r.role == "feature"]
        return converted, ordered + [r for r in rules if r.role != "feature"], flags

    def _learn_missing(self, converted: list[_Column], report: list[str], flags) -> np.ndarray:
        """Drop, keep or impute the gaps of ``converted`` in place; return the kept rows.

        A date column's sentinels (``flags``) are gaps in its days already; its 0/1 gap
        column marks the other gaps only.
        """
        n_rows = len(converted[0].values)
        rows = np.ones(n_rows, dtype=bool)
        if self.missing == "drop":
            for c in converted:
                rows &= ~_is_missing(c)
            n_drop = int((~rows).sum())
            if n_drop == n_rows:
                raise DataError(
                    "No usable rows are left: every row has at least one missing feature "
                    "value. Use missing='impute' to fill them in, or remove mostly-empty columns."
                )
            if n_drop:
                report.append(
                    f"Dropped {n_drop} rows with missing feature values ({n_rows - n_drop} remain)."
                )
                for c in converted:
                    c.values = c.values[rows]
                for name in flags:
                    flags[name] = flags[name][rows]
        elif self.missing == "keep":
            counts = {c.name: int(_is_missing(c).sum()) for c in converted}
            kept = {k: v for k, v in counts.items() if v}
            if kept:
                report.append(
                    f"Kept {sum(kept.values())} missing feature value(s) as NaN in "
                    f"{len(kept)} column(s) ({_quote_list(list(kept), limit=10)}), as "
                    "missing='keep' asks: impute them inside each cross-validation fold "
                    "before fitting."
                )
        marked: dict[bytes, str] = {}  # gap rows -> the column whose 0/1 column marks them
        for c in converted:
            if self.missing == "impute":
                c.gap_mask = _is_missing(c)
                if c.name in flags:
                    c.gap_mask &= flags[c.name] < 0
                if c.kind == "categorical" and c.gap_mask.any():
                    # A gap is a level of its own: a split can learn what a gap says.
                    c.fill = self._gap_level(c, report)
                    c.levels = [*(c.levels or []), c.fill]
                else:
                    c.fill = _fill_value(c)
                _impute(c, report, marked, c.gap_mask)
            else:
                c.fill = None if self.missing == "keep" else _fill_value(c)
        return rows

    def _gap_level(self, c: _Column, report: list[str]) -> str:
        """The name of a text column's gap level: ``(missing)``, unless a value of the
        column (or a declared level) is spelled so in any letter case; then
        ``(missing 2)`` (or the next free number), and the report says why."""
        spelled = [*(c.levels or []), *(self.nominal_levels or {}).get(c.name, [])]
        taken = {str(lv).strip().lower() for lv in spelled}
        name, k = GAP_LEVEL, 2
        while name in taken:
            name, k = f"(missing {k})", k + 1
        if name != GAP_LEVEL:
            real = next(lv for lv in spelled if str(lv).strip().lower() == GAP_LEVEL)
            report.append(
                f"Column {_quoted(c.name)}: its gaps are the level {_quoted(name)}, not "
                f"{_quoted(GAP_LEVEL)}: {_quoted(real)} is one of its values, kept apart."
            )
        return name

    def _learn_encoding(self, converted, rules, report, flags) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        taken: set[str] = set()
        encoded: list[str] = []
        for c, rule in zip(converted, rules, strict=False):
            rule.fill = c.fill
            if c.kind == "categorical":
                present = set(c.values.tolist())
                rule.levels = [lv for lv in c.levels if lv in present]
                rule.encoding = _encoding_of(rule.levels, self.ordinal_threshold, c.declared)
                if rule.encoding == "frequency":
                    rule.levels = _by_frequency(c.values, rule.levels)
                encoded.append(_encoding_line(rule, c.declared, self.ordinal_threshold))
            else:
                rule.indicator = c.indicator
            if c.kind == "categorical" and c.gap_mask is not None and c.gap_mask.any():
                rule.gap = c.fill
            if c.dates and not np.isnan(c.values).all():
                rule.span = (float(np.nanmin(c.values)), float(np.nanmax(c.values)))
            rule.outputs = _output_names(rule, taken)
            columns = _encode_values(rule, c.values, c.gap_mask, flags.get(c.name))
            for name, values in zip(rule.outputs, columns, strict=True):
                out[name] = values
        report.extend(encoded)
        constant = [k for k, v in out.items() if self.drop_constant and _is_constant(v)]
        if constant:
            report.append(f"Dropped {len(constant)} constant column(s): {_quote_list(constant)}.")
            for k in constant:
                del out[k]
        for rule in rules:
            rule.kept = [n in out for n in rule.outputs]
        if not out:
            raise DataError(
                "No feature columns are left after dropping constant and empty "
                "columns. Add columns whose values vary between rows."
            )
        return out

    # ------------------------------------------------------------ transform
    def transform(self, X):
        """The feature matrix of raw rows, exactly as the loader would build it.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_rows, n_columns)
            Raw rows with (at least) the columns seen at fit, in any order; an array
            must hold exactly those columns, in fit's order.

        Returns
        -------
        ndarray of shape (n_rows, n_features_out)
            The float64 feature matrix, one row per input row, its columns named by
            `get_feature_names_out`.

        Raises
        ------
        ValueError
            When a column the matrix needs is absent, or a numeric column holds text
            that fit did not read as missing.
        sklearn.exceptions.NotFittedError
            Before `fit`.
        """
        block, _ = self._transform(X)
        return block

    def transform_with_report(self, X) -> tuple[np.ndarray, TransformReport]:
        """`transform`, and what it met: ignored columns, gaps and unseen values.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_rows, n_columns)
            Raw rows, as for `transform`.

        Returns
        -------
        matrix : ndarray of shape (n_rows, n_features_out)
            What `transform` returns.
        report : TransformReport
            The columns ignored, and the gaps and unseen values met, per column.

        Raises
        ------
        ValueError, sklearn.exceptions.NotFittedError
            As for `transform`.
        """
        return self._transform(X)

    def _transform(self, X) -> tuple[np.ndarray, TransformReport]:
        check_is_fitted(self, "feature_names_out_")
        frame = self._matched(X)
        notes = TransformReport(n_rows=len(frame))
        notes.extra_columns = [
            str(c) for c in frame.columns if str(c) not in set(self.feature_names_in_)
        ]
        out: dict[str, np.ndarray] = {}
        for rule in self._rules:
            if rule.role != "feature" or not any(rule.kept):
                continue
            tokens = self._tokens if rule.tokens is None else frozenset(rule.tokens)
            values, missing, flags, met = _convert_new(rule, frame[rule.name], tokens)
            for key, count in met.items():
                if count:
                    getattr(notes, key)[rule.name] = count
            encoded = _encode_values(rule, values, missing, flags)
            for name, keep, column in zip(rule.outputs, rule.kept, encoded, strict=True):
                if keep:
                    out[name] = column
        return self._wrap(_block(out, len(frame)), X), notes

    def _matched(self, X) -> pd.DataFrame:
        if not isinstance(X, pd.DataFrame):
            arr = np.asarray(X, dtype=object)
            if arr.ndim != 2 or arr.shape[1] != self.n_features_in_:
                raise ValueError(
                    f"Expected a table with the {self.n_features_in_} columns seen at fit "
                    f"({_quote_list(list(self.feature_names_in_), limit=10)}); pass a DataFrame "
                    "with those column names."
                )
            return pd.DataFrame(arr, columns=list(self.feature_names_in_))
        frame = X.rename(columns=str) if not all(isinstance(c, str) for c in X.columns) else X
        needed = [r.name for r in self._rules if r.role == "feature" and any(r.kept)]
        absent = [n for n in needed if n not in frame.columns]
        if absent:
            raise ValueError(
                f"The rows lack {len(absent)} column(s) the model needs: "
                f"{_quote_list(absent, limit=10)}. Add them (a gap in every row is fine)."
            )
        return frame

    def _wrap(self, block: np.ndarray, X) -> np.ndarray:
        return block

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Name the matrix's columns (one per encoded feature kept).

        Parameters
        ----------
        input_features : None
            Ignored; accepted for scikit-learn's API (the names come from fit).

        Returns
        -------
        ndarray of str
            In the matrix's column order: a raw column's own name (numbers, ordinal
            codes), ``name=level`` for each one-hot column and for the 0/1 column of
            a two-level text column (its second level).
        """
        check_is_fitted(self, "feature_names_out_")
        return self.feature_names_out_.copy()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True
        tags.requires_fit = True
        return tags


# --------------------------------------------------------------------------- helpers
def _as_frame(X) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        return X
    arr = np.asarray(X, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"Expected a 2-D table of raw rows; got shape {arr.shape}.")
    return pd.DataFrame(arr, columns=[f"x{i}" for i in range(arr.shape[1])])


def _block(out: dict[str, np.ndarray], n_rows: int) -> np.ndarray:
    """The matrix, one float64 block in column order; each column released once copied."""
    names = list(out)
    block = np.empty((n_rows, len(names)), dtype=np.float64, order="F")
    for j, name in enumerate(names):
        block[:, j] = out.pop(name)
    return block


def _is_identifier(c: _Column) -> bool:
    if c.kind == "categorical":
        return _looks_like_identifier(c.values)
    if c.dates:
        return False
    return _is_numeric_identifier(c.name, c.values) or (c.integer and _numbers_the_rows(c.values))


def _report_set_aside(rules: list[_Rule], from_text: list[str], report: list[str]) -> None:
    all_nan = [r.name for r in rules if r.role == "empty"]
    identifiers = [r.name for r in rules if r.role == "identifier"]
    numbers = [r.name for r in rules if r.role == "id number"]
    if numbers:
        report.append(
            f"Set aside {len(numbers)} integer column(s) whose values are all different and "
            "that number the rows (1..n or 0..n-1 in file order) or whose name says "
            f"identifier: {_quote_list(numbers)} (kept for display, not a "
            "feature: a tree could split on the row order). Pass keep_columns="
            f"[{_quoted(numbers[0])}] to use it as a feature."
        )
    if from_text:
        report.append(
            f"Read {len(from_text)} column(s) of numbers stored as text (quoted, "
            f"padded with spaces, or declared nominal) as numeric: "
            f"{_quote_list(from_text, limit=10)}."
        )
    if all_nan:
        report.append(
            f"Dropped {len(all_nan)} column(s) with no values at all: {_quote_list(all_nan)}."
        )
    if identifiers:
        report.append(
            f"Dropped {len(identifiers)} text column(s) whose values are (nearly) all "
            f"different (identifiers, not features): {_quote_list(identifiers)}."
        )


def _mark_sentinels(c: _Column, rule: _Rule, report: list[str], flags: dict) -> None:
    """Name a date column's sentinels (probable "no date" placeholders) in the report,
    make them gaps in its days and keep which row held which in ``flags``."""
    rule.sentinels = _sentinels(c.values)
    held = _flags(c.values, rule.sentinels)
    if held is None:
        return
    for k, day in enumerate(rule.sentinels):
        report.append(_sentinel_line(c.name, day, int((held == k).sum()), len(c.values)))
    c.values = np.where(held >= 0, np.nan, c.values)
    flags[c.name] = held


def _impute(c: _Column, report: list[str], marked: dict[bytes, str], gaps: np.ndarray) -> None:
    """Fill the gaps of ``c``; a numeric column's common gaps get a 0/1 column.

    ``gaps`` marks the gaps proper: a date column's sentinels are filled too, but
    have 0/1 columns of their own. Columns with gaps in the very same rows (sensors
    down together) share the first one's 0/1 column: more copies of it would add
    nothing a split can use.
    """
    miss = _is_missing(c)
    n_miss = int(miss.sum())
    if not n_miss:
        return
    if c.kind == "numeric":
        c.values = np.where(miss, c.fill, c.values)
        marks = ""
        if _indicated(gaps):
            first = marked.setdefault(np.packbits(gaps).tobytes(), c.name)
            c.indicator = first == c.name
            marks = f"; the 0/1 column {_quoted(f'{first}={GAP_LEVEL}')} marks them" + (
                "" if c.indicator else " (gaps in the same rows)"
            )
        n_gaps = int(gaps.sum())
        what = (
            "missing value(s)"
            if n_gaps == n_miss
            else f'value(s) ({n_gaps} missing, {n_miss - n_gaps} "no date")'
        )
        report.append(
            f"Column {_quoted(c.name)}: imputed {n_miss} {what} with the median {c.fill:g}{marks}."
        )
        if n_miss > _WARN_SHARE * len(miss):
            report.append(
                f"Warning: column {_quoted(c.name)} had {100 * n_miss / len(miss):.3g} % of its "
                f"values missing (more than {100 * _WARN_SHARE:.0f} %), filled with the median "
                f"{c.fill:g}: its splits rest on the few values measured."
            )
    else:
        c.values = np.where(miss, c.fill, c.values).astype(object)
        report.append(
            f"Column {_quoted(c.name)}: {n_miss} missing value(s) kept as a level of their "
            f"own, {_quoted(c.fill)}."
        )
