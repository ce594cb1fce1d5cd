"""The games a command knows and the positions it is given: the built-in games and the variants
of each ``--ini`` file, a game by name (an unknown one a usage error, with the names it is close
to), a position as FEEN or as the game's FEN, a GGN file given in a game's place and its
position, and a move as ``--notation`` writes it."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Final

from ggn._json import quote
from ggn.cli._arguments import feen
from ggn.cli._inputs import check_file, document, read, shown
from ggn.cli._streams import Exit, Stream
from ggn.errors import GGNError, IllegalMoveError, NotFoundError
from ggn.feen import Feen
from ggn.position import TERMINAL_CODES, Position
from ggn.ruleset import Ruleset
from ggn.variants.registry import BUILTIN, Catalogue, Entry

if TYPE_CHECKING:
    from ggn.parallel import Recipe
    from ggn.rules import Play, RuleSystem


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


def entry(games: Catalogue, name: str, *, files: bool = False) -> Entry:
    """A game by name; an unknown name is a usage error (exit 2), with the names it is close to
    (``files``: the command reads a GGN file of that name too, and there is none)."""
    try:
        return games.entry(name)
    except NotFoundError:
        pass
    import difflib  # noqa: PLC0415  (only for this message)

    close = difflib.get_close_matches(name[:100], games.names(), _SUGGESTED)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    nor = " (nor a GGN file of that name)" if files else ""
    raise Exit(2, f"no game {quote(name)}{nor}; {hint}ggn variants lists the {len(games)} games") from None


def position(game: Entry, feen: str | None, fen: str | None, *, history: bool = False) -> Position:
    """The position given, as FEEN or as Fairy-Stockfish's FEN (at most one), else the start.
    With ``history`` (a command that plays the game from the FEN: ``legal``, ``play``), a FEN
    is read as :class:`ggn.game.Game` reads it, with what it holds beyond the position (the
    checks left, which the command's game keeps); without, it must hold no more than FEEN."""
    if feen is not None and fen is not None:
        raise Exit(2, "give the position once: as FEEN or with --fen, not both")
    if fen is not None:
        if history:
            from ggn.game import Game  # noqa: PLC0415  (on use: the command starts faster)

            return Game(game.rules, fen=fen).position
        return game.rules.position(game.to_feen(fen))
    from ggn.variants.fen import is_feen  # noqa: PLC0415  (on use: the command starts faster)

    if feen is not None and not is_feen(feen):
        fields = feen.split(" ")
        if len(fields) > 1 and fields[1] in ("w", "b"):  # a FEN's side to move
            raise GGNError(f"{quote(feen, 80)} is a FEN, not FEEN: give it with --fen")
    return game.rules.position(feen)


class _Unset:
    """The type of :data:`UNSET`."""


UNSET: Final = _Unset()
"""No FEEN given to :func:`document_position`: it reads the command's argument or --feen."""


def rules_file(name: str) -> str:
    """The file a GAME|RULES argument names, once it is known to name no game: ``@PATH`` is the
    file PATH (``@-`` a file called -), ``-`` standard input, anything else a path."""
    if not name.startswith("@"):
        return name
    return "./-" if name == "@-" else name[1:]


def check_rules_file(name: str) -> None:
    """Refuse (exit 2, before anything is read) a GAME|RULES argument that names no game and no
    file (``@PATH`` is left to the reading, which says why it cannot read PATH)."""
    if not name.startswith("@"):
        check_file(name, "game", ["ggn variants lists them"])


def rules_document(args: argparse.Namespace, name: str, stdin: IO[bytes] | None, err: Stream) -> Ruleset:
    """The GGN document of the GAME|RULES argument ``name`` (no game's: the caller has looked):
    a file, ``-`` or ``@PATH``; its violations end the command (exit 1)."""
    check_rules_file(name)
    path = rules_file(name)
    if name == "-" and "-" in args.ini:
        raise Exit(2, "standard input is read once: give RULES or --ini as a file")
    return document(Ruleset, path, stdin, err)


def document_position(
    args: argparse.Namespace, name: str, stdin: IO[bytes] | None, err: Stream, *, fen: str | None = None,
    given: str | _Unset | None = UNSET, notation: str | None = None,
) -> tuple[Ruleset, Position]:
    """RULES given as a GGN file (``name``, no game's: the caller has looked: a file, ``-`` or
    ``@PATH``) and the FEEN position under it (``given``, else its argument or ``--feen``:
    :func:`ggn.cli._arguments.feen`). Usage errors (exit 2) first: no such file, standard input
    asked for twice, a ``fen`` given (only a game has a FEN), a ``notation`` other than ggn (only a
    game has SAN, UCI and the others), no FEEN (only a game has a start); then the FEEN is read,
    the document (its violations: exit 1), and last the board is built."""
    check_rules_file(name)
    if name == "-" and "-" in args.ini:
        raise Exit(2, "standard input is read once: give RULES or --ini as a file")
    if fen is not None:
        raise Exit(2, "--fen reads a built-in game's FEN: give a FEEN after a GGN file")
    refuse_notation(notation)
    position_feen = feen(args) if isinstance(given, _Unset) else given
    if position_feen is None:
        raise Exit(2, "give a FEEN position after a GGN file (only a built-in game has a "
                      "default start position)")
    parsed = Feen.parse(position_feen)
    rules = document(Ruleset, rules_file(name), stdin, err)  # the file and standard input checked above
    return rules, Position.from_feen(parsed)


def refuse_notation(notation: str | None) -> None:
    """A --notation other than ggn for a GGN document: a usage error (exit 2)."""
    if notation not in (None, "ggn"):
        raise Exit(2, f"--notation {notation} writes a built-in game's moves, from its variant's "
                      "pieces and letters, which a GGN document has none of: give and read its "
                      "moves in GGN's notation, 'C:P e2-e4' (--notation ggn, a document's default)")


@dataclass(frozen=True, slots=True)
class Played:
    """What a command plays: a game of the catalogue (``game``), or a GGN document (``game``
    None) under the generic rule system (``RuleSystem(ruleset)``: the Game Protocol's
    displacement, a play illegal if the opponent can then move onto one of the mover's
    terminal pieces, and a player with no legal play loses)."""

    rules: RuleSystem
    name: str
    """The game's name, or the document's file as messages show it."""
    game: Entry | None = None
    texts: tuple[tuple[str, str], ...] = ()
    """The --ini texts (:func:`ini_texts`), which a worker process makes the game from."""

    def recipe(self) -> Recipe:
        """What a worker process makes the same rules from (:class:`ggn.parallel.Recipe`)."""
        from ggn.parallel import Recipe  # noqa: PLC0415  (on use: the command starts faster)

        if self.game is None:
            return Recipe.of(self.rules)
        return Recipe(game=self.game.name, ini=() if self.game.source == BUILTIN else self.texts)

    def notation(self, notation: str | None) -> str:
        """The notation --notation names (None: the game's own, :func:`ggn.notation.default`;
        a document's is GGN's, its only one)."""
        if notation is not None:
            return notation
        return "ggn" if self.game is None else default_notation(self.game)

    def move(self, where: Position, play: Play, notation: str | None) -> str:
        """A play as --notation writes it (None: the game's own notation; a document's is
        always GGN's)."""
        return str(play) if self.game is None else move(self.game, where, play, self.notation(notation))

    def read(self, where: Position, text: str) -> Play:
        """The legal play of ``where`` that ``text`` names, in any notation the game has (SAN
        and Fairy-Stockfish's others, UCI, USI, GGN's), recognised without a flag; a document's
        in GGN's notation. A text that names no legal play (or several) raises
        :class:`~ggn.errors.IllegalMoveError`, naming the candidates."""
        if self.game is not None:
            return read_move(self.game, where, text)
        for play in self.rules.legal_moves(where):
            if str(play) == text:
                return play
        raise IllegalMoveError(f"{quote(text)} is not a legal move of the document under the generic "
                               f"rule in {quote(where.to_feen(), 200)}; {listed(self, where)}")

    def described(self, where: Position | None) -> dict[str, Any]:
        """What --format json says of the rules played: nothing more for a game; for a
        document, its file (``document``), whether a terminal piece can be in play
        (``terminal``) and the note of :func:`note` (or null)."""
        if self.game is not None:
            return {}
        return {"document": self.name, "terminal": terminal(self.rules.ruleset, where),
                "note": note(self, where)}


def played(args: argparse.Namespace, stdin: IO[bytes] | None, err: Stream, *,
           given: str | _Unset | None = UNSET, fen: str | None = None,
           notation: str | None = None, to: str | None = None,
           history: bool = False) -> tuple[Played, Position]:
    """The game or GGN document of ``args.game`` (a name first, else a file, ``-`` or ``@PATH``)
    and the position given (``given``, else its FEEN argument or --feen; or ``fen``); a
    game's start when none is given, while a document needs a FEEN (exit 2). What only a game
    has is refused for a document before it is read (exit 2): ``fen``, ``notation`` uci, and
    ``to`` fen (play's --to). ``history``: a FEN is read as the game of the command reads it
    (:func:`position`)."""
    texts = ini_texts(args, stdin)
    games = catalogue_of(texts)
    name: str = args.game
    if name in games:
        game = entry(games, name)
        at = feen(args) if isinstance(given, _Unset) else given
        return Played(game.rules, game.name, game, texts), position(game, at, fen, history=history)
    if not name.startswith("@") and name != "-" and not os.path.exists(name):
        entry(games, name, files=True)  # no game, no file: the games it is close to
    from ggn.rules import RuleSystem  # noqa: PLC0415  (on use: ggn moves imports no rule system)

    if to == "fen":
        raise Exit(2, "--to fen writes a built-in game's FEN: a GGN document's positions are "
                      "written in FEEN (--to feen, the default)")
    rules, where = document_position(args, name, stdin, err, fen=fen, given=given, notation=notation)
    return Played(RuleSystem(rules), shown(rules_file(name))), where


def terminal(rules: Ruleset, where: Position | None) -> bool:
    """Whether a terminal piece can stand on the board: the document names one (a drop can
    bring it), or the position's board holds one."""
    if any(piece.terminal for piece in rules):
        return True
    # The position's piece codes against those of every terminal piece: at C speed, however
    # large the board.
    return where is not None and not TERMINAL_CODES.isdisjoint(where.codes)


def note(played: Played, where: Position | None) -> str | None:
    """What a command says of a GGN document whose game the generic rule makes degenerate
    (None for a game, and for a document with a terminal piece in play): with no terminal
    piece, no play is ever illegal and no game ends by checkmate."""
    if played.game is not None or terminal(played.rules.ruleset, where):
        return None
    if where is None:  # --batch: positions of their own
        return (f"{played.name} names no terminal (^) piece: in a position whose board holds none, "
                "the generic rule makes no play illegal (none can expose a terminal piece)")
    return (f"{played.name} names no terminal (^) piece and the position's board holds none: "
            "under the generic rule no play is ever illegal (none can expose a terminal piece) "
            "and the game never ends by checkmate; it ends only when the player to move has no "
            "move, and that player loses")


def default_notation(game: Entry) -> str:
    """The notation a game's moves are written in when --notation is not given: its own (SAN,
    or for the shogi family Hodges's numbers, as Fairy-Stockfish writes them by default)."""
    from ggn.notation import default  # noqa: PLC0415  (on use: the command starts faster)

    return default(game.rules)


def move(game: Entry, where: Position, play: Play, notation: str) -> str:
    """A play as the --notation option writes it (``notation`` resolved: :meth:`Played.notation`)."""
    if notation == "ggn":
        return str(play)
    from ggn.notation import write  # noqa: PLC0415  (on use: the command starts faster)

    return write(game.rules, where, play, notation)


def read_move(game: Entry, where: Position, text: str) -> Play:
    """The legal play of ``where`` that ``text`` names, in any of the game's notations (SAN and
    Fairy-Stockfish's others, UCI, USI for the shogi family, GGN's), recognised without a flag:
    :func:`ggn.notation.parse`, whose error names the candidates."""
    from ggn.notation import parse  # noqa: PLC0415  (on use: the command starts faster)

    return parse(game.rules, where, text)


_LISTED: Final = 60  # the most legal moves an illegal move's message lists


def listed(played: Played, where: Position, notation: str | None = None) -> str:
    """The legal moves of ``where``, as an illegal move's message lists them (at most
    :data:`_LISTED`), or that the game has ended."""
    plays = played.rules.legal_moves(where)
    if not plays:
        ended = played.rules.outcome(where)
        return "there is no legal move" if ended is None else f"the game has ended ({ended})"
    names = [played.move(where, play, notation) for play in plays[:_LISTED]]
    more = f", ... ({len(plays)} in all)" if len(plays) > _LISTED else ""
    return f"the legal moves: {', '.join(names)}{more}"


def tell(err: Stream, label: str, played: Played, where: Position | None) -> None:
    """The :func:`note` on a GGN document played, if any, on standard error (``label``: the
    command, as its messages name it)."""
    said = note(played, where)
    if said is not None:
        err.write(f"{label}: note: {said}\n")
