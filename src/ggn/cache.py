"""The compile cache on disk: what a process spends its start on, kept for the next one.

Two things are kept: the validated GGN document of each game (a variant's description read,
its document built and checked: 0.1 s for chess, 0.4 s for shogi), and the move generator
compiled from a document for a board shape (:mod:`ggn.compiled`: Python code objects,
serialised with :mod:`marshal`). A later process loads them instead of making them again.

Where: ``GGN_CACHE_DIR`` when set; else the user's cache directory: ``$XDG_CACHE_HOME/ggn``
(``~/.cache/ggn``) on Linux and the other Unix systems, ``~/Library/Caches/ggn`` on macOS,
``%LOCALAPPDATA%\\ggn\\Cache`` on Windows. ``GGN_NO_CACHE=1`` (any value but ``0`` or
empty), the command line's ``--no-cache``, or :func:`configure` (``enabled=False``) turn it
off: everything is then made in the process, as without a cache. :func:`status` says which
directory is in use, or why none is.

Keys. An entry is found by a hash of what it is made from (the canonical description of a
game, or the document's own canonical form, and the board's shape) together with
:func:`fingerprint`: the ggn version, the Python bytecode magic number
(:data:`importlib.util.MAGIC_NUMBER`) and a hash of the source of every module of the
package, the code generator's included. A change to any of them reads as another key, so
an entry made by other code is never loaded; it ages out of the cache instead.

Safety, since loading compiled code from a file is running it:

- the directory is created private (``0700``); one that is a symbolic link, is not owned by
  the user, or is writable by the group or others is not used (nor one whose parent is
  writable by others without the sticky bit, where another user could replace it);
- a file is opened without following a symbolic link, and loaded only if it is a regular
  file owned by the user and not writable by the group or others;
- each file holds a header (a format mark, the hash of its key, a hash of its contents): a
  file that is truncated, corrupt, made for another key or by another format is ignored and
  made again, never an error;
- a file is written whole to a temporary file in the same directory, then renamed over the
  entry (:func:`os.replace`), so a reader sees the old entry or the new one, never part of
  one: processes filling the same cache at once are safe (when two make the same entry, the
  last rename wins, and both are right). No fsync: after a crash a file cut short fails its
  hash and is made again.

Size: at most :data:`MAX_BYTES` (64 MiB; :func:`configure` ``max_bytes``) in all; past it,
the entries used least recently (by modification time, which a load older than an hour
renews) are removed until three quarters remain. Chess's entries take about 1 MB, shogi's 3.

On Windows, where files have no Unix owner and mode, the checks of owner and mode are left
to the user's profile directory's access rights.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import importlib.util
import marshal
import os
import stat
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

__all__ = ["MAX_BYTES", "Entries", "clear", "configure", "default_directory", "enabled", "fingerprint",
           "flush", "load", "off", "status", "store"]

MAX_BYTES: Final = 64 << 20
"""The default bound of the cache's size on disk, in bytes (64 MiB)."""

_FORMAT: Final = b"GGNC\x01"  # the file format's mark and version
_HASH: Final = 32  # bytes of each BLAKE2b digest in a header
_HEADER: Final = len(_FORMAT) + 2 * _HASH
_TOUCH_AFTER: Final = 3600.0  # seconds: a load renews an entry's time when it is older
_SUFFIX: Final = ".ggnc"
_TEMPORARY: Final = ".tmp-"
_POSIX: Final = os.name == "posix"

_lock = threading.RLock()
_enabled: bool | None = None  # None: from the environment
_directory: Path | None = None  # None: from the environment, else the platform's default
_max_bytes = MAX_BYTES
_checked: tuple[Path, str | None] | None = None  # the directory last checked and why not used
_fingerprint: bytes | None = None


