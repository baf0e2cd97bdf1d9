"""``python -m ternary``: the same command as ``ternary`` (see `ternary.cli`)."""

from ternary.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
