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


def test_streamlit_run_serves_app_py_as_an_app_with_the_warm_up_as_its_start_up_hook():
    # what `streamlit run app.py` does first: look for an st.App in the file (AST only)
    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"
    # then import it as a module (not as the page script, which is "__main__")
    spec = importlib.util.spec_from_file_location("app", ROOT / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.app._user_lifespan is warmup.lifespan
    assert Path(module.app.script_path).resolve() == ROOT / "app.py"
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
