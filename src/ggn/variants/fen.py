"""Fairy-Stockfish's FEN of a variant, read into FEEN and written back.

Fairy-Stockfish writes a position of any of its variants as a FEN: the placement (ranks of
any width, ``10`` to ``12`` for long runs of empty squares, ``*`` for a hole of the board,
``+x`` for a shogi-style promoted piece, ``x~`` for a piece promoted from a pawn where captured
pieces go to hand), the pieces in hand in brackets, the side to move, the castling rights
(``KQkq``, or the rooks' files, Shredder- and X-FEN-style), the en passant squares and the two
move counters. FEEN (:mod:`ggn.feen`) holds the same position with marks on the pieces, as the
variant's GGN document writes them:

- a piece type of FEN letter ``x`` is the PIN letter ``(type.pin or x).upper()`` for the first
  player, lowercase for the second; the royal type carries ``^`` (``K^``);
- a castling right is ``+`` on the castling king and on its rook (``+K^``, ``+R``);
- the en passant square is ``-`` on the piece that has just made its double step (``-P``);
- ``+X`` is the shogi-style promoted form of ``X``, ``-X`` a piece promoted from a pawn in a
  game where captures go to hand (FEN ``X~``);
- the hands of a game with drops hold each player's own plain pieces; a game without drops
  writes no hands in FEN, and reading one gives empty FEEN hands.

Fairy-Stockfish writes the pieces in hand in the order of its piece types (the king first, the
pawn last), which :func:`from_feen` follows from each type's ``name`` (Fairy-Stockfish's piece
name: ``"pawn"``, ``"shogiPawn"``, ``"customPiece1"``; a type without a known name counts as a
custom piece, in the order of ``Variant.pieces``).

FEEN holds no move counters: :func:`from_feen` takes them as arguments. It writes the en
passant square only where Fairy-Stockfish does after a double step: when a pawn of the side to
move could take (or, for double-stepping pieces that are not pawns, always).

>>> from ggn.variants.description import Castling, DoubleStep, PieceType, Variant
>>> chess = Variant("chess", 8, 8, tuple(PieceType(letter, ()) for letter in "pnbrqk"),
...                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", castling=Castling(),
...                 double_step=DoubleStep((frozenset(), frozenset())))
>>> to_feen(chess, chess.start)
'+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c'
>>> to_feen(chess, "4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 1")
'4k^3/8/8/8/3p-P3/8/8/4+K^2+R / c/C'
>>> from_feen(chess, "4k^3/8/8/8/3p-P3/8/8/4+K^2+R / c/C", fullmove=40)
'4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 40'
>>> is_feen("4k^3/8/8/8/8/8/8/4K^3 / C/c"), is_feen(chess.start)
(True, False)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from math import gcd
from typing import Final

from ggn._json import quote
from ggn._types import Side, expect
from ggn.cell import Cell
from ggn.errors import GGNError, NotationError
from ggn.feen import Feen
from ggn.pin import Pin
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.sin import Sin
from ggn.variants import _checks
from ggn.variants.description import PieceType, Variant
from ggn.variants.document import layout, style

__all__ = ["from_feen", "is_feen", "style", "to_feen"]

_N: Final = "FEN"
_FIELDS: Final = 6  # a FEN's fields: the placement, the side to move, castling, en passant, two counters
_STYLE_TURN: Final = re.compile(r"[A-Za-z]/[A-Za-z]")
_PLACEMENT_TOKEN: Final = re.compile(r"([0-9]+)|(\*)|(\+?)([A-Za-z])(~?)")
_COUNTER: Final = re.compile(r"0|[1-9][0-9]*")
_SQUARE: Final = re.compile(r"([a-z])([0-9]+)")
_WALL: Final = "*"  # a wall's FEN letter, in the readers' and the writer's tables of the board

# Fairy-Stockfish writes the pieces in hand in the order of its piece types' enum, from the last
# (the king, 63) back to the first (the pawn, 1): its predefined types as betza.PREDEFINED lists
# them, then its custom pieces. Three of the types have a second name, of the same number.
_FSF_ALIASES: Final = {"met": "fers", "khon": "silver", "dragon": "bers"}
_FSF_KING: Final = 63


def is_feen(text: object) -> bool:
    """Whether ``text`` is a position in FEEN rather than FEN: a line whose last of three
    space-separated fields is two style letters around a slash (``C/c``). Only the shape is
    looked at; the position is checked when it is read."""
    if not isinstance(text, str) or text.count(" ") != 2:
        return False
    parts = text.split(" ")
    return len(parts) == 3 and _STYLE_TURN.fullmatch(parts[2]) is not None


# --- what a variant's FEN letters are in FEEN ---------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Table:
    """A variant's letters, as the readers and writers of this module need them."""

    variant: Variant
    styles: tuple[Sin, Sin]
    types: Mapping[str, PieceType]
    """FEN letter (lowercase, synonyms too) -> piece type."""
    pins: Mapping[str, str]
    """FEN letter -> PIN letter (uppercase)."""
    letters: Mapping[str, str]
    """PIN letter (uppercase) -> FEN letter (lowercase)."""
    promoted: Mapping[str, str]
    """Base letter -> the letter of the type its shogi-style promoted form moves as."""
    castling_letters: frozenset[str]
    gating: frozenset[str]
    """The letters that may hold a gating right (``+``) in a game with seirawan's gating."""
    double_step: frozenset[str]
    """The letters a ``-`` marks as having just made a double step (by the rule or by their
    own initial moves)."""
    tilde: frozenset[str]
    """The letters Fairy-Stockfish writes ``~`` after when promoted from a pawn (FEEN ``-X``):
    the promotion's choices where captures go to hand, none elsewhere."""
    pawn: Callable[[str], bool]
    """Whether a letter is Fairy-Stockfish's pawn (its double steps name an en passant square
    only when a pawn could take)."""
    order: dict[str, int]
    """FEN letter -> Fairy-Stockfish's number of its type (hands are written by it), made when
    a hand is first written: a process that writes none does without :mod:`ggn.variants.betza`."""
    leap: frozenset[str] = frozenset()
    """The letters a ``+`` marks as keeping cambodian chess's first-move leap (a gate in the
    castling field)."""
    wall: str | None = None
    """The PIN letter (uppercase) of a wall, the second player's piece FEN writes ``*``, in a
    game with walls (:meth:`ggn.variants.document.Layout.wall_token`); None: no walls."""
    crossed: frozenset[str] = frozenset()
    """The letters a ``+`` marks as having just passed, by a diagonal initial move, over
    squares on later files than the one they stand on (berolina's pawn from g7 to e5; ``-``
    from c7: :meth:`ggn.variants.document.Layout.passing_mark`)."""


