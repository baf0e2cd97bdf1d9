"""A corpus of fits whose every output must survive refactoring bit for bit.

Run as a script to (re)record it::

    python tests/corpus/make_corpus.py          # writes tests/corpus/corpus.bin.xz

`tests/corpus/test_corpus.py` rebuilds the same fits and compares each stored field
exactly (``np.array_equal``, exact strings). Record only on purpose, after a change
whose effect on the outputs is intended, and say in the commit which fields moved.

What is recorded, on four small datasets (two moons, breast cancer, wine, a digits
subset; all generated or shipped with scikit-learn, no network):

* every δ method × routing, grafted ("all", "one") and not where grafting is allowed
  (binary routings), plus a pruned deep grafted tree, ``delta_scale`` 0.5 and
  ``"bayes"``, sample weights and class weights, string labels, `rezone`;
* per fit: every array of ``tree_``, ``feature_importances_``, ``delta_scale_``,
  ``predict``, ``predict_proba``, ``predict_verdict``, ``predict_confidence``,
  ``boundary_distance`` (binary routings), ``graft_report_`` column by column,
  ``export_text``, and `explain_row` (sentence, flag, probabilities, path and steps) on
  a few rows;
* small forests (every δ method, both binary routings, one with ``oob_score``): their
  probabilities, verdicts, decided fractions, confidences, importances and each
  member's δ.

Keys are ``case/field``; `save` and `load` store the mapping without pickle (a JSON
index, strings in it, numeric arrays in one buffer per dtype, xz-compressed).
"""

from __future__ import annotations

import json
import lzma
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script: make the repository importable
    sys.path.insert(0, str(HERE.parents[1]))

CORPUS = HERE / "corpus.bin.xz"

METHODS = ("margin", "node_bootstrap", "quality_plateau", "gain_ratio", "class_overlap", "none")
BINARY = ("probabilistic", "deferred")
TREE_ARRAYS = (
    "children_left",
    "children_right",
    "children_middle",
    "feature",
    "threshold",
    "delta",
    "value",
    "n_node_samples",
    "weighted_n_node_samples",
    "impurity",
    "grafted",
)
EXPLAINED_ROWS = 4
#: The corpus was recorded with the paper's zone, closed at θ+δ (before zone_edges existed,
#: when it was the only one); every fit asks for it, so the recording stays valid.
PAPER_ZONE = {"zone_edges": "closed"}


