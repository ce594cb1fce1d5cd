"""``ggn replay`` and ``ggn record convert``: the contracts of issue 17, item 5.

The positions and ends printed are checked against python-chess (the final FEN of a real game,
its checkmate), the games before a bad one are printed before the error, which names the game,
the ply, the move as written and the line; JSON is one list, one object a game.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ggn.cli import run

# ruff: noqa: RUF001  (a KIF record is written with full-width colons)

chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")

DATA = Path(__file__).parent / "data" / "pgn"
MOLINARI = DATA / "molinari-bordais-1979.pgn"
LICHESS = DATA / "knightvuillaume-jannlee-zh-lichess.pgn"


def call(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin) if stdin is not None else None)
    return status, out.getvalue(), err.getvalue()


def _final_fen(path: Path) -> str:
    game = chess_pgn.read_game(io.StringIO(path.read_text(encoding="utf-8")))
    return str(game.end().board().fen())


def test_replay_prints_each_game_its_end_and_final_position() -> None:
    status, out, err = call("replay", str(MOLINARI))
    assert (status, err) == (0, "")
    assert out == ("game 1: chess, 10 plies, result 0-1; second player wins by checkmate\n"
                   f"  {_final_fen(MOLINARI)}\n")


def test_replay_json_is_one_list_with_an_object_a_game() -> None:
    text = MOLINARI.read_text(encoding="utf-8") + "\n" + '[Event "two"]\n1. e4 e5 2. Nf3 1/2-1/2\n'
    status, out, err = call("replay", "-", "--format", "json", stdin=text.encode())
    assert (status, err) == (0, "")
    first, second = json.loads(out)
    assert first == {
        "number": 1, "game": "chess",
        "moves": ["e4", "c5", "c4", "Nc6", "Ne2", "Nf6", "Nbc3", "Nb4", "g3", "Nd3#"],
        "fen": _final_fen(MOLINARI), "feen": first["feen"],
        "outcome": {"result": "0-1", "reason": "checkmate"}, "claim": None, "result": "0-1",
    }
    assert first["feen"].endswith(" / C/c")
    assert (second["number"], second["outcome"], second["claim"]) == (2, None, None)
    assert second["result"] == "1/2-1/2"


def test_replay_reads_a_crazyhouse_game_of_lichess() -> None:
    status, out, _ = call("replay", str(LICHESS))
    assert status == 0
    head, position = out.splitlines()
    assert head == "game 1: crazyhouse, 48 plies, result 0-1; second player wins by checkmate"
    theirs = chess_pgn.read_game(io.StringIO(LICHESS.read_text(encoding="utf-8"))).end().board()
    assert position.split("[")[0].strip() == theirs.board_fen()  # the board; the pockets in their order
    assert sorted(position.split("[")[1].split("]")[0]) == sorted(
        str(theirs.pockets[chess.WHITE]).upper() + str(theirs.pockets[chess.BLACK]).lower())
    status, out, _ = call("replay", str(LICHESS), "--to", "feen")
    assert status == 0 and out.splitlines()[1].endswith(" 3N2PBR/p C/c")


def test_replay_stops_at_the_first_bad_game_after_printing_those_before() -> None:
    text = b'[Round "1"]\n1. e4 e5 *\n\n[Round "2"]\n1. e4 e5 2. Ke3 *\n\n[Round "3"]\n1. d4 *\n'
    status, out, err = call("replay", "-", stdin=text)
    assert status == 1
    assert out.startswith("game 1: chess, 2 plies, result *; not ended\n") and "game 2" not in out
    assert err.startswith("ggn replay: <stdin>: game 2, ply 3 'Ke3' (line 5): 'Ke3' is not a legal move")
    status, out, err = call("replay", "-", "--format", "json", stdin=text)
    assert status == 1 and [game["number"] for game in json.loads(out)] == [1]
    assert "game 2, ply 3 'Ke3'" in err


def test_replay_checks_the_stated_result() -> None:
    status, _, err = call("replay", "-", stdin=b"1. f3 e5 2. g4 Qh4# 1-0\n")
    assert status == 1
    assert err == ("ggn replay: <stdin>: game 1 (line 1): the record's result '1-0' says the first player "
                   "won, but the game ended in 0-1: second player wins by checkmate\n")


def test_replay_game_plays_the_games_that_name_none() -> None:
    status, out, _ = call("replay", "-", "--game", "crazyhouse", stdin=b"1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n")
    assert status == 0 and out.startswith("game 1: crazyhouse, 5 plies")
    status, _, err = call("replay", "-", "--game", "nosuchgame", stdin=b"*")
    assert status == 1 and "no game 'nosuchgame'" in err


def test_replay_plays_an_ini_variant_named_in_variant(tmp_path: Path) -> None:
    ini = tmp_path / "my.ini"
    ini.write_text("[mycrazy:crazyhouse]\nmaxRank = 8\n")
    record = b'[Variant "mycrazy"]\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n'
    status, out, err = call("replay", "-", "--ini", str(ini), stdin=record)
    assert (status, err) == (0, ""), err
    assert out.startswith("game 1: mycrazy, 5 plies")


def test_replay_of_hostile_input_is_a_clear_error() -> None:
    status, _, err = call("replay", "-", stdin=bytes(range(256)))
    assert status == 1 and "this is not the text of a record" in err and "Traceback" not in err
    deep = b"1. e4 " + b"(1. d4 " * 5000 + b")" * 5000 + b" *"
    status, _, err = call("replay", "-", stdin=deep)
    assert status == 1 and "nest deeper than 100 levels" in err
    status, out, err = call("replay", "-", stdin=b"")
    assert (status, out, err) == (0, "", "ggn replay: <stdin>: no game in it\n")


def test_record_convert_pgn_to_pgn_checks_and_keeps_the_comments() -> None:
    status, out, err = call("record", "convert", str(LICHESS), "--to", "pgn")
    assert (status, err) == (0, "")
    theirs = chess_pgn.read_game(io.StringIO(out))
    original = chess_pgn.read_game(io.StringIO(LICHESS.read_text(encoding="utf-8")))
    assert [move.uci() for move in theirs.mainline_moves()] == [
        move.uci() for move in original.mainline_moves()]
    assert [node.comment for node in theirs.mainline()] == [node.comment for node in original.mainline()]
    status, out, _ = call("record", "convert", str(MOLINARI), "--to", "pgn", "--format", "json")
    assert status == 0
    [value] = json.loads(out)
    assert value["number"] == 1 and value["record"].startswith('[Event "cr"]')


def test_record_convert_refuses_an_illegal_game() -> None:
    status, _, err = call("record", "convert", "-", "--to", "pgn", stdin=b"1. e4 e5 2. Ke3 *\n")
    assert status == 1 and err.startswith("ggn record: <stdin>: game 1, ply 3 'Ke3'")


def test_the_help_gives_examples() -> None:
    for command in (("replay",), ("record",)):
        status, out, _ = call(*command, "--help")
        assert status == 0 and "examples:" in out


KIF = """手合割：平手
先手：Habu
後手：Moriuchi
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 投了
まで2手で後手の勝ち
"""


def test_a_shogi_game_goes_from_kif_to_pgn_and_back() -> None:
    status, pgn, err = call("record", "convert", "-", "--to", "pgn", stdin=KIF.encode("cp932"))
    assert (status, err) == (0, "")
    assert '[White "Habu"]' in pgn and '[Black "Moriuchi"]' in pgn and '[Result "0-1"]' in pgn
    assert '[Variant "shogi"]' in pgn and "[FEN" not in pgn  # the usual start: no FEN
    assert pgn.endswith("\n1. P-76 P-34 0-1\n")  # Fairy-Stockfish's shogi notation
    status, kif, err = call("record", "convert", "-", "--to", "kif", stdin=pgn.encode())
    assert (status, err, kif) == (0, "", KIF)
    status, out, _ = call("replay", "-", stdin=pgn.encode())
    assert status == 0 and out.startswith("game 1: shogi, 2 plies, result 0-1; not ended\n")
