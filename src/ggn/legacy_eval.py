"""The legacy GGN format evaluated: which entries hold on a position, and what they do.

A position is given as a mapping from square label to the piece standing there,
a :class:`~ggn.gan.LegacyPiece` or its string; a square absent from it (or
mapped to ``None``) is empty. The Active Player is ``"first"`` or ``"second"``.
A ``board_check`` holds when each of its squares is in its state:

- ``"empty"``: the square holds no piece;
- ``"occupied"``: it holds a piece;
- ``"enemy"``: it holds a piece whose side differs from the Active Player's;
- ``"ally"``: it holds a piece of the Active Player's side;
- a piece: it holds exactly that piece (state and derivation mark included).

>>> from ggn.legacy import LegacyRuleset
>>> legacy = LegacyRuleset.loads('''{"CHESS:ROOK": {"a1": {"a3": [
...     {"board_check": {"a2": "empty", "a3": "empty"}, "board_patch": {"a1": null, "a3": "CHESS:ROOK"}},
...     {"board_check": {"a2": "empty", "a3": "enemy"}, "board_patch": {"a1": null, "a3": "CHESS:ROOK"},
...      "in_hand_add": "chess:pawn"}]}}}''')
>>> entries = legacy["CHESS:ROOK"]["a1"]["a3"]
>>> squares = {"a1": "CHESS:ROOK", "a3": "chess:pawn"}
>>> [entries.index(entry) for entry in where(entries, "first", squares)]
[1]

A satisfied entry is one move; :func:`entry_transition` turns it into the STN
transition its ``board_patch`` and hand fields describe, given a way to name
legacy pieces as QPI (a :class:`GanMapping`, a plain mapping, or a function):

>>> chess = {"CHESS:ROOK": "C:R", "CHESS:PAWN": "C:P"}
>>> entry_transition(entries[1], "first", chess).dumps(indent=None)
'{"board_diff": {"a1": null, "a3": "C:R"}, "first_player_hand_diff": {"c:p": 1}, "toggle": true}'

*Decision*: the legacy text's "mover's hand" (``in_hand_add``, ``in_hand_del``)
is the Active Player's hand, as the Game Protocol puts a captured piece in the
capturer's hand and takes a dropped one from the dropper's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any, ClassVar, Final, TypeAlias

from ggn._cache import Memo
from ggn._document import Document, FrozenMap, report_duplicates
from ggn._json import Collector, describe
from ggn._types import Side, expect, opponent
from ggn.cell import Cell, _parse_cell
from ggn.errors import ConversionError, GGNError, LabelError, NotationError, UnmappedPieceError, extend
from ggn.gan import LegacyPiece
from ggn.legacy import LegacyEntry, _quoted
from ggn.qpi import Qpi, _parse_qpi
from ggn.sin import Sin
from ggn.stn import Transition

# The three errors are defined in ggn.errors with every other error, and re-exported here.
__all__ = [
    "ConversionError",
    "GanMapping",
    "LabelError",
    "Squares",
    "ToQpi",
    "UnmappedPieceError",
    "entry_holds",
    "entry_transition",
    "where",
]

_parse_piece: Final = Memo(LegacyPiece.parse)
_CACHE_BOUND: Final = 4096


Squares: TypeAlias = Mapping[str, LegacyPiece | str | None]
"""A position for the legacy format: square label to piece (absent or ``None``: empty)."""


# --- the mapping from legacy pieces to QPI ----------------------------------------------------

def _mirror_piece(piece: LegacyPiece) -> LegacyPiece:
    return replace(piece, gan=replace(piece.gan, side=opponent(piece.side)))


def _mirror_qpi(qpi: Qpi) -> Qpi:
    return Qpi(Sin(qpi.sin.style, opponent(qpi.sin.side)), replace(qpi.pin, side=opponent(qpi.side)))


class _Entries(FrozenMap[LegacyPiece, Qpi]):
    __slots__ = ()
    _what: ClassVar[str] = "piece"
    _parse_key = staticmethod(_parse_piece)


class GanMapping(Document):
    """How legacy pieces (GAN, with the legacy ``+``/``-`` and ``'`` marks) are named in QPI.

    The entries map legacy pieces to QPI; the side must be kept (an uppercase GAN maps to an
    uppercase PIN), and so must the derivation (a key with ``'`` maps to a derived QPI, whose
    SIN and PIN cases differ; a key without it to a native one). A piece is looked up:

    1. as written, or as the other player's same piece, with both cases swapped
       (an entry for ``CHESS:KING`` also names ``chess:king``);
    2. failing that, without its derivation mark, which then swaps the SIN's case to the other
       player's style (``chess:king'`` is ``C:k^`` when ``chess:king`` is ``c:k^``);
    3. failing that, without its state, which then becomes the QPI's state: the legacy ``+``
       (enhanced) and ``-`` (diminished) are QPI's ``+`` and ``-`` (``SHOGI:+PAWN`` is
       ``S:+P`` when ``SHOGI:PAWN`` is ``S:P``); this needs a QPI without a state of its own;
    4. failing that, without both.

    A one-letter name (``CHESS:R'``, as the legacy schema and the gems of 2025 wrote pieces) is
    read as PNN 1.0.0 read it: its ``'`` marks an intermediate state, not a derivation, whose
    meaning is the mapping's to give. Such a key may map to any QPI of its side (the built-in
    chess mapping reads ``CHESS:R'`` and ``CHESS:K'``, the castling pieces of the 2025 examples,
    as ``C:+R`` and ``C:+K^``), and rules 2 and 4 do not apply to it: without an entry of its own
    it has no QPI.

    >>> mapping = GanMapping.of({"SHOGI:PAWN": "S:P", "SHOGI:KING": "S:K^"})
    >>> [str(mapping(p)) for p in ("SHOGI:PAWN", "shogi:pawn", "SHOGI:+PAWN", "shogi:king'")]
    ['S:P', 's:p', 'S:+P', 'S:k^']
    >>> mapping("SHOGI:ROOK")
    Traceback (most recent call last):
      ...
    ggn.errors.UnmappedPieceError: no QPI for 'SHOGI:ROOK' in the mapping; add an entry such as ...

    Load one with :meth:`loads`, :meth:`load` (a JSON object of strings) or :meth:`of`; ``a | b``
    combines two, ``b`` winning where both name a piece.
    """

    __slots__ = ("_cache", "_entries")
    _kind: ClassVar[str] = "GAN to QPI mapping"
    _entries: _Entries
    _cache: dict[LegacyPiece, Qpi | None]

    def __init__(self, entries: Mapping[LegacyPiece, Qpi]) -> None:
        expect(entries, Mapping, "entries", "a mapping of LegacyPiece to Qpi")
        for piece, qpi in entries.items():
            if not isinstance(piece, LegacyPiece) or not isinstance(qpi, Qpi):
                raise TypeError(f"entries must map LegacyPiece to Qpi, got {type(piece).__name__} to "
                                f"{type(qpi).__name__} (GanMapping.of takes strings)")
        problems = [
            message for piece, qpi in entries.items() for message in _entry_problems(piece, qpi)
        ]
        if problems:
            raise ConversionError("; ".join(problems))
        self._entries = _Entries(dict(entries), "in the mapping")
        self._cache = {}

    @classmethod
    def of(cls, mapping: Mapping[str, str] | Mapping[LegacyPiece, Qpi]) -> GanMapping:
        """Build from a Python mapping of strings or parsed values, validated as if loaded."""
        expect(mapping, Mapping, "mapping", "a mapping of legacy pieces to QPI")
        return cls.from_value({str(key): str(value) for key, value in mapping.items()})

    @property
    def entries(self) -> Mapping[LegacyPiece, Qpi]:
        """The entries as given (the lookup rules derive the rest)."""
        return self._entries

    def get(self, piece: LegacyPiece | str) -> Qpi | None:
        """The QPI of a legacy piece, or None when the mapping does not name it."""
        legacy = _piece(piece)
        try:
            return self._cache[legacy]
        except KeyError:
            pass
        if len(self._cache) >= _CACHE_BOUND:
            self._cache.clear()  # bounded, so that a stream of distinct pieces cannot grow it forever
        found = self._cache[legacy] = self._find(legacy)
        return found

    def qpi(self, piece: LegacyPiece | str) -> Qpi:
        """The QPI of a legacy piece; raise :class:`UnmappedPieceError` when there is none."""
        found = self.get(piece)
        if found is None:
            legacy = _piece(piece)
            raise UnmappedPieceError(legacy, self._unmapped(legacy))
        return found

    __call__ = qpi

    def _exact(self, piece: LegacyPiece) -> Qpi | None:
        data = self._entries._data
        found = data.get(piece)
        if found is not None:
            return found
        mirrored = data.get(_mirror_piece(piece))
        return None if mirrored is None else _mirror_qpi(mirrored)

    def _find(self, piece: LegacyPiece) -> Qpi | None:
        for keep_derived, keep_state in ((True, True), (False, True), (True, False), (False, False)):
            if (not keep_derived and not piece.derived) or (not keep_state and piece.state == "normal"):
                continue
            if not keep_derived and _intermediate(piece):
                continue  # a one-letter name's ' is no derivation: it is never dropped
            key = LegacyPiece(
                piece.gan,
                piece.state if keep_state else "normal",
                piece.derived if keep_derived else False,
            )
            found = self._exact(key)
            if found is None:
                continue
            if not keep_state:
                if found.state != "normal":
                    continue
                found = Qpi(found.sin, replace(found.pin, state=piece.state))
            if not keep_derived:
                found = Qpi(Sin(found.sin.style, opponent(found.sin.side)), found.pin)
            return found
        return None

    def _unmapped(self, piece: LegacyPiece) -> str:
        message = f"no QPI for {_quoted(piece)} in the mapping"
        if piece.state != "normal":
            plain = LegacyPiece(piece.gan, "normal", piece.derived)
            base = self._find(plain)
            if base is not None and base.state != "normal":
                return (f"{message}: {_quoted(plain)} maps to {_quoted(base)}, which has a state of "
                        f"its own, so {_quoted(piece)} needs an entry of its own")
        example = str(piece) if len(str(piece)) <= 40 else "<GAN>"
        if _intermediate(piece):
            message += (" (in a one-letter name, as PNN 1.0.0 wrote pieces in 2025, ' marks an "
                        "intermediate state, whose meaning only the mapping can give)")
        return f'{message}; add an entry such as "{example}": "<SIN>:<PIN>"'

    def __or__(self, other: GanMapping) -> GanMapping:
        if not isinstance(other, GanMapping):
            return NotImplemented
        return GanMapping({**self._entries._data, **other._entries._data})

    def __iter__(self) -> Iterator[LegacyPiece]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GanMapping):
            return NotImplemented
        return self._entries == other._entries

    __hash__ = None  # type: ignore[assignment]

    def to_value(self, *, explicit: bool = False) -> dict[str, str]:
        """The entries as a JSON object of strings (``explicit`` changes nothing here)."""
        expect(explicit, bool, "explicit", "a bool")
        return {str(piece): str(qpi) for piece, qpi in self._entries.items()}

    def __repr__(self) -> str:
        return f"GanMapping.of({self.to_value()!r})"

    @classmethod
    def _build(cls, value: Any, out: Collector) -> GanMapping | None:
        if not isinstance(value, dict):
            out.add("", "a GAN to QPI mapping must be an object mapping legacy pieces (GAN) to QPI "
                        f"strings, got {describe(value)}")
            return None
        report_duplicates(value, "", out)
        ok = type(value) is dict
        entries: dict[LegacyPiece, Qpi] = {}
        for key, target in value.items():
            if not isinstance(key, str):
                ok = False
                out.add("", f"keys must be strings, got {describe(key)}")
                continue
            path = extend("", key)
            try:
                piece = _parse_piece(key)
            except NotationError as error:
                ok = False
                out.add(path, f"{_quoted(key)} is not a GAN identifier: {error.reason}")
                continue
            if not isinstance(target, str):
                ok = False
                out.add(path, f"a piece maps to a QPI string, got {describe(target)}")
                continue
            try:
                qpi = _parse_qpi(target)
            except NotationError as error:
                ok = False
                out.add(path, f"{_quoted(target)} is not a QPI: {error.reason}")
                continue
            problems = _entry_problems(piece, qpi)
            for problem in problems:
                out.add(path, problem)
            if problems:
                ok = False
            else:
                entries[piece] = qpi
        return GanMapping(entries) if ok else None


def _intermediate(piece: LegacyPiece) -> bool:
    """Whether a piece's ``'`` is PNN 1.0.0's intermediate state: a one-letter name with it."""
    return piece.derived and len(piece.gan.piece) == 1


