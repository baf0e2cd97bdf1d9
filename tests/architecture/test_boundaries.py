"""Import arrows point one way (pages/app → viz → ternary), and the suite cannot skip silently."""

import subprocess
import sys
import pytest

from tests.conftest import REPO, _shared_folder


def test_importing_ternary_loads_no_ui_library():
    code = (
        "import sys, ternary\n"
        "if 'sklearn' in sys.modules:\n"  # the package defers it until a name is used
        "    print('sklearn')\n"
        "import ternary.metrics, ternary.delta, ternary.data, ternary.experiment\n"
        "import ternary.graft, ternary.explain, ternary.export\n"
        "from ternary import *\n"
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


def test_missing_shared_folder_fails_in_ci_and_skips_locally(tmp_path, monkeypatch):
    absent = tmp_path / "shared" / "datasets"
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="In CI this is an error"):
        _shared_folder(absent, "datasets")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="absent"):
        _shared_folder(absent, "datasets")
    assert _shared_folder(tmp_path, "datasets") == tmp_path


def test_every_public_name_resolves_through_the_lazy_package():
    import ternary

    assert all(getattr(ternary, name) is not None for name in ternary.__all__)
    assert set(ternary.__all__) <= set(dir(ternary))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ternary.nope  # noqa: B018
