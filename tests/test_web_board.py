"""Whole games played on the explorer's board as a player plays them, in a real browser.

Each move is made with the mouse as a hand makes it: dragged (pressed on the centre of one
square, moved, released on another's) or clicked square by square; for xiangqi the click is
exactly on the intersection, where xiangqi players click. After every ply the page is checked
against a library that knows the answer, never against ggn itself:

- chess: a real game (Deep Blue against Kasparov, 1997, game 6, from tests/data/pgn) and a
  short one with en passant and a promotion chosen by its picture, against python-chess: the
  FEN, the last move's two squares, the king in check, the destinations shown while a piece is
  held, the history in SAN, and every ply of the history shown again;
- shogi: a game with drops from both hands, promotions taken and declined by their pictures,
  and checks, against python-shogi (the board, the hands, the side to move, the legal moves)
  and Fairy-Stockfish's notation (pyffish.get_san: Hodges's, the history's);
- xiangqi, clicked on its intersections, against pyffish's FEN and moves;
- a variant of an ``--ini`` file (tests/web_support.py's wizard), against pyffish reading the
  same file.

Records loaded and stepped through: a PGN and a KIF of tests/data, to the final position
python-chess and python-shogi give; and the games played copied out, as PGN that python-chess
reads back, as KIF and CSA that python-shogi and cshogi read back. Illegal drops leave the
position as it was.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import chess.pgn
import pytest
import shogi
import shogi.KIF

from browser_support import Board, needs_chromium, opened, shoot
from web_support import WIZARD, WIZARD_INI, running

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = needs_chromium

DATA = Path(__file__).parent / "data"


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    with opened(browser, server + "/") as ready:
        yield ready


def choose_game(page: Page, game: str) -> Board:
    """Load ``game``'s start with the page's own controls."""
    board = Board(page)
    page.select_option("#game", game)
    page.check("#mode-game")
    page.fill("#position", "")
    page.click("#load")
    board.page.wait_for_function(
        "game => document.getElementById('board').getAttribute('data-busy') !== 'true'"
        " && document.querySelector('#game').value === game", arg=game)
    return board


# -- chess ---------------------------------------------------------------------------------

def deep_blue_kasparov() -> chess.pgn.Game:
    """Game 6 of 1997 (37 plies, castling, checks, a resignation), as python-chess reads it."""
    with (DATA / "pgn" / "kasparov-deep-blue-1997.pgn").open(encoding="utf-8") as handle:
        games = []
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games[5]


def chess_targets(board: chess.Board, source: str) -> list[str]:
    square = chess.parse_square(source)
    return sorted({chess.square_name(move.to_square) for move in board.legal_moves
                   if move.from_square == square})


def check_chess_position(shown: Board, board: chess.Board, move: chess.Move | None) -> None:
    """The page shows python-chess's position: its FEN, its last move's squares, its check."""
    shown.expect(board.fen())
    if move is None:
        assert shown.last() == ([], [])
    else:
        assert shown.last() == ([chess.square_name(move.from_square)], [chess.square_name(move.to_square)])
    king = board.king(board.turn)
    assert shown.checks() == ([chess.square_name(king)] if board.is_check() and king is not None else [])


def test_a_real_chess_game_dragged_and_clicked_ply_by_ply(page: Page) -> None:
    """Deep Blue against Kasparov, game 6: white's moves dragged, black's clicked; at every
    ply the FEN, the last move, the check and the destinations offered are python-chess's; a
    drop on a square the piece cannot reach leaves the position; then the history is the
    game's SAN, and each of its plies shows its position again."""
    game = deep_blue_kasparov()
    board = game.board()
    shown = Board(page)
    check_chess_position(shown, board, None)
    # Illegal: a pawn three squares on, a bishop through its pawns, a black piece on white's
    # turn. Each leaves the start as it was, and marks nothing.
    for source, destination in (("e2", "e5"), ("c1", "e3"), ("e7", "e5")):
        shown.drag(source, destination)
        shown.still(board.fen())
        assert shown.last() == ([], [])
    fens = [board.fen()]
    sans = []
    for ply, move in enumerate(game.mainline_moves()):
        source, destination = chess.square_name(move.from_square), chess.square_name(move.to_square)
        expected = chess_targets(board, source)
        offered = shown.drag(source, destination) if ply % 2 == 0 else shown.click_move(source, destination)
        assert offered == expected, f"ply {ply + 1} {board.san(move)}: destinations of {source}"
        sans.append(board.san(move))
        board.push(move)
        fens.append(board.fen())
        check_chess_position(shown, board, move)
        assert shown.targets() == []
        if move.uci() == "e1g1":  # castled: the king's square and its destination
            assert shown.piece("g1") == "C:K^" and shown.piece("f1") is not None
        if ply == 18:  # 10.Bg6+: check on e8, and only there
            assert shown.checks() == ["e8"]
            shoot(page, "board-chess-check")
    assert len(sans) == 37 and sans[16] == "O-O" and sans[18] == "Bg6+"
    assert shown.history() == sans
    # Copied out: the game as PGN that python-chess reads back move for move, the FEN shown.
    copied = chess.pgn.read_game(io.StringIO(shown.copied("#copy-pgn")))
    assert copied is not None and list(copied.mainline_moves()) == list(game.mainline_moves())
    assert shown.copied("#copy-fen") == board.fen()
    # Mid-game, the king dragged where it cannot go: nothing is played.
    king = board.king(board.turn)
    assert king is not None
    source = chess.square_name(king)
    wrong = next(chess.square_name(square) for square in chess.SQUARES
                 if square != king and chess.square_name(square) not in chess_targets(board, source))
    shown.drag(source, wrong)
    shown.still(board.fen())
    for ply in [*range(len(fens) - 2, 0, -3), len(fens) - 1]:
        shown.show_ply(ply, fens[ply])
    shoot(page, "board-chess-deep-blue-kasparov")


