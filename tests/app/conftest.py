"""The Streamlit server the browser tests share: ``streamlit run app.py`` on a free port.

One server for the whole run (its start and warm-up are paid once). Skips when Debian's
Chromium is not installed, fails in CI, where a skip would pass silently. Also the
``downloads`` fixture the AppTest pages use to read what each download would give.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer on {url} within {timeout:.0f} s")


def _warm_up_line(log: Path, proc: subprocess.Popen, timeout: float = 240.0) -> str:
    """The line the server prints when its start-up warm-up is done (`appkit.warmup.DONE`)."""
    from appkit.warmup import DONE

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = next((x for x in log.read_text().splitlines() if x.startswith(DONE)), None)
        if line is not None:
            return line
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with code {proc.returncode}")
        time.sleep(0.2)
    raise RuntimeError(f"no warm-up line from the server within {timeout:.0f} s")


@pytest.fixture(scope="session", autouse=True)
def upload_store(tmp_path_factory) -> Path:
    """The folder of kept uploads (`appkit.uploads`) for this run, never the user's cache:
    the AppTest pages and the browser tests' server (it inherits the environment) share it."""
    folder = tmp_path_factory.mktemp("uploads")
    before = os.environ.get("TERNARY_UPLOAD_DIR")
    os.environ["TERNARY_UPLOAD_DIR"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("TERNARY_UPLOAD_DIR", None)
    else:
        os.environ["TERNARY_UPLOAD_DIR"] = before


@pytest.fixture(scope="session")
def app_url(app_server):
    return app_server[0]


@pytest.fixture(scope="session")
def app_server(tmp_path_factory):
    """``(url, warm_up_line)`` of one ``streamlit run app.py`` for every browser test.

    Started on first use and always stopped. No test gets the address before the
    server says its warm-up is done: ``warm_up_line`` is that line, printed before
    any browser had connected, and every test then meets a warm server.
    """
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} not found (apt-get install chromium)"
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(f"{message}; in CI the browser test must run.", pytrace=False)
        pytest.skip(message)
    port = _free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "app.py",
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, proc)
            line = _warm_up_line(log, proc)
        except RuntimeError as exc:
            pytest.fail(f"{exc}\n{log.read_text()[-3000:]}")
        yield url, line
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes]:
    """What each ``download_button`` of an AppTest run would give, by file name."""
    import streamlit as st
    from streamlit.delta_generator import DeltaGenerator

    got: dict[str, bytes] = {}
    original = DeltaGenerator.download_button
    # st.download_button is bound to the page's root container when streamlit is imported;
    # it is wrapped as it is, not rebuilt from Streamlit's private root (st._main)
    root = st.download_button

    def record(self, label, data, file_name=None, *args, **kwargs):
        got[str(file_name)] = data
        return original(self, label, data, file_name, *args, **kwargs)

    def record_root(label, data, file_name=None, *args, **kwargs):
        got[str(file_name)] = data
        return root(label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", record)
    monkeypatch.setattr(st, "download_button", record_root)
    return got
