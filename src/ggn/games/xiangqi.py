"""Xiangqi (Chinese chess), described as data: :data:`VARIANT`, its GGN 1.0.0 document and its
FEN reader.

The description is a :class:`~ggn.variants.description.Variant` (Fairy-Stockfish's xiangqi:
its pieces in Betza, the palace and the river as the squares a piece may stand on, the
soldier's sideways steps past the river, the flying general); the document is made from it by
:func:`ggn.variants.document.build`, and :class:`ggn.rules.variant.VariantRules` plays it.

Board: 9 files (``a`` to ``i``) by 10 ranks, red (the first player, style ``X``) on ranks 1
to 5, black (``x``) on ranks 6 to 10. Pieces: ``G^`` general (the terminal piece), ``A``
advisor, ``E`` elephant, ``H`` horse, ``R`` chariot, ``C`` cannon, ``P`` soldier: the GGN
letters, where Fairy-Stockfish's FEN writes ``k``, ``a``, ``b``, ``n``, ``r``, ``c``, ``p``
(``PieceType.pin``). No piece has a state (``+`` or ``-``).

What the document says:

- the general and the advisors stand and move in their palace (files d to f, their first
  three ranks); the elephant on its own side of the river (its first five ranks);
- the horse's leg and the elephant's eye, the square half-way along their leap, must be empty;
- the cannon moves like the chariot onto empty squares and captures by jumping exactly one
  piece of either side: that screen square is ``deny {square: "empty"}``, every other square
  between is ``must empty``, one possibility for each place of the screen;
- the soldier steps forward, and sideways too from the far side of the river;
- the generals facing each other on an open file: the general's capture of the enemy general
  along the file (the squares between empty, the destination the enemy general). It is
  pseudo-legal; the legality rule (no move that lets the opponent take a ``^`` piece) makes
  facing generals illegal with no special case.

What GGN cannot say is left to the rule system: check and the facing generals as legality, and
the end of the game (no legal move loses; the repetition rules are not covered).

>>> from ggn.position import Position
>>> len(ruleset().moves(Position.from_feen(START)))
44
>>> document()["X:H"]["b1"]["c3"]
[{'must': {'b2': 'empty', 'c3': 'empty'}}, {'must': {'b2': 'empty', 'c3': 'enemy'}}]
>>> document()["X:C"]["b3"]["b6"]
[{'must': {'b4': 'empty', 'b5': 'empty', 'b6': 'empty'}}, {'must': {'b5': 'empty', 'b6': 'enemy'}, \
'deny': {'b4': 'empty'}}, {'must': {'b4': 'empty', 'b6': 'enemy'}, 'deny': {'b5': 'empty'}}]
>>> document()["X:G^"]["e1"]["e10"][0]["must"]["e10"]
'x:g^'
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import Any, Final

from ggn.errors import NotationError
from ggn.games._fen import fields, rows, turn_error
from ggn.ruleset import Ruleset
from ggn.variants.betza import PREDEFINED, parse
from ggn.variants.description import Ends, PieceType, Variant
from ggn.variants.document import build, ruleset_of
from ggn.variants.pieces import ranks, squares

__all__ = ["START", "VARIANT", "document", "from_fen", "ruleset"]

START: Final = "rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x"
"""The start position in FEEN."""

FILES: Final = 9
PALACE: Final = squares("d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3")
"""The squares of a side's palace, in its own frame."""
OWN_SIDE: Final = ranks(FILES, 1, 2, 3, 4, 5)
"""A side's own half of the board, up to the river."""
ACROSS: Final = ranks(FILES, 6, 7, 8, 9, 10)
"""The far side of the river, in the moving side's frame."""


def _piece(letter: str, name: str, betza: str | None = None, **options: Any) -> PieceType:
    text = PREDEFINED[name] if betza is None else betza
    return PieceType(letter, parse(text), betza=text, name=name, **options)


# The soldier steps forward, and sideways from across the river on (Fairy-Stockfish's soldier
# with its soldierPromotionRank at 6).
_SOLDIER = (*parse("fW"), *(replace(movement, sources=ACROSS) for movement in parse("sW")))

VARIANT: Final = Variant(
    "xiangqi", FILES, 10,
    (_piece("k", "king", "W", pin="G", stands=PALACE), _piece("a", "fers", stands=PALACE),
     _piece("b", "elephant", pin="E", synonym="e", stands=OWN_SIDE),
     _piece("n", "horse", pin="H", synonym="h"), _piece("r", "rook"), _piece("c", "cannon"),
     PieceType("p", _SOLDIER, betza="fsW", name="soldier")),
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    style="X",
    ends=Ends(stalemate="loss"),
    flying_general=True,
    description="Xiangqi (Chinese chess); the repetition and chasing rules aside.",
)
"""The description of xiangqi (Fairy-Stockfish's, as its ``[xiangqi]`` of ``variants.ini`` reads)."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of xiangqi, as plain JSON-ready values (a new copy)."""
    return build(VARIANT)


@cache
def ruleset() -> Ruleset:
    """The xiangqi document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process."""
    return ruleset_of(VARIANT)


# --- FEN -----------------------------------------------------------------------------------
# Both letter sets in use: the WXF's (h horse, e elephant) and the older chess-like one
# (n horse, b elephant); k is the general either way.
_PIECES: Final = {"k": "g^", "a": "a", "e": "e", "b": "e", "h": "h", "n": "h", "r": "r", "c": "c", "p": "p"}
_FEN_RANK = re.compile(r"[1-9kaebhnrcpKAEBHNRCP]+")


def from_fen(fen: str) -> str:
    """The FEEN of a xiangqi FEN: its placement (ten ranks, the tenth first) and the side to move
    (``w`` or ``r`` for red, ``b`` for black); the fields after those two are not needed.

    >>> from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1") == START
    True
    >>> from_fen("4k4/9/9/9/9/9/9/9/4A4/3K5 b")
    '4g^4/9/9/9/9/9/9/9/4A4/3G^5 / x/X'
    >>> from_fen("4k4/9/9/9/9/9/9/9/9/3K4 w")
    Traceback (most recent call last):
      ...
    ggn.errors.NotationError: invalid FEN ...: rank 1 '3K4' covers 8 squares, not 9 ...
        4k4/9/9/9/9/9/9/9/9/3K4 w
                            ^^^
    """
    placement, turn = fields(fen)
    out: list[str] = []
    for rank, row, span in rows(fen, placement, 10, _FEN_RANK,
                                "piece letters (kaebhnrcp, KAEBHNRCP) and digits 1-9"):
        covered, tokens = 0, []
        for ch in row:
            if ch.isdigit():
                covered += int(ch)
                tokens.append(ch)
            else:
                covered += 1
                token = _PIECES[ch.lower()]
                tokens.append(token.upper() if ch.isupper() else token)
        if covered != FILES:
            raise NotationError("FEN", fen, f"rank {rank} {row!r} covers {covered} squares, not {FILES}",
                                *span)
        out.append(_merge_gaps(tokens))
    if turn not in ("w", "r", "b"):
        raise turn_error(fen, placement, turn, "'w' (or 'r') or 'b'")
    return f"{'/'.join(out)} / {'x/X' if turn == 'b' else 'X/x'}"


def _merge_gaps(tokens: list[str]) -> str:
    """A FEEN rank from piece tokens and digit runs, adjacent gaps added up (``1`` ``2`` -> ``3``)."""
    row, gap = "", 0
    for token in tokens:
        if token.isdigit():
            gap += int(token)
            continue
        row += (str(gap) if gap else "") + token
        gap = 0
    return row + (str(gap) if gap else "")
