"""Work spread over processes, or over the machines of a Dask cluster: perft split near the
root, and batches of positions cut into chunks.

Work is cut into *tasks* described by a few hundred bytes of text: the rules as a
:class:`Recipe` (a game's name with the ``variants.ini`` texts it may come from, or a GGN
document's JSON text), a position in FEEN and what to do with it. A worker makes the rules of a
recipe the first time a task names it and keeps them for the next tasks (the last
:data:`KEPT` recipes), so no large object is ever sent: a task costs its own work, the reading
of its position and its passage each way.

Where the tasks run:

- processes of this machine (:mod:`concurrent.futures`, started with the
  ``spawn`` method: a fresh interpreter each, the same on every platform, inheriting no
  thread, lock or open stream of the caller; the cost, an interpreter start and the import of
  ``ggn`` per worker, is paid once a run): ``jobs`` workers for a batch; for perft, this
  process and ``jobs - 1`` workers, as this one has its rules made already. ``jobs`` is
  capped twice (see :func:`workers`): by the processors this process may run on
  (:func:`processors`; more processes than processors only share them, each with an
  interpreter to start and rules to make: ``--jobs 1000`` on two cores started about 130
  processes and took 12 times as long as one job), silently, any int being accepted; and
  by the work, never more workers than tasks (a batch of 3 chunks starts 3 at most, a perft
  split into 5 positions 5 at most, one with nothing to count none);
- or the workers of a Dask cluster (``scheduler``, the address of its scheduler; the optional
  ``dask[distributed]`` package, ``pip install 'ggn[dask]'``), which must have the same
  version of ``ggn`` installed. Dask runs a task again elsewhere when a worker is lost, so a
  count stays exact.

:func:`perft` and :func:`divide` give the numbers of :func:`ggn.rules.perft` and
:func:`ggn.rules.divide`: the tree is split at the root, and deeper while there are fewer
positions than :data:`TASKS_PER_WORKER` for each process: on this machine in whole plies (chess
depth 5 on two processes: the 400 positions after two plies, a perft of depth 3 each); on Dask
the shallowest position at a time, as a task costs more there (on two workers: 19 of the 20
positions after one ply, of depth 4, and the 20 after the first of them and a reply, of depth
3). Positions reached more than once are counted once and multiplied. :mod:`ggn.batch` sends
its chunks through :func:`ordered`.

>>> perft("chess", 3, jobs=1)
8902
"""

from __future__ import annotations

import functools
import os
import re
import sys
import threading
import zlib
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias, TypeVar, cast

from ggn._types import expect
from ggn.errors import GGNError

if TYPE_CHECKING:  # made on first use: importing them here would slow down every import
    from ggn.position import Position
    from ggn.rules import Play, RuleSystem
    from ggn.ruleset import Ruleset
    from ggn.variants.registry import Entry

__all__ = [
    "DASK_HINT", "IN_FLIGHT_PER_WORKER", "KEPT", "SCHEDULER_TIMEOUT", "TASKS_PER_WORKER",
    "WINDOW_PER_WORKER", "Jobs", "Pool", "Progress", "Recipe", "check_address", "divide", "ordered",
    "perft", "processors", "runs_here", "workers",
]

KEPT: Final = 4
"""The most recipes a worker process keeps the rules of (least recently used out)."""

TASKS_PER_WORKER: Final = 16
"""Perft is split until there are at least this many positions a worker (or one ply is left
below each): enough that no worker waits long for the others at the end, few enough that the
cost of a task (a few milliseconds on a Dask cluster) is small beside its work."""

IN_FLIGHT_PER_WORKER: Final = 4
"""When this process counts beside its pool, the most tasks each worker has waiting or
running: enough that a worker still has work while this process counts a task of its own."""

DASK_HINT: Final = "Dask is not installed: pip install 'ggn[dask]'"

_R = TypeVar("_R")
_R_co = TypeVar("_R_co", covariant=True)


