"""The commands on GGN documents: ``validate``, ``lint``, ``generate`` (a game's complete
document), ``convert`` (legacy GGN to GGN 1.0.0) and ``demo`` (a tour on an embedded document)."""

from __future__ import annotations

import argparse
import json
from typing import IO, Final

from ggn._document import Document
from ggn._json import DEFAULT_MAX_ERRORS, clip
from ggn.cli._arguments import INDENT, MAX_INDENT, Commands, add_common, add_game
from ggn.cli._catalogue import catalogue, entry
from ggn.cli._inputs import check_file, document, listed, load, read, report, shown
from ggn.cli._output import check_output, write_atomically
from ggn.cli._streams import Exit, Stream, reason
from ggn.convert import convert
from ggn.errors import NotationError
from ggn.feen import Feen
from ggn.lcn import Conditions
from ggn.legacy import LegacyRuleset
from ggn.legacy_eval import GanMapping
from ggn.linter import lint
from ggn.ruleset import Ruleset
from ggn.stn import Transition
from ggn.variants.registry import legacy_mapping, legacy_names

_DOCUMENTS: dict[str, type[Document]] = {
    "ggn": Ruleset,
    "ggn-legacy": LegacyRuleset,
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
                          help="the kind of document (default: ggn, GGN 1.0.0)")
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

    convert_cmd = commands.add(
        "convert", _convert, summary="rewrite a legacy GGN document as GGN 1.0.0",
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
    convert_cmd.add_argument("--indent", type=INDENT, default=2, metavar="N",
                             help=f"indentation of the JSON, 0 to {MAX_INDENT} (default 2; 0 "
                                  "for one line)")

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


_GAMES_NAMED: Final = 8  # the most games a message names


def _mapping(name: str | None, legacy: LegacyRuleset, stdin: IO[bytes] | None, err: Stream) -> GanMapping:
    if name is None:
        games_named = {piece.gan.game.lower() for piece in legacy.pieces}
        if len(games_named) != 1 or next(iter(games_named)) not in legacy_names():
            # A document can name thousands of games, of any length: a few are named, cut short.
            named = sorted(games_named)
            found = ", ".join(clip(game) for game in named[:_GAMES_NAMED]) or "none"
            if len(named) > _GAMES_NAMED:
                found += f", ... ({len(named):,} in all)"
            raise Exit(2, f"no built-in mapping covers the document's games ({found}); give one "
                          "with --mapping NAME|FILE")
        return legacy_mapping(next(iter(games_named)))
    if name.lower() in legacy_names():
        return legacy_mapping(name)
    check_file(name, "mapping", legacy_names(), "--mapping")
    mapping, violations = load(GanMapping, name, stdin, DEFAULT_MAX_ERRORS, read(name, stdin, "--mapping"))
    if mapping is None:
        err.write(f"ggn convert: --mapping {shown(name)}: invalid mapping\n")
        for violation in violations:
            err.write(f"  {violation.path or '(document)'}: {violation.message}\n")
        raise Exit(1)
    return mapping


def _convert(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    if args.file == "-" and args.mapping == "-":
        raise Exit(2, "standard input is read once: give LEGACY or --mapping as a file")
    if args.effects is not None:
        inputs = [args.file]
        if args.mapping is not None and args.mapping.lower() not in legacy_names():
            inputs.append(args.mapping)  # a built-in mapping's name is no file read
        check_output(args.effects, inputs, stdin, "--effects")
    legacy = document(LegacyRuleset, args.file, stdin, err)
    mapping = _mapping(args.mapping, legacy, stdin, err)
    conversion = convert(legacy, mapping)
    indent = args.indent or None
    if args.effects is not None:
        try:
            write_atomically(args.effects, json.dumps(conversion.effects, indent=indent) + "\n")
        except OSError as error:
            raise Exit(2, f"cannot write --effects {shown(args.effects)}: {reason(error)}") from None
    out.write(conversion.ruleset.dumps(indent=indent) + "\n")
    for note in conversion.notes:
        err.write(f"ggn convert: note: {note}\n")
    if args.effects is not None:
        err.write(f"ggn convert: effects written to {shown(args.effects)}\n")
    elif any(conversion.effects.values()):
        err.write("ggn convert: the effects (board_patch and hand fields), which GGN 1.0.0 does "
                  "not hold, were not written; give --effects FILE to keep them as STN\n")
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
