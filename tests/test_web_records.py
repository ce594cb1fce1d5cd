"""The explorer's records (ggn.web._records): ``POST /api/record`` brings a game in from a PGN,
KIF or CSA record, ``POST /api/export`` takes one out.

The records read are real files (tests/data/pgn, tests/data/shogi: their sources are named in
their READMEs); what the explorer reads in them is checked against python-chess (PGN: every
move of every game and the final position) and cshogi (KIF and CSA: the moves, in USI). What it
writes is read back by python-chess (PGN: the same positions) and by cshogi and ggn.records (KIF,
CSA). A record it cannot read is answered 400 naming the line, and the ply and move where one
is at fault.
"""

from __future__ import annotations

import base64
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import chess.variant
import pytest
from starlette.testclient import TestClient

import ggn.web
from ggn import records
from ggn.cell import Cell
from ggn.game import Game
from ggn.notation import usi
from ggn.variants.registry import Catalogue
from ggn.web import Limits
from ggn.web._work import answer
from web_support import WIZARD, WIZARD_INI

cshogi = pytest.importorskip("cshogi")
cshogi_kif = pytest.importorskip("cshogi.KIF")

DATA = Path(__file__).parent / "data"
PGNS = sorted((DATA / "pgn").glob("*.pgn"))


def ask(route: str, body: dict[str, Any], limits: Limits | None = None) -> tuple[int, dict[str, Any]]:
    status, written = answer(route, json.dumps(body).encode(), None, limits or Limits())
    return status, json.loads(written)


def got(route: str, body: dict[str, Any]) -> dict[str, Any]:
    status, found = ask(route, body)
    assert status == 200, found
    return found


def file_body(path: Path, **more: Any) -> dict[str, Any]:
    """A request with a file's bytes, as the page sends a file chosen by its input."""
    return {"data": base64.b64encode(path.read_bytes()).decode("ascii"), **more}


def placement(fen: str) -> tuple[str, str, str]:
    """A FEN's board (crazyhouse's promoted marks left out), its pieces in hand, sorted, and the
    side to move: what python-chess and Fairy-Stockfish write alike."""
    board, turn = fen.split()[:2]
    board = board.replace("~", "")
    hand = ""
    if board.endswith("]"):
        board, hand = board[:-1].split("[")
    return board, "".join(sorted(hand)), turn


def python_chess_games(path: Path) -> list[chess.pgn.Game]:
    with path.open(encoding="utf-8-sig") as handle:
        found = []
        while (game := chess.pgn.read_game(handle)) is not None:
            found.append(game)
        return found


# -- bringing games in: PGN -------------------------------------------------------------------------

@pytest.mark.parametrize("path", PGNS, ids=[path.name for path in PGNS])
def test_every_game_of_the_real_pgn_files_as_python_chess_reads_it(path: Path) -> None:
    oracle = python_chess_games(path)
    first = got("record", file_body(path))
    assert first["format"] == "pgn" and len(first["games"]) == len(oracle) and first["more"] is False
    for index, expected in enumerate(oracle):
        found = first if index == 0 else got("record", file_body(path, index=index))
        assert (found["index"], found["number"]) == (index, index + 1)
        board = expected.board()
        assert placement(found["start"]["fen"]) == placement(board.fen())
        for move, played in zip(found["moves"], expected.mainline_moves(), strict=True):
            # (python-chess writes a pawn's drop '@f3', Fairy-Stockfish 'P@f3')
            assert move["san"].replace("P@", "@") == board.san(played), (path.name, index, move)
            board.push(played)
        assert placement(found["end"]["fen"]) == placement(board.fen())
        assert found["result"] == expected.headers.get("Result")
        tags = dict(found["tags"])
        for name in ("White", "Black", "Event"):
            assert tags.get(name) == expected.headers.get(name)
        variant = expected.headers.get("Variant")
        games = {None: "chess", "Crazyhouse": "crazyhouse", "fischerandom": "fischerandom"}
        assert found["game"] == games[variant]


