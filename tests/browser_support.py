"""Driving the explorer's board in a real browser as a player does: Playwright for Python on
Debian's ``chromium`` (never a browser Playwright downloads), through the page's contract
(docs/ARCHITECTURE.md, the explorer): ``#board`` carries ``data-fen``/``data-feen`` of the
position shown and ``data-busy="true"`` while an answer is awaited; each square is a
``rect.square[data-square]`` on top of the picture (for xiangqi-like boards centred on its
intersection), with ``data-last``, ``data-check`` and ``data-target``; ``#choices`` holds a
``button.choice`` per option, ``#history`` a ``button.ply[data-ply]`` per move.

Moves are made with the mouse (pressed on a square's centre, moved, released on another's),
by two clicks, or by two taps of a touch screen: never through the page's script.
Shared by tests/test_web_board.py and tests/test_web_screens.py.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = [
    "ARGS", "SHOTS", "WAIT_MS", "Board", "chromium", "launched", "needs_chromium", "opened", "shoot",
]

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--font-render-hinting=none", "--force-color-profile=srgb", "--hide-scrollbars",
]
SHOTS = Path(os.environ.get("GGN_SHOTS") or Path(tempfile.gettempdir()) / "ggn-shots")
WAIT_MS = 15_000
SETTLE_MS = 250  # how long an illegal drop is given to (wrongly) start a move before it is checked


def chromium() -> str | None:
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium") or shutil.which("chromium-browser")


needs_chromium = [
    pytest.mark.slow,  # not in the README's quick run: a real browser
    pytest.mark.skipif(
        chromium() is None,
        reason="no chromium installed (Debian: apt-get install -y chromium; .ci/run installs it)",
    ),
]


@contextmanager
def launched() -> Iterator[Browser]:
    """Debian's chromium, headless, for a module's tests."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415  (the [web] test extra)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def opened(browser: Browser, url: str, *, width: int = 1280, height: int = 900,
           touch: bool = False) -> Iterator[Page]:
    """A new page (a context of its own) at ``url``, ready (``body[data-ready=true]``), its
    viewport ``width`` x ``height`` CSS pixels (device scale 1), a touch screen when ``touch``.
    A failure of the page's script fails the test when the page closes."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                  has_touch=touch, is_mobile=touch, locale="en-GB",
                                  timezone_id="UTC", color_scheme="light", reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"the page's script failed: {errors}"


def shoot(page: Page, name: str, selector: str | None = None) -> Path:
    """A screenshot into $GGN_SHOTS (never the repository): the whole page, or one element."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if selector is None:
        page.screenshot(path=str(path), full_page=True)
    else:
        page.locator(selector).screenshot(path=str(path))
    return path