_TABLES: dict[int, _Table] = {}


def _hand_order(variant: Variant) -> dict[str, int]:
    """FEN letter -> Fairy-Stockfish's number of its type, from the type's name (a type without a
    name it knows is a custom piece, numbered in the order of ``variant.pieces``)."""
    from ggn.variants.betza import PREDEFINED  # noqa: PLC0415  (on first use: see _Table.order)

    predefined = [name for name in PREDEFINED if name != "king"]
    numbers = {name: number for number, name in enumerate(predefined, 1)}
    numbers.update({alias: numbers[name] for alias, name in _FSF_ALIASES.items()})
    custom = len(predefined) + 1  # customPiece1's number
    order: dict[str, int] = {}
    for number, piece in enumerate(variant.pieces):
        letter = piece.letter.lower()
        name = piece.name or ""
        if name.startswith("customPiece") and name[11:].isdigit():
            order[letter] = custom + int(name[11:]) - 1
        elif name in numbers:
            order[letter] = numbers[name]
        elif name == "king" or letter == variant.king:
            order[letter] = _FSF_KING
        else:
            # A type Fairy-Stockfish would know as a custom piece, numbered in the order defined.
            order[letter] = custom + number
    return order


def _table(variant: Variant) -> _Table:
    made = _TABLES.get(id(variant))
    if made is not None and made.variant is variant:
        return made
    # The letters, the marks and the checks of a description (two types with one letter, a
    # type needing '+' or '-' twice) are the document maker's: one source for both.
    known = layout(variant)
    types: dict[str, PieceType] = dict(known.types)
    for piece in variant.pieces:
        synonym = piece.synonym
        if synonym and synonym.lower() not in types:
            types[synonym.lower()] = piece
    first = known.style
    made = _Table(
        variant, (Sin.parse(first), Sin.parse(first.lower())), types, dict(known.pins),
        {pin: letter for letter, pin in known.pins.items()}, dict(known.promoted), known.castling_letters,
        known.gating_letters, known.double_letters | known.initial_letters,
        known.tilde_letters if known.tilde else frozenset(), known.pawn_type, {}, known.leap_letters,
        known.wall, known.crossed_letters,
    )
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(variant)] = made
    return made


def _name(file: int, rank: int) -> str:
    return f"{chr(ord('a') + file)}{rank + 1}"


def _side(upper: bool) -> Side:
    return "first" if upper else "second"


# --- FEN to FEEN --------------------------------------------------------------------------------
@dataclass(slots=True)
class _Piece:
    letter: str  # FEN letter, lowercase
    side: Side
    state: str = "normal"  # FEEN state: "normal", "enhanced" (+), "diminished" (-)


class _Reader:
    """One FEN being read: its fields and where each stands, for the errors."""

    def __init__(self, table: _Table, text: str) -> None:
        self.table = table
        self.text = text
        # At most six fields are read (the placement, the side, castling, en passant, two
        # counters; and the checks left, in two places, where the game counts them): the rest
        # of a longer text is one field more, an error, not a list of them.
        self.fields = text.split(" ", _FIELDS + 2 * table.variant.history.check_counting)
        self.starts: list[int] = []
        start = 0
        for field in self.fields:
            self.starts.append(start)
            start += len(field) + 1

    def error(self, number: int, reason: str, start: int = 0, end: int | None = None) -> NotationError:
        """An error in field ``number``, at ``start:end`` within it (the whole field by default)."""
        base = self.starts[number]
        stop = len(self.fields[number]) if end is None else end
        return NotationError(_N, self.text, reason, base + start, base + stop)


def to_feen(variant: Variant, fen: str) -> str:
    """The FEEN of a position of ``variant`` written in Fairy-Stockfish's FEN.

    The move counters are checked and left out (FEEN holds none), as is Fairy-Stockfish's
    counting limit (makruk's counting) where its en passant field holds one. Every error is a
    :class:`~ggn.errors.NotationError` pointing at the field at fault.
    """
    table = _table(variant)
    expect(fen, str, "fen", "a str")
    reader = _Reader(table, fen)
    fields = reader.fields
    if not fields[0] or (len(fields) >= 2 and not fields[1]):
        raise NotationError(_N, fen, "expected the placement and the side to move, separated by a space")
    board, hands = _placement(reader)
    # The placement alone is a position with white to move (Fairy-Stockfish's reading; its
    # variants.ini writes such start positions).
    turn = fields[1] if len(fields) >= 2 else "w"
    if turn not in ("w", "b"):
        raise reader.error(1, f"the side to move is 'w' or 'b', not {quote(turn)}")
    active: Side = "first" if turn == "w" else "second"
    number = 2
    if number < len(fields) and fields[number][:1] and not fields[number][0].isdigit():
        if variant.gating:
            _gates(reader, number, board, hands)
        else:
            _castling(reader, number, board)
        number += 1
        if number >= len(fields):
            raise NotationError(_N, fen, "expected the en passant field after the castling rights",
                                len(fen), len(fen))
        _en_passant(reader, number, board, active)
        number += 1
    last = len(fields)
    if variant.history.check_counting:
        number, last = _checks_left(reader, number)
    elif number < len(fields) and "+" in fields[number]:
        raise reader.error(number, f"{variant.name} does not count checks ({quote(fields[number])})")
    for counter in range(number, last):
        if counter >= number + 2:
            raise reader.error(counter, "unexpected field after the two move counters")
        if not _COUNTER.fullmatch(fields[counter]):
            raise reader.error(counter, f"a move counter is a number without leading zeros, "
                                        f"not {quote(fields[counter])}")
    try:
        return str(_feen(table, board, hands, active))
    except NotationError as error:
        # What only the whole position breaks (more pieces than squares).
        raise reader.error(0, error.reason) from None


