"""A class on one server: N students open the Fig. 1 link at once, then move a slider.

Usage: python benchmarks/bench_class.py --class 60 [--settings before|after] [--root DIR]
       python benchmarks/bench_app.py --class 60   (the same, from the app benchmark)

A protocol-level load generator: each simulated student does what a Chromium tab whose
JavaScript is already cached does, over loopback only. It asks for the page's HTML, the
health and host-config endpoints, then opens Streamlit's ``/_stcore/stream`` websocket and
sends the browser's first message, a ``BackMsg.rerun_script`` whose ``ClientState`` carries
the link's query string and the page's name; the run has ended when a ``ForwardMsg`` with
``script_finished`` arrives. A slider move is what the browser sends when a slider is let
go: a ``rerun_script`` with the slider's id (read from the page's own ``slider`` element)
and its new value in the widget states, and the address the app wrote last (so the app
does not take the move for a pasted link). Every student moves to a value of their own
(even students ε, odd ones the δ scale), so every move is a fresh fit.

Phases, after the server's warm-up and one student alone per phase (the "alone" column):
students arrive uniformly within 5 s and open Decision regions by the Fig. 1 link; once all
have, each moves their slider within 5 s; then they open Accuracy vs. coverage by the same
link. A phase that has not ended after ``--phase-timeout`` seconds counts its missing
students as errors; the server is stopped at the end whatever happened.

``--settings before`` starts the server as before issue 32 (``--runner.postScriptGC true
--server.fileWatcherType auto``); ``--root`` serves another checkout of the app (e.g. an
older commit unpacked with ``git archive``), to measure code changes too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: the Fig. 1 preset's link (appkit.links.PRESETS[0]), copied so the generator needs no appkit
FIG1 = {
    "dataset": "two moons",
    "n_samples": "250",
    "noise": "0.28",
    "data_seed": "42",
    "standardize": "True",
    "delta_method": "quality_plateau",
    "epsilon": "0.15",
    "max_depth": "3",
    "test_size": "0.0",
    "seed": "42",
}
#: the pages' names in the address (st.navigation's url paths)
REGIONS, COVERAGE = "decision_regions", "accuracy_coverage"
#: the label the server prints when its warm-up is done (appkit.warmup.DONE)
WARM_DONE = "ternary app: warm-up done"
BEFORE_FLAGS = ["--runner.postScriptGC", "true", "--server.fileWatcherType", "auto"]
AFTER_FLAGS = ["--server.fileWatcherType", "none"]  # the config file's own settings


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ----------------------------------------------------------------------------- one student
class Student:
    """One simulated tab: its websocket, the address the app wrote, its slider's id."""

    def __init__(self, base: str, number: int):
        self.base, self.number = base, number
        self.ws = None
        self.query = urlencode(FIG1)
        self.sliders: dict[str, str] = {}
        self.errors: list[str] = []
        self.texts: list[str] = []

    async def _get(self, path: str) -> None:
        """An HTTP GET over a fresh connection (the browser's page and endpoint requests)."""
        host, port = self.base.split("//")[1].split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
        )
        await writer.drain()
        status = (await reader.readline()).decode(errors="replace")
        await reader.read()  # the body, to the end
        writer.close()
        if " 200 " not in status:
            self.errors.append(f"GET {path}: {status.strip()}")

    async def open(self, page: str) -> float:
        """Seconds from the page request to the end of its first script run."""
        began = time.perf_counter()
        await self._get(f"/{page}?{self.query}")
        await self._get("/_stcore/health")
        await self._get("/_stcore/host-config")
        if self.ws is None:
            ws_url = self.base.replace("http", "ws") + "/_stcore/stream"
            self.ws = await websockets.connect(
                # no websocket-level pings: a browser sends none, and a busy server that
                # answers one late would end the connection as no browser's would be ended
                ws_url,
                subprotocols=["streamlit"],
                max_size=None,
                open_timeout=120,
                ping_interval=None,
            )
        await self._run(page, [])
        return time.perf_counter() - began

    async def move(self, page: str, label: str, value: float) -> float:
        """Seconds from letting go of the slider ``label`` at ``value`` to the run's end."""
        state = WidgetState(id=self.sliders[label])
        state.double_array_value.data.append(value)
        began = time.perf_counter()
        await self._run(page, [state])
        return time.perf_counter() - began

    async def _run(self, page: str, widgets: list) -> None:
        msg = BackMsg()
        client = msg.rerun_script
        client.query_string = self.query
        client.page_name = page
        client.context_info.timezone = "UTC"
        client.context_info.url = f"{self.base}/{page}?{self.query}"
        client.widget_states.widgets.extend(widgets)
        self.texts.clear()
        await self.ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "delta":
                self._read_delta(fwd.delta)
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "session_event" and fwd.session_event.WhichOneof("type"):
                self.errors.append(f"session event {fwd.session_event.WhichOneof('type')}")
            elif kind == "script_finished":
                if fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    return
                if fwd.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    self.errors.append("compile error")
                    return

    def _read_delta(self, delta) -> None:
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.errors.append(f"exception: {element.exception.message[:120]}")
        elif kind == "alert" and element.alert.format == element.alert.ERROR:
            self.errors.append(f"error box: {element.alert.body[:120]}")
        elif kind == "slider":
            self.sliders[element.slider.label] = element.slider.id
        elif kind == "code":
            self.texts.append(element.code.code_text)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


