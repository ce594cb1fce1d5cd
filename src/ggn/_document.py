"""What every JSON document type shares: loading from any source, bounded error
collection, read-only mappings with helpful lookup errors, and dumping.
"""

from __future__ import annotations

import os
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import IO, Any, ClassVar, Generic, TypeVar

from ggn._json import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ERRORS,
    Collector,
    DuplicateKeys,
    Full,
    Source,
    decode,
    describe,
    dumps,
    quote,
    read_file,
)
from ggn._types import expect
from ggn.errors import DocumentError, NotationError, NotFoundError, Violation, extend

__all__ = ["Document", "FrozenMap", "parse_key", "report_duplicates"]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D", bound="Document")


def report_duplicates(value: dict[str, Any], path: str, out: Collector) -> None:
    """Report the repeated keys of an object decoded by :mod:`ggn._json`."""
    if type(value) is DuplicateKeys:
        for key in value.duplicates:
            out.add(extend(path, key), f"duplicate key {quote(key)}: a JSON object must not repeat a key")


def parse_key(
    key: object, parse: Callable[[str], T], path: str, out: Collector, *, label: str, expected: str
) -> T | None:
    """Parse one key of the object at ``path``; on failure report it and return None.

    A string that does not parse is reported at its member (``path/key``) as
    ``"<label> '<key>' <expected>: <reason>"``; a key that is not a string (only
    possible in a hand-built Python value) is reported at the object.
    """
    try:
        return parse(key)  # type: ignore[arg-type]
    except NotationError as error:
        if isinstance(key, str):
            out.add(extend(path, key), f"{label} {quote(key)} {expected}: {error.reason}")
        else:
            out.add(path, f"{label} keys must be strings, got {describe(key)}")
        return None


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """A read-only mapping whose keys may also be given as their strings.

    Subclasses name what their keys are (``_what``) and how to parse a key
    given as a string (``_parse_key``); a missing key raises
    :class:`~ggn.errors.NotFoundError` naming what was asked, where, and what
    there is instead.
    """

    __slots__ = ("_data", "_where")
    _what: ClassVar[str] = "key"

    @staticmethod
    def _parse_key(text: str) -> Any:
        """Parse a key given as a string (subclasses name their notation's parser)."""
        return text

    def __init__(self, data: dict[K, V], where: str = "") -> None:
        if type(data) is not dict:
            expect(data, dict, "data", f"a dict of {self._what}s")
        if type(where) is not str:
            expect(where, str, "where", "a str")
        self._data = data
        self._where = where

    def _resolve(self, key: object) -> K:
        if isinstance(key, str):
            try:
                parsed: K = type(self)._parse_key(key)
            except NotationError as error:
                raise NotFoundError(f"{quote(key)} is not a {self._what}: {error.reason}") from None
            return parsed
        return key  # type: ignore[return-value]

    def __getitem__(self, key: object) -> V:
        try:
            return self._data[key]  # type: ignore[index]
        except (KeyError, TypeError):
            pass
        resolved = self._resolve(key)
        try:
            return self._data[resolved]
        except (KeyError, TypeError):
            pass
        have = ", ".join(str(k) for k in list(self._data)[:12])
        if len(self._data) > 12:
            have += f", ... ({len(self._data)} in all)"
        where = f" {self._where}" if self._where else ""
        raise NotFoundError(
            f"no {self._what} {quote(str(resolved))}{where}"
            + (f"; there are: {have}" if have else "; there are none")
        )

    def __contains__(self, key: object) -> bool:
        try:
            self[key]
        except NotFoundError:
            return False
        return True

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # The dict's own views: Mapping's would look every key up again through __getitem__.
    def keys(self) -> KeysView[K]:
        return self._data.keys()

    def values(self) -> ValuesView[V]:
        return self._data.values()

    def items(self) -> ItemsView[K, V]:
        return self._data.items()

    def __eq__(self, other: object) -> bool:
        # The same type, or one a subclass of the other (a lazily read form of the same map).
        if type(other) is type(self) or (
            isinstance(other, FrozenMap) and other._what == self._what
            and (isinstance(other, type(self)) or isinstance(self, type(other)))
        ):
            return self._data == other._data
        if isinstance(other, Mapping) and not isinstance(other, FrozenMap):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{str(k)!r}: {v!r}" for k, v in self._data.items())
        return f"{type(self).__name__}({{{inner}}})"


