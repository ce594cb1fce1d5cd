"""Documentation that runs: every docstring example in the package (the README and the guide
pages run in ``tests/test_docs_pages.py``, with the helpers here)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import ggn

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(ggn.__path__, "ggn.") if not name.endswith("__main__")
)
README = Path(__file__).parent.parent / "README.md"


@pytest.mark.parametrize("name", ["ggn", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, raise_on_error=False, report=True)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def run_examples(source: str, name: str, path: Path, globs: dict[str, object], line: int = 0) -> int:
    """Run the doctest examples of ``source`` (found at ``line`` of ``path``) in the namespace
    ``globs``, which keeps what they define: calls that share it make one session, as a reader
    runs the blocks one after the other. The failures, each reported in the captured output."""
    test = doctest.DocTestParser().get_doctest(source, globs, name, str(path), line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, clear_globs=False)
    globs.update(test.globs)
    return runner.failures
