"""appkit.vocabulary: the pickers offer exactly the library's methods and routings."""

from __future__ import annotations

import ternary
from appkit import vocabulary
from tests.app.helpers import open_app


def test_pickers_offer_the_librarys_methods_and_routings():
    assert vocabulary.DELTA_METHODS is ternary.DELTA_METHODS
    assert vocabulary.ROUTINGS is ternary.ROUTINGS
    assert set(vocabulary.METHOD_LABELS) == set(ternary.DELTA_METHODS)
    assert set(vocabulary.ROUTING_LABELS) == set(ternary.ROUTINGS)
    assert "none" not in vocabulary.ZONE_METHODS
    assert len(vocabulary.ZONE_METHODS) == len(ternary.DELTA_METHODS) - 1
    at = open_app("regions")
    assert tuple(at.selectbox(key="delta_method").options) == tuple(
        vocabulary.METHOD_LABELS[m] for m in ternary.DELTA_METHODS
    )
