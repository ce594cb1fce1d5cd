"""LCN: Location Condition Notation.

An LCN object maps CELL coordinates to a required state: the keyword
``"empty"``, the keyword ``"enemy"``, or an exact piece as a QPI. LCN defines
the format only; what the states mean is up to the consuming text (GGN
evaluates ``"enemy"`` from the Active Player's side).

>>> conditions = Conditions.loads('{"f1": "empty", "g1": "empty", "h1": "C:+R"}')
>>> conditions["h1"]
Qpi.parse('C:+R')
>>> conditions.dumps(indent=None)
'{"f1": "empty", "g1": "empty", "h1": "C:+R"}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal

from ggn._document import Document, FrozenMap, parse_key, report_duplicates
from ggn._json import Collector, describe, quote
from ggn._types import expect
from ggn.cell import Cell, _parse_cell
from ggn.errors import NotationError, extend
from ggn.qpi import Qpi, _parse_qpi

__all__ = ["EMPTY", "ENEMY", "Conditions", "Keyword", "StateValue", "parse_state"]

Keyword = Literal["empty", "enemy"]
StateValue = Keyword | Qpi
"""What a condition requires of its square: a keyword or an exact piece."""

EMPTY: Final = "empty"
ENEMY: Final = "enemy"


def parse_state(text: str) -> StateValue:
    """Parse an LCN state value: ``"empty"``, ``"enemy"`` or a QPI."""
    if text == EMPTY:
        return EMPTY
    if text == ENEMY:
        return ENEMY
    return _parse_qpi(text)


class Conditions(FrozenMap[Cell, StateValue], Document):
    """An LCN object: a read-only mapping from :class:`~ggn.cell.Cell` to its required state.

    Keys may be looked up as strings (``conditions["e4"]``). Built from JSON
    with :meth:`loads`, :meth:`load` or :meth:`from_value`, or from a mapping
    with :meth:`of`.
    """

    __slots__ = ()
    _what: ClassVar[str] = "condition on square"
    _parse_key = staticmethod(_parse_cell)
    _kind: ClassVar[str] = "LCN"

    @classmethod
    def of(cls, mapping: dict[str, str] | dict[Cell, StateValue] | None = None) -> Conditions:
        """Build from a Python mapping of strings or parsed values; raise on any invalid entry."""
        if mapping is not None:
            expect(mapping, (Mapping,), "mapping", "a mapping of squares to states, or None")
        # Parsed values are written back as text; anything else is left for the validator to
        # name ("got the integer 5"), not turned into a string that reads as a wrong state.
        value = {
            (str(k) if isinstance(k, Cell) else k): (str(v) if isinstance(v, Qpi) else v)
            for k, v in (mapping or {}).items()
        }
        return cls.from_value(value)

    @classmethod
    def _build(cls, value: Any, out: Collector) -> Conditions | None:
        return _check_conditions(value, "", out, None)

    def to_value(self, *, explicit: bool = False) -> dict[str, str]:
        expect(explicit, bool, "explicit", "a bool")
        return {str(cell): str(state) for cell, state in self._data.items()}

    def __repr__(self) -> str:
        inner = ", ".join(f"{str(k)!r}: {str(v)!r}" for k, v in self._data.items())
        return f"Conditions.of({{{inner}}})"


NO_CONDITIONS: Final = Conditions({})


def _check_conditions(
    value: Any, path: str, out: Collector, source: Cell | None, field: str = "conditions"
) -> Conditions | None:
    """Validate an LCN object at ``path``; return it, or None after reporting violations.

    ``source`` is the location the conditions belong to (GGN forbids it as a key).
    """
    if not isinstance(value, dict):
        out.add(path, f"{field} must be an object mapping CELL coordinates to states, "
                      f"got {describe(value)}")
        return None
    if not value:
        return NO_CONDITIONS
    report_duplicates(value, path, out)
    ok = type(value) is dict
    data: dict[Cell, StateValue] = {}
    for key, state in value.items():
        cell = parse_key(
            key, _parse_cell, path, out, label="condition key", expected="is not a CELL coordinate"
        )
        if cell is None:
            ok = False  # its state is still checked: every violation is reported
        elif cell == source:
            ok = False
            out.add(extend(path, key), f"the source location {quote(str(key))} must not appear in "
                                       "its own conditions (GGN 1.0.0, section 7.4)")
        parsed: StateValue | None
        if state == EMPTY:
            parsed = EMPTY
        elif state == ENEMY:
            parsed = ENEMY
        elif isinstance(state, str):
            try:
                parsed = _parse_qpi(state)
            except NotationError as error:
                parsed = None
                out.add(extend(path, key), f"state {quote(state)} is neither 'empty', 'enemy' nor "
                                           f"a QPI: {error.reason}")
        else:
            parsed = None
            out.add(extend(path, key), "a state must be a string ('empty', 'enemy' or a QPI), "
                                       f"got {describe(state)}")
        if parsed is None:
            ok = False
        elif cell is not None:
            data[cell] = parsed
    return Conditions(data) if ok else None
