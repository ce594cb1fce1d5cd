"""Records, links and the engine in the explorer's page, in a real headless browser (Playwright
driving Debian's chromium, as tests/test_web_browser.py does): a PGN pasted and stepped through,
a KIF file chosen, the copy buttons, a link that opens the game and position it holds, and the
engine's arrow, score and line beside the panel of the possibilities.

What the page shows is checked against other libraries: python-chess (the positions of a PGN's
plies, the PGN copied), cshogi (the positions of a KIF's plies). Screenshots go to
$GGN_SHOTS/records (default: ggn-shots in the system's temporary directory).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import chess
import chess.pgn
import pytest

from browser_support import SHOTS, WAIT_MS, needs_chromium
from ggn.variants import registry
from ggn.web import EngineSettings
from test_engine import FAIRY, STOCKFISH
from web_support import running

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

cshogi = pytest.importorskip("cshogi")
cshogi_kif = pytest.importorskip("cshogi.KIF")

pytestmark = needs_chromium

DATA = Path(__file__).parent / "data"
MOLINARI = DATA / "pgn" / "molinari-bordais-1979.pgn"
KIF = DATA / "shogi" / "kifu-for-windows-kif-sjis.kif"


def opened(browser: Browser, url: str, width: int = 1400, height: int = 1000) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height})
    origin = url.split("/#", maxsplit=1)[0].rstrip("/")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page, errors


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    shown, errors = opened(browser, server + "/")
    try:
        yield shown
    finally:
        shown.context.close()
    assert not errors, f"the page's script failed: {errors}"


def shoot(page: Page, name: str) -> None:
    where = SHOTS / "records"
    where.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(where / f"{name}.png"), full_page=True)


def board_fen(page: Page) -> str | None:
    return page.locator("#board").get_attribute("data-fen")


def wait_board(page: Page, attribute: str, value: str) -> None:
    page.wait_for_function(
        "([name, value]) => { const b = document.getElementById('board');"
        " return b.getAttribute(name) === value && b.getAttribute('data-busy') !== 'true'; }",
        arg=[attribute, value])


def plies(page: Page) -> list[str]:
    return page.locator("#history button.ply").all_inner_texts()


def square(page: Page, cell: str) -> Any:
    """The element that takes a square's clicks: the picture's top layer (rect.square), else the
    square's own rect."""
    top = page.locator(f'#board rect.square[data-square="{cell}"]')
    return top.first if top.count() else page.locator(f'#board rect[data-cell="{cell}"]').first


def clipboard(page: Page) -> str:
    return str(page.evaluate("navigator.clipboard.readText()"))


def fragment(page: Page) -> dict[str, str]:
    hash_ = str(page.evaluate("location.hash")).lstrip("#")
    return dict(part.split("=", 1) for part in hash_.split("&") if "=" in part)


def test_a_pasted_pgn_stepped_through(page: Page) -> None:
    text = MOLINARI.read_text(encoding="utf-8")
    game = chess.pgn.read_game(io.StringIO(MOLINARI.read_text(encoding="utf-8")))
    assert game is not None
    board = game.board()
    fens = [board.fen()]
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
        fens.append(board.fen())
    page.fill("#record-text", text)
    page.click("#record-load")
    page.wait_for_function("n => document.querySelectorAll('#history button.ply').length === n",
                           arg=len(sans))
    wait_board(page, "data-fen", fens[0])  # opened at its start
    assert plies(page) == sans
    info = page.locator("#record-info").inner_text()
    assert "PGN: chess, 10 plies" in info and "result as written: 0-1" in info
    for ply in (3, 10, 6):
        page.click(f'#history button.ply[data-ply="{ply}"]')
        wait_board(page, "data-fen", fens[ply])
    page.keyboard.press("ArrowRight")
    wait_board(page, "data-fen", fens[7])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_board(page, "data-fen", fens[5])
    shoot(page, "pgn-at-ply-5")
    link = fragment(page)
    assert link["game"] == "chess" and link["ply"] == "5" and "start" not in link
    assert [unquote(move) for move in link["moves"].split(",")] == sans


def test_one_game_of_a_file_of_six_chosen(page: Page) -> None:
    path = DATA / "pgn" / "kasparov-deep-blue-1997.pgn"
    page.set_input_files("#record-file", str(path))
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 89")
    assert page.locator("#record-game option").count() == 6 and page.locator("#record-games").is_visible()
    assert page.locator("#record-game option").nth(5).inner_text() == (
        "6. Deep Blue (Computer) - Garry Kasparov (IBM Man-Machine, New York USA, 1997.??.??), 1-0: 37 plies")
    page.select_option("#record-game", "5")
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 37")
    games = []
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    page.click('#history button.ply[data-ply="37"]')
    wait_board(page, "data-fen", games[5].end().board().fen())
    assert "game 6 of 6 in the file" in page.locator("#record-info").inner_text()


