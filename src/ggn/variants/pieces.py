"""Pieces described by how they move, and the GGN documents made from those descriptions.

A game is a rectangular board, a style letter and its pieces. Each piece is a PIN as the
first player writes it, the squares it may stand on, and its movements: vectors stepped
along once (a leaper) or repeatedly (a rider), onto an empty square, an enemy one or
either, possibly only from some squares and with more conditions on other squares.
A piece held in hand may be dropped (:class:`Drop`) onto empty squares where it may stand.
Everything is written in the moving side's own frame: ranks count forward, toward the
opponent, and the second side's frame is the first's mirrored (or rotated) onto the board.

>>> rook = Piece("R", (Movement(((0, 1),), last=None),))
>>> game = Game("tiny", files=1, ranks=3, style="C", pieces=(rook,), start="r/1/R / C/c")
>>> build(game)["C:R"]["a1"]["a3"]
[{'must': {'a2': 'empty', 'a3': 'empty'}}, {'must': {'a2': 'empty', 'a3': 'enemy'}}]
>>> sorted(build(game)["c:r"]["a3"])
['a1', 'a2']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from ggn._types import check_fields, expect
from ggn.cell import Cell

__all__ = [
    "Drop", "Game", "Mode", "Movement", "Piece", "Square", "Vector", "View", "build", "destinations", "drops",
    "lame_path", "ranks", "squares",
]

Vector = tuple[int, int]
"""A displacement ``(files, ranks)`` in the moving side's frame: positive ranks go forward."""

Square = tuple[int, int]
"""A square ``(file, rank)``, zero-based, in the moving side's frame: ``(0, 0)`` is its ``a1``."""

Mode = Literal["move", "capture", "both"]
"""What the destination must hold: nothing (``move``), an enemy (``capture``), either (``both``)."""

Frame = Literal["mirror", "rotate"]
"""How the second side sees the board: ranks reversed (chess), or ranks and files (shogi)."""


@dataclass(frozen=True, slots=True)
class Movement:
    """One way a piece moves.

    Along each vector, the piece goes ``first`` to ``last`` steps (``last=None``: to the edge);
    the squares it passes over must be empty, and the destination meets ``mode``. ``sources``
    limits the squares the piece moves this way from (``None``: wherever it stands). ``also``
    adds conditions on other squares, as offsets from the source: ``"empty"``, ``"enemy"``, or
    a PIN whose case says whose piece it is (upper: the mover's, lower: the opponent's).

    ``within`` limits the destinations (``None``: anywhere; a palace, one side of a river).
    ``target``, a PIN as in ``also``, is the one piece a capture takes (``mode="capture"``).
    ``lame`` makes each step blockable: the squares a lame leaper passes on its way
    (:func:`lame_path`, Fairy-Stockfish's: along the longer axis while it is the longer, then
    diagonally) must be empty as well; for a knight, an alfil or a dabbaba that is the one
    square half-way along the step (a xiangqi horse's leg, an elephant's eye), for a zebra
    (janggi's elephant) the orthogonal square and the diagonal one beyond it.
    ``hops`` makes a hopper: of the squares passed over, exactly that many hold a piece (of
    either side), written ``deny {square: "empty"}``, one possibility for each choice of them;
    the others must be empty (the xiangqi cannon's capture over its screen). A hole of the
    board (:class:`View`) stops every other movement, but a hopper hops over it as over a
    piece, as Fairy-Stockfish's hoppers over its walls (``*``).
    ``grasshopper`` (with ``hops=1``): the piece hopped over stands on the last square passed
    over, right before the destination (Betza's ``g``: a grasshopper lands just beyond it).

    ``en_passant`` (on a ``mode="capture"`` movement; Betza's ``e`` as Fairy-Stockfish reads
    it): the piece may also capture en passant this way. Where an enemy piece has just made a
    double step, the empty square it passed over may be this movement's destination, as if it
    held that piece, which is taken. Fairy-Stockfish marks the whole piece type and takes en
    passant onto a square its captures reach and its moves without capture do not reach in
    that position; :func:`ggn.variants.betza.parse` marks the capture-only movements of a
    text with ``e``, so a square some movement without capture also reaches is no en passant
    destination. :func:`destinations` lists ordinary captures only: the document maker adds
    the en passant possibilities, which depend on the rules of double steps.
    """

    vectors: tuple[Vector, ...]
    first: int = 1
    last: int | None = 1
    mode: Mode = "both"
    sources: frozenset[Square] | None = None
    also: tuple[tuple[Vector, str], ...] = ()
    within: frozenset[Square] | None = None
    target: str | None = None
    lame: bool = False
    hops: int = 0
    grasshopper: bool = False
    en_passant: bool = False

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.vectors or (0, 0) in self.vectors:
            raise ValueError(f"a movement needs non-zero vectors, got {self.vectors!r}")
        if self.first < 1 or (self.last is not None and self.last < self.first):
            raise ValueError(f"a movement goes 1 <= first <= last steps, got {self.first}, {self.last}")
        if self.target is not None and self.mode != "capture":
            raise ValueError(f"a movement with a target captures it: mode 'capture', not {self.mode!r}")
        if self.hops < 0:
            raise ValueError(f"a movement hops over 0 or more pieces, got {self.hops}")
        if self.grasshopper and self.hops != 1:
            raise ValueError(f"a grasshopper hops over one piece: hops 1, not {self.hops}")
        if self.en_passant and self.mode != "capture":
            raise ValueError(f"an en passant movement captures: mode 'capture', not {self.mode!r}")


