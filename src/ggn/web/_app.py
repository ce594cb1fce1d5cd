"""The explorer's Starlette application: the page, its script and style, and a small JSON API.

The routes only read the request, call :mod:`ggn.web._explorer` and write its answer:

- ``GET /``: the page; ``GET /static/app.js`` and ``GET /static/app.css``: its script and style;
- ``GET /api/config``: the games (the built-ins, then those of the catalogue's ``variants.ini``
  texts) and what the explorer was started with;
- ``POST /api/view``: a position, its moves and notations
  (``{"game": NAME}`` or ``{"document": TEXT}``, with ``"position"``: FEEN, or a game's FEN,
  and the FEN's move counters ``"halfmove"`` and ``"fullmove"``; ``"flipped"``: the picture
  turned round);
- ``POST /api/play``: the same and ``"move"`` (a move as the view lists it): the position after it.

A request the API cannot read is answered 400 (every field is read before any work, so a
field it cannot read wins over what the rest would give); an unknown game 404; a bad position or
document, or a move that is not there to play, 422, with ``{"error": MESSAGE}`` and, for a
document, ``"violations"``: every fault with its JSON Pointer. POST bodies must be JSON
(``Content-Type: application/json``): a page of another site cannot send one without the
browser asking this server first, which it never allows. Made with ``hosts``, the application
answers only requests whose ``Host`` header names one of them (else 400): a site whose name
is made to point at 127.0.0.1 (DNS rebinding) then reads nothing from the explorer.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from ggn.errors import DocumentError, GGNError, NotFoundError
from ggn.web._explorer import State, Subject, games, play, view

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from ggn.variants.registry import Catalogue

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY: Final = 16 * 1024 * 1024
"""The largest request body read (a pasted document and its position)."""

_STATIC: Final = {"app.js": "text/javascript", "app.css": "text/css"}
_COUNTER_MAX: Final = 2**31 - 1


class _BadRequest(Exception):  # noqa: N818  (internal: answered 400, never raised to a caller)
    """A request the API cannot read: answered 400 with its message."""


def _static(name: str) -> str:
    return resources.files("ggn.web").joinpath("static", name).read_text("utf-8")


def _text(body: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    value = body.get(key)
    if value is None:
        if required:
            raise _BadRequest(f"the request needs {key!r}")
        return None
    if not isinstance(value, str):
        raise _BadRequest(f"{key!r} must be a string, got {type(value).__name__}")
    return value


def _counter(body: dict[str, Any], key: str, default: int) -> int:
    value = body.get(key, default)
    if type(value) is not int or not 0 <= value <= _COUNTER_MAX:
        raise _BadRequest(f"{key!r} must be a whole number from 0 to {_COUNTER_MAX}, got {value!r}"[:200])
    return value


@dataclass(frozen=True, slots=True)
class _Request:
    """A POST request's fields, every one read and checked before any work is done."""

    game: str | None
    document: str | None
    position: str | None
    halfmove: int
    fullmove: int
    flipped: bool
    move: str | None

    @classmethod
    def read(cls, body: dict[str, Any], *, move: bool = False) -> _Request:
        """The request's fields; raise :class:`_BadRequest` for the first one it cannot read
        (``move``: the request must name a move)."""
        game, document = _text(body, "game"), _text(body, "document")
        if (game is None) == (document is None):
            raise _BadRequest("the request needs either 'game' (a game's name) or 'document' "
                              "(a GGN document's text)")
        position = _text(body, "position")
        if position is not None and not position.strip():
            position = None
        halfmove, fullmove = _counter(body, "halfmove", 0), _counter(body, "fullmove", 1)
        flipped = body.get("flipped", False)
        if not isinstance(flipped, bool):
            raise _BadRequest(f"'flipped' must be true or false, got {type(flipped).__name__}")
        played = _text(body, "move", required=True) if move else None
        return cls(game, document, position, halfmove, fullmove, flipped, played)

    def subject(self, catalogue: Catalogue | None) -> Subject:
        if self.game is not None:
            return Subject.game(self.game, catalogue)
        return Subject.document(self.document or "")

    def state(self, subject: Subject) -> State:
        return subject.state(self.position, self.halfmove, self.fullmove)


