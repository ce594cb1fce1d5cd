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

import importlib
from typing import TYPE_CHECKING, Any, Final

from ggn._types import expect
from ggn.errors import GGNError
from ggn.position import Position
from ggn.rules import _native
from ggn.rules._native import native_available, native_support, use_native
from ggn.rules._playout import Playouts, playout
from ggn.rules._system import Ending, IllegalMoveError, Outcome, Play, RuleSystem
from ggn.variants import registry

if TYPE_CHECKING:
    from ggn.rules.chess import Chess
    from ggn.rules.makruk import Makruk
    from ggn.rules.shogi import Shogi
    from ggn.rules.xiangqi import Xiangqi

__all__ = ["MAX_PERFT_DEPTH", "Chess", "Ending", "IllegalMoveError", "Makruk", "Outcome", "Play",
           "Playouts", "RuleSystem", "Shogi", "Xiangqi", "divide", "names", "native_available",
           "native_support", "perft", "playout", "rule_system", "use_native"]

_GAME_CLASSES: Final = {"Chess": "chess", "Makruk": "makruk", "Shogi": "shogi", "Xiangqi": "xiangqi"}


def __getattr__(name: str) -> Any:
    # The four games' classes are imported on first use: each reads its game's module (its
    # description and FEN reader), which a process playing another game never needs.
    module = _GAME_CLASSES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"ggn.rules.{module}"), name)


MAX_PERFT_DEPTH: Final = 64
"""The deepest perft counted. The paths grow exponentially with the depth (roughly the number of
moves of a position to the power of the depth), so no deeper count would finish: it is refused at
once, rather than left to run for ever."""


def names() -> tuple[str, ...]:
    """The games that have a rule system: every game of :mod:`ggn.variants.registry`."""
    return registry.names()


def rule_system(name: str) -> RuleSystem:
    """The rule system of a built-in game (made once per process, by the registry)."""
    return registry.rules(name)


def _resolve(game: str | RuleSystem, position: Position | str | None) -> tuple[RuleSystem, Position]:
    expect(game, (RuleSystem, str), "game", "a RuleSystem or a game's name")
    rules = rule_system(game) if isinstance(game, str) else game
    # The position (and its board shape) is checked before any board is built.
    return rules, rules._position(position, "position")


def _check_depth(depth: int, least: int, what: str) -> None:
    if expect(depth, int, "depth", "an int") < least:
        raise GGNError(f"{what} needs a depth of {least} or more, got {depth}")
    if depth > MAX_PERFT_DEPTH:
        raise GGNError(f"{what} depth {depth} is over the limit of {MAX_PERFT_DEPTH}: the number of "
                       "paths grows exponentially with the depth, so the count would never finish")


def perft(game: str | RuleSystem, depth: int, position: Position | str | None = None) -> int:
    """The number of legal move paths of ``depth`` plies from ``position`` (default: the start).

    ``game`` is a rule system or the name of a built-in game; ``position`` a
    :class:`~ggn.position.Position` or FEEN. ``depth`` is 0 to :data:`MAX_PERFT_DEPTH`.
    """
    _check_depth(depth, 0, "perft")
    rules, start = _resolve(game, position)
    return _count(rules, start, depth)


def _count(rules: RuleSystem, position: Position, depth: int) -> int:
    """Perft by a walk with an explicit stack (no recursion: any depth fits): each level holds
    a position and its legal plays still to visit."""
    if depth == 0:
        return 1
    # The native kernel counts the whole tree where it plays the game (ggn.rules._native).
    counted = _native.perft(rules, position, depth)
    if counted is not None:
        return counted
    if depth == 1:
        return rules._count(position)
    legal, child_of, count = rules._legal, rules._child, rules._count
    total = 0
    # The walk goes down while more than one ply is left below a child: the last ply is only
    # counted, not made.
    last = depth - 1
    stack = [(position, iter(legal(position)))]
    while stack:
        parent, plays = stack[-1]
        for _, effect, child in plays:
            node = child_of(parent, effect, child)
            if len(stack) == last:
                total += count(node)
            else:
                stack.append((node, iter(legal(node))))
                break
        else:
            stack.pop()
    return total


def divide(
    game: str | RuleSystem, depth: int, position: Position | str | None = None
) -> list[tuple[Play, int]]:
    """Perft split by first move: each legal play with the paths of ``depth - 1`` plies after it."""
    _check_depth(depth, 1, "divide")
    rules, start = _resolve(game, position)
    return [(play, _count(rules, start.apply(play.transition), depth - 1))
            for play in rules.legal_moves(start)]
