"""What the explorer looks like: its boards against reference pictures, and its layout on a
phone's screen, in a real browser (Debian's chromium, as tests/test_web_board.py drives it).

The start positions of chess, shogi, xiangqi, janggi and minishogi are shot, the board element
alone, at a fixed viewport (1280 x 900 CSS pixels, device scale 1), and compared pixel by
pixel with the pictures of ``tests/data/screens/``: a pixel differs when one of its channels
differs by more than :data:`CHANNEL`, and at most :data:`SHARE` of the pixels may differ (the
edges of curves drawn by another build of Skia). On failure the picture taken and a picture of
the differences (red where they differ) are written to $GGN_SHOTS, and the message says how
many pixels differ and where. ``GGN_UPDATE_SCREENS=1`` writes the references anew instead.

The references were made on a machine with no CJK font at all (``fc-list :lang=ja`` and
``fc-list :lang=zh`` list nothing, as on a fresh Debian): the characters of shogi, xiangqi and
janggi are drawn from ggn's own paths (ggn._glyphs), not a font. On a machine with such a font
the pictures are compared all the same: they must not depend on it, which is the point.

At a phone's width (360 x 740, a touch screen) the page does not scroll sideways, the board is
wholly in view, and a move is played by two taps or by a finger's drag.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import pytest

from browser_support import SHOTS, Board, needs_chromium, opened, shoot

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = needs_chromium

REFERENCES = Path(__file__).parent / "data" / "screens"
UPDATE = os.environ.get("GGN_UPDATE_SCREENS") == "1"
GAMES = ("chess", "shogi", "xiangqi", "janggi", "minishogi")
WIDTH, HEIGHT = 1280, 900
CHANNEL = 40
"""A pixel differs when one of its channels (0 to 255) differs by more than this."""
SHARE = 0.005
"""The share of a picture's pixels that may differ."""


def cjk_fonts() -> list[str]:
    """The fonts fontconfig has for Japanese or Chinese (empty: none, as on a fresh Debian)."""
    if shutil.which("fc-list") is None:
        return []
    found: list[str] = []
    for language in ("ja", "zh"):
        listed = subprocess.run(["fc-list", f":lang={language}", "family"], capture_output=True,
                                text=True, check=False, timeout=60).stdout
        found += [line for line in listed.splitlines() if line.strip()]
    return sorted(set(found))


def load(page: Page, game: str) -> Board:
    """``game``'s start, loaded with the page's controls; the pointer put away from the board
    (no hover), the board idle."""
    board = Board(page)
    page.select_option("#game", game)
    page.check("#mode-game")
    page.fill("#position", "")
    page.click("#load")
    page.wait_for_function(
        "game => { const b = document.getElementById('board');"
        " return b.getAttribute('data-busy') !== 'true' && document.querySelector('#game').value === game"
        " && b.querySelector('svg') !== null; }", arg=game)
    page.mouse.move(0, 0)
    board.idle()
    return board


def compare(actual: Path, reference: Path) -> str | None:
    """None when ``actual`` matches ``reference`` within the tolerance, else what differs (and
    a picture of the differences written beside ``actual``)."""
    from PIL import Image, ImageChops  # noqa: PLC0415  (Pillow: the test extra, with cairosvg)

    with Image.open(actual) as taken, Image.open(reference) as kept:
        shot, expected = taken.convert("RGB"), kept.convert("RGB")
    if shot.size != expected.size:
        return (f"the picture is {shot.size[0]}x{shot.size[1]} pixels, the reference "
                f"{expected.size[0]}x{expected.size[1]}")
    difference = ImageChops.difference(shot, expected)
    channels = difference.split()
    worst = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    mask = worst.point(lambda value: 255 if value > CHANNEL else 0)
    differing = mask.histogram()[255]
    total = shot.size[0] * shot.size[1]
    if differing <= SHARE * total:
        return None
    faded = Image.blend(expected, Image.new("RGB", expected.size, "white"), 0.7)
    faded.paste(Image.new("RGB", expected.size, (230, 0, 0)), mask=mask)
    diff = actual.with_name(actual.stem + "-diff.png")
    faded.save(diff)
    return (f"{differing} of {total} pixels ({differing / total:.2%}) differ by more than {CHANNEL} in a "
            f"channel (at most {SHARE:.1%} may), within the box {mask.getbbox()}; taken: {actual}, "
            f"differences: {diff}, reference: {reference}")


