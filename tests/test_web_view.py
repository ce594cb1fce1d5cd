"""What the explorer's answers tell the page about a position and the moves that led to it:
the FEN, the last move, the royal pieces in check, the result and its ending, and the history
in the game's own notation (``line``), checked against other libraries that know the answer:
python-chess (SAN, FEN, check, the result), python-shogi (check, the last move in USI) and
pyffish (WXF for xiangqi, shogi's ``P-76``, the FEN after each move).

The answers are asked of :func:`ggn.web._work.answer`, the function a worker runs for each
request, without a server: the routes' reading and writing are the API tests' (test_web_api).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import chess
import pyffish
import pytest
import shogi

from ggn import svg
from ggn.errors import GGNError
from ggn.variants import registry
from ggn.web import Limits
from ggn.web._explorer import notation_of, piece_names, players
from ggn.web._work import answer


def ask(route: str, body: dict[str, Any]) -> dict[str, Any]:
    status, written = answer(route, json.dumps(body).encode(), None, Limits(), None)
    value: dict[str, Any] = json.loads(written)
    assert status == 200, value
    return value


def refused(route: str, body: dict[str, Any]) -> tuple[int, str]:
    status, written = answer(route, json.dumps(body).encode(), None, Limits(), None)
    return status, json.loads(written)["error"]


def random_chess(seed: int, plies: int) -> chess.Board:
    """A random game of python-chess's, until it ends or has ``plies`` moves."""
    chosen = random.Random(seed)
    board = chess.Board()
    while len(board.move_stack) < plies and not board.is_game_over(claim_draw=False):
        board.push(chosen.choice(list(board.legal_moves)))
    return board


# -- chess, against python-chess -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_a_chess_history_is_written_in_python_chess_san(seed: int) -> None:
    board = random_chess(seed, 60)
    moves = [move.uci() for move in board.move_stack]
    view = ask("view", {"game": "chess", "history": {"moves": moves}, "line": True})
    replay = chess.Board()
    sans = []
    fens = []
    for move in board.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
        fens.append(replay.fen())
    assert [played["san"] for played in view["line"]] == sans
    entry = registry.entry("chess")
    assert [entry.from_feen(played["feen"]).split(" ")[0] for played in view["line"]] == [
        fen.split(" ")[0] for fen in fens]
    assert view["fen"] == board.fen()
    assert view["start"] == {"feen": registry.start("chess"), "halfmove": 0, "fullmove": 1,
                             "active": "first"}
    assert view["notation"] == "san" and view["players"] == ["white", "black"]


@pytest.mark.parametrize("seed", range(6))
def test_the_last_move_and_the_king_in_check_are_python_chess_s(seed: int) -> None:
    # Each position of a random game where python-chess sees a check, and a few others.
    board = random_chess(100 + seed, 80)
    moves = [move.uci() for move in board.move_stack]
    replay = chess.Board()
    asked = 0
    for ply, move in enumerate(board.move_stack, 1):
        replay.push(move)
        if not replay.is_check() and ply % 20:
            continue
        view = ask("view", {"game": "chess", "history": {"moves": moves[:ply]}})
        assert view["fen"] == replay.fen()
        assert view["last"] == [chess.square_name(move.from_square), chess.square_name(move.to_square)]
        king = replay.king(replay.turn)
        in_check = replay.is_check() and king is not None
        assert view["checked"] == ([chess.square_name(king)] if in_check and king is not None else [])
        assert view["check"] is replay.is_check()
        asked += 1
    assert asked


def test_a_position_alone_has_no_last_move() -> None:
    view = ask("view", {"game": "chess", "position": "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"})
    assert view["last"] is None and view["checked"] == [] and view["result"] is None


