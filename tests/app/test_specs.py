"""appkit.model: `FitSpec`, the one cache identity of a fit."""

from __future__ import annotations

import pytest

from appkit.model import FitSpec


def test_fit_spec_key_ignores_other_methods_parameters():
    base = {"delta_method": "quality_plateau", "routing": "probabilistic", "epsilon": 0.1}
    a = FitSpec(("d",), ["x", "y"], 0.3, 0, {**base, "alpha": 0.1, "q": 0.2})
    b = FitSpec(("d",), ("x", "y"), 0.3, 0, {**base, "alpha": 0.9})
    assert a.key == b.key and hash(a) == hash(b)
    assert a.with_params({**base, "epsilon": 0.2}).key != a.key
    assert "alpha" not in a.params and a.params["epsilon"] == 0.1
    with pytest.raises(TypeError):
        a.params["epsilon"] = 1.0  # read-only: a cached fit cannot drift from its key
    cart = a.cart()
    assert cart.params["delta_method"] == "none" and cart.features == a.features