class Progress(Protocol):
    """Told of a perft's tasks as they are done: ``progress(tasks, nodes, total)`` says that
    ``tasks`` more tasks of ``total`` are done, holding ``nodes`` more nodes. It is called once
    with no task done as soon as the tree is split (``total`` is then known), then once a task,
    from the thread that called :func:`perft`."""

    def __call__(self, tasks: int, nodes: int, total: int, /) -> None: ...


# --- what a worker makes its rules from -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Recipe:
    """How a worker makes the rules it plays, from text only.

    Either a game (:attr:`game`) of the built-in catalogue, or of the catalogue the
    ``variants.ini`` texts of :attr:`ini` add to it (pairs of the name a text is known by in
    messages and the text, added in order); or a GGN 1.0.0 document (:attr:`document`, its
    JSON text), played under the generic rule system (``RuleSystem(ruleset)``: the Game
    Protocol's displacement, and a play is illegal if the opponent can then move onto one of
    the mover's terminal pieces), which is all a document says of its game.

    >>> Recipe.of("chess").entry().name
    'chess'
    >>> Recipe(document='{"C:K^": {"a1": {"a2": [{}]}}}').rules()
    <RuleSystem rule system>
    """

    game: str | None = None
    ini: tuple[tuple[str, str], ...] = ()
    document: str | None = None

    def __post_init__(self) -> None:
        expect(self.game, (str, type(None)), "game", "a game's name (a str) or None")
        expect(self.document, (str, type(None)), "document", "a GGN document's JSON text (a str) or None")
        if (self.game is None) == (self.document is None):
            raise TypeError("a Recipe is made from a game's name or from a document, one of the two")
        expect(self.ini, tuple, "ini", "a tuple of (source, text) pairs")
        for pair in self.ini:
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise TypeError(f"ini must hold (source, text) pairs of str, not {pair!r}")
        if self.document is not None and self.ini:
            raise TypeError("the ini texts add games: a Recipe of a document has none")

    @classmethod
    def of(cls, rules: str | Recipe | RuleSystem | Ruleset) -> Recipe:
        """The recipe of a game's name, a built-in game's rule system, a GGN document, or the
        generic rule system of a document (``RuleSystem(ruleset)``, with no start and no fixed
        board shape: the recipe of its document).

        Any other rule system (one made from ``variants.ini`` text, or by hand) cannot be
        described by its name: give a recipe with the texts it comes from.
        """
        from ggn.rules import RuleSystem  # noqa: PLC0415  (on use: see the module's imports)
        from ggn.ruleset import Ruleset  # noqa: PLC0415

        if isinstance(rules, Recipe):
            return rules
        if isinstance(rules, str):
            return cls(game=rules)
        if isinstance(rules, Ruleset):
            return cls(document=rules.dumps())
        if isinstance(rules, RuleSystem):
            from ggn.variants import registry  # noqa: PLC0415

            name = getattr(rules, "name", None)
            if isinstance(name, str) and name in registry.names() and registry.rules(name) is rules:
                return cls(game=name)
            if type(rules) is RuleSystem and rules.start is None and rules.shape is None:
                return cls(document=rules.ruleset.dumps())  # the generic rule system of a document
            raise TypeError(f"{rules!r} is not a built-in game's rule system: give "
                            "Recipe(game=NAME, ini=((SOURCE, TEXT), ...)) to have it made elsewhere")
        raise TypeError(f"rules must be a game's name, a Recipe, a RuleSystem or a Ruleset, "
                        f"not {type(rules).__name__}")

    def entry(self) -> Entry:
        """The game (a registry :class:`~ggn.variants.registry.Entry`), made once a process.
        Raise :class:`TypeError` for the recipe of a document."""
        if self.document is not None:
            raise TypeError("the recipe of a GGN document has no game: its rules are the generic "
                            "rule system (Recipe.rules())")
        return cast("Entry", _made(self))

    def rules(self) -> RuleSystem:
        """The rule system a task plays (made once a process): the game's, or the generic rule
        system of the recipe's document."""
        if self.document is not None:
            return cast("RuleSystem", _made(self))
        return self.entry().rules

    def ruleset(self) -> Ruleset:
        """The GGN document whose pseudo-legal moves a task lists: the game's own, or the
        recipe's document."""
        return self.rules().ruleset

    def __reduce__(self) -> tuple[Any, ...]:
        # Every task carries its recipe. A document's text (2 MB for chess's) goes compressed
        # (30 times smaller for chess's), compressed once a process, and a worker that has met
        # it gets back the Recipe it made then: its text is neither decoded nor hashed again.
        if self.document is None:
            return (Recipe, (self.game, self.ini))
        return (_unpacked, (_packed(self.document),))


