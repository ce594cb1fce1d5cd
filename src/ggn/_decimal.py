"""Decimal text to integer and back, for integers of any length.

CPython refuses ``int(text)`` and ``str(n)`` beyond ``sys.get_int_max_str_digits()``
digits (4300 by default, 640 at the least) and raises a plain ``ValueError``.
The notations put no bound on a CELL rank or a FEEN count, so long numbers are
converted in pieces short enough for any setting of that limit.

>>> decimal_value("0" * 700 + "42")
42
>>> len(decimal_text(10**5000))
5001
>>> decimal_value(decimal_text(7**9000)) == 7**9000
True

Messages quote integers through :func:`shown`, which abbreviates the long ones:

>>> shown(12345), shown(-(10**5000) - 7)
('12345', '-10000000000...00000000007 (5,001 digits)')
>>> shown_tuple((8, 10**50))
'(8, 10000000000...00000000000 (51 digits))'
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["decimal_text", "decimal_value", "shown", "shown_tuple"]

_CHUNK = 600  # digits converted at once: below the smallest limit CPython accepts (640)
_CHUNK_POWER = 10**_CHUNK


def decimal_value(digits: str) -> int:
    """The value of a string of ASCII digits (the caller has checked them)."""
    if len(digits) <= _CHUNK:
        return int(digits)
    half = len(digits) // 2
    scale: int = 10**half
    return decimal_value(digits[:-half]) * scale + decimal_value(digits[-half:])


def decimal_text(value: int) -> str:
    """The decimal digits of a non-negative integer, without leading zeros."""
    if value < _CHUNK_POWER:
        return str(value)
    # Split near the middle so that the work stays close to n log n digit operations.
    half = value.bit_length() * 3 // 20  # about half the digits (log10(2) > 0.3)
    scale: int = 10**half
    high, low = divmod(value, scale)
    return decimal_text(high) + decimal_text(low).rjust(half, "0")


_SHOWN_DIGITS = 30  # integers up to this many digits are quoted whole in messages
_ENDS = 11  # digits kept at each end of a longer one


def shown(value: int) -> str:
    """An integer for a message: whole when short, else its ends and its number of digits.

    Cheap for any length: the leading digits come from one division whose quotient is
    short, which costs time in proportion to the length, not its square.
    """
    if -(10**_SHOWN_DIGITS) < value < 10**_SHOWN_DIGITS:
        return str(value)
    sign = "-" if value < 0 else ""
    value = abs(value)
    digits = max(_SHOWN_DIGITS, int(value.bit_length() * math.log10(2)))  # exact or one short
    head = value // 10 ** (digits - _ENDS)
    if head >= 10**_ENDS:
        digits += 1
        head //= 10
    tail = str(value % 10**_ENDS).rjust(_ENDS, "0")
    return f"{sign}{head}...{tail} ({digits:,} digits)"


def shown_tuple(values: Iterable[int]) -> str:
    """A tuple of integers (a board's shape) for a message, as :func:`shown` writes each."""
    parts = [shown(value) for value in values]
    return f"({parts[0]},)" if len(parts) == 1 else "(" + ", ".join(parts) + ")"
