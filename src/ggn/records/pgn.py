"""PGN (Portable Game Notation) read into records and written from games.

Reading (:func:`read`, :func:`read_lines`) takes the PGN of any game Fairy-Stockfish plays, one
game after another as they are read: the tag pairs in order, ``[Variant]`` mapped to ggn's name
of the game (:func:`game_of`: lichess's and Fairy-Stockfish's names alike), ``[FEN]`` (with or
without ``[SetUp "1"]``) as the start, the movetext with move numbers, brace and rest-of-line
comments, NAGs (``$14``, and the suffixes ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!`` read as
NAGs 1 to 6), variations (kept, nested), and the result. A comment's runs of spaces and line
breaks are read as one space (its writer wrapped it where its lines ended). Lines starting
with ``%`` are skipped (PGN's escape). Reading checks the syntax only: :func:`ggn.records.replay`
plays the moves.

Untrusted input is bounded: a game's text at most :data:`~ggn.records.MAX_GAME_CHARS`
characters, variations nested at most :data:`~ggn.records.MAX_DEPTH` deep, and every fault of
syntax (an unclosed comment or variation, a stray ``)``, a tag that is not ``[Name "value"]``, a
character no PGN has) a :class:`~ggn.errors.RecordError` naming the game's number and line.
The games before it are given first. A game that stops with no result (a truncated file) is
given with ``result`` None; one cut in the middle of a move fails when replayed, at that move.

Writing (:func:`write`) gives the Seven Tag Roster (``?`` where unknown), ``[Variant]`` for a
game other than chess (lichess's name for the variants python-chess and lichess know:
``Chess960``, ``Crazyhouse``, ``King of the Hill``, ``Racing Kings``, ``Horde``, ``Three-check``,
``Atomic``, ``Antichess``; Fairy-Stockfish's name, as ``UCI_Variant`` takes it, for the others),
``[SetUp "1"]`` and ``[FEN]`` when the game does not start from its usual position, then the
moves in SAN as Fairy-Stockfish writes them (:mod:`ggn.notation`), numbered, in lines of at most
80 characters. :func:`write_record` writes a record back with its comments, NAGs and variations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from ggn._types import expect
from ggn.errors import GGNError, RecordError
from ggn.records._record import MAX_DEPTH, MAX_GAME_CHARS, Record, RecordMove, Verdict, lines_of

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.records import Source, Tags
    from ggn.rules import Play

__all__ = [
    "RESULTS",
    "ROSTER",
    "SUFFIXES",
    "WIDTH",
    "game_of",
    "parse_move",
    "read",
    "read_lines",
    "variant_of",
    "write",
    "write_record",
]

ROSTER: Final = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The Seven Tag Roster, in the order PGN writes it."""

_UNKNOWN: Final = {"Date": "????.??.??", "Result": "*"}

RESULTS: Final[Mapping[str, Verdict | None]] = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": None}
"""PGN's game termination markers and what each says."""

WIDTH: Final = 80
"""Longest line :func:`write` writes, but for a comment longer than that, which is written whole
(python-chess and lichess do the same: a reader keeps the line breaks inside a comment)."""

SUFFIXES: Final = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
"""The move suffix annotations and the NAG each stands for (PGN standard, section 8.2.3.8)."""

# --- the names of variants ---------------------------------------------------------------------

# ggn's name -> the name lichess (and python-chess) give the variant in [Variant].
_LICHESS: Final = {
    "fischerandom": "Chess960",
    "crazyhouse": "Crazyhouse",
    "kingofthehill": "King of the Hill",
    "racingkings": "Racing Kings",
    "horde": "Horde",
    "3check": "Three-check",
    "atomic": "Atomic",
    "antichess": "Antichess",
}

