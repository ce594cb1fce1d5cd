"""Board pictures for the terminal: a :class:`~ggn.position.Position` as Unicode text.

:func:`board` writes the board a rank a line, the highest rank first (the lowest with
``flipped``), with the ranks' numbers on the left and the files' names below (CELL names:
``a`` to ``z``, then ``aa``, ...); a 3D board as its layers side by side, each headed by its
letter. Each piece is written as FEEN writes it, with the marks of its state (``+`` before,
``^`` and ``'`` after); a piece of the ``chess`` family has its figure (``♔`` for the first
player's king, ``♚`` for the second's) in place of its letter. An empty square is ``·``,
a hole (not part of the board) is blank. The hands are written above and below the board,
beside the player each belongs to (as FEEN writes them: ``2P`` for two ``P``), and the last
line says who is to move.

Highlighted squares are written between brackets; with ``colour=True`` the squares are
coloured as well, with ANSI escape codes (for a terminal: ``ggn show`` asks for colour when
its output is one).

>>> from ggn.position import Position
>>> print(board(Position.from_feen("k^1K^/3 / C/c")))
   second: -
2  ♚^  ·   ♔^
1  ·   ·   ·
   a   b   c
   first: -
first to move
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from ggn._types import Side, expect
from ggn.cell import Cell
from ggn.errors import GGNError
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.svg import HIGHLIGHT, MAX_DRAWN_SQUARES, TARGET, family_of

__all__ = ["board"]

_FIGURES: Final[Mapping[str, str]] = {
    "K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
    "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
}
_EMPTY: Final = "·"
# ANSI 256-colour backgrounds of the squares and foregrounds of the pieces.
_LIGHT_SQUARE: Final = 180
_DARK_SQUARE: Final = 137
_HOLE: Final = 0
_FIRST_PIECE: Final = 231
_SECOND_PIECE: Final = 16
_NAMED: Final[Mapping[str, int]] = {HIGHLIGHT.lower(): 220, TARGET.lower(): 74}
_RESET: Final = "\x1b[0m"


def _parts(piece: Qpi, families: Mapping[str, str] | None,
           aliases: Mapping[str, str] | None = None) -> tuple[str, str, str]:
    """The piece as FEEN writes it (its EPIN), in three parts: the state's mark, the letter
    (its figure for the chess family, by its alias if it has one) and the marks after it."""
    letter = piece.pin.letter
    if family_of(piece, families) == "chess":
        key = (aliases or {}).get(f"{piece.sin.style}:{piece.name}", piece.name)
        key = key if piece.side == "first" else key.lower()
        letter = _FIGURES.get(key, letter)
    prefix = {"enhanced": "+", "diminished": "-"}.get(piece.state, "")
    return prefix, letter, ("^" if piece.terminal else "") + ("'" if piece.derived else "")


def _hand_line(position: Position, player: Side, families: Mapping[str, str] | None,
               aliases: Mapping[str, str] | None) -> str:
    held = position.feen().hand(player)
    items = [(f"{count}" if count > 1 else "") + "".join(_parts(piece, families, aliases))
             for piece, count in held.items()]
    return f"{player}: {' '.join(items) if items else '-'}"


def board(
    position: Position,
    *,
    highlight: Iterable[Cell | str] | Mapping[Cell | str, str] = (),
    coordinates: bool = True,
    flipped: bool = False,
    colour: bool = False,
    hands: bool = True,
    holes: Iterable[Cell | str] = (),
    families: Mapping[str, str] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> str:
    """The Unicode text picture of ``position`` (lines joined by ``\\n``, no final newline).

    ``highlight``: squares written between brackets (and, with ``colour``, filled with their
    colour: :data:`ggn.svg.HIGHLIGHT`, :data:`ggn.svg.TARGET` or another). ``coordinates``: the
    ranks' numbers and the files' names. ``flipped``: the second player at the bottom.
    ``colour``: ANSI colours. ``hands``: the hands' lines. ``holes``: squares that are not
    part of the board. ``families`` and ``aliases``: the glyphs of each style letter and
    piece, as in :func:`ggn.svg.board` (only ``chess`` changes the text: its figures).
    """
    expect(position, Position, "position", "a Position")
    for flag, what in ((coordinates, "coordinates"), (flipped, "flipped"), (colour, "colour"),
                       (hands, "hands")):
        expect(flag, bool, what, "a bool")
    for mapping, what in ((families, "families"), (aliases, "aliases")):
        if mapping is not None:
            expect(mapping, Mapping, what, "a mapping of str to str")
    geometry = position._geometry
    if geometry.size > MAX_DRAWN_SQUARES:
        raise GGNError(f"a board of {geometry.size:,} squares is too large to draw (at most "
                       f"{MAX_DRAWN_SQUARES:,})")

    def cells_of(squares: object, name: str) -> dict[Cell, str]:
        if isinstance(squares, str | Cell):
            squares = (squares,)
        pairs = (squares.items() if isinstance(squares, Mapping) else (
            (square, HIGHLIGHT) for square in expect(squares, Iterable, name, "an iterable of squares")))
        found: dict[Cell, str] = {}
        for square, fill in pairs:
            cell = square if isinstance(square, Cell) else Cell.parse(
                expect(square, str, name, "CELL strings"))
            if geometry.index.get(cell) is None:
                shown = "x".join(map(str, geometry.shape))
                raise GGNError(f"{cell} is not a square of a board of shape {shown}")
            found[cell] = str(fill)
        return found

    marked = cells_of(highlight, "highlight")
    gaps = set(cells_of(holes, "holes"))
    shape = geometry.shape
    files = shape[0]
    ranks = shape[1] if len(shape) > 1 else 1
    layers = shape[2] if len(shape) > 2 else 1
    cells = geometry.cells
    codes = position._codes
    parts: dict[int, tuple[str, str, str]] = {}
    for number, code in enumerate(codes):
        if code:
            piece = position.piece_at(cells[number])
            assert piece is not None
            parts[number] = _parts(piece, families, aliases)
    # Every square's letter in one column: the marks before it right-aligned, after it left.
    before = max([0, *(len(part[0]) for part in parts.values())])
    after = max([0, *(len(part[2]) for part in parts.values())])
    file_names = [str(Cell((f,))) for f in range(files)]
    width = before + 1 + after
    if coordinates:
        width = max(width, *(before + len(name) for name in file_names))

    def token_of(number: int, empty: str) -> str:
        prefix, letter, suffix = parts.get(number, ("", empty, ""))
        return (prefix.rjust(before) + letter + suffix).ljust(width)
    label = len(str(ranks)) if coordinates and len(shape) > 1 else 0

    def square(number: int) -> str:
        cell = cells[number]
        left, right = ("[", "]") if cell in marked else (" ", " ")
        text = left + token_of(number, " " if cell in gaps else _EMPTY) + right
        if not colour:
            return text
        indices = cell.indices
        if cell in gaps:
            background = _HOLE
        elif cell in marked:
            background = _NAMED.get(marked[cell].lower(), 220)
        else:
            dark = (indices[0] + (indices[1] if len(indices) > 1 else 0)) % 2 == 0
            background = _DARK_SQUARE if dark else _LIGHT_SQUARE
        code = codes[number]
        foreground = _FIRST_PIECE if code > 0 else _SECOND_PIECE if code < 0 else 238
        return f"\x1b[48;5;{background};38;5;{foreground};1m{text}{_RESET}"

    order_f = range(files - 1, -1, -1) if flipped else range(files)
    order_r = range(ranks) if flipped else range(ranks - 1, -1, -1)
    gap = "   "
    lines: list[str] = []
    if layers > 1:
        heads = [f"layer {str(Cell((0, 0, layer)))[2:]}".ljust(files * (width + 2))
                 for layer in range(layers)]
        lines.append(" " * (label + 2 if label else 1) + gap.join(heads).rstrip())
    for r in order_r:
        row = ["".join(square(f + r * files + layer * files * ranks) for f in order_f)
               for layer in range(layers)]
        prefix = f"{str(r + 1).rjust(label)} " if label else ""
        lines.append((prefix + gap.join(row)).rstrip())
    if coordinates:
        names = "".join(" " + (" " * before + file_names[f]).ljust(width) + " " for f in order_f)
        lines.append((" " * (label + 1 if label else 0) + gap.join([names] * layers)).rstrip())
    top_player: Side = "first" if flipped else "second"
    bottom_player: Side = "second" if flipped else "first"
    if hands:
        indent = " " * (label + 2)
        lines.insert(0, indent + _hand_line(position, top_player, families, aliases))
        lines.append(indent + _hand_line(position, bottom_player, families, aliases))
    lines.append(f"{position.active} to move")
    return "\n".join(lines)
