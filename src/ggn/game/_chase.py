"""Xiangqi's chasing rule as the Asian Xiangqi Federation writes it, as Fairy-Stockfish applies it.

After each move, Fairy-Stockfish marks the pieces of the player to move that the move *chases*
(``Position::chased`` in its ``src/position.cpp``): pieces newly attacked by the piece that
moved or by a piece it uncovered, that the attacker may take with profit (a chariot by a horse
or a cannon; a chariot, cannon or horse by an elephant or an advisor) or that nothing defends
(a defender that is pinned, or only the general where the flying-general rule forbids it,
defends nothing), without the general and the soldiers that have not crossed the river, and
without a piece that attacks the attacker back (unless pinned, or a horse whose leg is free
only one way); also the pieces that lose their real defender by a new pin, and those a
discovered check lets be taken. A repetition in which one player chased the same piece at
every move of the cycle loses for that player (:meth:`ggn.game.Game.claim`).

This module computes those marks from the positions and the plays, with Fairy-Stockfish's
piece types by their names in the description (``king``, ``fers``, ``elephant``, ``horse``,
``rook``, ``cannon``, ``soldier``); a piece of another type attacks nothing here. Squares are
``(file, rank)`` in the board's frame, and sets of them stand for Fairy-Stockfish's bitboards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from ggn.cell import Cell
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules._records import Play
from ggn.variants.description import PieceType, Variant

__all__ = ["Chasing", "undo_move"]

Square = tuple[int, int]
Squares = frozenset[Square]

_ORTHOGONAL: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT: Final = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_TYPES: Final = ("king", "fers", "elephant", "horse", "rook", "cannon", "soldier")


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


class _Board:
    """One position as the chasing rule reads it: each square's piece (side, type name)."""

    __slots__ = ("chasing", "occupied", "pieces")

    def __init__(self, chasing: Chasing, pieces: dict[Square, tuple[int, str]]) -> None:
        self.chasing = chasing
        self.pieces = pieces
        self.occupied: Squares = frozenset(pieces)

    def of(self, side: int, *types: str) -> set[Square]:
        return {square for square, (owner, kind) in self.pieces.items()
                if owner == side and (not types or kind in types)}

    def kinds(self, *types: str) -> set[Square]:
        return {square for square, (_, kind) in self.pieces.items() if kind in types}

    def king(self, side: int) -> Square | None:
        return next((square for square, (owner, kind) in self.pieces.items()
                     if owner == side and kind == "king"), None)

    def promoted_soldiers(self, side: int) -> set[Square]:
        zone = self.chasing.soldier_zone[side]
        return {square for square in self.of(side, "soldier") if square in zone}

    def unchaseable(self, side: int) -> set[Square]:
        """The general and the soldiers that have not crossed the river."""
        return self.of(side, "king", "soldier") - self.promoted_soldiers(side)

    # --- attacks (Fairy-Stockfish's attacks_bb, attacks_from, attackers_to) -----------------------
    def attacks(self, side: int, kind: str, square: Square, occupied: Squares) -> set[Square]:
        """The squares a piece of ``kind`` of ``side`` on ``square`` attacks, on a board
        occupied as ``occupied`` (no mobility region)."""
        chasing = self.chasing
        found: set[Square] = set()
        file, rank = square
        if kind in ("rook", "cannon"):
            hops = kind == "cannon"
            for df, dr in _ORTHOGONAL:
                screens = 0
                target = (file + df, rank + dr)
                while chasing.on(target):
                    if hops and screens == 1:
                        found.add(target)
                    if not hops:
                        found.add(target)
                    if target in occupied:
                        screens += 1
                        if not hops or screens == 2:
                            break
                    target = (target[0] + df, target[1] + dr)
        elif kind == "horse":
            for df, dr in _KNIGHT:
                leg = (file + (_sign(df) if abs(df) == 2 else 0), rank + (_sign(dr) if abs(dr) == 2 else 0))
                target = (file + df, rank + dr)
                if chasing.on(target) and leg not in occupied:
                    found.add(target)
        elif kind == "elephant":
            for df, dr in _DIAGONAL:
                target = (file + 2 * df, rank + 2 * dr)
                if chasing.on(target) and (file + df, rank + dr) not in occupied:
                    found.add(target)
        elif kind in ("fers", "king", "soldier"):
            if kind == "fers":
                steps: Iterable[tuple[int, int]] = _DIAGONAL
            elif kind == "king":
                steps = _ORTHOGONAL
            else:
                steps = ((1, 0), (-1, 0), (0, 1 if side == 0 else -1))
            found.update(target for df, dr in steps if chasing.on(target := (file + df, rank + dr)))
        return found

    def attacks_from(self, side: int, kind: str, square: Square) -> set[Square]:
        """The attacks of the piece as it stands, within its type's mobility region."""
        found = self.attacks(side, kind, square, self.occupied)
        if kind == "soldier" and square not in self.chasing.soldier_zone[side]:
            found = {target for target in found if target[0] == square[0]}
        region = self.chasing.regions[side].get(kind)
        return found if region is None else found & region

    def attackers(self, square: Square, occupied: Squares, side: int) -> set[Square]:
        """The pieces of ``side`` that attack ``square`` on a board occupied as ``occupied``."""
        found: set[Square] = set()
        chasing = self.chasing
        for kind in _TYPES:
            region = chasing.regions[side].get(kind)
            if region is not None and square not in region:
                continue
            own = self.of(side, kind)
            if not own:
                continue
            if kind == "horse":  # asymmetrical: the horse's own attacks decide
                found.update(horse for horse in own
                             if (horse[0] - square[0], horse[1] - square[1]) in _KNIGHT
                             and square in self.attacks(side, kind, horse, occupied))
            else:
                found |= self.attacks(1 - side, kind, square, occupied) & own
        if found & self.kinds("soldier") and chasing.relative_rank(side, square) < chasing.soldier_rank[side]:
            behind = (square[0], square[1] - (1 if side == 0 else -1))
            found = {piece for piece in found if self.pieces[piece][1] != "soldier" or piece == behind}
        return found

    def blockers(self, side: int) -> set[Square]:
        """Fairy-Stockfish's blockers_for_king(side): the pieces (of either side) alone between
        ``side``'s general and an enemy piece that would attack it without them (two for a
        cannon with two screens)."""
        king = self.king(side)
        if king is None:
            return set()
        enemy = 1 - side
        snipers: set[Square] = set()
        sliding: set[Square] = set()
        for square, (owner, kind) in self.pieces.items():
            if owner != enemy or kind not in ("rook", "cannon", "horse", "elephant"):
                continue
            df, dr = square[0] - king[0], square[1] - king[1]
            if kind in ("rook", "cannon"):
                if (df == 0) == (dr == 0):
                    continue
                if king in self.attacks(enemy, kind, square, self.occupied):
                    continue
            elif kind == "horse":
                if (df, dr) not in _KNIGHT or king in self.attacks_from(enemy, kind, square):
                    continue
            elif (abs(df), abs(dr)) != (2, 2) or king in self.attacks(enemy, kind, square, self.occupied):
                continue
            snipers.add(square)
            if kind != "cannon":
                sliding.add(square)
        occupancy = self.occupied - sliding
        found: set[Square] = set()
        for sniper in snipers:
            kind = self.pieces[sniper][1]
            if kind == "horse":  # the leg: beside the horse, diagonal to the general
                between = {(sniper[0] + df, sniper[1] + dr) for df, dr in _ORTHOGONAL} & {
                    (king[0] + df, king[1] + dr) for df, dr in _DIAGONAL}
            else:
                between = _between(king, sniper)
            hopper = kind == "cannon"
            inside = between & ((self.occupied - {sniper}) if hopper else occupancy)
            if inside and (len(inside) == 1 or (hopper and len(inside) == 2)):
                found |= inside
        return found


