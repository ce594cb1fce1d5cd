"""GGN and LCN evaluated on positions, the plain way: readable, and the reference in tests.

A possibility holds when every ``must`` condition holds and no ``deny`` condition does:

- ``"empty"``: the square holds no piece;
- ``"enemy"``: it holds a piece whose side differs from the Active Player's side;
- a QPI: it holds exactly that piece.

A condition on a square the board does not have: a ``must`` on it fails, a ``deny`` on it
never fires.

>>> from ggn.ruleset import Ruleset
>>> rules = Ruleset.loads('{"C:R": {"a1": {"a3": [{"must": {"a2": "empty", "a3": "empty"}},'
...                       ' {"must": {"a2": "empty", "a3": "enemy"}}]}}}')
>>> position = Position.from_feen("8/8/8/8/8/p7/8/R7 / C/c")
>>> [str(move) for move in reference_moves(rules, position)]
['C:R a1-a3']
>>> len(where(rules["C:R"]["a1"]["a3"], "first", {"a3": "c:p"}))
1
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ggn._types import Side
from ggn.cell import HAND, Cell
from ggn.errors import GGNError, NotationError
from ggn.lcn import EMPTY, ENEMY, Conditions, StateValue
from ggn.move import Move
from ggn.position import Position, code_of
from ggn.qpi import Qpi, _parse_qpi
from ggn.ruleset import Possibilities, Possibility, Ruleset

# Move lives in ggn.move; it is re-exported here, where it was first defined.
__all__ = ["Move", "condition_holds", "reference_moves", "satisfied", "where"]


def condition_holds(state: StateValue, code: int, active: Side) -> bool:
    """Whether a square holding ``code`` (0 for empty) meets ``state`` for the Active Player."""
    if state == EMPTY:
        return code == 0
    if state == ENEMY:
        return code < 0 if active == "first" else code > 0
    assert isinstance(state, Qpi)
    return code == code_of(state)


def _all_hold(conditions: Conditions, position: Position, active: Side) -> bool:
    index = position._geometry.index
    codes = position._codes
    for cell, state in conditions.items():
        number = index.get(cell)
        if number is None or not condition_holds(state, codes[number], active):
            return False
    return True


def _any_holds(conditions: Conditions, position: Position, active: Side) -> bool:
    index = position._geometry.index
    codes = position._codes
    for cell, state in conditions.items():
        number = index.get(cell)
        if number is not None and condition_holds(state, codes[number], active):
            return True
    return False


def satisfied(possibility: Possibility, position: Position, active: Side | None = None) -> bool:
    """Whether a possibility holds on ``position`` (for its active player unless ``active``)."""
    side = position.active if active is None else active
    return _all_hold(possibility.must, position, side) and not _any_holds(possibility.deny, position, side)


def where(possibilities: Possibilities, active: Side, squares: Mapping[str, str]) -> Possibilities:
    """The reference library's query: the possibilities that hold, in document order.

    ``squares`` maps CELL strings to QPI strings; a square absent from it is empty, and a QPI
    matches by exact string equality.
    """
    if active not in ("first", "second"):
        raise GGNError(f"the active side is 'first' or 'second', not {active!r}")
    sides: dict[str, Side] = {}
    for cell, piece in squares.items():
        try:
            sides[cell] = _parse_qpi(piece).side
        except NotationError as error:
            raise GGNError(f"square {cell!r} holds {piece!r}, which is not a QPI: {error.reason}") from None

    def holds(cell: Cell, state: StateValue) -> bool:
        held = squares.get(str(cell))
        if state == EMPTY:
            return held is None
        if state == ENEMY:
            return held is not None and sides[str(cell)] != active
        return held == str(state)

    return tuple(
        p for p in possibilities
        if all(holds(c, s) for c, s in p.must.items()) and not any(holds(c, s) for c, s in p.deny.items())
    )


def reference_moves(ruleset: Ruleset, position: Position) -> Iterator[Move]:
    """Every pseudo-legal move, by direct evaluation of the document (slow, plainly right).

    Board pieces of the Active Player's side, then each distinct piece of the Active Player's
    hand (source ``*``); destinations off the board are skipped.
    """
    active = position.active
    index = position._geometry.index
    codes = position._codes
    hand = position.hand(active)
    for piece, sources in ruleset.items():
        for source, destinations in sources.items():
            if source is HAND:
                if hand.get(piece, 0) <= 0:
                    continue
            else:
                assert isinstance(source, Cell)
                number = index.get(source)
                if piece.side != active or number is None or codes[number] != code_of(piece):
                    continue
            for destination, possibilities in destinations.items():
                if destination is not HAND and destination not in index:
                    continue
                allowed = tuple(p for p in possibilities if satisfied(p, position, active))
                if allowed:
                    yield Move(piece, source, destination, allowed)
