"""A bounded memo for parsers of short strings.

Documents repeat the same few hundred squares and pieces thousands of times;
parsing each distinct string once makes loading a large document cheap. The
values are immutable, so sharing them is safe. The memo is cleared when it grows
past its bound so that hostile input cannot make it grow without limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Memo"]

T = TypeVar("T")


class Memo(Generic[T]):
    __slots__ = ("_bound", "_compute", "_store")

    def __init__(self, compute: Callable[[str], T], bound: int = 65536) -> None:
        self._compute = compute
        self._store: dict[str, T] = {}
        self._bound = bound

    def __call__(self, text: str) -> T:
        if type(text) is not str:
            # Not memoised: the parser itself reports the wrong type.
            return self._compute(text)
        try:
            return self._store[text]
        except KeyError:
            pass
        value = self._compute(text)
        if len(self._store) >= self._bound:
            self._store.clear()
        self._store[text] = value
        return value