class Document:
    """Loading and dumping shared by the document types.

    A subclass defines ``_kind`` (its name in messages) and ``_build``, which
    walks a decoded JSON value, reports every violation to the collector, and
    returns the document (or anything when it reported a violation).
    """

    __slots__ = ()
    _kind: ClassVar[str]

    @classmethod
    def _build(cls: type[D], value: Any, out: Collector) -> D | None:
        raise NotImplementedError

    def to_value(self, *, explicit: bool = False) -> Any:
        """The document as plain JSON-ready Python values (dicts, lists, strings).

        The canonical form leaves out what is empty or default; ``explicit``
        writes every optional field (for readers that require them).
        """
        raise NotImplementedError

    @classmethod
    def _run(cls: type[D], value: Any, max_errors: int) -> tuple[D | None, Collector]:
        expect(max_errors, int, "max_errors", "an int")
        out = Collector(max_errors)
        document: D | None = None
        try:
            document = cls._build(value, out)
        except Full:
            pass
        except RecursionError:
            # Only reachable through hand-built Python values, never from JSON text.
            out.violations.append(Violation("", "the value nests too deeply to be checked"))
        return (None if out else document), out

    @classmethod
    def from_value(cls: type[D], value: Any, *, max_errors: int = DEFAULT_MAX_ERRORS) -> D:
        """Build from an already decoded JSON value; raise :class:`DocumentError` if invalid."""
        document, out = cls._run(value, max_errors)
        if document is None:
            raise DocumentError(cls._kind, tuple(out.violations), out.truncated)
        return document

    @classmethod
    def loads(
        cls: type[D],
        text: Source,
        *,
        max_errors: int = DEFAULT_MAX_ERRORS,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> D:
        """Build from JSON text (``str``) or UTF-8 bytes."""
        expect(text, (str, bytes, bytearray, memoryview), "text", "JSON text (str or bytes)")
        expect(max_bytes, int, "max_bytes", "an int")
        expect(max_errors, int, "max_errors", "an int")
        value, faults = decode(text, max_bytes)
        if faults:
            raise DocumentError(cls._kind, tuple(faults))
        return cls.from_value(value, max_errors=max_errors)

    @classmethod
    def load(
        cls: type[D],
        file: str | os.PathLike[str] | IO[bytes] | IO[str],
        *,
        max_errors: int = DEFAULT_MAX_ERRORS,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> D:
        """Build from a file, given as a path or an open file object."""
        if not hasattr(file, "read"):
            expect(file, (str, os.PathLike), "file", "a path (str or os.PathLike) or a file object")
        expect(max_bytes, int, "max_bytes", "an int")
        data, faults = read_file(file, max_bytes)
        if faults or data is None:
            raise DocumentError(cls._kind, tuple(faults))
        return cls.loads(data, max_errors=max_errors, max_bytes=max_bytes)

    @classmethod
    def errors(cls, value: Any, *, max_errors: int = DEFAULT_MAX_ERRORS) -> list[Violation]:
        """Every violation of a decoded JSON value, in document order, at most ``max_errors``."""
        return cls._run(value, max_errors)[1].violations

    @classmethod
    def is_valid(cls, value: Any) -> bool:
        """Whether a decoded JSON value is a valid document (stops at the first violation)."""
        return not cls._run(value, 1)[1]

    def dumps(self, *, indent: int | None = 2, explicit: bool = False) -> str:
        """Canonical JSON text; loading it gives back an equal document."""
        if indent is not None:
            expect(indent, int, "indent", "an int or None")
            if indent < 0:
                raise ValueError(f"indent must be 0 or more, got {indent}")
        return dumps(self.to_value(explicit=explicit), indent=indent)

    def dump(self, file: IO[str], *, indent: int | None = 2, explicit: bool = False) -> None:
        """Write :meth:`dumps` to a text file, with a final newline."""
        file.write(self.dumps(indent=indent, explicit=explicit))
        file.write("\n")
