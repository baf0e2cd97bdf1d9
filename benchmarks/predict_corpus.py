"""Prediction corpus: every prediction of a set of fitted trees and forests, saved or compared.

Usage:
    python benchmarks/predict_corpus.py save PATH.npz     # record today's outputs
    python benchmarks/predict_corpus.py check PATH.npz    # compare, bit for bit

Fits trees on shared datasets (phoneme, waveform-5000, wilt, letter, segment; skipped
when ../shared is absent) and on generated data, for each routing, both zone edges,
depths 4, 8 and unlimited, plus hard_middle trees and a forest, then records
``predict_proba``, ``predict``, ``predict_verdict`` and ``predict_confidence`` on held-out
rows (with and without numba's kernels). ``check`` fails on the first output that is not
``np.array_equal`` to the recorded one. A change to the prediction code must leave every
output bit-equal (issue 41).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ternary import TernaryForestClassifier, TernaryTreeClassifier  # noqa: E402
from ternary.compiled import without  # noqa: E402
from ternary.data import load_arff  # noqa: E402

SHARED = ROOT.parent / "shared" / "datasets"
DATASETS = ["phoneme", "waveform-5000", "wilt", "letter", "segment"]


def _data():
    out = {}
    for name in DATASETS:
        path = SHARED / f"{name}.arff"
        if path.exists():
            d = load_arff(str(path))
            out[name] = (np.asarray(d.X, dtype=np.float64), np.asarray(d.y))
    X, y = make_classification(
        n_samples=6000, n_features=12, n_informative=6, n_classes=3, random_state=3
    )
    out["generated"] = (X, y)
    return out


def _models(X, y):
    for routing in ("probabilistic", "deferred", "hard_middle"):
        for edges in ("closed", "open"):
            for depth in (4, 8, None):
                if routing == "hard_middle" and depth is None:
                    depth = 12  # unlimited hard-middle growth is slow on the loaded machine
                params = dict(routing=routing, zone_edges=edges, max_depth=depth, random_state=0)
                yield f"{routing}-{edges}-{depth}", TernaryTreeClassifier(**params).fit(X, y)
    paper = TernaryTreeClassifier(confidence="paper", max_depth=8, random_state=0)
    yield "paper-conf", paper.fit(X, y)
    for confidence in ("paper", "laplace"):
        forest = TernaryForestClassifier(
            n_estimators=12, max_depth=10, random_state=0, n_jobs=1, confidence=confidence
        )
        yield f"forest-{confidence}", forest.fit(X, y)


def outputs():
    """Every output by key, in a fixed order."""
    result = {}
    for name, (X, y) in _data().items():
        rng = np.random.default_rng(0)
        order = rng.permutation(X.shape[0])
        cut = int(0.6 * X.shape[0])
        train, test = order[:cut], order[cut:]
        # held-out rows plus training rows, which sit on thresholds and zone edges
        rows = np.concatenate([X[test], X[train[:500]]])
        for key, model in _models(X[train], y[train]):
            for compiled in (True, False):
                prefix = f"{name}/{key}/{'numba' if compiled else 'numpy'}"
                ctx = _null() if compiled else without()
                with ctx:
                    result[f"{prefix}/proba"] = model.predict_proba(rows)
                    result[f"{prefix}/predict"] = model.predict(rows)
                    result[f"{prefix}/verdict"] = model.predict_verdict(rows)
                    result[f"{prefix}/confidence"] = model.predict_confidence(rows)
                    result[f"{prefix}/one"] = np.concatenate(
                        [model.predict_proba(rows[i : i + 1]).ravel() for i in range(5)]
                    )
                    if key.startswith("forest"):
                        # on two threads, in blocks of 997 rows: the same sums
                        sys.modules["ternary._confidence"]._FOREST_BLOCK = 997
                        model.set_params(n_jobs=2)
                        result[f"{prefix}/nj2/proba"] = model.predict_proba(rows)
                        result[f"{prefix}/nj2/verdict"] = model.predict_verdict(rows)
                        result[f"{prefix}/nj2/confidence"] = model.predict_confidence(rows)
                        model.set_params(n_jobs=1)
    return result


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def main() -> int:
    mode, path = sys.argv[1], Path(sys.argv[2])
    got = outputs()
    if mode == "save":
        np.savez_compressed(path, **got)
        print(f"saved {len(got)} outputs to {path}")
        return 0
    saved = np.load(path, allow_pickle=True)  # class labels may be strings
    bad = [k for k in saved.files if k not in got or not np.array_equal(saved[k], got[k])]
    missing = [k for k in got if k not in saved.files]
    print(f"{len(saved.files)} outputs compared: {len(bad)} differ, {len(missing)} new")
    for key in bad[:20]:
        print("  differs:", key)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
