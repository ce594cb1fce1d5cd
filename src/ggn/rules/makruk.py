"""The makruk rule system: the generic one (:class:`~ggn.rules.variant.VariantRules`) on the
description of :mod:`ggn.games.makruk`, with no hook of its own.

- a bia (``P``) reaching its sixth rank becomes a met (``M``), always;
- no legal move: a loss when in check (checkmate), else a draw (stalemate).

A captured piece goes, as it stood, into the capturer's hand (the Game Protocol's default);
makruk never drops it. The counting rules are not covered.

>>> rules = Makruk()
>>> len(rules.legal_moves(rules.position()))
23
>>> position = rules.position("4k^3/8/8/3P4/8/8/8/3K^4 / M/m")
>>> [str(play) for play in rules.legal_moves(position) if str(play.source) == "d5"]
['M:P d5-d6=M:M']
>>> rules.play(position, "M:P d5-d6=M:M").to_feen()
'4k^3/8/3M4/8/8/8/8/3K^4 / m/M'
"""

from __future__ import annotations

from ggn.games import makruk as makruk_game
from ggn.rules.variant import VariantRules

__all__ = ["Makruk"]


class Makruk(VariantRules):
    """Makruk: :data:`ggn.games.makruk.VARIANT` played by the generic rule system."""

    def __init__(self) -> None:
        super().__init__(makruk_game.VARIANT, ruleset=makruk_game.ruleset())
