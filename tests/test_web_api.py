"""The explorer's JSON API (ggn.web), through Starlette's TestClient, and where it listens.

The moves and positions it answers are checked against other libraries: python-chess (moves,
promotions, FEN and its counters after a game), pyffish (xiangqi's moves) and python-shogi
(shogi's moves, drops included). Bad input is answered 4xx with a message that says what is
wrong; a pasted document's faults come with their JSON Pointers, the library's own.
"""

from __future__ import annotations

import json
import random
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pyffish
import pytest
import shogi
from starlette.testclient import TestClient

import ggn.web
from ggn.errors import DocumentError
from ggn.rules import RuleSystem
from ggn.ruleset import Ruleset
from ggn.variants import registry
from ggn.web import Limits, _limits, _work
from ggn.web._explorer import Subject
from ggn.web._work import answer

KING = (
    '{"C:K": {"e1": {"e2": [{"must": {"e2": "empty"}}],'
    ' "d1": [{"must": {"d1": "empty"}}, {"must": {"d1": "enemy"}}]}}}'
)
LONE_KING = "8/8/8/8/8/8/8/4K3 / C/c"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(ggn.web.create_app()) as made:
        yield made


def post(client: TestClient, path: str, body: Any) -> tuple[int, Any]:
    response = client.post(path, json=body)
    return response.status_code, response.json()


def ok(client: TestClient, path: str, body: Any) -> Any:
    status, answer = post(client, path, body)
    assert status == 200, answer
    return answer


def chess_moves(view: dict[str, Any]) -> set[str]:
    """The view's plays in UCI: source, destination and the promotion's letter."""
    out = set()
    for group in view["moves"]:
        for option in group["plays"]:
            choice = option["choice"]
            letter = "" if choice is None else choice.split(":")[1].lstrip("+-").rstrip("^").lower()
            out.add(group["source"] + group["destination"] + letter)
    return out


# -- the page -------------------------------------------------------------------------------

