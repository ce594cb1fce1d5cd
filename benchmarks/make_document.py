"""A large, valid GGN 1.0.0 document for the benchmarks.

Every move of a queen, rook, bishop and knight of both sides (``C:Q`` ... ``c:n``),
then, to pass 3 MB with real pieces rather than padding, of a king (``C:K^``,
``c:k^``) and of three compound fairy pieces: the amazon (``C:A``, ``c:a``: queen
and knight), the elephant (``C:E``, ``c:e``: rook and knight) and the hawk (``C:H``,
``c:h``: bishop and knight), as Seirawan chess names the last two. Moves go from
every square of an 8x8 board to every square the piece reaches on an empty board.
Each destination has two possibilities: a move (the squares strictly between and
the destination ``"empty"``) and a capture (the squares between ``"empty"``, the
destination ``"enemy"``). A knight or king has no squares between.

Run it to print the document's size, or to write it to a file::

    python -m benchmarks.make_document [PATH]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

__all__ = ["BOARD_FILES", "BOARD_RANKS", "PIECES", "counts", "describe", "serialize", "sliders_document"]

BOARD_FILES = "abcdefgh"
BOARD_RANKS = 8

Step = tuple[int, int]
Ray = list[tuple[int, int]]

_ORTHOGONAL: tuple[Step, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL: tuple[Step, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT: tuple[Step, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

# How each piece moves: its sliding directions (any distance) and its leaps (one step).
_MOVES: dict[str, tuple[tuple[Step, ...], tuple[Step, ...]]] = {
    "Q": (_ORTHOGONAL + _DIAGONAL, ()),
    "R": (_ORTHOGONAL, ()),
    "B": (_DIAGONAL, ()),
    "N": ((), _KNIGHT),
    "K": ((), _ORTHOGONAL + _DIAGONAL),
    "A": (_ORTHOGONAL + _DIAGONAL, _KNIGHT),
    "E": (_ORTHOGONAL, _KNIGHT),
    "H": (_DIAGONAL, _KNIGHT),
}

#: The pieces of the document, in order, with the movement of each (a key of ``_MOVES``).
PIECES: dict[str, str] = {
    "C:Q": "Q",
    "C:R": "R",
    "C:B": "B",
    "C:N": "N",
    "c:q": "Q",
    "c:r": "R",
    "c:b": "B",
    "c:n": "N",
    "C:K^": "K",
    "c:k^": "K",
    "C:A": "A",
    "c:a": "A",
    "C:E": "E",
    "c:e": "E",
    "C:H": "H",
    "c:h": "H",
}


def _square(file: int, rank: int) -> str:
    return f"{BOARD_FILES[file]}{rank + 1}"


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < len(BOARD_FILES) and 0 <= rank < BOARD_RANKS


def _paths(file: int, rank: int, movement: str) -> Iterator[Ray]:
    """Every reachable destination from a square, as the path to it (destination last)."""
    slides, leaps = _MOVES[movement]
    for df, dr in slides:
        path: Ray = []
        f, r = file + df, rank + dr
        while _on_board(f, r):
            path.append((f, r))
            yield list(path)
            f, r = f + df, r + dr
    for df, dr in leaps:
        if _on_board(file + df, rank + dr):
            yield [(file + df, rank + dr)]


def _possibilities(path: Ray) -> list[dict[str, dict[str, str]]]:
    between = {_square(f, r): "empty" for f, r in path[:-1]}
    destination = _square(*path[-1])
    return [
        {"must": {**between, destination: "empty"}},
        {"must": {**between, destination: "enemy"}},
    ]


def sliders_document(pieces: Sequence[str] | None = None) -> dict[str, Any]:
    """The benchmark document, for ``pieces`` (QPI keys of :data:`PIECES`; all by default).

    >>> doc = sliders_document(["C:R"])
    >>> len(doc["C:R"]), len(doc["C:R"]["a1"])
    (64, 14)
    >>> move, capture = doc["C:R"]["a1"]["a4"]
    >>> move
    {'must': {'a2': 'empty', 'a3': 'empty', 'a4': 'empty'}}
    >>> capture
    {'must': {'a2': 'empty', 'a3': 'empty', 'a4': 'enemy'}}
    >>> sliders_document(["C:N"])["C:N"]["a1"]["b3"]
    [{'must': {'b3': 'empty'}}, {'must': {'b3': 'enemy'}}]
    """
    document: dict[str, Any] = {}
    for piece in PIECES if pieces is None else pieces:
        movement = PIECES[piece]
        sources: dict[str, Any] = {}
        for rank in range(BOARD_RANKS):
            for file in range(len(BOARD_FILES)):
                sources[_square(file, rank)] = {
                    _square(*path[-1]): _possibilities(path) for path in _paths(file, rank, movement)
                }
        document[piece] = sources
    return document


def serialize(document: dict[str, Any]) -> bytes:
    """The document as the benchmarks read it: UTF-8 JSON, indented by two spaces."""
    return json.dumps(document, indent=2).encode("utf-8")


def counts(document: dict[str, Any]) -> dict[str, int]:
    """How many pieces, sources, destinations and possibilities the document holds."""
    sources = destinations = possibilities = 0
    for piece_sources in document.values():
        sources += len(piece_sources)
        for source_destinations in piece_sources.values():
            destinations += len(source_destinations)
            possibilities += sum(len(ways) for ways in source_destinations.values())
    return {
        "pieces": len(document),
        "sources": sources,
        "destinations": destinations,
        "possibilities": possibilities,
    }


def describe(document: dict[str, Any], data: bytes) -> str:
    """One line: what the document holds and its size."""
    held = ", ".join(f"{count} {what}" for what, count in counts(document).items())
    return f"{held}; {len(data) / 1e6:.2f} MB ({len(data)} bytes) as JSON"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("path", nargs="?", type=Path, help="write the document there")
    args = parser.parse_args(argv)
    document = sliders_document()
    data = serialize(document)
    print(describe(document, data))
    if args.path is not None:
        args.path.parent.mkdir(parents=True, exist_ok=True)
        args.path.write_bytes(data)
        print(f"written to {args.path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
