"""`ternary run --data-dir DIR --out DIR/results.csv`: the results file is no dataset."""

from __future__ import annotations

from ternary.cli import main
from ternary.experiment import read_results


def _write(path, seed: int) -> None:
    rows = [f"{(i * 7 + seed) % 11},{(i * 3) % 5},{'ab'[(i + seed) % 11 > 5]}" for i in range(40)]
    path.write_text("x,z,label\n" + "\n".join(rows) + "\n")


def test_a_resumed_run_does_not_read_its_own_results_as_data(tmp_path, capsys):
    _write(tmp_path / "one.csv", 0)
    _write(tmp_path / "two.csv", 3)
    out = tmp_path / "results.csv"
    command = ["run", "--data-dir", str(tmp_path), "--out", str(out), "--cv", "2"]
    command += ["--combos", "probabilistic", "--no-progress"]
    assert main(command) == 0
    capsys.readouterr()
    assert main(command) == 0
    # was: "skipped results: Stratified 2-fold cross-validation needs ..." (the results
    # file loaded as a third dataset, its check column the label)
    assert "skipped" not in capsys.readouterr().err
    assert set(read_results(out)["dataset"]) == {"one", "two"}
