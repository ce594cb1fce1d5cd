"""Test configuration: the Hypothesis profiles, and the report header that names the run.

The shared helpers live in ``support.py`` (random games, the oracle comparisons, the perft
counts), ``web_support.py`` and ``browser_support.py``; the shared fixtures here
(``no_board_built``, and the browser tests' ``server`` and ``browser``); the ``full`` marker (deep perft, ten
times the random positions) is deselected by default in pyproject.toml's ``addopts`` and run
with ``pytest -m full``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

from ggn.position import Position
from support import register_profiles

if TYPE_CHECKING:
    from playwright.sync_api import Browser

register_profiles()

# The compile cache of a test session is its own, new and empty (the processes the tests start
# share it): no test depends on, or fills, the user's cache. tests/test_cache.py sets its own.
_CACHE = tempfile.mkdtemp(prefix="ggn-test-cache-")
os.environ["GGN_CACHE_DIR"] = _CACHE


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)


def pytest_report_header(config: pytest.Config) -> str:
    marks = config.getoption("markexpr") or "(none)"
    return f"hypothesis profile: {settings.get_current_profile_name()}; marker expression: {marks}"


@pytest.fixture
def no_board_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a Position is built from a FEEN: what must be refused before any board
    is built (a game's board shape, a huge FEEN) is refused without one."""

    def refuse(feen: object) -> Position:
        raise AssertionError(f"a board was built for {str(feen)[:40]!r}")

    monkeypatch.setattr(Position, "from_feen", staticmethod(refuse))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A ``ggn serve`` of the built-in games on a free local port, for one module's tests: its URL."""
    from web_support import running  # noqa: PLC0415  (the [web] extra: only the modules that ask)

    with running() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, for one module's tests (those marked ``needs_chromium``)."""
    from browser_support import launched  # noqa: PLC0415  (playwright: only the modules that ask)

    with launched() as started:
        yield started
