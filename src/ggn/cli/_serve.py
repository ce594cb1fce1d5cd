"""The command ``serve``: the local explorer in the browser (:mod:`ggn.web`, the ``[web]`` extra).

It offers the built-in games and the variants of each ``--ini`` file (played by their rule
systems, drawn with their glyphs). What it opens with (a game, or a GGN file, and a position)
and the ``--ini`` files are checked before anything listens: an unknown name that is no file
either, an ``--ini`` file with an error, a document with faults (its violations on
standard error) or a bad position end the command as every other command would. Then the
socket is bound (an address in use: exit 2), the explorer's URL is written on standard output,
and the server runs until Ctrl-C or SIGTERM. A GGN document is played under the generic rule
system (:class:`ggn.rules.RuleSystem`). Each request's work is done by a worker process,
within the limits of :mod:`ggn.web._limits` (``--time-limit`` and ``--workers`` set two).
With ``--engine``, the engine is started once before anything listens (its handshake read, its
name kept), then for each position the page asks it about (:mod:`ggn.web._analysis`).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any, Final

from ggn.cli._arguments import (
    Bounded,
    Commands,
    add_format,
    add_ini,
    add_position,
    add_rules,
    feen,
)
from ggn.cli._catalogue import catalogue, check_rules_file, rules_file
from ggn.cli._inputs import document, read, shown
from ggn.cli._streams import Exit, Output, Stream, reason
from ggn.errors import GGNError
from ggn.ruleset import Ruleset
from ggn.variants.registry import Catalogue

if TYPE_CHECKING:
    from ggn.web import EngineSettings, Limits

PORT: Final = Bounded(0, 65535)
SECONDS: Final = Bounded(1, 3600)
WORKERS: Final = Bounded(1, 64)
MOVETIME: Final = Bounded(1, 60_000)


def register(commands: Commands) -> None:
    from ggn.web import DEFAULT_HOST, DEFAULT_PORT, Limits  # noqa: PLC0415  (no web library imported)

    limits = Limits()
    serve = commands.add(
        "serve", _serve, summary="explore games and GGN documents in the browser",
        description="Run a local explorer in the browser: choose a game (a built-in one, or a "
                    "variant of an --ini file) or paste a GGN "
                    "document and a FEEN; click a piece to see its destinations and, for each, "
                    "the possibilities (must/deny) that allow it; play legal moves, with "
                    "promotion choices, undo and redo, and see the game's end; "
                    "read the FEEN, and a game's FEN, of the position; see every fault of a "
                    "pasted document with its JSON Pointer. A GGN document is played under the "
                    "generic rule system: a play is illegal if the opponent can then move onto "
                    "one of the mover's terminal (^) pieces, a piece taken goes to the mover's "
                    "hand, and a player with no legal play loses; with no terminal piece in play, "
                    "no play is illegal, and the page says so. It opens with RULES and the "
                    "position given, writes its URL on standard output, and runs until Ctrl-C or "
                    f"SIGTERM. It listens on {DEFAULT_HOST} (this machine only) unless --host says "
                    "otherwise. Each request's work is done by a worker process, and bounded: a "
                    f"body of at most {_mib(limits.body)}, a position of at most "
                    f"{limits.position:,} characters, {limits.squares:,} squares and "
                    f"{limits.pieces:,} pieces, {limits.moves:,} moves and an answer of "
                    f"{_mib(limits.answer)}, {limits.seconds:g} s of work (--time-limit) and "
                    f"{_mib(limits.memory or 0)} of memory a worker, {limits.requests} requests "
                    "held at once; a request over a limit "
                    "is refused (413 or 503) with the limit's name. "
                    "Needs the [web] extra: pip install 'ggn[web]'.",
        epilog="examples:\n  ggn serve                  # chess, at http://127.0.0.1:8000/\n"
               "  ggn serve shogi --port 8080\n"
               "  ggn serve xiangqi --fen "
               "'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'\n"
               "  ggn serve rules.json '8/8/8/8/8/8/8/4K^3 / C/c'\n"
               "  ggn serve wizardchess --ini wizard.ini   # and every built-in game\n"
               "  ggn serve chess --engine /usr/games/stockfish   # its best move as an arrow\n"
               "  ggn serve shogi --engine fairy-stockfish --engine-movetime 3000",
    )
    add_rules(serve, at=True)
    add_position(serve, positional=True)
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"the address to listen on (default {DEFAULT_HOST}: this machine only; "
                            "any other lets whoever reaches it use the explorer)")
    serve.add_argument("--port", type=PORT, default=DEFAULT_PORT,
                       help=f"the port to listen on, 0 to 65535; 0 takes a free one, which the URL printed "
                            f"names (default {DEFAULT_PORT})")
    serve.add_argument("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
                       help=f"the longest one request may work, 1 to 3600 seconds; its worker is then "
                            f"stopped and the request refused (default {limits.seconds:g})")
    serve.add_argument("--workers", type=WORKERS, default=None, metavar="N",
                       help=f"the worker processes doing the requests' work, 1 to 64; while one is "
                            f"busy, another answers (default {limits.workers})")
    serve.add_argument("--engine", metavar="PATH",
                       help="an engine (UCI, USI or UCCI: Stockfish, Fairy-Stockfish) whose best move "
                            "the page shows as an arrow on the board, with its score: a path, or a name "
                            "on PATH or in /usr/games (see ggn analyse)")
    serve.add_argument("--engine-protocol", choices=["uci", "usi", "ucci"], default="uci",
                       help="the engine's protocol (default uci)")
    serve.add_argument("--engine-movetime", type=MOVETIME, default=1000, metavar="MS",
                       help="the engine's time for each position, 1 to 60,000 milliseconds (default "
                            "1000); at most half the time limit of a request")
    add_ini(serve)
    add_format(serve, "a line with the explorer's URL, once it listens",
               '{"url": URL}, one line, once it listens')


def _mib(size: int) -> str:
    """A size in bytes, in MiB."""
    return f"{size / 2**20:,g} MiB"


def _initial(args: argparse.Namespace, stdin: IO[bytes] | None, err: Stream,
             games: Catalogue, limits: Limits) -> dict[str, Any]:
    """What the explorer opens with, checked: a :class:`~ggn.errors.GGNError` (exit 1) for a bad
    position, a document's violations (exit 1), exit 2 for a file that cannot be read."""
    from ggn.web._explorer import Subject  # noqa: PLC0415  (the library side: no web library)

    given = feen(args)
    if given is not None and args.fen is not None:
        raise Exit(2, "give the position once: as FEEN or with --fen")
    if args.rules in games:
        text = given if given is not None else args.fen
        Subject.game(args.rules, games).state(text, limits=limits)
        return {"game": args.rules, "position": text}
    check_rules_file(args.rules)
    if args.fen is not None:
        raise Exit(2, "--fen is a built-in game's position: give a GGN file's position in FEEN")
    path = rules_file(args.rules)  # @FILE is the file FILE, whatever its name
    data = read(path, stdin)
    document(Ruleset, path, stdin, err, data)
    text = bytes(data).decode("utf-8") if not isinstance(data, str) else data
    if given is not None:
        # Checked, not kept: the server's process plays nothing (its workers do).
        Subject.document(text, replace(limits, kept=0)).state(given, limits=limits)
    # The page sends the document back with each request: one the explorer would refuse is
    # refused now, with the same message.
    body = len(json.dumps({"document": text, "position": given}, ensure_ascii=False).encode())
    most = limits.body
    if body > most:
        raise GGNError(f"{shown(args.rules)}: a request with this document is {body:,} bytes, over the "
                       f"{most:,} bytes of a request's body the explorer reads (its limit 'body')")
    return {"document": text, "position": given}


