"""STN on positions: apply, diff, invert and compose.

- ``apply(position, t)`` is :meth:`Position.apply`: the position after ``t``.
- ``diff(a, b)`` is the minimal transition from ``a`` to ``b``.
- ``invert(t, a)`` undoes ``t`` applied to ``a``.
- ``compose(t1, t2)`` is ``t1`` then ``t2``: board entries last write wins, hand deltas add
  up and zeros vanish, toggles combine by exclusive or.

>>> a = Position.from_feen("8/8/8/8/8/8/4P3/8 / C/c")
>>> t = Transition.of({"e2": None, "e4": "C:P"}, toggle=True)
>>> b = apply(a, t)
>>> diff(a, b) == t, apply(b, invert(t, a)) == a
(True, True)
"""

from __future__ import annotations

from ggn._types import expect
from ggn.cell import Cell
from ggn.position import Position, PositionError, piece_of
from ggn.qpi import Qpi
from ggn.stn import Transition

__all__ = ["apply", "compose", "diff", "invert"]


def apply(position: Position, transition: Transition) -> Position:
    """The position after ``transition``; raise :class:`PositionError` if it cannot apply."""
    expect(position, Position, "position", "a Position")
    return position.apply(transition)


def _hand_diff(before: dict[Qpi, int], after: dict[Qpi, int]) -> dict[Qpi, int]:
    delta: dict[Qpi, int] = {}
    for piece in before.keys() | after.keys():
        change = after.get(piece, 0) - before.get(piece, 0)
        if change:
            delta[piece] = change
    return dict(sorted(delta.items(), key=lambda item: str(item[0])))


def diff(before: Position, after: Position) -> Transition:
    """The minimal transition that turns ``before`` into ``after``.

    Both must share a board shape and styles: STN records neither.
    """
    expect(before, Position, "before", "a Position")
    expect(after, Position, "after", "a Position")
    if before._geometry is not after._geometry:
        raise PositionError(
            f"positions of different board shapes ({before.shape} and {after.shape}) have no STN diff"
        )
    if before.styles != after.styles:
        raise PositionError("positions with different styles have no STN diff: STN does not record styles")
    cells = before._geometry.cells
    board: dict[Cell, Qpi | None] = {}
    for number, (old, new) in enumerate(zip(before._codes, after._codes, strict=True)):
        if old != new:
            board[cells[number]] = piece_of(new) if new else None
    return Transition(
        board,
        _hand_diff(dict(before._hands[0]), dict(after._hands[0])),
        _hand_diff(dict(before._hands[1]), dict(after._hands[1])),
        before.active != after.active,
    )


def invert(transition: Transition, before: Position) -> Transition:
    """The transition that undoes ``transition``, given the position it applied to."""
    expect(transition, Transition, "transition", "a Transition")
    expect(before, Position, "before", "a Position")
    board: dict[Cell, Qpi | None] = {}
    for cell in transition.board:
        number = before._geometry.index.get(cell)
        if number is None:
            raise PositionError(f"the transition sets {cell}, which is not on the board it applied to")
        code = before._codes[number]
        board[cell] = piece_of(code) if code else None
    return Transition(
        board,
        {piece: -delta for piece, delta in transition.hand("first").items()},
        {piece: -delta for piece, delta in transition.hand("second").items()},
        transition.toggle,
    )


def _add(first: dict[Qpi, int], second: dict[Qpi, int]) -> dict[Qpi, int]:
    total = dict(first)
    for piece, delta in second.items():
        count = total.get(piece, 0) + delta
        if count:
            total[piece] = count
        else:
            total.pop(piece, None)
    return total


def compose(first: Transition, second: Transition) -> Transition:
    """``first`` then ``second``, as one transition."""
    expect(first, Transition, "first", "a Transition")
    expect(second, Transition, "second", "a Transition")
    return Transition(
        {**first.board, **second.board},
        _add(dict(first.hand("first")), dict(second.hand("first"))),
        _add(dict(first.hand("second")), dict(second.hand("second"))),
        first.toggle != second.toggle,
    )