# ----------------------------------------------------------------------------- a real tab
CHROMIUM = "/usr/bin/chromium"
#: the regions figure drawn (plotly's SVG with its traces, the five metric cards) and the
#: script run over (no "running" status widget)
_DRAWN = (
    "() => { const p = document.querySelector('.js-plotly-plot');"
    " return !!(p && p.querySelector('.main-svg') && p._fullLayout"
    " && p.querySelectorAll('.scatterlayer .trace').length > 0)"
    " && document.querySelectorAll('[data-testid=\"stMetricValue\"]').length == 5"
    " && !document.querySelector('[data-testid=\"stStatusWidget\"]'); }"
)


class Tab:
    """One headless Chromium tab whose JavaScript is cached (it opened the app before)."""

    def __init__(self, base: str):
        self.base = base
        self.url = f"{base}/{REGIONS}?{urlencode(FIG1)}"

    async def start(self) -> float:
        """Launch the browser and open the link once (a cold tab): its seconds."""
        from playwright.async_api import async_playwright

        self._pw = await async_playwright().start()
        self._browser = await self._pw.chromium.launch(executable_path=CHROMIUM)
        self._context = await self._browser.new_context(viewport={"width": 1400, "height": 900})
        return await self.open()

    async def open(self) -> float:
        """Seconds from asking for the link to the figure drawn and the run over.

        Also keeps, in `finished`, the seconds until the tab's websocket received the
        run's ``script_finished``: the server's part, which is what the protocol client
        measures, without the tab's own drawing.
        """
        page = await self._context.new_page()
        began = time.perf_counter()
        self.finished = None

        def frame(payload) -> None:
            if self.finished is not None or isinstance(payload, str):
                return
            msg = ForwardMsg()
            try:
                msg.ParseFromString(payload)
            except Exception:  # noqa: BLE001 - not a ForwardMsg: not the one awaited
                return
            if msg.WhichOneof("type") == "script_finished" and msg.script_finished == 0:
                self.finished = time.perf_counter() - began

        page.on("websocket", lambda ws: ws.on("framereceived", frame))
        await page.goto(self.url)
        await page.wait_for_function(_DRAWN, timeout=300_000, polling="raf")
        seconds = time.perf_counter() - began
        await page.close()
        return seconds

    async def stop(self) -> None:
        await self._browser.close()
        await self._pw.stop()


# ----------------------------------------------------------------------------- a class
EPSILON, SCALE = "ε (plateau tolerance)", "δ scale"


