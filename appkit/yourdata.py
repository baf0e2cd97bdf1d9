"""Your data, answered: which rows the full-feature model cannot decide, and new rows scored.

Every row of the loaded file gets an out-of-fold answer from the library
(`ternary.experiment.out_of_fold_answers`: k-fold, so no row is judged by a model that saw
it, the loader's `Preprocessor` refitted on each training fold); a picked row is explained
by the fold model that gave its answer. The "full" model is fitted on every row once
(``make_pipeline(ds.preprocessor, model)``): it scores a second file (never retrained on
it) and is the pipeline the page exports; the page shows its answer for a picked row
beside the fold model's. The review budget becomes a confidence threshold learned from the
full model's confidences on the training rows (`model_rule`), stored in that pipeline
(`with_rule`), so a new row's review flag depends on the row alone; the cases table flags
the out-of-fold answers at the same budget on their own scale (`review_rule_of`). The
file's line of each row comes from the loader (``Dataset.file_lines``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

from ternary import TernaryForestClassifier, TernaryTreeClassifier, make_pipeline
from ternary import data as tdata
from ternary.data import DataError, Dataset, Preprocessor
from ternary.diagnose import majority_rate
from ternary.experiment import out_of_fold_answers
from ternary.metrics import decided_accuracy
from ternary.pipeline import score
from ternary.review import (
    flag_below_threshold,
    review_threshold,
    threshold_rule,
    with_review_rule,
)

__all__ = [
    "CASE_FILTERS",
    "PIPELINE_SNIPPET",
    "REVIEW_SHARE",
    "REVIEW_TEXT",
    "NewScores",
    "ReviewRule",
    "cases_key",
    "cases_table",
    "download_order",
    "features_frame",
    "filter_cases",
    "fold_answer",
    "full_pipeline",
    "out_of_fold",
    "review_columns",
    "model_rule",
    "review_rule_of",
    "row_position",
    "with_rule",
    "score_new_file",
]

#: folds of the out-of-fold answers
FOLDS = 5
#: the review budget the page starts with (a share of the rows)
REVIEW_SHARE = 0.10
#: why the rows to review come from the confidence ranking, with the measured figures
#: (BENCHMARKS.md, "Zone edges": bench_zone_edges.py, the 50 CC18 tables, depth 4)
REVIEW_TEXT = (
    "The rows to review are the least confident ones, not the rows in a boundary zone. "
    "Measured on the 50 OpenML-CC18 tables of the shared datasets (5-fold, depth 4), the "
    "zone verdict of the default δ method (margin) flagged 3.8 % of the rows and left a "
    "decided accuracy of 73.7 %; flagging as many rows by a confidence ranking (CART with "
    "Laplace-smoothed leaves and a tie-break, the strongest simple baseline) left 74.6 %, and "
    "the verdict was better on only 4 of the 50 tables (7 ties, 39 losses). No δ method's "
    "verdict beat that ranking. The confidence here is the model's own ranking, at least as "
    "good as the baseline on the 68 shared datasets (the tree's mean AURC at depth 4 0.1255 "
    "against 0.1263, lower on 32, tied on 16, higher on 20; the forest's 0.0718 against a "
    "random forest's 0.0729). The zone verdict stays as its own column: it says where a "
    "split is close, which helps when you read a row's why."
)
#: said above the cases table of a file whose lines the loader could not match to its rows
NO_LINES_TEXT = (
    "The file's line numbers could not be matched to the rows read from it, so the first "
    "column counts data rows instead: 1 is the first row under the header, in the order "
    "of the file (blank lines are not rows)."
)
#: the cases filter: label -> which rows
CASE_FILTERS = {
    "review": "To review (least confident)",
    "flagged": "In a boundary zone (verdict 0)",
    "wrong": "Decided but wrong",
    "all": "All rows",
}
#: how to score a CSV with the downloaded pipeline (ternary's loader builds only the types
#: its models hold, ternary.pipeline.MODEL_TYPES, and refuses any other file)
PIPELINE_SNIPPET = """from ternary.data import read_rows, to_csv
from ternary.pipeline import load_model

pipe = load_model("{file}")  # refuses a file holding anything but ternary's model types

