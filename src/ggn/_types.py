"""Small shared vocabulary of the texts: sides and piece states."""

from __future__ import annotations

from typing import Any, Literal

from ggn.errors import GGNError

__all__ = ["SIDES", "STATES", "Side", "State", "expect", "opponent", "player_index"]

Side = Literal["first", "second"]
"""A Piece Side or a player: the first (uppercase) or the second (lowercase)."""

State = Literal["normal", "enhanced", "diminished"]
"""A Piece State: no modifier, ``+`` or ``-``."""

SIDES: tuple[Side, Side] = ("first", "second")
STATES: tuple[State, State, State] = ("normal", "enhanced", "diminished")


def opponent(side: Side) -> Side:
    """The other side."""
    return "second" if side == "first" else "first"


def expect(value: object, types: type | tuple[type, ...], parameter: str, what: str) -> Any:
    """The one check of an argument's Python type at the public entry points: ``value``
    itself if it has the type, else :class:`TypeError` naming the parameter, what it
    takes and the type received.

    ``bool`` is never taken for ``int``: a JSON ``true`` is not a count.
    """
    if isinstance(value, types) and not (
        isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,))
    ):
        return value
    raise TypeError(f"{parameter} must be {what}, got {type(value).__name__}")


def player_index(player: object) -> int:
    """0 for ``"first"``, 1 for ``"second"``: the one check behind every ``hand(player)``.

    Raise :class:`TypeError` for a value that is not a string and
    :class:`~ggn.errors.GGNError` for any other string.
    """
    if player == "first":
        return 0
    if player == "second":
        return 1
    if not isinstance(player, str):
        raise TypeError(f"player must be 'first' or 'second' (a str), not {type(player).__name__}")
    raise GGNError(f"a player is 'first' or 'second', not {player[:40]!r}")
