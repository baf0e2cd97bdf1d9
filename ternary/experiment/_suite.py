"""Many datasets, one resumable results database (or CSV file)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd

from ternary.experiment._combos import Combos, Progress, _resolve_combos, combo_label
from ternary.experiment._cv import _iter_cv_rows
from ternary.experiment._parallel import dask_runner, joblib_runner
from ternary.experiment._store import ResultsFileError, open_store


def _dataset_entries(datasets) -> list[tuple[str, Any]]:
    entries = []
    for item in datasets:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, source = item
        elif hasattr(item, "X") and hasattr(item, "y") and hasattr(item, "name"):
            name, source = str(item.name), item
        else:
            raise TypeError(
                "datasets must hold ternary.data.Dataset objects or "
                f"(name, loader) pairs; got {item!r}."
            )
        entries.append((name, source))
    names = [n for n, _ in entries]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(
            f"Duplicate dataset name(s) {', '.join(duplicates)}; each needs its own name."
        )
    return entries


def _load(source):
    dataset = source() if callable(source) and not hasattr(source, "X") else source
    if not (hasattr(dataset, "X") and hasattr(dataset, "y")):
        raise TypeError(f"A dataset loader must return a ternary.data.Dataset; got {dataset!r}.")
    return dataset


def run_suite(
    datasets: Iterable[Any],
    out: str | os.PathLike,
    combos: Combos | None = None,
    cv: int = 5,
    n_jobs: int = 1,
    progress: Progress | None = None,
    *,
    max_depth: int | None = 4,
    seed: int | None = 42,
    scale: bool = True,
    errors: str = "raise",
    scheduler: Any = None,
    **tree_params: Any,
) -> pd.DataFrame:
    """Run `run_cv` over many datasets, saving every finished row; resumable.

    Each finished (dataset, combination, fold) row is committed to ``out`` at
    once. Rows already there are skipped, so rerunning the same call after a
    crash, Ctrl-C or ``kill -9`` loses at most the folds in progress; a dataset
    whose rows are all present is not even loaded.

    ``out`` is a SQLite database (unique key per row, WAL mode; two runs may
    share it) unless its name ends in ``.csv``: then it is the older CSV file,
    rewritten after every row (quadratic in the rows). A database stores the
    protocol (``cv``, ``seed``, ``max_depth``, ``scale``, the tree parameters)
    and refuses to resume another; a CSV file checks ``cv`` and ``seed``. Only this
    process (the client, with Dask) writes ``out``; the workers only fit. Datasets
    are taken one after another.

    Parameters
    ----------
    datasets : iterable of ternary.data.Dataset or (name, loader) pairs
        A loader is called without arguments and returns a Dataset, so big or
        remote datasets are loaded only when their turn comes.
    out : str or path-like
        A results database (any name; ``.sqlite`` by convention) or a ``.csv`` file.
    combos : list of dict, optional
        The combinations, as for `run_cv` (default `DEFAULT_COMBOS`).
    cv : int, default=5
        The number of stratified folds, as for `run_cv`.
    n_jobs : int, default=1
        The joblib workers for each dataset's (combination, fold) fits; with
        ``scheduler="local"``, Dask worker processes.
    progress : callable ``(done, total, message)``, optional
        Called after every finished row, and once at the start with the rows found
        in ``out``; ``total`` counts every (dataset, combination, fold) row of the suite.
    max_depth : int or None, default=4
        The depth of every tree, as for `run_cv`.
    seed : int, default=42
        Seeds the folds and every tree, as for `run_cv`.
    scale : bool, default=True
        Standardise the features within each fold, as for `run_cv`.
    errors : {"raise", "skip"}, default="raise"
        With "skip" a dataset that cannot be loaded or cross-validated
        (``ValueError``, which includes ``ternary.data.DataError``, or
        ``OSError``) is skipped; its message is reported through ``progress``
        and kept in ``result.attrs["skipped"]`` (name → message). A results file
        that cannot be written is never skipped: `ResultsFileError` is raised.
    scheduler : None, "local", a Dask scheduler address, or a ``distributed.Client``
        None fits with joblib on this machine (``n_jobs`` workers). "local"
        starts a Dask ``LocalCluster`` of ``n_jobs`` single-threaded worker
        processes; an address such as ``"tcp://host:8786"`` sends the fits to
        that cluster's workers (each needs ``ternary`` and ``dask[distributed]``
        installed, the scheduler's machine included). Seeded runs give the same
        numbers on every scheduler.
    **tree_params
        Further `TernaryTreeClassifier` parameters, as for `run_cv` (in the protocol).

    Returns
    -------
    pandas.DataFrame
        The rows of ``out`` for the requested datasets and combinations
        (old and new), with ``dataset``, ``bayes_error``, ``cv`` and ``seed``
        columns in front of `run_cv`'s. ``attrs["skipped"]`` maps skipped
        datasets to their message; ``attrs["damaged"]`` lists the
        ``(line, reason)`` of every damaged row dropped from a CSV ``out``
        (always empty for a database, which keeps no half row).

    Raises
    ------
    ValueError
        For a bad ``errors``, and (``errors="raise"``) a dataset that cannot be used.
    ResultsFileError
        When ``out`` cannot be read or written, or holds another protocol.
    ClusterError
        When the Dask cluster cannot be reached or cannot run the fits.
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors must be 'raise' or 'skip'; got {errors!r}.")
    cv_options = {
        "cv": cv,
        "max_depth": max_depth,
        "seed": seed,
        "scale": scale,
        "n_jobs": n_jobs,
        "tree_params": tree_params,
        "errors": errors,
    }
    return _run_suite(datasets, out, combos, progress, scheduler, cv_options)


