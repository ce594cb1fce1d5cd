"""The explorer's requests, and the worker processes that do their work.

:func:`answer` reads one request (the route's name and its body, bytes of JSON) and gives its
answer (a status and bytes of JSON), calling :mod:`ggn.web._explorer`; it needs no web library.
:class:`Workers` runs it in worker processes, so that the server's own process (its event
loop) only passes bodies and answers and is never held by a request's work:

- each worker does one request at a time, and there are :data:`~ggn.web._limits.WORKERS` of
  them: while one is busy, another answers; a request that finds none free within
  ``queue_seconds`` is answered 503;
- a request that works longer than ``seconds`` has its worker killed (a thread cannot be
  stopped; a process can, and its memory goes with it) and is answered 503; a new worker
  takes its place;
- a worker's address space is bounded (``memory``, where the system allows it): a request
  that runs out is answered 503 and its worker replaced, and nothing of it stays in the server;
- what one request may ask for (its position's text, squares and pieces, the moves listed,
  the answer's size) is checked before the work it would cost (:mod:`ggn.web._limits`).

Workers are started with the ``spawn`` method, as :mod:`ggn.parallel`'s are: fresh
interpreters that inherit no thread, lock or socket of the server (this one runs threads).
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ggn._json import quote
from ggn.errors import DocumentError, EngineError, GGNError, NotFoundError
from ggn.web._analysis import EngineSettings, analysis
from ggn.web._explorer import State, Subject, forget, history, notation_of, play, view
from ggn.web._limits import LimitError, Limits

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import SpawnContext, SpawnProcess

    from ggn.game import Game
    from ggn.variants.registry import Catalogue

__all__ = ["ROUTES", "Workers", "answer", "error"]

ROUTES: Final = ("view", "play", "analyse", "record", "export")
"""The routes whose work the workers do (``POST /api/ROUTE``); ``record`` and ``export`` are
:mod:`ggn.web._records`'s."""

_COUNTER_MAX: Final = 2**31 - 1
_START_SECONDS: Final = 60.0  # the longest a new worker may take to start (import ggn)
_STOP_SECONDS: Final = 5.0  # the longest the server waits for a worker it stopped to end
_LIMITS: Final = Limits()


async def _acquired(semaphore: Any, seconds: float) -> bool:
    """Whether ``semaphore`` (an ``anyio.Semaphore``) was acquired within ``seconds``: the
    wait for a place among the requests held, and for a free worker."""
    import anyio  # noqa: PLC0415  (Starlette's: the [web] extra)

    with anyio.move_on_after(seconds) as waiting:
        await semaphore.acquire()
    return not waiting.cancelled_caught


class BadRequest(Exception):  # noqa: N818  (internal: answered 400, never raised to a caller)
    """A request the API cannot read: answered 400 with its message."""


