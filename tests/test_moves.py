"""Moves: the compiled generator against plain evaluation, on random documents and positions."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggn import HAND, Cell, Feen, Qpi, Ruleset, Sin, Transition
from ggn import compiled as compiled_module
from ggn._types import Side
from ggn.evaluate import Move, reference_moves, satisfied, where
from ggn.position import Geometry, Position
from support import checked_moves, examples, fill_hands, move_key

pytestmark = pytest.mark.slow  # not in the README's quick run: random games against python-chess

ROOK = {"C:R": {"a1": {
    "a2": [{"must": {"a2": "empty"}}, {"must": {"a2": "enemy"}}],
    "a3": [{"must": {"a2": "empty", "a3": "empty"}}, {"must": {"a2": "empty", "a3": "enemy"}}],
}}}


def test_rook_ray() -> None:
    rules = Ruleset.from_value(ROOK)
    moves = checked_moves(rules, Position.from_feen("8/8/8/8/8/p7/8/R7 / C/c"))
    assert [str(m) for m in moves] == ["C:R a1-a2", "C:R a1-a3"]
    assert moves[1].possibilities == (rules["C:R"]["a1"]["a3"][1],)  # the capture
    assert [str(m) for m in checked_moves(rules, Position.from_feen("8/8/8/8/8/8/P7/R7 / C/c"))] == []
    capture = checked_moves(rules, Position.from_feen("8/8/8/8/8/8/p7/R7 / C/c"))
    assert [str(m) for m in capture] == ["C:R a1-a2"]
    # Not the active side's piece: no moves.
    assert checked_moves(rules, Position.from_feen("8/8/8/8/8/8/8/R7 / c/C")) == []


def test_spec_examples_as_moves() -> None:
    cannon = Ruleset.from_value({"x:c": {"b2": {"b8": [{
        "must": {"b3": "empty", "b4": "empty", "b5": "empty", "b6": "empty", "b8": "enemy"},
        "deny": {"b7": "empty"},
    }]}}})
    screen = Position.from_feen("9/9/1R7/1p7/9/9/9/9/1c7/9 / x/X")
    assert [str(m) for m in checked_moves(cannon, screen)] == ["x:c b2-b8"]
    no_screen = Position.from_feen("9/9/1R7/9/9/9/9/9/1c7/9 / x/X")
    assert checked_moves(cannon, no_screen) == []
    path = {"f1": "empty", "g1": "empty", "h1": "C:+R"}
    castle = Ruleset.from_value({"C:+K": {"e1": {"g1": [{"must": path}]}}})
    castled = checked_moves(castle, Position.from_feen("8/8/8/8/8/8/8/4+K2+R / C/c"))
    assert [str(m) for m in castled] == ["C:+K e1-g1"]
    assert checked_moves(castle, Position.from_feen("8/8/8/8/8/8/8/4+K2R / C/c")) == []


def test_drops_use_the_active_players_hand() -> None:
    rules = Ruleset.from_value({"S:P": {"*": {"e5": [{"must": {"e5": "empty"}}]}},
                                "s:p": {"*": {"e5": [{"must": {"e5": "empty"}}]}}})
    position = Position.from_feen("9/9/9/9/9/9/9/9/9 P/p S/s")
    assert [str(m) for m in checked_moves(rules, position)] == ["S:P *-e5"]
    position = Position.from_feen("9/9/9/9/9/9/9/9/9 P/p s/S")
    assert [str(m) for m in checked_moves(rules, position)] == ["s:p *-e5"]
    position = Position.from_feen("9/9/9/9/4p4/9/9/9/9 P/p S/s")
    assert checked_moves(rules, position) == []


def test_destinations_and_conditions_off_the_board() -> None:
    rules = Ruleset.from_value({"C:K": {"a1": {
        "a9": [{}],  # off the board: skipped
        # A must off the board fails; a deny off the board never fires.
        "a2": [{"must": {"z9": "empty"}}, {"deny": {"z9": "empty"}}],
    }}})
    moves = checked_moves(rules, Position.from_feen("8/8/8/8/8/8/8/K7 / C/c"))
    assert [str(m) for m in moves] == ["C:K a1-a2"]
    assert moves[0].possibilities == (rules["C:K"]["a1"]["a2"][1],)


def test_move_transitions() -> None:
    rules = Ruleset.from_value(ROOK)
    position = Position.from_feen("8/8/8/8/8/p7/8/R7 / C/c")
    capture = next(m for m in rules.moves(position) if str(m.destination) == "a3")
    assert capture.transition(position) == Transition.of(
        {"a1": None, "a3": "C:R"}, first_hand={"c:p": 1}, toggle=True
    )
    assert position.apply(capture.transition(position)).to_feen() == "8/8/8/8/8/R7/8/8 p/ c/C"
    drop = Move(Qpi.parse("s:p"), HAND, Cell.parse("e5"), ())
    shogi = Position.from_feen("9/9/9/9/9/9/9/9/9 /p s/S")
    assert drop.transition(shogi) == Transition.of({"e5": "s:p"}, second_hand={"s:p": -1}, toggle=True)
    to_hand = Move(Qpi.parse("C:R"), Cell.parse("a1"), HAND, ())
    assert to_hand.transition(position) == Transition.of({"a1": None}, first_hand={"C:R": 1}, toggle=True)


def test_where_is_the_reference_query() -> None:
    possibilities = Ruleset.from_value(ROOK)["C:R"]["a1"]["a3"]
    assert where(possibilities, "first", {}) == (possibilities[0],)
    assert where(possibilities, "first", {"a3": "c:p"}) == (possibilities[1],)
    assert where(possibilities, "second", {"a3": "c:p"}) == ()
    assert where(possibilities, "first", {"a2": "C:P"}) == ()
    with pytest.raises(ValueError, match="not a QPI"):
        where(possibilities, "first", {"a2": "pawn"})


def test_position_of_another_shape_gets_its_own_compiled_form() -> None:
    rules = Ruleset.from_value(ROOK)
    assert len(checked_moves(rules, Position.from_feen("8/8/8/8/8/8/8/R7 / C/c"))) == 2
    assert len(checked_moves(rules, Position.from_feen("3/3/R2 / C/c"))) == 2
    assert len(checked_moves(rules, Position.from_feen("3/R2 / C/c"))) == 1


# --- random documents, random positions -----------------------------------------------------

SHAPE = (3, 3)
CELLS = [str(c) for c in Geometry(SHAPE).cells] + ["d4"]  # one square off the board
PIECES = ["C:K", "C:P", "C:+P", "s:k", "s:p", "s:P", "C:k"]  # the styles C and s, native and derived
states = st.one_of(st.sampled_from(["empty", "enemy"]), st.sampled_from(PIECES))
conditions = st.dictionaries(st.sampled_from(CELLS), states, max_size=4)


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for piece in draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4, unique=True)):
        sources: dict[str, Any] = {}
        for source in draw(st.lists(st.sampled_from([*CELLS, "*"]), max_size=4, unique=True)):
            destinations: dict[str, Any] = {}
            for destination in draw(st.lists(st.sampled_from([*CELLS, "*"]), max_size=4, unique=True)):
                if source == destination == "*":
                    continue
                destinations[destination] = [
                    {field: {c: s for c, s in value.items() if c != source} for field, value in item.items()}
                    for item in draw(st.lists(
                        st.fixed_dictionaries({}, optional={"must": conditions, "deny": conditions}),
                        max_size=3,
                    ))
                ]
            sources[source] = destinations
        doc[piece] = sources
    return doc


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A 3x3 board, and pieces in both players' hands (up to two kinds, up to two each) as far
    as the board leaves room, either player to move: a drop reads the active player's hand."""
    cells = Geometry(SHAPE).cells
    board = {
        cell: Qpi.parse(draw(st.sampled_from(PIECES)))
        for cell in cells if draw(st.booleans())
    }
    hands = fill_hands(draw, PIECES, len(cells) - len(board), most=2)
    active: Side = draw(st.sampled_from(["first", "second"]))
    return Position.from_feen(Feen(SHAPE, board, hands, active, (Sin("C", "first"), Sin("S", "second"))))


