"""The explorer end to end, in a real headless browser: Playwright for Python driving Debian's
``chromium`` (never a browser Playwright downloads). The page is loaded from a uvicorn server
started here; clicks go through the page's script to the JSON API and back.

What the page shows is checked against other libraries where one knows the answer: the FEN
after a chess move and a promotion against python-chess, the drops of a shogi pawn against
python-shogi. Screenshots go to $GGN_SHOTS (default: ggn-shots in the system's temporary
directory), never into the repository.

Skipped, with the reason, only when no chromium is installed at all (``.ci/run`` installs it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import chess
import pytest
import shogi

from browser_support import SHOTS, WAIT_MS, needs_chromium
from ggn.variants import registry
from web_support import WIZARD, WIZARD_INI, running

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page




pytestmark = needs_chromium


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server + "/")
    opened.wait_for_selector("body[data-ready=true]")
    try:
        yield opened
    finally:
        context.close()
    assert not errors, f"the page's script failed: {errors}"


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def text(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text()


def targets(page: Page) -> list[str]:
    """The squares the page highlights as destinations, read from the picture's squares
    (ggn.svg: each square an element with data-cell)."""
    return sorted(page.eval_on_selector_all(
        "#board .target", "elements => elements.map(e => e.getAttribute('data-cell'))"))


def wait_feen(page: Page, feen: str) -> None:
    page.wait_for_function("feen => document.getElementById('feen').textContent === feen", arg=feen)


def square(page: Page, cell: str) -> Any:
    """The element a player clicks for a square: the picture's hit target for it
    (rect.square[data-square], on top of the pieces), else the square's own rect (data-cell).
    Pieces drawn on the board take no pointer events: a click on one is its square's."""
    hit = page.locator(f'#board rect.square[data-square="{cell}"]')
    return hit.first if hit.count() else page.locator(f'#board rect[data-cell="{cell}"]').first


def load(page: Page, *, game: str | None = None, document: str | None = None, position: str = "") -> None:
    if game is not None:
        page.select_option("#game", game)
    if document is not None:
        page.check("#mode-document")
        page.fill("#document", document)
    page.fill("#position", position)
    answered = answers(page)
    page.click("#load")
    wait_answer(page, answered)


def answers(page: Page) -> int:
    """How many answers of the server the page has received."""
    return int(page.evaluate("document.body.getAttribute('data-answered') || '0'"))


def wait_answer(page: Page, before: int) -> None:
    """Wait until the page has received and shown an answer after the ``before`` first."""
    page.wait_for_function("n => Number(document.body.getAttribute('data-answered') || 0) > n", arg=before)


def test_chess_pawn_shows_its_two_destinations_and_plays(page: Page) -> None:
    assert page.locator("#game").input_value() == "chess"
    assert len(page.locator("#game option").all()) == len(registry.names())
    start = registry.start("chess")
    assert text(page, "#feen") == start
    pawn = page.locator('#board g.piece[data-square="e2"]')
    assert pawn.get_attribute("data-piece") == "C:P"
    square(page, "e2").click()
    assert targets(page) == ["e3", "e4"]
    selected = page.eval_on_selector_all("#board .selected", "s => s.map(e => e.getAttribute('data-cell'))")
    assert selected == ["e2"]
    # The possibilities of the document that allow each destination.
    reasons = page.locator('#moves li[data-destination="e4"] .possibility').all_inner_texts()
    assert reasons == ["must: e3 empty, e4 empty; deny: nothing"]
    shoot(page, "chess-e2-selected")
    square(page, "e4").click()
    board = chess.Board()
    board.push_uci("e2e4")
    wait_feen(page, "+rnbq+k^bn+r/pppppppp/8/8/4-P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C")
    assert text(page, "#fen") == board.fen()
    assert plies(page) == ["e4"]  # in SAN
    assert targets(page) == []
    shoot(page, "chess-after-e4")


def plies(page: Page) -> list[str]:
    """The moves of the history, as the page writes them (SAN, or the game's own notation)."""
    return page.locator("#history button.ply").all_inner_texts()


def wait_fen(page: Page, fen: str) -> None:
    page.wait_for_function("fen => document.getElementById('fen').textContent === fen", arg=fen)


