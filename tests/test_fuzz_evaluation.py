"""Fuzz targets for evaluation: ``Position.from_feen``, ``Ruleset.moves`` (with its filters),
and ``apply``, ``diff``, ``invert`` and ``compose`` on random boards of one, two and three
dimensions, with both hands filled and either side to move.

- ``Position.from_feen`` of any text gives a position written back as that very text, or
  raises GGNError.
- ``Ruleset.moves`` gives what plain evaluation gives; every move's transition applies, is
  undone by its inverse, and is the same change as the diff of the two positions; a filter
  gives the full list filtered, and a filter that is no piece or location raises GGNError (a
  string) or TypeError (another type).
- Any transition applies or raises GGNError (PositionError) and leaves the position unchanged;
  what applies is undone by ``invert``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import VECTORS, check_notation, mutated
from ggn import Cell, Feen, Hand, Qpi, Ruleset, Sin, Transition, parse_location
from ggn._types import Side
from ggn.errors import DocumentError, GGNError
from ggn.evaluate import Move
from ggn.position import Geometry, Position
from ggn.transitions import apply, compose, diff, invert
from support import checked_moves, examples, fill_hands

pytestmark = pytest.mark.slow  # not in the README's quick run: property tests at their whole budget

STYLES = (Sin("C", "first"), Sin("S", "second"))
# Pieces of both players' styles (C first, s second), native or not, in every state.
PIECES = ["C:K^", "C:P", "C:+P", "C:-R", "C:k", "s:k^", "s:p", "s:+p", "s:-r", "s:P"]

# FEEN writes a board of one rank as 1D and one of one layer as 2D.
shapes = st.one_of(
    st.tuples(st.integers(1, 9)),
    st.tuples(st.integers(1, 5), st.integers(2, 5)),
    st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(2, 3)),
)


@st.composite
def positions(draw: st.DrawFn, shape: tuple[int, ...]) -> Position:
    """A board of ``shape``, pieces in both hands as far as the board leaves room, either side
    to move."""
    cells = Geometry(shape).cells
    board = {cell: Qpi.parse(draw(st.sampled_from(PIECES))) for cell in cells if draw(st.integers(0, 2)) == 0}
    hands = fill_hands(draw, PIECES, len(cells) - len(board), most=3)
    active: Side = draw(st.sampled_from(["first", "second"]))
    return Position.from_feen(Feen(shape, board, hands, active, STYLES))


def locations(shape: tuple[int, ...]) -> st.SearchStrategy[str]:
    """The board's squares, the hand, and a square off the board."""
    on_board = [str(cell) for cell in Geometry(shape).cells]
    return st.sampled_from([*on_board, "*", "z9", "a1A" if len(shape) != 3 else "a"])


@st.composite
def rulesets(draw: st.DrawFn, shape: tuple[int, ...]) -> Ruleset:
    where = locations(shape)
    conditions = st.dictionaries(
        where.filter(lambda location: location != "*"),
        st.one_of(st.sampled_from(["empty", "enemy"]), st.sampled_from(PIECES)),
        max_size=3,
    )
    value: dict[str, Any] = {}
    for piece in draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4, unique=True)):
        sources: dict[str, Any] = {}
        for source in draw(st.lists(where, max_size=4, unique=True)):
            destinations: dict[str, Any] = {}
            # The source itself too: a null move is a valid GGN move, rare when drawn at random.
            for destination in draw(st.lists(st.one_of(where, st.just(source)), max_size=3, unique=True)):
                if source == destination == "*":
                    continue
                possibilities = draw(st.lists(
                    st.fixed_dictionaries({}, optional={"must": conditions, "deny": conditions}), max_size=2))
                destinations[destination] = [
                    {field: {c: s for c, s in given.items() if c != source} for field, given in item.items()}
                    for item in possibilities
                ]
            sources[source] = destinations
        value[piece] = sources
    return Ruleset.from_value(value)


def _undone(position: Position, transition: Transition, after: Position) -> None:
    assert apply(after, invert(transition, position)) == position
    assert apply(position, diff(position, after)) == after
    assert apply(position, compose(transition, invert(transition, position))) == position
    assert apply(position, compose(transition, Transition())) == after


