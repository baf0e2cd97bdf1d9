"""``ternary predict MODEL DATA --out OUT``: score a file's rows with a saved pipeline.

MODEL is a skops file holding a `ternary.pipeline.TernaryPipeline` (the app's
download, or ``skops.io.dump(make_pipeline(ds.preprocessor, clf), path)``); DATA a
CSV or ARFF file with the columns the model was trained on (any order, extra
columns ignored). OUT gets every input column, in order, then ``prediction``,
``verdict`` (1 decided, 0 boundary-uncertain), ``confidence`` and one ``P(<class>)``
column per class. A model that carries a review threshold (the app's download:
`ternary.review.with_review_rule`) adds, after ``confidence``, ``review`` (1 = review this
row: its confidence is below the threshold, learned from the model's confidences on its
training rows) and ``review_rule`` (the rule's name on those rows), by default: a row's flag
depends on that row alone. ``--review-share S`` (a share such as ``0.1`` or ``10%``) is an
explicit per-file quota instead: the least confident rows of this file the budget allows
(`ternary.review.flag_least_confident`), named ``least confident 10 % of this file
(quota)``. The zone ``verdict`` stays its own column, since at equal flag share the
confidence ranking is the better list of rows to review. For a labelled file the summary
gives the majority-class rate of the same rows beside each accuracy. There is
no risk target here: `~ternary.selective.RiskControlledClassifier` needs labelled rows held
out of the model's fit to choose its threshold, which a saved model fitted on every row
does not have (a pipeline saved with one as its last step writes its risk-controlled
verdict in ``verdict``). Bad input ends with exit code 2 and a message, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ternary._modelfile import ModelFileError
from ternary._modelfile import load_model as _load_model
from ternary._optional import MissingOptionalDependency

__all__ = ["main"]

_PROGRESS_ROWS = 50_000  # files with more rows get a progress bar (when tqdm is installed)
_CHUNK = 10_000


class _Failure(Exception):
    """A problem with the input, reported as one message and exit code 2."""


def _parser(prog: str | None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog or "ternary predict",
        description="Score the rows of a CSV or ARFF file with a saved ternary model (skops).",
    )
    p.add_argument("model", help="the saved pipeline (.skops), e.g. the app's model download")
    p.add_argument("data", help="CSV or ARFF file with the training columns (label optional)")
    p.add_argument("--out", required=True, help="CSV file to write: input columns, then outputs")
    p.add_argument("--no-progress", action="store_true", help="no progress bar, even on big files")
    p.add_argument(
        "--progress-rows",
        type=int,
        default=_PROGRESS_ROWS,
        metavar="N",
        help=f"show a progress bar (with tqdm) from N rows on (default {_PROGRESS_ROWS:,})",
    )
    p.add_argument(
        "--chunk-rows", type=_rows_count, default=_CHUNK, metavar="N", help="rows per batch"
    )
    p.add_argument(
        "--review-share",
        type=_share,
        default=None,
        metavar="S",
        help="a per-file quota: flag the least confident share S of this file's rows for "
        "review (0.1 or 10%%) instead of the model's stored threshold; adds the columns "
        "review (1 = review) and review_rule; the zone verdict stays its own column",
    )
    return p


def _rows_count(text: str) -> int:
    """A batch size as typed: a whole number of rows, at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of rows; give a whole number of at least 1 (e.g. 20000)."
        )
    return value


def _share(text: str) -> float:
    """A review share as typed: ``0.1`` or ``10%``, between 0 and 1."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a share of rows; give a number between 0 and 1 (0.1) or a "
            "percentage (10%)."
        )
    return value


def load_model(path: str):
    """The model in skops file ``path``, through `ternary.pipeline.load_model`, or a `_Failure`."""
    try:
        return _load_model(path)
    except (ModelFileError, MissingOptionalDependency) as exc:
        raise _Failure(str(exc)) from exc


def _write_csv(table, out_path: str) -> None:
    from ternary.data import to_csv

    to_csv(table, out_path)


def _refuse_overwriting(out_path: str, *inputs: str) -> None:
    """Refuse an ``--out`` that is one of the files read: the scores would replace it."""
    for path in inputs:
        try:
            same = Path(out_path).exists() and Path(out_path).samefile(path)
        except OSError:  # an input that is not there is reported when it is read
            same = False
        if same:
            raise _Failure(
                f"--out {out_path!r} is the file {path!r} that is read; writing the scores "
                "there would replace it. Choose another output file."
            )


def _read(path: str):
    """``(rows, cells)``: the rows parsed for the model, and every cell as written."""
    from ternary.data import DataError, read_rows

    if not Path(path).is_file():
        raise _Failure(f"No data file {path!r}.")
    try:
        return read_rows(path), read_rows(path, as_text=True)
    except DataError as exc:
        raise _Failure(f"{path}: {exc}") from exc


def _progress(n_rows: int, quiet: bool, from_rows: int):
    if quiet or n_rows < from_rows:
        return None, None
    try:
        from tqdm import tqdm
    except ImportError:
        return None, None
    bar = tqdm(total=n_rows, unit="rows", file=sys.stderr)
    state = {"done": 0}

    def update(done: int) -> None:
        bar.update(done - state["done"])
        state["done"] = done

    return update, bar


def _say_what_the_cleaning_met(model, features) -> None:
    """Print on stderr the columns a pipeline's preprocessor ignored, the gaps it filled
    and the values it never saw at fit (scored as gaps), as the app's Your data page does:
    a new category scored silently as a gap is an answer the user must know to doubt."""
    steps = getattr(model, "steps", None)
    transform = getattr(steps[0][1], "transform_with_report", None) if steps else None
    if transform is None:
        return
    _, report = transform(features)
    for line in report.lines():
        print(line, file=sys.stderr)


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.1f} %"


def _review_line(outputs, model, review_share: float | None) -> str:
    """What the review column holds: a per-file quota, or the model's stored threshold."""
    from ternary.review import quota_rule, stored_review_rule, threshold_rule

    flagged = f"{int(outputs['review'].sum()):,} of {len(outputs):,} rows flagged for review"
    zone = f"{int((outputs['verdict'] == 0).sum()):,} in a boundary zone (verdict = 0)."
    if review_share is not None:
        return (
            f"{flagged} (review = 1, per-file quota: the {quota_rule(review_share)}, "
            f"by confidence; the rows flagged depend on the other rows of the file); {zone}"
        )
    threshold, share = stored_review_rule(model) or (float("nan"), float("nan"))
    return (
        f"{flagged} (review = 1, the model's stored rule: {threshold_rule(threshold, share)}, "
        f"expected {100 * share:.6g} % of rows like the training rows; each row's flag "
        f"depends on that row alone); {zone}"
    )