rows = read_rows("new_rows.csv")  # the file's columns as they are: text, gaps and all
pred, verdict = pipe.predict_with_verdict(rows)  # verdict 0: boundary-uncertain
to_csv(rows.assign(prediction=pred, verdict=verdict), "scored.csv")  # formulas escaped
"""


def _estimator(params: dict):
    cls = TernaryForestClassifier if "n_estimators" in params else TernaryTreeClassifier
    return cls(**params)


def features_frame(ds: Dataset) -> pd.DataFrame:
    """The raw rows the preprocessor reads: every file column but the label (``ds.X`` for
    a generated dataset, which has no raw rows)."""
    if ds.raw is None:
        return ds.X
    return ds.raw.drop(columns=[ds.target])


def out_of_fold(ds: Dataset, params: dict, folds: int = FOLDS, seed: int = 0) -> pd.DataFrame:
    """k-fold answers of the model ``params`` for every row of ``ds``, the cleaning
    refitted per fold (`ternary.experiment.out_of_fold_answers`, its columns). The fold
    models are in ``attrs["models"]``: ``attrs["models"][f]`` answered the rows of fold
    ``f`` (a pipeline taking raw rows when ``ds`` has them), so a row's why explains the
    model that gave its answer.

    Raises
    ------
    ValueError
        When a class has fewer than two rows (no fold split can hold it out).
    """
    answers, models = out_of_fold_answers(
        features_frame(ds),
        ds.y,
        _estimator(params),
        preprocessor=ds.preprocessor,
        folds=folds,
        seed=seed,
        return_models=True,
    )
    answers.attrs["models"] = _Models(models)
    return answers


class _Models(list):
    """The fold models, as a list pandas does not copy deeply with the answers' attrs."""

    def __deepcopy__(self, memo):
        return self


def cases_key(data_key: tuple, params: dict) -> tuple:
    """The one cache key of a dataset's answers, its full model and that model's download."""
    return (data_key, tuple(sorted(params.items())))


@st.cache_resource(show_spinner=False, max_entries=8)
def cached_cases(_ds: Dataset, key: tuple) -> pd.DataFrame:
    """`out_of_fold` once per `cases_key`."""
    return out_of_fold(_ds, dict(key[1]))


@st.cache_resource(show_spinner=False, max_entries=8)
def full_pipeline(_ds: Dataset, key: tuple):
    """The pipeline (the loader's preprocessor + the model fitted on every row), once per
    `cases_key`."""
    model = _estimator(dict(key[1])).fit(_ds.X, _ds.y)
    pre = (
        _ds.preprocessor
        if _ds.preprocessor is not None
        else Preprocessor(drop_constant=False).fit(_ds.X)
    )
    return make_pipeline(pre, model)


def _unclash(names: list[str], taken) -> dict[str, str]:
    out = {}
    for name in names:
        new = name
        while new in taken:
            new = f"{new} (model)"
        out[name] = new
    return out


@dataclass(frozen=True)
class ReviewRule:
    """A review budget turned into a rule for one row (`ternary.review.review_threshold`).

    ``threshold`` is learned from confidences of the training rows at ``share``; a row is
    flagged when its confidence is below it. ``expected`` is the share of those rows
    below it (the budget, or less where rows tie at the cut). ``out_of_fold``: learned
    from the fold models' answers (the cases table's scale), else from the model's own.
    """

    threshold: float
    share: float
    expected: float
    out_of_fold: bool = False

    @property
    def name(self) -> str:
        """The rule's name in the ``flagged by`` and ``review_rule`` columns."""
        if self.out_of_fold:
            return f"confidence below {self.threshold:.4g} (out of fold, {100 * self.share:.6g} %)"
        return threshold_rule(self.threshold, self.share)


def review_rule_of(
    answers: pd.DataFrame, share: float = REVIEW_SHARE, out_of_fold: bool = True
) -> ReviewRule:
    """The review rule learned from the ``confidence`` column of ``answers`` (by default
    `out_of_fold`'s) at the budget ``share``."""
    confidence = answers["confidence"].to_numpy()
    threshold = review_threshold(confidence, share)
    flagged = flag_below_threshold(confidence, threshold)
    expected = float(flagged.mean()) if flagged.size else 0.0
    return ReviewRule(threshold, float(share), expected, out_of_fold)


