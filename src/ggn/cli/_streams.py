"""The streams of the ``ggn`` command, and the exits a command takes.

Standard output goes through :class:`Output`: a write that fails (a full disk, a closed stream)
ends the command, reported once by :func:`ggn.cli.run`, whichever command wrote; a reader that
left (a broken pipe) ends it quietly. Standard error goes through :class:`Errors`, which never
fails. :class:`Exit` ends a command with a status and at most one message.
"""

from __future__ import annotations

import contextlib
import os
from typing import IO, NoReturn, Protocol


class Stream(Protocol):
    """What a command writes to: standard output or standard error, as the command sees them."""

    def write(self, text: str, /) -> object: ...


class Exit(Exception):  # noqa: N818  (control flow, not an error)
    """Ends a command with ``status``, after ``message`` (if any) on standard error."""

    def __init__(self, status: int, message: str = "", *, bare: bool = False) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message
        self.bare = bare  # argparse's messages name the command already


class ReaderGone(Exception):  # noqa: N818  (control flow: the reader of our output left)
    pass


class Unwritable(Exception):  # noqa: N818  (control flow, reported by run)
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def reason(error: BaseException) -> str:
    """Why an operation failed, in a few words (the system's, for an OSError)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


class Output:
    """Standard output as the commands see it: a write that fails (a full disk, a closed
    stream) ends the command, reported once by :func:`ggn.cli.run`, whichever command wrote."""

    __slots__ = ("_stream",)

    def __init__(self, stream: IO[str] | None) -> None:
        self._stream = stream

    def _fail(self, error: BaseException) -> NoReturn:
        if isinstance(error, BrokenPipeError):
            raise ReaderGone from None
        if isinstance(error, ValueError) and "closed file" in str(error):
            raise Unwritable("it is closed") from None
        raise Unwritable(reason(error)) from None

    def write(self, text: str) -> int:
        if self._stream is None:
            raise Unwritable("it is closed")
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as error:  # ValueError: closed, or text it cannot encode
            self._fail(error)

    def isatty(self) -> bool:
        """Whether standard output is a terminal (``ggn show`` colours its board there)."""
        isatty = getattr(self._stream, "isatty", None)
        try:
            return isatty is not None and bool(isatty())
        except (OSError, ValueError):  # closed
            return False

    def write_bytes(self, data: bytes) -> None:
        """Write bytes (a PNG picture) to the binary stream under standard output."""
        binary = getattr(self._stream, "buffer", None)
        if binary is None:
            raise Unwritable("it takes text only (give -o FILE)")
        try:
            self.flush()
            binary.write(data)
            binary.flush()
        except (OSError, ValueError) as error:
            self._fail(error)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as error:
            self._fail(error)


class Errors:
    """Standard error: a message that cannot be written there has nowhere else to go."""

    __slots__ = ("_stream",)

    def __init__(self, stream: IO[str] | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            # Bytes of the command line that are not text (a file name) are shown escaped.
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
            with contextlib.suppress(OSError, ValueError):
                self._stream.write(text)
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            with contextlib.suppress(OSError, ValueError):
                self._stream.flush()

    def terminal(self) -> IO[str] | None:
        """The stream, when it is a terminal (progress is drawn only there); else None."""
        try:
            return self._stream if self._stream is not None and self._stream.isatty() else None
        except (OSError, ValueError):  # closed
            return None


def settle(stream: IO[str] | None) -> None:
    """Flush a standard stream before the interpreter does: if that fails (the reader left,
    the disk is full), point it at nothing, so that the interpreter's own last flush cannot
    fail again and print a traceback of its own."""
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
