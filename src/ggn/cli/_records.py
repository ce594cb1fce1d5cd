"""The commands on game records: ``replay`` (check every move and the stated result of each game
of a PGN, KIF or CSA file) and ``record convert`` (a record written in another format)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any

from ggn.cli._arguments import Commands, add_format, add_ini, file_argument
from ggn.cli._catalogue import catalogue
from ggn.cli._inputs import read, shown
from ggn.cli._streams import Exit, Stream
from ggn.errors import GGNError

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.records import Record
    from ggn.rules import Outcome
    from ggn.variants.registry import Catalogue


def register(commands: Commands) -> None:
    replay = commands.add(
        "replay", _replay, summary="check and replay the games of a record file (PGN, KIF, CSA)",
        description=(
            "Read a record file, PGN, KIF or CSA (told from its content; UTF-8, Shift_JIS or "
            "ISO 8859-1), and replay each of its games under its game's rules: every move is "
            "checked (SAN as Fairy-Stockfish writes it, read as tolerantly as python-chess reads "
            "it; KIF's and CSA's own moves), and so is the stated result against the game's end. "
            "Each game's final position and end are printed as it is replayed. The first bad game "
            "(a move illegal, ambiguous or unreadable, a result the game contradicts, a broken "
            "record) ends the command with exit 1 and a message naming the game's number, the ply, "
            "the move as written and the line, after the games before it were printed. A PGN "
            "game's [Variant] names its game (lichess's or Fairy-Stockfish's name), [FEN] its start."),
        epilog=(
            "examples:\n"
            "  ggn replay games.pgn                 # each game's end and final position (FEN)\n"
            "  ggn replay games.pgn --to feen       # the final positions in FEEN\n"
            "  ggn replay - --format json < g.pgn   # a list, an object a game: moves (SAN), fen,\n"
            "                                       # feen, outcome, claim, result as written\n"
            "  ggn replay game.kif                  # a shogi game from its KIF record\n"
            "  ggn replay games.pgn --game crazyhouse  # games without [Variant] as crazyhouse\n"
            "  ggn replay my.pgn --ini my.ini       # your own variants ([Variant \"mygame\"])"),
    )
    file_argument(replay.add_argument(
        "file", metavar="FILE", help="the record file (PGN, KIF or CSA), or - for standard input"))
    replay.add_argument("--game", metavar="GAME",
                        help="the game of the PGN games that name none ([Variant]); default: chess")
    replay.add_argument("--to", choices=["fen", "feen"], default="fen",
                        help="how the final positions are written: fen, Fairy-Stockfish's FEN "
                             "(default), or feen")
    add_ini(replay)
    add_format(replay, "a line a game: its number, game, plies, stated result and end, then its "
                       "final position",
               "a list, one object a game: number, game, moves (in SAN, as Fairy-Stockfish writes "
               "them), fen, feen, outcome and claim (null or {result, reason}) and result (as written)")

    record = commands.add(
        "record", _record, summary="convert a record file: PGN, KIF, CSA",
        description=(
            "record convert IN --to FORMAT reads the games of a record file (PGN, KIF or CSA, told "
            "from its content), replays each (every move checked, as ggn replay does) and writes "
            "it in FORMAT: pgn (SAN as Fairy-Stockfish writes it, [Variant] and [FEN] where "
            "needed), kif or csa (shogi). A game written in its own format is written back as "
            "read, with its comments, NAGs and variations. The tags are carried over where the "
            "format has them (KIF's 先手 and 後手 are PGN's White and Black)."),
        epilog=(
            "examples:\n"
            "  ggn record convert game.kif --to pgn       # a shogi game from KIF to PGN\n"
            "  ggn record convert game.pgn --to kif       # and back\n"
            "  ggn record convert game.csa --to kif\n"
            "  ggn record convert - --to pgn < games.pgn  # PGN rewritten: tags, lines of 80"),
    )
    record.add_argument("action", choices=["convert"], help="what to do: convert, the only action")
    file_argument(record.add_argument("input", metavar="IN",
                                      help="the record file (PGN, KIF or CSA), or - for standard input"))
    record.add_argument("--to", choices=["pgn", "kif", "csa"], required=True,
                        help="the format written: pgn, kif or csa")
    add_ini(record)
    add_format(record, "the records, one after the other, a blank line between two",
               "a list, one object a game: number, game and record (the text written)")


def _records(name: str, stdin: IO[bytes] | None, game: str | None = None) -> Iterator[Record]:
    """The records of the file ``name`` (``-``: standard input), each PGN game that names no
    game given ``game``."""
    from ggn import records  # noqa: PLC0415  (this command's library only)

    data = read(name, stdin)
    for record in records.read(data if isinstance(data, (bytes, str)) else bytes(data)):
        if game is not None and record.format == "pgn" and record.tag("Variant") is None:
            yield replace(record, game=game)
        else:
            yield record


def _ended(outcome: Outcome | None) -> dict[str, str] | None:
    if outcome is None:
        return None
    result = "1/2-1/2" if outcome.winner is None else "1-0" if outcome.winner == "first" else "0-1"
    return {"result": result, "reason": outcome.ending.value}


def _moves(game: Game) -> list[str]:
    from ggn import notation  # noqa: PLC0415

    return [notation.write(game.rules, game.position_at(ply), play) for ply, play in enumerate(game.plays)]


def _replay(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    from ggn import records  # noqa: PLC0415

    games = catalogue(args, stdin)
    if args.game is not None:
        games.entry(args.game)  # an unknown game is refused before the file is read
    where = shown(args.file)
    json_out = args.format == "json"
    count = 0
    if json_out:
        out.write("[")
    try:
        for record in _records(args.file, stdin, args.game):
            game = records.replay(record, games)
            if json_out:
                out.write(("," if count else "") + "\n" + json.dumps(_value(record, game)))
            else:
                out.write(_text(record, game, args.to))
            count += 1
    except GGNError as error:
        if json_out:
            out.write("\n]\n" if count else "]\n")
        raise Exit(1, f"{where}: {error}") from None
    if json_out:
        out.write("\n]\n" if count else "]\n")
    elif count == 0:
        err.write(f"ggn replay: {where}: no game in it\n")
    return 0


def _value(record: Record, game: Game) -> dict[str, Any]:
    return {"number": record.number, "game": game.rules.name, "moves": _moves(game), "fen": game.fen(),
            "feen": game.feen(), "outcome": _ended(game.outcome()), "claim": _ended(game.claim()),
            "result": record.result}


def _text(record: Record, game: Game, to: str) -> str:
    plies = len(game)
    outcome = game.outcome()
    said = f"result {record.result}" if record.result is not None else "no result"
    if outcome is not None:
        end = str(outcome)
    else:
        claim = game.claim()
        end = "not ended" if claim is None else f"not ended; the player to move may claim a {claim}"
    position = game.fen() if to == "fen" else game.feen()
    return (f"game {record.number}: {game.rules.name}, {plies} {'ply' if plies == 1 else 'plies'}, {said}; "
            f"{end}\n  {position}\n")


def _record(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    from ggn import records  # noqa: PLC0415

    games: Catalogue = catalogue(args, stdin)
    where = shown(args.input)
    json_out = args.format == "json"
    written: list[dict[str, Any]] = []
    try:
        for record in _records(args.input, stdin):
            if record.format == args.to:  # written back as read: its moves checked all the same
                records.replay(record, games)
            text = records.write(record, args.to, games=games)
            if json_out:
                written.append({"number": record.number, "game": record.game, "record": text})
            else:
                out.write(("\n" if record.number > 1 else "") + text)
    except GGNError as error:
        if json_out:
            out.write(json.dumps(written) + "\n")
        raise Exit(1, f"{where}: {error}") from None
    if json_out:
        out.write(json.dumps(written) + "\n")
    return 0
