"""Betza's notation of piece movements, read as Fairy-Stockfish reads it.

A Betza text is a run of *atoms*, each after its *modifiers*. The atoms are leapers, one step
of a fixed shape in each of its directions: ``W`` (1, 0), ``F`` (1, 1), ``D`` (2, 0), ``N``
(2, 1), ``A`` (2, 2), ``H`` (3, 0), ``C`` and ``L`` (3, 1), ``Z`` and ``J`` (3, 2), ``G``
(3, 3) and ``K`` (``W`` and ``F``); and riders, stepping on along a line until blocked:
``R`` (as ``W``), ``B`` (as ``F``), ``Q`` (both). A leaper doubled (``WW``, ``NN``) rides; a
digit after an atom (``R4``, ``W2``, ``N3``) rides at most that many steps (``0``: no limit).
Modifiers before an atom: ``m`` (moves only, without capturing), ``c`` (captures only),
directions ``f b v l r s h`` (forward, backward, vertical, left, right, sideways, half; a
pair of a vertical and a horizontal one names a sector), ``n`` (lame: the squares a leaper
passes on its way must be empty), ``p`` (hops: a cannon, moving or capturing anywhere beyond
one piece on its line), ``g`` (a grasshopper, landing right beyond the piece it hops over),
``i`` (an initial move: only from the squares given as ``initial``, Fairy-Stockfish's
double-step region; only a move, as Fairy-Stockfish has no initial captures) and ``e`` (the
piece captures en passant, see :attr:`Movement.en_passant <ggn.variants.pieces.Movement>`).

Fairy-Stockfish departs from textbook Betza, and this module follows it, not the textbook:

- A single direction letter on an oblique atom names the two moves *most* in that direction:
  ``fN`` is the shogi knight (two forward, one aside), ``sN`` the four two-aside moves; a
  pair names one move (``frN``: one forward, two right; ``rfN``: two forward, one right);
  ``hl`` and ``hr`` are the two chiral halves of an oblique atom; ``fh``, ``bh``, ``lh``,
  ``rh`` the four moves toward one side. On ``W``-shaped atoms (``W``, ``D``, ``H``, ``R``) a
  pair is its two letters (``fsW``: forward and sideways, the soldier), on ``K`` and ``Q`` it
  is not split (``fsK``: sideways one square, and diagonally forward).
- Modifiers without an atom after them, letters it gives no meaning (``j``, ``o``, ``a``,
  ...), and atoms it keeps but never moves (lame ``W``, a ridden ``D``, a hopping ``N``) are
  read as nothing by Fairy-Stockfish; here they are a :class:`~ggn.errors.NotationError`, so
  that nothing written is silently lost.
- Fairy-Stockfish keeps, per piece, one table of moves and one of captures (and one of
  initial moves); the lines ridden in a table are cut to the squares that table reaches on
  an empty board. So one rider reaches, in its directions, every square another movement of
  the same table reaches on an empty board: in ``fRbpR`` the rook also rides backward (where
  the cannon reaches), and a later atom replaces an earlier one in the same direction and
  table (``NnN`` is lame). :func:`parse` returns what Fairy-Stockfish plays.
- Movements are in the mover's frame, and Fairy-Stockfish gives the second player the first's
  moves turned half a circle (its left is the first's right): a document of them views the
  second side rotated (:class:`~ggn.variants.pieces.View` with ``rotate=True``, a ``Game``
  with ``frame="rotate"``), or chiral pieces (``hlN``, ``rflbB``) go the wrong way for it.
- Fairy-Stockfish's sources before 2023-09-06 swapped two of the eight moves of ``lh`` and
  ``rh``; this module reads them as the fixed versions (pyffish 0.0.90 among them) do.

>>> [(m.vectors, m.mode) for m in parse("fmWfceF")]
[(((0, 1),), 'move'), (((1, 1), (-1, 1)), 'capture')]
>>> parse("fN")[0].vectors
((1, 2), (-1, 2))
>>> cannon = parse("mRcpR")[1]
>>> cannon.mode, cannon.hops, cannon.last
('capture', 1, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from ggn._types import expect
from ggn.errors import NotationError
from ggn.variants.description import Region
from ggn.variants.pieces import Mode, Movement, Vector

__all__ = ["PREDEFINED", "parse"]

PREDEFINED: Mapping[str, str] = MappingProxyType({
    "pawn": "fmWfceF",
    "knight": "N",
    "bishop": "B",
    "rook": "R",
    "queen": "Q",
    "fers": "F",
    "alfil": "A",
    "fersAlfil": "FA",
    "silver": "FfW",
    "aiwok": "RNF",
    "bers": "RF",
    "archbishop": "BN",
    "chancellor": "RN",
    "amazon": "QN",
    "knibis": "mNcB",
    "biskni": "mBcN",
    "kniroo": "mNcR",
    "rookni": "mRcN",
    "shogiPawn": "fW",
    "lance": "fR",
    "shogiKnight": "fN",
    "gold": "WfF",
    "dragonHorse": "BW",
    "clobber": "cW",
    "breakthrough": "fmWfF",
    "immobile": "",
    "cannon": "mRcpR",
    "janggiCannon": "pR",
    "soldier": "fsW",
    "horse": "nN",
    "elephant": "nA",
    "janggiElephant": "nZ",
    "banner": "RcpRnN",
    "wazir": "W",
    "commoner": "K",
    "centaur": "KN",
    "king": "K",
})
"""Fairy-Stockfish's predefined piece types (the names its ``variants.ini`` takes, as in
``knight = n``) and their Betza texts, as its ``variants.ini`` lists them, in the order of its
piece types, the king last (:mod:`ggn.variants.ini` reads them in this order, and
:mod:`ggn.variants.fen` writes the pieces in hand in it, backwards). Some of them
move by more than their Betza in Fairy-Stockfish: the pawn's double step, promotion and
en passant, the xiangqi soldier's sideways steps only past the river, the janggi cannon's
and the palace's rules are rules of the variant, not of the text."""