# Other names a [Variant] may give a game ggn plays, by their folded form (lowercase, no space,
# hyphen or underscore): lichess's, python-chess's and pychess-variants' aliases.
_ALIASES: Final = {
    "standard": "chess", "chess": "chess", "classical": "chess", "normal": "chess", "fromposition": "chess",
    "orthodox": "chess", "international": "chess", "westernchess": "chess",
    "chess960": "fischerandom", "fischerrandom": "fischerandom", "fischerandomchess": "fischerandom",
    "960": "fischerandom", "frc": "fischerandom",
    "zh": "crazyhouse", "house": "crazyhouse",
    "koth": "kingofthehill", "kingofthehill": "kingofthehill",
    "race": "racingkings", "racing": "racingkings",
    "anti": "antichess", "giveawaychess": "giveaway",
    "shogi": "shogi", "xiangqi": "xiangqi", "chinesechess": "xiangqi",
    "makruk": "makruk", "thaichess": "makruk",
    "threecheck": "3check", "3check": "3check", "fivecheck": "5check",
    "atom": "atomic", "atomicchess": "atomic",
}

_FOLD = str.maketrans("", "", " -_")


def game_of(variant: str, names: Iterable[str] | None = None) -> str | None:
    """ggn's name of the game a PGN ``[Variant]`` names, or None when ggn plays no such game.

    Lichess's names, python-chess's aliases and Fairy-Stockfish's names are read, in any case
    and with or without spaces and hyphens. ``names`` are the games to choose among (by default
    the registry's).

    >>> game_of("King of the Hill"), game_of("Chess960"), game_of("capablanca"), game_of("chaturaji")
    ('kingofthehill', 'fischerandom', 'capablanca', None)
    """
    expect(variant, str, "variant", "a str")
    if names is None:
        from ggn.variants import registry  # noqa: PLC0415  (the registry's names only when asked)

        names = registry.names()
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TypeError(f"names must be an iterable of games' names (str), got {type(names).__name__}")
    known = tuple(names)
    folded = variant.strip().lower().translate(_FOLD)
    alias = _ALIASES.get(folded)
    if alias is not None and alias in known:
        return alias
    for name in known:
        if name.lower().translate(_FOLD) == folded:
            return name
    return None


def variant_of(game: str) -> str | None:
    """The ``[Variant]`` :func:`write` writes for ggn's game ``game`` (None for chess, which
    writes none): lichess's name where lichess has the variant, else ggn's (which is
    Fairy-Stockfish's).

    >>> variant_of("chess"), variant_of("crazyhouse"), variant_of("fischerandom"), variant_of("shogi")
    (None, 'Crazyhouse', 'Chess960', 'shogi')
    """
    expect(game, str, "game", "a str")
    if game in ("chess", "normal"):
        return None
    return _LICHESS.get(game, game)


# --- reading ---------------------------------------------------------------------------------

