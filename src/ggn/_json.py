"""Strict JSON reading shared by every document type.

Python's ``json`` module accepts things a strict reader must not: duplicate
keys (it keeps the last and loses the others), ``NaN`` and ``Infinity``, and
UTF-16 or UTF-32 byte input. This module decodes JSON text into plain Python
values and reports each of those as a :class:`~ggn.errors.Violation` instead,
never as a traceback:

- duplicate keys are kept visible: an object that had them decodes to a
  :class:`DuplicateKeys` dict that remembers the repeated keys, so the
  validator that walks the value can report each with its JSON Pointer path;
- a number Python would not read faithfully (an integer of more than
  :data:`MAX_INTEGER_DIGITS` digits, which ``int()`` refuses or takes quadratic
  time over, or a number beyond the range of a float, which would read as
  infinity) decodes to a :class:`WrittenNumber` that keeps the text as written:
  no document takes it, and the validator that finds it reports it at its path,
  quoting what was written;
- malformed JSON names the line and column (``NaN`` and ``Infinity`` included);
- input over ``max_bytes``, nesting deeper than the parser can follow, bytes
  that are not UTF-8 and a byte order mark are reported at the path ``""``.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import secrets
from collections.abc import Iterator
from typing import IO, Any, Final

from ggn._decimal import decimal_text, decimal_value, shown
from ggn.errors import Violation

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ERRORS",
    "MAX_INTEGER_DIGITS",
    "Collector",
    "DuplicateKeys",
    "Full",
    "Source",
    "WrittenNumber",
    "clip",
    "decode",
    "describe",
    "dumps",
    "quote",
    "read_file",
]

DEFAULT_MAX_BYTES: Final = 256 * 1024 * 1024
"""Largest document read by default: 256 MiB (a complete shogi document is a few MB)."""

DEFAULT_MAX_ERRORS: Final = 100
"""Most violations reported by default before the rest are left out."""

MAX_INTEGER_DIGITS: Final = 4300
"""Longest integer a document may write (CPython's default bound on ``int()`` of text)."""

Source = str | bytes | bytearray | memoryview


class DuplicateKeys(dict[str, Any]):
    """A decoded JSON object in which some keys were written more than once.

    It holds the last value of each key, as ``json`` would, and ``duplicates``
    lists each repeated key once per extra occurrence, in document order.
    """

    __slots__ = ("duplicates",)

    def __init__(self, pairs: list[tuple[str, Any]], duplicates: list[str]) -> None:
        super().__init__(pairs)
        self.duplicates = duplicates


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) == len(pairs):
        return result
    seen: set[str] = set()
    repeated: list[str] = []
    for key, _ in pairs:
        if key in seen:
            repeated.append(key)
        seen.add(key)
    return DuplicateKeys(pairs, repeated)