def test_undo_and_redo(page: Page) -> None:
    assert page.locator("#undo").is_disabled() and page.locator("#redo").is_disabled()
    board = chess.Board()
    fens = [board.fen()]
    for uci in ("g1f3", "g8f6"):
        square(page, uci[:2]).click()
        square(page, uci[2:]).click()
        board.push_uci(uci)
        fens.append(board.fen())
        wait_fen(page, fens[-1])
    page.click("#undo")
    wait_fen(page, fens[1])
    page.click("#undo")
    wait_fen(page, fens[0])
    assert text(page, "#feen") == registry.start("chess")
    assert page.locator("#undo").is_disabled() and not page.locator("#redo").is_disabled()
    page.click("#redo")
    wait_fen(page, fens[1])
    page.click("#redo")
    wait_fen(page, fens[2])
    assert page.locator("#redo").is_disabled()
    # A new move after an undo drops the moves undone.
    page.click("#undo")
    wait_fen(page, fens[1])
    square(page, "b8").click()
    square(page, "c6").click()
    board.pop()
    board.push_uci("b8c6")
    wait_fen(page, board.fen())
    assert page.locator("#redo").is_disabled()
    assert plies(page) == ["Nf3", "Nc6"]


def test_a_move_typed_in_any_notation_is_played(page: Page) -> None:
    """SAN, UCI and GGN's notation typed into the move box; the history in SAN, the FEN as
    python-chess has it; a move that is not legal says why and plays nothing."""
    board = chess.Board()
    for typed, uci in (("e4", "e2e4"), ("e7e5", "e7e5"), ("C:N g1-f3", "g1f3"), ("Nc6", "b8c6"),
                       ("Bb5", "f1b5"), ("a7a6", "a7a6")):
        page.fill("#move", typed)
        page.click("#play-move")
        board.push_uci(uci)
        wait_fen(page, board.fen())
        assert page.locator("#move").input_value() == ""
    assert plies(page) == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    page.fill("#move", "Qh5")
    page.press("#move", "Enter")
    page.wait_for_selector("#errors:not([hidden])")
    assert "'Qh5'" in text(page, "#error")
    assert text(page, "#fen") == board.fen() and page.locator("#move").input_value() == "Qh5"
    page.fill("#move", "Bxc6")
    page.press("#move", "Enter")
    board.push_san("Bxc6")
    wait_fen(page, board.fen())
    assert page.locator("#errors").is_hidden()
    assert plies(page)[-1] == "Bxc6"


def test_a_repetition_may_be_claimed_and_undo_forgets_it(page: Page) -> None:
    """The page sends the moves that led to the position: the third time the start comes back,
    the status says the draw may be claimed (python-chess agrees); undone, it says so no more."""
    board = chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        page.fill("#move", san)
        page.press("#move", "Enter")
        board.push_san(san)
        page.wait_for_function("n => document.querySelectorAll('#history button.ply').length === n",
                               arg=len(board.move_stack))
    assert board.is_repetition(3)
    assert text(page, "#status") == "White to move; may claim: draw by repetition"
    page.click("#undo")
    board.pop()
    wait_fen(page, board.fen())
    assert text(page, "#status") == "Black to move"
    page.click("#redo")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('claim')")


def test_promotion_offers_its_choices(page: Page) -> None:
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    load(page, game="chess", position=fen)
    assert text(page, "#fen") == fen
    square(page, "a7").click()
    assert targets(page) == ["a8"]
    square(page, "a8").click()
    page.wait_for_selector("#choices:not([hidden])")
    choices = page.locator("#choices button.choice")
    # Each choice is the picture of the piece it leaves (ggn.svg.piece), named for a screen reader.
    assert sorted(str(choice.get_attribute("data-piece")) for choice in choices.all()) == [
        "C:B", "C:N", "C:Q", "C:R"]
    assert sorted(str(choice.get_attribute("aria-label")) for choice in choices.all()) == [
        "white bishop", "white knight", "white queen", "white rook"]
    assert page.locator("#choices button.choice svg").count() == 4
    shoot(page, "chess-promotion-choices")
    page.click('#choices button[data-move="C:P a7-a8=C:N"]')
    board = chess.Board(fen)
    board.push_uci("a7a8n")
    wait_fen(page, board.fen())
    assert page.locator("#choices").is_hidden()


