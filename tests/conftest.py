"""Test configuration: the Hypothesis profiles, and the report header that names the run.

The shared helpers live in ``support.py`` (random games, the oracle comparisons, the perft
counts); the ``full`` marker (deep perft, ten times the random positions) is deselected by
default in pyproject.toml's ``addopts`` and run with ``pytest -m full``.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from support import register_profiles

register_profiles()


def pytest_report_header(config: pytest.Config) -> str:
    marks = config.getoption("markexpr") or "(none)"
    return f"hypothesis profile: {settings.get_current_profile_name()}; marker expression: {marks}"
