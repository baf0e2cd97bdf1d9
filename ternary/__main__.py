"""``python -m ternary``: the same command as ``ternary`` (see `ternary._cli`)."""

from ternary._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
