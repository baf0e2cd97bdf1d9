"""The tree, the forest and the pipeline share one set of prediction methods.

`ternary._base.TernaryPredictMixin` derives ``predict_proba``, ``predict`` and
``predict_with_verdict`` from each classifier's ``predict_proba_verdict``; the pipeline
hands its ternary methods to its final step through one factory.
"""

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.exceptions import NotFittedError

from ternary import TernaryForestClassifier, TernaryTreeClassifier, make_pipeline
from ternary.data import Preprocessor

validate = pytest.importorskip("numpydoc.validate").validate

SHARED = ("predict_proba", "predict", "predict_with_verdict")


@pytest.fixture(scope="module")
def moons():
    return make_moons(300, noise=0.35, random_state=1)


@pytest.fixture(scope="module")
def models(moons):
    X, y = moons
    labels = np.array(["a", "b"])[y]  # string labels: a label is read from classes_
    tree = TernaryTreeClassifier(max_depth=4, random_state=0).fit(X, labels)
    forest = TernaryForestClassifier(n_estimators=7, max_depth=4, random_state=0).fit(X, labels)
    return tree, forest


@pytest.mark.parametrize("name", SHARED)
def test_the_methods_are_written_once(name):
    assert getattr(TernaryTreeClassifier, name) is getattr(TernaryForestClassifier, name)
    assert name not in vars(TernaryTreeClassifier) and name not in vars(TernaryForestClassifier)


@pytest.mark.parametrize("which", [0, 1])
def test_the_shared_methods_answer_from_one_walk(models, moons, which):
    model = models[which]
    X = moons[0]
    proba, verdict = model.predict_proba_verdict(X)
    np.testing.assert_array_equal(model.predict_proba(X), proba)
    expected = model.classes_[np.argmax(proba, axis=1)]
    assert set(expected) == {"a", "b"}
    np.testing.assert_array_equal(model.predict(X), expected)
    labels, verdicts = model.predict_with_verdict(X)
    np.testing.assert_array_equal(labels, expected)
    np.testing.assert_array_equal(verdicts, verdict)
    np.testing.assert_array_equal(verdicts, model.predict_verdict(X))
    assert 0 < verdicts.mean() < 1


@pytest.mark.parametrize("cls", [TernaryTreeClassifier, TernaryForestClassifier])
@pytest.mark.parametrize("name", SHARED)
def test_unfitted_models_say_so(cls, name):
    with pytest.raises(NotFittedError):
        getattr(cls(), name)(np.zeros((2, 2)))


@pytest.mark.parametrize("cls", ["TernaryTreeClassifier", "TernaryForestClassifier"])
@pytest.mark.parametrize("name", SHARED)
def test_inherited_docstrings_pass_numpydoc(cls, name):
    # tests/docs validates the methods a class defines itself; these it inherits
    errors = validate(f"ternary.{cls}.{name}")["errors"]
    assert [code for code, _ in errors if code not in {"ES01", "SA01", "EX01"}] == []


def test_parameters_are_stored_unchanged():
    weights = {0: 1.0, 1: 2.0}
    tree = TernaryTreeClassifier(class_weight=weights, max_depth=None, graft="all")
    assert tree.class_weight is weights
    assert tree.get_params()["max_depth"] is None and tree.graft == "all"
    assert set(vars(tree)) == set(tree.get_params())
    forest = TernaryForestClassifier(n_estimators=3)
    assert set(vars(forest)) == set(forest.get_params()) and forest.n_estimators == 3


def test_pipeline_delegates_to_its_final_step(models, moons):
    import pandas as pd

    X = pd.DataFrame(moons[0], columns=["x1", "x2"])
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, moons[1])
    pipe = make_pipeline(Preprocessor(), tree).fit(X, moons[1])
    final = pipe._final_estimator
    Xt = pipe[:-1].transform(X)
    for name in (
        "predict_verdict",
        "predict_confidence",
        "boundary_distance",
        "predict_proba_verdict",
        "predict_with_verdict",
    ):
        assert getattr(type(pipe), name).__doc__.startswith(getattr(pipe, name).__doc__[:20])
        ours, theirs = getattr(pipe, name)(X), getattr(final, name)(Xt)
        ours, theirs = (o if isinstance(o, tuple) else (o,) for o in (ours, theirs))
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(a, b)
    errors = validate("ternary.pipeline.TernaryPipeline.predict_verdict")["errors"]
    assert [code for code, _ in errors if code not in {"ES01", "SA01", "EX01"}] == []
    # a forest has no boundary distance: neither has its pipeline
    forest_pipe = make_pipeline(Preprocessor(), TernaryForestClassifier(n_estimators=3))
    assert not hasattr(forest_pipe, "boundary_distance")
    assert hasattr(forest_pipe, "predict_verdict")
