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

import contextlib
import gc
import hashlib
import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ggn import cache
from ggn._document import Document, FrozenMap, parse_key, report_duplicates
from ggn._json import DEFAULT_MAX_BYTES, DEFAULT_MAX_ERRORS, Collector, Source, clip, describe, quote
from ggn._types import expect
from ggn.cell import HAND, Cell, Hand, parse_location
from ggn.errors import extend
from ggn.lcn import NO_CONDITIONS, Conditions, StateValue, _check_conditions, parse_state
from ggn.qpi import Qpi, _parse_qpi

if TYPE_CHECKING:
    from ggn.move import Move
    from ggn.position import Position

__all__ = [
    "CACHED_TEXT", "COMPILED_KEPT", "COMPILED_SQUARES_KEPT", "PieceRules", "Possibilities", "Possibility",
    "Ruleset", "SourceRules", "load_packed", "pack", "store_packed", "unpack",
]

CACHED_TEXT: Final = 1 << 16
"""The size from which :meth:`Ruleset.loads` keeps a valid document in the compile cache (64 KiB:
below it, validating again costs about what loading would)."""

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
        expect(explicit, bool, "explicit", "a bool")
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

    def __reduce__(self) -> tuple[object, ...]:
        return (Possibility, (self._must, self._deny))

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

    __slots__ = ("_compiled", "_digest", "_last")
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
        self._digest: bytes | None = None  # the hash of its packed form, made when asked

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        # Pickled as its packed form (a process pool's workers rebuild it without checking it
        # again); the compiled forms are left behind, made again (or loaded) where used.
        return (_unpickle, (pack(self),))

    def digest(self) -> bytes:
        """A hash of the document (of its packed form, :func:`pack`): equal documents, written
        in the same order, have the same; the compile cache's key (:mod:`ggn.cache`)."""
        made = self._digest
        if made is None:
            made = self._digest = hashlib.blake2b(pack(self), digest_size=32).digest()
        return made

    @property
    def pieces(self) -> tuple[Qpi, ...]:
        return tuple(self._data)

    @classmethod
    def loads(
        cls, text: Source, *, max_errors: int = DEFAULT_MAX_ERRORS, max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> Ruleset:
        """Build from JSON text (``str``) or UTF-8 bytes. A valid document of
        :data:`CACHED_TEXT` bytes or more that a process read before, the same bytes, comes from
        the compile cache (:mod:`ggn.cache`) without being validated again."""
        expect(max_errors, int, "max_errors", "an int")
        expect(max_bytes, int, "max_bytes", "an int")
        key: bytes | None = None
        if type(text) is str and len(text) >= CACHED_TEXT:
            with contextlib.suppress(UnicodeEncodeError):
                key = b"s" + text.encode("utf-8")
        elif isinstance(text, bytes | bytearray | memoryview) and len(text) >= CACHED_TEXT:
            key = b"b" + bytes(text)
        if key is not None and len(key) - 1 <= max_bytes:
            data = cache.load("ggn", key)
            if data is not None:
                with contextlib.suppress(ValueError):
                    return unpack(data)
        made: Ruleset = super().loads(text, max_errors=max_errors, max_bytes=max_bytes)
        if key is not None and type(made) is Ruleset:
            cache.store("ggn", key, pack(made))
        return made

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
                and last.geometry is geometry:  # the common case, first and fast
            board = last.board_only
            if board is not None:
                # CompiledRuleset.moves for a document without drops, written out here: a
                # frame less is 3 per cent of listing a chess position. (A piece the document
                # gives no source on its square: the KeyError, and CompiledRuleset.moves.)
                codes = position._codes
                out: list[Move] = []
                ap = out.append
                try:
                    for number in position._occupied[0 if position.active == "first" else 1]:
                        board[number][codes[number]](codes, out, ap)
                except KeyError:
                    pass
                else:
                    return out
            moves: list[Move] = last.moves(position)
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
        expect(explicit, bool, "explicit", "a bool")
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


# --- the packed form -----------------------------------------------------------------------
_PACKED: Final = 1  # the packed form's version


def pack(ruleset: Ruleset) -> bytes:
    """A ruleset as compact bytes (:mod:`marshal` of tables of strings and numbers), which
    :func:`unpack` turns back into an equal ruleset without checking it again: what the compile
    cache keeps of a validated document, and how a ruleset is pickled. Each distinct location,
    state, set of conditions and possibility is written once and referred to by number."""
    expect(ruleset, Ruleset, "ruleset", "a Ruleset")
    locations: dict[Cell | Hand, int] = {}
    states: dict[StateValue, int] = {}
    conditions: dict[tuple[tuple[Cell, StateValue], ...], int] = {}
    possibilities: dict[tuple[int, int], int] = {}
    condition_table: list[tuple[int, ...]] = []
    possibility_table: list[int] = []
    by_id: dict[int, int] = {}  # conditions by identity first: documents share them

    def number(given: Conditions) -> int:
        found = by_id.get(id(given))
        if found is not None:
            return found
        items = tuple(given._data.items())
        found = conditions.get(items)
        if found is None:
            flat: list[int] = []
            for cell, state in items:
                flat.append(locations.setdefault(cell, len(locations)))
                flat.append(states.setdefault(state, len(states)))
            found = conditions[items] = len(condition_table)
            condition_table.append(tuple(flat))
        by_id[id(given)] = found
        return found

    body: list[tuple[str, tuple[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]], ...]]] = []
    for piece, sources in ruleset._data.items():
        packed_sources: list[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]]] = []
        for source, destinations in sources._data.items():
            targets: list[int] = []
            listed_numbers: list[tuple[int, ...]] = []
            for destination, listed in destinations._data.items():
                numbers: list[int] = []
                for possibility in listed:
                    pair = (number(possibility._must), number(possibility._deny))
                    found = possibilities.get(pair)
                    if found is None:
                        found = possibilities[pair] = len(possibilities)
                        possibility_table.extend(pair)
                    numbers.append(found)
                targets.append(locations.setdefault(destination, len(locations)))
                listed_numbers.append(tuple(numbers))
            packed_sources.append((locations.setdefault(source, len(locations)), tuple(targets),
                                   tuple(listed_numbers)))
        body.append((str(piece), tuple(packed_sources)))
    return marshal.dumps((
        _PACKED, tuple(str(location) for location in locations), tuple(str(state) for state in states),
        tuple(condition_table), tuple(possibility_table), tuple(body),
    ))


