"""PIN: the Piece Identifier Notation, ``[+-]?[A-Za-z]^?``.

The letter is the Piece Name and its case the Piece Side (uppercase: first).
``+`` marks the enhanced state, ``-`` the diminished one; ``^`` a terminal piece.

>>> pin = Pin.parse("+K^")
>>> (pin.name, pin.side, pin.state, pin.terminal)
('K', 'first', 'enhanced', True)
>>> str(Pin("P", "second", "diminished", False))
'-p'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ggn._cache import Memo
from ggn._types import Side, State
from ggn.errors import NotationError, NotationTypeError

__all__ = ["Pin", "parse_pin_at"]

_PREFIX: dict[State, str] = {"normal": "", "enhanced": "+", "diminished": "-"}


def _letter(ch: str) -> bool:
    return "A" <= ch <= "Z" or "a" <= ch <= "z"


@dataclass(frozen=True, slots=True)
class Pin:
    """A piece: ``name`` (one uppercase letter), ``side``, ``state`` and ``terminal``."""

    name: str
    side: Side
    state: State = "normal"
    terminal: bool = False

    def __post_init__(self) -> None:
        for field, value in (("name", self.name), ("side", self.side), ("state", self.state)):
            if not isinstance(value, str):
                raise NotationTypeError.argument("PIN", value, field, "a str")
        if not (len(self.name) == 1 and "A" <= self.name <= "Z"):
            raise NotationError("PIN", repr(self.name), "name must be one uppercase ASCII letter")
        if self.side not in ("first", "second"):
            raise NotationError("PIN", repr(self.side), "side must be 'first' or 'second'")
        if self.state not in _PREFIX:
            raise NotationError(
                "PIN", repr(self.state), "state must be 'normal', 'enhanced' or 'diminished'"
            )
        if not isinstance(self.terminal, bool):
            raise NotationTypeError.argument("PIN", self.terminal, "terminal", "a bool")

    @classmethod
    def parse(cls, text: str) -> Pin:
        """Parse a PIN string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_pin(text)

    @property
    def letter(self) -> str:
        """The letter as written: uppercase for the first side."""
        return self.name if self.side == "first" else self.name.lower()

    def fields(self) -> dict[str, object]:
        """The JSON-ready description of the piece.

        >>> Pin.parse("-p^").fields()
        {'name': 'P', 'side': 'second', 'state': 'diminished', 'terminal': True}
        """
        return {
            "name": self.name, "side": self.side, "state": self.state, "terminal": self.terminal
        }

    def __str__(self) -> str:
        return _PREFIX[self.state] + self.letter + ("^" if self.terminal else "")

    def __repr__(self) -> str:
        return f"Pin.parse({str(self)!r})"


def parse_pin_at(text: str, pos: int, notation: str) -> tuple[Pin, int]:
    """Read one PIN from ``text`` at ``pos``; return it and the position after it.

    Errors name ``notation`` (the notation being parsed) and point into ``text``.
    """
    length = len(text)
    start = pos
    state: State = "normal"
    if pos < length and text[pos] in "+-":
        state = "enhanced" if text[pos] == "+" else "diminished"
        pos += 1
    if pos >= length:
        raise NotationError(notation, text, "expected a piece letter after the state", start, pos)
    ch = text[pos]
    if not _letter(ch):
        if ch in "+-":
            raise NotationError(notation, text, "at most one state modifier (+ or -)", pos, pos + 1)
        raise NotationError(
            notation, text, f"expected a piece letter A-Z or a-z, found {ch!r}", pos, pos + 1
        )
    pos += 1
    terminal = False
    if pos < length and text[pos] == "^":
        terminal = True
        pos += 1
    pin = Pin(ch.upper(), "first" if ch <= "Z" else "second", state, terminal)
    return pin, pos


def _build_pin(text: str) -> Pin:
    if not isinstance(text, str):
        raise NotationTypeError.of("PIN", text)
    if not text:
        raise NotationError("PIN", text, "a piece cannot be empty")
    pin, end = parse_pin_at(text, 0, "PIN")
    if end != len(text):
        ch = text[end]
        reason = (
            "a piece has one letter" if _letter(ch)
            else "the terminal mark ^ appears once, last" if ch == "^"
            else f"unexpected {ch!r} after the piece"
        )
        raise NotationError("PIN", text, reason, end, len(text))
    return pin


_parse_pin: Final = Memo(_build_pin)
