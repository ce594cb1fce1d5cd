"""A pseudo-legal move of a GGN document on a position, and its default effect as STN.

>>> from ggn.games import chess
>>> from ggn.position import Position
>>> start = Position.from_feen(chess.START)
>>> move = chess.ruleset().moves(start, source="g1", destination="f3")[0]
>>> str(move), move.transition(start).to_value()
('C:N g1-f3', {'board_diff': {'g1': None, 'f3': 'C:N'}, 'toggle': True})
"""

from __future__ import annotations

from dataclasses import dataclass

from ggn._types import expect
from ggn.cell import Cell, Hand
from ggn.errors import GGNError
from ggn.position import Position, piece_of
from ggn.qpi import Qpi
from ggn.ruleset import Possibilities
from ggn.stn import Transition

__all__ = ["Move"]


@dataclass(frozen=True, slots=True)
class Move:
    """A pseudo-legal move: a piece, its source, its destination, and the possibilities that
    allow it (in document order)."""

    piece: Qpi
    source: Cell | Hand
    destination: Cell | Hand
    possibilities: Possibilities

    def __str__(self) -> str:
        return f"{self.piece} {self.source}-{self.destination}"

    def transition(self, position: Position) -> Transition:
        """The default effect of the move on ``position``, as STN (the Game Protocol's displacement).

        Board to board empties the source and puts the piece on the destination; whatever stood
        there goes, unchanged, to the Active Player's hand. Board to hand moves the piece into
        the Active Player's hand; hand to board takes one from it. The turn passes.
        """
        if type(position) is not Position:
            expect(position, Position, "position", "a Position")
        board: dict[Cell, Qpi | None] = {}
        gained: dict[Qpi, int] = {}
        if isinstance(self.source, Cell):
            board[self.source] = None
        else:
            gained[self.piece] = -1
        if isinstance(self.destination, Cell):
            number = position._geometry.index.get(self.destination)
            if number is None:
                raise GGNError(f"{self.destination} is not a square of a board of shape {position.shape}")
            taken = position._codes[number]
            # The source is emptied first: a move onto its own square takes nothing.
            if taken and self.destination != self.source:
                captured = piece_of(taken)
                gained[captured] = gained.get(captured, 0) + 1
            board[self.destination] = self.piece
        else:
            gained[self.piece] = gained.get(self.piece, 0) + 1
        gained = {piece: delta for piece, delta in gained.items() if delta}
        if position.active == "first":
            return Transition(board, gained, None, True)
        return Transition(board, None, gained, True)
