"""The ``convert`` command: a legacy GGN document, or one of the pre-1.0 Ruby gem's dialect,
rewritten as GGN 1.0.0, and nothing of it lost without the exit status saying so."""

from __future__ import annotations

import argparse
import json
from typing import IO, Any, Final

from ggn._json import DEFAULT_MAX_ERRORS, clip, decode
from ggn.cli._arguments import INDENT, MAX_INDENT, Commands, add_format, file_argument
from ggn.cli._inputs import check_file, load, read, report, shown
from ggn.cli._output import check_output, write_atomically
from ggn.cli._progress import progress
from ggn.cli._streams import Exit, Stream, reason
from ggn.convert import Conversion, convert, convert_gem, entries, shogi_labels
from ggn.errors import DocumentError
from ggn.gan import LegacyPiece
from ggn.legacy import LegacyRuleset
from ggn.legacy_eval import GanMapping
from ggn.legacy_gem import GemRuleset
from ggn.variants.registry import legacy_mapping, legacy_names

_GAMES_NAMED: Final = 8  # the most games a message names
_PIECES_NAMED: Final = 8  # the most unknown pieces the summary names
_DIALECTS: Final = ("auto", "legacy", "gem")
_LEGACY_FIELDS: Final = frozenset({"board_check", "board_patch", "in_hand_add", "in_hand_del"})
_GEM_FIELDS: Final = frozenset({"require", "prevent", "perform", "gain", "drop"})


def register(commands: Commands) -> None:
    names = ", ".join(legacy_names())
    convert_cmd = commands.add(
        "convert", _convert, summary="rewrite a legacy GGN document as GGN 1.0.0",
        description="Rewrite a legacy GGN document (board_check, board_patch, in_hand_add, "
                    "in_hand_del) or one of the Ruby gem sashite-ggn 0.3 to 0.7 (require, "
                    "prevent, perform, gain, drop) as GGN 1.0.0 and print it as JSON. Legacy "
                    f"pieces (GAN, long as CHESS:KING or short as CHESS:K) become QPI through a "
                    f"mapping: a built-in one ({names}) or a JSON file of GAN to QPI. What GGN "
                    "1.0.0 cannot hold is reported on stderr, one note per line with its JSON "
                    "Pointer into the legacy document: the effects (board_patch and hand fields, "
                    "or perform, gain and drop) go, as STN transitions keyed like the new "
                    "document, to the file given by --effects, and are otherwise left out, "
                    "which loses no move. A move (piece, source, destination) or one of its "
                    "possibilities that cannot be carried over (a piece the mapping does not "
                    "know, a square that is no CELL coordinate), or with --effects an effect "
                    "that cannot be written, is named on stderr, and nothing is written unless "
                    "--partial accepts the partial result. Exit 0 when everything is carried "
                    "over (or --partial), 1 when something is not, or the document or the "
                    "mapping is invalid, 2 on a usage error, an unreadable file or an --effects "
                    "file that cannot be written.",
        epilog="examples:\n  ggn convert old.json --mapping chess > rules.json\n"
               "  ggn convert old.json --mapping pieces.json --effects effects.json > rules.json\n"
               "  ggn convert gem.json --dialect gem --partial > rules.json\n"
               "  ggn convert shogi-gem.json --labels shogi --effects effects.json > rules.json\n"
               "  # pieces.json: {\"CHESS:KING\": \"C:K^\", \"chess:king\": \"c:k^\", ...}",
    )
    file_argument(convert_cmd.add_argument("file", metavar="LEGACY",
                                           help="the legacy GGN document, or - for standard input"))
    mapping = convert_cmd.add_argument("--mapping", default=None, metavar="NAME|FILE",
                             help=f"the GAN to QPI mapping: a built-in name ({names}), else a "
                                  "JSON file or - for standard input; default: the built-in "
                                  "mapping of the document's game, when every piece belongs to "
                                  "one built-in game")
    file_argument(mapping)
    convert_cmd.add_argument("--dialect", choices=_DIALECTS, default="auto",
                             help="the document's dialect: legacy (board_check, board_patch), "
                                  "gem (require, prevent, perform: sashite-ggn 0.3 to 0.7), or "
                                  "auto (default): gem when an entry has a field of the gem's "
                                  "and none of the legacy format's, else legacy")
    convert_cmd.add_argument("--labels", choices=("cell", "shogi"), default="cell",
                             help="how the document writes its squares: cell (default), CELL "
                                  "coordinates such as e4; shogi, the Japanese way of the Ruby "
                                  "gems' shogi documents (5e: a file digit counted from the first "
                                  "player's right, a rank letter from the top), read as the CELL "
                                  "coordinates of a 9x9 board (5e is e5, 2h is h2); a label of "
                                  "another form is read as written")
    effects = convert_cmd.add_argument("--effects", metavar="OUT",
                             help="write the effects, as STN transitions keyed like the new "
                                  "document, to this JSON file: whole or not at all (a "
                                  "temporary file beside it, then renamed over it); never over "
                                  "an input file (exit 2)")
    file_argument(effects)
    convert_cmd.add_argument("--partial", action="store_true",
                             help="accept a partial result: write the document (and the "
                                  "effects) even when moves, possibilities or effects are not "
                                  "carried over, and exit 0; they are still named on stderr")
    convert_cmd.add_argument("--indent", type=INDENT, default=2, metavar="N",
                             help=f"indentation of the JSON, 0 to {MAX_INDENT} (default 2; 0 "
                                  "for one line)")
    add_format(convert_cmd, "the GGN 1.0.0 document; the notes go to stderr")