def test_a_pgn_game_its_moves_in_every_form_the_page_needs() -> None:
    path = DATA / "pgn" / "knightvuillaume-jannlee-zh-lichess.pgn"
    found = got("record", {"text": path.read_text(encoding="utf-8")})
    (oracle,) = python_chess_games(path)
    board = oracle.board()
    game = Game("crazyhouse")
    for move, played in zip(found["moves"], oracle.mainline_moves(), strict=True):
        assert move["uci"] == played.uci()  # drops too: N@f6
        assert str(game.push(move["move"])) == move["move"]  # GGN's, as /api/play answers it
        board.push(played)
    assert placement(game.fen()) == placement(board.fen())
    commented = [move for move in found["moves"] if move["comments"]]
    assert commented and commented[0]["comments"][0].startswith("[%clk")
    assert found["variations"] > 0  # lichess's analysis: kept in the record, not played here
    assert any(move["nags"] for move in found["moves"])
    assert found["start"]["usual"] is True and found["game"] == "crazyhouse"


def test_several_games_listed_and_one_chosen_by_its_index() -> None:
    path = DATA / "pgn" / "kasparov-deep-blue-1997.pgn"
    found = got("record", {"text": path.read_text(encoding="utf-8"), "index": 5})
    whites = [game["tags"]["White"] for game in found["games"][:2]]
    assert whites == ["Garry Kasparov", "Deep Blue (Computer)"]
    assert [game["plies"] for game in found["games"]] == [89, 89, 95, 111, 98, 37]
    assert found["number"] == 6 and len(found["moves"]) == 37 and found["result"] == "1-0"
    status, refused = ask("record", {"text": path.read_text(encoding="utf-8"), "index": 6})
    assert status == 400 and refused["error"] == "the record holds 6 games: 'index' is 0 to 5, not 6"


def test_a_pgn_game_that_names_no_variant_as_the_game_asked() -> None:
    found = got("record", {"text": "1. e4 e5 2. Nf3 Nc6 3. Bb5 *", "game": "kingofthehill"})
    assert found["game"] == "kingofthehill" and len(found["moves"]) == 5
    status, refused = ask("record", {"text": "1. e4 *", "game": "nosuchgame"})
    assert status == 404, refused


def test_a_start_position_and_a_game_that_ends() -> None:
    text = '[SetUp "1"]\n[FEN "7k/8/5QK1/8/8/8/8/8 w - - 0 1"]\n\n1. Qf8# 1-0\n'
    found = got("record", {"text": text})
    board = chess.Board("7k/8/5QK1/8/8/8/8/8 w - - 0 1")
    board.push_san("Qf8#")
    assert found["start"] == {"fen": "7k/8/5QK1/8/8/8/8/8 w - - 0 1",
                              "feen": found["start"]["feen"], "usual": False}
    assert placement(found["end"]["fen"]) == placement(board.fen())
    assert found["outcome"] == {"result": "1-0", "text": "first player wins by checkmate"}
    assert found["verdict"] == "1-0"


# -- bringing games in: KIF and CSA -----------------------------------------------------------------

def usi_moves(found: dict[str, Any]) -> list[str]:
    """The answer's moves (GGN's, as the page plays them) in USI."""
    game = Game(found["game"], fen=found["start"]["fen"])
    written = []
    for move in found["moves"]:
        position = game.position
        written.append(usi.write(game.rules, position, game.push(move["move"])))
    return written


@pytest.mark.parametrize("name", ["kifu-for-windows-kif-sjis.kif", "kifu-for-windows-kifu-utf8.kifu"])
def test_kif_files_as_cshogi_reads_them(name: str) -> None:
    path = DATA / "shogi" / name
    found = got("record", file_body(path))
    oracle = cshogi_kif.Parser.parse_file(str(path))
    assert found["format"] == "kif" and found["game"] == "shogi"
    assert usi_moves(found) == [cshogi.move_to_usi(move) for move in oracle.moves]
    assert found["moves"][0]["written"] == "２六歩(27)" and found["moves"][0]["san"] == "P-26"
    if oracle.endgame == "%TORYO":
        assert found["result"] == "投了" and found["verdict"] == ("1-0" if oracle.win == 1 else "0-1")
    else:
        assert found["result"] is None and not oracle.endgame
    board = cshogi.Board(oracle.sfen)
    for move in oracle.moves:
        board.push(move)
    assert found["end"]["fen"].split("[")[0] == board.sfen().split()[0]  # the same board


