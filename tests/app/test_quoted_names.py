"""Commands and code the Your data page shows are built from the upload's name: the name
stays one shell word and one Python string, whatever it holds (issue 27)."""

from __future__ import annotations

import ast
import shlex
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from appkit.guard import python_text
from appkit.yourdata_view import pipeline_snippet, predict_command
from tests.app.helpers import GOOD_CSV, PAGES, assert_clean, open_app

SHELL_NAME = "x;touch${IFS}PWNED;#"
NAMES = [
    f"ternary_{SHELL_NAME}.skops",
    "ternary_$(touch PWNED).skops",
    "ternary_`touch PWNED`'\".skops",
    'ternary_x".skops"+__import__("os").system("touch PWNED")+".skops',
    "ternary_a\nimport os; os.system('touch PWNED')\n.skops",
    'ternary_back\\slash\\".skops',
]


@pytest.mark.parametrize("name", NAMES)
def test_the_shell_command_passes_the_name_as_one_word(name, tmp_path):
    command = predict_command(name)
    assert shlex.split(command)[4] == name
    # the command as a shell runs it, with the program swapped for one that prints its words
    echo = command.replace("python -m ternary predict", "printf '%s\\0'", 1)
    out = subprocess.run(["sh", "-c", echo], cwd=tmp_path, capture_output=True, check=True)
    assert out.stdout.decode().split("\0")[:-1] == [name, "new_rows.csv", "--out", "scored.csv"]
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("name", NAMES)
def test_the_python_snippet_holds_the_name_as_a_string(name):
    tree = ast.parse(pipeline_snippet(name))
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert name in strings
    # no piece of the name outside that string: no other literal, no call it made
    assert all(s == name or ".skops" not in s for s in strings if isinstance(s, str))
    calls = [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert not [f for f in calls if isinstance(f, ast.Name) and f.id == "__import__"]


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_the_page_shows_the_command_for_a_hostile_upload_name_quoted():
    at = open_app("data")
    at.file_uploader(key="upload").set_value((f"{SHELL_NAME}.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    shell = [c.value for c in at.code if "ternary predict" in c.value]
    assert len(shell) == 1
    assert shlex.split(shell[0])[4] == f"ternary_{SHELL_NAME}.skops"
    assert f"'ternary_{SHELL_NAME}.skops'" in shell[0]


@given(st.text())
def test_python_text_is_the_inside_of_a_double_quoted_literal(text):
    assert ast.literal_eval('"' + python_text(text) + '"') == text


CODE_NAME = 'x"); __import__("os").system("touch PWNED"); ("'


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_the_loading_snippets_of_both_pages_keep_a_hostile_upload_name_a_string():
    at = open_app("data")
    at.file_uploader(key="upload").set_value((f"{CODE_NAME}.csv", GOOD_CSV, "text/csv")).run()
    assert_clean(at)
    shown = [c.value for c in at.code if "load_model(" in c.value]  # the Your data page
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    shown += [c.value for c in at.code if "load_model(" in c.value]
    assert len(shown) == 2, [c.value[:80] for c in at.code]
    for code in shown:
        tree = ast.parse(code)
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
        name = CODE_NAME.replace(" ", "_")  # the page writes spaces as _
        assert any(s.endswith(f"{name}.skops") for s in strings if isinstance(s, str)), code
        calls = [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)]
        assert not [f for f in calls if isinstance(f, ast.Name) and f.id == "__import__"]
