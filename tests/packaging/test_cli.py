"""The ``ternary`` command: dispatch, laziness, missing optional packages, closed pipes."""

import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from ternary.cli import COMMANDS, main
from tests.conftest import REPO


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("run", "predict", "report"):
        assert f"\n  {name} " in out


def test_no_arguments_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "usage: ternary" in capsys.readouterr().err


def test_unknown_command_names_the_choices(capsys):
    assert main(["fit"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'fit'" in err and "run, predict, report" in err


def test_version_is_the_package_version(capsys):
    import ternary

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ternary {ternary.__version__}"


def test_help_imports_no_subcommand():
    code = (
        "import sys, ternary.cli as c; c.main(['--help']); "
        "print(sorted(m for m in ('sklearn', 'pandas', 'ternary.experiment', 'joblib') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("command", ["run", "report", "predict"])
def test_each_subcommand_has_its_own_help_named_after_it(command):
    done = subprocess.run(
        [sys.executable, "-m", "ternary", command, "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: ternary {command}")


@pytest.fixture
def register(tmp_path, monkeypatch):
    """Register a subcommand module written into tmp_path; returns its command name."""

    def add(name, source):
        (tmp_path / f"{name}_cmd.py").write_text(textwrap.dedent(source))
        monkeypatch.setitem(COMMANDS, name, (f"{name}_cmd", "main", "test"))
        return name

    monkeypatch.syspath_prepend(str(tmp_path))
    return add


def test_missing_optional_package_is_named_with_its_extra(register, monkeypatch, capsys):
    name = register(
        "bars",
        """
        def main(argv=None, *, prog=None):
            import tqdm  # noqa: F401
            return 0
        """,
    )
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` now fails
    assert main([name]) == 2
    err = capsys.readouterr().err
    assert "optional package 'tqdm'" in err and "pip install 'ternary[cli]'" in err
    assert "Traceback" not in err


def test_another_missing_module_is_not_disguised(register):
    name = register("broken", "def main(argv=None):\n    import no_such_module_xyz\n")
    with pytest.raises(ModuleNotFoundError, match="no_such_module_xyz"):
        main([name])


def test_arguments_and_prog_reach_the_subcommand(register):
    name = register(
        "echo",
        """
        SEEN = []
        def main(argv=None, *, prog=None):
            SEEN.append((argv, prog))
            return 3
        """,
    )
    assert main([name, "--x", "1"]) == 3
    assert sys.modules["echo_cmd"].SEEN == [(["--x", "1"], "ternary echo")]


def test_openml_missing_names_its_extra(monkeypatch):
    from ternary.data import DataError, load_openml

    monkeypatch.setitem(sys.modules, "openml", None)
    with pytest.raises(DataError, match=r"ternary\[openml\]"):
        load_openml(61)


def test_dask_missing_names_its_extra(monkeypatch, tmp_path):
    from ternary.data import make_moons_dataset
    from ternary.experiment import run_suite

    monkeypatch.setitem(sys.modules, "distributed", None)
    entries = [("moons", lambda: make_moons_dataset(n_samples=60, random_state=0))]
    with pytest.raises(ImportError, match=r"ternary\[dask\]"):
        run_suite(entries, tmp_path / "r.sqlite", cv=2, scheduler="local")


def test_run_without_tqdm_goes_on_and_says_how(monkeypatch, tmp_path, capsys):
    from ternary.experiment import main as run_main

    rng = np.random.RandomState(0)
    rows = ["a,b,y"] + [f"{x:.3f},{z:.3f},{int(x + z > 0)}" for x, z in rng.normal(size=(80, 2))]
    data = tmp_path / "small.csv"
    data.write_text("\n".join(rows) + "\n")
    monkeypatch.setitem(sys.modules, "tqdm", None)
    status = run_main(
        [
            "--data",
            str(data),
            "--out",
            str(tmp_path / "r.sqlite"),
            "--cv",
            "2",
            "--combos",
            "probabilistic",
        ]
    )
    err = capsys.readouterr().err
    assert status == 0, err
    assert err.count("pip install 'ternary[cli]'") == 1


# The console script pip writes runs exactly this (test_metadata holds the entry point
# to ternary.cli:main); the installed script itself may be stale in a development venv.
CONSOLE_ENTRY = [sys.executable, "-c", "import sys; from ternary.cli import main; sys.exit(main())"]


@pytest.mark.parametrize(
    "command",
    [[*CONSOLE_ENTRY, "--help"], [sys.executable, "-m", "ternary", "--version"]],
    ids=["console-entry", "python-m"],
)
def test_a_reader_that_stopped_reading_ends_the_command_quietly(command):
    """``ternary --help | true``: no BrokenPipeError traceback, exit status 141."""
    read, write = os.pipe()
    os.close(read)  # the reader has already gone: every write to stdout meets EPIPE
    try:
        done = subprocess.run(command, cwd=REPO, stdout=write, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 141  # 128 + SIGPIPE, as the shell reports `cat big | head`


class _ClosedPipe(io.StringIO):
    """A stdout whose reader has gone: every write fails as a broken pipe does."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")


def test_a_subcommand_writing_into_a_closed_pipe_exits_141(register, monkeypatch, capsys):
    name = register(
        "table",
        """
        import sys
        def main(argv=None, *, prog=None):
            for i in range(100_000):
                sys.stdout.write(f"row {i}\\n")
            return 0
        """,
    )
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main([name]) == 141
    assert capsys.readouterr().err == ""