def _checks_left(reader: _Reader, number: int) -> tuple[int, int]:
    """In a game that counts checks, read the checks left (at field ``number``, or lichess's
    checks given after the counters): they must be the start's, since FEEN has no field for
    them (:mod:`ggn.variants._checks`). Return where the counters start and end."""
    variant = reader.table.variant
    fields = reader.fields
    last = len(fields)
    where = None
    if number < last and "+" in fields[number]:
        if _checks.FIELD.fullmatch(fields[number]) is None:
            raise reader.error(number, f"the checks left are two counts of one digit around '+', the first "
                                       f"player's first (3+3), not {quote(fields[number])}")
        where, number = number, number + 1
    if last > number and fields[-1].startswith("+"):
        last -= 1
        if _checks.GIVEN.fullmatch(fields[last]) is None:
            raise reader.error(last, f"lichess's checks given are two counts of one digit, each after a "
                                     f"'+' (+1+0), not {quote(fields[last])}")
        where = last
    counts, _ = _checks.read(reader.text)
    begun = _checks.start(variant)
    if counts != begun:
        shown = f"{counts[0]}+{counts[1]}"
        said = (f"checks left {shown}" if where is not None
                else f"no checks left: Fairy-Stockfish reads them as {shown}, the next check wins")
        reason = (f"{said}, and a position of {variant.name} in FEEN stands for {begun[0]}+{begun[1]}, its "
                  "start's: the checks follow from the plays, so a game holds them (read this FEN with "
                  "ggn.game.Game(..., fen=...), which keeps them), not FEEN")
        if where is None:
            raise NotationError(_N, reader.text, reason)
        raise reader.error(where, reason)
    return number, last


def _placement(reader: _Reader) -> tuple[dict[tuple[int, int], _Piece], dict[Side, dict[str, int]]]:
    table = reader.table
    variant = table.variant
    field = reader.fields[0]
    hand_text: str | None = None
    hand_start = 0
    bracket = field.find("[")
    if bracket >= 0:
        if not field.endswith("]") or field.count("[") != 1 or field.count("]") != 1:
            raise reader.error(0, "the pieces in hand are written in brackets at the end of the placement: "
                                  "'[...]'", bracket)
        placement, hand_text, hand_start = field[:bracket], field[bracket + 1 : -1], bracket + 1
    else:
        placement = field
    slashes = placement.count("/")
    if slashes > variant.ranks:  # not split into millions of rows: no FEN of the game has them
        raise reader.error(0, f"expected {variant.ranks} ranks separated by '/', got {slashes + 1:,}",
                           0, len(placement))
    rows = placement.split("/")
    if hand_text is None and len(rows) == variant.ranks + 1 and variant.drops is not None:
        # The hands as one more rank (lichess's crazyhouse FEN), as Fairy-Stockfish also reads.
        hand_start = len(placement) - len(rows[-1])
        hand_text = rows.pop()
        placement = placement[: max(hand_start - 1, 0)]
    if len(rows) != variant.ranks:
        raise reader.error(0, f"expected {variant.ranks} ranks separated by '/', got {len(rows)}",
                           0, len(placement))
    board: dict[tuple[int, int], _Piece] = {}
    start = 0
    for row_number, row in enumerate(rows):
        rank = variant.ranks - 1 - row_number
        _rank(reader, row, start, rank, board)
        start += len(row) + 1
    hands: dict[Side, dict[str, int]] = {"first": {}, "second": {}}
    if hand_text:
        if variant.drops is None:
            raise reader.error(0, f"{variant.name} has no pieces in hand", hand_start,
                               hand_start + len(hand_text))
        if hand_text == "-":
            return board, hands  # Fairy-Stockfish's '[-]': an empty hand
        # Each letter counted at once (a hand of a million pawns is one count), each distinct one
        # checked in the order met: the first that is no piece is the first written.
        for ch, count in Counter(hand_text).items():
            piece_type = table.types.get(ch.lower()) if ch.isascii() else None
            if piece_type is None:
                offset = hand_text.index(ch)
                raise reader.error(0, f"{ch!r} is not a piece letter of {variant.name}",
                                   hand_start + offset, hand_start + offset + 1)
            letter = piece_type.letter.lower()
            held = hands[_side(ch.isupper())]
            held[letter] = held.get(letter, 0) + count
    return board, hands


