"""The lint step (ggn.linter): every rule and branch, its speed on large inputs, its API."""

from __future__ import annotations

import importlib
import types

import ggn
import ggn.linter


def test_module_is_not_hidden_by_the_function() -> None:
    # Issue 8: `from ggn.lint import lint` in the package made `ggn.lint` the function, so the
    # module could not be reached as an attribute; the module is now `ggn.linter`.
    assert isinstance(ggn.linter, types.ModuleType)
    assert importlib.import_module("ggn.linter") is ggn.linter
    assert callable(ggn.lint) and not isinstance(ggn.lint, types.ModuleType)
    assert ggn.lint is ggn.linter.lint
    assert ggn.LintWarning is ggn.linter.LintWarning
    twice = '{"must": {"a2": "empty"}}'
    rules = ggn.Ruleset.loads(f'{{"C:R": {{"a1": {{"a2": [{twice}, {twice}]}}}}}}')
    assert [(w.path, w.rule) for w in ggn.lint(rules)] == [("/C:R/a1/a2/1", "duplicate")]