@functools.lru_cache(maxsize=KEPT)
def _packed(document: str) -> bytes:
    """A document's text, compressed as a task carries it."""
    return zlib.compress(document.encode("utf-8"), 1)


_UNPACKED: OrderedDict[bytes, Recipe] = OrderedDict()
_UNPACKING = threading.Lock()


def _unpacked(packed: bytes) -> Recipe:
    """The recipe of a document carried compressed (:func:`_packed`): the one made when this
    process first met it (the last KEPT are kept)."""
    with _UNPACKING:  # a Dask worker may unpickle on several threads
        recipe = _UNPACKED.get(packed)
        if recipe is None:
            recipe = _UNPACKED[packed] = Recipe(document=zlib.decompress(packed).decode("utf-8"))
            while len(_UNPACKED) > KEPT:
                _UNPACKED.popitem(last=False)
        else:
            _UNPACKED.move_to_end(packed)
        return recipe


_MADE: OrderedDict[Recipe, Entry | RuleSystem] = OrderedDict()


def _made(recipe: Recipe) -> Entry | RuleSystem:
    """The rules of a recipe: made on first use in this process, then kept (the last KEPT)."""
    made = _MADE.get(recipe)
    if made is not None:
        _MADE.move_to_end(recipe)
        return made
    if recipe.document is not None:
        from ggn.rules import RuleSystem  # noqa: PLC0415
        from ggn.ruleset import Ruleset  # noqa: PLC0415

        made = RuleSystem(Ruleset.loads(recipe.document))
    else:
        assert recipe.game is not None
        from ggn.variants import registry  # noqa: PLC0415

        if recipe.ini:
            catalogue = registry.Catalogue()
            for source, text in recipe.ini:
                catalogue.add_ini(text, source)
            made = catalogue.entry(recipe.game)
        else:  # the registry's own entry: its rule system is shared with the rest of the process
            made = registry.entry(recipe.game)
    _MADE[recipe] = made
    while len(_MADE) > KEPT:
        _MADE.popitem(last=False)
    return made


