"""The ``ggn`` command.

Everything goes through :func:`run`, which takes the arguments and the streams and returns the
exit status, so the command is testable without a subprocess; :func:`main` is the thin
console-script wrapper around it.

The exit status holds for every command, and :func:`run` keeps it in one place: 0 success;
1 invalid input (any :class:`~ggn.errors.GGNError` a command meets); 2 a usage error, input
that cannot be read, or output that cannot be written. Each failure is one message on standard
error, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import secrets
import stat
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import IO, Any, ClassVar, Final, NoReturn, Protocol, TypeVar

from ggn._decimal import decimal_value, shown, shown_tuple
from ggn._document import Document
from ggn._json import DEFAULT_MAX_ERRORS, Source, clip, decode, dumps, quote, read_file
from ggn.cell import Cell, Hand
from ggn.convert import convert
from ggn.epin import Epin
from ggn.errors import DocumentError, GGNError, NotationError, NotFoundError, Violation
from ggn.feen import Feen
from ggn.gan import Gan
from ggn.lcn import Conditions
from ggn.legacy import LegacyRuleset
from ggn.legacy_eval import GanMapping
from ggn.linter import lint
from ggn.pin import Pin
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules import MAX_PERFT_DEPTH, Play, divide, perft
from ggn.ruleset import Ruleset
from ggn.schemas import load_schema
from ggn.sin import Sin
from ggn.stn import Transition
from ggn.transitions import diff
from ggn.variants.registry import Catalogue, Entry, legacy_mapping, legacy_names

__all__ = ["main", "run"]

_PARSERS: dict[str, Callable[[str], Any]] = {
    "cell": Cell.parse,
    "hand": Hand.parse,
    "sin": Sin.parse,
    "pin": Pin.parse,
    "epin": Epin.parse,
    "qpi": Qpi.parse,
    "gan": Gan.parse,
    "feen": Feen.parse,
}

_DOCUMENTS: dict[str, type[Document]] = {
    "ggn": Ruleset,
    "ggn-legacy": LegacyRuleset,
    "lcn": Conditions,
    "stn": Transition,
}

_D = TypeVar("_D", bound=Document)

_MAX_INDENT: Final = 16
"""Widest JSON indentation: more only makes the output bigger (a huge one once ran out of memory)."""

_MAX_ERRORS: Final = 100_000
"""Most violations --max-errors can ask for."""

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
  ggn legal capablanca --notation uci  the legal moves of a game's start
  ggn play chess e2e4 e7e5 --notation uci --to fen
  ggn position shogi --fen FEN --to feen
  ggn perft mygame 3 --ini my.ini  a variant of your own (variants.ini syntax)
  ggn demo                         a tour on an embedded example

how arguments are read:
  FILE       a path, or - for standard input (which a command reads at most once).
  STN        (apply) - is standard input and @PATH the file PATH; JSON text is
             what starts with {, [ or " (after any blanks), is blank, or is any
             other JSON value (true, 12, null); anything else is a path.
  RULES      (moves) a built-in game's name, else a FILE: ./chess is a file.
  GAME       a game's name (ggn variants lists them); --ini FILE adds the file's
             variants (Fairy-Stockfish's variants.ini syntax) for that command.
  FEN        a position in Fairy-Stockfish's FEN of the game (--fen); FEEN is
             GGN's own (an argument, or --feen).
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
"""


class _Stream(Protocol):
    def write(self, text: str, /) -> object: ...


class _Exit(Exception):  # noqa: N818  (control flow, not an error)
    """Ends a command with ``status``, after ``message`` (if any) on standard error."""

    def __init__(self, status: int, message: str = "", *, bare: bool = False) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message
        self.bare = bare  # argparse's messages name the command already


class _ReaderGone(Exception):  # noqa: N818  (control flow: the reader of our output left)
    pass


class _Unwritable(Exception):  # noqa: N818  (control flow, reported by run)
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


class _Output:
    """Standard output as the commands see it: a write that fails (a full disk, a closed
    stream) ends the command, reported once by :func:`run`, whichever command wrote."""

    __slots__ = ("_stream",)

    def __init__(self, stream: IO[str] | None) -> None:
        self._stream = stream

    def _fail(self, error: BaseException) -> NoReturn:
        if isinstance(error, BrokenPipeError):
            raise _ReaderGone from None
        if isinstance(error, ValueError) and "closed file" in str(error):
            raise _Unwritable("it is closed") from None
        raise _Unwritable(_reason(error)) from None

    def write(self, text: str) -> int:
        if self._stream is None:
            raise _Unwritable("it is closed")
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as error:  # ValueError: closed, or text it cannot encode
            self._fail(error)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as error:
            self._fail(error)