def _serve(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    from ggn import web  # noqa: PLC0415  (its web libraries are imported only when it runs)

    absent = web.missing()
    if absent:
        raise Exit(2, f"the explorer needs {' and '.join(absent)}: {web.INSTALL}")
    if args.rules == "-" and "-" in args.ini:
        raise Exit(2, "standard input is read once: give RULES or --ini as a file")
    games = catalogue(args, stdin)
    chosen = {name: value for name, value in (("seconds", args.time_limit), ("workers", args.workers))
              if value is not None}
    limits = web.Limits(**chosen)
    initial = _initial(args, stdin, err, games, limits)
    engine = _engine(args, limits)

    def ready(url: str) -> None:
        out.write(json.dumps({"url": url}) + "\n" if args.format == "json"
                  else f"ggn explorer: {url} (Ctrl-C stops it)\n")
        if isinstance(out, Output):
            out.flush()
        if not _local(args.host):
            err.write(f"ggn serve: listening on {args.host}: whoever can reach this machine there "
                      "can use the explorer\n")

    try:
        web.serve(initial, args.host, args.port, ready=ready, catalogue=games, limits=limits, engine=engine)
    except OSError as error:
        raise Exit(2, f"cannot listen on {args.host} port {args.port}: {reason(error)}") from None
    return 0


def _engine(args: argparse.Namespace, limits: Limits) -> EngineSettings | None:
    """The engine of --engine, started once to read its handshake (an engine that cannot be
    run or does not speak its protocol ends the command, before anything listens)."""
    if args.engine is None:
        return None
    from ggn.cli._engine import engine_path  # noqa: PLC0415
    from ggn.engine import Engine  # noqa: PLC0415
    from ggn.web import EngineSettings  # noqa: PLC0415

    program = engine_path(args.engine)
    if args.engine_movetime > limits.seconds * 1000 / 2:
        raise Exit(2, f"--engine-movetime {args.engine_movetime} is over half the time limit of a "
                      f"request ({limits.seconds:g} s): give a shorter one, or a longer --time-limit")
    with Engine(program, protocol=args.engine_protocol) as engine:
        name = engine.name
    return EngineSettings(program, args.engine_protocol, args.engine_movetime, name)


def _local(host: str) -> bool:
    """Whether ``host`` is this machine only (a loopback address, or localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
