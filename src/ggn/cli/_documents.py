"""The commands on GGN documents: ``validate``, ``lint``, ``generate`` (a game's complete
document) and ``demo`` (a tour on an embedded document); ``convert`` has its own module."""

from __future__ import annotations

import argparse
import json
from typing import IO

from ggn._document import Document
from ggn.cli._arguments import INDENT, MAX_INDENT, Commands, add_common, add_game
from ggn.cli._catalogue import catalogue, entry
from ggn.cli._inputs import listed, load, report, shown
from ggn.cli._streams import Exit, Stream
from ggn.errors import NotationError
from ggn.feen import Feen
from ggn.lcn import Conditions
from ggn.legacy import LegacyRuleset
from ggn.legacy_gem import GemRuleset
from ggn.linter import lint
from ggn.ruleset import Ruleset
from ggn.stn import Transition

_DOCUMENTS: dict[str, type[Document]] = {
    "ggn": Ruleset,
    "ggn-legacy": LegacyRuleset,
    "ggn-gem": GemRuleset,
    "lcn": Conditions,
    "stn": Transition,
}


def register(commands: Commands) -> None:
    validate = commands.add(
        "validate", _validate, summary="check a JSON document against every rule of its text",
        description="Check a document against every MUST of its text. Exit 0 if valid, 1 if "
                    "not (each violation with the JSON Pointer path of the offending value), "
                    "2 on a usage error or an unreadable file.",
        epilog="examples:\n  ggn validate rules.json\n  cat move.json | ggn validate --as stn -\n"
               "  ggn validate --format json rules.json   # {\"valid\": ..., \"errors\": [...]}",
    )
    validate.add_argument("--as", dest="kind", choices=list(_DOCUMENTS), default="ggn",
                          help="the kind of document (default: ggn, GGN 1.0.0; ggn-legacy, the "
                               "legacy format; ggn-gem, the Ruby gem sashite-ggn 0.3 to 0.7)")
    add_common(validate)
    validate.add_argument("file", metavar="FILE", help="the document, or - for standard input")

    lint_cmd = commands.add(
        "lint", _lint, summary="warn about SHOULD-level problems in a valid GGN document",
        description="Report the SHOULD rules of GGN 1.0.0 (section 9.3) that a valid document "
                    "breaks: contradictions between 'must' and 'deny', a 'deny' that can never "
                    "fire, repeated or implied possibilities, and with --board, squares off the "
                    "board. Warnings never fail: exit 0 unless the document or the --board "
                    "position is invalid (1), or on a usage error or an unreadable file (2).",
        epilog="example:\n  ggn lint chess.json --board '8/8/8/8/8/8/8/8 / C/c'",
    )
    lint_cmd.add_argument("--board", metavar="FEEN",
                          help="a FEEN position whose board shape the squares must lie on "
                               "(only its shape is read; an invalid FEEN is invalid input: exit 1)")
    add_common(lint_cmd)
    lint_cmd.add_argument("file", metavar="FILE", help="the GGN document, or - for standard input")

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

    commands.add(
        "demo", _demo, summary="a short tour on an embedded example document",
        description="Load, validate, navigate, lint and dump an embedded GGN document.",
    )


def _validate(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    kind = _DOCUMENTS[args.kind]
    loaded, violations = load(kind, args.file, stdin, args.max_errors)
    if args.format == "json":
        out.write(json.dumps({"valid": loaded is not None, "errors": listed(violations)}) + "\n")
    elif loaded is not None:
        out.write(f"{shown(args.file)}: valid {kind._kind} document\n")
    else:
        report(err, args.file, kind, violations, args.max_errors)
    return 0 if loaded is not None else 1


def _lint(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    # Only the shape is read (no board is built), and first: an invalid FEEN is invalid input.
    shape = None
    if args.board is not None:
        try:
            shape = Feen.parse(args.board).shape
        except NotationError as error:
            raise Exit(1, f"--board: {error}") from None
    rules, violations = load(Ruleset, args.file, stdin, args.max_errors)
    if rules is None:
        if args.format == "json":
            out.write(json.dumps({"valid": False, "errors": listed(violations), "warnings": []}) + "\n")
        else:
            report(err, args.file, Ruleset, violations, args.max_errors)
        return 1
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