@pytest.mark.parametrize(("moves", "result", "ending", "winner"), [
    (["f3", "e5", "g4", "Qh4#"], "0-1", "checkmate", "second"),
    (["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"], "1-0", "checkmate", "first"),
])
def test_a_chess_game_s_result(moves: list[str], result: str, ending: str, winner: str) -> None:
    board = chess.Board()
    for san in moves:
        board.push_san(san)
    view = ask("view", {"game": "chess", "history": {"moves": moves}, "line": True})
    assert view["result"] == board.result() == result
    assert (view["ending"], view["winner"]) == (ending, winner)
    assert view["checked"] == [chess.square_name(board.king(board.turn) or 0)]
    assert view["line"][-1]["san"] == moves[-1]


def test_a_stalemate_is_a_draw() -> None:
    fen = "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"
    board = chess.Board(fen)
    board.push_san("Qf7")
    assert board.is_stalemate()
    view = ask("view", {"game": "chess", "history": {"start": fen, "moves": ["Qf7"]}, "line": True})
    assert (view["result"], view["ending"], view["winner"]) == (board.result(), "stalemate", None)
    assert view["checked"] == [] and view["last"] == ["g6", "f7"]
    assert view["start"]["feen"] == ask("view", {"game": "chess", "position": fen})["feen"]


def test_a_play_answers_the_same_as_a_view_of_its_history() -> None:
    played = ask("play", {"game": "chess", "history": {"moves": ["f3", "e5", "g4"]}, "move": "d8h4"})
    viewed = ask("view", {"game": "chess", "history": {"moves": ["f3", "e5", "g4", "Qh4"]}})
    assert played["san"] == "Qh4#"
    for key in ("feen", "fen", "last", "checked", "result", "ending", "outcome", "svg", "moves"):
        assert played[key] == viewed[key], key


def test_a_history_and_a_position_must_agree() -> None:
    status, message = refused("view", {"game": "chess", "position": registry.start("chess"),
                                       "history": {"moves": ["e4"]}})
    assert status == 422 and "lead to" in message
    status, message = refused("view", {"game": "chess", "line": 1})
    assert (status, message) == (400, "'line' must be true or false, got int")
    status, message = refused("view", {"game": "chess", "letters": "yes"})
    assert (status, message) == (400, "'letters' must be true or false, got str")


