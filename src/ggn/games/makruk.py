"""Makruk (Thai chess) as a GGN 1.0.0 document, made from a few movement descriptions.

Board: 8 x 8, white (the first player, style ``M``) on ranks 1 to 3, black (``m``) on ranks
6 to 8; the second side's frame is the first's mirrored. Pieces: ``K^`` king (the terminal
piece; one step any way), ``M`` met (one diagonal step), ``S`` khon (one step diagonally or
straight forward), ``N`` horse (the knight's leap), ``R`` boat (the rook), ``P`` bia (a pawn:
one step forward onto an empty square, captures one step diagonally forward), and ``+M``, a
promoted met: a bia that has reached its sixth rank, moving as a met. No castling and no
double step, so no other state.

The bia stands on its third to fifth ranks: the document lists its step onto the sixth, and
the rule system turns it there into ``+M`` (promotion is compulsory). Check, the end of the
game and the counting rules are the rule system's as well.

>>> from ggn.position import Position
>>> len(ruleset().moves(Position.from_feen(START)))
23
>>> sorted(document()["M:S"]["c1"])
['b2', 'c2', 'd2']
>>> document()["M:S"]["c1"]["c2"]
[{'must': {'c2': 'empty'}}, {'must': {'c2': 'enemy'}}]
>>> document()["m:p"]["d4"]
{'d3': [{'must': {'d3': 'empty'}}], 'c3': [{'must': {'c3': 'enemy'}}], 'e3': [{'must': {'e3': 'enemy'}}]}
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final

from ggn.errors import NotationError
from ggn.games._fen import fields, rows, turn_error
from ggn.ruleset import Ruleset
from ggn.variants.pieces import Game, Movement, Piece, Vector, build, ranks

__all__ = ["GAME", "START", "document", "from_fen", "ruleset"]

START: Final = "rnsmk^snr/8/pppppppp/8/8/PPPPPPPP/8/RNSK^MSNR / M/m"
"""The start position in FEEN (the white king on d1, the black one on e8)."""

ORTHOGONAL: Final[tuple[Vector, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: Final[tuple[Vector, ...]] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KNIGHT: Final[tuple[Vector, ...]] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

_KING = Movement(ORTHOGONAL + DIAGONAL)
_MET = Movement(DIAGONAL)
_KHON = Movement(((0, 1), *DIAGONAL))
_HORSE = Movement(KNIGHT)
_BOAT = Movement(ORTHOGONAL, last=None)
_BIA = (
    Movement(((0, 1),), mode="move"),
    Movement(((-1, 1), (1, 1)), mode="capture"),
)

GAME: Final = Game(
    "makruk", files=8, ranks=8, style="M", start=START,
    pieces=(
        Piece("K^", (_KING,)),
        Piece("M", (_MET,)),
        Piece("S", (_KHON,)),
        Piece("N", (_HORSE,)),
        Piece("R", (_BOAT,)),
        Piece("P", _BIA, stands=ranks(8, 3, 4, 5)),
        Piece("+M", (_MET,)),
    ),
)
"""The description the document is made from."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of makruk, as plain JSON-ready values (a new copy)."""
    return build(GAME)


@cache
def ruleset() -> Ruleset:
    """The makruk document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process."""
    return Ruleset.from_value(document())


# --- FEN -----------------------------------------------------------------------------------
# Fairy-Stockfish's letters: k king, m met, s khon, n horse, r boat, p bia; a promoted met
# may carry a "~" (M~), and FEN without it cannot tell a promoted met from a met.
_FEN_RANK = re.compile(r"(?:[1-8]|[kmsnrpKMSNRP]~?)+")
_FEN_TOKEN = re.compile(r"[1-8]|[kmsnrpKMSNRP]~?")


def from_fen(fen: str, promoted: frozenset[str] = frozenset()) -> str:
    """The FEEN of a makruk FEN as Fairy-Stockfish writes it: its placement and side to move
    (``w`` or ``b``); the fields after those two (castling, en passant, counting) are not needed.

    A met marked ``~`` or standing on one of the ``promoted`` squares is a promoted met ``+M``.

    >>> from_fen("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1") == START
    True
    >>> from_fen("4k3/8/3M~4/8/8/8/8/3K4 b - - 0 30")
    '4k^3/8/3+M4/8/8/8/8/3K^4 / m/M'
    >>> from_fen("4k3/8/3M4/8/8/8/8/3KM3 w", promoted=frozenset({"d6"}))
    '4k^3/8/3+M4/8/8/8/8/3K^M3 / M/m'
    >>> from_fen("4k3/8/8/8/8/8/8/3K3 w")
    Traceback (most recent call last):
      ...
    ggn.errors.NotationError: invalid FEN ...: rank 1 '3K3' covers 7 squares, not 8 ...
        4k3/8/8/8/8/8/8/3K3 w
                        ^^^
    """
    placement, turn = fields(fen)
    out: list[str] = []
    for rank, row, span in rows(fen, placement, 8, _FEN_RANK,
                                "piece letters (kmsnrp, KMSNRP, a met possibly marked '~') and digits 1-8"):
        text, gap, file = "", 0, 0
        for token in _FEN_TOKEN.findall(row):
            if token.isdigit():
                gap += int(token)
                file += int(token)
                continue
            letter = token[0]
            square = f"{'abcdefgh'[min(file, 7)]}{rank}"
            if letter in "Mm" and (token.endswith("~") or square in promoted):
                piece = "+" + letter
            elif token.endswith("~"):
                raise NotationError("FEN", fen, f"only a met is promoted in makruk, not {letter!r}", *span)
            else:
                piece = letter + ("^" if letter in "Kk" else "")
            text, gap = text + (str(gap) if gap else "") + piece, 0
            file += 1
        if file != 8:
            raise NotationError("FEN", fen, f"rank {rank} {row!r} covers {file} squares, not 8", *span)
        out.append(text + (str(gap) if gap else ""))
    if turn not in ("w", "b"):
        raise turn_error(fen, placement, turn, "'w' or 'b'")
    return f"{'/'.join(out)} / {'m/M' if turn == 'b' else 'M/m'}"
