"""Warnings for the SHOULD rules of GGN 1.0.0 (section 9.3) and the like.

A ruleset that passes validation may still say things that cannot be meant:
conditions that contradict each other, a ``deny`` that can never fire,
possibilities that repeat or are implied by another, squares that are not on
the board it is meant for. None of these is an error of the text; each is a
:class:`LintWarning` with the JSON Pointer path of what it concerns.

The side of the moving piece is the Active Player's side whenever the entry is
used (a player moves their own pieces), so ``"enemy"`` can be compared with
exact pieces: with the mover ``C:R``, ``"c:p"`` is an enemy and ``"C:P"`` is not.

>>> from ggn.ruleset import Ruleset
>>> rules = Ruleset.loads(
...     '{"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}, "deny": {"a2": "empty"}}]}}}')
>>> for warning in lint(rules):
...     print(warning.path, warning.rule)
/C:R/a1/a2/0/deny/a2 contradiction
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from ggn._types import Side
from ggn.cell import Cell, Hand
from ggn.errors import extend
from ggn.lcn import EMPTY, ENEMY, Conditions, StateValue
from ggn.qpi import Qpi
from ggn.ruleset import Possibility, Ruleset

__all__ = ["LintWarning", "Rule", "lint"]

Rule = Literal["contradiction", "redundant-deny", "duplicate", "implied", "off-board", "dimensions"]


@dataclass(frozen=True, slots=True)
class LintWarning:
    """A SHOULD-level remark on a valid document: where, what, and which rule."""

    path: str
    message: str
    rule: Rule

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message} [{self.rule}]"


def _describe(state: StateValue) -> str:
    return f"to hold {state}" if isinstance(state, Qpi) else f"to be {state}"


def _verdict(must: StateValue, deny: StateValue, mover: Side) -> Literal["contradiction", "redundant", "ok"]:
    """How a must and a deny on the same square relate, for a mover of side ``mover``."""
    if must == deny:
        return "contradiction"
    if must == EMPTY:
        return "redundant"  # an empty square never holds a piece, never an enemy
    if must == ENEMY:
        if deny == EMPTY:
            return "redundant"
        assert isinstance(deny, Qpi)
        return "ok" if deny.side != mover else "redundant"
    assert isinstance(must, Qpi)
    if deny == EMPTY:
        return "redundant"
    if deny == ENEMY:
        return "contradiction" if must.side != mover else "redundant"
    return "redundant"  # two different exact pieces


def _implies(stronger: Possibility, weaker: Possibility) -> bool:
    """Whether every position satisfying ``stronger`` satisfies ``weaker`` (syntactically)."""
    must, deny = stronger.must, stronger.deny
    for cell, state in weaker.must.items():
        if must.get(cell) != state:
            return False
    return all(deny.get(cell) == state for cell, state in weaker.deny.items())


def _on_board(cell: Cell, shape: Sequence[int]) -> bool:
    if len(cell.indices) != len(shape):
        return False
    return all(index < size for index, size in zip(cell.indices, shape, strict=True))


def _check_conditions(
    possibility: Possibility, path: str, mover: Side
) -> Iterator[LintWarning]:
    for cell, deny in possibility.deny.items():
        must = possibility.must.get(cell)
        if must is None:
            continue
        verdict = _verdict(must, deny, mover)
        where = extend(extend(path, "deny"), str(cell))
        if verdict == "contradiction":
            forbids = "it" if must == deny else f"an enemy there ({must} is one)"
            yield LintWarning(
                where,
                f"contradiction: 'must' requires {cell} {_describe(must)} and 'deny' forbids "
                f"{forbids}, so this possibility can never hold",
                "contradiction",
            )
        elif verdict == "redundant":
            yield LintWarning(
                where,
                f"'deny' of {cell} {_describe(deny)} can never fire when 'must' requires "
                f"{cell} {_describe(must)}",
                "redundant-deny",
            )


def lint(ruleset: Ruleset, shape: Sequence[int] | None = None) -> list[LintWarning]:
    """Every SHOULD-level warning of a valid ruleset, in document order.

    With ``shape`` (a board's sizes per dimension, as FEEN gives them), squares
    outside that board are flagged too.
    """
    warnings: list[LintWarning] = []
    dimensions: dict[int, str] = {}

    def place(cell: Cell, path: str) -> None:
        if shape is not None and not _on_board(cell, shape):
            size = "x".join(str(n) for n in shape)
            warnings.append(LintWarning(path, f"{cell} is not a square of the {size} board", "off-board"))
        elif shape is None and cell.dimensions not in dimensions:
            if dimensions:
                first = next(iter(dimensions))
                warnings.append(LintWarning(
                    path,
                    f"{cell} has {cell.dimensions} dimensions but {dimensions[first]} has {first}: "
                    "one board has one number of dimensions",
                    "dimensions",
                ))
            dimensions[cell.dimensions] = str(cell)

    for piece, sources in ruleset.items():
        piece_path = extend("", str(piece))
        for source, destinations in sources.items():
            source_path = extend(piece_path, str(source))
            if isinstance(source, Cell):
                place(source, source_path)
            for destination, possibilities in destinations.items():
                dest_path = extend(source_path, str(destination))
                if not isinstance(destination, Hand):
                    place(destination, dest_path)
                for index, possibility in enumerate(possibilities):
                    path = f"{dest_path}/{index}"
                    for field, conditions in (("must", possibility.must), ("deny", possibility.deny)):
                        _place_all(conditions, extend(path, field), place)
                    warnings.extend(_check_conditions(possibility, path, piece.side))
                    for earlier in range(index):
                        other = possibilities[earlier]
                        if other == possibility:
                            warnings.append(LintWarning(
                                path, f"possibility {index} repeats possibility {earlier}", "duplicate"
                            ))
                            break
                        if _implies(possibility, other):
                            warnings.append(LintWarning(
                                path,
                                f"possibility {index} adds nothing: whenever it holds, possibility "
                                f"{earlier} holds too",
                                "implied",
                            ))
                            break
                        if _implies(other, possibility):
                            warnings.append(LintWarning(
                                f"{dest_path}/{earlier}",
                                f"possibility {earlier} adds nothing: whenever it holds, possibility "
                                f"{index} holds too",
                                "implied",
                            ))
                            break
    return warnings


def _place_all(conditions: Conditions, path: str, place: Callable[[Cell, str], None]) -> None:
    for cell in conditions:
        place(cell, extend(path, str(cell)))
