"""The explorer's page played as on a game site, in a real headless browser (Playwright driving
Debian's chromium, as test_web_browser does): a piece dragged with the mouse and by touch, an
illegal drop that changes nothing, a promotion chosen by its picture, the last move and the
king in check marked, the result, the history's plies and the arrow keys, input held while an
answer is awaited, a document error that leaves no stale board, and a phone-width screen with
no sideways scroll. The page's contract is docs/pictures.md's; positions are checked against
python-chess.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import chess
import pyffish
import pytest
import shogi

from browser_support import WAIT_MS, needs_chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page




pytestmark = needs_chromium


def opened(browser: Browser, server: str, **options: Any) -> Iterator[Page]:
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 800}, **options})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]")
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"the page's script failed: {errors}"


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    yield from opened(browser, server)


def idle(page: Page) -> None:
    """Wait until no answer is awaited."""
    page.wait_for_function("() => !document.getElementById('board').hasAttribute('data-busy')")


def load(page: Page, game: str, start: str | None = None, moves: list[str] | None = None) -> None:
    page.evaluate("([game, start, moves]) => ggn.load({subject: {game}, start, moves})",
                  [game, start, moves or []])
    idle(page)


def board_fen(page: Page) -> str:
    return str(page.get_attribute("#board", "data-fen"))


def wait_fen(page: Page, fen: str) -> None:
    page.wait_for_function("fen => document.getElementById('board').dataset.fen === fen", arg=fen)


def centre(page: Page, cell: str) -> tuple[float, float]:
    hit = page.locator(f'#board rect.square[data-square="{cell}"]')  # the square's hit target
    if not hit.count():
        hit = page.locator(f'#board rect[data-cell="{cell}"]')
    box = hit.first.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def cells(page: Page, attribute: str, value: str = "true") -> list[str]:
    """The squares whose hit target carries ``attribute`` (``data-target``, ``data-check``...)."""
    found = page.eval_on_selector_all(
        f'#board [{attribute}="{value}"]',
        "elements => elements.map(e => e.getAttribute('data-square') || e.getAttribute('data-cell'))")
    return sorted(set(found))


def drag(page: Page, source: str, destination: str, *, during: Any = None) -> None:
    """Drag with the mouse from ``source`` to ``destination``, in steps, as a hand does;
    ``during(page)`` is called while the piece is held over the destination."""
    x, y = centre(page, source)
    to_x, to_y = centre(page, destination)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + to_x) / 2, (y + to_y) / 2, steps=4)
    page.mouse.move(to_x, to_y, steps=4)
    if during is not None:
        during(page)
    page.mouse.up()


def test_a_chess_move_is_dragged_and_marked(page: Page) -> None:
    board = chess.Board()
    assert board_fen(page) == board.fen()
    seen: dict[str, Any] = {}

    def held(page: Page) -> None:
        # The piece follows the pointer; its destinations are marked while it is held.
        seen["targets"] = cells(page, "data-target")
        seen["dragged"] = page.locator("#board g.dragged").count()
        seen["marks"] = page.locator("#board .target-mark").count()

    drag(page, "e2", "e4", during=held)
    board.push_uci("e2e4")
    wait_fen(page, board.fen())
    idle(page)
    assert seen == {"targets": ["e3", "e4"], "dragged": 1, "marks": 2}
    assert cells(page, "data-last", "from") == ["e2"] and cells(page, "data-last", "to") == ["e4"]
    assert page.locator("#history button.ply").all_inner_texts() == ["e4"]
    assert page.get_attribute("#history button.ply", "data-ply") == "1"
    assert cells(page, "data-target") == []


def test_an_illegal_drop_changes_nothing(page: Page) -> None:
    start = board_fen(page)
    asked = page.evaluate("Number(document.body.getAttribute('data-answered') || 0)")
    drag(page, "e2", "e5")
    page.wait_for_timeout(300)
    assert board_fen(page) == start
    assert page.locator("#board g.dragged").count() == 0
    assert page.locator('#board g.piece[data-square="e2"]').get_attribute("data-piece") == "C:P"
    assert page.evaluate("Number(document.body.getAttribute('data-answered') || 0)") == asked  # nothing asked
    # A piece of the side not to move does not leave its square either.
    drag(page, "e7", "e5")
    page.wait_for_timeout(300)
    assert board_fen(page) == start


def test_a_move_is_dragged_by_touch(browser: Browser, server: str) -> None:
    phone = {"has_touch": True, "is_mobile": True, "viewport": {"width": 360, "height": 740}}
    for page in opened(browser, server, **phone):
        cdp = page.context.new_cdp_session(page)
        x, y = centre(page, "g1")
        to_x, to_y = centre(page, "f3")
        path = [(x, y), *((x + (to_x - x) * step / 5, y + (to_y - y) * step / 5) for step in range(1, 6))]
        for number, (at_x, at_y) in enumerate(path):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove" if number else "touchStart",
                                                  "touchPoints": [{"x": at_x, "y": at_y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        board = chess.Board()
        board.push_uci("g1f3")
        wait_fen(page, board.fen())
        assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_click_click_and_a_promotion_chosen_by_its_picture(page: Page) -> None:
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    load(page, "chess", fen)
    page.mouse.click(*centre(page, "a7"))
    assert cells(page, "data-target") == ["a8"]
    page.mouse.click(*centre(page, "a8"))
    page.wait_for_selector("#choices:not([hidden])")
    choices = page.locator("#choices button.choice")
    assert choices.count() == 4
    assert page.locator("#choices button.choice svg").count() == 4  # each a picture
    knight = page.locator('#choices button.choice[aria-label="white knight"]')
    assert knight.get_attribute("data-piece") == "C:N"
    knight.click()
    board = chess.Board(fen)
    san = board.san(chess.Move.from_uci("a7a8n"))
    board.push_uci("a7a8n")
    wait_fen(page, board.fen())
    assert page.locator("#choices").is_hidden()
    assert page.locator("#history button.ply").all_inner_texts() == [san] == ["a8=N"]


def test_checkmate_is_marked_and_the_result_shown(page: Page) -> None:
    moves = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]
    load(page, "chess", None, moves)
    drag(page, "h5", "f7")
    board = chess.Board()
    for san in [*moves, "Qxf7#"]:
        board.push_san(san)
    wait_fen(page, board.fen())
    idle(page)
    assert cells(page, "data-check") == ["e8"]
    assert page.get_attribute("#board", "data-result") == board.result() == "1-0"
    assert page.inner_text("#result") == "1-0, checkmate"
    assert page.locator("#history button.ply").all_inner_texts() == [*moves, "Qxf7#"]
    assert "1-0, checkmate" in page.inner_text("#history")


def test_the_history_s_plies_and_the_arrow_keys(page: Page) -> None:
    moves = ["e4", "e5", "Nf3", "Nc6"]
    load(page, "chess", None, moves)
    board = chess.Board()
    fens = [board.fen()]
    for san in moves:
        board.push_san(san)
        fens.append(board.fen())
    numbers = page.locator("#history .number").all_inner_texts()
    assert numbers == ["1.", "2."]
    page.click('#history button.ply[data-ply="2"]')
    wait_fen(page, fens[2])
    assert page.get_attribute('#history button.ply[data-ply="2"]', "aria-current") == "step"
    assert cells(page, "data-last", "to") == ["e5"]
    page.keyboard.press("ArrowLeft")
    wait_fen(page, fens[1])
    page.keyboard.press("Home")
    wait_fen(page, fens[0])
    page.keyboard.press("End")
    wait_fen(page, fens[4])
    assert page.evaluate("ggn.state().at") == 4
    assert page.evaluate("ggn.state().sans") == moves


def test_a_square_is_played_from_the_keyboard(page: Page) -> None:
    square = page.locator('#board [tabindex="0"]').first
    square.focus()
    for _ in range(8):  # to e2, wherever the focus starts: a8 is the first square drawn
        page.keyboard.press("ArrowDown")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "e2, white pawn"
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Space")
    board = chess.Board()
    board.push_uci("e2e4")
    wait_fen(page, board.fen())
    assert page.inner_text("#announce") == "White: e4"


def test_a_click_while_an_answer_is_awaited_is_held_not_lost(page: Page) -> None:
    # The load and a click on e7 in one go: the click comes while the answer is awaited, and
    # selects the pawn on the board the answer brings.
    busy = page.evaluate("""() => {
        ggn.load({subject: {game: "chess"}, moves: ["d4"]});
        const busy = document.getElementById("board").getAttribute("data-busy");
        const square = document.querySelector(
            '#board rect.square[data-square="e7"], #board rect[data-cell="e7"]');
        const options = {bubbles: true, pointerId: 1, button: 0, isPrimary: true};
        square.dispatchEvent(new PointerEvent("pointerdown", options));
        square.dispatchEvent(new PointerEvent("pointerup", options));
        return [busy, !document.getElementById("busy").hidden];
    }""")
    assert busy == ["true", True]
    idle(page)
    page.wait_for_function("() => document.querySelectorAll('#board [data-target=true]').length > 0")
    assert cells(page, "data-target") == ["e5", "e6"]


def test_a_document_error_leaves_no_stale_board(page: Page) -> None:
    assert page.locator("#board svg").count() == 1
    page.check("#mode-document")
    page.fill("#document", '{"C:K": {"e1": {"e2": [{"must": {"e2": "bad"}}]}}}')
    page.fill("#position", "8/8/8/8/8/8/8/4K3 / C/c")
    page.click("#load")
    page.wait_for_selector("#errors:not([hidden])")
    idle(page)
    assert page.locator("#board svg").count() == 0
    assert page.get_attribute("#board", "data-fen") is None
    assert page.get_attribute("#board", "data-feen") is None
    assert page.locator("#history button.ply").count() == 0


def test_the_letters_toggle(page: Page) -> None:
    load(page, "shogi")
    drawn = page.inner_html("#board svg")
    page.check("#letters")
    page.wait_for_function(
        "() => ggn.state().letters && !document.getElementById('board').hasAttribute('data-busy')")
    lettered = page.inner_html("#board svg")
    assert lettered != drawn
    assert page.evaluate("ggn.state().view.svg") == page.evaluate(
        "fetch('/api/view', {method: 'POST', headers: {'Content-Type': 'application/json'}, body:"
        " JSON.stringify({game: 'shogi', letters: true})}).then(r => r.json()).then(v => v.svg)")


@pytest.mark.parametrize("game", ["chess", "shogi", "xiangqi"])
def test_a_phone_wide_screen_does_not_scroll_sideways(browser: Browser, server: str, game: str) -> None:
    for page in opened(browser, server, viewport={"width": 360, "height": 740}):
        load(page, game)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        box = page.locator("#board svg").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["width"] > 300
        # A long error (a FEEN that is not one) wraps too.
        page.fill("#position", "x" * 300)
        page.click("#load")
        page.wait_for_selector("#errors:not([hidden])")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_details_stand_beside_the_board_on_a_wide_screen(page: Page) -> None:
    load(page, "shogi")
    board = page.locator("#board svg").bounding_box()
    details = page.locator("#details").bounding_box()
    assert board is not None and details is not None
    assert details["x"] >= board["x"] + board["width"]  # beside, not below
    assert board["y"] + board["height"] <= 800  # the whole board above the fold


def test_a_piece_in_hand_is_dragged_onto_the_board(page: Page) -> None:
    # Shogi: a pawn dropped by a drag from the hand, on the only file it may go to (python-shogi
    # agrees: no two pawns on a file); the board turned round first, which changes nothing.
    fen = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL[Pp] w 0 1"
    load(page, "shogi", fen)
    page.click("#flip")
    idle(page)
    board = shogi.Board("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1")
    assert shogi.Move.from_usi("P*5e") in board.legal_moves
    hand = page.locator('#board g.held[data-hand="first"][data-piece="S:P"]').bounding_box()
    assert hand is not None
    to_x, to_y = centre(page, "e5")
    page.mouse.move(hand["x"] + hand["width"] / 2, hand["y"] + hand["height"] / 2)
    page.mouse.down()
    page.mouse.move(to_x, to_y, steps=8)
    seen = cells(page, "data-target")
    page.mouse.up()
    page.wait_for_function("() => !document.querySelector('#board [data-hand=first]')")
    idle(page)
    assert "e5" in seen and "e9" not in seen
    assert page.locator('#board g.piece[data-square="e5"]').get_attribute("data-piece") == "S:P"
    assert cells(page, "data-last", "to") == ["e5"]
    assert page.locator("#history button.ply").all_inner_texts() == ["P*55"]


def test_a_promotion_dragged_then_cancelled_then_chosen(page: Page) -> None:
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    load(page, "chess", fen)
    drag(page, "a7", "a8")
    page.wait_for_selector("#choices:not([hidden])")
    page.click("#choice-cancel")
    assert page.locator("#board g.dragged").count() == 0
    assert page.locator("#board g.lifted").count() == 0
    assert board_fen(page) == fen
    drag(page, "a7", "a8")
    page.wait_for_selector("#choices:not([hidden])")
    page.click('#choices button.choice[aria-label="white queen"]')
    board = chess.Board(fen)
    board.push_uci("a7a8q")
    wait_fen(page, board.fen())
    assert cells(page, "data-check") == ["e8"]
    assert page.locator("#history button.ply").all_inner_texts() == ["a8=Q+"]


def test_xiangqi_is_played_by_clicks_exactly_on_the_intersections(page: Page) -> None:
    load(page, "xiangqi")
    start = pyffish.start_fen("xiangqi")
    for cell in ("h3", "e3"):
        # The point where the lines cross, which the square's hit target is centred on; the
        # grid's lines drawn there take no click.
        x, y = centre(page, cell)
        top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).tagName.toLowerCase()", [x, y])
        assert top == "rect"
        page.mouse.click(x, y)
    wait_fen(page, pyffish.get_fen("xiangqi", start, ["h3e3"]))
    idle(page)
    assert page.locator("#history button.ply").all_inner_texts() == [
        pyffish.get_san("xiangqi", start, "h3e3", False, pyffish.NOTATION_XIANGQI_WXF)]


def test_janggi_s_pass_is_a_second_click_not_a_drop_back(page: Page) -> None:
    load(page, "janggi")
    start = board_fen(page)
    x, y = centre(page, "e2")
    away_x, away_y = centre(page, "e3")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(away_x, away_y, steps=4)  # lifted, carried away and back, put down again
    page.mouse.move(x, y, steps=4)
    assert page.locator("#board g.dragged").count() == 1
    page.mouse.up()
    page.wait_for_timeout(300)
    assert board_fen(page) == start and page.locator("#board g.dragged").count() == 0
    assert cells(page, "data-target")  # still selected
    assert "(a pass" in page.inner_text('#moves li[data-destination="e2"]')
    page.mouse.click(*centre(page, "e2"))  # selected already: the second click passes
    page.wait_for_function("start => document.getElementById('board').dataset.fen !== start", arg=start)
    idle(page)
    fen = pyffish.start_fen("janggi")
    assert board_fen(page) == pyffish.get_fen("janggi", fen, ["e2e2"])


def test_shogi_s_squares_are_named_as_its_players_name_them(page: Page) -> None:
    load(page, "shogi")
    board = shogi.Board()
    for cell, usi in (("c3", "7g"), ("e1", "5i"), ("h8", "2b")):
        label = page.get_attribute(f'#board rect.square[data-square="{cell}"]', "aria-label")
        held = board.piece_at(shogi.SQUARE_NAMES.index(usi))
        assert held is not None
        side = "sente" if held.color == shogi.BLACK else "gote"
        kind = {shogi.PAWN: "pawn", shogi.KING: "king", shogi.BISHOP: "bishop"}[held.piece_type]
        assert label == f"{cell} ({usi[0]}{'abcdefghi'.index(usi[1]) + 1}), {side} {kind}"
