"""``ternary warm-up`` (issue 32): fills numba's cache ahead of a lecture, and says so."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ternary import compiled
from ternary.cli import main
from tests.conftest import REPO


def test_python_m_ternary_warm_up_compiles_every_family_and_names_it():
    pytest.importorskip("numba")
    done = subprocess.run(
        [sys.executable, "-m", "ternary", "warm-up"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Compiling ternary's kernels with numba ")
    for family in compiled.families():
        line = next(x for x in lines if x.startswith(f"  {family}: "))
        found = re.fullmatch(rf"  {family}: (\d+) kernels in [\d.]+ s \((.+)\)", line)
        assert found, line
        assert int(found[1]) == len(found[2].split(", ")) > 0  # what it compiled, by name
    assert lines[-1].startswith("Done in ") and "cache" in lines[-1]


def test_the_command_lists_warm_up_in_its_help(capsys):
    assert main(["--help"]) == 0
    assert "\n  warm-up " in capsys.readouterr().out


def test_a_family_that_does_not_compile_is_named_and_fails_the_command(capsys):
    pytest.importorskip("numba")
    with compiled.without("zones"):
        assert main(["warm-up"]) == 1
    out = capsys.readouterr().out
    assert "  zones: did not compile" in out and "1 families did not compile" in out


def test_without_numba_there_is_nothing_to_compile(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now raises ImportError
    assert main(["warm-up"]) == 0
    assert "numba is not installed: nothing to compile" in capsys.readouterr().out
