"""Shared fixtures and paths for the test suite."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
PAPER_TABLES = SHARED / "paper_tables"


@pytest.fixture
def shared_datasets():
    """The folder of real ARFF datasets, or a skip saying why it is missing."""
    if not DATASETS.is_dir():
        pytest.skip(f"shared datasets folder {DATASETS} is absent (it sits beside the repo)")
    return DATASETS