class _Errors:
    """Standard error: a message that cannot be written there has nowhere else to go."""

    __slots__ = ("_stream",)

    def __init__(self, stream: IO[str] | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            # Bytes of the command line that are not text (a file name) are shown escaped.
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
            with contextlib.suppress(OSError, ValueError):
                self._stream.write(text)
        return len(text)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that writes to the streams given to :func:`run` and never exits."""

    out: ClassVar[_Stream]
    err: ClassVar[_Stream]

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:  # only help and usage asked for come here: they go to standard output
            self.out.write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _Exit(status, (message or "").rstrip("\n"), bare=True)

    def error(self, message: str) -> NoReturn:
        self.err.write(self.format_usage())
        raise _Exit(2, f"{self.prog}: error: {message}", bare=True)


class _Formatter(argparse.RawDescriptionHelpFormatter):
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


class _Bounded:
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


_INDENT: Final = _Bounded(0, _MAX_INDENT)
_ERRORS_ALLOWED: Final = _Bounded(1, _MAX_ERRORS)
_DEPTH: Final = _Bounded(0, MAX_PERFT_DEPTH)


def _build_parser(out: _Stream, err: _Stream) -> argparse.ArgumentParser:
    parser_class: type[_Parser] = type("_BoundParser", (_Parser,), {"out": out, "err": err})
    formatter = _Formatter
    parser = parser_class(
        prog="ggn", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=formatter
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    parse = commands.add_parser(
        "parse", help="parse a string notation and print its fields as JSON",
        description="Parse TEXT as a KIND of string notation. Valid: exit 0 and one JSON object "
                    "of its fields on stdout. Invalid: exit 1 and what is wrong, and where, on "
                    "stderr.",
        epilog="examples:\n  ggn parse cell a1A\n  ggn parse pin +K^\n  ggn parse gan CHESS:KING\n"
               "  ggn parse feen 'lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'",
        formatter_class=formatter,
    )
    parse.add_argument("kind", choices=list(_PARSERS), metavar="KIND",
                       help="one of: " + ", ".join(_PARSERS))
    parse.add_argument("text", metavar="TEXT", help="the string to parse (quote it in the shell)")

    validate = commands.add_parser(
        "validate", help="check a JSON document against every rule of its text",
        description="Check a document against every MUST of its text. Exit 0 if valid, 1 if "
                    "not (each violation with the JSON Pointer path of the offending value), "
                    "2 on a usage error or an unreadable file.",
        epilog="examples:\n  ggn validate rules.json\n  cat move.json | ggn validate --as stn -\n"
               "  ggn validate --format json rules.json   # {\"valid\": ..., \"errors\": [...]}",
        formatter_class=formatter,
    )
    validate.add_argument("--as", dest="kind", choices=list(_DOCUMENTS), default="ggn",
                          help="the kind of document (default: ggn, GGN 1.0.0)")
    _add_common(validate)
    validate.add_argument("file", metavar="FILE", help="the document, or - for standard input")

    lint_cmd = commands.add_parser(
        "lint", help="warn about SHOULD-level problems in a valid GGN document",
        description="Report the SHOULD rules of GGN 1.0.0 (section 9.3) that a valid document "
                    "breaks: contradictions between 'must' and 'deny', a 'deny' that can never "
                    "fire, repeated or implied possibilities, and with --board, squares off the "
                    "board. Warnings never fail: exit 0 unless the document or the --board "
                    "position is invalid (1), or on a usage error or an unreadable file (2).",
        epilog="example:\n  ggn lint chess.json --board '8/8/8/8/8/8/8/8 / C/c'",
        formatter_class=formatter,
    )
    lint_cmd.add_argument("--board", metavar="FEEN",
                          help="a FEEN position whose board shape the squares must lie on "
                               "(only its shape is read; an invalid FEEN is invalid input: exit 1)")
    _add_common(lint_cmd)
    lint_cmd.add_argument("file", metavar="FILE", help="the GGN document, or - for standard input")

    schema = commands.add_parser(
        "schema", help="print a shipped JSON Schema",
        description="Print the JSON Schema (draft 2020-12) this package ships for GGN 1.0.0, "
                    "LCN or STN. Our validator checks more than a schema can say.",
        formatter_class=formatter,
    )
    schema.add_argument("name", choices=["ggn", "lcn", "stn"], metavar="NAME",
                        help="one of: ggn, lcn, stn")

    commands.add_parser(
        "demo", help="a short tour on an embedded example document",
        description="Load, validate, navigate, lint and dump an embedded GGN document.",
    )

    moves = commands.add_parser(
        "moves", help="list the pseudo-legal moves of a position",
        description="List every pseudo-legal move of a position under a GGN document: each "
                    "piece of the active player on the board, and each piece in the active "
                    "player's hand (source *), to every destination with a possibility that "
                    "holds. With no arguments: the built-in chess document and start position. "
                    "A built-in game's position must have the game's board shape (exit 1 "
                    "otherwise, before any board is built).",
        epilog="examples:\n  ggn moves\n  ggn moves chess '8/8/8/8/8/8/4P3/4K^3 / C/c'\n"
               "  ggn moves rules.json 'lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'"
               "\n  ggn moves --format json   # [{\"piece\": ..., \"source\": ..., "
               "\"destination\": ...}, ...]",
        formatter_class=formatter,
    )
    moves.add_argument("rules", nargs="?", default="chess", metavar="RULES",
                       help="a game's name (ggn variants lists them; --ini adds more), else a GGN "
                            "file, or - for standard input (./chess names a file called chess); "
                            "default: chess")
    moves.add_argument("feen", nargs="?", metavar="FEEN",
                       help="the position; default: the built-in game's start position")
    moves.add_argument("--format", choices=["text", "json"], default="text",
                       help="text: one move per line as 'PIECE SOURCE-DESTINATION' (default); "
                            "json: a list of objects")
    _add_ini(moves)

    apply_cmd = commands.add_parser(
        "apply", help="apply an STN transition to a FEEN position",
        description="Print the FEEN of the position after the transition. A transition that "
                    "cannot apply (a hand count below zero, a square off the board) is an "
                    "error: exit 1. How STN is read: - is standard input; @PATH is the file "
                    "PATH; JSON text is what starts with {, [ or \" (after any blanks), is "
                    "blank, or is any other JSON value (true, 12, null), so '[]' is an array "
                    "(invalid: exit 1), not a file; anything else is a file's path.",
        epilog="examples:\n  ggn apply '8/8/8/8/8/8/4P3/8 / C/c' "
               "'{\"board_diff\": {\"e2\": null, \"e4\": \"C:P\"}, \"toggle\": true}'\n"
               "  ggn apply '8/8/8/8/8/8/4P3/8 / C/c' move.json\n"
               "  ggn apply '8/8/8/8/8/8/4P3/8 / C/c' @true     # the file called true",
        formatter_class=formatter,
    )
    apply_cmd.add_argument("feen", metavar="FEEN", help="the position before")
    apply_cmd.add_argument("stn", metavar="STN",
                           help="the transition: JSON text, @PATH, a file's path, or - (see above)")

    diff_cmd = commands.add_parser(
        "diff", help="the minimal STN transition from one position to another",
        description="Print, as JSON, the minimal STN transition that turns the first position "
                    "into the second. Both must share a board shape and styles (exit 1 "
                    "otherwise).",
        epilog="example:\n  ggn diff '8/8/8/8/8/8/4P3/8 / C/c' '8/8/8/8/4P3/8/8/8 / c/C'",
        formatter_class=formatter,
    )
    diff_cmd.add_argument("before", metavar="FEEN", help="the position before")
    diff_cmd.add_argument("after", metavar="FEEN", help="the position after")

    generate = commands.add_parser(
        "generate", help="write the complete GGN document of a game",
        description="Print the complete GGN 1.0.0 document of a game as JSON, made from the "
                    "game's description.",
        epilog="examples:\n  ggn generate chess > chess.json\n  ggn generate capablanca --indent 0\n"
               "  ggn generate mygame --ini my.ini",
        formatter_class=formatter,
    )
    _add_game(generate)
    generate.add_argument("--indent", type=_INDENT, default=2, metavar="N",
                          help=f"indentation of the JSON, 0 to {_MAX_INDENT} (default 2; 0 for "
                               "one line)")

    convert_cmd = commands.add_parser(
        "convert", help="rewrite a legacy GGN document as GGN 1.0.0",
        description="Rewrite a legacy GGN document as GGN 1.0.0 and print it as JSON. Legacy "
                    "pieces (GAN) become QPI through a mapping: a built-in one "
                    f"({', '.join(legacy_names())}) or a JSON file of GAN to QPI. What "
                    "GGN 1.0.0 cannot hold is reported on stderr, one note per line with its "
                    "JSON Pointer into the legacy document: the effects (board_patch and hand "
                    "fields) go, as STN transitions keyed like the new document, to the file "
                    "given by --effects, and are otherwise left out. Exit 0 on success (notes "
                    "or not), 1 if the legacy document or the mapping is invalid, 2 on a usage "
                    "error, an unreadable file or an --effects file that cannot be written.",
        epilog="examples:\n  ggn convert old.json --mapping chess > rules.json\n"
               "  ggn convert old.json --mapping pieces.json --effects effects.json > rules.json\n"
               "  # pieces.json: {\"CHESS:KING\": \"C:K^\", \"chess:king\": \"c:k^\", ...}",
        formatter_class=formatter,
    )
    convert_cmd.add_argument("file", metavar="LEGACY", help="the legacy GGN document, or - for "
                                                           "standard input")
    convert_cmd.add_argument("--mapping", default=None, metavar="NAME|FILE",
                             help="the GAN to QPI mapping: a built-in name "
                                  f"({', '.join(legacy_names())}), else a JSON file or - for "
                                  "standard input; default: the built-in mapping of the "
                                  "document's game, when every piece belongs to one built-in game")
    convert_cmd.add_argument("--effects", metavar="OUT",
                             help="write the effects, as STN transitions keyed like the new "
                                  "document, to this JSON file: whole or not at all (a "
                                  "temporary file beside it, then renamed over it); never over "
                                  "an input file (exit 2)")
    convert_cmd.add_argument("--indent", type=_INDENT, default=2, metavar="N",
                             help=f"indentation of the JSON, 0 to {_MAX_INDENT} (default 2; 0 "
                                  "for one line)")

    _add_variant_commands(commands, formatter)
    return parser


_INI_HELP = ("a variants.ini file (Fairy-Stockfish's syntax) whose variants are added to the "
             "games, for this command; repeat it for several files (a later file may inherit from "
             "an earlier one's variants)")
_FEN_EXAMPLE = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
_MY_INI = "[tinyhouse:crazyhouse]\\nmaxRank = 6\\nstartFen = ..."


def _add_ini(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ini", action="append", default=[], metavar="FILE", help=_INI_HELP)


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME",
                        help="a game's name: ggn variants lists them (and --ini adds more)")
    _add_ini(parser)


def _add_position(parser: argparse.ArgumentParser, *, positional: bool) -> None:
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


def _add_notation(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--notation", choices=["ggn", "uci"], default="ggn",
                        help=f"how {what}: ggn, 'PIECE SOURCE-DESTINATION[=CHOICE]' such as "
                             "'C:P e2-e4' (default); uci, Fairy-Stockfish's strings such as "
                             "e2e4, e7e8q, P@e5, b2h8+")


def _add_variant_commands(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    variants = commands.add_parser(
        "variants", help="list the games: the built-in variants, and those of --ini files",
        description="List every game the library plays: Fairy-Stockfish's variants under their "
                    "own names, described as data (docs/VARIANTS.md says which of its variants "
                    "are built in, and why the others are not), then the variants of each --ini "
                    "file. Text: one game a line, its name, board (files x ranks) and where it "
                    "comes from. JSON: a list of objects with name, board ([files, ranks]), "
                    "source, start (FEEN), fen (Fairy-Stockfish's FEN) and description.",
        epilog="examples:\n  ggn variants\n  ggn variants --format json\n"
               "  ggn variants --ini my.ini      # my.ini: " + _MY_INI,
        formatter_class=formatter,
    )
    variants.add_argument("--format", choices=["text", "json"], default="text",
                          help="text for people (default) or json for programs")
    _add_ini(variants)

    legal = commands.add_parser(
        "legal", help="list the legal moves of a position of a game",
        description="List the legal moves of a position of a game (its start position unless "
                    "one is given, as FEEN or with --fen), under the game's rules: promotion "
                    "choices, castling, en passant, drops, check. A position whose game has "
                    "ended has none. Text: one move a line. JSON: with --notation uci, a list "
                    "of Fairy-Stockfish's move strings; with ggn, a list of objects (piece, "
                    "source, destination, choice, transition as STN).",
        epilog="examples:\n  ggn legal chess\n  ggn legal capablanca --notation uci --format json\n"
               f"  ggn legal chess --fen '{_FEN_EXAMPLE}'\n"
               "  ggn legal shogi '4k^4/9/9/9/9/9/9/9/4K^4 P/ S/s' --notation uci",
        formatter_class=formatter,
    )
    _add_game(legal)
    _add_position(legal, positional=True)
    _add_notation(legal, "moves are written")
    legal.add_argument("--format", choices=["text", "json"], default="text",
                       help="text: one move a line (default); json: a list")

    perft_cmd = commands.add_parser(
        "perft", help="count the legal move paths of a game",
        description="Count the legal move paths of DEPTH plies from a position of a game (its "
                    "start position unless --feen or --fen is given), under the game's rules: "
                    "legal moves, promotion choices, castling, en passant, drops. The count is "
                    "the last line. With --divide, each legal move comes first with the paths "
                    "after it ('C:P e2-e4: 20', or 'e2e4: 20' with --notation uci, as engines "
                    "print it), and the last line is 'total: N'. The position must have the "
                    "game's board shape (exit 1 otherwise, before any board is built).",
        epilog="examples:\n  ggn perft chess 3          # 8902\n"
               "  ggn perft chess 3 --divide --notation uci\n"
               "  ggn perft shogi 2 --divide\n"
               "  ggn perft chess 2 --feen '+r3+k^2+r/8/8/8/8/8/8/+R3+K^2+R / C/c'\n"
               "  ggn perft chess 2 --fen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'",
        formatter_class=formatter,
    )
    _add_game(perft_cmd)
    perft_cmd.add_argument("depth", type=_DEPTH, metavar="DEPTH",
                           help=f"plies to count, 0 to {MAX_PERFT_DEPTH} (the paths grow "
                                "exponentially with the depth: no deeper count would finish)")
    where = perft_cmd.add_mutually_exclusive_group()
    where.add_argument("--feen", metavar="FEEN", help="the position in FEEN; default: the game's start")
    where.add_argument("--fen", metavar="FEN",
                       help="the position in Fairy-Stockfish's FEN of the game (standard FEN for chess)")
    perft_cmd.add_argument("--divide", action="store_true",
                           help="also print each legal move with the paths after it")
    _add_notation(perft_cmd, "--divide writes the moves")

    play = commands.add_parser(
        "play", help="play moves in a game and print the position after them",
        description="Play MOVEs, one after the other, from a position of a game (its start "
                    "position unless one is given, as FEEN before the moves or with --fen), and "
                    "print the position after them: FEEN, or with --to fen Fairy-Stockfish's FEN "
                    "(the move counters carried on from --fen's, or 0 and 1). If the game has "
                    "ended, a second line says how. A move that is not legal where it is played "
                    "is invalid input (exit 1): the message names it and lists the legal moves.",
        epilog="examples:\n  ggn play chess e2e4 e7e5 g1f3 --notation uci\n"
               "  ggn play chess 'C:P e2-e4' 'c:p e7-e5'\n"
               "  ggn play chess f2f3 e7e5 g2g4 d8h4 --notation uci  # second player wins by checkmate\n"
               f"  ggn play chess --fen '{_FEN_EXAMPLE}' e7e5 --notation uci --to fen\n"
               "  ggn play crazyhouse e2e4 d7d5 e4d5 d8d5 --notation uci --to fen",
        formatter_class=formatter,
    )
    _add_game(play)
    play.add_argument("moves", nargs="*", metavar="MOVE",
                      help="the moves, in the --notation's form; the first argument is the "
                           "starting position instead when it is a FEEN")
    play.add_argument("--fen", metavar="FEN",
                      help="the starting position in Fairy-Stockfish's FEN of the game")
    _add_notation(play, "the moves are written")
    play.add_argument("--to", choices=["feen", "fen"], default="feen",
                      help="how the position after the moves is written: feen (default) or fen")

    position = commands.add_parser(
        "position", help="rewrite a position of a game between FEN and FEEN",
        description="Read a position of a game, in Fairy-Stockfish's FEN (--fen) or in FEEN "
                    "(--feen), and write it in the form --to names. FEEN holds no move "
                    "counters: a FEN written from FEEN has 0 and 1, and one written from a FEN "
                    "keeps the FEN's. A position that is not one of the game (its board's "
                    "shape, a piece it does not have) is invalid input: exit 1.",
        epilog="examples:\n  ggn position chess --fen '" + _FEN_EXAMPLE + "' --to feen\n"
               "  ggn position xiangqi --feen "
               "'rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x' --to fen",
        formatter_class=formatter,
    )
    _add_game(position)
    given = position.add_mutually_exclusive_group(required=True)
    given.add_argument("--fen", metavar="FEN", help="the position in Fairy-Stockfish's FEN of the game")
    given.add_argument("--feen", metavar="FEEN", help="the position in FEEN")
    position.add_argument("--to", choices=["feen", "fen"], required=True,
                          help="the form to write the position in")


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="text for people (default) or json for programs")
    parser.add_argument("--max-errors", type=_ERRORS_ALLOWED, default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"report at most N violations, 1 to {_MAX_ERRORS:,} "
                             f"(default {DEFAULT_MAX_ERRORS})")


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
    out = _Output(stdout if stdout is not None else sys.stdout)
    err = _Errors(stderr if stderr is not None else sys.stderr)
    label = "ggn"  # the command, as messages name it
    try:
        parser = _build_parser(out, err)
        arguments = list(sys.argv[1:] if argv is None else argv)
        if len(arguments) == 3 and arguments[0] == "parse" and arguments[2] not in ("-h", "--help", "--"):
            # A diminished piece (-p) or any TEXT starting with '-' is the text, not an option.
            arguments.insert(2, "--")
        try:
            args, extra = parser.parse_known_args(arguments)
            if extra and args.command == "play" and not any(text.startswith("-") for text in extra):
                # Moves after an option (ggn play chess --fen FEN e2e4): argparse gives the
                # positional arguments it meets after an option to no one.
                args.moves += extra
            elif extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            if args.command is None:  # no command: a usage error, the help on standard error
                err.write(parser.format_help())
                status = 2
            else:
                label = f"ggn {args.command}"
                if args.command == "parse":
                    label += f" {args.kind}"
                status = _COMMANDS[args.command](args, out, err, stdin)
        except _Exit as stop:
            status = stop.status
            if stop.message:
                err.write(f"{stop.message}\n" if stop.bare else f"{label}: {stop.message}\n")
        out.flush()
    except _ReaderGone:
        return 0  # the reader stopped reading (ggn moves | head -1): not a failure of ours
    except _Unwritable as failure:
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


def _parse(args: argparse.Namespace, out: _Stream, err: _Stream, _: IO[bytes] | None) -> int:
    value = _PARSERS[args.kind](args.text)
    out.write(dumps(value.fields()) + "\n")  # dumps: a field may be an integer of any length
    return 0


# --- reading input ---------------------------------------------------------------------------
def _standard_input(stdin: IO[bytes] | None) -> IO[bytes] | IO[str] | None:
    if stdin is not None:
        return stdin
    stream = sys.stdin
    if stream is None:  # the process started with its standard input closed
        return None
    return getattr(stream, "buffer", stream)


def _read(name: str, stdin: IO[bytes] | None, what: str = "") -> Source:
    """The text of the file ``name``, or of standard input for ``-``; input that cannot be read
    ends the command (exit 2). ``what`` names the option the file was given to."""
    where = f"{what}: " if what else ""
    if name == "-":
        stream = _standard_input(stdin)
        if stream is None:
            raise _Exit(2, f"{where}cannot read standard input: it is closed")
        try:
            data, faults = read_file(stream)
        except (OSError, ValueError) as error:  # ValueError: a closed stream
            reason = "it is closed" if "closed" in str(error) else _reason(error)
            raise _Exit(2, f"{where}cannot read standard input: {reason}") from None
    else:
        _check_name(name, what)
        data, faults = read_file(name)
    if faults or data is None:
        raise _Exit(2, f"{where}{faults[0].message}" if faults else f"{where}cannot read {_shown(name)}")
    return data


def _check_name(name: str, what: str = "") -> None:
    """Refuse a name no file can have (the system would raise ValueError, not OSError)."""
    if not name or "\x00" in name:
        prefix = f"{what}: " if what else ""
        raise _Exit(2, f"{prefix}{_shown(name)!r} is not a file name")


def _load(kind: type[_D], name: str, stdin: IO[bytes] | None, max_errors: int,
          data: Source | None = None) -> tuple[_D | None, list[Violation]]:
    """The document of the file ``name`` (or ``data``, when given), or None and its violations."""
    if data is None:
        data = _read(name, stdin)
    value, faults = decode(data)
    if faults:
        return None, faults
    try:
        return kind.from_value(value, max_errors=max_errors), []
    except DocumentError as error:
        return None, list(error.violations)


def _document(kind: type[_D], name: str, stdin: IO[bytes] | None, err: _Stream,
              data: Source | None = None) -> _D:
    """The document of the file ``name`` (or ``data``); an invalid one ends the command (exit 1)
    after its violations on standard error."""
    document, violations = _load(kind, name, stdin, DEFAULT_MAX_ERRORS, data)
    if document is None:
        _report(err, name, kind, violations, DEFAULT_MAX_ERRORS)
        raise _Exit(1)
    return document


def _shown(name: str) -> str:
    """A file name fit for a message: standard input named, bytes that are not text escaped."""
    if name == "-":
        return "<stdin>"
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _validate(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    kind = _DOCUMENTS[args.kind]
    document, violations = _load(kind, args.file, stdin, args.max_errors)
    if args.format == "json":
        out.write(json.dumps({"valid": document is not None, "errors": _listed(violations)}) + "\n")
    elif document is not None:
        out.write(f"{_shown(args.file)}: valid {kind._kind} document\n")
    else:
        _report(err, args.file, kind, violations, args.max_errors)
    return 0 if document is not None else 1


def _listed(violations: list[Violation]) -> list[dict[str, str]]:
    """Violations as ``--format json`` writes them."""
    return [{"path": v.path, "message": v.message} for v in violations]


def _report(err: _Stream, name: str, kind: type[Document], violations: list[Violation],
            limit: int) -> None:
    more = " (at the limit; there may be more)" if len(violations) >= limit else ""
    noun = "violation" if len(violations) == 1 else "violations"
    err.write(f"{_shown(name)}: invalid {kind._kind} document, {len(violations)} {noun}{more}\n")
    for violation in violations:
        err.write(f"  {violation.path or '(document)'}: {violation.message}\n")


def _lint(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    # Only the shape is read (no board is built), and first: an invalid FEEN is invalid input.
    shape = None
    if args.board is not None:
        try:
            shape = Feen.parse(args.board).shape
        except NotationError as error:
            raise _Exit(1, f"--board: {error}") from None
    document, violations = _load(Ruleset, args.file, stdin, args.max_errors)
    if document is None:
        if args.format == "json":
            out.write(json.dumps({"valid": False, "errors": _listed(violations), "warnings": []}) + "\n")
        else:
            _report(err, args.file, Ruleset, violations, args.max_errors)
        return 1
    warnings = lint(document, shape)
    if args.format == "json":
        shown = [{"path": w.path, "message": w.message, "rule": w.rule} for w in warnings]
        out.write(json.dumps({"valid": True, "errors": [], "warnings": shown}) + "\n")
    else:
        out.write("".join(f"{_shown(args.file)}:{warning}\n" for warning in warnings))
        noun = "warning" if len(warnings) == 1 else "warnings"
        out.write(f"{_shown(args.file)}: valid GGN document, {len(warnings)} {noun}\n")
    return 0


def _schema(args: argparse.Namespace, out: _Stream, err: _Stream, _: IO[bytes] | None) -> int:
    out.write(json.dumps(load_schema(args.name), indent=2) + "\n")
    return 0


_DEMO = {
    "C:R": {"a1": {"a4": [
        {"must": {"a2": "empty", "a3": "empty", "a4": "empty"}},
        {"must": {"a2": "empty", "a3": "empty", "a4": "enemy"}},
    ]}},
    "C:+K^": {"e1": {"g1": [{"must": {"f1": "empty", "g1": "empty", "h1": "C:+R"}}]}},
    "S:P": {"*": {"e5": [{"must": {"e5": "empty"}}]}},
    "x:c": {"b2": {"b8": [{
        "must": {"b3": "empty", "b4": "empty", "b5": "empty", "b6": "empty", "b8": "enemy"},
        "deny": {"b7": "empty"},
    }]}},
}


def _demo(args: argparse.Namespace, out: _Stream, err: _Stream, _: IO[bytes] | None) -> int:
    rules = Ruleset.from_value(_DEMO)
    out.write("An embedded GGN document, made of the examples of the GGN 1.0.0 text:\n\n")
    out.write(rules.dumps() + "\n\n")
    out.write(f"It is valid. Its pieces: {', '.join(map(str, rules.pieces))}\n")
    for piece in rules.pieces:
        qpi = piece
        kind = "native" if qpi.native else "derived"
        out.write(f"  {qpi}: style {qpi.style}, name {qpi.name}, {qpi.side} side, {qpi.state}, "
                  f"{'terminal, ' if qpi.terminal else ''}{kind}\n")
        for source, destinations in rules.select(piece).items():
            for destination, possibilities in destinations.items():
                out.write(f"    {source} -> {destination}: {len(possibilities)} possibilit"
                          f"{'y' if len(possibilities) == 1 else 'ies'}\n")
                for possibility in possibilities:
                    must = ", ".join(f"{c}={s}" for c, s in possibility.must.items())
                    deny = ", ".join(f"{c}={s}" for c, s in possibility.deny.items())
                    out.write(f"      must [{must}]" + (f" deny [{deny}]" if deny else "") + "\n")
    warnings = lint(rules, (8, 8))
    out.write(f"\nLint on an 8x8 board: {len(warnings)} warning(s)\n")
    for warning in warnings:
        out.write(f"  {warning}\n")
    broken = {"C:R": {"a1": {"a1": [{"must": {"a1": "empty"}, "deny": {"a2": "friend"}}]}}}
    out.write("\nAnd a broken one, with every violation and where it is:\n")
    out.write(f"  {json.dumps(broken)}\n")
    for violation in Ruleset.errors(broken):
        out.write(f"  {violation}\n")
    return 0


def _check_file(name: str, what: str, known: Sequence[str], option: str = "") -> None:
    """Refuse a name that is no built-in ``what`` (the caller has looked) and no file either,
    before reading: the message names both readings."""
    if name != "-" and not os.path.exists(name):
        given = f"{option} " if option else ""
        raise _Exit(2, f"{given}{_shown(name)!r} is neither a built-in {what} ({', '.join(known)}) "
                       "nor a file")


def _moves(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    # The position is read before the document, and its board built only once both are known
    # to be good (a built-in game's rule system checks the board's shape first).
    catalogue = _catalogue(args, stdin)
    if args.rules in catalogue:
        feen = None if args.feen is None else Feen.parse(args.feen)
        system = catalogue.rules(args.rules)
        rules, position = system.ruleset, system.position(feen)  # no FEEN: the game's start
    else:
        _check_file(args.rules, "game", ["ggn variants lists them"])
        if args.rules == "-" and "-" in args.ini:
            raise _Exit(2, "standard input is read once: give RULES or --ini as a file")
        if args.feen is None:
            raise _Exit(2, "give a FEEN position after a GGN file (only a built-in game has a "
                           "default start position)")
        feen = Feen.parse(args.feen)
        rules = _document(Ruleset, args.rules, stdin, err)
        position = Position.from_feen(feen)
    moves = rules.moves(position)
    if args.format == "json":
        listed = [
            {"piece": str(m.piece), "source": str(m.source), "destination": str(m.destination)}
            for m in moves
        ]
        out.write(json.dumps(listed) + "\n")
    else:
        out.write("".join(f"{m}\n" for m in moves))
    return 0


_JSON_WHITESPACE: Final = " \t\n\r"


def _json_or_file(text: str, stdin: IO[bytes] | None) -> tuple[str, Source]:
    """How an argument that can be JSON text is read: the name to show and the text. ``-`` is
    standard input and ``@PATH`` the file PATH; JSON text is what starts with ``{``, ``[`` or
    ``"`` after any blanks, is blank, or decodes as any other JSON value; the rest is a path."""
    if text == "-":
        return text, _read(text, stdin)
    if text.startswith("@"):
        return text[1:], _read(text[1:], stdin)
    stripped = text.lstrip(_JSON_WHITESPACE)
    if not stripped or stripped[0] in '{["' or not decode(text)[1]:
        return "the STN argument", text
    return text, _read(text, stdin)


def _apply(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    feen = Feen.parse(args.feen)  # read first; its board built once the transition is good
    name, data = _json_or_file(args.stn, stdin)
    transition = _document(Transition, name, stdin, err, data)
    out.write(Position.from_feen(feen).apply(transition).to_feen() + "\n")
    return 0


def _diff(args: argparse.Namespace, out: _Stream, err: _Stream, _: IO[bytes] | None) -> int:
    before, after = Feen.parse(args.before), Feen.parse(args.after)
    if before.shape != after.shape:  # refused before two boards are built for nothing
        raise GGNError(f"positions of different board shapes ({shown_tuple(before.shape)} and "
                       f"{shown_tuple(after.shape)}) have no STN diff")
    transition = diff(Position.from_feen(before), Position.from_feen(after))
    out.write(json.dumps(transition.to_value()) + "\n")
    return 0


def _generate(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    document = _entry(_catalogue(args, stdin), args.game).document()
    out.write(json.dumps(document, indent=args.indent or None) + "\n")
    return 0


_GAMES_NAMED: Final = 8  # the most games a message names


def _mapping(name: str | None, legacy: LegacyRuleset, stdin: IO[bytes] | None, err: _Stream) -> GanMapping:
    if name is None:
        games_named = {piece.gan.game.lower() for piece in legacy.pieces}
        if len(games_named) != 1 or next(iter(games_named)) not in legacy_names():
            # A document can name thousands of games, of any length: a few are named, cut short.
            named = sorted(games_named)
            found = ", ".join(clip(game) for game in named[:_GAMES_NAMED]) or "none"
            if len(named) > _GAMES_NAMED:
                found += f", ... ({len(named):,} in all)"
            raise _Exit(2, f"no built-in mapping covers the document's games ({found}); give one "
                           "with --mapping NAME|FILE")
        return legacy_mapping(next(iter(games_named)))
    if name.lower() in legacy_names():
        return legacy_mapping(name)
    _check_file(name, "mapping", legacy_names(), "--mapping")
    mapping, violations = _load(GanMapping, name, stdin, DEFAULT_MAX_ERRORS,
                                _read(name, stdin, "--mapping"))
    if mapping is None:
        err.write(f"ggn convert: --mapping {_shown(name)}: invalid mapping\n")
        for violation in violations:
            err.write(f"  {violation.path or '(document)'}: {violation.message}\n")
        raise _Exit(1)
    return mapping


def _same_file(path: str, other: str) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:  # one of them does not exist (yet): the same only if named alike
        return os.path.realpath(path) == os.path.realpath(other)


def _is_input(path: str, stdin: IO[bytes] | None) -> bool:
    """Whether the file standard input reads is ``path`` (``< path``)."""
    stream = _standard_input(stdin)
    if stream is None:
        return False
    try:
        held, named = os.fstat(stream.fileno()), os.stat(path)
    except (OSError, ValueError):  # no descriptor (io.UnsupportedOperation), closed, no such path
        return False
    return stat.S_ISREG(held.st_mode) and (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino)


def _check_output(path: str, inputs: list[str], stdin: IO[bytes] | None) -> None:
    """Refuse, before any work, an output file that is an input or that cannot be one."""
    if path == "-":
        raise _Exit(2, "--effects takes a file name: standard output holds the GGN document")
    _check_name(path, "--effects")
    if os.path.isdir(path):
        raise _Exit(2, f"cannot write --effects {_shown(path)}: it is a directory")
    for name in inputs:
        if name == "-":
            same = _is_input(path, stdin)
        else:
            _check_name(name)  # before comparing: the system refuses such a name with ValueError
            same = _same_file(path, name)
        if same:
            raise _Exit(2, f"--effects {_shown(path)!r} is an input file: it would be overwritten")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it, flushed
    to the disk, then renamed over it. On failure the old file stays as it was and the
    temporary file is removed."""
    target = os.path.realpath(path)  # through a symbolic link: the file it names is replaced
    folder, base = os.path.split(target)
    data = text.encode("utf-8")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        # The name kept short enough for any file system, whatever the length of the target's.
        temporary = os.path.join(folder, f".{base[:200]}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(temporary, flags, 0o666)  # the umask applies, as to any new file
            break
        except FileExistsError:
            continue
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):  # the replaced file's permissions stay
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _convert(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    if args.file == "-" and args.mapping == "-":
        raise _Exit(2, "standard input is read once: give LEGACY or --mapping as a file")
    if args.effects is not None:
        inputs = [args.file]
        if args.mapping is not None and args.mapping.lower() not in legacy_names():
            inputs.append(args.mapping)  # a built-in mapping's name is no file read
        _check_output(args.effects, inputs, stdin)
    document = _document(LegacyRuleset, args.file, stdin, err)
    mapping = _mapping(args.mapping, document, stdin, err)
    conversion = convert(document, mapping)
    indent = args.indent or None
    if args.effects is not None:
        try:
            _write_atomically(args.effects, json.dumps(conversion.effects, indent=indent) + "\n")
        except OSError as error:
            raise _Exit(2, f"cannot write --effects {_shown(args.effects)}: {_reason(error)}") from None
    out.write(conversion.ruleset.dumps(indent=indent) + "\n")
    for note in conversion.notes:
        err.write(f"ggn convert: note: {note}\n")
    if args.effects is not None:
        err.write(f"ggn convert: effects written to {_shown(args.effects)}\n")
    elif any(conversion.effects.values()):
        err.write("ggn convert: the effects (board_patch and hand fields), which GGN 1.0.0 does "
                  "not hold, were not written; give --effects FILE to keep them as STN\n")
    return 0


def _perft(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    game = _entry(_catalogue(args, stdin), args.game)
    rules = game.rules
    position = _position(game, args.feen, args.fen)  # the game's board shape checked before it is built
    if args.divide and args.depth > 0:
        split = divide(rules, args.depth, position)
        out.write("".join(f"{_move(game, position, play, args.notation)}: {count}\n"
                          for play, count in split))
        out.write(f"total: {sum(count for _, count in split)}\n")
    else:
        out.write(f"{perft(rules, args.depth, position)}\n")
    return 0


# --- games and their positions -----------------------------------------------------------------
def _catalogue(args: argparse.Namespace, stdin: IO[bytes] | None) -> Catalogue:
    """The games a command knows: the built-ins, and the variants of each --ini file."""
    catalogue = Catalogue()
    if args.ini.count("-") > 1:
        raise _Exit(2, "standard input is read once: give --ini - at most once")
    for name in args.ini:
        data = _read(name, stdin, "--ini")
        try:
            text = data if isinstance(data, str) else bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise _Exit(1, f"--ini {_shown(name)}: not UTF-8 text ({error.reason} at byte "
                           f"{error.start})") from None
        catalogue.add_ini(text, _shown(name))
    return catalogue


_SUGGESTED: Final = 3  # the most names a message suggests for an unknown game


def _entry(catalogue: Catalogue, name: str) -> Entry:
    """A game by name; an unknown name is a usage error (exit 2), with the names it is close to."""
    try:
        return catalogue.entry(name)
    except NotFoundError:
        pass
    import difflib  # noqa: PLC0415  (only for this message)

    close = difflib.get_close_matches(name[:100], catalogue.names(), _SUGGESTED)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise _Exit(2, f"no game {quote(name)}; {hint}ggn variants lists the {len(catalogue)} games") from None


def _position(game: Entry, feen: str | None, fen: str | None) -> Position:
    """The position given, as FEEN or as Fairy-Stockfish's FEN (at most one), else the start."""
    if feen is not None and fen is not None:
        raise _Exit(2, "give the position once: as FEEN or with --fen, not both")
    if fen is not None:
        return game.rules.position(game.to_feen(fen))
    from ggn.variants.fen import is_feen  # noqa: PLC0415  (on use: the command starts faster)

    if feen is not None and not is_feen(feen):
        fields = feen.split(" ")
        if len(fields) > 1 and fields[1] in ("w", "b"):  # a FEN's side to move
            raise GGNError(f"{quote(feen, 80)} is a FEN, not FEEN: give it with --fen")
    return game.rules.position(feen)


def _move(game: Entry, position: Position, play: Play, notation: str) -> str:
    """A play as the --notation option writes it."""
    if notation != "uci":
        return str(play)
    from ggn.variants import uci  # noqa: PLC0415  (on use: the command starts faster)

    return uci.write(game.variant, play, position=position)


def _variants(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    catalogue = _catalogue(args, stdin)
    games = [catalogue.entry(name) for name in catalogue.names()]
    if args.format == "json":
        listed = [{"name": game.name, "board": list(game.shape), "source": game.source,
                   "start": game.start, "fen": game.fen, "description": game.variant.description}
                  for game in games]
        out.write(json.dumps(listed) + "\n")
        return 0
    width = max((len(game.name) for game in games), default=0)
    for game in games:
        files, ranks = game.shape
        line = f"{game.name:<{width}}  {files}x{ranks}"
        if game.source != "builtin":
            line += f"  {game.source}"
        out.write(line + "\n")
    return 0


def _legal(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    game = _entry(_catalogue(args, stdin), args.game)
    position = _position(game, args.feen, args.fen)
    plays = game.rules.legal_moves(position)
    if args.notation == "uci":
        written: list[Any] = [_move(game, position, play, "uci") for play in plays]
    elif args.format == "json":
        written = [{"piece": str(play.piece), "source": str(play.source),
                    "destination": str(play.destination),
                    "choice": None if play.choice is None else str(play.choice),
                    "transition": play.transition.to_value()} for play in plays]
    else:
        written = [str(play) for play in plays]
    if args.format == "json":
        out.write(json.dumps(written) + "\n")
    else:
        out.write("".join(f"{move}\n" for move in written))
    return 0


_LISTED: Final = 60  # the most legal moves an illegal move's message lists


def _play(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    game = _entry(_catalogue(args, stdin), args.game)
    moves = list(args.moves)
    from ggn.variants.fen import is_feen  # noqa: PLC0415

    feen = moves.pop(0) if moves and is_feen(moves[0]) else None
    position = _position(game, feen, args.fen)
    halfmove, fullmove = (0, 1) if args.fen is None else game.counters(args.fen)
    rules = game.rules
    for number, text in enumerate(moves, 1):
        plays = {_move(game, position, play, args.notation): play for play in rules.legal_moves(position)}
        play = plays.get(text)
        if play is None:
            listed = ", ".join(list(plays)[:_LISTED]) or "none"
            if len(plays) > _LISTED:
                listed += f", ... ({len(plays)} in all)"
            ended = rules.outcome(position)
            reason = f"the game has ended ({ended})" if ended is not None and not plays else (
                f"the legal moves: {listed}")
            raise GGNError(f"move {number}, {quote(text)}, is not a legal move of {position.to_feen()!r}; "
                           f"{reason}")
        if args.to == "fen":  # the counters FEN holds and FEEN does not
            halfmove, fullmove = game.advance(position, play, halfmove, fullmove)
        position = rules.play(position, play)
    if args.to == "fen":
        out.write(game.from_feen(position, halfmove=halfmove, fullmove=fullmove) + "\n")
    else:
        out.write(position.to_feen() + "\n")
    outcome = rules.outcome(position)
    if outcome is not None:
        out.write(f"{outcome}\n")
    return 0


def _position_command(args: argparse.Namespace, out: _Stream, err: _Stream, stdin: IO[bytes] | None) -> int:
    game = _entry(_catalogue(args, stdin), args.game)
    position = _position(game, args.feen, args.fen)
    if args.to == "fen":
        halfmove, fullmove = (0, 1) if args.fen is None else game.counters(args.fen)
        out.write(game.from_feen(position, halfmove=halfmove, fullmove=fullmove) + "\n")
    else:
        out.write(position.to_feen() + "\n")
    return 0


_COMMANDS: dict[str, Callable[[argparse.Namespace, _Stream, _Stream, IO[bytes] | None], int]] = {
    "parse": _parse,
    "validate": _validate,
    "lint": _lint,
    "schema": _schema,
    "demo": _demo,
    "moves": _moves,
    "apply": _apply,
    "diff": _diff,
    "generate": _generate,
    "convert": _convert,
    "perft": _perft,
    "variants": _variants,
    "legal": _legal,
    "play": _play,
    "position": _position_command,
}


def _settle(stream: IO[str] | None) -> None:
    """Flush a standard stream before the interpreter does: if that fails (the reader left,
    the disk is full), point it at nothing, so that the interpreter's own last flush cannot
    fail again and print a traceback of its own."""
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def main() -> NoReturn:
    """Console-script entry point."""
    try:
        status = run()
    except KeyboardInterrupt:
        status = 130
    _settle(sys.stdout)
    _settle(sys.stderr)
    sys.exit(status)
