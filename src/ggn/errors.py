"""One exception tree for the whole library.

Every error this library raises on bad input is a :class:`GGNError`, itself a
:class:`ValueError`, so ``except ValueError`` keeps working for callers that do
not know this package.

- :class:`NotationError`: a string notation (CELL, QPI, FEEN, ...) did not
  parse. It carries the input and the span of the fault, and its message shows
  the input with a marker under that span.
- :class:`DocumentError`: a JSON document (GGN, LCN, STN, legacy GGN) is
  malformed or breaks a rule of its text. It carries every violation found
  (bounded in number), each with an RFC 6901 JSON Pointer to the offending value.
- :class:`NotFoundError`: a lookup in a valid document named something the
  document does not hold.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DocumentError",
    "GGNError",
    "NotFoundError",
    "NotationError",
    "Violation",
    "pointer",
]

_SHOWN = 60  # characters of the input shown on each side of a fault


class GGNError(ValueError):
    """Root of every error this library raises on bad input."""


def _visible(ch: str) -> str:
    if " " <= ch <= "~":
        return ch
    return repr(ch)[1:-1]


class NotationError(GGNError):
    """A string that is not valid in its notation.

    ``notation`` names the notation (``"CELL"``, ``"QPI"``, ...), ``text`` is the
    whole input, ``start`` and ``end`` delimit the offending part and ``reason``
    says what is wrong there in the notation's own terms.
    """

    notation: str
    text: str
    start: int
    end: int
    reason: str

    def __init__(self, notation: str, text: str, reason: str, start: int = 0, end: int = -1) -> None:
        if end < 0:
            end = len(text)
        self.notation = notation
        self.text = text
        self.start = start
        self.end = max(end, start)
        self.reason = reason
        super().__init__(self._render())

    def _render(self) -> str:
        text = self.text
        lo = max(0, self.start - _SHOWN)
        hi = min(len(text), self.end + _SHOWN)
        before = "".join(_visible(c) for c in text[lo : self.start])
        inside = "".join(_visible(c) for c in text[self.start : self.end])
        after = "".join(_visible(c) for c in text[self.end : hi])
        head = "..." if lo > 0 else ""
        tail = "..." if hi < len(text) else ""
        shown = f"{head}{before}{inside}{after}{tail}"
        marker = " " * (len(head) + len(before)) + "^" * max(1, len(inside))
        where = f"at {self.start}" if self.end - self.start <= 1 else f"at {self.start}-{self.end}"
        if not text:
            return f"invalid {self.notation} '': {self.reason}"
        return (
            f"invalid {self.notation} {self._quoted()}: {self.reason} ({where})\n"
            f"    {shown}\n    {marker}"
        )

    def _quoted(self) -> str:
        if len(self.text) <= 2 * _SHOWN:
            return repr(self.text)
        return repr(self.text[:_SHOWN]) + "..."

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.notation, self.text, self.reason, self.start, self.end))


_ESCAPES = str.maketrans({"~": "~0", "/": "~1"})


def pointer(*tokens: str | int) -> str:
    """Build an RFC 6901 JSON Pointer from reference tokens.

    >>> pointer("C:R", "a1", "a4", 0, "must", "a/b~")
    '/C:R/a1/a4/0/must/a~1b~0'
    >>> pointer()
    ''
    """
    return "".join("/" + str(token).translate(_ESCAPES) for token in tokens)


def extend(path: str, token: str | int) -> str:
    """Append one reference token to a JSON Pointer."""
    return path + "/" + str(token).translate(_ESCAPES)


@dataclass(frozen=True, slots=True)
class Violation:
    """One fault in a document: where (a JSON Pointer) and why."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message}"


class DocumentError(GGNError):
    """A JSON document that is malformed or breaks a rule of its text.

    ``violations`` holds every fault found, in document order, up to the limit
    the loader was given; ``truncated`` is true when more were left unreported.
    ``path`` and ``message`` are those of the first violation.
    """

    kind: str
    violations: tuple[Violation, ...]
    truncated: bool

    def __init__(self, kind: str, violations: tuple[Violation, ...], truncated: bool = False) -> None:
        if not violations:
            raise TypeError("DocumentError needs at least one violation")
        self.kind = kind
        self.violations = violations
        self.truncated = truncated
        super().__init__(self._render())

    @property
    def path(self) -> str:
        return self.violations[0].path

    @property
    def message(self) -> str:
        return self.violations[0].message

    def _render(self) -> str:
        count = len(self.violations)
        more = " (and more, not reported)" if self.truncated else ""
        noun = "violation" if count == 1 else "violations"
        lines = [f"invalid {self.kind} document: {count} {noun}{more}"]
        lines.extend(f"  {violation}" for violation in self.violations)
        return "\n".join(lines)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.kind, self.violations, self.truncated))


class NotFoundError(GGNError, KeyError):
    """A lookup named something a valid document does not hold."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
