"""The ``ggn`` command.

Everything goes through :func:`run`, which takes the arguments and the output
streams and returns the exit status, so the command is testable without a
subprocess; :func:`main` is the thin console-script wrapper around it.

Exit status: 0 success, 1 the input is invalid, 2 usage error (bad arguments,
unreadable file).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, ClassVar, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from ggn import games
from ggn._document import Document
from ggn._json import DEFAULT_MAX_ERRORS, decode, read_file
from ggn.cell import Cell, Hand
from ggn.convert import BUILTIN_MAPPINGS, builtin_mapping, convert, load_mapping
from ggn.epin import Epin
from ggn.errors import DocumentError, GGNError, NotationError, Violation
from ggn.feen import Feen
from ggn.gan import Gan
from ggn.lcn import Conditions
from ggn.legacy import LegacyRuleset
from ggn.legacy_eval import ConversionError, GanMapping
from ggn.linter import lint
from ggn.pin import Pin
from ggn.position import Position, PositionError
from ggn.qpi import Qpi
from ggn.rules import divide, perft, rule_system
from ggn.rules import names as rule_names
from ggn.ruleset import Ruleset
from ggn.schemas import load_schema
from ggn.sin import Sin
from ggn.stn import Transition
from ggn.transitions import diff

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
  ggn demo                         a tour on an embedded example

exit status: 0 success, 1 invalid input, 2 usage error or unreadable file.
"""


