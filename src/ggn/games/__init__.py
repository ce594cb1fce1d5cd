"""Complete GGN documents of real games, made from compact piece descriptions.

Each game is a module with ``document()``, ``ruleset()`` (built once per process) and
``START``; the functions here look them up by name.

>>> names()
('chess', 'shogi', 'xiangqi', 'makruk')
>>> start("chess")
'+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c'
>>> ruleset("chess") is chess.ruleset()
True
>>> ruleset("go")
Traceback (most recent call last):
  ...
ggn.errors.NotFoundError: no game 'go'; there are: chess, shogi, xiangqi, makruk
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ggn._types import expect
from ggn.errors import NotFoundError
from ggn.feen import Feen
from ggn.games import chess, makruk, shogi, xiangqi
from ggn.ruleset import Ruleset

__all__ = [
    "GAMES", "BuiltinGame", "chess", "document", "makruk", "names", "ruleset", "shape", "shogi", "start",
    "xiangqi",
]


@dataclass(frozen=True, slots=True)
class BuiltinGame:
    """A game this package describes: its name, start position, and document makers."""

    name: str
    start: str
    document: Callable[[], dict[str, Any]]
    ruleset: Callable[[], Ruleset]


GAMES: Final[Mapping[str, BuiltinGame]] = MappingProxyType({
    "chess": BuiltinGame("chess", chess.START, chess.document, chess.ruleset),
    "shogi": BuiltinGame("shogi", shogi.START, shogi.document, shogi.ruleset),
    "xiangqi": BuiltinGame("xiangqi", xiangqi.START, xiangqi.document, xiangqi.ruleset),
    "makruk": BuiltinGame("makruk", makruk.START, makruk.document, makruk.ruleset),
})
"""The built-in games by name."""


def names() -> tuple[str, ...]:
    """The names of the built-in games."""
    return tuple(GAMES)


def _game(name: str) -> BuiltinGame:
    expect(name, str, "name", "a str")
    game = GAMES.get(name)
    if game is None:
        raise NotFoundError.unknown("game", name, GAMES)
    return game


def document(name: str) -> dict[str, Any]:
    """The complete GGN 1.0.0 document of a game, as plain JSON-ready values (a new copy)."""
    return _game(name).document()


def ruleset(name: str) -> Ruleset:
    """The document of a game as a :class:`~ggn.ruleset.Ruleset`, built once per process."""
    return _game(name).ruleset()


def start(name: str) -> str:
    """The start position of a game, in FEEN."""
    return _game(name).start


def shape(name: str) -> tuple[int, ...]:
    """The board shape of a game, ``(files, ranks)``, read from its start position: a position
    of the game can be checked against it before its board is built.

    >>> shape("xiangqi")
    (9, 10)
    """
    return Feen.parse(_game(name).start).shape
