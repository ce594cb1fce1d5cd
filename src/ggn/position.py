"""Positions: a board of any shape FEEN can write, both hands, the active player and styles.

A :class:`Position` is an immutable value, built from FEEN and written back to
it. Beside the readable views (``board``, ``hand(player)``, ``piece_at``) it
carries, privately, the compact form the move generator reads: a list of small
signed integer piece codes by square index (positive for first-side pieces,
negative for second-side ones, 0 for empty; read-only as :attr:`Position.codes`)
and, per side, the indices of the squares its pieces occupy.

>>> position = Position.from_feen("+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c")
>>> position.piece_at("e1"), position.piece_at("e4"), position.active
(Qpi.parse('C:+K^'), None, 'first')
>>> position.to_feen() == str(position)
True
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Final, overload

from ggn._decimal import shown, shown_tuple
from ggn._types import Side, expect, player_index
from ggn.cell import Cell, _parse_cell
from ggn.errors import NotationError, PositionError
from ggn.feen import Feen
from ggn.qpi import Qpi
from ggn.sin import Sin
from ggn.stn import Transition

# PositionError is defined in ggn.errors with every other error, and re-exported here.
__all__ = [
    "EAGER_SQUARES", "GEOMETRIES_KEPT", "MAX_SQUARES", "SQUARES_KEPT", "TERMINAL_CODES", "Geometry",
    "Position", "PositionError", "code_of", "piece_of",
]


# --- piece codes ---------------------------------------------------------------------------
# Every distinct QPI gets a small positive number, once per process; its code is that number,
# negated for second-side pieces, so that a code's sign is its side and 0 is an empty square.
# The table only grows, but QPI's alphabet bounds it (52 styles, 312 pieces a style).
# A piece's code is one int object for the life of the process, kept here: a board's list of
# codes then points at a few shared objects, not at one of its own for each second-side piece
# (Python shares only the ints from -5 to 256), so reading a board touches fewer objects.
_NUMBERS: dict[Qpi, int] = {}
_PIECES: list[Qpi | None] = [None]
_NUMBERING: Final = threading.Lock()

TERMINAL_CODES: Final[set[int]] = set()
"""The codes :func:`code_of` gave terminal (``^``) pieces, of either side (read it, never
change it): a rule system finds a position's terminal pieces by it, those its document does not
name included."""


def code_of(piece: Qpi) -> int:
    """The signed integer code of a piece (stable for the life of the process)."""
    code = _NUMBERS.get(piece)
    if code is None:
        # Two threads numbering two new pieces at once would give both the same number.
        with _NUMBERING:
            code = _NUMBERS.get(piece)
            if code is None:
                number = len(_PIECES)
                _PIECES.append(piece)
                code = number if piece.side == "first" else -number
                if piece.terminal:
                    TERMINAL_CODES.add(code)
                _NUMBERS[piece] = code  # last: another thread reads the code once it is here
    return code


def piece_of(code: int) -> Qpi:
    """The piece of a non-zero code made by :func:`code_of`."""
    piece = _PIECES[abs(code)]
    if code == 0 or piece is None:
        raise ValueError("code 0 is an empty square, not a piece")
    return piece


MAX_SQUARES: Final = 1 << 22
"""The most squares a :class:`Position` holds: 4,194,304 (a 2048x2048 board)."""

GEOMETRIES_KEPT: Final = 16
"""How many board shapes :class:`Geometry` keeps made when nothing else holds them."""

SQUARES_KEPT: Final = 1 << 20
"""How many squares, all shapes together, :class:`Geometry` keeps made beyond the one used last
(1,048,576, some 300 MB): five boards of 200,000 squares, or any number of small ones."""


EAGER_SQUARES: Final = 1 << 16
"""Up to this many squares (65,536), a :class:`Geometry` makes every square's :class:`Cell` and
number at once; beyond, it works them out when asked for."""


# --- geometry ------------------------------------------------------------------------------
def _cell_of(number: int, shape: tuple[int, ...], strides: tuple[int, ...]) -> Cell:
    return Cell(tuple((number // stride) % extent for stride, extent in zip(strides, shape, strict=True)))


class _Cells(Sequence[Cell]):
    """The squares of a large board by number, each made when asked for."""

    __slots__ = ("_shape", "_size", "_strides")

    def __init__(self, shape: tuple[int, ...], strides: tuple[int, ...], size: int) -> None:
        self._shape = shape
        self._strides = strides
        self._size = size

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, number: int) -> Cell: ...
    @overload
    def __getitem__(self, number: slice) -> Sequence[Cell]: ...
    def __getitem__(self, number: int | slice) -> Cell | Sequence[Cell]:
        if isinstance(number, slice):
            return [self[i] for i in range(*number.indices(self._size))]
        if not -self._size <= number < self._size:
            raise IndexError(f"square {number} is not on a board of {self._size} squares")
        return _cell_of(number % self._size, self._shape, self._strides)


class _Index(Mapping[Cell, int]):
    """The number of each square of a large board, worked out from its indices when asked for."""

    __slots__ = ("_cells",)

    def __init__(self, cells: _Cells) -> None:
        self._cells = cells  # the squares it numbers, and their shape and strides

    def __getitem__(self, cell: Cell) -> int:
        shape, strides = self._cells._shape, self._cells._strides
        indices = cell.indices if isinstance(cell, Cell) else ()
        if len(indices) != len(shape):
            raise KeyError(cell)
        number = 0
        for index, stride, extent in zip(indices, strides, shape, strict=True):
            if index >= extent:
                raise KeyError(cell)
            number += index * stride
        return number

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)


class Geometry:
    """The squares of a board shape, numbered from ``a1`` file first, then rank, then layer.

    One object a shape: ``Geometry(shape)`` gives the geometry of that shape that any live
    position holds, so positions and compiled forms compare geometries by identity. Beyond
    those, the :data:`GEOMETRIES_KEPT` shapes used last are kept, up to :data:`SQUARES_KEPT`
    squares in all, and the rest let go: a board of 200,000 squares takes 60 MB, and a
    process that meets many shapes must not keep them all.
    """

    __slots__ = ("__weakref__", "cells", "index", "shape", "size", "strides")
    # Every geometry alive, by shape (weakly: a geometry goes when nothing holds it), and
    # the ones used last, held (most recent last).
    _alive: Final[weakref.WeakValueDictionary[tuple[int, ...], Geometry]] = weakref.WeakValueDictionary()
    _recent: Final[OrderedDict[tuple[int, ...], Geometry]] = OrderedDict()
    _last: ClassVar[Geometry | None] = None  # the one used last: most callers use one shape
    _squares: ClassVar[int] = 0  # the squares of the geometries in _recent
    _lock: Final = threading.Lock()

    shape: tuple[int, ...]
    size: int
    strides: tuple[int, ...]
    cells: Sequence[Cell]
    index: Mapping[Cell, int]

    def __new__(cls, shape: tuple[int, ...]) -> Geometry:
        if type(shape) is not tuple:  # before it is looked up: a list is no key
            expect(shape, tuple, "shape", "a tuple of ints")
        recent = cls._recent
        known = recent.get(shape)
        if known is not None:
            if known is not cls._last:  # keep the order of use; nothing to do when unchanged
                with cls._lock:
                    if shape in recent:
                        recent.move_to_end(shape)
                    cls._last = known
            return known
        known = cls._alive.get(shape)
        if known is None:
            known = cls._build(shape)  # outside the lock: a large board takes seconds
        with cls._lock:
            # Another thread may have made the same shape meanwhile: one object a shape.
            known = cls._alive.setdefault(shape, known)
            if shape not in recent:
                cls._squares += known.size
            recent[shape] = known
            recent.move_to_end(shape)
            cls._last = known
            while len(recent) > GEOMETRIES_KEPT or (cls._squares > SQUARES_KEPT and len(recent) > 1):
                cls._squares -= recent.popitem(last=False)[1].size
        return known

    @classmethod
    def _build(cls, shape: tuple[int, ...]) -> Geometry:
        for extent in shape:
            expect(extent, int, "shape", "a tuple of ints")
        if not shape or min(shape) < 1:
            raise PositionError(
                f"a board's shape is one or more sizes of 1 or more, got {shown_tuple(shape)}"
            )
        strides = []
        size = 1
        for extent in shape:
            strides.append(size)
            size *= extent
        if size > MAX_SQUARES:
            raise PositionError(
                f"a board of shape {shown_tuple(shape)} has {shown(size)} squares, more than the "
                f"{MAX_SQUARES:,} a Position holds (FEEN itself sets no bound; positions are kept "
                "in memory)"
            )
        self = super().__new__(cls)
        self.shape = shape
        self.size = size
        self.strides = tuple(strides)
        if size > EAGER_SQUARES:
            # A Cell and a dict entry a square cost some 350 bytes: a board this large gets its
            # squares and their numbers worked out when asked for, so that a short FEEN naming a
            # huge board costs no more than its list of piece codes.
            lazy = _Cells(shape, self.strides, size)
            self.cells, self.index = lazy, _Index(lazy)
            return self
        cells = [_cell_of(number, shape, self.strides) for number in range(size)]
        self.cells = tuple(cells)
        self.index = {cell: number for number, cell in enumerate(cells)}
        return self

    def index_of(self, cell: Cell | str) -> int | None:
        """The index of a square, or None if it is not on this board."""
        if isinstance(cell, str):
            try:
                cell = _parse_cell(cell)
            except NotationError:
                return None
        return self.index.get(cell)

    def __repr__(self) -> str:
        return f"Geometry({self.shape})"


# --- positions -----------------------------------------------------------------------------
_EMPTY_HAND: Final[Mapping[Qpi, int]] = MappingProxyType({})


class Position:
    """A position of the Game Protocol: board, two hands, active player, two styles.

    Immutable and hashable; :meth:`apply` returns a new position. The compact form for
    move generation (``_codes``, ``_occupied``, ``_geometry``, ``_hands``) is private: the
    library's own hot paths read it directly, and :attr:`codes` offers a read-only copy.
    """

    __slots__ = ("_codes", "_geometry", "_hands", "_hash", "_occupied", "active", "styles")

    _geometry: Geometry
    _codes: list[int]
    _occupied: tuple[tuple[int, ...], tuple[int, ...]]
    _hands: tuple[Mapping[Qpi, int], Mapping[Qpi, int]]
    active: Side
    styles: tuple[Sin, Sin]
    _hash: int | None

    @classmethod
    def from_feen(cls, feen: str | Feen) -> Position:
        """Build from a FEEN string or a parsed :class:`~ggn.feen.Feen`."""
        if not isinstance(feen, Feen):
            expect(feen, str, "feen", "a FEEN string or a Feen")
        value = feen if isinstance(feen, Feen) else Feen.parse(feen)
        geometry = Geometry(value.shape)
        codes = [0] * geometry.size
        index = geometry.index
        for cell, piece in value.board.items():
            codes[index[cell]] = code_of(piece)
        hands = (dict(value.hand("first")), dict(value.hand("second")))
        return cls._make(geometry, codes, hands, value.active, value.styles)

    @classmethod
    def _make(
        cls,
        geometry: Geometry,
        codes: list[int],
        hands: tuple[dict[Qpi, int], dict[Qpi, int]],
        active: Side,
        styles: tuple[Sin, Sin],
    ) -> Position:
        # Each side's occupied squares, ascending. A plain loop: 3 us on a chess board, where
        # compress() over map((0).__lt__, codes) took 10 us and a generator expression more.
        first: list[int] = []
        second: list[int] = []
        for number, code in enumerate(codes):
            if code:
                (first if code > 0 else second).append(number)
        return cls._make_known(geometry, codes, hands, active, styles,
                               occupied=(tuple(first), tuple(second)))

    @classmethod
    def _make_known(
        cls,
        geometry: Geometry,
        codes: list[int],
        hands: tuple[dict[Qpi, int], dict[Qpi, int]],
        active: Side,
        styles: tuple[Sin, Sin],
        *,
        occupied: tuple[tuple[int, ...], tuple[int, ...]],
    ) -> Position:
        """As :meth:`_make`, with each side's occupied squares given (ascending, as ``_make``
        finds them) by a caller that knows them already: a rule system updating its parent's
        for the few squares a move changes, instead of a scan of the board."""
        self = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(self, "_geometry", geometry)
        setattr_(self, "_codes", codes)
        setattr_(self, "_occupied", occupied)
        setattr_(self, "_hands", (MappingProxyType(hands[0]), MappingProxyType(hands[1])))
        setattr_(self, "active", active)
        setattr_(self, "styles", styles)
        setattr_(self, "_hash", None)
        return self

    # -- views ----------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._geometry.shape

    @property
    def inactive(self) -> Side:
        return "second" if self.active == "first" else "first"

    @property
    def board(self) -> dict[Cell, Qpi]:
        """The occupied squares and their pieces (a new dict)."""
        cells = self._geometry.cells
        return {cells[i]: piece_of(code) for i, code in enumerate(self._codes) if code}

    @property
    def codes(self) -> tuple[int, ...]:
        """The signed integer piece code of every square, by index (a new tuple).

        Squares are numbered as :class:`Geometry` numbers them (``a1`` first, then along the
        file letters); a code is positive for a first-side piece, negative for a second-side
        one, 0 for an empty square (:func:`piece_of` gives the piece of a code).
        """
        return tuple(self._codes)

    def hand(self, player: Side) -> Mapping[Qpi, int]:
        """A player's hand (``"first"`` or ``"second"``): a read-only mapping of pieces to
        positive counts. A non-string raises :class:`TypeError`, another string
        :class:`~ggn.errors.GGNError`."""
        return self._hands[player_index(player)]

    def piece_at(self, cell: Cell | str) -> Qpi | None:
        """The piece on a square, or None if it is empty; raise if it is not on the board."""
        if not isinstance(cell, Cell):
            expect(cell, str, "cell", "a Cell or a CELL string")
        number = self._geometry.index_of(cell)
        if number is None:
            raise PositionError(f"{str(cell)!r} is not a square of a board of shape {self.shape}")
        code = self._codes[number]
        return piece_of(code) if code else None

    def __iter__(self) -> Iterator[tuple[Cell, Qpi]]:
        cells = self._geometry.cells
        for i, code in enumerate(self._codes):
            if code:
                yield cells[i], piece_of(code)

    # -- transitions ----------------------------------------------------------------------
    def apply(self, transition: Transition) -> Position:
        """The position after an STN transition; raise :class:`PositionError` if it cannot apply.

        It cannot apply when it names a square off this board, puts a piece whose style is
        neither player's, takes a hand count below zero, or leaves more pieces than squares.
        """
        expect(transition, Transition, "transition", "a Transition (Transition.of builds one)")
        geometry = self._geometry
        codes = self._codes
        changes: list[tuple[int, int]] = []
        for cell, piece in transition.board.items():
            number = geometry.index.get(cell)
            if number is None:
                raise PositionError(
                    f"the transition sets {cell}, which is not a square of a board of shape "
                    f"{self.shape}"
                )
            if piece is not None:
                self._check_style(piece, f"on {cell}")
            changes.append((number, 0 if piece is None else code_of(piece)))
        hands = (dict(self._hands[0]), dict(self._hands[1]))
        for player, hand, diff in ((0, hands[0], transition.hand("first")),
                                   (1, hands[1], transition.hand("second"))):
            for piece, delta in diff.items():
                count = hand.get(piece, 0) + delta
                if count < 0:
                    name = ("first", "second")[player]
                    raise PositionError(
                        f"the transition takes {shown(-delta)} {piece} from the {name} player's "
                        f"hand, which holds {hand.get(piece, 0)}"
                    )
                if delta > 0:
                    self._check_style(piece, f"in the {('first', 'second')[player]} player's hand")
                if count:
                    hand[piece] = count
                else:
                    hand.pop(piece, None)
        new_codes = codes.copy()
        for number, code in changes:
            new_codes[number] = code
        total = sum(1 for code in new_codes if code) + sum(hands[0].values()) + sum(hands[1].values())
        if total > geometry.size:
            raise PositionError(
                f"the transition leaves {shown(total)} pieces, more than the {geometry.size} squares"
            )
        active = self.active
        if transition.toggle:
            active = "second" if active == "first" else "first"
        return Position._make(geometry, new_codes, hands, active, self.styles)

    def _check_style(self, piece: Qpi, where: str) -> None:
        if piece.sin != self.styles[0] and piece.sin != self.styles[1]:
            raise PositionError(
                f"{piece} {where} has style {piece.sin.letter!r}, neither player's "
                f"({self.styles[0].letter!r}, {self.styles[1].letter!r})"
            )

    # -- FEEN -----------------------------------------------------------------------------
    def to_feen(self) -> str:
        """The canonical FEEN string of the position."""
        return str(self.feen())

    def feen(self) -> Feen:
        """The position as a :class:`~ggn.feen.Feen` value."""
        return Feen(
            self.shape,
            self.board,
            {"first": dict(self._hands[0]), "second": dict(self._hands[1])},
            self.active,
            self.styles,
        )

    def __str__(self) -> str:
        return self.to_feen()

    def __repr__(self) -> str:
        return f"Position.from_feen({self.to_feen()!r})"

    def _repr_svg_(self) -> str | None:
        """The board drawn as SVG, for a notebook (IPython's rich display): :func:`ggn.svg.board`
        with its defaults; None (the notebook shows the text form) for a board of more
        squares than :data:`ggn.svg.MAX_DRAWN_SQUARES`."""
        from ggn.svg import MAX_DRAWN_SQUARES, board  # noqa: PLC0415  (same layer; ggn.svg imports this module)

        return None if self._geometry.size > MAX_DRAWN_SQUARES else board(self)

    # -- value semantics ------------------------------------------------------------------
    def _key(self) -> tuple[object, ...]:
        return (
            self._geometry.shape, tuple(self._codes), self.active, self.styles,
            frozenset(self._hands[0].items()), frozenset(self._hands[1].items()),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self is other or (
            self._codes == other._codes
            and self.active == other.active
            and self._geometry is other._geometry
            and self.styles == other.styles
            and self._hands[0] == other._hands[0]
            and self._hands[1] == other._hands[1]
        )

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash(self._key())
            object.__setattr__(self, "_hash", value)
        return value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Position is immutable: cannot set {name!r}")

    def copy(self) -> Position:
        """The position itself: positions are immutable, so a copy costs nothing."""
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (Position.from_feen, (self.to_feen(),))