# --- where tasks run ---------------------------------------------------------------------------
def processors() -> int:
    """The processors this process may run on, at least 1: ``os.process_cpu_count()``
    where Python has it (3.13 and later), else the size of the process's affinity mask
    (:func:`os.sched_getaffinity`, where the system has one: ``taskset`` and container CPU
    sets lower it), else :func:`os.cpu_count`. (A CPU quota of a container, which lets a
    process run on every processor a share of the time, is not seen.)"""
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        return max(1, count() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity mask here (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def workers(jobs: Jobs) -> int:
    """The number of worker processes ``jobs`` gives, never more than :func:`processors`:
    None is 1; 0 and ``"auto"`` are :func:`processors`; a larger number, however large, is
    lowered to it (more processes than processors would only share them); a :class:`Pool`,
    its workers. Raise :class:`TypeError` for any other type and
    :class:`~ggn.errors.GGNError` for a negative number."""
    if jobs is None:
        return 1
    if isinstance(jobs, Pool):
        return jobs.width
    if isinstance(jobs, bool) or not (isinstance(jobs, int) or jobs == "auto"):
        shown = repr(jobs)[:40] if isinstance(jobs, str) else type(jobs).__name__
        raise TypeError(f"jobs must be an int, 'auto', a Pool or None, got {shown}")
    if jobs in ("auto", 0):
        return processors()
    assert isinstance(jobs, int)
    if jobs < 0:
        raise GGNError(f"jobs must be 0 (one a processor) or more, not {jobs}")
    return min(jobs, processors())


def _check_spread(jobs: Jobs, scheduler: str | Any | None) -> None:
    """Where work is spread, checked at the call: ``jobs`` as :func:`workers` checks it,
    ``scheduler`` None, an address (:func:`check_address`) or a ``distributed.Client``."""
    workers(jobs)
    if isinstance(scheduler, str):
        check_address(scheduler)
    elif scheduler is not None and not all(hasattr(scheduler, name) for name in ("submit", "nthreads")):
        raise TypeError(f"scheduler must be a Dask scheduler's address (a str), a distributed.Client "
                        f"or None, got {type(scheduler).__name__}")


class _Future(Protocol[_R_co]):
    def result(self) -> _R_co: ...


class _Runner:
    """Where tasks run: submit functions of module level with arguments of plain values."""

    width = 1
    """How many tasks run at once."""

    def submit(self, function: Callable[..., _R], /, *args: Any) -> _Future[_R]:
        raise NotImplementedError

    def completed(self, futures: Iterable[_Future[_R]]) -> Iterator[_Future[_R]]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> _Runner:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _start_worker(cache: bool) -> None:
    """How a pool worker starts: with the compile cache on or off as in the process that
    started it (the directory comes with the environment); leaving Ctrl-C to that process
    (which then stops the pool; without this every worker would print a traceback of its
    own); and leaving at once when told to stop (see :func:`_leave`)."""
    import atexit  # noqa: PLC0415
    import signal  # noqa: PLC0415

    if not cache:
        from ggn import cache as compile_cache  # noqa: PLC0415

        compile_cache.configure(enabled=False)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    atexit.register(_leave)  # first: the exit handlers run last registered first


def _leave() -> None:
    """A worker's exit, once its pool has stopped it: its results are sent, and tearing down
    the rules it made (hundreds of thousands of objects) would take a second or more, which
    the caller's command would wait for. Run last of the exit handlers (registered first:
    after the compile cache has saved what the worker compiled), it ends the process without
    that."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os._exit(0)


class _Pool(_Runner):
    def __init__(self, jobs: int) -> None:
        import multiprocessing  # noqa: PLC0415  (only where a pool is wanted)
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

        self.width = jobs
        compile_cache = sys.modules.get("ggn.cache")  # used here already: its settings go too
        cache = compile_cache is None or compile_cache.enabled()
        self._executor = ProcessPoolExecutor(
            max_workers=jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
            initargs=(cache,),
        )

    def submit(self, function: Callable[..., _R], /, *args: Any) -> _Future[_R]:
        return self._executor.submit(function, *args)

    def completed(self, futures: Iterable[_Future[_R]]) -> Iterator[_Future[_R]]:
        from concurrent.futures import as_completed  # noqa: PLC0415

        return as_completed(futures)  # type: ignore[arg-type]

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def _distributed() -> Any:
    """The ``distributed`` module, or an ImportError saying how to install it."""
    try:
        import distributed  # noqa: PLC0415  (optional: the [dask] extra)
    except ImportError as error:
        raise ImportError(DASK_HINT) from error
    return distributed


_ADDRESS: Final = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")


def check_address(address: str) -> tuple[str, str, int]:
    """The protocol, host and port of a Dask scheduler's address, ``[PROTOCOL://]HOST:PORT``
    (protocol tcp, tls, ws, wss or ucx; tcp when left out); raise :class:`ValueError` for
    anything else."""
    expect(address, str, "scheduler", "a Dask scheduler's address or a distributed.Client")
    found = _ADDRESS.fullmatch(address)
    if found is None or not 0 < int(found.group(3)) < 65536:
        raise ValueError(f"a Dask scheduler's address is [PROTOCOL://]HOST:PORT, such as "
                         f"tcp://192.0.2.7:8786, not {address[:80]!r}")
    return found.group(1) or "tcp", found.group(2).strip("[]"), int(found.group(3))


def _probe(address: str, timeout: float) -> None:
    """Refuse, with the reason, an address where no Dask scheduler answers: Dask's client
    would retry until its timeout, then leave a half-made client behind that blocks the
    process's exit for twice as long."""
    import asyncio  # noqa: PLC0415
    import socket  # noqa: PLC0415

    protocol, host, port = check_address(address)
    distributed = _distributed()

    async def reach() -> None:
        if protocol == "tcp":  # refused at once, where Dask's connect would try again until its timeout
            socket.create_connection((host, port), timeout=timeout).close()
        security = distributed.Security().get_connection_args("client")
        comm = await distributed.comm.connect(address, timeout=timeout, **security)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(reach(), timeout))  # a server that is no scheduler may never answer
    except TimeoutError:
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: no answer in {timeout:g} s "
                              "(is it a Dask scheduler?)") from None
    except Exception as error:  # noqa: BLE001  (any failure to reach it: its reason, once)
        why = (error.strerror if isinstance(error, OSError) else None) or str(error) or type(error).__name__
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {why}") from None


