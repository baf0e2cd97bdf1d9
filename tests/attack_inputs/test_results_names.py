"""The CSV results file against dataset names from hostile file names (`ternary run
--data-dir` names each dataset by its file's stem)."""

from __future__ import annotations

import warnings

import pytest

from ternary.data import make_moons_dataset
from ternary.experiment import ResultsFileError, ResultsFileWarning, read_results, run_suite

COMBOS = [{"delta_method": "margin"}, {"delta_method": "none"}]


# a Unicode line or paragraph separator, a form feed, NEL, a file separator: legal in a
# file name, and str.splitlines() breaks a line at each of them
@pytest.mark.parametrize(
    "name", ["x\u2028y", "p\x0cq", "a\x85b", "f\x1cs", "v\x0bt", "c\rr", "r\r"]
)
def test_a_name_holding_a_unicode_line_break_is_resumed_not_recomputed(tmp_path, name):
    path = tmp_path / "r.csv"

    def load():
        return make_moons_dataset(n_samples=60, random_state=2)

    run_suite([(name, load)], path, combos=COMBOS, cv=2)
    with warnings.catch_warnings():
        # was: "dropped 4 damaged row(s), which will be computed again", on every resume
        warnings.simplefilter("error", ResultsFileWarning)
        again = run_suite([(name, load)], path, combos=COMBOS, cv=2)
        stored = read_results(path)
    assert len(again) == len(stored) == 4
    assert set(stored["dataset"]) == {name}


@pytest.mark.parametrize("other", [{"zone_edges": "closed"}, {"max_depth": 2}, {"scale": False}])
def test_a_csv_file_refuses_to_resume_under_another_protocol(tmp_path, other):
    # was: the open zone's rows resumed as the closed zone's (or depth 4's as depth 2's)
    # and the sidecar rewritten to the new protocol; the database refused already
    path = tmp_path / "r.csv"

    def load():
        return make_moons_dataset(n_samples=60, random_state=2)

    run_suite([("moons", load)], path, combos=COMBOS, cv=2)
    before = path.read_bytes()
    with pytest.raises(ResultsFileError, match="another protocol"):
        run_suite([("moons", load)], path, combos=COMBOS, cv=2, **other)
    assert path.read_bytes() == before
    assert len(run_suite([("moons", load)], path, combos=COMBOS, cv=2)) == 4  # same: resumed


def test_a_name_with_a_line_break_is_refused_before_a_damaged_row_is_written(tmp_path):
    # was: written quoted over two lines, both dropped as damaged on every resume
    path = tmp_path / "r.csv"
    with pytest.raises(ResultsFileError, match="holds a line break"):
        run_suite([("a\nb", lambda: make_moons_dataset(n_samples=60))], path, combos=COMBOS, cv=2)
    assert not path.exists() or "a\nb" not in path.read_text()
