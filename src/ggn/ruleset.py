"""GGN 1.0.0 rulesets: which moves are mechanically possible.

A ruleset maps a piece (QPI) to its sources (CELL, or ``*`` for the hand), each
source to its destinations, and each destination to an ordered tuple of
:class:`Possibility`: the ways the move can happen, each with ``must``
conditions that all hold and ``deny`` conditions none of which holds.

>>> rules = Ruleset.loads('''{"C:R": {"a1": {"a4": [
...     {"must": {"a2": "empty", "a3": "empty", "a4": "empty"}},
...     {"must": {"a2": "empty", "a3": "empty", "a4": "enemy"}}]}}}''')
>>> rules.pieces
(Qpi.parse('C:R'),)
>>> [str(p.must["a4"]) for p in rules.select("C:R").source("a1").destination("a4")]
['empty', 'enemy']
>>> rules.select("C:B")
Traceback (most recent call last):
  ...
ggn.errors.NotFoundError: no piece 'C:B' in the ruleset; there are: C:R
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ggn._document import Document, FrozenMap, parse_key, report_duplicates
from ggn._json import Collector, clip, describe, quote
from ggn._types import expect
from ggn.cell import HAND, Cell, Hand, parse_location
from ggn.errors import extend
from ggn.lcn import NO_CONDITIONS, Conditions, _check_conditions
from ggn.qpi import Qpi, _parse_qpi

if TYPE_CHECKING:
    from ggn.move import Move
    from ggn.position import Position

__all__ = [
    "COMPILED_KEPT", "COMPILED_SQUARES_KEPT", "PieceRules", "Possibilities", "Possibility", "Ruleset",
    "SourceRules",
]

COMPILED_KEPT: Final = 8
"""How many board shapes a :class:`Ruleset` keeps compiled (the least recently used goes)."""

COMPILED_SQUARES_KEPT: Final = 1 << 20
"""How many squares, all shapes together, a :class:`Ruleset` keeps compiled beyond the shape
used last (1,048,576: five boards of 200,000 squares, or eight of any size up to 131,072)."""

_KEEPING: Final = threading.Lock()  # guards every ruleset's kept compiled forms

_POSSIBILITY_KEYS = frozenset(("must", "deny"))
_NOT_LOCATION = "is neither a CELL coordinate nor '*'"


class Possibility:
    """One way a move can happen: every ``must`` condition holds and no ``deny`` one does."""

    __slots__ = ("_deny", "_must")
    _must: Conditions
    _deny: Conditions

    def __init__(self, must: Conditions = NO_CONDITIONS, deny: Conditions = NO_CONDITIONS) -> None:
        if type(must) is not Conditions or type(deny) is not Conditions:  # cheap when right
            expect(must, Conditions, "must", "Conditions (Possibility.of takes mappings)")
            expect(deny, Conditions, "deny", "Conditions (Possibility.of takes mappings)")
        object.__setattr__(self, "_must", must)
        object.__setattr__(self, "_deny", deny)

    @property
    def must(self) -> Conditions:
        """Conditions that must all hold (empty when the document leaves ``must`` out)."""
        return self._must

    @property
    def deny(self) -> Conditions:
        """Conditions none of which may hold (empty when the document leaves ``deny`` out)."""
        return self._deny

    @classmethod
    def of(cls, must: dict[str, str] | None = None, deny: dict[str, str] | None = None) -> Possibility:
        """Build from plain mappings of CELL strings to state strings."""
        for name, given in (("must", must), ("deny", deny)):
            if given is not None:
                expect(given, (Mapping,), name, "a mapping of squares to states, or None")
        return cls(Conditions.of(must), Conditions.of(deny))

    def to_value(self, *, explicit: bool = False) -> dict[str, dict[str, str]]:
        value: dict[str, dict[str, str]] = {}
        if explicit or self.must:
            value["must"] = self.must.to_value()
        if explicit or self.deny:
            value["deny"] = self.deny.to_value()
        return value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Possibility):
            return self.must == other.must and self.deny == other.deny
        return NotImplemented

    def __hash__(self) -> int:
        return hash((frozenset(self.must.items()), frozenset(self.deny.items())))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Possibility is immutable: cannot set {name!r}")

    def __repr__(self) -> str:
        return f"Possibility.of(must={self.must.to_value()!r}, deny={self.deny.to_value()!r})"


Possibilities = tuple[Possibility, ...]


class SourceRules(FrozenMap[Cell | Hand, Possibilities]):
    """The destinations of one piece from one source, each with its possibilities."""

    __slots__ = ()
    _what: ClassVar[str] = "destination"
    _parse_key = staticmethod(parse_location)

    @property
    def destinations(self) -> tuple[Cell | Hand, ...]:
        return tuple(self._data)

    def destination(self, location: str | Cell | Hand) -> Possibilities:
        """The possibilities of a destination; raise NotFoundError if it is not listed."""
        if not isinstance(location, Cell | Hand):
            expect(location, str, "location", "a Cell, HAND, a CELL string or '*'")
        return self[location]


class PieceRules(FrozenMap[Cell | Hand, SourceRules]):
    """The sources of one piece, each with its destinations."""

    __slots__ = ()
    _what: ClassVar[str] = "source"
    _parse_key = staticmethod(parse_location)

    @property
    def sources(self) -> tuple[Cell | Hand, ...]:
        return tuple(self._data)

    def source(self, location: str | Cell | Hand) -> SourceRules:
        """The destinations from a source; raise NotFoundError if it is not listed."""
        if not isinstance(location, Cell | Hand):
            expect(location, str, "location", "a Cell, HAND, a CELL string or '*'")
        return self[location]


class Ruleset(FrozenMap[Qpi, PieceRules], Document):
    """A GGN 1.0.0 document, validated and read-only.

    Load with :meth:`loads` (text or bytes), :meth:`load` (a path or file) or
    :meth:`from_value` (decoded JSON). Navigate with :meth:`select`,
    :meth:`PieceRules.source` and :meth:`SourceRules.destination`, or by
    indexing (``rules["C:R"]["a1"]["a4"]``); keys may be given as strings.
    """

    __slots__ = ("_compiled", "_last")
    _what: ClassVar[str] = "piece"
    _parse_key = staticmethod(_parse_qpi)
    _kind: ClassVar[str] = "GGN"
    # The compiled forms by board shape, the one used last at the end: at most
    # COMPILED_KEPT, since a form for a board of 200,000 squares takes tens of MB.
    _compiled: OrderedDict[tuple[int, ...], Any]
    _last: Any  # the compiled form used last: most callers ask about one board shape

    def __init__(self, data: dict[Qpi, PieceRules], where: str = "in the ruleset") -> None:
        super().__init__(data, where)
        self._compiled = OrderedDict()
        self._last = None

    @property
    def pieces(self) -> tuple[Qpi, ...]:
        return tuple(self._data)

    def moves(
        self,
        position: Position,
        *,
        piece: str | Qpi | None = None,
        source: str | Cell | Hand | None = None,
        destination: str | Cell | Hand | None = None,
    ) -> list[Move]:
        """Every pseudo-legal move of ``position`` (see :mod:`ggn.compiled`); with ``piece``,
        ``source`` or ``destination``, only those, found without listing the others.

        The ruleset compiles once per board shape, on first use, and keeps the compiled form.
        """
        try:
            geometry = position._geometry
        except AttributeError:
            raise TypeError(f"position must be a Position, got {type(position).__name__}") from None
        last = self._last
        if last is not None and piece is None and source is None and destination is None \
                and last.geometry is geometry:
            moves: list[Move] = last.moves(position)  # the common case, first and fast
            return moves
        if last is not None and last.geometry is geometry:
            compiled = last
        else:
            compiled = self._compiled_for(position.shape, geometry)
        if piece is None and source is None and destination is None:
            every: list[Move] = compiled.moves(position)
            return every
        if piece is not None and not isinstance(piece, Qpi):
            expect(piece, str, "piece", "a Qpi, a QPI string or None")
        for name, location in (("source", source), ("destination", destination)):
            if location is not None and not isinstance(location, Cell | Hand):
                expect(location, str, name, "a Cell, HAND, a CELL string, '*' or None")
        selected: list[Move] = compiled.select(
            position,
            _parse_qpi(piece) if isinstance(piece, str) else piece,
            parse_location(source) if isinstance(source, str) else source,
            parse_location(destination) if isinstance(destination, str) else destination,
        )
        return selected

    def _compiled_for(self, shape: tuple[int, ...], geometry: Any) -> Any:
        """The compiled form for a board shape, made on first use; the least recently used
        go when more than :data:`COMPILED_KEPT`, or :data:`COMPILED_SQUARES_KEPT` squares,
        are kept."""
        # Layer 4 (positions and evaluation) is imported here, at call time, on purpose: the
        # document keeps its compiled forms, and the document layer stays importable alone.
        from ggn.compiled import CompiledRuleset  # noqa: PLC0415

        kept = self._compiled
        with _KEEPING:
            compiled = kept.get(shape)
            if compiled is not None:
                kept.move_to_end(shape)
                self._last = compiled
                return compiled
        made = CompiledRuleset(self, geometry)  # outside the lock: one list a square
        with _KEEPING:
            # Another thread may have made one meanwhile: all use the same, compiled once.
            compiled = kept.setdefault(shape, made)
            kept.move_to_end(shape)
            squares = sum(form.geometry.size for form in kept.values())
            while len(kept) > COMPILED_KEPT or (squares > COMPILED_SQUARES_KEPT and len(kept) > 1):
                squares -= kept.popitem(last=False)[1].geometry.size
            self._last = compiled
        return compiled

    def select(self, piece: str | Qpi) -> PieceRules:
        """The sources of a piece; raise NotFoundError if the ruleset does not list it."""
        if not isinstance(piece, Qpi):
            expect(piece, str, "piece", "a Qpi or a QPI string")
        return self[piece]

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        """Plain JSON-ready values. ``explicit`` writes ``must`` and ``deny`` in every
        possibility, even when empty, as the published reference library requires."""
        return {
            str(piece): {
                str(source): {
                    str(destination): [p.to_value(explicit=explicit) for p in possibilities]
                    for destination, possibilities in rules._data.items()
                }
                for source, rules in sources._data.items()
            }
            for piece, sources in self._data.items()
        }

    @classmethod
    def _build(cls, value: Any, out: Collector) -> Ruleset | None:
        if not isinstance(value, dict):
            out.add("", "a GGN document must be an object mapping pieces (QPI) to their sources, "
                        f"got {describe(value)}")
            return None
        report_duplicates(value, "", out)
        ok = True
        pieces: dict[Qpi, PieceRules] = {}
        for key, sources in value.items():
            piece = parse_key(key, _parse_qpi, "", out, label="piece", expected="is not a QPI")
            # Below a key that is not valid, every violation is reported all the same.
            rules = _check_piece(sources, extend("", key), str(key), out)
            if piece is None or rules is None:
                ok = False
            else:
                pieces[piece] = rules
        return Ruleset(pieces) if ok else None


def _check_piece(value: Any, path: str, piece: str, out: Collector) -> PieceRules | None:
    if not isinstance(value, dict):
        out.add(path, f"the sources of {clip(piece)} must be an object mapping locations to "
                      f"destinations, got {describe(value)}")
        return None
    report_duplicates(value, path, out)
    ok = type(value) is dict
    sources: dict[Cell | Hand, SourceRules] = {}
    for key, destinations in value.items():
        source = parse_key(key, parse_location, path, out, label="source", expected=_NOT_LOCATION)
        rules = _check_source(destinations, extend(path, key), source, out, written=str(key), piece=piece)
        if source is None or rules is None:
            ok = False
        else:
            sources[source] = rules
    return PieceRules(sources, f"for {piece}") if ok else None


def _check_source(
    value: Any, path: str, source: Cell | Hand | None, out: Collector, *, written: str, piece: str
) -> SourceRules | None:
    """The destinations from a source (``None`` when its key is not a location: what can
    be checked without it still is; ``written`` is the key, for messages)."""
    if not isinstance(value, dict):
        out.add(path, f"the destinations of {clip(piece)} from {clip(written)} must be an object mapping "
                      f"locations to arrays of possibilities, got {describe(value)}")
        return None
    report_duplicates(value, path, out)
    ok = type(value) is dict
    forbidden = source if isinstance(source, Cell) else None
    destinations: dict[Cell | Hand, Possibilities] = {}
    for key, possibilities in value.items():
        dest_path = extend(path, key)
        destination = parse_key(key, parse_location, path, out, label="destination", expected=_NOT_LOCATION)
        if destination is None:
            ok = False
        elif destination is HAND and source is HAND:
            ok = False
            out.add(dest_path, "a move from the hand '*' to the hand '*' is not allowed "
                               "(GGN 1.0.0, section 9.2: hand to hand is not a displacement)")
        if not isinstance(possibilities, list):
            ok = False
            out.add(dest_path, "a destination must map to an array of possibilities (even if "
                               f"empty), got {describe(possibilities)}")
            continue
        checked = _check_possibilities(possibilities, dest_path, forbidden, out)
        if checked is None:
            ok = False
        elif destination is not None:
            destinations[destination] = checked
    return SourceRules(destinations, f"for {piece} from {source}") if ok else None


def _check_possibilities(
    items: list[Any], path: str, source: Cell | None, out: Collector
) -> Possibilities | None:
    ok = True
    result: list[Possibility] = []
    for index, item in enumerate(items):
        item_path = f"{path}/{index}"
        if not isinstance(item, dict):
            ok = False
            out.add(item_path, "a possibility must be an object with optional 'must' and 'deny', "
                               f"got {describe(item)}")
            continue
        report_duplicates(item, item_path, out)
        if type(item) is not dict:
            ok = False
        if not _POSSIBILITY_KEYS.issuperset(item):
            ok = False
            for key in item:
                if key not in _POSSIBILITY_KEYS:
                    if isinstance(key, str):
                        out.add(extend(item_path, key), f"unknown key {quote(key)}: a possibility has "
                                                        "only 'must' and 'deny'")
                    else:
                        out.add(item_path, f"possibility keys must be strings, got {describe(key)}")
        must = deny = NO_CONDITIONS
        raw = item.get("must")
        if raw is not None or "must" in item:
            checked = _check_conditions(raw, item_path + "/must", out, source, "'must'")
            if checked is None:
                ok = False
            else:
                must = checked
        raw = item.get("deny")
        if raw is not None or "deny" in item:
            checked = _check_conditions(raw, item_path + "/deny", out, source, "'deny'")
            if checked is None:
                ok = False
            else:
                deny = checked
        if ok:
            result.append(Possibility(must, deny))
    return tuple(result) if ok else None
