"""The explorer's work over the library, as plain JSON-ready values.

Nothing here needs a web library: the routes of :mod:`ggn.web._app` read a request's JSON,
call these functions and write their answers. What the explorer plays is a :class:`Subject`:
a game of :mod:`ggn.variants.registry`, built in or added from a ``variants.ini`` text to a
:class:`~ggn.variants.registry.Catalogue` (its rule system's legal plays, promotion choices and
all, and its GGN document for the possibilities), or a pasted GGN document (its pseudo-legal
moves, each played as its default STN transition).

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

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ggn import svg
from ggn.cell import Cell, Hand
from ggn.errors import GGNError, IllegalMoveError, NotationError
from ggn.feen import Feen
from ggn.position import Position
from ggn.ruleset import Ruleset
from ggn.variants import registry
from ggn.variants.fen import is_feen

if TYPE_CHECKING:
    from ggn.move import Move
    from ggn.rules import Play
    from ggn.stn import Transition
    from ggn.variants.registry import Catalogue, Entry

__all__ = ["State", "Subject", "games", "play", "view"]

_DOCUMENTS_KEPT: Final = 8  # pasted documents kept loaded (each request names its document again)
_SHOWN_MOVES: Final = 8  # the legal moves an illegal move's message lists


@dataclass(frozen=True, slots=True)
class State:
    """A position and the move counters of the game's FEN (FEEN holds none)."""

    position: Position
    halfmove: int = 0
    fullmove: int = 1


class Subject:
    """What the explorer plays: a built-in game, or a GGN document pasted by the user."""

    __slots__ = ("entry", "ruleset")

    def __init__(self, entry: Entry | None, ruleset: Ruleset) -> None:
        self.entry = entry
        self.ruleset = ruleset

    @classmethod
    def game(cls, name: str, catalogue: Catalogue | None = None) -> Subject:
        """A game of ``catalogue`` (None: the built-in games); raise
        :class:`~ggn.errors.NotFoundError` for an unknown name."""
        entry = registry.entry(name) if catalogue is None else catalogue.entry(name)
        return cls(entry, entry.ruleset())

    @classmethod
    def document(cls, text: str) -> Subject:
        """A pasted GGN document; raise :class:`~ggn.errors.DocumentError` (every violation,
        each with its JSON Pointer) when it is not a valid one. The last few documents are
        kept loaded, so a request that names its document again does not load it again."""
        with _LOCK:
            ruleset = _DOCUMENTS.get(text)
            if ruleset is not None:
                _DOCUMENTS.move_to_end(text)
        if ruleset is None:
            ruleset = Ruleset.loads(text)
            with _LOCK:
                _DOCUMENTS[text] = ruleset
                while len(_DOCUMENTS) > _DOCUMENTS_KEPT:
                    _DOCUMENTS.popitem(last=False)
        return cls(None, ruleset)

    def state(self, text: str | None = None, halfmove: int = 0, fullmove: int = 1) -> State:
        """The state of a position given in FEEN or, for a game, in the game's FEN (whose
        counters then win over those given); None is the game's start position."""
        entry = self.entry
        if entry is None:
            if text is None:
                raise GGNError("a pasted document has no start position: give one in FEEN")
            return State(Position.from_feen(Feen.parse(text)), halfmove, fullmove)
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
            return State(rules.position(converted), *counters)
        return State(rules.position(feen), halfmove, fullmove)


_DOCUMENTS: OrderedDict[str, Ruleset] = OrderedDict()
_LOCK = threading.Lock()


def games(catalogue: Catalogue | None = None) -> list[str]:
    """The names of the games of ``catalogue`` (None: the built-in games), in its order: the
    built-ins, then those added from ``variants.ini`` texts."""
    return list(registry.names() if catalogue is None else catalogue.names())


def _location(location: Cell | Hand) -> str:
    return str(location)


def _possibilities(move: Move) -> list[dict[str, dict[str, str]]]:
    return [possibility.to_value(explicit=True) for possibility in move.possibilities]


