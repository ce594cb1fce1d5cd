"""Warnings for the SHOULD rules of GGN 1.0.0 (section 9.3) and the like.

A ruleset that passes validation may still say things that cannot be meant:
conditions that contradict each other, a ``deny`` that can never fire,
possibilities that repeat or are implied by another, squares that are not on
the board it is meant for. None of these is an error of the text; each is a
:class:`LintWarning` with the JSON Pointer path of what it concerns.

``"enemy"`` is relative to the Active Player, not to the piece. A piece on the
board is moved only by the player of its side, so for a board source the mover's
side is the piece's: with the mover ``C:R``, ``"c:p"`` is an enemy and ``"C:P"``
is not. A hand may hold pieces of either side, so a drop (source ``*``) may be
made by either player, and a pair of conditions is flagged only when it says the
same thing for both.

Repeated and implied possibilities are found through an index from each
condition to the possibilities that hold it (bit sets for the common ones), so a
destination with thousands of possibilities is linted in near-linear time.

>>> from ggn.ruleset import Ruleset
>>> rules = Ruleset.loads(
...     '{"C:R": {"a1": {"a2": [{"must": {"a2": "empty"}, "deny": {"a2": "empty"}}]}}}')
>>> for warning in lint(rules):
...     print(warning.path, warning.rule)
/C:R/a1/a2/0/deny/a2 contradiction
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from ggn._decimal import shown
from ggn._types import SIDES, Side, check_fields, expect
from ggn.cell import Cell, Hand
from ggn.errors import GGNError, extend
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

    def __post_init__(self) -> None:
        check_fields(self)

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message} [{self.rule}]"


def _describe(state: StateValue) -> str:
    return f"to hold {state}" if isinstance(state, Qpi) else f"to be {state}"


Verdict = Literal["contradiction", "redundant", "ok"]


def _verdict_for(must: StateValue, deny: StateValue, mover: Side) -> Verdict:
    """How a must and a deny on the same square relate when the Active Player is ``mover``."""
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


def _verdict(must: StateValue, deny: StateValue, movers: tuple[Side, ...]) -> Verdict:
    """The verdict that holds for every Active Player in ``movers``, else ``"ok"``.

    A possibility that can hold for one mover is no contradiction, and a deny that
    can fire for one mover is not redundant: for a drop both players count.
    """
    verdicts = {_verdict_for(must, deny, mover) for mover in movers}
    return verdicts.pop() if len(verdicts) == 1 else "ok"


_DENSE = 64
"""Conditions held by this many possibilities of a destination get a bit set of them.

Below it, the possibilities holding a condition are few enough to test one by
one; above it, one big-integer AND tests them all at once.
"""


_FEW = 3
"""Up to this many possibilities, testing each pair costs less than building the index.