def test_shogi_drops_from_the_hand(page: Page) -> None:
    # Each side has a pawn in hand; the first player's 5th file has no pawn, so a pawn can be
    # dropped only there (no two pawns on a file), not on the last rank.
    fen = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL[Pp] w 0 1"
    load(page, game="shogi", position=fen)
    hand = page.locator('#board [data-hand="first"][data-piece="S:P"]')
    assert hand.get_attribute("data-count") == "1"
    hand.click()
    # python-shogi: the same position (its "b" is the first player), its pawn drops in USI.
    board = shogi.Board("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1")
    usi = [move.usi() for move in board.legal_moves if move.usi().startswith("P*")]
    # USI files run 9 to 1 from the first player's left, ranks a to i from the far side.
    expected = sorted(f"{'abcdefghi'[9 - int(m[2])]}{9 - 'abcdefghi'.index(m[3])}" for m in usi)
    assert targets(page) == expected
    shoot(page, "shogi-pawn-drops")
    square(page, "e5").click()
    board.push_usi("P*5e")
    page.wait_for_function("() => !document.querySelector('#board [data-hand=first]')")
    assert page.locator('#board [data-square="e5"][data-piece="S:P"]').count() == 1
    assert text(page, "#feen") == registry.entry("shogi").to_feen(
        "lnsgkgsnl/1r5b1/pppp1pppp/9/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL[p] b 0 1")


PIECES = """{
  "C:K": {
    "e1": {
      "e2": [{"must": {"e2": "empty"}}],
      "d1": [{"must": {"d1": "empty"}}, {"must": {"d1": "enemy"}}]
    }
  }
}"""


def test_a_pasted_document_is_played_under_the_generic_rule(page: Page) -> None:
    load(page, document=PIECES, position="8/8/8/8/8/8/8/4K3 / C/c")
    assert text(page, "#errors") == "" or page.locator("#errors").is_hidden()
    assert page.locator("#fen-label").is_hidden()
    # No terminal piece in play: the page says what the generic rule then does.
    assert page.locator("#note").is_visible()
    assert "names no terminal (^) piece" in text(page, "#note")
    square(page, "e1").click()
    assert targets(page) == ["d1", "e2"]
    # Only the possibility that holds is listed: d1 is empty, not an enemy.
    assert page.locator('#moves li[data-destination="d1"] .possibility').all_inner_texts() == [
        "must: d1 empty; deny: nothing"]
    square(page, "e2").click()
    wait_feen(page, "8/8/8/8/8/8/4K3/8 / c/C")
    assert text(page, "#status") == "Game over: first player wins by no legal move"


def _down(file: str) -> str:
    """A second-side rook's attacks from the top of ``file`` down to ranks 2 and 1, as JSON."""
    def empties(end: int) -> str:
        return "".join(f'"{file}{rank}": "empty", ' for rank in range(7, end, -1))
    return ", ".join(f'"{file}{end}": [{{"must": {{{empties(end)}"{file}{end}": "enemy"}}}}]'
                     for end in (1, 2))


ROYAL = ('{"C:K^": {"e1": {"d1": [{"must": {"d1": "empty"}}], "e2": [{"must": {"e2": "empty"}}], '
         '"f1": [{"must": {"f1": "empty"}}]}}, '
         f'"c:r": {{"d8": {{{_down("d")}}}, "e8": {{{_down("e")}}}, "f8": {{{_down("f")}}}}}}}')


def test_a_document_s_terminal_piece_is_kept_safe_and_its_end_shown(page: Page) -> None:
    load(page, document=ROYAL, position="4r3/8/8/8/8/8/8/4K^3 / C/c")
    assert page.locator("#note").is_hidden()
    assert text(page, "#status") == "First player to move (in check)"
    square(page, "e1").click()
    assert targets(page) == ["d1", "f1"]  # e2 is attacked by the rook on e8
    load(page, document=ROYAL, position="3rrr2/8/8/8/8/8/8/4K^3 / C/c")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
    assert text(page, "#status") == "Game over: second player wins by checkmate"