def turned(page: Page, above: str) -> None:
    """Wait until e2's square is above (``<``) or below (``>``) e7's on the screen."""
    page.wait_for_function(
        "above => { const y = c => document.querySelector(`#board rect.square[data-square=${c}]`)"
        "?.getBoundingClientRect().y; const a = y('e2'), b = y('e7');"
        " return a !== undefined && b !== undefined && (above === '<' ? a < b : a > b)"
        " && document.getElementById('board').getAttribute('data-busy') !== 'true'; }", arg=above)


def test_en_passant_and_a_promotion_chosen_by_its_picture(page: Page) -> None:
    """1.e4 Nf6 2.e5 d5 3.exd6 (en passant) e6 4.dxc7 Qd7 5.cxb8=N: the pawn taken en passant
    leaves the board, the promotion is offered as four pictures, each named, and the knight
    chosen; python-chess's FEN and SAN. The first four plies are dragged on the board turned
    round (black at the bottom), the rest with white at the bottom again."""
    shown = Board(page)
    board = chess.Board()
    page.click("#flip")
    turned(page, "<")
    for san in ("e4", "Nf6", "e5", "d5"):
        move = board.parse_san(san)
        shown.drag(chess.square_name(move.from_square), chess.square_name(move.to_square))
        board.push(move)
        check_chess_position(shown, board, move)
    page.click("#flip")
    turned(page, ">")
    assert shown.piece("d5") == "c:-p"  # FEEN: a pawn that has just stepped two squares
    offered = shown.drag("e5", "d6")
    move = board.parse_san("exd6")
    assert board.is_en_passant(move) and offered == chess_targets(board, "e5") == ["d6", "e6", "f6"]
    board.push(move)
    check_chess_position(shown, board, move)
    assert shown.piece("d5") is None and shown.piece("d6") == "C:P"
    for san in ("e6", "dxc7", "Qd7"):
        move = board.parse_san(san)
        shown.click_move(chess.square_name(move.from_square), chess.square_name(move.to_square))
        board.push(move)
        check_chess_position(shown, board, move)
    offered = shown.drag("c7", "b8")
    assert offered == chess_targets(board, "c7") == ["b8"]
    shown.still(board.fen())  # nothing is played until a piece is chosen
    options = shown.choose(re.compile("knight", re.IGNORECASE))
    assert len({option["label"] for option in options}) == 4, options
    assert all(option["picture"] for option in options), options
    move = chess.Move.from_uci("c7b8n")
    board.push(move)
    check_chess_position(shown, board, move)
    assert shown.piece("b8") == "C:N"
    assert shown.history() == ["e4", "Nf6", "e5", "d5", "exd6", "e6", "dxc7", "Qd7", "cxb8=N"]
    shoot(page, "board-chess-en-passant-promotion")


