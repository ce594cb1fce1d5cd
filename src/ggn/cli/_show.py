"""The command that draws a position: ``show`` (text for the terminal, SVG, or PNG through the
optional ``[png]`` extra)."""

from __future__ import annotations

import argparse
import json
from typing import IO, TYPE_CHECKING, Any

from ggn.cell import Cell, parse_location
from ggn.cli._arguments import Commands, add_ini, add_notation, add_position, add_rules
from ggn.cli._catalogue import played, rules_file, tell
from ggn.cli._inputs import shown
from ggn.cli._output import check_output, write_atomically
from ggn.cli._streams import Exit, Output, Stream
from ggn.errors import GGNError
from ggn.svg import COORDINATES, HIGHLIGHT, MAX_PNG_ELEMENTS, TARGET

if TYPE_CHECKING:
    from ggn.rules import Play

_PNG_HINT = "pip install 'ggn[png]'"


def register(commands: Commands) -> None:
    show = commands.add(
        "show", _show, summary="draw a position: a Unicode board, SVG or PNG",
        description="Draw a position of a game (its start position unless FEEN or --fen is "
                    "given), or a FEEN position under a GGN document (a file, - or @FILE): the "
                    "board with its coordinates (the game's own, or another --coordinates "
                    "style), both hands with their counts, who is to move, and the marks "
                    "of + (enhanced), - (diminished), ^ (terminal) and ' (derived) on the "
                    "pieces. text: a Unicode board (coloured when standard output is a "
                    "terminal); svg: an SVG picture; png: a PNG picture, drawn by cairosvg (pip "
                    "install 'ggn[png]', and the system's cairo library). With --moves-from, "
                    "the square and the destinations of its piece are highlighted, and the text "
                    "lists its legal moves (in the game's own notation, SAN as Fairy-Stockfish "
                    "writes it, unless --notation names another; a GGN document's in GGN's): its legal "
                    "moves, under a game's rules or under a GGN document's generic rule (the "
                    "Game Protocol's displacement; a play is illegal if the opponent can then "
                    "move onto one of the mover's terminal pieces: docs/documents.md). Kanji and "
                    "Chinese characters are drawn as shapes shipped with ggn, which need no font; "
                    "--letters draws letters instead.",
        epilog="examples:\n  ggn show chess\n  ggn show shogi --format svg -o shogi.svg\n"
               "  ggn show chess --fen 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'\n"
               "  ggn show xiangqi --format png -o xiangqi.png\n"
               "  ggn show shogi --format svg --coordinates cell   # each square's CELL name\n"
               "  ggn show chess --moves-from g1             # moves from g1: Nf3, Nh3\n"
               "  ggn show chess --moves-from g1 --notation uci\n"
               "  ggn show rules.json '8/8/8/8/8/8/4P3/8 / C/c' --moves-from e2",
    )
    add_rules(show, "game", default=None, at=True)
    add_position(show, positional=True)
    show.add_argument("--format", choices=["text", "json", "svg", "png"], default="text",
                      help="text: a Unicode board (default); json: one object with game, position "
                           "(FEEN), moves_from, destinations, moves (in the --notation) and svg "
                           "(the SVG picture), and for a GGN document (game null) document, terminal and "
                           "note, as perft's; svg: an "
                           "SVG picture; png: a PNG picture (needs ggn[png]; at most "
                           f"{MAX_PNG_ELEMENTS:,} drawn elements, a few seconds of cairosvg: a board "
                           "of more pieces is refused)")
    show.add_argument("--moves-from", metavar="SQUARE",
                      help="highlight SQUARE and its piece's destinations (* for the pieces in "
                           "the hand of the player to move)")
    add_notation(show, "--moves-from lists the moves")
    show.add_argument("-o", "--output", metavar="FILE",
                      help="write the picture to FILE (whole or not at all) rather than to "
                           "standard output")
    show.add_argument("--flip", action="store_true", help="the second player at the bottom")
    names = show.add_mutually_exclusive_group()
    names.add_argument("--coordinates", choices=COORDINATES, default="game", metavar="STYLE",
                       help="how the squares are named around or on the board (svg, png and json's "
                            "svg): game (default), the game's own: shogi's files 9 to 1 above the "
                            "board and its ranks in kanji numerals, one to nine from the top, on the "
                            "right (a to i with --letters), xiangqi's files from each player's right "
                            "along its own edge (red's in Chinese numerals, nine to one; black's 1 to "
                            "9), janggi's files 1 to 9 and ranks 1 to 0, any other "
                            "game's as outside; outside: ggn's CELL names, files a, b, ... below "
                            "and ranks 1, 2, ... on the left (the names --moves-from and GGN's "
                            "moves use); inside: the same inside the edge squares, as lichess; cell: "
                            "each square's whole CELL name (a1, b1, ...) in its corner; none. The "
                            "text board writes CELL names (any style but none) or none")
    names.add_argument("--no-coordinates", action="store_const", const="none", dest="coordinates",
                       help="leave out the squares' names (--coordinates none)")
    show.add_argument("--letters", action="store_true",
                      help="draw shogi and xiangqi pieces with letters, not characters")
    show.add_argument("--size", type=int, default=48, metavar="PX",
                      help="the side of a square of an SVG or PNG picture, 8 to 512 pixels (default 48)")
    add_ini(show)