def test_a_lichess_games_comments_and_clocks_beside_its_moves(page: Page) -> None:
    page.set_input_files("#record-file", str(DATA / "pgn" / "knightvuillaume-jannlee-zh-lichess.pgn"))
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 48")
    page.click('#history button.ply[data-ply="1"]')
    page.wait_for_function("() => document.getElementById('record-comment').textContent"
                           " === '(time: 0:01:00)'")
    page.click('#history button.ply[data-ply="11"]')  # 6. O-O?, lichess's analysis after it
    page.wait_for_function("() => document.getElementById('record-comment').textContent.includes('Mistake')")
    comment = page.locator("#record-comment").inner_text()
    assert comment.startswith("(1.99 → 0.50) Mistake. Best move was e4.") and "[%" not in comment
    shoot(page, "lichess-comments")


def test_a_bad_record_says_where(page: Page) -> None:
    page.fill("#record-text", '[Event "x"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Nf9 *\n')
    before = board_fen(page)
    page.click("#record-load")
    page.wait_for_selector("#record-error:not([hidden])")
    message = page.locator("#record-error").inner_text()
    assert message.startswith("The record could not be loaded: game 1, ply 6 'Nf9' (line 5): 'Nf9' is not")
    assert page.locator("#record-error").get_attribute("data-line") == "5"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # the FEN in it wraps
    assert board_fen(page) == before
    shoot(page, "pgn-error")


def test_a_kif_file_in_shift_jis(page: Page) -> None:
    oracle = cshogi_kif.Parser.parse_file(str(KIF))
    boards = [cshogi.Board(oracle.sfen)]
    for move in oracle.moves:
        boards.append(boards[-1].copy())
        boards[-1].push(move)
    page.set_input_files("#record-file", str(KIF))
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 6")
    assert plies(page)[0] == "P-26"
    assert "KIF: shogi, 6 plies; result 0-1 (as written: 投了)" in page.locator("#record-info").inner_text()
    for ply in (6, 2):
        page.click(f'#history button.ply[data-ply="{ply}"]')
        page.wait_for_function(
            "sfen => (document.getElementById('board').getAttribute('data-fen') || '')"
            ".split('[')[0] === sfen",
            arg=boards[ply].sfen().split()[0])
    assert page.locator("#record-comment").inner_text() == "(time: 0:00/00:00:00)"  # written ( 0:00/...)
    shoot(page, "kif-at-ply-2")
    assert page.locator("#copy-kif").inner_text() == "Copy KIF"
    page.click("#copy-kif")
    page.wait_for_selector("#copied[data-copied=true]")
    kif = clipboard(page)
    assert page.locator("#copied").inner_text() == "Copied the KIF (6 plies)."
    read = cshogi_kif.Parser.parse_str(kif)
    assert [cshogi.move_to_usi(move) for move in read.moves] == [cshogi.move_to_usi(m) for m in oracle.moves]
    page.click("#copy-csa")
    page.wait_for_function("() => document.getElementById('copied').textContent.includes('CSA')")
    assert clipboard(page).startswith("V2.2\n")


def test_copy_the_pgn_the_fen_and_the_feen(page: Page) -> None:
    board = chess.Board()
    for move in ("e4", "c5"):
        page.fill("#move", move)
        page.click("#play-move")
        board.push_san(move)
        wait_board(page, "data-fen", board.fen())
    page.click("#copy-pgn")
    page.wait_for_selector("#copied[data-copied=true]")
    assert page.locator("#copied").inner_text() == "Copied the PGN (2 plies)."
    assert page.locator("#export-text").is_visible()
    read = chess.pgn.read_game(io.StringIO(clipboard(page)))
    assert read is not None and read.end().board().fen() == board.fen()
    shoot(page, "copied-pgn")
    page.click("#copy-fen")
    page.wait_for_function("() => document.getElementById('copied').textContent === 'Copied the FEN.'")
    assert clipboard(page) == board.fen()
    page.click("#copy-feen")
    page.wait_for_function("() => document.getElementById('copied').textContent === 'Copied the FEEN.'")
    assert clipboard(page) == page.locator("#board").get_attribute("data-feen")
    page.click("#copy-link")
    page.wait_for_function("() => document.getElementById('copied').textContent === 'Copied the link.'")
    assert clipboard(page).endswith("#game=chess&moves=e4,c5")


