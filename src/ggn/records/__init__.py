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
from collections.abc import Iterable, Iterator, Mapping
from types import ModuleType
from typing import IO, TYPE_CHECKING, Final

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

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.variants.registry import Catalogue

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
    "replay",
    "write",
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
    (:func:`detect`). PGN is parsed game by game, each given as soon as it is read: a file
    opened as text is read line by line, in memory bounded by its longest game; bytes and a
    file opened as binary are decoded whole first (their encoding is told from all of them).
    KIF and CSA records are read whole.

    >>> [record.moves[0].text for record in read("1. e4 e5 *\\n\\n1. d4 d5 *\\n")]
    ['e4', 'd4']
    """
    lines = lines_of(source)
    if format is not None:
        expect(format, str, "format", "'pgn', 'kif', 'csa' or None")
        _module(format)
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


Tags = Mapping[str, str] | Iterable[tuple[str, str]]
"""Tags given to :func:`write`: a mapping of names to values, or (name, value) pairs."""


def replay(record: Record, games: Catalogue | None = None, *, variations: bool = True) -> Game:
    """The game a record writes, every move checked under its game's rules and the stated
    result checked against the game's end: a :class:`ggn.game.Game`.

    ``games`` is the catalogue the record's game is looked up in (default: the built-in games;
    a :class:`~ggn.variants.registry.Catalogue` with ``--ini`` variants plays theirs, found by
    the names Fairy-Stockfish and lichess give them, as :func:`ggn.records.pgn.game_of` reads).

    A move that is illegal, ambiguous or unreadable, a move after the game has ended, an
    unknown game or start position, and a stated result that the game's end contradicts
    (``1-0`` where the second player has mated) raise a :class:`~ggn.errors.RecordError`
    naming the game's number, the ply and the move as written. A decided result where the game
    has not ended (a resignation, a draw agreed or claimed, a loss on time) is taken as written.

    With ``variations`` (the default), each variation is played too, from the position before
    the move it is an alternative to, and a bad move there is an error as well (its message
    says it is in a variation; its ply counts from the game's start). The game returned holds
    the main line only.

    >>> game = replay(next(read("1. f3 e5 2. g4 Qh4# 0-1")))
    >>> len(game), str(game.outcome()), game.result()
    (4, 'second player wins by checkmate', '0-1')
    """
    expect(record, Record, "record", "a Record")
    _check_games(games)
    from ggn.game import Game  # noqa: PLC0415  (ggn.game imports nothing of records; loaded when played)

    module = _module(record.format)
    name = _game_name(record, games)
    try:
        rules = games.rules(name) if games is not None else name
        game = Game(rules, fen=record.fen)
    except GGNError as error:
        what = f"its start position {record.fen!r}" if record.fen else f"its game {record.game!r}"
        raise record.error(f"{what} cannot be played: {error}") from None
    _play_line(record, module, game, record.moves, 1, variations=variations, main=True)
    _check_result(record, game)
    return game


def _play_line(record: Record, module: ModuleType, game: Game, moves: tuple[RecordMove, ...], first: int, *,
               variations: bool, main: bool) -> None:
    """Play a line of moves (whose first is ply ``first``) onto ``game``, and each variation of
    each move, from the position before it, taken back once checked; a variation's own line is
    taken back too (``main`` False). Variations nest at most MAX_DEPTH deep (the readers'
    bound), so the recursion stays shallow."""
    where = "" if main else "in a variation: "
    for index, move in enumerate(moves):
        ply = first + index
        if variations:
            for line in move.variations:
                _play_line(record, module, game, line, ply, variations=variations, main=False)
        ended = game.outcome()
        if ended is not None:
            raise record.error(f"{where}the game has already ended ({ended}), yet a move follows", ply, move)
        try:
            play = module.parse_move(game, move.text)
        except RecordError:
            raise
        except GGNError as error:
            raise record.error(f"{where}{error}", ply, move) from None
        game.push(play)
    if not main:
        for _ in moves:
            game.pop()


def _check_games(games: object) -> None:
    if games is not None:
        from ggn.variants.registry import Catalogue  # noqa: PLC0415

        expect(games, Catalogue, "games", "a Catalogue or None")


def _check_tags(tags: object) -> None:
    if tags is None:
        return
    pairs = tags.items() if isinstance(tags, Mapping) else tags
    if isinstance(tags, (str, bytes)) or not isinstance(pairs, Iterable):
        raise TypeError(f"tags must be a mapping of tag names to values, or (name, value) pairs, got "
                        f"{type(tags).__name__}")
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(part, str) for part in pair)):
            raise TypeError("tags must be a mapping of tag names to values, or (name, value) pairs, of str")


def _game_name(record: Record, games: Catalogue | None) -> str:
    from ggn.records.pgn import game_of  # noqa: PLC0415

    if games is None:
        from ggn.variants import registry  # noqa: PLC0415

        names = registry.names()
    else:
        names = games.names()
    if record.game in names:
        return record.game
    found = game_of(record.game, names)
    if found is None:
        raise record.error(f"its game {record.game[:40]!r} is not one ggn plays (ggn variants lists them; "
                           "--ini adds more)")
    return found


def _check_result(record: Record, game: Game) -> None:
    outcome = game.outcome()
    if outcome is None or record.verdict is None:
        return
    happened = game.result()
    if happened != record.verdict:
        raise record.error(f"the record's result {record.result!r} says {_said(record.verdict)}, "
                           f"but the game ended in {happened}: {outcome}")


def _said(verdict: Verdict) -> str:
    return {"1-0": "the first player won", "0-1": "the second player won", "1/2-1/2": "a draw"}[verdict]


def write(game: Game | Record, format: Format = "pgn", tags: Tags | None = None,  # noqa: A002
          games: Catalogue | None = None) -> str:
    """A game as a record of ``format`` (``"pgn"``, ``"kif"`` or ``"csa"``).

    ``game`` is a :class:`ggn.game.Game` (its moves written in the format's notation: SAN as
    Fairy-Stockfish writes it for PGN), or a :class:`Record`: one of the same format is written
    back as read, with its comments, NAGs and variations; one of another format is replayed
    (in ``games``, see :func:`replay`) and written anew, its tags kept. ``tags`` add to, or
    replace, the record's tags (PGN: the Seven Tag Roster is always written, ``?`` where unknown).

    >>> from ggn.game import Game
    >>> game = Game("chess")
    >>> for move in ("e2e4", "e7e5", "g1f3"):
    ...     _ = game.push(move)
    >>> print(write(game, tags={"White": "Morphy"}).splitlines()[-1])
    1. e4 e5 2. Nf3 *
    """
    expect(format, str, "format", "'pgn', 'kif' or 'csa'")
    _check_tags(tags)
    _check_games(games)
    module = _module(format)
    if isinstance(game, Record):
        if game.format == format:
            return module.write_record(game, tags=tags)  # type: ignore[no-any-return]
        played = replay(game, games)
        return module.write(played, tags=_carried(game, tags))  # type: ignore[no-any-return]
    from ggn.game import Game  # noqa: PLC0415

    expect(game, Game, "game", "a Game or a Record")
    return module.write(game, tags=tags)  # type: ignore[no-any-return]


# A record's tags that are its own format's business, or say nothing: not carried to another format.
_OWN: Final = frozenset({"Variant", "SetUp", "FEN", "Result", "PlyCount", "手合割"})
_UNKNOWN: Final = frozenset({"", "?", "????.??.??"})


def _carried(record: Record, tags: Tags | None) -> dict[str, str]:
    """The tags a record written in another format keeps: those that say something and are not
    its own format's (the start, the variant, the result, which the other format writes in its
    own way), the stated result as PGN's ``Result`` (a resignation in KIF is ``0-1``: each
    format's writer reads it), then ``tags``."""
    carried = {name: value for name, value in record.headers.items()
               if name not in _OWN and value.strip() not in _UNKNOWN}
    if record.verdict is not None:
        carried["Result"] = record.verdict
    if tags is not None:
        carried.update(tags.items() if isinstance(tags, Mapping) else tags)
    return carried
