"""The explorer's Starlette application: the page, its script and style, and a small JSON API.

The routes only read the request and write the answer; a POST route's work is done by a worker
process (:mod:`ggn.web._work`, over :mod:`ggn.web._explorer`), never on the server's event
loop, so one request's work never holds up another client:

- ``GET /``: the page; ``GET /static/app.js`` and ``GET /static/app.css``: its script and style;
- ``GET /api/config``: the games (the built-ins, then those of the catalogue's ``variants.ini``
  texts) and what the explorer was started with;
- ``POST /api/view``: a position, its legal moves and notations
  (``{"game": NAME}`` or ``{"document": TEXT}``, with ``"position"``: FEEN, or a game's FEN,
  and the FEN's move counters ``"halfmove"`` and ``"fullmove"``; ``"flipped"``: the picture
  turned round); a document is played under the generic rule system
  (:class:`ggn.rules.RuleSystem`), and its answer says whether a terminal piece is in play
  (``"terminal"``) and, when none is, what that means (``"note"``); with ``"history"``
  (``{"start": FEEN, FEN or null, "halfmove", "fullmove", "moves": [MOVE, ...]}``: the moves
  that led to the position, at most ``plies`` of them), the answer's ``"claim"`` is the end
  the player to move may claim by the game's history (a repetition, the n-move rule, a count:
  :class:`ggn.game.Game`), and without it, by the position's halfmove clock alone; with a
  history and no ``"position"``, the position is the one the history leads to; with
  ``"line": true``, the answer has ``"line"`` (each move of the history: ``"move"`` in GGN's
  notation, ``"san"`` in the game's own, ``"feen"`` after it) and ``"start"`` (the history's
  start: ``"feen"``, ``"halfmove"``, ``"fullmove"``, ``"active"``); ``"letters": true`` draws
  shogi's and xiangqi's pieces with their letters. Besides the position (``"feen"``,
  ``"fen"``: null where the game has none, ``"svg"``, ``"board"``, ``"hands"``, ``"moves"``,
  each group of a move with a choice giving each option's resulting ``"piece"`` and its
  ``"picture"``, :func:`ggn.svg.piece`), the answer says ``"check"``, ``"checked"`` (the
  squares of the royal pieces in check), ``"last"`` (the last move's source and destination,
  from the history), ``"outcome"``, ``"winner"``, ``"result"`` (``"1-0"``, ``"0-1"``,
  ``"1/2-1/2"``, as PGN writes it) and ``"ending"`` once the game is over, ``"notation"``
  (the notation its moves are written in: :func:`ggn.web._explorer.notation_of`),
  ``"players"`` (the players' names: white and black, sente and gote, red and black) and
  ``"names"`` (what a screen reader says for each piece: ``"white knight"``);
- ``POST /api/play``: the same and ``"move"``: a move in any of the game's notations, recognised
  without a flag (SAN, UCI, USI for the shogi family, GGN's as the view lists it; a document's
  in GGN's): the position after it, with ``"played"`` (the move in GGN's notation) and
  ``"san"`` (in the game's own: SAN, Hodges's for the shogi family, WXF for xiangqi's, janggi's
  for janggi's; GGN's for a document);
- ``POST /api/analyse``: the same request as ``view``: the engine's best move, score and
  principal variation (:func:`ggn.web._analysis.analysis`), when the explorer has an engine
  (``/api/config``'s ``"engine"``; else 404); an engine that fails is answered 502.
- ``POST /api/record``: a game record's text (``"text"``: PGN, KIF or CSA; or ``"data"``: a
  file's bytes in base64), its game read and replayed (:mod:`ggn.web._records`): the game, its
  start, its moves (as written, in the game's notation, in UCI and as the page plays them), the
  stated result and the tags; a record that cannot be read or replayed is answered 400 with
  ``"line"``, ``"ply"``, ``"move"`` and ``"number"`` (the game's) beside the message;
- ``POST /api/export``: the game played (``"history"``, as ``view`` takes it) as a record (PGN,
  KIF, CSA) and the position shown (``"at"``) as FEN and FEEN.

A request the API cannot read is answered 400 (every field is read before any work, so a field
it cannot read wins over what the rest would give); an unknown game 404; a bad position or
document, or a move that is not there to play, 422, with ``{"error": MESSAGE}`` and, for a
document, ``"violations"``: every fault with its JSON Pointer. A request over one of the
explorer's limits (:class:`~ggn.web._limits.Limits`) is answered with ``"limit"`` (the limit's
name) and ``"most"`` (its value) beside its message: 413 for what it asks (a body over ``body``
bytes, a position over ``position`` characters, ``squares`` or ``pieces``, more moves than
``moves``, a history of more than ``plies`` moves, an answer over ``answer`` bytes), 408 for a
body that takes over ``body_seconds`` to arrive, 503 for a request that works over ``seconds``
(its worker is killed), runs out of a worker's ``memory``, or waits over ``queue_seconds`` for a
free worker or for one of the ``requests`` places (the requests the server holds at once).
A failure of the explorer itself is answered 500. A 5xx answer closes its connection.

POST bodies must be JSON (``Content-Type: application/json``): a page of another site cannot
send one without the browser asking this server first, which it never allows. Made with
``hosts``, the application answers only requests whose ``Host`` header names one of them
(else 400): a site whose name is made to point at 127.0.0.1 (DNS rebinding) then reads
nothing from the explorer.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from ggn.web._analysis import EngineSettings
from ggn.web._explorer import games
from ggn.web._limits import MAX_BODY, LimitError, Limits
from ggn.web._work import ROUTES, Workers, error, limited

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from ggn.variants.registry import Catalogue

__all__ = ["MAX_BODY", "create_app"]

_STATIC: Final = {"app.js": "text/javascript", "app.css": "text/css", "records.js": "text/javascript",
                  "engine.js": "text/javascript"}


class _BadRequest(Exception):  # noqa: N818  (internal: answered 400, never raised to a caller)
    """A request the API cannot read: answered 400 with its message."""


def _static(name: str) -> str:
    return resources.files("ggn.web").joinpath("static", name).read_text("utf-8")


async def _read(request: Request, limits: Limits) -> bytes:
    """The request's body, bounded by ``limits.body`` bytes and ``limits.body_seconds``."""
    import anyio  # noqa: PLC0415  (Starlette's)

    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise _BadRequest("the request's body must be JSON, sent as application/json")
    too_large = LimitError(f"the request's body is over {limits.body:,} bytes (the explorer's limit 'body')",
                           "body", limits.body)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or len(length) > 20 or int(length) > limits.body):
        raise too_large
    chunks: list[bytes] = []
    size = 0
    with anyio.move_on_after(limits.body_seconds) as reading:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limits.body:
                raise too_large
            chunks.append(chunk)
    if reading.cancelled_caught:
        raise LimitError(f"the request's body took over {limits.body_seconds:g} s to arrive (the explorer's "
                         "limit 'body_seconds')", "body_seconds", limits.body_seconds)
    return b"".join(chunks)


