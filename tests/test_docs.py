"""Documentation that runs: every docstring example in the package, and the README's Python."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
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


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert blocks, "the README has no Python examples"
    # The blocks read as one session, as a reader runs them one after the other.
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, "a README example failed (see the captured output)"
