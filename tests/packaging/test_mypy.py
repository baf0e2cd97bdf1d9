"""mypy runs clean over ternary/ with pyproject.toml's [tool.mypy] settings."""

import subprocess
import sys

import pytest

from tests.conftest import REPO

pytest.importorskip("mypy")


def test_mypy_is_clean_on_the_library():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, "\n".join(errors) or done.stderr
