"""Moves in Fairy-Stockfish's UCI strings, written from a rule system's plays and read back.

Fairy-Stockfish writes a move as its source and destination squares (``e2e4``; ranks past 9
as ``10``, ``b3b10``), followed by the promotion's piece letter in lowercase (``e7e8q``), ``+``
for a shogi-style promotion (``b2h8+``; declining one is the plain move, ``b2h8``) and ``-``
for a demotion (a promoted piece turning back, kyoto shogi's); a drop is the piece's letter
in uppercase, ``@`` and the square (``P@e4``). A move that walls off a square (duck chess,
amazons) is followed by a comma, its destination again and the wall's square (``e2e4,e4d5``,
``e7e8q,e8d5``). Castling is the king's move (``e1g1``), except in
chess960 games, and where a plain king move could be read the same way, where it is the king
onto its own rook (``e1h1``).

:func:`write` names a :class:`~ggn.rules.Play` so; :func:`parse` finds the legal play a string
names; :func:`moves` gives every legal play by its string. They need the
:class:`~ggn.variants.description.Variant` for its FEN letters (a rule system made from one has
it as ``variant``).

>>> from ggn.variants import registry
>>> from ggn.variants.fen import to_feen
>>> rules = registry.rules("chess")
>>> position = rules.position(to_feen(rules.variant, "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1"))
>>> str(parse(rules, position, "b7b8n"))
'C:P b7-b8=C:N'
>>> sorted(moves(rules, position))[:6]
['b7b8b', 'b7b8n', 'b7b8q', 'b7b8r', 'e1d1', 'e1d2']
>>> write(rules.variant, parse(rules, position, "e1g1"))
'e1g1'
"""

from __future__ import annotations

from collections.abc import Mapping

from ggn._types import Side, expect
from ggn.cell import Cell
from ggn.errors import GGNError, IllegalMoveError
from ggn.feen import Feen
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules import Play, RuleSystem
from ggn.variants.description import Variant
from ggn.variants.fen import _table

__all__ = ["moves", "parse", "write"]

_SHOWN = 12  # legal moves listed in an error


def _square(cell: Cell) -> str:
    file, rank = cell.indices
    return f"{chr(ord('a') + file)}{rank + 1}"


def _letter(variant: Variant, qpi: Qpi) -> str:
    """The FEN letter (lowercase) of a piece of the variant."""
    letter = _table(variant).letters.get(qpi.pin.name)
    if letter is None:
        raise GGNError(f"{str(qpi)!r} is no piece of {variant.name}")
    return letter


def write(variant: Variant, play: Play, *, position: Position | None = None) -> str:
    """Fairy-Stockfish's UCI string of a play of ``variant``.

    ``position``, the position the play is made in, is needed only to tell which rook a
    chess960 castling moves when the play alone cannot say (the rook standing on the king's
    destination, or not moving at all).
    """
    table = _table(variant)
    expect(play, Play, "play", "a Play")
    if position is not None:
        expect(position, Position, "position", "a Position or None")
    destination = play.destination
    if not isinstance(destination, Cell):
        raise GGNError(f"{play} does not end on the board: it has no UCI string")
    source = play.source
    if not isinstance(source, Cell):
        dropped = play.choice if play.choice is not None else play.piece
        letter = _letter(variant, dropped).upper()
        prefix = "+" if dropped.state == "enhanced" and letter.lower() in table.promoted else ""
        return f"{prefix}{letter}@{_square(destination)}"
    target = _castling_target(variant, play, source, destination, position)
    text = _board_move(variant, play, source, target)
    wall = play.wall
    # A wall: after a comma, the square written as the move's destination and the wall's.
    return text if wall is None else f"{text},{_square(target)}{_square(wall)}"


def _board_move(variant: Variant, play: Play, source: Cell, target: Cell) -> str:
    """The string of a board move, its wall aside: its squares and the piece chosen (a
    promotion's letter, ``+``, ``-``, a gated piece's letter)."""
    text = _square(source) + _square(target)
    choice = play.choice
    if choice is None or choice == play.piece:
        return text
    gate = _gate_of(play)
    if gate is not None:
        # Seirawan's gating: the piece's letter; onto a castling rook's square, the move is
        # written from that square to the king's (Fairy-Stockfish's).
        letter = _letter(variant, choice)
        return text + letter if gate == source else _square(gate) + _square(source) + letter
    piece = play.piece
    if choice.pin.name == piece.pin.name and choice.side == piece.side:
        if choice.state == "enhanced" and piece.state == "normal":
            return text + "+"
        if choice.state == "normal" and piece.state == "enhanced":
            return text + "-"
    return text + _letter(variant, choice)


def _gate_of(play: Play) -> Cell | None:
    """The square a gating play puts its chosen piece on (seirawan's gating: the square its
    piece leaves, or a castling rook's), None for any other play: the chosen piece stands
    elsewhere than on the destination, where a promotion puts it. (A rook gated onto its
    castling rook's square is the one farther from the king's source than the rook beside the
    king.)"""
    choice, source = play.choice, play.source
    if choice is None or not isinstance(source, Cell) or source == play.destination:
        return None  # (a piece turned where it stands, sittuyin's promotion, is no gating)
    board = play.transition.board
    if board.get(source) == choice:
        return source
    found = [cell for cell, placed in board.items() if placed == choice and cell != play.destination]
    return max(found, key=lambda cell: abs(cell.indices[0] - source.indices[0]), default=None)