_LEAPERS: dict[str, tuple[tuple[int, int], ...]] = {
    # (forward, aside) for each atom, as Fairy-Stockfish lists them.
    "W": ((1, 0),), "F": ((1, 1),), "D": ((2, 0),), "N": ((2, 1),), "A": ((2, 2),),
    "H": ((3, 0),), "L": ((3, 1),), "C": ((3, 1),), "J": ((3, 2),), "Z": ((3, 2),),
    "G": ((3, 3),), "K": ((1, 0), (1, 1)),
}
_RIDERS: dict[str, tuple[tuple[int, int], ...]] = {"R": ((1, 0),), "B": ((1, 1),), "Q": ((1, 0), (1, 1))}
_VERTICALS = "fbvh"
_HORIZONTALS = "rlsh"

# The eight moves of an atom (a forward, b aside), as (file, rank) from (a, b), each with the
# direction pairs that select it (one letter x stands for the pair xx).
_EIGHT: tuple[tuple[tuple[int, int, int, int], frozenset[str]], ...] = tuple(
    (shape, frozenset(pairs.split())) for shape, pairs in (
        ((0, 1, 1, 0), "ff vv rf rv fh rh hr"),    # (b, a)
        ((0, -1, -1, 0), "bb vv lb lv bh lh hr"),  # (-b, -a)
        ((1, 0, 0, -1), "rr ss br bs bh rh hr"),   # (a, -b)
        ((-1, 0, 0, 1), "ll ss fl fs fh lh hr"),   # (-a, b)
        ((1, 0, 0, 1), "rr ss fr fs fh rh hl"),    # (a, b)
        ((-1, 0, 0, -1), "ll ss bl bs bh lh hl"),  # (-a, -b)
        ((0, 1, -1, 0), "bb vv rb rv bh rh hl"),   # (b, -a)
        ((0, -1, 1, 0), "ff vv lf lv fh lh hl"),   # (-b, a)
    )
)

_Kind = Literal["step", "slide", "hop"]

# Vector shapes (|file|, |rank| sorted) of what Fairy-Stockfish can generate.
_LAME_SHAPES = {(0, 2): "lame dabbaba", (1, 2): "horse", (2, 2): "elephant", (2, 3): "janggi elephant"}
_SLIDE_SHAPES = {(0, 1), (1, 1), (1, 2)}
_HOP_SHAPES = {(0, 1), (1, 1)}


def _shape(vector: Vector) -> tuple[int, int]:
    low, high = sorted((abs(vector[0]), abs(vector[1])))
    return (low, high)


def _eight(atom: tuple[int, int]) -> list[Vector]:
    forward, aside = atom
    return [(p * forward + q * aside, r * forward + s * aside) for (p, q, r, s), _ in _EIGHT]


