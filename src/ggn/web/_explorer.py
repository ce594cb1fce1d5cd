"""The explorer's work over the library, as plain JSON-ready values.

Nothing here needs a web library: a worker process of :mod:`ggn.web._work` reads a request's
JSON, calls these functions and writes their answers. What the explorer plays is a
:class:`Subject`: a game of :mod:`ggn.variants.registry`, built in or added from a
``variants.ini`` text to a :class:`~ggn.variants.registry.Catalogue` (its rule system's legal
plays, promotion choices and all, and its GGN document for the possibilities), or a pasted GGN
document, played under the generic rule system (:class:`ggn.rules.RuleSystem`): a play is
illegal if the opponent can then move onto one of the mover's terminal (``^``) pieces, a piece
taken goes, unchanged, into the mover's hand, and a player with no legal play loses. A
document names no promotion choice or other effect beyond that displacement; one with no
terminal piece in play makes no play illegal, and its view's ``note`` says so.

Every position is bounded before it is built (:class:`~ggn.web._limits.Limits`: its text, its
squares, its pieces, the moves listed), and the pasted documents kept loaded are bounded by
count and by the size of their text.

>>> chess = Subject.game("chess")
>>> state = chess.state()
>>> [group["destination"] for group in view(chess, state)["moves"] if group["source"] == "e2"]
['e3', 'e4']
>>> after = play(chess, state, "C:P e2-e4")
>>> after.position.to_feen()
'+rnbq+k^bn+r/pppppppp/8/8/4-P3/8/PPPP1PPP/+RNBQ+K^BN+R / c/C'
>>> view(chess, after)["fen"]
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ggn import svg
from ggn._decimal import shown
from ggn._json import quote
from ggn.cell import Cell, Hand
from ggn.errors import GGNError, IllegalMoveError, NotationError
from ggn.feen import Feen
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules import RuleSystem
from ggn.ruleset import Ruleset
from ggn.variants import registry
from ggn.variants.fen import is_feen
from ggn.web._limits import LimitError, Limits

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ggn.game import Game
    from ggn.rules import Play
    from ggn.stn import Transition
    from ggn.variants.registry import Catalogue, Entry

__all__ = ["State", "Subject", "forget", "games", "history", "kept", "play", "view"]

_LIMITS: Final = Limits()
_SHOWN_MOVES: Final = 8  # the legal moves an illegal move's message lists


@dataclass(frozen=True, slots=True)
class State:
    """A position and the move counters of the game's FEN (FEEN holds none)."""

    position: Position
    halfmove: int = 0
    fullmove: int = 1


class Subject:
    """What the explorer plays: a game, or a GGN document pasted by the user (played under
    the generic rule system)."""

    __slots__ = ("entry", "named_terminal", "rules", "ruleset")

    def __init__(self, entry: Entry | None, ruleset: Ruleset, rules: RuleSystem | None = None) -> None:
        self.entry = entry
        self.ruleset = ruleset
        if rules is None:
            rules = entry.rules if entry is not None else RuleSystem(ruleset)
        self.rules = rules
        self.named_terminal = any(piece.terminal for piece in ruleset.pieces)
        """Whether the document names a terminal piece (one may then come into play)."""

    @classmethod
    def game(cls, name: str, catalogue: Catalogue | None = None) -> Subject:
        """A game of ``catalogue`` (None: the built-in games); raise
        :class:`~ggn.errors.NotFoundError` for an unknown name."""
        entry = registry.entry(name) if catalogue is None else catalogue.entry(name)
        return cls(entry, entry.ruleset(), entry.rules)

    @classmethod
    def document(cls, text: str, limits: Limits = _LIMITS) -> Subject:
        """A pasted GGN document, played under the generic rule system; raise
        :class:`~ggn.errors.DocumentError` (every violation, each with its JSON Pointer) when
        it is not a valid one. The last few documents are kept loaded (at most
        ``limits.kept`` of them, and ``limits.kept_text`` characters of text in all: a larger
        one is not kept), so a request that names its document again does not load it again."""
        with _LOCK:
            subject = _DOCUMENTS.get(text)
            if subject is not None:
                _DOCUMENTS.move_to_end(text)
                return subject
        subject = cls(None, Ruleset.loads(text))
        _keep(text, subject, limits)
        return subject

    def state(self, text: str | None = None, halfmove: int = 0, fullmove: int = 1,
              limits: Limits = _LIMITS) -> State:
        """The state of a position given in FEEN or, for a game, in the game's FEN (whose
        counters then win over those given); None is the game's start position. A position
        over ``limits`` (its text, its board's squares or pieces) is a
        :class:`~ggn.web._limits.LimitError`, raised before its board is built."""
        entry = self.entry
        if text is not None and len(text) > limits.position:
            raise LimitError(f"the position is {len(text):,} characters long, more than the explorer "
                             f"reads ({limits.position:,}, its limit 'position')", "position",
                             limits.position)
        if entry is None:
            if text is None:
                raise GGNError("a pasted document has no start position: give one in FEEN")
            return State(self.rules.position(_bounded(Feen.parse(text), limits)), halfmove, fullmove)
        rules = entry.rules
        if text is None:
            return State(rules.position(), halfmove, fullmove)
        try:
            feen = Feen.parse(text)
        except NotationError as feen_error:
            try:  # not FEEN: the game's FEN, perhaps
                converted = entry.to_feen(text)
                counters = entry.counters(text)
            except GGNError as fen_error:  # the error of what the text looks like: a FEN
                looks_fen = not is_feen(text) and len(text.split()) > 3  # has four fields or more
                raise (fen_error if looks_fen else feen_error) from None
            return State(rules.position(_bounded(Feen.parse(converted), limits)), *counters)
        return State(rules.position(_bounded(feen, limits)), halfmove, fullmove)

    @property
    def note(self) -> str:
        """What the generic rule does for a document with no terminal piece in play."""
        return ("the document names no terminal (^) piece and the position's board holds none: "
                "under the generic rule no play is ever illegal (none can expose a terminal piece) "
                "and the game never ends by checkmate; it ends only when the player to move has no "
                "move, and that player loses")