class WrittenNumber:
    """A JSON number kept as written: an integer of more than :data:`MAX_INTEGER_DIGITS`
    digits, or a number beyond the range of a float. No document takes one; its validator
    reports it, at its path, through :func:`describe`."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"WrittenNumber({self.text[:40]!r}{'...' if len(self.text) > 40 else ''})"


def _integer(text: str) -> int | WrittenNumber:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_INTEGER_DIGITS:
        return WrittenNumber(text)
    if digits <= 600:  # below the smallest bound on int() CPython can be set to (640)
        return int(text)
    value = decimal_value(text.lstrip("-"))
    return -value if text[0] == "-" else value


def _float(text: str) -> float | WrittenNumber:
    value = float(text)
    return WrittenNumber(text) if math.isinf(value) else value


class _NonFinite(Exception):  # noqa: N818  (a signal caught below, never raised to users)
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _constant(name: str) -> Any:
    raise _NonFinite(name)


_DECODER: Final = json.JSONDecoder(
    object_pairs_hook=_object, parse_constant=_constant, parse_int=_integer, parse_float=_float
)

# A JSON string, or (group 1) one of the words Python's reader takes for numbers. Used only
# after the decoder met such a word, on text that is valid JSON up to it, so the first word
# outside a string is the one it met.
_WORD: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(-?Infinity|NaN)')


def _line_column(text: str, pos: int) -> tuple[int, int]:
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def _fault(message: str) -> list[Violation]:
    return [Violation("", message)]


def decode(source: Source, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[Any, list[Violation]]:
    """Decode JSON text (``str``) or UTF-8 bytes.

    Returns the value and an empty list, or ``None`` and the violations that
    stopped decoding (always at the path ``""``).
    """
    if isinstance(source, bytearray | memoryview):
        source = bytes(source)
    if isinstance(source, bytes):
        if len(source) > max_bytes:
            return None, _too_big(len(source), max_bytes)
        if source.startswith(b"\xef\xbb\xbf"):
            return None, _fault(
                "the text starts with a UTF-8 byte order mark, which JSON text must not carry "
                "(RFC 8259, section 8.1)"
            )
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError as error:
            bad = source[error.start : error.end]
            return None, _fault(
                f"the bytes are not UTF-8: {bad!r} at byte offset {error.start} "
                f"({error.reason}); JSON text must be UTF-8"
            )
    elif isinstance(source, str):
        text = source
        if len(text) > max_bytes:
            return None, _too_big(len(text.encode("utf-8", "surrogatepass")), max_bytes)
        if text.startswith("\ufeff"):
            return None, _fault(
                "the text starts with a byte order mark (U+FEFF), which JSON text must not carry"
            )
    else:
        return None, _fault(f"expected JSON text as str or bytes, got {type(source).__name__}")
    try:
        value, end = _DECODER.raw_decode(text, _skip_space(text, 0))
    except json.JSONDecodeError as error:
        return None, _fault(_malformed(text, error))
    except _NonFinite as error:
        found = next((m for m in _WORD.finditer(text) if m.group(1)), None)
        line, column = _line_column(text, found.start(1) if found else 0)
        return None, _fault(
            f"malformed JSON at line {line}, column {column}: {error.name} is not a JSON number"
        )
    except RecursionError:
        return None, _fault("the JSON nests arrays and objects too deeply to be read")
    end = _skip_space(text, end)
    if end != len(text):
        line, column = _line_column(text, end)
        return None, _fault(
            f"malformed JSON at line {line}, column {column}: extra data after the document"
        )
    return value, []


def _malformed(text: str, error: json.JSONDecodeError) -> str:
    """The message of Python's reader, at its place; a comma before the end of an object or an
    array named as such, at the comma, on every Python (Python 3.13 names it; 3.11 and 3.12 say
    they expected a value or a name, at the bracket)."""
    pos = error.pos
    closing = text[pos] if pos < len(text) else ""
    kind = {("Expecting property name enclosed in double quotes", "}"): "object",
            ("Expecting value", "]"): "array"}.get((error.msg, closing))
    if kind is not None:
        comma = pos - 1
        while comma >= 0 and text[comma] in " \t\n\r":
            comma -= 1
        if comma >= 0 and text[comma] == ",":
            line, column = _line_column(text, comma)
            return (f"malformed JSON at line {line}, column {column}: Illegal trailing comma before end "
                    f"of {kind}")
    return f"malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}"


def _skip_space(text: str, pos: int) -> int:
    length = len(text)
    while pos < length and text[pos] in " \t\n\r":
        pos += 1
    return pos


def _too_big(size: int, limit: int) -> list[Violation]:
    return _fault(
        f"the document is {size:,} bytes, over the limit of {limit:,} bytes "
        "(pass a larger max_bytes to read it)"
    )


def read_file(
    file: str | os.PathLike[str] | IO[bytes] | IO[str], max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Source | None, list[Violation]]:
    """Read at most ``max_bytes`` (plus one, to detect excess) from a path or file object."""
    try:
        if isinstance(file, str | os.PathLike):
            with open(file, "rb") as handle:
                data: Source = handle.read(max_bytes + 1)
        else:
            data = file.read(max_bytes + 1)
    except OSError as error:
        name = getattr(error, "filename", None) or getattr(file, "name", "the file")
        return None, _fault(f"cannot read {name}: {error.strerror or error}")
    except UnicodeDecodeError as error:
        return None, _fault(f"the file is not UTF-8 text: {error.reason} at byte {error.start}")
    except io.UnsupportedOperation as error:
        return None, _fault(f"cannot read the file object: {error}")
    if len(data) > max_bytes:
        return None, _fault(
            f"the document is over the limit of {max_bytes:,} bytes "
            "(pass a larger max_bytes to read it)"
        )
    return data, []


def quote(text: str, limit: int = 40) -> str:
    """A string of the input for a message, with ``!r``, cut short: keys and values of a
    document can be megabytes long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def clip(text: str, limit: int = 40) -> str:
    """A name from the input for a message, as written (no quotes), cut short as by :func:`quote`."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def describe(value: object) -> str:
    """Name a decoded JSON value's type in JSON's own words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, int):
        return f"the integer {shown(value)}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, WrittenNumber):
        text = value.text
        if "." in text or "e" in text or "E" in text:
            return f"the number {clip(text)}, beyond the range of a number (it would read as infinity)"
        digits = len(text) - (text[0] == "-")
        return (f"an integer of {digits:,} digits ({text[:12]}...{text[-11:]}), more than the "
                f"{MAX_INTEGER_DIGITS:,} a number may have")
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return f"a {type(value).__name__} (not a JSON value)"


