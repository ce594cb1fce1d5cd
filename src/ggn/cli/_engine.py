"""The command that asks an engine: ``analyse`` (a position of a game, its best move, score and
principal variation, from a UCI, USI or UCCI engine: :mod:`ggn.engine`)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
from typing import IO, TYPE_CHECKING, Any, Final

from ggn._json import quote
from ggn.cli._arguments import DASHED, FEN_EXAMPLE, Bounded, Commands, add_feen_option, add_format, add_game
from ggn.cli._catalogue import catalogue_of, entry, ini_texts, position
from ggn.cli._streams import Exit, Stream
from ggn.errors import GGNError

if TYPE_CHECKING:
    from ggn.engine import Analysis, Score
    from ggn.position import Position
    from ggn.rules import Play, RuleSystem

DEPTH: Final = Bounded(1, 1000)
MOVETIME: Final = Bounded(1, 7 * 24 * 3600 * 1000)
NODES: Final = Bounded(1, 10**15)
DEFAULT_MOVETIME: Final = 1000
"""Milliseconds of search when no limit is given."""
_DEBIAN: Final = "/usr/games"  # where Debian installs fairy-stockfish and stockfish, often not on PATH

_EPILOG: Final = f"""\
examples:
  ggn analyse chess --engine /usr/games/stockfish --depth 12
  ggn analyse chess e2e4 e7e5 g1f3 --engine stockfish   # after these moves
  ggn analyse chess --fen '{FEN_EXAMPLE}' --engine stockfish --nodes 100000
  ggn analyse shogi --engine fairy-stockfish --movetime 2000 --format json
  ggn analyse shogi --engine fairy-stockfish --protocol usi   # over USI
  ggn analyse xiangqi --engine fairy-stockfish --protocol ucci --depth 10
  ggn analyse mygame --ini my.ini --engine fairy-stockfish   # my.ini reaches the engine too
  ggn analyse chess --engine stockfish --option Threads=2 --option Hash=64

the engine:
  PATH is a program's path, or a name found on PATH or in /usr/games (where
  Debian's fairy-stockfish and stockfish packages install them). Fairy-Stockfish
  plays most games by name (UCI_Variant) and the variants of --ini files (its
  VariantPath); an engine without UCI_Variant plays chess only (shogi in USI,
  xiangqi in UCCI).

