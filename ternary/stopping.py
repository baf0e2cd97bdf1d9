"""Stopping long fits from outside: a stop check that the library's fit loops call.

A fit can run for minutes (a forest of deep trees with many bootstraps per node, a
cross-validation over many settings). Whoever started it may stop wanting it: an app
whose page was closed or whose settings changed. `stop_when` installs a callable
``should_stop`` for the work run inside its ``with`` block; the fit loops call it at
points where a check costs nothing beside the work between two checks, and raise
`Stopped` when it answers True:

* `TernaryTreeClassifier.fit <ternary.TernaryTreeClassifier.fit>`: before the growth,
  at every node of the hard-middle growth, before the δ pass and at every node of a
  node-by-node δ pass (node bootstrap: B bootstrap scans per node), and before grafting;
* `TernaryForestClassifier.fit <ternary.TernaryForestClassifier.fit>`: before each
  member is handed out to joblib (`Feed`; with ``n_jobs=None`` the members grow in the
  calling thread, and each one's fit checks as a tree's does);
* `ternary.experiment.run_cv`: before each fold's references and each fold task.

Scikit-learn's own CART growth, one compiled call, is not interrupted: a check
comes right before and right after it. Work between two checks is thus bounded by
one node, one tree's growth or one fold task, never by rows.

Why a context and not a ``fit`` parameter: the work that a caller wants to stop
reaches the fits through its own layers (caches, pipelines, cross-validation), none of
which should have to pass a callback along; a context set around the work reaches
every fit inside it in the same thread, and costs a dictionary look-up per check. The
check is scoped to the ``with`` block and to its thread (a `contextvars.ContextVar`),
so two sessions fitting at once in two threads stop independently.

Examples
--------
>>> import threading
>>> from sklearn.datasets import make_moons
>>> from ternary import TernaryForestClassifier
>>> from ternary.stopping import Stopped, stop_when
>>> X, y = make_moons(200, random_state=0)
>>> stop = threading.Event()
>>> stop.set()  # as another thread would, once the result is no longer wanted
>>> try:
...     with stop_when(stop.is_set):
...         TernaryForestClassifier(n_estimators=50, random_state=0).fit(X, y)
... except Stopped:
...     print("stopped")
stopped
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["Feed", "Stopped", "check", "current", "stop_when"]

T = TypeVar("T")

_SHOULD_STOP: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "ternary_should_stop", default=None
)


class Stopped(BaseException):
    """Raised by a fit loop whose stop check (`stop_when`) answered True.

    A `BaseException`, as `KeyboardInterrupt` is: a stop is not an error of the work,
    so no ``except Exception`` on the way out (a fallback, a retry) may swallow it.
    """


@contextlib.contextmanager
def stop_when(should_stop: Callable[[], bool] | None) -> Iterator[None]:
    """Let the fits run inside the block stop when ``should_stop()`` answers True.

    Parameters
    ----------
    should_stop : callable or None
        Called without arguments at each check point; True stops the work there with
        `Stopped`. A `threading.Event`'s ``is_set`` serves, set by another thread.
        Inside another `stop_when` block, either check stops the work. None installs
        nothing.

    Yields
    ------
    None
        The block runs with the check installed; it is removed on leaving it.
    """
    if should_stop is None:
        yield
        return
    outer = _SHOULD_STOP.get()
    if outer is not None:
        inner = should_stop

        def should_stop() -> bool:
            return outer() or inner()

    token = _SHOULD_STOP.set(should_stop)
    try:
        yield
    finally:
        _SHOULD_STOP.reset(token)


def current() -> Callable[[], bool] | None:
    """The stop check installed in this context, to hand to worker threads.

    Returns
    -------
    callable or None
        The callable `stop_when` installed, or None outside any `stop_when` block.
    """
    return _SHOULD_STOP.get()


class Feed(Generic[T]):
    """Tasks handed out one by one to a pool until the stop check answers True.

    joblib takes its tasks from an iterable as workers free up, and from its own
    threads, where neither this context's check is installed nor a raised `Stopped`
    would reach the caller (it would stop joblib's dispatch, not its wait). A `Feed`
    takes the check in the calling thread, ends the iteration where the check
    answers True, and `raise_if_stopped` raises `Stopped` in the calling thread once
    the pool has returned: the work after a stop is the tasks already handed out.

    Parameters
    ----------
    items : iterable
        The tasks.
    """

    def __init__(self, items: Iterable[T]) -> None:
        self._items = items
        self._should_stop = _SHOULD_STOP.get()
        self.stopped = False

    def __iter__(self) -> Iterator[T]:
        """Yield the tasks while the stop check (if any) answers False."""
        for item in self._items:
            if self._should_stop is not None and self._should_stop():
                self.stopped = True
                return
            yield item

    def raise_if_stopped(self) -> None:
        """Raise `Stopped` if the iteration ended on a stop.

        Raises
        ------
        Stopped
            When the stop check answered True before the tasks ran out.
        """
        if self.stopped:
            raise Stopped("the work was stopped by its stop check (ternary.stopping.stop_when)")


def check() -> None:
    """Raise `Stopped` if the installed stop check answers True; else nothing.

    Raises
    ------
    Stopped
        When a `stop_when` block is active and its ``should_stop()`` is True.
    """
    should_stop = _SHOULD_STOP.get()
    if should_stop is not None and should_stop():
        raise Stopped("the work was stopped by its stop check (ternary.stopping.stop_when)")