# -- shogi ---------------------------------------------------------------------------------

SHOGI = ["c3c4", "g7g6", "b2h8+", "g9h8", "B@e5", "a7a6", "e5c7", "d9d8", "c7b8+", "B@e5", "b8e5", "i7i6",
         "R@d9", "e9f8", "d9c9+", "h8g7"]
"""Sixteen plies in Fairy-Stockfish's coordinates (ggn's cells: files a to i from the first
player's left, ranks 1 to 9 from the first player's side): bishops taken and dropped by both
sides, promotions taken (3. Bx22+, 9. Bx82+, 15. Rx71+) and declined (7. Bx73=), two checks
(7. Bx73=, 13. R*61)."""

FILES = "abcdefghi"


def usi_square(cell: str) -> str:
    """ggn's cell as USI writes it: files 9 to 1 from the first player's left, ranks a to i
    from the far side."""
    return f"{9 - FILES.index(cell[0])}{FILES[9 - int(cell[1:])]}"


def cell_of(square: int) -> str:
    usi = shogi.SQUARE_NAMES[square]
    return f"{FILES[9 - int(usi[0])]}{9 - FILES.index(usi[1])}"


def usi_move(move: str) -> str:
    if "@" in move:
        piece, cell = move.split("@")
        return f"{piece}*{usi_square(cell)}"
    return usi_square(move[:2]) + usi_square(move[2:4]) + move[4:]


def hand_counts(text: str) -> Counter[str]:
    """Pieces in hand as SFEN (``2Pb``) or ggn's FEN (``PPb``) write them."""
    counts: Counter[str] = Counter()
    for number, letter in re.findall(r"(\d*)([A-Za-z])", text):
        counts[letter] += int(number or 1)
    return counts


def shogi_state(fen: str | None) -> tuple[str, Counter[str], str]:
    """The board, the hands and the side to move ('b': the first player, sente, as SFEN has
    it) of ggn's shogi FEN (``placement[hands] w ...``, 'w' the first player)."""
    assert fen is not None
    placement, rest = fen.split("[", 1)
    hands, after = rest.split("]", 1)
    return placement, hand_counts(hands.replace("-", "")), {"w": "b", "b": "w"}[after.split()[0]]


def sfen_state(board: shogi.Board) -> tuple[str, Counter[str], str]:
    placement, side, hands, _ = board.sfen().split()
    return placement, hand_counts(hands.replace("-", "")), side


def shogi_targets(board: shogi.Board, source: str | None, piece: int | None = None) -> list[str]:
    """python-shogi's destinations of the piece on ``source``, or of a drop of ``piece``."""
    return sorted({cell_of(move.to_square) for move in board.legal_moves
                   if (move.from_square is not None and source is not None
                       and cell_of(move.from_square) == source)
                   or (source is None and move.drop_piece_type == piece)})


