"""One consistent API (issue 8, item 4): names, errors, hands, the version, the public surface."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import ggn
import ggn.evaluate
import ggn.move
from ggn import Feen, GGNError, Position, Qpi, Transition

SHOGI = "9/9/9/9/9/9/9/9/k^8 2P/p s/S"


def _hand_readers() -> list[object]:
    feen = Feen.parse(SHOGI)
    return [
        feen,
        Position.from_feen(feen),
        Transition.of(first_hand={"S:P": 2}, second_hand={"s:p": 1}),
    ]


@pytest.mark.parametrize("holder", _hand_readers(), ids=["Feen", "Position", "Transition"])
def test_one_way_to_read_a_hand(holder: Feen | Position | Transition) -> None:
    first, second = holder.hand("first"), holder.hand("second")
    assert isinstance(first, Mapping) and isinstance(second, Mapping)
    assert dict(first) == {Qpi.parse("S:P"): 2}
    assert dict(second) == {Qpi.parse("s:p"): 1}
    with pytest.raises(TypeError):
        first[Qpi.parse("S:G")] = 1  # type: ignore[index]
    with pytest.raises(TypeError, match=r"player must be 'first' or 'second' \(a str\), not int"):
        holder.hand(1)  # type: ignore[arg-type]
    with pytest.raises(GGNError, match="a player is 'first' or 'second', not 'First'"):
        holder.hand("First")  # type: ignore[arg-type]
    for gone in ("hands", "first_hand", "second_hand"):
        assert not hasattr(holder, gone), gone


def test_move_has_a_module_of_its_own() -> None:
    assert ggn.Move is ggn.move.Move is ggn.evaluate.Move
    assert ggn.Move.__module__ == "ggn.move"
    assert "Move" in ggn.move.__all__ and "Move" in ggn.evaluate.__all__
