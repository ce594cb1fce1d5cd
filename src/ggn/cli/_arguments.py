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
from ggn.rules import MAX_PERFT_DEPTH

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
DEPTH: Final = Bounded(0, MAX_PERFT_DEPTH)


class Commands:
    """The commands of ``ggn`` being assembled: what each command module's ``register`` is given.

    :meth:`add` adds one command, with its handler, and returns its parser for the command's
    own arguments.
    """

    def __init__(self, subparsers: argparse._SubParsersAction[Any]) -> None:
        self._subparsers = subparsers

    def add(self, name: str, handler: Handler, *, summary: str, description: str, epilog: str = "",
            label: Callable[[argparse.Namespace], str] | None = None) -> argparse.ArgumentParser:
        """Add the command ``name``, run by ``handler``.

        ``summary`` is its line in ``ggn --help``, ``description`` the prose of ``ggn NAME
        --help`` (one long line: it is wrapped to the terminal) and ``epilog`` its examples
        (indented lines, kept as written). ``label`` names the command in its messages when
        ``ggn NAME`` is not enough (``ggn parse cell``).
        """
        parser: argparse.ArgumentParser = self._subparsers.add_parser(
            name, help=summary, description=description, epilog=epilog or None, formatter_class=Formatter,
        )
        parser.set_defaults(_handler=handler, _label=label)
        return parser


# --- options several commands share ------------------------------------------------------------
INI_HELP: Final = ("a variants.ini file (Fairy-Stockfish's syntax) whose variants are added to the "
                   "games, for this command; repeat it for several files (a later file may inherit "
                   "from an earlier one's variants)")
FEN_EXAMPLE: Final = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
MY_INI: Final = "[tinyhouse:crazyhouse]\\nmaxRank = 6\\nstartFen = ..."


def add_ini(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ini", action="append", default=[], metavar="FILE", help=INI_HELP)


def add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME",
                        help="a game's name: ggn variants lists them (and --ini adds more)")
    add_ini(parser)


def add_position(parser: argparse.ArgumentParser, *, positional: bool) -> None:
    """The position options of a command: FEEN (as an argument, or --feen) or --fen."""
    if positional:
        parser.add_argument("feen", nargs="?", metavar="FEEN",
                            help="the position in FEEN (default: the game's start); put -- "
                                 "before one that starts with '-'")
    else:
        parser.add_argument("--feen", metavar="FEEN", help="the position in FEEN")
    parser.add_argument("--fen", metavar="FEN",
                        help="the position in Fairy-Stockfish's FEN of the game (standard FEN "
                             "for chess)")


def add_notation(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--notation", choices=["ggn", "uci"], default="ggn",
                        help=f"how {what}: ggn, 'PIECE SOURCE-DESTINATION[=CHOICE]' such as "
                             "'C:P e2-e4' (default); uci, Fairy-Stockfish's strings such as "
                             "e2e4, e7e8q, P@e5, b2h8+")


def add_common(parser: argparse.ArgumentParser) -> None:
    """--format and --max-errors, for the commands that report a document's violations."""
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="text for people (default) or json for programs")
    parser.add_argument("--max-errors", type=ERRORS_ALLOWED, default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"report at most N violations, 1 to {MAX_ERRORS:,} "
                             f"(default {DEFAULT_MAX_ERRORS})")
