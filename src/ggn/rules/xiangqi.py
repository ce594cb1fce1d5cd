"""The xiangqi rule system: the generic one (:class:`~ggn.rules.variant.VariantRules`) on the
description of :mod:`ggn.games.xiangqi`, with no hook of its own.

The document already says everything else a move needs: the palace, the river, the blocked
horse and elephant, the cannon's screen, and the generals facing each other, written as the
general's capture along an open file. That capture is pseudo-legal, so the legality rule (no
move after which the opponent has a pseudo-legal move onto a ``^`` piece) makes facing
generals illegal with no special case. A player with no legal move loses, in check or not.
A captured piece goes, as it stood, into the capturer's hand (the Game Protocol's default);
xiangqi never drops it. Repetition rules are not covered.

>>> rules = Xiangqi()
>>> len(rules.legal_moves(rules.position()))
44
>>> facing = rules.position("3g^5/9/9/9/9/9/9/9/9/4G^4 / X/x")
>>> sorted(str(p) for p in rules.legal_moves(facing))
['X:G^ e1-e2', 'X:G^ e1-f1']
>>> print(rules.outcome(rules.position("R2g^5/1R7/9/9/9/9/9/9/9/4G^4 / x/X")))
first player wins by checkmate
"""

from __future__ import annotations

from ggn.games import xiangqi as xiangqi_game
from ggn.rules.variant import VariantRules

__all__ = ["Xiangqi"]


class Xiangqi(VariantRules):
    """Xiangqi: :data:`ggn.games.xiangqi.VARIANT` played by the generic rule system."""

    def __init__(self) -> None:
        super().__init__(xiangqi_game.VARIANT, ruleset=xiangqi_game.ruleset())
