"""Import arrows point one way (app_pages/app → appkit → viz → ternary), read with `ast`.

Imports are read from the sources (`tests.architecture.imports`): every ``import`` and
``from`` statement at any depth, and string loads through ``importlib.import_module`` or
``__import__``. Also: ``import ternary`` stays cheap and loads no UI library, nothing
outside ``ternary/`` imports a private ``ternary`` module, ``ternary/`` has no import
cycle, and the suite cannot skip its shared data silently.
"""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.architecture.imports import (
    CODE_ROOTS,
    find_cycle,
    imports_of,
    is_private,
    module_name,
    python_files,
)
from tests.conftest import REPO, _shared_folder

#: Top-level packages each layer must never import.
FORBIDDEN = {
    "ternary": ("streamlit", "plotly", "graphviz", "viz", "appkit", "app_pages", "app"),
    "viz": ("streamlit", "appkit", "app_pages", "app"),
}


def _tops(roots: tuple[str, ...]) -> list[tuple[Path, int, str]]:
    return [
        (imp.path, imp.line, imp.module)
        for path in python_files(*roots)
        for imp in imports_of(path)
    ]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_never_imports_the_layers_above_it(layer):
    offenders = [
        f"{path.relative_to(REPO)}:{line} imports {module}"
        for path, line, module in _tops((layer,))
        if module.split(".")[0] in FORBIDDEN[layer]
    ]
    assert offenders == []


def test_the_import_reader_sees_every_kind_of_import(tmp_path):
    probe = tmp_path / "_probe.py"  # read as if it were ternary/tree/_probe.py
    probe.write_text(
        "import importlib\n"
        "from typing import TYPE_CHECKING\n"
        "from . import kernels\n"
        "from ..delta import _margin\n"
        "if TYPE_CHECKING:\n"
        "    import appkit\n"
        "def late():\n"
        "    import streamlit\n"
        "    importlib.import_module('viz.labels')\n"
        "    __import__('plotly')\n",
        encoding="utf-8",
    )
    found = {(imp.module, imp.module_level) for imp in imports_of(probe, "ternary.tree._probe")}
    assert found == {
        ("importlib", True),
        ("typing", True),
        ("ternary.tree.kernels", True),
        ("ternary.delta._margin", True),
        ("appkit", False),
        ("streamlit", False),
        ("viz.labels", False),
        ("plotly", False),
    }
    assert module_name(REPO / "ternary" / "tree" / "__init__.py") == "ternary.tree"
    assert is_private("ternary.delta._margin") and is_private("ternary._params")
    assert not is_private("ternary.tree.kernels") and not is_private("appkit._x")


#: White-box tests of the experiment package's storage and scheduling internals (the CSV
#: file's CRC cells and lock, the database class, the CART-sharing switch, fold arrays,
#: Holm's correction), and the benchmark that times those same internals against each
#: other. Each file may import exactly the private modules listed; any other private
#: import, and any in a file not listed, fails. Everything else outside ternary/ (app,
#: viz, pages, docs, every other test and benchmark) uses public names only.
WHITE_BOX = {
    "benchmarks/bench_scale.py": {
        "ternary.experiment._tasks",
        "ternary.experiment._csvstore",
        "ternary.experiment._store",
    },
    "tests/experiment/test_experiment.py": {"ternary.experiment._tasks"},
    "tests/experiment/test_report.py": {"ternary.experiment._report"},
    "tests/experiment/test_results_bounds.py": {
        "ternary.experiment._csvstore",
        "ternary.experiment._dbread",
        "ternary.experiment._store",
    },
    "tests/experiment/test_store_csv.py": {
        "ternary.experiment._csvstore",
        "ternary.experiment._cv",
    },
    "tests/experiment/test_store_db.py": {"ternary.experiment._store"},
}


def _allowed(path, module: str) -> bool:
    allowed = WHITE_BOX.get(str(path.relative_to(REPO)), set())
    return any(module == name or module.startswith(name + ".") for name in allowed)


def test_nothing_outside_ternary_imports_a_private_ternary_module():
    roots = tuple(root for root in CODE_ROOTS if root != "ternary")
    offenders = sorted(
        f"{path.relative_to(REPO)}:{line} imports {module}"
        for path, line, module in _tops(roots)
        if is_private(module) and not _allowed(path, module)
    )
    assert offenders == [], "use the public names (ternary, ternary.tree, ternary.data, ...)"
    # the list only shrinks: every entry is a private import its file still makes
    for name, modules in WHITE_BOX.items():
        used = {
            entry
            for _, _, module in _tops((name,))
            for entry in modules
            if module == entry or module.startswith(entry + ".")
        }
        assert used == modules, f"{name}: stale white-box entries {sorted(modules - used)}"


def test_ternary_has_no_import_cycle():
    # Every import that can run counts, a function-level one too: a cycle closed by an
    # import inside a function still ties the two modules into one (issue 28 found three
    # such). Only ``if TYPE_CHECKING:`` imports are left out, since they never run.
    graph: dict[str, set[str]] = {}
    for path in python_files("ternary"):
        source = module_name(path)
        graph[source] = {
            imp.module
            for imp in imports_of(path)
            if not imp.type_checking
            and imp.module.split(".")[0] == "ternary"
            and imp.module != source
        }
    assert len(graph) > 40 and graph["ternary.delta._registry"]
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_a_function_level_import_closing_a_circle_is_seen(tmp_path):
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text("import ternary.second\n", encoding="utf-8")
    second.write_text("def late():\n    import ternary.first\n", encoding="utf-8")
    graph = {
        name: {imp.module for imp in imports_of(path, name) if not imp.type_checking}
        for name, path in (("ternary.first", first), ("ternary.second", second))
    }
    assert find_cycle(graph) == ["ternary.first", "ternary.second", "ternary.first"]


def test_importing_ternary_loads_no_ui_library():
    code = (
        "import sys, ternary\n"
        "from ternary import PARAMETERS, validate_params\n"  # the app reads the table cheaply
        "validate_params({'delta_method': 'margin'})\n"
        "if 'sklearn' in sys.modules:\n"  # the package defers it until a name is used
        "    print('sklearn')\n"
        "import ternary.metrics, ternary.delta, ternary.data, ternary.experiment\n"
        "import ternary.graft, ternary.explain, ternary.export, ternary.tree\n"
        "from ternary import *\n"
        "top = ('streamlit', 'plotly', 'viz', 'graphviz', 'appkit')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in top)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


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

    for name in ternary.__all__:
        # the face hands out the very object its module defines, not a copy or a stub
        home = importlib.import_module(ternary._PUBLIC[name])
        assert getattr(ternary, name) is getattr(home, name), name
    assert set(ternary.__all__) == set(ternary._PUBLIC)
    assert set(ternary.__all__) <= set(dir(ternary))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ternary.nope  # noqa: B018
