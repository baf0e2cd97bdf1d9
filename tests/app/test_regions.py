"""appkit.regions: the clicked point names its test row."""

from __future__ import annotations


def test_a_clicked_point_names_its_test_row():
    from appkit.regions import selected_row

    assert selected_row(None) is None
    assert selected_row({"selection": {"points": []}}) is None
    event = {"selection": {"points": [{"curve_number": 3, "customdata": 17}]}}
    assert selected_row(event) == 17
    assert selected_row({"selection": {"points": [{"customdata": [4]}]}}) == 4
