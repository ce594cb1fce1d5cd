"""Shogi as a GGN 1.0.0 document, made from the shared piece description.

Conventions: styles ``S/s``, the first player (sente, moving first) writes its pieces in
uppercase and starts on ranks 1 to 3; the second side's frame is the first's rotated. The
king ``K^`` is the terminal piece; the promoted pieces are ``+R`` (dragon), ``+B`` (horse),
and ``+S``, ``+N``, ``+L``, ``+P``, which move as a gold. No other state is used. A captured
piece goes unchanged into the capturer's hand; the rule system then turns it into the
capturer's unpromoted piece, so a hand holds ``S:P``, ``S:R``, ... (``P``, ``R`` in FEEN) for
the first player and ``s:p``, ``s:r``, ... for the second. A drop is a move from ``*``.

The document says: drops only onto empty squares; no pawn drop on a file that holds the
dropper's own unpromoted pawn (a ``deny`` listing that pawn on every other square of the
file); no pawn or lance on the last rank, no knight on the last two, neither as a source nor
as a drop. A move *into* those ranks is listed (``S:P`` from ``e8`` to ``e9``): the rule system
completes it with the forced promotion. The promotion zone is the last three ranks, and the
choice to promote, check, and the pawn-drop mate are the rule system's.

>>> from ggn.position import Position
>>> len(ruleset().moves(Position.from_feen(START)))
30
>>> document()["S:P"]["*"]["e5"]
[{'must': {'e5': 'empty'}, 'deny': {'e1': 'S:P', 'e2': 'S:P', 'e3': 'S:P', 'e4': 'S:P', \
'e6': 'S:P', 'e7': 'S:P', 'e8': 'S:P', 'e9': 'S:P'}}]
>>> sorted(document()["s:n"]["c3"])
['b1', 'd1']
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final

from ggn.errors import NotationError
from ggn.ruleset import Ruleset
from ggn.variants.pieces import Drop, Game, Movement, Piece, Vector, build, ranks

__all__ = ["GAME", "START", "document", "from_sfen", "ruleset"]

START: Final = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
"""The start position in FEEN, both hands empty, the first player (sente) to move."""

ORTHOGONAL: Final[tuple[Vector, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: Final[tuple[Vector, ...]] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
GOLD: Final[tuple[Vector, ...]] = ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1))
SILVER: Final[tuple[Vector, ...]] = ((-1, 1), (0, 1), (1, 1), (-1, -1), (1, -1))
KNIGHT: Final[tuple[Vector, ...]] = ((-1, 2), (1, 2))

_GOLD = Movement(GOLD)
_ROOK = Movement(ORTHOGONAL, last=None)
_BISHOP = Movement(DIAGONAL, last=None)
# Where a piece that only goes forward can still move from: not the last rank (pawn, lance),
# not the last two (knight). It is dropped only there too.
_UP_TO_8 = ranks(9, *range(1, 9))
_UP_TO_7 = ranks(9, *range(1, 8))

GAME: Final = Game(
    "shogi", files=9, ranks=9, style="S", start=START, frame="rotate",
    pieces=(
        Piece("K^", (Movement(ORTHOGONAL + DIAGONAL),)),
        Piece("R", (_ROOK,), drop=Drop()),
        Piece("B", (_BISHOP,), drop=Drop()),
        Piece("G", (_GOLD,), drop=Drop()),
        Piece("S", (Movement(SILVER),), drop=Drop()),
        Piece("N", (Movement(KNIGHT),), stands=_UP_TO_7, drop=Drop()),
        Piece("L", (Movement(((0, 1),), last=None),), stands=_UP_TO_8, drop=Drop()),
        Piece("P", (Movement(((0, 1),)),), stands=_UP_TO_8, drop=Drop(file_deny="P")),
        Piece("+R", (_ROOK, Movement(DIAGONAL))),
        Piece("+B", (_BISHOP, Movement(ORTHOGONAL))),
        Piece("+S", (_GOLD,)),
        Piece("+N", (_GOLD,)),
        Piece("+L", (_GOLD,)),
        Piece("+P", (_GOLD,)),
    ),
)
"""The description the document is made from."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of shogi, as plain JSON-ready values (a new copy)."""
    return build(GAME)


@cache
def ruleset() -> Ruleset:
    """The shogi document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process
    (it keeps its compiled move generator, so later calls are fast from the first move on)."""
    return Ruleset.from_value(document())


