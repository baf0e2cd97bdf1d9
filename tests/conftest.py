"""Shared fixtures and paths for the test suite."""

import os
from pathlib import Path

import pytest

# One BLAS / OpenMP thread per test process. The suite runs one pytest-xdist worker per
# core, and numpy's, scipy's and scikit-learn's own thread pools on top of them ask for
# the same cores again: on the 2-core machine at load 5, scikit-learn's checks of
# RiskControlledClassifier (LogisticRegression's L-BFGS) took 24.0 s with the default
# pools and 7.9 s with one thread (issue 39). The variables reach the servers and
# scripts the tests start; threadpoolctl covers a library loaded before this file.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
try:
    from threadpoolctl import threadpool_limits

    threadpool_limits(int(os.environ["OPENBLAS_NUM_THREADS"]))
except (ImportError, ValueError):  # pragma: no cover - scikit-learn brings threadpoolctl
    pass

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
PAPER_TABLES = SHARED / "paper_tables"


def _shared_folder(folder: Path, what: str) -> Path:
    """``folder`` if it exists; otherwise fail in CI and skip locally, saying why.

    A skipped test passes silently, so in CI (``CI=true``, which GitHub Actions and
    most CI services set) a missing folder is a broken checkout and must fail.
    """
    if folder.is_dir():
        return folder
    message = (
        f"the shared {what} folder {folder} is absent; it must sit beside the repository "
        f"(check out the shared data as ../shared)"
    )
    if os.environ.get("CI", "").strip().lower() == "true":
        pytest.fail(f"{message}. In CI this is an error, not a skip.", pytrace=False)
    pytest.skip(message)


@pytest.fixture
def shared_datasets() -> Path:
    """The folder of real ARFF datasets (skips locally, fails in CI, when absent)."""
    return _shared_folder(DATASETS, "datasets")


@pytest.fixture
def shared_paper_tables() -> Path:
    """The folder of the paper's tables as CSV (skips locally, fails in CI, when absent)."""
    return _shared_folder(PAPER_TABLES, "paper tables")