def _respond(status: int, written: bytes) -> Response:
    from starlette.responses import Response as Made  # noqa: PLC0415  (the [web] extra, on first use)

    # A failure of the server's (5xx) ends its connection: nothing of the request is left open.
    headers = {"Connection": "close"} if status >= 500 else None
    return Made(written, status, headers=headers, media_type="application/json")


def _answer(route: str, workers: Workers) -> Any:
    """The endpoint of ``POST /api/ROUTE``: the body read here, the work done by ``workers``."""

    from starlette.requests import ClientDisconnect  # noqa: PLC0415  (the [web] extra, on first use)

    async def endpoint(request: Request) -> Response:
        try:
            async with workers.admitted():
                data = await _read(request, workers.limits)
                return _respond(*await workers.run(route, data))
        except _BadRequest as failure:
            return _respond(*error(400, str(failure)))
        except LimitError as failure:
            status, written = limited(failure)
            return _respond(408 if failure.limit == "body_seconds" else status, written)
        except ClientDisconnect:  # the client left before its body was read: no one to answer
            return _respond(*error(400, "the client left before its request's body was read"))
        except MemoryError:
            return _respond(*error(503, "the explorer ran out of memory on this request", limit="memory",
                                   most=workers.limits.memory or 0))
        except Exception as failure:  # noqa: BLE001  (a fault of the server's own: answered 500, never a hang)
            traceback.print_exc(file=sys.stderr)
            return _respond(*error(500, f"the explorer failed on this request: {type(failure).__name__}"))

    return endpoint


