"""Work of many positions, or spread over processes and machines, for the commands that take it:
``--batch FILE|-`` (``moves``, ``legal``: a position a line in, a JSON list a line out, through
:mod:`ggn.batch`), ``--jobs N|auto`` and ``--scheduler ADDRESS`` (``perft``, and the two with
``--batch``: through :mod:`ggn.parallel`).

This module adds those options to the commands' parsers and runs them; the commands' own
modules call it. Its failures follow the exit status of every command: a Dask that is not
installed, a scheduler that does not answer or a worker process that died are exit 2, with
one message; bad lines of a batch are exit 1, once every line has been answered.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Final

from ggn.cli._catalogue import (
    Played,
    catalogue_of,
    entry,
    ini_texts,
    refuse_notation,
    rules_document,
    rules_file,
    tell,
)
from ggn.cli._inputs import check_name, shown, standard_input
from ggn.cli._progress import progress
from ggn.cli._streams import Exit, Stream, reason
from ggn.variants.registry import BUILTIN

if TYPE_CHECKING:
    from ggn.parallel import Recipe
    from ggn.position import Position
    from ggn.rules import RuleSystem
    from ggn.ruleset import Ruleset
    from ggn.variants.registry import Entry

_DIGITS: Final = 18
"""A --jobs of more digits is read as 10**18: more than any machine's processors, which cap it."""


def _jobs(text: str) -> int | str:
    if text == "auto":
        return text
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of processes: expected "
                                         "auto or a whole number, 0 (auto) or more")
    return int(text, 10) if len(text) <= _DIGITS else 10**_DIGITS


def _address(text: str) -> str:
    from ggn.parallel import check_address  # noqa: PLC0415  (on use: the command starts faster)

    try:
        check_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def add_spread(parser: argparse.ArgumentParser, what: str) -> None:
    """--jobs and --scheduler: where ``what`` is done."""
    spread = parser.add_mutually_exclusive_group()
    spread.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                        help=f"{what} on N worker processes of this machine (0 or auto: one a "
                             "processor; default 1, in this process); never more than the processors "
                             "this process may use (a larger N is lowered, with a note) nor than "
                             "there are tasks")
    spread.add_argument("--scheduler", type=_address, metavar="ADDRESS",
                        help=f"{what} on the workers of a Dask cluster, given its scheduler's address "
                             "(tcp://HOST:8786); needs pip install 'ggn[dask]', and ggn on every worker")


def add_batch(parser: argparse.ArgumentParser, *, spread: bool = True,
              answer: str = "one JSON list a line out") -> None:
    """--batch FILE|- and (with ``spread``) the options that spread a batch; ``answer`` says
    what each line's answer is."""
    parser.add_argument("--batch", metavar="FILE",
                        help="answer every position of FILE (- for standard input), one a line: "
                             f"FEEN, or the game's FEN (a GGN document's: FEEN); {answer} "
                             "(whatever --format says), in the same order "
                             "(null for a bad line, whose error goes to standard error with its line "
                             "number: exit 1 at the end); blank lines are skipped")
    if spread:
        add_spread(parser, "answer the batch")


def spread(args: argparse.Namespace) -> bool:
    """Whether the command's work goes to worker processes or a cluster."""
    return args.scheduler is not None or args.jobs not in (None, 1)


def note_lowered(args: argparse.Namespace, err: Stream, label: str) -> None:
    """Say on standard error that --jobs asks for more processes than processors: the work
    runs on one a processor (:func:`ggn.parallel.workers`), as more would only share them."""
    from ggn.parallel import processors  # noqa: PLC0415  (on use: the command starts faster)

    if isinstance(args.jobs, int) and args.jobs > (most := processors()):
        err.write(f"{label}: note: --jobs lowered to {most}, the processors this process may use "
                  "(more processes would only share them)\n")


def check_no_spread(args: argparse.Namespace) -> None:
    """--jobs and --scheduler spread a batch: without --batch they are a usage error."""
    if args.batch is None and (args.jobs is not None or args.scheduler is not None):
        option = "--jobs" if args.jobs is not None else "--scheduler"
        raise Exit(2, f"{option} spreads the work of --batch: give --batch FILE too")


@contextlib.contextmanager
def _failures() -> Iterator[None]:
    """The failures of the machinery as exits with one message: Dask missing, a scheduler
    that does not answer, a worker process or a Dask worker lost for good."""
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    from ggn.parallel import DASK_HINT  # noqa: PLC0415

    try:
        yield
    except ImportError as error:
        if str(error) != DASK_HINT:
            raise
        raise Exit(2, DASK_HINT) from None
    except ConnectionError as error:
        raise Exit(2, str(error)) from None
    except BrokenProcessPool:
        raise Exit(2, "a worker process ended without finishing its work (killed, or out of "
                      "memory?)") from None
    except Exception as error:
        if type(error).__name__ != "KilledWorker":  # distributed's, when a task lost its workers
            raise
        raise Exit(2, f"the Dask cluster lost the workers of a task too often: {error}") from None


# --- perft -------------------------------------------------------------------------------------
def recipe_of(game: Entry, texts: tuple[tuple[str, str], ...]) -> Recipe:
    """The recipe a worker makes ``game`` from: its name, and the --ini texts for a game of
    theirs."""
    from ggn.parallel import Recipe  # noqa: PLC0415  (on use: the command starts faster)

    return Recipe(game=game.name, ini=() if game.source == BUILTIN else texts)