class _Exit(Exception):  # noqa: N818  (control flow, not an error)
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that writes to the streams given to :func:`run` and never exits."""

    out: ClassVar[IO[str]]
    err: ClassVar[IO[str]]

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (self.err if file is sys.stderr else self.out).write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self.err.write(message)
        raise _Exit(status)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _build_parser(out: IO[str], err: IO[str]) -> argparse.ArgumentParser:
    parser_class: type[_Parser] = type("_BoundParser", (_Parser,), {"out": out, "err": err})
    formatter = argparse.RawDescriptionHelpFormatter
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
                    "board. Warnings never fail: exit 0 unless the document is invalid (1).",
        epilog="example:\n  ggn lint chess.json --board '8/8/8/8/8/8/8/8 / C/c'",
        formatter_class=formatter,
    )
    lint_cmd.add_argument("--board", metavar="FEEN",
                          help="a FEEN position whose board shape the squares must lie on")
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
                    "holds. With no arguments: the built-in chess document and start position.",
        epilog="examples:\n  ggn moves\n  ggn moves chess '8/8/8/8/8/8/4P3/4K^3 / C/c'\n"
               "  ggn moves rules.json 'lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'"
               "\n  ggn moves --format json   # [{\"piece\": ..., \"source\": ..., "
               "\"destination\": ...}, ...]",
        formatter_class=formatter,
    )
    moves.add_argument("rules", nargs="?", default="chess", metavar="RULES",
                       help="a GGN file, - for standard input, or a built-in game "
                            f"({', '.join(games.names())}); default: chess")
    moves.add_argument("feen", nargs="?", metavar="FEEN",
                       help="the position; default: the built-in game's start position")
    moves.add_argument("--format", choices=["text", "json"], default="text",
                       help="text: one move per line as 'PIECE SOURCE-DESTINATION' (default); "
                            "json: a list of objects")

    apply_cmd = commands.add_parser(
        "apply", help="apply an STN transition to a FEEN position",
        description="Print the FEEN of the position after the transition. STN is JSON text, a "
                    "file, or - for standard input. A transition that cannot apply (a hand "
                    "count below zero, a square off the board) is an error: exit 1.",
        epilog="example:\n  ggn apply '8/8/8/8/8/8/4P3/8 / C/c' "
               "'{\"board_diff\": {\"e2\": null, \"e4\": \"C:P\"}, \"toggle\": true}'",
        formatter_class=formatter,
    )
    apply_cmd.add_argument("feen", metavar="FEEN", help="the position before")
    apply_cmd.add_argument("stn", metavar="STN", help="the transition: JSON text, a file, or -")

    diff_cmd = commands.add_parser(
        "diff", help="the minimal STN transition from one position to another",
        description="Print, as JSON, the minimal STN transition that turns the first position "
                    "into the second. Both must share a board shape and styles.",
        epilog="example:\n  ggn diff '8/8/8/8/8/8/4P3/8 / C/c' '8/8/8/8/4P3/8/8/8 / c/C'",
        formatter_class=formatter,
    )
    diff_cmd.add_argument("before", metavar="FEEN", help="the position before")
    diff_cmd.add_argument("after", metavar="FEEN", help="the position after")

    generate = commands.add_parser(
        "generate", help="write the complete GGN document of a game",
        description="Print the complete GGN 1.0.0 document of a built-in game as JSON.",
        epilog="example:\n  ggn generate chess > chess.json",
        formatter_class=formatter,
    )
    generate.add_argument("game", choices=list(games.names()), metavar="GAME",
                          help="one of: " + ", ".join(games.names()))
    generate.add_argument("--indent", type=int, default=2, metavar="N",
                          help="indentation of the JSON (default 2; 0 for one line)")

    convert_cmd = commands.add_parser(
        "convert", help="rewrite a legacy GGN document as GGN 1.0.0",
        description="Rewrite a legacy GGN document as GGN 1.0.0 and print it as JSON. Legacy "
                    "pieces (GAN) become QPI through a mapping: a built-in one "
                    f"({', '.join(BUILTIN_MAPPINGS)}) or a JSON file of GAN to QPI. What "
                    "GGN 1.0.0 cannot hold is reported on stderr, one note per line with its "
                    "JSON Pointer into the legacy document: the effects (board_patch and hand "
                    "fields) go, as STN transitions keyed like the new document, to the file "
                    "given by --effects, and are otherwise left out. Exit 0 on success (notes "
                    "or not), 1 if the legacy document or the mapping is invalid, 2 on a usage "
                    "error or an unreadable file.",
        epilog="examples:\n  ggn convert old.json --mapping chess > rules.json\n"
               "  ggn convert old.json --mapping pieces.json --effects effects.json > rules.json\n"
               "  # pieces.json: {\"CHESS:KING\": \"C:K^\", \"chess:king\": \"c:k^\", ...}",
        formatter_class=formatter,
    )
    convert_cmd.add_argument("file", metavar="LEGACY", help="the legacy GGN document, or - for "
                                                           "standard input")
    convert_cmd.add_argument("--mapping", default=None, metavar="NAME|FILE",
                             help="the GAN to QPI mapping: a built-in name "
                                  f"({', '.join(BUILTIN_MAPPINGS)}) or a JSON file; default: "
                                  "the built-in mapping of the document's game, when every "
                                  "piece belongs to one built-in game")
    convert_cmd.add_argument("--effects", metavar="OUT",
                             help="write the effects, as STN transitions keyed like the new "
                                  "document, to this JSON file")
    convert_cmd.add_argument("--indent", type=int, default=2, metavar="N",
                             help="indentation of the JSON (default 2; 0 for one line)")

    perft_cmd = commands.add_parser(
        "perft", help="count the legal move paths of a built-in game",
        description="Count the legal move paths of DEPTH plies from a position of a built-in "
                    "game (its start position unless --feen is given), under the game's rule "
                    "system: legal moves, promotion choices, castling, en passant, drops.",
        epilog="examples:\n  ggn perft chess 3          # 8902\n"
               "  ggn perft shogi 2 --divide\n"
               "  ggn perft chess 2 --feen '+r3+k^2+r/8/8/8/8/8/8/+R3+K^2+R / C/c'",
        formatter_class=formatter,
    )
    perft_cmd.add_argument("game", choices=list(rule_names()), metavar="GAME",
                           help="one of: " + ", ".join(rule_names()))
    perft_cmd.add_argument("depth", type=_depth, metavar="DEPTH", help="plies to count (0 or more)")
    perft_cmd.add_argument("--feen", metavar="FEEN", help="the position; default: the game's start")
    perft_cmd.add_argument("--divide", action="store_true",
                           help="also print each legal move with the paths after it")
    return parser


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="text for people (default) or json for programs")
    parser.add_argument("--max-errors", type=_positive, default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"report at most N violations (default {DEFAULT_MAX_ERRORS})")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more")
    return value


def run(
    argv: Sequence[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    stdin: IO[bytes] | None = None,
) -> int:
    """Run the command with ``argv`` (without the program name); return the exit status."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = _build_parser(out, err)
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) == 3 and arguments[0] == "parse" and arguments[2] not in ("-h", "--help", "--"):
        # A diminished piece (-p) or any TEXT starting with '-' is the text, not an option.
        arguments.insert(2, "--")
    try:
        args = parser.parse_args(arguments)
        if args.command is None:
            parser.print_help(err)
            return 2
        handler = _COMMANDS[args.command]
        return handler(args, out, err, stdin)
    except _Exit as stop:
        return stop.status