# --- SFEN ----------------------------------------------------------------------------------
_SFEN_RANK = re.compile(r"(?:[1-9]|\+?[PLNSBRplnsbr]|[GKgk])+")
_SFEN_HAND = re.compile(r"-|(?:(?:[2-9]|1[0-8]?)?[RBGSNLPrbgsnlp])+")
_SFEN_HAND_ITEM = re.compile(r"([0-9]*)([A-Za-z])")
_SFEN_COUNTER = re.compile(r"[1-9][0-9]*")


def _sfen_error(text: str, fields: list[str], number: int, reason: str) -> NotationError:
    start = sum(len(field) + 1 for field in fields[:number])
    return NotationError("SFEN", text, reason, start, start + len(fields[number]))


def _hand(held: dict[str, int]) -> str:
    # FEEN's canonical order: count descending, then the letter.
    items = sorted(held.items(), key=lambda item: (-item[1], item[0]))
    return "".join((str(count) if count > 1 else "") + letter for letter, count in items)


def from_sfen(sfen: str) -> str:
    """The FEEN of a shogi SFEN (as python-shogi or a USI engine writes it; the move number
    may be left out).

    SFEN writes the top rank first with file 9 on the left, as FEEN writes rank 9 first with
    file ``a`` on the left: square ``9a`` is ``a9``, ``1i`` is ``i1``. Kings gain the terminal
    mark ``^``; ``b`` (sente) to move is ``S/s``, ``w`` is ``s/S``.

    >>> from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1") == START
    True
    >>> from_sfen("8k/9/9/9/4+p4/9/9/9/K8 w RB2Pb3p 40")
    '8k^/9/9/9/4+p4/9/9/9/K^8 2PBR/3pb s/S'
    >>> from_sfen("9/9/9/9/9/9/9/9/9 b 2Q")
    Traceback (most recent call last):
      ...
    ggn.errors.NotationError: invalid SFEN ...: a hand is '-' or counts and letters of RBGSNLP ...
        9/9/9/9/9/9/9/9/9 b 2Q
                            ^^
    """
    if not isinstance(sfen, str):
        raise NotationError("SFEN", repr(sfen), f"expected a string, got {type(sfen).__name__}")
    fields = sfen.split(" ")
    if len(fields) not in (3, 4):
        raise NotationError("SFEN", sfen, "expected 3 or 4 fields separated by single spaces: "
                                          "placement, side to move, hands[, move number]")
    placement, turn, hands = fields[:3]
    rows = placement.split("/")
    if len(rows) != 9:
        raise _sfen_error(sfen, fields, 0, f"expected 9 ranks separated by '/', got {len(rows)}")
    rows_out: list[str] = []
    for row_number, row in enumerate(rows):
        name = "abcdefghi"[row_number]
        if not _SFEN_RANK.fullmatch(row):
            raise _sfen_error(sfen, fields, 0, f"rank {name} {row!r} is not made of piece letters "
                                               "(plnsgbrk, PLNSGBRK, '+' before plnsbr or PLNSBR) "
                                               "and digits 1-9")
        covered = sum(int(ch) if ch.isdigit() else ch != "+" for ch in row)
        if covered != 9:
            raise _sfen_error(sfen, fields, 0, f"rank {name} {row!r} covers {covered} squares, not 9")
        rows_out.append(re.sub(r"[1-9]+", lambda run: str(sum(map(int, run[0]))),
                               row.replace("K", "K^").replace("k", "k^")))
    if turn not in ("b", "w"):
        raise _sfen_error(sfen, fields, 1, f"the side to move is 'b' (sente) or 'w' (gote), not {turn!r}")
    if not _SFEN_HAND.fullmatch(hands):
        raise _sfen_error(sfen, fields, 2, f"a hand is '-' or counts and letters of RBGSNLP "
                                           f"(rbgsnlp for gote), not {hands!r}")
    held: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for count, letter in _SFEN_HAND_ITEM.findall("" if hands == "-" else hands):
        player = held[letter.islower()]
        if letter in player:
            raise _sfen_error(sfen, fields, 2, f"the hand names {letter!r} twice in {hands!r}")
        player[letter] = int(count or 1)
    if len(fields) == 4 and not _SFEN_COUNTER.fullmatch(fields[3]):
        raise _sfen_error(sfen, fields, 3, f"the move number is a positive number without leading "
                                           f"zeros, not {fields[3]!r}")
    return f"{'/'.join(rows_out)} {_hand(held[0])}/{_hand(held[1])} {'S/s' if turn == 'b' else 's/S'}"
