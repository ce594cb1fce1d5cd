"""The games a command knows and the positions it is given: the built-in games and the variants
of each ``--ini`` file, a game by name (an unknown one a usage error, with the names it is close
to), a position as FEEN or as the game's FEN, a GGN file given in a game's place and its
position, and a move as ``--notation`` writes it."""

from __future__ import annotations

import argparse
from typing import IO, TYPE_CHECKING, Final

from ggn._json import quote
from ggn.cli._arguments import feen
from ggn.cli._inputs import check_file, document, read, shown
from ggn.cli._streams import Exit, Stream
from ggn.errors import GGNError, NotFoundError
from ggn.feen import Feen
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.variants.registry import Catalogue, Entry

if TYPE_CHECKING:
    from ggn.rules import Play


def catalogue(args: argparse.Namespace, stdin: IO[bytes] | None) -> Catalogue:
    """The games a command knows: the built-ins, and the variants of each --ini file."""
    return catalogue_of(ini_texts(args, stdin))


def ini_texts(args: argparse.Namespace, stdin: IO[bytes] | None) -> tuple[tuple[str, str], ...]:
    """The texts of the --ini files, each with the name messages give it, in order (a worker
    process makes the same games from them: :class:`ggn.parallel.Recipe`)."""
    if args.ini.count("-") > 1:
        raise Exit(2, "standard input is read once: give --ini - at most once")
    texts = []
    for name in args.ini:
        data = read(name, stdin, "--ini")
        try:
            text = data if isinstance(data, str) else bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise Exit(1, f"--ini {shown(name)}: not UTF-8 text ({error.reason} at byte "
                          f"{error.start})") from None
        texts.append((shown(name), text))
    return tuple(texts)


def catalogue_of(texts: tuple[tuple[str, str], ...]) -> Catalogue:
    """The built-in games and the variants of ``texts`` (:func:`ini_texts`)."""
    games = Catalogue()
    for source, text in texts:
        games.add_ini(text, source)
    return games


_SUGGESTED: Final = 3  # the most names a message suggests for an unknown game


def entry(games: Catalogue, name: str) -> Entry:
    """A game by name; an unknown name is a usage error (exit 2), with the names it is close to."""
    try:
        return games.entry(name)
    except NotFoundError:
        pass
    import difflib  # noqa: PLC0415  (only for this message)

    close = difflib.get_close_matches(name[:100], games.names(), _SUGGESTED)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise Exit(2, f"no game {quote(name)}; {hint}ggn variants lists the {len(games)} games") from None


def position(game: Entry, feen: str | None, fen: str | None) -> Position:
    """The position given, as FEEN or as Fairy-Stockfish's FEN (at most one), else the start."""
    if feen is not None and fen is not None:
        raise Exit(2, "give the position once: as FEEN or with --fen, not both")
    if fen is not None:
        return game.rules.position(game.to_feen(fen))
    from ggn.variants.fen import is_feen  # noqa: PLC0415  (on use: the command starts faster)

    if feen is not None and not is_feen(feen):
        fields = feen.split(" ")
        if len(fields) > 1 and fields[1] in ("w", "b"):  # a FEN's side to move
            raise GGNError(f"{quote(feen, 80)} is a FEN, not FEEN: give it with --fen")
    return game.rules.position(feen)


def document_position(
    args: argparse.Namespace, name: str, stdin: IO[bytes] | None, err: Stream, *, fen: str | None = None
) -> tuple[Ruleset, Position]:
    """RULES given as a GGN file (``name``, no game's: the caller has looked) and the FEEN
    position under it (its argument or ``--feen``: :func:`ggn.cli._arguments.feen`). Usage
    errors (exit 2) first: no such file, standard input asked for twice, a ``fen`` given (only
    a game has a FEN), no FEEN (only a game has a start); then the FEEN is read, the document
    (its violations: exit 1), and last the board is built."""
    check_file(name, "game", ["ggn variants lists them"])
    if name == "-" and "-" in args.ini:
        raise Exit(2, "standard input is read once: give RULES or --ini as a file")
    if fen is not None:
        raise Exit(2, "--fen reads a built-in game's FEN: give a FEEN after a GGN file")
    given = feen(args)
    if given is None:
        raise Exit(2, "give a FEEN position after a GGN file (only a built-in game has a "
                      "default start position)")
    parsed = Feen.parse(given)
    rules = document(Ruleset, name, stdin, err)
    return rules, Position.from_feen(parsed)


def move(game: Entry, where: Position, play: Play, notation: str) -> str:
    """A play as the --notation option writes it."""
    if notation != "uci":
        return str(play)
    from ggn.variants import uci  # noqa: PLC0415  (on use: the command starts faster)

    return uci.write(game.variant, play, position=where)