def _parse(args: argparse.Namespace, out: IO[str], err: IO[str], _: IO[bytes] | None) -> int:
    try:
        value = _PARSERS[args.kind](args.text)
    except NotationError as error:
        err.write(f"ggn parse {args.kind}: {error}\n")
        return 1
    out.write(json.dumps(value.fields()) + "\n")
    return 0


def _read(name: str, stdin: IO[bytes] | None, err: IO[str]) -> Any | None:
    """Read a file's bytes; on an unreadable file, say so and return None."""
    if name == "-":
        data, faults = read_file(stdin if stdin is not None else sys.stdin.buffer)
    else:
        data, faults = read_file(name)
    if faults or data is None:
        err.write(f"ggn: {faults[0].message}\n")
        return None
    return data


def _load(
    kind: type[Document], name: str, stdin: IO[bytes] | None, err: IO[str], max_errors: int
) -> tuple[int, Document | None, list[Violation]]:
    data = _read(name, stdin, err)
    if data is None:
        return 2, None, []
    value, faults = decode(data)
    if faults:
        return 1, None, faults
    try:
        return 0, kind.from_value(value, max_errors=max_errors), []
    except DocumentError as error:
        return 1, None, list(error.violations)


def _shown(name: str) -> str:
    return "<stdin>" if name == "-" else name


def _validate(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[bytes] | None) -> int:
    kind = _DOCUMENTS[args.kind]
    status, _, violations = _load(kind, args.file, stdin, err, args.max_errors)
    if status == 2:
        return 2
    if args.format == "json":
        errors = [{"path": v.path, "message": v.message} for v in violations]
        out.write(json.dumps({"valid": status == 0, "errors": errors}) + "\n")
    elif status == 0:
        out.write(f"{_shown(args.file)}: valid {kind._kind} document\n")
    else:
        _report(err, args.file, kind, violations, args.max_errors)
    return status


def _report(err: IO[str], name: str, kind: type[Document], violations: list[Violation],
            limit: int) -> None:
    more = " (at the limit; there may be more)" if len(violations) >= limit else ""
    noun = "violation" if len(violations) == 1 else "violations"
    err.write(f"{_shown(name)}: invalid {kind._kind} document, {len(violations)} {noun}{more}\n")
    for violation in violations:
        err.write(f"  {violation.path or '(document)'}: {violation.message}\n")


