"""The compiled kernels, warmed ahead of use.

numba compiles each kernel family the first time it is needed (or loads it from its
disk cache), which takes seconds on a fresh install. `warm_up` pays that at once: an
app calls it at start-up, and ``ternary warm-up`` fills the disk cache before a lecture.
Without numba nothing is compiled and every caller takes its numpy or scikit-learn path.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ternary import _jit

# Importing the families registers them with the loader (`ternary._jit`); the import
# arrows point from here to them, never back.
from ternary.delta import kernels as _zones  # noqa: F401 - registers "zones"
from ternary.tree import _split, growth  # noqa: F401 - register "split" and "growth"
from ternary.tree import kernels as _blend  # noqa: F401 - registers "blend"

__all__ = ["families", "warm_up", "without"]


def families() -> tuple[str, ...]:
    """The compiled kernel families, by name.

    Returns
    -------
    tuple of str
        ``("blend", "growth", "split", "zones")``: prediction and the bootstrap scan,
        the growth over presorted rows, the hard-middle split search, and the zone
        passes of the curve δ methods.

    Examples
    --------
    >>> from ternary.compiled import families
    >>> families()
    ('blend', 'growth', 'split', 'zones')
    """
    return _jit.families()


def warm_up() -> bool:
    """Compile (or load from the disk cache) every compiled kernel family now.

    Each family is loaded on its own, so one that fails to compile leaves the others
    warm.

    Returns
    -------
    bool
        True when numba is available and every family compiled; False when some family
        is unavailable, and its callers then take their numpy or scikit-learn paths.
    """
    # each asked in turn, none skipped when another failed
    loaded = [_jit.available(family) for family in _jit.families()]
    return all(loaded)


@contextmanager
def without(*names: str) -> Iterator[None]:
    """Run the block as if the kernel families ``names`` had not compiled.

    Their callers take the numpy (or scikit-learn) paths they take without numba; the
    compiled functions are back after the block. For tests and benchmarks that compare
    the two paths in one process; not thread-safe.

    Parameters
    ----------
    *names : str
        Families from `families`; none given means all of them.

    Yields
    ------
    None
        Inside the block the families count as unavailable.

    Examples
    --------
    >>> from ternary.tree.kernels import kernel_available
    >>> with without("blend"):
    ...     kernel_available()
    False
    """
    names = names or _jit.families()
    unknown = sorted(set(names) - set(_jit.families()))
    if unknown:
        raise ValueError(f"no kernel family {unknown[0]!r}; choose from {_jit.families()}.")
    saved = {name: _jit._LOADED[name] for name in names if name in _jit._LOADED}
    try:
        _jit._LOADED.update(dict.fromkeys(names))
        yield
    finally:
        for name in names:
            if name in saved:
                _jit._LOADED[name] = saved[name]
            else:
                _jit._LOADED.pop(name, None)
