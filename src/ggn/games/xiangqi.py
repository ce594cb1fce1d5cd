"""Xiangqi (Chinese chess) as a GGN 1.0.0 document, made from a few movement descriptions.

Board: 9 files (``a`` to ``i``) by 10 ranks, red (the first player, style ``X``) on ranks 1
to 5, black (``x``) on ranks 6 to 10; the second side's frame is the first's mirrored. Pieces:
``G^`` general (the terminal piece), ``A`` advisor, ``E`` elephant, ``H`` horse, ``R``
chariot, ``C`` cannon, ``P`` soldier. No piece has a state (``+`` or ``-``).

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

What GGN cannot say is left to a rule system: check and the facing generals as legality, and
the end of the game (no legal move loses; repetition rules).

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
from functools import cache
from typing import Any, Final

from ggn.errors import NotationError
from ggn.games._fen import fields, rows, turn_error
from ggn.ruleset import Ruleset
from ggn.variants.pieces import Game, Movement, Piece, Vector, build, ranks, squares

__all__ = ["GAME", "START", "document", "from_fen", "ruleset"]

START: Final = "rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x"
"""The start position in FEEN."""

ORTHOGONAL: Final[tuple[Vector, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: Final[tuple[Vector, ...]] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KNIGHT: Final[tuple[Vector, ...]] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
ELEPHANT: Final[tuple[Vector, ...]] = ((2, 2), (2, -2), (-2, -2), (-2, 2))

FILES: Final = 9
PALACE: Final = squares("d1", "e1", "f1", "d2", "e2", "f2", "d3", "e3", "f3")
"""The squares of a side's palace, in its own frame."""
ENEMY_PALACE: Final = squares("d8", "e8", "f8", "d9", "e9", "f9", "d10", "e10", "f10")
"""The opponent's palace, in the moving side's frame: where the facing general stands."""
OWN_SIDE: Final = ranks(FILES, 1, 2, 3, 4, 5)
"""A side's own half of the board, up to the river."""
ACROSS: Final = ranks(FILES, 6, 7, 8, 9, 10)
"""The far side of the river, in the moving side's frame."""

_GENERAL = (
    Movement(ORTHOGONAL, within=PALACE),
    # The facing generals, as a capture along the open file.
    Movement(((0, 1),), last=None, mode="capture", target="g^", within=ENEMY_PALACE),
)
_ADVISOR = Movement(DIAGONAL, within=PALACE)
_ELEPHANT = Movement(ELEPHANT, lame=True, within=OWN_SIDE)
_HORSE = Movement(KNIGHT, lame=True)
_CHARIOT = Movement(ORTHOGONAL, last=None)
_CANNON = (
    Movement(ORTHOGONAL, last=None, mode="move"),
    Movement(ORTHOGONAL, last=None, mode="capture", hops=1),
)
_SOLDIER = (
    Movement(((0, 1),)),
    Movement(((-1, 0), (1, 0)), sources=ACROSS),
)

GAME: Final = Game(
    "xiangqi", files=FILES, ranks=10, style="X", start=START,
    pieces=(
        Piece("G^", _GENERAL, stands=PALACE),
        Piece("A", (_ADVISOR,), stands=PALACE),
        Piece("E", (_ELEPHANT,), stands=OWN_SIDE),
        Piece("H", (_HORSE,)),
        Piece("R", (_CHARIOT,)),
        Piece("C", _CANNON),
        # A soldier never steps back: it stands from its start rank on.
        Piece("P", _SOLDIER, stands=ranks(FILES, 4, 5) | ACROSS),
    ),
)
"""The description the document is made from."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of xiangqi, as plain JSON-ready values (a new copy)."""
    return build(GAME)


@cache
def ruleset() -> Ruleset:
    """The xiangqi document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process."""
    return Ruleset.from_value(document())


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