def _entry_problems(piece: LegacyPiece, qpi: Qpi) -> list[str]:
    problems: list[str] = []
    if piece.side != qpi.side:
        problems.append(f"{_quoted(piece)} is a piece of the {piece.side} player but {_quoted(qpi)} "
                        f"one of the {qpi.side} side: the case of the PIN must follow the GAN's")
    if piece.derived != qpi.derived and not _intermediate(piece):
        if piece.derived:
            problems.append(f"{_quoted(piece)} is derived (') but {_quoted(qpi)} is native: a derived "
                            "piece maps to a QPI whose SIN and PIN cases differ")
        else:
            problems.append(f"{_quoted(piece)} is native but {_quoted(qpi)} is derived: a native piece "
                            "maps to a QPI whose SIN and PIN cases agree")
    return problems


ToQpi: TypeAlias = (
    GanMapping | Mapping[str, str] | Mapping[LegacyPiece, Qpi] | Callable[[LegacyPiece], Qpi | str | None]
)
"""A way to name legacy pieces in QPI: a :class:`GanMapping`, a plain mapping (read as one,
with its lookup rules), or a function (returning None, or raising KeyError, for "no QPI")."""


def _resolver(to_qpi: ToQpi) -> Callable[[LegacyPiece], Qpi]:
    """A function from legacy piece to QPI, raising :class:`UnmappedPieceError` for no QPI and
    :class:`ConversionError` for a QPI of the wrong side."""
    if isinstance(to_qpi, GanMapping):
        return to_qpi.qpi
    if isinstance(to_qpi, Mapping):
        return GanMapping.of(to_qpi).qpi
    if not callable(to_qpi):
        raise TypeError(f"to_qpi is a GanMapping, a mapping or a function, not {type(to_qpi).__name__}")
    function = to_qpi

    def resolve(piece: LegacyPiece) -> Qpi:
        try:
            found = function(piece)
        except KeyError:
            found = None
        if found is None:
            raise UnmappedPieceError(piece, f"no QPI for {_quoted(piece)}: the mapping gave none")
        qpi = _parse_qpi(found) if isinstance(found, str) else found
        if not isinstance(qpi, Qpi):
            raise TypeError(f"the mapping gave {type(found).__name__} for {_quoted(piece)}, not a Qpi or a "
                            "string")
        if qpi.side != piece.side:
            raise ConversionError(f"the mapping turns {_quoted(piece)}, a piece of the {piece.side} "
                                  f"player, into {_quoted(qpi)}, a piece of the {qpi.side} side")
        return qpi

    return resolve