def configure(
    *, enabled: bool | None = None, directory: str | os.PathLike[str] | None = None,
    max_bytes: int | None = None,
) -> None:
    """Set the cache for this process: ``enabled`` (``None``: from ``GGN_NO_CACHE``, as at
    start), ``directory`` (``None``: from ``GGN_CACHE_DIR``, else the platform's default) and
    ``max_bytes`` (``None``: :data:`MAX_BYTES`). Each call sets all three."""
    global _enabled, _directory, _max_bytes, _checked  # noqa: PLW0603  (the process's settings)
    if enabled is not None and not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool or None, got {type(enabled).__name__}")
    if directory is not None and not isinstance(directory, str | os.PathLike):
        raise TypeError(f"directory must be a path or None, got {type(directory).__name__}")
    if max_bytes is not None and (type(max_bytes) is not int):
        raise TypeError(f"max_bytes must be an int or None, got {type(max_bytes).__name__}")
    if max_bytes is not None and max_bytes < 0:
        raise ValueError(f"max_bytes must be 0 or more, got {max_bytes}")
    with _lock:
        _enabled = enabled
        _directory = None if directory is None else Path(directory)
        _max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        _checked = None


@contextlib.contextmanager
def off() -> Iterator[None]:
    """The cache off while the block runs (for the whole process), then as it was."""
    global _enabled  # noqa: PLW0603
    with _lock:
        before = _enabled
        _enabled = False
    try:
        yield
    finally:
        with _lock:
            _enabled = before


def enabled() -> bool:
    """Whether the cache is on (it may still find no usable directory: see :func:`status`)."""
    if _enabled is not None:
        return _enabled
    return os.environ.get("GGN_NO_CACHE", "") in ("", "0")


