"""An engine's process: started, written to and read from line by line within a deadline and
bounds, and always reaped.

No thread is started: the engine's standard output and error are non-blocking pipes read
through a selector, so that every wait ends at its deadline and nothing outlives
:meth:`Process.close`. The engine runs in a session of its own (its own process group): a
terminal's Ctrl-C reaches the program that started it, which ends it, and what the engine
itself starts is killed with it. A process never closed is killed and reaped when the
:class:`Process` is collected (:func:`weakref.finalize`), so that none is left a zombie.
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import signal
import subprocess
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, Final

from ggn._json import clip, quote
from ggn.errors import EngineError

__all__ = ["MAX_LINE", "Process"]

MAX_LINE: Final = 1 << 20
"""The longest line read from an engine, in bytes (a principal variation of a deep search is a
few kilobytes, the options of an engine with hundreds of variants a few tens)."""

_STDERR_KEPT: Final = 2000  # the last bytes of the engine's standard error kept for messages
_CHUNK: Final = 1 << 16
_REAP_SECONDS: Final = 5.0  # the longest a killed engine is waited for


def _status(code: int) -> str:
    """An exit status in words: ``status 1``, or the signal that killed the process."""
    if code >= 0:
        return f"status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"killed by {name}"


def _kill_and_reap(popen: subprocess.Popen[bytes], streams: tuple[IO[bytes] | None, ...],
                   selector: selectors.BaseSelector) -> None:
    """Kill the engine's process group (the engine and what it started) and reap the engine.

    The group is signalled only while the engine is not yet reaped (its process id, and so its
    group's, is still its own), whether it is running or has exited."""
    if popen.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(_REAP_SECONDS)
    with contextlib.suppress(OSError, ValueError):
        selector.close()
    for stream in streams:
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class Process:
    """An engine's process: :meth:`send` a line, :meth:`readline` within a deadline,
    :meth:`close` (``quit``, then kill after a grace period). ``name`` names the engine in
    messages (:class:`~ggn.errors.EngineError`'s ``engine``)."""

    def __init__(self, command: Sequence[str], name: str, *, cwd: str | None = None) -> None:
        self.name = name
        if os.name != "posix":
            raise EngineError("engines are run on POSIX systems only (the client reads their output "
                              "through a selector on pipes)", name)
        try:
            self._popen = subprocess.Popen(  # noqa: S603  (the program the caller names, no shell)
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, close_fds=True, start_new_session=True, cwd=cwd,
            )
        except FileNotFoundError:
            raise EngineError("no such program (give its path, or a program on PATH; Debian "
                              "installs fairy-stockfish and stockfish in /usr/games)", name) from None
        except PermissionError:
            raise EngineError("cannot be run: permission denied (is it an executable file?)", name) from None
        except OSError as error:
            reason = error.strerror or type(error).__name__
            if error.errno == errno.ENOEXEC:
                reason = "not a program this system can run (exec format error)"
            raise EngineError(f"cannot be started: {reason}", name) from None
        popen = self._popen
        assert popen.stdin is not None
        assert popen.stdout is not None
        assert popen.stderr is not None
        self._stdin = popen.stdin.fileno()
        self._stdout = popen.stdout.fileno()
        self._stderr = popen.stderr.fileno()
        for fd in (self._stdin, self._stdout, self._stderr):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._lines: deque[str] = deque()
        self._errors = bytearray()
        self._eof = False
        self._finalizer = weakref.finalize(
            self, _kill_and_reap, popen, (popen.stdin, popen.stdout, popen.stderr), self._selector)

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        """The engine's exit status once it has been reaped, else None."""
        return self._popen.returncode

    @property
    def closed(self) -> bool:
        """Whether the process has been closed (killed or quit, and reaped)."""
        return not self._finalizer.alive

    def stderr(self) -> str:
        """The last of what the engine wrote on its standard error (stripped, one line)."""
        text = bytes(self._errors).decode("utf-8", "replace")
        return " / ".join(line.strip() for line in text.splitlines() if line.strip())

    # -- writing ----------------------------------------------------------------------------
    def send(self, line: str, deadline: float) -> None:
        """Write ``line`` and a line break to the engine, by ``deadline`` (a
        :func:`time.monotonic` time): an engine that reads nothing while its input pipe is
        full is an error, not a wait for ever."""
        if any(ch in line for ch in "\r\n\0"):
            raise EngineError(f"a command to the engine holds a line break or NUL: {quote(line)}", self.name)
        data = memoryview((line + "\n").encode("utf-8"))
        while data:
            try:
                written = os.write(self._stdin, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self.exited(f"while being sent {quote(line, 60)}") from None
            data = data[written:]
            if data:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise EngineError(f"does not read its input (a command of {len(line):,} characters "
                                      "was not taken within the timeout)", self.name)
                self._wait_writable(remaining)

    def _wait_writable(self, seconds: float) -> None:
        with selectors.DefaultSelector() as writer:
            writer.register(self._stdin, selectors.EVENT_WRITE)
            # Meanwhile the engine may be blocked writing to us: read what it wrote.
            self._pump(min(seconds, 0.05))
            writer.select(min(seconds, 0.05))

    # -- reading ----------------------------------------------------------------------------
    def readline(self, deadline: float, doing: str = "") -> str | None:
        """The next line the engine writes (without its line break), or None once ``deadline``
        (a :func:`time.monotonic` time) has passed. An engine that exits (``doing`` says what
        it was doing, for the message), or writes a line of more than :data:`MAX_LINE` bytes,
        is an :class:`~ggn.errors.EngineError`."""
        while not self._lines:
            if self._eof:
                raise self.exited(doing)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self._pump(remaining)
        return self._lines.popleft()

    def pending(self) -> bool:
        """Whether a line is ready to be read at once (what has arrived is read first)."""
        if not self._lines and not self._eof:
            self._pump(0)
        return bool(self._lines) or self._eof

    def _pump(self, seconds: float) -> None:
        """Read what the engine writes within ``seconds`` (at least one chunk if any comes)."""
        for key, _ in self._selector.select(max(seconds, 0)):
            fd = key.fd
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if fd == self._stderr:
                if not chunk:
                    self._selector.unregister(fd)
                else:
                    self._errors += chunk
                    del self._errors[:-_STDERR_KEPT]
                continue
            if not chunk:
                self._eof = True
                self._selector.unregister(fd)
                if self._buffer:  # a last line without its line break
                    self._take(bytes(self._buffer))
                    self._buffer.clear()
                continue
            self._buffer += chunk
            if b"\n" in chunk:
                *lines, rest = bytes(self._buffer).split(b"\n")
                self._buffer[:] = rest
                for line in lines:
                    self._take(line)
            if len(self._buffer) > MAX_LINE:
                raise EngineError(f"wrote a line of more than {MAX_LINE:,} bytes (it starts "
                                  f"{quote(bytes(self._buffer[:40]).decode('utf-8', 'replace'))})", self.name)

    def _take(self, line: bytes) -> None:
        if len(line) > MAX_LINE:
            raise EngineError(f"wrote a line of more than {MAX_LINE:,} bytes (it starts "
                              f"{quote(line[:40].decode('utf-8', 'replace'))})", self.name)
        self._lines.append(line.rstrip(b"\r").decode("utf-8", "replace"))

    # -- ending -------------------------------------------------------------------------------
    def exited(self, doing: str = "") -> EngineError:
        """The error for an engine whose output has ended: it is reaped (killed if it has not
        exited within a moment) and its exit status and last words on standard error said."""
        popen = self._popen
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(1.0)
        self.kill()
        code = popen.returncode
        said = self.stderr()
        what = "exited" if code is None or code >= 0 else "was killed"
        message = f"{what} ({_status(code) if code is not None else 'status unknown'})"
        if doing:
            message += f" {doing}"
        if said:
            message += f"; its standard error: {clip(said, 300)}"
        return EngineError(message, self.name, code)

    def kill(self) -> None:
        """Kill the engine (and its process group) at once and reap it."""
        self._finalizer()

    def close(self, grace: float, farewell: str | None = None) -> int | None:
        """End the engine: send ``farewell`` (``quit``), close its input, give it ``grace``
        seconds to exit (reading and dropping what it writes meanwhile, so that it is never
        blocked on a full pipe), then kill what is left of its process group and reap it.
        Return its exit status (negative: killed by that signal)."""
        if self.closed:
            return self._popen.returncode
        popen = self._popen
        if popen.poll() is None:
            deadline = time.monotonic() + grace
            if farewell is not None:
                with contextlib.suppress(EngineError):
                    self.send(farewell, deadline)
            with contextlib.suppress(OSError):
                assert popen.stdin is not None
                popen.stdin.close()
            while not self._exited_unreaped() and time.monotonic() < deadline:
                if self._eof:
                    time.sleep(0.01)
                    continue
                with contextlib.suppress(EngineError):
                    self._pump(min(0.05, max(deadline - time.monotonic(), 0)))
                self._lines.clear()
        self.kill()
        return popen.returncode

    def _exited_unreaped(self) -> bool:
        """Whether the engine has exited, leaving it unreaped (so that its process id is still
        its own when its group is killed)."""
        popen = self._popen
        if popen.returncode is not None:
            return True
        try:
            found = os.waitid(os.P_PID, popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return found is not None