# --- evaluation ---------------------------------------------------------------------------

def _piece(piece: LegacyPiece | str) -> LegacyPiece:
    if isinstance(piece, LegacyPiece):
        return piece
    return _parse_piece(piece)


def _active(active: object) -> Side:
    if active == "first":
        return "first"
    if active == "second":
        return "second"
    expect(active, str, "active", "'first' or 'second' (a str)")
    assert isinstance(active, str)
    raise GGNError(f"the active side is 'first' or 'second', not {_quoted(active)}")


def _board(squares: Squares) -> dict[str, LegacyPiece]:
    expect(squares, Mapping, "squares", "a mapping from square label to piece")
    board: dict[str, LegacyPiece] = {}
    for label, piece in squares.items():
        expect(label, str, "squares", "a mapping whose keys are square labels (str)")
        if piece is None:
            continue
        if isinstance(piece, LegacyPiece):
            board[label] = piece
            continue
        expect(piece, str, f"squares[{_quoted(label)}]", "a LegacyPiece, its string or None")
        try:
            board[label] = _parse_piece(piece)
        except NotationError as error:
            raise GGNError(f"square {_quoted(label)} holds {_quoted(piece)}, which is not a legacy GGN "
                           f"piece (GAN): {error.reason}") from None
    return board


def _entry(entry: object, parameter: str = "entry") -> LegacyEntry:
    expect(entry, LegacyEntry, parameter, "a LegacyEntry")
    assert isinstance(entry, LegacyEntry)
    return entry


