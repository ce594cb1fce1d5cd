"""The explorer's test harness: a real uvicorn server on a free port of 127.0.0.1, in a thread.

Shared by the API tests (which check what is bound) and the browser tests (which load the
page from it), with a variant of our own in ``variants.ini`` syntax, which pyffish reads too.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import ggn.web
from ggn.cli import run

if TYPE_CHECKING:
    from ggn.variants.registry import Catalogue
    from ggn.web import EngineSettings, Limits

__all__ = ["WIZARD", "WIZARD_INI", "call", "recorded", "running"]

_START_SECONDS = 30.0

WIZARD = "wizardcapa"
WIZARD_INI = f"""\
[{WIZARD}:capablanca]
customPiece1 = w:NW
knight = -
startFen = rwabqkbcwr/pppppppppp/10/10/10/10/PPPPPPPPPP/RWABQKBCWR w KQkq - 0 1
promotionPieceTypes = qcarbw
"""
"""Capablanca chess whose knights are wizards (a knight that also steps one square straight)."""


def call(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """``ggn`` run in-process: its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err, io.BytesIO(stdin))
    return status, out.getvalue(), err.getvalue()


@contextmanager
def recorded() -> Iterator[list[dict[str, Any]]]:
    """Replace :func:`ggn.web.serve` by a recorder (the server would run until stopped): each
    call's initial view, host, port, catalogue and limits recorded, then ready said at once."""
    calls: list[dict[str, Any]] = []
    real = ggn.web.serve

    def serve(initial: dict[str, Any] | None = None, host: str = ggn.web.DEFAULT_HOST,
              port: int = ggn.web.DEFAULT_PORT, *, ready: Callable[[str], object] | None = None,
              catalogue: Catalogue | None = None, limits: Limits | None = None,
              engine: EngineSettings | None = None) -> None:
        calls.append({"initial": initial, "host": host, "port": port, "catalogue": catalogue,
                      "limits": limits, "engine": engine})
        if ready is not None:
            ready(ggn.web.address(host, port))

    ggn.web.serve = serve
    try:
        yield calls
    finally:
        ggn.web.serve = real


@contextmanager
def running(initial: dict[str, Any] | None = None, host: str = "127.0.0.1",
            catalogue: Catalogue | None = None, limits: Limits | None = None,
            engine: EngineSettings | None = None) -> Iterator[str]:
    """Run the explorer with uvicorn on a free port of ``host``, offering the games of
    ``catalogue`` (None: the built-ins) within ``limits`` (None: the defaults), asking
    ``engine`` (None: none); yield its base URL. Its worker processes start and stop with it.

    The socket is bound here, before uvicorn starts, so no other process can take the port
    between choosing it and listening on it.
    """
    import uvicorn  # noqa: PLC0415  (the [web] extra)

    from ggn.web import create_app  # noqa: PLC0415

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    port = listener.getsockname()[1]
    app = create_app(initial, catalogue, limits=limits, engine=engine)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning",
                                                timeout_graceful_shutdown=ggn.web.SHUTDOWN_SECONDS))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + _START_SECONDS
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the explorer's server did not start")
            time.sleep(0.02)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=_START_SECONDS)
        listener.close()
