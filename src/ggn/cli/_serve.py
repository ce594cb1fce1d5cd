"""The command ``serve``: the local explorer in the browser (:mod:`ggn.web`, the ``[web]`` extra).

It offers the built-in games and the variants of each ``--ini`` file (played by their rule
systems, drawn with their glyphs). What it opens with (a game, or a GGN file, and a position)
and the ``--ini`` files are checked before anything listens: an unknown name that is no file
either, an ``--ini`` file with an error, a document with faults (its violations on
standard error) or a bad position end the command as every other command would. Then the
socket is bound (an address in use: exit 2), the explorer's URL is written on standard output,
and the server runs until Ctrl-C.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
from typing import IO, Any, Final

from ggn.cli._arguments import (
    Bounded,
    Commands,
    add_format,
    add_ini,
    add_position,
    add_rules,
    feen,
)
from ggn.cli._catalogue import catalogue
from ggn.cli._inputs import check_file, document, read
from ggn.cli._streams import Exit, Output, Stream, reason
from ggn.ruleset import Ruleset
from ggn.variants.registry import Catalogue

PORT: Final = Bounded(0, 65535)


def register(commands: Commands) -> None:
    from ggn.web import DEFAULT_HOST, DEFAULT_PORT  # noqa: PLC0415  (no web library imported)

    serve = commands.add(
        "serve", _serve, summary="explore games and GGN documents in the browser",
        description="Run a local explorer in the browser: choose a game (a built-in one, or a "
                    "variant of an --ini file) or paste a GGN "
                    "document and a FEEN; click a piece to see its destinations and, for each, "
                    "the possibilities (must/deny) that allow it; play legal moves (a pasted "
                    "document: its pseudo-legal moves), with promotion choices, undo and redo; "
                    "read the FEEN, and a game's FEN, of the position; see every fault of a "
                    "pasted document with its JSON Pointer. It opens with RULES and the "
                    "position given, writes its URL on standard output, and runs until Ctrl-C. "
                    f"It listens on {DEFAULT_HOST} (this machine only) unless --host says "
                    "otherwise. Needs the [web] extra: pip install 'ggn[web]'.",
        epilog="examples:\n  ggn serve                  # chess, at http://127.0.0.1:8000/\n"
               "  ggn serve shogi --port 8080\n"
               "  ggn serve xiangqi --fen "
               "'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'\n"
               "  ggn serve rules.json '8/8/8/8/8/8/8/4K^3 / C/c'\n"
               "  ggn serve wizardchess --ini wizard.ini   # and every built-in game",
    )
    add_rules(serve)
    add_position(serve, positional=True)
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"the address to listen on (default {DEFAULT_HOST}: this machine only; "
                            "any other lets whoever reaches it use the explorer)")
    serve.add_argument("--port", type=PORT, default=DEFAULT_PORT,
                       help=f"the port to listen on, 0 to 65535; 0 takes a free one, which the URL printed "
                            f"names (default {DEFAULT_PORT})")
    add_ini(serve)
    add_format(serve, "a line with the explorer's URL, once it listens",
               '{"url": URL}, one line, once it listens')


def _initial(args: argparse.Namespace, stdin: IO[bytes] | None, err: Stream,
             games: Catalogue) -> dict[str, Any]:
    """What the explorer opens with, checked: a :class:`~ggn.errors.GGNError` (exit 1) for a bad
    position, a document's violations (exit 1), exit 2 for a file that cannot be read."""
    from ggn.web._explorer import Subject  # noqa: PLC0415  (the library side: no web library)

    given = feen(args)
    if given is not None and args.fen is not None:
        raise Exit(2, "give the position once: as FEEN or with --fen")
    if args.rules in games:
        text = given if given is not None else args.fen
        Subject.game(args.rules, games).state(text)
        return {"game": args.rules, "position": text}
    check_file(args.rules, "game", ["ggn variants lists them"])
    if args.fen is not None:
        raise Exit(2, "--fen is a built-in game's position: give a GGN file's position in FEEN")
    data = read(args.rules, stdin)
    document(Ruleset, args.rules, stdin, err, data)
    text = bytes(data).decode("utf-8") if not isinstance(data, str) else data
    if given is not None:
        Subject.document(text).state(given)
    return {"document": text, "position": given}


def _serve(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    from ggn import web  # noqa: PLC0415  (its web libraries are imported only when it runs)

    absent = web.missing()
    if absent:
        raise Exit(2, f"the explorer needs {' and '.join(absent)}: {web.INSTALL}")
    if args.rules == "-" and "-" in args.ini:
        raise Exit(2, "standard input is read once: give RULES or --ini as a file")
    games = catalogue(args, stdin)
    initial = _initial(args, stdin, err, games)

    def ready(url: str) -> None:
        out.write(json.dumps({"url": url}) + "\n" if args.format == "json"
                  else f"ggn explorer: {url} (Ctrl-C stops it)\n")
        if isinstance(out, Output):
            out.flush()
        if not _local(args.host):
            err.write(f"ggn serve: listening on {args.host}: whoever can reach this machine there "
                      "can use the explorer\n")

    try:
        web.serve(initial, args.host, args.port, ready=ready, catalogue=games)
    except OSError as error:
        raise Exit(2, f"cannot listen on {args.host} port {args.port}: {reason(error)}") from None
    return 0


def _local(host: str) -> bool:
    """Whether ``host`` is this machine only (a loopback address, or localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