def test_a_promotion_s_choices_are_pictures_of_the_pieces() -> None:
    view = ask("view", {"game": "chess", "position": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"})
    (group,) = [group for group in view["moves"] if group["source"] == "a7"]
    pieces = {option["piece"]: option for option in group["plays"]}
    assert sorted(pieces) == ["C:B", "C:N", "C:Q", "C:R"]
    for piece, option in pieces.items():
        assert option["picture"] == svg.piece(piece, families={"C": "chess"}, aliases={})
        assert option["move"] == f"C:P a7-a8={piece}"
    assert [view["names"][piece] for piece in sorted(pieces)] == [
        "white bishop", "white knight", "white queen", "white rook"]
    # A move without a choice carries no picture.
    (king,) = [group for group in view["moves"] if group["source"] == "e1" and group["destination"] == "d1"]
    assert king["plays"] == [{"move": "C:K^ e1-d1", "choice": None}]


def test_letters_draw_shogi_s_pieces_as_letters() -> None:
    drawn = ask("view", {"game": "shogi"})["svg"]
    lettered = ask("view", {"game": "shogi", "letters": True})["svg"]
    entry = registry.entry("shogi")
    assert lettered == entry.svg(None, letters=True) != drawn == entry.svg(None)


# -- shogi, against python-shogi and pyffish ------------------------------------------------

def usi_cell(usi: str) -> str:
    """A USI square (``7g``) as GGN's shogi names it: files a-i from the first player's left."""
    return f"{'abcdefghi'[9 - int(usi[0])]}{9 - 'abcdefghi'.index(usi[1])}"


def fsf_move(usi: str) -> str:
    """A USI move as Fairy-Stockfish's UCI writes it (``7g7f`` is ``c3c4``, ``P*5e`` is ``P@e5``)."""
    if usi[1] == "*":
        return f"{usi[0]}@{usi_cell(usi[2:4])}"
    return usi_cell(usi[:2]) + usi_cell(usi[2:4]) + usi[4:]


@pytest.mark.parametrize("seed", range(3))
def test_a_shogi_history_against_python_shogi_and_pyffish(seed: int) -> None:
    chosen = random.Random(seed)
    board = shogi.Board()
    moves: list[str] = []
    while len(moves) < 50 and not board.is_game_over():
        move = chosen.choice(list(board.legal_moves))
        moves.append(move.usi())
        board.push(move)
    view = ask("view", {"game": "shogi", "history": {"moves": moves}, "line": True})
    start = pyffish.start_fen("shogi")
    uci = [fsf_move(move) for move in moves]
    hodges = [pyffish.get_san("shogi", pyffish.get_fen("shogi", start, uci[:ply]), move, False,
                              pyffish.NOTATION_SHOGI_HODGES_NUMBER) for ply, move in enumerate(uci)]
    assert [played["san"] for played in view["line"]] == hodges
    assert view["notation"] == "shogi-hodges-number" and view["players"] == ["sente", "gote"]
    last = moves[-1]
    source = None if last[1] == "*" else usi_cell(last[:2])
    assert view["last"][1] == usi_cell(last[2:4])
    if source is not None:
        assert view["last"][0] == source
    else:
        assert view["last"][0] != view["last"][1]  # a drop: from the hand
    assert view["check"] is board.is_check()
    if board.is_check():
        king = board.king_squares[board.turn]
        assert view["checked"] == [usi_cell(shogi.SQUARE_NAMES[king])]
    else:
        assert view["checked"] == []


def test_a_shogi_check_is_python_shogi_s() -> None:
    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4b"]  # not a check
    board = shogi.Board()
    for move in moves:
        board.push_usi(move)
    view = ask("view", {"game": "shogi", "history": {"moves": moves}})
    assert view["check"] is board.is_check()
    checking = ["7g7f", "5c5d", "8h3c+"]  # the promoted bishop checks the king on 5a
    board = shogi.Board()
    for move in checking:
        board.push_usi(move)
    view = ask("view", {"game": "shogi", "history": {"moves": checking}, "line": True})
    assert board.is_check()
    assert view["checked"] == [usi_cell(shogi.SQUARE_NAMES[board.king_squares[board.turn]])] == ["e9"]
    assert view["last"] == [usi_cell("8h"), usi_cell("3c")]
    assert view["names"]["S:+B"] == "sente promoted bishop"


# -- xiangqi and the other notations --------------------------------------------------------

def test_xiangqi_s_history_is_in_wxf_as_pyffish_writes_it() -> None:
    start = pyffish.start_fen("xiangqi")
    chosen = random.Random(7)
    moves: list[str] = []
    for _ in range(30):
        legal = pyffish.legal_moves("xiangqi", start, moves)
        if not legal:
            break
        moves.append(chosen.choice(legal))
    view = ask("view", {"game": "xiangqi", "history": {"moves": moves}, "line": True})
    wxf = [pyffish.get_san("xiangqi", pyffish.get_fen("xiangqi", start, moves[:ply]), move, False,
                           pyffish.NOTATION_XIANGQI_WXF) for ply, move in enumerate(moves)]
    assert [played["san"] for played in view["line"]] == wxf
    assert view["fen"] == pyffish.get_fen("xiangqi", start, moves)
    assert view["players"] == ["red", "black"]
    assert view["names"]["X:G^"] == "red general" and view["names"]["x:a"] == "black advisor"


@pytest.mark.parametrize(("game", "notation"), [
    ("chess", "san"), ("shogi", "shogi-hodges-number"), ("xiangqi", "wxf"), ("minixiangqi", "wxf"),
    ("janggi", "janggi"), ("makruk", "san"), ("crazyhouse", "san"),
])
def test_each_game_s_notation(game: str, notation: str) -> None:
    assert notation_of(registry.entry(game)) == notation
    assert notation_of(None) == "ggn"


def test_a_document_s_players_and_pieces() -> None:
    assert players(None) == ["first player", "second player"]
    assert piece_names(None, ["C:K^", "c:r"]) == {"C:K^": "first player K", "c:r": "second player R"}
    document = '{"C:K^": {"e1": {"e2": [{"must": {"e2": "empty"}}]}}}'
    view = ask("view", {"document": document, "position": "8/8/8/8/8/8/8/4K^3 / C/c", "line": True})
    assert view["notation"] == "ggn" and view["line"] == [] and view["result"] is None
    played = ask("play", {"document": document, "history": {"start": "8/8/8/8/8/8/8/4K^3 / C/c", "moves": []},
                          "move": "C:K^ e1-e2"})
    assert played["san"] == "C:K^ e1-e2" and played["last"] == ["e1", "e2"]


# -- the picture's marks: svg.board(last=..., check=...) ----------------------------------

def test_the_picture_marks_the_last_move_and_the_check() -> None:
    fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    entry = registry.entry("chess")
    position = entry.rules.position(entry.to_feen(fen))
    picture = svg.board(position, last=("d8", "h4"), check=["e1"])
    hits = dict(re.findall(r'<rect class="square" data-square="(\w+)"([^>]*)>', picture))
    assert {cell for cell, more in hits.items() if "data-last" in more or "data-check" in more} == {
        "d8", "h4", "e1"}
    assert 'data-last="from"' in hits["d8"] and 'data-last="to"' in hits["h4"]
    assert 'data-check="true"' in hits["e1"] and "data-last" not in hits["e1"]
    assert len(re.findall(r'<rect class="last" data-cell="(d8|h4)"', picture)) == 2
    assert re.search(r'<circle class="check" data-cell="e1"[^>]*fill="url\(#ggn-check\)"', picture)
    assert '<radialGradient id="ggn-check">' in picture
    # Under the pieces: drawn before the first piece.
    assert picture.index('class="last"') < picture.index('class="piece"')
    assert picture.index('class="check"') < picture.index('class="piece"')
    # The compact picture (for PNG) tints them too, without the page's attributes.
    compact = svg.board(position, last=("d8", "h4"), check=["e1"], compact=True)
    assert compact.count(f'fill="{svg.LAST}"') == 2 and "url(#ggn-check)" in compact
    assert "data-last" not in compact and "data-check" not in compact
    # The view of the game that led there draws the same marks.
    view = ask("view", {"game": "chess", "history": {"moves": ["f3", "e5", "g4", "Qh4"]}})
    assert view["svg"] == entry.svg(view["feen"], last=("d8", "h4"), check=["e1"])


def test_a_drop_marks_only_its_square() -> None:
    position = registry.entry("shogi").rules.position(
        "lnsgk^gsnl/1r5b1/pppp1pppp/9/4P4/9/PPPP1PPPP/1B5R1/LNSGK^GSNL /p s/S")
    picture = svg.board(position, last=("*", "e5"))
    assert re.findall(r'data-square="(\w+)" data-last="(\w+)"', picture) == [("e5", "to")]
    view = ask("view", {"game": "shogi", "history": {
        "start": "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL[Pp] w 0 1", "moves": ["P*5e"]}})
    assert re.findall(r'data-square="(\w+)" data-last="(\w+)"', view["svg"]) == [("e5", "to")]


def test_marks_off_the_board_are_refused() -> None:
    position = registry.entry("chess").rules.position()
    with pytest.raises(GGNError, match="the last move's square i9 is not a square"):
        svg.board(position, last=("e2", "i9"))
    with pytest.raises(GGNError, match="the square in check e9 is not a square"):
        svg.board(position, check=["e9"])
    with pytest.raises(TypeError, match="last must be"):
        svg.board(position, last=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="check"):
        svg.board(position, check=3)  # type: ignore[arg-type]
