"""The command line, ``python -m ternary.experiment``."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import joblib
import pandas as pd

from ternary.experiment._combos import COMBO_SETS
from ternary.experiment._csvstore import ResultsFileWarning
from ternary.experiment._parallel import ClusterError, exit_with_parent
from ternary.experiment._suite import run_suite

_BREIMAN_SIZES = {"waveform": 5000, "twonorm": 7400, "ringnorm": 7400}
_MEDICAL = {"diabetes": 37, "credit-g": 31, "heart-statlog": 53, "mammography": 310}
_CIFAR_10 = 40927
# missing values stay NaN through loading: run_cv fills them inside each fold from its
# training rows, where imputing the whole file first would let test rows shape the fill
_MISSING = "keep"
# joblib's worker processes exit after this long without work (joblib's default is 300 s)
_IDLE_SECONDS = 10  # the paper drops it: axis-aligned splits on raw pixels


def _breiman_entries(seed):
    from ternary import data

    makers = {
        "waveform": data.make_waveform,
        "twonorm": data.make_twonorm,
        "ringnorm": data.make_ringnorm,
    }
    return [
        (name, lambda m=makers[name], n=n: m(n_samples=n, random_state=seed))
        for name, n in _BREIMAN_SIZES.items()
    ]


def _builtin_entries():
    from ternary import data

    return [
        (name, lambda n=name: data.load_builtin(n))
        for name in data.BUILTIN_DATASETS
        # "breast cancer (paper)" is "breast cancer" relabelled in scikit-learn's class
        # order (for the paper's figures): the same rows would count twice in a suite
        if name not in _BREIMAN_SIZES and name != "breast cancer (paper)"
    ]


def _openml_entries(ids: dict[str, int], cache_dir):
    from ternary import data

    return [
        (name, lambda i=i: data.load_openml(i, cache_dir=cache_dir, missing=_MISSING))
        for name, i in ids.items()
    ]


def _cc18_ids(cache_dir) -> dict[str, int]:
    from ternary import data

    table = data.openml_cc18_tasks(cache_dir=cache_dir)
    ids = {}
    for name, did in zip(table["name"], table["did"], strict=True):
        if int(did) != _CIFAR_10:
            ids[f"{name}" if name not in ids else f"{name} ({int(did)})"] = int(did)
    return ids


def _is_out(path: Path, out: str) -> bool:
    try:
        return Path(out).exists() and path.samefile(out)
    except OSError:
        return False


def _file_entries(paths, target):
    from ternary import data

    return [
        (Path(p).stem, lambda p=p: data.load_file(str(p), target=target, missing=_MISSING))
        for p in paths
    ]


class _Bar:
    """tqdm on stderr driven by the progress callback."""

    def __init__(self, enabled: bool):
        self.bar = None
        self.enabled = enabled

    def __call__(self, done, total, message):
        if not self.enabled:
            return
        if self.bar is None:
            try:
                from tqdm import tqdm
            except ImportError:  # the run goes on without a bar; say once how to get one
                from ternary._optional import missing_message

                print(f"note: {missing_message('tqdm', 'A progress bar')}", file=sys.stderr)
                self.enabled = False
                return
            self.bar = tqdm(
                total=total, initial=done, file=sys.stderr, unit="fit", dynamic_ncols=True
            )
        self.bar.total = total
        self.bar.n = done
        self.bar.set_postfix_str(message[:60], refresh=False)
        self.bar.refresh()

    def warn(self, message, category, filename, lineno, file=None, line=None):
        text = f"warning: {message}"
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _positive_int(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be ≥ {minimum}, got {value}")
        return value

    return parse


def _jobs(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError(
            "must be a positive number of workers, or -1 for all cores"
        )
    return value


def _parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog or "python -m ternary.experiment",
        description="Cross-validate ternary trees in the protocol of Smits (2026): stratified "
        "k-fold CV, per-fold standardisation, depth-4 trees, against CART. Finished "
        "rows are saved in --out as they come; rerun the same command to resume.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--suite",
        choices=["breiman", "medical", "cc18", "builtin"],
        help="breiman: waveform/twonorm/ringnorm generated locally; medical: "
        "OpenML 37, 31, 53, 310; cc18: OpenML suite 99; builtin: the small "
        "built-in datasets",
    )
    source.add_argument("--data", metavar="FILE", help="one CSV or ARFF file")
    source.add_argument("--data-dir", metavar="DIR", help="every .csv and .arff file in DIR")
    parser.add_argument("--target", help="label column of --data/--data-dir files (default: last)")
    parser.add_argument(
        "--out",
        default="results.sqlite",
        help="results database, or a CSV file if the name ends in .csv (default: %(default)s)",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        help="parallel fits on this machine, or the worker processes of --scheduler local "
        "(default: 1)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the fits on a Dask cluster: 'local' starts one on this machine, an address "
        "such as tcp://host:8786 uses a running one (start it with `dask scheduler` and "
        "`dask worker ADDRESS`); needs dask[distributed]",
    )
    parser.add_argument("--cv", type=_positive_int(2), default=5, help="folds (default: 5)")
    parser.add_argument(
        "--seed", type=int, default=42, help="seed of folds and trees (default: 42)"
    )
    parser.add_argument(
        "--max-depth", type=_positive_int(1), default=4, help="tree depth (default: 4)"
    )
    parser.add_argument(
        "--combos",
        choices=sorted(COMBO_SETS),
        default="default",
        help="default: the paper's 11; probabilistic: 5 methods + CART; all: "
        "three routings + CART with grafting",
    )
    parser.add_argument(
        "--zone-edges",
        choices=["open", "closed"],
        default="open",
        help="open: flag only rows the blend sends both ways (the library's default); "
        "closed: the paper's zone, θ−δ < x ≤ θ+δ, as its reproduction uses (default: open)",
    )
    parser.add_argument("--cache-dir", help="OpenML cache folder (default: see ternary.data)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _print_summary(results: pd.DataFrame, out) -> None:
    """The report's first table (`ternary report` gives the rest: the tests, the ranks)."""
    from ternary.experiment._render import render
    from ternary.experiment._report import summary_table

    print(render([summary_table(results)], "markdown"), file=out)


