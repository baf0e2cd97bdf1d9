"""out_of_fold_answers against labels a pandas user passes: gaps, mixed types, no rows."""

from __future__ import annotations

import numpy as np
import pytest

from ternary import TernaryTreeClassifier
from ternary.experiment import out_of_fold_answers

X = np.random.default_rng(0).normal(size=(40, 3))


@pytest.mark.parametrize(
    "y",
    [np.array([1.0, 2.0, np.nan, 1.0] * 10), np.array(["a", "b", None, "a"] * 10, dtype=object)],
    ids=["nan", "none"],
)
def test_a_missing_label_is_named_as_such(y):
    # was scikit-learn's "Input y contains NaN" or numpy's "'<' not supported between
    # instances of 'NoneType' and 'str'"
    with pytest.raises(ValueError, match="10 missing label"):
        out_of_fold_answers(X, y, TernaryTreeClassifier(max_depth=2))


def test_labels_of_mixed_types_say_so():
    with pytest.raises(ValueError, match="labels of one type"):
        out_of_fold_answers(X, np.array(["a", 1] * 20, dtype=object), TernaryTreeClassifier())


def test_no_rows_is_refused_in_words():
    # was numpy's "zero-size array to reduction operation minimum which has no identity"
    with pytest.raises(ValueError, match="hold no rows"):
        out_of_fold_answers(X[:0], np.array([], dtype=str), TernaryTreeClassifier())


def test_a_single_row_class_is_named_plainly():
    y = np.array(["a"] * 39 + ["b"])
    with pytest.raises(ValueError, match=r"^The class 'b' has a single row"):  # not np.str_('b')
        out_of_fold_answers(X, y, TernaryTreeClassifier())