def _show(args: argparse.Namespace, out: Stream, err: Stream, stdin: IO[bytes] | None) -> int:
    if not 8 <= args.size <= 512:
        raise Exit(2, f"--size is 8 to 512 pixels, not {args.size}")
    if args.output is not None:
        check_output(args.output, [args.game, rules_file(args.game), *args.ini], stdin, "-o")
    game, where = played(args, stdin, err, fen=args.fen, notation=args.notation)
    drawing: dict[str, Any] = {} if game.game is None else game.game.drawing()
    moves: list[Play] = []
    if args.moves_from is not None:  # a game's legal moves, or a document's under the generic rule
        tell(err, "ggn show", game, where)
        moves = game.rules.legal_moves(where)
    highlight: dict[Cell, str] = {}
    destinations: list[str] = []
    written: list[str] = []
    if args.moves_from is not None:
        source = parse_location(args.moves_from)
        if isinstance(source, Cell):
            if where._geometry.index.get(source) is None:
                raise GGNError(f"--moves-from {source} is not a square of the board")
            highlight[source] = HIGHLIGHT
        for play in moves:
            if play.source != source:
                continue
            written.append(game.move(where, play, args.notation))
            end = play.destination
            if isinstance(end, Cell):
                highlight.setdefault(end, TARGET)
                if str(end) not in destinations:
                    destinations.append(str(end))
    if args.format == "text":
        from ggn.textboard import board as text_board  # noqa: PLC0415  (on use)

        colour = args.output is None and isinstance(out, Output) and out.isatty()
        text = text_board(where, highlight=highlight, coordinates=args.coordinates != "none",
                          flipped=args.flip, colour=colour, **drawing)
        if args.moves_from is not None:
            text += f"\nmoves from {args.moves_from}: {', '.join(written) or 'none'}"
        _emit(args, out, text + "\n")
        return 0
    from ggn.svg import board, png  # noqa: PLC0415  (on use)

    options: dict[str, Any] = {"highlight": highlight, "coordinates": args.coordinates,
                               "flipped": args.flip, "size": args.size, "letters": args.letters, **drawing}
    if args.format != "png":
        picture = board(where, **options)
        if args.format == "svg":
            _emit(args, out, picture + "\n")
        else:
            _emit(args, out, json.dumps({
                "game": None if game.game is None else game.name, **game.described(where),
                "position": where.to_feen(),
                "moves_from": args.moves_from,
                "destinations": destinations if args.moves_from is not None else None,
                "moves": written if args.moves_from is not None else None, "svg": picture,
            }) + "\n")
        return 0
    try:  # bounded by the work it takes (ggn.svg.MAX_PNG_ELEMENTS) before any is done
        data = png(where, **options)
    except ImportError:
        raise Exit(2, f"--format png needs cairosvg: {_PNG_HINT}") from None
    except OSError as error:  # cairocffi finds no cairo library
        raise Exit(2, f"--format png needs the cairo library (Debian: apt-get install libcairo2): "
                      f"{error}") from None
    if args.output is not None:
        _write(args.output, data)
    elif isinstance(out, Output) and out.isatty():
        raise Exit(2, "a PNG picture is not for the terminal: give -o FILE, or redirect standard output")
    elif isinstance(out, Output):
        out.write_bytes(data)
    else:
        raise Exit(2, "standard output takes text only here: give -o FILE")
    return 0


def _emit(args: argparse.Namespace, out: Stream, text: str) -> None:
    if args.output is None:
        out.write(text)
    else:
        _write(args.output, text)


def _write(path: str, data: str | bytes) -> None:
    try:
        write_atomically(path, data)
    except OSError as error:
        raise Exit(2, f"cannot write -o {shown(path)}: {error.strerror or error}") from None
