"""The README and the guide pages of docs/ run as written.

Each page is read as a reader runs it, top to bottom in one empty directory, the way the
tutorial's test reads the tutorial (``tests/test_docs_site.py``): a file block (a fence with a
``title="NAME"``) is saved under its name; each ``console`` command runs in process and must
print exactly the lines shown under it; the ``python`` blocks of a page run as one session; a
``json`` block without a title is a GGN document that must be valid; an ``ini`` block without a
title is quoted from the built-in variants file and must be found there. The ``sh`` blocks are
installs, benchmarks and long test runs: the README's are the install and test commands that
CI runs, checked below.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ggn import Ruleset
from test_docs import README, run_examples
from test_docs_site import DOCS, blocks, commands, install_command, shell

ROOT = README.parent
PAGES = [README, *(DOCS / name for name in (
    "library.md", "command-line.md", "games.md", "documents.md", "performance.md", "pictures.md",
    "shogi.md", "records.md", "notations.md"))]
BUILTIN_INI = ROOT / "src" / "ggn" / "variants" / "builtin.ini"
README_LIMIT = 200  # lines: a newcomer reads the README in five minutes


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.name)
def test_the_page_runs_as_written(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session: dict[str, object] = {}
    ran = 0
    missing: list[str] = []
    for block in blocks(page):
        where = f"{page.name}:{block.line}"
        if block.title:
            (tmp_path / block.title).write_text(block.body, encoding="utf-8")
        elif block.language == "console":
            for command, expected in commands(block.body):
                engine = _engine_missing(command)
                if engine:  # the rest of the page still runs; the skip says what did not
                    missing.append(f"{where}: {engine}")
                    continue
                assert shell(command, where) == expected, f"{where}: {command}"
                ran += 1
        elif block.language in ("python", "pycon"):
            failures = run_examples(block.body, where, page, session, block.line)
            assert failures == 0, f"{where}: an example failed (see the captured output)"
            ran += 1
        elif block.language == "json":
            Ruleset.loads(block.body)
            ran += 1
        elif block.language == "ini":
            assert block.body in BUILTIN_INI.read_text(encoding="utf-8"), where
            ran += 1
        else:
            assert block.language == "sh", f"{where}: a {block.language} block the test does not run"
    assert ran, f"{page.name} has nothing that runs"
    if missing:
        pytest.skip(f"{page.name}: every command ran but {len(missing)} that need an engine this machine "
                    f"does not have (.ci/run installs Debian's): {'; '.join(missing)}")


def _engine_missing(command: str) -> str | None:
    """The engine a command names with ``--engine NAME`` when this machine has none by that name
    (found as ``ggn analyse`` finds it: on the PATH or in Debian's /usr/games), else None."""
    found = re.search(r"--engine\s+(\S+)", command)
    if found is None:
        return None
    name = found[1]
    if shutil.which(name) or shutil.which(name, path="/usr/games"):
        return None
    return name


def test_the_readme_is_short_and_its_commands_are_the_ones_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.count("\n") <= README_LIMIT
    shell_blocks = [block.body.strip() for block in blocks(README) if block.language == "sh"]
    install = install_command()
    assert shell_blocks[0] == install + " && .venv/bin/ggn moves"
    # The test command is the one .ci/run runs, word for word.
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert any(line.strip() == shell_blocks[1] for line in ci.splitlines())
    assert shell_blocks[2] == ".venv/bin/pytest -q -m 'not full and not slow'"
    assert len(shell_blocks) == 3
    # Every guide page the README sends a reader to is there.
    for target in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / target).exists(), target


@pytest.mark.slow  # a collection of the whole suite in another process
def test_the_quick_selection_leaves_out_the_slow_modules_and_keeps_the_rest() -> None:
    """The README's quick command selects by the ``slow`` marker: collect it (no test runs)."""
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-m", "not full and not slow", str(ROOT / "tests")],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )
    assert collected.returncode == 0, collected.stdout[-2000:] + collected.stderr[-2000:]
    files = {line.split("::", 1)[0] for line in collected.stdout.splitlines() if "::" in line}
    # A module is slow by its pytestmark: pytest.mark.slow on its line or in its list, or the
    # browser modules' needs_chromium (browser_support.py), which holds it.
    marked = re.compile(r"^pytestmark = (?:needs_chromium$|.*pytest\.mark\.slow"
                        r"|\[\n(?:    .*\n)*?    pytest\.mark\.slow)", re.MULTILINE)
    slow = {path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").glob("test_*.py")
            if marked.search(path.read_text(encoding="utf-8"))}
    assert {"tests/test_web_browser.py", "tests/test_web_board.py", "tests/test_web_page.py"} <= slow, slow
    assert not files & slow
    assert "tests/test_notations.py" in files and "tests/test_rules.py" in files
    assert len(files) >= 40
