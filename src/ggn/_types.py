"""Small shared vocabulary of the texts: sides and piece states."""

from __future__ import annotations

from typing import Literal

__all__ = ["SIDES", "STATES", "Side", "State", "opponent"]

Side = Literal["first", "second"]
"""A Piece Side or a player: the first (uppercase) or the second (lowercase)."""

State = Literal["normal", "enhanced", "diminished"]
"""A Piece State: no modifier, ``+`` or ``-``."""

SIDES: tuple[Side, Side] = ("first", "second")
STATES: tuple[State, State, State] = ("normal", "enhanced", "diminished")


def opponent(side: Side) -> Side:
    """The other side."""
    return "second" if side == "first" else "first"