def test_a_shogi_game_with_drops_and_promotions_chosen_by_their_pictures(page: Page) -> None:
    """SHOGI, dragged and clicked (drops from the hands too): after every ply the board, the
    hands and the side to move are python-shogi's, the destinations shown its legal moves, the
    last move and the king in check marked; a promotion that may be taken or not is offered
    as two pictures, and nothing is played before one is chosen. The history is the game in
    Hodges's notation as Fairy-Stockfish writes it (pyffish.get_san) and as ggn.notation does."""
    import pyffish  # noqa: PLC0415

    from ggn.notation import default, parse, write  # noqa: PLC0415
    from ggn.variants import registry  # noqa: PLC0415

    shown = choose_game(page, "shogi")
    board = shogi.Board()
    assert shogi_state(shown.fen) == sfen_state(board)
    start = pyffish.start_fen("shogi")
    entry = registry.entry("shogi")
    position = entry.position()
    fens, sans, written = [shown.fen], [], []
    for ply, move in enumerate(SHOGI):
        side = "first" if ply % 2 == 0 else "second"
        before = pyffish.get_fen("shogi", start, SHOGI[:ply])
        legal = pyffish.legal_moves("shogi", before, [])
        sans.append(pyffish.get_san("shogi", before, move))
        play = parse(entry.rules, position, move if "@" not in move else usi_move(move))
        written.append(write(entry.rules, position, play, default(entry.rules)))
        position = position.apply(play.transition)
        usi = shogi.Move.from_usi(usi_move(move))
        if "@" in move:
            letter, destination = move.split("@")
            source = None
            at = shown.held(side, f"S:{letter}" if side == "first" else f"s:{letter.lower()}")
            expected = shogi_targets(board, None, usi.drop_piece_type)
        else:
            source, destination = move[:2], move[2:4]
            at = shown.centre(source)
            expected = shogi_targets(board, source)
        offered = shown.drag(at, destination) if ply % 2 == 0 else shown.click_move(at, destination)
        assert offered == expected, f"ply {ply + 1} {move}: destinations"
        if move[:4] in legal and move[:4] + "+" in legal:  # promotion optional: a choice
            shown.still(fens[-1])
            options = shown.choose(re.compile("^(?!.*unchanged)" if move.endswith("+") else "unchanged",
                                              re.IGNORECASE))
            assert len(options) == 2 and all(option["picture"] for option in options), options
        board.push(usi)
        shown.idle()
        assert shogi_state(shown.fen) == sfen_state(board), f"ply {ply + 1} {move}"
        fens.append(shown.fen)
        assert shown.last() == ([] if source is None else [source], [destination])
        king = board.king_squares[board.turn]
        assert shown.checks() == ([cell_of(king)] if board.is_check() else []), f"ply {ply + 1}"
        if ply == 6:
            shoot(page, "board-shogi-check")
    assert written == sans
    assert shown.history() == sans
    assert sans[2] == "Bx22+" and sans[4] == "B*55" and sans[6] == "Bx73="
    # Copied out as KIF and CSA: python-shogi and cshogi read back the game's moves in USI.
    usis = [usi_move(move) for move in SHOGI]
    (kif,) = shogi.KIF.Parser.parse_str(shown.copied("#copy-kif"))
    assert kif["moves"] == usis
    import cshogi.CSA  # noqa: PLC0415

    (csa,) = cshogi.CSA.Parser.parse_str(shown.copied("#copy-csa"))
    assert [cshogi.move_to_usi(move) for move in csa.moves] == usis
    for ply in (4, 9, 3):
        shown.show_ply(ply, fens[ply])
    shoot(page, "board-shogi-game")


# -- xiangqi -------------------------------------------------------------------------------

XIANGQI = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "e3e7", "c8e7", "b3e3", "b8e8", "e3e7",
           "e8e4", "e1e2", "h8h4", "b1c3", "e4e3", "e2e1", "h4h7", "h1h7", "h10h7", "c3e4", "e3e7"]
