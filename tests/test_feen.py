"""FEEN positions: the published start positions, geometry, styles, hands, errors, constructor."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

import pytest

from ggn.cell import Cell
from ggn.epin import Epin
from ggn.errors import NotationError
from ggn.feen import Feen
from ggn.qpi import Qpi
from ggn.sin import Sin

XIANGQI = "rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x"
SHOGI = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
MAKRUK = "rnsmk^snr/8/pppppppp/8/8/PPPPPPPP/8/RNSK^MSNR / M/m"
CHESS = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"

C, c, M, m = Sin.parse("C"), Sin.parse("c"), Sin.parse("M"), Sin.parse("m")


def q(text: str) -> Qpi:
    return Qpi.parse(text)


def at(text: str) -> Cell:
    return Cell.parse(text)


@pytest.mark.parametrize(
    ("text", "shape", "style", "kings"),
    [
        (XIANGQI, (9, 10), "X", {"e1": "X:G^", "e10": "x:g^"}),
        (SHOGI, (9, 9), "S", {"e1": "S:K^", "e9": "s:k^"}),
        (MAKRUK, (8, 8), "M", {"d1": "M:K^", "e8": "m:k^"}),
        (CHESS, (8, 8), "C", {"e1": "C:+K^", "e8": "c:+k^"}),
    ],
)
def test_start_positions(text: str, shape: tuple[int, ...], style: str, kings: dict[str, str]) -> None:
    feen = Feen.parse(text)
    assert str(feen) == text
    assert Feen.parse(str(feen)) == feen
    assert feen.shape == shape
    assert feen.active == "first"
    assert feen.styles == (Sin.parse(style), Sin.parse(style.lower()))
    terminal = {str(cell): str(qpi) for cell, qpi in feen.board.items() if qpi.terminal}
    assert terminal == kings
    assert dict(feen.hand("first")) == {} and dict(feen.hand("second")) == {}
    assert all(qpi.native for qpi in feen.board.values())
    # Rebuilt from its parts, it is the same value and the same string.
    hands = {"first": feen.hand("first"), "second": feen.hand("second")}
    rebuilt = Feen(feen.shape, dict(feen.board), hands, feen.active, feen.styles)
    assert rebuilt == feen
    assert hash(rebuilt) == hash(feen)
    assert str(rebuilt) == text


def test_chess_castling_and_en_passant_states() -> None:
    feen = Feen.parse("+rnbq+k^bn+r/ppp1pppp/8/3pP3/8/8/PPPP1PPP/+RNBQ+K^BN+R / C/c")
    assert feen.board[at("a1")] == q("C:+R")
    assert feen.board[at("h8")] == q("c:+r")
    assert feen.board[at("d5")] == q("c:p")
    assert feen.board[at("e5")] == q("C:P")
    passed = Feen.parse("+rnbq+k^bn+r/ppp1pppp/8/3-pP3/8/8/PPPP1PPP/+RNBQ+K^BN+R / C/c")
    assert passed.board[at("d5")] == q("c:-p")


def test_the_first_rank_written_is_the_highest() -> None:
    feen = Feen.parse("a2/2b/c2 / C/c")
    assert {str(k): str(v) for k, v in feen.board.items()} == {
        "a3": "c:a", "c2": "c:b", "a1": "c:c",
    }
    assert list(map(str, feen.board)) == ["a3", "c2", "a1"]  # reading order


def test_one_dimension() -> None:
    feen = Feen.parse("K^6k^ / C/c")
    assert feen.shape == (8,)
    assert feen.dimensions == 1
    assert feen.board == {at("a"): q("C:K^"), at("h"): q("c:k^")}


def test_three_dimensions_first_layer_written_is_highest() -> None:
    feen = Feen.parse("ab/cd//ef/gh / C/c")
    assert feen.shape == (2, 2, 2)
    assert feen.board[at("a1B")] == q("c:c")
    assert feen.board[at("a2B")] == q("c:a")
    assert feen.board[at("b1A")] == q("c:h")
    assert feen.squares == 8
    raumschach = "rnknr/ppppp/5/5/5//buqbu/ppppp/5/5/5//5/5/5/5/5//5/5/5/PPPPP/BUQBU//5/5/5/PPPPP/RNKNR / R/r"
    feen = Feen.parse(raumschach)
    assert feen.shape == (5, 5, 5)
    assert feen.board[at("c5E")] == q("r:k")
    assert feen.board[at("c1A")] == q("R:K")
    assert str(feen) == raumschach


def test_cross_style_pieces() -> None:
    feen = Feen.parse("Kk'mm'4 / C/m")
    assert [str(qpi) for qpi in feen.board.values()] == ["C:K", "C:k", "m:m", "C:m"]
    assert [qpi.native for qpi in feen.board.values()] == [True, False, True, False]
    assert Feen.parse("k^6K^ / s/C").styles == (Sin.parse("C"), Sin.parse("s"))
    assert Feen.parse("k^6K^ / s/C").active == "second"
    # The same letter for both styles: derived pieces still round-trip.
    same = Feen.parse("K'k' / C/c")
    assert [str(qpi) for qpi in same.board.values()] == ["c:K", "C:k"]


def test_hands_belong_to_players_and_hold_either_side() -> None:
    feen = Feen.parse("9/9 2PKp/3b'r s/S")
    assert dict(feen.hand("first")) == {q("S:P"): 2, q("S:K"): 1, q("s:p"): 1}
    assert dict(feen.hand("second")) == {q("S:b"): 3, q("s:r"): 1}
    assert list(feen.hand("first")) == [q("S:P"), q("S:K"), q("s:p")]
    assert feen.active == "second"
    assert feen.inactive == "first"


def test_canonical_hand_order_from_any_order() -> None:
    pieces = ["P", "p", "-P", "+P", "P^", "P'", "-p^'", "K", "k", "B", "3R", "2Q", "2q"]
    expected = "3R2Q2qBKk-P+PPP'P^-p^'p"
    rng = random.Random(7)
    for _ in range(20):
        rng.shuffle(pieces)
        hand: dict[Qpi, int] = {}
        for item in pieces:
            count = int(item[0]) if item[0].isdigit() else 1
            epin = Epin.parse(item.lstrip("0123456789"))
            hand[epin.to_qpi(C, c)] = count
        feen = Feen((30,), {}, {"first": hand}, "first", (C, c))
        assert str(feen) == f"30 {expected}/ C/c"
        assert Feen.parse(str(feen)) == feen


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("8 PKp/ S/s", "the canonical first player's hand is 'KPp'"),
        ("8 KK/ S/s", "'K' appears twice: identical pieces are aggregated; the canonical first "
         "player's hand is '2K'"),
        ("8 1K/ S/s", "a count of 1 is not written; the canonical first player's hand is 'K'"),
        ("8 02K/ S/s", "a count has no leading zero; the canonical first player's hand is '2K'"),
        ("8 0K/ S/s", "a count of 0 is not written"),
        ("8 /p2P S/s", "the canonical second player's hand is '2Pp'"),
        ("8/7 / C/c", "rank 1 has 7 squares, but the first rank written has 8"),
        ("ab/cd//ef/g / C/c", "rank 1 of layer A has 1 square"),
        ("a/b//c / C/c", "layer A (the 2nd written) has 1 rank, but the first layer has 2"),
        ("08 / C/c", "no leading zero: write '8'"),
        ("8///8 / C/c", "'///' is not a separator"),
        ("K 2K/ C/c", "3 pieces (1 on the board, 2 in the hands) outnumber the 1 square"),
        ("8 / C/C", "opposite case"),
        ("8 / C/", "the inactive player's style letter is missing"),
        ("8 / /c", "the active player's style letter is missing"),
        ("8  / C/c", "fields are separated by a single space"),
        ("8 / C/c ", "cannot end with a space"),
        ("8 C/c", "a position has three fields"),
    ],
)
def test_error_reasons(text: str, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        Feen.parse(text)
    assert reason in caught.value.reason
    assert caught.value.notation == "FEEN"
    assert caught.value.text == text


def test_counts_beyond_the_int_digit_limit() -> None:
    width = "1" + "0" * 5000
    feen = Feen.parse(f"K{width} / C/c")
    assert feen.shape == (10**5000 + 1,)
    assert str(feen) == f"K{width} / C/c"
    feen = Feen((10**5000, 2), {at("a1"): q("C:K")}, None, "first", (C, c))
    assert Feen.parse(str(feen)) == feen


def test_mappings_are_read_only_and_values_hashable() -> None:
    feen = Feen.parse(CHESS)
    assert isinstance(feen.board, MappingProxyType)
    with pytest.raises(TypeError):
        feen.board[at("e4")] = q("C:P")  # type: ignore[index]
    with pytest.raises(TypeError):
        feen.hand("first")[q("C:P")] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        feen.active = "second"
    assert len({feen, Feen.parse(CHESS), Feen.parse(MAKRUK)}) == 2
    assert feen != CHESS


def test_constructor_orders_and_drops_zero_counts() -> None:
    board = {at("h1"): q("C:R"), at("a8"): q("c:r"), at("e1"): q("C:K^")}
    feen = Feen((8, 8), board, {"second": {q("c:p"): 0, q("C:q"): 2}}, "second", (C, c))
    assert list(map(str, feen.board)) == ["a8", "e1", "h1"]
    assert dict(feen.hand("second")) == {q("C:q"): 2}
    assert str(feen) == "r7/8/8/8/8/8/8/4K^2R /2q' c/C"
    assert feen == Feen((8, 8), dict(reversed(board.items())), {"second": {q("C:q"): 2}},
                        "second", (C, c))


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (((8, 1), {}, None, "first", (C, c)), "a board of one rank is written as 1D"),
        (((2, 2, 1), {}, None, "first", (C, c)), "a board of one layer is written as 2D"),
        (((), {}, None, "first", (C, c)), "the shape is (files,)"),
        (((1, 1, 1, 2), {}, None, "first", (C, c)), "the shape is (files,)"),
        (((0,), {}, None, "first", (C, c)), "positive integer"),
        (((2,), {at("c"): q("C:K")}, None, "first", (C, c)), "not on a board of shape (2,)"),
        (((2, 2), {at("a"): q("C:K")}, None, "first", (C, c)), "not on a board of shape"),
        (((2,), {at("a"): q("X:K")}, None, "first", (C, c)), "the piece on 'a' has style 'X'"),
        (((2,), {}, {"second": {q("x:k"): 1}}, "first", (C, c)),
         "the piece in the second player's hand has style 'x'"),
        (((2,), {at("a"): q("M:K")}, None, "first", (C, m)), "has style 'M'"),
        (((2,), {}, {"first": {q("c:K"): 3}}, "first", (C, c)), "3 pieces outnumber the 2 squares"),
        (((2,), {}, {"first": {q("C:K"): -1}}, "first", (C, c)), "non-negative integer"),
        (((2,), {}, {"third": {}}, "first", (C, c)), "the hands are 'first' and 'second'"),
        (((2,), {}, None, "white", (C, c)), "'first' or 'second'"),
        (((2,), {}, None, "first", (c, C)), "the first player's style is uppercase"),
        (((2,), {}, None, "first", (C,)), "styles are a pair"),
    ],
)
def test_constructor_rejects(args: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        Feen(*args)
    assert reason in caught.value.reason


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (((True,), {}, None, "first", (C, c)), "every size of the shape must be an int, got bool"),
        (("8", {}, None, "first", (C, c)), "shape must be a sequence of 1 to 3 ints, got str"),
        (((2,), {"a": q("C:K")}, None, "first", (C, c)), "board's keys must be Cell values, got str"),
        (((2,), {at("a"): "C:K"}, None, "first", (C, c)), "the piece on 'a' must be a Qpi, got str"),
        (((2,), {}, {"first": {"C:K": 1}}, "first", (C, c)),
         "the piece in the first player's hand must be a Qpi, got str"),
        (((2,), {}, {"first": {q("C:K"): 1.0}}, "first", (C, c)),
         "the count of C:K in the first player's hand must be an int, got float"),
        (((2,), {}, {"first": [q("C:K")]}, "first", (C, c)),
         "the first player's hand must be a mapping from Qpi to count, got list"),
        (((2,), {}, None, "first", ("C", "c")), "the first player's style must be a Sin, got str"),
        (((2,), [], None, "first", (C, c)), "board must be a mapping from Cell to Qpi, got list"),
        (((2,), {}, None, 1, (C, c)), "active must be 'first' or 'second', got int"),
    ],
)
def test_constructor_rejects_wrong_types(args: tuple[Any, ...], message: str) -> None:
    # A wrong Python type is a TypeError naming the parameter (issue 8, row 17).
    with pytest.raises(TypeError) as caught:
        Feen(*args)
    assert str(caught.value) == message


def test_parse_is_memoised_and_values_shared() -> None:
    assert Feen.parse(SHOGI) is Feen.parse(SHOGI)


def test_fields() -> None:
    fields = Feen.parse("3/1k^1/3//3/3/3//3/1K^1/3 2P/ r/R").fields()
    assert fields == {
        "shape": [3, 3, 3],
        "active": "second",
        "styles": {"first": "R", "second": "r"},
        "board": {"b2C": "r:k^", "b2A": "R:K^"},
        "hands": {"first": {"R:P": 2}, "second": {}},
    }
