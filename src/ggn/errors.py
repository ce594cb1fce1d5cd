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
- :class:`NotFoundError` (also a :class:`KeyError`): a name (a game, a mapping,
  a schema, a rule system) or a key of a valid document that is not there; the
  message lists what there is.
- :class:`PositionError`: an operation on a position that cannot be carried out.
- :class:`IllegalMoveError`: a move played where it is not legal.
- :class:`ConversionError` (with :class:`UnmappedPieceError` and
  :class:`LabelError`): legacy GGN that cannot be said in GGN 1.0.0 terms.
- :class:`LimitError`: a request over one of the bounds of what it may cost (the
  explorer's :class:`ggn.web.Limits`): it names the bound (``limit``) and its value (``most``).
- :class:`RecordError`: a game record (PGN, KIF, CSA) that cannot be read or replayed: it
  names the game's number in the file and, where one is at fault, the ply and the move as
  written.
- :class:`VariantError`: a variant description (Fairy-Stockfish's ``variants.ini`` syntax)
  that is malformed or asks for a rule this library cannot play; it names the source, the
  line and the option.
- :class:`EngineError`: an engine (a UCI, USI or UCCI program, :mod:`ggn.engine`) that cannot be
  started, that exits, hangs past a timeout, breaks its protocol or writes what cannot be read;
  it names the engine (``engine``) and, once the engine has exited, its exit status (``status``).

Every exception class of the package is defined here; the modules that raise
them re-export them (``ggn.position.PositionError`` is this ``PositionError``).
Each pickles and unpickles to an equal error, message and attributes included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ggn.gan import LegacyPiece

__all__ = [
    "ConversionError",
    "DocumentError",
    "EngineError",
    "GGNError",
    "IllegalMoveError",
    "LabelError",
    "LimitError",
    "NotFoundError",
    "NotationError",
    "NotationTypeError",
    "PositionError",
    "RecordError",
    "UnmappedPieceError",
    "VariantError",
    "Violation",
    "extend",
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
        # A long span (a run of 5,000 digits) is shown by its start: the message stays short.
        cut = self.end - self.start > 2 * _SHOWN
        end = self.start + _SHOWN if cut else self.end
        hi = end if cut else min(len(text), self.end + _SHOWN)
        before = "".join(_visible(c) for c in text[lo : self.start])
        inside = "".join(_visible(c) for c in text[self.start : end])
        after = "".join(_visible(c) for c in text[end:hi])
        head = "..." if lo > 0 else ""
        tail = "..." if hi < len(text) else ""
        shown = f"{head}{before}{inside}{after}{tail}"
        marker = " " * (len(head) + len(before)) + "^" * max(1, len(inside)) + ("..." if cut else "")
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


class NotationTypeError(NotationError, TypeError):
    """A notation parser given a value that is not a ``str``.

    A :class:`TypeError`, as for every wrong Python type given to the library; and a
    :class:`NotationError`, so that a validator reading decoded JSON (a number where a QPI
    belongs) reports it as a violation at its path, as it does any other bad notation.
    """

    @classmethod
    def of(cls, notation: str, value: object) -> NotationTypeError:
        """The error for ``value`` given where a ``notation`` string belongs, the value shown as
        its ``repr``; one whose ``repr`` cannot be written (an int past Python's 4,300 digits)
        is named by its type.

        >>> NotationTypeError.of("PIN", 10**5000).text
        '<int too long to write>'
        """
        try:
            shown = repr(value)
        except ValueError:
            shown = f"<{type(value).__name__} too long to write>"
        return cls(notation, shown, f"expected a string, got {type(value).__name__}")

    @classmethod
    def argument(cls, notation: str, value: object, parameter: str, what: str) -> NotationTypeError:
        """The error for ``value`` given as the field ``parameter`` of a ``notation`` value
        (``Pin(name=5, ...)``), which takes ``what``: the field and the type received named.

        >>> str(NotationTypeError.argument("PIN", 5, "name", "a str")).splitlines()[0]
        "invalid PIN '<int>': name must be a str, got int (at 0-5)"
        """
        shown = f"<{type(value).__name__}>"
        return cls(notation, shown, f"{parameter} must be {what}, got {type(value).__name__}")


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

    def __post_init__(self) -> None:
        for field, value in (("path", self.path), ("message", self.message)):
            if type(value) is not str:
                raise TypeError(f"Violation.{field} must be a str, got {type(value).__name__}")

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
    """A name or key that is not there: a game, a mapping, a schema, a rule system, or a key
    of a valid document. The message says what was asked and lists what there is.

    Also a :class:`KeyError`, so ``except KeyError`` around a lookup keeps working; unlike a
    plain ``KeyError``, ``str()`` is the message itself, not its ``repr``.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @classmethod
    def unknown(cls, what: str, name: object, known: Iterable[str]) -> NotFoundError:
        """The error for an unknown ``name`` among the ``known`` names of ``what`` (``"game"``,
        ``"schema"``, ...), the name quoted with ``!r`` and bounded in length.

        >>> str(NotFoundError.unknown("game", "chess960", ["chess", "shogi"]))
        "no game 'chess960'; there are: chess, shogi"
        """
        shown = name[:40] if isinstance(name, str) else name
        listed = ", ".join(known) or "none"
        return cls(f"no {what} {shown!r}; there are: {listed}")

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.message,))


class PositionError(GGNError):
    """An operation on a position that cannot be carried out (the position is unchanged)."""


class IllegalMoveError(GGNError):
    """A move that is not legal in the position it is played in."""


class LimitError(GGNError):
    """A request over one of the bounds of what it may cost (the explorer's
    :class:`ggn.web.Limits`): ``limit`` names the bound, ``most`` is its value."""

    def __init__(self, message: str, limit: str, most: float) -> None:
        super().__init__(message)
        self.limit = limit
        self.most = most

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.limit, self.most))


class ConversionError(GGNError):
    """Something of the legacy format that cannot be said in GGN 1.0.0, QPI, CELL or STN terms.

    ``where`` is a JSON Pointer to what is at fault, relative to the entry (``"/board_patch/e4"``,
    ``"/in_hand_add"``), or ``""`` when there is no entry.
    """

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.where))


class UnmappedPieceError(ConversionError):
    """A legacy piece that the mapping gives no QPI for (``piece``), or a wrong one."""

    def __init__(self, piece: LegacyPiece, message: str, where: str = "") -> None:
        super().__init__(message, where)
        self.piece = piece

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.piece, str(self), self.where))


class LabelError(ConversionError):
    """A square label of the legacy format (which allows any labelling) that is not a CELL."""

    def __init__(self, label: str, message: str, where: str = "") -> None:
        super().__init__(message, where)
        self.label = label

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.label, str(self), self.where))


class VariantError(GGNError):
    """A variant description that is malformed or that this library cannot play.

    ``source`` names where the text came from (a file name, ``"<ini>"``), ``line`` is the
    one-based line at fault (``None`` when the fault is no one line's, such as a section that is
    missing), ``option`` the option it concerns (``None`` for a fault of syntax), and ``reason``
    says what is wrong. The message reads ``SOURCE:LINE: REASON``, as compilers write it.

    >>> str(VariantError("unknown option 'foo'", "my.ini", 3, "foo"))
    "my.ini:3: unknown option 'foo'"
    """

    def __init__(
        self, reason: str, source: str = "<ini>", line: int | None = None, option: str | None = None
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.option = option
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {reason}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.source, self.line, self.option))


class RecordError(GGNError):
    """A game record (PGN, KIF, CSA) that cannot be read or replayed.

    ``reason`` says what is wrong; ``game`` is the one-based number of the game in its file;
    ``ply`` the one-based ply at fault and ``move`` the move as written there (both None when
    the fault is no move's, such as an unterminated comment or an unknown variant); ``line``
    the one-based line of the file where the game, or the move, is written (None if unknown).

    >>> str(RecordError("no legal move 'Nf6' here", game=2, ply=5, move="Nf6", line=14))
    "game 2, ply 5 'Nf6' (line 14): no legal move 'Nf6' here"
    >>> str(RecordError("the comment is not closed", game=1, line=3))
    'game 1 (line 3): the comment is not closed'
    """

    def __init__(self, reason: str, game: int = 1, ply: int | None = None, move: str | None = None,
                 line: int | None = None) -> None:
        self.reason = reason
        self.game = game
        self.ply = ply
        self.move = move
        self.line = line
        where = f"game {game}"
        if ply is not None:
            where += f", ply {ply}"
        if move is not None:
            where += f" {move[:40]!r}" + ("..." if len(move) > 40 else "")
        if line is not None:
            where += f" (line {line})"
        super().__init__(f"{where}: {reason}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.game, self.ply, self.move, self.line))


class EngineError(GGNError):
    """An engine (:mod:`ggn.engine`) that cannot be started, that exits, hangs past a timeout,
    breaks its protocol or writes what cannot be read. ``engine`` names it (its command, as
    given), ``status`` is its exit status once it has exited (negative: killed by that signal),
    else None. The engine's process is reaped before this is raised.

    >>> str(EngineError("exited during the handshake", "/usr/games/stockfish", -9))
    '/usr/games/stockfish: exited during the handshake'
    """

    def __init__(self, reason: str, engine: str = "", status: int | None = None) -> None:
        self.reason = reason
        self.engine = engine
        self.status = status
        super().__init__(f"{engine}: {reason}" if engine else reason)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.engine, self.status))