"""Twenty-two plies: central cannons, a cannon taking over its screen, a check (11. C5+4),
the general stepping out of its palace's centre and back, rooks taken."""


def king_square(fen: str, royal: str) -> str:
    """Where ``royal`` (a FEN letter) stands on a board of FEN ``fen`` (files a.., ranks 1..)."""
    rows = fen.split(maxsplit=1)[0].split("/")
    for index, row in enumerate(rows):
        file = 0
        for part in re.findall(r"\d+|\+?[A-Za-z]", row):
            if part.isdigit():
                file += int(part)
                continue
            if part == royal:
                return f"{chr(ord('a') + file)}{len(rows) - index}"
            file += 1
    raise AssertionError(f"no {royal} in {fen}")


def play_fairy(shown: Board, variant: str, moves: list[str], *, drag: bool) -> list[str]:
    """Play ``moves`` (Fairy-Stockfish's UCI) by clicks, or drags and clicks in turn; after
    each, the page's FEN, destinations, last move and check are pyffish's. The FENs shown."""
    import pyffish  # noqa: PLC0415

    start = pyffish.start_fen(variant)
    shown.expect(start)
    fens = [start]
    for ply, move in enumerate(moves):
        before = fens[-1]
        legal = pyffish.legal_moves(variant, before, [])
        assert move in legal
        source, destination = re.fullmatch(r"([a-z]\d+)([a-z]\d+)", move).groups()  # type: ignore[union-attr]
        expected = sorted({re.findall(r"[a-z]\d+", other)[1] for other in legal if other.startswith(source)
                           and re.findall(r"[a-z]\d+", other)[0] == source})
        disc = f'#board g.piece[data-square="{source}"] circle'
        if shown.page.locator(disc).count():  # xiangqi's: the disc centred where the click goes
            piece, centre = shown.box(disc), shown.centre(source)
            assert abs(piece["x"] + piece["width"] / 2 - centre[0]) < 0.5
            assert abs(piece["y"] + piece["height"] / 2 - centre[1]) < 0.5
        by_drag = drag and ply % 2 == 0
        offered = shown.drag(source, destination) if by_drag else shown.click_move(source, destination)
        assert offered == expected, f"ply {ply + 1} {move}: destinations of {source}"
        after = pyffish.get_fen(variant, start, moves[:ply + 1])
        shown.expect(after)
        fens.append(after)
        assert shown.last() == ([source], [destination])
        checked = pyffish.gives_check(variant, start, moves[:ply + 1])
        royal = "K" if after.split()[1] == "w" else "k"
        assert shown.checks() == ([king_square(after, royal)] if checked else []), f"ply {ply + 1} {move}"
    return fens


def test_xiangqi_clicked_exactly_on_its_intersections(page: Page) -> None:
    """XIANGQI, every move two clicks, each exactly on an intersection (the centre of the
    square's hit area, where the piece's disc is centred); pyffish's FEN, destinations, check
    and WXF notation."""
    import pyffish  # noqa: PLC0415

    shown = choose_game(page, "xiangqi")
    start = pyffish.start_fen("xiangqi")
    fens = play_fairy(shown, "xiangqi", XIANGQI, drag=False)
    # The history in the game's own notation: WXF's, as Fairy-Stockfish writes it.
    sans = [pyffish.get_san("xiangqi", fens[ply], move, False, pyffish.NOTATION_XIANGQI_WXF)
            for ply, move in enumerate(XIANGQI)]
    assert sans[:2] == ["C2=5", "H8+7"] and sans[10] == "C5+4"
    assert shown.history() == sans
    assert start == fens[0]
    # The general in check glows red around its disc, seen on the page (its disc covers most
    # of its cell: a glow the size of a chess square's is hidden under it).
    shown.show_ply(10, fens[10])
    assert shown.checks() == [] and red_around(shown, "e10") < 20
    shown.show_ply(11, fens[11])
    assert shown.checks() == ["e10"]
    assert red_around(shown, "e10") > 200
    shoot(page, "board-xiangqi-game")


