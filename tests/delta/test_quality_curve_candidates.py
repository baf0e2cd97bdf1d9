"""`quality_curve`'s candidates against scikit-learn's splitter, as ternary.delta documents.

The curve cuts between any two distinct values; scikit-learn's CART never cuts between
consecutive values at most 1e-7 apart (``FEATURE_THRESHOLD``), which float32 values
below 1 in magnitude can be. Everywhere else the candidates are CART's.
"""

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from ternary.delta import NodeRows, quality_curve

FEATURE_THRESHOLD = 1e-7


def _curve(x, y, threshold):
    rows = NodeRows.from_arrays(
        x.astype(np.float64), y, np.ones(x.size), threshold=threshold, n_classes=2
    )
    return quality_curve(rows)


def test_the_curve_cuts_between_values_cart_treats_as_one():
    # the classes change between 0.5 and the next float32 up, 6e-8 away: a perfect cut
    x = np.array([0.1, 0.2, 0.5, np.nextafter(np.float32(0.5), 1), 0.8, 0.9], dtype=np.float32)
    y = np.array([0, 0, 0, 1, 1, 1])
    cart = DecisionTreeClassifier(max_depth=1).fit(x[:, None], y).tree_
    thresholds, quality, _ = _curve(x, y, cart.threshold[0])
    assert thresholds.size == x.size - 1  # every gap between distinct values
    perfect = thresholds[np.argmax(quality)]
    assert quality.max() == 0.5 and 0.5 < perfect < 0.5 + FEATURE_THRESHOLD
    # CART, which cannot make that cut, settles for another candidate of the curve
    assert cart.threshold[0] in thresholds and cart.threshold[0] != perfect
    assert cart.impurity[1:].max() > 0


def test_away_from_close_values_the_candidates_are_carts():
    rng = np.random.RandomState(0)
    x = rng.choice(np.arange(40, dtype=np.float32) / 4, size=60)  # gaps of 0.25 at least
    y = (x + rng.normal(scale=2.0, size=x.size) > 5).astype(int)
    thresholds, quality, _ = _curve(x, y, 5.0)  # NodeRows sorts the rows
    values = np.unique(x).astype(np.float64)
    np.testing.assert_array_equal(thresholds, values[:-1] / 2 + values[1:] / 2)
    # CART's best cut is the curve's best candidate
    cart = DecisionTreeClassifier(max_depth=1).fit(x[:, None], y).tree_
    assert cart.threshold[0] == thresholds[np.argmax(quality)]
