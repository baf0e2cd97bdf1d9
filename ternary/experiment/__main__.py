"""``python -m ternary.experiment``: see `ternary.experiment._cli` for the options."""

from ternary.cli import _guarded
from ternary.experiment._cli import main

if __name__ == "__main__":
    # as `ternary run`: a reader of stdout that stops early ends the command quietly
    raise SystemExit(_guarded(main))
