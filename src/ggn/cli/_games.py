"""The commands on games under their rules: ``variants`` (the games), ``legal`` (legal moves),
``perft`` (legal move paths), ``play`` (moves played) and ``position`` (FEN and FEEN)."""

from __future__ import annotations

import argparse
import contextlib
import json
from typing import IO, Any, Final

from ggn._json import quote
from ggn.cli._arguments import (
    DASHED,
    FEN_EXAMPLE,
    MY_INI,
    Bounded,
    Commands,
    add_format,
    add_game,
    add_ini,
    add_notation,
    add_position,
    add_rules,
)
from ggn.cli._catalogue import catalogue, entry, played, position, tell
from ggn.cli._parallel import (
    add_batch,
    add_spread,
    batch_rules,
    check_no_spread,
    perft_split,
    refuse_positions,
    run_batch,
    spread,
)
from ggn.cli._progress import progress, showing
from ggn.cli._streams import Exit, Stream
from ggn.errors import GGNError
from ggn.rules import MAX_PERFT_DEPTH, Outcome, perft

DEPTH: Final = Bounded(0, MAX_PERFT_DEPTH)
"""perft's DEPTH (here, not in ggn.cli._arguments: the rule systems are this module's to import,
and ``ggn moves`` never needs them)."""

GENERIC: Final = (
    "each move's effect is the Game Protocol's displacement (a captured piece goes, unchanged, "
    "into the mover's hand; no promotion, no castling rook, no en passant: GGN describes none), "
    "a play is illegal if the opponent can then move onto one of the mover's terminal (^) "
    "pieces, and a player with no legal play loses (by checkmate if in check, else by no legal "
    "move); a document with no terminal piece makes no play illegal, and a note on stderr says "
    "so (docs/documents.md).")
"""The generic rule system, as the help of the commands that play a GGN document says it."""

CHESS_FEEN: Final = "+rnbq+k^bn+r/pppppppp/8/8/8/8/PPPPPPPP/+RNBQ+K^BN+R / C/c"
DOCUMENT_FEEN: Final = "4k^3/8/8/8/8/8/8/4K^2R / C/c"


