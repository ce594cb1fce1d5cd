"""Hypothesis laws for the string notations.

- Round trip: for random values, ``parse(str(x)) == x``.
- Robustness: any string either parses or raises NotationError (nothing else), with a span
  inside the input; and whatever parses is canonical, ``str(parse(t)) == t``.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ggn._types import SIDES, STATES
from ggn.cell import Cell, Hand
from ggn.epin import Epin
from ggn.errors import NotationError
from ggn.feen import Feen
from ggn.gan import Gan, LegacyPiece
from ggn.pin import Pin
from ggn.qpi import Qpi
from ggn.sin import Sin

UPPER = string.ascii_uppercase
LETTERS = string.ascii_letters

# Values ------------------------------------------------------------------------------------------

indices = st.one_of(
    st.integers(0, 30), st.integers(0, 10**6), st.integers(0, 10**40), st.just(10**700)
)
cells = st.lists(indices, min_size=1, max_size=9).map(Cell)
sins = st.builds(Sin, st.sampled_from(UPPER), st.sampled_from(SIDES))
pins = st.builds(
    Pin, st.sampled_from(UPPER), st.sampled_from(SIDES), st.sampled_from(STATES), st.booleans()
)
epins = st.builds(Epin, pins, st.booleans())
qpis = st.builds(Qpi, sins, pins)
identifiers = st.text(alphabet=UPPER, min_size=1, max_size=12)
gans = st.builds(Gan, identifiers, identifiers, st.sampled_from(SIDES))
legacy_pieces = st.builds(LegacyPiece, gans, st.sampled_from(STATES), st.booleans())


@st.composite
def feens(draw: st.DrawFn) -> Feen:
    dimensions = draw(st.integers(1, 3))
    files = draw(st.one_of(st.integers(1, 12), st.just(10**30)))
    if dimensions == 1:
        shape: tuple[int, ...] = (files,)
    elif dimensions == 2:
        shape = (files, draw(st.integers(2, 10)))
    else:
        shape = (files, draw(st.integers(1, 4)), draw(st.integers(2, 4)))
    first = Sin(draw(st.sampled_from(UPPER)), "first")
    second = Sin(draw(st.sampled_from(UPPER)), "second")
    squares = 1
    for size in shape:
        squares *= size
    room = min(squares, 30)
    spots = draw(
        st.lists(
            st.tuples(*(st.integers(0, min(size, 40) - 1) for size in shape)),
            max_size=room, unique=True,
        )
    )
    board = {Cell(spot): draw(epins).to_qpi(first, second) for spot in spots}
    room -= len(board)
    hands: dict[str, dict[Qpi, int]] = {}
    for player in ("first", "second"):
        held: dict[Qpi, int] = {}
        for epin in draw(st.lists(epins, max_size=6, unique=True)):
            if room <= 0:
                break
            count = draw(st.integers(1, room))
            held[epin.to_qpi(first, second)] = count
            room -= count
        hands[player] = held
    active = draw(st.sampled_from(SIDES))
    return Feen(shape, board, hands, active, (first, second))


def _round_trip(parse: Callable[[str], Any], value: Any) -> None:
    text = str(value)
    again = parse(text)
    assert again == value
    assert str(again) == text
    assert hash(again) == hash(value)


@given(cells)
def test_cell_round_trip(cell: Cell) -> None:
    _round_trip(Cell.parse, cell)
    assert cell.fields()["dimensions"] == len(cell.indices)


@given(sins)
def test_sin_round_trip(sin: Sin) -> None:
    _round_trip(Sin.parse, sin)


@given(pins)
def test_pin_round_trip(pin: Pin) -> None:
    _round_trip(Pin.parse, pin)


@given(epins)
def test_epin_round_trip(epin: Epin) -> None:
    _round_trip(Epin.parse, epin)
    assert Epin.parse(str(epin)).pin == epin.pin


@given(qpis)
def test_qpi_round_trip(qpi: Qpi) -> None:
    _round_trip(Qpi.parse, qpi)
    assert Epin.from_qpi(qpi).to_qpi(
        Sin(qpi.style, "first"), Sin(qpi.style, "second")
    ).pin == qpi.pin


@given(gans)
def test_gan_round_trip(gan: Gan) -> None:
    _round_trip(Gan.parse, gan)


@given(legacy_pieces)
def test_legacy_piece_round_trip(piece: LegacyPiece) -> None:
    _round_trip(LegacyPiece.parse, piece)


@given(feens())
def test_feen_round_trip(feen: Feen) -> None:
    _round_trip(Feen.parse, feen)
    hands = {"first": feen.hand("first"), "second": feen.hand("second")}
    rebuilt = Feen(feen.shape, dict(feen.board), hands, feen.active, feen.styles)
    assert rebuilt == feen
    fields = feen.fields()
    assert fields["board"] == {str(cell): str(qpi) for cell, qpi in feen.board.items()}


@given(sins, sins.filter(lambda sin: sin.side == "second"), epins)
def test_epin_qualified_and_back(first: Sin, second: Sin, epin: Epin) -> None:
    first = Sin(first.style, "first")
    qpi = epin.to_qpi(first, second)
    assert qpi.pin == epin.pin
    assert qpi.native == epin.native
    assert Epin.from_qpi(qpi) == epin


# Robustness --------------------------------------------------------------------------------------

PARSERS: dict[str, Callable[[str], Any]] = {
    "CELL": Cell.parse, "HAND": Hand.parse, "SIN": Sin.parse, "PIN": Pin.parse,
    "EPIN": Epin.parse, "QPI": Qpi.parse, "GAN": Gan.parse,
    "legacy GGN piece": LegacyPiece.parse, "FEEN": Feen.parse,
}
ALPHABETS = {
    "CELL": "abcz0129ABZ \n-é",
    "HAND": "* a",
    "SIN": "CcZz1 :",
    "PIN": "KkPp+-^' 1",
    "EPIN": "KkPp+-^' 1",
    "QPI": "CcKk+-^:' ",
    "GAN": "CHESSKINGchesking:+-' 1",
    "legacy GGN piece": "CHESSKINGchesking:+-' 1",
    "FEEN": "0123456789/ +-^'KkPpCcMm",
}


def _parses_or_notation_error(notation: str, text: str) -> None:
    try:
        value = PARSERS[notation](text)
    except NotationError as error:
        assert error.notation == notation
        assert error.text == text
        assert 0 <= error.start <= error.end <= len(text)
        assert str(error)
    else:
        assert str(value) == text  # whatever is accepted is canonical


@given(st.sampled_from(sorted(PARSERS)), st.text())
def test_any_text_parses_or_raises_notation_error(notation: str, text: str) -> None:
    _parses_or_notation_error(notation, text)


@given(st.data())
def test_text_from_the_alphabet_parses_or_raises_notation_error(data: st.DataObject) -> None:
    notation = data.draw(st.sampled_from(sorted(PARSERS)))
    text = data.draw(st.text(alphabet=ALPHABETS[notation], max_size=30))
    _parses_or_notation_error(notation, text)


@given(feens(), st.data())
def test_mutated_feen_parses_or_raises_notation_error(feen: Feen, data: st.DataObject) -> None:
    text = str(feen)
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        char = data.draw(st.sampled_from(ALPHABETS["FEEN"] + "0/ "))
        if edit == "insert":
            text = text[:pos] + char + text[pos:]
        elif edit == "delete":
            text = text[:pos] + text[pos + 1 :]
        else:
            text = text[:pos] + char + text[pos + 1 :]
    _parses_or_notation_error("FEEN", text)


@given(st.sampled_from(sorted(PARSERS)), st.one_of(st.none(), st.integers(), st.binary()))
def test_non_strings_raise_type_error(notation: str, value: object) -> None:
    with pytest.raises(TypeError) as caught:
        PARSERS[notation](value)  # type: ignore[arg-type]
    assert isinstance(caught.value, NotationError)
    assert caught.value.reason.startswith(f"expected a string, got {type(value).__name__}")
