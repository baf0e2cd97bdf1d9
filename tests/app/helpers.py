"""Shared helpers of the app tests: the app driven headlessly with streamlit.testing's
AppTest (opened plainly or from a shared address), a run checked clean, the page's
metrics and sliders read back, and two small uploads.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from appkit import datasets
from appkit.model import FitSpec

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGES = {
    "regions": "app_pages/1_decision_regions.py",
    "tree": "app_pages/2_tree_diagram.py",
    "coverage": "app_pages/3_accuracy_coverage.py",
    "grafting": "app_pages/4_grafting.py",
    "data": "app_pages/5_your_data.py",
}


def open_app(page: str | None = None) -> AppTest:
    """The app run once from its entry point (then switched to ``page``), checked clean."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert_clean(at)
    if page is not None:
        at.switch_page(PAGES[page]).run()
        assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No uncaught exception, no error box (page_guard turns exceptions into those), and
    no warning (Streamlit warns there when a widget's state is set twice)."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert not at.warning, [w.value for w in at.warning]


def shown(element) -> str:
    """An element's markdown as a reader sees it: backslash escapes resolved."""
    return re.sub(r"\\(.)", r"\1", element.value)


def metrics(at: AppTest) -> dict[str, str]:
    """The page's metric cards, label to shown value."""
    return {m.label: m.value for m in at.metric}


def slider_keys(at: AppTest) -> set[str]:
    """The keys of the sliders drawn on this run."""
    return {s.key for s in at.slider}


def pct(text: str) -> float:
    """A shown percentage ("12.5%") as a fraction."""
    return float(text.rstrip("%")) / 100


def open_link(params: dict, page: str | None = None) -> AppTest:
    """The app opened from a shared address holding ``params``."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page is not None:
        at.switch_page(PAGES[page]).run()
    return at


GOOD_CSV = (
    "height,weight,colour,label\n"
    + "".join(
        f"{150 + i % 40},{50 + (i * 7) % 30},{'red' if i % 3 else 'blue'},"
        f"{'tall' if i % 40 > 18 else 'short'}\n"
        for i in range(80)
    )
).encode()


SEMICOLON_CSV = (
    '"height, cm";"weight, kg";"shoe size, EU";label\n'
    + "".join(
        f"{160 + i % 35}.{i % 10};{55 + (i * 7) % 40}.3;{38 + i % 9}.1;"
        f"{'tall' if i % 35 > 17 else 'short'}\n"
        for i in range(60)
    )
).encode()


def two_moons_split(params):
    """The default two-moons `FitSpec` with ``params``, and its split as the pages make it."""
    from appkit import model

    ds, key = datasets.load_builtin("two moons", n_samples=500, noise=0.3, random_state=0)
    spec = FitSpec(key, ("x1", "x2"), 0.3, 0, params)
    return spec, model.split_data(ds, spec)