def test_a_csa_file_as_cshogi_reads_it() -> None:
    path = DATA / "shogi" / "kifu-for-windows-csa-sjis.csa"
    found = got("record", file_body(path))
    oracle = cshogi.Parser()
    oracle.parse_csa_str(path.read_bytes().decode("cp932"))
    assert found["format"] == "csa" and found["moves"][0]["written"] == "+2726FU"
    assert usi_moves(found) == [cshogi.move_to_usi(move) for move in oracle.moves]
    assert found["moves"][0]["clock"] == "T0" and found["result"] is None


def test_the_format_named_wins_over_what_the_text_looks_like() -> None:
    text = (DATA / "shogi" / "kifu-for-windows-csa-sjis.csa").read_bytes().decode("cp932")
    status, refused = ask("record", {"text": text, "format": "kif"})
    assert status == 400 and refused["line"] is not None, refused
    status, refused = ask("record", {"text": text, "format": "sgf"})
    assert (status, refused["error"]) == (400, "'format' is one of pgn, kif, csa or null, not 'sgf'")


# -- faults: where and why ------------------------------------------------------------------------

def test_an_illegal_move_is_named_with_its_line_and_ply() -> None:
    text = '[Event "x"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Nf9 *\n'
    status, refused = ask("record", {"text": text})
    assert status == 400
    assert (refused["line"], refused["ply"], refused["move"], refused["number"]) == (5, 6, "Nf9", 1)
    assert refused["error"].startswith("game 1, ply 6 'Nf9' (line 5): 'Nf9' is not a legal move of chess")


@pytest.mark.parametrize(("body", "message"), [
    ({"text": "1. e4 {unclosed *\n"}, "game 1 (line 1): the comment opened at line 1 is not closed"),
    ({"text": '[Variant "nosuch"]\n\n1. e4 *'}, "its game 'nosuch' is not one ggn plays"),
    ({"text": "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 1-0"}, None),  # a result as written: taken
    ({"text": ""}, "the record holds no game"),
    ({}, "the request needs either 'text'"),
    ({"text": "1. e4", "data": "AA=="}, "the request needs either 'text'"),
    ({"data": "not base64!"}, "'data' is not base64"),
    ({"data": base64.b64encode(b"\0\1\2binary").decode()}, "it holds binary data"),
    ({"text": "1. e4 *", "index": -1}, "'index' must be a game's number"),
    ({"text": "1. e4 *", "index": True}, "'index' must be a game's number"),
    ({"text": 5}, "'text' must be a string"),
])
def test_what_is_refused_and_why(body: dict[str, Any], message: str | None) -> None:
    status, found = ask("record", body)
    if message is None:
        assert status == 200 and found["result"] == "1-0" and found["outcome"] is None
        return
    assert status == 400 and message in found["error"], found


def test_a_mate_the_record_contradicts() -> None:
    status, refused = ask("record", {"text": "1. f3 e5 2. g4 Qh4# 1-0"})
    assert status == 400 and "the second player won" not in refused["error"]
    assert "but the game ended in 0-1" in refused["error"] and refused["line"] == 1


def test_a_later_game_that_cannot_be_read_leaves_the_first() -> None:
    found = got("record", {"text": "1. e4 e5 *\n\n1. d4 {broken *\n"})
    assert len(found["moves"]) == 2 and len(found["games"]) == 1
    assert found["unread"] is not None and "line 3" in found["unread"]