@st.cache_resource(show_spinner=False, max_entries=8)
def _full_confidence(_ds: Dataset, key: tuple) -> np.ndarray:
    return np.asarray(full_pipeline(_ds, key).predict_confidence(features_frame(_ds)))


def model_rule(ds: Dataset, key: tuple, share: float = REVIEW_SHARE) -> ReviewRule:
    """The review rule the full model carries (`with_rule`): learned at ``share`` from that
    model's own confidence on the training rows (``key`` is the `cases_key`).

    Why not from the out-of-fold confidences: a tree's confidence takes few values (one
    per leaf and zone blend), and a threshold between two values of the fold models falls
    anywhere among the full model's. On credit-g (70 % of the rows to train, 30 % new,
    depth-4 tree, budget 10 %, 4 splits) the fold models' threshold flagged 0 %, 26 %,
    32 % and 45 % of the new rows; the full model's own flagged 1-11 %, within 3 points of
    the share of training rows below it (1-10 %), which the page states. A confidence is
    a function of the row alone, so its spread over new rows is its spread over the
    training rows, though the model was fitted on them.
    """
    confidence = _full_confidence(ds, key)
    return review_rule_of(pd.DataFrame({"confidence": confidence}), share, out_of_fold=False)


def review_columns(confidence, verdict, rule: ReviewRule) -> tuple[np.ndarray, np.ndarray]:
    """``(review, flagged by)`` per row: 1 where the confidence is below ``rule``'s
    threshold (`ternary.review.flag_below_threshold`), and which rule flagged the row:
    the review rule's name (``'confidence below 0.4312 (10 % of training rows)'``),
    ``'boundary zone'`` (verdict 0), ``'both'`` or ``''``."""
    review = flag_below_threshold(confidence, rule.threshold)
    zone = np.asarray(verdict) == 0
    by = np.full(review.size, "", dtype=object)
    by[review] = rule.name
    by[zone] = "boundary zone"
    by[review & zone] = "both"
    return review.astype(np.int8), by


def cases_table(ds: Dataset, answers: pd.DataFrame, rule: ReviewRule | None = None) -> pd.DataFrame:
    """The out-of-fold answers first, then every original column; the rows to review first.

    ``answers`` are `out_of_fold`'s. The first column is the file's line number
    (``ds.file_lines``, from the loader), or the data row number (1 = the first row
    under the header) when the lines are not known. Then the answers: ``prediction``,
    ``verdict`` (the zone verdict), ``confidence``, ``review`` (1 where the confidence is
    below ``rule``'s threshold; default the rule of `REVIEW_SHARE`), ``flagged by`` (the
    rule that flagged each row, `review_columns`), the class probabilities, the boundary
    distance and ``correct``; then the file's columns (``attrs["file_columns"]``;
    `download_order` puts them back first). Order: the rows to review, then the other
    rows in a boundary zone, then the rest, each least confident first;
    ``attrs["rows"]`` holds each table row's position in ``answers``.
    """
    rule = review_rule_of(answers) if rule is None else rule
    raw = ds.raw if ds.raw is not None else ds.X.assign(label=ds.y)
    data = raw.reset_index(drop=True)
    lines = ds.file_lines
    where = "line" if lines is not None else "data row"
    numbers = lines if lines is not None else np.asarray(raw.index) + 1
    confidence = answers["confidence"].to_numpy()
    verdict = answers["verdict"].to_numpy()
    prediction = answers["prediction"].to_numpy()
    review, flagged_by = review_columns(confidence, verdict, rule)
    outputs = {
        "prediction": prediction,
        "verdict": verdict,
        "confidence": confidence,
        "review": review,
        "flagged by": flagged_by,
    }
    for name in answers.columns[answers.columns.str.startswith("P(")]:
        outputs[name] = answers[name].to_numpy()
    outputs["boundary distance"] = answers["boundary_distance"].to_numpy()
    outputs["correct"] = prediction == np.asarray(ds.y)
    names = _unclash(list(outputs), set(data.columns) | {where})
    first = where
    while first in data.columns:  # the file may hold "line" and "line (file)" already
        first = f"{first} (file)"
    table = pd.concat(
        [
            pd.DataFrame({first: numbers}),
            pd.DataFrame({names[k]: v for k, v in outputs.items()}),
            data,
        ],
        axis=1,
    )
    group = np.where(review == 1, 0, np.where(verdict == 0, 1, 2))
    order = np.lexsort((confidence, group))
    table = table.iloc[order].reset_index(drop=True)
    table.attrs["output_names"] = names
    table.attrs["file_columns"] = list(data.columns)
    table.attrs["lead_columns"] = [first]
    table.attrs["rows"] = order
    return table


