"""The ``ternary`` command: one entry point, a subcommand per task.

``ternary run`` cross-validates (the experiment command line, also ``python -m
ternary.experiment``), ``ternary predict`` scores new rows with a saved model, ``ternary
report`` turns a results file into the paper's tables. The subcommand's module is imported
only when it is chosen, so ``ternary --help`` answers at once; each subcommand has its own
``--help``. A subcommand is a ``main(argv, *, prog=None) -> int`` function (``prog`` is
optional: it names the command in the usage line).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence

__all__ = ["COMMANDS", "main"]

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
        the extra that installs it).

    Examples
    --------
    >>> main(["--version"]) == 0
    ternary ...
    True
    """
    args = list(sys.argv[1:] if argv is None else argv)
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