def _lint(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[bytes] | None) -> int:
    shape = None
    if args.board is not None:
        try:
            shape = Feen.parse(args.board).shape
        except NotationError as error:
            err.write(f"ggn lint: --board: {error}\n")
            return 2
    status, document, violations = _load(Ruleset, args.file, stdin, err, args.max_errors)
    if status == 2:
        return 2
    if document is None:
        if args.format == "json":
            errors = [{"path": v.path, "message": v.message} for v in violations]
            out.write(json.dumps({"valid": False, "errors": errors, "warnings": []}) + "\n")
        else:
            _report(err, args.file, Ruleset, violations, args.max_errors)
        return 1
    assert isinstance(document, Ruleset)
    warnings = lint(document, shape)
    if args.format == "json":
        shown = [{"path": w.path, "message": w.message, "rule": w.rule} for w in warnings]
        out.write(json.dumps({"valid": True, "errors": [], "warnings": shown}) + "\n")
    else:
        for warning in warnings:
            out.write(f"{_shown(args.file)}:{warning}\n")
        noun = "warning" if len(warnings) == 1 else "warnings"
        out.write(f"{_shown(args.file)}: valid GGN document, {len(warnings)} {noun}\n")
    return 0


def _schema(args: argparse.Namespace, out: IO[str], err: IO[str], _: IO[bytes] | None) -> int:
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


def _demo(args: argparse.Namespace, out: IO[str], err: IO[str], _: IO[bytes] | None) -> int:
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


def _rules(name: str, stdin: IO[bytes] | None, err: IO[str]) -> tuple[int, Ruleset | None]:
    if name in games.names():
        return 0, games.ruleset(name)
    status, document, violations = _load(Ruleset, name, stdin, err, DEFAULT_MAX_ERRORS)
    if status == 1:
        _report(err, name, Ruleset, violations, DEFAULT_MAX_ERRORS)
    if document is None:
        return status, None
    assert isinstance(document, Ruleset)
    return 0, document


def _position(text: str, err: IO[str], command: str) -> Position | None:
    try:
        return Position.from_feen(text)
    except NotationError as error:
        err.write(f"ggn {command}: {error}\n")
        return None


def _moves(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[bytes] | None) -> int:
    feen = args.feen
    if feen is None:
        if args.rules not in games.names():
            err.write("ggn moves: give a FEEN position after a GGN file (only a built-in game "
                      "has a default start position)\n")
            return 2
        feen = games.start(args.rules)
    position = _position(feen, err, "moves")
    if position is None:
        return 1
    status, rules = _rules(args.rules, stdin, err)
    if rules is None:
        return status
    moves = rules.moves(position)
    if args.format == "json":
        listed = [
            {"piece": str(m.piece), "source": str(m.source), "destination": str(m.destination)}
            for m in moves
        ]
        out.write(json.dumps(listed) + "\n")
    else:
        out.writelines(f"{m}\n" for m in moves)
    return 0


def _transition(text: str, stdin: IO[bytes] | None, err: IO[str]) -> tuple[int, Transition | None]:
    if text.lstrip().startswith("{"):
        try:
            return 0, Transition.loads(text)
        except DocumentError as error:
            _report(err, "STN", Transition, list(error.violations), DEFAULT_MAX_ERRORS)
            return 1, None
    status, document, violations = _load(Transition, text, stdin, err, DEFAULT_MAX_ERRORS)
    if status == 1:
        _report(err, text, Transition, violations, DEFAULT_MAX_ERRORS)
    if document is None:
        return status, None
    assert isinstance(document, Transition)
    return 0, document


def _apply(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[bytes] | None) -> int:
    position = _position(args.feen, err, "apply")
    if position is None:
        return 1
    status, transition = _transition(args.stn, stdin, err)
    if transition is None:
        return status
    try:
        after = position.apply(transition)
    except PositionError as error:
        err.write(f"ggn apply: {error}\n")
        return 1
    out.write(after.to_feen() + "\n")
    return 0


def _diff(args: argparse.Namespace, out: IO[str], err: IO[str], _: IO[bytes] | None) -> int:
    before = _position(args.before, err, "diff")
    after = _position(args.after, err, "diff") if before is not None else None
    if before is None or after is None:
        return 1
    try:
        transition = diff(before, after)
    except PositionError as error:
        err.write(f"ggn diff: {error}\n")
        return 1
    out.write(json.dumps(transition.to_value()) + "\n")
    return 0


