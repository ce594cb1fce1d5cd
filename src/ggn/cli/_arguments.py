"""The argument parsing of the ``ggn`` command: the parser, its help formatter, typed numbers,
the options several commands share, and :class:`Commands`, what a command module's
``register`` function is given to add its command.
"""

from __future__ import annotations

import argparse
import itertools
import re
import textwrap
from collections.abc import Callable
from typing import IO, Any, ClassVar, Final, NoReturn

from ggn._decimal import decimal_value, shown
from ggn._json import DEFAULT_MAX_ERRORS, quote
from ggn.cli._streams import Exit, Stream

Handler = Callable[[argparse.Namespace, Stream, Stream, "IO[bytes] | None"], int]
"""A command: its arguments, standard output, standard error and standard input (bytes, or None
for the process's own) in; the exit status out. It writes only through the streams it is given,
reads files and standard input through :mod:`ggn.cli._inputs`, and ends early by raising
:class:`~ggn.cli._streams.Exit` (or any :class:`~ggn.errors.GGNError`, which is exit 1)."""

MAX_INDENT: Final = 16
"""Widest JSON indentation: more only makes the output bigger (a huge one once ran out of memory)."""

MAX_ERRORS: Final = 100_000
"""Most violations --max-errors can ask for."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that writes to the streams given to :func:`ggn.cli.run` and never exits."""

    out: ClassVar[Stream]
    err: ClassVar[Stream]

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:  # only help and usage asked for come here: they go to standard output
            self.out.write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise Exit(status, (message or "").rstrip("\n"), bare=True)

    def error(self, message: str) -> NoReturn:
        self.err.write(self.format_usage())
        raise Exit(2, f"{self.prog}: error: {message}", bare=True)

    literal: bool = False
    """Whether an argument that starts with '-' and is none of the command's options is one of
    its arguments (parse's TEXT: -p is a diminished piece), rather than an unknown option."""

    def _parse_optional(self, arg_string: str) -> Any:
        """None when ``arg_string`` is an argument, not an option: a text with a space before
        any '=' (a FEEN such as '-p^7/8 / C/c', whose fields are separated by spaces: no option
        has one), or for a :attr:`literal` command, anything that is not one of its options."""
        if arg_string[:1] in self.prefix_chars and arg_string != "--":
            name = arg_string.split("=", 1)[0]
            if " " in name or (self.literal and name not in self._option_string_actions):
                return None
        return super()._parse_optional(arg_string)


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help whose prose is wrapped to the terminal's width (a description is one long line in
    the source) and whose indented lines, examples and tables, are kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines: list[str] = []
        for prose, group in itertools.groupby(text.splitlines(), lambda line: line[:1].strip() != ""):
            if prose:
                lines.append(textwrap.fill(" ".join(group), width, initial_indent=indent,
                                           subsequent_indent=indent))
            else:
                lines.extend(indent + line for line in group)
        return "\n".join(lines)


class Bounded:
    """An argparse type: a whole number from ``low`` to ``high``, read strictly (ASCII digits,
    an optional sign), so that no number is too long to convert and no range is left open."""

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high
        self.__name__ = "whole number"  # argparse names the type by it

    def __call__(self, text: str) -> int:
        expected = f"a whole number from {self.low} to {self.high}"
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise argparse.ArgumentTypeError(f"{quote(text, 24)} is not a whole number; expected {expected}")
        value = decimal_value(text.lstrip("+-")) * (-1 if text[0] == "-" else 1)
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"{shown(value)} is out of range; expected {expected}")
        return value


INDENT: Final = Bounded(0, MAX_INDENT)
ERRORS_ALLOWED: Final = Bounded(1, MAX_ERRORS)