def run(
    model_path: str,
    data_path: str,
    out_path: str,
    quiet: bool = False,
    progress_rows: int = _PROGRESS_ROWS,
    chunk_rows: int = _CHUNK,
    review_share: float | None = None,
) -> int:
    """Score ``data_path`` with ``model_path`` into ``out_path``; return the rows written.

    The input columns are repeated as written in the file (``56`` stays ``56``, ``NA``
    stays ``NA``). A label column (not a model input, every value one of the model's
    classes) is left out of the model's input, and its decided accuracy and flag rate
    are printed on stderr.
    """
    import numpy as np
    import pandas as pd

    from ternary.data._rows import _recognise_label
    from ternary.diagnose import majority_rate
    from ternary.metrics import decided_accuracy, uncertain_rate
    from ternary.pipeline import score

    _refuse_overwriting(out_path, model_path, data_path)
    model = load_model(model_path)
    rows, cells = _read(data_path)
    label, truth = _recognise_label(rows, getattr(model, "feature_names_in_", None), model.classes_)
    update, bar = _progress(len(rows), quiet, progress_rows)
    try:
        features = rows.drop(columns=[label]) if label is not None else rows
        _say_what_the_cleaning_met(model, features)
        outputs = score(
            model,
            features,
            chunk_size=max(1, chunk_rows),
            progress=update,
            review_share=review_share,
        )
    except ValueError as exc:
        raise _Failure(f"{data_path}: {exc}") from exc
    finally:
        if bar is not None:
            bar.close()
    if label is not None and truth is not None:
        has = np.array([t is not None for t in truth])
        verdict = outputs["verdict"].to_numpy()
        labels = truth[has].astype(str)
        accuracy = decided_accuracy(
            labels, outputs["prediction"].to_numpy()[has].astype(str), verdict[has]
        )
        decided = verdict[has] == 1
        baseline = majority_rate(labels, labels[decided])[1] if decided.any() else float("nan")
        print(
            f"Label column {label!r} recognised and left out of the model's input: decided "
            f"accuracy {100 * accuracy:.1f} % (majority class "
            f"{_pct(baseline)}) on the {int(decided.sum()):,} decided "
            f"rows with a label; {100 * uncertain_rate(verdict):.1f} % of "
            f"{len(verdict):,} rows flagged boundary-uncertain.",
            file=sys.stderr,
        )
    if "review" in outputs.columns:
        print(_review_line(outputs, model, review_share), file=sys.stderr)
    clash = [c for c in outputs.columns if c in cells.columns]
    if clash:
        outputs = outputs.rename(columns={c: f"{c}_predicted" for c in clash})
    table = pd.concat([cells, outputs], axis=1)
    try:  # through the one writer: formula-like cells escaped, the file opens in spreadsheets
        _write_csv(table, out_path)
    except BrokenPipeError:  # --out /dev/stdout and its reader left (see ternary.cli)
        raise
    except OSError as exc:
        raise _Failure(f"Could not write {out_path!r}: {exc.strerror or exc}.") from exc
    return len(table)


def main(argv: Sequence[str] | None = None, *, prog: str | None = None) -> int:
    """Run ``ternary predict``; 0 on success, 2 with a message on bad input."""
    args = _parser(prog).parse_args(None if argv is None else list(argv))
    try:
        n = run(
            args.model,
            args.data,
            args.out,
            quiet=args.no_progress,
            progress_rows=args.progress_rows,
            chunk_rows=args.chunk_rows,
            review_share=args.review_share,
        )
    except _Failure as exc:
        print(f"ternary predict: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {n:,} rows to {args.out}.", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