@dataclass
class _Table:
    """One of Fairy-Stockfish's tables of a piece (moves, captures or initial moves): for each
    kind, each vector with its limit (0: none; -1: lame), and where in the text it was set."""

    step: dict[Vector, int] = field(default_factory=dict)
    slide: dict[Vector, int] = field(default_factory=dict)
    hop: dict[Vector, int] = field(default_factory=dict)
    order: dict[tuple[_Kind, Vector], int] = field(default_factory=dict)

    def put(self, kind: _Kind, vector: Vector, limit: int, at: int) -> None:
        entries = getattr(self, kind)
        entries[vector] = limit
        self.order.setdefault((kind, vector), at)


@dataclass(frozen=True)
class _Line:
    """One direction of one of the generators Fairy-Stockfish makes of a table."""

    vectors: tuple[Vector, ...]
    kind: Literal["rider", "cannon", "grasshopper", "lame"]


def _generators(table: _Table) -> list[tuple[int, _Line, Vector]]:
    """The generators (Fairy-Stockfish's rider types) of a table, each with every direction it
    covers, in the order the text made them: (position in the text, generator, direction)."""
    found: dict[tuple[str, int], tuple[int, _Line]] = {}

    def add(name: str, axis: int, at: int, line: _Line) -> None:
        if (name, axis) not in found or found[(name, axis)][0] > at:
            found[(name, axis)] = (at, line)

    rook_v = ((0, 1), (0, -1))
    rook_h = ((1, 0), (-1, 0))
    diagonal = ((1, 1), (1, -1), (-1, -1), (-1, 1))
    for vector, limit in table.step.items():
        if limit:
            shape = _shape(vector)
            atom = (shape[1], shape[0])
            add(_LAME_SHAPES[shape], 0, table.order[("step", vector)],
                _Line(tuple(dict.fromkeys(_eight(atom))), "lame"))
    for vector in table.slide:
        at = table.order[("slide", vector)]
        shape = _shape(vector)
        if shape == (1, 2):
            add("nightrider", 0, at, _Line(tuple(_eight((2, 1))), "rider"))
        elif shape == (1, 1):
            add("bishop", 0, at, _Line(diagonal, "rider"))
        else:
            add("rook", vector[0] != 0, at, _Line(rook_h if vector[0] else rook_v, "rider"))
    for vector, limit in table.hop.items():
        at = table.order[("hop", vector)]
        kind: Literal["cannon", "grasshopper"] = "grasshopper" if limit == 1 else "cannon"
        if _shape(vector) == (1, 1):
            add(kind, 2, at, _Line(diagonal, kind))
        else:
            add(kind, vector[0] != 0, at, _Line(rook_h if vector[0] else rook_v, kind))
    out: list[tuple[int, _Line, Vector]] = []
    for at, line in sorted(found.values(), key=lambda item: item[0]):
        out.extend((at, line, vector) for vector in line.vectors)
    return out


def _multiple(vector: Vector, unit: Vector) -> int:
    """The k >= 1 with ``vector == k * unit``, or 0."""
    for k in range(1, 4):
        if (k * unit[0], k * unit[1]) == vector:
            return k
    return 0