def _rank(reader: _Reader, row: str, start: int, rank: int, board: dict[tuple[int, int], _Piece]) -> None:
    table = reader.table
    variant = table.variant
    files = variant.files
    file, position = 0, 0
    shown = f"{rank + 1} {quote(row)}"
    while position < len(row):
        match = _PLACEMENT_TOKEN.match(row, position)
        span = (start + position, start + (match.end() if match else position + 1))
        if match is None:
            raise reader.error(0, f"rank {shown}: {row[position]!r} is not a piece letter, a "
                                  "digit, '*', '+' or '~'", *span)
        position = match.end()
        digits, hole, plus, letter, tilde = match.groups()
        if digits is not None:
            if digits[0] == "0" or len(digits) > 3 or int(digits) > files:
                raise reader.error(0, f"rank {shown}: {quote(digits)} is not a count of empty squares "
                                      f"from 1 to {files}", *span)
            for offset in range(int(digits)):
                if (file + offset, rank) in variant.holes:
                    raise reader.error(0, f"rank {shown}: {_name(file + offset, rank)} is a hole "
                                          f"of {variant.name}'s board, written '*'", *span)
            file += int(digits)
            continue
        if file >= files:
            raise reader.error(0, f"rank {shown} covers more than {files} squares", *span)
        square = (file, rank)
        file += 1
        if hole is not None:
            if square in variant.holes:
                continue
            if table.wall is None:
                raise reader.error(0, f"rank {shown}: '*' on {_name(*square)}, which is not a hole "
                                      f"of {variant.name}'s board", *span)
            board[square] = _Piece(_WALL, "second")  # a wall, in a game with walls
            continue
        if square in variant.holes:
            raise reader.error(0, f"rank {shown}: {_name(*square)} is a hole of {variant.name}'s "
                                  "board, written '*'", *span)
        lower = letter.lower()
        piece_type = table.types.get(lower)
        if piece_type is None:
            raise reader.error(0, f"rank {shown}: {letter!r} is not a piece letter of "
                                  f"{variant.name}", *span)
        lower = piece_type.letter.lower()  # a synonym reads as its type
        side = _side(letter.isupper())
        if plus:
            if tilde:
                raise reader.error(0, f"rank {shown}: a piece is written '+x' or 'x~', not both",
                                   *span)
            if lower not in table.promoted:
                raise reader.error(0, f"rank {shown}: {letter!r} has no promoted form '+'", *span)
            board[square] = _Piece(lower, side, "enhanced")
        elif tilde and lower in table.tilde:
            board[square] = _Piece(lower, side, "diminished")
        else:
            # A '~' FEEN has no mark for (no captures to hand): Fairy-Stockfish reads it, never writes it.
            board[square] = _Piece(lower, side)
    if file != files:
        raise reader.error(0, f"rank {shown} covers {file} squares, not {files}",
                           start, start + len(row))


def _castling(reader: _Reader, number: int, board: dict[tuple[int, int], _Piece]) -> None:
    """Marks the castling kings and rooks of the castling field (Fairy-Stockfish's reading:
    ``K`` the outermost rook on the king's side, ``Q`` on the other, a file letter the rook on
    that file, or in chess960 the king on it when several could castle)."""
    table = reader.table
    variant = table.variant
    text = reader.fields[number]
    if text == "-":
        return
    if variant.cambodian_moves:
        _leaps(reader, number, board)
        return
    castling = variant.castling
    if castling is None:
        # Read and ignored, as Fairy-Stockfish does (a start FEN of chess's with 'KQkq' serves
        # a section that says 'castling = false'); the FEN written back says '-'.
        for offset, ch in enumerate(text):
            if not ch.isascii() or not ch.isalpha():
                raise reader.error(number, f"{ch!r} is not a castling right: 'K', 'Q' or a file letter, "
                                           "uppercase for white", offset, offset + 1)
        return
    last = variant.files - 1
    kings: dict[Side, tuple[int, int] | None] = {}
    seen: set[tuple[Side, tuple[int, int]]] = set()
    for offset, ch in enumerate(text):
        side = _side(ch.isupper())
        rank = castling.rank if side == "first" else variant.ranks - 1 - castling.rank
        upper = ch.upper()

        def holds(square: tuple[int, int], letters: frozenset[str] | str, side: Side = side) -> bool:
            piece = board.get(square)
            return piece is not None and piece.side == side and piece.letter in letters

        if upper in ("K", "Q"):
            # The outermost rook on that side, from the rook's file inward (Fairy-Stockfish's
            # reading: a rook that is not in the corner in a game that is not chess960).
            outer = castling.rook_files[0] if upper == "K" else castling.rook_files[1]
            if outer is None:
                outer = last
            files = range(min(outer, last), -1, -1) if upper == "K" else range(outer, last + 1)
            file = next((f for f in files if holds((f, rank), castling.rooks)), -1)
            if file < 0:
                raise reader.error(number, f"castling right {ch!r} needs a castling rook on the "
                                           f"{'king' if upper == 'K' else 'queen'}'s side of rank {rank + 1}",
                                   offset, offset + 1)
        elif ch.isascii() and "A" <= upper <= chr(ord("A") + last):
            file = ord(upper) - ord("A")
        else:
            raise reader.error(number, f"{ch!r} is not a castling right of {variant.name}: 'K', 'Q' or a "
                                       "file letter, uppercase for white", offset, offset + 1)
        rook = (file, rank)
        if side not in kings:
            on_rank = sorted(f for f in range(variant.files) if holds((f, rank), castling.king))
            if variant.chess960 and holds(rook, castling.king):
                king = rook
            elif on_rank and (len(on_rank) == 1 or variant.chess960):
                king = (on_rank[0], rank)
            else:
                king = (castling.king_file, rank)
            kings[side] = king if holds(king, castling.king) else None
        king_square = kings[side]
        if king_square == rook and variant.chess960:
            continue  # the letter named which king castles
        if king_square is None:
            colour = "white" if side == "first" else "black"
            raise reader.error(number, f"castling right {ch!r} needs the {colour} king on its castling rank "
                                       f"{rank + 1}", offset, offset + 1)
        if not holds(rook, castling.rooks):
            raise reader.error(number, f"castling right {ch!r} needs a castling rook on {_name(*rook)}",
                               offset, offset + 1)
        if (side, rook) in seen:
            raise reader.error(number, f"castling right {ch!r} is given twice", offset, offset + 1)
        seen.add((side, rook))
        board[king_square].state = "enhanced"
        board[rook].state = "enhanced"