class _Dask(_Runner):
    def __init__(self, scheduler: str | Any, timeout: float) -> None:
        self._own = isinstance(scheduler, str)
        if self._own:
            _probe(scheduler, timeout)
        distributed = _distributed()
        if self._own:
            try:
                self._client = distributed.Client(scheduler, timeout=timeout, set_as_default=False)
            except (OSError, ValueError, TypeError) as error:
                raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        else:
            self._client = scheduler
        threads = self._client.nthreads()
        self.width = max(1, sum(threads.values()))

    def submit(self, function: Callable[..., _R], /, *args: Any) -> _Future[_R]:
        return self._client.submit(function, *args, pure=False)  # type: ignore[no-any-return]

    def completed(self, futures: Iterable[_Future[_R]]) -> Iterator[_Future[_R]]:
        return iter(_distributed().as_completed(list(futures), loop=self._client.loop))

    def cancel(self, futures: list[_Future[Any]]) -> None:
        self._client.cancel(futures)

    def close(self) -> None:
        if self._own:
            self._client.close()


SCHEDULER_TIMEOUT: Final = 10.0
"""Seconds to wait for a Dask scheduler to answer before giving up."""


class Pool:
    """Worker processes kept for several calls: give it as ``jobs`` to :func:`perft`,
    :func:`divide`, :func:`ordered` or the functions of :mod:`ggn.batch`, and each worker
    keeps the rules it made (the last :data:`KEPT` recipes) from one call to the next.
    (:func:`perft` and :func:`divide` count in this process too, beside the workers.)
    ``Pool(jobs)`` has :func:`workers` ``(jobs)`` workers (at most one a processor), each
    started when a task first finds no worker free.

    >>> with Pool(1) as pool:
    ...     perft("chess", 2, jobs=pool), perft("chess", 3, jobs=pool)
    (400, 8902)
    """

    __slots__ = ("_runner",)

    def __init__(self, jobs: int | str | None = None) -> None:
        self._runner = _Pool(workers(jobs))

    def __repr__(self) -> str:
        return f"<Pool of {self._runner.width} worker processes>"

    @property
    def width(self) -> int:
        """The number of worker processes."""
        return self._runner.width

    def close(self) -> None:
        """Stop the workers (once the tasks given to them are done)."""
        self._runner.close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


Jobs: TypeAlias = int | str | Pool | None
"""How many worker processes: None is 1; 0 and ``"auto"`` are one a processor; or a
:class:`Pool` to use (and leave open)."""


def runs_here(jobs: Jobs, scheduler: str | Any | None) -> bool:
    """Whether work with these options is done in this process: one job (after
    :func:`workers`' cap: on one processor, every number of jobs is one), no Pool and no Dask
    scheduler. Raise :class:`TypeError` for a ``jobs`` or ``scheduler`` of the wrong type."""
    _check_spread(jobs, scheduler)
    return scheduler is None and not isinstance(jobs, Pool) and workers(jobs) == 1