def _holds(entry: LegacyEntry, board: Mapping[str, LegacyPiece], active: Side) -> bool:
    for label, state in entry.board_check.items():
        held = board.get(label)
        if state == "empty":
            ok = held is None
        elif state == "occupied":
            ok = held is not None
        elif state == "enemy":
            ok = held is not None and held.side != active
        elif state == "ally":
            ok = held is not None and held.side == active
        else:
            ok = held == state
        if not ok:
            return False
    return True


def entry_holds(entry: LegacyEntry, squares: Squares, active: Side) -> bool:
    """Whether every square of the entry's ``board_check`` is in its occupation state.

    >>> from ggn.legacy import LegacyEntry
    >>> entry = LegacyEntry({"d4": "ally", "d5": "occupied"}, {})
    >>> entry_holds(entry, {"d4": "CHESS:PAWN", "d5": "chess:pawn"}, "first")
    True
    >>> entry_holds(entry, {"d4": "CHESS:PAWN", "d5": "chess:pawn"}, "second")
    False
    """
    return _holds(_entry(entry), _board(squares), _active(active))


def where(entries: Iterable[LegacyEntry], active: Side, squares: Squares) -> tuple[LegacyEntry, ...]:
    """The entries whose ``board_check`` holds, in order (the reference library's query shape)."""
    side = _active(active)
    board = _board(squares)
    if isinstance(entries, (str, bytes, Mapping)) or not isinstance(entries, Iterable):
        raise TypeError(f"entries must be an iterable of LegacyEntry, got {type(entries).__name__}")
    return tuple(entry for entry in entries if _holds(_entry(entry, "each of entries"), board, side))


