"""What one request to the explorer may cost, and what the explorer keeps: its named bounds.

The explorer serves whoever reaches it, and every document and position it is sent is
untrusted: each bound below is checked before the work it guards, and a request over one is
answered with a message that names it (``ggn.web._app`` says with which status). The values
are the defaults of :class:`Limits`; :func:`ggn.web.serve` and :func:`ggn.web.create_app`
take others, and ``ggn serve --time-limit/--workers`` set two of them.

Measured on this project's machine (2 cores): a document's text loaded takes 3 to 30 times
its size in memory (chess's 2 MB document: 6 MB; 6 MB of one-possibility destinations:
145 MB, and 29 s to read); the picture of a board takes about 400 bytes a piece, so 64 KB of
FEEN could ask for a 24 MB picture before the piece bound.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from ggn.errors import LimitError

__all__ = [
    "BODY_SECONDS",
    "DOCUMENTS_KEPT",
    "DOCUMENTS_KEPT_TEXT",
    "MAX_ANSWER",
    "MAX_BODY",
    "MAX_MOVES",
    "MAX_PIECES",
    "MAX_PLIES",
    "MAX_POSITION",
    "MAX_REQUESTS",
    "MAX_SQUARES",
    "QUEUE_SECONDS",
    "REQUEST_SECONDS",
    "SHUTDOWN_SECONDS",
    "WORKERS",
    "WORKER_MEMORY",
    "WORKER_RECYCLE",
    "LimitError",
    "Limits",
]

MAX_BODY: Final = 16 * 1024 * 1024
"""The largest request body read, in bytes (a pasted document and its position: the largest
built-in game's document, okisakishogi's, is 10 MB)."""

BODY_SECONDS: Final = 30.0
"""The longest a request's body may take to arrive, in seconds (a client that sends it slowly
holds no connection longer)."""

MAX_POSITION: Final = 1 << 16
"""The longest position read (FEEN, or a game's FEN), in characters: 65,536."""

MAX_SQUARES: Final = 1 << 14
"""The most squares a position's board may have: 16,384 (a board of 128x128; the built-in
games have at most 120)."""

MAX_PIECES: Final = 1 << 12
"""The most pieces a position's board may hold: 4,096 (its picture about 1.6 MB)."""

MAX_MOVES: Final = 20_000
"""The most moves a position's answer lists (chess has at most 218 legal moves; shogi about
600, drops included)."""

MAX_PLIES: Final = 2_000
"""The most moves of a game's history a request may send (its ``history``: each is replayed,
with its legal moves listed, to know the ends a repetition or the n-move rule brings; a long
game of shogi is about 300)."""

MAX_ANSWER: Final = 8 * 1024 * 1024
"""The largest answer written, in bytes of JSON: 8 MiB (the picture, the moves and the rest;
at the limits of squares and pieces the picture is about 2 MB)."""

REQUEST_SECONDS: Final = 20.0
"""The longest one request may work, in seconds: its worker is then stopped (killed) and
replaced, and the request answered 503 (a new 10 MB document is read in about 2 s)."""

WORKERS: Final = 2
"""The worker processes that do the requests' work, each one request at a time: while one is
busy, the other answers; the server's own process only passes requests and answers."""

QUEUE_SECONDS: Final = 30.0
"""The longest a request waits for a free worker, or for a place among :data:`MAX_REQUESTS`, in
seconds, before it is answered 503."""

MAX_REQUESTS: Final = 8
"""The most POST requests the server's process holds at once (reading a body, waiting for a
worker or for its answer): its memory is then bounded by their bodies, 128 MiB at most."""

WORKER_MEMORY: Final = 2 * 1024 * 1024 * 1024
"""The address space a worker process may use, in bytes (2 GiB, where the system lets a
process bound its own: ``resource.RLIMIT_AS``): past it a request fails with MemoryError and is
answered 503, and the worker is replaced."""

WORKER_RECYCLE: Final = 512 * 1024 * 1024
"""The resident memory past which a worker, once it has answered, is replaced by a new one, in
bytes (512 MiB; where the system says it, as Linux's ``/proc`` does): Python keeps the memory a
request freed (a 14 MB document read left its worker at 650 MB), and the worker would hold it
for the server's life."""

DOCUMENTS_KEPT: Final = 8
"""The most pasted documents a worker keeps loaded (each request names its document again:
one kept is not read again)."""

DOCUMENTS_KEPT_TEXT: Final = 4 * 1024 * 1024
"""The most text, in characters, of the documents a worker keeps loaded: 4 MiB, at most about
120 MB loaded. A larger document is read again for each request (a valid one of 64 KiB or more
from the compile cache, :data:`ggn.ruleset.CACHED_TEXT`: 0.2 s for 10 MB)."""

SHUTDOWN_SECONDS: Final = 5
"""How long the server waits for open requests when told to stop (Ctrl-C, SIGTERM) before it
closes their connections and ends."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The explorer's bounds (see the module's constants, the defaults).

    >>> Limits(seconds=5).seconds, Limits().squares
    (5, 16384)
    """

    body: int = MAX_BODY
    body_seconds: float = BODY_SECONDS
    position: int = MAX_POSITION
    squares: int = MAX_SQUARES
    pieces: int = MAX_PIECES
    moves: int = MAX_MOVES
    plies: int = MAX_PLIES
    answer: int = MAX_ANSWER
    seconds: float = REQUEST_SECONDS
    workers: int = WORKERS
    requests: int = MAX_REQUESTS
    queue_seconds: float = QUEUE_SECONDS
    memory: int | None = WORKER_MEMORY
    """None: no bound of the explorer's own."""
    recycle: int = WORKER_RECYCLE
    kept: int = DOCUMENTS_KEPT
    kept_text: int = DOCUMENTS_KEPT_TEXT

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value is None and field.name == "memory":
                continue
            whole = field.type in ("int", "int | None")
            if type(value) is bool or not isinstance(value, int if whole else (int, float)):
                kind = "a whole number" if whole else "a number of seconds"
                raise TypeError(f"Limits.{field.name} must be {kind}, got {type(value).__name__}")
            if not value > 0 and not (field.name in ("kept", "kept_text") and value == 0):
                raise ValueError(f"Limits.{field.name} must be above 0, got {value!r}")
