"""The string notations: data-file vectors, the fields contract, and each type's own rules."""

from __future__ import annotations

import doctest
import importlib
import json
import pickle
import re
from pathlib import Path
from typing import Any, Protocol

import pytest

from ggn.cell import HAND, Cell, Hand, parse_location
from ggn.epin import Epin, parse_epin_at
from ggn.errors import NotationError, NotationTypeError
from ggn.feen import Feen
from ggn.gan import Gan, LegacyPiece
from ggn.pin import Pin
from ggn.qpi import Qpi
from ggn.sin import Sin

VECTORS = Path(__file__).parent / "vectors"


class Notation(Protocol):
    def fields(self) -> dict[str, object]: ...


KINDS: dict[str, Any] = {
    "cell": Cell, "hand": Hand, "sin": Sin, "pin": Pin,
    "epin": Epin, "qpi": Qpi, "gan": Gan, "feen": Feen,
}
READ_BACK = {
    "Cell": Cell, "HAND": HAND, "Sin": Sin, "Pin": Pin, "Epin": Epin, "Qpi": Qpi,
    "Gan": Gan, "LegacyPiece": LegacyPiece, "Feen": Feen,
}


def _vectors(validity: str) -> list[Any]:
    cases: list[Any] = []
    for kind in KINDS:
        data = json.loads((VECTORS / f"{kind}.json").read_text(encoding="ascii"))
        assert set(data) == {"valid", "invalid"}
        cases.extend(pytest.param(kind, case, id=f"{kind}:{case['text']!r}") for case in data[validity])
    return cases


@pytest.mark.parametrize(("kind", "case"), _vectors("valid"))
def test_valid_vector(kind: str, case: dict[str, Any]) -> None:
    parse = KINDS[kind].parse
    value = parse(case["text"])
    assert value.fields() == case["fields"]
    assert json.loads(json.dumps(value.fields())) == case["fields"]
    assert str(value) == case["text"]  # valid inputs are canonical
    assert parse(str(value)) == value
    assert eval(repr(value), {}, READ_BACK) == value
    assert pickle.loads(pickle.dumps(value)) == value


@pytest.mark.parametrize(("kind", "case"), _vectors("invalid"))
def test_invalid_vector(kind: str, case: dict[str, Any]) -> None:
    with pytest.raises(NotationError) as caught:
        KINDS[kind].parse(case["text"])
    error = caught.value
    assert [error.start, error.end] == case["span"]
    assert error.text == case["text"]
    assert error.notation == kind.upper()
    assert repr(case["text"]) in str(error) or len(case["text"]) > 120
    assert error.reason in str(error)


def test_every_kind_has_vectors_of_both_sorts() -> None:
    for kind in KINDS:
        data = json.loads((VECTORS / f"{kind}.json").read_text(encoding="ascii"))
        assert data["valid"], kind
        if kind != "hand":
            assert len(data["invalid"]) >= 5, kind