def datasets() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``name -> (X_train, y_train, X_eval)``: small, seeded, no network."""
    from sklearn.datasets import load_breast_cancer, load_digits, load_wine, make_moons

    rng = np.random.RandomState(0)
    out = {}
    X, y = make_moons(240, noise=0.3, random_state=0)
    out["moons"] = (X, y)
    X, y = load_breast_cancer(return_X_y=True)
    keep = rng.permutation(X.shape[0])[:260]
    out["cancer"] = (X[keep], y[keep])
    X, y = load_wine(return_X_y=True)
    out["wine"] = (X, y)
    X, y = load_digits(n_class=4, return_X_y=True)
    keep = rng.permutation(X.shape[0])[:240]
    out["digits"] = (X[keep], y[keep])
    result = {}
    for name, (X, y) in out.items():
        # the training rows, then jittered copies of some: rows near and inside zones
        spread = X.std(axis=0) + 1e-12
        picks = rng.choice(X.shape[0], 80, replace=False)
        jitter = X[picks] + rng.normal(0, 0.15, (80, X.shape[1])) * spread
        result[name] = (X, y, np.vstack([X[:60], jitter]))
    return result


def tree_cases() -> Iterator[tuple[str, str, dict, dict]]:
    """``(case, dataset, estimator params, fit options)`` for every single-tree fit."""
    for data in ("moons", "cancer", "wine", "digits"):
        for method in METHODS:
            for routing in (*BINARY, "hard_middle"):
                grafts = ("none", "all", "one") if routing in BINARY else ("none",)
                for graft in grafts:
                    params = dict(delta_method=method, routing=routing, max_depth=4, random_state=0)
                    if graft != "none":
                        params["graft"] = graft
                    yield f"{data}-{method}-{routing}-{graft}", data, params, {}
    deep = dict(max_depth=None, ccp_alpha=0.005, random_state=0)
    for method in ("none", "margin", "node_bootstrap"):
        for graft in ("all", "one"):
            params = {**deep, "delta_method": method, "graft": graft}
            yield f"cancer-deep-{method}-{graft}", "cancer", params, {}
    yield "moons-scale-half", "moons", dict(delta_scale=0.5, random_state=0), {}
    yield "moons-bayes", "moons", dict(delta_scale="bayes", random_state=0), {}
    yield (
        "wine-bayes-plateau",
        "wine",
        dict(delta_scale="bayes", delta_method="quality_plateau", random_state=0),
        {},
    )
    for method in ("margin", "node_bootstrap", "class_overlap"):
        for routing in ("probabilistic", "hard_middle"):
            yield (
                f"moons-weights-{method}-{routing}",
                "moons",
                dict(delta_method=method, routing=routing, random_state=0),
                {"weights": True},
            )
    yield "wine-balanced", "wine", dict(class_weight="balanced", random_state=0), {}
    yield (
        "wine-labels-graft",
        "wine",
        dict(graft="all", max_depth=None, random_state=0),
        {"labels": True},
    )
    yield (
        "digits-features",
        "digits",
        dict(max_features="sqrt", delta_method="gain_ratio", random_state=3),
        {},
    )
    yield (
        "cancer-entropy",
        "cancer",
        dict(
            criterion="entropy", delta_method="quality_plateau", min_samples_leaf=3, random_state=0
        ),
        {},
    )


REZONES = (
    ("moons-margin-probabilistic-none", dict(delta_method="node_bootstrap")),
    ("cancer-none-probabilistic-all", dict(delta_method="margin", routing="deferred")),
    ("wine-margin-probabilistic-none", dict(delta_method="class_overlap", delta_scale=0.7)),
)


def forest_cases() -> Iterator[tuple[str, str, dict]]:
    """``(case, dataset, forest params)``."""
    for method in METHODS:
        for routing in BINARY:
            data = "moons" if routing == "probabilistic" else "wine"
            params = dict(delta_method=method, routing=routing, n_estimators=4, random_state=0)
            yield f"forest-{data}-{method}-{routing}", data, params
    yield (
        "forest-cancer-oob",
        "cancer",
        dict(n_estimators=6, oob_score=True, max_depth=3, random_state=1),
    )


def _fit_inputs(X, y, options):
    y_fit = np.array([f"class {v}" for v in y], dtype=object) if options.get("labels") else y
    weights = None
    if options.get("weights"):
        weights = np.random.RandomState(1).randint(0, 4, y.shape[0]).astype(float)
    return X, y_fit, weights


def _text(value) -> np.ndarray:
    return np.array(str(value))


def paper_confidence(model, X_eval) -> np.ndarray:
    """``predict_confidence`` in the paper's ranking, the one recorded (the default until
    issue 30 made the smoothed ranking the default); it is read at prediction time."""
    return model.set_params(confidence="paper").predict_confidence(X_eval)


def tree_record(clf, X_eval) -> dict[str, np.ndarray]:
    """Every recorded output of one fitted `TernaryTreeClassifier`."""
    from ternary import export_text
    from ternary.explain import explain_row

    rec = {f"tree.{name}": np.asarray(getattr(clf.tree_, name)) for name in TREE_ARRAYS}
    rec["feature_importances"] = np.asarray(clf.feature_importances_)
    rec["delta_scale"] = np.array(clf.delta_scale_)
    rec["bayes_error"] = np.array(
        np.nan if clf.bayes_error_estimate_ is None else clf.bayes_error_estimate_
    )
    rec["predict"] = np.asarray(clf.predict(X_eval)).astype(str)
    rec["predict_proba"] = clf.predict_proba(X_eval)
    rec["predict_verdict"] = clf.predict_verdict(X_eval)
    rec["predict_confidence"] = paper_confidence(clf, X_eval)
    if clf.routing != "hard_middle":
        rec["boundary_distance"] = clf.boundary_distance(X_eval)
    rec["export_text"] = _text(export_text(clf))
    report = clf.graft_report_
    if report is not None:
        rec["graft_report.columns"] = np.array(list(report.columns))
        for column in report.columns:
            values = report[column].to_numpy()
            rec[f"graft_report.{column}"] = values.astype(str) if values.dtype == object else values
    verdict = rec["predict_verdict"]
    # explained rows: flagged ones first, then decided ones, a fixed choice per fit
    rows = [*np.flatnonzero(verdict == 0)[:2], *np.flatnonzero(verdict == 1)[:2]]
    for i, row in enumerate(rows[:EXPLAINED_ROWS]):
        e = explain_row(clf, X_eval[row])
        frame = e.to_frame()
        key = f"explain{i}"
        rec[f"{key}.row"] = np.array(row)
        rec[f"{key}.sentence"] = _text(e.sentence)
        rec[f"{key}.flagged"] = np.array(e.flagged)
        rec[f"{key}.proba"] = np.asarray(e.proba)
        rec[f"{key}.path"] = _text(json.dumps({str(k): float(v) for k, v in e.path.items()}))
        for column in frame.columns:
            values = frame[column].to_list()
            if column.startswith("proba"):
                values = [np.full(clf.n_classes_, np.nan) if v is None else v for v in values]
                rec[f"{key}.{column}"] = np.asarray(values, dtype=np.float64).reshape(
                    len(frame), clf.n_classes_
                )
            elif column == "feature_name":
                rec[f"{key}.{column}"] = np.asarray(values, dtype=str)
            else:
                rec[f"{key}.{column}"] = np.asarray(values)
    return rec


def forest_record(forest, X_eval) -> dict[str, np.ndarray]:
    """Every recorded output of one fitted `TernaryForestClassifier`."""
    rec = {
        "predict": np.asarray(forest.predict(X_eval)).astype(str),
        "predict_proba": forest.predict_proba(X_eval),
        "predict_verdict": forest.predict_verdict(X_eval),
        "decided_fraction": forest.decided_fraction(X_eval),
        "predict_confidence": paper_confidence(forest, X_eval),
        "feature_importances": forest.feature_importances_,
    }
    for i, member in enumerate(forest.estimators_):
        rec[f"member{i}.delta"] = member.tree_.delta
        rec[f"member{i}.threshold"] = member.tree_.threshold
        rec[f"member{i}.random_state"] = np.array(member.random_state)
    if forest.oob_score:
        rec["oob_score"] = np.array(forest.oob_score_)
        rec["oob_decision_function"] = forest.oob_decision_function_
    return rec


def build_corpus() -> dict[str, np.ndarray]:
    """Fit every case and return the flat ``{"case/field": array}`` mapping."""
    import warnings

    from ternary import TernaryForestClassifier, TernaryTreeClassifier, rezone

    data = datasets()
    corpus: dict[str, np.ndarray] = {}
    fitted = {}
    for case, name, params, options in tree_cases():
        X, y, X_eval = data[name]
        X_fit, y_fit, weights = _fit_inputs(X, y, options)
        clf = TernaryTreeClassifier(**params, **PAPER_ZONE)
        clf.fit(X_fit, y_fit, sample_weight=weights)
        fitted[case] = clf
        for field, value in tree_record(clf, X_eval).items():
            corpus[f"{case}/{field}"] = value
    for case, new_params in REZONES:
        name = case.split("-")[0]
        X, y, X_eval = data[name]
        clf = rezone(fitted[case], X, y, **new_params)
        for field, value in tree_record(clf, X_eval).items():
            corpus[f"rezone:{case}/{field}"] = value
    for case, name, params in forest_cases():
        X, y, X_eval = data[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # few trees: some rows lack an OOB
            forest = TernaryForestClassifier(**params, **PAPER_ZONE).fit(X, y)
        for field, value in forest_record(forest, X_eval).items():
            corpus[f"{case}/{field}"] = value
    return corpus


def _kind(array: np.ndarray) -> str:
    return "text" if array.dtype.kind in "US" else array.dtype.str


def save(corpus: dict[str, np.ndarray], path: Path = CORPUS) -> None:
    """Write the corpus compactly: one JSON index, one byte-shuffled buffer per dtype, xz.

    Strings go into the JSON (UTF-8) rather than numpy's UTF-32 arrays, and every numeric
    array of one dtype is concatenated into one buffer whose bytes are regrouped by
    position (all first bytes, then all second bytes, ...), which xz packs far tighter
    than the raw doubles. The whole file is a few hundred kilobytes.
    """
    index, buffers = {}, {}
    for key, value in corpus.items():
        array = np.asarray(value)
        kind = _kind(array)
        if kind == "text":
            index[key] = ["text", list(array.shape), array.tolist()]
            continue
        parts = buffers.setdefault(kind, [])
        offset = sum(p.size for p in parts)
        parts.append(np.ascontiguousarray(array).reshape(-1))
        index[key] = [kind, list(array.shape), offset]
    header = json.dumps(index, sort_keys=True).encode()
    blobs = [len(header).to_bytes(8, "little"), header]
    for kind in sorted(buffers):
        flat = np.concatenate(buffers[kind])
        width = flat.dtype.itemsize
        shuffled = flat.view(np.uint8).reshape(-1, width).T.tobytes()
        name = kind.encode()
        blobs += [len(name).to_bytes(8, "little"), name, len(shuffled).to_bytes(8, "little")]
        blobs.append(shuffled)
    path.write_bytes(lzma.compress(b"".join(blobs), preset=9 | lzma.PRESET_EXTREME))


def load(path: Path = CORPUS) -> dict[str, np.ndarray]:
    """The mapping `save` wrote, every array with its recorded dtype and shape."""
    raw = memoryview(lzma.decompress(path.read_bytes()))
    size = int.from_bytes(raw[:8], "little")
    index = json.loads(bytes(raw[8 : 8 + size]))
    at, buffers = 8 + size, {}
    while at < len(raw):
        n = int.from_bytes(raw[at : at + 8], "little")
        kind = bytes(raw[at + 8 : at + 8 + n]).decode()
        at += 8 + n
        n = int.from_bytes(raw[at : at + 8], "little")
        dtype = np.dtype(kind)
        planes = np.frombuffer(raw[at + 8 : at + 8 + n], dtype=np.uint8)
        buffers[kind] = planes.reshape(dtype.itemsize, -1).T.copy().view(dtype).reshape(-1)
        at += 8 + n
    corpus = {}
    for key, (kind, shape, where) in index.items():
        if kind == "text":
            corpus[key] = np.array(where, dtype=str).reshape(shape)
        else:
            count = int(np.prod(shape, dtype=np.int64))
            corpus[key] = buffers[kind][where : where + count].reshape(shape)
    return corpus


def main() -> None:
    corpus = build_corpus()
    save(corpus)
    print(f"{len(corpus)} fields, {CORPUS.stat().st_size / 1e6:.2f} MB -> {CORPUS}")


if __name__ == "__main__":
    main()