@settings(max_examples=examples(120))
@given(data=st.data())
def test_moves_agree_with_plain_evaluation_and_their_transitions_undo(data: st.DataObject) -> None:
    shape = data.draw(shapes)
    rules = data.draw(rulesets(shape))
    position = data.draw(positions(shape))
    for move in checked_moves(rules, position):
        transition = move.transition(position)
        after = position.apply(transition)
        assert after.active == position.inactive
        _undone(position, transition, after)


JUNK = ("", "e0", "C:", "**", "a1 ", "K", "1")  # strings that are no piece and no location


def _matches(move: Move, piece: Any, source: Any, destination: Any) -> bool:
    return ((piece is None or str(move.piece) == str(piece))
            and (source is None or str(move.source) == str(source))
            and (destination is None or str(move.destination) == str(destination)))


@settings(max_examples=examples(120))
@given(data=st.data())
def test_filters_are_the_full_list_filtered_or_an_error(data: st.DataObject) -> None:
    shape = data.draw(shapes)
    rules = data.draw(rulesets(shape))
    position = data.draw(positions(shape))
    junk = st.sampled_from(JUNK)
    wrong = st.sampled_from([5, 1.5, b"a1", ["a1"], True])
    pieces = st.sampled_from(PIECES)
    piece: Any = data.draw(st.one_of(st.none(), pieces, pieces.map(Qpi.parse), junk, wrong))
    where = locations(shape)
    source: Any = data.draw(st.one_of(st.none(), where, where.map(parse_location), junk, wrong))
    destination: Any = data.draw(st.one_of(st.none(), locations(shape), junk, wrong))
    try:
        got = rules.moves(position, piece=piece, source=source, destination=destination)
    except GGNError as error:
        assert str(error)
        # Only a string that is no piece or location is refused: a square off the board, or of
        # another number of dimensions, is a location that no move has.
        assert any(isinstance(value, str) and value in JUNK for value in (piece, source, destination)), error
        return
    except TypeError:
        assert any(not isinstance(value, (str, Qpi, Cell, Hand, type(None)))
                   for value in (piece, source, destination))
        return
    every = [m for m in rules.moves(position) if _matches(m, piece, source, destination)]
    assert sorted(map(str, got)) == sorted(map(str, every))


@settings(max_examples=examples(120))
@given(data=st.data())
def test_any_transition_applies_and_is_undone_or_raises_position_error(data: st.DataObject) -> None:
    shape = data.draw(shapes)
    position = data.draw(positions(shape))
    where = locations(shape).filter(lambda location: location != "*")
    board = data.draw(st.dictionaries(where, st.one_of(st.none(), st.sampled_from([*PIECES, "c:k", "X:K"])),
                                      max_size=4))
    hands = [data.draw(st.dictionaries(st.sampled_from([*PIECES, "x:p"]),
                                       st.integers(-3, 3).filter(bool), max_size=3)) for _ in range(2)]
    try:
        transition = Transition.of(board, hands[0], hands[1], data.draw(st.booleans()))
    except DocumentError:
        return  # a hand delta of 0 or a bad piece: the document's own fuzz targets cover these
    before = position.to_feen()
    try:
        after = position.apply(transition)
    except GGNError as error:
        assert str(error)
        assert position.to_feen() == before
        return
    assert Position.from_feen(after.to_feen()) == after
    _undone(position, transition, after)


@settings(max_examples=examples(150))
@given(text=mutated("FEEN"))
def test_any_feen_text_makes_a_position_or_raises_ggn_error(text: str) -> None:
    try:
        position = Position.from_feen(text)
    except GGNError as error:
        assert str(error)
        assert check_notation("FEEN", text) is None or "more than" in str(error)  # a board too big to hold
        return
    assert position.to_feen() == text
    assert Position.from_feen(Feen.parse(text)) == position


@pytest.mark.parametrize("text", [case["text"] for case in
                                  json.loads((VECTORS / "feen.json").read_text(encoding="utf-8"))["invalid"]])
def test_the_invalid_feen_vectors_raise_ggn_error(text: str) -> None:
    # The valid ones make positions that write them back: test_positions.py.
    with pytest.raises(GGNError):
        Position.from_feen(text)