@contextmanager
def _running(jobs: Jobs, scheduler: str | Any | None, *, helping: bool = False,
             tasks: int | None = None) -> Iterator[_Runner]:
    """Where the tasks of one call run, closed after it (a Pool given is left open). With
    ``helping``, this process works too: ``jobs`` processes are this one and jobs - 1 workers.
    ``tasks``, when known, caps the workers started (one a task at most)."""
    if scheduler is not None:
        runner: _Runner = _Dask(scheduler, SCHEDULER_TIMEOUT)
    elif isinstance(jobs, Pool):
        yield jobs._runner
        return
    else:
        wanted = workers(jobs) - helping
        runner = _Pool(max(1, wanted if tasks is None else min(wanted, tasks)))
    try:
        yield runner
    finally:
        runner.close()


def _cancel(runner: _Runner, futures: Iterable[_Future[Any]]) -> None:
    """Cancel what has not run (the pool's futures cancel themselves on close)."""
    if isinstance(runner, _Dask):
        runner.cancel(list(futures))


# --- perft -------------------------------------------------------------------------------------
def _perft_task(recipe: Recipe, feen: str, depth: int) -> int:
    """One task of a split perft: the count below one position (run by a worker)."""
    from ggn.rules import perft as serial  # noqa: PLC0415

    rules = recipe.rules()
    return serial(rules, depth, rules.position(feen))


@dataclass(frozen=True, slots=True)
class _Split:
    roots: int
    """The number of the root's legal plays."""
    tasks: dict[tuple[str, int], Counter[int]]
    """(FEEN of a position, the depth to count below it) -> how many times it is reached under
    each root play (its index, in the order of the root's legal plays)."""


def _split(rules: RuleSystem, start: Position, depth: int, want: int, *, levels: bool = False) -> _Split:
    """The positions to count below: the root's children, then, while there are fewer than
    ``want``, the shallowest of them replaced by its own children (while more than one ply is
    left below it); with ``levels``, the whole ply is then split, so that every position has
    the same depth below it. The positions come out deepest count first, so a worker that
    takes them in order ends on small ones. (Children are made as :func:`ggn.rules.perft`
    makes them, from the walk's effects: no play's transition is needed.)"""
    legal, child_of = rules._legal, rules._child
    plays = legal(start)
    frontier = deque((index, child_of(start, effect, child), depth - 1)
                     for index, (_, effect, child) in enumerate(plays))
    # First in, first out: the frontier's depths never grow from front to back.
    while frontier and frontier[0][2] > 1 and (
            len(frontier) < want or (levels and frontier[0][2] != frontier[-1][2])):
        index, node, remaining = frontier.popleft()
        frontier.extend((index, child_of(node, effect, child), remaining - 1)
                        for _, effect, child in legal(node))
    tasks: dict[tuple[str, int], Counter[int]] = {}
    for index, node, remaining in frontier:
        tasks.setdefault((node.to_feen(), remaining), Counter())[index] += 1
    return _Split(len(plays), tasks)


def _here(game: str | Recipe | RuleSystem, recipe: Recipe) -> RuleSystem:
    """The rules this process plays: the rule system given (the generic one of a document is
    not made again from its recipe's text), else the recipe's."""
    from ggn.rules import RuleSystem  # noqa: PLC0415

    return game if isinstance(game, RuleSystem) else recipe.rules()


def _counts(recipe: Recipe, rules: RuleSystem, depth: int, position: Position | str | None, *,
            jobs: Jobs, scheduler: str | Any | None,
            progress: Progress | None) -> tuple[Position, list[int]]:
    """The root position, and the count of paths under each of its legal plays (``rules``:
    the recipe's, made in this process)."""
    start = rules.position(position)
    if scheduler is None:  # on this machine, this process counts too
        # Split first (tasks cost little here: into positions of one depth, which differ less),
        # then start no more workers than there are tasks.
        width = jobs.width if isinstance(jobs, Pool) else workers(jobs) - 1
        split = _split(rules, start, depth, (width + 1) * TASKS_PER_WORKER, levels=True)
        if not split.tasks:  # no legal play at the root: nothing to count, no worker
            if progress is not None:
                progress(0, 0, 0)
            return start, [0] * split.roots
        with _running(jobs, None, helping=True, tasks=len(split.tasks)) as runner:
            return start, _count_beside(runner, recipe, rules, split, progress)
    with _running(jobs, scheduler) as runner:
        split = _split(rules, start, depth, runner.width * TASKS_PER_WORKER)
        under = [0] * split.roots
        futures = {runner.submit(_perft_task, recipe, *task): task for task in split.tasks}
        if progress is not None:
            progress(0, 0, len(futures))
        try:
            for future in runner.completed(futures):
                nodes = future.result()
                reached = split.tasks[futures[future]]
                for index, times in reached.items():
                    under[index] += nodes * times
                if progress is not None:
                    progress(1, nodes * sum(reached.values()), len(futures))
        except BaseException:
            _cancel(runner, futures)
            raise
    return start, under


