"""Move notations (ggn.notation): SAN against python-chess, tolerant reading, errors, dispatch.

python-chess is the oracle here: along seeded random games of chess (long ones, with
promotions, castling and en passant), every legal move's SAN is python-chess's ``Board.san``,
python-chess's ``parse_san`` reads ggn's SAN to the same move and ggn reads python-chess's
SAN and LAN to the same play. Fairy-Stockfish's notations of every game are compared with
pyffish in ``tests/test_notation_fsf.py``.
"""

from __future__ import annotations

import random

import pytest

from ggn import notation
from ggn.errors import GGNError, IllegalMoveError
from ggn.notation import san
from ggn.position import Position
from ggn.rules import Play, RuleSystem
from ggn.variants import registry, uci
from ggn.variants.fen import from_feen, to_feen

chess = pytest.importorskip("chess")

SEED = 97531  # not tuned on: any seed gives games of every kind of move


def _position(name: str, fen: str) -> tuple[RuleSystem, Position]:
    rules = registry.rules(name)
    return rules, rules.position(to_feen(registry.variant(name), fen))


def _random_positions(games: int, plies: int, seed: int) -> list[str]:
    """FENs along seeded random chess games that prefer captures and promotions."""
    rng = random.Random(seed)
    found: list[str] = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(plies):
            legal = list(board.legal_moves)
            if not legal:
                break
            found.append(board.fen())
            sharp = [move for move in legal
                     if board.is_capture(move) or move.promotion or board.is_castling(move)]
            board.push(rng.choice(sharp) if sharp and rng.random() < 0.6 else rng.choice(legal))
    return found


@pytest.mark.parametrize("fen", _random_positions(3, 160, SEED)[::15])
def test_san_equals_python_chess(fen: str) -> None:
    rules, position = _position("chess", fen)
    board = chess.Board(fen)
    strings = uci.moves(rules, position)
    written = notation.moves(rules, position)
    assert len(written) == len(strings) == board.legal_moves.count()
    for text, play in written.items():
        move = board.parse_san(text)
        assert strings[move.uci()] == play, (fen, text)
        assert board.san(move) == text
        assert notation.parse(rules, position, text) == play
        assert notation.parse(rules, position, board.lan(move)) == play
        assert notation.write(rules, position, play, "uci") == move.uci()


def test_tolerant_reading() -> None:
    rules, position = _position("chess", "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    expected = {
        "O-O": "e1g1", "0-0": "e1g1", "O-O+": "e1g1", "0-0-0": "e1c1", "O-O-O": "e1c1",
        "bxa8=Q+": "b7a8q", "bxa8Q": "b7a8q", "bxa8=Q": "b7a8q", "b7xa8=Q": "b7a8q", "b7a8=N": "b7a8n",
        "b8Q": "b7b8q", "b8=R": "b7b8r", "Pb8=B": "b7b8b", "b8=Q+": "b7b8q",
        "exd6": "e5d6", "exd6 e.p.": "e5d6", "ed6": "e5d6", "e5xd6": "e5d6", "Rxa8+": "a1a8",
        "Kf1": "e1f1",
        "Rxa8": "a1a8", "Ra1xa8": "a1a8", "Rh1-h5": "h1h5",
    }
    start = registry.rules("chess").position()
    opening = {"Ng1f3": "g1f3", "Ng1-f3": "g1f3", "Nf3!?": "g1f3", "Nf3!": "g1f3", "Ngf3": "g1f3",
               "N1f3": "g1f3", " Nf3 ": "g1f3", "Nf3+": "g1f3", "Pe4": "e2e4", "e2e4": "e2e4",
               "e2-e4": "e2e4"}
    for here, texts in ((position, expected), (start, opening)):
        for text, move in texts.items():
            assert notation.write(rules, here, notation.parse(rules, here, text), "uci") == move, text
            assert notation.write(rules, here, san.parse(rules, here, text), "uci") == move, text


def test_errors_name_the_text_and_the_candidates() -> None:
    rules, position = _position("chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(IllegalMoveError, match=r"'Nd2' is ambiguous in chess in '4k3/8/8/8/8/8/8/1N2KN2 "
                                               r"w - - 0 1': it could be Nbd2, Nfd2"):
        notation.parse(rules, position, "Nd2")
    with pytest.raises(IllegalMoveError, match=r"'Nd3' is not a legal move of chess in .*; legal moves: Kd1"):
        notation.parse(rules, position, "Nd3")
    with pytest.raises(IllegalMoveError, match=r"'Qd3' is not a legal move"):
        notation.parse(rules, position, "Qd3", "san")
    with pytest.raises(IllegalMoveError, match=r"'N{40}'\.\.\. \(1,000 characters\) is not a legal move"):
        notation.parse(rules, position, "N" * 1000)
    with pytest.raises(IllegalMoveError, match="is not a legal move"):
        notation.parse(rules, position, "e8=Q")
    with pytest.raises(IllegalMoveError, match="is not a legal move"):
        san.parse(rules, position, "Nd2", "shogi-hodges")
    with pytest.raises(IllegalMoveError, match="'b1d2' is not a legal move"):
        notation.parse(rules, position, "b1d2", "san")
    assert notation.write(rules, position, notation.parse(rules, position, "b1d2", "uci")) == "Nbd2"


