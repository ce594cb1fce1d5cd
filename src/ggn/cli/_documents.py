"""The commands on GGN documents: ``validate``, ``lint``, ``generate`` (a game's complete
document) and ``demo`` (a tour on an embedded document); ``convert`` has its own module."""

from __future__ import annotations

import argparse
import json
import re
from typing import IO, Final

from ggn._decimal import decimal_value
from ggn._document import Document
from ggn._json import quote
from ggn.cli._arguments import (
    GAMES,
    GAMES_OR_FILES,
    INDENT,
    MAX_INDENT,
    Commands,
    add_common,
    add_format,
    add_game,
    add_ini,
    file_argument,
)
from ggn.cli._catalogue import catalogue, entry
from ggn.cli._inputs import D, check_file, listed, load, load_value, report, shown
from ggn.cli._streams import Exit, Stream
from ggn.errors import NotationError, Violation
from ggn.feen import Feen
from ggn.lcn import Conditions
from ggn.legacy import LegacyRuleset
from ggn.legacy_gem import GemRuleset
from ggn.linter import lint
from ggn.ruleset import Ruleset
from ggn.stn import Transition
from ggn.variants.registry import Entry

_DOCUMENTS: dict[str, type[Document]] = {
    "ggn": Ruleset,
    "ggn-legacy": LegacyRuleset,
    "ggn-gem": GemRuleset,
    "lcn": Conditions,
    "stn": Transition,
}


_NAMES_FIRST = ("a built-in game's name (ggn variants lists them; --ini adds more) is its "
                "GGN document, else FILE is a file, or - for standard input: names come before "
                "files, so ./chess names a file called chess")


def register(commands: Commands) -> None:
    validate = commands.add(
        "validate", _validate, summary="check a JSON document against every rule of its text",
        description="Check a document against every MUST of its text. Exit 0 if valid, 1 if "
                    "not (each violation with the JSON Pointer path of the offending value), "
                    "2 on a usage error or an unreadable file. For a GGN document (--as ggn, the "
                    "default), " + _NAMES_FIRST + ".",
        epilog="examples:\n  ggn validate rules.json\n  ggn validate shogi          # the built-in "
               "game's document\n  cat move.json | ggn validate --as stn -\n"
               "  ggn validate --format json rules.json   # {\"valid\": ..., \"errors\": [...]}\n"
               "  ggn validate ./chess        # the file called chess, not the game",
    )
    validate.add_argument("--as", dest="kind", choices=list(_DOCUMENTS), default="ggn",
                          help="the kind of document (default: ggn, GGN 1.0.0; ggn-legacy, the "
                               "legacy format; ggn-gem, the Ruby gem sashite-ggn 0.3 to 0.7)")
    add_common(validate)
    add_ini(validate)
    file_argument(validate.add_argument("file", metavar="FILE|GAME",
                                        help="the document: a file, - for standard input, or "
                                             "with --as ggn a built-in game's name"), GAMES_OR_FILES)

    lint_cmd = commands.add(
        "lint", _lint, summary="warn about SHOULD-level problems in a valid GGN document",
        description="Report the SHOULD rules of GGN 1.0.0 (section 9.3) that a valid document "
                    "breaks: contradictions between 'must' and 'deny', a 'deny' that can never "
                    "fire, repeated or implied possibilities, and with a board, squares off the "
                    "board. Warnings never fail: exit 0 unless the document or the --board "
                    "is invalid (1), or on a usage error or an unreadable file (2). "
                    + _NAMES_FIRST[0].upper() + _NAMES_FIRST[1:] + "; a game's document is "
                    "linted on the game's board unless --board says otherwise.",
        epilog="examples:\n  ggn lint rules.json\n  ggn lint rules.json --board 8x8\n"
               "  ggn lint rules.json --board xiangqi     # xiangqi's board: 9x10\n"
               "  ggn lint rules.json --board '8/8/8/8/8/8/8/8 / C/c'\n"
               "  ggn lint shogi --format json",
    )
    board = lint_cmd.add_argument("--board", metavar="GAME|SHAPE|FEEN",
                          help="the board the squares must lie on: a game's name (its board), a "
                               "shape (files x ranks [x layers]: 8x8, 9x10, 8x8x8, or 8 for one "
                               "dimension), or a FEEN position (only its shape is read); one that "
                               "is none of these is invalid input: exit 1")
    file_argument(board, GAMES)
    add_common(lint_cmd, warnings=True)
    add_ini(lint_cmd)
    file_argument(lint_cmd.add_argument("file", metavar="FILE|GAME",
                                        help="the GGN document: a file, - for standard input, or a "
                                             "built-in game's name"), GAMES_OR_FILES)

    generate = commands.add(
        "generate", _generate, summary="write the complete GGN document of a game",
        description="Print the complete GGN 1.0.0 document of a game as JSON, made from the "
                    "game's description.",
        epilog="examples:\n  ggn generate chess > chess.json\n  ggn generate capablanca --indent 0\n"
               "  ggn generate mygame --ini my.ini",
    )
    add_game(generate)
    generate.add_argument("--indent", type=INDENT, default=2, metavar="N",
                          help=f"indentation of the JSON, 0 to {MAX_INDENT} (default 2; 0 for "
                               "one line)")
    add_format(generate, "the GGN document")

    demo = commands.add(
        "demo", _demo, summary="a short tour on an embedded example document",
        description="Load, validate, navigate, lint and dump an embedded GGN document made of "
                    "the examples of the GGN 1.0.0 text, then show the violations of a broken one.",
        epilog="examples:\n  ggn demo\n  ggn demo --format json | python3 -m json.tool",
    )
    add_format(demo, "the tour, for people",
               "one object: document, pieces (each with its fields and moves), warnings "
               "(linted on an 8x8 board) and broken (a broken document and its violations)")