def download_order(table: pd.DataFrame) -> pd.DataFrame:
    """A cases or scored table for the download: the row number (cases), then the file's
    columns as in the file, then the answers. A spreadsheet pasted beside the file lines
    up, and a scored file reads as ``ternary predict`` writes it, byte for byte."""
    lead = list(table.attrs.get("lead_columns", []))
    columns = list(table.attrs.get("file_columns", []))
    skip = set(lead) | set(columns) | set(table.attrs.get("display_only", []))
    rest = [c for c in table.columns if c not in skip]
    return table[lead + columns + rest]


def row_position(table: pd.DataFrame, shown_index) -> int:
    """The position in the answers (and in ``ds``) of the cases table's row ``shown_index``
    (an index label of the table or of a filtered part of it)."""
    return int(table.attrs["rows"][int(shown_index)])


def fold_answer(answers: pd.DataFrame, position: int) -> tuple[int, object]:
    """``(fold, model)``: the fold that held row ``position`` out and the model that
    answered it (`out_of_fold`)."""
    fold = int(answers["fold"].iloc[position])
    return fold, answers.attrs["models"][fold]


def filter_cases(table: pd.DataFrame, which: str) -> pd.DataFrame:
    """The rows of the cases table that ``which`` (a `CASE_FILTERS` key) selects."""
    names = table.attrs.get("output_names", {})
    verdict = table[names.get("verdict", "verdict")]
    correct = table[names.get("correct", "correct")]
    if which == "review":
        return table[table[names.get("review", "review")] == 1]
    if which == "flagged":
        return table[verdict == 0]
    if which == "wrong":
        return table[(verdict == 1) & ~correct.astype(bool)]
    return table


@dataclass
class NewScores:
    """A second file scored by the full model: the download table and what it met."""

    table: pd.DataFrame | None = None
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    n_rows: int = 0
    #: rows flagged for review by the model's stored threshold (0 without one)
    n_review: int = 0
    flag_rate: float = float("nan")
    decided_accuracy: float | None = None
    #: the majority-class rate (`ternary.diagnose.majority_rate`) of the rows the decided
    #: accuracy counts: always answering the labelled rows' most common class
    majority: float | None = None
    n_labelled: int = 0
    #: labelled rows whose label is no class of the model: label -> rows
    foreign_labels: dict[str, int] = field(default_factory=dict)
    #: what the page says about such labels (None when every label is a class)
    label_note: str | None = None


def _labels_of(values: pd.Series, ds: Dataset) -> np.ndarray:
    if np.issubdtype(np.asarray(ds.y).dtype, np.number):
        return pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64)
    return values.astype("string").str.strip().to_numpy(dtype=object, na_value=None)


def _foreign_labels(result: NewScores, truth, known, classes, target: str) -> np.ndarray:
    """Which rows' labels are classes of the model; the others counted on ``result``
    with a note (a label column of other values gave "Decided accuracy 0 %")."""
    if truth.dtype == np.float64:
        is_class = np.isin(truth, pd.to_numeric(pd.Series(classes), errors="coerce"))
    else:
        is_class = np.isin(truth.astype(str), [str(c).strip() for c in classes])
    foreign = known & ~is_class
    if not foreign.any():
        return is_class
    counts = pd.Series(truth[foreign]).astype(str).value_counts()
    result.foreign_labels = {str(k): int(v) for k, v in counts.items()}
    shown = ", ".join(f"'{k}' ({v:,} row{'s' * (v != 1)})" for k, v in counts.head(8).items())
    if len(counts) > 8:
        shown += f" and {len(counts) - 8:,} more labels"
    known_classes = ", ".join(f"'{c}'" for c in classes[:8]) + (", ..." if len(classes) > 8 else "")
    n_foreign = int(foreign.sum())
    if n_foreign == result.n_labelled:
        result.label_note = (
            f"No label in column '{target}' is a class of the model ({known_classes}): "
            f"{shown}. No accuracy can be given; check that this column holds the same "
            "labels as the training file."
        )
    else:
        result.label_note = (
            f"{n_foreign:,} of {result.n_labelled:,} labelled rows have a label that is not a "
            f"class of the model ({known_classes}): {shown}. The decided accuracy counts the "
            f"other {result.n_labelled - n_foreign:,} rows only."
        )
    return is_class


