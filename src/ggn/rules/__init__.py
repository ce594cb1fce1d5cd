"""Rule systems: legal moves, their full effects, the end of the game, and perft.

A GGN document stops at pseudo-legal moves. A rule system adds what each game's rules add:
which moves are legal, the effects GGN leaves out (promotion, castling's rook, en passant,
captured pieces changing side), each move's full STN transition, and how the game ends.

>>> rules = rule_system("chess")
>>> position = rules.position()
>>> sorted(str(play) for play in rules.legal_moves(position))[:3]
['C:N b1-a3', 'C:N b1-c3', 'C:N g1-f3']
>>> perft(rules, 2)
400
>>> position = rules.play(position, "C:P e2-e4")
>>> rules.outcome(position) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ggn.errors import GGNError
from ggn.position import Position
from ggn.rules._system import IllegalMoveError, Outcome, Play, RuleSystem
from ggn.rules.chess import Chess
from ggn.rules.makruk import Makruk
from ggn.rules.shogi import Shogi
from ggn.rules.xiangqi import Xiangqi

__all__ = ["SYSTEMS", "Chess", "IllegalMoveError", "Makruk", "Outcome", "Play", "RuleSystem", "Shogi",
           "Xiangqi", "divide", "names", "perft", "rule_system"]

SYSTEMS: Final[dict[str, Callable[[], RuleSystem]]] = {
    "chess": Chess,
    "shogi": Shogi,
    "xiangqi": Xiangqi,
    "makruk": Makruk,
}
"""The rule system of each built-in game, by name."""

_MADE: dict[str, RuleSystem] = {}


def names() -> tuple[str, ...]:
    """The games that have a rule system."""
    return tuple(SYSTEMS)


def rule_system(name: str) -> RuleSystem:
    """The rule system of a built-in game (made once per process)."""
    made = _MADE.get(name)
    if made is None:
        maker = SYSTEMS.get(name)
        if maker is None:
            raise GGNError(f"no rule system for {name!r}; there are: {', '.join(SYSTEMS)}")
        made = _MADE[name] = maker()
    return made


def _resolve(game: str | RuleSystem, position: Position | str | None) -> tuple[RuleSystem, Position]:
    rules = rule_system(game) if isinstance(game, str) else game
    return rules, rules.position(position)


def perft(game: str | RuleSystem, depth: int, position: Position | str | None = None) -> int:
    """The number of legal move paths of ``depth`` plies from ``position`` (default: the start).

    ``game`` is a rule system or the name of a built-in game; ``position`` a
    :class:`~ggn.position.Position` or FEEN.
    """
    if depth < 0:
        raise GGNError(f"perft depth must be 0 or more, got {depth}")
    rules, start = _resolve(game, position)
    return _count(rules, start, depth)


def _count(rules: RuleSystem, position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return rules._count(position)
    total = 0
    for _, effect, child in rules._legal(position):
        total += _count(rules, rules._child(position, effect, child), depth - 1)
    return total


def divide(
    game: str | RuleSystem, depth: int, position: Position | str | None = None
) -> list[tuple[Play, int]]:
    """Perft split by first move: each legal play with the paths of ``depth - 1`` plies after it."""
    if depth < 1:
        raise GGNError(f"divide needs a depth of 1 or more, got {depth}")
    rules, start = _resolve(game, position)
    return [(play, _count(rules, start.apply(play.transition), depth - 1))
            for play in rules.legal_moves(start)]