def _generate(args: argparse.Namespace, out: IO[str], err: IO[str], _: IO[bytes] | None) -> int:
    out.write(json.dumps(games.document(args.game), indent=args.indent or None) + "\n")
    return 0


def _mapping(name: str | None, legacy: LegacyRuleset, err: IO[str]) -> tuple[int, GanMapping | None]:
    if name is None:
        games_named = {piece.gan.game.lower() for piece in legacy.pieces}
        if len(games_named) != 1 or next(iter(games_named)) not in BUILTIN_MAPPINGS:
            found = ", ".join(sorted(games_named)) or "none"
            err.write(f"ggn convert: no built-in mapping covers the document's games ({found}); "
                      "give one with --mapping NAME|FILE\n")
            return 2, None
        return 0, builtin_mapping(next(iter(games_named)))
    if name.lower() in BUILTIN_MAPPINGS:
        return 0, builtin_mapping(name)
    if not os.path.exists(name):
        err.write(f"ggn convert: --mapping {name!r} is neither a built-in mapping "
                  f"({', '.join(BUILTIN_MAPPINGS)}) nor a file\n")
        return 2, None
    try:
        return 0, load_mapping(name)
    except DocumentError as error:
        err.write(f"ggn convert: --mapping {name}: invalid mapping\n")
        for violation in error.violations:
            err.write(f"  {violation.path or '(document)'}: {violation.message}\n")
        return 1, None
    except OSError as error:
        err.write(f"ggn convert: --mapping {name}: {error.strerror or error}\n")
        return 2, None


def _convert(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[bytes] | None) -> int:
    status, document, violations = _load(LegacyRuleset, args.file, stdin, err, DEFAULT_MAX_ERRORS)
    if document is None:
        if status == 1:
            _report(err, args.file, LegacyRuleset, violations, DEFAULT_MAX_ERRORS)
        return status
    assert isinstance(document, LegacyRuleset)
    status, mapping = _mapping(args.mapping, document, err)
    if mapping is None:
        return status
    try:
        conversion = convert(document, mapping)
    except ConversionError as error:
        err.write(f"ggn convert: {error}\n")
        return 1
    indent = args.indent or None
    if args.effects is not None:
        try:
            with open(args.effects, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(conversion.effects, indent=indent) + "\n")
        except OSError as error:
            err.write(f"ggn convert: cannot write --effects {args.effects}: "
                      f"{error.strerror or error}\n")
            return 2
    out.write(conversion.ruleset.dumps(indent=indent) + "\n")
    for note in conversion.notes:
        err.write(f"ggn convert: note: {note}\n")
    if args.effects is not None:
        err.write(f"ggn convert: effects written to {args.effects}\n")
    elif any(conversion.effects.values()):
        err.write("ggn convert: the effects (board_patch and hand fields), which GGN 1.0.0 does "
                  "not hold, were not written; give --effects FILE to keep them as STN\n")
    return 0


def _perft(args: argparse.Namespace, out: IO[str], err: IO[str], _: IO[bytes] | None) -> int:
    rules = rule_system(args.game)
    try:
        position = rules.position(args.feen)
        if args.divide and args.depth > 0:
            split = divide(rules, args.depth, position)
            out.writelines(f"{play}: {count}\n" for play, count in split)
            out.write(f"total: {sum(count for _, count in split)}\n")
        else:
            out.write(f"{perft(rules, args.depth, position)}\n")
    except GGNError as error:
        err.write(f"ggn perft: {error}\n")
        return 1
    return 0


_COMMANDS: dict[str, Callable[[argparse.Namespace, IO[str], IO[str], IO[bytes] | None], int]] = {
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
}


def main() -> NoReturn:
    """Console-script entry point."""
    try:
        status = run()
        sys.stdout.flush()
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:  # the reader went away (ggn schema ggn | head): not our failure
        # Point stdout at nothing so that the interpreter's final flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    sys.exit(status)
