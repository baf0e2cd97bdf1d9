"""The README is a doorway (issue 40): short, runnable as written, every link resolving.

It must stay at most 150 lines; its first command makes a virtual environment (a current
Debian or Ubuntu Python refuses a system-wide ``pip install``); it shows an image stored in
the repository and states the test suite's time in minutes; CI runs exactly its second
command; the rest of what a newcomer needs is one link away, and every link (a path in the
repository, with its anchor where it has one) resolves.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"RIFF", b"\xff\xd8\xff")


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _blocks(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(_text()) if lang == kind]


def _prose() -> str:
    """The README without its fenced code blocks."""
    return FENCE.sub("", _text())


def _links() -> list[tuple[bool, str]]:
    return [(bang == "!", target) for bang, _, target in LINK.findall(_prose())]


def _markdown_anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file (fenced code left out)."""
    seen: dict[str, int] = {}
    anchors = set()
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", text, flags=re.MULTILINE):
        slug = "".join(
            c for c in heading.lower() if c in " -_" or unicodedata.category(c)[0] in "LNM"
        ).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _rst_anchors(path: Path) -> set[str]:
    """Ids of an reStructuredText file: its explicit labels and its section titles."""
    from docutils.nodes import make_id

    text = path.read_text(encoding="utf-8")
    anchors = {make_id(label) for label in re.findall(r"^\.\. _([^:]+):\s*$", text, re.M)}
    lines = text.splitlines()
    for title, under in zip(lines, lines[1:], strict=False):
        if title.strip() and re.fullmatch(r"([=\-^~\"'`#*+])\1{2,}", under.strip()):
            if len(under.strip()) >= len(title.strip()):
                anchors.add(make_id(title.strip().replace("``", "")))
    return anchors


def test_the_readme_is_at_most_150_lines():
    assert len(_text().splitlines()) <= 150


def test_the_first_command_makes_a_virtual_environment_before_installing():
    first = _blocks("bash")[0].strip()
    assert "\n" not in first, "one command, to paste as it is"
    steps = [s.strip() for s in first.split("&&")]
    assert re.fullmatch(r"python3? -m venv (\S+)", steps[0]), steps
    venv = steps[0].split()[-1]
    assert steps[1] in (f". {venv}/bin/activate", f"source {venv}/bin/activate"), steps
    assert steps[2] == "pip install -r requirements.txt", steps
    assert steps[-1] == "streamlit run app.py", steps


def test_the_second_command_also_stands_alone_and_ci_runs_it_exactly():
    first, second = (b.strip() for b in _blocks("bash")[:2])
    assert first.split("&&")[:2] == second.split("&&")[:2], "the same venv, made or reused"
    assert second.endswith(
        "pip install -r requirements.txt -r requirements-dev.txt && python -m pytest"
    )
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in ci.splitlines() if line and not line.lstrip().startswith("#")]
    assert commands[-1] == second, "the CI script's last command is the README's test command"


def test_ci_installs_the_system_packages_the_readme_names():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    prose = _prose()
    for package in ("chromium", "graphviz"):
        assert f"need+=({package})" in ci, package
        assert f"apt-get install {package}" in prose, package
    assert 'apt-get install -y -qq "${need[@]}"' in ci


def test_the_readme_shows_an_image_stored_in_the_repository():
    images = [target for is_image, target in _links() if is_image]
    assert images, "no image"
    stored = [REPO / t for t in images if not re.match(r"[a-z]+:", t)]
    assert stored and all(p.resolve().is_relative_to(REPO / "docs") for p in stored), images
    for path in stored:
        assert path.read_bytes()[:8].startswith(IMAGE_MAGIC), path


def test_the_readme_states_the_test_time_in_minutes_and_what_the_tests_need():
    section = _prose().split("## The tests", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"\b\d+(\.\d+)? minutes\b", section), section
    assert "Chromium" in section and "../shared" in section


def test_every_link_resolves():
    links = _links()
    assert len(links) >= 10
    for _, target in links:
        if re.match(r"(https?|mailto):", target):
            continue
        path_part, _, anchor = target.partition("#")
        path = (REPO / path_part) if path_part else README
        assert path.resolve().is_relative_to(REPO), target
        assert path.exists(), f"{target}: no such file"
        if anchor:
            if path.suffix == ".md":
                anchors = _markdown_anchors(path)
            elif path.suffix == ".rst":
                anchors = _rst_anchors(path)
            else:
                pytest.fail(f"{target}: an anchor into a {path.suffix} file")
            assert anchor in anchors, f"{target}: no such anchor in {sorted(anchors)}"


def test_the_moved_guides_are_one_click_away_and_in_the_docs_tree():
    targets = {target.partition("#")[0] for _, target in _links()}
    toctrees = (REPO / "docs" / "index.rst").read_text(encoding="utf-8")
    toctrees += (REPO / "docs" / "user_guide" / "index.rst").read_text(encoding="utf-8")
    for page in ("classroom", "deviations", "results", "command_line", "glossary", "install"):
        assert f"docs/{page}.rst" in targets, page
        assert f"\n   {page}\n" in toctrees, page
    assert "docs/user_guide/app.rst" in targets
    assert "BENCHMARKS.md" in targets


def test_the_plain_words_are_explained_where_first_met():
    # the first paragraph of prose using each term is the one that defines it (in bold)
    paragraphs = [p for p in re.split(r"\n\s*\n", _prose()) if not p.startswith("![")]
    for term, pattern in (
        ("zone", r"\bzones?\b"),
        ("δ", r"δ"),
        ("flagged", r"\bflag(ged|s)?\b"),
        ("decided accuracy", r"\bdecided accuracy\b"),
    ):
        first = next(p for p in paragraphs if re.search(pattern, p, re.IGNORECASE))
        assert f"**{term}**" in first, (term, first)


def test_the_jargon_is_left_to_the_glossary():
    prose = _prose()
    for word in ("AURC", "Chow", "Holm", "Wilcoxon"):
        assert not re.search(rf"\b{word}\b", prose.split("## Read more")[0]), word
    glossary = (REPO / "docs" / "glossary.rst").read_text(encoding="utf-8")
    for term in ("AURC", "Chow's rule", "Holm's correction", "zone", "decided accuracy"):
        assert re.search(rf"^   {re.escape(term)}$", glossary, re.MULTILINE), term


def test_the_library_example_runs_as_written():
    pytest.importorskip("sklearn")
    (example,) = _blocks("python")
    assert len(example.strip().splitlines()) <= 10
    namespace: dict = {}
    exec(compile(example, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    clf, X = namespace["clf"], namespace["X"]
    verdict = clf.predict_verdict(X)
    assert set(verdict.tolist()) == {0, 1}, "the example's tree flags some rows and decides most"
    assert 0 < (verdict == 0).mean() < 0.5
    assert len(clf.tree_.delta) == clf.tree_.node_count


def test_benchmarks_contents_lists_its_topics_and_every_link_resolves():
    path = REPO / "BENCHMARKS.md"
    text = path.read_text(encoding="utf-8")
    contents = text.split("## Contents", 1)[1].split("\n## ", 1)[0]
    targets = re.findall(r"\]\(#([^)]+)\)", contents)
    anchors = _markdown_anchors(path)
    assert len(targets) >= 20
    assert [t for t in targets if t not in anchors] == []
    topics = re.findall(r"^- \[", contents, flags=re.MULTILINE)
    assert 3 <= len(topics) <= 8, "a few topics, each with its sections beneath"