class Board:
    """The explorer's board on a page, read and played through the contract only."""

    def __init__(self, page: Page) -> None:
        self.page = page

    # -- reading ------------------------------------------------------------------------

    def attribute(self, name: str) -> str | None:
        value: str | None = self.page.get_attribute("#board", name)
        return value

    @property
    def fen(self) -> str | None:
        return self.attribute("data-fen")

    @property
    def feen(self) -> str | None:
        return self.attribute("data-feen")

    def squares(self, attribute: str, value: str = "true") -> list[str]:
        """The squares (``rect.square``) whose ``attribute`` is ``value``, sorted."""
        found: list[str] = self.page.eval_on_selector_all(
            f'#board rect.square[{attribute}="{value}"]',
            "rects => rects.map(r => r.getAttribute('data-square'))")
        return sorted(found)

    def last(self) -> tuple[list[str], list[str]]:
        return self.squares("data-last", "from"), self.squares("data-last", "to")

    def checks(self) -> list[str]:
        return self.squares("data-check")

    def targets(self) -> list[str]:
        return self.squares("data-target")

    def history(self) -> list[str]:
        texts: list[str] = self.page.eval_on_selector_all(
            "#history button.ply", "buttons => buttons.map(b => b.textContent.trim())")
        return texts

    def piece(self, cell: str) -> str | None:
        """The piece drawn on ``cell`` (its QPI), or None."""
        found = self.page.locator(f'#board g.piece[data-square="{cell}"]')
        return found.first.get_attribute("data-piece") if found.count() else None

    # -- where to press -----------------------------------------------------------------

    def box(self, selector: str) -> dict[str, float]:
        """The box of ``selector``'s first element, in CSS pixels of the viewport, once
        scrolled into view."""
        element = self.page.locator(selector).first
        element.scroll_into_view_if_needed()
        box = element.bounding_box()
        assert box is not None, f"{selector} is not shown"
        return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}

    def centre(self, cell: str) -> tuple[float, float]:
        """The centre of ``cell``'s square: where a player presses it (for xiangqi, exactly its
        intersection)."""
        box = self.box(f'#board rect.square[data-square="{cell}"]')
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def held(self, side: str, piece: str) -> tuple[float, float]:
        """The centre of a piece in ``side``'s hand."""
        box = self.box(f'#board [data-hand="{side}"][data-piece="{piece}"]')
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    # -- waiting ------------------------------------------------------------------------

    def idle(self) -> None:
        self.page.wait_for_function(
            "() => { const b = document.getElementById('board');"
            " return b && b.getAttribute('data-busy') !== 'true'; }")

    def wait_changed(self, before: str | None, attribute: str = "data-feen") -> None:
        """Wait until the board shows another position than ``before`` and awaits no answer."""
        self.page.wait_for_function(
            "([name, before]) => { const b = document.getElementById('board');"
            " return b && b.getAttribute('data-busy') !== 'true' && b.getAttribute(name) !== before; }",
            arg=[attribute, before])

    # -- playing ------------------------------------------------------------------------

    def press(self, at: tuple[float, float]) -> None:
        """Press the mouse on ``at`` and move it a little, as a hand does: a drag begins."""
        mouse = self.page.mouse
        mouse.move(*at)
        mouse.down()
        mouse.move(at[0] + 3, at[1] + 3, steps=2)

    def release(self, at: tuple[float, float]) -> None:
        self.page.mouse.move(*at, steps=6)
        self.page.mouse.up()

    def drag(self, source: str | tuple[float, float], destination: str) -> list[str]:
        """Drag from a square (or a point: a piece in hand) to a square; the squares marked
        as destinations while the piece was held."""
        start = self.centre(source) if isinstance(source, str) else source
        end = self.centre(destination)
        self.press(start)
        self.page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
        held = self.targets()
        self.release(end)
        return held

    def click(self, at: str | tuple[float, float]) -> None:
        point = self.centre(at) if isinstance(at, str) else at
        self.page.mouse.click(*point)

    def click_move(self, source: str | tuple[float, float], destination: str) -> list[str]:
        """Click a square (or a point) and then another; the destinations marked in between."""
        self.click(source)
        shown = self.targets()
        self.click(destination)
        return shown

    def tap_move(self, source: str, destination: str) -> list[str]:
        """Tap a square and then another, on a touch screen."""
        self.page.touchscreen.tap(*self.centre(source))
        shown = self.targets()
        self.page.touchscreen.tap(*self.centre(destination))
        return shown

    def touch_drag(self, source: str, destination: str) -> list[str]:
        """Drag with a finger from one square to another (touch events through the browser's
        DevTools protocol: Playwright's touch screen only taps); the squares marked as
        destinations while the piece was held."""
        session = self.page.context.new_cdp_session(self.page)
        start, end = self.centre(source), self.centre(destination)

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            session.send("Input.dispatchTouchEvent",
                         {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]})

        touch("touchStart", [start])
        steps = 8
        held: list[str] = []
        for step in range(1, steps + 1):
            touch("touchMove", [(start[0] + (end[0] - start[0]) * step / steps,
                                 start[1] + (end[1] - start[1]) * step / steps)])
            if step == steps // 2:
                held = self.targets()
        touch("touchEnd", [])
        session.detach()
        return held

    def choose(self, label: re.Pattern[str]) -> list[dict[str, Any]]:
        """Click the one option of ``#choices`` whose aria-label matches ``label``; what the
        options were (each one's aria-label, whether it is drawn as a picture, its text)."""
        self.page.wait_for_selector("#choices button.choice")
        options: list[dict[str, Any]] = self.page.eval_on_selector_all(
            "#choices button.choice",
            "buttons => buttons.map(b => ({label: b.getAttribute('aria-label') || '',"
            " picture: b.querySelector('svg') !== null, text: b.textContent.trim()}))")
        chosen = [k for k, option in enumerate(options) if label.search(option["label"])]
        assert len(chosen) == 1, f"{label.pattern!r} names {len(chosen)} of the choices {options}"
        self.page.locator("#choices button.choice").nth(chosen[0]).click()
        return options

    def copied(self, button: str) -> str:
        """Click a Copy button of the page (``#copy-pgn``, ``#copy-kif``, ``#copy-fen``, ...)
        and read what it copied, as the page shows it (``#export-text``)."""
        self.page.evaluate("() => { const t = document.getElementById('export-text'); if (t) t.value = ''; }")
        self.page.click(button)
        self.page.wait_for_function(
            "() => { const t = document.getElementById('export-text'); return t && t.value !== ''; }")
        text: str = self.page.input_value("#export-text")
        return text

    def expect(self, value: str | None, attribute: str = "data-fen") -> None:
        """Wait until ``#board`` shows ``value`` in ``attribute`` and awaits no answer; fail,
        naming both, when it does not within the wait."""
        from playwright.sync_api import TimeoutError as Late  # noqa: PLC0415

        with suppress(Late):  # then the assertion says what is shown instead
            self.page.wait_for_function(
                "([name, value]) => { const b = document.getElementById('board');"
                " return b && b.getAttribute('data-busy') !== 'true' && b.getAttribute(name) === value; }",
                arg=[attribute, value])
        assert self.attribute(attribute) == value

    def still(self, value: str | None, attribute: str = "data-fen") -> None:
        """Check, after a moment for a move to (wrongly) begin, that ``#board`` still shows
        ``value`` in ``attribute``."""
        self.page.wait_for_timeout(SETTLE_MS)
        self.idle()
        assert self.attribute(attribute) == value

    def show_ply(self, ply: int, value: str | None, attribute: str = "data-fen") -> None:
        """Click the history's ``ply``; the board must then show ``value``."""
        self.page.click(f'#history button.ply[data-ply="{ply}"]')
        self.expect(value, attribute)