@pytest.mark.parametrize(
    "module",
    ["ggn._decimal", "ggn.cell", "ggn.sin", "ggn.pin", "ggn.epin", "ggn.qpi", "ggn.gan", "ggn.feen"],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


# The fields contract of ``ggn parse KIND TEXT``, written out by hand.

def test_fields_contract() -> None:
    assert Cell.parse("a1Aa").fields() == {"indices": [0, 0, 0, 0], "dimensions": 4}
    assert HAND.fields() == {}
    assert Sin.parse("m").fields() == {"style": "M", "side": "second"}
    assert Pin.parse("+R").fields() == {
        "name": "R", "side": "first", "state": "enhanced", "terminal": False,
    }
    assert Epin.parse("-p^'").fields() == {
        "name": "P", "side": "second", "state": "diminished", "terminal": True, "derived": True,
    }
    assert Qpi.parse("c:K^").fields() == {
        "name": "K", "side": "first", "state": "normal", "terminal": True,
        "style": "C", "native": False,
    }
    assert Gan.parse("SHOGI:PAWN").fields() == {"game": "SHOGI", "piece": "PAWN", "side": "first"}
    assert Feen.parse("K'3 2p/P c/C").fields() == {
        "shape": [4],
        "active": "second",
        "styles": {"first": "C", "second": "c"},
        "board": {"a": "c:K"},
        "hands": {"first": {"c:p": 2}, "second": {"C:P": 1}},
    }


def test_fields_key_order_is_stable() -> None:
    assert list(Qpi.parse("C:K").fields()) == [
        "name", "side", "state", "terminal", "style", "native",
    ]
    assert list(Epin.parse("K").fields()) == ["name", "side", "state", "terminal", "derived"]
    assert list(Feen.parse("1 / C/c").fields()) == ["shape", "active", "styles", "board", "hands"]


# CELL and HAND


def test_cell_indices_are_bijective_base_26() -> None:
    expected = {"a": 0, "z": 25, "aa": 26, "ab": 27, "az": 51, "ba": 52, "zz": 701, "aaa": 702}
    for text, index in expected.items():
        assert Cell.parse(text).indices == (index,)
        assert Cell.parse(f"a1{text.upper()}").indices == (0, 0, index)
        assert str(Cell((index,))) == text


def test_cell_ranks_longer_than_the_int_digit_limit() -> None:
    digits = "7" * 5000
    cell = Cell.parse("a" + digits)
    assert cell.indices[1] == 7 * (10**5000 - 1) // 9 - 1
    assert str(cell) == "a" + digits
    big = Cell((3, 10**6000))
    assert Cell.parse(str(big)) == big
    assert str(big).startswith("d1" + "0" * 10)


def test_cell_constructor_checks_its_indices() -> None:
    for bad in [(), (-1,)]:
        with pytest.raises(NotationError):
            Cell(bad)
    # A wrong Python type is a TypeError naming what was expected (issue 8, row 17).
    for wrong, message in [((1.0,), "the index of dimension 1 must be an int, got float"),
                           ((0, True), "the index of dimension 2 must be an int, got bool"),
                           ("e4", "indices must be a tuple or list of int, got str")]:
        with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
            Cell(wrong)  # type: ignore[arg-type]


def test_location() -> None:
    assert parse_location("*") is HAND
    assert parse_location("e4") == Cell((4, 3))
    with pytest.raises(NotationError, match="a location is a CELL or"):
        parse_location("**")


@pytest.mark.parametrize("bad", [None, 1, b"*", ["*"]])
def test_parsers_reject_non_strings_with_a_type_error(bad: object) -> None:
    # A wrong Python type is a TypeError, as everywhere in the API; it is a NotationError too,
    # so that the validators of decoded JSON report it at its path.
    for parse, notation in (
        (Cell.parse, "CELL"), (Hand.parse, "HAND"), (Sin.parse, "SIN"), (Pin.parse, "PIN"),
        (Epin.parse, "EPIN"), (Qpi.parse, "QPI"), (Gan.parse, "GAN"), (LegacyPiece.parse, "legacy GGN piece"),
        (Feen.parse, "FEEN"), (parse_location, "CELL or HAND"),
    ):
        with pytest.raises(TypeError, match="expected a string") as caught:
            parse(bad)  # type: ignore[arg-type]
        assert isinstance(caught.value, NotationTypeError) and caught.value.notation == notation


# EPIN


def test_epin_attributes() -> None:
    epin = Epin.parse("+r'")
    assert (epin.name, epin.side, epin.state, epin.terminal) == ("R", "second", "enhanced", False)
    assert (epin.native, epin.derived) == (False, True)
    assert epin.pin == Pin.parse("+r")
    assert Epin.parse("K").native


def test_epin_reason_messages() -> None:
    with pytest.raises(NotationError, match="terminal mark \\^ comes before the derivation mark"):
        Epin.parse("K'^")
    with pytest.raises(NotationError, match="appears once, last"):
        Epin.parse("K''")


def test_parse_epin_at_reads_inside_a_longer_text() -> None:
    assert parse_epin_at("2K'p", 1, "FEEN") == (Epin.parse("K'"), 3)
    assert parse_epin_at("2K'p", 3, "FEEN") == (Epin.parse("p"), 4)
    with pytest.raises(NotationError) as caught:
        parse_epin_at("2+/", 1, "FEEN")
    assert (caught.value.notation, caught.value.start, caught.value.end) == ("FEEN", 2, 3)


def test_epin_and_qpi_under_cross_styles() -> None:
    first, second = Sin.parse("C"), Sin.parse("m")
    expected = {"K": "C:K", "K'": "m:K", "m": "m:m", "m'": "C:m"}
    for epin_text, qpi_text in expected.items():
        epin = Epin.parse(epin_text)
        assert str(epin.to_qpi(first, second)) == qpi_text
        assert Epin.from_qpi(Qpi.parse(qpi_text)) == epin
    with pytest.raises(NotationError):
        Epin.parse("K").to_qpi(second, first)


def test_epin_constructor_checks() -> None:
    with pytest.raises(NotationError):
        Epin("K", False)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Epin(Pin.parse("K"), 1)  # type: ignore[arg-type]


def test_is_valid() -> None:
    assert Epin.is_valid("K'") and not Epin.is_valid("K''") and not Epin.is_valid(3)
    assert Gan.is_valid("A:B") and not Gan.is_valid("A:b") and not Gan.is_valid(None)
    assert LegacyPiece.is_valid("A:+B'") and not LegacyPiece.is_valid("A:+b")
    assert not LegacyPiece.is_valid(b"A:B")
    assert Feen.is_valid("1 / C/c") and not Feen.is_valid("1 / C/C") and not Feen.is_valid(1)


# GAN and the legacy piece form


def test_gan_attributes_and_case() -> None:
    gan = Gan.parse("xiangqi:rook")
    assert (gan.game, gan.piece, gan.side) == ("XIANGQI", "ROOK", "second")
    assert str(gan) == "xiangqi:rook"
    assert str(Gan("MAKRUK", "ROOK", "first")) == "MAKRUK:ROOK"
    assert Gan.parse("CHESS:ROOK") != Gan.parse("SHOGI:ROOK")
    assert Gan.parse("CHESS:ROOK") != Gan.parse("chess:rook")


def test_gan_mixed_case_names_where_the_case_changes() -> None:
    with pytest.raises(NotationError, match="the case changes at 'k'") as caught:
        Gan.parse("CHESS:king")
    assert (caught.value.start, caught.value.end) == (6, 7)
    with pytest.raises(NotationError, match="legacy GGN piece form"):
        Gan.parse("SHOGI:+PAWN")


@pytest.mark.parametrize(
    ("game", "piece", "side"),
    [("chess", "KING", "first"), ("CHESS", "", "first"), ("", "KING", "first"),
     ("CHESS", "KING", "third"), ("CH3SS", "KING", "first"), ("ÉCHECS", "ROI", "first")],
)
def test_gan_constructor_checks(game: str, piece: str, side: Any) -> None:
    with pytest.raises(NotationError):
        Gan(game, piece, side)


@pytest.mark.parametrize(
    ("text", "state", "derived"),
    [("SHOGI:PAWN", "normal", False), ("SHOGI:+PAWN", "enhanced", False),
     ("shogi:-pawn'", "diminished", True), ("GAME:X'", "normal", True), ("a:+b'", "enhanced", True)],
)
def test_legacy_piece_valid(text: str, state: str, derived: bool) -> None:
    piece = LegacyPiece.parse(text)
    assert (piece.state, piece.derived) == (state, derived)
    assert str(piece) == text
    assert LegacyPiece.parse(str(piece)) == piece
    assert eval(repr(piece), {}, READ_BACK) == piece
    assert piece.gan == Gan(piece.game, piece.piece, piece.side)
    assert piece.fields() == {**piece.gan.fields(), "state": state, "derived": derived}


@pytest.mark.parametrize(
    ("text", "span"),
    [("SHOGI:++PAWN", (7, 8)), ("SHOGI:+-PAWN", (7, 8)), ("SHOGI:PA+WN", (8, 9)),
     ("+SHOGI:PAWN", (0, 1)), ("SHOGI:PAWN''", (10, 11)), ("SHOGI:P'AWN", (7, 8)),
     ("SHOGI:'", (6, 7)), ("SHOGI:+", (5, 7)), ("shogi:+PAWN", (7, 8)), ("SHOGI:pawn'", (6, 7)),
     ("SHOGI", (0, 5)), (":+P", (0, 1)), ("SHOGI:P^", (7, 8)), ("", (0, 0)), ("SHOGI'", (5, 6))],
)
def test_legacy_piece_invalid(text: str, span: tuple[int, int]) -> None:
    with pytest.raises(NotationError) as caught:
        LegacyPiece.parse(text)
    assert (caught.value.start, caught.value.end) == span
    assert caught.value.notation == "legacy GGN piece"


def test_legacy_piece_constructor_checks() -> None:
    gan = Gan.parse("A:B")
    with pytest.raises(NotationError):
        LegacyPiece("A:B", "normal", False)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        LegacyPiece(gan, "promoted", False)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        LegacyPiece(gan, "normal", "yes")  # type: ignore[arg-type]


# Errors show the input and point at the fault.


def test_error_messages_quote_the_input_and_mark_the_span() -> None:
    with pytest.raises(NotationError) as caught:
        Qpi.parse("C:K:R")
    message = str(caught.value)
    assert message.splitlines() == [
        "invalid QPI 'C:K:R': exactly one ':' separates style and piece (at 3-5)",
        "    C:K:R",
        "       ^^",
    ]


def test_values_are_immutable() -> None:
    values: list[tuple[Notation, str]] = [
        (Cell.parse("a1"), "indices"), (Sin.parse("C"), "style"), (Pin.parse("K"), "name"),
        (Epin.parse("K'"), "pin"), (Qpi.parse("C:K"), "sin"), (Gan.parse("A:B"), "game"),
        (LegacyPiece.parse("A:+B"), "gan"), (Feen.parse("1 / C/c"), "shape"),
    ]
    for value, name in values:
        with pytest.raises(AttributeError):
            setattr(value, name, None)
