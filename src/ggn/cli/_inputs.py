"""How the ``ggn`` command reads its input: files, ``-`` for standard input (read at most once),
``@PATH`` and JSON text where an argument may be either, and documents loaded from them.

Input that cannot be read ends the command with exit 2 (:class:`~ggn.cli._streams.Exit`); a
document that breaks its rules is invalid input, exit 1, after its violations on standard error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO, Final, TypeVar

from ggn._document import Document
from ggn._json import DEFAULT_MAX_ERRORS, Source, decode, read_file
from ggn.cli._streams import Exit, Stream, reason
from ggn.errors import DocumentError, Violation

D = TypeVar("D", bound=Document)


def standard_input(stdin: IO[bytes] | None) -> IO[bytes] | IO[str] | None:
    """The stream standard input is read from: ``stdin`` when given, else the process's own."""
    if stdin is not None:
        return stdin
    stream = sys.stdin
    if stream is None:  # the process started with its standard input closed
        return None
    return getattr(stream, "buffer", stream)


def read(name: str, stdin: IO[bytes] | None, what: str = "") -> Source:
    """The text of the file ``name``, or of standard input for ``-``; input that cannot be read
    ends the command (exit 2). ``what`` names the option the file was given to."""
    where = f"{what}: " if what else ""
    if name == "-":
        stream = standard_input(stdin)
        if stream is None:
            raise Exit(2, f"{where}cannot read standard input: it is closed")
        try:
            data, faults = read_file(stream)
        except (OSError, ValueError) as error:  # ValueError: a closed stream
            why = "it is closed" if "closed" in str(error) else reason(error)
            raise Exit(2, f"{where}cannot read standard input: {why}") from None
    else:
        check_name(name, what)
        data, faults = read_file(name)
    if faults or data is None:
        raise Exit(2, f"{where}{faults[0].message}" if faults else f"{where}cannot read {shown(name)}")
    return data


def check_name(name: str, what: str = "") -> None:
    """Refuse a name no file can have (the system would raise ValueError, not OSError)."""
    if not name or "\x00" in name:
        prefix = f"{what}: " if what else ""
        raise Exit(2, f"{prefix}{shown(name)!r} is not a file name")


def check_file(name: str, what: str, known: Sequence[str], option: str = "") -> None:
    """Refuse a name that is no built-in ``what`` (the caller has looked) and no file either,
    before reading: the message names both readings."""
    if name != "-" and not os.path.exists(name):
        given = f"{option} " if option else ""
        raise Exit(2, f"{given}{shown(name)!r} is neither a built-in {what} ({', '.join(known)}) "
                      "nor a file")


def shown(name: str) -> str:
    """A file name fit for a message: standard input named, bytes that are not text escaped."""
    if name == "-":
        return "<stdin>"
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def load(kind: type[D], name: str, stdin: IO[bytes] | None, max_errors: int,
         data: Source | None = None) -> tuple[D | None, list[Violation]]:
    """The document of the file ``name`` (or ``data``, when given), or None and its violations."""
    if data is None:
        data = read(name, stdin)
    try:  # loads: JSON faults and violations alike are a DocumentError (a GGN document read
        # before comes from the compile cache: see Ruleset.loads)
        return kind.loads(data, max_errors=max_errors), []
    except DocumentError as error:
        return None, list(error.violations)


def load_value(kind: type[D], value: object, max_errors: int) -> tuple[D | None, list[Violation]]:
    """The document of a JSON value, or None and its violations."""
    try:
        return kind.from_value(value, max_errors=max_errors), []
    except DocumentError as error:
        return None, list(error.violations)


def document(kind: type[D], name: str, stdin: IO[bytes] | None, err: Stream,
             data: Source | None = None) -> D:
    """The document of the file ``name`` (or ``data``); an invalid one ends the command (exit 1)
    after its violations on standard error."""
    loaded, violations = load(kind, name, stdin, DEFAULT_MAX_ERRORS, data)
    if loaded is None:
        report(err, name, kind, violations, DEFAULT_MAX_ERRORS)
        raise Exit(1)
    return loaded


def listed(violations: list[Violation]) -> list[dict[str, str]]:
    """Violations as ``--format json`` writes them."""
    return [{"path": v.path, "message": v.message} for v in violations]


def report(err: Stream, name: str, kind: type[Document], violations: list[Violation],
           limit: int) -> None:
    """An invalid document's violations on standard error, under a line naming the file."""
    more = " (at the limit; there may be more)" if len(violations) >= limit else ""
    noun = "violation" if len(violations) == 1 else "violations"
    err.write(f"{shown(name)}: invalid {kind._kind} document, {len(violations)} {noun}{more}\n")
    for violation in violations:
        err.write(f"  {violation.path or '(document)'}: {violation.message}\n")


_JSON_WHITESPACE: Final = " \t\n\r"


def json_or_file(text: str, stdin: IO[bytes] | None) -> tuple[str, Source]:
    """How an argument that can be JSON text is read: the name to show and the text. ``-`` is
    standard input and ``@PATH`` the file PATH; JSON text is what starts with ``{``, ``[`` or
    ``"`` after any blanks, is blank, or decodes as any other JSON value; the rest is a path."""
    if text == "-":
        return text, read(text, stdin)
    if text.startswith("@"):
        return text[1:], read(text[1:], stdin)
    stripped = text.lstrip(_JSON_WHITESPACE)
    if not stripped or stripped[0] in '{["' or not decode(text)[1]:
        return "the STN argument", text
    return text, read(text, stdin)
