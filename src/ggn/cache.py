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

What is trusted. A file of the cache is trusted as code only for the move generators and
attack tests (the kinds ``moves`` and ``attacks``: :class:`Entries` of code objects, read with
:mod:`marshal` and run). Every other kind is data: the packed documents (``document``,
``ggn``), the built-in games' names, their resolved descriptions and their summaries (start,
style, shape and the key of their document: ``builtin-names``, ``builtin-variant``,
``builtin-game``) and the native kernel's tables (``native-tables``: integers, which the
kernel bounds as it reads them) are :mod:`marshal` of plain values (strings, numbers, tuples,
sets, dicts), which the reader checks and builds values from; nothing read from them is run,
called or unpickled. So the directory must be private to the user: whoever can write a file in it can
make the next process run code. Hence its rules, checked once a process before anything is
read or written (like ssh's ``StrictModes``), and :func:`status` names the rule a directory
breaks:

- the path is absolute, with no ``..`` part;
- it is not the root of a file system, a directory directly under the root (``/usr``,
  ``/tmp``, ``/home``...) nor the user's home directory;
- it is the cache's own: new (made ``0700``, with parents made ``0700`` where missing), empty,
  or holding its tag file ``CACHEDIR.TAG`` (the `Cache Directory Tagging
  <https://bford.info/cachedir/>`_ signature and a line naming ggn, which it writes; backup
  tools skip the directory); a directory holding only files named as the cache names its own
  (the cache of an earlier version) is tagged and used. Any other file in it refuses it;
- it is a directory itself, not a symbolic link, owned by the user and not writable by the
  group or others;
- each directory above it, up to the root, both as written and as its real path (symbolic
  links resolved), is owned by the user or root and is not writable by the group or others,
  unless it has the sticky bit (as ``/tmp``), where no other user can rename or remove what is
  the user's; a symbolic link on the way is owned by the user or root.

And for each file:

- a file is opened without following a symbolic link, and loaded only if it is a regular
  file owned by the user and not writable by the group or others;
- each file holds a header (a format mark, the hash of its key, a hash of its contents): a
  file that is truncated, corrupt, made for another key or by another format is ignored and
  made again, never an error;
- a file is written whole to a temporary file in the same directory, then renamed over the
  entry (:func:`os.replace`), so a reader sees the old entry or the new one, never part of
  one: processes filling the same cache at once are safe (when two make the same entry, the
  last rename wins, and both are right). No fsync: after a crash a file cut short fails its
  hash and is made again;
- :func:`clear` and the size bound remove only the cache's own files: an entry is one whose
  name is ``KIND-HASH.ggnc`` and whose header holds the format mark and the key hash its name
  begins with; a temporary file is one named as the cache names them (``.tmp-XXXXXXXX.part``)
  that begins with the format mark. Both are regular files of the user's; any other file is
  left alone, whatever its name ends with.

Size: at most :data:`MAX_BYTES` (64 MiB; :func:`configure` ``max_bytes``) in all; past it,
the entries used least recently (by modification time, which a load older than an hour
renews) are removed until three quarters remain. A game's entries grow with the positions
met, to a few MB once much used (chess's generators 1.8 MB and attack tests 2.7 MB, grand's
generators 4.9 MB; the kernel's tables, compressed, 0.1 to 0.2 MB).

An :class:`Entries` (a game's generators, attack tests or generators' orders for a board
shape) is kept in several files of bounded sizes, so what a process reads at its start stays
the same however long the cache is used. Its head holds the values saved first, while it has
room (256 KiB: a start position's generators take 16 to 46 KB, its attack tests 8 to 244 KB,
and a process saves what it made in the order it made it), read at the first look-up. Its 64
parts hold the values saved after, each in the part a hash of its name picks (512 KiB each,
32 MiB in all, as they fill unevenly: grand's attack tests, 8.8 MB after 400 processes of
random games, had parts of 49 to 238 KB), a part read only when a name the head does not
hold is looked up. A value of more than 64 KiB (shogi's pawn drops: 471 KB) is kept in a file
of its own, which the head or a part names, read only when it is looked up. Each value is
decoded when its name is first looked up. A value that fits in neither its part nor the head
is not saved: each process that needs it makes it again, as without a cache. Each file is
merged with what it holds on disk at that moment and written whole and renamed, as any entry.

On Windows, where files have no Unix owner and mode, the checks of owner and mode are left
to the user's profile directory's access rights; the other rules hold.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import importlib.util
import marshal
import os
import re
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
_KIND: Final = re.compile(r"[a-z][a-z0-9-]{0,31}")
_ENTRY_NAME: Final = re.compile(r"[a-z][a-z0-9-]{0,31}-([0-9a-f]{40})\.ggnc")  # what _entry names
_TEMPORARY_NAME: Final = re.compile(r"\.tmp-[a-z0-9_]{8}\.part")  # what tempfile.mkstemp names
_TAG_NAME: Final = "CACHEDIR.TAG"
_TAG_MARK: Final = (b"Signature: 8a477f597d28d172789f06886806bc55\n"  # https://bford.info/cachedir/
                    b"# This file is a cache directory tag created by ggn (its compile cache).\n")
_TAG: Final = _TAG_MARK + b"# For information about cache directory tags, see https://bford.info/cachedir/\n"
_POSIX: Final = os.name == "posix"
_HEAD_BYTES: Final = 256 << 10  # an Entries' head: the values saved first, at most so many bytes
_PARTS: Final = 64  # the files an Entries' other values are spread over, by a hash of their names
_PART_BYTES: Final = 512 << 10  # each at most so many bytes
_OWN_BYTES: Final = 64 << 10  # an Entries' value of more bytes is kept in a file of its own

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
    """Why ``path`` may not be the cache's directory (the rules of the module's doc), or None
    once it is made (with its missing parents) and tagged."""
    if not path.is_absolute():
        return "it is not an absolute path (name the directory from the root)"
    if ".." in path.parts:
        return "its path has a '..' part (name the directory itself)"
    if len(path.parts) <= 2:  # the root ("/", "C:\\"), or a directory right under it
        return _SYSTEM
    text = os.fspath(path)
    try:
        real = os.path.join(os.path.realpath(os.path.dirname(text)), path.name)
        if len(Path(real).parts) <= 2:
            return _SYSTEM
        why = _above(text, real)
        if why is not None:
            return why
        if not os.path.lexists(text):
            made = _make_parents(path.parent)
            with contextlib.suppress(FileExistsError):
                path.mkdir(mode=0o700)
            if made:  # checked again: what was missing is made now
                why = _above(text, os.path.join(os.path.realpath(os.path.dirname(text)), path.name))
                if why is not None:
                    return why
        info = os.lstat(text)
        if stat.S_ISLNK(info.st_mode):
            return "it is a symbolic link (name the directory itself)"
        if not stat.S_ISDIR(info.st_mode):
            return "it is not a directory"
        if _is_home(info):
            return "it is the home directory: name a directory of the cache's own, such as ~/.cache/ggn"
        if _POSIX:
            if info.st_uid != os.geteuid():
                return f"it belongs to another user (uid {info.st_uid})"
            if info.st_mode & 0o022:
                return f"it is writable by the group or others (mode {stat.S_IMODE(info.st_mode):o})"
        return _own_directory(path)
    except OSError as error:
        return f"cannot be made or read ({error.strerror or error})"


_SYSTEM: Final = ("it is a system directory (the root of the file system or a directory directly under "
                  "it): name a directory of the cache's own, such as ~/.cache/ggn")


def _is_home(info: os.stat_result) -> bool:
    """Whether ``info`` is the user's home directory's."""
    home = os.path.expanduser("~")
    if home == "~":
        return False
    try:
        return os.path.samestat(info, os.stat(home))
    except OSError:
        return False


def _above(text: str, real: str) -> str | None:
    """Why a directory above ``text`` (as written, and ``real``: the same with its parent's
    real path) lets another user replace what is in it, or None (missing ones are made
    private later)."""
    if not _POSIX:
        return None
    user = os.geteuid()
    seen: set[str] = set()
    for written, path in ((True, text), (False, real)):
        folder = os.path.dirname(path)
        while folder not in seen:
            seen.add(folder)
            try:
                if written:
                    link = os.lstat(folder)
                    if stat.S_ISLNK(link.st_mode) and link.st_uid not in (0, user):
                        return f"{folder}, above it, is a symbolic link of another user (uid {link.st_uid})"
                info = os.stat(folder)
            except FileNotFoundError:
                info = None
            if info is not None:
                if info.st_uid not in (0, user):
                    return f"{folder}, above it, belongs to another user (uid {info.st_uid})"
                if info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX:
                    return (f"{folder}, above it, is writable by the group or others without the sticky "
                            f"bit (mode {stat.S_IMODE(info.st_mode):o})")
            folder = os.path.dirname(folder)
    return None


def _make_parents(folder: Path) -> bool:
    """Make the missing directories of ``folder``, each private (``0700``); whether any was."""
    missing: list[Path] = []
    while not os.path.lexists(folder) and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        with contextlib.suppress(FileExistsError):
            made.mkdir(mode=0o700)
    return bool(missing)


def _own_directory(path: Path) -> str | None:
    """None when the directory is the cache's (tagged; or empty or holding only names the
    cache writes, then tagged), else why not."""
    if _is_tag(path / _TAG_NAME):
        return None
    foreign: str | None = None
    with os.scandir(path) as found:
        for item in found:
            if _ENTRY_NAME.fullmatch(item.name) or _TEMPORARY_NAME.fullmatch(item.name):
                continue
            if item.name == _TAG_NAME and _is_tag(path / _TAG_NAME):  # tagged meanwhile
                return None
            foreign = item.name
            break
    if foreign is not None:
        shown = repr(foreign[:40]) + ("..." if len(foreign) > 40 else "")
        return (f"it holds a file that is not the cache's ({shown}) and no {_TAG_NAME} of ggn's: "
                "name a new or empty directory")
    fd, temporary = tempfile.mkstemp(prefix=_TEMPORARY, suffix=".part", dir=path)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(_TAG)
        os.replace(temporary, path / _TAG_NAME)  # whole or not there: other processes read it
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return None


def _is_tag(file: Path) -> bool:
    head = _head(file, len(_TAG_MARK))
    return head is not None and head == _TAG_MARK


def _head(file: Path, size: int) -> bytes | None:
    """The first ``size`` bytes of ``file`` if it is a regular file of the user's (not
    followed if a symbolic link), else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(file, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (_POSIX and info.st_uid != os.geteuid()):
            return None
        return os.read(fd, size)
    except OSError:
        return None
    finally:
        os.close(fd)


def _own_file(folder: Path, name: str) -> bool:
    """Whether the file ``name`` in ``folder`` is one the cache wrote: an entry named as
    :func:`_entry` names them whose header has the format mark and the key hash its name
    holds, or a temporary file named as :func:`store` names them that begins with the format
    mark (or the tag's); a regular file of the user's either way."""
    named = _ENTRY_NAME.fullmatch(name)
    if named is not None:
        head = _head(folder / name, len(_FORMAT) + _HASH)
        return head is not None and len(head) == len(_FORMAT) + _HASH and head.startswith(_FORMAT) \
            and head[len(_FORMAT):].hex()[:40] == named[1]
    if _TEMPORARY_NAME.fullmatch(name):
        head = _head(folder / name, len(_FORMAT))
        return head is not None and len(head) == len(_FORMAT) and (
            head == _FORMAT or _TAG_MARK.startswith(head))
    return False


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


def _types(kind: object, key: object) -> None:
    """The types of an entry's name, checked whether or not a cache is in use."""
    if type(kind) is not str:
        raise TypeError(f"kind must be a str, got {type(kind).__name__}")
    if not isinstance(key, bytes):
        raise TypeError(f"key must be bytes, got {type(key).__name__}")


def _entry(kind: str, key: bytes) -> tuple[str, bytes] | None:
    """The file name and the full hash of an entry, or None when nothing can be cached."""
    _types(kind, key)
    if not _KIND.fullmatch(kind):
        raise ValueError(f"a cache entry's kind is a lowercase letter, then up to 31 lowercase "
                         f"letters, digits and -, not {kind[:40]!r}")
    mark = fingerprint()
    if mark is None:
        return None
    digest = hashlib.blake2b(mark + kind.encode() + b"\0" + key, digest_size=_HASH).digest()
    return f"{kind}-{digest.hex()[:40]}{_SUFFIX}", digest


def load(kind: str, key: bytes) -> bytes | None:
    """The data stored for ``(kind, key)``, or None: no cache, no entry, or an entry that is
    not safe or not whole (such a file is left for :func:`store` to replace)."""
    _types(kind, key)
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
    _types(kind, key)
    if not isinstance(data, bytes):
        raise TypeError(f"data must be bytes, got {type(data).__name__}")
    path = _write(kind, key, data)
    if path is None:
        return False
    _evict(path)
    return True


def _write(kind: str, key: bytes, data: bytes) -> Path | None:
    """Write one entry whole (renamed into place) without the size bound's check; the
    cache's directory if it was written, else None."""
    path = _usable()
    entry = _entry(kind, key) if path is not None else None
    if path is None or entry is None:
        return None
    name, digest = entry
    blob = _FORMAT + digest + hashlib.blake2b(data, digest_size=_HASH).digest() + data
    if len(blob) > _max_bytes // 4:
        return None  # one entry never takes more than a quarter of the cache
    temporary = ""
    try:
        fd, temporary = tempfile.mkstemp(prefix=_TEMPORARY, suffix=".part", dir=path)  # 0600, O_EXCL
        with os.fdopen(fd, "wb") as file:
            file.write(blob)
        os.replace(temporary, path / name)
        temporary = ""
    except OSError:
        return None
    finally:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    return path


def _evict(path: Path) -> None:
    """Remove the entries used least recently while the cache is over its bound, and the
    temporary files of writers that died (over an hour old): its own files only."""
    entries: list[tuple[float, int, str]] = []
    total = 0
    now = time.time()
    try:
        with os.scandir(path) as found:
            for item in found:
                if not (_ENTRY_NAME.fullmatch(item.name) or _TEMPORARY_NAME.fullmatch(item.name)):
                    continue
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode):
                    continue
                if item.name.startswith(_TEMPORARY):
                    if now - info.st_mtime > _TOUCH_AFTER and _own_file(path, item.name):
                        with contextlib.suppress(OSError):
                            os.unlink(item.path)
                    continue
                entries.append((info.st_mtime, info.st_size, item.name))
                total += info.st_size
    except OSError:
        return
    if total <= _max_bytes:
        return
    entries.sort()
    for _, size, name in entries:
        if total <= _max_bytes * 3 // 4:
            break
        if _own_file(path, name):
            with contextlib.suppress(OSError):
                os.unlink(path / name)
                total -= size


def clear() -> int:
    """Remove the cache's own files from the directory in use (its entries and the temporary
    files of its writers, each recognised by its name and its header: see the module's doc;
    any other file is left); return how many were removed."""
    path = _usable()
    if path is None:
        return 0
    removed = 0
    with os.scandir(path) as found:
        names = [item.name for item in found]
    for name in names:
        if _own_file(path, name):
            with contextlib.suppress(OSError):
                os.unlink(path / name)
                removed += 1
    return removed


class Entries:
    """One cache entry holding many values by name (compiled code objects and the data that
    goes with them, anything :mod:`marshal` writes): read from the cache as names are asked
    for, added to as the process makes more, and saved by :func:`flush` (at the latest at
    exit), merged with what other processes saved meanwhile. A value found for a name is what
    this version of the code made for it: the key and the fingerprint say so.

    On disk it is several files, each of a bounded size, so what a process reads stays the same
    however long the cache is used: the head (the values saved first, while it has room: those
    a process needs first, such as a start position's generators; read at the first
    :meth:`get`) and :data:`_PARTS` parts, the values saved after it, each in the part a hash
    of its name picks (read when a name not in the head is asked for); a large value in a file
    of its own, which they name. Each file holds each value's own :mod:`marshal`, decoded when
    its name is first asked for. A part that is full keeps what it has: a value that does not
    fit is made again by each process that needs it.
    """

    __slots__ = ("__weakref__", "_key", "_kind", "_lock", "_made", "_parts", "_values")

    def __init__(self, kind: str, key: bytes) -> None:
        _types(kind, key)
        self._kind = kind
        self._key = key
        self._values: dict[Any, Any] = {}  # decoded from the files read, or made here
        self._parts: dict[int, dict[Any, bytes]] = {}  # the files read (-1: the head), as saved
        self._made: dict[Any, Any] = {}  # made here, not saved yet
        self._lock = threading.Lock()

    def _read(self, number: int) -> dict[Any, bytes]:
        """What one of the entry's files holds (-1: the head): each value's marshal, by name
        ({} when missing, damaged or over its bound)."""
        data = load(self._kind, _part_key(self._key, number))
        if data is not None and len(data) <= (_HEAD_BYTES if number < 0 else _PART_BYTES):
            try:
                values = marshal.loads(data)  # noqa: S302  (a checked file of our own: see the module doc)
            except (ValueError, EOFError, TypeError):
                values = None
            if type(values) is dict and all(type(raw) is bytes for raw in values.values()):
                return values
        return {}

    def _part(self, number: int) -> dict[Any, bytes]:
        part = self._parts.get(number)
        if part is None:
            part = self._parts[number] = self._read(number)
        return part

    def get(self, name: Any) -> Any:
        """The value saved for ``name``, or None."""
        try:
            return self._values[name]
        except KeyError:
            pass
        if not enabled():
            return None
        with self._lock:
            if name in self._values:
                return self._values[name]
            raw = self._part(-1).get(name)
            if raw is None:
                raw = self._part(_part_of(name)).get(name)
            if raw == b"":  # a value of its own file
                raw = self._own(name)
            if raw is None:
                return None
            try:
                value = marshal.loads(raw)  # noqa: S302  (a checked file of our own: see the module doc)
            except (ValueError, EOFError, TypeError):
                return None  # made again, and saved over it
            self._values[name] = value
            return value

    def _own(self, name: Any) -> bytes | None:
        """The value of ``name`` in its own file (as saved), or None."""
        data = load(self._kind, _own_key(self._key, name))
        if data is not None:
            try:
                values = marshal.loads(data)  # noqa: S302  (a checked file of our own: see the module doc)
            except (ValueError, EOFError, TypeError):
                return None
            if type(values) is dict and len(values) == 1:
                raw = values.get(name)
                if type(raw) is bytes and raw:
                    return raw
        return None

    def put(self, name: Any, value: Any) -> None:
        """Keep ``value`` for ``name``, to be saved."""
        with self._lock:
            self._values[name] = value
            if not enabled():
                return  # made while the cache is off: not to be saved
            if not self._made:
                _mark_dirty(self)
            self._made[name] = value

    def save(self) -> None:
        """Write what was made here, with what the entry's files hold on disk now: into the
        head while it has room, the rest into the parts their names pick, while they have."""
        with self._lock:
            made, self._made = self._made, {}
            _dirty.discard(self)
        if not made:
            return
        written: dict[Any, bytes] = {}
        for name, value in made.items():
            try:
                marshal.dumps(name)
                written[name] = marshal.dumps(value)
            except ValueError:  # a name or value marshal cannot write: not saved
                continue
        path = None
        for name, raw in list(written.items()):
            if len(raw) > _OWN_BYTES:  # in a file of its own, named by a mark (b"") in the others
                wrote = _write(self._kind, _own_key(self._key, name), marshal.dumps({name: raw}))
                if wrote is None:
                    del written[name]
                    continue
                path = wrote
                written[name] = b""
        room = _max_bytes // 4 - _HEADER  # what store writes
        head, rest = self._merge(-1, written, min(_HEAD_BYTES, room))
        path = head or path
        parts: dict[int, dict[Any, bytes]] = {}
        for name, raw in rest.items():
            parts.setdefault(_part_of(name), {})[name] = raw
        for number in sorted(parts):
            path = self._merge(number, parts[number], min(_PART_BYTES, room))[0] or path
        if path is not None:
            _evict(path)

    def _merge(self, number: int, written: dict[Any, bytes],
               bound: int) -> tuple[Path | None, dict[Any, bytes]]:
        """Add ``written`` to the file ``number`` as it is on disk now, in order, while its data
        stays within ``bound`` bytes; the directory if the file was written, and what did not fit."""
        values = self._read(number)
        left: dict[Any, bytes] = {}
        added: list[Any] = []  # the names added, in order
        dropped = False  # a value replaced by one that does not fit: dropped, not left stale
        size = len(marshal.dumps(values))
        for name, raw in written.items():
            old = values.get(name)
            if old == raw:
                continue
            grows = len(marshal.dumps((name, raw))) - 2  # the pair in the dict (about: see below)
            if old is not None:
                del values[name]
                size -= len(marshal.dumps((name, old))) - 2
                dropped = True
            if size + grows > bound:
                left[name] = raw
                continue
            values[name] = raw
            size += grows
            added.append(name)
        if not added and not dropped:
            return None, left
        data = marshal.dumps(values)
        while len(data) > bound and added:  # the sizes added are close, not exact (marshal's references)
            name = added.pop()
            left[name] = values.pop(name)
            data = marshal.dumps(values)
        if not added and not dropped:
            return None, left
        return _write(self._kind, _part_key(self._key, number), data), left


def _part_key(key: bytes, number: int) -> bytes:
    """The key of the file ``number`` of the :class:`Entries` of ``key`` (-1: its head)."""
    return key if number < 0 else key + b"\0part %d" % number


def _own_key(key: bytes, name: Any) -> bytes:
    """The key of the file of its own of the value of ``name`` in the :class:`Entries` of ``key``."""
    return key + b"\0own " + hashlib.blake2b(repr(name).encode("utf-8", "backslashreplace"),
                                             digest_size=16).hexdigest().encode()


def _part_of(name: Any) -> int:
    """The part an :class:`Entries`' value is kept in past the head: a hash of its name's
    ``repr`` (the same in every process for names of strings, numbers and tuples)."""
    text = repr(name).encode("utf-8", "backslashreplace")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") % _PARTS


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