def _mapping(name: str | None, pieces: tuple[LegacyPiece, ...], stdin: IO[bytes] | None,
             err: Stream) -> GanMapping:
    if name is None:
        games_named = {piece.gan.game.lower() for piece in pieces}
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


def _dialect(value: Any) -> str:
    """``gem`` when some entry has a field of the gem's and none has one of the legacy format's."""
    gem = False
    if isinstance(value, dict):
        for sources in value.values():
            for destinations in sources.values() if isinstance(sources, dict) else ():
                for entries in destinations.values() if isinstance(destinations, dict) else ():
                    for entry in entries if isinstance(entries, list) else ():
                        if isinstance(entry, dict):
                            if not _LEGACY_FIELDS.isdisjoint(entry):
                                return "legacy"
                            gem = gem or not _GEM_FIELDS.isdisjoint(entry)
    return "gem" if gem else "legacy"


def _document(args: argparse.Namespace, stdin: IO[bytes] | None, err: Stream) -> LegacyRuleset | GemRuleset:
    value, faults = decode(read(args.file, stdin))
    dialect = args.dialect if args.dialect != "auto" else "legacy" if faults else _dialect(value)
    kind: type[LegacyRuleset] | type[GemRuleset] = GemRuleset if dialect == "gem" else LegacyRuleset
    violations = faults
    if not faults:
        try:
            return kind.from_value(value, max_errors=DEFAULT_MAX_ERRORS)
        except DocumentError as error:
            violations = list(error.violations)
    report(err, args.file, kind, violations, DEFAULT_MAX_ERRORS)
    raise Exit(1)


def _convert(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    if args.file == "-" and args.mapping == "-":
        raise Exit(2, "standard input is read once: give LEGACY or --mapping as a file")
    if args.effects is not None:
        inputs = [args.file]
        if args.mapping is not None and args.mapping.lower() not in legacy_names():
            inputs.append(args.mapping)  # a built-in mapping's name is no file read
        check_output(args.effects, inputs, stdin, "--effects")
    legacy = _document(args, stdin, err)
    mapping = _mapping(args.mapping, legacy.pieces, stdin, err)
    labels = shogi_labels if args.labels == "shogi" else None
    with progress(err, total=entries(legacy), unit="entry", description="convert") as bar:
        if isinstance(legacy, GemRuleset):
            conversion = convert_gem(legacy, mapping, progress=bar.advance, labels=labels)
        else:
            conversion = convert(legacy, mapping, progress=bar.advance, labels=labels)
    for note in conversion.notes:
        err.write(f"ggn convert: note: {note}\n")
    # An effect that cannot be written is lost only when the effects are asked for.
    lost = [record for record in conversion.lost if record.kind != "effect" or args.effects is not None]
    for record in lost:
        err.write(f"ggn convert: not carried over: {record}\n")
    if lost and not args.partial:
        err.write(f"ggn convert: {_summary(conversion, lost)}; nothing written (--partial accepts "
                  "a partial result)\n")
        return 1
    indent = args.indent or None
    if args.effects is not None:
        try:
            write_atomically(args.effects, json.dumps(conversion.effects, indent=indent) + "\n")
        except OSError as error:
            raise Exit(2, f"cannot write --effects {shown(args.effects)}: {reason(error)}") from None
    out.write(conversion.ruleset.dumps(indent=indent) + "\n")
    if lost:
        err.write(f"ggn convert: {_summary(conversion, lost)}; the partial result is written "
                  "(--partial)\n")
    if args.effects is not None:
        err.write(f"ggn convert: effects written to {shown(args.effects)}\n")
    elif any(conversion.effects.values()):
        fields = ("perform, gain and drop" if isinstance(legacy, GemRuleset)
                  else "board_patch and hand fields")
        err.write(f"ggn convert: the effects ({fields}), which GGN 1.0.0 does not hold, were not "
                  "written; give --effects FILE to keep them as STN\n")
    return 0


def _summary(conversion: Conversion, lost: list[Any]) -> str:
    """One line: how many moves, possibilities and effects are lost, and the unknown pieces."""
    counts = {kind: sum(record.kind == kind for record in lost) for kind in ("move", "possibility", "effect")}
    parts = [f"{count:,} {kind if count == 1 else ('possibilities' if kind == 'possibility' else kind + 's')}"
             for kind, count in counts.items() if count]
    said = ", ".join(parts) + " not carried over"
    unknown = conversion.unmapped
    if unknown:
        named = ", ".join(repr(clip(piece)) for piece in unknown[:_PIECES_NAMED])
        if len(unknown) > _PIECES_NAMED:
            named += f", ... ({len(unknown):,} in all)"
        said += f"; the mapping has no QPI for {named}"
    return said
