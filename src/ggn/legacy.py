"""The legacy GGN format (2014), still found in users' files.

Each entry lists the GAN piece, its source square (or ``*`` for a drop), its
destination square, and possibilities with a ``board_check`` (squares mapped
to one of five occupation states: ``empty``, ``occupied``, ``enemy``, ``ally``
or an exact piece), a ``board_patch`` (squares set to a piece or emptied), and
optional ``in_hand_add`` / ``in_hand_del`` hand changes.

Squares are labels: the legacy text allows any labelling convention, so any
non-empty string is accepted (``*`` only as a source). Piece keys and pieces
in checks and patches are GAN with the optional ``+``/``-`` state prefix and
``'`` derivation suffix the legacy schema allows; hand pieces are plain GAN,
as the schema's narrower pattern for them says.

>>> legacy = LegacyRuleset.loads('''{"SHOGI:PAWN": {"*": {"e5": [{
...     "board_check": {"e5": "empty"}, "board_patch": {"e5": "SHOGI:PAWN"},
...     "in_hand_del": "SHOGI:PAWN"}]}}}''')
>>> entry = legacy["SHOGI:PAWN"]["*"]["e5"][0]
>>> entry.board_check["e5"], str(entry.in_hand_del)
('empty', 'SHOGI:PAWN')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Literal, Self, TypeAlias, TypeVar

from ggn._cache import Memo
from ggn._document import Document, FrozenMap, parse_key, report_duplicates
from ggn._json import Collector, Full, clip, describe, quote
from ggn._types import expect
from ggn.errors import DocumentError, GGNError, NotationError, extend
from ggn.gan import Gan, LegacyPiece

__all__ = [
    "OCCUPATION_STATES", "LegacyEntry", "LegacyPieceRules", "LegacyRuleset", "LegacySourceRules",
    "Occupation",
]

Occupation = Literal["empty", "occupied", "enemy", "ally"]
OCCUPATION_STATES: Final[tuple[Occupation, ...]] = ("empty", "occupied", "enemy", "ally")
_ENTRY_FIELDS: Final = ("board_check", "board_patch", "in_hand_add", "in_hand_del")
_REQUIRED: Final = ("board_check", "board_patch")
_LEGACY: Final = " in the legacy format"

_parse_piece: Final = Memo(LegacyPiece.parse)
_parse_gan: Final = Memo(Gan.parse)


def _quoted(text: object) -> str:
    """A label or a piece (through its text) quoted for a message, cut short by
    :func:`ggn._json.quote`: one of a megabyte is named, not copied into every message."""
    return quote(str(text))


def _label(text: str) -> str:
    if not isinstance(text, str) or not text:
        raise NotationError("square label", str(text), "a square label is a non-empty string")
    return text


class _Entry:
    """What the entries of both dialects of the legacy nesting share (:class:`LegacyEntry`,
    :class:`ggn.legacy_gem.GemEntry`): their fields set once from checked parts (by the
    constructor, or by the loader with no second pass), compared and hashed by their values,
    immutable. A subclass names its ``_kind`` and ``_check``, and sets its fields in ``_set``."""

    __slots__ = ()
    _kind: ClassVar[str]

    @staticmethod
    def _check(item: Any, path: str, out: Collector) -> Any:
        raise NotImplementedError

    def _set(self, parts: Any) -> None:
        raise NotImplementedError

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        raise NotImplementedError

    def _set_written(self, written: dict[str, Any]) -> None:
        """Set the fields from values the constructor was given, written as JSON would give
        them, after the loader's one check of an entry: the same rules, messages and paths."""
        out = Collector()
        try:
            parts = type(self)._check(written, "", out)
        except Full:
            parts = None
        if parts is None:
            raise DocumentError(self._kind, tuple(out.violations), out.truncated)
        self._set(parts)

    @classmethod
    def _trusted(cls, parts: Any) -> Self:
        """An entry of values the loader has already checked: no second pass over them."""
        entry = object.__new__(cls)
        entry._set(parts)
        return entry

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.to_value() == other.to_value()

    def __hash__(self) -> int:
        return hash(repr(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuilt, (type(self), self.to_value(explicit=True)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_value()!r})"


def _rebuilt(kind: type[_Entry], written: dict[str, Any]) -> _Entry:
    """An entry unpickled: set again from its value, through the constructor's checks."""
    entry = object.__new__(kind)
    entry._set_written(written)
    return entry


class LegacyEntry(_Entry):
    """One possibility of the legacy format: its pre-conditions and its effects.

    Built directly, it is validated as the loader validates an entry: square labels are
    non-empty strings other than ``*``; a ``board_check`` state is an occupation state or a
    piece, a ``board_patch`` value a piece or None, a hand field a GAN or None. A piece may
    be given as a :class:`~ggn.gan.LegacyPiece` (:class:`~ggn.gan.Gan` for the hand fields) or
    as its string, which is parsed. A value of the wrong Python type raises
    :class:`TypeError`; an invalid value, :class:`~ggn.errors.DocumentError` with every fault
    and its path within the entry.

    >>> entry = LegacyEntry({"d5": "occupied", "d4": "chess:pawn"}, {"d4": None})
    >>> entry.board_check["d4"]
    LegacyPiece.parse('chess:pawn')
    >>> LegacyEntry({"d4": "friend"}, {"*": None})
    Traceback (most recent call last):
      ...
    ggn.errors.DocumentError: invalid legacy GGN entry document: 2 violations
      /board_check/d4: occupation state 'friend' is none of empty, occupied, enemy, ally nor a GAN ...
      /board_patch/*: '*' (the hand) cannot be a square: only a source may be '*' in the legacy format
    """

    __slots__ = ("board_check", "board_patch", "in_hand_add", "in_hand_del")
    _kind: ClassVar[str] = "legacy GGN entry"
    board_check: Mapping[str, Occupation | LegacyPiece]
    board_patch: Mapping[str, LegacyPiece | None]
    in_hand_add: Gan | None
    in_hand_del: Gan | None

    def __init__(
        self,
        board_check: Mapping[str, Occupation | LegacyPiece | str],
        board_patch: Mapping[str, LegacyPiece | str | None],
        in_hand_add: Gan | str | None = None,
        in_hand_del: Gan | str | None = None,
    ) -> None:
        # The values are written as the loader reads them, so that its one check of an entry
        # serves here too: the same rules, messages and paths.
        written = {
            "board_check": _written_squares(board_check, "board_check", "a board_check state must be "
                                            "an occupation state (str) or a LegacyPiece"),
            "board_patch": _written_squares(board_patch, "board_patch", "a board_patch value must be "
                                            "a LegacyPiece, its string or None", nullable=True),
            "in_hand_add": _written_hand(in_hand_add, "in_hand_add"),
            "in_hand_del": _written_hand(in_hand_del, "in_hand_del"),
        }
        self._set_written(written)

    @staticmethod
    def _check(item: Any, path: str, out: Collector) -> _EntryParts | None:
        return _check_entry(item, path, out)

    def _set(self, parts: _EntryParts) -> None:
        board_check, board_patch, in_hand_add, in_hand_del = parts
        object.__setattr__(self, "board_check", _Squares(board_check))
        object.__setattr__(self, "board_patch", _Squares(board_patch))
        object.__setattr__(self, "in_hand_add", in_hand_add)
        object.__setattr__(self, "in_hand_del", in_hand_del)

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        expect(explicit, bool, "explicit", "a bool")
        value: dict[str, Any] = {
            "board_check": {k: str(v) for k, v in self.board_check.items()},
            "board_patch": {k: (None if v is None else str(v)) for k, v in self.board_patch.items()},
        }
        for field in ("in_hand_add", "in_hand_del"):
            piece = getattr(self, field)
            if explicit or piece is not None:
                value[field] = None if piece is None else str(piece)
        return value


def _written_squares(value: object, field: str, what: str, *, nullable: bool = False) -> dict[str, Any]:
    """A square mapping given to the constructor, its Python types checked (TypeError) and
    written as JSON would give it: a parsed piece as its text."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{field} must be a mapping of square labels, got {type(value).__name__}")
    written: dict[str, Any] = {}
    for label, state in value.items():
        if not isinstance(label, str):
            raise TypeError(f"{field} keys must be square labels (str), got {type(label).__name__}")
        if isinstance(state, LegacyPiece):
            written[label] = str(state)
        elif isinstance(state, str) or (nullable and state is None):
            written[label] = state
        else:
            raise TypeError(f"{what}, got {type(state).__name__}")
    return written


def _written_hand(piece: object, field: str) -> str | None:
    """A hand field given to the constructor, as :func:`_written_squares` writes a square."""
    if isinstance(piece, Gan):
        return str(piece)
    if piece is None or isinstance(piece, str):
        return piece
    raise TypeError(f"{field} must be a Gan, its string or None, got {type(piece).__name__}")


class _Squares(FrozenMap[str, Any]):
    __slots__ = ()
    _what: ClassVar[str] = "square"
    _parse_key = staticmethod(_label)


LegacyEntries = tuple[LegacyEntry, ...]
_EntryParts: TypeAlias = tuple[dict[str, Any], dict[str, Any], Gan | None, Gan | None]
"""An entry's checked board_check, board_patch, in_hand_add and in_hand_del."""


def _check_level(data: object, owner: str, keys: Any, values: Any, what: str) -> None:
    """The Python types of one level of a legacy ruleset built directly (TypeError otherwise):
    its keys and values are those the loader makes; raw JSON values go through ``from_value``."""
    if not isinstance(data, dict):
        raise TypeError(f"{owner} takes a dict of {what}, got {type(data).__name__} (build one from "
                        "decoded JSON with LegacyRuleset.from_value)")
    for key, value in data.items():
        if not isinstance(key, keys) or not values(value):
            raise TypeError(f"{owner} takes a dict of {what}, got {type(key).__name__} to "
                            f"{type(value).__name__} (build one from decoded JSON with "
                            "LegacyRuleset.from_value)")
        if key == "" or (key == "*" and owner == "LegacySourceRules"):
            raise GGNError(f"{owner}: {key!r} is not a {'destination' if key else 'label'}: a label "
                           "is a non-empty string, and only a source may be '*'")


def _entries(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(e, LegacyEntry) for e in value)


class _Trusted:
    """The loader's way to build a level whose contents it has checked, with no second pass."""

    __slots__ = ()

    @classmethod
    def _trusted(cls: type[_T], data: dict[Any, Any], where: str) -> _T:
        level = object.__new__(cls)
        FrozenMap.__init__(level, data, where)  # type: ignore[arg-type]
        return level


_T = TypeVar("_T", bound="_Trusted")
# The levels of the nesting and the entries, as each dialect makes them (see _check_nesting).
_Entries = TypeVar("_Entries")
_Destinations = TypeVar("_Destinations")
_Sources = TypeVar("_Sources")
_Parts = TypeVar("_Parts")
_Item = TypeVar("_Item")


class LegacySourceRules(_Trusted, FrozenMap[str, LegacyEntries]):
    """The destinations of one piece from one source: label to its non-empty tuple of entries."""

    __slots__ = ()
    _what: ClassVar[str] = "destination"
    _parse_key = staticmethod(_label)

    def __init__(self, data: dict[str, LegacyEntries], where: str = "") -> None:
        _check_level(data, "LegacySourceRules", str, _entries,
                     "destination labels to non-empty tuples of LegacyEntry")
        super().__init__(data, where)

    @property
    def destinations(self) -> tuple[str, ...]:
        return tuple(self._data)

    def destination(self, label: str) -> LegacyEntries:
        expect(label, str, "label", "a str")
        return self[label]


class LegacyPieceRules(_Trusted, FrozenMap[str, LegacySourceRules]):
    """The sources of one piece: label (or ``*``) to its destinations."""

    __slots__ = ()
    _what: ClassVar[str] = "source"
    _parse_key = staticmethod(_label)

    def __init__(self, data: dict[str, LegacySourceRules], where: str = "") -> None:
        _check_level(data, "LegacyPieceRules", str, lambda v: isinstance(v, LegacySourceRules),
                     "source labels to LegacySourceRules")
        super().__init__(data, where)

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(self._data)

    def source(self, label: str) -> LegacySourceRules:
        expect(label, str, "label", "a str")
        return self[label]


class LegacyRuleset(_Trusted, FrozenMap[LegacyPiece, LegacyPieceRules], Document):
    """A legacy GGN document, validated and read-only; navigate as a :class:`~ggn.ruleset.Ruleset`.

    Build it from JSON with :meth:`loads`, :meth:`load` or :meth:`from_value`; built directly,
    it takes the parsed levels (pieces to :class:`LegacyPieceRules`, and so on down to tuples
    of :class:`LegacyEntry`) and raises :class:`TypeError` for anything else.
    """

    __slots__ = ()
    _what: ClassVar[str] = "piece"
    _parse_key = staticmethod(_parse_piece)
    _kind: ClassVar[str] = "legacy GGN"

    def __init__(
        self, data: dict[LegacyPiece, LegacyPieceRules], where: str = "in the legacy ruleset"
    ) -> None:
        _check_level(data, "LegacyRuleset", LegacyPiece, lambda v: isinstance(v, LegacyPieceRules),
                     "LegacyPiece to LegacyPieceRules")
        super().__init__(data, where)

    @property
    def pieces(self) -> tuple[LegacyPiece, ...]:
        return tuple(self._data)

    def select(self, piece: str | LegacyPiece) -> LegacyPieceRules:
        if not isinstance(piece, LegacyPiece):
            expect(piece, str, "piece", "a LegacyPiece or its string")
        return self[piece]

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        """Plain JSON-ready values; ``explicit`` writes null hand fields too."""
        expect(explicit, bool, "explicit", "a bool")
        return {
            str(piece): {
                source: {
                    destination: [entry.to_value(explicit=explicit) for entry in entries]
                    for destination, entries in rules.items()
                }
                for source, rules in sources.items()
            }
            for piece, sources in self._data.items()
        }

    @classmethod
    def _build(cls, value: Any, out: Collector) -> LegacyRuleset | None:
        if not isinstance(value, dict):
            out.add("", "a legacy GGN document must be an object mapping pieces (GAN) to their "
                        f"sources, got {describe(value)}")
            return None
        report_duplicates(value, "", out)
        ok = type(value) is dict
        pieces: dict[LegacyPiece, LegacyPieceRules] = {}
        for key, sources in value.items():
            piece = parse_key(key, _parse_piece, "", out, label="piece", expected="is not a GAN identifier")
            if piece is None:
                ok = False
                continue
            rules = _check_sources(sources, extend("", key), key, out)
            if rules is None:
                ok = False
            else:
                pieces[piece] = rules
        return LegacyRuleset._trusted(pieces, "in the legacy ruleset") if ok else None


def _keys(value: dict[Any, Any], path: str, out: Collector, what: str, *, hand: bool,
          dialect: str = _LEGACY) -> bool:
    """Report keys that are not square labels; True when all are. ``dialect`` ends the message
    about a misplaced ``*`` (the gem's dialect, :mod:`ggn.legacy_gem`, names none)."""
    ok = True
    for key in value:
        if not isinstance(key, str):
            ok = False
            out.add(path, f"{what} keys must be strings, got {describe(key)}")
        elif not key:
            ok = False
            out.add(extend(path, key), f"a {what} cannot be the empty string")
        elif key == "*" and not hand:
            ok = False
            out.add(extend(path, key), f"'*' (the hand) cannot be a {what}: only a source may be "
                                       f"'*'{dialect}")
    return ok


def _check_sources(value: Any, path: str, piece: str, out: Collector) -> LegacyPieceRules | None:
    return _check_nesting(value, path, piece, out, entries=_check_entries,
                          destinations=LegacySourceRules._trusted, sources=LegacyPieceRules._trusted)


def _check_nesting(
    value: Any,
    path: str,
    piece: str,
    out: Collector,
    *,
    entries: Callable[[Any, str, Collector], _Entries | None],
    destinations: Callable[[dict[str, _Entries], str], _Destinations],
    sources: Callable[[dict[str, _Destinations], str], _Sources],
    dialect: str = _LEGACY,
) -> _Sources | None:
    """The sources of one piece, and their destinations, checked: the nesting both legacy
    dialects share (this one's and :mod:`ggn.legacy_gem`'s). ``entries`` checks a destination's
    value; ``destinations`` and ``sources`` build the two levels from what was checked."""
    if not isinstance(value, dict):
        out.add(path, f"the sources of {clip(piece)} must be an object, got {describe(value)}")
        return None
    report_duplicates(value, path, out)
    ok = _keys(value, path, out, "source", hand=True, dialect=dialect) and type(value) is dict
    levels: dict[str, _Destinations] = {}
    for source, targets in value.items():
        source_path = extend(path, source)
        where = f"for {clip(piece)} from {clip(str(source))}"
        if not isinstance(targets, dict):
            ok = False
            out.add(source_path, f"the destinations of {clip(piece)} from {clip(str(source))} must be an "
                                 f"object, got {describe(targets)}")
            continue
        report_duplicates(targets, source_path, out)
        ok = _keys(targets, source_path, out, "destination", hand=False, dialect=dialect) and ok
        ok = ok and type(targets) is dict
        table: dict[str, _Entries] = {}
        for destination, raw in targets.items():
            checked = entries(raw, extend(source_path, destination), out)
            if checked is None:
                ok = False
            else:
                table[destination] = checked
        levels[source] = destinations(table, where)
    return sources(levels, f"for {clip(piece)}") if ok else None


def _check_entries(value: Any, path: str, out: Collector) -> LegacyEntries | None:
    return _check_list(value, path, out, check=_check_entry, make=LegacyEntry._trusted, empty=(
        "a destination's array of entries must not be empty in the legacy format"))


def _check_list(
    value: Any,
    path: str,
    out: Collector,
    *,
    check: Callable[[Any, str, Collector], _Parts | None],
    make: Callable[[_Parts], _Item],
    empty: str | None,
) -> tuple[_Item, ...] | None:
    """A destination's array of entries checked, each by ``check`` and made by ``make``;
    ``empty`` is the fault an empty array is, or None where one is allowed."""
    if not isinstance(value, list):
        out.add(path, f"a destination must map to an array of entries, got {describe(value)}")
        return None
    if not value and empty is not None:
        out.add(path, empty)
        return None
    ok = True
    result: list[_Item] = []
    for index, item in enumerate(value):
        parts = check(item, f"{path}/{index}", out)
        if parts is None:
            ok = False
        else:
            result.append(make(parts))
    return tuple(result) if ok else None


def _check_entry(item: Any, item_path: str, out: Collector) -> _EntryParts | None:
    """One entry checked, for the loader and for the constructor of :class:`LegacyEntry`."""
    fields = _check_fields(item, item_path, out, fields=_ENTRY_FIELDS, required=_REQUIRED,
                           unknown=lambda key: f"unknown field {_quoted(key)}: an entry has only "
                                               + ", ".join(repr(f) for f in _ENTRY_FIELDS))
    if fields is None:
        return None
    check = _check_squares(item.get("board_check", {}), item_path + "/board_check", out,
                           expected="board_check must be an object mapping squares to occupation states",
                           read=_occupation)
    patch = _check_pieces(item.get("board_patch", {}), item_path + "/board_patch", out, "patched")
    hands_ok, hands = _check_hands(item, item_path, out, ("in_hand_add", "in_hand_del"))
    if fields and hands_ok and check is not None and patch is not None:
        return check, patch, hands[0], hands[1]
    return None


def _check_fields(
    item: Any,
    path: str,
    out: Collector,
    *,
    fields: tuple[str, ...],
    required: tuple[str, ...],
    unknown: Callable[[str], str],
) -> bool | None:
    """An entry's object and the names of its fields checked: None when it is no object,
    else whether its fields are all known (``unknown`` says why one is not) and present."""
    if not isinstance(item, dict):
        out.add(path, f"an entry must be an object, got {describe(item)}")
        return None
    report_duplicates(item, path, out)
    ok = type(item) is dict
    for key in item:
        if key not in fields:
            ok = False
            if isinstance(key, str):
                out.add(extend(path, key), unknown(key))
            else:
                out.add(path, f"field names must be strings, got {describe(key)}")
    for key in required:
        if key not in item:
            ok = False
            out.add(path, f"missing required field {key!r}")
    return ok


def _check_hands(
    item: dict[Any, Any], path: str, out: Collector, fields: tuple[str, str]
) -> tuple[bool, tuple[Gan | None, Gan | None]]:
    """An entry's two hand fields (GAN or null) checked: whether both are valid, and their pieces."""
    ok = True
    hands: list[Gan | None] = []
    for field in fields:
        raw = item.get(field)
        if raw is None:
            hands.append(None)
            continue
        try:
            hands.append(_parse_gan(raw))
        except NotationError as error:
            ok = False
            hands.append(None)
            if isinstance(raw, str):
                out.add(f"{path}/{field}", f"{_quoted(raw)} is not a GAN identifier: {error.reason}")
            else:
                out.add(f"{path}/{field}", f"{field} must be a GAN string or null, got {describe(raw)}")
    return ok, (hands[0], hands[1])


_BAD: Final = object()
"""What a reader of :func:`_check_squares` returns for a value it has reported as a fault."""


def _check_squares(
    value: Any,
    path: str,
    out: Collector,
    *,
    expected: str,
    read: Callable[[Any, str, Collector], Any],
    dialect: str = _LEGACY,
) -> dict[str, Any] | None:
    """An object of squares checked: ``expected`` says what it must be when it is no object,
    ``read`` reads a square's value (reporting a fault at the path it is given, and returning
    :data:`_BAD`)."""
    if not isinstance(value, dict):
        out.add(path, f"{expected}, got {describe(value)}")
        return None
    report_duplicates(value, path, out)
    ok = _keys(value, path, out, "square", hand=False, dialect=dialect) and type(value) is dict
    result: dict[str, Any] = {}
    for key, raw in value.items():
        read_value = read(raw, extend(path, key), out)
        if read_value is _BAD:
            ok = False
        else:
            result[key] = read_value
    return result if ok else None


def _read_piece(value: Any, path: str, out: Collector, invalid: str, wrong_type: str) -> Any:
    """A square's piece read, or its fault reported and :data:`_BAD`: ``invalid`` says what a
    string that is no piece is not (``{}`` stands for the string), ``wrong_type`` what the value
    must be when it is no string."""
    try:
        return _parse_piece(value)
    except NotationError as error:
        if isinstance(value, str):
            out.add(path, f"{invalid.format(_quoted(value))}: {error.reason}")
        else:
            out.add(path, f"{wrong_type}, got {describe(value)}")
        return _BAD


def _occupation(state: Any, path: str, out: Collector) -> Any:
    if state in OCCUPATION_STATES:
        return state
    return _read_piece(state, path, out, f"occupation state {{}} is none of {', '.join(OCCUPATION_STATES)} "
                                         "nor a GAN identifier", "an occupation state must be a string")


def _check_pieces(
    value: Any, path: str, out: Collector, verb: str, *, dialect: str = _LEGACY
) -> dict[str, LegacyPiece | None] | None:
    """An object of squares set to a piece or emptied (``board_patch``, the gem's ``perform``):
    ``verb`` names what the field does to a square in its messages."""
    field = path.rsplit("/", 1)[1]

    def piece_or_null(piece: Any, where: str, out: Collector) -> Any:
        if piece is None:
            return None
        return _read_piece(piece, where, out, "{} is not a GAN identifier",
                           f"a {verb} square takes a GAN string or null")

    return _check_squares(value, path, out,
                          expected=f"{field} must be an object mapping squares to a piece or null",
                          read=piece_or_null, dialect=dialect)