def store_packed(kind: str, key: bytes, ruleset: Ruleset, extra: Any) -> None:
    """Keep ``ruleset`` in the compile cache (:mod:`ggn.cache`) under ``kind`` and ``key``,
    packed (:func:`pack`), with ``extra``, plain data (what :mod:`marshal` writes) of the
    caller's: :func:`load_packed` gives both back."""
    cache.store(kind, key, marshal.dumps((pack(ruleset), extra)))


def load_packed(kind: str, key: bytes) -> tuple[Ruleset, Any] | None:
    """The ruleset and the data :func:`store_packed` kept under ``kind`` and ``key``, or None
    when the cache holds none, or one of another version's form (the caller makes it again)."""
    data = cache.load(kind, key)
    if data is None:
        return None
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of objects, none of them garbage: no collection needed
    try:
        packed, extra = marshal.loads(data)  # noqa: S302  (a checked file of our own: see ggn.cache)
        return unpack(packed), extra
    except (ValueError, TypeError, EOFError):
        return None
    finally:
        if collecting:
            gc.enable()


def unpack(data: bytes) -> Ruleset:
    """The ruleset of :func:`pack`'s bytes. Raise ``ValueError`` for bytes that are not a
    packed ruleset of this version. Each source's destinations are read from the bytes when
    first asked for, so not every fault is found here: give it only what :func:`pack` wrote,
    as the compile cache does once the file's hash is checked."""
    try:
        version, *tables = marshal.loads(data)  # noqa: S302  (bytes of pack, from a checked file)
    except Exception as error:  # noqa: BLE001  (any fault of foreign bytes is one error)
        raise ValueError(f"not a packed ruleset: {type(error).__name__}: {error}") from None
    if version != _PACKED:
        raise ValueError(f"a packed ruleset of version {version!r}, not {_PACKED}")
    try:
        pieces = _unpacked(*tables)
    except Exception as error:  # noqa: BLE001
        raise ValueError(f"not a packed ruleset: {type(error).__name__}: {error}") from None
    ruleset = Ruleset(pieces)
    ruleset._digest = hashlib.blake2b(data, digest_size=32).digest()
    return ruleset