def _gates_live(variant: Variant, hands: Mapping[Side, Mapping[str, int]] | Mapping[str, Mapping[Qpi, int]],
                side: Side) -> bool:
    """Whether a side's gating rights count: always where captures go to hand, else while its
    hand holds a piece (Fairy-Stockfish clears them when it empties, and writes none then)."""
    drops = variant.drops
    return (drops is not None and drops.captures_to_hand) or any(count > 0 for count in hands[side].values())


def _gates(reader: _Reader, number: int, board: dict[tuple[int, int], _Piece],
           hands: dict[Side, dict[str, int]]) -> None:
    """The castling field of a game with seirawan's gating, read as Fairy-Stockfish reads it:
    while a side's gating rights count, ``K``/``Q`` are castling rights (the king's and the
    rook's gating rights with them) and a file letter a gating right of the side's piece on
    that file of its castling rank (none there: nothing); else a file letter is a castling
    right of a castling rook on that file (anything else there: nothing). Every right is ``+``
    on its piece; a castling right is the king's and its rook's."""
    table = reader.table
    variant = table.variant
    text = reader.fields[number]
    if text == "-":
        return
    castling = variant.castling
    for offset, ch in enumerate(text):
        side = _side(ch.isupper())
        upper = ch.upper()
        live = _gates_live(variant, hands, side)
        if castling is None or upper in ("K", "Q") or not ch.isascii() or not "A" <= upper < chr(
                ord("A") + variant.files):
            if castling is None:
                raise reader.error(number, f"{ch!r} is not a gating right of {variant.name}: a file letter, "
                                           "uppercase for white", offset, offset + 1)
            _castling_right(reader, number, board, ch, offset)
            continue
        rank = castling.rank if side == "first" else variant.ranks - 1 - castling.rank
        piece = board.get((ord(upper) - ord("A"), rank))
        if piece is None or piece.side != side:
            continue  # Fairy-Stockfish keeps gates on occupied squares only
        if live:
            if piece.letter in table.gating:
                piece.state = "enhanced"
        elif piece.letter in castling.rooks:
            _castling_right(reader, number, board, ch, offset)


def _castling_right(reader: _Reader, number: int, board: dict[tuple[int, int], _Piece], ch: str,
                    offset: int) -> None:
    """One letter of a castling field, read as :func:`_castling` reads it."""
    fields = reader.fields
    saved = fields[number]
    fields[number] = ch
    shift = reader.starts[number]
    reader.starts[number] = shift + offset
    try:
        _castling(reader, number, board)
    finally:
        fields[number] = saved
        reader.starts[number] = shift


def _leaps(reader: _Reader, number: int, board: dict[tuple[int, int], _Piece]) -> None:
    """Marks ``+`` the king and met of cambodian chess's gates: each a file letter of the
    castling field (uppercase for white), naming a square of the side's first rank that holds
    one with its first-move leap. (Fairy-Stockfish also keeps a gate on an empty square, or on
    another piece, which gives no move: refused here, since FEEN has no mark for it.)"""
    table = reader.table
    variant = table.variant
    text = reader.fields[number]
    for offset, ch in enumerate(text):
        side = _side(ch.isupper())
        file = ord(ch.upper()) - ord("A")
        if not ch.isascii() or not 0 <= file < variant.files:
            raise reader.error(number, f"{ch!r} is not a gate of {variant.name}: a file letter, uppercase "
                                       "for white", offset, offset + 1)
        square = (file, 0 if side == "first" else variant.ranks - 1)
        piece = board.get(square)
        if piece is None or piece.side != side or piece.letter not in table.leap:
            raise reader.error(number, f"gate {ch!r} needs a {'white' if side == 'first' else 'black'} king "
                                       f"or met on {_name(*square)}, which keeps its first move there",
                               offset, offset + 1)
        if piece.state == "enhanced":
            raise reader.error(number, f"gate {ch!r} is given twice", offset, offset + 1)
        piece.state = "enhanced"


def _en_passant(reader: _Reader, number: int, board: dict[tuple[int, int], _Piece], active: Side) -> None:
    """Marks ``-`` the piece that has just made the double step the en passant squares name."""
    table = reader.table
    variant = table.variant
    text = reader.fields[number]
    if text == "-" or text.isdigit():
        return  # no square, or Fairy-Stockfish's counting limit (which FEEN does not hold)
    mover: Side = "second" if active == "first" else "first"
    forward = 1 if mover == "first" else -1

    def mine(square: tuple[int, int]) -> _Piece | None:
        piece = board.get(square)
        if piece is not None and piece.side == mover and piece.letter in table.double_step \
                and piece.state != "enhanced":
            return piece
        return None

    squares: list[tuple[tuple[int, int], tuple[int, int]]] = []  # each square and its span
    position = 0
    while position < len(text):
        match = _SQUARE.match(text, position)
        if match is None or len(match[2]) > 2 or not 0 < int(match[2]) <= variant.ranks \
                or ord(match[1]) - ord("a") >= variant.files or match[2][0] == "0":
            raise reader.error(number, f"the en passant field is '-' or squares of the board, not "
                                       f"{quote(text)}")
        square = (ord(match[1]) - ord("a"), int(match[2]) - 1)
        if any(square == seen for seen, _ in squares):  # so at most one a square of the board
            raise reader.error(number, f"en passant square {match[0]} is given twice", *match.span())
        squares.append((square, match.span()))
        position = match.end()
    # After a piece's own initial move Fairy-Stockfish names its destination too: the piece
    # named there is the one that moved, whatever stands beyond the other squares.
    named = [(square, piece) for square, _ in squares if (piece := mine(square)) is not None]
    if named:
        stands, piece = named[0]
        piece.state = "diminished"
        if piece.letter in table.crossed:
            # '+' when the squares it passed over are on later files (a diagonal initial move).
            ways = {square[0] > stands[0] for square, _ in squares if square != stands}
            if len(ways) > 1:
                raise reader.error(number, f"en passant squares {quote(text)} name squares passed over "
                                           "on both sides of the piece that made its initial move: FEEN "
                                           "marks one")
            if ways == {True}:
                piece.state = "enhanced"
        return
    for (file, rank), (start, end) in squares:
        # Else the pawn that passed over the square stands straight beyond it (one or two
        # squares: a triple step names two), or diagonally (a diagonal double step).
        beyond = None
        for step in ((0, 1), (0, 2), (-1, 1), (1, 1)):
            square = (file + step[0], rank + step[1] * forward)
            beyond = mine(square)
            if beyond is not None or (step == (0, 1) and square in board):
                break  # found, or a piece straight ahead that the double step cannot have passed
        if beyond is None:
            raise reader.error(number, f"en passant square {text[start:end]} needs the piece that has just "
                                       f"made its double step beyond it", start, end)
        beyond.state = "enhanced" if beyond.letter in table.crossed and step[0] < 0 else "diminished"