def _offline_hint(args) -> str:
    """How to run an OpenML suite on local files when none of its datasets could be fetched."""
    if args.suite not in ("medical", "cc18"):
        return ""
    shared = Path("..") / "shared" / "datasets"
    folder = str(shared) if shared.is_dir() else "DIR"
    return (
        f" The {args.suite} suite downloads its datasets from OpenML (or reads them from "
        "--cache-dir); without the network, run on local ARFF or CSV files instead: "
        f"ternary run --data-dir {folder} --out {args.out}"
        + ("" if shared.is_dir() else " (DIR: a folder of .arff/.csv files)")
        + "."
    )


def _run(entries, args, bar: _Bar):
    with (
        warnings.catch_warnings(),
        joblib.parallel_config(
            backend="loky",
            idle_worker_timeout=_IDLE_SECONDS,
            # workers end with the driver, even one killed by SIGKILL
            initializer=exit_with_parent,
            initargs=(os.getpid(),),
        ),
    ):
        # the table at the end is the output; library warnings would shred the bar, but
        # damaged rows in the results file are news the user must see
        warnings.simplefilter("ignore")
        warnings.simplefilter("always", ResultsFileWarning)
        warnings.showwarning = bar.warn
        return run_suite(
            entries,
            args.out,
            combos=COMBO_SETS[args.combos],
            cv=args.cv,
            n_jobs=args.jobs,
            progress=bar,
            max_depth=args.max_depth,
            seed=args.seed,
            errors="skip",
            scheduler=args.scheduler,
            # the default stays out of the stored protocol, so files written before the
            # option existed resume under it
            **({} if args.zone_edges == "open" else {"zone_edges": args.zone_edges}),
        )


def main(argv: Sequence[str] | None = None, *, prog: str | None = None) -> int:
    """The command line; returns the exit status.

    ``report`` as the first argument runs `ternary report` (see
    ``python -m ternary.experiment report --help``) instead of an experiment.

    0: done; 2: a data, results-file or cluster problem (the message says which);
    130: interrupted (rerun the same command to resume).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the command's name; ``sys.argv[1:]`` when omitted.
    prog : str, optional
        The command's name in the usage line.

    Returns
    -------
    int
        The exit status.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["report"]:
        from ternary.experiment._report import main as report_main

        return report_main(argv[1:], prog=f"{prog or 'python -m ternary.experiment'} report")
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.target is not None and args.suite is not None:
        parser.error("--target applies to --data and --data-dir only")
    from ternary.data import DataError

    try:
        if args.suite == "breiman":
            entries = _breiman_entries(args.seed)
        elif args.suite == "builtin":
            entries = _builtin_entries()
        elif args.suite == "medical":
            entries = _openml_entries(_MEDICAL, args.cache_dir)
        elif args.suite == "cc18":
            entries = _openml_entries(_cc18_ids(args.cache_dir), args.cache_dir)
        elif args.data is not None:
            if not Path(args.data).is_file():
                raise DataError(f"No such file: {args.data!r}.")
            entries = _file_entries([args.data], args.target)
        else:
            folder = Path(args.data_dir)
            if not folder.is_dir():
                raise DataError(f"No such folder: {args.data_dir!r}.")
            files = sorted(
                p
                for p in folder.iterdir()
                if p.is_file()
                and p.suffix.lower() in (".csv", ".arff")
                and not _is_out(p, args.out)  # a CSV results file kept beside the data
            )
            if not files:
                raise DataError(f"No .csv or .arff files in {args.data_dir!r}.")
            entries = _file_entries(files, args.target)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    bar = _Bar(not args.no_progress)
    try:
        results = _run(entries, args, bar)
    except KeyboardInterrupt:
        bar.close()
        print(
            f"\ninterrupted: finished rows are in {args.out}; rerun the same command to resume.",
            file=sys.stderr,
        )
        return 130
    except (ValueError, ImportError, ClusterError) as exc:
        # an unusable --out file (ResultsFileError), or no Dask where --scheduler asks for it
        bar.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bar.close()
    skipped = results.attrs.get("skipped", {})
    for name, message in skipped.items():
        print(f"skipped {name}: {message}", file=sys.stderr)
    if len(results) == 0:
        print(f"error: no dataset could be evaluated.{_offline_hint(args)}", file=sys.stderr)
        return 2
    n_sets = results["dataset"].nunique()
    print(f"{len(results)} rows from {n_sets} dataset(s) in {args.out}", file=sys.stdout)
    _print_summary(results, sys.stdout)
    print(
        f"Tests against CART and Chow's rule, ranks and more: "
        f"python -m ternary.experiment report {args.out}",
        file=sys.stdout,
    )
    return 0
