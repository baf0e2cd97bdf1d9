"""run_cv's fold reference (one sort) gives the Chow and AURC functions' numbers exactly."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.experiment import ChowReference, chow_decided_accuracy
from ternary.selective import (
    aurc,
    e_aurc,
    optimal_aurc,
    tie_averaged_errors,
    tie_averaged_ranking,
)


def _fold(seed, n, n_classes, levels, labels):
    rng = np.random.default_rng(seed)
    # few distinct probabilities, as a depth-4 CART's leaves give: many ties
    raw = rng.integers(1, levels + 1, size=(n, n_classes)).astype(float)
    proba = raw / raw.sum(axis=1, keepdims=True)
    codes = rng.integers(0, n_classes, n)
    classes = np.array(["no", "yes", "maybe", "other"][:n_classes]) if labels else None
    y_true = classes[codes] if labels else codes
    return y_true, proba, classes


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 60),
    n_classes=st.integers(2, 4),
    levels=st.integers(1, 4),
    labels=st.booleans(),
)
def test_one_sort_equals_the_separate_functions(seed, n, n_classes, levels, labels):
    y_true, proba, classes = _fold(seed, n, n_classes, levels, labels)
    ref = ChowReference(y_true, proba, classes)
    for n_flagged in range(n + 1):
        for ties in ("row_order", "mean"):
            want = chow_decided_accuracy(y_true, proba, n_flagged, classes, ties=ties)
            got = ref.decided_accuracy(n_flagged, ties)
            assert got == want or (np.isnan(got) and np.isnan(want)), (n_flagged, ties)
    y_pred = (classes if labels else np.arange(n_classes))[np.argmax(proba, axis=1)]
    confidence = proba.max(axis=1)
    assert ref.aurc == aurc(y_true, y_pred, confidence)
    assert ref.e_aurc == e_aurc(y_true, y_pred, confidence)
    # what a combination's score forms from its one aurc: e_aurc's floats
    area = aurc(y_true, y_pred, confidence)
    assert area - optimal_aurc(float(np.mean(y_true != y_pred))) == ref.e_aurc
    assert ref.accuracy == float(np.mean(y_pred == y_true))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 80), st.integers(1, 6))
def test_the_ascending_order_is_the_stable_sort(seed, n, levels):
    rng = np.random.default_rng(seed)
    confidence = rng.integers(0, levels, n) / levels
    wrong = (rng.random(n) < 0.4).astype(float)
    errors, least_first = tie_averaged_ranking(wrong, confidence)
    np.testing.assert_array_equal(least_first, np.argsort(confidence, kind="stable"))
    np.testing.assert_array_equal(errors, tie_averaged_errors(wrong, confidence))


def test_bad_counts_ties_and_rows_are_refused_with_a_message():
    ref = ChowReference([0, 1], [[0.6, 0.4], [0.3, 0.7]])
    assert ref.decided_accuracy(2) != ref.decided_accuracy(2)  # all flagged: NaN
    with pytest.raises(ValueError, match="n_flagged must be between 0 and 2; got 3"):
        ref.decided_accuracy(3)
    with pytest.raises(ValueError, match="ties must be 'row_order' or 'mean'"):
        ref.decided_accuracy(1, "random")
    with pytest.raises(ValueError, match="at least one row"):
        ChowReference(np.zeros(0, dtype=int), np.zeros((0, 2)))
    with pytest.raises(ValueError, match="NaN"):
        tie_averaged_ranking(np.zeros(2), np.array([0.5, np.nan]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60), n_classes=st.integers(2, 4))
def test_another_ranking_of_the_same_predictions_is_sorted_by_its_own_scores(seed, n, n_classes):
    # the Laplace baseline's reference: CART's predictions, ranked by another score
    y_true, proba, _ = _fold(seed, n, n_classes, 3, labels=False)
    score = np.random.default_rng(seed + 1).random(n)
    ref = ChowReference(y_true, proba, confidence=score)
    y_pred = np.argmax(proba, axis=1)
    assert ref.aurc == aurc(y_true, y_pred, score)
    assert ref.e_aurc == e_aurc(y_true, y_pred, score)
    for n_flagged in range(n):
        kept = np.argsort(score, kind="stable")[n_flagged:]
        assert ref.decided_accuracy(n_flagged) == pytest.approx(
            np.mean(y_pred[kept] == y_true[kept])
        )


def test_a_ranking_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match=r"one score per row \(2\); got shape \(3,\)"):
        ChowReference([0, 1], [[0.6, 0.4], [0.3, 0.7]], confidence=[0.1, 0.2, 0.3])