def _game_document(kind: type[D], args: argparse.Namespace, stdin: IO[bytes] | None,
                   max_errors: int) -> tuple[D | None, list[Violation], Entry | None]:
    """The document FILE names: a game's (names come first), else the file's; the game too."""
    games = catalogue(args, stdin)
    if kind is Ruleset and args.file in games:
        game = games.entry(args.file)
        loaded, violations = load_value(kind, game.document(), max_errors)
        return loaded, violations, game
    if kind is Ruleset and _NAME.fullmatch(args.file):  # a game's name mistyped, or a file missing
        check_file(args.file, "game", ["ggn variants lists them"])
    if args.file == "-" and "-" in args.ini:
        raise Exit(2, "standard input is read once: give FILE or --ini as a file")
    loaded, violations = load(kind, args.file, stdin, max_errors)
    return loaded, violations, None


def _validate(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    kind = _DOCUMENTS[args.kind]
    loaded, violations, _ = _game_document(kind, args, stdin, args.max_errors)
    if args.format == "json":
        out.write(json.dumps({"valid": loaded is not None, "errors": listed(violations)}) + "\n")
    elif loaded is not None:
        out.write(f"{shown(args.file)}: valid {kind._kind} document\n")
    else:
        report(err, args.file, kind, violations, args.max_errors)
    return 0 if loaded is not None else 1


_NAME: Final = re.compile(r"[A-Za-z0-9_]+")  # what could be a game's name: no path, no suffix
_SHAPE: Final = re.compile(r"[0-9]+(?:x[0-9]+){0,2}")


def _board(text: str, args: argparse.Namespace, stdin: IO[bytes] | None) -> tuple[int, ...]:
    """The shape --board gives: a game's board, a shape such as 8x8, or a FEEN's board."""
    games = catalogue(args, stdin)
    if text in games:
        return games.entry(text).shape
    if _SHAPE.fullmatch(text):
        sizes = tuple(decimal_value(size) for size in text.split("x"))
        if 0 in sizes:
            raise Exit(1, f"--board: {quote(text)} has a size of 0; every size is 1 or more")
        return sizes
    if " " not in text:  # no FEEN: it has three fields
        raise Exit(1, f"--board: {quote(text)} is no game's name, no shape (such as 8x8, 9x10, "
                      "8x8x8 or 8) and no FEEN")
    try:
        return Feen.parse(text).shape  # only the shape is read: no board is built
    except NotationError as error:
        raise Exit(1, f"--board: {error}") from None


def _lint(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    # The board first (no board is built, only its shape read): an invalid one is invalid input.
    shape = None if args.board is None else _board(args.board, args, stdin)
    rules, violations, game = _game_document(Ruleset, args, stdin, args.max_errors)
    if rules is None:
        if args.format == "json":
            out.write(json.dumps({"valid": False, "errors": listed(violations), "warnings": []}) + "\n")
        else:
            report(err, args.file, Ruleset, violations, args.max_errors)
        return 1
    if shape is None and game is not None:
        shape = game.shape
    warnings = lint(rules, shape)
    if args.format == "json":
        written = [{"path": w.path, "message": w.message, "rule": w.rule} for w in warnings]
        out.write(json.dumps({"valid": True, "errors": [], "warnings": written}) + "\n")
    else:
        out.write("".join(f"{shown(args.file)}:{warning}\n" for warning in warnings))
        noun = "warning" if len(warnings) == 1 else "warnings"
        out.write(f"{shown(args.file)}: valid GGN document, {len(warnings)} {noun}\n")
    return 0


def _generate(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    generated = entry(catalogue(args, stdin), args.game).document()
    out.write(json.dumps(generated, indent=args.indent or None) + "\n")
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


def _demo(args: argparse.Namespace, out: Stream, err: Stream, _: IO[bytes] | None) -> int:
    rules = Ruleset.from_value(_DEMO)
    warnings = lint(rules, (8, 8))
    broken = {"C:R": {"a1": {"a1": [{"must": {"a1": "empty"}, "deny": {"a2": "friend"}}]}}}
    if args.format == "json":
        pieces = [{"qpi": str(qpi), "style": qpi.style, "name": qpi.name, "side": qpi.side,
                   "state": qpi.state, "terminal": qpi.terminal, "native": qpi.native,
                   "moves": [{"source": str(source), "destination": str(destination),
                              "possibilities": len(possibilities)}
                             for source, destinations in rules.select(qpi).items()
                             for destination, possibilities in destinations.items()]}
                  for qpi in rules.pieces]
        out.write(json.dumps({
            "document": json.loads(rules.dumps()), "pieces": pieces,
            "warnings": [{"path": w.path, "message": w.message, "rule": w.rule} for w in warnings],
            "broken": {"document": broken, "errors": listed(Ruleset.errors(broken))},
        }) + "\n")
        return 0
    out.write("An embedded GGN document, made of the examples of the GGN 1.0.0 text:\n\n")
    out.write(rules.dumps() + "\n\n")
    out.write(f"It is valid. Its pieces: {', '.join(map(str, rules.pieces))}\n")
    for qpi in rules.pieces:
        kind = "native" if qpi.native else "derived"
        out.write(f"  {qpi}: style {qpi.style}, name {qpi.name}, {qpi.side} side, {qpi.state}, "
                  f"{'terminal, ' if qpi.terminal else ''}{kind}\n")
        for source, destinations in rules.select(qpi).items():
            for destination, possibilities in destinations.items():
                out.write(f"    {source} -> {destination}: {len(possibilities)} possibilit"
                          f"{'y' if len(possibilities) == 1 else 'ies'}\n")
                for possibility in possibilities:
                    must = ", ".join(f"{c}={s}" for c, s in possibility.must.items())
                    deny = ", ".join(f"{c}={s}" for c, s in possibility.deny.items())
                    out.write(f"      must [{must}]" + (f" deny [{deny}]" if deny else "") + "\n")
    out.write(f"\nLint on an 8x8 board: {len(warnings)} warning(s)\n")
    for warning in warnings:
        out.write(f"  {warning}\n")
    out.write("\nAnd a broken one, with every violation and where it is:\n")
    out.write(f"  {json.dumps(broken)}\n")
    for violation in Ruleset.errors(broken):
        out.write(f"  {violation}\n")
    return 0
