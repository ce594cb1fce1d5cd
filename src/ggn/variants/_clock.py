"""The halfmove clock as Fairy-Stockfish keeps it (its ``rule50``): which plays start it again.

Fairy-Stockfish's ``do_move`` starts the clock again after a capture, a drop (not a gating), a promotion (a
shogi-style one unless the game lets promoted pieces demote) and a move of a piece of the
n-move rule's types (``nMoveRuleTypes``: the pawn unless the game says otherwise) that the
piece could not take back by a move without capture from where it went (its ``PseudoMoves[0]``:
a pawn's step forward; not a sideways step of pawnsideways' pawns, nor pawnback's step back).
:class:`ggn.game.Game` and :meth:`ggn.variants.registry.Entry.advance` count with it.
"""

from __future__ import annotations

from ggn._types import Side
from ggn.cell import Cell
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules._records import Play
from ggn.variants.description import PieceType, Variant
from ggn.variants.document import layout

__all__ = ["piece_type", "resets"]


def piece_type(variant: Variant, piece: Qpi) -> PieceType | None:
    """The type a piece of ``variant`` is of: by its PIN letter, and a shogi-style promoted
    piece (``+P``) the type it promotes to, as Fairy-Stockfish types it (a tokin is a gold)."""
    letter = piece.pin.name
    kind = next((found for found in variant.pieces if (found.pin or found.letter).upper() == letter), None)
    if kind is not None and piece.state == "enhanced" and variant.promotion is not None:
        becomes = dict(variant.promotion.promoted).get(kind.letter)
        if becomes is not None:
            return next((other for other in variant.pieces if other.letter == becomes), kind)
    return kind


def resets(variant: Variant | None, position: Position, play: Play) -> bool:
    """Whether ``play``, made in ``position``, starts the halfmove clock again. Without a
    variant (a GGN document's rule system): a drop, a capture or a promotion does."""
    if not isinstance(play.source, Cell):
        return True  # a drop
    mover = position.active
    # A wall (games with walls) is no one's piece: the duck taken away is no capture, and a
    # piece that turns into a wall where it captures has captured.
    wall = layout(variant).wall if variant is not None and variant.walls is not None else None
    for cell, piece in play.transition.board.items():
        before = position.piece_at(cell)
        if before is not None and before.side != mover and before.pin.name != wall and (
                piece is None or piece.side == mover or piece.pin.name == wall):
            return True  # a capture
    choice, piece = play.choice, play.piece
    if choice is not None and any(placed == choice and cell != play.destination
                                  for cell, placed in play.transition.board.items()):
        choice = None  # seirawan's gating: the piece chosen enters behind the moving one
    if choice is not None and choice != piece:
        if choice.pin.name != piece.pin.name:
            return True  # a pawn's promotion
        if choice.state == "enhanced" and piece.state != "enhanced":
            return variant is None or variant.promotion is None or not variant.promotion.demotion
        return False  # a demotion
    if variant is None:
        return False
    kind = piece_type(variant, piece)
    side = 0 if mover == "first" else 1
    if kind is None or kind.letter not in variant.history.n_move_types[side]:
        return False
    destination = play.destination
    if not isinstance(destination, Cell):
        return True
    return not _reversible(kind, mover, play.source, destination)


def _reversible(kind: PieceType, mover: Side, source: Cell, destination: Cell) -> bool:
    """Whether a piece of ``kind`` could go back from ``destination`` to ``source`` by a move
    without capture on an empty board (Fairy-Stockfish's ``PseudoMoves[0]``: no initial move)."""
    (from_file, from_rank), (to_file, to_rank) = source.indices, destination.indices
    back = (from_file - to_file, from_rank - to_rank)
    if mover == "second":  # the second side's frame is the first's turned half a circle
        back = (-back[0], -back[1])
    for movement in kind.movements:
        if movement.mode == "capture" or movement.sources is not None or movement.hops:
            continue
        for vector in movement.vectors:
            steps = _steps(vector, back)
            if steps and movement.first <= steps and (movement.last is None or steps <= movement.last):
                return True
    return False


def _steps(vector: tuple[int, int], displacement: tuple[int, int]) -> int:
    """How many steps of ``vector`` make ``displacement`` (0: none)."""
    for along, total in zip(vector, displacement, strict=True):
        if along:
            steps, rest = divmod(total, along)
            if rest or steps <= 0:
                return 0
            return steps if (vector[0] * steps, vector[1] * steps) == displacement else 0
    return 0
