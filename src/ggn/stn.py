"""STN: State Transition Notation, the change between two positions.

A transition sets board squares (to a piece, or ``None`` for empty), adds to or
removes from each player's hand by non-zero counts, and may pass the turn.

>>> t = Transition.loads('{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}')
>>> t.board["e4"], t.board["e2"], t.toggle
(Qpi.parse('C:P'), None, True)
>>> t.dumps(indent=None)
'{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from ggn._decimal import shown
from ggn._document import Document, FrozenMap, parse_key, report_duplicates
from ggn._json import MAX_INTEGER_DIGITS, Collector, describe, quote
from ggn._types import Side, expect, player_index
from ggn.cell import Cell, _parse_cell
from ggn.errors import GGNError, NotationError, extend
from ggn.qpi import Qpi, _parse_qpi

__all__ = ["BoardDiff", "HandDiff", "Transition"]

_LONGEST: Final = 10**MAX_INTEGER_DIGITS  # a count change written in JSON is shorter
_PLAIN: Final = (dict, type(None))  # the usual arguments: anything else goes to _check_mappings
_NOWHERE: Final = Cell((0,))  # stands for a square whose key is not a CELL (never kept)
_FIELDS: Final = ("board_diff", "first_player_hand_diff", "second_player_hand_diff", "toggle")


class BoardDiff(FrozenMap[Cell, Qpi | None]):
    """Squares a transition sets: to a piece, or to ``None`` (empty)."""

    __slots__ = ()
    _what: ClassVar[str] = "square"
    _parse_key = staticmethod(_parse_cell)


class HandDiff(FrozenMap[Qpi, int]):
    """Non-zero count changes of a hand, by piece."""

    __slots__ = ()
    _what: ClassVar[str] = "piece"
    _parse_key = staticmethod(_parse_qpi)


class Transition(Document):
    """An STN document, validated and read-only.

    ``board`` and ``hand(player)`` (``"first"`` or ``"second"``) are read-only mappings
    (look keys up as strings or parsed values); ``toggle`` says whether the turn passes.
    Two transitions are equal when they describe the same change.
    """

    __slots__ = ("_board", "_first_hand", "_second_hand", "_toggle")
    _board: BoardDiff
    _first_hand: HandDiff
    _second_hand: HandDiff
    _toggle: bool
    _kind: ClassVar[str] = "STN"

    def __init__(
        self,
        board: Mapping[Cell, Qpi | None] | None = None,
        first_hand: Mapping[Qpi, int] | None = None,
        second_hand: Mapping[Qpi, int] | None = None,
        toggle: bool = False,
    ) -> None:
        # Rule systems build a transition for every legal move: the checks cost a type test
        # an entry, and a message (naming the entry) is written only for an entry at fault.
        if type(board) not in _PLAIN or type(first_hand) not in _PLAIN or type(second_hand) not in _PLAIN:
            _check_mappings(board, first_hand, second_hand)
        board_data = dict(board or {})
        hands = (dict(first_hand or {}), dict(second_hand or {}))
        for cell, piece in board_data.items():
            if type(cell) is not Cell:
                expect(cell, Cell, "board's keys", "Cell values (Transition.of takes strings)")
            if piece is not None and type(piece) is not Qpi:
                expect(piece, Qpi, f"board[{cell}]", "a Qpi or None")
        if hands[0]:
            _check_counts(hands[0], "first_hand")
        if hands[1]:
            _check_counts(hands[1], "second_hand")
        if type(toggle) is not bool:
            expect(toggle, bool, "toggle", "a bool")
        object.__setattr__(self, "_board", BoardDiff(board_data))
        object.__setattr__(self, "_first_hand", HandDiff(hands[0]))
        object.__setattr__(self, "_second_hand", HandDiff(hands[1]))
        object.__setattr__(self, "_toggle", toggle)

    @property
    def board(self) -> BoardDiff:
        """``board_diff``: the squares set, to a piece or to ``None`` (empty)."""
        return self._board

    @property
    def toggle(self) -> bool:
        """Whether the Active Player changes."""
        return self._toggle

    @classmethod
    def of(
        cls,
        board: Mapping[str, str | None] | None = None,
        first_hand: Mapping[str, int] | None = None,
        second_hand: Mapping[str, int] | None = None,
        toggle: bool = False,
    ) -> Transition:
        """Build from plain strings, validated as if loaded from JSON."""
        _check_mappings(board, first_hand, second_hand)
        expect(toggle, bool, "toggle", "a bool")
        value: dict[str, Any] = {"toggle": toggle}
        if board:
            value["board_diff"] = dict(board)
        if first_hand:
            value["first_player_hand_diff"] = dict(first_hand)
        if second_hand:
            value["second_player_hand_diff"] = dict(second_hand)
        return cls.from_value(value)

    def hand(self, player: Side) -> HandDiff:
        """The count changes of a player's hand (``"first"``: ``first_player_hand_diff``,
        ``"second"``: ``second_player_hand_diff``), a read-only mapping. A non-string raises
        :class:`TypeError`, another string :class:`~ggn.errors.GGNError`."""
        return self._second_hand if player_index(player) else self._first_hand

    def __bool__(self) -> bool:
        """False for the empty transition, which changes nothing."""
        return bool(self.board or self._first_hand or self._second_hand or self.toggle)

    def to_value(self, *, explicit: bool = False) -> dict[str, Any]:
        """Plain JSON-ready values; ``explicit`` writes all four fields even when empty."""
        expect(explicit, bool, "explicit", "a bool")
        value: dict[str, Any] = {}
        if explicit or self.board:
            value["board_diff"] = {
                str(cell): (None if piece is None else str(piece))
                for cell, piece in self.board.items()
            }
        if explicit or self._first_hand:
            value["first_player_hand_diff"] = {str(k): v for k, v in self._first_hand.items()}
        if explicit or self._second_hand:
            value["second_player_hand_diff"] = {str(k): v for k, v in self._second_hand.items()}
        if explicit or self.toggle:
            value["toggle"] = self.toggle
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transition):
            return NotImplemented
        return (
            self.board == other.board
            and self._first_hand == other._first_hand
            and self._second_hand == other._second_hand
            and self.toggle == other.toggle
        )

    def __hash__(self) -> int:
        return hash((
            frozenset(self.board.items()),
            frozenset(self._first_hand.items()),
            frozenset(self._second_hand.items()),
            self.toggle,
        ))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Transition is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by value (its slots cannot be set back one by one): so are the plays that
        # carry one, sent to worker processes.
        return (Transition, (dict(self._board), dict(self._first_hand), dict(self._second_hand),
                             self._toggle))

    def __repr__(self) -> str:
        return f"Transition.loads({self.dumps(indent=None)!r})"

    @classmethod
    def _build(cls, value: Any, out: Collector) -> Transition | None:
        if not isinstance(value, dict):
            out.add("", f"an STN document must be an object, got {describe(value)}")
            return None
        report_duplicates(value, "", out)
        ok = type(value) is dict
        for key in value:
            if key not in _FIELDS:
                ok = False
                if isinstance(key, str):
                    out.add(extend("", key), f"unknown field {quote(key)}: STN has only "
                                             + ", ".join(repr(f) for f in _FIELDS))
                else:
                    out.add("", f"field names must be strings, got {describe(key)}")
        board = _check_board(value.get("board_diff"), out) if "board_diff" in value else {}
        first, second = (
            _check_hand(value[field], "/" + field, out) if field in value else {}
            for field in _FIELDS[1:3]
        )
        toggle = value.get("toggle", False)
        if not isinstance(toggle, bool):
            ok = False
            out.add("/toggle", f"toggle must be true or false, got {describe(toggle)}")
        if not ok or board is None or first is None or second is None:
            return None
        return cls(board, first, second, toggle)


def _check_mappings(board: object, first_hand: object, second_hand: object) -> None:
    """TypeError naming the first of the arguments given that is not a mapping."""
    for name, given in (("board", board), ("first_hand", first_hand), ("second_hand", second_hand)):
        if given is not None and type(given) is not dict:
            expect(given, (Mapping,), name, "a mapping or None")


def _check_counts(hand: dict[Qpi, int], name: str) -> None:
    """TypeError or GGNError for the first entry of ``hand`` that is not a Qpi to a count
    change a document can write."""
    for piece, delta in hand.items():
        if type(piece) is not Qpi:
            expect(piece, Qpi, f"{name}'s keys", "Qpi values (Transition.of takes strings)")
        if type(delta) is not int:
            expect(delta, int, f"{name}[{piece}]", "an int")
        if delta == 0 or abs(delta) >= _LONGEST:
            raise GGNError(
                f"{name}[{piece}] must be a non-zero count change of at most "
                f"{MAX_INTEGER_DIGITS:,} digits (what a document can write), got {shown(delta)}"
            )


def _check_board(value: Any, out: Collector) -> dict[Cell, Qpi | None] | None:
    path = "/board_diff"
    if not isinstance(value, dict):
        out.add(path, f"board_diff must be an object mapping CELL coordinates to a QPI or null, "
                      f"got {describe(value)}")
        return None
    report_duplicates(value, path, out)
    ok = type(value) is dict
    result: dict[Cell, Qpi | None] = {}
    for key, piece in value.items():
        cell = parse_key(key, _parse_cell, path, out, label="square", expected="is not a CELL coordinate")
        if cell is None:
            ok = False  # its value is still checked: every violation is reported
            cell = _NOWHERE
        if piece is None:
            result[cell] = None
        elif isinstance(piece, str):
            try:
                result[cell] = _parse_qpi(piece)
            except NotationError as error:
                ok = False
                out.add(extend(path, key), f"{quote(piece)} is not a QPI: {error.reason}")
        else:
            ok = False
            out.add(extend(path, key), "a square's new content must be a QPI string or null, "
                                       f"got {describe(piece)}")
    return result if ok else None


def _check_hand(value: Any, path: str, out: Collector) -> dict[Qpi, int] | None:
    field = path[1:]
    if not isinstance(value, dict):
        out.add(path, f"{field} must be an object mapping QPI pieces to non-zero integers, "
                      f"got {describe(value)}")
        return None
    report_duplicates(value, path, out)
    ok = type(value) is dict
    result: dict[Qpi, int] = {}
    for key, delta in value.items():
        piece = parse_key(key, _parse_qpi, path, out, label="piece", expected="is not a QPI")
        if piece is None:
            ok = False  # its count is still checked: every violation is reported
        if type(delta) is not int:
            ok = False
            out.add(extend(path, key), f"a count change must be a non-zero integer, got "
                                       f"{describe(delta)}")
        elif delta == 0:
            ok = False
            out.add(extend(path, key), "a count change must be non-zero (leave the piece out "
                                       "when its count does not change)")
        elif abs(delta) >= _LONGEST:  # only from a value built in Python
            ok = False
            out.add(extend(path, key), f"a count change has at most {MAX_INTEGER_DIGITS:,} digits, "
                                       f"got {describe(delta)}")
        elif piece is not None:
            result[piece] = delta
    return result if ok else None