def _unpacked(
    location_texts: tuple[str, ...], state_texts: tuple[str, ...],
    condition_table: tuple[tuple[int, ...], ...], possibility_table: tuple[int, ...],
    body: tuple[tuple[str, tuple[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]], ...]], ...],
) -> dict[Qpi, PieceRules]:
    locations = [parse_location(text) for text in location_texts]
    tables = _Tables(locations, [parse_state(text) for text in state_texts], condition_table,
                     possibility_table)
    pieces: dict[Qpi, PieceRules] = {}
    for piece_text, sources in body:
        piece = _parse_qpi(piece_text)
        piece_rules: dict[Cell | Hand, SourceRules] = {}
        for source_number, targets, numbers in sources:
            source = locations[source_number]
            piece_rules[source] = _PackedSourceRules(tables, targets, numbers, (piece_text, source))
        pieces[piece] = PieceRules(piece_rules, f"for {piece_text}")
    return pieces


class _Tables:
    """The shared tables of an unpacked ruleset: its locations, states, conditions and
    possibilities, each condition and possibility made when a source that lists it is first
    read (a process that lists the moves of one position reads a few dozen sources of a
    game's thousands)."""

    __slots__ = ("condition_table", "conditions", "locations", "possibilities", "possibility_table", "states")

    def __init__(self, locations: list[Cell | Hand], states: list[StateValue],
                 condition_table: tuple[tuple[int, ...], ...], possibility_table: tuple[int, ...]) -> None:
        self.locations = locations
        self.states = states
        self.condition_table = condition_table
        self.possibility_table = possibility_table
        self.conditions: list[Conditions | None] = [None] * len(condition_table)
        self.possibilities: list[Possibility | None] = [None] * (len(possibility_table) // 2)

    def condition(self, number: int) -> Conditions:
        made = self.conditions[number]
        if made is None:
            flat = self.condition_table[number]
            at: Callable[[int], Any] = self.locations.__getitem__  # a condition's key is a Cell
            made = self.conditions[number] = Conditions(
                dict(zip(map(at, flat[0::2]), map(self.states.__getitem__, flat[1::2]), strict=True))
            ) if flat else NO_CONDITIONS
        return made

    def chosen(self, numbers: tuple[int, ...]) -> Possibilities:
        # Two threads may make a possibility at once: equal values, one of them kept.
        made = self.possibilities
        out: list[Possibility] = []
        for number in numbers:
            possibility = made[number]
            if possibility is None:
                table = self.possibility_table
                possibility = made[number] = Possibility(
                    self.condition(table[2 * number]), self.condition(table[2 * number + 1]))
            out.append(possibility)
        return tuple(out)


class _PackedSourceRules(SourceRules):
    """A source's destinations, read from the packed form when first asked for."""

    __slots__ = ("_numbers", "_owner", "_tables", "_targets")

    def __init__(self, tables: _Tables, targets: tuple[int, ...], numbers: tuple[tuple[int, ...], ...],
                 owner: tuple[str, Cell | Hand]) -> None:
        # The mapping (_data) and the words that place it in messages (_where) are left
        # unset: __getattr__ makes them on first use.
        self._owner = owner
        self._tables = tables
        self._targets = targets
        self._numbers = numbers

    def __getattr__(self, name: str) -> Any:
        if name == "_where":
            piece, source = self._owner
            self._where = where = f"for {piece} from {source}"
            return where
        if name != "_data":
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        tables = self._tables
        data = dict(zip(map(tables.locations.__getitem__, self._targets),
                        map(tables.chosen, self._numbers), strict=True))
        self._data = data
        return data


def _unpickle(data: bytes) -> Ruleset:
    return unpack(data)
