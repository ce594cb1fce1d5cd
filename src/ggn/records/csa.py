"""CSA, the record of shogi games of the Computer Shogi Association (the format of computer
shogi's servers and their logs), read into records and written from games.

Reading (:func:`read`) takes a CSA text (versions 2 to 3): the version line (``V2.2``, kept as
the tag ``V``), the players (``N+``, ``N-``) and the game's information (``$EVENT:``,
``$START_TIME:``... each a tag, as ``$EVENT``), the start (``PI`` with the pieces it takes off
for a handicap: ``PI82HI22KA``; or the ranks ``P1`` to ``P9`` and the pieces placed and held
with ``P+``/``P-``, ``00AL`` for all the pieces left), the side to move (``+`` or ``-``), the
moves as written (``+7776FU``: the side, the source, the destination and the piece as it stands
after the move, ``+0055KA`` a drop), their times (``T16``, kept as the move's clock), the
comments (``'`` lines: after a move, its comments; before the first, the record's comment), and
the end (``%TORYO``, ``%TSUMI``, ``%SENNICHITE``, ``%JISHOGI``, ``%CHUDAN``, ``%TIME_UP``,
``%ILLEGAL_MOVE``, ``%+ILLEGAL_ACTION``, ``%KACHI``...). Statements may share a line, separated by
commas; games are separated by a line ``/``, each its own record. The game is shogi.

Writing (:func:`write`) gives ``V2.2``, the players and the information the tags give (PGN's
``White``, ``Black``, ``Event``, ``Site``, ``Date`` and KIF's ``先手``, ``後手``, ``棋戦``, ``場所``,
``開始日時`` under their CSA names), the start (``PI`` for shogi's start, else the ranks and
the hands), the moves, and the end: ``%TSUMI`` where the game ended by mate, ``%TORYO`` where
``tags`` give a ``Result`` that the player to move lost. :func:`write_record` writes a record
back with its comments and times (CSA has no variations: a record's variations are left out).
python-shogi and cshogi read what this module writes.

>>> record = next(read("V2.2\\nN+Sente\\nN-Gote\\nPI\\n+\\n+7776FU\\nT3\\n-3334FU\\n%TORYO\\n"))
>>> record.tags, [(move.text, move.clock) for move in record.moves], record.result, record.verdict
((('V', '2.2'), ('N+', 'Sente'), ('N-', 'Gote')), [('+7776FU', 'T3'), ('-3334FU', None)], '%TORYO', '0-1')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Final

from ggn._json import quote
from ggn._types import Side, expect
from ggn.errors import GGNError, IllegalMoveError, RecordError
from ggn.records._record import MAX_GAME_CHARS, Record, RecordMove, Verdict
from ggn.records._shogi import HANDICAPS, Grid, checked, game_rules, grid_of, plays_of, sfen_of, tags_of

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.position import Position
    from ggn.rules import Play, RuleSystem

__all__ = ["ENDS", "parse_move", "read", "write", "write_record"]


_CODES: Final = {"FU": "p", "KY": "l", "KE": "n", "GI": "s", "KI": "g", "KA": "b", "HI": "r", "OU": "k",
                 "TO": "+p", "NY": "+l", "NK": "+n", "NG": "+s", "UM": "+b", "RY": "+r"}
_NAMES: Final = {piece_code: code for code, piece_code in _CODES.items()}
_ALL: Final = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2}  # shogi's pieces, kings aside

ENDS: Final[Mapping[str, str]] = {
    "%TORYO": "loss", "%TSUMI": "loss", "%TIME_UP": "loss", "%ILLEGAL_MOVE": "loss",
    "%KACHI": "win", "%+ILLEGAL_ACTION": "first lost", "%-ILLEGAL_ACTION": "second lost",
    "%SENNICHITE": "draw", "%JISHOGI": "draw", "%HIKIWAKE": "draw", "%MAX_MOVES": "draw",
    "%CHUDAN": "none", "%MATTA": "none", "%FUZUMI": "none", "%ERROR": "none",
}
"""CSA's ends of a game, and what each says: the player to move lost (``%TORYO``, it resigned)
or won (``%KACHI``, it declared a win), a named side lost (``%+ILLEGAL_ACTION``), a draw, or
nothing decided (``%CHUDAN``, interrupted)."""

_FROM_TAGS: Final = {"White": "N+", "Black": "N-", "先手": "N+", "後手": "N-", "下手": "N+", "上手": "N-",
                     "Event": "$EVENT", "棋戦": "$EVENT", "Site": "$SITE", "場所": "$SITE",
                     "Date": "$START_TIME", "開始日時": "$START_TIME", "終了日時": "$END_TIME",
                     "持ち時間": "$TIME_LIMIT", "Opening": "$OPENING", "戦型": "$OPENING"}
_SKIPPED: Final = frozenset({"Result", "Variant", "FEN", "SetUp", "手合割", "V"})
_MOVE: Final = re.compile(r"([+-])([0-9])([0-9])([1-9])([1-9])([A-Z]{2})")
_TIME: Final = re.compile(r"T[0-9]+(?:\.[0-9]+)?")
_INFO: Final = re.compile(r"\$([A-Z][A-Z_0-9]*):(.*)")
_PLACED: Final = re.compile(r"([0-9])([0-9])([A-Z]{2})")


class _Game:
    """One game of a CSA text being read."""

    def __init__(self, number: int, line: int) -> None:
        self.number = number
        self.line = line
        self.tags: list[tuple[str, str]] = []
        self.comment: list[str] = []
        self.rows: list[list[str]] | None = None
        self.hands: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self.side: Side | None = None
        self.moves: list[tuple[str, int, list[str], str | None]] = []  # text, line, comments, clock
        self.result: str | None = None
        self.end_ply = 0
        self.all_to: int | None = None

    def error(self, reason: str, line: int, ply: int | None = None, move: str | None = None) -> RecordError:
        return RecordError(reason, self.number, ply, move, line)

    def statement(self, text: str, at: int) -> None:
        head = text[:1]
        if self.result is not None and not (head == "T" and _TIME.fullmatch(text)):
            raise self.error(f"{quote(text)} after the end of the game ({self.result})", at)
        if head == "V":
            self.tags.append(("V", text[1:]))
        elif head == "N" and text[1:2] in ("+", "-"):
            self.tags.append(("N" + text[1], text[2:]))
        elif head == "$":
            info = _INFO.fullmatch(text)
            if info is None:
                raise self.error(f"{quote(text)} is no game information ($NAME:value)", at)
            self.tags.append(("$" + info[1], info[2]))
        elif head == "P":
            if self.side is not None:
                raise self.error(f"the position line {quote(text)} after the side to move", at)
            self.position_line(text, at)
        elif text in ("+", "-"):
            if self.side is not None:
                raise self.error(f"a second side to move {text!r}", at)
            self.side = "first" if text == "+" else "second"
        elif head in ("+", "-"):
            if self.side is None:
                raise self.error("a move before the start position and the side to move (PI and + , for "
                                 "shogi's start)", at, len(self.moves) + 1, text)
            if _MOVE.fullmatch(text) is None or text[5:7] not in _CODES:
                raise self.error(f"{quote(text)} is no CSA move (+7776FU: the side, the source, the "
                                 "destination, the piece after the move)", at, len(self.moves) + 1, text)
            self.moves.append((text, at, [], None))
        elif head == "T":
            if _TIME.fullmatch(text) is None:
                raise self.error(f"{quote(text)} is no time (T and the seconds: T16)", at)
            if self.moves and self.result is None:
                move_text, line, comments, _ = self.moves[-1]
                self.moves[-1] = (move_text, line, comments, text)
        elif head == "%":
            if text not in ENDS:
                raise self.error(f"{quote(text)} is no end of a game ({', '.join(ENDS)})", at)
            if self.side is None:
                raise self.error("an end before the start position and the side to move", at)
            self.result = text
            self.end_ply = len(self.moves) + 1
        else:
            raise self.error(f"{quote(text)} is no CSA line (V, N+, N-, $, P, +, -, T, %, ' or /)", at)

    def comment_line(self, text: str) -> None:
        if self.moves:
            self.moves[-1][2].append(text)
        else:
            self.comment.append(text)

    def position_line(self, text: str, at: int) -> None:
        kind = text[1:2]
        if kind == "I":
            if self.rows is not None:
                raise self.error("a second start position (PI)", at)
            self.rows = _rows(HANDICAPS["平手"])
            rest = text[2:]
            for index in range(0, len(rest), 4):
                placed = _PLACED.fullmatch(rest[index : index + 4])
                if placed is None:
                    chunk = rest[index : index + 4]
                    raise self.error(f"{quote(chunk)} in {quote(text)} is no square and piece "
                                     "taken off (82HI)", at)
                file, rank, code = int(placed[1]), int(placed[2]), placed[3]
                if not 1 <= file <= 9 or not 1 <= rank <= 9 or code not in _CODES \
                        or self.rows[rank - 1][9 - file].lower() != _CODES[code]:
                    raise self.error(f"{quote(rest[index:index + 4])}: there is no such piece there to take "
                                     "off", at)
                self.rows[rank - 1][9 - file] = ""
        elif kind in "123456789" and kind:
            if self.rows is None:
                self.rows = [[""] * 9 for _ in range(9)]
            body = text[2:].ljust(27)  # (an editor may have trimmed the last square's space)
            if len(body) != 27:
                raise self.error(f"{quote(text)}: a rank is 9 squares of 3 characters (' * ' or '+FU')", at)
            row: list[str] = []
            for index in range(0, 27, 3):
                square = body[index : index + 3]
                if square == " * ":
                    row.append("")
                elif square[0] in "+-" and square[1:] in _CODES:
                    piece_code = _CODES[square[1:]]
                    row.append(piece_code.upper() if square[0] == "+" else piece_code)
                else:
                    raise self.error(f"{quote(square)} in {quote(text)} is no square (' * ' or '+FU')", at)
            self.rows[int(kind) - 1] = row
        elif kind in ("+", "-"):
            if self.rows is None:
                self.rows = [[""] * 9 for _ in range(9)]
            side = 0 if kind == "+" else 1
            rest = text[2:]
            for index in range(0, len(rest), 4):
                chunk = rest[index : index + 4]
                if chunk == "00AL":
                    self.all_to = side
                    continue
                placed = _PLACED.fullmatch(chunk)
                if placed is None or placed[3] not in _CODES:
                    raise self.error(f"{quote(chunk)} in {quote(text)} is no square and piece (55KA, 00FU)",
                                     at)
                file, rank, piece_code = int(placed[1]), int(placed[2]), _CODES[placed[3]]
                if file == 0 and rank == 0:
                    if piece_code.startswith("+") or piece_code == "k":
                        raise self.error(f"{quote(chunk)}: a {placed[3]} is never in hand", at)
                    self.hands[side][piece_code] = self.hands[side].get(piece_code, 0) + 1
                elif 1 <= file <= 9 and 1 <= rank <= 9:
                    self.rows[rank - 1][9 - file] = piece_code.upper() if side == 0 else piece_code
                else:
                    raise self.error(f"{quote(chunk)}: no square of the board", at)
        else:
            raise self.error(f"{quote(text)} is no position line (PI, P1 to P9, P+, P-)", at)

    def record(self) -> Record:
        if self.side is None:
            raise self.error("the game has no side to move (a line '+' or '-' after its start position)",
                             self.line)
        rows = self.rows if self.rows is not None else _rows(HANDICAPS["平手"])
        if self.all_to is not None:
            counts = dict(_ALL)
            for row in rows:
                for square in row:
                    letter = square[-1:].lower()
                    if letter in counts:
                        counts[letter] -= 1
            for hand in self.hands:
                for letter, count in hand.items():
                    counts[letter] -= count
            for letter, count in counts.items():
                if count > 0:
                    held = self.hands[self.all_to]
                    held[letter] = held.get(letter, 0) + count
        sfen = sfen_of(Grid(rows, self.hands, self.side), 1)
        fen = None if sfen == HANDICAPS["平手"] else _fen(sfen)
        verdict: Verdict | None = None
        if self.result is not None:
            said = ENDS[self.result]
            mover_first = (self.side == "first") == (self.end_ply % 2 == 1)
            if said == "draw":
                verdict = "1/2-1/2"
            elif said in ("loss", "win"):
                verdict = "1-0" if mover_first == (said == "win") else "0-1"
            elif said in ("first lost", "second lost"):
                verdict = "0-1" if said == "first lost" else "1-0"
        moves = tuple(RecordMove(text, (), tuple(comments), (), (), clock, line)
                      for text, line, comments, clock in self.moves)
        return Record(tuple(self.tags), "shogi", fen, moves, self.result, verdict,
                      "\n".join(self.comment) if self.comment else None, self.number, self.line, "csa")


def _rows(sfen: str) -> list[list[str]]:
    rows: list[list[str]] = []
    for text in sfen.split(" ", maxsplit=1)[0].split("/"):
        row: list[str] = []
        for match in re.finditer(r"([0-9]+)|(\+?[A-Za-z])", text):
            row.extend([""] * int(match[1]) if match[1] else [match[2]])
        rows.append(row)
    return rows


def _fen(sfen: str) -> str:
    placement, side, hands, _ = sfen.split(" ")
    letters = "".join(letter * int(count or 1) for count, letter in re.findall(r"([0-9]*)([A-Za-z])", hands))
    return f"{placement}[{letters}] {'w' if side == 'b' else 'b'} 0 1"


def read(source: str) -> Iterator[Record]:
    """The games of a CSA text, one :class:`~ggn.records.Record` each (games are separated by a
    line ``/``), as they are read: a game at fault raises a :class:`~ggn.errors.RecordError`
    naming it, after the games before it were given."""
    expect(source, str, "source", "a str (ggn.records.read reads bytes and files)")
    if len(source) > MAX_GAME_CHARS:
        raise RecordError(f"the record is longer than {MAX_GAME_CHARS:,} characters, more than a CSA "
                          "record may be", 1)
    number = 1
    game: _Game | None = None
    for at, text in enumerate(source.lstrip("\ufeff").splitlines(), 1):
        if text.startswith("'"):
            if game is None:
                game = _Game(number, at)
            game.comment_line(text[1:])
            continue
        if text.strip() == "/":
            if game is not None:
                yield game.record()
                number += 1
            game = None
            continue
        for part in text.split(","):
            statement = part.strip()
            if not statement:
                continue
            if game is None:
                game = _Game(number, at)
            game.statement(statement, at)
    if game is not None and (game.side is not None or game.moves or game.tags or game.rows is not None):
        yield game.record()


# --- moves ---------------------------------------------------------------------------------------
def parse_move(game: Game, text: str) -> Play:
    """The play a CSA move names in the game's current position (``+7776FU``; ``+8822UM`` a
    bishop that promotes; ``+0055KA`` a drop): its side must be the player to move, and its
    piece the one on the source square or, after a promotion, its promoted form. A move that
    names no legal play is an :class:`~ggn.errors.IllegalMoveError` naming it and the legal
    moves."""
    rules = game_rules(checked(game))
    expect(text, str, "text", "a str")
    return _play(rules, game.position, text)


def _play(rules: RuleSystem, position: Position, text: str) -> Play:
    from ggn.notation import usi  # noqa: PLC0415

    move = _MOVE.fullmatch(text.strip())
    if move is None or move[6] not in _CODES:
        raise GGNError(f"{quote(text)} is no CSA move (+7776FU: the side, the source, the destination, the "
                       "piece)")
    if rules.name != "shogi":
        raise GGNError(f"CSA records shogi's games, not {rules.name[:40]!r}'s")
    side: Side = "first" if move[1] == "+" else "second"
    if side != position.active:
        raise IllegalMoveError(f"{quote(text)} is a move of the {side} player (sente '+', gote '-'), but the "
                               f"{position.active} is to move")
    piece_code = _CODES[move[6]]
    target = f"{move[4]}{chr(ord('a') + int(move[5]) - 1)}"
    if move[2] == "0" and move[3] == "0":
        if piece_code.startswith("+") or piece_code == "k":
            raise IllegalMoveError(f"{quote(text)}: a {move[6]} is never dropped")
        usi_text = f"{piece_code.upper()}*{target}"
    else:
        file, rank = int(move[2]), int(move[3])
        if file == 0 or rank == 0:
            raise IllegalMoveError(f"{quote(text)}: {move[2]}{move[3]} is no square of the board")
        there = grid_of(rules, position).rows[rank - 1][9 - file].lower()
        if there == piece_code:
            promotes = False
        elif not there.startswith("+") and "+" + there == piece_code:
            promotes = True
        else:
            shown = _NAMES.get(there, "nothing") if there else "empty"
            raise IllegalMoveError(f"{quote(text)}: the square {file}{rank} holds {shown}, which cannot "
                                   f"move as {move[6]}")
        usi_text = f"{file}{chr(ord('a') + rank - 1)}{target}" + ("+" if promotes else "")
    try:
        return usi.parse(rules, position, usi_text)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"{quote(text)} ({usi_text} in USI) is not legal here: "
                               f"{str(error).split('; ', 1)[-1]}") from None


def _move_text(rules: RuleSystem, position: Position, play: Play) -> str:
    """The CSA of a play of ``position`` (``+7776FU``)."""
    from ggn.notation import usi  # noqa: PLC0415

    written = usi.write(rules, position, play)
    sign = "+" if position.active == "first" else "-"
    if "*" in written:
        letter, _, where = written.partition("*")
        return f"{sign}00{where[:-1]}{ord(where[-1]) - ord('a') + 1}{_NAMES[letter.lower()]}"
    match = re.fullmatch(r"([0-9])([a-z])([0-9])([a-z])(\+?)", written)
    assert match is not None, written
    from_file, from_rank = int(match[1]), ord(match[2]) - ord("a") + 1
    piece = grid_of(rules, position).rows[from_rank - 1][9 - from_file].lower()
    if match[5]:
        piece = "+" + piece
    return f"{sign}{from_file}{from_rank}{match[3]}{ord(match[4]) - ord('a') + 1}{_NAMES[piece]}"


# --- writing -------------------------------------------------------------------------------------


def _header(pairs: list[tuple[str, str]]) -> list[str]:
    lines = ["V2.2"]
    found = dict(pairs)
    lines.extend(key + _line(found[key]) for key in ("N+", "N-") if key in found)
    for key, value in pairs:
        if key in ("N+", "N-") or key in _SKIPPED:
            continue
        if key.startswith("$") and re.fullmatch(r"\$[A-Z][A-Z_0-9]*", key):
            lines.append(f"{key}:{_line(value)}")
        else:
            lines.append(f"'{_line(key)}: {_line(value)}")
    return lines


def _line(value: str) -> str:
    return " ".join(value.split()).replace(",", " ")  # one statement: no line break, no comma


def _start(grid: Grid) -> list[str]:
    sfen = sfen_of(grid, 1)
    if sfen == HANDICAPS["平手"]:
        return ["PI", "+"]
    lines = []
    for number, row in enumerate(grid.rows, 1):
        squares = "".join(" * " if not square else ("+" if square[-1].isupper() else "-")
                          + _NAMES[square.lower()] for square in row)
        lines.append(f"P{number}{squares}")
    for side, sign in ((0, "+"), (1, "-")):
        held = grid.hands[side]
        if held:
            pieces = "".join(f"00{_NAMES[letter]}" * count for letter, count in held.items())
            lines.append(f"P{sign}{pieces}")
    lines.append("+" if grid.side == "first" else "-")
    return lines


def write(game: Game, tags: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> str:
    """A game of shogi as CSA (version 2.2).

    >>> from ggn.game import Game
    >>> from ggn.notation import usi
    >>> game = Game("shogi")
    >>> for move in ("7g7f", "3c3d", "8h2b+"):
    ...     _ = game.push(usi.parse(game.rules, game.position, move))
    >>> print(write(game, {"先手": "Sente", "後手": "Gote", "Result": "1-0"}))
    V2.2
    N+Sente
    N-Gote
    PI
    +
    +7776FU
    -3334FU
    +8822UM
    %TORYO
    <BLANKLINE>
    """
    return _write(checked(game), tags)


def _write(game: Game, tags: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> str:
    rules = game_rules(game)
    if rules.name != "shogi":
        raise GGNError(f"CSA records shogi's games, not {rules.name[:40]!r}'s: write KIF")
    pairs = tags_of(tags, _FROM_TAGS)
    lines = _header(pairs)
    lines += _start(grid_of(rules, game.start))
    lines += [_move_text(rules, position, play) for position, play in plays_of(game)]
    outcome = game.outcome()
    result = dict(pairs).get("Result")
    if outcome is not None:
        lines.append("%TSUMI")
    elif result in ("1-0", "0-1"):
        if ("first" if result == "0-1" else "second") == game.position.active:
            lines.append("%TORYO")
    elif result == "1/2-1/2":
        lines.append("%SENNICHITE" if game.claim() is not None else "%JISHOGI")
    elif result is None and (claim := game.claim()) is not None:
        # Sennichite ends a game of shogi: a draw, or a loss for perpetual check.
        loser = {None: None, "first": "-", "second": "+"}[claim.winner]
        lines.append("%SENNICHITE" if loser is None else f"%{loser}ILLEGAL_ACTION")
    return "\n".join(lines) + "\n"


def write_record(record: Record, tags: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> str:
    """A CSA record written back as read: its tags, start, moves with their times and comments,
    and its end."""
    expect(record, Record, "record", "a Record")
    if record.game != "shogi":
        raise GGNError(f"CSA records shogi's games, not {record.game[:40]!r}'s: write KIF")
    pairs = dict(record.tags)
    pairs.update(tags_of(tags, _FROM_TAGS))
    lines = _header(list(pairs.items()))
    if record.comment is not None:
        lines.extend("'" + part for part in record.comment.split("\n"))
    if record.fen is None:
        lines += ["PI", "+"]
    else:
        from ggn.records.kif import _grid_of_fen  # noqa: PLC0415

        lines += _start(_grid_of_fen(record.game, record.fen))
    for move in record.moves:
        lines.append(move.text)
        if move.clock is not None:
            lines.append(move.clock)
        lines.extend("'" + part for comment in move.comments for part in comment.split("\n"))
    if record.result is not None:
        lines.append(record.result)
    return "\n".join(lines) + "\n"
