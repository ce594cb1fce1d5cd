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
"""

from __future__ import annotations

__all__ = ["decimal_text", "decimal_value"]

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
