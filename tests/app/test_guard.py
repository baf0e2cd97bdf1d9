"""appkit.guard: problems shown as messages, never a traceback."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import shown


def test_page_guard_shows_a_message_and_details_instead_of_a_traceback():
    script = """
from appkit.guard import page_guard
from ternary.data import DataError
with page_guard("testing"):
    raise DataError("Your file has no label column.")
with page_guard("testing"):
    raise RuntimeError("boom")
"""
    at = AppTest.from_string(script).run()
    assert not at.exception
    assert shown(at.error[0]) == "Your file has no label column."
    assert "boom" in shown(at.error[1]) and "testing" in shown(at.error[1])
    assert len(at.expander) == 1  # the details, folded away


def test_inert_table_escapes_names_in_cells_headers_and_index_but_keeps_numbers():
    import pandas as pd

    from appkit.guard import inert_table, plain

    link, image = "[click](https://evil.example/md)", '<img src="pwn.png">'
    table = pd.DataFrame(
        {link: ["0.833", "-1.5e-05", "12.5 %", image, 3.25]},
        index=pd.Index(["a", "b", "c", "www.evil.example", "e"], name=image),
    )
    out = inert_table(table)
    assert list(out.columns) == [plain(link)] and out.index.name == plain(image)
    assert out.iloc[:3, 0].tolist() == ["0.833", "-1.5e-05", "12.5 %"]  # numbers as written
    assert out.iloc[3, 0] == plain(image) and "<" not in out.iloc[3, 0].replace("\\<", "")
    assert out.iloc[4, 0] == 3.25 and out.index[3] == plain("www.evil.example")
    assert "www\u2060\\." in out.index[3]  # no autolink: a word joiner, then the escape
    assert table.columns[0] == link  # the caller's table is not changed