output:
  text: the best move (SAN where ggn writes it, and UCI), the score from the
  side to move's point of view (centipawns, or mate in N moves: negative, the
  side to move is mated), the principal variation, the depth and the nodes.
  json: {{"bestmove": uci, "san": ..., "score": {{"cp": n}} | {{"mate": n}}, "pv": [uci...],
  "pv_san": [...], "move": GGN's, "depth", "nodes", "stopped", "engine", "game", "fen"}}
  (fen: the position analysed, after the moves given); bestmove and score are null
  where the engine gives none (the game is over).
"""


def register(commands: Commands) -> None:
    analyse = commands.add(
        "analyse", _analyse, summary="ask an engine (UCI, USI, UCCI) for a position's best move and score",
        description="Ask an engine for the best move of a position of a game (its start position "
                    "unless FEEN or --fen is given, and after the MOVEs given: SAN where ggn reads "
                    "it, Fairy-Stockfish's UCI, or GGN's; they go to the engine as moves, so that "
                    "it sees the game's repetitions), with its score and principal variation. The "
                    "engine is a program that speaks UCI (Stockfish, Fairy-Stockfish), USI (shogi "
                    "engines) or UCCI (xiangqi engines): it is started, given the game's variant "
                    "(and the --ini files' text, through Fairy-Stockfish's VariantPath) and the "
                    "position, searches within the limit (one of --depth, --movetime, --nodes; "
                    f"default --movetime {DEFAULT_MOVETIME}), and is ended. Its best move and "
                    "principal variation are checked under ggn's rules of the game. An engine that "
                    "cannot be started, hangs (every wait has a timeout), exits or answers in "
                    "another protocol is an error naming what went wrong (exit 1; exit 2 when "
                    "there is no such program). docs/engines.md is the guide.",
        epilog=_EPILOG,
    )
    add_game(analyse)
    analyse.add_argument("moves", nargs="*", metavar="[FEEN] MOVE",
                         help="the position in FEEN (default: the game's start), then the moves played "
                              "from it; " + DASHED)
    add_feen_option(analyse)
    analyse.add_argument("--fen", metavar="FEN",
                         help="the position in Fairy-Stockfish's FEN of the game (standard FEN for chess)")
    analyse.add_argument("--engine", required=True, metavar="PATH",
                         help="the engine's program: a path, or a name on PATH or in /usr/games")
    analyse.add_argument("--protocol", choices=["uci", "usi", "ucci"], default="uci",
                         help="the engine's protocol: uci (default), usi (shogi engines), ucci "
                              "(xiangqi engines); Fairy-Stockfish speaks all three")
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=DEPTH, metavar="N", help="search N plies deep (1 to 1,000)")
    limit.add_argument("--movetime", type=MOVETIME, metavar="MS",
                       help=f"search for MS milliseconds (default {DEFAULT_MOVETIME})")
    limit.add_argument("--nodes", type=NODES, metavar="N",
                       help="search N positions (with one thread, the same answer every time)")
    analyse.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                         help="set one of the engine's options (repeat it for several: "
                              "--option Threads=2 --option Hash=64); a button takes no =VALUE")
    analyse.add_argument("--timeout", type=float, metavar="SECONDS",
                         help="the longest the search may take before it is stopped (default: the "
                              "movetime and 10 s more, else 60 s); the engine has 10 s for each "
                              "other answer")
    add_format(analyse, "the best move, the score, the principal variation",
               "one object: bestmove, san, score, pv, pv_san, move, depth, nodes, stopped, engine, "
               "game, fen")


def engine_path(text: str) -> str:
    """The program ``--engine`` names: a path, or a name on PATH or in /usr/games; none, or
    one that cannot be run, is a usage error (exit 2)."""
    if not text or "\0" in text:
        raise Exit(2, f"--engine names a program, not {quote(text)}")
    found = text if os.sep in text else shutil.which(text) or shutil.which(text, path=_DEBIAN)
    if found is None or not os.path.exists(found):
        where = "" if os.sep in text else " (looked for on PATH and in /usr/games)"
        raise Exit(2, f"--engine {quote(text, 200)}: no such program{where}; Debian's packages "
                      "fairy-stockfish and stockfish install engines in /usr/games")
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        raise Exit(2, f"--engine {quote(text, 200)}: not an executable file")
    return found


def _options(texts: list[str]) -> dict[str, str | None]:
    options: dict[str, str | None] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not name.strip():
            raise Exit(2, f"--option is NAME=VALUE (or NAME, for a button), not {quote(text)}")
        options[name.strip()] = value if equals else None
    return options


def _analyse(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    from ggn.engine import Engine, Limit  # noqa: PLC0415  (on use: the command starts faster)
    from ggn.variants.registry import BUILTIN  # noqa: PLC0415

    program = engine_path(args.engine)
    options = _options(args.option)
    if args.timeout is not None and not 0 < args.timeout <= 7 * 24 * 3600:
        raise Exit(2, f"--timeout is a number of seconds above 0 and at most a week, not {args.timeout}")
    from ggn.game import Game  # noqa: PLC0415
    from ggn.variants.fen import is_feen  # noqa: PLC0415

    texts = ini_texts(args, stdin)
    games = catalogue_of(texts)
    game = entry(games, args.game)
    moves = list(args.moves)
    first = moves.pop(0) if moves and is_feen(moves[0]) else None
    if first is not None and args.feen_option is not None:
        raise Exit(2, "give the FEEN once: as the first argument or with --feen, not both")
    given = first if first is not None else args.feen_option
    start = position(game, given, args.fen)
    played = Game(game.rules, fen=args.fen) if args.fen is not None else Game(game.rules, start)
    for move in moves:
        played.push(move)
    movetime = args.movetime
    if args.depth is None and args.nodes is None and movetime is None:
        movetime = DEFAULT_MOVETIME
    limit = Limit(depth=args.depth, movetime=movetime, nodes=args.nodes)
    rules = game.rules
    where = played.position
    with Engine(program, protocol=args.protocol) as engine:
        for option, setting in options.items():
            engine.setoption(option, setting)
        if game.source != BUILTIN:
            engine.load_variants("\n".join(text for _, text in texts))
        analysis = engine.analyse(played, limit=limit, timeout=args.timeout)
        name = engine.name
    fen = played.fen()
    san = _writer(rules)
    best_san = None if analysis.bestmove is None or san is None else san(where, analysis.bestmove)
    pv_san = _variation_san(san, rules, where, analysis.pv)
    value: dict[str, Any] = {
        "bestmove": analysis.uci, "san": best_san,
        "score": None if analysis.score is None else analysis.score.to_json(),
        "pv": list(analysis.pv_uci), "pv_san": pv_san,
        "move": None if analysis.bestmove is None else str(analysis.bestmove),
        "depth": analysis.depth, "nodes": analysis.nodes, "stopped": analysis.stopped,
        "engine": name, "game": game.name, "fen": fen,
    }
    if args.format == "json":
        out.write(json.dumps(value, ensure_ascii=False) + "\n")
        return 0
    out.write(_text(analysis, value, rules, where))
    return 0


def _writer(rules: RuleSystem) -> Any:
    """SAN's writer of the game (``write(position, play)``), or None where ggn has none."""
    try:
        notation = importlib.import_module("ggn.notation")
    except ImportError:
        return None
    write = getattr(notation, "write", None)
    if write is None:
        return None

    def san(where: Position, play: Play) -> str | None:
        try:
            text = write(rules, where, play)
        except GGNError:
            return None
        return text if isinstance(text, str) else None

    return san


def _variation_san(san: Any, rules: RuleSystem, where: Position, plays: tuple[Play, ...]) -> list[str] | None:
    if san is None:
        return None
    written = []
    for play in plays:
        text = san(where, play)
        if text is None:
            return None
        written.append(text)
        where = rules.play(where, play)
    return written


def _score(score: Score | None) -> str:
    if score is None:
        return "none given"
    bound = {"lower": "at least ", "upper": "at most ", None: ""}[score.bound]
    if score.mate is not None:
        if score.mate > 0:
            return f"{bound}mate in {score.mate} for the side to move"
        if score.mate < 0:
            return f"{bound}mated in {-score.mate}"
        return "mated"
    assert score.cp is not None
    return f"{bound}{score.cp / 100:+.2f} ({score.cp:+d} centipawns, for the side to move)"


def _text(analysis: Analysis, value: dict[str, Any], rules: RuleSystem, where: Position) -> str:
    lines = []
    if analysis.bestmove is None:
        outcome = rules.outcome(where)
        lines.append(f"best move: none ({outcome})" if outcome is not None else "best move: none")
    elif value["san"] is not None:
        lines.append(f"best move: {value['san']} ({value['bestmove']})")
    else:
        lines.append(f"best move: {value['bestmove']} ({value['move']})")
    lines.append(f"score: {_score(analysis.score)}")
    moves = value["pv_san"] if value["pv_san"] is not None else value["pv"]
    if moves:
        lines.append(f"principal variation: {' '.join(moves)}")
    facts = []
    if analysis.depth is not None:
        facts.append(f"depth {analysis.depth}")
    if analysis.nodes is not None:
        facts.append(f"{analysis.nodes:,} nodes")
    if analysis.stopped:
        facts.append("stopped at the timeout")
    facts.append(value["engine"])
    lines.append(", ".join(facts))
    return "\n".join(lines) + "\n"
