"""A local explorer in the browser: ``ggn serve``.

Choose a game (a built-in one, or a variant added from a ``variants.ini`` text: see
:func:`create_app`) or paste a GGN document and a FEEN; click a piece to see its
destinations and, for each, the possibilities (``must``/``deny``) that allow it; play legal
moves (a promotion's choices offered), undo and redo; read the FEEN, and a game's FEN, of the
position; see every fault of a pasted document with its JSON Pointer; bring a game in from a
record (PGN, KIF, CSA) and step through it, copy the game as a record and the position as FEN
and FEEN, share a link that holds the game and the position shown; with an engine
(:class:`EngineSettings`, ``ggn serve --engine``), see its best move as an arrow on the board,
its score and its line, beside the possibilities of the piece selected.

The page is one static HTML file, plain scripts and a style sheet shipped with the package
(no front-end build step). The server is a Starlette application over a small JSON API
(:mod:`ggn.web._app`), run by uvicorn, bound to 127.0.0.1 unless told otherwise; every rule of
play is the library's (:mod:`ggn.web._explorer`), none is the script's; a pasted document is
played under the generic rule system (:class:`ggn.rules.RuleSystem`). Starlette and uvicorn
are the optional ``[web]`` extra (``pip install 'ggn[web]'``), imported only when the explorer
is made or run.

Every request is untrusted: its work is done in worker processes (:mod:`ggn.web._work`), never
on the server's event loop, and bounded (:class:`Limits`; the module ``ggn.web._limits`` names
each bound and its default): the size of its body and position, the squares and pieces of its
board, the moves and the answer it gets, the time it works (its worker is then killed), the
memory a worker may take, the pasted documents a worker keeps (by count and by size). A request
over a bound is answered 413 or 503 with the bound's name. Stopped (Ctrl-C, SIGTERM), the
server waits at most :data:`~ggn.web._limits.SHUTDOWN_SECONDS` for open requests.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, Final

from ggn._types import expect
from ggn.web._analysis import EngineSettings
from ggn.web._limits import SHUTDOWN_SECONDS, LimitError, Limits

if TYPE_CHECKING:
    import socket

    from starlette.applications import Starlette

    from ggn.variants.registry import Catalogue

__all__ = [
    "DEFAULT_HOST", "DEFAULT_PORT", "INSTALL", "SHUTDOWN_SECONDS", "EngineSettings", "LimitError", "Limits",
    "address", "create_app", "listen",
    "local_hosts", "missing", "require", "serve",
]

DEFAULT_HOST: Final = "127.0.0.1"
"""The address the explorer listens on unless told otherwise: this machine only."""

DEFAULT_PORT: Final = 8000
"""The port the explorer listens on unless told otherwise (0: a free one the system gives)."""

INSTALL: Final = "pip install 'ggn[web]'"
"""How to install what the explorer needs."""

_NEEDED: Final = ("starlette", "uvicorn")


def missing() -> tuple[str, ...]:
    """The packages of the ``[web]`` extra that are not installed (none when it is)."""
    return tuple(name for name in _NEEDED if find_spec(name) is None)


def require() -> None:
    """Raise :class:`ModuleNotFoundError`, saying how to install them, when the ``[web]``
    extra's packages are missing."""
    absent = missing()
    if absent:
        raise ModuleNotFoundError(f"the explorer needs {' and '.join(absent)}: {INSTALL}", name=absent[0])


def create_app(initial: dict[str, Any] | None = None, catalogue: Catalogue | None = None,
               *, hosts: Collection[str] | None = None, limits: Limits | None = None,
               engine: EngineSettings | None = None) -> Starlette:
    """The explorer's Starlette application: it opens with ``initial`` (``{"game": NAME}`` or
    ``{"document": TEXT}``, with an optional ``"position"``; None: chess) and offers the games
    of ``catalogue`` (None: the built-in games; a
    :class:`~ggn.variants.registry.Catalogue` adds the variants of ``variants.ini`` texts).
    With ``hosts``, a request whose ``Host`` header names none of them is answered 400
    (:func:`serve` gives :func:`local_hosts`). ``limits`` bounds what one request may cost
    (None: :class:`Limits`'s defaults). ``engine`` is the engine whose best move and score the
    page shows (None: none). Its worker processes start and stop with its lifespan
    (see :func:`ggn.web._app.create_app`); they are started with Python's ``spawn`` method, so a
    script that runs the explorer starts it under ``if __name__ == "__main__":``, as
    :mod:`multiprocessing` asks."""
    require()
    from ggn.web._app import create_app as make  # noqa: PLC0415  (imports Starlette)

    return make(initial, catalogue, hosts=hosts, limits=limits, engine=engine)


def local_hosts(host: str) -> frozenset[str] | None:
    """The names a request to the explorer may give in its ``Host`` header when it listens on
    ``host``: for this machine only (a loopback address or ``localhost``), ``localhost`` and
    the loopback addresses, so that a site whose name is made to point at 127.0.0.1 (DNS
    rebinding) reads nothing from it; None (any) when it listens on another address."""
    import ipaddress  # noqa: PLC0415  (only when the explorer runs)

    name = expect(host, str, "host", "a host name or address").strip().lower().strip("[]")
    try:
        loopback = name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:
        loopback = False
    return frozenset({"localhost", "127.0.0.1", "::1", name}) if loopback else None


def address(host: str, port: int) -> str:
    """The explorer's URL on ``host`` and ``port``."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def listen(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> socket.socket:
    """A socket bound to ``host`` and ``port``, listening; :class:`OSError` when it cannot be
    (an address in use, a host that is not this machine's)."""
    import socket  # noqa: PLC0415  (only when the explorer runs: ggn's start-up stays lean)

    family, kind, protocol, _, where = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(where)
        listener.listen()
    except OSError:
        listener.close()
        raise
    return listener


def serve(initial: dict[str, Any] | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          *, ready: Callable[[str], object] | None = None, catalogue: Catalogue | None = None,
          limits: Limits | None = None, engine: EngineSettings | None = None) -> None:
    """Run the explorer on ``host`` and ``port`` (uvicorn) until it is stopped (Ctrl-C,
    SIGTERM); it offers the games of ``catalogue``, bounds each request by ``limits`` and asks
    ``engine`` for each position's best move (see :func:`create_app`). Stopped, it waits at most
    :data:`~ggn.web._limits.SHUTDOWN_SECONDS` for the requests still open, then closes their
    connections and its workers.

    The socket is bound first: :class:`OSError` when it cannot be, before anything runs.
    ``ready`` is then called with the explorer's URL, before the server starts. Port 0 asks the
    system for a free port: the URL names the one it gave.
    """
    require()
    import uvicorn  # noqa: PLC0415  (the [web] extra, on first use)

    app = create_app(initial, catalogue, hosts=local_hosts(host), limits=limits, engine=engine)
    listener = listen(host, port)
    try:
        port = listener.getsockname()[1]
        if ready is not None:
            ready(address(host, port))
        server = uvicorn.Server(uvicorn.Config(
            app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_SECONDS))
        server.run(sockets=[listener])
    finally:
        listener.close()
        app.state.workers.close()
