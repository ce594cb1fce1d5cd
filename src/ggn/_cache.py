"""A bounded memo for parsers of short strings.

Documents repeat the same few hundred squares and pieces thousands of times;
parsing each distinct string once makes loading a large document cheap. The
values are immutable, so sharing them is safe. The memo is cleared when it grows
past its bound, in entries or in characters (a value is about as large as its
text), so that hostile input cannot make it grow without limit: 65,536 CELL
strings of 300,000 letters would otherwise be kept, 20 GB.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Memo"]

T = TypeVar("T")


class Memo(Generic[T]):
    __slots__ = ("_bound", "_chars", "_compute", "_store")

    def __init__(self, compute: Callable[[str], T], bound: int = 65536) -> None:
        self._compute = compute
        self._store: dict[str, T] = {}
        self._bound = bound
        self._chars = 0  # characters of the texts kept; at most 1,000 an entry on average

    def __call__(self, text: str) -> T:
        if type(text) is not str:
            # Not memoised: the parser itself reports the wrong type.
            return self._compute(text)
        try:
            return self._store[text]
        except KeyError:
            pass
        value = self._compute(text)
        if len(self._store) >= self._bound or self._chars + len(text) > self._bound * 1000:
            self._store.clear()
            self._chars = 0
        if len(text) <= self._bound * 1000:
            self._store[text] = value
            self._chars += len(text)
        return value