def _count_beside(runner: _Runner, recipe: Recipe, rules: RuleSystem, split: _Split,
                  progress: Progress | None) -> list[int]:
    """The counts under each root play, the tasks shared by the workers (taking them from the
    front, :data:`IN_FLIGHT_PER_WORKER` each at most waiting or running, topped up before this
    process takes one) and this process (taking them from the back, and looking at the
    workers' results between two): no worker waits for this process, and this one counts while
    the workers start. (With two waiting or running, a worker that ended both while this
    process counted one had nothing to do: chess perft 5 on two cores was 1.1 to 1.25 times
    faster than on one; with four, 1.37 to 1.58.)"""
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415

    from ggn.rules import perft as serial  # noqa: PLC0415

    under = [0] * split.roots
    tasks = deque(split.tasks)
    total = len(tasks)
    running: dict[Any, tuple[str, int]] = {}
    if progress is not None:
        progress(0, 0, total)

    def record(task: tuple[str, int], nodes: int) -> None:
        reached = split.tasks[task]
        for index, times in reached.items():
            under[index] += nodes * times
        if progress is not None:
            progress(1, nodes * sum(reached.values()), total)

    try:
        while tasks or running:
            # The workers' results first, so that the tasks topping them up replace every one
            # that ended while this process counted: a worker never waits out this process's
            # task with nothing to do.
            for future in [future for future in running if future.done()]:
                record(running.pop(future), future.result())
            while tasks and len(running) < IN_FLIGHT_PER_WORKER * runner.width:
                task = tasks.popleft()
                running[runner.submit(_perft_task, recipe, *task)] = task
            if tasks:
                feen, depth = task = tasks.pop()
                record(task, serial(rules, depth, rules.position(feen)))
            elif running:
                for future in wait(running, return_when=FIRST_COMPLETED)[0]:
                    record(running.pop(future), future.result())
    except BaseException:
        _cancel(runner, running)
        raise
    return under


def _serial(depth: int, position: Position | str | None, jobs: Jobs, scheduler: str | Any | None,
            progress: Progress | None) -> bool:
    """Whether a perft is counted in this process: one job and no cluster, a depth of at most
    one (nothing to share), or a depth out of range (the serial function says why). The
    arguments' types are checked here, before any work."""
    from ggn.position import Position  # noqa: PLC0415
    from ggn.rules import MAX_PERFT_DEPTH  # noqa: PLC0415

    expect(depth, int, "depth", "an int")
    expect(position, (Position, str, type(None)), "position", "a Position, a FEEN string or None")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a function (tasks, nodes, total) or None, got "
                        f"{type(progress).__name__}")
    return runs_here(jobs, scheduler) or not 1 < depth <= MAX_PERFT_DEPTH


