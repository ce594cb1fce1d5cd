"""Game records: PGN, KIF and CSA read into :class:`Record` values, replayed, and written.

- :func:`read` reads a text, bytes or a stream holding one or several games, tells its format
  from its content (:func:`detect`) and gives one :class:`Record` a game, as it reads them: a
  game whose syntax is broken raises a :class:`~ggn.errors.RecordError` naming its number and
  line, after the games before it were given.
- :func:`replay` plays a record's moves under its game's rules into a :class:`ggn.game.Game`,
  checking each move and the stated result: an illegal or ambiguous move raises a
  :class:`~ggn.errors.RecordError` naming the game's number, the ply and the move as written.
- :func:`write` writes a game (a :class:`ggn.game.Game`, or a :class:`Record` with its comments,
  NAGs and variations) as PGN, KIF or CSA.

Each format is a module of this package (:mod:`ggn.records.pgn`, :mod:`ggn.records.kif`,
:mod:`ggn.records.csa`) with the same four functions: ``read(text) -> Iterator[Record]``,
``write(game, tags=None) -> str``, ``write_record(record) -> str`` (a record of that format
written back as read, comments and variations included) and ``parse_move(game, text) -> Play``
(one move as the format writes it, read in the game's current position: what :func:`replay`
calls for each move).
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import IO

from ggn._types import expect
from ggn.errors import GGNError, RecordError
from ggn.records._record import (
    FORMATS,
    MAX_DEPTH,
    MAX_GAME_CHARS,
    Format,
    Record,
    RecordMove,
    Verdict,
    decode,
    detect,
    lines_of,
)

__all__ = [
    "FORMATS",
    "MAX_DEPTH",
    "MAX_GAME_CHARS",
    "Format",
    "Record",
    "RecordError",
    "RecordMove",
    "Verdict",
    "decode",
    "detect",
    "read",
]

Source = str | bytes | bytearray | memoryview | IO[str] | IO[bytes]
"""What :func:`read` reads: a text, bytes (UTF-8, Shift_JIS or ISO 8859-1) or a file."""

_PEEK = 4096  # characters read before the format is told


def _module(name: str) -> ModuleType:
    if name not in FORMATS:
        shown = name[:40] if isinstance(name, str) else name
        raise GGNError(f"a record format is one of {', '.join(FORMATS)}, not {shown!r}")
    try:
        return importlib.import_module(f"ggn.records.{name}")
    except ModuleNotFoundError as error:  # pragma: no cover - while a format is being written
        raise GGNError(f"the {name.upper()} format is not available in this version of ggn") from error


def read(source: Source, format: Format | None = None) -> Iterator[Record]:  # noqa: A002  (as the CLI's --format)
    """The games of a record, one :class:`Record` each, as they are read.

    ``source`` is the record's text, its bytes, or a file opened for reading (text or binary);
    ``format`` is ``"pgn"``, ``"kif"`` or ``"csa"``, or None to tell it from the content
    (:func:`detect`). A PGN file is read game by game, in memory bounded by its longest game;
    KIF and CSA files are read whole.

    >>> [record.moves[0].text for record in read("1. e4 e5 *\\n\\n1. d4 d5 *\\n")]
    ['e4', 'd4']
    """
    if format is not None:
        expect(format, str, "format", "'pgn', 'kif', 'csa' or None")
        _module(format)
    lines = lines_of(source)
    if format is None:
        peeked: list[str] = []
        size = 0
        for line in lines:
            peeked.append(line)
            size += len(line)
            if size >= _PEEK:
                break
        found: str = detect("".join(peeked))
        lines = itertools.chain(peeked, lines)
    else:
        found = format
    module = _module(found)
    if found == "pgn":
        return module.read_lines(lines)  # type: ignore[no-any-return]
    return module.read("".join(_bounded(lines)))  # type: ignore[no-any-return]


def _bounded(lines: Iterable[str]) -> Iterator[str]:
    size = 0
    for line in lines:
        size += len(line)
        if size > MAX_GAME_CHARS:
            raise RecordError(f"the record is longer than {MAX_GAME_CHARS:,} characters, more than a "
                              "KIF or CSA record may be", 1)
        yield line
