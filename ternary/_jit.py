"""The one loader of compiled code: numba is imported here and nowhere else.

A *kernel family* is a set of plain-Python functions, each with one numba signature,
that its module registers at import time (`register`). The family is compiled the
first time a caller asks for it (`kernels`), or loaded from numba's disk cache, under
one lock, and the result is kept for the life of the process: a dict of compiled
functions by name, or None when numba is missing or cannot compile them (the callers
then take their numpy or scikit-learn paths, silently). This module imports nothing
from the rest of the package, so every kernel family can import it without an import
circle; `ternary.compiled.warm_up` imports the families and asks each in turn.

A kernel may call small plain-Python functions of its module marked with `helper`:
numba compiles them into the kernels that call them (``register_jitable``), and
uncompiled they stay ordinary functions, so a kernel's plain-Python run calls them too.

Compiling with ``cache=True`` needs a writable cache folder next to the sources (or in
``NUMBA_CACHE_DIR``); where there is none, the family is compiled again uncached.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["available", "families", "helper", "kernels", "register"]

_LOCK = threading.Lock()
#: family name -> (signature by function name, function by name)
_FAMILIES: dict[str, tuple[dict[str, str], dict[str, Any]]] = {}
#: family name -> compiled functions by name, or None without numba; filled on first use
_LOADED: dict[str, dict[str, Callable] | None] = {}
#: functions the kernels call (`helper`), and those numba has been told of
_HELPERS: list[Callable] = []
_TOLD: set[Callable] = set()


def register(family: str, signatures: Mapping[str, str], functions: Mapping[str, Any]) -> None:
    """Declare a kernel family: one numba signature per plain-Python function.

    Parameters
    ----------
    family : str
        The family's name (``"blend"``, ``"growth"``, ``"split"``, ``"zones"``).
    signatures : mapping of str to str
        numba's signature string for each function name.
    functions : mapping of str to callable
        The plain-Python function for each name; the keys must equal ``signatures``'.
    """
    if set(signatures) != set(functions):
        raise ValueError(
            f"kernel family {family!r}: signatures and functions name different kernels"
        )
    _FAMILIES[family] = (dict(signatures), dict(functions))


def helper(function: Callable) -> Callable:
    """Mark ``function`` as one that kernels call; it is returned unchanged.

    When a family compiles, numba learns every marked function (as
    ``numba.extending.register_jitable``) and compiles it into the kernels that call it.

    Parameters
    ----------
    function : callable
        A plain-Python function in numba's subset, called from a kernel.

    Returns
    -------
    callable
        ``function`` itself.
    """
    _HELPERS.append(function)
    return function


def kernels(family: str) -> dict[str, Callable] | None:
    """The compiled functions of ``family`` by name, or None without numba.

    Parameters
    ----------
    family : str
        A registered family's name.

    Returns
    -------
    dict or None
        Compiled (or cache-loaded) once per process; None when numba is missing or
        the family did not compile.
    """
    if family not in _LOADED:
        with _LOCK:
            if family not in _LOADED:
                _LOADED[family] = _compile(*_FAMILIES[family])
    return _LOADED[family]


def available(family: str) -> bool:
    """True when ``family`` compiled (compiling it on the first call)."""
    return kernels(family) is not None


def families() -> tuple[str, ...]:
    """The names of the families registered so far, sorted."""
    return tuple(sorted(_FAMILIES))


def _compile(signatures: dict[str, str], functions: dict[str, Any]):
    try:
        import numba
    except Exception:  # noqa: BLE001 - numba missing or broken: the numpy paths serve
        return None
    try:
        from numba.extending import register_jitable

        for function in _HELPERS:
            if function not in _TOLD:
                register_jitable(function)
                _TOLD.add(function)
    except Exception:  # noqa: BLE001 - numba broken: the numpy paths serve
        return None
    for cache in (True, False):
        try:
            # nogil lets Streamlit's script threads run kernels at the same time
            return {
                name: numba.njit(signatures[name], cache=cache, nogil=True)(function)
                for name, function in functions.items()
            }
        except Exception:  # noqa: BLE001 - e.g. no writable cache directory: retry uncached
            continue
    return None