def register(commands: Commands) -> None:
    variants = commands.add(
        "variants", _variants, summary="list the games: the built-in variants, and those of --ini files",
        description="List every game the library plays: Fairy-Stockfish's variants under their "
                    "own names, described as data (docs/VARIANTS.md says which of its variants "
                    "are built in, and why the others are not), then the variants of each --ini "
                    "file. Text: one game a line, its name, board (files x ranks) and where it "
                    "comes from. JSON: a list of objects with name, board ([files, ranks]), "
                    "source, start (FEEN), fen (Fairy-Stockfish's FEN), description, and which "
                    "engine plays the game here: engine ('native', the C kernel, or 'pure', the "
                    "Python path) for perft, counts and batch listing, playout_engine for "
                    "playouts (the kernel plays a game's playouts only where it replays all its "
                    "ends: not xiangqi's chasing, shatar's mate...), each with the reason "
                    "when 'pure' (engine_reason, playout_engine_reason; else '').",
        epilog="examples:\n  ggn variants\n  ggn variants --format json\n"
               "  ggn variants --ini my.ini      # my.ini: " + MY_INI,
    )
    add_format(variants, "one game a line: name, board, source",
               "a list of objects: name, board, source, start, fen, description, engine, "
               "engine_reason, playout_engine, playout_engine_reason")
    add_ini(variants)

    legal = commands.add(
        "legal", _legal, summary="list the legal moves of a position of a game or a GGN document",
        description="List the legal moves of a position of a game (its start position unless "
                    "one is given, as FEEN or with --fen), under the game's rules: promotion "
                    "choices, castling, en passant, drops, check. Or of a FEEN position under a "
                    "GGN document (a file, - or @FILE) played by the generic rule: "
                    + GENERIC + " A position whose game has ended has none. Text: one move a "
                    "line, in the game's own notation (SAN, as Fairy-Stockfish writes it: e4, "
                    "Nf3, O-O, e8=Q, P@e5; Hodges's for the shogi family: P-76) unless --notation "
                    "names another (uci, usi, ggn, ...); a GGN document's in GGN's notation ('C:P "
                    "e2-e4'), its only one. JSON: without --notation, a list of objects: for a "
                    "game, san (its own notation) and uci, then piece, source, destination, "
                    "choice (and wall, where a move places one) and transition (STN), the seeds' "
                    "form; with --notation ggn, the "
                    "seeds' form alone; with another --notation, a list of strings in it.",
        epilog="examples:\n  ggn legal chess                      # a3, a4, b3, ..., Nf3, Nh3\n"
               "  ggn legal chess --notation san --format json   # [\"a3\", \"a4\", ...]\n"
               "  ggn legal capablanca --notation uci --format json\n"
               "  ggn legal chess --notation ggn      # C:P a2-a3, ...\n"
               f"  ggn legal chess --fen '{FEN_EXAMPLE}'\n"
               "  ggn legal shogi --notation usi     # 1g1f, ..., 7g7f, ...\n"
               "  ggn legal shogi '4k^4/9/9/9/9/9/9/9/4K^4 P/ S/s'   # a FEEN: P*... drops too\n"
               "  ggn legal shogi '-p^8/9/9/9/9/9/9/9/4K^4 / S/s'   # a FEEN that starts with -\n"
               "  ggn legal chess --batch positions.txt --notation uci --jobs 2 > moves.jsonl\n"
               f"  ggn legal my-game.json '{DOCUMENT_FEEN}'   # a GGN document: FEEN needed\n"
               "  ggn legal - '4k^3/8/8/8/8/8/8/4K^2R / C/c' < chess.json   # ggn generate chess's\n"
               "  ggn legal my-game.json --batch positions.txt --jobs 2   # FEEN lines",
    )
    add_rules(legal, "game", default=None, at=True)
    add_ini(legal)
    add_position(legal, positional=True)
    add_notation(legal, "moves are written")
    add_format(legal, "one move a line", "a list: of strings with --notation (other than ggn), "
               "else of objects (piece, source, destination, choice, transition, and without "
               "--notation, a game's san and uci); --batch writes JSON either way")
    add_batch(legal)

    perft_cmd = commands.add(
        "perft", _perft, summary="count the legal move paths of a game or a GGN document",
        description="Count the legal move paths of DEPTH plies from a position of a game (its "
                    "start position unless --feen or --fen is given), under the game's rules: "
                    "legal moves, promotion choices, castling, en passant, drops. Or from a "
                    "--feen position under a GGN document (a file, - or @FILE) played by the "
                    "generic rule: " + GENERIC + " With --batch FILE, each line's position "
                    "is counted (a JSON object a line). The count is "
                    "the last line. With --divide, each legal move comes first with the paths "
                    "after it, in the game's own notation ('e4: 20'; 'e2e4: 20' with --notation uci, "
                    "as engines print it; 'C:P e2-e4: 20' with --notation ggn, a GGN document's "
                    "only one), and the last line is 'total: N'. The position must have the "
                    "game's board shape (exit 1 otherwise, before any board is built). On a terminal, "
                    "a progress bar on stderr counts the first moves done, the nodes and the "
                    "nodes per second (with the cli extra; GGN_NO_PROGRESS=1 turns it off).",
        epilog="examples:\n  ggn perft chess 3          # 8902\n"
               "  ggn perft chess 3 --divide          # a3: 380, ..., Nh3: 399, total: 8902\n"
               "  ggn perft chess 3 --divide --notation uci   # a2a3: 380, ...\n"
               "  ggn perft shogi 2 --divide\n"
               "  ggn perft chess 2 --feen '+r3+k^2+r/8/8/8/8/8/8/+R3+K^2+R / C/c'\n"
               "  ggn perft chess 2 --fen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'\n"
               "  ggn perft chess 4 --format json   # {\"game\": \"chess\", ..., \"nodes\": 197281}\n"
               "  ggn perft chess 4 --jobs 2   # this process and a worker process: 197281\n"
               f"  ggn perft chess.json 3 --feen '{CHESS_FEEN}'   # ggn generate chess's: 8902\n"
               f"  ggn perft @chess.json 3 --feen '{CHESS_FEEN}' --divide --jobs 2\n"
               "  ggn perft chess 3 --batch positions.txt --jobs 2 > counts.jsonl   # a count a line\n"
               "  ggn perft chess.json 3 --batch positions.txt   # FEEN lines",
    )
    add_rules(perft_cmd, "game", default=None, at=True)
    add_ini(perft_cmd)
    perft_cmd.add_argument("depth", type=DEPTH, metavar="DEPTH",
                           help=f"plies to count, 0 to {MAX_PERFT_DEPTH} (the paths grow "
                                "exponentially with the depth: no deeper count would finish)")
    where = perft_cmd.add_mutually_exclusive_group()
    where.add_argument("--feen", metavar="FEEN",
                       help="the position in FEEN; default: the game's start (a GGN document has "
                            "none: give one)")
    where.add_argument("--fen", metavar="FEN",
                       help="the position in Fairy-Stockfish's FEN of the game (standard FEN for chess)")
    perft_cmd.add_argument("--divide", action="store_true",
                           help="also print each legal move with the paths after it")
    add_notation(perft_cmd, "--divide writes the moves")
    add_format(perft_cmd, "the count, or the --divide lines",
               "one object: game, position (FEEN), depth and nodes, and with --divide, divide: "
               "each move's count; for a GGN document, game is null, and document (the file), "
               "terminal (whether a terminal piece is in play) and note (or null) say so")
    add_batch(perft_cmd, spread=False,
              answer="one JSON object a line out: position (FEEN), depth and nodes, and with "
                     "--divide, divide")
    add_spread(perft_cmd, "count (with --batch: answer the batch)")

    play = commands.add(
        "play", _play, summary="play moves in a game or a GGN document and print the position after them",
        description="Play MOVEs, one after the other, from a position of a game (its start "
                    "position unless one is given, as FEEN before the moves or with --fen), and "
                    "print the position after them in Fairy-Stockfish's FEN (standard FEN for "
                    "chess; --to feen: FEEN), the move counters carried on from --fen's, or from "
                    "0 and 1; then the moves in the game's own notation (SAN as Fairy-Stockfish "
                    "writes it; --notation names another); then, if the game has ended, its "
                    "result and how, and if the player to move may claim an end (a draw by "
                    "repetition or by the n-move rule), that. A move is read in any of the "
                    "game's notations, recognised without a flag: SAN (e4, Nf3, exd5, O-O, e8=Q, "
                    "P@e5, tolerant as python-chess's parse_san is: 0-0, e8Q, Ng1f3, check "
                    "marks), Fairy-Stockfish's other named notations, UCI (e2e4, e7e8q), USI for "
                    "the shogi family (7g7f, P*5e, 8h2b+) and GGN's ('C:P e2-e4'). A move that is "
                    "not legal where it is played, or names several legal moves, is invalid "
                    "input (exit 1): the message names it and its number, and the candidates or "
                    "the legal moves. JSON: one object, game, fen, feen, moves (in the --notation),"
                    " outcome (an end that has happened) and claim (an end the player to move may "
                    "claim), each null or {result: 1-0, 0-1 or 1/2-1/2, reason}. With --record, "
                    "the game is printed instead as a record: PGN, or KIF or CSA for shogi. Or play from a "
                    "FEEN position under a GGN document (a file, - or @FILE), by the generic "
                    "rule: " + GENERIC + " Its moves are in GGN's notation ('C:P e2-e4'), its "
                    "positions FEEN only (no --fen, --to fen, or --notation other than ggn).",
        epilog="examples:\n  ggn play chess e4 e5 Nf3\n"
               "  ggn play chess e2e4 e7e5 g1f3             # UCI: the same game\n"
               "  ggn play chess 'C:P e2-e4' 'c:p e7-e5'    # GGN's notation\n"
               "  ggn play chess f3 e5 g4 Qh4#               # 0-1 second player wins by checkmate\n"
               "  ggn play chess e4 e5 --notation uci --to feen\n"
               "  ggn play chess e4 e5 Nf3 --format json     # fen, feen, moves, outcome, claim\n"
               "  ggn play chess e4 e5 Nf3 --record pgn      # the game as PGN\n"
               "  ggn play shogi 7g7f 3c3d --record kif      # the game as KIF\n"
               f"  ggn play chess --fen '{FEN_EXAMPLE}' e5 Nf3\n"
               "  ggn play shogi 7g7f 3c3d 8h2b+             # USI; written P-76 P-34 Bx22+\n"
               "  ggn play crazyhouse e4 d5 exd5 Qxd5 --notation uci\n"
               "  ggn play xiangqi h3e3 h10g8 --notation wxf     # C2=5 H8+7\n"
               f"  ggn play my-game.json '{DOCUMENT_FEEN}' 'C:R h1-h8'   # a GGN document\n"
               f"  ggn play chess.json '{CHESS_FEEN}' 'C:P f2-f3' 'c:p e7-e5' 'C:P g2-g4' "
               "'c:q d8-h4'",
    )
    add_rules(play, "game", default=None, at=True)
    add_ini(play)
    play.add_argument("moves", nargs="*", metavar="MOVE",
                      help="the moves, each in any of the game's notations (SAN, UCI, USI, "
                           "GGN's, ...); the first argument is the starting position instead "
                           "when it is a FEEN (" + DASHED + ")")
    play.add_argument("--feen", dest="feen_option", metavar="FEEN",
                      help="the starting position in FEEN, as an option")
    play.add_argument("--fen", metavar="FEN",
                      help="the starting position in Fairy-Stockfish's FEN of the game")
    add_notation(play, "the moves are written (they are read in any)")
    play.add_argument("--to", choices=["feen", "fen"], default=None,
                      help="how the position after the moves is written: fen (a game's default: "
                           "Fairy-Stockfish's FEN) or feen (a GGN document's only form)")
    play.add_argument("--record", choices=["pgn", "kif", "csa"], metavar="FORMAT",
                      help="print the game as a record instead, in FORMAT: pgn (the Seven Tag "
                           "Roster, [Variant] and [FEN] where needed, the moves in SAN as "
                           "Fairy-Stockfish writes them, the result), or kif or csa (shogi's "
                           "formats, for the shogi family); a built-in game's only")
    add_format(play, "the position after the moves, the moves, then how the game ended if it "
               "has, and the end the player to move may claim if there is one",
               "one object: game, fen (null for a GGN document), feen, moves (in the --notation), "
               "outcome and claim (each null or {result, reason}); for a GGN document, "
               "document, terminal and note say so, as perft's do")

    position_cmd = commands.add(
        "position", _position, summary="rewrite a position of a game between FEN and FEEN",
        description="Read a position of a game, in Fairy-Stockfish's FEN (--fen) or in FEEN "
                    "(--feen), and write it in the form --to names (by default the other one: "
                    "a FEN given is written in FEEN, a FEEN in FEN). FEEN holds no move "
                    "counters: a FEN written from FEEN has 0 and 1, and one written from a FEN "
                    "keeps the FEN's. A position that is not one of the game (its board's "
                    "shape, a piece it does not have) is invalid input: exit 1.",
        epilog="examples:\n  ggn position chess --fen '" + FEN_EXAMPLE + "' --to feen\n"
               "  ggn position xiangqi --feen "
               "'rheag^aehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAG^AEHR / X/x' --to fen\n"
               "  ggn position chess --fen '" + FEN_EXAMPLE + "' --to feen --format json\n"
               "  ggn position shogi --feen "
               "'lnsgk^gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK^GSNL / S/s'   # its FEN",
    )
    add_game(position_cmd)
    given = position_cmd.add_mutually_exclusive_group(required=True)
    given.add_argument("--fen", metavar="FEN", help="the position in Fairy-Stockfish's FEN of the game")
    given.add_argument("--feen", metavar="FEEN", help="the position in FEEN")
    position_cmd.add_argument("--to", choices=["feen", "fen"], default=None,
                              help="the form to write the position in (default: the other form "
                                   "than the one given)")
    add_format(position_cmd, "the position", "one object: game, position and to")


