"""The makruk rule system: the bia's promotion, and the end of the game.

- a bia (``P``) reaching its sixth rank becomes a promoted met (``+M``), always;
- no legal move: a loss when in check (checkmate), else a draw (stalemate).

A captured piece goes, as it stood, into the capturer's hand (the Game Protocol's default);
makruk never drops it. The counting rules are not covered.

>>> rules = Makruk()
>>> len(rules.legal_moves(rules.position()))
23
>>> position = rules.position("4k^3/8/8/3P4/8/8/8/3K^4 / M/m")
>>> [str(play) for play in rules.legal_moves(position) if str(play.source) == "d5"]
['M:P d5-d6=M:+M']
>>> rules.play(position, "M:P d5-d6=M:+M").to_feen()
'4k^3/8/3+M4/8/8/8/8/3K^4 / m/M'
"""

from __future__ import annotations

from typing import ClassVar

from ggn.games import makruk as makruk_game
from ggn.move import Move
from ggn.position import Position, code_of
from ggn.qpi import Qpi
from ggn.rules._system import Change, Effect, Ending, MoveInfo, Outcome, RuleSystem

__all__ = ["Makruk"]


class Makruk(RuleSystem):
    """Makruk on the document of :mod:`ggn.games.makruk`."""

    name: ClassVar[str] = "makruk"

    def __init__(self) -> None:
        super().__init__(makruk_game.ruleset(), makruk_game.START, (8, 8))
        # Per side (0 first, 1 second): the bia's code, the promoted met, and the sixth rank.
        self._bia = (code_of(Qpi.parse("M:P")), code_of(Qpi.parse("m:p")))
        self._met = (Qpi.parse("M:+M"), Qpi.parse("m:+m"))
        self._sixth = (5, 2)

    def _special(self, move: Move, source: int, destination: int, code: int) -> bool:
        side = 0 if code > 0 else 1
        return code == self._bia[side] and destination // 8 == self._sixth[side]

    def _effects(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> list[Effect]:
        source, destination, code = info[1], info[2], info[3]
        side = 0 if code > 0 else 1
        if code == self._bia[side] and destination // 8 == self._sixth[side]:
            taken = position._codes[destination]
            hand = ((self._captured(taken, info[0].piece), 1),) if taken else ()
            met = self._met[side]
            return [(met, ((source, 0), (destination, code_of(met))), hand)]
        return [self._default(position, prefix, info)]

    def _no_move(self, position: Position, in_check: bool) -> Outcome:
        if in_check:
            return Outcome(position.inactive, Ending.CHECKMATE)
        return Outcome(None, Ending.STALEMATE)