def with_rule(pipe, rule: ReviewRule):
    """The full pipeline carrying ``rule``'s threshold (`ternary.review.with_review_rule`):
    what the page scores with and the model file holds, so ``ternary predict`` flags the
    same rows by default."""
    return with_review_rule(pipe, rule.threshold, rule.share)


def _scored_table(outputs: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """The scored rows as the page shows them: ``data row`` (1 = the first row under the
    header), the answers, ``flagged by`` after ``review``, then the file's columns.

    ``attrs`` say what only the page shows (``data row``, ``flagged by``) and what only
    the download holds (``review_rule``), so `download_order` gives ``ternary predict``'s
    columns."""
    front = pd.DataFrame({"data row": np.arange(1, len(rows) + 1)}, index=outputs.index)
    parts = {c: outputs[c] for c in outputs.columns}
    if "review" in outputs.columns:
        zone = outputs["verdict"].to_numpy() == 0
        review = outputs["review"].to_numpy() == 1
        rule = outputs["review_rule"].to_numpy(dtype=object)
        by = np.where(review & zone, "both", np.where(review, rule, ""))
        by = np.where(zone & ~review, "boundary zone", by)
        at = list(parts).index("review") + 1
        items = list(parts.items())
        parts = dict([*items[:at], ("flagged by", pd.Series(by, index=outputs.index)), *items[at:]])
    answers = pd.concat([front, pd.DataFrame(parts)], axis=1)
    names = _unclash(list(answers.columns), set(rows.columns))
    table = pd.concat([answers.rename(columns=names), rows], axis=1)
    table.attrs["file_columns"] = list(rows.columns)
    table.attrs["display_only"] = [names["data row"]] + (
        [names["flagged by"]] if "flagged by" in names else []
    )
    table.attrs["download_only"] = [names["review_rule"]] if "review_rule" in names else []
    return table


def score_new_file(pipe, ds: Dataset, data: bytes, filename: str) -> NewScores:
    """Score an uploaded file with ``pipe`` (never refitted); errors become a message.

    A ``pipe`` carrying a review threshold (`with_rule`) adds ``review`` and
    ``review_rule`` after ``confidence`` (`ternary.pipeline.score`): each row flagged by
    its own confidence. The table shows the answers first, then the file's columns
    (``attrs["file_columns"]``; `download_order` gives ``ternary predict``'s order)."""
    upload = io.BytesIO(bytes(data))
    upload.name = filename
    try:
        rows = tdata.read_rows(upload)
    except DataError as exc:
        return NewScores(error=str(exc))
    pre = pipe[0]
    try:
        _, report = pre.transform_with_report(rows)
        outputs = score(pipe, rows)
    except ValueError as exc:
        return NewScores(error=str(exc))
    notes = [
        line
        for line in report.lines()
        if not (ds.target and line.startswith("Ignored") and report.extra_columns == [ds.target])
    ]
    n_review = int(outputs["review"].sum()) if "review" in outputs.columns else 0
    verdict = outputs["verdict"].to_numpy()
    pred = outputs["prediction"].to_numpy()
    table = _scored_table(outputs, rows)
    result = NewScores(table, notes, n_rows=len(rows), n_review=n_review)
    result.flag_rate = float(np.mean(verdict == 0)) if len(rows) else float("nan")
    if ds.target and ds.target in rows.columns:
        truth = _labels_of(rows[ds.target], ds)
        known = ~pd.isna(truth)
        result.n_labelled = int(known.sum())
        is_class = _foreign_labels(result, truth, known, np.asarray(pipe.classes_), ds.target)
        judged = known & is_class
        accuracy = decided_accuracy(
            truth[judged], pred[judged].astype(truth.dtype), verdict[judged]
        )
        result.decided_accuracy = None if np.isnan(accuracy) else accuracy
        decided = judged & (verdict == 1)
        if decided.any():  # the training majority of these rows, on the rows judged
            result.majority = majority_rate(truth[judged], truth[decided])[1]
    return result