def _run_suite(datasets, out, combos, progress, scheduler, cv_options) -> pd.DataFrame:
    """`run_suite` once its arguments are checked: every missing row into ``out``."""
    cv = cv_options["cv"]
    combos = _resolve_combos(combos)
    labels = [combo_label(c) for c in combos]
    entries = _dataset_entries(datasets)
    protocol = _protocol(
        cv,
        cv_options["seed"],
        cv_options["max_depth"],
        cv_options["scale"],
        cv_options["tree_params"],
    )
    with open_store(out) as store, _runner(scheduler, cv_options["n_jobs"]) as runner:
        store.check_protocol(protocol)
        store.record_versions(library_versions())
        counter = _Counter(progress, len(entries) * len(combos) * cv)
        counter.start(store.done(), [n for n, _ in entries], labels, cv, out)
        if store.dropped:
            counter.report(f"dropped {len(store.dropped)} damaged row(s) of {out}")
        options = {**cv_options, "runner": runner}
        skipped = _run_entries(entries, combos, labels, store, counter, options)
        rows = store.frame
    result = _requested_rows(rows, [n for n, _ in entries], labels, skipped)
    result.attrs["damaged"] = list(store.dropped)
    return result


def _protocol(cv, seed, max_depth, scale, tree_params) -> dict[str, Any]:
    """What must stay the same for stored rows to be resumed (kept in a database)."""
    from ternary import __version__

    return {
        "cv": cv,
        "seed": seed,
        "max_depth": max_depth,
        "scale": bool(scale),
        "tree_params": {k: repr(v) for k, v in sorted(tree_params.items())},
        "ternary_version": __version__,
    }


def library_versions() -> dict[str, str]:
    """The versions that made a run's numbers, stored beside its protocol and reported."""
    import platform

    import scipy
    import sklearn

    from ternary import __version__

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "ternary": __version__,
    }


def _run_entries(entries, combos, labels, store, counter, cv_options) -> dict:
    """Run every dataset's missing tasks; returns the skipped datasets' messages."""
    cv, errors = cv_options["cv"], cv_options.pop("errors")
    skipped: dict[str, str] = {}
    for name, source in entries:
        # asked afresh for every dataset: another run may share the database
        done_keys = store.done_for(name)
        skip = {(i, f) for i, lab in enumerate(labels) for f in range(cv)}
        skip = {(i, f) for i, f in skip if (name, labels[i], f) in done_keys}
        if len(skip) == len(labels) * cv:
            continue
        try:
            _run_dataset(name, source, combos, skip, store, counter, cv_options)
        except ResultsFileError:
            raise  # not a problem of this dataset: every later one would fail the same way
        except (ValueError, OSError) as exc:
            if errors == "raise":
                raise
            skipped[name] = str(exc)
            counter.report(f"skipped {name}: {exc}")
    return skipped


@contextmanager
def _runner(scheduler, n_jobs):
    if scheduler is None:
        yield joblib_runner(n_jobs)
        return
    with dask_runner(scheduler, None if n_jobs < 1 else n_jobs) as runner:
        yield runner


class _Counter:
    """Rows done out of the suite's total, reported through the caller's callback."""

    def __init__(self, progress, total: int):
        self.progress, self.total, self.done = progress, total, 0

    def start(self, done_keys, names, labels, cv, out_csv) -> None:
        self.done = sum(
            (n, lab, f) in done_keys for n in names for lab in labels for f in range(cv)
        )
        self.report(
            f"{self.done} of {self.total} rows already in {out_csv}" if self.done else "starting"
        )

    def report(self, message: str) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total, message)


def _run_dataset(name, source, combos, skip, store, counter, cv_options) -> None:
    """Cross-validate one dataset's missing (combination, fold) tasks into ``store``."""
    dataset = _load(source)
    bayes = getattr(dataset, "bayes_error", None)
    prefix = {
        "dataset": name,
        "bayes_error": np.nan if bayes is None else float(bayes),
        "cv": cv_options["cv"],
        "seed": cv_options["seed"],
    }
    for _, f, row in _iter_cv_rows(dataset.X, dataset.y, combos, skip=skip, **cv_options):
        store.add({**prefix, **row})
        counter.done += 1
        counter.report(f"{name}: {row['combo']}, fold {f + 1}/{cv_options['cv']}")


def _requested_rows(frame: pd.DataFrame, names, labels, skipped) -> pd.DataFrame:
    """The stored rows of the requested datasets and combinations, in the order asked for."""
    result = frame
    if len(result):
        wanted = result["dataset"].isin(names) & result["combo"].isin(labels)
        result = result[wanted].copy()
        rank_d = {n: k for k, n in enumerate(names)}
        rank_c = {lab: k for k, lab in enumerate(labels)}
        result = result.assign(_d=result["dataset"].map(rank_d), _c=result["combo"].map(rank_c))
        result = result.sort_values(["_d", "_c", "fold"], kind="stable")
        result = result.drop(columns=["_d", "_c"]).reset_index(drop=True)
    result.attrs["skipped"] = skipped
    return result
