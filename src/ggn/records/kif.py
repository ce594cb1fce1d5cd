"""KIF, the record of shogi games most shogi programs write (Kifu for Windows' format), read
into records and written from games.

Reading (:func:`read`) takes a KIF text: its header lines (``開始日時：``, ``先手：``,
``後手：``, ``棋戦：``... kept as tags in order), the start (``手合割：平手``, a handicap such
as ``香落ち``, ``5五将棋`` for minishogi, or a board diagram with the pieces in hand and
``後手番``), the numbered moves as written (``７六歩(77)``, ``同　歩(23)``, ``５五角打``,
``２二角成(88)``, ``２三銀不成(34)``) with their times (``( 0:16/00:00:16)``, kept as the move's
clock), the comments (``*`` lines, after the move they follow; before the first move, the
record's comment), the end (``投了``, ``詰み``, ``千日手``, ``持将棋``, ``中断``, ``切れ負け``,
``反則勝ち``, ``反則負け``, ``入玉勝ち``...) and the summary (``まで64手で先手の勝ち``), and the
variations (``変化：5手`` sections: each an alternative to the move of that number in the
latest line that reaches it). Lines starting with ``#`` and ``&`` are skipped. Reading checks
the syntax; ``ggn.records.replay`` plays the moves, with :func:`parse_move`.

The game is shogi, or what its handicap or its board's size says: minishogi (5x5), judkins
(6x6), gorogoro (5 files, 6 ranks), the games of the family played with shogi's own pieces.
A record's ``verdict`` names the winner by side: ``"1-0"`` where the first player (sente,
下手 in a handicap game, whose pieces are uppercase in FEN) won, whoever moved first.

Writing (:func:`write`) gives the tags (``先手``, ``後手`` and the others given; PGN's
``White``, ``Black``, ``Event``, ``Site``, ``Date`` under their KIF names), ``手合割`` where the
game starts from shogi's start or a handicap's (else a board diagram), the moves numbered,
``詰み`` where the game ended so, ``投了`` where the tags' ``Result`` says the player to move
lost, and the summary line. :func:`write_record` writes a record back with its comments,
times and variations. python-shogi and cshogi read what this module writes.

Untrusted input is bounded: the text at most :data:`~ggn.records.MAX_GAME_CHARS` characters (by
:func:`ggn.records.read`), variations nested at most :data:`~ggn.records.MAX_DEPTH` deep, and
every line that is no KIF a :class:`~ggn.errors.RecordError` naming its line, and its ply and
move where it is one.

>>> text = "手合割：平手\\n先手：羽生\\n後手：谷川\\n   1 ７六歩(77)\\n   2 ３四歩(33)\\n   3 投了\\n"
>>> record = next(read(text))
>>> record.tag("先手"), [move.text for move in record.moves], record.result, record.verdict
('羽生', ['７六歩(77)', '３四歩(33)'], '投了', '0-1')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from ggn._json import quote
from ggn._types import Side, expect
from ggn.errors import GGNError, IllegalMoveError, RecordError
from ggn.records._record import MAX_DEPTH, MAX_GAME_CHARS, Record, RecordMove, Verdict
from ggn.records._shogi import (
    FULL_DIGITS,
    GAMES,
    HANDICAPS,
    KANJI_NUMBERS,
    MINISHOGI_NAMES,
    Grid,
    checked,
    game_rules,
    grid_of,
    plays_of,
    tags_of,
)

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.position import Position
    from ggn.rules import Play, RuleSystem

__all__ = ["ENDS", "parse_move", "read", "write", "write_record"]


_PIECES: Final = {"p": "歩", "l": "香", "n": "桂", "s": "銀", "g": "金", "b": "角", "r": "飛", "k": "玉"}
_PROMOTED: Final = {"p": "と", "l": "成香", "n": "成桂", "s": "成銀", "b": "馬", "r": "龍"}
_PROMOTED_BOARD: Final = {"p": "と", "l": "杏", "n": "圭", "s": "全", "b": "馬", "r": "龍"}
# Every name of a piece read -> its SFEN piece_code (lowercase).
_NAMES: Final = {
    **{kanji: letter for letter, kanji in _PIECES.items()}, "王": "k",
    **{kanji: "+" + letter for letter, kanji in _PROMOTED.items()},
    **{kanji: "+" + letter for letter, kanji in _PROMOTED_BOARD.items()}, "竜": "+r",
}
_RANKS: Final = "一二三四五六七八九"

ENDS: Final[Mapping[str, str]] = {
    "投了": "loss", "詰み": "loss", "切れ負け": "loss", "反則負け": "loss", "時間切れ": "loss",
    "反則勝ち": "win", "入玉勝ち": "win", "宣言勝ち": "win",
    "千日手": "draw", "持将棋": "draw",
    "中断": "none", "封じ手": "none", "不詰": "none", "不戦勝": "none", "不戦敗": "none", "詰": "none",
}
"""KIF's special moves that end a record, and what each says of the player to move at it: it
lost (``投了``, resigned), it won (``反則勝ち``: its opponent's move was illegal), a draw, or
nothing decided (``中断``, interrupted)."""

# PGN's tags and KIF's names for them.
_FROM_PGN: Final = {"White": "先手", "Black": "後手", "Event": "棋戦", "Site": "場所", "Date": "開始日時"}
_SKIPPED: Final = frozenset({"Result", "Variant", "FEN", "SetUp", "手合割", "V"})  # V: CSA's version
_FIRST_NAMES: Final = ("先手", "下手")
_SECOND_NAMES: Final = ("後手", "上手")

_MOVE_LINE: Final = re.compile(r"\s*([0-9]+)\s+(.*)")
_CLOCK: Final = re.compile(r"\(\s*[0-9]+:[0-9]+\s*/\s*[0-9:]+\s*\)")
_MOVE: Final = re.compile(
    r"(?:([１-９1-9])([一二三四五六七八九])|(同)[ 　]*)"
    r"(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜])(打|成|不成|生)?(?:\(([0-9])([0-9])\))?")
_VARIATION: Final = re.compile(r"変化[：:]\s*([0-9]+)手")
_SUMMARY: Final = re.compile(r"\s*まで、?([0-9]+)手")
_WON: Final = re.compile(r"(先|下|後|上)手の(?:勝ち|反則勝ち|入玉勝ち)|(先|下|後|上)手の反則負け")


@dataclass
class _Move:
    text: str
    line: int
    clock: str | None = None
    comments: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    variations: list[_Line] = field(default_factory=list)

    def frozen(self) -> RecordMove:
        return RecordMove(self.text, (), tuple(self.comments), tuple(self.before),
                          tuple(variation.frozen() for variation in self.variations), self.clock, self.line)


@dataclass
class _Line:
    start: int
    """The ply of its first move."""
    depth: int
    parent: _Line | None = None
    moves: list[_Move] = field(default_factory=list)
    ended: bool = False
    before: list[str] = field(default_factory=list)
    """Comments written before its first move."""

    @property
    def end(self) -> int:
        return self.start + len(self.moves) - 1

    def frozen(self) -> tuple[RecordMove, ...]:
        return tuple(move.frozen() for move in self.moves)


class _Reader:
    """One KIF text being read."""

    def __init__(self) -> None:
        self.tags: list[tuple[str, str]] = []
        self.handicap: str | None = None
        self.board: list[str] = []
        self.board_line = 0
        self.hands: dict[int, str] = {}
        self.side: Side | None = None
        self.offset = 0  # the plies before the first written (手数＝N of a board diagram)
        self.main = _Line(1, 0)
        self.stack = [self.main]
        self.comment: list[str] = []
        self.result: str | None = None
        self.verdict: Verdict | None = None
        self.summary: str | None = None
        self.summary_verdict: Verdict | None = None
        self.end_ply = 0
        self.started = False

    def error(self, reason: str, line: int, ply: int | None = None, move: str | None = None) -> RecordError:
        return RecordError(reason, 1, ply, move, line)

    # --- the lines ----------------------------------------------------------------------------
    def line(self, text: str, at: int) -> None:
        text = text.rstrip("\r\n")
        stripped = text.strip(" \t　")
        if not stripped or stripped[0] in "#&":
            return
        if text.startswith("*"):
            self.comment_line(text[1:])
            return
        variation = _VARIATION.fullmatch(stripped)
        if variation is not None:
            # (A number longer than any game's: no move has it, without reading it whole.)
            self.branch(int(variation[1]) if len(variation[1]) <= 9 else 10**9, at)
            return
        if _SUMMARY.match(stripped):
            self.summary_line(stripped, at)
            return
        if text.startswith(("|", "+")) or stripped[0] in FULL_DIGITS:
            self.board_line_of(text, stripped, at)
            return
        if stripped in ("先手番", "下手番", "後手番", "上手番"):
            self.side = "first" if stripped in ("先手番", "下手番") else "second"
            return
        if stripped.startswith(("手数＝", "手数=")):
            number = re.match(r"手数[＝=]\s*([0-9]+)", stripped)
            if number is None or len(number[1]) > 6:
                raise self.error("expected the plies played before the diagram (手数＝N), not "
                                 f"{quote(stripped)}", at)
            self.offset = int(number[1])
            return
        if stripped.startswith(("手数-", "手数－")):
            return  # the moves' column heads
        move = _MOVE_LINE.fullmatch(text)
        if move is not None:
            self.move_line(int(move[1][:9]), move[2], at)
            return
        for colon in ("：", ":"):
            key, found, value = stripped.partition(colon)
            if found and key and not key[0].isdigit():
                self.header(key.strip(), value.strip(" 　"), at)
                return
        if stripped.startswith(("▲", "△", "☗", "☖")):
            raise self.error("this is KI2 (moves without their source squares), which ggn does not read: "
                             "give the record as KIF or CSA", at)
        raise self.error(f"{quote(stripped)} is no KIF line (a header 'name：value', a numbered move, a "
                         "'*' comment, '変化：N手', 'まで...')", at)

    def header(self, key: str, value: str, at: int) -> None:
        if key in ("後手の持駒", "上手の持駒", "先手の持駒", "下手の持駒"):
            self.hand(value, at)  # checked at once
            self.hands[1 if key[0] in "後上" else 0] = value
            self.board_line = self.board_line or at
            return
        if self.started:
            raise self.error(f"a header line {quote(key)} after the moves", at)
        if key == "手合割":
            self.handicap = value
        self.tags.append((key, value))

    def board_line_of(self, text: str, stripped: str, at: int) -> None:
        if self.started:
            raise self.error("a board diagram after the moves", at)
        self.board_line = self.board_line or at
        if text.startswith("|"):
            self.board.append(text)
        elif stripped.startswith("+") and set(stripped) <= {"+", "-"}:
            return
        elif set(stripped) <= set(FULL_DIGITS) | {" ", "　"}:
            return  # the files' numbers over the diagram
        else:
            raise self.error(f"{quote(stripped)} is no line of a board diagram", at)

    def comment_line(self, text: str) -> None:
        line = self.stack[-1]
        if line.moves:
            line.moves[-1].comments.append(text)
        elif line is self.main:
            self.comment.append(text)
        else:
            line.before.append(text)

    def branch(self, ply: int, at: int) -> None:
        # The latest line that reaches the ply: the lines above it on the stack are done.
        while len(self.stack) > 1:
            line = self.stack[-1]
            if line.start < ply <= line.end or (line.start == ply and line.parent is None):
                break
            self.stack.pop()
        line = self.stack[-1]
        if not line.start <= ply <= line.end:
            raise self.error(f"変化：{ply}手 branches from no move: the lines read before it have no move "
                             f"{ply}", at)
        if line.depth + 1 > MAX_DEPTH:
            raise self.error(f"its variations nest deeper than {MAX_DEPTH} levels, more than a record may",
                             at)
        variation = _Line(ply, line.depth + 1, line)
        line.moves[ply - line.start].variations.append(variation)
        self.stack.append(variation)

    def summary_line(self, text: str, at: int) -> None:
        if len(self.stack) > 1:
            return  # a variation's own summary says nothing of the game
        self.summary = text
        if "千日手" in text or "持将棋" in text:
            self.summary_verdict = "1/2-1/2"
            return
        won = _WON.search(text)
        if won is not None:
            first = (won[1] or won[2]) in "先下"
            self.summary_verdict = ("1-0" if first else "0-1") if won[1] else ("0-1" if first else "1-0")

    def move_line(self, number: int, body: str, at: int) -> None:
        line = self.stack[-1]
        ply = line.start + len(line.moves)
        body = body.strip(" \t　")
        if body.endswith("+"):
            body = body[:-1].rstrip()  # the mark of a move with variations
        clock = None
        found = _CLOCK.search(body)
        if found is not None and not body[found.end():].strip():
            clock = found[0]
            body = body[: found.start()].rstrip(" \t　")
        if line.ended:
            raise self.error("a move after the end of its line", at, ply, body)
        if number != ply + self.offset:
            raise self.error(f"move number {number} where {ply + self.offset} was expected", at, ply, body)
        self.started = True
        if body in ENDS:
            line.ended = True
            if line is self.main:
                self.result = body
                self.end_ply = ply
            return
        if _MOVE.fullmatch(body) is None:
            raise self.error(f"{quote(body)} is no KIF move (a square such as ７六 or 同, a piece, 打, 成 or "
                             "不成, the source in parentheses: ７六歩(77)) nor an end such as 投了",
                             at, ply, body)
        move = _Move(body, at, clock)
        if not line.moves and line.before:
            move.before, line.before = line.before, []
        line.moves.append(move)

    # --- the record -------------------------------------------------------------------------
    def record(self) -> Record:
        game, sfen = self.start()
        side = sfen.split(" ")[1]
        verdict = self.summary_verdict
        if self.result is not None:
            said = ENDS[self.result]
            # The player to move at the end's ply: the first mover at odd plies.
            first_moves = side == "b"
            mover_first = first_moves == (self.end_ply % 2 == 1)
            if said == "draw":
                verdict = "1/2-1/2"
            elif said in ("loss", "win"):
                won = mover_first == (said == "win")
                verdict = "1-0" if won else "0-1"
            elif said == "none":
                verdict = None
        fen = None
        if sfen != _usual(game):
            fen = _fen(sfen)
        return Record(tuple(self.tags), game, fen, self.main.frozen(),
                      self.result if self.result is not None else self.summary, verdict,
                      "\n".join(self.comment) if self.comment else None, 1, 1, "kif")

    def start(self) -> tuple[str, str]:
        """The game and its start as SFEN."""
        if self.board:
            return self.diagram()
        handicap = self.handicap
        if handicap is None or handicap == "平手":
            return "shogi", HANDICAPS["平手"]
        if handicap in MINISHOGI_NAMES:
            return "minishogi", _usual("minishogi")
        if handicap in HANDICAPS:
            return "shogi", HANDICAPS[handicap]
        known = ", ".join(HANDICAPS)
        raise self.error(f"the handicap {quote(handicap)} (手合割) is none ggn knows ({known}, "
                         f"{MINISHOGI_NAMES[0]}); give the start as a board diagram", 1)

    def diagram(self) -> tuple[str, str]:
        at = self.board_line
        rows: list[list[str]] = []
        for text in self.board:
            inside = text[1:].split("|", 1)[0]
            row: list[str] = []
            index = 0
            while index < len(inside):
                mark = inside[index : index + 2]
                if len(mark) < 2:
                    raise self.error(f"the diagram's row {quote(text)} is not two characters a square", at)
                name = mark[1]
                if name == "・":
                    row.append("")
                elif mark[0] in " v^" and name in _NAMES and len(_NAMES[name]) <= 2:
                    piece_code = _NAMES[name]
                    row.append(piece_code if mark[0] == "v" else piece_code.upper())
                else:
                    raise self.error(f"{quote(mark)} in the diagram's row {quote(text)} is no piece", at)
                index += 2
            rows.append(row)
        size = (len(rows[0]), len(rows))
        if any(len(row) != size[0] for row in rows) or size not in GAMES:
            known = ", ".join(f"{name} ({files}x{ranks})" for (files, ranks), name in GAMES.items())
            raise self.error(f"the diagram is {size[0]} squares wide and {size[1]} high: KIF's games are "
                             f"{known}", at)
        hands: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for side, text in self.hands.items():
            hands[side].update(self.hand(text, at))
        grid = Grid(rows, hands, self.side or ("second" if self.handicap not in (None, "平手") else "first"))
        from ggn.records._shogi import sfen_of  # noqa: PLC0415

        return GAMES[size], sfen_of(grid, 1)

    def hand(self, text: str, at: int) -> dict[str, int]:
        held: dict[str, int] = {}
        if text in ("なし", ""):
            return held
        for item in re.split(r"[ 　]+", text.strip(" 　")):
            name, count = item[:1], item[1:]
            letter = _NAMES.get(name)
            number = KANJI_NUMBERS.index(count) if count in KANJI_NUMBERS else -1
            if letter is None or len(letter) != 1 or letter == "k" or (count and number < 1):
                raise self.error(f"{quote(item)} is no piece in hand (a piece and its count in kanji: 歩三)",
                                 at)
            held[letter] = held.get(letter, 0) + (number if count else 1)
        return held


def _usual(game: str) -> str:
    if game == "shogi":
        return HANDICAPS["平手"]
    from ggn.notation import usi  # noqa: PLC0415
    from ggn.variants import registry  # noqa: PLC0415

    rules = registry.rules(game)
    return usi.to_sfen(rules, rules.position())


def _fen(sfen: str) -> str:
    """Fairy-Stockfish's FEN of a shogi-family SFEN (its counters at a game's start)."""
    placement, side, hands, _ = sfen.split(" ")
    letters = "".join(letter * int(count or 1) for count, letter in re.findall(r"([0-9]*)([A-Za-z])", hands))
    return f"{placement}[{letters}] {'w' if side == 'b' else 'b'} 0 1"


def read(source: str) -> Iterator[Record]:
    """The game of a KIF text, as one :class:`~ggn.records.Record` (a KIF file holds one game).

    A text with nothing but blank lines gives none.
    """
    expect(source, str, "source", "a str (ggn.records.read reads bytes and files)")
    if len(source) > MAX_GAME_CHARS:
        raise RecordError(f"the record is longer than {MAX_GAME_CHARS:,} characters, more than a KIF "
                          "record may be", 1)
    reader = _Reader()
    seen = False
    for number, text in enumerate(source.lstrip("\ufeff").splitlines(), 1):
        seen = seen or bool(text.strip())
        reader.line(text, number)
    if seen:
        yield reader.record()


# --- moves ---------------------------------------------------------------------------------------
def parse_move(game: Game, text: str) -> Play:
    """The play a KIF move names in the game's current position (``７六歩(77)``, ``同　歩(23)``,
    ``５五角打``, ``２二角成(88)``; the piece written must be the one on the source square).
    A move that names no legal play is an :class:`~ggn.errors.IllegalMoveError` naming it and
    the legal moves."""
    rules = game_rules(checked(game))
    expect(text, str, "text", "a str")
    previous = game.plays[-1] if game.plays else None
    return _play(rules, game.position, text, previous)


def _play(rules: RuleSystem, position: Position, text: str, previous: Play | None) -> Play:
    from ggn.cell import Cell  # noqa: PLC0415
    from ggn.notation import usi  # noqa: PLC0415

    variant = rules.variant  # type: ignore[attr-defined]
    files, ranks = variant.files, variant.ranks
    move = _MOVE.fullmatch(text.strip(" \t　"))
    if move is None:
        raise GGNError(f"{quote(text)} is no KIF move (such as ７六歩(77), 同　歩(23), ５五角打)")
    if move[3]:
        if previous is None or not isinstance(previous.destination, Cell):
            raise GGNError(f"{quote(text)}: 同 (the last move's square) at the first move")
        file_index, rank_index = previous.destination.indices
        file, rank = files - file_index, ranks - rank_index
    else:
        file = FULL_DIGITS.index(move[1]) + 1 if move[1] in FULL_DIGITS else int(move[1])
        rank = _RANKS.index(move[2]) + 1
    if not (1 <= file <= files and 1 <= rank <= ranks):
        raise IllegalMoveError(f"{quote(text)}: the square {file}{_RANKS[rank - 1]} is not on "
                               f"{variant.name}'s board")
    target = f"{file}{chr(ord('a') + rank - 1)}"
    piece_code = _NAMES[move[4]]
    how = move[5]
    source = (move[6], move[7]) if move[6] is not None else None
    if how == "打" or source == ("0", "0"):
        if piece_code.startswith("+") or piece_code == "k":
            raise IllegalMoveError(f"{quote(text)}: a {move[4]} is never dropped")
        usi_text = f"{piece_code.upper()}*{target}"
    else:
        if source is None:
            raise GGNError(f"{quote(text)} has no source square: KIF writes it in parentheses (７六歩(77))")
        from_file, from_rank = int(source[0]), int(source[1])
        if not (1 <= from_file <= files and 1 <= from_rank <= ranks):
            raise IllegalMoveError(f"{quote(text)}: the square {from_file}{from_rank} is not on "
                                   f"{variant.name}'s board")
        grid = grid_of(rules, position)
        there = grid.rows[from_rank - 1][files - from_file]
        if there.lower() != piece_code:
            shown = _kanji(there) if there else "empty"
            raise IllegalMoveError(f"{quote(text)}: the piece on {from_file}{from_rank} is {shown}, "
                                   f"not {move[4]}")
        usi_text = f"{from_file}{chr(ord('a') + from_rank - 1)}{target}" + ("+" if how == "成" else "")
    try:
        return usi.parse(rules, position, usi_text)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"{quote(text)} ({usi_text} in USI) is not legal here: "
                               f"{str(error).split('; ', 1)[-1]}") from None


def _kanji(piece_code: str, board: bool = False) -> str:
    letter = piece_code[-1].lower()
    if piece_code.startswith("+"):
        return (_PROMOTED_BOARD if board else _PROMOTED)[letter]
    return _PIECES[letter]


def _square(file: int, rank: int) -> str:
    return f"{FULL_DIGITS[file - 1]}{_RANKS[rank - 1]}"


def _move_text(rules: RuleSystem, position: Position, play: Play, previous: Play | None) -> str:
    """The KIF of a play of ``position`` (``previous``: the play before it, for ``同``)."""
    from ggn.notation import usi  # noqa: PLC0415

    written = usi.write(rules, position, play)
    files = len(grid_of(rules, position).rows[0])
    if "*" in written:
        letter, _, where = written.partition("*")
        return f"{_square(int(where[:-1]), ord(where[-1]) - ord('a') + 1)}{_PIECES[letter.lower()]}打"
    match = re.fullmatch(r"([0-9]+)([a-z])([0-9]+)([a-z])(\+?)", written)
    assert match is not None, written
    from_file, from_rank = int(match[1]), ord(match[2]) - ord("a") + 1
    file, rank = int(match[3]), ord(match[4]) - ord("a") + 1
    same = previous is not None and previous.destination == play.destination
    target = "同　" if same else _square(file, rank)
    piece = grid_of(rules, position).rows[from_rank - 1][files - from_file]
    how = ""
    if match[5]:
        how = "成"
    elif written + "+" in usi.moves(rules, position):
        how = "不成"
    return f"{target}{_kanji(piece)}{how}({from_file}{from_rank})"


# --- writing -------------------------------------------------------------------------------------


def _clean(value: str) -> str:
    return " ".join(value.split())  # one line: a header's value never spans two


def write(game: Game, tags: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> str:
    """A game of the shogi family as KIF: the tags' header lines, ``手合割`` (or a board
    diagram), the numbered moves, the end (``詰み`` for a game ended by mate, ``投了`` where
    ``tags`` give a ``Result`` that the player to move lost; where they give none, a repetition
    the game may be ended by: ``千日手``, or ``反則勝ち``/``反則負け`` for a perpetual check) and
    the summary line.

    >>> from ggn.game import Game
    >>> from ggn.notation import usi
    >>> game = Game("shogi")
    >>> for move in ("7g7f", "3c3d", "8h2b+", "3a2b"):
    ...     _ = game.push(usi.parse(game.rules, game.position, move))
    >>> print(write(game, {"先手": "Sente", "後手": "Gote", "Result": "0-1"}))
    手合割：平手
    先手：Sente
    後手：Gote
    手数----指手---------消費時間--
       1 ７六歩(77)
       2 ３四歩(33)
       3 ２二角成(88)
       4 同　銀(31)
       5 投了
    まで4手で後手の勝ち
    <BLANKLINE>
    """
    return _write(checked(game), tags)


def _write(game: Game, tags: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> str:
    rules = game_rules(game)
    pairs = tags_of(tags, _FROM_PGN)
    grid = grid_of(rules, game.start)
    from ggn.notation import usi  # noqa: PLC0415

    start = usi.to_sfen(rules, game.start)
    name = None
    if rules.name == "shogi":
        name = next((key for key, sfen in HANDICAPS.items() if sfen == start), None)
    if rules.variant.name == "minishogi" and start == _usual("minishogi"):  # type: ignore[attr-defined]
        name = MINISHOGI_NAMES[0]
    handicap = name not in (None, "平手", MINISHOGI_NAMES[0])
    lines = [f"{key}：{_clean(value)}" for key, value in pairs
             if key not in _SKIPPED and key not in _FIRST_NAMES + _SECOND_NAMES]
    if name is not None:
        lines.insert(0, f"手合割：{name}")
    else:
        lines.extend(_diagram(grid))
    names = dict(pairs)
    for keys in (_FIRST_NAMES, _SECOND_NAMES):
        value = next((names[key] for key in keys if key in names), None)
        if value is not None:
            lines.append(f"{keys[1] if handicap else keys[0]}：{_clean(value)}")
    lines.append("手数----指手---------消費時間--")
    previous = None
    for ply, (position, play) in enumerate(plays_of(game), 1):
        lines.append(f"{ply:>4} {_move_text(rules, position, play, previous)}")
        previous = play
    plies = len(game.plays)
    outcome = game.outcome()
    result = names.get("Result")
    verdict: Verdict | None = None
    end = None
    if outcome is not None:
        verdict, end = ("1-0" if outcome.winner == "first" else "0-1"), "詰み"
    elif result in ("1-0", "0-1"):
        verdict = "1-0" if result == "1-0" else "0-1"
        if (verdict == "1-0") != (game.position.active == "first"):
            end = "投了"
    elif result == "1/2-1/2":
        end = "千日手" if game.claim() is not None else "持将棋"
    elif result is None and (claim := game.claim()) is not None:
        # Sennichite ends a game of shogi: a draw, or a loss for perpetual check.
        if claim.winner is None:
            end = "千日手"
        else:
            verdict = "1-0" if claim.winner == "first" else "0-1"
            end = "反則勝ち" if claim.winner == game.position.active else "反則負け"
    if end is not None:
        lines.append(f"{plies + 1:>4} {end}")
    lines.extend(_summary(plies, verdict, end, handicap))
    return "\n".join(lines) + "\n"


def _diagram(grid: Grid) -> list[str]:
    def hand(side: int) -> str:
        held = grid.hands[side]
        order = "rbgsnlp"
        items = [_PIECES[letter] + (KANJI_NUMBERS[held[letter]] if held[letter] > 1 else "")
                 for letter in order if held.get(letter)]
        return "　".join(items) or "なし"

    files = grid.files
    lines = [f"後手の持駒：{hand(1)}", "  " + " ".join(FULL_DIGITS[files - 1 :: -1]),
             "+" + "-" * (3 * files) + "+"]
    for number, row in enumerate(grid.rows, 1):
        squares = "".join(" ・" if not square else ("v" if square[-1].islower() else " ")
                          + _kanji(square, True) for square in row)
        lines.append(f"|{squares}|{_RANKS[number - 1]}")
    lines += ["+" + "-" * (3 * files) + "+", f"先手の持駒：{hand(0)}"]
    if grid.side == "second":
        lines.append("後手番")
    return lines


def write_record(record: Record, tags: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> str:
    """A KIF record written back as read: its tags in their order, its start, its moves with
    their times, comments and variations, its end and the summary line."""
    expect(record, Record, "record", "a Record")
    pairs = dict(record.tags)
    pairs.update(tags_of(tags, _FROM_PGN))
    handicap = pairs.get("手合割")
    usual = record.fen is None or (handicap in HANDICAPS and _fen(HANDICAPS[handicap]) == record.fen)
    lines = [f"{key}：{_clean(value)}" for key, value in pairs.items()
             if key not in _SKIPPED or (key == "手合割" and usual)]
    if handicap is None and record.fen is None:
        lines.insert(0, "手合割：" + (MINISHOGI_NAMES[0] if record.game == "minishogi" else "平手"))
    if not usual:
        assert record.fen is not None
        lines.extend(_diagram(_grid_of_fen(record.game, record.fen)))
    if record.comment is not None:
        lines.extend("*" + part for part in record.comment.split("\n"))
    lines.append("手数----指手---------消費時間--")
    _write_line(record.moves, 1, lines)
    plies = len(record.moves)
    if record.result is not None and record.result in ENDS:
        lines.append(f"{plies + 1:>4} {record.result}")
        given = handicap not in (None, "平手", *MINISHOGI_NAMES)
        lines.extend(_summary(plies, record.verdict, record.result, given))
    elif record.result is not None:
        lines.append(record.result)
    stack: list[tuple[tuple[RecordMove, ...], int]] = []
    for offset, move in enumerate(record.moves):
        stack.extend((variation, 1 + offset) for variation in reversed(move.variations))
    while stack:
        # The latest branch first, each variation followed by its own: as Kifu for Windows
        # writes them, and as "the latest line that reaches the move" reads them back.
        moves, first = stack.pop()
        lines += ["", f"変化：{first}手"]
        _write_line(moves, first, lines)
        for offset, move in enumerate(moves):
            stack.extend((variation, first + offset) for variation in reversed(move.variations))
    return "\n".join(lines) + "\n"


def _summary(plies: int, verdict: Verdict | None, end: str | None, handicap: bool) -> list[str]:
    """The summary line (まで64手で先手の勝ち) of a record's end."""
    if verdict in ("1-0", "0-1"):
        first = verdict == "1-0"
        side = ("下手" if first else "上手") if handicap else ("先手" if first else "後手")
        return [f"まで{plies}手で{side}の勝ち"]
    if end in ("千日手", "持将棋", "中断"):
        return [f"まで{plies}手で{end}"]
    return []


def _write_line(moves: tuple[RecordMove, ...], first: int, lines: list[str]) -> None:
    for offset, move in enumerate(moves):
        lines.extend("*" + comment for comment in move.before)
        text = f"{first + offset:>4} {move.text}"
        if move.clock is not None:
            text += f"   {move.clock}"
        if move.variations:
            text += "+"
        lines.append(text)
        lines.extend("*" + part for comment in move.comments for part in comment.split("\n"))


def _grid_of_fen(game: str, fen: str) -> Grid:
    """The grid of a record's start (Fairy-Stockfish's FEN of its game), checked by the game's
    FEN reader: a record made by hand may hold any text there."""
    from ggn.variants import registry  # noqa: PLC0415
    from ggn.variants.fen import to_feen  # noqa: PLC0415

    expect(game, str, "game", "a str")
    if game not in GAMES.values():
        raise GGNError(f"KIF and CSA record the games {', '.join(GAMES.values())}, not {game[:40]!r}")
    rules = registry.rules(game)
    return grid_of(rules, rules.position(to_feen(rules.variant, fen)))  # type: ignore[attr-defined]