_TAG = re.compile(r'\[\s*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(r"""
      (?P<space>\s+)
    | (?P<open_comment>\{)
    | (?P<line_comment>;[^\n]*)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d{1,6})
    | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s(){};!?$]|$))
    | (?P<number>\d+\s*\.+(?:\s*\.\.)*)
    | (?P<dots>\.\.\.?)
    | (?P<suffix>!!|\?\?|!\?|\?!|!|\?)
    | (?P<move>[A-Za-z0-9+@-][A-Za-z0-9+@*=#/.:~'-]*)
""", re.VERBOSE)


@dataclass(slots=True)
class _Node:
    text: str
    line: int
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    variations: list[list[_Node]] = field(default_factory=list)

    def frozen(self) -> RecordMove:
        return RecordMove._trusted(
            self.text, tuple(self.nags), tuple(self.comments), tuple(self.before),
            tuple(tuple(node.frozen() for node in line) for line in self.variations if line), None, self.line)


class _Game:
    """One game being read: its tags, then its movetext as a tree of nodes."""

    def __init__(self, number: int, line: int) -> None:
        self.number = number
        self.line = line
        self.tags: list[tuple[str, str]] = []
        self.comment: list[str] = []
        self.main: list[_Node] = []
        # Each open line: its nodes, and the comments written before its next move.
        self.stack: list[tuple[list[_Node], list[str], int]] = [(self.main, [], line)]
        self.result: str | None = None
        self.moves = False  # whether any movetext was read
        self.size = 0

    def error(self, reason: str, line: int, move: str | None = None) -> RecordError:
        return RecordError(reason, self.number, None, move, line)

    def comment_text(self, text: str, line: int) -> None:
        text = " ".join(text.split())  # a comment's line breaks are where its writer wrapped it
        nodes, pending, _ = self.stack[-1]
        self.moves = True
        if len(self.stack) == 1 and not nodes:
            self.comment.append(text)
        elif not nodes:
            pending.append(text)
        else:
            nodes[-1].comments.append(text)

    def record(self) -> Record:
        tags = tuple(self.tags)
        headers: dict[str, str] = {}
        for key, value in tags:
            headers.setdefault(key, value)
        variant = headers.get("Variant")
        game = "chess"
        if variant is not None and variant.strip():
            game = game_of(variant) or variant
        fen = headers.get("FEN")
        if fen is not None:
            fen = " ".join(fen.split()) or None
        result = self.result
        verdict = RESULTS.get(result) if result is not None else None
        if result is None and headers.get("Result") in RESULTS:
            verdict = RESULTS[headers["Result"]]
        return Record(tags, game, fen, tuple(node.frozen() for node in self.main), result, verdict,
                      " ".join(self.comment) if self.comment else None, self.number, self.line, "pgn")


def read(source: Source) -> Iterator[Record]:
    """The games of a PGN text, bytes or file, one :class:`~ggn.records.Record` each, as read.

    >>> [(r.number, r.tag("White"), [m.text for m in r.moves], r.result)
    ...  for r in read('[White "Tal"]\\n1. e4 e5 1-0\\n\\n[White "Petrosian"]\\n1. d4 *\\n')]
    [(1, 'Tal', ['e4', 'e5'], '1-0'), (2, 'Petrosian', ['d4'], '*')]
    """
    return read_lines(lines_of(source))


def read_lines(lines: Iterable[str]) -> Iterator[Record]:
    """The games of PGN given line by line (each line with or without its end), as read."""
    expect(lines, Iterable, "lines", "an iterable of str (the lines of a PGN text)")
    if isinstance(lines, (str, bytes)):
        raise TypeError(f"lines must be an iterable of lines, not one {type(lines).__name__}: use read()")
    return _games(lines)


def _games(lines: Iterable[str]) -> Iterator[Record]:
    number = 0
    game: _Game | None = None
    comment: list[str] | None = None  # the open brace comment's parts
    comment_line = 0
    line_number = 0
    pending: list[tuple[int, str]] = []  # (line number, text) read again: what followed a result
    source = iter(lines)

    def next_line() -> tuple[int, str] | None:
        nonlocal line_number
        if pending:
            return pending.pop()
        for text in source:
            line_number += 1
            if not isinstance(text, str):
                raise TypeError(f"lines must give str, got {type(text).__name__}")
            return line_number, text
        return None

    while True:
        got = next_line()
        if got is None:
            break
        at, text = got
        if game is not None:
            game.size += len(text)
            if game.size > MAX_GAME_CHARS:
                raise game.error(f"the game is longer than {MAX_GAME_CHARS:,} characters, more than a "
                                 "record's game may be", game.line)
        if comment is not None:
            assert game is not None
            end = text.find("}")
            if end < 0:
                comment.append(text)
                continue
            comment.append(text[:end])
            game.comment_text("".join(comment), comment_line)
            comment = None
            text = text[end + 1:]
            start = 0
        else:
            start = 0
            stripped = text.lstrip()
            if text.startswith("%") or not stripped:
                continue
            if stripped.startswith("["):
                if game is not None and (game.moves or game.main):
                    if len(game.stack) > 1:
                        raise game.error("a variation opened at line "
                                         f"{game.stack[-1][2]} is not closed before the next game's tags", at)
                    yield _finished(game)
                    game = None
                if game is None:
                    number += 1
                    game = _Game(number, at)
                    game.size = len(text)
                rest = _tags(game, stripped, at)
                if rest:
                    text, start = rest, 0
                else:
                    continue
            elif game is None:
                number += 1
                game = _Game(number, at)
                game.size = len(text)
        assert game is not None
        game.moves = game.moves or bool(text[start:].strip())
        outcome = _movetext(game, text, start, at)
        if outcome is None:
            continue
        kind, rest = outcome
        if kind == "comment":
            comment, comment_line = [rest], at
            continue
        # a result: the game is over; whatever follows on the line belongs to the next one
        yield _finished(game)
        game = None
        if rest.strip():
            pending.append((at, rest))
    if comment is not None:
        assert game is not None
        raise game.error(f"the comment opened at line {comment_line} is not closed: the record ends in it",
                         comment_line)
    if game is not None and (game.moves or game.main or game.tags):
        if len(game.stack) > 1:
            raise game.error(f"the variation opened at line {game.stack[-1][2]} is not closed: the record "
                             "ends in it", game.stack[-1][2])
        yield _finished(game)


def _finished(game: _Game) -> Record:
    return game.record()


def _tags(game: _Game, text: str, at: int) -> str:
    """Read the tag pairs at the start of ``text``; give back what follows them on the line."""
    position = 0
    while True:
        while position < len(text) and text[position] in " \t\r\n":
            position += 1
        if position >= len(text) or text[position] != "[":
            return text[position:] if text[position:].strip() else ""
        found = _TAG.match(text, position)
        if found is None:
            shown = _shown(text[position:].rstrip())
            raise game.error(f"a tag pair is written [Name \"value\"], not {shown}", at)
        value = re.sub(r"\\(.)", r"\1", found.group(2))
        game.tags.append((found.group(1), value))
        position = found.end()


def _shown(text: str) -> str:
    return repr(text[:60]) + ("..." if len(text) > 60 else "")


def _movetext(game: _Game, text: str, start: int, at: int) -> tuple[str, str] | None:
    """Read one line of movetext into the game from ``start``. Give ("comment", text) when a
    brace comment stays open at the line's end, ("result", rest of line) when the game's
    result is read, None when the line is read through."""
    position = start
    end = len(text)
    while position < end:
        found = _TOKEN.match(text, position)
        if found is None:
            raise game.error(f"{_shown(text[position:].rstrip())} is not PGN: expected a move, a move "
                             "number, a comment, a NAG, a variation or a result", at)
        kind = found.lastgroup
        position = found.end()
        if kind in ("space", "number", "dots"):
            continue
        nodes, pending, opened = game.stack[-1]
        if kind == "move":
            move = found.group()
            if move[0].isdigit() and move.rstrip("+#").isdigit():
                # a bare number: a move number written without its dot (``1 e4``)
                continue
            node = _Node(move, at)
            if pending:
                node.before.extend(pending)
                pending.clear()
            nodes.append(node)
        elif kind == "open_comment":
            close = text.find("}", position)
            if close < 0:
                return "comment", text[position:]
            game.comment_text(text[position:close], at)
            position = close + 1
        elif kind == "line_comment":
            game.comment_text(found.group()[1:], at)
        elif kind in ("nag", "suffix"):
            nag = int(found.group()[1:]) if kind == "nag" else SUFFIXES[found.group()]
            if not nodes:
                raise game.error(f"the annotation {found.group()!r} comes before any move it could "
                                 "annotate", at)
            nodes[-1].nags.append(nag)
        elif kind == "open":
            if not nodes:
                raise game.error("a variation '(' comes before any move it could be an alternative to", at)
            if len(game.stack) > MAX_DEPTH:
                raise game.error(f"variations nest deeper than {MAX_DEPTH} levels, more than a record "
                                 "may", at)
            line: list[_Node] = []
            nodes[-1].variations.append(line)
            game.stack.append((line, [], at))
        elif kind == "close":
            if len(game.stack) == 1:
                raise game.error("a ')' closes no variation", at)
            game.stack.pop()
        else:  # the result
            if len(game.stack) > 1:
                raise game.error(f"the result {found.group()!r} comes inside the variation opened at line "
                                 f"{opened}: a ')' is missing", at)
            game.result = found.group()
            return "result", text[position:]
    return None


# --- writing ---------------------------------------------------------------------------------

def parse_move(game: Game, text: str) -> Play:
    """The play a PGN move names in the game's current position: SAN as Fairy-Stockfish writes
    it (the game's own: ``shogi-hodges-number`` for the shogi family), read as tolerantly as
    python-chess reads SAN, or any other notation of the game :func:`ggn.notation.parse`
    recognises (LAN, UCI: some programs write those in PGN). A move that names no legal play,
    or several, is an :class:`~ggn.errors.IllegalMoveError` naming the candidates."""
    from ggn import notation  # noqa: PLC0415  (records are read without the games' rules)
    from ggn.game import Game  # noqa: PLC0415

    expect(game, Game, "game", "a Game")
    expect(text, str, "text", "a str")
    if game.variant is None:
        raise GGNError("a PGN move is read in a game of Fairy-Stockfish's variants, not one played from a "
                       "GGN document")
    return notation.parse(game.rules, game.position, text)


def write(game: Game, tags: Tags | None = None) -> str:
    """A game as PGN: the Seven Tag Roster (``?`` where ``tags`` give nothing; ``Result`` the
    game's, unless ``tags`` give one: a resignation, a draw agreed), ``[Variant]`` for a game other
    than chess (:func:`variant_of`), ``[SetUp "1"]`` and ``[FEN]`` when the game does not start
    from its usual position, ``tags``' others in their order, then the moves in SAN as
    Fairy-Stockfish writes them in the game's default notation, numbered, in lines of at most
    :data:`WIDTH` characters.

    >>> from ggn.game import Game
    >>> game = Game("crazyhouse", fen="4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 30")
    >>> _ = game.push("Q@e7")
    >>> print(write(game, {"Event": "Blitz"}))
    [Event "Blitz"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "?"]
    [Black "?"]
    [Result "*"]
    [Variant "Crazyhouse"]
    [SetUp "1"]
    [FEN "4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 30"]
    <BLANKLINE>
    30. Q@e7+ *
    <BLANKLINE>
    """
    from ggn.game import Game  # noqa: PLC0415

    expect(game, Game, "game", "a Game")
    _check_tags(tags)
    variant = game.variant
    if variant is None:
        raise GGNError("PGN writes a game of Fairy-Stockfish's variants (a built-in game or an --ini one), "
                       "not one played from a GGN document: it has no FEN and no SAN")
    given = _pgn_tags(_merged((), tags))
    result = _value(given, "Result") or game.result()
    merged: list[tuple[str, str]] = [(name, value) for name, value in given
                                     if name not in ("Variant", "SetUp", "FEN", "Result")]
    merged.append(("Result", result))
    variant_tag = variant_of(variant.name)
    if variant_tag is not None:
        merged.append(("Variant", _value(given, "Variant") or variant_tag))
    start = game.fen(0)
    if start != Game(game.rules).fen(0):  # the usual start, written as the game writes its FEN
        merged += [("SetUp", "1"), ("FEN", start)]
    # The game writes its moves (a check that ends a game of counted checks is a mate, '#').
    moves = tuple(RecordMove(text) for text in game.moves("san"))
    tokens: list[str] = []
    _line(moves, *_numbering(start), tokens, forced=True)
    tokens.append(result)
    return _document(merged, tokens)


# The tags of KIF and CSA records that PGN has under other names (a KIF/CSA game converted).
_CARRIED: Final = {"先手": "White", "下手": "White", "後手": "Black", "上手": "Black", "棋戦": "Event",
                   "場所": "Site", "N+": "White", "N-": "Black", "$EVENT": "Event", "$SITE": "Site"}
_NAME: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]*")


def _pgn_tags(tags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tags PGN can write: KIF's and CSA's players, event, site and start date under PGN's
    names (``開始日時：2023/01/02 10:00`` is ``[Date "2023.01.02"]``); a name that is no PGN
    symbol left out."""
    found: list[tuple[str, str]] = []
    for written, given in tags:
        name, value = _CARRIED.get(written, written), given
        if written in _DATES:
            date = _DATE.match(value.strip())
            if date is None:
                continue
            name, value = "Date", ".".join((date[1], date[2].zfill(2), date[3].zfill(2)))
        if _NAME.fullmatch(name) and all(name != known for known, _ in found):
            found.append((name, value))
    return found


_DATES: Final = frozenset({"開始日時", "対局日", "$START_TIME"})
_DATE: Final = re.compile(r"(\d{4})\s*[/年.-]\s*(\d{1,2})\s*[/月.-]\s*(\d{1,2})")


def write_record(record: Record, tags: Tags | None = None) -> str:
    """A PGN record written back: its tags (the Seven Tag Roster first, ``?`` where it has
    none), its leading comment, its moves as written with their NAGs, comments and variations,
    numbered from its start position, and its result; ``tags`` add to or replace its tags.

    >>> record = next(read('[White "Tal"]\\n1. e4 $1 {best} (1. d4 d5) e5 1-0'))
    >>> print(write_record(record, {"Event": "Riga"}))
    [Event "Riga"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "Tal"]
    [Black "?"]
    [Result "1-0"]
    <BLANKLINE>
    1. e4 $1 { best } (1. d4 d5) 1... e5 1-0
    <BLANKLINE>
    """
    expect(record, Record, "record", "a Record")
    _check_tags(tags)
    merged = _merged(record.tags, tags)
    result = _result(record, merged)
    merged = _put(merged, "Result", result)
    tokens: list[str] = []
    if record.comment:
        tokens.append(_comment(record.comment))
    _line(record.moves, *_numbering(_value(merged, "FEN")), tokens, forced=True)
    tokens.append(result)
    return _document(merged, tokens)


def _result(record: Record, tags: list[tuple[str, str]]) -> str:
    """The termination marker of a record: its result if PGN's, else what its verdict says (a
    KIF or CSA record's), else its Result tag, else ``*``."""
    if record.result is not None and record.result in RESULTS:
        return record.result
    if record.verdict is not None:
        return record.verdict
    tag = _value(tags, "Result")
    return tag if tag is not None and tag in RESULTS else "*"


def _check_tags(tags: object) -> None:
    from ggn.records import _check_tags as check  # noqa: PLC0415  (the package's one check)

    check(tags)


def _merged(tags: Iterable[tuple[str, str]], extra: Tags | None) -> list[tuple[str, str]]:
    merged = [(str(key), str(value)) for key, value in tags]
    if extra is None:
        return merged
    pairs = extra.items() if isinstance(extra, Mapping) else extra
    for key, value in pairs:
        expect(key, str, "tags", "a mapping of tag names to values (str)")
        expect(value, str, "tags", "a mapping of tag names to values (str)")
        merged = _put(merged, key, value)
    return merged


def _put(tags: list[tuple[str, str]], key: str, value: str) -> list[tuple[str, str]]:
    """The tags with ``key``'s value replaced (where written) or added (at the end)."""
    if any(name == key for name, _ in tags):
        return [(name, value if name == key else old) for name, old in tags]
    return [*tags, (key, value)]


def _value(tags: Iterable[tuple[str, str]], key: str) -> str | None:
    for name, value in tags:
        if name == key:
            return value
    return None


def _numbering(fen: str | None) -> tuple[int, int]:
    """The first move's number and whether the second player moves first (0 or 1), from a FEN."""
    if not fen:
        return 1, 0
    fields = fen.split()
    second = 1 if len(fields) > 1 and fields[1] == "b" else 0
    number = int(fields[-1]) if len(fields) >= 3 and fields[-1].isdigit() and len(fields[-1]) < 9 else 1
    return max(number, 1), second


def _line(moves: tuple[RecordMove, ...], number: int, offset: int, tokens: list[str], forced: bool) -> None:
    """Write a line of moves (a variation's or the main line's): its moves numbered, each with
    its NAGs, comments and variations. Its first move is ply ``offset`` of the game counted
    from move ``number`` (an odd ply is the second player's); ``forced`` writes the number of
    a first move that is the second player's."""
    for index, move in enumerate(moves):
        ply = index + offset
        if move.before:
            tokens.extend(_comment(text) for text in move.before)
            forced = True
        if ply % 2 == 0:
            tokens.append(f"{number + ply // 2}.")
        elif forced:
            tokens.append(f"{number + ply // 2}...")
        tokens.append(move.text)
        tokens.extend(f"${nag}" for nag in move.nags)
        tokens.extend(_comment(text) for text in move.comments)
        for variation in move.variations:
            tokens.append("(")
            _line(variation, number, ply, tokens, forced=True)
            tokens.append(")")
        forced = bool(move.comments or move.variations)


def _comment(text: str) -> str:
    """A comment as PGN writes it: in braces, or, when it holds a ``}`` (which would end a brace
    comment), after a ``;`` to the end of its line."""
    words = text.split()
    if "}" in text:
        return "; " + " ".join(words)
    return "{ " + " ".join(words) + " }" if words else "{ }"


def _document(tags: list[tuple[str, str]], tokens: list[str]) -> str:
    """The tag section (the Seven Tag Roster first, in its order) and the movetext, wrapped."""
    lines = []
    written = set()
    for name in ROSTER:
        value = _value(tags, name)
        lines.append(_tag(name, value if value is not None else _UNKNOWN.get(name, "?")))
        written.add(name)
    lines.extend(_tag(name, value) for name, value in tags if name not in written)
    return "\n".join(lines) + "\n\n" + _wrapped(tokens) + "\n"


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")
    return f'[{name} "{escaped}"]'


def _wrapped(tokens: list[str]) -> str:
    """The tokens joined by spaces in lines of at most :data:`WIDTH` characters (a comment longer
    than a line is written whole, on a line of its own: a reader keeps the line breaks inside a
    comment; a ``;`` comment ends its line). A variation's parentheses touch what they enclose."""
    words: list[str] = []
    glue: list[bool] = []  # whether a word is written with no space before it
    joined: list[str] = []  # a move number stays on the line of its move
    for token in tokens:
        if joined and joined[-1][-1:] == "." and joined[-1][:1].isdigit():
            joined[-1] += " " + token
        else:
            joined.append(token)
    for token in joined:
        if token == ")":  # noqa: S105  (a token of PGN, no password)
            words.append(")")
            glue.append(True)
        else:
            words.append(token)
            glue.append(len(words) > 1 and words[-2] == "(")
    lines: list[str] = []
    current = ""
    for word, touching in zip(words, glue, strict=True):
        if not current:
            current = word
        elif len(current) + (0 if touching else 1) + len(word) <= WIDTH:
            current += word if touching else " " + word
        else:
            lines.append(current)
            current = word
        if word.startswith(";"):
            lines.append(current)
            current = ""
    if current:
        lines.append(current)
    return "\n".join(lines)
