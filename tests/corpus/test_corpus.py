"""Every fit of the recorded corpus gives the recorded outputs, bit for bit.

The corpus (`tests/corpus/make_corpus.py`) was recorded before the package was
reorganised; a refactoring that changes any output fails here, naming the case and
field. To change an output on purpose, re-record with
``python tests/corpus/make_corpus.py`` and say in the commit which fields moved.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.corpus.make_corpus import CORPUS, build_corpus, load

#: Fields allowed to differ by rounding, by the field name after ``case/`` (the part before
#: any ``.``, e.g. "predict_proba", "explain0", "tree"). Empty: everything is exact. A
#: compiled kernel that sums in another order may relax a field here to 1e-12 absolute,
#: with a comment naming the kernel and why its order differs; labels, verdicts, tree
#: structure and strings stay exact.
TOLERANCE: dict[str, float] = {}


@pytest.fixture(scope="module")
def recorded() -> dict[str, np.ndarray]:
    return load(CORPUS)


@pytest.fixture(scope="module")
def recomputed() -> dict[str, np.ndarray]:
    return build_corpus()


def _same(expected: np.ndarray, actual: np.ndarray, tolerance: float | None) -> bool:
    actual = np.asarray(actual)
    if expected.dtype.kind in "US":
        return actual.shape == expected.shape and actual.astype(str).tolist() == expected.tolist()
    if actual.dtype != expected.dtype or actual.shape != expected.shape:
        return False
    if tolerance is None or expected.dtype.kind != "f":
        return bool(np.array_equal(expected, actual, equal_nan=expected.dtype.kind == "f"))
    return bool(np.allclose(expected, actual, rtol=0.0, atol=tolerance, equal_nan=True))


def test_corpus_is_small_and_broad(recorded):
    assert CORPUS.stat().st_size < 2_000_000
    cases = {key.split("/")[0] for key in recorded}
    # every δ method × routing on four datasets, grafted both ways, forests and rezones
    assert len([c for c in cases if c.startswith("forest-")]) == 13
    assert len([c for c in cases if c.startswith("rezone:")]) == 3
    assert len(cases) > 200
    assert any(key.endswith("/graft_report.p_value") for key in recorded)
    assert any(key.endswith("/explain0.sentence") for key in recorded)


def test_every_recorded_field_is_reproduced(recorded, recomputed):
    assert sorted(recomputed) == sorted(recorded), "the set of cases or fields changed"
    differ = []
    for key, expected in recorded.items():
        field = key.split("/", 1)[1].split(".")[0]
        if not _same(expected, recomputed[key], TOLERANCE.get(field)):
            differ.append(key)
    assert not differ, f"{len(differ)} fields differ, e.g. {differ[:10]}"