def host_of(header: str) -> str:
    """The host a ``Host`` header names, its port left out, in lower case (``[::1]:80`` is
    ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Guard:
    """ASGI middleware: a request whose ``Host`` header is missing or names none of ``hosts``
    is answered 400 (a websocket closed) before the application sees it."""

    def __init__(self, app: Any, hosts: Collection[str]) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            header = dict(scope.get("headers") or ()).get(b"host", b"").decode("latin-1")
            if host_of(header) not in self.hosts:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                else:
                    await _respond(*error(400, "the request's Host header names no address of this "
                                               "explorer"))(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(initial: dict[str, Any] | None = None, catalogue: Catalogue | None = None,
               *, hosts: Collection[str] | None = None, limits: Limits | None = None,
               engine: EngineSettings | None = None) -> Starlette:
    """The explorer's application. ``initial`` is what the page opens with:
    ``{"game": NAME}`` or ``{"document": TEXT}``, with an optional ``"position"`` (FEEN);
    None opens chess. ``catalogue`` holds the games it offers: the built-ins and the variants
    added to it from ``variants.ini`` texts (None: the built-ins only). ``hosts``: the host
    names a request's ``Host`` header may give (others are answered 400); None: any.
    ``limits``: what one request may cost (None: :class:`~ggn.web._limits.Limits`'s defaults).
    ``engine``: the engine ``/api/analyse`` asks (None: none, and the page shows no engine).

    The application's worker processes (``app.state.workers``, a :class:`~ggn.web._work.Workers`)
    start with its lifespan and stop with it; run without one, they start with the first
    request, and ``app.state.workers.close()`` stops them.

    Needs the ``[web]`` extra (Starlette); :func:`ggn.web.require` says how to install it.
    """
    import anyio.to_thread  # noqa: PLC0415  (Starlette's)
    from starlette.applications import Starlette  # noqa: PLC0415  (the [web] extra, on first use)
    from starlette.responses import HTMLResponse, JSONResponse  # noqa: PLC0415
    from starlette.responses import Response as PlainResponse  # noqa: PLC0415
    from starlette.routing import Route  # noqa: PLC0415

    if hosts is not None and (isinstance(hosts, str) or not all(isinstance(h, str) for h in hosts)):
        raise TypeError(f"hosts must be a collection of host names or None, got {hosts!r}"[:200])
    if limits is not None and not isinstance(limits, Limits):
        raise TypeError(f"limits must be a ggn.web.Limits or None, got {type(limits).__name__}")
    if engine is not None and not isinstance(engine, EngineSettings):
        raise TypeError(f"engine must be a ggn.web.EngineSettings or None, got {type(engine).__name__}")
    opening = dict(initial) if initial is not None else {"game": "chess"}
    workers = Workers(catalogue, limits or Limits(), engine)

    async def page(_: Request) -> Response:
        return HTMLResponse(_static("index.html"), headers={"Cache-Control": "no-store"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return _respond(*error(404, f"no file {name!r}"[:200]))
        return PlainResponse(_static(name), media_type=_STATIC[name], headers={"Cache-Control": "no-store"})

    async def config(_: Request) -> Response:
        return JSONResponse({"games": games(catalogue), "initial": opening,
                             "engine": None if engine is None else engine.to_json()})

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        workers.start()  # in this thread: see Workers.start (a few milliseconds a worker)
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(workers.close)

    made = Starlette(routes=[
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/config", config),
        *(Route(f"/api/{route}", _answer(route, workers), methods=["POST"]) for route in ROUTES),
    ], lifespan=lifespan)
    made.state.workers = workers
    if hosts is not None:
        made.add_middleware(_Guard, hosts=hosts)
    return made