def _text(body: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    value = body.get(key)
    if value is None:
        if required:
            raise BadRequest(f"the request needs {key!r}")
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be a string, got {type(value).__name__}")
    return value


def _flag(body: dict[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise BadRequest(f"{key!r} must be true or false, got {type(value).__name__}")
    return value


def _counter(body: dict[str, Any], key: str, default: int) -> int:
    value = body.get(key, default)
    if type(value) is not int or not 0 <= value <= _COUNTER_MAX:
        raise BadRequest(f"{key!r} must be a whole number from 0 to {_COUNTER_MAX}, got {value!r}"[:200])
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
    history: _History | None = None
    letters: bool = False
    line: bool = False

    @classmethod
    def read(cls, body: dict[str, Any], *, move: bool = False) -> _Request:
        """The request's fields; raise :class:`BadRequest` for the first one it cannot read
        (``move``: the request must name a move)."""
        game, document = _text(body, "game"), _text(body, "document")
        if (game is None) == (document is None):
            raise BadRequest("the request needs either 'game' (a game's name) or 'document' "
                             "(a GGN document's text)")
        position = _text(body, "position")
        if position is not None and not position.strip():
            position = None
        halfmove, fullmove = _counter(body, "halfmove", 0), _counter(body, "fullmove", 1)
        flipped, letters, line = (_flag(body, name) for name in ("flipped", "letters", "line"))
        played = _text(body, "move", required=True) if move else None
        return cls(game, document, position, halfmove, fullmove, flipped, played, _History.read(body),
                   letters, line)

    def state(self, subject: Subject, limits: Limits) -> tuple[State, Game | None]:
        """The request's position, and the game its history plays (None without one). With a
        history and no position, the position is the one the history leads to; with both, the
        history must lead to the position (else 422)."""
        history = self.history
        if history is not None and self.position is None:
            game = history.replay(subject, limits)
            return State(game.position, game.halfmove, game.fullmove), game
        state = subject.state(self.position, self.halfmove, self.fullmove, limits)
        return state, None if history is None else history.game(subject, state, limits)

    def subject(self, catalogue: Catalogue | None, limits: Limits) -> Subject:
        if self.game is not None:
            return Subject.game(self.game, catalogue)
        return Subject.document(self.document or "", limits)


@dataclass(frozen=True, slots=True)
class _History:
    """A request's ``history``: the position the game started from (``start``, FEEN or a game's
    FEN, null for the game's start; its counters ``halfmove`` and ``fullmove``) and the
    ``moves`` played from it to the request's position, each a string (the moves' count is
    bounded by the limit ``plies``, checked before any is played)."""

    start: str | None
    halfmove: int
    fullmove: int
    moves: list[str]

    @classmethod
    def read(cls, body: dict[str, Any]) -> _History | None:
        value = body.get("history")
        if value is None:
            return None
        if not isinstance(value, dict):
            raise BadRequest(f"'history' must be an object (start, halfmove, fullmove, moves), got "
                             f"{type(value).__name__}")
        unknown = sorted(set(value) - {"start", "halfmove", "fullmove", "moves"})
        if unknown:
            raise BadRequest(f"'history' has no field {unknown[0]!r}"[:200])
        moves = value.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
            raise BadRequest("'history': its moves must be a list of strings")
        start = _text(value, "start")
        return cls(None if start is None or not start.strip() else start,
                   _counter(value, "halfmove", 0), _counter(value, "fullmove", 1), moves)

    def replay(self, subject: Subject, limits: Limits) -> Game:
        """The game the history plays."""
        return history(subject, subject.state(self.start, self.halfmove, self.fullmove, limits), self.moves,
                       limits)

    def game(self, subject: Subject, position: State, limits: Limits) -> Game:
        """The game the history plays, which must lead to ``position`` (else 422)."""
        game = self.replay(subject, limits)
        if game.feen() != position.position.to_feen():
            raise GGNError(f"the history's {len(self.moves)} moves lead to {quote(game.feen(), 200)}, not to "
                           f"the position {quote(position.position.to_feen(), 200)}")
        return game


def _body(data: bytes, limits: Limits) -> dict[str, Any]:
    if len(data) > limits.body:
        raise LimitError(f"the request's body is over {limits.body:,} bytes (the explorer's limit 'body')",
                         "body", limits.body)
    try:
        body = json.loads(data)
    except (ValueError, RecursionError) as failure:
        raise BadRequest(f"the request's body is not JSON: {failure}"[:300]) from None
    if not isinstance(body, dict):
        raise BadRequest("the request's body must be a JSON object")
    return body


def _view(body: dict[str, Any], catalogue: Catalogue | None, limits: Limits) -> dict[str, Any]:
    request = _Request.read(body)
    subject = request.subject(catalogue, limits)
    state, game = request.state(subject, limits)
    answered = view(subject, state, flipped=request.flipped, letters=request.letters, limits=limits,
                    game=game)
    if request.line:
        answered["line"] = [] if game is None else _line(subject, game)
        history = request.history
        start = state if history is None else subject.state(history.start, history.halfmove, history.fullmove,
                                                             limits)
        answered["start"] = {"feen": start.position.to_feen(), "halfmove": start.halfmove,
                             "fullmove": start.fullmove, "active": start.position.active}
    return answered


def _line(subject: Subject, game: Game) -> list[dict[str, Any]]:
    """The plays of ``game``, each as GGN's notation writes it (``move``), in the game's own
    (``san``, as :func:`~ggn.web._explorer.notation_of` names it) and the FEEN after it."""
    plays = game.plays
    written = game.moves(notation_of(subject.entry)) if subject.entry is not None else [str(p) for p in plays]
    return [{"move": str(made), "san": san, "feen": game.feen(ply)}
            for ply, (made, san) in enumerate(zip(plays, written, strict=True), 1)]


def _play(body: dict[str, Any], catalogue: Catalogue | None, limits: Limits) -> dict[str, Any]:
    request = _Request.read(body, move=True)
    assert request.move is not None
    subject = request.subject(catalogue, limits)
    state, game = request.state(subject, limits)
    after = play(subject, state, request.move)
    san = after.san
    if game is not None:
        game.push(after.move)
        if subject.entry is not None and san.endswith("+") and game.checks_left is not None:
            san = game.moves(notation_of(subject.entry))[-1]  # a last check is a mate: '#'
    answered = view(subject, after, flipped=request.flipped, letters=request.letters, limits=limits,
                    game=game)
    answered["played"] = after.move
    answered["san"] = san
    answered["transition"] = None if after.transition is None else after.transition.to_value()
    return answered


def _analyse(body: dict[str, Any], catalogue: Catalogue | None, limits: Limits,
             engine: EngineSettings | None) -> dict[str, Any]:
    request = _Request.read(body)
    if engine is None:
        raise NotFoundError("the explorer was started without an engine (ggn serve --engine PATH)")
    subject = request.subject(catalogue, limits)
    state = subject.state(request.position, request.halfmove, request.fullmove, limits)
    return analysis(subject, state, engine, catalogue, limits)


def dumps(value: Any) -> bytes:
    """``value`` as JSON bytes, as Starlette's JSONResponse writes them."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def error(status: int, message: str, **more: Any) -> tuple[int, bytes]:
    """An error's answer: ``status`` and ``{"error": message, ...more}``."""
    return status, dumps({"error": message, **more})


def limited(failure: LimitError) -> tuple[int, bytes]:
    """The answer to a request over one of the explorer's limits: 503 for the time and memory
    a request may take and the workers it may wait for, 413 for what it asks (its body, its
    position's size, the moves and answer it would get)."""
    status = 503 if failure.limit in ("seconds", "memory", "queue_seconds", "requests") else 413
    return error(status, str(failure), limit=failure.limit, most=failure.most)


def _written(value: Any, limits: Limits) -> bytes:
    """``value`` as JSON bytes, within ``limits.answer``."""
    written = dumps(value)
    if len(written) > limits.answer:
        raise LimitError(f"the answer would be {len(written):,} bytes of JSON, more than the explorer "
                         f"writes ({limits.answer:,}, its limit 'answer')", "answer", limits.answer)
    return written


def answer(route: str, data: bytes, catalogue: Catalogue | None = None,
           limits: Limits = _LIMITS, engine: EngineSettings | None = None) -> tuple[int, bytes]:
    """The answer to ``POST /api/ROUTE`` (``route``: one of :data:`ROUTES`) with body ``data``:
    a status and JSON bytes (see :mod:`ggn.web._app` for what each status means); ``engine``
    is the engine that ``analyse`` asks (None: it is answered 404).

    A request that runs out of memory is answered 503 (the documents kept are let go first);
    a failure of the explorer itself 500, its traceback on standard error."""
    try:
        return _answer(route, data, catalogue, limits, engine)
    except MemoryError:
        pass
    # Out of the except clause: its traceback, and what its frames held, are gone.
    forget()
    return limited(out_of_memory(limits))


def _answer(route: str, data: bytes, catalogue: Catalogue | None, limits: Limits,
            engine: EngineSettings | None) -> tuple[int, bytes]:
    try:
        body = _body(data, limits)
        if route == "analyse":
            value = _analyse(body, catalogue, limits, engine)
        elif route in ("record", "export"):
            from ggn.web._records import ROUTES as RECORDS  # noqa: PLC0415  (it imports this module)

            value = RECORDS[route](body, catalogue, limits)
        else:
            value = (_view if route == "view" else _play)(body, catalogue, limits)
        written = _written(value, limits)
    except BadRequest as failure:  # a record's fault says where: its game, line, ply and move
        return error(400, str(failure), **getattr(failure, "where", {}))
    except LimitError as failure:
        return limited(failure)
    except NotFoundError as failure:
        return error(404, str(failure))
    except DocumentError as failure:
        violations = [{"path": v.path, "message": v.message} for v in failure.violations]
        return error(422, str(failure).split("\n", 1)[0], violations=violations, truncated=failure.truncated)
    except EngineError as failure:  # the engine failed (it is ended): the server behind this one
        return error(502, str(failure))
    except GGNError as failure:  # a bad FEEN or FEN, a board of the wrong shape, an illegal move
        return error(422, str(failure))
    except MemoryError:
        raise
    except Exception as failure:  # noqa: BLE001  (a fault of the explorer's own: answered 500, never a hang)
        traceback.print_exc(file=sys.stderr)
        return error(500, f"the explorer failed on this request: {type(failure).__name__}: "
                          f"{quote(str(failure), 200)}")
    return 200, written


def out_of_memory(limits: Limits) -> LimitError:
    """The error of a request that ran out of memory."""
    most = limits.memory if limits.memory is not None else 0
    bound = f" ({most:,} bytes a worker, its limit 'memory')" if most else ""
    return LimitError(f"the request ran out of memory{bound}", "memory", most)


# -- the worker processes -------------------------------------------------------------------

_READY: Final = "ready"


def _bound_memory(most: int) -> None:
    """Bound this process's address space to ``most`` bytes, where the system allows it."""
    try:
        import resource  # noqa: PLC0415  (POSIX only)
    except ImportError:  # pragma: no cover  (Windows: no bound of the explorer's own)
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        most = min(most, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (most, hard))
    except (ValueError, OSError):  # pragma: no cover  (a system that refuses it)
        return


def _serve(connection: Connection, catalogue: Catalogue | None, limits: Limits, cache: bool,
           engine: EngineSettings | None = None) -> None:
    """A worker's life: answer each request it is sent, until its server goes."""
    import atexit  # noqa: PLC0415
    import os  # noqa: PLC0415
    import signal  # noqa: PLC0415

    if not cache:
        from ggn import cache as compile_cache  # noqa: PLC0415

        compile_cache.configure(enabled=False)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    # Tearing down what the worker loaded could take seconds: it leaves at once, after the
    # compile cache has saved its entries (exit handlers run last registered first).
    atexit.register(os._exit, 0)
    exhausted = limited(out_of_memory(limits))  # made now: sent when there is no memory to make it
    if limits.memory is not None:
        _bound_memory(limits.memory)
    connection.send(_READY)
    while True:
        try:
            route, data = connection.recv()
        except (EOFError, OSError):  # the server has gone
            return
        try:
            try:
                status, written = answer(route, data, catalogue, limits, engine)
            except MemoryError:
                status, written = exhausted
            # Out of memory, what it holds may be in a bad way; past ``recycle``, it holds memory
            # Python keeps once freed: either way it ends, and a new worker takes its place.
            retire = status == 503 or _resident() > limits.recycle
            connection.send((status, written, retire))
        except (EOFError, OSError):
            return
        except MemoryError:  # not even the answer could be sent: the server sees the worker end
            return
        if retire:
            return


def _resident() -> int:
    """The memory this process holds now (resident), in bytes; 0 where unknown. (Not the peak
    of ``getrusage``: on Linux it counts the pages of the process that forked this one, before
    it became a fresh interpreter.)"""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):  # not Linux: no recycling
        return 0
    import os  # noqa: PLC0415

    return pages * os.sysconf("SC_PAGE_SIZE")


def _kill_children(pid: int | None) -> None:
    """Kill the process groups led by the children of the worker ``pid`` (its engines, each in a
    session of its own: :mod:`ggn.engine`), where the system lists a process's children (Linux's
    ``/proc``). An engine not killed so reads the end of its input when its worker goes, and quits."""
    import os  # noqa: PLC0415
    import signal  # noqa: PLC0415

    if pid is None:
        return
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listed:
            children = [int(word) for word in listed.read().split()]
    except (OSError, ValueError):
        return
    for child in children:
        try:
            if os.getpgid(child) == child:  # an engine leads its own group: it and what it started
                os.killpg(child, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue


class _Gone(Exception):  # noqa: N818  (internal)
    """A worker ended before it answered."""


class _Worker:
    """One worker process, and this end of its pipe."""

    def __init__(self, context: SpawnContext, catalogue: Catalogue | None, limits: Limits,
                 cache: bool, engine: EngineSettings | None = None) -> None:
        mine, theirs = context.Pipe()
        self.process: SpawnProcess = context.Process(
            target=_serve, args=(theirs, catalogue, limits, cache, engine), name="ggn-explorer-worker",
            daemon=True)
        self.process.start()
        theirs.close()
        self.connection = mine
        self.ready = False

    def ask(self, route: str, data: bytes, seconds: float) -> tuple[int, bytes, bool] | None:
        """The worker's answer to a request, and whether the worker ends after it; None when it
        took longer than ``seconds`` (the worker is then stopped). Raise :class:`_Gone` when
        the worker ended without one."""
        connection = self.connection
        try:
            if not self.ready:
                if not connection.poll(_START_SECONDS) or connection.recv() != _READY:
                    raise _Gone
                self.ready = True
            connection.send((route, data))
            if not connection.poll(seconds):
                self.stop()
                return None
            status, written, retire = connection.recv()
        except (EOFError, OSError):
            raise _Gone from None
        return status, written, retire

    def stop(self) -> None:
        """Stop the worker now (killed: it may be in the middle of a request) and let it go;
        the engines it runs (in process groups of their own) are killed first."""
        if self.process.is_alive():
            _kill_children(self.process.pid)
            self.process.kill()
        self.process.join(_STOP_SECONDS)
        self.connection.close()


class Workers:
    """The worker processes of one explorer (:data:`~ggn.web._limits.Limits.workers` of them,
    started when first needed), and the answers they give."""

    def __init__(self, catalogue: Catalogue | None = None, limits: Limits = _LIMITS,
                 engine: EngineSettings | None = None) -> None:
        self.catalogue = catalogue
        self.limits = limits
        self.engine = engine
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._slots: Any = None  # an anyio.Semaphore, made in the event loop that first needs it
        self._places: Any = None  # the same, for the requests held
        self._closed = False

    def __repr__(self) -> str:
        return f"<Workers: {len(self._all)} of {self.limits.workers} running>"

    @asynccontextmanager
    async def admitted(self) -> AsyncIterator[None]:
        """Hold one of the ``requests`` places of the server while a request is read, waits and
        is answered; raise :class:`~ggn.errors.LimitError` when none is free within
        ``queue_seconds``."""
        import anyio  # noqa: PLC0415  (Starlette's: the [web] extra)

        limits = self.limits
        if self._places is None:
            self._places = anyio.Semaphore(limits.requests)
        places = self._places
        if not await _acquired(places, limits.queue_seconds):
            raise LimitError(f"the explorer held {limits.requests} requests for {limits.queue_seconds:g} s "
                             "(its limit 'requests'): try again", "requests", limits.requests)
        try:
            yield
        finally:
            places.release()

    def start(self) -> None:
        """Start the workers not running yet (else each starts with its first request); after
        :meth:`close`, start again (an application's lifespan may run more than once)."""
        import signal  # noqa: PLC0415

        # Started from the main thread (ggn serve's lifespan), the workers are born ignoring
        # Ctrl-C (an ignored signal stays ignored across exec, and Python keeps it so): one
        # still importing ggn when a terminal's Ctrl-C reaches the whole process group would
        # otherwise write a KeyboardInterrupt traceback of its own.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            with self._lock:
                self._closed = False
                while len(self._all) < self.limits.workers:
                    worker = self._new()
                    self._idle.append(worker)
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)

    def _new(self) -> _Worker:
        import multiprocessing  # noqa: PLC0415  (only where workers are wanted)

        compile_cache = sys.modules.get("ggn.cache")  # used here already: its settings go too
        cache = compile_cache is None or compile_cache.enabled()
        worker = _Worker(multiprocessing.get_context("spawn"), self.catalogue, self.limits, cache,
                         self.engine)
        self._all.add(worker)
        return worker

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise _Gone
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                self._all.discard(worker)
                worker.stop()
            return self._new()

    def _give(self, worker: _Worker) -> None:
        with self._lock:
            if self._closed:
                worker.stop()
            else:
                self._idle.append(worker)

    def _drop(self, worker: _Worker) -> None:
        worker.stop()
        with self._lock:
            self._all.discard(worker)

    async def run(self, route: str, data: bytes) -> tuple[int, bytes]:
        """The answer to a request (see :func:`answer`), worked out by a worker; a request
        that waits longer than ``queue_seconds`` for a free worker, or works longer than
        ``seconds``, or whose worker ends without answering, is answered 503."""
        import anyio  # noqa: PLC0415  (Starlette's: the [web] extra)

        limits = self.limits
        if self._slots is None:
            self._slots = anyio.Semaphore(limits.workers)
        slots = self._slots
        if not await _acquired(slots, limits.queue_seconds):
            return limited(LimitError(
                f"every worker of the explorer was busy for {limits.queue_seconds:g} s (its limit "
                f"'queue_seconds'; {limits.workers} workers): try again", "queue_seconds",
                limits.queue_seconds))
        try:
            return await self._run(route, data)
        finally:
            slots.release()

    async def _run(self, route: str, data: bytes) -> tuple[int, bytes]:
        """The answer of a worker, once this request holds one of the places."""
        import anyio.to_thread  # noqa: PLC0415

        limits = self.limits
        try:
            worker = await anyio.to_thread.run_sync(self._take)
        except _Gone:  # closed
            return error(503, "the explorer is stopping")
        try:
            answered = await anyio.to_thread.run_sync(worker.ask, route, data, limits.seconds)
        except _Gone:
            self._drop(worker)
            return error(503, "the explorer's worker ended before it answered (out of memory, or "
                              "stopped): try again", limit="memory", most=limits.memory or 0)
        if answered is None:
            self._drop(worker)
            return limited(LimitError(
                f"the request took longer than the explorer allows ({limits.seconds:g} s, its limit "
                "'seconds'): it was stopped", "seconds", limits.seconds))
        status, written, retire = answered
        if retire:  # the worker ends (see _serve), and a new one takes its place
            self._drop(worker)
        else:
            self._give(worker)
        return status, written

    def close(self) -> None:
        """Stop every worker (those at work too); the requests still waiting are answered 503."""
        with self._lock:
            self._closed = True
            workers, self._idle = list(self._all), []
            self._all.clear()
        for worker in workers:
            worker.stop()