def dumps(value: Any, *, indent: int | None = None) -> str:
    """``json.dumps`` (non-ASCII kept as is) that also writes integers longer than Python's
    bound on ``str()`` of an integer (a CELL's index or a FEEN's count may be)."""
    try:
        return json.dumps(value, indent=indent, ensure_ascii=False)
    except ValueError:
        longs: list[int] = []
        mark = "\x00" + secrets.token_hex(8) + ":"
        marked = _mark_longs(value, longs, mark)
        if not longs:
            raise
    text = json.dumps(marked, indent=indent, ensure_ascii=False)
    token = re.escape(json.dumps(mark, ensure_ascii=False)[1:-1])
    return re.sub(f'"(-?){token}(\\d+)"',
                  lambda m: m.group(1) + decimal_text(longs[int(m.group(2))]), text)


_SHORT: Final = 10**600  # an integer below it is written by str(), whatever its limit is set to


def _mark_longs(value: Any, longs: list[int], mark: str) -> Any:
    """``value`` with each long integer replaced by a numbered string ``mark`` begins."""
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) < _SHORT:
            return value
        longs.append(abs(value))
        return f"{'-' if value < 0 else ''}{mark}{len(longs) - 1}"
    if isinstance(value, dict):
        return {key: _mark_longs(item, longs, mark) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_mark_longs(item, longs, mark) for item in value]
    return value


class Full(Exception):  # noqa: N818  (a signal, not an error)
    """Raised by :class:`Collector` when it holds as many violations as allowed."""


class Collector:
    """Gathers violations up to a bound; raises :class:`Full` past it."""

    __slots__ = ("limit", "truncated", "violations")

    def __init__(self, limit: int = DEFAULT_MAX_ERRORS) -> None:
        if limit < 1:
            raise ValueError("the error limit must be at least 1")
        self.limit = limit
        self.violations: list[Violation] = []
        self.truncated = False

    def add(self, path: str, message: str) -> None:
        if len(self.violations) >= self.limit:
            self.truncated = True
            raise Full
        self.violations.append(Violation(path, message))

    def extend(self, violations: list[Violation]) -> None:
        for violation in violations:
            self.add(violation.path, violation.message)

    def __iter__(self) -> Iterator[Violation]:
        return iter(self.violations)

    def __bool__(self) -> bool:
        return bool(self.violations)