def default_directory() -> Path:
    """The directory used when neither ``GGN_CACHE_DIR`` nor :func:`configure` names one."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "ggn" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ggn"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"  # the spec: absolute only
    return base / "ggn"


def _wanted_directory() -> Path | None:
    """The directory asked for (None: no home directory to put the default one in)."""
    if _directory is not None:
        return _directory
    given = os.environ.get("GGN_CACHE_DIR", "")
    try:
        return Path(given) if given else default_directory()
    except (RuntimeError, KeyError, OSError):  # Path.home() without a home directory
        return None


def status() -> str:
    """One line: the directory in use, or why no cache is used."""
    if not enabled():
        return "off (GGN_NO_CACHE, --no-cache or ggn.cache.configure)"
    path = _wanted_directory()
    if path is None:
        return "not used: no home directory for the default one (set GGN_CACHE_DIR)"
    why = _check_directory(path)
    return f"in {path}" if why is None else f"not used: {path}: {why}"


def _check_directory(path: Path) -> str | None:
    """Make the directory (private) if it is missing; None when usable, else why not."""
    global _checked  # noqa: PLW0603
    with _lock:
        if _checked is not None and _checked[0] == path:
            return _checked[1]
        why = _prepare(path)
        _checked = (path, why)
        return why


def _prepare(path: Path) -> str | None:
    try:
        parent = path.parent
        parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return "it is a symbolic link (name the directory itself)"
        if not stat.S_ISDIR(info.st_mode):
            return "it is not a directory"
        if _POSIX:
            if info.st_uid != os.geteuid():
                return f"it belongs to another user (uid {info.st_uid})"
            if info.st_mode & 0o022:
                return f"it is writable by the group or others (mode {stat.S_IMODE(info.st_mode):o})"
            above = os.stat(parent)
            if above.st_mode & 0o002 and not above.st_mode & stat.S_ISVTX:
                return f"its parent {parent} is writable by others without the sticky bit"
    except OSError as error:
        return f"cannot be made or read ({error.strerror or error})"
    return None


def _usable() -> Path | None:
    if not enabled():
        return None
    path = _wanted_directory()
    return path if path is not None and _check_directory(path) is None else None


def fingerprint() -> bytes | None:
    """What every key holds besides its own input: the ggn version, the bytecode magic number
    and a hash of the package's source files (made once a process; None when the sources
    cannot be read, as from a zip file: then nothing is cached)."""
    global _fingerprint  # noqa: PLW0603
    if _fingerprint is None:
        digest = hashlib.blake2b(digest_size=_HASH)
        version = getattr(sys.modules.get("ggn"), "__version__", "?")
        digest.update(f"ggn {version}\0".encode())
        digest.update(importlib.util.MAGIC_NUMBER)
        digest.update(sys.implementation.cache_tag.encode() if sys.implementation.cache_tag else b"-")
        try:
            _hash_sources(os.path.dirname(os.path.abspath(__file__)), "", digest)
        except OSError:
            return None
        _fingerprint = digest.digest()
    return _fingerprint


def _hash_sources(folder: str, relative: str, digest: Any) -> None:
    """Add every source file under ``folder`` (sorted, ``__pycache__`` left out) to ``digest``."""
    with os.scandir(folder) as found:
        items = sorted((item.name, item.is_dir(follow_symlinks=False)) for item in found)
    for name, is_folder in items:
        if is_folder:
            if name != "__pycache__":
                _hash_sources(os.path.join(folder, name), f"{relative}{name}/", digest)
        elif name.endswith((".py", ".ini", ".json")):
            with open(os.path.join(folder, name), "rb") as file:
                data = file.read()
            digest.update(f"{relative}{name}\0".encode())
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)


def _entry(kind: str, key: bytes) -> tuple[str, bytes] | None:
    """The file name and the full hash of an entry, or None when nothing can be cached."""
    mark = fingerprint()
    if mark is None:
        return None
    digest = hashlib.blake2b(mark + kind.encode() + b"\0" + key, digest_size=_HASH).digest()
    return f"{kind}-{digest.hex()[:40]}{_SUFFIX}", digest


def load(kind: str, key: bytes) -> bytes | None:
    """The data stored for ``(kind, key)``, or None: no cache, no entry, or an entry that is
    not safe or not whole (such a file is left for :func:`store` to replace)."""
    path = _usable()
    entry = _entry(kind, key) if path is not None else None
    if path is None or entry is None:
        return None
    name, digest = entry
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
            | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path / name, flags)
    except OSError:  # missing, a symbolic link (ELOOP), unreadable
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size < _HEADER:
            return None
        if _POSIX and (info.st_uid != os.geteuid() or info.st_mode & 0o022):
            return None
        if info.st_size > max(_max_bytes, _HEADER):
            return None
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(info.st_size + 1)
        if time.time() - info.st_mtime > _TOUCH_AFTER:
            with contextlib.suppress(OSError, NotImplementedError):
                os.utime(fd if os.utime in os.supports_fd else path / name)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) != info.st_size or not data.startswith(_FORMAT):
        return None
    if data[len(_FORMAT):len(_FORMAT) + _HASH] != digest:
        return None  # made for another key (or by another fingerprint)
    payload = data[_HEADER:]
    if hashlib.blake2b(payload, digest_size=_HASH).digest() != data[len(_FORMAT) + _HASH:_HEADER]:
        return None  # cut short or changed
    return payload


def store(kind: str, key: bytes, data: bytes) -> bool:
    """Keep ``data`` for ``(kind, key)``; whether it was written. Never raises for the disk:
    a cache that cannot be written is only slower."""
    path = _usable()
    entry = _entry(kind, key) if path is not None else None
    if path is None or entry is None:
        return False
    name, digest = entry
    blob = _FORMAT + digest + hashlib.blake2b(data, digest_size=_HASH).digest() + data
    if len(blob) > _max_bytes // 4:
        return False  # one entry never takes more than a quarter of the cache
    temporary = ""
    try:
        fd, temporary = tempfile.mkstemp(prefix=_TEMPORARY, suffix=".part", dir=path)  # 0600, O_EXCL
        with os.fdopen(fd, "wb") as file:
            file.write(blob)
        os.replace(temporary, path / name)
        temporary = ""
    except OSError:
        return False
    finally:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    _evict(path)
    return True


def _evict(path: Path) -> None:
    """Remove the entries used least recently while the cache is over its bound, and the
    temporary files of writers that died (over an hour old)."""
    entries: list[tuple[float, int, str]] = []
    total = 0
    now = time.time()
    try:
        with os.scandir(path) as found:
            for item in found:
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if item.name.startswith(_TEMPORARY):
                    if now - info.st_mtime > _TOUCH_AFTER:
                        with contextlib.suppress(OSError):
                            os.unlink(item.path)
                    continue
                if item.name.endswith(_SUFFIX) and stat.S_ISREG(info.st_mode):
                    entries.append((info.st_mtime, info.st_size, item.path))
                    total += info.st_size
    except OSError:
        return
    if total <= _max_bytes:
        return
    entries.sort()
    for _, size, file in entries:
        if total <= _max_bytes * 3 // 4:
            break
        with contextlib.suppress(OSError):
            os.unlink(file)
            total -= size


def clear() -> int:
    """Remove every entry of the cache directory in use; return how many were removed."""
    path = _usable()
    if path is None:
        return 0
    removed = 0
    with os.scandir(path) as found:
        for item in found:
            if item.name.endswith(_SUFFIX) or item.name.startswith(_TEMPORARY):
                with contextlib.suppress(OSError):
                    os.unlink(item.path)
                    removed += 1
    return removed


class Entries:
    """One cache entry holding many values by name (compiled code objects and the data that
    goes with them, anything :mod:`marshal` writes): read from the cache on first use, added to
    as the process makes more, and saved by :func:`flush` (at the latest at exit), merged with
    what other processes saved meanwhile. A value found for a name is what this version of the
    code made for it: the key and the fingerprint say so."""

    __slots__ = ("__weakref__", "_key", "_kind", "_lock", "_made", "_values")

    def __init__(self, kind: str, key: bytes) -> None:
        self._kind = kind
        self._key = key
        self._values: dict[Any, Any] | None = None  # read on first use
        self._made: dict[Any, Any] = {}  # made here, not saved yet
        self._lock = threading.Lock()

    def _read(self) -> dict[Any, Any]:
        data = load(self._kind, self._key)
        if data is not None:
            try:
                values = marshal.loads(data)  # noqa: S302  (a checked file of our own: see the module doc)
            except (ValueError, EOFError, TypeError):
                values = None
            if type(values) is dict:
                return values
        return {}

    def get(self, name: Any) -> Any:
        """The value saved for ``name``, or None."""
        values = self._values
        if values is None:
            with self._lock:
                values = self._values
                if values is None:
                    values = self._values = self._read() if enabled() else {}
        return values.get(name)

    def put(self, name: Any, value: Any) -> None:
        """Keep ``value`` for ``name``, to be saved."""
        with self._lock:
            if self._values is None:
                self._values = {}
            self._values[name] = value
            if not enabled():
                return  # made while the cache is off: not to be saved
            if not self._made:
                _mark_dirty(self)
            self._made[name] = value

    def save(self) -> None:
        """Write what was made here, with what the entry holds on disk now."""
        with self._lock:
            made, self._made = self._made, {}
            _dirty.discard(self)
        if not made:
            return
        values = self._read()
        values.update(made)
        try:
            data = marshal.dumps(values)
        except ValueError:  # a value marshal cannot write: nothing is saved
            return
        store(self._kind, self._key, data)


# The entries with values not saved yet (weakly: an entry let go, as a compiled form of a
# board shape used long ago, is not kept alive for its values; they are made again if needed).
_dirty: weakref.WeakSet[Entries] = weakref.WeakSet()
_at_exit: list[bool] = []


def _mark_dirty(entries: Entries) -> None:
    with _lock:
        _dirty.add(entries)
        if not _at_exit:
            atexit.register(flush)
            _at_exit.append(True)


def flush() -> None:
    """Save what this process made and has not saved yet (done at exit too). Never raises."""
    with _lock:
        pending = list(_dirty)
    for entries in pending:
        with contextlib.suppress(Exception):
            entries.save()
