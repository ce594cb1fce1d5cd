"""Complete GGN documents of the built-in games, by name.

The games are the entries of one registry, :mod:`ggn.variants.registry`; these functions read
it, for callers that name a game and want its document, its start position or its board shape.

>>> names()[0]
'chess'
>>> start("chess")
'+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c'
>>> ruleset("chess") is ruleset("chess")
True
>>> ruleset("go")
Traceback (most recent call last):
  ...
ggn.errors.NotFoundError: no game 'go'; there are: chess, ...
"""

from __future__ import annotations

from typing import Any

from ggn.ruleset import Ruleset
from ggn.variants import registry

__all__ = ["document", "names", "ruleset", "shape", "start"]


def names() -> tuple[str, ...]:
    """The names of the built-in games."""
    return registry.names()


def document(name: str) -> dict[str, Any]:
    """The complete GGN 1.0.0 document of a game, as plain JSON-ready values (a new copy)."""
    return registry.entry(name).document()


def ruleset(name: str) -> Ruleset:
    """The document of a game as a :class:`~ggn.ruleset.Ruleset`, built once per process."""
    return registry.entry(name).ruleset()


def start(name: str) -> str:
    """The start position of a game, in FEEN."""
    return registry.entry(name).start


def shape(name: str) -> tuple[int, ...]:
    """The board shape of a game, ``(files, ranks)``: a position of the game can be checked
    against it before its board is built.

    >>> shape("xiangqi")
    (9, 10)
    """
    return registry.entry(name).shape
