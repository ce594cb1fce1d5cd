"""The model of a game record, shared by every record format, and the format's detection.

A :class:`Record` is a game as a file writes it, before any rule is applied: its tags, the
game's name, the start position, the moves as written (each with its NAGs, comments and
variations), the result as written and the game's number in its file. Reading a record checks
its syntax only; :func:`ggn.records.replay` plays it under the game's rules.

Each format's module (:mod:`ggn.records.pgn`, :mod:`ggn.records.kif`, :mod:`ggn.records.csa`)
reads text into records and writes games; :func:`detect` tells the formats apart from the
first lines of a text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from ggn._types import check_fields, expect
from ggn.errors import RecordError

__all__ = [
    "FORMATS",
    "MAX_DEPTH",
    "MAX_GAME_CHARS",
    "Format",
    "Record",
    "RecordMove",
    "Verdict",
    "decode",
    "detect",
]

Format = Literal["pgn", "kif", "csa"]
"""A record format's name."""

FORMATS: Final[tuple[Format, ...]] = ("pgn", "kif", "csa")
"""The formats :func:`ggn.records.read` reads and :func:`ggn.records.write` writes."""

Verdict = Literal["1-0", "0-1", "1/2-1/2"]
"""A decided result in PGN's terms: the first player won, the second did, or a draw."""

MAX_DEPTH: Final = 100
"""Deepest nesting of variations a record may have (a variation inside a variation inside...):
deeper records are refused with a :class:`~ggn.errors.RecordError`, so that comparing,
printing and writing records never meets Python's recursion limit."""

MAX_GAME_CHARS: Final = 32 * 1024 * 1024
"""Longest text of one game a reader takes (32 Mi characters: a 10 MB comment fits); a longer
game is refused with a :class:`~ggn.errors.RecordError` naming it, without reading the rest of
it into memory."""


@dataclass(frozen=True, slots=True)
class RecordMove:
    """One move of a record, as written, with what the record writes around it.

    ``text`` is the move as written (``"Nf3"``, ``"７六歩(77)"``, ``"+7776FU"``); ``nags``
    its Numeric Annotation Glyphs (PGN's ``$1``, or ``!`` read as 1, ``?`` as 2, ``!!`` 3,
    ``??`` 4, ``!?`` 5, ``?!`` 6), ``comments`` the comments written after it, ``before``
    those written before it (where a variation begins), ``variations`` the alternatives to this
    move: each a line of moves played instead of it, from the same position, possibly with
    variations of its own. ``clock`` is the time written with the move (KIF's ``( 0:16/00:00:16)``,
    CSA's ``T16``) as written, or None; ``line`` the one-based line of the file where the move
    is written (0 if unknown).

    >>> RecordMove("e4", nags=(1,), comments=("the best by test",))  # doctest: +NORMALIZE_WHITESPACE
    RecordMove(text='e4', nags=(1,), comments=('the best by test',), before=(), variations=(),
               clock=None, line=0)
    """

    text: str
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    variations: tuple[tuple[RecordMove, ...], ...] = ()
    clock: str | None = None
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        check_fields(self)

    @classmethod
    def _trusted(cls, text: str, nags: tuple[int, ...], comments: tuple[str, ...],  # noqa: PLR0917
                 before: tuple[str, ...], variations: tuple[tuple[RecordMove, ...], ...], clock: str | None,
                 line: int) -> RecordMove:
        """A move a reader made from what it has checked itself, without the check of its fields'
        types (which would be most of the cost of reading a file)."""
        move = object.__new__(cls)
        put = object.__setattr__
        put(move, "text", text)
        put(move, "nags", nags)
        put(move, "comments", comments)
        put(move, "before", before)
        put(move, "variations", variations)
        put(move, "clock", clock)
        put(move, "line", line)
        return move

    def depth(self) -> int:
        """How deeply variations nest under this move (0: it has none).

        >>> RecordMove("e4", variations=((RecordMove("d4", variations=((RecordMove("c4"),),)),),)).depth()
        2
        """
        deepest = 0
        stack: list[tuple[RecordMove, int]] = [(self, 0)]
        while stack:
            move, level = stack.pop()
            deepest = max(deepest, level)
            for line in move.variations:
                stack.extend((member, level + 1) for member in line)
        return deepest


