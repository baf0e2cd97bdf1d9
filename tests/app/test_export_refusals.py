"""What the tree page hands out stays safe (issue 27): the rebuild script keeps a hostile
upload name as text, and a model too large to export gets a message, not a traceback."""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

from appkit import export, rules
from appkit.model import FitSpec, model_params
from appkit.state import DEFAULTS
from ternary.data import load_file
from tests.app.helpers import GOOD_CSV

ROOT = Path(__file__).resolve().parents[2]


def test_a_hostile_upload_name_stays_text_in_the_rebuild_script(tmp_path):
    # the attacker's file name closed the script's docstring and ran __import__("os")
    path = tmp_path / "people.csv"
    path.write_bytes(GOOD_CSV)
    ds = load_file(path, target="label", missing="impute")
    name = 'x""" + str(__import__("pathlib").Path("PWNED").touch()) + """y\'\'\' \\'
    ds = dataclasses.replace(ds, name=name)
    spec = FitSpec(("k",), None, 0.3, 0, model_params(DEFAULTS))
    upload = {"file": f"{name}.csv", "target": "label", "missing": "impute"}
    script = export.rebuild_script(ds, spec, upload=upload)
    tree = ast.parse(script)
    assert ast.get_docstring(tree) == f"Rebuild the ternary tree the app showed for {name!r}."
    assert not any(isinstance(n, ast.Name) and n.id == "__import__" for n in ast.walk(tree))
    file = tmp_path / "rebuild.py"
    file.write_text(script)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(file)], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 1 and "No data file" in done.stderr  # the file is not there
    assert not (tmp_path / "PWNED").exists()


def _panel_of_a_large_forest():
    import pandas as pd
    from sklearn.datasets import make_classification

    from appkit import rules
    from ternary import TernaryForestClassifier

    X, y = make_classification(2_000, n_features=4, n_informative=3, n_redundant=0,
                               n_classes=3, flip_y=0.05, class_sep=0.8, random_state=0)  # fmt: skip
    X = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    forest = TernaryForestClassifier(n_estimators=40, max_depth=None, random_state=0).fit(X, y)
    member = forest.estimators_[0]
    rules.rules_panel(member, X, y, ("big",), list(X.columns), forest, "big")


def test_a_model_too_large_to_export_gets_the_message_on_the_page():
    at = AppTest.from_function(_panel_of_a_large_forest)
    at.run(timeout=300)
    assert not at.exception
    assert not at.error  # no "Something went wrong" from the page guard
    captions = [c.value for c in at.caption]
    assert any("export\\_sql writes at most 20,000" in c for c in captions), captions
    assert any("No Python function either" in c for c in captions)
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Rules (CSV)"]


def test_model_code_gives_none_for_the_code_it_cannot_export():
    from sklearn.datasets import make_classification

    from ternary import TernaryForestClassifier

    X, y = make_classification(2_000, n_features=4, n_informative=3, n_redundant=0,
                               n_classes=3, flip_y=0.05, class_sep=0.8, random_state=0)  # fmt: skip
    forest = TernaryForestClassifier(n_estimators=40, max_depth=None, random_state=0).fit(X, y)
    sql, python, why = rules.model_code.__wrapped__(forest, ("big",), ("a", "b", "c", "d"))
    assert sql is None and python is None
    assert "writes at most 20,000" in why and "skops" in why