def test_a_promotion_must_be_named() -> None:
    rules, position = _position("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match=r"'a8' is not a legal move.*a8=Q"):
        notation.parse(rules, position, "a8")


def test_wrong_types_and_names() -> None:
    rules = registry.rules("chess")
    position = rules.position()
    play = notation.parse(rules, position, "e4")
    with pytest.raises(TypeError, match="rules must be a RuleSystem"):
        notation.write("chess", position, play)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="play must be a Play"):
        notation.write(rules, position, "e4")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be a str"):
        notation.parse(rules, position, b"e4")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="notation must be a str"):
        notation.write(rules, position, play, 3)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="'pgn' is not a notation; expected one of san, lan, "):
        notation.write(rules, position, play, "pgn")
    with pytest.raises(GGNError, match="'usi' is not a notation of Fairy-Stockfish's"):
        san.write(rules, position, play, "usi")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="is not a legal move of chess"):
        notation.write(rules, rules.play(position, play), play)


def test_every_notation_of_a_start_position() -> None:
    rules = registry.rules("chess")
    start = rules.position()
    play = notation.parse(rules, start, "Nf3")
    assert {name: notation.write(rules, start, play, name) for name in notation.NAMES if name != "usi"} == {
        "san": "Nf3", "lan": "Ng1-f3", "shogi-hosking": "N36", "shogi-hodges": "N-3f",
        "shogi-hodges-number": "N-36", "janggi": "N87-66", "wxf": "N2+3", "thai-san": "ม-ฉ๓",
        "thai-lan": "ม ช๑-ฉ๓", "uci": "g1f3", "ggn": "C:N g1-f3"}


def test_recognised_without_a_flag() -> None:
    shogi = registry.rules("shogi")
    start = shogi.position()
    pawn = notation.parse(shogi, start, "c3c4")
    for text in ("P-76", "P76", "P-7f", "Pc4", "Pc3-c4", "S:P c3-c4"):
        assert notation.parse(shogi, start, text) == pawn, text
    assert notation.write(shogi, start, pawn) == "P-76"
    assert notation.notations(shogi)[:5] == (
        "shogi-hodges-number", "san", "lan", "shogi-hosking", "shogi-hodges")
    xiangqi = registry.rules("xiangqi")
    start = xiangqi.position()
    cannon = notation.parse(xiangqi, start, "C2=5")
    assert notation.write(xiangqi, start, cannon) == "Che3"
    assert notation.parse(xiangqi, start, "Che3") == notation.parse(xiangqi, start, "h3e3") == cannon
    makruk = registry.rules("makruk")
    start = makruk.position()
    knight = notation.parse(makruk, start, "ม-ง๒")
    assert notation.write(makruk, start, knight) == "Nd2"
    assert notation.notations(makruk) == ("san", "lan", "thai-san", "thai-lan", "uci", "ggn")
    assert notation.default(makruk) == "san" and notation.default(shogi) == "shogi-hodges-number"


def test_a_rule_system_without_a_variant_has_ggn_only() -> None:
    document = registry.entry("chess").ruleset()
    rules = RuleSystem(document, registry.entry("chess").start)
    start = rules.position()
    play = notation.parse(rules, start, "C:P e2-e4")
    assert isinstance(play, Play)
    assert notation.default(rules) == "ggn" and notation.notations(rules) == ("ggn",)
    assert notation.write(rules, start, play, notation.default(rules)) == "C:P e2-e4"
    assert "C:P e2-e4" in notation.moves(rules, start, "ggn")
    with pytest.raises(GGNError, match="san is a notation of Fairy-Stockfish's games; the generic rule"):
        notation.write(rules, start, play, "san")
    with pytest.raises(GGNError, match="the generic rule system has none"):
        notation.parse(rules, start, "e4", "san")
    with pytest.raises(IllegalMoveError, match="'e4' is not a legal move of "):
        notation.parse(rules, start, "e4")


def test_castling_of_chess960() -> None:
    rules, position = _position("fischerandom", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1")
    castling = notation.parse(rules, position, "O-O")
    assert notation.write(rules, position, castling, "uci") == "f1g1"
    assert notation.write(rules, position, castling) == "O-O"
    fen = from_feen(rules.variant, position)  # type: ignore[attr-defined]
    assert fen.startswith("4k3/8/8/8/8/8/8/5KR1 w")


def test_a_chess960_castling_whose_rook_stays_in_place_is_castling() -> None:
    """King e1 to c1 with its rook already on d1 (game 1, ply 41, of python-chess's
    cutechess-fischerrandom.pgn): Fairy-Stockfish writes O-O-O, and the king's move it is."""
    pyffish = pytest.importorskip("pyffish")
    fen = "2br2k1/p3rp2/3b1pp1/2Np3n/2pP3P/4B3/PPB2P2/3RK1R1 w GD - 0 1"
    rules, variant = registry.rules("fischerandom"), registry.variant("fischerandom")
    position = rules.position(to_feen(variant, fen))
    written = notation.moves(rules, position, "san")
    expected = {pyffish.get_san("fischerandom", fen, move, True)
                for move in pyffish.legal_moves("fischerandom", fen, [], True)}
    assert set(written) == expected
    assert uci.write(variant, written["O-O-O"], position=position) == "e1d1"
    assert uci.write(variant, written["O-O"], position=position) == "e1g1"
    assert "Kc1" not in written


def test_shogi_promotion_marks_may_be_left_out_where_one_move_is_meant() -> None:
    rules, position = _position(
        "shogi", "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 0 3")
    promoting = notation.parse(rules, position, "Bx22+")
    assert notation.write(rules, position, promoting, "uci") == "b2h8+"
    assert notation.parse(rules, position, "Bx22=") != promoting
    with pytest.raises(IllegalMoveError, match=r"'Bx22' is ambiguous in shogi .*: it could be Bx22\+, Bx22="):
        notation.parse(rules, position, "Bx22")
    rules, position = _position("shogi", "4k4/P8/9/9/9/9/9/9/4K4[] w - - 0 1")
    assert notation.write(rules, position, notation.parse(rules, position, "P-91")) == "P-91+"
