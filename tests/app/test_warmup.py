"""The server's start-up hook: `streamlit run app.py` finds an ``st.App`` whose lifespan
starts the warm-up once per process (the browser test checks it runs before any visitor).
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from pathlib import Path

from streamlit.web.server.app_discovery import discover_asgi_app

from appkit import warmup

ROOT = Path(__file__).resolve().parents[2]


def test_streamlit_run_serves_app_py_as_an_app_with_the_warm_up_as_its_start_up_hook(
    monkeypatch,
):
    import streamlit as st

    # what `streamlit run app.py` does first: look for an st.App in the file (AST only)
    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"
    # then import it as a module (not as the page script, which is "__main__"); st.App's
    # documented arguments are recorded instead of reading the App's private attributes
    made = []
    monkeypatch.setattr(st, "App", lambda script, **options: made.append((script, options)))
    spec = importlib.util.spec_from_file_location("app", ROOT / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    [(script, options)] = made
    assert options == {"lifespan": warmup.lifespan}
    assert Path(script).resolve() == ROOT / "app.py"
    assert module.PAGES == {}  # importing declared no page: that is the script's part


def test_the_lifespan_starts_the_warm_up_once_per_process(monkeypatch):
    calls = []
    ran = threading.Event()

    def fake():
        calls.append(threading.current_thread().name)
        ran.set()

    monkeypatch.setattr(warmup, "warm_up", fake)
    monkeypatch.setattr(warmup, "_thread", None)

    async def serve():
        async with warmup.lifespan(None):
            return warmup.start()  # a page run once the server is up: no second thread

    thread = asyncio.run(serve())
    assert ran.wait(10)
    thread.join(10)
    assert calls == ["ternary-warm-up"] and warmup.start() is thread and thread.daemon


def test_a_visitor_during_the_warm_up_is_told_what_it_waits_for_and_how_long(monkeypatch):
    import ternary.compiled

    compiling, finish = threading.Event(), threading.Event()

    def slow_kernels():
        compiling.set()
        finish.wait(30)
        return True

    monkeypatch.setattr(ternary.compiled, "warm_up", slow_kernels)
    monkeypatch.setattr(warmup, "_warm_other_pages", lambda *args: None)
    monkeypatch.setattr(warmup, "_began", None)
    monkeypatch.setattr(warmup.gc, "freeze", lambda: None)  # not this test process's objects
    assert warmup.status() is None  # no warm-up under way: nothing to say
    thread = threading.Thread(target=warmup._run)
    thread.start()
    try:
        assert compiling.wait(30)
        said = warmup.status()
        assert "compiling the tree kernels" in said
        assert "about 40 s on the first start after an install" in said
        assert "s since the server started" in said
        assert "python -m ternary warm-up" in said
    finally:
        finish.set()
        thread.join(60)
    assert warmup.status() is None  # done: the pages draw as usual


def test_the_app_draws_its_pages_while_the_warm_up_message_is_up(monkeypatch):
    from tests.app.helpers import assert_clean, open_app

    monkeypatch.setattr(warmup, "_stage", "figures")
    monkeypatch.setattr(warmup, "_began", 0.0)
    assert "computing the default figures" in warmup.status()
    at = open_app("regions")
    assert_clean(at)
    assert not at.info or all("The app is starting" not in i.value for i in at.info)  # cleared
