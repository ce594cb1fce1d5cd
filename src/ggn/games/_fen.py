"""What the FEN readers of the games share: the two fields they read, and the ranks of the
placement with where each stands in the text, so that every error points at its field.

>>> fen = "4k3/8/8/8/8/8/8/3K4 w - - 0 1"
>>> placement, turn = fields(fen)
>>> turn
'w'
>>> list(rows(fen, placement, 8, re.compile("[1-8kK]+"), "k, K"))[-1]
(1, '3K4', (16, 19))
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ggn.errors import NotationError, NotationTypeError

__all__ = ["fields", "rows", "turn_error"]


def fields(fen: object) -> tuple[str, str]:
    """The placement and the side to move of a FEN (later fields are not read)."""
    if not isinstance(fen, str):
        raise NotationTypeError.of("FEN", fen)
    parts = fen.split(" ")
    if len(parts) < 2:
        raise NotationError("FEN", fen, "expected the placement and the side to move, separated by a space")
    return parts[0], parts[1]


def rows(
    fen: str, placement: str, count: int, pattern: re.Pattern[str], letters: str
) -> Iterator[tuple[int, str, tuple[int, int]]]:
    """Each rank of ``placement``, the top one first: its number, its text and its span in
    ``fen``. ``count`` ranks are expected, each matching ``pattern`` (``letters`` names what it
    allows, for the message)."""
    texts = placement.split("/")
    if len(texts) != count:
        raise NotationError("FEN", fen, f"expected {count} ranks separated by '/', got {len(texts)}", 0,
                            len(placement))
    start = 0
    for number, row in enumerate(texts):
        rank = count - number
        span = (start, start + len(row))
        start += len(row) + 1
        if not pattern.fullmatch(row):
            raise NotationError("FEN", fen, f"rank {rank} {row!r} is not made of {letters}", *span)
        yield rank, row, span


def turn_error(fen: str, placement: str, turn: str, allowed: str) -> NotationError:
    """The error of a side to move that is not one of ``allowed`` (quoted in the message)."""
    return NotationError("FEN", fen, f"the side to move is {allowed}, not {turn!r}",
                         len(placement) + 1, len(placement) + 1 + len(turn))