def test_the_positions_fill_both_hands_for_either_side_to_move() -> None:
    # The audit of issue 8: the strategy once filled the first player's hand only, so drops of
    # the second player were never compared. Every combination must come up.
    seen: set[tuple[bool, bool, Side]] = set()

    @settings(max_examples=examples(200))
    @given(positions())
    def look(position: Position) -> None:
        seen.add((bool(position.hand("first")), bool(position.hand("second")), position.active))

    look()
    assert seen == {(first, second, side) for first in (False, True) for second in (False, True)
                    for side in ("first", "second")}


@settings(max_examples=examples(300))
@given(documents(), st.lists(positions(), min_size=1, max_size=4))
def test_compiled_agrees_with_plain_evaluation(doc: dict[str, Any], boards: list[Position]) -> None:
    rules = Ruleset.from_value(doc)
    for position in boards:
        for move in checked_moves(rules, position):
            assert all(satisfied(p, position) for p in move.possibilities)


@settings(max_examples=examples(100))
@given(documents(), st.lists(positions(), min_size=1, max_size=3))
def test_fallback_interpreter_agrees_too(doc: dict[str, Any], boards: list[Position]) -> None:
    budget = compiled_module._MAX_NODES
    compiled_module._MAX_NODES = 2  # every tree of more than 2 nodes falls back to the interpreter
    try:
        rules = Ruleset.from_value(doc)
        for position in boards:
            checked_moves(rules, position)
    finally:
        compiled_module._MAX_NODES = budget