def test_a_game_over_the_plies_limit() -> None:
    status, refused = ask("record", {"text": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 *"}, Limits(plies=4))
    assert (status, refused["limit"], refused["most"]) == (413, "plies", 4)


# -- taking games out -------------------------------------------------------------------------------

def random_game(name: str, plies: int, seed: int) -> Game:
    """A random game, quiet moves preferred (it lasts)."""
    game = Game(name)
    rng = random.Random(seed)
    for _ in range(plies):
        quiet = [play for play in game.legal_moves() if isinstance(play.move.destination, Cell)
                 and game.position.piece_at(play.move.destination) is None]
        legal = quiet or game.legal_moves()
        if not legal or game.outcome() is not None:
            break
        game.push(rng.choice(sorted(legal, key=str)))
    return game


def history_of(game: Game) -> dict[str, Any]:
    return {"start": game.fen(0), "moves": [str(play) for play in game.plays]}


@pytest.mark.parametrize(("name", "board"), [
    ("chess", chess.Board), ("crazyhouse", chess.variant.CrazyhouseBoard),
    ("atomic", chess.variant.AtomicBoard)])
def test_a_pgn_python_chess_reads_to_the_same_positions(name: str, board: type[chess.Board]) -> None:
    game = random_game(name, 60, 19)
    assert len(game) > 20
    found = got("export", {"game": name, "history": history_of(game), "at": 20,
                           "tags": {"White": "Ann", "Black": "Bob", "Result": "1-0"}})
    assert found["format"] == "pgn" and found["formats"] == ["pgn"] and found["unrecorded"] is None
    read = chess.pgn.read_game(io.StringIO(found["record"]))
    assert read is not None and not read.errors
    assert read.headers["White"] == "Ann" and read.headers["Result"] == game.result()  # the game's own
    assert isinstance(read.board(), board)
    replayed = read.board()
    for ply, move in enumerate(read.mainline_moves(), 1):
        replayed.push(move)
        if ply == 20:
            assert placement(replayed.fen()) == placement(found["fen"])
            assert found["fen"] == game.fen(20) and found["feen"] == game.feen(20)
    assert placement(replayed.fen()) == placement(game.fen())
    assert found["moves"]["uci"] == [move.uci() for move in read.mainline_moves()]
    assert (found["ply"], found["plies"]) == (20, len(game))


def test_a_pgn_from_a_start_position() -> None:
    start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    found = got("export", {"game": "chess", "history": {"start": start, "moves": ["e1g1", "e8c8"]}})
    read = chess.pgn.read_game(io.StringIO(found["record"]))
    assert read is not None and read.headers["FEN"] == start
    assert [read.board().san(move) for move in list(read.mainline_moves())[:1]] == ["O-O"]
    assert read.end().board().fen() == found["fen"] == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"


def test_shogi_as_kif_and_csa_that_cshogi_and_ggn_read_back() -> None:
    game = random_game("shogi", 80, 7)
    moves = [usi.write(game.rules, game.position_at(ply), play) for ply, play in enumerate(game.plays)]
    found = got("export", {"game": "shogi", "history": history_of(game), "tags": {"White": "Sente"}})
    assert found["format"] == "kif" and found["formats"] == ["kif", "pgn", "csa"]
    kif = found["record"]
    assert "先手\uff1aSente" in kif
    written = {name: got("export", {"game": "shogi", "history": history_of(game), "format": name})["record"]
               for name in ("csa", "pgn")}
    oracle = cshogi_kif.Parser.parse_str(kif.replace("不成", ""))  # (no 不成 in cshogi)
    assert [cshogi.move_to_usi(move) for move in oracle.moves] == moves
    fast = cshogi.Parser()
    fast.parse_csa_str(written["csa"])
    assert [cshogi.move_to_usi(move) for move in fast.moves] == moves
    for text in (kif, written["csa"], written["pgn"]):
        back = records.replay(next(records.read(text)))
        assert back.feen() == game.feen() and back.fen() == found["fen"]


def test_minishogi_as_kif_and_xiangqi_as_pgn_with_its_variant() -> None:
    found = got("export", {"game": "minishogi", "history": history_of(random_game("minishogi", 12, 3))})
    assert found["format"] == "kif" and found["formats"] == ["kif", "pgn"]
    assert found["record"].startswith("手合割\uff1a5五将棋")
    found = got("export", {"game": "xiangqi", "history": {"moves": ["h3e3", "h10g8"]}, "format": "pgn"})
    assert '[Variant "xiangqi"]' in found["record"] and found["record"].rstrip().endswith("1. Che3 Hg8 *")
    status, refused = ask("export", {"game": "xiangqi", "history": {"moves": []}, "format": "csa"})
    assert status == 422 and refused["error"].startswith("KIF and CSA record games of shogi's pieces")


def test_a_document_is_taken_out_as_feen_only() -> None:
    document = '{"C:K^": {"e1": {"e2": [{"must": {"e2": "empty"}}]}}}'
    found = got("export", {"document": document, "history": {"start": "8/8/8/8/8/8/8/4K^3 / C/c",
                                                             "moves": ["C:K^ e1-e2"]}})
    assert found["record"] is None and found["fen"] is None and "FEEN" in found["unrecorded"]
    assert found["feen"] == "8/8/8/8/8/8/4K^3/8 / c/C"
    assert found["moves"] == {"ggn": ["C:K^ e1-e2"], "uci": None} and found["formats"] == []


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"game": "chess", "history": {"moves": ["e2e4"]}, "at": 2}, 400, "'at' must be a ply of the game, 0 to"),
    ({"game": "chess", "history": {"moves": ["e2e5"]}}, 422, "the history's move 1"),
    ({"game": "chess", "tags": "White"}, 400, "'tags' must be an object"),
    ({"game": "chess", "tags": {"White": 5}}, 400, "'tags' must name each tag with a string"),
    ({"game": "chess", "format": "sgf"}, 400, "'format' is one of pgn, kif, csa"),
    ({"history": {}}, 400, "the request needs either 'game'"),
])
def test_what_export_refuses(body: dict[str, Any], status: int, message: str) -> None:
    found = ask("export", body)
    assert found[0] == status and message in found[1]["error"], found


