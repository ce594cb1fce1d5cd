"""Makruk (Thai chess), described as data: :data:`VARIANT`, its GGN 1.0.0 document and its FEN
reader.

The description is a :class:`~ggn.variants.description.Variant` (Fairy-Stockfish's makruk: its
pieces in Betza, the bia's promotion to a met on its sixth rank); the document is made from it
by :func:`ggn.variants.document.build`, and :class:`ggn.rules.variant.VariantRules` plays it.

Board: 8 x 8, white (the first player, style ``M``) on ranks 1 to 3, black (``m``) on ranks
6 to 8; the second side's frame is the first's turned. Pieces: ``K^`` king (the terminal
piece; one step any way), ``M`` met (one diagonal step), ``S`` khon (one step diagonally or
straight forward), ``N`` horse (the knight's leap), ``R`` boat (the rook), ``P`` bia (a pawn:
one step forward onto an empty square, captures one step diagonally forward). A bia reaching
its sixth rank becomes a met, always: a met like any other (``M``), as Fairy-Stockfish's FEN
writes it. No castling and no double step, so no state.

The bia does not stand on its sixth to eighth ranks: the document lists its step onto the
sixth, and the rule system turns it there into a met. Check, the end of the game (no legal
move: a loss in check, else a draw) are the rule system's; the counting rules are not covered.

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
from ggn.variants.betza import PREDEFINED, parse
from ggn.variants.description import PieceType, Promotion, Variant
from ggn.variants.document import build, ruleset_of
from ggn.variants.pieces import ranks

__all__ = ["START", "VARIANT", "document", "from_fen", "ruleset"]

START: Final = "rnsmk^snr/8/pppppppp/8/8/PPPPPPPP/8/RNSK^MSNR / M/m"
"""The start position in FEEN (the white king on d1, the black one on e8)."""


def _piece(letter: str, name: str) -> PieceType:
    return PieceType(letter, parse(PREDEFINED[name]), betza=PREDEFINED[name], name=name)


VARIANT: Final = Variant(
    "makruk", 8, 8,
    (_piece("k", "king"), _piece("m", "fers"), _piece("s", "silver"), _piece("n", "knight"),
     _piece("r", "rook"), _piece("p", "pawn")),
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    style="M",
    # The bia's zone in the board's frame, one a side: its sixth rank on.
    promotion=Promotion((ranks(8, 6, 7, 8), ranks(8, 1, 2, 3)), choices=(("m",), ("m",))),
    description="Makruk (Thai chess); the counting rules aside.",
)
"""The description of makruk (Fairy-Stockfish's, as its ``[makruk]`` of ``variants.ini`` reads)."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of makruk, as plain JSON-ready values (a new copy)."""
    return build(VARIANT)


@cache
def ruleset() -> Ruleset:
    """The makruk document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process."""
    return ruleset_of(VARIANT)


# --- FEN -----------------------------------------------------------------------------------
# Fairy-Stockfish's letters: k king, m met, s khon, n horse, r boat, p bia. A met promoted from a
# bia is a met like any other; a "~" after it (M~, as some writers mark one) is read and dropped.
_FEN_RANK = re.compile(r"(?:[1-8]|[kmsnrpKMSNRP]~?)+")
_FEN_TOKEN = re.compile(r"[1-8]|[kmsnrpKMSNRP]~?")


def from_fen(fen: str) -> str:
    """The FEEN of a makruk FEN as Fairy-Stockfish writes it: its placement and side to move
    (``w`` or ``b``); the fields after those two (castling, en passant, counting) are not needed.

    >>> from_fen("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1") == START
    True
    >>> from_fen("4k3/8/3M~4/8/8/8/8/3K4 b - - 0 30")
    '4k^3/8/3M4/8/8/8/8/3K^4 / m/M'
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
            if token.endswith("~") and letter not in "Mm":
                raise NotationError("FEN", fen, f"only a met is promoted in makruk, not {letter!r}", *span)
            piece = letter + ("^" if letter in "Kk" else "")
            text, gap = text + (str(gap) if gap else "") + piece, 0
            file += 1
        if file != 8:
            raise NotationError("FEN", fen, f"rank {rank} {row!r} covers {file} squares, not 8", *span)
        out.append(text + (str(gap) if gap else ""))
    if turn not in ("w", "b"):
        raise turn_error(fen, placement, turn, "'w' or 'b'")
    return f"{'/'.join(out)} / {'m/M' if turn == 'b' else 'M/m'}"