@dataclass(frozen=True, slots=True)
class Record:
    """One game as a record file writes it (PGN, KIF, CSA), its moves not yet checked.

    - ``tags``: the record's tags, in the order written, as (name, value) pairs (PGN's
      ``[White "..."]``; KIF's ``先手：...`` header lines; CSA's ``N+``, ``$EVENT:``...);
    - ``game``: the game's name in ggn's registry (``"chess"``, ``"crazyhouse"``, ``"shogi"``),
      read from PGN's ``[Variant]`` with the names Fairy-Stockfish and lichess give;
      a variant ggn does not know is kept as written, and :func:`~ggn.records.replay` refuses it;
    - ``fen``: the start position as Fairy-Stockfish's FEN (from ``[FEN]``, KIF's board diagram or
      handicap, CSA's ``P`` lines), or None for the game's usual start;
    - ``moves``: the main line, each :class:`RecordMove` as written with its NAGs, comments and
      variations;
    - ``result``: the result as written (``"1-0"``, ``"*"``, ``"%TORYO"``,
      ``"まで64手で先手の勝ち"``) or None when the record writes none;
    - ``verdict``: what that result says in PGN's terms (:data:`Verdict`: ``"1-0"`` for a win of
      the first player, who moves first: white in chess, sente in shogi), or None when it says
      no decided result (``"*"``, an interrupted game);
    - ``comment``: the comment written before the first move, or None;
    - ``number``: the game's one-based number in its file; ``line``: the line it starts on;
    - ``format``: the format it was read from.

    >>> record = Record(tags=(("White", "Carlsen"), ("Black", "Nepo")), moves=(RecordMove("e4"),))
    >>> record.tag("White"), record.tag("Site"), record.headers["Black"]
    ('Carlsen', None, 'Nepo')
    """

    tags: tuple[tuple[str, str], ...] = ()
    game: str = "chess"
    fen: str | None = None
    moves: tuple[RecordMove, ...] = ()
    result: str | None = None
    verdict: Verdict | None = None
    comment: str | None = None
    number: int = 1
    line: int = field(default=1, compare=False)
    format: Format = "pgn"

    def __post_init__(self) -> None:
        check_fields(self)
        for pair in self.tags:
            if len(pair) != 2 or type(pair[0]) is not str or type(pair[1]) is not str:
                raise TypeError("Record.tags must be a tuple of (name, value) pairs of str")

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag ``name`` (PGN's tag names are case-sensitive), or ``default``."""
        expect(name, str, "name", "a tag's name (str)")
        for key, value in self.tags:
            if key == name:
                return value
        return default

    @property
    def headers(self) -> dict[str, str]:
        """The tags as a dict (the first value of a name written twice)."""
        found: dict[str, str] = {}
        for key, value in self.tags:
            found.setdefault(key, value)
        return found

    def depth(self) -> int:
        """How deeply variations nest in the record (0: it has none)."""
        return max((move.depth() for move in self.moves), default=0)

    def error(self, reason: str, ply: int | None = None, move: RecordMove | None = None) -> RecordError:
        """The :class:`~ggn.errors.RecordError` of this game, at ``ply`` and ``move`` if given."""
        expect(reason, str, "reason", "a str")
        if ply is not None:
            expect(ply, int, "ply", "an int or None")
        if move is not None:
            expect(move, RecordMove, "move", "a RecordMove or None")
        line = move.line if move is not None and move.line else self.line
        return RecordError(reason, self.number, ply, None if move is None else move.text, line)


# --- telling the formats apart --------------------------------------------------------------

_CSA_LINE = re.compile(r"^(?:V\d|N[+-]|P[I1-9+-]|[+-]\d{4}[A-Z]{2}|[+-]\s*$|\$[A-Z_]+:|%[A-Z]+)", re.M)
_KIF_LINE = re.compile(
    r"^(?:手合割|先手|後手|下手|上手|開始日時|終了日時|棋戦|手数[-－]|#KIF|\s*\d+\s+[１-９1-9同▲△☗☖]|[▲△☗☖][１-９1-9同])",
    re.M)
_PGN_LINE = re.compile(r"^\s*(?:\[\s*[A-Za-z0-9_]+\s+\"|\d+\s*\.)", re.M)


def detect(text: str) -> Format:
    """The format of a record's text, from its first lines (4,096 characters at most):
    ``"kif"`` where a KIF header or move line shows (``手合割：``, ``先手：``, ``1 ７六歩(77)``,
    or KI2's ``▲７六歩``), ``"csa"`` where CSA lines do (``V2.2``, ``N+``, ``PI``, ``+7776FU``),
    else ``"pgn"``.

    >>> detect('[Event "?"]\\n1. e4 e5 *'), detect("V2.2\\nPI\\n+\\n+7776FU\\n"), detect("手合割：平手\\n")
    ('pgn', 'csa', 'kif')
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    head = text[:4096].lstrip("\ufeff")
    if _PGN_LINE.search(head) and not _KIF_LINE.search(head):
        first_pgn = _PGN_LINE.search(head)
        first_csa = _CSA_LINE.search(head)
        if first_csa is None or (first_pgn is not None and first_pgn.start() < first_csa.start()):
            return "pgn"
    if _KIF_LINE.search(head):
        return "kif"
    if _CSA_LINE.search(head):
        return "csa"
    return "pgn"


def decode(data: bytes | bytearray | memoryview) -> str:
    """The text of a record's bytes: UTF-8 (a byte order mark dropped) where they are; else
    Shift_JIS (cp932) where they read as a KIF or CSA record (what most shogi programs write);
    else ISO 8859-1, PGN's own encoding. Bytes with a NUL or mostly control characters are no
    text record: :class:`~ggn.errors.RecordError`.

    >>> decode("1. e4 {Réti} *".encode()), decode("1. e4 {Réti} *".encode("latin-1"))
    ('1. e4 {Réti} *', '1. e4 {Réti} *')
    """
    expect(data, (bytes, bytearray, memoryview), "data", "bytes")
    raw = bytes(data)
    sample = raw[:65536]
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 12, 13))
    if b"\0" in raw or controls * 20 > len(sample):
        raise RecordError("this is not the text of a record (PGN, KIF, CSA): it holds binary data "
                          f"(NUL or control bytes in the first {len(sample):,})", 1, line=1)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = raw.decode("cp932")
    except UnicodeDecodeError:
        text = None
    if text is not None and detect(text) != "pgn":
        return text
    return raw.decode("latin-1")


def lines_of(source: object) -> Iterator[str]:
    """The lines of a record's source (text, bytes or a stream of either), each with its end.
    A source of another type is a :class:`TypeError` at once; bytes that are no text a
    :class:`~ggn.errors.RecordError` when read."""
    if isinstance(source, str):
        return iter(source.splitlines(keepends=True))
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _decoded(source)
    if not callable(getattr(source, "readline", None)):
        raise TypeError("source must be a str, bytes or a file opened for reading, "
                        f"got {type(source).__name__}")
    return _streamed(source)


def _decoded(data: bytes | bytearray | memoryview) -> Iterator[str]:
    yield from decode(data).splitlines(keepends=True)


def _streamed(source: Any) -> Iterator[str]:
    read = source.readline
    first = read()
    if isinstance(first, (bytes, bytearray)):
        rest = source.read()
        yield from decode(bytes(first) + bytes(rest)).splitlines(keepends=True)
        return
    if not isinstance(first, str):
        raise TypeError(f"source.readline() must give str or bytes, got {type(first).__name__}")
    line = first
    while line:
        if "\0" in line:
            raise RecordError("this is not the text of a record (PGN, KIF, CSA): it holds a NUL character", 1)
        yield line
        line = read()


def check_depth(record: Record) -> None:
    """Refuse a record whose variations nest deeper than :data:`MAX_DEPTH`."""
    if record.depth() > MAX_DEPTH:
        raise record.error(f"its variations nest deeper than {MAX_DEPTH} levels, more than a record may")

