"""The ``ternary`` command: dispatch, laziness, and missing optional packages."""

import subprocess
import sys
import textwrap

import pytest

from ternary import _cli
from ternary._optional import MissingOptionalDependency, missing_message, optional_import
from tests.conftest import REPO


def test_help_lists_every_command(capsys):
    assert _cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("run", "predict", "report"):
        assert f"\n  {name} " in out


def test_no_arguments_is_a_usage_error(capsys):
    assert _cli.main([]) == 2
    assert "usage: ternary" in capsys.readouterr().err


def test_unknown_command_names_the_choices(capsys):
    assert _cli.main(["fit"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'fit'" in err and "run, predict, report" in err


def test_version_is_the_package_version(capsys):
    import ternary

    assert _cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ternary {ternary.__version__}"


def test_help_imports_no_subcommand():
    code = (
        "import sys, ternary._cli as c; c.main(['--help']); "
        "print(sorted(m for m in ('sklearn', 'pandas', 'ternary.experiment', 'joblib') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_python_m_ternary_run_help_shows_the_experiment_options():
    done = subprocess.run(
        [sys.executable, "-m", "ternary", "run", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "--suite" in done.stdout and "--jobs" in done.stdout


@pytest.fixture
def command_module(tmp_path, monkeypatch):
    """A subcommand module in tmp_path whose main needs tqdm, registered as 'bars'."""
    (tmp_path / "needs_tqdm_cmd.py").write_text(
        textwrap.dedent(
            """
            from ternary._optional import optional_import

            def main(argv=None, *, prog=None):
                optional_import("tqdm", "Drawing bars")
                return 0
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(_cli.COMMANDS, "bars", ("needs_tqdm_cmd", "main", "test"))
    return "bars"


def test_missing_optional_package_is_named_with_its_extra(command_module, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    assert _cli.main([command_module]) == 2
    err = capsys.readouterr().err
    assert "optional package 'tqdm'" in err and "pip install 'ternary[cli]'" in err
    assert "Traceback" not in err


def test_present_optional_package_runs(command_module, capsys):
    pytest.importorskip("tqdm")
    assert _cli.main([command_module]) == 0


def test_prog_reaches_the_subcommand(tmp_path, monkeypatch):
    (tmp_path / "echo_prog_cmd.py").write_text(
        "SEEN = []\n"
        "def main(argv=None, *, prog=None):\n    SEEN.append((argv, prog))\n    return 3\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(_cli.COMMANDS, "echo", ("echo_prog_cmd", "main", "test"))
    assert _cli.main(["echo", "--x", "1"]) == 3
    assert sys.modules["echo_prog_cmd"].SEEN == [(["--x", "1"], "ternary echo")]


@pytest.mark.parametrize(
    ("module", "extra"), [("openml", "openml"), ("distributed", "dask"), ("numba", "fast")]
)
def test_optional_import_message(module, extra, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingOptionalDependency, match=rf"ternary\[{extra}\]"):
        optional_import(module, "Something")


def test_liac_arff_is_a_dependency_not_an_extra():
    assert "reinstalling ternary" in missing_message("arff", "Reading")
    assert "'liac-arff'" in missing_message("arff", "Reading")


def test_run_without_tqdm_goes_on_and_says_how(monkeypatch, capsys):
    from ternary.experiment import _cli as run_cli

    monkeypatch.setitem(sys.modules, "tqdm", None)
    bar = run_cli._Bar(True)
    bar(0, 10, "fold 1")
    bar(1, 10, "fold 2")
    err = capsys.readouterr().err
    assert err.count("pip install 'ternary[cli]'") == 1
    assert bar.bar is None and not bar.enabled