def perft_split(args: argparse.Namespace, err: Stream, *, game: Played, where: Position,
                description: str) -> list[tuple[str, int]]:
    """Perft by root move (as --divide prints them), spread as --jobs or --scheduler say; the
    progress bar advances a task at a time. The workers make the rules from ``game``'s recipe
    (a GGN document's generic rule system from its text)."""
    from ggn import parallel  # noqa: PLC0415

    note_lowered(args, err, "ggn perft")
    # A document's rule system itself (this process counts with it; the workers get its
    # recipe), a game's recipe (its rules are the registry's, made once a process).
    rules = game.rules if game.game is None else game.recipe()

    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def told(tasks: int, nodes: int, total: int) -> None:
            if not bars:
                bars.append(stack.enter_context(progress(err, total=total, unit="task", work="node",
                                                         description=description)))
            bars[0].advance(tasks, work=nodes)

        with _failures():
            split = parallel.divide(rules, args.depth, where, jobs=args.jobs,
                                    scheduler=args.scheduler, progress=told)
    return [(game.move(where, play, args.notation) if args.divide else str(play), count)
            for play, count in split]


# --- batches -----------------------------------------------------------------------------------
@contextlib.contextmanager
def _opened(name: str, stdin: IO[bytes] | None) -> Iterator[Iterable[bytes | str]]:
    """The lines of FILE or of standard input (-), read as they are answered."""
    from ggn.batch import lines_of  # noqa: PLC0415

    if name == "-":
        stream = standard_input(stdin)
        if stream is None:
            raise Exit(2, "--batch: cannot read standard input: it is closed")
        yield stream if isinstance(stream, io.TextIOBase) else lines_of(stream)  # type: ignore[arg-type]
        return
    check_name(name, "--batch")
    try:
        opened = open(name, "rb")  # noqa: SIM115  (a context manager of its own: closed below)
    except OSError as error:
        raise Exit(2, f"--batch: cannot read {shown(name)}: {reason(error)}") from None
    with opened:
        yield lines_of(opened)


def run_batch(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None, *,
              kind: str, rules: str | RuleSystem | Ruleset | Recipe, label: str) -> int:
    """Answer every line of --batch: a JSON value a line on ``out`` (``null`` for a bad line,
    whose error goes to ``err``), flushed line by line; exit 1 if a line was bad."""
    from ggn import batch  # noqa: PLC0415

    note_lowered(args, err, label)
    bad = 0
    flush: Callable[[], object] = getattr(out, "flush", lambda: None)
    with (_opened(args.batch, stdin) as lines, _failures(),
          progress(err, total=None, unit="position", description=f"{label} --batch") as bar):
        if kind == "moves":
            results = batch.moves(rules, lines, jobs=args.jobs, scheduler=args.scheduler)
        elif kind == "perft":
            results = batch.perft(rules, lines, args.depth, divide=args.divide,  # type: ignore[arg-type]
                                  notation=args.notation, jobs=args.jobs, scheduler=args.scheduler)
        else:
            results = batch.legal(rules, lines, notation=args.notation, jobs=args.jobs,  # type: ignore[arg-type]
                                  scheduler=args.scheduler)
        try:
            for result in results:
                if result.json is None:
                    bad += 1
                    err.write(f"{label}: line {result.line}: {result.error}\n")
                    out.write("null\n")
                else:
                    out.write(result.json + "\n")
                flush()
                bar.advance(note=f"line {result.line}")
        except OSError as error:  # the input failed while it was read
            raise Exit(2, f"--batch: cannot read {shown(args.batch)}: {reason(error)}") from None
    return 1 if bad else 0


def batch_rules(args: argparse.Namespace, stdin: IO[bytes] | None, err: Stream, *,
                label: str) -> Recipe | RuleSystem:
    """What ``legal --batch`` plays: the game's rule system, or a GGN document's generic one
    (``RuleSystem(ruleset)``; FEEN lines only, --notation uci refused, and a
    :func:`~ggn.cli._catalogue.note` on ``err`` if it names no terminal piece), or its recipe
    when the batch is spread."""
    if args.batch == "-" and "-" in (args.game, *args.ini):
        raise Exit(2, "standard input is read once: give --batch or GAME|RULES and --ini as files")
    texts = ini_texts(args, stdin)
    games = catalogue_of(texts)
    if args.game in games:
        game = entry(games, args.game)
        return recipe_of(game, texts) if spread(args) else game.rules
    if not args.game.startswith("@") and args.game != "-" and not os.path.exists(args.game):
        entry(games, args.game, files=True)  # no game, no file: the games it is close to
    refuse_notation(args.notation)
    from ggn.rules import RuleSystem  # noqa: PLC0415  (on use: ggn moves imports no rule system)

    document = Played(RuleSystem(rules_document(args, args.game, stdin, err)),
                      shown(rules_file(args.game)))
    tell(err, label, document, None)
    return document.recipe() if spread(args) else document.rules


def refuse_positions(args: argparse.Namespace) -> None:
    """--batch reads the positions: one given as well is a usage error."""
    if any(getattr(args, name, None) is not None for name in ("feen", "feen_option", "fen")):
        raise Exit(2, "--batch reads the positions from its file: give no FEEN or --fen with it")