def test_a_link_opens_its_game_at_its_ply_and_follows_the_moves(browser: Browser, server: str) -> None:
    start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    url = f"{server}/#game=chess&start={start.replace(' ', '_')}&moves=e1g1,e8c8,a1a8&ply=2"
    page, errors = opened(browser, url)
    board = chess.Board(start)
    for move in ("e1g1", "e8c8"):
        board.push_uci(move)
    wait_board(page, "data-fen", board.fen())
    assert plies(page) == ["O-O", "O-O-O", "Ra8+"]
    # Written back in the game's own notation, the start as its FEN.
    page.wait_for_function("() => location.hash.includes('O-O')")
    link = fragment(page)
    assert (unquote(link["start"]).replace("_", " "), link["moves"], link["ply"]) == (
        start, "O-O,O-O-O,Ra8%2B", "2")
    # A move played at ply 2 drops the moves after it, and the link follows.
    page.fill("#move", "Kg2")
    page.click("#play-move")
    board.push_san("Kg2")
    wait_board(page, "data-fen", board.fen())
    page.wait_for_function("() => location.hash.endsWith('moves=O-O,O-O-O,Kg2')")
    shoot(page, "link-opened")
    reopened, more = opened(browser, str(page.evaluate("location.href")))
    wait_board(reopened, "data-fen", board.fen())
    page.context.close()
    reopened.context.close()
    assert not errors and not more


def test_a_link_of_shogi_in_usi_and_a_broken_link(browser: Browser, server: str) -> None:
    page, errors = opened(browser, f"{server}/#game=shogi&moves=7g7f,3c3d,8h2b%2B&ply=3")
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 3")
    assert plies(page) == ["P-76", "P-34", "Bx22+"]
    board = cshogi.Board()
    for move in ("7g7f", "3c3d", "8h2b+"):
        board.push_usi(move)
    assert (board_fen(page) or "").split("[")[0] == board.sfen().split()[0]
    page.context.close()
    page, more = opened(browser, f"{server}/#game=chess&moves=e4,e5,Ke3")
    page.wait_for_selector("#record-error:not([hidden])")
    assert "The link's game could not be opened" in page.locator("#record-error").inner_text()
    assert "Ke3" in page.locator("#record-error").inner_text()
    page.context.close()
    assert not errors and not more


def test_a_link_typed_into_the_address_bar(page: Page) -> None:
    pyffish = pytest.importorskip("pyffish")
    page.evaluate("location.hash = '#game=xiangqi&moves=h3e3,h10g8'")  # UCI, as Fairy-Stockfish writes it
    fen = pyffish.get_fen("xiangqi", pyffish.start_fen("xiangqi"), ["h3e3", "h10g8"])
    wait_board(page, "data-fen", fen)
    assert page.locator("#game").input_value() == "xiangqi"
    page.wait_for_function("() => location.hash.startsWith('#game=xiangqi&moves=')")
    assert len(plies(page)) == 2


def test_a_document_in_a_link(browser: Browser, server: str) -> None:
    document = '{"C:K^": {"e1": {"e2": [{"must": {"e2": "empty"}}]}}}'
    page, errors = opened(browser, server + "/")
    page.check("#mode-document")
    page.fill("#document", document)
    page.fill("#position", "8/8/8/8/8/8/8/4K^3 / C/c")
    page.click("#load")
    wait_board(page, "data-feen", "8/8/8/8/8/8/8/4K^3 / C/c")
    page.fill("#move", "C:K^ e1-e2")
    page.click("#play-move")
    wait_board(page, "data-feen", "8/8/8/8/8/8/4K^3/8 / c/C")
    page.wait_for_function("() => location.hash.includes('document=')")
    assert page.locator("#copy-records button").count() == 0  # no record format: FEEN only
    url = str(page.evaluate("location.href"))
    page.context.close()
    page, more = opened(browser, url)
    wait_board(page, "data-feen", "8/8/8/8/8/8/4K^3/8 / c/C")
    assert page.locator("#document").input_value() == document
    page.context.close()
    assert not errors and not more


