"""``ternary warm-up``: compile the kernels now, so no one waits for them later.

numba compiles each kernel family the first time a process needs it and keeps the result
in its disk cache, which every later process loads in a moment. Right after an install
the first app start therefore waits for the compiler (about 40 s on a 2-core laptop);
running this command once beforehand, say before a lecture, fills the cache instead.
"""

from __future__ import annotations

import argparse
import os
import time

__all__ = ["main"]


def main(argv=None, *, prog: str | None = None) -> int:
    """Compile (or load from the disk cache) every kernel family, printing each.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the subcommand (only ``--help``).
    prog : str, optional
        The command's name in the usage line.

    Returns
    -------
    int
        0 when every family compiled, or when numba is not installed (nothing to
        compile: the numpy paths serve); 1 when some family failed to compile.
    """
    parser = argparse.ArgumentParser(
        prog=prog or "ternary warm-up",
        description="Compile ternary's numba kernels now and store them in numba's disk "
        "cache, so the first app start or fit after an install does not wait for them.",
    )
    parser.parse_args(argv)
    from ternary import _jit, compiled

    try:
        import numba
    except Exception:  # noqa: BLE001 - missing or broken: ternary takes its numpy paths
        print("numba is not installed: nothing to compile (ternary uses its numpy paths).")
        return 0
    cache = os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ beside ternary's sources"
    print(f"Compiling ternary's kernels with numba {numba.__version__} (cache: {cache}).")
    began, failed = time.perf_counter(), []
    for family in compiled.families():
        start = time.perf_counter()
        kernels = _jit.kernels(family)
        seconds = time.perf_counter() - start
        if kernels is None:
            failed.append(family)
            print(f"  {family}: did not compile ({seconds:.1f} s); its numpy path will serve")
        else:
            names = ", ".join(sorted(kernels))
            print(f"  {family}: {len(kernels)} kernels in {seconds:.1f} s ({names})")
    total = time.perf_counter() - began
    if failed:
        print(f"Done in {total:.1f} s; {len(failed)} families did not compile.")
        return 1
    print(f"Done in {total:.1f} s: later processes load the kernels from the cache.")
    return 0