def test_a_faulty_document_shows_every_violation_with_its_pointer(page: Page) -> None:
    faulty = '{"C:K": {"e1": {"e2": [{"must": {"e2": "bad"}}], "z0": []}}, "x": 1}'
    load(page, document=faulty, position="8/8/8/8/8/8/8/4K3 / C/c")
    page.wait_for_selector("#errors:not([hidden])")
    pointers = page.locator("#violations .pointer").all_inner_texts()
    from ggn.errors import DocumentError  # noqa: PLC0415
    from ggn.ruleset import Ruleset  # noqa: PLC0415

    with pytest.raises(DocumentError) as caught:
        Ruleset.loads(faulty)
    assert pointers == [violation.path for violation in caught.value.violations]
    assert "/C:K/e1/e2/0/must/e2" in pointers and "/x" in pointers
    assert len(pointers) >= 3
    shoot(page, "document-violations")
    # A bad FEEN is shown too, with where it fails.
    load(page, document=PIECES, position="8/8/x / C/c")
    page.wait_for_selector("#errors:not([hidden])")
    assert "invalid FEEN" in text(page, "#error")


def test_the_board_is_the_library_picture_and_turns_round(page: Page) -> None:
    load(page, game="xiangqi")
    picture = page.locator("#board svg")
    assert picture.count() == 1
    assert page.locator("#board [data-piece]").count() == 32
    assert page.locator('#board g.piece[data-square="e1"]').get_attribute("data-piece") == "X:G^"

    def height(cell: str) -> float:
        return float(page.locator(f'#board [data-cell="{cell}"]').first.get_attribute("y") or "nan")

    assert height("e1") > height("e10")  # the first player at the bottom
    answered = answers(page)
    page.click("#flip")
    wait_answer(page, answered)
    assert height("e1") < height("e10")
    # The moves of a piece are the same, turned round or not: the cannon's, against pyffish's.
    square(page, "b3").click()
    import pyffish  # noqa: PLC0415

    fen = registry.entry("xiangqi").fen
    legal = pyffish.legal_moves("xiangqi", fen, [])
    assert targets(page) == sorted(move[2:] for move in legal if move.startswith("b3"))
    shoot(page, "xiangqi-flipped-cannon")


def test_an_optional_promotion_offers_the_piece_unchanged(page: Page) -> None:
    # Shogi: the bishop takes on h8, in the promotion zone, and may promote or not.
    fen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"
    load(page, game="shogi", position=fen)
    square(page, "b2").click()
    square(page, "h8").click()
    page.wait_for_selector("#choices:not([hidden])")
    buttons = page.locator("#choices button.choice")
    assert [button.get_attribute("aria-label") for button in buttons.all()] == [
        "sente bishop (unchanged)", "sente promoted bishop"]
    assert [button.get_attribute("data-piece") for button in buttons.all()] == ["S:B", "S:+B"]
    page.click('#choices button[data-move="S:B b2-h8"]')
    wait_feen(page, registry.entry("shogi").to_feen(
        "lnsgkgsnl/1r5B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b 0 1"))
    assert page.locator('#board [data-hand="first"]').get_attribute("data-piece") == "S:B"


def test_a_variant_of_an_ini_file_is_offered_drawn_and_played(browser: Browser) -> None:
    # ggn serve --ini: the file's variant beside the built-in games, its wizard (a piece of its
    # own) drawn and played by its rule system, against pyffish reading the same file.
    import pyffish  # noqa: PLC0415

    from ggn.variants.registry import Catalogue  # noqa: PLC0415

    games = Catalogue()
    games.add_ini(WIZARD_INI, "wizard.ini")
    pyffish.load_variant_config(WIZARD_INI)
    start = pyffish.start_fen(WIZARD)
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        with running({"game": WIZARD}, catalogue=games) as url:
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(url + "/")
            page.wait_for_selector("body[data-ready=true]")
            assert page.locator("#game").input_value() == WIZARD
            assert page.locator("#game option").all_inner_texts() == [*registry.names(), WIZARD]
            wait_fen(page, start)
            assert page.locator("#board [data-cell]").count() == 80
            wizard = page.locator('#board g.piece[data-square="b1"]')
            assert wizard.get_attribute("data-piece") == "W:W"
            square(page, "b1").click()
            legal = pyffish.legal_moves(WIZARD, start, [])
            assert targets(page) == sorted(move[2:] for move in legal if move.startswith("b1"))
            square(page, "c3").click()
            wait_fen(page, pyffish.get_fen(WIZARD, start, ["b1c3"]))
            shoot(page, "wizardcapa-after-b1c3")
    finally:
        context.close()