def test_the_page_its_script_and_style(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/app.js"' in page.text and 'href="/static/app.css"' in page.text
    script = client.get("/static/app.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert "/api/play" in script.text
    assert client.get("/static/app.css").headers["content-type"].startswith("text/css")
    missing = client.get("/static/../__init__.py")
    assert missing.status_code == 404
    assert client.get("/static/nothing.js").json() == {"error": "no file 'nothing.js'"}


def test_the_page_files_are_package_data() -> None:
    # They are read from the installed package, as the wheel ships them (setuptools takes every
    # file under src/ggn but the kernel's C sources: tests/test_packaging_wheel.py).
    static = Path(ggn.web.__file__).parent / "static"
    assert {path.name for path in static.iterdir()} >= {"index.html", "app.js", "app.css"}


def test_config_lists_every_built_in_game(client: TestClient) -> None:
    config = client.get("/api/config").json()
    assert config == {"games": list(registry.names()), "initial": {"game": "chess"}, "engine": None}
    with TestClient(ggn.web.create_app({"document": KING, "position": LONE_KING})) as other:
        assert other.get("/api/config").json()["initial"] == {"document": KING, "position": LONE_KING}


# -- games ----------------------------------------------------------------------------------

def test_chess_start(client: TestClient) -> None:
    view = ok(client, "/api/view", {"game": "chess"})
    assert view["feen"] == registry.start("chess")
    assert view["fen"] == chess.STARTING_FEN
    assert view["active"] == "first" and view["shape"] == [8, 8]
    assert view["check"] is False and view["outcome"] is None
    assert chess_moves(view) == {move.uci() for move in chess.Board().legal_moves}
    e2 = {group["destination"]: group["possibilities"] for group in view["moves"] if group["source"] == "e2"}
    assert e2 == {
        "e3": [{"must": {"e3": "empty"}, "deny": {}}],
        "e4": [{"must": {"e3": "empty", "e4": "empty"}, "deny": {}}],
    }
    assert len(view["board"]) == 32 and view["board"]["e1"] == "C:+K^"
    # The picture is the library's (ggn.svg), drawn with the game's glyphs.
    assert view["svg"] == registry.entry("chess").svg(view["feen"])
    assert view["unpictured"] is None
    flipped = ok(client, "/api/view", {"game": "chess", "flipped": True})
    assert flipped["svg"] == registry.entry("chess").svg(view["feen"], flipped=True) != view["svg"]


@pytest.mark.parametrize("fen", [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # castling both ways
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",  # promotions, with and without capture
    "4k3/8/8/8/8/8/8/4K2R w K - 12 40",
])
def test_chess_moves_are_python_chess_moves(client: TestClient, fen: str) -> None:
    view = ok(client, "/api/view", {"game": "chess", "position": fen})
    board = chess.Board(fen)
    assert view["fen"] == board.fen()
    assert (view["halfmove"], view["fullmove"]) == (board.halfmove_clock, board.fullmove_number)
    assert chess_moves(view) == {move.uci() for move in board.legal_moves}


def test_a_game_played_through_the_api_keeps_python_chess_fen(client: TestClient) -> None:
    board = chess.Board()
    body: dict[str, Any] = {"game": "chess"}
    game = ["e2e4", "d7d5", "e4d5", "g8f6", "g1f3", "f6d5", "f1c4", "c8e6", "e1g1", "d5b4", "c4e6", "f7e6"]
    for uci in game:
        view = ok(client, "/api/view", body)
        names = {group["source"] + group["destination"]: group["plays"][0]["move"] for group in view["moves"]}
        board.push_uci(uci)
        after = ok(client, "/api/play", {**body, "move": names[uci]})
        assert after["played"] == names[uci]
        assert after["fen"] == board.fen()
        assert after["transition"]["toggle"] is True
        body = {"game": "chess", "position": after["feen"], "halfmove": after["halfmove"],
                "fullmove": after["fullmove"]}
    assert ok(client, "/api/view", body)["fen"] == board.fen()


def test_a_move_is_read_in_any_notation_and_answered_in_san(client: TestClient) -> None:
    """A move typed in SAN (with or without its check mark), UCI or GGN's notation is played;
    the answer names it in SAN as python-chess writes it, and in GGN's notation."""
    board = chess.Board()
    body: dict[str, Any] = {"game": "chess"}
    rng = random.Random("explorer notations")
    for ply in range(60):
        if board.is_game_over():
            break
        move = rng.choice(list(board.legal_moves))
        san = board.san(move)
        if ply % 4 == 3 and move.promotion is None:
            view = ok(client, "/api/view", body)
            (typed,) = [group["plays"][0]["move"] for group in view["moves"]
                        if group["source"] + group["destination"] == move.uci()]
        else:
            typed = (san, move.uci(), san.rstrip("+#"), san)[ply % 4]
        after = ok(client, "/api/play", {**body, "move": typed})
        board.push(move)
        assert (after["san"], after["fen"]) == (san, board.fen()), typed
        assert after["played"][:2] in ("C:", "c:") and (ply % 4 != 3 or after["played"] == typed)
        body = {"game": "chess", "position": after["feen"], "halfmove": after["halfmove"],
                "fullmove": after["fullmove"]}


def test_a_shogi_move_typed_in_usi_or_hodges_is_played(client: TestClient) -> None:
    """USI (7g7f) and shogi's own notation (Bx22+) typed for shogi; the answer in shogi's
    notation as pyffish's get_san writes it, the FEN as its get_fen."""
    start = pyffish.start_fen("shogi")
    body: dict[str, Any] = {"game": "shogi"}
    played: list[str] = []
    for typed, uci in (("7g7f", "c3c4"), ("3c3d", "g7g6"), ("Bx22+", "b2h8+")):
        after = ok(client, "/api/play", {**body, "move": typed})
        assert after["san"] == pyffish.get_san("shogi", pyffish.get_fen("shogi", start, played), uci)
        played.append(uci)
        assert after["fen"] == pyffish.get_fen("shogi", start, played)
        body = {"game": "shogi", "position": after["feen"], "halfmove": after["halfmove"],
                "fullmove": after["fullmove"]}


def test_the_history_brings_the_ends_a_position_alone_does_not(client: TestClient) -> None:
    """A repetition is known from the moves that led to the position (python-chess says it may
    be claimed), the n-move rule from the halfmove clock; a history that does not lead to the
    position, or holds an illegal move, is refused; one over the limit 'plies' too."""
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
    board = chess.Board()
    body: dict[str, Any] = {"game": "chess"}
    played: list[str] = []
    for san in shuffle:
        after = ok(client, "/api/play", {**body, "move": san, "history": {"moves": played}})
        board.push_san(san)
        played.append(after["played"])
        assert after["claim"] == ("draw by repetition" if board.is_repetition(3) else None)
        body = {"game": "chess", "position": after["feen"], "halfmove": after["halfmove"],
                "fullmove": after["fullmove"]}
    assert after["claim"] == "draw by repetition" and after["outcome"] is None
    assert ok(client, "/api/view", {**body, "history": {"moves": played}})["claim"] == "draw by repetition"
    assert ok(client, "/api/view", body)["claim"] is None  # the position alone holds no repetition
    fifty = ok(client, "/api/play", {"game": "chess", "position": "4k3/8/8/8/8/8/8/R3K3 w Q - 99 80",
                                     "move": "Ra7"})
    board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 99 80")
    board.push_san("Ra7")
    assert board.can_claim_fifty_moves()
    assert (fifty["claim"], fifty["fen"]) == ("draw by the n-move rule", board.fen())
    status, answer = post(client, "/api/view", {**body, "history": {"moves": played[:-1]}})
    assert status == 422 and answer["error"].startswith("the history's 7 moves lead to ")
    status, answer = post(client, "/api/view", {**body, "history": {"moves": ["C:P e2-e5"]}})
    assert status == 422 and answer["error"].startswith("the history's move 1: ")
    status, answer = post(client, "/api/view", {**body, "history": {"moves": "e4"}})
    assert (status, answer) == (400, {"error": "'history': its moves must be a list of strings"})
    status, answer = post(client, "/api/view", {**body, "history": {"moves": [], "end": 1}})
    assert (status, answer) == (400, {"error": "'history' has no field 'end'"})


def test_a_history_over_the_limit_plies_is_refused() -> None:
    answered = answer("view", json.dumps({"game": "chess", "history": {"moves": ["e4"] * 3}}).encode(),
                      limits=Limits(plies=2))
    assert answered == (413, _work.dumps({
        "error": "the history has 3 moves, more than the explorer replays (2, its limit 'plies')",
        "limit": "plies", "most": 2}))


def test_promotion_choices_and_playing_one(client: TestClient) -> None:
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    view = ok(client, "/api/view", {"game": "chess", "position": fen})
    (group,) = [group for group in view["moves"] if group["source"] == "a7"]
    assert sorted(option["choice"] for option in group["plays"]) == ["C:B", "C:N", "C:Q", "C:R"]
    after = ok(client, "/api/play", {"game": "chess", "position": view["feen"], "move": "C:P a7-a8=C:R"})
    board = chess.Board(fen)
    board.push_uci("a7a8r")
    assert after["fen"] == board.fen()


def test_checkmate_is_the_outcome(client: TestClient) -> None:
    fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    view = ok(client, "/api/view", {"game": "chess", "position": fen})
    assert view["check"] is True and view["moves"] == []
    assert view["outcome"] == "second player wins by checkmate"


def test_xiangqi_moves_are_pyffish_moves(client: TestClient) -> None:
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    body: dict[str, Any] = {"game": "xiangqi", "position": fen}
    played: list[str] = []
    for uci in ["a1a2", "d10e9", "b3b10"]:  # the cannon takes the horse over a screen: check
        view = ok(client, "/api/view", body)
        moves = {group["source"] + group["destination"] for group in view["moves"]}
        assert moves == set(pyffish.legal_moves("xiangqi", fen, played))
        name = next(group["plays"][0]["move"] for group in view["moves"]
                    if group["source"] + group["destination"] == uci)
        after = ok(client, "/api/play", {**body, "move": name})
        played.append(uci)
        assert after["fen"] == pyffish.get_fen("xiangqi", fen, played)
        body = {"game": "xiangqi", "position": after["feen"], "halfmove": after["halfmove"],
                "fullmove": after["fullmove"]}
    view = ok(client, "/api/view", body)
    assert view["check"] is True and pyffish.gives_check("xiangqi", fen, played)
    assert {group["source"] + group["destination"] for group in view["moves"]} == set(
        pyffish.legal_moves("xiangqi", fen, played))


def test_shogi_moves_and_drops_are_python_shogi_moves(client: TestClient) -> None:
    fen = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL[Pp] w 0 1"
    view = ok(client, "/api/view", {"game": "shogi", "position": fen})
    assert view["hands"] == {
        "first": [{"piece": "S:P", "count": 1}], "second": [{"piece": "s:p", "count": 1}]}
    board = shogi.Board("lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1")

    def usi(location: str) -> str:
        if location == "*":
            return ""
        return f"{9 - 'abcdefghi'.index(location[0])}{'abcdefghi'[9 - int(location[1:])]}"

    ours = set()
    for group in view["moves"]:
        for option in group["plays"]:
            choice = option["choice"]
            promoted = "+" if choice is not None and choice.split(":")[1].startswith("+") else ""
            if group["source"] == "*":
                ours.add(f"{group['piece'].split(':')[1].upper()}*{usi(group['destination'])}")
            else:
                ours.add(usi(group["source"]) + usi(group["destination"]) + promoted)
    assert ours == {move.usi() for move in board.legal_moves}


def test_a_game_position_in_its_fen_or_feen(client: TestClient) -> None:
    fen = "4k3/8/8/8/8/8/8/4K2R b K - 7 31"
    by_fen = ok(client, "/api/view", {"game": "chess", "position": fen})
    assert (by_fen["fen"], by_fen["halfmove"], by_fen["fullmove"]) == (fen, 7, 31)
    by_feen = ok(client, "/api/view",
                 {"game": "chess", "position": by_fen["feen"], "halfmove": 7, "fullmove": 31})
    assert by_feen == by_fen
    # An empty position is the game's start.
    assert ok(client, "/api/view", {"game": "makruk", "position": "  "})["feen"] == registry.start("makruk")


# -- pasted documents -------------------------------------------------------------------------

def test_a_document_is_played_under_the_generic_rule(client: TestClient) -> None:
    body = {"document": KING, "position": LONE_KING}
    view = ok(client, "/api/view", body)
    assert view["game"] is None and view["fen"] is None and view["outcome"] is None
    assert view["moves"] == [
        {"piece": "C:K", "source": "e1", "destination": "e2",
         "possibilities": [{"must": {"e2": "empty"}, "deny": {}}],
         "plays": [{"move": "C:K e1-e2", "choice": None}]},
        {"piece": "C:K", "source": "e1", "destination": "d1",
         "possibilities": [{"must": {"d1": "empty"}, "deny": {}}],
         "plays": [{"move": "C:K e1-d1", "choice": None}]},
    ]
    # No terminal piece in the document or on the board: no move is illegal, and it says so.
    assert view["terminal"] is False and view["check"] is False
    assert view["note"] == Subject.document(KING).note
    assert "no terminal (^) piece" in view["note"] and "no play is ever illegal" in view["note"]
    after = ok(client, "/api/play", {**body, "move": "C:K e1-d1"})
    assert after["feen"] == "8/8/8/8/8/8/8/3K4 / c/C"
    assert after["transition"] == {"board_diff": {"e1": None, "d1": "C:K"}, "toggle": True}
    # The second player has no piece the document moves: no legal move, and the game is over.
    assert after["moves"] == [] and after["outcome"] == "first player wins by no legal move"
    # A capture: the possibility that holds is the "enemy" one, and the piece taken goes to the hand.
    view = ok(client, "/api/view", {"document": KING, "position": "8/8/8/8/8/8/8/3rK3 / C/c"})
    (d1,) = [group for group in view["moves"] if group["destination"] == "d1"]
    assert d1["possibilities"] == [{"must": {"d1": "enemy"}, "deny": {}}]
    after = ok(client, "/api/play", {"document": KING, "position": view["feen"], "move": "C:K e1-d1"})
    assert after["hands"]["first"] == [{"piece": "c:r", "count": 1}]


def _down(file: str) -> dict[str, list[dict[str, dict[str, str]]]]:
    """A second-side rook's moves from the top of ``file`` (8) down to ranks 2 and 1, onto an
    enemy piece only (its attacks, all the rule needs)."""
    return {f"{file}{end}": [{"must": {**{f"{file}{rank}": "empty" for rank in range(7, end, -1)},
                                       f"{file}{end}": "enemy"}}] for end in (1, 2)}


# A terminal king that steps to d1, e2 or f1, and rooks of the second player that take down a file.
ROYAL = json.dumps({
    "C:K^": {"e1": {cell: [{"must": {cell: "empty"}}] for cell in ("d1", "e2", "f1")}},
    "c:r": {f"{file}8": _down(file) for file in "def"},
})


@pytest.mark.parametrize(("rooks", "moves", "check", "outcome"), [
    ("3r4", {"C:K^ e1-e2", "C:K^ e1-f1"}, False, None),  # d1 is attacked
    ("4r3", {"C:K^ e1-d1", "C:K^ e1-f1"}, True, None),  # in check; e2 attacked too
    ("3rrr2", set(), True, "second player wins by checkmate"),
])
def test_a_document_with_a_terminal_piece_keeps_it_safe(client: TestClient, rooks: str, moves: set[str],
                                                        check: bool, outcome: str | None) -> None:
    """The generic rule: a play is illegal if the opponent can then move onto one of the mover's
    terminal pieces; a player with no legal play loses (by checkmate when attacked)."""
    position = f"{rooks}/8/8/8/8/8/8/4K^3 / C/c"
    view = ok(client, "/api/view", {"document": ROYAL, "position": position})
    assert view["terminal"] is True and view["note"] is None
    assert {play["move"] for group in view["moves"] for play in group["plays"]} == moves
    assert (view["check"], view["outcome"]) == (check, outcome)
    rules = RuleSystem(Ruleset.loads(ROYAL))  # the library's own rule system, the same answers
    assert {str(play) for play in rules.legal_moves(rules.position(position))} == moves


def test_an_illegal_play_of_a_document_names_the_legal_ones(client: TestClient) -> None:
    status, answer = post(client, "/api/play", {"document": ROYAL, "position": "3r4/8/8/8/8/8/8/4K^3 / C/c",
                                                "move": "C:K^ e1-d1"})
    assert (status, answer) == (422, {"error": (
        "'C:K^ e1-d1' is not a legal move of the document under the generic rule in "
        "'3r4/8/8/8/8/8/8/4K^3 / C/c'; legal moves: C:K^ e1-e2, C:K^ e1-f1")})


VALID = Path(__file__).parent / "vectors" / "ggn" / "valid"


@pytest.mark.parametrize(("name", "feen", "legal", "after"), [
    ("spec-11.1-basic.json", "8/8/8/8/8/8/8/R7 / C/c", ["C:R a1-a4"], "8/8/8/8/R7/8/8/8 / c/C"),
    ("spec-11.2-move-or-capture.json", "8/8/8/8/r7/8/8/R7 / C/c", ["C:R a1-a4"], "8/8/8/8/R7/8/8/8 r/ c/C"),
    ("spec-11.4-drop.json", "9/9/9/9/9/9/9/9/9 P/ S/s", ["S:P *-e5"], "9/9/9/9/4P4/9/9/9/9 / s/S"),
    ("spec-11.5-cannon.json", "9/9/4R4/9/9/9/9/9/9/9 / x/X", [], None),
    ("three-dimensional.json", "3//3//R2 / R/r", ["R:R a1A-a1B", "R:R a1A-a1C"], "3//R2//3 / r/R"),
])
def test_the_seeds_examples(client: TestClient, name: str, feen: str, legal: list[str],
                            after: str | None) -> None:
    """The seeds' example documents, played as ``ggn legal`` and ``ggn play`` play them (none
    names a terminal piece: the note says so)."""
    document = (VALID / name).read_text(encoding="utf-8")
    view = ok(client, "/api/view", {"document": document, "position": feen})
    assert [play["move"] for group in view["moves"] for play in group["plays"]] == legal
    assert view["terminal"] is False and view["note"]
    assert (view["outcome"] is None) == bool(legal)  # no move: the player to move has lost
    if not legal:
        winner = "first" if view["active"] == "second" else "second"
        assert view["outcome"] == f"{winner} player wins by no legal move"
    if after is not None:
        played = ok(client, "/api/play", {"document": document, "position": feen, "move": legal[0]})
        assert played["feen"] == after


def test_the_generated_chess_document(client: TestClient) -> None:
    """``ggn generate chess``'s document, played by the generic rule: chess's moves at the start
    (python-chess's), and the fool's mate is checkmate."""
    document = json.dumps(registry.entry("chess").document())
    start = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
    view = ok(client, "/api/view", {"document": document, "position": start})
    assert view["terminal"] is True and view["note"] is None
    assert chess_moves(view) == {move.uci() for move in chess.Board().legal_moves}
    position = start
    for move in ("C:P f2-f3", "c:p e7-e5", "C:P g2-g4", "c:q d8-h4"):
        view = ok(client, "/api/play", {"document": document, "position": position, "move": move})
        position = view["feen"]
    assert (view["check"], view["outcome"], view["moves"]) == (True, "second player wins by checkmate", [])


def test_a_faulty_document_gives_every_violation_with_its_pointer(client: TestClient) -> None:
    faulty = '{"C:K": {"e1": {"e2": [{"must": {"e2": "bad"}}], "z0": []}}, "x": 1}'
    status, answer = post(client, "/api/view", {"document": faulty, "position": LONE_KING})
    assert status == 422
    with pytest.raises(DocumentError) as caught:
        Ruleset.loads(faulty)
    expected = [{"path": v.path, "message": v.message} for v in caught.value.violations]
    assert answer == {
        "error": "invalid GGN document: 4 violations", "violations": expected, "truncated": False}
    assert [v["path"] for v in expected] == ["/C:K/e1/e2/0/must/e2", "/C:K/e1/z0", "/x", "/x"]


def test_a_document_that_is_not_json(client: TestClient) -> None:
    status, answer = post(client, "/api/view", {"document": '{"C:K": ', "position": LONE_KING})
    assert status == 422
    assert answer["violations"] and "line 1" in answer["violations"][0]["message"]


def test_a_board_too_large_to_draw_is_still_played() -> None:
    # 70,000 squares (allowed here, beyond the explorer's default limit): more than a picture
    # holds (ggn.svg.MAX_DRAWN_SQUARES), and the moves are there.
    from ggn import svg  # noqa: PLC0415

    feen = "K34999/35000 / C/c"  # two ranks of 35,000 squares, the king on a2
    document = '{"C:K": {"a2": {"b2": [{"must": {"b2": "empty"}}]}}}'
    status, written = answer("view", json.dumps({"document": document, "position": feen}).encode(),
                             limits=Limits(squares=100_000))
    view = json.loads(written)
    assert status == 200 and view["svg"] is None
    assert str(svg.MAX_DRAWN_SQUARES) in view["unpictured"].replace(",", "")
    assert [group["destination"] for group in view["moves"]] == ["b2"]


def test_a_document_needs_a_position(client: TestClient) -> None:
    status, answer = post(client, "/api/view", {"document": KING})
    assert (status, answer) == (422, {"error": "a pasted document has no start position: give one in FEEN"})


# -- bad requests -----------------------------------------------------------------------------

def test_a_bad_feen_says_where(client: TestClient) -> None:
    status, answer = post(client, "/api/view", {"game": "chess", "position": "8/8/x / C/c"})
    assert status == 422
    assert answer["error"].startswith("invalid FEEN '8/8/x / C/c': rank 1 has 1 square")
    status, answer = post(client, "/api/view", {"document": KING, "position": "K^ / C/c/x"})
    assert status == 422 and answer["error"].startswith("invalid FEEN")


def test_a_board_of_the_wrong_shape(client: TestClient) -> None:
    status, answer = post(client, "/api/view", {"game": "chess", "position": "9/9 / C/c"})
    assert status == 422
    assert answer["error"] == "chess is played on a board of 8x8 squares, not one of shape (9, 2)"


def test_a_position_in_another_games_styles(client: TestClient) -> None:
    shogi_styled = registry.start("chess").replace(" / C/c", " / S/s")
    assert post(client, "/api/view", {"game": "chess", "position": shogi_styled}) == (422, {
        "error": "chess is played in the styles C/c (first player/second player), not S/s"})


def test_an_unknown_game(client: TestClient) -> None:
    status, answer = post(client, "/api/view", {"game": "go"})
    assert status == 404 and answer["error"].startswith("no game 'go'; there are: chess, ")


def test_an_illegal_move(client: TestClient) -> None:
    status, answer = post(client, "/api/play", {"game": "chess", "move": "C:P e2-e5"})
    assert status == 422
    assert answer["error"].startswith("'C:P e2-e5' is not a legal move of chess in ")
    assert "legal moves: Na3, Nc3, Nf3, " in answer["error"]
    status, answer = post(client, "/api/play", {"document": KING, "position": LONE_KING, "move": "C:K e1-f1"})
    assert status == 422
    assert answer["error"] == ("'C:K e1-f1' is not a legal move of the document under the generic rule in "
                               "'8/8/8/8/8/8/8/4K3 / C/c'; legal moves: C:K e1-e2, C:K e1-d1")


@pytest.mark.parametrize(("body", "message"), [
    ({}, "the request needs either 'game' (a game's name) or 'document' (a GGN document's text)"),
    ({"game": "chess", "document": KING}, "the request needs either 'game'"),
    ({"game": 3}, "'game' must be a string, got int"),
    ({"game": "chess", "position": ["x"]}, "'position' must be a string, got list"),
    ({"game": "chess", "halfmove": -1}, "'halfmove' must be a whole number from 0 to 2147483647, got -1"),
    ({"game": "chess", "fullmove": True}, "'fullmove' must be a whole number"),
    ({"game": "chess", "fullmove": 2**40}, "'fullmove' must be a whole number"),
    ({"game": "chess", "flipped": "yes"}, "'flipped' must be true or false, got str"),
])
def test_requests_the_api_cannot_read(client: TestClient, body: dict[str, Any], message: str) -> None:
    status, answer = post(client, "/api/view", body)
    assert status == 400 and answer["error"].startswith(message)


# Each body would be answered otherwise: played, refused for its move, position, game or document.
_WORK = [
    ("/api/play", {"game": "chess", "move": "C:P e2-e4"}),
    ("/api/play", {"game": "chess", "move": "C:P e2-e5"}),
    ("/api/play", {"document": KING, "position": LONE_KING, "move": "C:K e1-e2"}),
    ("/api/view", {"game": "chess"}),
    ("/api/view", {"game": "chess", "position": "8/8/x / C/c"}),
    ("/api/view", {"game": "go"}),
    ("/api/view", {"document": "{"}),
    ("/api/play", {"game": "go", "move": "C:P e2-e4"}),
]


@pytest.mark.parametrize(("path", "body"), _WORK)
@pytest.mark.parametrize(("field", "value", "message"), [
    ("flipped", "yes", "'flipped' must be true or false, got str"),
    ("flipped", 1, "'flipped' must be true or false, got int"),
    ("halfmove", -1, "'halfmove' must be a whole number from 0 to 2147483647, got -1"),
    ("position", 3, "'position' must be a string, got int"),
])
def test_a_request_is_read_whole_before_any_work(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                 path: str, body: dict[str, Any], field: str,
                                                 value: Any, message: str) -> None:
    """A field the API cannot read is answered 400 whatever the rest of the request would
    give, and before a game is looked up, a document loaded, a position read or a move played
    (the work a worker does, run here, where it can be watched)."""
    assert post(client, path, {**body, field: value}) == (400, {"error": message})

    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("work done for a request the API cannot read")

    for name in ("play", "view"):
        monkeypatch.setattr(_work, name, refused)
    monkeypatch.setattr(Subject, "game", refused)
    monkeypatch.setattr(Subject, "document", refused)
    status, written = answer(path.rsplit("/", 1)[1], json.dumps({**body, field: value}).encode())
    assert (status, json.loads(written)) == (400, {"error": message})


def test_a_play_needs_its_move(client: TestClient) -> None:
    assert post(client, "/api/play", {"game": "chess"}) == (400, {"error": "the request needs 'move'"})
    assert post(client, "/api/play", {"game": "chess", "move": 1}) == (
        400, {"error": "'move' must be a string, got int"})


def test_bodies_that_are_not_json_objects(client: TestClient) -> None:
    response = client.post("/api/view", content=b'{"game": "chess"}', headers={"content-type": "text/plain"})
    assert response.status_code == 400
    assert response.json() == {"error": "the request's body must be JSON, sent as application/json"}
    response = client.post("/api/view", content=b"{", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("the request's body is not JSON")
    assert post(client, "/api/view", ["chess"]) == (
        400, {"error": "the request's body must be a JSON object"})
    assert client.get("/api/view").status_code == 405


def test_a_body_too_large() -> None:
    with TestClient(ggn.web.create_app(limits=Limits(body=100, workers=1))) as small:
        status, answer = post(small, "/api/view", {"document": KING, "position": LONE_KING})
        assert (status, answer) == (413, {
            "error": "the request's body is over 100 bytes (the explorer's limit 'body')",
            "limit": "body", "most": 100})
        assert post(small, "/api/view", {"game": "chess"})[0] == 200
    assert ggn.web.Limits().body == _limits.MAX_BODY == 16 * 1024 * 1024


# -- the extra, and where the server listens --------------------------------------------------

def test_without_the_extra_it_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ggn.web, "find_spec", lambda name: None if name == "uvicorn" else object())
    assert ggn.web.missing() == ("uvicorn",)
    with pytest.raises(ModuleNotFoundError, match=r"the explorer needs uvicorn: pip install 'ggn\[web\]'"):
        ggn.web.create_app()
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'ggn\[web\]'"):
        ggn.web.serve()


def test_serve_binds_to_this_machine_only_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn  # noqa: PLC0415

    bound: list[tuple[str, int]] = []
    ready: list[str] = []

    def run(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        bound.extend(listener.getsockname() for listener in sockets)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ggn.web.serve(port=port, ready=ready.append)
    assert bound == [("127.0.0.1", port)]
    assert ready == [f"http://127.0.0.1:{port}/"]
    assert (ggn.web.DEFAULT_HOST, ggn.web.DEFAULT_PORT) == ("127.0.0.1", 8000)
