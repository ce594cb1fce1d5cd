"""QPI: the Qualified Piece Identifier, ``<SIN>:<PIN>``.

The SIN gives the Piece Style, the PIN the Piece Name, Side, State and
terminal status. The two cases may differ (``C:k``): the piece is then
*derived* (of the other player's style) rather than *native*; this is not part
of the piece's identity, which is the whole token.

>>> qpi = Qpi.parse("c:+p")
>>> (qpi.style, qpi.name, qpi.side, qpi.state, qpi.native)
('C', 'P', 'second', 'enhanced', True)
>>> Qpi.parse("C:k").native
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ggn._cache import Memo
from ggn._types import Side, State
from ggn.errors import NotationError, NotationTypeError
from ggn.pin import Pin, parse_pin_at
from ggn.sin import Sin, _is_ascii_letter

__all__ = ["Qpi"]


@dataclass(frozen=True, slots=True)
class Qpi:
    """A qualified piece: its style (``sin``) and the piece itself (``pin``)."""

    sin: Sin
    pin: Pin

    def __post_init__(self) -> None:
        if type(self.sin) is not Sin or type(self.pin) is not Pin:  # exact: cheap on every piece made
            for field, value, kind in (("sin", self.sin, Sin), ("pin", self.pin, Pin)):
                if not isinstance(value, kind):
                    raise NotationTypeError.argument("QPI", value, field, f"a {kind.__name__}")

    @classmethod
    def parse(cls, text: str) -> Qpi:
        """Parse a QPI string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_qpi(text)

    @classmethod
    def is_valid(cls, text: object) -> bool:
        """Whether ``text`` is a valid QPI string."""
        if not isinstance(text, str):
            return False
        try:
            _parse_qpi(text)
        except NotationError:
            return False
        return True

    @property
    def style(self) -> str:
        """The Piece Style, as an uppercase letter."""
        return self.sin.style

    @property
    def name(self) -> str:
        """The Piece Name, as an uppercase letter."""
        return self.pin.name

    @property
    def side(self) -> Side:
        """The Piece Side, from the PIN's case."""
        return self.pin.side

    @property
    def state(self) -> State:
        return self.pin.state

    @property
    def terminal(self) -> bool:
        return self.pin.terminal

    @property
    def native(self) -> bool:
        """True when the SIN and PIN cases agree (the piece has its own side's style)."""
        return self.sin.side == self.pin.side

    @property
    def derived(self) -> bool:
        return self.sin.side != self.pin.side

    def fields(self) -> dict[str, object]:
        """The JSON-ready description: the PIN's fields, the style and the relationship.

        >>> fields = Qpi.parse("C:k").fields()
        >>> fields["name"], fields["side"], fields["style"], fields["native"]
        ('K', 'second', 'C', False)
        """
        fields = self.pin.fields()
        fields["style"] = self.sin.style
        fields["native"] = self.native
        return fields

    def __str__(self) -> str:
        return f"{self.sin}:{self.pin}"

    def __repr__(self) -> str:
        return f"Qpi.parse({str(self)!r})"


def _build_qpi(text: str) -> Qpi:
    if not isinstance(text, str):
        raise NotationTypeError.of("QPI", text)
    if not text:
        raise NotationError("QPI", text, "a qualified piece cannot be empty; expected <SIN>:<PIN>")
    colon = text.find(":")
    if colon < 0:
        raise NotationError(
            "QPI", text, "missing ':' between style and piece (expected <SIN>:<PIN>)"
        )
    if colon == 0:
        raise NotationError("QPI", text, "missing style letter before ':'", 0, 1)
    if colon != 1:
        if not _is_ascii_letter(text[0]):
            raise NotationError(
                "QPI", text, f"the style must be an ASCII letter, found {text[0]!r}", 0, 1
            )
        raise NotationError("QPI", text, "the style (SIN) is exactly one ASCII letter", 0, colon)
    try:
        sin = Sin.parse(text[0])
    except NotationError:
        raise NotationError(
            "QPI", text, f"the style must be an ASCII letter, found {text[0]!r}", 0, 1
        ) from None
    if colon == len(text) - 1:
        raise NotationError("QPI", text, "missing piece (PIN) after ':'", colon, colon + 1)
    pin, end = parse_pin_at(text, 2, "QPI")
    if end != len(text):
        ch = text[end]
        reason = (
            "exactly one ':' separates style and piece" if ch == ":"
            else "the piece (PIN) has one letter" if ch.isascii() and ch.isalpha()
            else "the terminal mark ^ appears once, last" if ch == "^"
            else f"unexpected {ch!r} after the piece"
        )
        raise NotationError("QPI", text, reason, end, len(text))
    return Qpi(sin, pin)


_parse_qpi: Final = Memo(_build_qpi)