class Commands:
    """The commands of ``ggn`` being assembled: what each command module's ``register`` is given.

    :meth:`add` adds one command, with its handler, and returns its parser for the command's
    own arguments.
    """

    def __init__(self, subparsers: argparse._SubParsersAction[Any]) -> None:
        self._subparsers = subparsers

    def add(self, name: str, handler: Handler, *, summary: str, description: str, epilog: str,
            label: Callable[[argparse.Namespace], str] | None = None,
            literal: bool = False) -> argparse.ArgumentParser:
        """Add the command ``name``, run by ``handler``.

        ``summary`` is its line in ``ggn --help``, ``description`` the prose of ``ggn NAME
        --help`` (one long line: it is wrapped to the terminal) and ``epilog`` its examples
        (indented lines, kept as written: every command has some). ``label`` names the command
        in its messages when ``ggn NAME`` is not enough (``ggn parse cell``). ``literal``: an
        argument that starts with '-' and is none of the command's options is an argument
        (:attr:`Parser.literal`).
        """
        parser: argparse.ArgumentParser = self._subparsers.add_parser(
            name, help=summary, description=description, epilog=epilog, formatter_class=Formatter,
        )
        if isinstance(parser, Parser):
            parser.literal = literal
        parser.set_defaults(_handler=handler, _label=label)
        return parser


# --- options several commands share ------------------------------------------------------------
INI_HELP: Final = ("a variants.ini file (Fairy-Stockfish's syntax) whose variants are added to the "
                   "games, for this command; repeat it for several files (a later file may inherit "
                   "from an earlier one's variants)")
FEN_EXAMPLE: Final = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
DASHED: Final = ("a FEEN that starts with '-' (a diminished piece on the first square, -p^7/...) "
                  "is read as the position too: it holds spaces, which no option does; or put "
                  "-- before it, or give it with --feen")
DASHED_ARGUMENT: Final = ("a FEEN that starts with '-' (-p^7/...) is read as one too: it holds "
                           "spaces, which no option does; or put -- before the FEENs")
MY_INI: Final = "[tinyhouse:crazyhouse]\\nmaxRank = 6\\nstartFen = ..."


FILES: Final = {"bash": "_shtab_compgen_files", "zsh": "_files"}
"""Shell completion of an argument that names a file (shtab's ``FILE``, written here so that
shtab is imported only by ``ggn completion``): ``argument.complete = FILES``."""


GAMES: Final = {"bash": "_ggn_compgen_games", "zsh": "_ggn_games"}
"""Shell completion of a game's name: the built-in games (the functions are written by
``ggn completion``)."""

GAMES_OR_FILES: Final = {"bash": "_ggn_compgen_games_or_files", "zsh": "_ggn_games_or_files"}
"""Shell completion of an argument that is a game's name or else a file's."""


def file_argument(action: argparse.Action, complete: dict[str, str] = FILES) -> argparse.Action:
    """Mark an argument as a file's name (or ``complete``'s other kind), for shell completion."""
    action.complete = complete  # type: ignore[attr-defined]  # read by shtab
    return action


RULES_HELP: Final = ("a game's name (ggn variants lists them; --ini adds more), else a GGN file, or - "
                     "for standard input: names come before files, so ./chess names a file called chess")
RULES_AT_HELP: Final = ("a game's name (ggn variants lists them; --ini adds more), else a GGN file, - "
                        "for standard input, or @FILE (the file FILE whatever its name: @- is a file "
                        "called -): names come before files, so ./chess and @chess name a file "
                        "called chess")


def add_rules(parser: argparse.ArgumentParser, dest: str = "rules", *, metavar: str = "GAME|RULES",
              default: str | None = "chess", at: bool = False) -> argparse.Action:
    """The game or GGN document a command reads (a name first, else a file, completed as both):
    optional with ``default``, required when it is None; with ``at``, ``@FILE`` is the file FILE
    (the command reads it through :func:`ggn.cli._catalogue.rules_file`)."""
    text = RULES_AT_HELP if at else RULES_HELP
    if default is None:
        action = parser.add_argument(dest, metavar=metavar, help=text)
    else:
        action = parser.add_argument(dest, nargs="?", default=default, metavar=metavar,
                                     help=f"{text}; default: {default}")
    return file_argument(action, GAMES_OR_FILES)


def add_format(parser: argparse.ArgumentParser, text: str, json: str | None = None) -> None:
    """``--format text|json``, which every command takes: ``text`` (the default) says what the
    text is, ``json`` the JSON value written instead (None: the output is JSON either way)."""
    if json is None:
        what = f"the output is JSON either way ({text}), so that --format json works as on every command"
    else:
        what = f"text: {text} (default); json: {json}"
    parser.add_argument("--format", choices=["text", "json"], default="text", help=what)


