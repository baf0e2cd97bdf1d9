"""Import arrows point one way: pages/app → viz → ternary."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_importing_ternary_loads_no_ui_library():
    code = (
        "import sys, ternary, ternary.metrics, ternary.delta\n"
        "import importlib.util\n"
        "for name in ('ternary.data', 'ternary.experiment', 'ternary.graft', 'ternary.explain'):\n"
        "    if importlib.util.find_spec(name):\n"
        "        importlib.import_module(name)\n"
        "import importlib\n"
        "top = ('streamlit', 'plotly', 'viz', 'graphviz')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in top)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_library_sources_never_import_ui_packages():
    offenders = []
    for path in (REPO / "ternary").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and any(
                f" {pkg}" in stripped.replace("import", " ").replace("from", " ")
                for pkg in ("streamlit", "plotly", "viz", "pages")
            ):
                offenders.append(f"{path.name}: {stripped}")
    assert offenders == []