def _feen(table: _Table, board: dict[tuple[int, int], _Piece], hands: dict[Side, dict[str, int]],
          active: Side) -> Feen:
    variant = table.variant
    first, second = table.styles
    placed: dict[Cell, Qpi] = {}
    for (file, rank), piece in board.items():
        placed[Cell((file, rank))] = _qpi(table, piece.letter, piece.side, piece.state)
    held = {
        player: {_qpi(table, letter, player, "normal"): count for letter, count in pieces.items()}
        for player, pieces in hands.items()
    }
    return Feen((variant.files, variant.ranks), placed, held, active, (first, second))


def _qpi(table: _Table, letter: str, side: Side, state: str) -> Qpi:
    if letter == _WALL:
        assert table.wall is not None
        return Qpi(table.styles[1], Pin(table.wall, "second", "normal", False))
    royal = letter == table.variant.king
    return Qpi(table.styles[0 if side == "first" else 1],
               Pin(table.pins[letter], side, state, royal))  # type: ignore[arg-type]


# --- FEEN to FEN --------------------------------------------------------------------------------
def from_feen(variant: Variant, feen_or_position: str | Feen | Position, *, halfmove: int = 0,
              fullmove: int = 1) -> str:
    """Fairy-Stockfish's FEN of a position of ``variant`` given in FEEN (a string, a
    :class:`~ggn.feen.Feen` or a :class:`~ggn.position.Position`), with the two move counters.

    A FEEN that is not a position of the variant (its board's shape, its styles, a piece the
    variant does not have, a mark the variant gives no meaning) is a
    :class:`~ggn.errors.NotationError` of FEEN.
    """
    table = _table(variant)
    expect(feen_or_position, (str, Feen, Position), "feen_or_position", "a FEEN string, a Feen or a Position")
    if expect(halfmove, int, "halfmove", "an int") < 0:
        raise GGNError(f"the halfmove counter is 0 or more, not {halfmove}")
    if expect(fullmove, int, "fullmove", "an int") < 1:
        raise GGNError(f"the fullmove number is 1 or more, not {fullmove}")
    position = Feen.parse(feen_or_position) if isinstance(feen_or_position, str) else feen_or_position
    text = feen_or_position if isinstance(feen_or_position, str) else str(
        position if isinstance(position, Feen) else position.to_feen())
    writer = _Writer(table, text, position)
    return writer.fen(halfmove, fullmove)