def red_around(shown: Board, cell: str) -> int:
    """The red pixels seen on and around ``cell``'s square (a black piece on it)."""
    from PIL import Image  # noqa: PLC0415  (Pillow: the test extra)

    box = shown.box(f'#board rect.square[data-square="{cell}"]')
    margin = box["width"] * 0.3
    side = box["width"] + 2 * margin
    shot = shown.page.screenshot(clip={"x": box["x"] - margin, "y": max(0.0, box["y"] - margin),
                                       "width": side, "height": side})
    with Image.open(io.BytesIO(shot)) as picture:
        red, green, blue = (channel.tobytes() for channel in picture.convert("RGB").split())
    return sum(1 for r, g, b in zip(red, green, blue, strict=True) if r > g + 70 and r > b + 70)


def test_a_variant_of_an_ini_file_played_by_drag(browser: Browser) -> None:
    """The wizard variant of tests/web_support.py, served with ``--ini``: dragged and clicked
    in turn, against pyffish reading the same ini text."""
    import pyffish  # noqa: PLC0415

    from ggn.variants.registry import Catalogue  # noqa: PLC0415

    games = Catalogue()
    games.add_ini(WIZARD_INI, "wizard.ini")
    pyffish.load_variant_config(WIZARD_INI)
    moves = ["b1c3", "i8h6", "i1h3", "b8c6", "e2e4", "f7f5", "e4f5", "h6f5", "d1h5", "g7g6", "h5g6", "h7g6",
             "e1e7", "e8e7", "h3g5"]
    with running({"game": WIZARD}, catalogue=games) as url, opened(browser, url + "/") as page:
        shown = Board(page)
        assert shown.piece("b1") == "W:W"
        # A wizard cannot go two squares straight on.
        shown.drag("b1", "b3")
        shown.still(pyffish.start_fen(WIZARD))
        fens = play_fairy(shown, WIZARD, moves, drag=True)
        sans = [pyffish.get_san(WIZARD, fens[ply], move) for ply, move in enumerate(moves)]
        assert sans[12] == "Qxe7+"
        assert shown.history() == sans
        shown.show_ply(3, fens[3])
        shoot(page, "board-wizard-game")


# -- records brought in --------------------------------------------------------------------

def bring(page: Page, plies: int, *, text: str | None = None, path: Path | None = None) -> Board:
    """A record of ``plies`` moves pasted (``text``) or chosen as a file (``path``, its bytes
    as stored), loaded at its start; the keyboard's focus then left on the page."""
    if text is not None:
        page.fill("#record-text", text)
        page.click("#record-load")
    else:
        page.set_input_files("#record-file", str(path))
    page.wait_for_function(
        "plies => document.getElementById('board').getAttribute('data-busy') !== 'true'"
        " && document.querySelectorAll('#history button.ply').length === plies", arg=plies)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    return Board(page)


def step(shown: Board, key: str, value: str | None, attribute: str = "data-fen") -> None:
    shown.page.keyboard.press(key)
    shown.expect(value, attribute)


def replayed(name: str) -> tuple[str, list[str], list[str]]:
    """A PGN file of tests/data/pgn: its text, its positions' FENs and its SAN, as python-chess
    reads and replays it."""
    text = (DATA / "pgn" / name).read_text(encoding="utf-8")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    board = game.board()
    fens, sans = [board.fen()], []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
        fens.append(board.fen())
    return text, fens, sans


