"""Shogi, described as data: :data:`VARIANT`, its GGN 1.0.0 document and its SFEN reader.

The description is a :class:`~ggn.variants.description.Variant` (Fairy-Stockfish's shogi: its
pieces in Betza, the promotion zone and promoted forms, drops with captured pieces to hand, the
no-doubled pawn, the pawn-drop mate, no piece left where it could never move again); the
document is made from it by :func:`ggn.variants.document.build`, and
:class:`ggn.rules.variant.VariantRules` plays it.

Conventions: styles ``S/s``, the first player (sente, moving first) writes its pieces in
uppercase and starts on ranks 1 to 3; the second side's frame is the first's rotated. The
king ``K^`` is the terminal piece; the promoted pieces are ``+R`` (dragon), ``+B`` (horse),
and ``+S``, ``+N``, ``+L``, ``+P``, which move as a gold. The dragon and the horse are piece
types of their own too (``D``, ``H``: Fairy-Stockfish's ``d`` and ``h``, which its FEN may
place), which the promoted rook and bishop move as. A captured piece goes into the
capturer's hand demoted and turned to the capturer's side, so a hand holds ``S:P``, ``S:R``,
... (``P``, ``R`` in FEEN) for the first player and ``s:p``, ``s:r``, ... for the second. A
drop is a move from ``*``.

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

from ggn.errors import NotationError, NotationTypeError
from ggn.ruleset import Ruleset
from ggn.variants.betza import PREDEFINED, parse
from ggn.variants.description import Drops, Ends, PieceType, Promotion, Variant
from ggn.variants.document import build, ruleset_of
from ggn.variants.pieces import ranks

__all__ = ["START", "VARIANT", "document", "from_sfen", "ruleset"]

START: Final = "lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s"
"""The start position in FEEN, both hands empty, the first player (sente) to move."""


def _piece(letter: str, name: str) -> PieceType:
    return PieceType(letter, parse(PREDEFINED[name]), betza=PREDEFINED[name], name=name)


VARIANT: Final = Variant(
    "shogi", 9, 9,
    (_piece("k", "king"), _piece("r", "rook"), _piece("b", "bishop"), _piece("g", "gold"),
     _piece("s", "silver"), _piece("n", "shogiKnight"), _piece("l", "lance"), _piece("p", "shogiPawn"),
     _piece("h", "dragonHorse"), _piece("d", "bers")),
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
    style="S",
    # The zone in the board's frame, one a side; no pawn-style promotion, only promoted forms.
    promotion=Promotion((ranks(9, 7, 8, 9), ranks(9, 1, 2, 3)), pawn_types=(frozenset(), frozenset()),
                        choices=((), ()),
                        promoted=(("p", "g"), ("l", "g"), ("n", "g"), ("s", "g"), ("b", "h"), ("r", "d"))),
    drops=Drops(captures_to_hand=True, no_doubled="p", pawn_drop_mate_illegal=True),
    ends=Ends(stalemate="loss"),
    immobility_illegal=True,
    description="Shogi (Japanese chess); repetition (sennichite) and the impasse rules aside.",
)
"""The description of shogi (Fairy-Stockfish's, as its ``[shogi]`` of ``variants.ini`` reads)."""


def document() -> dict[str, Any]:
    """The complete GGN 1.0.0 document of shogi, as plain JSON-ready values (a new copy)."""
    return build(VARIANT)


@cache
def ruleset() -> Ruleset:
    """The shogi document as a validated :class:`~ggn.ruleset.Ruleset`, built once per process
    (it keeps its compiled move generator, so later calls are fast from the first move on)."""
    return ruleset_of(VARIANT)


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
        raise NotationTypeError.of("SFEN", sfen)
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
