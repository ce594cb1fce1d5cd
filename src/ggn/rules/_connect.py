"""Connection wins, as Fairy-Stockfish decides them: :class:`Connection`.

A variant may end when the player who has just moved has connected its pieces of the types
:attr:`Ends.connect_types <ggn.variants.description.Ends.connect_types>` names (Fairy-Stockfish's
``connectPieceTypes``), in one of four ways:

- ``connect_n`` of them in a row along a line allowed (``connectN``: tic-tac-toe, gomoku);
- a chain of them joining the side's two ``connect_regions`` (``connectRegion1White`` ...), followed
  as Fairy-Stockfish follows it, from the first region by steps east, north, north-east and
  south-east only, of the lines allowed;
- a square block of ``connect_square`` pieces a side (``connectNxN``);
- ``collinear_n`` of them on one line allowed, gaps allowed (``collinearN``).

Every set of squares is made once per variant, as indices of the position's squares, so a
position is asked only which of them its pieces fill.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ggn.position import Position
from ggn.variants.description import Ends

__all__ = ["Connection"]

# Fairy-Stockfish's directions of each line: EAST, NORTH, NORTH_EAST and SOUTH_EAST.
_STEPS = {"horizontal": ((1, 0),), "vertical": ((0, 1),), "diagonal": ((1, 1), (1, -1))}


class Connection:
    """The connection rules of a variant on a board of ``files`` x ``ranks``; ``index`` gives a
    square's number in a position (holes are missing), ``counts`` whether a piece code counts."""

    __slots__ = ("_counts", "_lines", "_next", "_regions", "_rows", "_squares", "collinear")

    def __init__(self, ends: Ends, files: int, ranks: int, index: Mapping[tuple[int, int], int],
                 counts: Callable[[int], bool]) -> None:
        self._counts = counts
        steps = [step for line in sorted(ends.connect_lines) for step in _STEPS[line]]

        def run(file: int, rank: int, step: tuple[int, int], length: int) -> tuple[int, ...] | None:
            squares = [(file + step[0] * k, rank + step[1] * k) for k in range(length)]
            if not all(square in index for square in squares):
                return None  # off the board, or through a hole: no piece stands there
            return tuple(index[square] for square in squares)

        # connect_n in a row: every run of that many squares along each step.
        found = (run(file, rank, step, ends.connect_n) for step in steps
                 for file in range(files) for rank in range(ranks)) if ends.connect_n > 0 else ()
        self._rows: tuple[tuple[int, ...], ...] = tuple(row for row in found if row is not None)
        # connect_square: every block of that many squares a side.
        size = ends.connect_square
        blocks = (tuple(index.get((file + x, rank + y), -1) for x in range(size) for y in range(size))
                  for file in range(files) for rank in range(ranks)) if size > 0 else ()
        self._squares: tuple[tuple[int, ...], ...] = tuple(block for block in blocks if -1 not in block)
        # collinear_n: every whole line along each step (squares of the board on it).
        self.collinear = ends.collinear_n
        lines: list[tuple[int, ...]] = []
        if self.collinear > 0:
            for step in steps:
                for file in range(files):
                    for rank in range(ranks):
                        before = (file - step[0], rank - step[1])
                        if 0 <= before[0] < files and 0 <= before[1] < ranks:
                            continue  # not the line's first square
                        line, at = [], (file, rank)
                        while 0 <= at[0] < files and 0 <= at[1] < ranks:
                            if at in index:
                                line.append(index[at])
                            at = (at[0] + step[0], at[1] + step[1])
                        lines.append(tuple(line))
        self._lines = tuple(lines)
        # The regions' chains: from each square, the squares one step on.
        self._regions = tuple((frozenset(index[square] for square in first if square in index),
                               frozenset(index[square] for square in second if square in index))
                              for first, second in ends.connect_regions)
        self._next: dict[int, tuple[int, ...]] = {}
        if any(first and second for first, second in self._regions):
            for (file, rank), number in index.items():
                self._next[number] = tuple(index[(file + dx, rank + dy)] for dx, dy in steps
                                           if (file + dx, rank + dy) in index)

    @property
    def active(self) -> bool:
        """Whether the variant has any connection rule."""
        return bool(self._rows or self._squares or self._lines or self._next)

    def made(self, position: Position, side: int) -> bool:
        """Whether ``side`` (0: the first player) has connected its pieces in ``position``."""
        codes, counts = position._codes, self._counts
        white = side == 0
        mine = {number for number, code in enumerate(codes) if code and (code > 0) == white and counts(code)}
        if not mine:
            return False
        if any(all(number in mine for number in row) for row in self._rows):
            return True
        first, second = self._regions[side]
        if first & mine and second & mine and self._joined(mine, first & mine, second):
            return True
        if any(all(number in mine for number in block) for block in self._squares):
            return True
        return any(sum(number in mine for number in line) >= self.collinear for line in self._lines)

    def _joined(self, mine: set[int], current: frozenset[int], target: frozenset[int]) -> bool:
        """Fairy-Stockfish's walk: the squares one step on from those reached, among ``mine``,
        until one is in ``target`` or no new square is reached."""
        reached = set(current)
        while True:
            found = {after for number in reached for after in self._next[number] if after in mine}
            if found & target:
                return True
            if found <= reached:
                return False
            reached |= found
