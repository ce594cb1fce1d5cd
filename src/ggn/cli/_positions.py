"""The commands on positions under a GGN document or STN: ``moves`` (pseudo-legal moves),
``apply`` (a transition on a position) and ``diff`` (the transition between two positions)."""

from __future__ import annotations

import argparse
import json
from typing import IO, TYPE_CHECKING

from ggn._decimal import shown_tuple
from ggn.cli._arguments import (
    DASHED,
    DASHED_ARGUMENT,
    Commands,
    add_feen_option,
    add_format,
    add_ini,
    add_rules,
    feen,
    file_argument,
)
from ggn.cli._catalogue import catalogue, catalogue_of, document_position, ini_texts, rules_document
from ggn.cli._inputs import document, json_or_file
from ggn.cli._parallel import add_batch, check_no_spread, recipe_of, refuse_positions, run_batch, spread
from ggn.cli._streams import Exit, Stream
from ggn.errors import GGNError
from ggn.feen import Feen
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.stn import Transition

if TYPE_CHECKING:
    from ggn.parallel import Recipe
    from ggn.rules import RuleSystem


def register(commands: Commands) -> None:
    moves = commands.add(
        "moves", _moves, summary="list the pseudo-legal moves of a position",
        description="List every pseudo-legal move of a position under a GGN document: each "
                    "piece of the active player on the board, and each piece in the active "
                    "player's hand (source *), to every destination with a possibility that "
                    "holds. With no arguments: the built-in chess document and start position. "
                    "A built-in game's position must have the game's board shape (exit 1 "
                    "otherwise, before any board is built).",
        epilog="examples:\n  ggn moves\n  ggn moves chess '8/8/8/8/8/8/4P3/4K^3 / C/c'\n"
               "  ggn moves chess '-p^7/8/8/8/8/8/8/K^7 / C/c'    # a FEEN that starts with -\n"
               "  ggn moves chess --feen='-p^7/8/8/8/8/8/8/K^7 / C/c'\n"
               "  ggn moves rules.json 'lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'"
               "\n  ggn moves --format json   # [{\"piece\": ..., \"source\": ..., "
               "\"destination\": ...}, ...]"
               "\n  ggn moves shogi --batch positions.txt --jobs auto > moves.jsonl",
    )
    add_rules(moves, metavar="RULES", at=True)
    moves.add_argument("feen", nargs="?", metavar="FEEN",
                       help="the position; default: the built-in game's start position; " + DASHED)
    add_feen_option(moves)
    moves.add_argument("--format", choices=["text", "json"], default="text",
                       help="text: one move per line as 'PIECE SOURCE-DESTINATION' (default); "
                            "json: a list of objects (--batch writes JSON either way)")
    add_ini(moves)
    add_batch(moves)

    apply_cmd = commands.add(
        "apply", _apply, summary="apply an STN transition to a FEEN position",
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
    )
    apply_cmd.add_argument("feen", metavar="FEEN", help="the position before; " + DASHED_ARGUMENT)
    file_argument(apply_cmd.add_argument(
        "stn", metavar="STN", help="the transition: JSON text, @PATH, a file's path, or - (see above)"))
    add_format(apply_cmd, "the FEEN after", "{\"feen\": FEEN}")

    diff_cmd = commands.add(
        "diff", _diff, summary="the minimal STN transition from one position to another",
        description="Print, as JSON, the minimal STN transition that turns the first position "
                    "into the second. Both must share a board shape and styles (exit 1 "
                    "otherwise).",
        epilog="examples:\n  ggn diff '8/8/8/8/8/8/4P3/8 / C/c' '8/8/8/8/4P3/8/8/8 / c/C'\n"
               "  ggn diff -- '-p7/8/8/8/8/8/8/8 / C/c' 'p7/8/8/8/8/8/8/8 / C/c'",
    )
    diff_cmd.add_argument("before", metavar="FEEN", help="the position before; " + DASHED_ARGUMENT)
    diff_cmd.add_argument("after", metavar="FEEN", help="the position after")
    add_format(diff_cmd, "the STN transition")


def _moves(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    check_no_spread(args)
    if args.batch is not None:
        return _moves_batch(args, out, err, stdin)
    # The position is read before the document, and its board built only once both are known
    # to be good (a built-in game's rule system checks the board's shape first).
    games = catalogue(args, stdin)
    given = feen(args)
    if args.rules in games:
        position_feen = None if given is None else Feen.parse(given)
        # The game's document and a position of its shape and styles: pseudo-legal moves need
        # no rule system (not making one spares a fresh process a third of its start-up).
        game = games.entry(args.rules)
        rules, position = game.ruleset(), game.position(position_feen)  # no FEEN: the game's start
    else:
        rules, position = document_position(args, args.rules, stdin, err)
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


def _moves_batch(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    refuse_positions(args)
    if args.batch == "-" and "-" in (args.rules, *args.ini):
        raise Exit(2, "standard input is read once: give --batch or RULES and --ini as files")
    texts = ini_texts(args, stdin)
    games = catalogue_of(texts)
    rules: Ruleset | RuleSystem | Recipe
    if args.rules in games:
        game = games.entry(args.rules)
        rules = recipe_of(game, texts) if spread(args) else game.rules
    else:
        document_rules = rules_document(args, args.rules, stdin, err)
        if spread(args):
            from ggn.parallel import Recipe  # noqa: PLC0415  (on use: the command starts faster)

            rules = Recipe.of(document_rules)
        else:
            rules = document_rules
    return run_batch(args, out, err, stdin, kind="moves", rules=rules, label="ggn moves")


def _apply(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    before = Feen.parse(args.feen)  # read first; its board built once the transition is good
    name, data = json_or_file(args.stn, stdin)
    transition = document(Transition, name, stdin, err, data)
    after = Position.from_feen(before).apply(transition).to_feen()
    out.write((json.dumps({"feen": after}) if args.format == "json" else after) + "\n")
    return 0


def _diff(args: argparse.Namespace, out: Stream, err: Stream, _: IO[bytes] | None) -> int:
    before, after = Feen.parse(args.before), Feen.parse(args.after)
    if before.shape != after.shape:  # refused before two boards are built for nothing
        raise GGNError(f"positions of different board shapes ({shown_tuple(before.shape)} and "
                       f"{shown_tuple(after.shape)}) have no STN diff")
    from ggn.transitions import diff  # noqa: PLC0415  (on use: the other commands start faster)

    transition = diff(Position.from_feen(before), Position.from_feen(after))
    out.write(json.dumps(transition.to_value()) + "\n")
    return 0
