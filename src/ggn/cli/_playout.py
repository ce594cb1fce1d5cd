"""The ``playout`` command: games played to their end with seeded random moves, by result."""

from __future__ import annotations

import argparse
import json
from typing import IO, Final

from ggn.cli._arguments import DASHED, Bounded, Commands, add_format, add_ini, add_rules
from ggn.cli._catalogue import played, tell
from ggn.cli._streams import Exit, Stream

# ggn.rules._playout's bounds, written here so that the parser is built without the rule
# systems (tests/test_playout.py checks that they agree).
MAX_PLIES: Final = 1_000_000
MAX_GAMES: Final = 1 << 40
SEED_MAX: Final = (1 << 64) - 1
DEFAULT_GAMES: Final = 100
DEFAULT_MAX_PLIES: Final = 1000


def register(commands: Commands) -> None:
    playout = commands.add(
        "playout", _playout,
        summary="play games to their end with seeded random moves, and count the results",
        description="Play N games (--games) from a position of a game (its start unless a FEEN "
                    "or a FEN is given) with random moves, each game to its end, and count how "
                    "they ended. The moves come from a generator seeded with --seed and the "
                    "game's number: the same seed gives the same games, on any machine, with or "
                    "without the native kernel. --policy uniform picks every legal move alike; "
                    "--policy captures picks a capture (en passant and captures by drops too) "
                    "whenever there is one, all captures alike. A game ends as the game's rules "
                    "end it: checkmate, stalemate and the game's own ends (extinction, a goal, "
                    "checks given...), and the ends a player may claim, claimed at once: the "
                    "n-move rule (chess: fifty moves without a capture or pawn move), a "
                    "repetition (chess: the third time, shogi: the fourth, lost by perpetual "
                    "check), the counting rules; a game still going after --max-plies plies is "
                    "unfinished, '*'. Results are by side: 1-0 the first player (uppercase "
                    "pieces) won, 0-1 the second, 1/2-1/2 a draw. docs/DECISIONS.md "
                    "('Playouts') says exactly how a move is drawn, so that another program "
                    "can play the same games. Text: the games of each result and the plies "
                    "played. JSON: one object, games, plies, results (each result's games), "
                    "and the game, seed, policy, max_plies and engine (native or pure) that "
                    "played them.",
        epilog="examples:\n  ggn playout chess --games 1000 --seed 1\n"
               "  ggn playout chess --games 100 --seed 7 --policy captures --format json\n"
               "      # {\"game\": \"chess\", \"games\": 100, \"plies\": ..., \"results\": {\"1-0\": ...}}\n"
               "  ggn playout shogi --games 10 --seed 3 --max-plies 300\n"
               "  ggn playout chess 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' "
               "--games 50 --seed 2   # a FEN\n"
               "  ggn playout chess '+r3+k^2+r/8/8/8/8/8/8/+R3+K^2+R / C/c' --games 50 --seed 2   # a FEEN\n"
               "  GGN_PURE=1 ggn playout chess --games 10 --seed 1   # the pure-Python path: the same games",
    )
    add_rules(playout, "game", default=None, at=True)
    add_ini(playout)
    playout.add_argument("position", nargs="?", metavar="FEEN|FEN",
                         help="the position the games start from, in FEEN or in Fairy-Stockfish's FEN "
                              "of the game (standard FEN for chess; its move counters are read); "
                              "default: the game's start; " + DASHED)
    playout.add_argument("--feen", metavar="FEEN", help="the position in FEEN, as an option")
    playout.add_argument("--fen", metavar="FEN", help="the position in the game's FEN, as an option")
    playout.add_argument("--games", type=Bounded(0, MAX_GAMES), default=DEFAULT_GAMES, metavar="N",
                         help=f"the number of games to play (default {DEFAULT_GAMES})")
    playout.add_argument("--seed", type=Bounded(0, SEED_MAX), default=0, metavar="S",
                         help="the seed of the random moves, 0 to 2^64-1 (default 0): the same seed, "
                              "the same games")
    playout.add_argument("--policy", choices=["uniform", "captures"], default="uniform",
                         help="how a move is picked: uniform (every legal move alike; the default) or "
                              "captures (a capture whenever there is one)")
    playout.add_argument("--max-plies", type=Bounded(0, MAX_PLIES), default=DEFAULT_MAX_PLIES, metavar="N",
                         help=f"the plies after which a game still going is unfinished, '*' (default "
                              f"{DEFAULT_MAX_PLIES}, at most {MAX_PLIES:,})")
    add_format(playout, "the games of each result, the plies played",
               "one object: game, games, plies, results ({\"1-0\": n, \"0-1\": n, \"1/2-1/2\": n, "
               "\"*\": n}), seed, policy, max_plies, engine")


def _playout(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    from ggn.variants.fen import is_feen  # noqa: PLC0415

    given = [(name, value) for name, value in (("FEEN|FEN", args.position), ("--feen", args.feen),
                                                ("--fen", args.fen)) if value is not None]
    if len(given) > 1:
        raise Exit(2, f"give the position once: {given[0][0]} and {given[1][0]} both name one")
    feen_text = fen_text = None
    if args.position is not None:
        if is_feen(args.position):
            feen_text = args.position
        else:
            fen_text = args.position
    else:
        feen_text, fen_text = args.feen, args.fen
    game, where = played(args, stdin, err, given=feen_text, fen=fen_text)
    tell(err, "ggn playout", game, where)
    from ggn.rules import playout  # noqa: PLC0415  (on use: ggn moves imports no rule system)

    if fen_text is not None:  # the FEN's counters are the game's
        found = playout(game.rules, games=args.games, seed=args.seed, policy=args.policy,
                        max_plies=args.max_plies, fen=fen_text)
    else:
        found = playout(game.rules, where, games=args.games, seed=args.seed, policy=args.policy,
                        max_plies=args.max_plies)
    summary = found.to_json()
    summary["game"] = game.name
    if args.format == "json":
        out.write(json.dumps(summary) + "\n")
        return 0
    totals = found.totals()
    games = found.games
    start = "the position given" if given else "its start"
    out.write(f"{game.name}: {games:,} games from {start}, seed {args.seed}, policy {args.policy}, "
              f"at most {args.max_plies:,} plies ({found.engine})\n")
    names = {"1-0": "first player wins", "0-1": "second player wins", "1/2-1/2": "draw",
             "*": f"unfinished after {args.max_plies:,} plies"}
    for result, count in totals.items():
        share = f"{100 * count / games:5.1f}%" if games else "    -"
        out.write(f"{result:8} {count:>9,} {share}  {names[result]}\n")
    lengths = found.lengths
    if lengths:
        out.write(f"plies    {found.plies:>9,}  (a game: {min(lengths):,} to {max(lengths):,}, "
                  f"{found.plies / games:,.1f} on average)\n")
    else:
        out.write("plies            0\n")
    return 0