def test_a_variant_of_an_ini_file_in_and_out_as_pyffish_plays_it() -> None:
    pyffish = pytest.importorskip("pyffish")
    catalogue = Catalogue()
    catalogue.add_ini(WIZARD_INI, "wizard.ini")
    pyffish.load_variant_config(WIZARD_INI)
    start = pyffish.start_fen(WIZARD)
    moves: list[str] = []
    rng = random.Random(5)
    for _ in range(16):
        legal = pyffish.legal_moves(WIZARD, start, moves)
        moves.append(rng.choice(sorted(legal)))
    sans = pyffish.get_san_moves(WIZARD, start, moves)
    text = f'[Variant "{WIZARD}"]\n\n' + " ".join(
        (f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + san for ply, san in enumerate(sans)) + " *\n"

    def ask_in(route: str, body: dict[str, Any]) -> dict[str, Any]:
        status, written = answer(route, json.dumps(body).encode(), catalogue, Limits())
        assert status == 200, written
        return dict(json.loads(written))

    found = ask_in("record", {"text": text})
    assert found["game"] == WIZARD and [move["uci"] for move in found["moves"]] == moves
    assert found["end"]["fen"] == pyffish.get_fen(WIZARD, start, moves)
    played = [move["move"] for move in found["moves"]]
    taken = ask_in("export", {"game": WIZARD, "history": {"moves": played}})
    assert f'[Variant "{WIZARD}"]' in taken["record"] and taken["fen"] == found["end"]["fen"]
    assert ask_in("record", {"text": taken["record"]})["end"] == found["end"]  # read back
    status, refused = ask("record", {"text": text})  # without the ini file: not a game ggn knows
    assert status == 400 and f"its game {WIZARD!r} is not one ggn plays" in refused["error"]


# -- through the server -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(ggn.web.create_app()) as made:
        yield made


def test_the_page_loads_the_records_and_engine_scripts(client: TestClient) -> None:
    page = client.get("/").text
    assert page.index('src="/static/app.js"') < page.index('src="/static/records.js"') < page.index(
        'src="/static/engine.js"')
    for name, route in (("records.js", "/api/record"), ("engine.js", "/api/analyse")):
        script = client.get(f"/static/{name}")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
        assert route in script.text and "window.ggn" in script.text


def test_the_routes_answer_through_the_server(client: TestClient) -> None:
    path = DATA / "pgn" / "molinari-bordais-1979.pgn"
    response = client.post("/api/record", json={"text": path.read_text(encoding="utf-8")})
    assert response.status_code == 200
    found = response.json()
    response = client.post("/api/export", json={"game": found["game"], "history": {
        "start": found["start"]["fen"], "moves": [move["move"] for move in found["moves"]]},
        "tags": dict(found["tags"])})
    assert response.status_code == 200
    taken = response.json()
    assert taken["fen"] == found["end"]["fen"]
    read = chess.pgn.read_game(io.StringIO(taken["record"]))
    assert read is not None and read.headers["White"] == dict(found["tags"])["White"]
    response = client.post("/api/record", json={"text": "1. e4 e5 2. Qh9 *"})
    assert response.status_code == 400 and response.json()["ply"] == 3
    response = client.post("/api/record", content=b"1. e4 *", headers={"Content-Type": "text/plain"})
    assert response.status_code == 400