@settings(max_examples=examples(200))
@given(documents(), positions(), st.data())
def test_fast_paths_are_the_full_list_filtered(
    doc: dict[str, Any], position: Position, data: st.DataObject
) -> None:
    rules = Ruleset.from_value(doc)
    every = sorted(rules.moves(position), key=move_key)
    piece = data.draw(st.one_of(st.none(), st.sampled_from(PIECES)))
    source = data.draw(st.one_of(st.none(), st.sampled_from([*CELLS, "*"])))
    destination = data.draw(st.one_of(st.none(), st.sampled_from([*CELLS, "*"])))
    expected = [
        m for m in every
        if (piece is None or str(m.piece) == piece)
        and (source is None or str(m.source) == source)
        and (destination is None or str(m.destination) == destination)
    ]
    got = rules.moves(position, piece=piece, source=source, destination=destination)
    assert sorted(got, key=move_key) == expected


def test_a_source_whose_conditions_never_hold_compiles_to_no_moves() -> None:
    # Found by Hypothesis: the only possibility needs b1 empty and denies it empty, so its
    # decision tree is empty and the generated function has no statement of its own.
    rules = Ruleset.from_value({"C:K": {"a1": {"a1": [{"must": {"b1": "empty"}, "deny": {"b1": "empty"}}],
                                               "a2": [{"must": {"b1": "enemy"}, "deny": {"b1": "enemy"}}]}}})
    position = Position.from_feen("3/3/K2 / C/s")
    assert rules.moves(position) == []
    assert rules.moves(position, source="a1") == []
    assert list(reference_moves(rules, position)) == []


def test_a_piece_on_a_square_its_document_gives_no_source() -> None:
    # Ruleset.moves runs the generators itself for a document without drops, and hands a
    # position where a piece stands on a square the document gives it no source on (a white
    # pawn on the last rank) to CompiledRuleset.moves; the answer is the same either way.
    from ggn.games.chess import from_fen, ruleset  # noqa: PLC0415

    rules = ruleset()
    assert rules.moves(Position.from_feen(from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")))  # compiled
    assert rules._last is not None and rules._last.board_only is not None
    for fen in ("P3k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/p3K3 b - - 0 1"):
        position = Position.from_feen(from_fen(fen))
        moves = checked_moves(rules, position)
        assert len(moves) == (15 if position.active == "first" else 5)
        assert all(str(move.source) not in ("a8", "a1") for move in moves)