def add_ini(parser: argparse.ArgumentParser) -> None:
    file_argument(parser.add_argument("--ini", action="append", default=[], metavar="FILE", help=INI_HELP))


def add_game(parser: argparse.ArgumentParser) -> None:
    file_argument(parser.add_argument("game", metavar="GAME",
                                      help="a game's name: ggn variants lists them (and --ini adds more)"),
                  GAMES)
    add_ini(parser)


def add_position(parser: argparse.ArgumentParser, *, positional: bool) -> None:
    """The position options of a command: FEEN (as an argument, or --feen) or --fen."""
    if positional:
        parser.add_argument("feen", nargs="?", metavar="FEEN",
                            help="the position in FEEN (default: the game's start); " + DASHED)
    if positional:
        add_feen_option(parser)
    else:
        parser.add_argument("--feen", metavar="FEEN", help="the position in FEEN")
    parser.add_argument("--fen", metavar="FEN",
                        help="the position in Fairy-Stockfish's FEN of the game (standard FEN "
                             "for chess)")


def add_feen_option(parser: argparse.ArgumentParser) -> None:
    """--feen, beside a FEEN argument: the same position, as an option (see :func:`feen`)."""
    parser.add_argument("--feen", dest="feen_option", metavar="FEEN",
                        help="the position in FEEN, as an option (for one that starts with '-', "
                             "--feen=FEEN reads best)")


def feen(args: argparse.Namespace) -> str | None:
    """The FEEN a command was given, as its argument or with --feen (not both: exit 2)."""
    given: str | None = args.feen
    option: str | None = getattr(args, "feen_option", None)
    if given is not None and option is not None:
        raise Exit(2, "give the FEEN once: as an argument or with --feen, not both")
    return option if option is not None else given


NOTATIONS: Final = ("san", "lan", "uci", "usi", "ggn", "shogi-hosking", "shogi-hodges",
                     "shogi-hodges-number", "janggi", "wxf", "thai-san", "thai-lan")
"""What --notation names: SAN and Fairy-Stockfish's other named notations
(:data:`ggn.notation.NAMES`, written here so that the parser is built without importing the
notations: tests/test_cli_notation.py checks that they agree), Fairy-Stockfish's UCI strings,
USI (the shogi family's) and GGN's own move text."""

NOTATION_HELP: Final = (
    "san (Standard Algebraic Notation as Fairy-Stockfish writes it: e4, Nxf7+, exd6, O-O, e8=Q, "
    "P@e5; the default for a built-in game is the game's own notation, its SAN, or for the shogi "
    "family Hodges's numbers, P-76, as Fairy-Stockfish writes it), lan (long algebraic, "
    "Ng1-f3), uci (Fairy-Stockfish's strings: e2e4, e7e8q, P@e5, b2h8+), usi (the shogi "
    "family's: 7g7f, P*5e, 8h2b+), ggn (GGN's own: 'C:P e2-e4', 'C:P e7-e8=C:Q'; the only one a "
    "GGN document has, and its default), or one of Fairy-Stockfish's named notations: "
    "shogi-hosking, shogi-hodges, shogi-hodges-number, janggi, wxf, thai-san, thai-lan")


def add_notation(parser: argparse.ArgumentParser, what: str) -> None:
    """--notation: how a command writes moves (None, the default: the game's own notation,
    or GGN's for a document; see :func:`ggn.cli._catalogue.Played.notation`)."""
    parser.add_argument("--notation", choices=NOTATIONS, default=None, metavar="NOTATION",
                        help=f"how {what}: " + NOTATION_HELP)


def add_common(parser: argparse.ArgumentParser, *, warnings: bool = False) -> None:
    """--format and --max-errors, for the commands that report a document's violations (and
    with ``warnings``, its warnings)."""
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="text for people (default) or json for programs: one object with "
                             "valid and errors, each error's path (a JSON Pointer) and message"
                             + (", and warnings, each with its path, message and rule" if warnings
                                else ""))
    parser.add_argument("--max-errors", type=ERRORS_ALLOWED, default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"report at most N violations, 1 to {MAX_ERRORS:,} "
                             f"(default {DEFAULT_MAX_ERRORS})")
