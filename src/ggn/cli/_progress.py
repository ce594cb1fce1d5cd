"""Progress on long runs: the one helper every command uses (perft, batch work, Dask runs,
convert), so that they all behave alike.

A bar is drawn with tqdm (the ``[cli]`` extra: ``pip install 'ggn[cli]'``) on **standard error
only**, and only when all of these hold: standard error is a terminal, tqdm can be imported,
the environment variable ``GGN_NO_PROGRESS`` is unset or empty, and the run has lasted
:data:`DELAY` seconds (a short run draws nothing). Otherwise every call is a no-op: nothing is
written anywhere, so output piped to a file or a program, and JSON output, never holds
progress. The bar is cleared when the run ends (or fails), leaving the terminal as it was.

Usage, from a command's handler (``err`` is the standard error the handler was given)::

    from ggn.cli._progress import progress

    with progress(err, total=len(plays), unit="move", work="node",
                  description=f"perft {args.game} {args.depth}") as bar:
        for play in plays:
            nodes = ...  # the work of one unit
            bar.advance(work=nodes, note=str(play))

API:

- :func:`progress` ``(err, *, total, unit, description, work=None)`` returns a
  :class:`Progress`, a context manager (closing it clears the bar). ``total`` is the number of
  units, or None when it is not known (streamed input: a count and a rate are shown instead
  of a bar). ``unit`` names a unit ("move", "position", "task"), ``work`` what the units are
  made of, when that is counted too ("node"): then the total work and its rate ("8.9k nodes,
  326k/s") are shown beside the bar, in place of the units' rate (so that the line fits in 80
  columns).
- :meth:`Progress.advance` ``(done=1, *, work=0, note="")``: ``done`` more units finished,
  holding ``work`` more of the work; ``note`` (the last move, a line number) is shown beside.
- :attr:`Progress.shown`: whether a bar is drawn at all (callers need not look: advance is
  a no-op when not).
- :func:`showing` ``(err)``: whether progress would be drawn on ``err``, to skip work done only
  for the bar.

Call :meth:`~Progress.advance` from the thread that made the bar (a pool's results as they come
back, in the main thread).
"""

from __future__ import annotations

import contextlib
import os
import time
from types import TracebackType
from typing import IO, Any, Final

from ggn.cli._streams import Errors, Stream

DELAY: Final = 0.5
"""Seconds a run lasts before its bar is drawn: shorter runs draw nothing."""

INTERVAL: Final = 0.2
"""Seconds at least between two redraws of a bar."""

_COLUMNS: Final = 80

_WORK_FORMAT: Final = "{{l_bar}}{{bar}}| {{n_fmt}}/{{total_fmt}} {units} [{{elapsed}}<{{remaining}}" \
                      "{{postfix}}]"
"""tqdm's line for a known total, its units named (``units``) but not their rate: the work's
rate is in the postfix."""

SWITCH: Final = "GGN_NO_PROGRESS"
"""The environment variable that turns progress off, when set to anything but the empty string."""


def _terminal(err: Stream) -> IO[str] | None:
    if isinstance(err, Errors):
        return err.terminal()
    isatty = getattr(err, "isatty", None)
    try:
        return err if isatty is not None and isatty() else None  # type: ignore[return-value]
    except (OSError, ValueError):
        return None


def _tqdm() -> Any:
    try:
        from tqdm import tqdm  # noqa: PLC0415  (optional: the [cli] extra)
    except ImportError:
        return None
    return tqdm


def showing(err: Stream) -> bool:
    """Whether :func:`progress` would draw on ``err``: a terminal, tqdm there, not switched off."""
    return not os.environ.get(SWITCH) and _terminal(err) is not None and _tqdm() is not None


class _Sink:
    """The terminal as tqdm sees it: a write or flush that fails (the terminal went away) is
    dropped, as standard error's are, rather than ending the run."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.encoding = getattr(stream, "encoding", None) or "ascii"

    def write(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.write(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()

    def fileno(self) -> int:  # for the terminal's width
        return self._stream.fileno()


def _count(value: float) -> str:
    """A count or rate in a few characters: 950, 12.3k, 4.87M, 3.20G."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.0f}"


class Progress:
    """A progress bar on standard error, or nothing (see the module's docstring)."""

    __slots__ = ("_bar", "_started", "_work", "_work_unit")

    def __init__(self, bar: Any, work: str | None) -> None:
        self._bar = bar
        self._work_unit = work
        self._work = 0
        self._started = time.monotonic()

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn (once :data:`DELAY` has passed)."""
        return self._bar is not None

    def advance(self, done: int = 1, *, work: int = 0, note: str = "") -> None:
        """Count ``done`` more units finished, made of ``work`` more of the work."""
        if self._bar is None:
            return
        self._work += work
        parts = []
        if self._work_unit is not None:
            elapsed = max(time.monotonic() - self._started, 1e-9)
            # "8.9k nodes, 326k/s": the rate's unit is the work's, named once to fit in 80 columns.
            parts.append(f"{_count(self._work)} {self._work_unit}s, {_count(self._work / elapsed)}/s")
        if note:
            parts.append(note)
        if parts:
            self._bar.set_postfix_str(", ".join(parts), refresh=False)
        self._bar.update(done)

    def close(self) -> None:
        """Clear the bar (and draw no more)."""
        bar, self._bar = self._bar, None
        if bar is not None:
            with contextlib.suppress(OSError, ValueError):
                bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def progress(err: Stream, *, total: int | None, unit: str, description: str,
             work: str | None = None) -> Progress:
    """A progress bar of ``total`` units (None: unknown) on ``err``, or a no-op one."""
    if not showing(err):
        return Progress(None, work)
    terminal = _terminal(err)
    assert terminal is not None
    sink = _Sink(terminal)
    try:  # a terminal that gives no width (a bare pseudo-terminal) is taken as 80 columns wide
        sized = os.get_terminal_size(sink.fileno()).columns > 0
    except (OSError, ValueError):
        sized = False
    shape = {}
    if work is not None and total is not None:
        shape["bar_format"] = _WORK_FORMAT.format(units=f"{unit}s")
    bar = _tqdm()(total=total, unit=unit, desc=description, file=sink, leave=False, dynamic_ncols=sized,
                  ncols=None if sized else _COLUMNS, delay=DELAY, mininterval=INTERVAL, miniters=1,
                  **shape)
    return Progress(bar, work)