class _Writer:
    def __init__(self, table: _Table, text: str, position: Feen | Position) -> None:
        self.table = table
        self.text = text
        variant = table.variant
        if tuple(position.shape) != (variant.files, variant.ranks):
            raise self.error(f"the board of {variant.name} is {variant.files}x{variant.ranks}, not "
                             f"{'x'.join(map(str, position.shape))}")
        if tuple(position.styles) != table.styles:
            raise self.error(f"the styles of {variant.name} are {table.styles[0].letter}/"
                             f"{table.styles[1].letter}, not {position.styles[0].letter}/"
                             f"{position.styles[1].letter}")
        self.active: Side = position.active
        self.board: dict[tuple[int, int], tuple[str, Side, str]] = {}
        for cell, qpi in position.board.items():
            file, rank = cell.indices
            if (file, rank) in variant.holes:
                raise self.error(f"{cell} is a hole of {variant.name}'s board, yet holds {qpi}")
            self.board[(file, rank)] = (self.letter(qpi, f"on {cell}"), qpi.side, qpi.state)
        self.hands = {player: dict(position.hand(player)) for player in ("first", "second")}

    def error(self, reason: str) -> NotationError:
        return NotationError("FEEN", self.text, reason)

    def letter(self, qpi: Qpi, where: str) -> str:
        """The FEN letter of a piece, checked against the variant's types and marks (``*``:
        a wall, on the board)."""
        table = self.table
        variant = table.variant
        if table.wall is not None and qpi.pin.name == table.wall and where.startswith("on "):
            if qpi.side != "second" or qpi.state != "normal" or qpi.terminal or not qpi.native:
                raise self.error(f"{str(qpi)!r} {where}: a wall of {variant.name} is "
                                 f"{table.styles[1]}:{table.wall.lower()}")
            return _WALL
        letter = table.letters.get(qpi.pin.name)
        if letter is None or not qpi.native:
            raise self.error(f"{str(qpi)!r} {where} is no piece of {variant.name}")
        if qpi.terminal != (letter == variant.king):
            raise self.error(f"{str(qpi)!r} {where}: in {variant.name} the royal piece, and only it, "
                             "is marked '^'")
        if qpi.state == "enhanced" and letter not in table.promoted and letter not in table.castling_letters \
                and letter not in table.gating and letter not in table.leap and letter not in table.crossed:
            raise self.error(f"{str(qpi)!r} {where}: {variant.name} gives '+' no meaning on this piece")
        if qpi.state == "diminished" and letter not in table.double_step and letter not in table.tilde:
            raise self.error(f"{str(qpi)!r} {where}: {variant.name} gives '-' no meaning on this piece")
        return letter

    def fen(self, halfmove: int, fullmove: int) -> str:
        table = self.table
        variant = table.variant
        rows: list[str] = []
        for rank in range(variant.ranks - 1, -1, -1):
            row, gap = "", 0
            for file in range(variant.files):
                piece = self.board.get((file, rank))
                if piece is None and (file, rank) not in variant.holes:
                    gap += 1
                    continue
                row, gap = row + (str(gap) if gap else ""), 0
                row += "*" if piece is None or piece[0] == _WALL else self.token(*piece)
            rows.append(row + (str(gap) if gap else ""))
        placement = "/".join(rows)
        if variant.drops is not None:
            placement += f"[{self.hand('first')}{self.hand('second')}]"
        turn = "w" if self.active == "first" else "b"
        checks = ""
        if variant.history.check_counting:  # a FEEN stands for the start's checks left
            left = _checks.start(variant)
            checks = f" {left[0]}+{left[1]}"
        return f"{placement} {turn} {self.castling()} {self.en_passant()}{checks} {halfmove} {fullmove}"

    def token(self, letter: str, side: Side, state: str) -> str:
        table = self.table
        fen = letter.upper() if side == "first" else letter
        if state == "enhanced" and letter in table.promoted:
            return "+" + fen
        if state == "diminished" and letter not in table.double_step:
            return fen + "~"
        return fen

    def hand(self, player: Side) -> str:
        table = self.table
        counts: dict[str, int] = {}
        for qpi, count in self.hands[player].items():
            letter = self.letter(qpi, f"in the {player} player's hand")
            if qpi.side != player or qpi.state != "normal":
                raise self.error(f"{str(qpi)!r} in the {player} player's hand: in {table.variant.name} a "
                                 "hand holds its player's own plain pieces")
            counts[letter] = counts.get(letter, 0) + count
        order = table.order
        if not order:
            order.update(_hand_order(table.variant))
        ordered = sorted(counts, key=lambda letter: -order[letter])
        return "".join((letter.upper() if player == "first" else letter) * counts[letter]
                       for letter in ordered)

    def castling(self) -> str:
        variant = self.table.variant
        if variant.cambodian_moves:
            return self.leaps()
        castling = variant.castling
        if variant.gating:
            return self.gates()
        if castling is None:
            return "-"
        text = ""
        for side in ("first", "second"):
            rank = castling.rank if side == "first" else variant.ranks - 1 - castling.rank
            kings = [file for file in range(variant.files)
                     if self.board.get((file, rank), ("", "", ""))[:2] == (castling.king, side)]
            marked = [file for file in kings if self.board[(file, rank)][2] == "enhanced"]
            rooks = sorted(file for file in range(variant.files)
                           if (piece := self.board.get((file, rank))) is not None and piece[1] == side
                           and piece[0] in castling.rooks and piece[2] == "enhanced")
            for square, piece in self.board.items():
                if piece[1] == side and piece[2] == "enhanced" and piece[0] in self.table.castling_letters \
                        and square[1] != rank:
                    raise self.error(f"a castling right ('+') on {_name(*square)}, off the castling rank "
                                     f"{rank + 1}")
            if not rooks:
                if marked:
                    raise self.error(f"the castling king on {_name(marked[0], rank)} has a right ('+') but "
                                     "no rook has")
                continue
            if len(marked) != 1:
                raise self.error(f"castling rooks on rank {rank + 1} have rights ('+') but "
                                 f"{'no king has' if not marked else 'several kings have'}")
            king = marked[0]
            kingside = [file for file in rooks if file > king]
            queenside = [file for file in rooks if file < king]
            if len(kingside) > 1 or len(queenside) > 1:
                raise self.error(f"more than one rook on one side of the king on rank {rank + 1} has a "
                                 "castling right ('+')")
            base = "A" if side == "first" else "a"
            if variant.chess960:
                if len(kings) > 1:
                    text += chr(ord(base) + king)
                text += "".join(chr(ord(base) + file) for file in kingside + queenside)
            else:
                king_letter, queen_letter = ("K", "Q") if side == "first" else ("k", "q")
                text += (king_letter if kingside else "") + (queen_letter if queenside else "")
        return text or "-"

    def gates(self) -> str:
        """The castling field of a game with seirawan's gating, as Fairy-Stockfish writes it:
        for each side its castling rights (``K``, ``Q``: the ``+`` king on its castling square
        and a ``+`` rook on its own), then, while its gating rights count, the files of its
        other ``+`` pieces (the king's file too where it cannot castle)."""
        table = self.table
        variant = table.variant
        castling = variant.castling
        rank_of = 0 if castling is None else castling.rank
        text = ""
        for side in ("first", "second"):
            rank = rank_of if side == "first" else variant.ranks - 1 - rank_of
            marked = sorted(file for (file, row), piece in self.board.items()
                            if piece[1] == side and piece[2] == "enhanced" and piece[0] not in table.promoted
                            and (row == rank or self._off_rank(file, row, rank)))
            rights: list[int] = []
            king_file = -1
            if castling is not None:
                king = self.board.get((castling.king_file, rank))
                if king is not None and king[:3] == (castling.king, side, "enhanced"):
                    king_file = castling.king_file
                    outer = variant.files - 1 if castling.rook_files[0] is None else castling.rook_files[0]
                    for file, letter in ((outer, "K"), (castling.rook_files[1], "Q")):
                        rook = self.board.get((file, rank))
                        if rook is not None and rook[1] == side and rook[2] == "enhanced" \
                                and rook[0] in castling.rooks:
                            rights.append(file)
                            text += letter if side == "first" else letter.lower()
            if not _gates_live(variant, self.hands, side):
                continue
            base = "A" if side == "first" else "a"
            text += "".join(chr(ord(base) + file) for file in marked
                            if file not in rights and not (rights and file == king_file))
        return text or "-"

    def _off_rank(self, file: int, row: int, rank: int) -> bool:
        raise self.error(f"a gating right ('+') on {_name(file, row)}, off the castling rank {rank + 1}")

    def leaps(self) -> str:
        """Cambodian chess's gates: the files of the kings and mets marked ``+``, white's first
        (uppercase), each side's from the a-file on, as Fairy-Stockfish writes them."""
        variant = self.table.variant
        text = ""
        for side in ("first", "second"):
            rank = 0 if side == "first" else variant.ranks - 1
            files = []
            for (file, at), (letter, owner, state) in self.board.items():
                if owner != side or state != "enhanced" or letter not in self.table.leap:
                    continue
                if at != rank:
                    raise self.error(f"a first-move right ('+') on {_name(file, at)}, off the first rank "
                                     f"{rank + 1}")
                files.append(file)
            base = "A" if side == "first" else "a"
            text += "".join(chr(ord(base) + file) for file in sorted(files))
        return text or "-"

    def en_passant(self) -> str:
        """The square passed over by the piece marked ``-`` for its double step, where
        Fairy-Stockfish writes it after the move (see its ``do_move``)."""
        table = self.table
        variant = table.variant
        mover: Side = "second" if self.active == "first" else "first"
        forward = 1 if mover == "first" else -1
        squares: list[tuple[int, int]] = []
        for (file, rank), (letter, side, state) in self.board.items():
            if state != "diminished" and (state != "enhanced" or letter not in table.crossed):
                continue
            if letter not in table.double_step:
                continue
            if side != mover:
                mark = "+" if state == "enhanced" else "-"
                raise self.error(f"{_name(file, rank)}: only the side that has just moved has a piece marked "
                                 f"'{mark}' for its double step")
            double_step = variant.double_step
            assert double_step is not None  # the letter is one of its types
            if letter in double_step.types and letter not in double_step.initial_movers:
                passed = [(file, rank - forward)]
                if self.board.get(passed[0]) is not None or not 0 <= passed[0][1] < variant.ranks:
                    raise self.error(f"{_name(file, rank)}: the square its double step passed over, "
                                     f"{_name(*passed[0])}, is not empty")
            else:
                passed = self._passed(letter, (file, rank), mover, state == "enhanced")
            regions = double_step.passant_regions
            if regions is not None:
                region = regions[0 if self.active == "first" else 1]
                passed = [square for square in passed if square in region]
            if passed and (not table.pawn(letter) or self._takers(passed[0], mover)):
                squares.extend(passed)
        if not squares:
            return "-"
        # Fairy-Stockfish lists its en passant squares from a1 onward, rank by rank.
        return "".join(_name(*square) for square in sorted(squares, key=lambda s: (s[1], s[0])))

    def _passed(self, letter: str, square: tuple[int, int], mover: Side,
                crossed: bool) -> list[tuple[int, int]]:
        """The squares a piece passed over by one of its own initial moves (Betza's ``i``) to
        stand on ``square``, and ``square`` itself, as Fairy-Stockfish names them: those of the
        first of :func:`_initial_paths` that is open on the board (its origin and the squares
        between empty)."""
        board = self.board
        for origin, between in _initial_paths(self.table, letter, square, mover, crossed):
            if origin not in board and all(cell not in board for cell in between):
                return [*between, square]
        return []

    def _takers(self, passed: tuple[int, int], mover: Side) -> bool:
        double_step = self.table.variant.double_step
        assert double_step is not None
        if any(not self.table.pawn(letter) for letter in double_step.en_passant
               if letter in self.table.types):
            return True
        forward = 1 if mover == "first" else -1
        for file in (passed[0] - 1, passed[0] + 1):
            piece = self.board.get((file, passed[1] + forward))
            if piece is not None and piece[1] == self.active and piece[2] != "enhanced" \
                    and piece[0] != _WALL and self.table.pawn(piece[0]):
                return True
        return False