def _moves(subject: Subject, position: Position) -> list[dict[str, Any]]:
    """The moves of ``position``, one group for each piece, source and destination: the
    possibilities of the document that allow it, and the plays it makes (several when the
    player chooses, as among promotions)."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    if subject.entry is None:
        moves: list[tuple[Move, str, str | None]] = [
            (move, str(move), None) for move in subject.ruleset.moves(position)
        ]
    else:
        moves = [
            (legal.move, str(legal), None if legal.choice is None else str(legal.choice))
            for legal in subject.entry.rules.legal_moves(position)
        ]
    for move, name, choice in moves:
        key = (str(move.piece), _location(move.source), _location(move.destination))
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "piece": key[0], "source": key[1], "destination": key[2],
                "possibilities": _possibilities(move), "plays": [],
            }
        group["plays"].append({"move": name, "choice": choice})
    return list(groups.values())


def _picture(subject: Subject, position: Position, flipped: bool) -> tuple[str | None, str | None]:
    """The SVG picture of ``position`` (:mod:`ggn.svg`; a game's drawn with its own glyphs), or
    None and why it cannot be drawn (a board of more squares than a picture holds)."""
    try:
        if subject.entry is not None:
            return subject.entry.svg(position, flipped=flipped), None
        return svg.board(position, flipped=flipped), None
    except GGNError as error:
        return None, str(error)


def view(subject: Subject, state: State, *, flipped: bool = False) -> dict[str, Any]:
    """Everything the page shows of a position: its FEEN (and FEN, for a game), its picture
    (SVG; ``flipped``: the second player at the bottom), its pieces by square and the hands,
    the side to move, the moves grouped by piece, source and destination, and, for a game,
    check and the outcome."""
    position = state.position
    picture, unpictured = _picture(subject, position, flipped)
    entry = subject.entry
    fen: str | None = None
    outcome: str | None = None
    check = False
    if entry is not None:
        try:
            fen = entry.from_feen(position, halfmove=state.halfmove, fullmove=state.fullmove)
        except GGNError:
            fen = None  # a position the game's FEN cannot say
        rules = entry.rules
        ended = rules.outcome(position)
        outcome = None if ended is None else str(ended)
        check = rules.in_check(position)
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
        "moves": _moves(subject, position),
        "check": check,
        "outcome": outcome,
    }


def _find(subject: Subject, state: State, wanted: str) -> tuple[Transition, Play | None]:
    position = state.position
    if subject.entry is None:
        moves = subject.ruleset.moves(position)
        for move in moves:
            if str(move) == wanted:
                return move.transition(position), None
        names = [str(move) for move in moves]
    else:
        legal = subject.entry.rules.legal_moves(position)
        for candidate in legal:
            if str(candidate) == wanted:
                return candidate.transition, candidate
        names = [str(candidate) for candidate in legal]
    kind = "pseudo-legal move of the document" if subject.entry is None else "legal move"
    shown = ", ".join(names[:_SHOWN_MOVES]) + (", ..." if len(names) > _SHOWN_MOVES else "")
    raise IllegalMoveError(f"{wanted!r} is not a {kind} in {position.to_feen()!r}; "
                           f"{'moves' if subject.entry is None else 'legal moves'}: {shown or 'none'}")


@dataclass(frozen=True, slots=True)
class Played(State):
    """The state after a move, and the move's STN transition."""

    transition: Transition | None = None


def play(subject: Subject, state: State, move: str) -> Played:
    """The state after ``move`` (a legal play of the game, as ``str()`` writes it, such as
    ``C:P e7-e8=C:Q``; or, for a pasted document, a pseudo-legal move, such as ``C:P e2-e4``,
    played as its default STN transition). Raise :class:`~ggn.errors.IllegalMoveError`
    naming the moves there are when it is not one."""
    transition, legal = _find(subject, state, move)
    position = state.position.apply(transition)
    if subject.entry is None or legal is None:  # a document has no FEN, and no counters of its own
        return Played(position, state.halfmove, state.fullmove, transition)
    halfmove, fullmove = subject.entry.advance(state.position, legal, state.halfmove, state.fullmove)
    return Played(position, halfmove, fullmove, transition)