def _reach(table: _Table, vector: Vector) -> tuple[int | None, set[int]]:
    """The steps along ``vector`` that the table reaches on an empty board (Fairy-Stockfish's
    mask of the squares a generator may give): every step up to the first value (``None``:
    without end) and the steps of the second."""
    up_to: int | None = 0
    points: set[int] = set()
    for offset in table.step:
        k = _multiple(offset, vector)
        if k:
            points.add(k)
    rays = [(unit, limit or None) for unit, limit in table.slide.items()]
    rays += [(unit, None if limit in (0, 1) else limit) for unit, limit in table.hop.items()]
    for unit, limit in rays:
        k = _multiple(vector, unit)
        if k and up_to is not None:
            up_to = None if limit is None else max(up_to, limit // k)
    return up_to, points


def _ranges(
    up_to: int | None, points: set[int], leaps: set[int], lowest: int
) -> list[tuple[int, int | None]]:
    """The steps ``{1..up_to} | points``, without ``leaps`` and below ``lowest``, as ranges."""
    top = max(points | leaps | {up_to or 0, lowest}) + 1
    steps = [k for k in range(lowest, top + 1)
             if k not in leaps and (k in points or up_to is None or k <= up_to)]
    out: list[tuple[int, int | None]] = []
    for k in steps:
        if out and out[-1][1] == k - 1:
            out[-1] = (out[-1][0], k)
        else:
            out.append((k, k))
    if up_to is None and out and out[-1][1] == top:
        out[-1] = (out[-1][0], None)
    return out


# A movement's geometry: (vector, first, last, hops, grasshopper, lame).
_Spec = tuple[Vector, int, int | None, int, bool, bool]


def _specs(table: _Table) -> list[tuple[int, _Spec]]:
    """What a table lets a piece do, as (position in the text, geometry), one per direction."""
    out: list[tuple[int, _Spec]] = []
    for vector, limit in table.step.items():
        if not limit:
            out.append((table.order[("step", vector)], (vector, 1, 1, 0, False, False)))
    leaped = {vector for vector, limit in table.step.items() if not limit}
    for at, line, vector in _generators(table):
        up_to, points = _reach(table, vector)
        leaps = {k for k in range(1, 4) if (k * vector[0], k * vector[1]) in leaped}
        if line.kind == "lame":
            if (up_to is None or up_to >= 1 or 1 in points) and 1 not in leaps:
                out.append((at, (vector, 1, 1, 0, False, True)))
            continue
        hops = 0 if line.kind == "rider" else 1
        for first, last in _ranges(up_to, points, leaps, 1 + hops):
            out.append((at, (vector, first, last, hops, line.kind == "grasshopper", False)))
    return out


def _movements(
    tables: dict[tuple[bool, str], _Table], initial: Region | None, en_passant: bool
) -> tuple[Movement, ...]:
    merged: dict[tuple[bool, _Spec], tuple[int, set[str]]] = {}
    for (first_move, modality), table in tables.items():
        for at, spec in _specs(table):
            at_before, modes = merged.get((first_move, spec), (at, set()))
            merged[(first_move, spec)] = (min(at, at_before), modes | {modality})
    grouped: dict[tuple[bool, Mode, int, int | None, int, bool, bool], list[Vector]] = {}
    for (first_move, (vector, first, last, hops, grasshopper, lame)), (_, modes) in sorted(
            merged.items(), key=lambda item: (item[0][0], item[1][0])):
        mode: Mode = "both" if len(modes) == 2 else ("move" if "move" in modes else "capture")
        vectors = grouped.setdefault((first_move, mode, first, last, hops, grasshopper, lame), [])
        if vector not in vectors:
            vectors.append(vector)
    return tuple(
        Movement(tuple(vectors), first=first, last=last, mode=mode, hops=hops, grasshopper=grasshopper,
                 lame=lame, sources=initial if first_move else None,
                 en_passant=en_passant and mode == "capture" and not first_move)
        for (first_move, mode, first, last, hops, grasshopper, lame), vectors in grouped.items()
    )


def parse(text: str, *, initial: Region | None = None) -> tuple[Movement, ...]:
    """The movements of a piece written ``text`` in Betza's notation, as Fairy-Stockfish reads
    it (see the module's notes), in the mover's frame. ``initial``: the squares, in the mover's
    frame, where its initial moves (``i``) apply, Fairy-Stockfish's double-step region (needed
    when the text has ``i``). Raises :class:`~ggn.errors.NotationError` at the first part of
    the text that Fairy-Stockfish would not turn into moves.

    >>> [(m.vectors, m.lame) for m in parse("nN")][0][1]
    True
    >>> parse("R2")[0].last
    2
    >>> parse("gQ")[0].grasshopper
    True
    >>> parse("fmWfceFifmnD", initial=frozenset({(4, 1)}))[2].sources
    frozenset({(4, 1)})
    >>> parse("fjN")
    Traceback (most recent call last):
    ...
    ggn.errors.NotationError: invalid Betza 'fjN': 'j' means nothing in Fairy-Stockfish's Betza ...
    """
    expect(text, str, "text", "a Betza string")
    if initial is not None:
        expect(initial, frozenset, "initial", "a frozenset of squares or None")
    tables: dict[tuple[bool, str], _Table] = {}
    modalities: list[str] = []
    explicit: list[int] = []
    hopper = lame = first_move = False
    distance = 0
    directions: list[tuple[str, int]] = []
    start: int | None = None
    en_passant = False
    i = 0

    def fail(reason: str, at: int, end: int | None = None) -> NotationError:
        return NotationError("Betza", text, reason, at, at + 1 if end is None else end)

    while i < len(text):
        c = text[i]
        if start is None:
            start = i
        # Each modifier is kept once (the first 'c' for its place): a text of a million of them
        # is not a list of a million.
        if c in "mc":
            modality = "move" if c == "m" else "capture"
            if modality not in modalities:
                modalities.append(modality)
            if c == "c" and not explicit:
                explicit.append(i)
        elif c in "pg":
            hopper = True
            if c == "g":
                distance = 1
        elif c == "n":
            lame = True
        elif c == "i":
            first_move = True
        elif c == "e":
            en_passant = True
            if start == i:
                start = None  # FSF reads 'e' anywhere: it belongs to no atom
        elif c in _VERTICALS or c in _HORIZONTALS:
            following = text[i + 1] if i + 1 < len(text) else ""
            if following and (following == c or (c in _VERTICALS and following in _HORIZONTALS)
                              or (c in _HORIZONTALS and following in _VERTICALS)):
                if all(pair != c + following for pair, _ in directions):
                    directions.append((c + following, i))
                i += 2
                continue
            if all(pair != c + c for pair, _ in directions):
                directions.append((c + c, i))
        elif c in _LEAPERS or c in _RIDERS:
            atoms = _RIDERS[c] if c in _RIDERS else _LEAPERS[c]
            rider = c in _RIDERS
            end = i + 1
            if end < len(text) and (text[end].isdigit() or text[end] == c):
                rider = True
                if text[end].isdigit():
                    if not text[end].isascii():
                        raise fail(f"{text[end]!r} is not a range: ranges are 0 to 9", end)
                    distance = int(text[end])
                    if end + 1 < len(text) and text[end + 1].isdigit():
                        raise fail("a range is one digit in Fairy-Stockfish (it reads the next as nothing)",
                                   end, end + 2)
                end += 1
            if lame and (rider or hopper):
                raise fail("'n' (lame) applies to a leaper that neither rides nor hops", start, end)
            if not rider and lame:
                distance = -1
            if not modalities:
                modalities = ["move", "capture"]
            if first_move and explicit:
                raise fail("Fairy-Stockfish has no initial captures ('i' with 'c')", explicit[0])
            if first_move and initial is None:
                raise fail("an initial move ('i') needs the squares it applies from (initial)", start, end)
            kind: _Kind = "hop" if hopper else ("slide" if rider else "step")
            vectors: list[Vector] = []
            for atom in atoms:
                chosen: list[str] = []
                for pair, _ in directions:
                    if len(atoms) == 1 and atom[1] == 0 and pair[0] != pair[1]:
                        chosen += [pair[0] * 2, pair[1] * 2]
                    else:
                        chosen.append(pair)
                for (_, pairs), vector in zip(_EIGHT, _eight(atom), strict=True):
                    if (not chosen or any(pair in pairs for pair in chosen)) and vector not in vectors:
                        vectors.append(vector)
            if not vectors:
                written = "".join(pair for pair, _ in directions)
                raise fail(f"the directions {written!r} select no move of {c!r}", directions[0][1], end)
            shape = _shape(vectors[0]) if len(atoms) == 1 else None
            if kind == "step" and distance == -1 and shape not in _LAME_SHAPES:
                raise fail(f"Fairy-Stockfish has no lame {c!r}: it gives one no moves (it plays nN, nA, nZ "
                           "and nD only)", start, end)
            if kind == "slide" and not all(_shape(v) in _SLIDE_SHAPES for v in vectors):
                raise fail(f"Fairy-Stockfish rides only along W, F and N lines, not {c!r}", start, end)
            if kind == "hop" and not all(_shape(v) in _HOP_SHAPES for v in vectors):
                raise fail(f"Fairy-Stockfish hops only along W and F lines, not {c!r}", start, end)
            for modality in dict.fromkeys(modalities):
                if first_move and modality == "capture":
                    continue  # FSF keeps no initial captures
                table = tables.setdefault((first_move, modality), _Table())
                for vector in vectors:
                    table.put(kind, vector, distance, start)
            modalities, explicit, directions = [], [], []
            hopper = lame = first_move = False
            distance = 0
            start = None
            i = end
            continue
        elif c == "j":
            raise fail("'j' means nothing in Fairy-Stockfish's Betza (it would be ignored)", i)
        elif c.isdigit():
            raise fail("a range follows an atom", i)
        else:
            raise fail(f"{c!r} is no atom nor modifier of Fairy-Stockfish's Betza", i)
        i += 1
    if start is not None:
        raise fail("modifiers with no atom after them", start, len(text))
    return _movements(tables, initial, en_passant)