def _castling_target(variant: Variant, play: Play, source: Cell, destination: Cell,
                     position: Position | None) -> Cell:
    """The square a castling is written to (the king's destination, or its rook's square);
    the destination of any other play."""
    castling = variant.castling
    piece = play.piece
    if castling is None or _letter(variant, piece) != castling.king:
        return destination
    side: Side = piece.side
    rank = castling.rank if side == "first" else variant.ranks - 1 - castling.rank
    if source.indices[1] != rank or destination.indices[1] != rank:
        return destination
    table = _table(variant)
    board = play.transition.board

    def is_rook(qpi: Qpi | None) -> bool:
        return qpi is not None and qpi.side == side and table.letters.get(qpi.pin.name) in castling.rooks

    # A king that stays on its square castles (chess960: it stands on its castling square
    # already); a king's move elsewhere onto its own file is none.
    king_file, to_file = source.indices[0], destination.indices[0]
    moved_or_stays = to_file != king_file or source == destination
    kingside = to_file == castling.kingside_file and moved_or_stays
    queenside = to_file == castling.queenside_file and moved_or_stays
    if not kingside and not queenside:
        # Not a castling, or one a rule system already names as the king onto its rook.
        return destination
    rook_to = Cell((to_file - 1 if kingside else to_file + 1, rank))
    if not is_rook(board.get(rook_to)):
        return destination
    # The rook's source: the square it left (besides the king's), or, when no other square was
    # left, the king's destination or the square it already stood on.
    left = [cell for cell, qpi in board.items() if qpi is None and cell != source and cell.indices[1] == rank]
    if left:
        rook_from = left[0]
    elif position is not None:
        rook_from = destination if is_rook(position.piece_at(destination)) else rook_to
        if not is_rook(position.piece_at(rook_from)):
            return destination
    else:
        if variant.chess960:
            raise GGNError(f"{play}: which rook castles is not told by the play alone; give the position")
        rook_from = rook_to
    if position is not None and not is_rook(position.piece_at(rook_from)):
        return destination  # a rook that was not there: not a castling
    if (rook_from.indices[0] > king_file) != kingside:
        return destination  # a rook on the other side of the king (only its right lost): a king's step
    if variant.chess960 or _plain_step(variant, piece, source, destination, rook_from):
        return rook_from
    return destination


def _plain_step(variant: Variant, king: Qpi, source: Cell, destination: Cell, rook_from: Cell) -> bool:
    """Whether the king could go to its castling square by a plain move too (Fairy-Stockfish
    then writes the castling as the king onto its rook): the square is not the rook's, and one
    of the king's movements along the rank reaches it from its source."""
    if rook_from == destination:
        return False
    letter = _letter(variant, king)
    kind = next(piece for piece in variant.pieces if piece.letter.lower() == letter)
    distance = destination.indices[0] - source.indices[0]
    for movement in kind.movements:
        if movement.mode == "capture" or movement.hops or movement.also or movement.sources is not None:
            continue
        for file_step, rank_step in movement.vectors:
            if rank_step or not file_step or distance % file_step:
                continue
            steps = distance // file_step
            if steps >= movement.first and (movement.last is None or steps <= movement.last) and steps > 0:
                return True
    return False


def parse(rules: RuleSystem, position: Position | Feen | str, text: str, *,
          variant: Variant | None = None) -> Play:
    """The legal play of ``position`` that the UCI string ``text`` names.

    ``variant`` defaults to the rule system's own (``rules.variant``). A string that names no
    legal play is an :class:`~ggn.errors.IllegalMoveError` quoting it and listing the legal
    ones.
    """
    expect(rules, RuleSystem, "rules", "a RuleSystem")
    expect(text, str, "text", "a str")
    if variant is None:
        variant = getattr(rules, "variant", None)
        if not isinstance(variant, Variant):
            raise TypeError("variant must be given for a rule system that has none")
    expect(variant, Variant, "variant", "a Variant")
    current = rules._position(position, "position")
    strings = moves(rules, current, variant=variant)
    found = strings.get(text)
    if found is not None:
        return found
    listed = sorted(strings)
    shown = ", ".join(listed[:_SHOWN]) + (", ..." if len(listed) > _SHOWN else "")
    quoted = repr(text) if len(text) <= 40 else f"{text[:40]!r}..."
    raise IllegalMoveError(f"{quoted} is not a legal move of {variant.name} in {current.to_feen()!r}; "
                           f"legal moves: {shown or 'none'}")


def moves(rules: RuleSystem, position: Position, *, variant: Variant | None = None) -> Mapping[str, Play]:
    """Every legal play of ``position`` by its UCI string."""
    expect(rules, RuleSystem, "rules", "a RuleSystem")
    if variant is None:
        variant = getattr(rules, "variant", None)
        if not isinstance(variant, Variant):
            raise TypeError("variant must be given for a rule system that has none")
    return {write(variant, play, position=position): play for play in rules.legal_moves(position)}
