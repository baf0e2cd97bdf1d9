"""The app's parameter names and ranges come from `ternary.PARAMETERS` alone (issue 28).

The tables `appkit` builds (`specs.MODEL_PARAMS`, the defaults and slider ranges, the
link keys and their choices, the sweeps, each δ method's parameter) are read off the
library's knobs; no appkit module types a table of parameter names again. Links made
before the tables were derived decode to the same setting: every old key is still read,
and every setting travels through a link and back unchanged. No Streamlit app here but
the last test: `links.restore` and `links.sync` run on a stand-in for ``st``.
"""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from appkit import links, specs, state, vocabulary
from appkit.datasets import BUILTIN_NAMES
from ternary import DELTA_METHODS, FOREST_PARAMETERS, PARAMETERS
from tests.app.helpers import ROOT, assert_clean, open_link

#: every estimator parameter by name, in the tree's meaning where both estimators have it
LIBRARY = {**FOREST_PARAMETERS, **PARAMETERS}
#: the library's knobs: the tree's in signature order, then the forest's own
KNOBS = [n for n, p in PARAMETERS.items() if p.knob] + [
    n for n, p in FOREST_PARAMETERS.items() if p.knob and n not in PARAMETERS
]
SPANNED = [n for n in KNOBS if LIBRARY[n].span is not None]

#: the keys links carried before the app's tables were derived from the library (frozen:
#: a link someone saved must keep meaning what it meant)
OLD_URL_KEYS = (
    "dataset", "n_samples", "noise", "data_seed", "standardize", "delta_method", "routing",
    "epsilon", "alpha", "q", "n_bootstraps", "delta_scale", "max_depth", "graft",
    "graft_max_depth", "model", "n_estimators", "test_size", "seed", "feature_x",
    "feature_y", "coverage_view", "zone_edges",
)  # fmt: skip
#: a link naming every old key, and the setting the app decoded it to before (its
#: dump, /work/notes/params_dump/before.json, made on the old code)
OLD_LINK = {
    "dataset": "blobs", "n_samples": "800", "noise": "1.5", "data_seed": "7",
    "standardize": "1", "delta_method": "quality_plateau", "routing": "deferred",
    "epsilon": "0.2", "alpha": "0.3", "q": "0.25", "n_bootstraps": "50",
    "delta_scale": "1.5", "max_depth": "6", "graft": "one", "graft_max_depth": "5",
    "model": "forest", "n_estimators": "30", "test_size": "0.2", "seed": "9",
    "feature_x": "x1", "feature_y": "x2", "coverage_view": "paper", "zone_edges": "closed",
}  # fmt: skip
OLD_STATE = {
    "dataset": "blobs", "n_samples": 800, "noise": 1.5, "data_seed": 7,
    "standardize": True, "delta_method": "quality_plateau", "routing": "deferred",
    "epsilon": 0.2, "alpha": 0.3, "q": 0.25, "n_bootstraps": 50, "delta_scale": 1.5,
    "max_depth": 6, "graft": "one", "graft_max_depth": 5, "model": "forest",
    "n_estimators": 30, "test_size": 0.2, "seed": 9, "feature_x": "x1", "feature_y": "x2",
    "coverage_view": "paper", "zone_edges": "closed",
}  # fmt: skip
#: module-level tables of appkit that may name parameters: presentation keyed by a
#: library name (checked below), presets (link values) and column headings
NAMED_TABLES = {
    ("links.py", "PRESETS"),
    ("paper.py", "PAPER_CC18_MEANS"),
    ("paper.py", "OUR_CC18_MEANS"),
    ("present.py", "HEADERS"),
    ("specs.py", "APP_OVERRIDES"),
    ("vocabulary.py", "SWEEP_LABELS"),
}


# ----------------------------------------------------------------------------- the tables
def test_the_apps_parameters_are_the_librarys_knobs_and_no_other():
    assert specs.MODEL_PARAMS == tuple(KNOBS)
    assert set(state.DEFAULTS) & set(LIBRARY) == set(KNOBS)
    assert set(links.URL_KEYS) & set(LIBRARY) == set(KNOBS)
    assert set(state.BOUNDS) & set(LIBRARY) == set(SPANNED) == set(specs.MODEL_BOUNDS)
    assert set(specs.APP_OVERRIDES) <= set(KNOBS)
    sweepable = [n for n, p in PARAMETERS.items() if p.sweep is not None]
    assert list(vocabulary.SWEEP_PARAMS) == list(vocabulary.SWEEP_LABELS) == sweepable
    assert vocabulary.METHOD_PARAM == {
        p.method: n for n, p in PARAMETERS.items() if p.method is not None
    }
    assert set(vocabulary.METHOD_PARAM) <= set(DELTA_METHODS)
    for name, choices in links._CHOICES.items():
        if name in LIBRARY:
            assert choices == PARAMETERS[name].choices, name
    assert {n for n in links._CHOICES if n in LIBRARY} == {
        n for n in KNOBS if LIBRARY[n].kind == "choice"
    }


def test_the_apps_ranges_and_defaults_are_the_librarys():
    for name in SPANNED:
        p = LIBRARY[name]
        low, high = state.BOUNDS[name]
        assert (low, high) == p.span and specs.MODEL_BOUNDS[name] == (low, high), name
        assert type(low) is type(high) is (int if p.kind == "integer" else float), name
    assert state.BOUNDS["graft_max_depth"] == PARAMETERS["max_depth"].span
    for name, (label, bounds, start) in vocabulary.SWEEP_PARAMS.items():
        assert bounds == PARAMETERS[name].span and start == PARAMETERS[name].sweep, name
        assert label == vocabulary.SWEEP_LABELS[name]
    for name in KNOBS:
        expected = specs.APP_OVERRIDES.get(name, (LIBRARY[name].default,))[0]
        assert state.DEFAULTS[name] == expected, name
        LIBRARY[name].check(state.DEFAULTS[name])


