"""The JSON dialect of the Ruby gem ``sashite-ggn`` before its 1.0 (versions 0.3.0 to 0.7.0, 2025).

Those versions read documents of the legacy nesting (piece, source, destination, an array of
entries) whose entries say, instead of ``board_check``/``board_patch``:

- ``require``: squares that must each be in a state (all of them);
- ``prevent``: squares none of which may be in its state;
- ``perform``: the squares the move sets, to a piece or ``null`` (required);
- ``gain``: a piece put into the mover's hand; ``drop``: a piece taken from it
  (0.3.0 to 0.5.0; 0.6.0 dropped them, and this reader takes them either way).

A state is ``"empty"``, ``"enemy"`` (a piece of the side not to move) or a piece, matched
exactly. The gem's README names two states this dialect writes through ``prevent``:
``occupied`` is ``prevent: {X: "empty"}`` and ``ally`` is ``prevent: {X: "enemy"}``; they are
not states of their own here. Pieces are GAN as the gem wrote them (``CHESS:P``, ``shogi:+p``)
or in the longer legacy form; hand pieces have no ``+``, ``-`` or ``'``. A document may carry
a ``"$schema"`` member (a string) beside its pieces, as the gem's schema allows.

>>> gem = GemRuleset.loads('''{"SHOGI:P": {"*": {"5e": [{"require": {"5e": "empty"},
...     "prevent": {"5a": "SHOGI:P", "5i": "SHOGI:P"}, "perform": {"5e": "SHOGI:P"},
...     "drop": "SHOGI:P"}]}}}''')
>>> entry = gem["SHOGI:P"]["*"]["5e"][0]
>>> entry.require["5e"], str(entry.prevent["5a"]), str(entry.drop)
('empty', 'SHOGI:P', 'SHOGI:P')

:func:`ggn.convert.convert_gem` rewrites such a document as GGN 1.0.0, exactly: ``require``
is LCN's ``must`` and ``prevent`` its ``deny``, with GGN 1.0.0's own logic (every ``must``
holds, no ``deny`` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal, TypeAlias

from ggn._document import Document, FrozenMap, parse_key, report_duplicates
from ggn._json import Collector, describe
from ggn._types import expect
from ggn.errors import extend
from ggn.gan import Gan, LegacyPiece
from ggn.legacy import (
    _BAD,
    _check_fields,
    _check_hands,
    _check_list,
    _check_nesting,
    _check_pieces,
    _check_squares,
    _Entry,
    _label,
    _parse_piece,
    _quoted,
    _read_piece,
    _Squares,
    _written_hand,
    _written_squares,
)

__all__ = ["GEM_STATES", "GemDestinations", "GemEntry", "GemRuleset", "GemSources", "GemState"]

GemState: TypeAlias = Literal["empty", "enemy"] | LegacyPiece
GEM_STATES: Final[tuple[str, ...]] = ("empty", "enemy")
_FIELDS: Final = ("require", "prevent", "perform", "gain", "drop")
_WRITTEN_THROUGH_PREVENT: Final = {"occupied": "prevent: {X: 'empty'}", "ally": "prevent: {X: 'enemy'}"}

_Parts: TypeAlias = tuple[dict[str, Any], dict[str, Any], dict[str, Any], Gan | None, Gan | None]


class GemEntry(_Entry):
    """One entry of the gem's dialect: ``require``, ``prevent``, ``perform``, ``gain``, ``drop``.

    Built directly, it is checked as the loader checks an entry (pieces may be given parsed
    or as their strings); a value of the wrong Python type raises :class:`TypeError`, an
    invalid one :class:`~ggn.errors.DocumentError` with every fault and its path.

    >>> GemEntry({"e2": None, "e4": "CHESS:P"}, require={"e3": "empty", "e4": "empty"}).to_value()
    {'require': {'e3': 'empty', 'e4': 'empty'}, 'perform': {'e2': None, 'e4': 'CHESS:P'}}
    >>> GemEntry({"a1": "CHESS:R"}, require={"a2": "ally"})
    Traceback (most recent call last):
      ...
    ggn.errors.DocumentError: invalid sashite-ggn 0.x entry document: 1 violation
      /require/a2: 'ally' is not a state of this dialect: it writes it as prevent: {X: 'enemy'}
    """

    __slots__ = ("drop", "gain", "perform", "prevent", "require")
    _kind: ClassVar[str] = "sashite-ggn 0.x entry"
    require: Mapping[str, GemState]
    prevent: Mapping[str, GemState]
    perform: Mapping[str, LegacyPiece | None]
    gain: Gan | None
    drop: Gan | None

    def __init__(
        self,
        perform: Mapping[str, LegacyPiece | str | None],
        *,
        require: Mapping[str, LegacyPiece | str] | None = None,
        prevent: Mapping[str, LegacyPiece | str] | None = None,
        gain: Gan | str | None = None,
        drop: Gan | str | None = None,
    ) -> None:
        written: dict[str, Any] = {"perform": _written_squares(
            perform, "perform", "a perform value must be a LegacyPiece, a str or None", nullable=True)}
        for name, squares in (("require", require), ("prevent", prevent)):
            if squares is not None:
                written[name] = _written_squares(squares, name,
                                                 f"a {name} value must be a LegacyPiece or a str")
        written["gain"] = _written_hand(gain, "gain")
        written["drop"] = _written_hand(drop, "drop")
        self._set_written(written)

    @staticmethod
    def _check(item: Any, path: str, out: Collector) -> _Parts | None:
        return _check_entry(item, path, out)

    def _set(self, parts: _Parts) -> None:
        require, prevent, perform, gain, drop = parts
        object.__setattr__(self, "require", _Squares(require))
        object.__setattr__(self, "prevent", _Squares(prevent))
        object.__setattr__(self, "perform", _Squares(perform))
        object.__setattr__(self, "gain", gain)
        object.__setattr__(self, "drop", drop)

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        """The entry as JSON-ready values; ``explicit`` writes empty and null fields too."""
        expect(explicit, bool, "explicit", "a bool")
        value: dict[str, Any] = {}
        for name in ("require", "prevent"):
            squares = getattr(self, name)
            if explicit or squares:
                value[name] = {k: str(v) for k, v in squares.items()}
        value["perform"] = {k: (None if v is None else str(v)) for k, v in self.perform.items()}
        for name in ("gain", "drop"):
            piece = getattr(self, name)
            if explicit or piece is not None:
                value[name] = None if piece is None else str(piece)
        return value


GemEntries = tuple[GemEntry, ...]


class GemDestinations(FrozenMap[str, GemEntries]):
    """The destinations of one piece from one source: label to its tuple of entries (which
    may be empty: the gem's 0.3.0 to 0.5.0 allowed it, meaning "no way")."""

    __slots__ = ()
    _what: ClassVar[str] = "destination"
    _parse_key = staticmethod(_label)


class GemSources(FrozenMap[str, GemDestinations]):
    """The sources of one piece: label (or ``*``, a drop) to its destinations."""

    __slots__ = ()
    _what: ClassVar[str] = "source"
    _parse_key = staticmethod(_label)


class GemRuleset(FrozenMap[LegacyPiece, GemSources], Document):
    """A document of the gem's dialect, validated and read-only: piece, source, destination,
    entries, as :class:`~ggn.legacy.LegacyRuleset`. Build it with :meth:`loads`, :meth:`load`
    or :meth:`from_value`. ``schema`` is its ``"$schema"`` member, or None."""

    __slots__ = ("schema",)
    _what: ClassVar[str] = "piece"
    _parse_key = staticmethod(_parse_piece)
    _kind: ClassVar[str] = "sashite-ggn 0.x"
    schema: str | None

    def __init__(self, data: dict[LegacyPiece, GemSources], schema: str | None = None) -> None:
        if not isinstance(data, dict) or not all(
            isinstance(k, LegacyPiece) and isinstance(v, GemSources) for k, v in data.items()
        ):
            raise TypeError("GemRuleset takes a dict of LegacyPiece to GemSources (build one from decoded "
                            "JSON with GemRuleset.from_value)")
        if schema is not None and not isinstance(schema, str):
            raise TypeError(f"schema must be a str or None, got {type(schema).__name__}")
        super().__init__(data, "in the document")
        self.schema = schema

    @property
    def pieces(self) -> tuple[LegacyPiece, ...]:
        return tuple(self._data)

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        """Plain JSON-ready values; ``explicit`` writes empty and null fields too."""
        expect(explicit, bool, "explicit", "a bool")
        value: dict[str, Any] = {} if self.schema is None else {"$schema": self.schema}
        for piece, sources in self._data.items():
            value[str(piece)] = {
                source: {
                    destination: [entry.to_value(explicit=explicit) for entry in entries]
                    for destination, entries in destinations.items()
                }
                for source, destinations in sources.items()
            }
        return value

    @classmethod
    def _build(cls, value: Any, out: Collector) -> GemRuleset | None:
        if not isinstance(value, dict):
            out.add("", "a sashite-ggn 0.x document must be an object mapping pieces (GAN) to their "
                        f"sources, got {describe(value)}")
            return None
        report_duplicates(value, "", out)
        ok = type(value) is dict
        schema: str | None = None
        pieces: dict[LegacyPiece, GemSources] = {}
        for key, sources in value.items():
            if key == "$schema":
                if isinstance(sources, str):
                    schema = sources
                else:
                    ok = False
                    out.add("/$schema", f"'$schema' is a string (a URI), got {describe(sources)}")
                continue
            piece = parse_key(key, _parse_piece, "", out, label="piece", expected="is not a GAN identifier")
            rules = _check_sources(sources, extend("", key) if isinstance(key, str) else "", str(key), out)
            if piece is None or rules is None:
                ok = False
            else:
                pieces[piece] = rules
        return cls(pieces, schema) if ok else None


def _check_sources(value: Any, path: str, piece: str, out: Collector) -> GemSources | None:
    return _check_nesting(value, path, piece, out, entries=_check_entries,
                          destinations=GemDestinations, sources=GemSources, dialect="")


def _check_entries(value: Any, path: str, out: Collector) -> GemEntries | None:
    return _check_list(value, path, out, check=_check_entry, make=GemEntry._trusted, empty=None)


def _check_entry(item: Any, path: str, out: Collector) -> _Parts | None:
    fields = _check_fields(item, path, out, fields=_FIELDS, required=("perform",), unknown=_unknown)
    if fields is None:
        return None
    require = _check_squares(item.get("require", {}), path + "/require", out,
                             expected="require must be an object mapping squares to states", read=_state,
                             dialect="")
    prevent = _check_squares(item.get("prevent", {}), path + "/prevent", out,
                             expected="prevent must be an object mapping squares to states", read=_state,
                             dialect="")
    perform = _check_pieces(item.get("perform", {}), path + "/perform", out, "performed", dialect="")
    hands_ok, (gain, drop) = _check_hands(item, path, out, ("gain", "drop"))
    if fields and hands_ok and require is not None and prevent is not None and perform is not None:
        return require, prevent, perform, gain, drop
    return None


def _unknown(key: str) -> str:
    hint = (" (a field of the legacy format: this document mixes the two)"
            if key in ("board_check", "board_patch", "in_hand_add", "in_hand_del") else "")
    return (f"unknown field {_quoted(key)}: an entry of this dialect has only "
            f"{', '.join(repr(f) for f in _FIELDS)}{hint}")


def _state(state: Any, path: str, out: Collector) -> Any:
    if state in GEM_STATES:
        return state
    if isinstance(state, str) and state in _WRITTEN_THROUGH_PREVENT:
        out.add(path, f"{_quoted(state)} is not a state of this dialect: it writes it as "
                      f"{_WRITTEN_THROUGH_PREVENT[state]}")
        return _BAD
    return _read_piece(state, path, out, "state {} is none of empty, enemy nor a GAN identifier",
                       "a state must be a string")
