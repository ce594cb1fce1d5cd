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

import math
from typing import ClassVar, Final, final

from ggn._cache import Memo
from ggn._decimal import decimal_text, decimal_value, shown_tuple
from ggn._types import expect
from ggn.errors import NotationError, NotationTypeError

__all__ = ["HAND", "Cell", "Hand", "Location", "parse_location"]

_LOWER = "abcdefghijklmnopqrstuvwxyz"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"
_KIND_NAMES = ("a lowercase letter", "a digit 1-9", "an uppercase letter")


_RUN: Final = 32  # letters converted one by one; longer runs are split in halves
_SHORT: Final = 26**_RUN // 26  # values whose runs are short enough for a plain loop
_LOG2_26: Final = math.log2(26)


def _letters_to_index(run: str, base: int) -> int:
    """The zero-based index of a letter run (bijective base 26)."""
    return _letters_value(run, base) - 1


def _letters_value(run: str, base: int) -> int:
    # A letter-by-letter loop is quadratic in the run's length (each step multiplies the
    # whole integer so far); halves joined by one multiplication cost about as much as
    # that multiplication, and read a hostile run of 300,000 letters in a fraction of a
    # second instead of 21 s. Bijective digits (1 to 26) are positional all the same.
    if len(run) <= _RUN:
        value = 0
        for ch in run:
            value = value * 26 + (ord(ch) - base + 1)
        return value
    half = len(run) // 2
    scale: int = 26**half
    return _letters_value(run[:-half], base) * scale + _letters_value(run[-half:], base)


def _index_to_letters(index: int, base: int) -> str:
    """The letter run of a zero-based index (bijective base 26)."""
    n = index + 1
    if n < _SHORT:  # a divmod per letter costs nothing yet
        out: list[str] = []
        while n > 0:
            n, r = divmod(n - 1, 26)
            out.append(chr(base + r))
        return "".join(reversed(out))
    # A run of ``length`` letters covers the values from (26**length - 1) // 25 on
    # (1 + 26 + ... + 26**(length - 1)); its letters are the plain base-26 digits of
    # what ``n`` exceeds that by, padded to ``length``. The float guess of the length
    # is off by one at most, so the power is made once and adjusted.
    length = max(1, int(((n * 25 + 1).bit_length() - 1) / _LOG2_26))
    power = 26**length
    while (power - 1) // 25 > n:
        power //= 26
        length -= 1
    while (power * 26 - 1) // 25 <= n:
        power *= 26
        length += 1
    return _digits26(n - (power - 1) // 25, length, base)


def _digits26(value: int, length: int, base: int) -> str:
    """``value`` (below 26**length) in plain base 26, exactly ``length`` letters.

    Split in halves by one division each, as :func:`ggn._decimal.decimal_text` does:
    a division per letter would divide the whole integer every time.
    """
    if length <= _RUN:
        out = []
        for _ in range(length):
            value, r = divmod(value, 26)
            out.append(chr(base + r))
        return "".join(reversed(out))
    half = length // 2
    high, low = divmod(value, 26**half)
    return _digits26(high, length - half, base) + _digits26(low, half, base)


def _scan(text: str) -> tuple[int, ...]:
    """Parse a CELL string into zero-based indices, or raise NotationError."""
    if not isinstance(text, str):
        raise NotationTypeError.of("CELL", text)
    if not text:
        raise NotationError("CELL", text, "a coordinate cannot be empty")
    if not text.isascii():
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
        idx = indices if type(indices) is tuple else tuple(expect(
            indices, (tuple, list), "indices", "a tuple or list of int"
        ))
        if not idx:
            raise NotationError("CELL", "", "a coordinate needs at least one dimension")
        for number, value in enumerate(idx, 1):
            if type(value) is not int:
                expect(value, int, f"the index of dimension {number}", "an int")
            if value < 0:
                raise NotationError(
                    "CELL", shown_tuple(idx),
                    f"index of dimension {number} must be a non-negative integer",
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
            raise NotationTypeError.of("HAND", text)
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
        raise type(error)(
            "CELL or HAND", error.text, error.reason + " (a location is a CELL or '*')",
            error.start, error.end,
        ) from None
