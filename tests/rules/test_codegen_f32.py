"""`ternary.codegen.f32_le` at and beyond the ends of float32's range."""

import warnings

import numpy as np
import pytest

from ternary.codegen import F32_OVERFLOW, f32_le

F32_MAX = float(np.finfo(np.float32).max)


def _rounds_at_most(xs, t):
    """float32(x) <= t for each double x, the float32 cast done without warnings."""
    with np.errstate(over="ignore"):
        return xs.astype(np.float32).astype(np.float64) <= t


@pytest.mark.parametrize(
    "t, expected",
    [
        # above every finite float32: F32_MAX (odd last bit) and 2**128 bound the half-line
        (1e39, (F32_OVERFLOW, False)),
        (F32_MAX, (F32_OVERFLOW, False)),
        (np.nextafter(F32_OVERFLOW, -np.inf), (F32_OVERFLOW, False)),
        (np.inf, (np.inf, True)),
        # below every finite float32: only the doubles that round to -inf qualify
        (-1e39, (-F32_OVERFLOW, True)),
        (np.nextafter(-F32_MAX, -np.inf), (-F32_OVERFLOW, True)),
        (-np.inf, (-F32_OVERFLOW, True)),
        # the lowest float32: the midpoint up to its neighbour, which rounds to the neighbour
        (-F32_MAX, ((-F32_MAX + float(np.nextafter(np.float32(-F32_MAX), 0))) / 2, False)),
    ],
)
def test_boundaries_beyond_float32_are_exact_and_silent(t, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning from numpy fails the test
        b, inclusive = f32_le(t)
    assert (b, inclusive) == expected
    # every double near the boundary, and the threshold itself, is split as float32 splits it
    xs = np.array([b, np.nextafter(b, -np.inf), np.nextafter(b, np.inf), t, F32_MAX, -F32_MAX])
    xs = xs[np.isfinite(xs)]
    got = xs <= b if inclusive else xs < b
    np.testing.assert_array_equal(got, _rounds_at_most(xs, t))
