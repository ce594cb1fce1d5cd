"""Output files of the ``ggn`` command (``convert --effects``): refused before any work when
they are an input or cannot be one, then written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from typing import IO

from ggn.cli._inputs import check_name, shown, standard_input
from ggn.cli._streams import Exit


def same_file(path: str, other: str) -> bool:
    """Whether two names are one file (or, when one does not exist yet, name the same place)."""
    try:
        return os.path.samefile(path, other)
    except OSError:  # one of them does not exist (yet): the same only if named alike
        return os.path.realpath(path) == os.path.realpath(other)


def is_input(path: str, stdin: IO[bytes] | None) -> bool:
    """Whether the file standard input reads is ``path`` (``< path``)."""
    stream = standard_input(stdin)
    if stream is None:
        return False
    try:
        held, named = os.fstat(stream.fileno()), os.stat(path)
    except (OSError, ValueError):  # no descriptor (io.UnsupportedOperation), closed, no such path
        return False
    return stat.S_ISREG(held.st_mode) and (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


def check_output(path: str, inputs: list[str], stdin: IO[bytes] | None, option: str) -> None:
    """Refuse, before any work, an output file (given to ``option``) that is an input or that
    cannot be one."""
    if path == "-":
        raise Exit(2, f"{option} takes a file name: standard output holds the GGN document")
    check_name(path, option)
    if os.path.isdir(path):
        raise Exit(2, f"cannot write {option} {shown(path)}: it is a directory")
    for name in inputs:
        if name == "-":
            same = is_input(path, stdin)
        else:
            check_name(name)  # before comparing: the system refuses such a name with ValueError
            same = same_file(path, name)
        if same:
            raise Exit(2, f"{option} {shown(path)!r} is an input file: it would be overwritten")


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_atomically(path: str, text: str | bytes) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it, flushed
    to the disk, then renamed over it. On failure the old file stays as it was and the
    temporary file is removed."""
    target = os.path.realpath(path)  # through a symbolic link: the file it names is replaced
    folder, base = os.path.split(target)
    data = text.encode("utf-8") if isinstance(text, str) else text
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        # The name kept short enough for any file system, whatever the length of the target's.
        temporary = os.path.join(folder, f".{base[:200]}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(temporary, flags, 0o666)  # the umask applies, as to any new file
            break
        except FileExistsError:
            continue
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):  # the replaced file's permissions stay
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