def test_a_pgn_stepped_through_by_keys_and_plies(page: Page) -> None:
    """Molinari against Bordais (1979, mate in ten plies), pasted: stepped through with the
    arrow keys, each position python-chess's, the mate marked and the result set at the end;
    then Nepomniachtchi against Ding (2023, 97 plies): its last ply and others clicked, the
    final position python-chess's."""
    text, fens, sans = replayed("molinari-bordais-1979.pgn")
    shown = bring(page, len(sans), text=text)
    shown.expect(fens[0])
    assert shown.history() == sans and sans[-1] == "Nd3#"
    assert shown.attribute("data-result") is None
    for ply in range(1, len(fens)):
        step(shown, "ArrowRight", fens[ply])
    assert shown.checks() == ["e1"] and shown.last() == (["b4"], ["d3"])
    assert shown.attribute("data-result")
    for ply in range(len(fens) - 2, 5, -1):
        step(shown, "ArrowLeft", fens[ply])
    assert shown.attribute("data-result") is None
    shoot(page, "board-pgn-molinari-ply-6")

    text, fens, sans = replayed("nepomniachtchi-liren-game1.pgn")
    shown = bring(page, len(sans), text=text)
    assert shown.history() == sans and len(sans) == 97
    shown.show_ply(97, fens[97])
    shown.show_ply(30, fens[30])
    step(shown, "ArrowRight", fens[31])
    shown.show_ply(97, fens[97])
    assert shown.last() == (["f3"], ["e3"]) and sans[-1] == "Ke3"  # 49. Ke3, from f3 (47. Kf3)
    shoot(page, "board-pgn-nepomniachtchi-ding")


def usi_fairy(usi: str) -> str:
    """A USI move in Fairy-Stockfish's coordinates (ggn's cells)."""
    def cell(square: str) -> str:
        return f"{FILES[9 - int(square[0])]}{9 - FILES.index(square[1])}"

    if "*" in usi:
        return f"{usi[0]}@{cell(usi[2:4])}"
    return cell(usi[:2]) + cell(usi[2:4]) + usi[4:]


def test_kif_records_stepped_through_to_python_shogi_s_end(page: Page) -> None:
    """Two records written by Kifu for Windows: the UTF-8 one pasted (19 plies, a pawn dropped
    at ply 17) stepped through with the arrow keys, every position python-shogi's (reading the
    record itself with shogi.KIF); the Shift_JIS one chosen as a file, its last ply clicked.
    The history in Hodges's notation, as Fairy-Stockfish writes it."""
    import pyffish  # noqa: PLC0415

    start = pyffish.start_fen("shogi")
    for name, pasted in (("kifu-for-windows-kifu-utf8.kifu", True), ("kifu-for-windows-kif-sjis.kif", False)):
        path = DATA / "shogi" / name
        (record,) = shogi.KIF.Parser.parse_file(str(path))
        board = shogi.Board(record["sfen"])
        states = [sfen_state(board)]
        for usi in record["moves"]:
            board.push_usi(usi)
            states.append(sfen_state(board))
        plies = len(states) - 1
        shown = (bring(page, plies, text=path.read_text(encoding="utf-8-sig")) if pasted
                 else bring(page, plies, path=path))
        moves = [usi_fairy(usi) for usi in record["moves"]]
        sans = [pyffish.get_san("shogi", pyffish.get_fen("shogi", start, moves[:ply]), move)
                for ply, move in enumerate(moves)]
        assert shown.history() == sans
        assert shogi_state(shown.fen) == states[0]
        if pasted:
            assert sans[16] == "P*56"
            for ply in range(1, len(states)):
                before = shown.feen
                shown.page.keyboard.press("ArrowRight")
                shown.wait_changed(before)
                assert shogi_state(shown.fen) == states[ply], f"{name}, ply {ply}"
                if ply == 17:
                    assert shown.last() == ([], ["e4"]) and shown.piece("e4") == "S:P"
        else:
            before = shown.feen
            shown.page.click(f'#history button.ply[data-ply="{plies}"]')
            shown.wait_changed(before)
            assert shogi_state(shown.fen) == states[-1]
        shoot(page, f"board-kif-{path.stem}")