# --- effects ------------------------------------------------------------------------------

def _effect(
    entry: LegacyEntry, active: Side, resolve: Callable[[LegacyPiece], Qpi]
) -> tuple[Transition | None, list[ConversionError]]:
    """The entry's transition and every fault met on the way (the transition is None if any)."""
    faults: list[ConversionError] = []
    board: dict[Cell, Qpi | None] = {}

    def name(piece: LegacyPiece, where: str) -> Qpi | None:
        try:
            return resolve(piece)
        except UnmappedPieceError as error:
            faults.append(UnmappedPieceError(error.piece, str(error), where))
        except ConversionError as error:
            faults.append(UnmappedPieceError(piece, str(error), where))
        return None

    for label, piece in entry.board_patch.items():
        where = extend("/board_patch", label)
        try:
            cell = _parse_cell(label)
        except NotationError as error:
            faults.append(LabelError(label, f"board_patch square {_quoted(label)} is not a CELL coordinate "
                                            f"({error.reason})", where))
            continue
        board[cell] = None if piece is None else name(piece, where)
    hand: dict[Qpi, int] = {}
    for field, delta in (("in_hand_add", 1), ("in_hand_del", -1)):
        gan = getattr(entry, field)
        if gan is not None:
            qpi = name(LegacyPiece(gan), "/" + field)
            if qpi is not None:
                hand[qpi] = hand.get(qpi, 0) + delta
    if faults:
        return None, faults
    hand = {piece: delta for piece, delta in hand.items() if delta}
    if active == "first":
        return Transition(board, hand, None, True), faults
    return Transition(board, None, hand, True), faults


def entry_transition(entry: LegacyEntry, active: Side, to_qpi: ToQpi) -> Transition:
    """The STN transition an entry describes, for the Active Player ``active``.

    ``board_patch`` becomes ``board_diff`` (its labels must be CELL coordinates, its pieces are
    named through ``to_qpi``); ``in_hand_add`` adds one and ``in_hand_del`` takes one from the
    Active Player's hand; the turn passes (``toggle``), as a legacy entry is one move.
    Raise :class:`LabelError` or :class:`UnmappedPieceError` (the first fault) otherwise.

    >>> from ggn.legacy import LegacyEntry
    >>> from ggn.gan import Gan
    >>> drop = LegacyEntry({"e5": "empty"}, {"e5": LegacyPiece.parse("shogi:pawn")},
    ...                    in_hand_del=Gan.parse("shogi:pawn"))
    >>> entry_transition(drop, "second", {"SHOGI:PAWN": "S:P"}).to_value()
    {'board_diff': {'e5': 's:p'}, 'second_player_hand_diff': {'s:p': -1}, 'toggle': True}
    """
    transition, faults = _effect(_entry(entry), _active(active), _resolver(to_qpi))
    if faults:
        raise faults[0]
    assert transition is not None
    return transition