def _named_parameters(node):
    """The parameter names a module-level value types (a subscript's key is a lookup)."""
    if isinstance(node, ast.Subscript):
        yield from _named_parameters(node.value)
        return
    if isinstance(node, ast.Constant) and node.value in LIBRARY:
        yield node.value
    for child in ast.iter_child_nodes(node):
        yield from _named_parameters(child)


def test_no_appkit_module_types_a_table_of_parameter_names():
    typed = {}
    for path in sorted((ROOT / "appkit").glob("*.py")):
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
                continue
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
            names = sorted(set(_named_parameters(stmt.value)))
            if names and (path.name, ast.unparse(target)) not in NAMED_TABLES:
                typed[f"{path.name}:{stmt.lineno} {ast.unparse(target)}"] = names
    # a table of parameters is read off ternary.PARAMETERS (knob, span, sweep, method);
    # only presentation keyed by a library name (tested above), presets and headings
    # may name them
    assert typed == {}


# ----------------------------------------------------------------------------- links
class _Query(dict):
    def from_dict(self, params):
        self.clear()
        self.update(params)


class _St:
    """What `links` asks of ``st``: the session state and the address."""

    def __init__(self, query=(), session=()):
        self.session_state = dict(session)
        self.query_params = _Query(query)


def _restore(monkeypatch, query, session=()):
    fake = _St(query, session)
    monkeypatch.setattr(links, "st", fake)
    ignored = links.restore()
    return fake.session_state, ignored


def _sync(monkeypatch, session):
    fake = _St((), session)
    monkeypatch.setattr(links, "st", fake)
    links.sync()
    return dict(fake.query_params)


def test_every_old_link_key_is_still_read():
    assert set(OLD_URL_KEYS) <= set(links.URL_KEYS)
    assert links.URL_KEYS[0] == "dataset"  # restore applies it (and its generator) first
    assert len(set(links.URL_KEYS)) == len(links.URL_KEYS)


def test_a_link_naming_every_old_key_decodes_to_the_setting_it_did(monkeypatch):
    s, ignored = _restore(monkeypatch, OLD_LINK)
    assert ignored == []
    got = {k: s[k] for k in OLD_STATE}
    assert got == OLD_STATE
    assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in OLD_STATE.items()}
    # and the setting writes the same link back
    back = _sync(monkeypatch, {**s, "_default_features": ()})
    assert {k: v for k, v in back.items() if k in OLD_URL_KEYS} == {
        **OLD_LINK,
        "standardize": "True",
    }


def test_an_old_link_leaves_the_knobs_it_does_not_name_at_their_defaults(monkeypatch):
    moved = {"graft_alpha": 0.01, "ccp_alpha": 0.02, "epsilon": 0.4}
    s, _ = _restore(monkeypatch, {"dataset": "circles"}, {**state.DEFAULTS, **moved})
    assert {k: s[k] for k in moved} == {k: state.DEFAULTS[k] for k in moved}


def _steps(low, high, step):
    n = round((high - low) / step)
    return st_.integers(0, n).map(lambda i: round(low + i * step, 3))


def _value(key, dataset):
    """Values of ``key`` a widget can hold, on the widget's grid."""
    if key in links._CHOICES:
        return st_.sampled_from(links._CHOICES[key])
    if key in ("feature_x", "feature_y"):
        return st_.sampled_from(["x1", "x2", "petal length (cm)"])
    default = state.DEFAULTS[key]
    if isinstance(default, bool):
        return st_.booleans()
    low, high = state.BOUNDS[key]
    if key == "noise" and dataset != "blobs":
        high = 1.0
    if isinstance(low, int):
        numbers = st_.integers(low, high)
        return st_.one_of(st_.just(default), numbers) if isinstance(default, str) else numbers
    return _steps(low, high, 0.001 if high <= 0.2 else 0.01)


@st_.composite
def _settings(draw):
    dataset = draw(st_.sampled_from(BUILTIN_NAMES))
    setting = {"dataset": dataset}
    for key in links.URL_KEYS[1:]:
        setting[key] = draw(_value(key, dataset))
    return setting


@settings(max_examples=150, deadline=None)
@given(_settings())
def test_every_setting_travels_through_a_link_and_back(setting):
    with pytest.MonkeyPatch.context() as monkeypatch:
        written = _sync(monkeypatch, {**state.DEFAULTS, **setting, "_default_features": ()})
        s, ignored = _restore(monkeypatch, written)
    assert ignored == []
    expected = dict(setting)
    if setting["model"] != "forest":  # a tree's link leaves the forest's size out
        expected["n_estimators"] = state.DEFAULTS["n_estimators"]
    assert {k: s[k] for k in links.URL_KEYS} == expected
    for key in OLD_URL_KEYS:  # the old keys travel under their old names
        value = setting[key]
        if key in written:
            assert written[key] == (f"{value:g}" if isinstance(value, float) else str(value))


def test_grafting_links_carry_alpha_and_pruning_clipped_to_the_pages_sliders():
    at = open_link({"dataset": "webb example", "graft_alpha": "0.5", "ccp_alpha": "0.01"})
    at.switch_page("app_pages/4_grafting.py").run()
    assert_clean(at)
    for key in ("graft_alpha", "ccp_alpha"):
        slider = at.slider(key=key)
        assert (slider.min, slider.max) == state.BOUNDS[key] == PARAMETERS[key].span
    assert at.slider(key="graft_alpha").value == 0.2  # the span's top, not the link's 0.5
    assert at.slider(key="ccp_alpha").value == 0.01