def perft(game: str | Recipe | RuleSystem, depth: int, position: Position | str | None = None, *,
          jobs: Jobs = None, scheduler: str | Any | None = None,
          progress: Progress | None = None) -> int:
    """:func:`ggn.rules.perft`, the work spread over ``jobs`` processes of this machine (None:
    1; 0 or ``"auto"``: one a processor): this process and ``jobs - 1`` workers (a
    :class:`Pool` given: its workers and this process); or over a Dask cluster (``scheduler``:
    its address, or a ``distributed.Client``), this process only sending the tasks. One job
    and no scheduler count in this process alone.

    ``game`` is what :meth:`Recipe.of` takes: a game's name, a :class:`Recipe`, a built-in
    game's rule system, or the generic rule system of a GGN document (``RuleSystem(ruleset)``),
    which each worker makes again from the document's text.

    ``progress``, if given, is told of the tasks as they are done (see :class:`Progress`;
    counted here, the whole count is one task).
    """
    from ggn.rules import perft as serial  # noqa: PLC0415

    recipe = Recipe.of(game)
    rules = _here(game, recipe)
    if _serial(depth, position, jobs, scheduler, progress):
        total = serial(rules, depth, rules.position(position))
        if progress is not None:
            progress(1, total, 1)
        return total
    _, under = _counts(recipe, rules, depth, position, jobs=jobs, scheduler=scheduler, progress=progress)
    return sum(under)


def divide(game: str | Recipe | RuleSystem, depth: int, position: Position | str | None = None, *,
           jobs: Jobs = None, scheduler: str | Any | None = None,
           progress: Progress | None = None) -> list[tuple[Play, int]]:
    """:func:`ggn.rules.divide` (each legal play of the root with the paths of ``depth - 1``
    plies after it), spread as :func:`perft` is."""
    from ggn.rules import divide as serial  # noqa: PLC0415

    recipe = Recipe.of(game)
    rules = _here(game, recipe)
    if _serial(depth, position, jobs, scheduler, progress):
        split = serial(rules, depth, rules.position(position))
        if progress is not None:
            progress(1, sum(count for _, count in split), 1)
        return split
    start, under = _counts(recipe, rules, depth, position, jobs=jobs, scheduler=scheduler,
                           progress=progress)
    plays = rules.legal_moves(start)  # in the order of the walk's plays
    return list(zip(plays, under, strict=True))


# --- tasks in order ----------------------------------------------------------------------------
WINDOW_PER_WORKER: Final = 4
""":func:`ordered` keeps at most this many tasks a worker submitted and not yet given back."""


def ordered(function: Callable[..., _R], arguments: Iterable[tuple[Any, ...]], *,
            jobs: Jobs = None, scheduler: str | Any | None = None) -> Iterator[_R]:
    """``function(*args)`` for each tuple of ``arguments``, run by the workers, given back in
    the order of ``arguments`` as soon as each is done and those before it are.

    ``arguments`` is read as the workers need it: at most :data:`WINDOW_PER_WORKER` tasks a
    worker are waiting or running at once, so memory stays bounded however many there are.
    On this machine, no more workers are started than there are tasks (the first
    :func:`workers` ``(jobs)`` are read before the pool starts). ``function`` must be a
    function of module level (a worker imports it by name). The arguments' types are checked
    at the call.
    """
    if not callable(function):
        raise TypeError(f"function must be a function of module level, got {type(function).__name__}")
    if isinstance(arguments, (str, bytes)) or not isinstance(arguments, Iterable):
        raise TypeError(f"arguments must be an iterable of tuples, got {type(arguments).__name__}")
    _check_spread(jobs, scheduler)
    return _ordered(function, iter(arguments), jobs, scheduler)


def _ordered(function: Callable[..., _R], arguments: Iterator[tuple[Any, ...]], jobs: Jobs,
             scheduler: str | Any | None) -> Iterator[_R]:
    first: list[tuple[Any, ...]] = []
    if scheduler is None and not isinstance(jobs, Pool):  # the workers a pool needs: one a task
        first = list(islice(arguments, workers(jobs)))
        if not first:
            return
    with _running(jobs, scheduler, tasks=len(first) or None) as runner:
        window: deque[_Future[_R]] = deque()
        limit = max(1, runner.width * WINDOW_PER_WORKER)
        try:
            for args in chain(first, arguments):
                window.append(runner.submit(function, *args))
                if len(window) >= limit:
                    yield window.popleft().result()
            while window:
                yield window.popleft().result()
        except BaseException:  # including GeneratorExit: the caller stopped reading
            _cancel(runner, window)
            raise