async def _body(request: Request) -> dict[str, Any]:
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise _BadRequest("the request's body must be JSON, sent as application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise _BadRequest(f"the request's body is over {MAX_BODY:,} bytes")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise _BadRequest(f"the request's body is over {MAX_BODY:,} bytes")
    try:
        body = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise _BadRequest(f"the request's body is not JSON: {error}"[:300]) from None
    if not isinstance(body, dict):
        raise _BadRequest("the request's body must be a JSON object")
    return body


def _error(status: int, message: str, **more: Any) -> Response:
    from starlette.responses import JSONResponse  # noqa: PLC0415  (the [web] extra, on first use)

    return JSONResponse({"error": message, **more}, status_code=status)


def _answer(work: Any) -> Any:
    """Run ``work(body)`` for a POST route, answering its errors as the module's doc says."""
    from starlette.responses import JSONResponse  # noqa: PLC0415

    async def endpoint(request: Request) -> Response:
        try:
            body = await _body(request)
            return JSONResponse(work(body))
        except _BadRequest as error:
            return _error(400, str(error))
        except NotFoundError as error:
            return _error(404, str(error))
        except DocumentError as error:
            violations = [{"path": v.path, "message": v.message} for v in error.violations]
            return _error(422, str(error).split("\n", 1)[0], violations=violations, truncated=error.truncated)
        except GGNError as error:  # a bad FEEN or FEN, a board of the wrong shape, an illegal move
            return _error(422, str(error))

    return endpoint


def _view(body: dict[str, Any], catalogue: Catalogue | None) -> dict[str, Any]:
    request = _Request.read(body)
    subject = request.subject(catalogue)
    return view(subject, request.state(subject), flipped=request.flipped)


def _play(body: dict[str, Any], catalogue: Catalogue | None) -> dict[str, Any]:
    request = _Request.read(body, move=True)
    assert request.move is not None
    subject = request.subject(catalogue)
    after = play(subject, request.state(subject), request.move)
    answer = view(subject, after, flipped=request.flipped)
    answer["played"] = request.move
    answer["transition"] = None if after.transition is None else after.transition.to_value()
    return answer


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
                    await _error(400, "the request's Host header names no address of this "
                                      "explorer")(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(initial: dict[str, Any] | None = None, catalogue: Catalogue | None = None,
               *, hosts: Collection[str] | None = None) -> Starlette:
    """The explorer's application. ``initial`` is what the page opens with:
    ``{"game": NAME}`` or ``{"document": TEXT}``, with an optional ``"position"`` (FEEN);
    None opens chess. ``catalogue`` holds the games it offers: the built-ins and the variants
    added to it from ``variants.ini`` texts (None: the built-ins only). ``hosts``: the host
    names a request's ``Host`` header may give (others are answered 400); None: any.

    Needs the ``[web]`` extra (Starlette); :func:`ggn.web.require` says how to install it.
    """
    from starlette.applications import Starlette  # noqa: PLC0415  (the [web] extra, on first use)
    from starlette.responses import HTMLResponse, JSONResponse  # noqa: PLC0415
    from starlette.responses import Response as PlainResponse  # noqa: PLC0415
    from starlette.routing import Route  # noqa: PLC0415

    opening = dict(initial) if initial is not None else {"game": "chess"}

    async def page(_: Request) -> Response:
        return HTMLResponse(_static("index.html"), headers={"Cache-Control": "no-store"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return _error(404, f"no file {name!r}"[:200])
        return PlainResponse(_static(name), media_type=_STATIC[name], headers={"Cache-Control": "no-store"})

    async def config(_: Request) -> Response:
        return JSONResponse({"games": games(catalogue), "initial": opening})

    if hosts is not None and (isinstance(hosts, str) or not all(isinstance(h, str) for h in hosts)):
        raise TypeError(f"hosts must be a collection of host names or None, got {hosts!r}"[:200])
    made = Starlette(routes=[
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/config", config),
        Route("/api/view", _answer(lambda body: _view(body, catalogue)), methods=["POST"]),
        Route("/api/play", _answer(lambda body: _play(body, catalogue)), methods=["POST"]),
    ])
    if hosts is not None:
        made.add_middleware(_Guard, hosts=hosts)
    return made