Measured on the built-in games and the 3 MB benchmark document, where most destinations
have two possibilities (a move and a capture): pairs are faster at two and three (by a fifth
and a third), the index from four on, and four times as fast at twelve.
"""


def _lowest(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


def _first_related_pairwise(possibilities: Sequence[Possibility], index: int) -> int:
    possibility = possibilities[index]
    for earlier in range(index):
        other = possibilities[earlier]
        if _holds_all(possibility, other) or _holds_all(other, possibility):
            return earlier
    return -1


def _first_related(possibilities: Sequence[Possibility]) -> list[int]:
    """For each possibility, the first earlier one that it implies or that implies it, else -1.

    Possibility ``j`` implies ``i`` (syntactically) when the conditions of ``i``
    are a subset of those of ``j``. The earliest ``j`` is the lower of the first
    earlier superset and the first earlier subset. A superset of ``i`` holds
    every condition of ``i``, so it is found among the holders of the rarest
    condition of ``i``; the subsets of ``i`` are found the other way round, each
    ``j`` claiming the later supersets of its own that no one claimed before.
    """
    count = len(possibilities)
    if count <= _FEW:
        return [_first_related_pairwise(possibilities, index) for index in range(count)]
    ids: dict[tuple[bool, Cell, StateValue], int] = {}
    sets: list[frozenset[int]] = []
    holders: list[list[int]] = []
    for index, possibility in enumerate(possibilities):
        numbers = []
        for is_deny, conditions in ((False, possibility.must), (True, possibility.deny)):
            for cell, state in conditions.items():
                key = (is_deny, cell, state)
                number = ids.get(key)
                if number is None:
                    number = ids[key] = len(holders)
                    holders.append([])
                holders[number].append(index)
                numbers.append(number)
        sets.append(frozenset(numbers))

    masks: dict[int, int] = {}
    for number, held_by in enumerate(holders):
        if len(held_by) >= _DENSE:
            packed = bytearray((count + 7) // 8)
            for index in held_by:
                packed[index >> 3] |= 1 << (index & 7)
            masks[number] = int.from_bytes(packed, "little")
    everyone = (1 << count) - 1

    def rarest(members: frozenset[int]) -> int:
        return min(members, key=lambda number: len(holders[number]))

    def all_of(members: frozenset[int]) -> int:
        bits = everyone
        for number in members:
            bits &= masks[number]
        return bits

    first_superset = [-1] * count
    for index in range(1, count):
        members = sets[index]
        if not members:
            first_superset[index] = 0
            continue
        number = rarest(members)
        if number in masks:  # the rarest is common, so every condition of it is
            bits = all_of(members) & ((1 << index) - 1)
            if bits:
                first_superset[index] = _lowest(bits)
            continue
        held_by = holders[number]
        first_superset[index] = next(
            (other for other in held_by[:bisect_left(held_by, index)] if members <= sets[other]), -1
        )

    first_subset = [-1] * count
    unclaimed = everyone
    for index in range(count - 1):
        members = sets[index]
        number = rarest(members) if members else -1
        if number == -1 or number in masks:
            later = everyone ^ ((1 << (index + 1)) - 1)
            bits = (all_of(members) if members else everyone) & later & unclaimed
            unclaimed ^= bits
            while bits:
                low = bits & -bits
                first_subset[low.bit_length() - 1] = index
                bits ^= low
            continue
        held_by = holders[number]
        for other in held_by[bisect_right(held_by, index):]:
            if first_subset[other] == -1 and members <= sets[other]:
                first_subset[other] = index
                unclaimed ^= 1 << other

    return [
        min(superset, subset) if superset >= 0 and subset >= 0 else max(superset, subset)
        for superset, subset in zip(first_superset, first_subset, strict=True)
    ]


def _board_shape(shape: object) -> tuple[int, ...]:
    """``shape`` checked: a sequence of at least one size, each an int of at least 1."""
    if not isinstance(shape, Sequence) or isinstance(shape, (str, bytes)):
        raise TypeError(f"shape must be a sequence of ints (a board's sizes), got {type(shape).__name__}")
    if not shape:
        raise GGNError("shape must give at least one dimension, got an empty sequence")
    for size in shape:
        expect(size, int, "shape", "a sequence of ints (a board's sizes)")
        if size < 1:
            raise GGNError(f"a board has at least one square along each dimension, but shape has "
                           f"{shown(size)}")
    return tuple(shape)


def _on_board(cell: Cell, shape: Sequence[int]) -> bool:
    if len(cell.indices) != len(shape):
        return False
    return all(index < size for index, size in zip(cell.indices, shape, strict=True))


def _check_conditions(
    possibility: Possibility, path: str, movers: tuple[Side, ...]
) -> Iterator[LintWarning]:
    if not possibility.deny or not possibility.must:
        return
    musts = _as_dict(possibility.must)
    for cell, deny in possibility.deny.items():
        must = musts.get(cell)
        if must is None:
            continue
        verdict = _verdict(must, deny, movers)
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
    outside that board are flagged too. A ``ruleset`` that is not a :class:`Ruleset` or a
    ``shape`` that is not a sequence of ints raises :class:`TypeError`; a size below 1,
    :class:`~ggn.errors.GGNError`.
    """
    expect(ruleset, Ruleset, "ruleset", "a Ruleset")
    board = None if shape is None else _board_shape(shape)
    warnings: list[LintWarning] = []
    dimensions: dict[int, str] = {}
    off_board: dict[Cell, bool] = {}  # a document names few squares, each many times

    def place(cell: Cell, parent: str, *tokens: str) -> None:
        """Flag a square off the board, or of another number of dimensions than the first; its
        path (``parent`` and ``tokens``) is written only then."""
        if board is not None:
            outside = off_board.get(cell)
            if outside is None:
                outside = off_board[cell] = not _on_board(cell, board)
            if outside:
                size = "x".join(shown(n) for n in board)
                message = f"{cell} is not a square of the {size} board"
                warnings.append(LintWarning(_path(parent, tokens), message, "off-board"))
        elif cell.dimensions not in dimensions:
            if dimensions:
                first = next(iter(dimensions))
                warnings.append(LintWarning(
                    _path(parent, tokens),
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
            movers = SIDES if isinstance(source, Hand) else (piece.side,)
            for destination, possibilities in destinations.items():
                dest_path = extend(source_path, str(destination))
                if not isinstance(destination, Hand):
                    place(destination, dest_path)
                related = _first_related(possibilities)
                for index, possibility in enumerate(possibilities):
                    path = f"{dest_path}/{index}"
                    for cell in possibility.must:
                        place(cell, path, "must", str(cell))
                    for cell in possibility.deny:
                        place(cell, path, "deny", str(cell))
                    warnings.extend(_check_conditions(possibility, path, movers))
                    earlier = related[index]
                    if earlier >= 0:
                        warnings.append(_relation(possibilities, earlier, index, dest_path))
    return warnings


def _relation(possibilities: Sequence[Possibility], earlier: int, index: int, dest_path: str) -> LintWarning:
    """The warning for the first earlier possibility related to the one at ``index``."""
    first, second = possibilities[earlier], possibilities[index]
    if first == second:
        return LintWarning(f"{dest_path}/{index}", f"possibility {index} repeats possibility {earlier}",
                           "duplicate")
    if _holds_all(second, first):
        return LintWarning(
            f"{dest_path}/{index}",
            f"possibility {index} adds nothing: whenever it holds, possibility {earlier} holds too",
            "implied",
        )
    return LintWarning(
        f"{dest_path}/{earlier}",
        f"possibility {earlier} adds nothing: whenever it holds, possibility {index} holds too",
        "implied",
    )


def _holds_all(stronger: Possibility, weaker: Possibility) -> bool:
    """Whether ``stronger`` has every condition of ``weaker``, so whenever it holds, so does that."""
    if len(weaker.must) > len(stronger.must) or len(weaker.deny) > len(stronger.deny):
        return False
    must, deny = _as_dict(stronger.must), _as_dict(stronger.deny)
    return all(must.get(cell) == state for cell, state in weaker.must.items()) and all(
        deny.get(cell) == state for cell, state in weaker.deny.items()
    )


def _as_dict(conditions: Conditions) -> dict[Cell, StateValue]:
    """A plain dict of the conditions: a missing key then costs a lookup, not a failed one of the
    document's mapping, which builds its message naming what there is."""
    return dict(conditions.items())


def _path(parent: str, tokens: tuple[str, ...]) -> str:
    for token in tokens:
        parent = extend(parent, token)
    return parent
