"""The ``ternary`` command: one entry point, a subcommand per task.

``ternary run`` cross-validates (the experiment command line, also ``python -m
ternary.experiment``), ``ternary predict`` scores new rows with a saved model, ``ternary
report`` turns a results file into the paper's tables, ``ternary warm-up`` compiles the
kernels ahead of use. The subcommand's module is imported
only when it is chosen, so ``ternary --help`` answers at once; each subcommand has its own
``--help``. A subcommand is a ``main(argv, *, prog=None) -> int`` function (``prog`` is
optional: it names the command in the usage line).

Output piped into a reader that stops early (``ternary run --help | head -1``) ends the
command quietly, as it ends a Unix tool: no traceback, exit status 141 (128 + SIGPIPE, what
the shell reports for a tool the broken pipe killed), whatever the subcommand was doing.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Sequence

__all__ = ["COMMANDS", "main"]

# The exit status after the reader of stdout went away: 128 + SIGPIPE (13), as the shell
# reports a process the signal ended (``cat big | head`` gives it for ``cat``).
_BROKEN_PIPE_STATUS = 141

#: subcommand -> (module, function, one-line description)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": (
        "ternary.experiment._cli",
        "main",
        "cross-validate ternary trees in the protocol of Smits (2026) against CART",
    ),
    "predict": (
        "ternary._predict_cli",
        "main",
        "score the rows of a CSV or ARFF file with a saved model",
    ),
    "report": (
        "ternary.experiment._report",
        "main",
        "the paper's tables (and win/tie/loss counts) from a results file",
    ),
    "warm-up": (
        "ternary._warm_up_cli",
        "main",
        "compile the numba kernels now, so a first app start or fit does not wait for them",
    ),
}


def _version() -> str:
    from ternary import __version__

    return __version__


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [
        "usage: ternary [-h] [--version] {" + ",".join(COMMANDS) + "} ...",
        "",
        "Ternary decision trees with locally-adaptive uncertainty zones, and tree grafting.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<{width}}  {text}" for name, (_, _, text) in COMMANDS.items()]
    lines += [
        "",
        "options:",
        "  -h, --help  show this help message and exit",
        "  --version   show the version of ternary and exit",
        "",
        "`ternary COMMAND --help` shows the options of COMMAND.",
    ]
    return "\n".join(lines)


def _call(name: str, argv: list[str]) -> int:
    module_name, function_name, _ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        print(f"ternary {name}: not available in this version of ternary.", file=sys.stderr)
        return 2
    function = getattr(module, function_name)
    if "prog" in inspect.signature(function).parameters:
        return int(function(argv, prog=f"ternary {name}") or 0)
    return int(function(argv) or 0)


def _guarded(run: Callable[[], int]) -> int:
    """``run()`` (a whole command), ended quietly with status 141 if stdout's reader goes.

    Python ignores SIGPIPE, so a write to a pipe whose reader has exited raises
    BrokenPipeError, at the write or at a later flush. It ends the command here: stdout
    is pointed at the null device, so the interpreter's own flush at exit has nowhere
    left to fail, and no traceback is printed. Output still buffered at a ``SystemExit``
    (argparse's ``--help``) is flushed here for the same reason.
    """
    try:
        try:
            status = run()
        except SystemExit:
            _flush_stdout()
            raise
        _flush_stdout()
        return status
    except BrokenPipeError:
        try:
            fd = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):  # no file descriptor behind stdout
            return _BROKEN_PIPE_STATUS
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
        return _BROKEN_PIPE_STATUS


def _flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ternary`` command.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        The exit status: the subcommand's own, 0 for ``--help`` and ``--version``, 2 for
        a usage error or a missing optional package (the message names the package and
        the extra that installs it), 141 (128 + SIGPIPE, with no traceback) when the
        reader of stdout stopped reading, as in ``ternary run --help | head -1``.

    Examples
    --------
    >>> main(["--version"]) == 0
    ternary ...
    True
    """
    args = list(sys.argv[1:] if argv is None else argv)
    return _guarded(lambda: _dispatch(args))


def _dispatch(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(_usage(), file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] == "--version":
        print(f"ternary {_version()}")
        return 0
    if args[0] not in COMMANDS:
        print(_usage(), file=sys.stderr)
        print(
            f"\nternary: error: unknown command {args[0]!r} (choose from {', '.join(COMMANDS)})",
            file=sys.stderr,
        )
        return 2
    from ternary._optional import OPTIONAL_PACKAGES, MissingOptionalDependency, missing_message

    try:
        return _call(args[0], args[1:])
    except MissingOptionalDependency as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # a bare import of an optional package
        missing = (exc.name or "").split(".")[0]
        if missing not in OPTIONAL_PACKAGES:
            raise
        print(f"error: {missing_message(missing, f'ternary {args[0]}')}", file=sys.stderr)
        return 2
