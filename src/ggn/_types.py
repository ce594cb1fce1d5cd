"""Small shared vocabulary of the texts: sides and piece states."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, Literal

from ggn.errors import GGNError

__all__ = ["SIDES", "STATES", "Side", "State", "check_fields", "expect", "opponent", "player_index"]

Side = Literal["first", "second"]
"""A Piece Side or a player: the first (uppercase) or the second (lowercase)."""

State = Literal["normal", "enhanced", "diminished"]
"""A Piece State: no modifier, ``+`` or ``-``."""

SIDES: tuple[Side, Side] = ("first", "second")
STATES: tuple[State, State, State] = ("normal", "enhanced", "diminished")


def opponent(side: Side) -> Side:
    """The other side."""
    return "second" if side == "first" else "first"


def expect(value: object, types: type | tuple[type, ...], parameter: str, what: str) -> Any:
    """The one check of an argument's Python type at the public entry points: ``value``
    itself if it has the type, else :class:`TypeError` naming the parameter, what it
    takes and the type received.

    ``bool`` is never taken for ``int``: a JSON ``true`` is not a count.
    """
    if isinstance(value, types) and not (
        isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,))
    ):
        return value
    raise TypeError(f"{parameter} must be {what}, got {type(value).__name__}")


def player_index(player: object) -> int:
    """0 for ``"first"``, 1 for ``"second"``: the one check behind every ``hand(player)``.

    Raise :class:`TypeError` for a value that is not a string and
    :class:`~ggn.errors.GGNError` for any other string.
    """
    if player == "first":
        return 0
    if player == "second":
        return 1
    if not isinstance(player, str):
        raise TypeError(f"player must be 'first' or 'second' (a str), not {type(player).__name__}")
    raise GGNError(f"a player is 'first' or 'second', not {player[:40]!r}")


_CHECKS: dict[type, tuple[tuple[str, Any, Callable[[object], bool]], ...]] = {}


def check_fields(record: object) -> None:
    """The one check of a record's fields (a dataclass of descriptions: ``Variant``,
    ``Movement``, ``Section``...) against their annotations, for its ``__post_init__``: a field
    of another type is a :class:`TypeError` naming the record, the field, what it takes and the
    type received; a string that is none of a ``Literal``'s is a
    :class:`~ggn.errors.GGNError`. Containers are looked into (a tuple's items, a frozenset's
    members); records inside them only by their class (each checked itself when made). Each
    annotation is turned into a test once, for its class.

    >>> from ggn.variants.ini import Option
    >>> Option("king", "k", "2")
    Traceback (most recent call last):
    ...
    TypeError: Option.line must be an int, got str
    """
    kind = type(record)
    checks = _CHECKS.get(kind)
    if checks is None:
        checks = _CHECKS[kind] = tuple(
            (name, hint, _test(hint)) for name, hint in typing.get_type_hints(kind).items())
    for name, hint, test in checks:
        value = getattr(record, name)
        if not test(value):
            if typing.get_origin(hint) is Literal and isinstance(value, str):
                allowed = ", ".join(repr(arg) for arg in typing.get_args(hint))
                raise GGNError(f"{kind.__name__}.{name} is one of {allowed}, not {value[:40]!r}")
            raise TypeError(f"{kind.__name__}.{name} must be {_described(hint)}, got {type(value).__name__}")


def _square(value: object) -> bool:
    return type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int


def _test(hint: Any) -> Callable[[object], bool]:
    """A test of a value against an annotation (the few kinds the records use)."""
    if hint is bool or hint is int or hint is str or hint is type(None):
        exact = hint
        return lambda value: type(value) is exact
    if hint == tuple[int, int]:
        return _square
    origin = typing.get_origin(hint)
    if origin is None:
        return lambda value: isinstance(value, hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        tests = tuple(_test(arg) for arg in args)
        return lambda value: any(test(value) for test in tests)
    if origin is Literal:
        return lambda value: value in args and any(type(value) is type(arg) for arg in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _test(args[0])
        return lambda value: type(value) is tuple and all(item(member) for member in value)
    if origin is tuple:
        items = tuple(_test(arg) for arg in args)
        return lambda value: (type(value) is tuple and len(value) == len(items)
                              and all(test(member) for test, member in zip(items, value, strict=True)))
    if origin is frozenset:
        member_test = _test(args[0])
        return lambda value: type(value) is frozenset and all(member_test(member) for member in value)
    return lambda value: isinstance(value, origin)


def _described(hint: Any) -> str:
    """An annotation in words, for a message: ``an int``, ``a tuple of PieceType``."""
    if hint is type(None):
        return "None"
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_described(arg) for arg in args)
    if origin is Literal:
        return "one of " + ", ".join(repr(arg) for arg in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {_plural(args[0])}"
        return f"a tuple ({', '.join(_described(arg) for arg in args)})"
    if origin is frozenset:
        return f"a frozenset of {_plural(args[0])}"
    name = getattr(origin or hint, "__name__", str(hint))
    return f"an {name}" if name[:1] in "aeiouAEIOU" else f"a {name}"


def _plural(hint: Any) -> str:
    if hint == tuple[int, int]:
        return "squares (file, rank)"
    described = _described(hint)
    return described.split(" ", 1)[1] if described.startswith(("a ", "an ")) else described
