"""The ``ggn`` command.

Everything goes through :func:`run`, which takes the arguments and the streams and returns the
exit status, so the command is testable without a subprocess; :func:`main` is the thin
console-script wrapper around it.

The exit status holds for every command, and :func:`run` keeps it in one place: 0 success;
1 invalid input (any :class:`~ggn.errors.GGNError` a command meets); 2 a usage error, input
that cannot be read, or output that cannot be written. Each failure is one message on standard
error, never a traceback.

The package
-----------
This module assembles the parser and runs a command; the rest is private:

- ``_streams``: standard output and error as commands see them, :class:`Exit` (end a command
  with a status and a message), and how failed writes are reported.
- ``_arguments``: the parser and its help formatter, typed numbers (``Bounded``, ``INDENT``),
  the options several commands share (``add_game``, ``add_ini``, ``add_position``,
  ``add_notation``, ``add_common``) and :class:`~ggn.cli._arguments.Commands`.
- ``_inputs``: FILE, ``-`` (standard input, read at most once) and ``@FILE`` arguments, and
  documents loaded from them with their violations reported.
- ``_output``: output files written whole or not at all, never over an input.
- ``_catalogue``: the games (built-in and ``--ini``), a game by name, a position as FEEN or
  FEN, a move as ``--notation`` writes it, and what a command plays (``played``: a game, or a
  GGN document given in a game's place, a file, ``-`` or ``@FILE``, under its generic rule
  system, with the note a document without a terminal piece gets).
- ``_progress``: the progress bar of a long run (tqdm, on standard error when it is a
  terminal; its docstring gives the API).
- ``_parallel``: ``--batch``, ``--jobs`` and ``--scheduler``, added to the commands that take
  them (``moves``, ``legal``, ``perft``) and run through :mod:`ggn.batch` and :mod:`ggn.parallel`.
- one module a group of commands: ``_notation`` (parse, schema), ``_documents`` (validate,
  lint, generate, demo), ``_convert`` (convert), ``_positions`` (moves, apply, diff), ``_games``
  (variants, legal, perft, play, position), ``_records`` (replay, record), ``_show`` (show),
  ``_serve`` (serve: the explorer of :mod:`ggn.web`), ``_engine`` (analyse: an engine of
  :mod:`ggn.engine`), ``_playout`` (playout: random games by :func:`ggn.rules.playout`),
  ``_completion`` (completion).

Adding a command
----------------
Write a module ``ggn/cli/_NAME.py`` with a ``register(commands)`` function and a handler, name
the module in ``_MODULES`` below (its place there is the command's place in ``ggn --help``)
and the command in ``_COMMANDS`` (a run imports only its command's module)::

    def register(commands: Commands) -> None:
        show = commands.add(
            "show", _show, summary="one line for ggn --help",
            description="The prose of ggn show --help, one long line: it is wrapped.",
            epilog="examples:\\n  ggn show chess\\n  ggn show shogi --format svg > board.svg",
        )
        add_game(show)  # the shared options, from ggn.cli._arguments
        add_format(show, "a board drawn in Unicode", "one object: ...")  # every command's

    def _show(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
        game = entry(catalogue(args, stdin), args.game)  # from ggn.cli._catalogue
        out.write(...)
        return 0

A handler takes the parsed arguments, standard output, standard error and standard input
(bytes; None for the process's own) and returns the exit status. It writes only through ``out``
and ``err``; it reads files and ``-`` through :mod:`ggn.cli._inputs`; it ends early by raising
:class:`~ggn.cli._streams.Exit` (status and message) or lets a
:class:`~ggn.errors.GGNError` out (exit 1, its message prefixed with the command's name). It
never catches everything: :func:`run` turns an unexpected exception into a report, exit 2.
Import an optional library (an extra of pyproject.toml) inside the handler, and say in the
message which extra to install when it is missing (exit 2). Give the command an epilog of
examples. The fuzz test (tests/test_fuzz_cli.py) reads every command's arguments from the parser
and fuzzes them; tests/test_hostile_cli.py's ``EVERY_COMMAND`` and
tests/test_cli_conventions.py's ``json_runs`` must name the new command.

The conventions every command keeps (tests/test_cli_conventions.py checks them):

- ``--format text|json`` (:func:`~ggn.cli._arguments.add_format`): text by default; JSON is one
  value alone on standard output. Other forms (svg, png) may be added to the choices.
- where a game or a document is read, a built-in game's name comes before a file of that name
  (``./chess`` is the file), and ``--ini`` adds games (``add_game``, ``add_ini``);
- a FEEN argument may start with '-': the parser reads any argument holding a space as an
  argument, never as an option; give ``--feen`` too where a FEEN is an argument
  (``add_position``, ``add_feen_option``);
- a long run shows progress only through :mod:`ggn.cli._progress`;
- an argument naming a file is marked for shell completion (``file_argument``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import IO, Final, NoReturn

from ggn import __version__, cache
from ggn._json import clip
from ggn.cli._arguments import Commands, Formatter, Parser
from ggn.cli._streams import Errors, Exit, Output, ReaderGone, Stream, Unwritable, settle
from ggn.errors import GGNError

__all__ = ["main", "run"]

_MODULES: Final = ("_notation", "_documents", "_convert", "_positions", "_games", "_records", "_show",
                   "_serve", "_engine", "_playout", "_completion")
"""The modules of the commands (under ``ggn.cli``), each with a ``register(commands)``
function, in help order."""

_COMMANDS: Final = {
    "parse": "_notation", "schema": "_notation",
    "validate": "_documents", "lint": "_documents", "generate": "_documents", "demo": "_documents",
    "convert": "_convert",
    "moves": "_positions", "apply": "_positions", "diff": "_positions",
    "variants": "_games", "legal": "_games", "perft": "_games", "play": "_games", "position": "_games",
    "replay": "_records", "record": "_records",
    "show": "_show",
    "serve": "_serve",
    "analyse": "_engine",
    "playout": "_playout",
    "completion": "_completion",
}
"""The module of each command: a run imports only its command's module (each reads the library
modules its commands use: the start of ``ggn moves`` need not import the converter, the SVG
writer or the web server). A command not named here is found by importing every module, as
``ggn --help`` does; tests/test_cache.py checks that the table names what the modules register."""

_DESCRIPTION = """\
General Gameplay Notation (GGN) and the notations around it.

