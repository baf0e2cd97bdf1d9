"""The accuracy–coverage page draws a 5,000-row upload on arrival (issue 23)."""

from appkit import coverage


def test_a_5000_row_upload_is_within_the_on_arrival_budget():
    # the page compares exactly this estimate with the budget before it runs unasked
    assert coverage.estimate_seconds(5_000, 10, 5) <= coverage.AUTO_RUN_SECONDS
    assert coverage.estimate_seconds(5_000, 20, 5) <= coverage.AUTO_RUN_SECONDS
    # wide or large tables still ask first
    assert coverage.estimate_seconds(5_000, 200, 5) > coverage.AUTO_RUN_SECONDS
    assert coverage.estimate_seconds(50_000, 10, 5) > coverage.AUTO_RUN_SECONDS