def _index(square: Square) -> tuple[int, int]:
    """The order of Fairy-Stockfish's squares (rank by rank): the order its loops take them in."""
    return square[1], square[0]


def _between(start: Square, end: Square) -> set[Square]:
    """Fairy-Stockfish's between_bb: the squares after ``start`` up to ``end`` (included) on
    their line, or ``end`` alone when they share none."""
    df, dr = end[0] - start[0], end[1] - start[1]
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return {end}
    step = (_sign(df), _sign(dr))
    found = set()
    square = start
    while square != end:
        square = (square[0] + step[0], square[1] + step[1])
        found.add(square)
    return found


def _line(first: Square, second: Square, files: int, ranks: int) -> set[Square]:
    """Fairy-Stockfish's line_bb: the whole line through two squares (empty if none)."""
    df, dr = second[0] - first[0], second[1] - first[1]
    if (df, dr) == (0, 0) or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return set()
    step = (_sign(df), _sign(dr))
    found = set()
    for direction in (1, -1):
        square = first
        while 0 <= square[0] < files and 0 <= square[1] < ranks:
            found.add(square)
            square = (square[0] + direction * step[0], square[1] + direction * step[1])
    return found


def _rook_lines(square: Square, files: int, ranks: int) -> set[Square]:
    lines = {(file, square[1]) for file in range(files)} | {(square[0], rank) for rank in range(ranks)}
    return lines - {square}