GGN describes, for each piece (a QPI such as C:K^ or s:+p), each source square
(a CELL such as e4, or * for the hand) and each destination, the ways a move is
mechanically possible: "must" conditions that all hold and "deny" conditions
none of which holds (LCN objects).
"""

_EPILOG = """\
examples:
  ggn parse qpi 'C:+K^'            fields of a qualified piece, as JSON
  ggn parse feen '8/8/8/8/8/8/8/8 / C/c'
  ggn validate rules.json          is it a valid GGN 1.0.0 document?
  ggn validate --as stn --format json move.json
  ggn lint rules.json --board '8/8/8/8/8/8/8/8 / C/c'
  ggn schema ggn > ggn.schema.json
  ggn moves                        the 20 moves of the chess start position
  ggn moves rules.json FEEN --format json
  ggn apply FEEN '{"board_diff": {"e2": null, "e4": "C:P"}, "toggle": true}'
  ggn diff FEEN FEEN               the minimal STN transition between two positions
  ggn generate chess > chess.json  a complete GGN document of a game
  ggn convert old.json --mapping chess --effects effects.json > rules.json
  ggn perft chess 3                legal move paths of 3 plies: 8902
  ggn variants                     the games: Fairy-Stockfish's variants, by name
  ggn legal capablanca             the legal moves of a game's start, in SAN
  ggn perft rules.json 3 --feen FEEN   a GGN document played by the generic rule
  ggn play chess e4 e5 Nf3         moves in any notation (SAN, UCI, USI, GGN's);
                                   the FEN, the moves in SAN, the end of the game
  ggn play shogi 7g7f 3c3d --notation usi
  ggn replay games.pgn             check every move and result of a PGN, KIF or CSA file
  ggn record convert game.kif --to pgn  a record in another format
  ggn position shogi --fen FEN --to feen
  ggn perft mygame 3 --ini my.ini  a variant of your own (variants.ini syntax)
  ggn playout chess --games 100 --seed 1   random games to their end, by result
  ggn perft chess 4 --format json  every command takes --format text|json
  ggn lint shogi --board 9x9       a built-in game's document, a board's shape
  ggn completion bash              shell completion (the cli extra: shtab)
  ggn demo                         a tour on an embedded example
  ggn serve shogi                  explore a game in the browser (the [web] extra)
  ggn analyse chess --engine /usr/games/stockfish --depth 12   an engine's best move

how arguments are read:
  FILE       a path, or - for standard input (which a command reads at most once).
  STN        (apply) - is standard input and @PATH the file PATH; JSON text is
             what starts with {, [ or " (after any blanks), is blank, or is any
             other JSON value (true, 12, null); anything else is a path.
  RULES      (moves, and FILE of validate and lint) a built-in game's name, else
             a FILE: names come before files, so ./chess is the file chess.
             moves also reads @FILE, the file FILE whatever its name.
  GAME       a game's name (ggn variants lists them); --ini FILE adds the file's
             variants (Fairy-Stockfish's variants.ini syntax) for that command.
             legal, perft, play, show and serve read GAME|RULES: a game's
             name, else a GGN document (a FILE, - or @FILE), played by the
             generic rule (the Game Protocol's displacement; a play is illegal if
             the opponent can then move onto a terminal piece of the mover's)
             from a FEEN given: a document has no start, no FEN, and no moves but
             GGN's (docs/documents.md).
  MOVE       (play; the explorer of serve) a move in any notation, recognised
             without a flag: SAN (e4, Nf3, O-O, e8=Q), Fairy-Stockfish's named
             notations, UCI (e2e4), USI for shogi (7g7f, P*5e) or GGN's (C:P e2-e4).
  --notation how moves are written: a game's own by default (SAN, or for the
             shogi family P-76), or san, lan, uci, usi, ggn, shogi-hosking,
             shogi-hodges, shogi-hodges-number, janggi, wxf, thai-san, thai-lan.
  FEN        a position in Fairy-Stockfish's FEN of the game (--fen); FEEN is
             GGN's own (an argument, or --feen). A FEEN that starts with '-'
             (-p^7/... , a diminished piece on the first square) is an argument
             all the same: it holds spaces, which no option does. Or put -- before
             it, or give it as --feen='-p^7/...'.
  --board    (lint) a game's name, a shape (8x8, 9x10, 8x8x8, 8) or a FEEN.
  --format   text (for people, the default) or json (one JSON value on stdout,
             nothing else); a command whose output is JSON writes it either way.
  --mapping  a built-in mapping's name, else a FILE.
  numbers    whole numbers in a range each option's help gives.
  --effects  the file is written whole or not at all (a temporary file beside
             it, then renamed over it), and never over an input file.

exit status:
  0  success (lint's warnings included)
  1  invalid input: a notation, document, position, move or mapping that breaks
     its rules, or a game played on a board of the wrong shape
  2  a usage error (unknown command or option, a missing or out-of-range value),
     input that cannot be read (no such file, a directory, closed standard
     input) or output that cannot be written (a full disk, closed standard
     output)
  Each failure is one message on standard error. A reader that stops early
  (ggn moves | head -1) ends the command quietly, with status 0.

compile cache:
  A game's checked document and the code compiled from a document are kept on
  disk for the next process: in $GGN_CACHE_DIR, else the user's cache directory
  (~/.cache/ggn on Linux). ggn --no-cache COMMAND, or GGN_NO_CACHE=1, turns it off.
  Its compiled code is run, so the directory must be private: an absolute path,
  the cache's own (new, empty, or tagged CACHEDIR.TAG), not writable by others,
  nor are the directories above it (unless sticky, as /tmp); else it is not used.
"""


def _command(arguments: Sequence[str]) -> str | None:
    """The command the arguments name, when only its module need be imported (None: every
    module, for the help, an unknown option before the command, or no command)."""
    for text in arguments:
        if text == "--no-cache":
            continue
        return None if text.startswith("-") or text not in _COMMANDS else text
    return None


class _Version(argparse.Action):
    """``--version``: the version, and on a second line which engine plays: the C kernel is
    loaded to say so (only here: a command loads it on first use)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:  # noqa: A002
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        parser._print_message(f"ggn {__version__}\n{_which_engine()}\n")
        parser.exit()


def _which_engine() -> str:
    """Which engine plays in this process, in one line."""
    from ggn.rules import native_available  # noqa: PLC0415  (loads the kernel: --version only)

    if native_available():
        return ("engine: the C kernel (ggn._native) for the games it plays, pure Python for the "
                "others (ggn.rules.native_support says which)")
    if os.environ.get("GGN_PURE", "") not in ("", "0"):
        return "engine: pure Python (GGN_PURE is set: the C kernel is not used)"
    if importlib.util.find_spec("ggn._native") is None:
        return "engine: pure Python (the C kernel is not built here)"
    return "engine: pure Python (the C kernel is switched off or does not load)"


def _build_parser(out: Stream, err: Stream, command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command (or of ``command``'s module only), writing help to ``out``
    and usage errors to ``err``."""
    parser_class: type[Parser] = type("_BoundParser", (Parser,), {"out": out, "err": err})
    parser = parser_class(prog="ggn", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=Formatter)
    parser.add_argument("--version", action=_Version,
                        help="print the version of ggn and the engine that plays (the C kernel or pure "
                             "Python), and exit")
    parser.add_argument(
        "--no-cache", action="store_true",
        help="neither read nor write the compile cache: make every document and generator in "
             "this process (as GGN_NO_CACHE=1 does)")
    commands = Commands(parser.add_subparsers(dest="command", metavar="COMMAND"))
    for name in _MODULES if command is None else (_COMMANDS[command],):
        importlib.import_module(f"ggn.cli.{name}").register(commands)
    return parser


def _dispatch(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    """Run the command ``args`` names: the handler its module registered."""
    status: int = args._handler(args, out, err, stdin)
    return status


def run(
    argv: Sequence[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[bytes] | None = None,
) -> int:
    """Run the command with ``argv`` (without the program name); return the exit status.

    ``stdout``, ``stderr`` and ``stdin`` default to the process's own streams (``stdin`` is read
    as bytes). Every outcome is an exit status and at most one message: a library error on the
    input is 1; an unreadable input, an unwritable output or a usage error is 2; an unexpected
    fault is 2 too, with a message asking for a report.
    """
    out = Output(stdout if stdout is not None else sys.stdout)
    err = Errors(stderr if stderr is not None else sys.stderr)
    label = "ggn"  # the command, as messages name it
    try:
        arguments = list(sys.argv[1:] if argv is None else argv)
        parser = _build_parser(out, err, _command(arguments))
        try:
            args, extra = parser.parse_known_args(arguments)
            moving = args.command in ("play", "analyse")
            if extra and moving and not any(text.startswith("-") for text in extra):
                # Moves after an option (ggn play chess --fen FEN e2e4): argparse gives the
                # positional arguments it meets after an option to no one.
                args.moves += extra
            elif extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            if args.command is None:  # no command: a usage error, the help on standard error
                err.write(parser.format_help())
                status = 2
            else:
                label = f"ggn {args._label(args) if args._label else args.command}"
                if args.no_cache:
                    with cache.off():
                        status = _dispatch(args, out, err, stdin)
                else:
                    status = _dispatch(args, out, err, stdin)
        except Exit as stop:
            status = stop.status
            if stop.message:
                err.write(f"{stop.message}\n" if stop.bare else f"{label}: {stop.message}\n")
        out.flush()
    except ReaderGone:
        return 0  # the reader stopped reading (ggn moves | head -1): not a failure of ours
    except Unwritable as failure:
        err.write(f"{label}: cannot write to standard output: {failure.reason}\n")
        return 2
    except GGNError as error:
        err.write(f"{label}: {error}\n")
        return 1
    except MemoryError:
        err.write(f"{label}: out of memory\n")
        return 2
    except Exception as error:  # noqa: BLE001  (the last resort: a message, never a traceback)
        err.write(f"{label}: internal error ({type(error).__name__}: {clip(str(error), 200)}); please "
                  "report it, with the command that caused it\n")
        return 2
    return status


def main() -> NoReturn:
    """Console-script entry point."""
    try:
        status = run()
    except KeyboardInterrupt:
        status = 130
    settle(sys.stdout)
    settle(sys.stderr)
    sys.exit(status)
