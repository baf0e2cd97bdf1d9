"""``python -m ternary.experiment``: see `ternary.experiment._cli` for the options."""

from ternary.experiment._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