def undo_move(squares: Squares, play: Play | None) -> Squares:
    """Fairy-Stockfish's undo_move_board: the marks before ``play`` (a piece it moved is marked
    where it came from)."""
    if play is None or not isinstance(play.source, Cell) or not isinstance(play.destination, Cell):
        return squares
    (to_file, to_rank), (from_file, from_rank) = play.destination.indices, play.source.indices
    if (to_file, to_rank) not in squares:
        return squares
    return (squares - {(to_file, to_rank)}) | {(from_file, from_rank)}


class Chasing:
    """The chasing marks of a game's positions (see the module's doc)."""

    __slots__ = ("files", "flying", "ranks", "regions", "soldier_rank", "soldier_zone", "type_of")

    def __init__(self, variant: Variant, type_of: Callable[[Qpi], PieceType | None]) -> None:
        self.files, self.ranks = variant.files, variant.ranks
        self.flying = variant.flying_general
        self.type_of = type_of
        regions: tuple[dict[str, Squares], dict[str, Squares]] = ({}, {})
        zones: tuple[set[Square], set[Square]] = (set(), set())
        rank = 0
        for kind in variant.pieces:
            name = kind.name or ""
            first, second = kind.region(0), kind.region(1)
            if first is not None:
                regions[0][name] = frozenset(first)
            if second is not None:
                regions[1][name] = frozenset(self.turned(square) for square in second)
            if name == "soldier":
                sideways = [movement.sources for movement in kind.movements
                            if movement.sources is not None and (1, 0) in movement.vectors]
                if sideways:
                    rank = min(square[1] for square in sideways[0])
        self.regions = regions
        self.soldier_rank = (rank, rank)
        all_squares = {(file, row) for file in range(self.files) for row in range(self.ranks)}
        zones[0].update(square for square in all_squares if square[1] >= rank)
        zones[1].update(self.turned(square) for square in zones[0])
        self.soldier_zone = (frozenset(zones[0]), frozenset(zones[1]))

    def turned(self, square: Square) -> Square:
        return self.files - 1 - square[0], self.ranks - 1 - square[1]

    def on(self, square: Square) -> bool:
        return 0 <= square[0] < self.files and 0 <= square[1] < self.ranks

    def relative_rank(self, side: int, square: Square) -> int:
        return square[1] if side == 0 else self.ranks - 1 - square[1]

    def board(self, position: Position) -> _Board:
        pieces: dict[Square, tuple[int, str]] = {}
        for cell, piece in position.board.items():
            kind = self.type_of(piece)
            file, rank = cell.indices
            name = "" if kind is None else kind.name or ""
            pieces[(file, rank)] = (0 if piece.side == "first" else 1, name)
        return _Board(self, pieces)

    def chased(self, before: Position, after: Position, play: Play) -> Squares:
        """The pieces of the player to move in ``after`` that ``play`` (made in ``before``)
        chases (Fairy-Stockfish's ``Position::chased``)."""
        if not isinstance(play.source, Cell) or not isinstance(play.destination, Cell):
            return frozenset()
        board, previous = self.board(after), self.board(before)
        us = 0 if after.active == "first" else 1  # the side chased
        them = 1 - us
        (from_file, from_rank), (to_file, to_rank) = play.source.indices, play.destination.indices
        origin, target = (from_file, from_rank), (to_file, to_rank)
        captured = target in previous.pieces and previous.pieces[target][0] == us
        chased: set[Square] = set()
        pins = board.blockers(us)
        their_king = board.king(them)
        our_king = board.king(us)
        if self.flying and their_king is not None:
            file_pieces = {square for square in board.of(us) if square[0] == their_king[0]}
            kings = board.of(us, "king")
            if file_pieces & kings and len(file_pieces - board.kinds("king")) <= 1:
                pins |= file_pieces - board.kinds("king")

        def add(attacker: Square, kind: str, attacks: set[Square]) -> None:
            if not attacks - chased:
                return
            attacks = attacks - board.unchaseable(us)
            if kind in ("horse", "cannon"):
                chased.update(attacks & board.of(us, "rook"))
            if kind in ("elephant", "fers"):
                chased.update(attacks & board.of(us, "rook", "cannon", "horse"))
            diagonal = {(attacker[0] + df, attacker[1] + dr) for df, dr in _DIAGONAL}
            if kind == "horse" and diagonal & board.occupied:
                for horse in attacks & board.of(us, "horse"):
                    if attacker in board.attacks(us, "horse", horse, board.occupied):
                        attacks = attacks ^ {horse}
            else:
                attacks = {square for square in attacks
                           if square not in board.of(us, kind) or square in pins}
            occupied = board.occupied - {attacker}
            for square in attacks:
                roots = board.attackers(square, occupied, us) - pins
                if not roots or (self.flying and their_king is not None and roots == board.of(us, "king")
                                 and square in board.attacks(us, "rook", their_king, occupied)):
                    chased.add(square)

        # Direct attacks of the piece moved.
        moved = board.pieces.get(target, (them, ""))[1]
        if moved not in ("king", "soldier", ""):
            direct = board.attacks_from(them, moved, target) & board.of(us)
            if moved in ("rook", "cannon"):
                direct -= _line(origin, target, self.files, self.ranks)
            add(target, moved, direct)
        # Discovered attacks.
        beside = {(origin[0] + df, origin[1] + dr) for df, dr in _ORTHOGONAL}
        corners = {(origin[0] + df, origin[1] + dr) for df, dr in _DIAGONAL}
        candidates = (beside & board.of(them, "horse")) | (corners & board.of(them, "elephant")) \
            | (_rook_lines(origin, self.files, self.ranks) & board.of(them, "cannon", "rook")) \
            | (_rook_lines(target, self.files, self.ranks) & board.of(them, "cannon"))
        earlier = frozenset(board.occupied if captured else board.occupied - {target}) ^ {origin}
        for square in sorted(candidates, key=_index):
            kind = board.pieces[square][1]
            discovered = board.of(us) & board.attacks(them, kind, square, board.occupied) \
                - board.attacks(them, kind, square, earlier)
            add(square, kind, discovered)
        # Changes in real roots, and discovered checks.
        new = board.blockers(us) - previous.blockers(us)
        for square in sorted(new & board.of(us), key=_index):
            kind = board.pieces[square][1]
            fake = board.of(us) - board.unchaseable(us)
            fake &= board.attacks(us, kind, square, board.occupied)
            their_blockers = board.blockers(them)
            for rooted in fake:
                if board.attackers(rooted, board.occupied, them) - their_blockers:
                    chased.add(rooted)
        for square in sorted(new & board.of(them), key=_index):
            kind = board.pieces[square][1]
            attacks = board.attacks_from(them, kind, square) & board.of(us)
            guarded = set() if our_king is None else board.attacks_from(us, "king", our_king)
            chased.update(attacks - guarded)
            for taken in attacks & guarded:
                occupied = board.occupied ^ {square} ^ ({our_king} if our_king is not None else set())
                if board.attackers(taken, frozenset(occupied), them) - {square}:
                    chased.add(taken)
        return frozenset(chased)