@pytest.mark.parametrize("game", GAMES)
def test_a_start_position_looks_as_its_reference(browser: Browser, server: str, game: str) -> None:
    """The board of ``game``'s start, shot alone at 1280 x 900, against
    tests/data/screens/GAME.png (GGN_UPDATE_SCREENS=1 writes it)."""
    reference = REFERENCES / f"{game}.png"
    with opened(browser, server + "/", width=WIDTH, height=HEIGHT) as page:
        load(page, game)
        # The characters are paths: no picture on the board asks a font for them.
        assert page.locator("#board svg text").count() == 0
        if UPDATE:
            REFERENCES.mkdir(parents=True, exist_ok=True)
            page.locator("#board").screenshot(path=str(reference), animations="disabled", caret="hide")
            return
        assert reference.exists(), f"no reference {reference}: make it with GGN_UPDATE_SCREENS=1"
        actual = shoot(page, f"screen-{game}", "#board")
    found = compare(actual, reference)
    fonts = cjk_fonts()
    assert found is None, found + (f" (this machine has CJK fonts: {', '.join(fonts)})" if fonts else "")


def test_the_machine_has_no_cjk_font() -> None:
    """The references of tests/data/screens/ were made with no CJK font, and the comparisons
    mean most run that way (the CI's machine, a fresh Debian): a CJK font installed is said,
    and the comparisons above run all the same."""
    fonts = cjk_fonts()
    if fonts:
        pytest.skip(f"this machine has CJK fonts ({', '.join(fonts)}): the screens were compared with them")
    assert fonts == []


# -- a phone's screen ------------------------------------------------------------------------

PHONE = {"width": 360, "height": 740}


def fits(page: Page, board: Board) -> None:
    """No sideways scroll, and the whole board in view once scrolled to."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
        " document.body.scrollWidth]")
    assert max(widths[0], widths[2]) <= widths[1], f"scrolls sideways: {widths[0]}, {widths[2]} > {widths[1]}"
    box = board.box("#board svg")
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, box


def test_a_phone_plays_chess_shogi_and_xiangqi_by_taps(browser: Browser, server: str) -> None:
    """At 360 x 740 with a touch screen: no sideways scroll, each board wholly in view, and a
    move of each game played by two taps (python-chess's FEN, python-shogi's board, pyffish's
    xiangqi FEN), a chess move by a finger's drag, which does not scroll the page."""
    import pyffish  # noqa: PLC0415
    import shogi  # noqa: PLC0415

    with opened(browser, server + "/", width=PHONE["width"], height=PHONE["height"], touch=True) as page:
        board = load(page, "chess")
        fits(page, board)
        shoot(page, "phone-chess-start")
        expected = chess.Board()
        for uci in ("e2e4", "e7e5", "g1f3"):
            offered = board.tap_move(uci[:2], uci[2:])
            assert offered == sorted(chess.square_name(move.to_square) for move in expected.legal_moves
                                     if chess.square_name(move.from_square) == uci[:2])
            expected.push_uci(uci)
            board.expect(expected.fen())
        # A finger's drag plays too, and does not scroll the page meanwhile.
        scrolled = page.evaluate("() => [window.scrollX, window.scrollY]")
        assert board.touch_drag("b8", "c6") == ["a6", "c6"]
        expected.push_uci("b8c6")
        board.expect(expected.fen())
        assert page.evaluate("() => [window.scrollX, window.scrollY]") == scrolled
        fits(page, board)
        shoot(page, "phone-chess-after-nf3")

        board = load(page, "shogi")
        fits(page, board)
        before = board.fen
        board.tap_move("c3", "c4")  # 7g7f, USI's
        board.wait_changed(before, "data-fen")
        position = shogi.Board()
        position.push_usi("7g7f")
        assert board.fen is not None and board.fen.split("[")[0] == position.sfen().split()[0]
        assert board.last() == (["c3"], ["c4"])
        shoot(page, "phone-shogi")

        board = load(page, "xiangqi")
        fits(page, board)
        board.tap_move("h3", "e3")
        board.expect(pyffish.get_fen("xiangqi", pyffish.start_fen("xiangqi"), ["h3e3"]))
        shoot(page, "phone-xiangqi")
    assert SHOTS.exists()