def _bounded(feen: Feen, limits: Limits) -> Feen:
    """``feen``, once its board is known to be within ``limits``."""
    squares = feen.squares
    if squares > limits.squares:
        # A run of empty squares is one number, of any length: "1" * 5000 is 10**4999 and more.
        written = f"{squares:,}" if squares < 10**30 else shown(squares)
        raise LimitError(f"the position's board has {written} squares, more than the explorer "
                         f"plays ({limits.squares:,}, its limit 'squares')", "squares", limits.squares)
    pieces = len(feen.board)
    if pieces > limits.pieces:
        raise LimitError(f"the position's board holds {pieces:,} pieces, more than the explorer "
                         f"plays ({limits.pieces:,}, its limit 'pieces')", "pieces", limits.pieces)
    return feen


_DOCUMENTS: OrderedDict[str, Subject] = OrderedDict()  # the documents kept, the last used last
_LOCK = threading.Lock()
_kept_text = 0  # the characters of their texts, in all


def _keep(text: str, subject: Subject, limits: Limits) -> None:
    global _kept_text  # noqa: PLW0603  (the kept documents' size, beside them, under _LOCK)
    if len(text) > limits.kept_text or limits.kept == 0:
        return
    with _LOCK:
        if text in _DOCUMENTS:
            return
        _DOCUMENTS[text] = subject
        _kept_text += len(text)
        while len(_DOCUMENTS) > limits.kept or _kept_text > limits.kept_text:
            gone, _ = _DOCUMENTS.popitem(last=False)
            _kept_text -= len(gone)


def kept() -> tuple[int, int]:
    """How many pasted documents are kept loaded, and the characters of their texts."""
    with _LOCK:
        return len(_DOCUMENTS), _kept_text


def forget() -> None:
    """Let go of every pasted document kept loaded (as after a request ran out of memory)."""
    global _kept_text  # noqa: PLW0603
    with _LOCK:
        _DOCUMENTS.clear()
        _kept_text = 0


def games(catalogue: Catalogue | None = None) -> list[str]:
    """The names of the games of ``catalogue`` (None: the built-in games), in its order: the
    built-ins, then those added from ``variants.ini`` texts."""
    return list(registry.names() if catalogue is None else catalogue.names())


def _location(location: Cell | Hand) -> str:
    return str(location)


def _legal(subject: Subject, position: Position, limits: Limits) -> list[Play]:
    legal = subject.rules.legal_moves(position)
    if len(legal) > limits.moves:
        raise LimitError(f"the position has {len(legal):,} legal moves, more than the explorer lists "
                         f"({limits.moves:,}, its limit 'moves')", "moves", limits.moves)
    return legal


