"""Names shown in Markdown never become links: not by markup (escaped) and not by GFM's
autolink literals, which turn URLs, www. names and e-mail addresses into links after the
backslash escapes are resolved (issue 27: the rules list linked a URL in a feature name;
in Chromium, `plain` before this change left all three live)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from appkit.guard import plain
from tests.app.helpers import PAGES, assert_clean, open_app, shown

# what remark-gfm links in text (its URL, www. and e-mail patterns, their first marks)
AUTOLINK = re.compile(r"(?i)(?:https?://|mailto:|xmpp:)[-.\w]|(?<![\w])www\.|[-.+\w]@[-\w]")
WORD_JOINER = "\u2060"
NAMES = [
    "https://evil.example/x",
    "see HTTP://EVIL.EXAMPLE now",
    "www.evil.example",
    "a@evil.example",
    "mailto:a@evil.example",
    "xmpp:a@evil.example",
]


@pytest.mark.parametrize("name", NAMES)
def test_plain_breaks_every_autolink_and_shows_the_name(name):
    text = shown_markdown(plain(name))
    assert AUTOLINK.search(name) and not AUTOLINK.search(text)
    assert text.replace(WORD_JOINER, "") == name


@given(st.text(alphabet=st.sampled_from("htpsw:/.@amiloxv -_"), max_size=30))
def test_plain_never_leaves_an_autolink_and_only_adds_joiners(name):
    text = shown_markdown(plain(name))
    assert not AUTOLINK.search(text)
    assert text.replace(WORD_JOINER, "") == name


def shown_markdown(source: str) -> str:
    """Markdown source as its text: backslash escapes resolved, as GFM's autolinks see it."""
    return re.sub(r"\\(.)", r"\1", source)


@pytest.mark.skipif(not hasattr(AppTest, "file_uploader"), reason="AppTest cannot upload files")
def test_the_rules_list_shows_url_names_without_links():
    rows = "".join(
        f"{i % 40},{(i * 7) % 13},{'a@evil.example' if i % 40 > 18 else 'short'}\n"
        for i in range(80)
    )
    data = f"https://evil.example/x,www.evil.example,label\n{rows}".encode()
    at = open_app("data")
    at.file_uploader(key="upload").set_value(("links.csv", data, "text/csv")).run()
    assert_clean(at)
    at.switch_page(PAGES["tree"]).run()
    assert_clean(at)
    texts = [shown(m) for m in at.markdown if "evil" in m.value]
    assert any(" IF " in t and "evil" in t for t in texts), texts  # the rules list
    for text in texts:
        assert not AUTOLINK.search(text), text