def test_the_records_panel_at_a_phone_width(browser: Browser, server: str) -> None:
    page, errors = opened(browser, f"{server}/#game=chess&moves=e4,c5,Nf3&ply=2", width=360, height=740)
    wait_board(page, "data-fen", "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    page.fill("#record-text", MOLINARI.read_text(encoding="utf-8"))
    page.click("#record-load")
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 10")
    page.click("#copy-pgn")
    page.wait_for_selector("#copied[data-copied=true]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    shoot(page, "phone-records")
    page.context.close()
    assert not errors


# -- the engine beside the possibilities ------------------------------------------------------------

@pytest.fixture(scope="module")
def engine_server() -> Iterator[str]:
    if STOCKFISH is None:
        pytest.skip("needs Debian's stockfish (.ci/run installs it)")
    with running(engine=EngineSettings(STOCKFISH, movetime=200, name="Stockfish 15.1")) as url:
        yield url


def arrow(page: Page) -> Any:
    page.wait_for_selector("#board .engine-arrow", timeout=30_000)
    return page.locator("#board .engine-arrow")


def test_the_engines_arrow_score_and_line_beside_the_possibilities(browser: Browser,
                                                                   engine_server: str) -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 2"
    page, errors = opened(browser, f"{engine_server}/#game=chess&start={fen.replace(' ', '_')}")
    wait_board(page, "data-fen", fen)
    best = arrow(page).get_attribute("data-move")
    found = page.locator("#engine-answer").get_attribute("data-bestmove")
    assert found is not None and best == f"{found[:2]}-{found[2:4]}"
    board = chess.Board(fen)
    assert chess.Move.from_uci(found) in board.legal_moves
    score = page.locator("#engine-score")
    # The score from white's side, as lichess shows it: the engine's (black to move) turned round.
    engine_cp = int(page.evaluate("JSON.parse(document.getElementById('engine-answer').dataset.score).cp"))
    assert int(score.get_attribute("data-cp") or "x") == -engine_cp
    assert score.inner_text() == f"{'+' if -engine_cp >= 0 else '-'}{abs(engine_cp) / 100:.2f}"
    line = page.locator("#engine-pv").inner_text()
    assert line.startswith(f"2... {board.san(chess.Move.from_uci(found))}")
    # The possibilities of a piece shown beside the engine's panel.
    square(page, "g8").click()
    page.wait_for_selector('#moves li[data-destination="f6"]')
    assert page.locator("#engine").is_visible() and page.locator("#moves").is_visible()
    assert page.locator("#board .engine-arrow").count() == 1  # kept on the picture drawn again
    shoot(page, "engine-and-why")
    # A mate: the score is a mate, from white's side.
    page.context.close()
    page, more = opened(browser, f"{engine_server}/#game=chess&start=7k/8/5QK1/8/8/8/8/8_w_-_-_0_1")
    arrow(page)
    assert page.locator("#engine-score").inner_text() == "#1"
    assert page.locator("#engine-score").get_attribute("data-mate") == "1"
    page.context.close()
    assert not errors and not more


def test_the_engine_follows_a_loaded_record(browser: Browser, engine_server: str) -> None:
    page, errors = opened(browser, engine_server + "/")
    page.fill("#record-text", MOLINARI.read_text(encoding="utf-8"))
    page.click("#record-load")
    page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 10")
    page.click('#history button.ply[data-ply="9"]')
    board = chess.Board()
    game = chess.pgn.read_game(io.StringIO(MOLINARI.read_text(encoding="utf-8")))
    assert game is not None
    for move in list(game.mainline_moves())[:9]:
        board.push(move)
    wait_board(page, "data-fen", board.fen())
    page.wait_for_function("fen => document.getElementById('engine-answer').dataset.bestmove !== undefined"
                           " && document.getElementById('board').getAttribute('data-fen') === fen",
                           arg=board.fen())
    found = page.locator("#engine-answer").get_attribute("data-bestmove")
    assert found is not None and chess.Move.from_uci(found) in board.legal_moves
    assert page.locator("#engine-score").get_attribute("data-mate") == "-1"  # black mates next, as played
    shoot(page, "engine-record-ply-9")
    page.context.close()
    assert not errors


def test_a_drop_of_shogi_and_xiangqi_from_fairy_stockfish(browser: Browser) -> None:
    if FAIRY is None:
        pytest.skip("needs Debian's fairy-stockfish")
    with running(engine=EngineSettings(FAIRY, movetime=300)) as url:
        page, errors = opened(browser, f"{url}/#game=shogi&moves=7g7f,3c3d,8h2b%2B,3a2b")
        page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 4")
        drawn = arrow(page)
        assert drawn.count() == 1
        found = page.locator("#engine-answer").get_attribute("data-bestmove")
        assert found is not None and registry.names()
        assert page.locator("#engine-pv").inner_text().startswith("3. ")
        shoot(page, "engine-shogi")
        page.context.close()
        # Xiangqi: the arrow between intersections, its ends the engine's move's squares.
        page, more = opened(browser, f"{url}/#game=xiangqi&moves=h3e3")
        page.wait_for_function("() => document.querySelectorAll('#history button.ply').length === 1")
        drawn = arrow(page)
        found = page.locator("#engine-answer").get_attribute("data-bestmove") or ""
        ends = re.fullmatch(r"([a-i]\d+)([a-i]\d+)", found)
        assert ends is not None and drawn.get_attribute("data-move") == f"{ends[1]}-{ends[2]}"
        assert page.locator("#engine-pv").inner_text().startswith("1... ")
        shoot(page, "engine-xiangqi")
        page.context.close()
        assert not errors and not more
