"""The checks each player has left, in the FEN of a game that counts checks.

Fairy-Stockfish's ``checkCounting`` (3check, 5check, checkshogi, karouk): a player who has
given its number of checks wins. Its FEN holds the checks each player has *left*, white's
first, as one field after the en passant field (``3+3``); it also reads lichess's form, the
checks *given*, as a field after the move counters (``+1+0``, read as ``3 - n`` left, whatever
the game's own number), which wins over the first; and a FEN with neither is read as ``1+1``:
the next check wins. Each count is one digit, as Fairy-Stockfish reads one character.

The counts follow from the plays, so they are a game's, not a position's (FEEN has no field for
them): :class:`ggn.game.Game` reads them with :func:`read` and writes them back. A FEN that
stands for a position alone must hold the counts of the game's start (:func:`start`), which
:func:`ggn.variants.fen.to_feen` checks and :func:`ggn.variants.fen.from_feen` writes.
"""

from __future__ import annotations

import re
from typing import Final

from ggn.variants.description import Variant

__all__ = ["Counts", "at", "field", "given", "read", "start", "written"]

Counts = tuple[int, int]
"""The checks left to give: the first player's (white's), the second's."""

FIELD: Final = re.compile(r"([0-9])\+([0-9])")
"""The checks left, as Fairy-Stockfish writes them after the en passant field."""
GIVEN: Final = re.compile(r"\+([0-9])\+([0-9])")
"""lichess's checks given, after the move counters."""
_UNKNOWN: Final = (1, 1)  # Fairy-Stockfish's reading of a FEN without counts: the next check wins


def at(fields: list[str]) -> int:
    """Where the checks' field stands, or would stand, in a FEN's fields: after the castling
    and en passant fields, or right after the side to move when the FEN has neither (a shogi
    FEN's ``w 0 1``)."""
    return 4 if len(fields) > 2 and fields[2][:1] and not fields[2][0].isdigit() else 2


def field(fields: list[str]) -> int | None:
    """The index of the field holding the checks left (any text with ``+`` where they stand), or
    None."""
    number = at(fields)
    return number if number < len(fields) and "+" in fields[number] else None


def given(fields: list[str]) -> int | None:
    """The index of a last field of lichess's checks given (``+1+0``, after the counters), or None."""
    last = len(fields) - 1
    return last if last > at(fields) and fields[last].startswith("+") else None


def read(fen: str) -> tuple[Counts, str]:
    """The checks left that Fairy-Stockfish reads in a FEN, and the FEN without them (neither
    the field nor lichess's). A count that is not one digit is left in the FEN, for the FEN
    reader to refuse."""
    fields = fen.split(" ")
    found: list[Counts] = []
    lichess = given(fields)
    if lichess is not None:
        match = GIVEN.fullmatch(fields[lichess])
        if match is not None:  # read last by Fairy-Stockfish: it wins
            found.append((max(3 - int(match[1]), 0), max(3 - int(match[2]), 0)))
            del fields[lichess]
    number = field(fields)
    if number is not None:
        match = FIELD.fullmatch(fields[number])
        if match is not None:
            found.append((int(match[1]), int(match[2])))
            del fields[number]
    return (found[0] if found else _UNKNOWN), " ".join(fields)


def start(variant: Variant) -> Counts:
    """The checks each player has left at the game's start: those of its start FEN."""
    return read(variant.start)[0]


def written(fen: str, counts: Counts) -> str:
    """``fen`` (a FEN without checks, as :func:`read` leaves it, of castling and en passant
    fields) with the checks left written where Fairy-Stockfish writes them: before the
    counters."""
    fields = fen.split(" ")
    fields.insert(at(fields), f"{counts[0]}+{counts[1]}")
    return " ".join(fields)
