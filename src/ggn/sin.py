"""SIN: the Style Identifier Notation, one ASCII letter.

The letter names a Piece Style; its case names the side the style belongs to
(uppercase: the first side). ``C`` and ``c`` are one style.

>>> sin = Sin.parse("c")
>>> (sin.style, sin.side)
('C', 'second')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ggn._cache import Memo
from ggn._types import Side
from ggn.errors import NotationError, NotationTypeError

__all__ = ["Sin"]


def _is_ascii_letter(ch: str) -> bool:
    return len(ch) == 1 and ("A" <= ch <= "Z" or "a" <= ch <= "z")


@dataclass(frozen=True, slots=True)
class Sin:
    """A style: an uppercase ``style`` letter and the ``side`` whose style it is."""

    style: str
    side: Side

    def __post_init__(self) -> None:
        for field, value in (("style", self.style), ("side", self.side)):
            if not isinstance(value, str):
                raise NotationTypeError.argument("SIN", value, field, "a str")
        if not (_is_ascii_letter(self.style) and self.style.isupper()):
            raise NotationError("SIN", repr(self.style), "style must be one uppercase ASCII letter")
        if self.side not in ("first", "second"):
            raise NotationError("SIN", repr(self.side), "side must be 'first' or 'second'")

    @classmethod
    def parse(cls, text: str) -> Sin:
        """Parse a SIN string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_sin(text)

    @property
    def letter(self) -> str:
        """The SIN letter as written: uppercase for the first side."""
        return self.style if self.side == "first" else self.style.lower()

    def fields(self) -> dict[str, object]:
        """The JSON-ready description of the style.

        >>> Sin.parse("c").fields()
        {'style': 'C', 'side': 'second'}
        """
        return {"style": self.style, "side": self.side}

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Sin.parse({self.letter!r})"


def _build_sin(text: str) -> Sin:
    if not isinstance(text, str):
        raise NotationTypeError.of("SIN", text)
    if len(text) != 1:
        if not text:
            raise NotationError("SIN", text, "a style is one ASCII letter, got nothing")
        if not _is_ascii_letter(text[0]):
            raise NotationError(
                "SIN", text, f"a style is one ASCII letter A-Z or a-z, found {text[0]!r}", 0, 1
            )
        raise NotationError("SIN", text, "a style is exactly one ASCII letter", 1, len(text))
    if not _is_ascii_letter(text):
        raise NotationError("SIN", text, "a style is one ASCII letter A-Z or a-z", 0, 1)
    return Sin(text.upper(), "first" if text.isupper() else "second")


_parse_sin: Final = Memo(_build_sin)