def _variants(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    games = catalogue(args, stdin)
    listed = [games.entry(name) for name in games.names()]
    if args.format == "json":
        from ggn.rules._native import engine, playout_engine  # noqa: PLC0415  (on use: starts faster)

        written = []
        for game in listed:
            # Which engine plays the game here: the C kernel, or the pure-Python path and why;
            # perft and counts first, then the playouts (whose ends the kernel may not replay).
            used, why = engine(game.variant)
            plays, reason = playout_engine(game.variant)
            written.append({"name": game.name, "board": list(game.shape), "source": game.source,
                            "start": game.start, "fen": game.fen, "description": game.variant.description,
                            "engine": used, "engine_reason": why,
                            "playout_engine": plays, "playout_engine_reason": reason})
        out.write(json.dumps(written) + "\n")
        return 0
    width = max((len(game.name) for game in listed), default=0)
    for game in listed:
        files, ranks = game.shape
        line = f"{game.name:<{width}}  {files}x{ranks}"
        if game.source != "builtin":
            line += f"  {game.source}"
        out.write(line + "\n")
    return 0


def _legal(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    check_no_spread(args)
    if args.batch is not None:
        refuse_positions(args)
        rules = batch_rules(args, stdin, err, label="ggn legal")
        return run_batch(args, out, err, stdin, kind="legal", rules=rules, label="ggn legal")
    game, where = played(args, stdin, err, fen=args.fen, notation=args.notation, history=True)
    tell(err, "ggn legal", game, where)
    if args.fen is not None and game.game is not None:
        from ggn.game import Game  # noqa: PLC0415  (on use: the command starts faster)

        # The FEN's game: what it holds beyond the position counts (no move once a player has
        # given its last check, as in Fairy-Stockfish).
        plays = Game(game.rules, fen=args.fen).legal_moves()
    else:
        plays = game.rules.legal_moves(where)
    if args.format == "json" and args.notation in (None, "ggn"):
        # The seeds' form (each play's piece, squares, choice and STN transition), and a game's
        # own notation and Fairy-Stockfish's UCI beside it.
        written: list[Any] = []
        for play in plays:
            named = {} if game.game is None or args.notation == "ggn" else {
                "san": game.move(where, play, None), "uci": game.move(where, play, "uci")}
            written.append({**named, "piece": str(play.piece), "source": str(play.source),
                            "destination": str(play.destination),
                            "choice": None if play.choice is None else str(play.choice),
                            **({} if play.wall is None else {"wall": str(play.wall)}),
                            "transition": play.transition.to_value()})
    else:
        written = [game.move(where, play, args.notation) for play in plays]
    if args.format == "json":
        out.write(json.dumps(written) + "\n")
    else:
        out.write("".join(f"{text}\n" for text in written))
    return 0


def _perft(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    if args.batch is not None:  # --jobs then spreads the lines, not one count's tree
        refuse_positions(args)
        rules = batch_rules(args, stdin, err, label="ggn perft")
        return run_batch(args, out, err, stdin, kind="perft", rules=rules, label="ggn perft")
    # The position (and a game's board shape) is checked before any board is built.
    game, where = played(args, stdin, err, given=args.feen, fen=args.fen, notation=args.notation)
    tell(err, "ggn perft", game, where)
    rules = game.rules
    split: list[tuple[str, int]] | None = None
    if (args.depth < 2 and not (args.divide and args.depth == 1)) or not (
            args.divide or spread(args) or showing(err)):
        # One count, no split to show: the whole tree at once (the C kernel's, where it plays
        # the game, with no root moves listed by the pure path first).
        nodes = perft(rules, args.depth, where)
    elif spread(args):  # on worker processes or a Dask cluster: the bar advances a task at a time
        split = perft_split(args, err, game=game, where=where,
                            description=f"perft {game.name} {args.depth}")
        nodes = sum(count for _, count in split)
    else:  # by root move, as --divide prints them: the progress bar advances a move at a time
        split = []
        plays = rules.legal_moves(where)
        with progress(err, total=len(plays), unit="move", work="node",
                      description=f"perft {game.name} {args.depth}") as bar:
            for play in plays:
                # The --divide lines in the notation; the bar's note, without --divide, in GGN's
                # (no SAN to work out for a count that does not show it).
                written = game.move(where, play, args.notation) if args.divide else str(play)
                count = perft(rules, args.depth - 1, where.apply(play.transition))
                split.append((written, count))
                bar.advance(work=count, note=written)
        nodes = sum(count for _, count in split)
    if args.format == "json":
        result: dict[str, Any] = {"game": None if game.game is None else game.name,
                                  **game.described(where), "position": where.to_feen(),
                                  "depth": args.depth, "nodes": nodes}
        if args.divide and split is not None:
            result["divide"] = dict(split)
        out.write(json.dumps(result) + "\n")
    elif args.divide and split is not None:
        out.write("".join(f"{written}: {count}\n" for written, count in split))
        out.write(f"total: {nodes}\n")
    else:
        out.write(f"{nodes}\n")
    return 0


def _play(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    moves = list(args.moves)
    from ggn.variants.fen import is_feen  # noqa: PLC0415

    first = moves.pop(0) if moves and is_feen(moves[0]) else None
    if first is not None and args.feen_option is not None:
        raise Exit(2, "give the FEEN once: as the first argument or with --feen, not both")
    if args.record is not None and args.format == "json":
        raise Exit(2, "--record prints the game as a record, not JSON: give --record or --format json")
    game, current = played(args, stdin, err, given=first if first is not None else args.feen_option,
                           fen=args.fen, notation=args.notation, to=args.to, history=True)
    if args.record is not None and game.game is None:
        raise Exit(2, f"--record {args.record} writes a built-in game's moves, in the notation of its "
                      "record (PGN's SAN, KIF's and CSA's for shogi), which a GGN document has none of")
    tell(err, "ggn play", game, current)
    described = game.described(current)
    from ggn.game import Game  # noqa: PLC0415  (on use: the command starts faster)

    # The game's history (the FEN's counters carried on, the rules on repetition, the n-move
    # rule and counting): a FEN given is read by the game, which reads a count's limit too.
    record = Game(game.rules, fen=args.fen) if args.fen is not None else Game(game.rules, current)
    written: list[str] = []
    for number, text in enumerate(moves, 1):
        ended = record.outcome()
        if ended is not None:
            raise GGNError(f"move {number}, {quote(text)}, comes after the end of the game ({ended})")
        where = record.position
        try:
            play = game.read(where, text)
        except GGNError as error:
            message = str(error)
            if game.game is not None:  # the position's FEN, written with the game's counters
                with contextlib.suppress(GGNError):
                    message = message.replace(repr(game.game.from_feen(where)), repr(record.fen()))
            raise GGNError(f"move {number}: {message}") from None
        written.append(game.move(where, play, args.notation))
        record.push(play)
    if written and record.checks_left is not None and game.notation(args.notation) in ("san", "lan"):
        written = record.moves(game.notation(args.notation))  # its last check is a mate ('#')
    current = record.position
    fen: str | None = None
    if game.game is not None:
        try:
            fen = record.fen()
        except GGNError:
            if args.to == "fen":
                raise
            fen = None  # a position the game's FEN cannot say (FEEN can): FEEN, and null in JSON
    outcome = record.outcome()
    claim = None if outcome is not None else record.claim()
    if args.record is not None:
        from ggn.records import write  # noqa: PLC0415  (on use: the command starts faster)

        out.write(write(record, args.record).rstrip("\n") + "\n")
        return 0
    if args.format == "json":
        out.write(json.dumps({"game": None if game.game is None else game.name, **described,
                              "fen": fen, "feen": current.to_feen(), "moves": written,
                              "outcome": _end(outcome), "claim": _end(claim)}) + "\n")
        return 0
    to = args.to or ("feen" if fen is None else "fen")
    out.write(f"{fen if to == 'fen' else current.to_feen()}\n")
    if written:
        out.write((", " if game.notation(args.notation) == "ggn" else " ").join(written) + "\n")
    if outcome is not None:
        out.write(f"{_result(outcome)} {outcome}\n")
    if claim is not None:
        out.write(f"the player to move may claim: {_result(claim)} {claim}\n")
    return 0


def _result(outcome: Outcome) -> str:
    """A game's result as PGN writes it: 1-0 (the first player wins), 0-1 or 1/2-1/2."""
    return {"first": "1-0", "second": "0-1", None: "1/2-1/2"}[outcome.winner]


def _end(outcome: Outcome | None) -> dict[str, str] | None:
    """An end of the game as --format json writes it: its result and its reason."""
    return None if outcome is None else {"result": _result(outcome), "reason": outcome.ending.value}


def _position(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    game = entry(catalogue(args, stdin), args.game)
    to = args.to or ("feen" if args.fen is not None else "fen")
    where = position(game, args.feen, args.fen, history=to == "fen")
    if to == "fen" and args.fen is not None:
        from ggn.game import Game  # noqa: PLC0415  (on use: the command starts faster)

        written = Game(game.rules, fen=args.fen).fen()  # the FEN's counters and checks left kept
    elif to == "fen":
        written = game.from_feen(where)
    else:
        written = where.to_feen()
    if args.format == "json":
        written = json.dumps({"game": game.name, "position": written, "to": to})
    out.write(written + "\n")
    return 0