@dataclass(frozen=True, slots=True)
class Drop:
    """How a piece held in hand is put on the board (source ``*``): onto any empty square of
    ``squares`` (``None``: every square the piece may stand on, so never where it could not
    move again). ``file_deny``, a PIN (upper: the mover's piece), forbids the drop when that
    piece stands on any other square of the destination's file (shogi's two-pawns rule)."""

    def __post_init__(self) -> None:
        check_fields(self)

    squares: frozenset[Square] | None = None
    file_deny: str | None = None


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its PIN for the first side, its movements, where it may stand (``None``:
    anywhere; a move into a square it may not stand on is still listed, for the rule system
    to complete, as a forced promotion), and how it is dropped from the hand (``None``: never)."""

    def __post_init__(self) -> None:
        check_fields(self)

    pin: str
    movements: tuple[Movement, ...]
    stands: frozenset[Square] | None = None
    drop: Drop | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """A game on a ``files`` x ``ranks`` board: the first player's style letter (the second's
    is its lowercase), the pieces, and the start position in FEEN."""

    def __post_init__(self) -> None:
        check_fields(self)

    name: str
    files: int
    ranks: int
    style: str
    pieces: tuple[Piece, ...]
    start: str
    frame: Frame = "mirror"


def squares(*names: str) -> frozenset[Square]:
    """Squares by their names as the first side writes them: ``squares("a1", "h1")``."""
    out: set[Square] = set()
    for name in names:
        file, rank = Cell.parse(name).indices
        out.add((file, rank))
    return frozenset(out)


def ranks(files: int, *numbers: int) -> frozenset[Square]:
    """Every square of the given ranks (one-based, from the moving side): ``ranks(8, 2)``."""
    expect(files, int, "files", "an int")
    for number in numbers:
        expect(number, int, "numbers", "ints")
    return frozenset((file, number - 1) for number in numbers for file in range(files))


def _swap(letter: str) -> str:
    return letter.lower() if letter.isupper() else letter.upper()


class View:
    """One side's view of a board of ``files`` x ``ranks`` squares: its pieces' QPI, and its
    frame (ranks count forward from it) mapped to square names. ``rotate``: the second side
    sees files reversed too (shogi's convention); else only ranks (chess's). ``holes``: squares
    of the board's own frame that are not on the board (no movement reaches them, and none
    crosses them but a hopper, which hops over a hole as over a piece).

    >>> View(8, 8, "C", second=True).names[(0, 0)], View(8, 8, "C", second=True).qpi("+R")
    ('a8', 'c:+r')
    """

    def __init__(self, files: int, ranks: int, style: str, second: bool, *, rotate: bool = False,
                 holes: frozenset[Square] = frozenset()) -> None:
        expect(files, int, "files", "an int")
        expect(ranks, int, "ranks", "an int")
        expect(style, str, "style", "a str")
        expect(second, bool, "second", "a bool")
        expect(rotate, bool, "rotate", "a bool")
        expect(holes, (frozenset, set), "holes", "a frozenset of squares")
        self.files = files
        self.ranks = ranks
        self.second = second
        self.style = style.lower() if second else style.upper()
        self.other = style.upper() if second else style.lower()
        rotate = second and rotate
        # Relative square -> name, in the board's own order (a1, b1, ..., a2, ...).
        board: list[tuple[tuple[int, int], Square]] = []
        for file in range(files):
            for rank in range(ranks):
                real = (files - 1 - file if rotate else file, ranks - 1 - rank if second else rank)
                if real in holes:
                    continue
                board.append(((real[1], real[0]), (file, rank)))
        self.names: dict[Square, str] = {
            square: str(Cell((real[1], real[0]))) for real, square in sorted(board)
        }

    def qpi(self, pin: str) -> str:
        """The QPI of a PIN template: uppercase is this side's piece, lowercase the opponent's."""
        if type(pin) is not str:
            expect(pin, str, "pin", "a str")
        ours = any(ch.isupper() for ch in pin)
        sin = self.style if ours else self.other
        return f"{sin}:{''.join(_swap(ch) if self.second else ch for ch in pin)}"

    def state(self, value: str) -> str:
        """A condition's state as written in ``side``'s frame: ``"empty"``, ``"enemy"``, or a PIN
        template (:meth:`qpi`)."""
        if type(value) is not str:
            expect(value, str, "value", "a str")
        return value if value in ("empty", "enemy") else self.qpi(value)


def lame_path(vector: Vector) -> tuple[Vector, ...]:
    """The squares a lame leaper passes on one step, as offsets from its start, near to far:
    along the longer axis while it is the longer, then diagonally (Fairy-Stockfish's path).

    >>> lame_path((1, 2)), lame_path((2, 2)), lame_path((2, 3)), lame_path((-2, 0))
    (((0, 1),), ((1, 1),), ((0, 1), (1, 2)), ((-1, 0),))
    """
    expect(vector, tuple, "vector", "a (file, rank) tuple")
    file, rank = vector
    toward = ((file > 0) - (file < 0), (rank > 0) - (rank < 0))
    at = (0, 0)
    out: list[Vector] = []
    while True:
        longer = abs(file - at[0]) - abs(rank - at[1])
        at = (at[0] + (toward[0] if longer >= 0 else 0), at[1] + (toward[1] if longer <= 0 else 0))
        if at == vector:
            return tuple(out)
        out.append(at)


def _screens(
    path: list[str | None], hops: int, last: bool = False
) -> Iterable[tuple[dict[str, str], dict[str, str]]]:
    """Each way to pass over ``path`` with exactly ``hops`` of its squares occupied: the ``must``
    (the others empty) and the ``deny`` (those not empty), both from near to far. A hole
    (``None``) is always occupied. ``last``: the one occupied square is the last of the path
    (a grasshopper's hurdle)."""
    if last:
        if path and None not in path[:-1]:
            hurdle = path[-1]
            before = [name for name in path[:-1] if name is not None]
            yield (dict.fromkeys(before, "empty"), {} if hurdle is None else {hurdle: "empty"})
        return
    real = [name for name in path if name is not None]
    for screens in combinations(real, hops - (len(path) - len(real))):
        yield ({name: "empty" for name in real if name not in screens},
               dict.fromkeys(screens, "empty"))


def _possibilities(
    side: View, movement: Movement, source: Square
) -> Iterable[tuple[str, dict[str, dict[str, str]]]]:
    """The destinations of one movement from one source, each with one possibility."""
    names = side.names
    extra: dict[str, str] = {}
    for (file, rank), value in movement.also:
        name = names.get((source[0] + file, source[1] + rank))
        if name is None:
            return  # a condition off the board never holds
        extra[name] = side.state(value)
    if movement.target is not None:
        modes: tuple[str, ...] = (side.qpi(movement.target),)
    else:
        modes = ("empty", "enemy") if movement.mode == "both" else (
            ("empty",) if movement.mode == "move" else ("enemy",))
    for file, rank in movement.vectors:
        legs = lame_path((file, rank)) if movement.lame else ()
        path: list[str | None] = []  # None: a hole, which a hopper hops over (as Fairy-Stockfish's walls)
        holes = 0
        step = 0
        while movement.last is None or step < movement.last:
            if legs:  # the squares a lame step passes must be empty too
                at = (source[0] + step * file, source[1] + step * rank)
                passed = [names.get((at[0] + x, at[1] + y)) for x, y in legs]
                if None in passed:
                    break
                path.extend(name for name in passed if name is not None)
            step += 1
            square = (source[0] + step * file, source[1] + step * rank)
            name = names.get(square)
            if name is None:
                holes += 1
                if holes > movement.hops or not (0 <= square[0] < side.files and 0 <= square[1] < side.ranks):
                    break
                path.append(None)
                continue
            if step >= movement.first and (movement.within is None or square in movement.within):
                for must_path, deny in _screens(path, movement.hops, movement.grasshopper):
                    for mode in modes:
                        must = {**must_path, name: mode, **extra}
                        yield name, ({"must": must, "deny": deny} if deny else {"must": must})
            path.append(name)


def drops(side: View, piece: Piece, drop: Drop) -> dict[str, list[dict[str, dict[str, str]]]]:
    """The destinations of a drop: each empty square allowed, minus those ``file_deny`` forbids."""
    expect(side, View, "side", "a View")
    expect(piece, Piece, "piece", "a Piece")
    expect(drop, Drop, "drop", "a Drop")
    allowed = drop.squares if drop.squares is not None else piece.stands
    out: dict[str, list[dict[str, dict[str, str]]]] = {}
    for square, name in side.names.items():
        if allowed is not None and square not in allowed:
            continue
        possibility: dict[str, dict[str, str]] = {"must": {name: "empty"}}
        if drop.file_deny is not None:
            denied = side.qpi(drop.file_deny)
            possibility["deny"] = {
                side.names[(square[0], rank)]: denied
                for rank in range(side.ranks) if rank != square[1] and (square[0], rank) in side.names
            }
        out[name] = [possibility]
    return out


def destinations(
    side: View, movements: Iterable[Movement], source: Square
) -> dict[str, list[dict[str, dict[str, str]]]]:
    """Every destination of a piece with ``movements`` standing on ``source`` (in ``side``'s
    frame), with its possibilities, conditions written along each ray from near to far; the
    same conditions reached twice are listed once."""
    expect(side, View, "side", "a View")
    expect(movements, Iterable, "movements", "an iterable of Movements")
    expect(source, tuple, "source", "a (file, rank) tuple")
    found: dict[str, list[dict[str, dict[str, str]]]] = {}
    for movement in movements:
        if movement.sources is not None and source not in movement.sources:
            continue
        for destination, possibility in _possibilities(side, movement, source):
            listed = found.setdefault(destination, [])
            if possibility not in listed:
                listed.append(possibility)
    return found


def build(game: Game) -> dict[str, dict[str, dict[str, list[dict[str, dict[str, str]]]]]]:
    """The GGN document of a game: both sides' pieces, every square each may stand on, every
    destination with its possibilities (conditions written along each ray from near to far)."""
    expect(game, Game, "game", "a Game")
    document: dict[str, dict[str, dict[str, list[dict[str, dict[str, str]]]]]] = {}
    for second in (False, True):
        side = View(game.files, game.ranks, game.style, second, rotate=game.frame == "rotate")
        for piece in game.pieces:
            sources: dict[str, dict[str, list[dict[str, dict[str, str]]]]] = {}
            for square, name in side.names.items():
                if piece.stands is not None and square not in piece.stands:
                    continue
                found = destinations(side, piece.movements, square)
                if found:
                    sources[name] = found
            if piece.drop is not None:
                dropped = drops(side, piece, piece.drop)
                if dropped:
                    sources["*"] = dropped
            document[side.qpi(piece.pin)] = sources
    return document