def _moves(legal: list[Play], pictured: Callable[[str], str | None] | None = None) -> list[dict[str, Any]]:
    """The moves of a position, one group for each piece, source and destination: the
    possibilities of the document that allow it, and the plays it makes (several when the
    player chooses, as among promotions: then each with the ``piece`` it leaves on the board
    and, from ``pictured``, its ``picture``)."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for candidate in legal:
        move = candidate.move
        key = (str(move.piece), _location(move.source), _location(move.destination))
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "piece": key[0], "source": key[1], "destination": key[2],
                "possibilities": [possibility.to_value(explicit=True) for possibility in move.possibilities],
                "plays": [],
            }
        choice = candidate.choice
        group["plays"].append({"move": str(candidate), "choice": None if choice is None else str(choice)})
    found = list(groups.values())
    for group in found:
        if len(group["plays"]) > 1:  # a choice: each option's resulting piece, and its picture
            for option in group["plays"]:
                result = option["choice"] or group["piece"]
                option["piece"] = result
                option["picture"] = None if pictured is None else pictured(result)
    return found


def _piece_picture(subject: Subject, flipped: bool, letters: bool) -> Callable[[str], str | None]:
    """How the page draws one piece (:func:`ggn.svg.piece`, with the game's glyphs)."""
    options: dict[str, Any] = {}
    if subject.entry is not None:
        drawing = subject.entry.drawing()
        options = {key: drawing[key] for key in ("families", "aliases") if key in drawing}

    def pictured(text: str) -> str | None:
        try:
            return svg.piece(text, flipped=flipped, letters=letters, **options)
        except GGNError:
            return None

    return pictured


def _picture(subject: Subject, position: Position, flipped: bool, letters: bool = False, *,
             last: list[str] | None = None, check: list[str] | None = None) -> tuple[str | None, str | None]:
    """The SVG picture of ``position`` (:mod:`ggn.svg`; a game's drawn with its own glyphs,
    or with letters; the ``last`` move's squares and those in ``check`` marked), or None and
    why it cannot be drawn."""
    marked: dict[str, Any] = {"flipped": flipped, "letters": letters, "check": check or ()}
    if last is not None:
        marked["last"] = (last[0], last[1])
    try:
        if subject.entry is not None:
            return subject.entry.svg(position, **marked), None
        return svg.board(position, **marked), None
    except GGNError as error:
        return None, str(error)


def notation_of(entry: Entry | None) -> str:
    """The notation the explorer writes a game's moves in: the one its players read, where
    :mod:`ggn.notation` writes it (WXF for xiangqi and its variants with a flying general,
    janggi's for janggi's games, else the game's default: SAN, shogi's ``P-76``); GGN's for a
    document."""
    if entry is None:
        return "ggn"
    from ggn.notation import default, notations  # noqa: PLC0415  (on use: the server starts faster)

    rules = entry.rules
    variant = entry.variant
    if variant is not None and variant.template == "janggi":
        return "janggi"
    if variant is not None and variant.flying_general and "wxf" in notations(rules):
        return "wxf"
    return default(rules)


_SAID: Final = {  # Fairy-Stockfish's names of pieces, as players say them
    "shogiPawn": "pawn", "shogiKnight": "knight", "dragonHorse": "horse", "bers": "dragon",
    "customPiece1": "piece",
}
_XIANGQI_SAID: Final = {"fers": "advisor", "king": "general"}
_JANGGI_SAID: Final = {
    "wazir": "guard", "janggiCannon": "cannon", "janggiElephant": "elephant", "king": "general",
}


def players(entry: Entry | None) -> list[str]:
    """The names of the two players as the game's players say them (chess's white and black,
    shogi's sente and gote, xiangqi's red and black, janggi's blue and red; a document's first
    and second player)."""
    variant = None if entry is None else entry.variant
    if variant is None:
        return ["first player", "second player"]
    if variant.template == "shogi":
        return ["sente", "gote"]
    if variant.template == "janggi":
        return ["blue", "red"]
    if variant.flying_general:
        return ["red", "black"]
    return ["white", "black"]


def piece_names(entry: Entry | None, pieces: Iterable[str]) -> dict[str, str]:
    """What a screen reader says for each of ``pieces`` (QPI texts): its player and its kind
    (``"white knight"``, ``"gote promoted bishop"``); a document's pieces by their letter."""
    variant = None if entry is None else entry.variant
    sides = players(entry)
    kinds: dict[str, str] = {}
    if variant is not None:
        said = {**_SAID, **(_XIANGQI_SAID if variant.flying_general else {}),
                **(_JANGGI_SAID if variant.template == "janggi" else {})}
        for kind in variant.pieces:
            if kind.name is None:
                continue
            words = said.get(kind.name) or re.sub(r"(?<=[a-z])(?=[A-Z])", " ", kind.name).lower()
            kinds.setdefault(kind.pin or kind.letter.upper(), words)
    promoting = variant is not None and variant.template == "shogi"
    named = {}
    for text in pieces:
        qpi = Qpi.parse(text)
        spoken = kinds.get(qpi.name.upper(), qpi.name.upper())
        if promoting and qpi.state == "enhanced":
            spoken = f"promoted {spoken}"
        named[text] = f"{sides[0 if qpi.side == 'first' else 1]} {spoken}"
    return named


def checked(subject: Subject, position: Position) -> list[str]:
    """The squares of the royal (terminal) pieces of the player to move that are in check: none
    when the player is not in check; where the player has several, those the opponent attacks
    (each tried alone, the others taken off the board)."""
    rules = subject.rules
    if not rules.in_check(position):
        return []
    royal = [cell for cell, piece in position if piece.terminal and piece.side == position.active]
    if len(royal) <= 1:
        return [str(cell) for cell in royal]
    from ggn.stn import Transition  # noqa: PLC0415  (rare: several royal pieces)

    found = []
    for cell in royal:
        others = {str(other): None for other in royal if other != cell}
        try:
            alone = position.apply(Transition.from_value({"board_diff": others}))
            if rules.in_check(alone):
                found.append(str(cell))
        except GGNError:  # a position the rules refuse with a royal piece off: mark it anyway
            found.append(str(cell))
    return found or [str(cell) for cell in royal]


def history(subject: Subject, start: State, moves: list[str], limits: Limits = _LIMITS) -> Game:
    """The game played from ``start`` by ``moves`` (each in any of the game's notations; GGN's,
    as ``play`` answers them, read fastest), which knows the ends its history brings: a
    repetition, the n-move rule, a count (:class:`ggn.game.Game`). More moves than
    ``limits.plies`` are a :class:`~ggn.web._limits.LimitError`, raised before any is played;
    a move that is not legal where it comes is an :class:`~ggn.errors.IllegalMoveError`
    naming its number."""
    from ggn.game import Game  # noqa: PLC0415  (on use: the server starts faster)

    if len(moves) > limits.plies:
        raise LimitError(f"the history has {len(moves):,} moves, more than the explorer replays "
                         f"({limits.plies:,}, its limit 'plies')", "plies", limits.plies)
    game = Game(subject.rules, start.position, halfmove=start.halfmove, fullmove=start.fullmove)
    for number, move in enumerate(moves, 1):
        try:
            game.push(move)
        except GGNError as error:
            raise IllegalMoveError(f"the history's move {number}: {error}") from None
    return game


def view(subject: Subject, state: State, *, flipped: bool = False, letters: bool = False,
         limits: Limits = _LIMITS, game: Game | None = None) -> dict[str, Any]:
    """Everything the page shows of a position: its FEEN (and FEN, for a game), its picture
    (SVG; ``flipped``: the second player at the bottom), its pieces by square and the hands,
    the side to move, the legal moves grouped by piece, source and destination, check, the
    outcome and the end the player to move may claim (``claim``: a repetition, the n-move
    rule, a count; from ``game``, the history that led to the position, when it is given:
    :func:`history`); the squares of the royal pieces in check (``checked``), the last move
    (``last``: its source and destination, from ``game``), the result as PGN writes it and the
    ending (``result``, ``ending``) once the game is over, the notation the page writes moves
    in (``notation``: see :func:`notation_of`), the players' names (``players``) and what a
    screen reader says for each piece (``names``); ``letters``: the picture writes shogi's and
    xiangqi's pieces with their letters; for a document, whether a terminal piece is in play
    (``terminal``) and, when none is, a ``note`` saying what the generic rule then does. More legal moves than
    ``limits.moves`` are a :class:`~ggn.web._limits.LimitError`."""
    position = state.position
    entry = subject.entry
    legal = _legal(subject, position, limits)

    fen: str | None = None
    if entry is not None:
        try:
            fen = entry.from_feen(position, halfmove=state.halfmove, fullmove=state.fullmove)
        except GGNError:
            fen = None  # a position the game's FEN cannot say
    rules = subject.rules
    if game is None:  # no history: the position alone (its halfmove clock for the n-move rule)
        from ggn.game import Game  # noqa: PLC0415  (on use: the server starts faster)

        game = Game(rules, position, halfmove=state.halfmove, fullmove=state.fullmove)
    ended = game.outcome()
    claim = None if ended is not None else game.claim()
    terminal = entry is not None or subject.named_terminal or any(piece.terminal for _, piece in position)
    plays = game.plays
    moves = _moves(legal, _piece_picture(subject, flipped, letters))
    last = None
    if plays:
        last = [_location(plays[-1].move.source), _location(plays[-1].move.destination)]
    in_check = checked(subject, position)
    picture, unpictured = _picture(subject, position, flipped, letters, last=last, check=in_check)
    return {
        "game": None if entry is None else entry.name,
        "feen": position.to_feen(),
        "fen": fen,
        "halfmove": state.halfmove,
        "fullmove": state.fullmove,
        "active": position.active,
        "shape": list(position.shape),
        "svg": picture,
        "unpictured": unpictured,
        "board": {str(cell): str(piece) for cell, piece in position},
        "hands": {
            side: [{"piece": str(piece), "count": count} for piece, count in position.hand(side).items()]
            for side in ("first", "second")
        },
        "moves": moves,
        "players": players(entry),
        "names": piece_names(entry, {str(piece) for _, piece in position} | {
            str(piece) for side in ("first", "second") for piece in position.hand(side)} | {
            option.get("piece", group["piece"]) for group in moves for option in group["plays"]}),
        "check": rules.in_check(position),
        "checked": in_check,
        "last": last,
        "outcome": None if ended is None else str(ended),
        "winner": None if ended is None else ended.winner,
        "result": None if ended is None else game.result(),
        "ending": None if ended is None else ended.ending.value,
        "notation": notation_of(entry),
        "claim": None if claim is None else str(claim),
        "terminal": terminal,
        "note": None if terminal else subject.note,
    }


def _find(subject: Subject, state: State, wanted: str) -> Play:
    """The legal play ``wanted`` names: for a game, in any of its notations (SAN and
    Fairy-Stockfish's others, UCI, USI, GGN's), recognised without a flag
    (:func:`ggn.notation.parse`); for a document, in GGN's."""
    position = state.position
    entry = subject.entry
    if entry is not None:
        return read_move(entry, position, wanted)
    legal = subject.rules.legal_moves(position)
    for candidate in legal:
        if str(candidate) == wanted:
            return candidate
    names = [str(candidate) for candidate in legal]
    shown = ", ".join(names[:_SHOWN_MOVES]) + (", ..." if len(names) > _SHOWN_MOVES else "")
    raise IllegalMoveError(f"{quote(wanted, 200)} is not a legal move of the document under the generic "
                           f"rule in {quote(position.to_feen(), 200)}; legal moves: {shown or 'none'}")


@dataclass(frozen=True, slots=True)
class Played(State):
    """The state after a move, the move's STN transition, and the move itself: as GGN's
    notation writes it (``move``) and in the game's own notation (``san``: SAN, Hodges's for
    the shogi family, WXF for xiangqi's, as Fairy-Stockfish writes them, :func:`notation_of`;
    a document's in GGN's)."""

    transition: Transition | None = None
    move: str = ""
    san: str = ""


def play(subject: Subject, state: State, move: str) -> Played:
    """The state after ``move``, a legal play of a game in any of its notations (``e4``,
    ``e2e4``, ``C:P e2-e4``; ``7g7f`` for shogi), or a pasted document's in GGN's notation
    (such as ``C:P e2-e4``, under the generic rule). Raise
    :class:`~ggn.errors.IllegalMoveError` naming the candidates, or the legal moves there are,
    when it names none, or several.

    >>> chess = Subject.game("chess")
    >>> after = play(chess, chess.state(), "g1f3")
    >>> after.move, after.san
    ('C:N g1-f3', 'Nf3')
    """
    legal = _find(subject, state, move)
    transition = legal.transition
    position = state.position.apply(transition)
    entry = subject.entry
    if entry is None:  # a document has no FEN, and no counters of its own
        return Played(position, state.halfmove, state.fullmove, transition, str(legal), str(legal))
    san = write_move(entry, state.position, legal)
    halfmove, fullmove = entry.advance(state.position, legal, state.halfmove, state.fullmove)
    return Played(position, halfmove, fullmove, transition, str(legal), san)


def read_move(entry: Entry, position: Position, text: str) -> Play:
    """The legal play of a game's ``position`` that ``text`` names, in any of its notations."""
    from ggn.notation import parse  # noqa: PLC0415  (on use: the server starts faster)

    return parse(entry.rules, position, text)


def write_move(entry: Entry, position: Position, legal: Play) -> str:
    """A legal play of a game's ``position`` in the notation the explorer writes the game's
    moves in (:func:`notation_of`)."""
    from ggn.notation import write  # noqa: PLC0415  (on use: the server starts faster)

    return write(entry.rules, position, legal, notation_of(entry))
