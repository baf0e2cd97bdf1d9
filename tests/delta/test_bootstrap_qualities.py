"""split_qualities (node_bootstrap's check of all resamples at once) equals split_quality."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.tree import split_qualities, split_quality


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**31),
    st.integers(1, 12),
    st.integers(2, 12),
    st.sampled_from(["gini", "entropy"]),
    st.booleans(),
)
def test_rows_equal_split_quality_bit_for_bit(seed, b, k, criterion, weighted):
    rng = np.random.default_rng(seed)
    left = rng.integers(0, 20, size=(b, k)).astype(float)
    total = left + rng.integers(0, 20, size=(b, k))
    if weighted:
        scale = rng.uniform(0.1, 3.0, size=(b, k))
        left, total = left * scale, total * scale
    total[:, 0] += 1.0  # every resample holds rows
    got = split_qualities(left, total, criterion)
    expected = np.array([split_quality(left[i], total[i], criterion) for i in range(b)])
    assert np.array_equal(got, expected)
