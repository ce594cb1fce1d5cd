"""EPIN: the Extended Piece Identifier Notation, ``[+-]?[A-Za-z]^?'?``.

A PIN optionally followed by the derivation mark ``'``. Without it the piece is
*native*, of its own side's style; with it *derived*, of the other side's style.
FEEN writes its pieces in EPIN; the styles of a position turn them into QPI.

>>> epin = Epin.parse("+k^'")
>>> (epin.name, epin.side, epin.state, epin.terminal, epin.derived)
('K', 'second', 'enhanced', True, True)
>>> str(Epin(Pin("P", "first"), derived=True))
"P'"
>>> Epin.parse("K'").to_qpi(Sin.parse("C"), Sin.parse("m"))
Qpi.parse('m:K')
>>> Epin.from_qpi(Qpi.parse("C:m"))
Epin.parse("m'")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ggn._cache import Memo
from ggn._types import Side, State
from ggn.errors import NotationError, NotationTypeError
from ggn.pin import Pin, parse_pin_at
from ggn.qpi import Qpi
from ggn.sin import Sin

__all__ = ["Epin", "parse_epin_at"]


@dataclass(frozen=True, slots=True)
class Epin:
    """A piece as FEEN writes it: a PIN (``pin``) and whether it is ``derived``."""

    pin: Pin
    derived: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.pin, Pin):
            raise NotationTypeError.argument("EPIN", self.pin, "pin", "a Pin")
        if not isinstance(self.derived, bool):
            raise NotationTypeError.argument("EPIN", self.derived, "derived", "a bool")

    @classmethod
    def parse(cls, text: str) -> Epin:
        """Parse an EPIN string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_epin(text)

    @classmethod
    def is_valid(cls, text: object) -> bool:
        """Whether ``text`` is a valid EPIN string."""
        if not isinstance(text, str):
            return False
        try:
            _parse_epin(text)
        except NotationError:
            return False
        return True

    @classmethod
    def from_qpi(cls, qpi: Qpi) -> Epin:
        """The EPIN of a qualified piece: derived when the SIN and PIN cases differ."""
        if not isinstance(qpi, Qpi):
            raise NotationTypeError.argument("EPIN", qpi, "qpi", "a Qpi")
        return cls(qpi.pin, qpi.derived)

    @property
    def name(self) -> str:
        """The Piece Name, as an uppercase letter."""
        return self.pin.name

    @property
    def side(self) -> Side:
        """The Piece Side, from the letter's case."""
        return self.pin.side

    @property
    def state(self) -> State:
        return self.pin.state

    @property
    def terminal(self) -> bool:
        return self.pin.terminal

    @property
    def native(self) -> bool:
        """True when the piece has its own side's style (no ``'``)."""
        return not self.derived

    def to_qpi(self, first: Sin, second: Sin) -> Qpi:
        """The qualified piece under the players' styles ``first`` and ``second``.

        A native piece takes the style of its own side's player, a derived one
        the style of the other player.
        """
        for parameter, value in (("first", first), ("second", second)):
            if not isinstance(value, Sin):
                raise NotationTypeError.argument("EPIN", value, parameter, "a Sin")
        if first.side != "first" or second.side != "second":
            raise NotationError(
                "EPIN", f"{first}/{second}",
                "the first player's style is uppercase and the second player's lowercase",
            )
        first_owns = (self.pin.side == "first") != self.derived
        return Qpi(first if first_owns else second, self.pin)

    def fields(self) -> dict[str, object]:
        """The JSON-ready description: the PIN's fields and ``derived``.

        >>> Epin.parse("K^'").fields()
        {'name': 'K', 'side': 'first', 'state': 'normal', 'terminal': True, 'derived': True}
        """
        fields = self.pin.fields()
        fields["derived"] = self.derived
        return fields

    def __str__(self) -> str:
        return f"{self.pin}'" if self.derived else str(self.pin)

    def __repr__(self) -> str:
        return f"Epin.parse({str(self)!r})"


def parse_epin_at(text: str, pos: int, notation: str) -> tuple[Epin, int]:
    """Read one EPIN from ``text`` at ``pos``; return it and the position after it.

    Errors name ``notation`` (the notation being parsed) and point into ``text``.
    What follows the piece is left to the caller.
    """
    pin, pos = parse_pin_at(text, pos, notation)
    if pos < len(text) and text[pos] == "'":
        return Epin(pin, True), pos + 1
    return Epin(pin, False), pos


def _build_epin(text: str) -> Epin:
    if not isinstance(text, str):
        raise NotationTypeError.of("EPIN", text)
    if not text:
        raise NotationError("EPIN", text, "a piece cannot be empty")
    epin, end = parse_epin_at(text, 0, "EPIN")
    if end != len(text):
        ch = text[end]
        if ch == "'":
            reason = "the derivation mark ' appears once, last"
        elif ch == "^":
            reason = (
                "the terminal mark ^ comes before the derivation mark '" if epin.derived
                else "the terminal mark ^ appears once, after the letter"
            )
        elif ch.isascii() and ch.isalpha():
            reason = "a piece has one letter"
        else:
            reason = f"unexpected {ch!r} after the piece"
        raise NotationError("EPIN", text, reason, end, len(text))
    return epin


_parse_epin: Final = Memo(_build_epin)
