"""CELL coordinates and the HAND location.

A CELL names a square of a board of any number of dimensions. Dimensions
cycle through three alphabets: lowercase letters (dimension 1, 4, 7, ...),
positive integers without a leading zero (2, 5, 8, ...) and uppercase letters
(3, 6, 9, ...). Letter runs are bijective base 26 and zero-based (``a`` is 0,
``z`` 25, ``aa`` 26); integers are one-based (``1`` is index 0).

>>> Cell.parse("e4").indices
(4, 3)
>>> str(Cell((26, 9, 1)))
'aa10B'
>>> Cell.parse("a1A").dimensions
3

HAND is the single character ``*``: a player's off-board reserve.

>>> parse_location("*") is HAND
True
"""

from __future__ import annotations

from typing import ClassVar, Final, final

from ggn._cache import Memo
from ggn._decimal import decimal_text, decimal_value
from ggn.errors import NotationError

__all__ = ["HAND", "Cell", "Hand", "Location", "parse_location"]

_LOWER = "abcdefghijklmnopqrstuvwxyz"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"
_KIND_NAMES = ("a lowercase letter", "a digit 1-9", "an uppercase letter")


def _letters_to_index(run: str, base: int) -> int:
    value = 0
    for ch in run:
        value = value * 26 + (ord(ch) - base + 1)
    return value - 1


def _index_to_letters(index: int, base: int) -> str:
    n = index + 1
    out: list[str] = []
    while n > 0:
        n, r = divmod(n - 1, 26)
        out.append(chr(base + r))
    return "".join(reversed(out))


def _scan(text: str) -> tuple[int, ...]:
    """Parse a CELL string into zero-based indices, or raise NotationError."""
    if not isinstance(text, str):
        raise NotationError("CELL", repr(text), f"expected a string, got {type(text).__name__}")
    if not text:
        raise NotationError("CELL", text, "a coordinate cannot be empty")
    for pos, ch in enumerate(text):
        if ch > "\x7f":
            raise NotationError("CELL", text, f"non-ASCII character {ch!r}", pos, pos + 1)
    indices: list[int] = []
    pos = 0
    length = len(text)
    while pos < length:
        kind = len(indices) % 3
        start = pos
        if kind == 1:
            if text[pos] == "0":
                raise NotationError(
                    "CELL", text,
                    f"dimension {len(indices) + 1} is an integer and cannot start with 0",
                    pos, pos + 1,
                )
            while pos < length and text[pos] in _DIGITS:
                pos += 1
        else:
            alphabet = _LOWER if kind == 0 else _UPPER
            while pos < length and text[pos] in alphabet:
                pos += 1
        if pos == start:
            ch = text[pos]
            raise NotationError(
                "CELL", text,
                f"dimension {len(indices) + 1} expects {_KIND_NAMES[kind]}, found {ch!r}",
                pos, pos + 1,
            )
        run = text[start:pos]
        if kind == 1:
            indices.append(decimal_value(run) - 1)
        else:
            indices.append(_letters_to_index(run, 97 if kind == 0 else 65))
    return tuple(indices)


@final
class Cell:
    """A square of a board, as a CELL coordinate.

    Built from a string with :meth:`parse`, or from zero-based indices.
    ``str()`` gives the canonical CELL string; ``parse(str(c)) == c``.
    """

    __slots__ = ("_hash", "_text", "indices")
    indices: tuple[int, ...]
    _text: str | None
    _hash: int

    def __init__(self, indices: tuple[int, ...] | list[int]) -> None:
        idx = tuple(indices)
        if not idx:
            raise NotationError("CELL", "", "a coordinate needs at least one dimension")
        for number, value in enumerate(idx, 1):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise NotationError(
                    "CELL", repr(idx), f"index of dimension {number} must be a non-negative integer"
                )
        object.__setattr__(self, "indices", idx)
        object.__setattr__(self, "_text", None)
        object.__setattr__(self, "_hash", hash(idx))

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse a CELL string; raise :class:`~ggn.errors.NotationError` if invalid."""
        return _parse_cell(text)

    @classmethod
    def is_valid(cls, text: object) -> bool:
        """Whether ``text`` is a valid CELL string."""
        if not isinstance(text, str):
            return False
        try:
            _parse_cell(text)
        except NotationError:
            return False
        return True

    @property
    def dimensions(self) -> int:
        """The number of dimensions the coordinate names."""
        return len(self.indices)

    def fields(self) -> dict[str, object]:
        """The JSON-ready description of the coordinate.

        >>> Cell.parse("e4").fields()
        {'indices': [4, 3], 'dimensions': 2}
        """
        return {"indices": list(self.indices), "dimensions": len(self.indices)}

    def __str__(self) -> str:
        text: str | None = self._text
        if text is None:
            parts: list[str] = []
            for dim, value in enumerate(self.indices):
                kind = dim % 3
                if kind == 1:
                    parts.append(decimal_text(value + 1))
                else:
                    parts.append(_index_to_letters(value, 97 if kind == 0 else 65))
            text = "".join(parts)
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"Cell.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cell):
            return self.indices == other.indices
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Cell) -> bool:
        if not isinstance(other, Cell):
            return NotImplemented
        return self.indices < other.indices

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Cell is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Cell is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (Cell, (self.indices,))


def _build_cell(text: str) -> Cell:
    cell = Cell(_scan(text))
    object.__setattr__(cell, "_text", text)
    return cell


_parse_cell: Final = Memo(_build_cell)


@final
class Hand:
    """The HAND location ``*``: the off-board reserve. There is one instance, :data:`HAND`."""

    __slots__ = ()
    _instance: ClassVar[Hand | None] = None

    def __new__(cls) -> Hand:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse the HAND string ``*``."""
        if text == "*":
            return HAND
        if not isinstance(text, str):
            raise NotationError("HAND", repr(text), f"expected a string, got {type(text).__name__}")
        if not text:
            raise NotationError("HAND", text, "HAND is exactly the one character '*', got nothing")
        if text[0] != "*":
            raise NotationError(
                "HAND", text, f"HAND is exactly the one character '*', found {text[0]!r}", 0, 1
            )
        raise NotationError("HAND", text, "HAND is exactly one '*', with nothing after it", 1)

    def fields(self) -> dict[str, object]:
        """The JSON-ready description of the hand: it has no parts."""
        return {}

    def __str__(self) -> str:
        return "*"

    def __repr__(self) -> str:
        return "HAND"

    def __reduce__(self) -> str:
        return "HAND"


HAND: Final = Hand()

Location = Cell | Hand
"""A Location of the Game Protocol as GGN writes it: a board square or the hand."""


def parse_location(text: str) -> Cell | Hand:
    """Parse a CELL or the HAND ``*``."""
    if text == "*":
        return HAND
    try:
        return _parse_cell(text)
    except NotationError as error:
        raise NotationError(
            "CELL or HAND", error.text, error.reason + " (a location is a CELL or '*')",
            error.start, error.end,
        ) from None
