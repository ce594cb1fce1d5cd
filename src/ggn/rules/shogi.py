"""The shogi rule system: the generic one (:class:`~ggn.rules.variant.VariantRules`) on the
description of :mod:`ggn.games.shogi`, with no hook of its own.

What the description says and the generic system plays:

- promotion: a rook, bishop, silver, knight, lance or pawn that moves into, within or out of
  its promotion zone (the last three ranks) may promote (``+R``, ``+B``, ``+S``, ``+N``,
  ``+L``, ``+P``): two plays, ``S:P c6-c7`` and ``S:P c6-c7=S:+P``; it must promote where it
  could never move again (a pawn or lance on the last rank, a knight on the last two), and
  then there is one play;
- a captured piece goes into the capturer's hand demoted and turned to the capturer's side
  (taking ``s:+r`` puts ``S:R`` in the first player's hand);
- a pawn dropped to give checkmate is illegal (the pawn-drop mate);
- a player with no legal move loses.

Drops, their squares and the two-pawns rule are in the document. Repetition (sennichite) and
the impasse rules are not covered.

>>> rules = Shogi()
>>> len(rules.legal_moves(rules.position()))
30
>>> position = rules.position("4k^4/9/4P4/9/9/9/9/9/4K^4 / S/s")
>>> sorted(str(play) for play in rules.legal_moves(position) if str(play.source) == "e7")
['S:P e7-e8', 'S:P e7-e8=S:+P']
>>> capture = rules.play(rules.position("4k^4/9/9/9/4+r4/4P4/9/9/4K^4 / S/s"), "S:P e4-e5")
>>> capture.to_feen()
'4k^4/9/9/9/4P4/9/9/9/4K^4 R/ s/S'
"""

from __future__ import annotations

from ggn.games import shogi as shogi_game
from ggn.rules.variant import VariantRules

__all__ = ["Shogi"]


class Shogi(VariantRules):
    """Shogi: :data:`ggn.games.shogi.VARIANT` played by the generic rule system."""

    def __init__(self) -> None:
        super().__init__(shogi_game.VARIANT, ruleset=shogi_game.ruleset())