def _initial_paths(table: _Table, letter: str, square: tuple[int, int], mover: Side,
                  crossed: bool) -> Iterator[tuple[tuple[int, int], list[tuple[int, int]]]]:
    """The ways a piece of ``letter`` of ``mover`` may have come to ``square`` by one of its own
    initial moves (Betza's ``i``), in the order Fairy-Stockfish tries them: each its origin, a
    square of the move's initial region, and the squares between (as Fairy-Stockfish's
    between_bb; none for a leap off the lines). With ``crossed`` (the mark ``+``) only those
    from later files than ``square``'s, else only the others (``-``: a berolina pawn's two
    diagonals are its two marks). The way it came is the first whose origin and squares
    between are empty on the board (the FEN's en passant squares; the playouts' key)."""
    variant = table.variant
    files, ranks = variant.files, variant.ranks
    turn = mover == "second"  # the second side's frame is the first's turned half a circle
    for movement in table.types[letter].movements:
        if movement.sources is None:
            continue
        for dx, dy in movement.vectors:
            for steps in range(movement.first, (movement.last or 1) + 1):
                shift = (-dx * steps, -dy * steps) if turn else (dx * steps, dy * steps)
                origin = (square[0] - shift[0], square[1] - shift[1])
                if letter in table.crossed and (origin[0] > square[0]) != crossed:
                    continue  # the other diagonal
                own = (files - 1 - origin[0], ranks - 1 - origin[1]) if turn else origin
                if own not in movement.sources:
                    continue
                length = gcd(*shift) if 0 in shift or abs(shift[0]) == abs(shift[1]) else 1
                unit = (shift[0] // length, shift[1] // length)
                yield origin, [(origin[0] + unit[0] * k, origin[1] + unit[1] * k) for k in range(1, length)]
