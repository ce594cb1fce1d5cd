"""The shogi rule system: promotion, captured pieces, the pawn-drop mate, the end of the game.

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

from typing import ClassVar, Final

from ggn.games import shogi as shogi_game
from ggn.move import Move
from ggn.pin import Pin
from ggn.position import Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules._system import Change, Effect, MoveInfo, RuleSystem

__all__ = ["Shogi"]

_PROMOTING: Final = frozenset("RBSNLP")
# How many of the last ranks a piece could never move from, unpromoted.
_DEAD_RANKS: Final = {"P": 1, "L": 1, "N": 2}


class Shogi(RuleSystem):
    """Shogi on the document of :mod:`ggn.games.shogi`."""

    name: ClassVar[str] = "shogi"

    def __init__(self) -> None:
        super().__init__(shogi_game.ruleset(), shogi_game.START, (9, 9))
        # Per piece code that may promote: the promoted piece and its code, and how many of the
        # last ranks force the promotion.
        self._promotions: dict[int, tuple[Qpi, int, int]] = {}
        for piece in self.ruleset.pieces:
            if piece.state == "normal" and piece.name in _PROMOTING:
                promoted = Qpi(piece.sin, Pin(piece.name, piece.side, "enhanced"))
                dead = _DEAD_RANKS.get(piece.name, 0)
                self._promotions[code_of(piece)] = (promoted, code_of(promoted), dead)
        self._in_hand: dict[tuple[int, Qpi], Qpi] = {}
        self._pawns = frozenset(code_of(piece) for piece in self.ruleset.pieces
                                if piece.name == "P" and piece.state == "normal")

    def _captured(self, taken: int, mover: Qpi) -> Qpi:
        """The piece a capture puts in the mover's hand: demoted, the mover's side and style."""
        key = (taken, mover)
        piece = self._in_hand.get(key)
        if piece is None:
            was = piece_of(taken)
            piece = Qpi(mover.sin, Pin(was.name, mover.side, "normal", was.terminal))
            self._in_hand[key] = piece
        return piece

    def _special(self, move: Move, source: int, destination: int, code: int) -> bool:
        # A move that may promote: into, within or out of the zone.
        if code not in self._promotions:
            return False
        rank_from, rank_to = (source // 9, destination // 9) if code > 0 else (
            8 - source // 9, 8 - destination // 9)
        return rank_from >= 6 or rank_to >= 6

    def _effects(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> list[Effect]:
        move, source, destination, code = info[0], info[1], info[2], info[3]
        if source < 0 or destination < 0:
            return [self._default(position, prefix, info)]
        taken = position._codes[destination]
        hand = ((self._captured(taken, move.piece), 1),) if taken else ()
        promotion = self._promotions.get(code)
        if promotion is not None:
            # Ranks counted from the mover's side: 0 is its first rank, 8 its last.
            rank_from, rank_to = (source // 9, destination // 9) if code > 0 else (
                8 - source // 9, 8 - destination // 9)
            if rank_from >= 6 or rank_to >= 6:
                promoted, promoted_code, dead = promotion
                promote = (promoted, ((source, 0), (destination, promoted_code)), hand)
                if rank_to >= 9 - dead:
                    return [promote]
                return [(None, ((source, 0), (destination, code)), hand), promote]
        return [(None, ((source, 0), (destination, code)), hand)]

    def _allowed(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo, effect: Effect,
                 child: list[int]) -> bool:
        source, destination, code = info[1], info[2], info[3]
        if source >= 0 or code not in self._pawns:
            return True
        # A pawn drop that checks (a drop uncovers nothing, so only the pawn itself can) must
        # leave the opponent a legal move.
        ahead = destination + (9 if code > 0 else -9)
        side = 0 if code > 0 else 1
        tables = self._tables_for(position)
        if not 0 <= ahead < 81 or child[ahead] not in tables.terminal[1 - side]:
            return True
        after = self._child(position, effect, child)
        return bool(self._walk(after, None, 1))