def own_move(number: int) -> tuple[str, float, str]:
    """Student ``number``'s slider, value and the link parameter that shows it."""
    if number % 2 == 0:  # ε from 0.16 up in the slider's 0.01 steps (the link has 0.15)
        return EPSILON, round(0.16 + 0.01 * (number // 2), 2), "epsilon"
    return SCALE, round(1.05 + 0.05 * (number // 2), 2), "delta_scale"


async def _phase(students, action, spread: float, timeout: float, rng) -> tuple[list, list]:
    """Run ``action(student)`` for every student, each starting uniformly within ``spread``
    seconds; (seconds of those that finished, error messages)."""
    delays = sorted(rng.uniform(0, spread) for _ in students)

    async def one(student, delay):
        await asyncio.sleep(delay)
        return await action(student)

    tasks = [asyncio.ensure_future(one(s, d)) for s, d in zip(students, delays, strict=True)]
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    times, errors = [], [f"{len(pending)} not finished within {timeout:.0f} s"] if pending else []
    for task in done:
        if task.exception() is not None:
            errors.append(repr(task.exception())[:160])
        else:
            times.append(task.result())
    for s in students:
        errors += [f"student {s.number}: {e}" for e in s.errors]
        s.errors.clear()
    return times, errors


async def _later(delay: float, coroutine):
    await asyncio.sleep(delay)
    return await coroutine


def cpu_seconds(pid: int | None) -> float:
    """The server process's CPU seconds so far (user + system, from /proc; 0 elsewhere):
    what a page run costs, whatever else the shared machine is doing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_class(
    base: str, n: int, timeout: float, chromium: bool, pid: int | None = None, seed: int = 0
) -> dict:
    """Time ``n`` students (and one alone first) through the three phases."""
    rng = random.Random(seed)
    out = {}
    alone = Student(base, 10_000)
    out["alone"] = {"regions": await alone.open(REGIONS)}
    label, value, _ = own_move(0)
    out["alone"]["move"] = await alone.move(REGIONS, label, value + 0.2)
    out["alone"]["coverage"] = await alone.open(COVERAGE)
    await alone.close()
    tab = None
    if chromium:
        again = Student(base, 10_001)
        out["alone"]["again"] = await again.open(REGIONS)  # the figure cached, as for a tab
        await again.close()
        tab = Tab(base)
        out["tab_cold"] = await tab.start()
        out["tab_alone"] = await tab.open()
        out["tab_alone_finished"] = tab.finished

    students = [Student(base, i) for i in range(n)]
    moved = []

    async def move(s):
        label, value, param = own_move(s.number)
        seconds = await s.move(REGIONS, label, value)
        # the app rewrote the address with the new value: the move reached the model
        if f"{param}={value:g}" in s.query:
            moved.append(s.number)
        return seconds

    phases = (
        ("regions", lambda s: s.open(REGIONS)),
        ("move", move),
        ("coverage", lambda s: s.open(COVERAGE)),
    )
    for name, action in phases:
        load = os.getloadavg()[0]
        began, cpu = time.perf_counter(), cpu_seconds(pid)
        among = None
        if tab is not None and name == "regions":  # the tab arrives mid-way through the class
            among = asyncio.ensure_future(_later(2.5, tab.open()))
        times, errors = await _phase(students, action, 5.0, timeout, rng)
        if among is not None:
            out["tab_among"] = await asyncio.wait_for(among, timeout)
            out["tab_among_finished"] = tab.finished
        out[name] = {
            "times": times,
            "errors": errors,
            "load": load,
            "wall": time.perf_counter() - began,
            # the server's CPU per student (a Chromium tab's own run is in the regions phase)
            "cpu": (cpu_seconds(pid) - cpu) / n,
        }
    out["move"]["reached"] = len(moved)
    if tab is not None:
        await tab.stop()
    await asyncio.gather(*(s.close() for s in students), return_exceptions=True)
    return out


# ----------------------------------------------------------------------------- the server
def start_server(root: Path, port: int, flags: list[str], log) -> subprocess.Popen:
    """``streamlit run app.py`` in ``root`` on loopback only."""
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    command += ["--browser.gatherUsageStats", "false", *flags]
    return subprocess.Popen(command, cwd=root, stdout=log, stderr=subprocess.STDOUT)


def wait_warm(proc, base: str, log_path: Path, timeout: float) -> float:
    """Seconds until the server answers and has printed its warm-up's "done" line."""
    began = time.perf_counter()
    while time.perf_counter() - began < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}: see {log_path}")
        if WARM_DONE in log_path.read_text(errors="replace"):
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=5) as r:
                if r.status == 200:
                    return time.perf_counter() - began
        time.sleep(0.2)
    raise RuntimeError(f"no warm-up within {timeout:.0f} s: see {log_path}")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def measure(n: int, settings: str, root: Path, timeout: float, chromium: bool) -> dict:
    """Start a server, let it warm up, run the class, stop the server."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    flags = BEFORE_FLAGS if settings == "before" else AFTER_FLAGS
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with open(log_path, "w") as log:
            proc = start_server(root, port, flags, log)
            try:
                warm = wait_warm(proc, base, log_path, 600)
                result = asyncio.run(
                    asyncio.wait_for(
                        run_class(base, n, timeout, chromium, proc.pid), timeout=4 * timeout + 180
                    )
                )
            finally:
                stop(proc)
    result["warm"] = warm
    return result


def _pct(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def report(result: dict, n: int, settings: str) -> list[str]:
    """Markdown rows: per phase, alone, then median / p90 / max of the class, errors, load."""
    names = {
        "regions": "Decision regions, open",
        "move": "Decision regions, each moves ε or δ scale",
        "coverage": "Accuracy vs. coverage, open",
    }
    lines = []
    for key, label in names.items():
        phase = result[key]
        t = phase["times"] or [float("nan")]
        extra = f", {phase['reached']} moves reached the model" if key == "move" else ""
        lines.append(
            f"| {settings} | {label} | {result['alone'][key]:.2f} | "
            f"{statistics.median(t):.2f} / {_pct(t, 0.9):.2f} / {max(t):.2f} | "
            f"{phase['cpu']:.2f} | {len(phase['errors'])}{extra} | {phase['load']:.2f} |"
        )
    return lines


HEADER = [
    "| settings | page, Fig. 1 link | 1 student (s) | class: median / p90 / max (s) | "
    "server CPU s per student | errors | load avg (1 min) |",
    "|---|---|---:|---:|---:|---|---:|",
]


def _seconds_or_none(value) -> str:
    return "not seen" if value is None else f"{value:.2f} s"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--class", dest="n", type=int, default=60, help="students")
    parser.add_argument("--settings", choices=("before", "after"), default="after")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--phase-timeout", type=float, default=150.0)
    parser.add_argument(
        "--chromium", action="store_true", help="a real tab alone, and among the class"
    )
    args = parser.parse_args(argv)
    chromium = args.chromium and Path(CHROMIUM).exists()
    result = measure(args.n, args.settings, args.root.resolve(), args.phase_timeout, chromium)
    for key in ("regions", "move", "coverage"):
        for error in result[key]["errors"][:3]:
            print(f"  {key}: {error}")
    if "tab_alone" in result:
        print(
            f"Chromium tab, Decision regions by the Fig. 1 link, figure drawn: cold "
            f"{result['tab_cold']:.2f} s, cached JavaScript alone {result['tab_alone']:.2f} s "
            f"(the protocol client alone: {result['alone']['again']:.2f} s), among the class "
            f"{result['tab_among']:.2f} s"
        )
        print(
            "  its websocket's script_finished (the server's part): alone "
            f"{_seconds_or_none(result['tab_alone_finished'])}, among the class "
            f"{_seconds_or_none(result['tab_among_finished'])}"
        )
    print(f"{args.n} students, server warm in {result['warm']:.1f} s, {os.cpu_count()} cores")
    print("\n".join(HEADER + report(result, args.n, args.settings)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
