"""Positions and STN on them: FEEN round trips, apply, diff, invert, compose, and their laws."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ggn import Cell, Feen, GGNError, Qpi, Sin, Transition
from ggn._types import Side
from ggn.position import Geometry, Position, PositionError, code_of, piece_of
from ggn.transitions import apply, compose, diff, invert
from support import examples

VECTORS = Path(__file__).parent / "vectors"
CHESS = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"


@pytest.mark.parametrize("case", json.loads((VECTORS / "feen.json").read_text())["valid"],
                         ids=lambda c: c["text"][:40])
def test_feen_vectors_round_trip_through_positions(case: dict[str, object]) -> None:
    text = case["text"]
    assert isinstance(text, str)
    position = Position.from_feen(text)
    assert position.to_feen() == text
    assert Position.from_feen(position.feen()) == position
    fields = Feen.parse(text).fields()
    assert {str(c): str(p) for c, p in position} == fields["board"]
    assert position.active == fields["active"]


def test_compact_form() -> None:
    position = Position.from_feen(CHESS)
    assert position._geometry is Geometry((8, 8))
    assert Geometry((8, 8)).cells[0] == Cell.parse("a1")
    assert Geometry((8, 8)).cells[63] == Cell.parse("h8")
    assert position.codes[4] == code_of(Qpi.parse("C:+K^")) > 0
    assert position.codes[60] == code_of(Qpi.parse("c:+k^")) < 0
    assert position._occupied == (tuple(range(16)), tuple(range(48, 64)))
    assert piece_of(position.codes[0]) == Qpi.parse("C:+R")
    with pytest.raises(ValueError, match="empty square"):
        piece_of(0)


def test_views_and_errors() -> None:
    position = Position.from_feen("K3p 2P/p c/C")
    assert position.shape == (5,)
    assert position.active == "second" and position.inactive == "first"
    assert position.piece_at("a") == Qpi.parse("C:K")
    assert position.piece_at(Cell.parse("b")) is None
    assert position.hand("first") == {Qpi.parse("C:P"): 2}
    assert position.hand("second") == {Qpi.parse("c:p"): 1}
    with pytest.raises(PositionError, match="'f' is not a square"):
        position.piece_at("f")
    with pytest.raises(PositionError, match="not a square"):
        position.piece_at("a1")
    with pytest.raises(AttributeError):
        position.active = "first"
    assert position.copy() is position
    assert hash(position) == hash(Position.from_feen("K3p 2P/p c/C"))


def test_apply_examples_of_the_stn_text() -> None:
    start = Position.from_feen(CHESS)
    after = start.apply(Transition.of({"e2": None, "e4": "C:P"}, toggle=True))
    assert after.to_feen() == "+rnbq+k^bn+r/pppppppp/8/8/4P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C"
    capture = Position.from_feen("8/8/8/3p4/3R4/8/8/8 / C/c").apply(
        Transition.of({"d4": None, "d5": "C:R"}, first_hand={"c:p": 1}, toggle=True)
    )
    assert capture.to_feen() == "8/8/8/3R4/8/8/8/8 p/ c/C"
    drop = Position.from_feen("9/9/9/9/9/9/9/9/9 P/ S/s").apply(
        Transition.of({"e5": "S:P"}, first_hand={"S:P": -1}, toggle=True)
    )
    assert drop.to_feen() == "9/9/9/9/4P4/9/9/9/9 / s/S"


def test_apply_that_cannot_apply_changes_nothing() -> None:
    position = Position.from_feen("8/8/8/8/8/8/8/8 P/ C/c")
    before = position.to_feen()
    with pytest.raises(PositionError, match="takes 2 C:P from the first player's hand, which holds 1"):
        position.apply(Transition.of(first_hand={"C:P": -2}))
    with pytest.raises(PositionError, match="i9, which is not a square"):
        position.apply(Transition.of({"i9": "C:P"}))
    with pytest.raises(PositionError, match="style 'X', neither player's"):
        position.apply(Transition.of({"a1": "X:P"}))
    with pytest.raises(PositionError, match="more than the 1 squares"):
        Position.from_feen("K / C/c").apply(Transition.of(first_hand={"C:P": 1}))
    assert position.to_feen() == before


def test_diff_needs_same_shape_and_styles() -> None:
    with pytest.raises(PositionError, match="different board shapes"):
        diff(Position.from_feen("8/8 / C/c"), Position.from_feen("9/9 / C/c"))
    with pytest.raises(PositionError, match="different styles"):
        diff(Position.from_feen("8/8 / C/c"), Position.from_feen("8/8 / S/s"))


def test_compose_rules() -> None:
    t1 = Transition.of({"a1": "C:P"}, first_hand={"C:P": -1, "C:R": 1}, toggle=True)
    t2 = Transition.of({"a1": None, "b1": "C:P"}, first_hand={"C:R": -1}, toggle=True)
    assert compose(t1, t2) == Transition.of({"a1": None, "b1": "C:P"}, first_hand={"C:P": -1})


# --- laws under Hypothesis -------------------------------------------------------------------

shapes = st.one_of(
    st.tuples(st.integers(1, 6)),
    st.tuples(st.integers(1, 4), st.integers(2, 4)),
    st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(2, 3)),
)
STYLES = (Sin("C", "first"), Sin("S", "second"))
pieces = st.builds(
    lambda owner, letter, state, terminal: Qpi.parse(
        f"{'C' if owner else 's'}:{state}{letter}{terminal}"
    ),
    st.booleans(), st.sampled_from("KPRkpr"), st.sampled_from(["", "+", "-"]), st.sampled_from(["", "^"]),
)


@st.composite
def positions(draw: st.DrawFn, shape: tuple[int, ...] | None = None) -> Position:
    if shape is None:
        shape = draw(shapes)
    cells = Geometry(shape).cells
    board = {cell: draw(pieces) for cell in cells if draw(st.integers(0, 2)) == 0}
    room = len(cells) - len(board)
    hands: dict[str, dict[Qpi, int]] = {"first": {}, "second": {}}
    for hand in hands.values():
        for piece in draw(st.lists(pieces, max_size=3)):
            if room > 0:
                hand[piece] = hand.get(piece, 0) + 1
                room -= 1
    active: Side = draw(st.sampled_from(["first", "second"]))
    return Position.from_feen(Feen(shape, board, hands, active, STYLES))


@st.composite
def transitions_for(draw: st.DrawFn, position: Position) -> Transition:
    cells = Geometry(position.shape).cells
    board = {
        cell: draw(st.one_of(st.none(), pieces))
        for cell in draw(st.lists(st.sampled_from(cells), max_size=4, unique=True))
    }
    hands = []
    sides: tuple[Side, Side] = ("first", "second")
    for side in sides:
        held = dict(position.hand(side))
        delta: dict[Qpi, int] = {}
        for piece in draw(st.lists(pieces, max_size=3, unique=True)):
            change = draw(st.integers(-held.get(piece, 0), 2).filter(bool))
            delta[piece] = change
        hands.append(delta)
    return Transition(board, hands[0], hands[1], draw(st.booleans()))


def _applied(position: Position, transition: Transition) -> Position:
    try:
        return position.apply(transition)
    except PositionError as error:
        assume("more than" not in str(error))  # a board too full is a fair refusal
        raise


@settings(max_examples=examples(150))
@given(positions(), st.data())
def test_diff_then_apply_gives_the_target(a: Position, data: st.DataObject) -> None:
    b = data.draw(positions(a.shape))
    assert apply(a, diff(a, b)) == b
    assert diff(a, a) == Transition()


@settings(max_examples=examples(150))
@given(positions(), st.data())
def test_invert_undoes(a: Position, data: st.DataObject) -> None:
    t = data.draw(transitions_for(a))
    b = _applied(a, t)
    assert apply(b, invert(t, a)) == a
    assert diff(a, b) == diff(a, apply(a, t))


@settings(max_examples=examples(150))
@given(positions(), st.data())
def test_compose_is_one_after_the_other(a: Position, data: st.DataObject) -> None:
    t1 = data.draw(transitions_for(a))
    b = _applied(a, t1)
    t2 = data.draw(transitions_for(b))
    c = _applied(b, t2)
    assert apply(a, compose(t1, t2)) == c
    assert compose(t1, Transition()) == t1 == compose(Transition(), t1)


def test_a_board_too_large_to_hold_is_a_clear_error() -> None:
    with pytest.raises(PositionError, match="more than the 4,194,304 a Position holds"):
        Position.from_feen("K99999999 / C/c")


def test_compact_form_is_private_and_read_only() -> None:
    # Issue 8, item 4: the generator's list of codes was a public, mutable attribute.
    position = Position.from_feen(CHESS)
    codes = position.codes
    assert isinstance(codes, tuple) and len(codes) == 64
    assert codes == tuple(position._codes)
    with pytest.raises(AttributeError):
        position.codes = ()  # type: ignore[misc]
    for name in ("geometry", "occupied", "hands"):
        assert not hasattr(position, name), name


def test_hand_rejects_a_wrong_player() -> None:
    position = Position.from_feen("K3p 2P/p c/C")
    with pytest.raises(TypeError, match=r"player must be 'first' or 'second'.*int"):
        position.hand(0)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="a player is 'first' or 'second', not 'third'"):
        position.hand("third")  # type: ignore[arg-type]
