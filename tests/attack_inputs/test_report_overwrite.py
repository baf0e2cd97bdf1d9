"""`ternary report --output` naming the results file it reads: refused, the rows kept."""

from __future__ import annotations

import pytest

from ternary.data import make_moons_dataset
from ternary.experiment import report_main, run_suite

COMBOS = [{"delta_method": "margin"}, {"delta_method": "none"}]


@pytest.fixture(scope="module", params=["r.csv", "r.sqlite"])
def results(tmp_path_factory, request):
    path = tmp_path_factory.mktemp("results") / request.param
    run_suite([("moons", lambda: make_moons_dataset(n_samples=60))], path, combos=COMBOS, cv=2)
    return path


@pytest.mark.parametrize("option", ["--output", "--cd-diagram"])
def test_an_output_that_is_the_results_file_is_refused(results, option, capsys):
    before = results.read_bytes()
    # was: --output wrote the report over the run's rows
    assert report_main([str(results), option, str(results)]) == 2
    assert "would replace its rows" in capsys.readouterr().err
    assert results.read_bytes() == before


def test_another_output_file_gets_the_report(results, tmp_path):
    out = tmp_path / "report.md"
    assert report_main([str(results), "--output", str(out)]) == 0
    assert out.read_text().startswith("# Results: 1 dataset(s)")
