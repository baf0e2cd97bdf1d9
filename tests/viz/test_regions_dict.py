"""The decision-regions figure built as one plain dict (issue 32) is the figure plotly's
objects built before, exactly: `fig.to_dict()` equal on every setting the app draws.

The reference is the old builder, kept in `regions_reference.py`. The new builder skips
plotly's validation, so these tests also check the result survives it unchanged, that
figures do not share state through the cached skeleton, and that the subplot grid
(``add_trace(row=1, col=2)``, as appkit's ringed points use) still works.
"""

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.viz.regions_reference import reference_figure
from viz import presentation_figure
from viz.regions import RegionGrid, decision_regions_figure

HOSTILE = ['<b>bold</b> & "quoted"', "<a href='x'>link</a>"]


def _setting(n_points=120, resolution=24, classes=("a", "b"), seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_points, 2))
    y = np.asarray(classes, dtype=object)[rng.integers(0, len(classes), n_points)]
    grid = RegionGrid.around(X, resolution)
    n = resolution * resolution
    proba = rng.dirichlet(np.ones(len(classes)), size=n)
    verdict = (proba.max(axis=1) > 0.75).astype(int)
    return (
        X,
        y,
        grid,
        dict(
            classes=np.asarray(sorted(classes), dtype=object),
            proba=proba,
            verdict=verdict,
            scores=(0.91, 0.23),
            cart_scores=(0.84, 0.0),
        ),
    )


SETTINGS = {
    "one panel": {},
    "one panel, no verdicts": dict(verdict=None),
    "one panel, own title": dict(title="Fig. 1"),
    "two panels": dict(cart=True),
    "two panels, grafted outline": dict(cart=True, reference=True),
    "one panel, grafted outline": dict(reference=True),
    "forest names": dict(cart=True, panel_names=("Forest without zones", "Ternary forest")),
    "hostile names": dict(cart=True, feature_names=tuple(HOSTILE), class_names=HOSTILE),
    "three classes": dict(cart=True, classes=("x", "y", "z")),
    "all hatched": dict(cart=True, verdict="zeros"),
}


def _both(name, **over):
    opts = dict(SETTINGS[name], **over)
    X, y, grid, kw = _setting(
        n_points=opts.pop("n_points", 120), classes=opts.pop("classes", ("a", "b"))
    )
    if opts.pop("cart", False):
        kw["cart_proba"] = kw["proba"][:, ::-1]
    if opts.pop("reference", False):
        kw["reference_proba"] = np.roll(kw["proba"], 37, axis=0)
    if opts.get("verdict") == "zeros":
        opts["verdict"] = np.zeros(len(kw["proba"]), dtype=int)
    kw.update(opts)
    return reference_figure(X, y, grid, **kw), decision_regions_figure(X, y, grid, **kw)


@pytest.mark.parametrize("name", SETTINGS)
def test_figure_equals_the_plotly_object_build(name):
    old, new = _both(name)
    assert new.to_dict() == old.to_dict()
    # the background PNGs (layout images) are part of it: one per panel
    assert len(new.layout.images) == (2 if SETTINGS[name].get("cart") else 1)


@pytest.mark.parametrize("name", ["two panels", "hostile names", "one panel"])
def test_presentation_mode_equal(name):
    old, new = _both(name)
    assert presentation_figure(new, 1.5).to_dict() == presentation_figure(old, 1.5).to_dict()


def test_webgl_points_equal():
    old, new = _both("two panels", n_points=6_000)
    assert {t.type for t in new.data} >= {"scattergl"}
    assert new.to_dict() == old.to_dict()


def test_hostile_names_escaped():
    _, new = _both("hostile names")
    names = [t.name for t in new.data if t.name.startswith("class")]
    assert names[0] == 'class &lt;b&gt;bold&lt;/b&gt; &amp; "quoted"', names
    assert new.layout.xaxis.title.text == '&lt;b&gt;bold&lt;/b&gt; &amp; "quoted"'
    assert new.layout.yaxis.title.text == "&lt;a href='x'&gt;link&lt;/a&gt;"


@pytest.mark.parametrize("name", ["two panels, grafted outline", "one panel"])
def test_survives_plotly_validation_unchanged(name):
    _, new = _both(name)
    assert go.Figure(new.to_dict()).to_dict() == new.to_dict()


def test_figures_share_no_state():
    """Editing one figure (as presentation and capping do on copies, or a caller in place)
    leaves the next figure as plotly builds it: nothing leaks into the cached skeleton."""
    _, first = _both("two panels")
    first.update_layout(template_layout_font_size=31, legend_x=0.5, margin_l=3, height=99)
    first.layout.xaxis.title.text = "edited"
    first.layout.annotations[0].font.size = 40
    first.layout.template.layout.xaxis.gridcolor = "red"
    old, new = _both("two panels")
    assert new.to_dict() == old.to_dict()


def test_subplot_grid_kept():
    _, new = _both("two panels")
    for fig in (new, go.Figure(new)):
        fig.add_trace(go.Scatter(x=[0.0], y=[0.0], name="ring"), row=1, col=2)
        assert (fig.data[-1].xaxis, fig.data[-1].yaxis) == ("x2", "y2")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), two=st.booleans(), resolution=st.integers(2, 12))
def test_random_settings_equal(seed, two, resolution):
    X, y, grid, kw = _setting(n_points=30, resolution=resolution, seed=seed)
    if two:
        kw["cart_proba"] = kw["proba"][:, ::-1]
    old = reference_figure(X, y, grid, **kw)
    assert decision_regions_figure(X, y, grid, **kw).to_dict() == old.to_dict()


def test_cached_background_is_the_image_drawn_afresh(monkeypatch):
    """A slider move redraws the baseline's panel from the image cache: the same PNG as
    drawn afresh, and no PNG encoded for it; a changed grid gets its own image."""
    import viz.regions as R

    X, y, grid, kw = _setting(resolution=30, seed=3)
    kw["cart_proba"] = kw["proba"][:, ::-1]
    first = decision_regions_figure(X, y, grid, **kw).to_dict()
    encoded = []
    monkeypatch.setattr(R, "png_bytes", lambda rgb: encoded.append(rgb) or b"")
    again = decision_regions_figure(X, y, grid, **kw).to_dict()
    assert encoded == [] and again == first
    monkeypatch.undo()
    R._IMAGES.clear()
    assert decision_regions_figure(X, y, grid, **kw).to_dict() == first
    moved = dict(kw, proba=np.roll(kw["proba"], 1, axis=0))
    sources = [im["source"] for im in decision_regions_figure(X, y, grid, **moved).layout.images]
    assert sources[0] == first["layout"]["images"][0]["source"]  # the baseline: a hit
    assert sources[1] != first["layout"]["images"][1]["source"]  # the model's: redrawn
