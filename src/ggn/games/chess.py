"""Standard chess, described as data: :data:`VARIANT`, its GGN 1.0.0 document and its FEN reader.

The description is a :class:`~ggn.variants.description.Variant` (Fairy-Stockfish's chess: its
pieces in Betza, promotion on the last rank, castling, double steps); the document is made from
it by :func:`ggn.variants.document.build`, and :class:`ggn.rules.variant.VariantRules` plays it.

States, as in the GGN and LCN texts' own examples: ``+`` on a king or a rook that keeps a
castling right (``C:+K^``, ``C:+R``), ``-`` on a pawn that has just made a double step and
may be taken en passant (``c:-p``), ``^`` on kings. The second side's pieces keep the
lowercase style letter (``c:k^``, ``c:+r``).

What GGN cannot say is left to the rule system: check (castling out of, through or into
check included), the choice of promotion piece, and the state changes a move makes (a
king or rook losing ``+``, a pawn gaining or losing ``-``).

>>> from ggn.position import Position
>>> len(ruleset().moves(Position.from_feen(START)))
20
>>> document()["C:+K^"]["e1"]["g1"]
[{'must': {'f1': 'empty', 'g1': 'empty', 'h1': 'C:+R'}}]
>>> document()["C:P"]["e5"]["d6"]
[{'must': {'d6': 'enemy'}}, {'must': {'d6': 'empty', 'd5': 'c:-p'}}]
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final

from ggn.errors import NotationError, NotationTypeError
from ggn.ruleset import Ruleset
from ggn.variants.betza import PREDEFINED, parse
from ggn.variants.description import Castling, DoubleStep, PieceType, Promotion, Variant
from ggn.variants.document import build, ruleset_of
from ggn.variants.pieces import ranks

__all__ = ["START", "VARIANT", "document", "from_fen", "ruleset"]

START: Final = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
"""The start position in FEEN: both kings and all four rooks keep their castling rights."""


def _piece(letter: str, name: str) -> PieceType:
    return PieceType(letter, parse(PREDEFINED[name]), betza=PREDEFINED[name], name=name)


VARIANT: Final = Variant(
    "chess", 8, 8,
    (_piece("k", "king"), _piece("q", "queen"), _piece("r", "rook"), _piece("b", "bishop"),
     _piece("n", "knight"), _piece("p", "pawn")),
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    style="C",
    # Regions in the board's frame, one a side: the first player's, then the second's.
    promotion=Promotion((ranks(8, 8), ranks(8, 1))),
    castling=Castling(),
    double_step=DoubleStep((ranks(8, 2), ranks(8, 7))),
    description="Standard chess.",
)
"""The description of chess (Fairy-Stockfish's, as its ``[chess]`` of ``variants.ini`` reads)."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of chess, as plain JSON-ready values (a new copy)."""
    return build(VARIANT)


@cache
def ruleset() -> Ruleset:
    """The chess document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process
    (it keeps its compiled move generator, so later calls are fast from the first move on)."""
    return ruleset_of(VARIANT)


# --- FEN -----------------------------------------------------------------------------------
_FEN_RANK = re.compile(r"[1-8pnbrqkPNBRQK]+")
_FEN_CASTLING = re.compile(r"-|K?Q?k?q?")
_FEN_COUNTER = re.compile(r"0|[1-9][0-9]*")
# Each castling right: the king's square, the rook's square.
_RIGHTS: Final = {"K": ("e1", "h1"), "Q": ("e1", "a1"), "k": ("e8", "h8"), "q": ("e8", "a8")}


def _fen_error(text: str, fields: list[str], number: int, reason: str) -> NotationError:
    start = sum(len(field) + 1 for field in fields[:number])
    return NotationError("FEN", text, reason, start, start + len(fields[number]))


def from_fen(fen: str) -> str:
    """The FEEN of a standard chess FEN (the two move counters may be left out).

    Castling rights become ``+`` on the king and on the rook of each right's corner; an en
    passant square becomes ``-`` on the pawn that has just made its double step (whether or
    not a capture is possible).

    >>> from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == START
    True
    >>> from_fen("4k3/8/8/8/4P3/8/8/4K2R b K e3")
    '4k^3/8/8/8/4-P3/8/8/4+K^2+R / c/C'
    >>> from_fen("4k3/8/8/8/8/8/8/4K3 w Q -")
    Traceback (most recent call last):
      ...
    ggn.errors.NotationError: invalid FEN ...: castling right 'Q' needs the king on e1 and a rook ...
        4k3/8/8/8/8/8/8/4K3 w Q -
                              ^
    """
    if not isinstance(fen, str):
        raise NotationTypeError.of("FEN", fen)
    fields = fen.split(" ")
    if len(fields) not in (4, 6):
        raise NotationError("FEN", fen, "expected 4 or 6 fields separated by single spaces: "
                                        "placement, side to move, castling, en passant[, counters]")
    placement, turn, castling, passant = fields[:4]
    board: dict[str, str] = {}  # square -> FEN letter
    rows = placement.split("/")
    if len(rows) != 8:
        raise _fen_error(fen, fields, 0, f"expected 8 ranks separated by '/', got {len(rows)}")
    for row_number, row in enumerate(rows):
        rank = 8 - row_number
        file = 0
        if not _FEN_RANK.fullmatch(row):
            raise _fen_error(fen, fields, 0, f"rank {rank} {row!r} is not made of piece letters "
                                             "(pnbrqk, PNBRQK) and digits 1-8")
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                if file < 8:
                    board[f"{'abcdefgh'[file]}{rank}"] = ch
                file += 1
        if file != 8:
            raise _fen_error(fen, fields, 0, f"rank {rank} {row!r} covers {file} squares, not 8")
    if turn not in ("w", "b"):
        raise _fen_error(fen, fields, 1, f"the side to move is 'w' or 'b', not {turn!r}")
    if not castling or not _FEN_CASTLING.fullmatch(castling):
        raise _fen_error(fen, fields, 2, f"castling rights are '-' or some of 'KQkq' in that order, "
                                         f"not {castling!r}")
    tokens = dict(board)
    for right in castling.replace("-", ""):
        king, rook = _RIGHTS[right]
        king_letter, rook_letter = ("K", "R") if right.isupper() else ("k", "r")
        if board.get(king) != king_letter or board.get(rook) != rook_letter:
            raise _fen_error(fen, fields, 2, f"castling right {right!r} needs the king on {king} "
                                             f"and a rook on {rook}")
        tokens[king] = "+" + king_letter
        tokens[rook] = "+" + rook_letter
    if passant != "-":
        wanted = "6" if turn == "w" else "3"
        if len(passant) != 2 or passant[0] not in "abcdefgh" or passant[1] != wanted:
            raise _fen_error(fen, fields, 3, f"the en passant square is '-' or a square of rank "
                                             f"{wanted} with {'white' if turn == 'w' else 'black'} "
                                             f"to move, not {passant!r}")
        pawn, letter = (passant[0] + "5", "p") if turn == "w" else (passant[0] + "4", "P")
        if board.get(pawn) != letter:
            raise _fen_error(fen, fields, 3, f"en passant square {passant} needs the pawn that has "
                                             f"just made its double step on {pawn}")
        tokens[pawn] = "-" + letter
    for number in (4, 5)[: len(fields) - 4]:
        if not _FEN_COUNTER.fullmatch(fields[number]):
            raise _fen_error(fen, fields, number, f"a move counter is a number without leading "
                                                  f"zeros, not {fields[number]!r}")
    rows_out: list[str] = []
    for rank in range(8, 0, -1):
        row, gap = "", 0
        for column in "abcdefgh":
            token = tokens.get(f"{column}{rank}")
            if token is None:
                gap += 1
                continue
            if gap:
                row, gap = row + str(gap), 0
            row += token + ("^" if token[-1] in "Kk" else "")
        rows_out.append(row + (str(gap) if gap else ""))
    return f"{'/'.join(rows_out)} / {'C/c' if turn == 'w' else 'c/C'}"
