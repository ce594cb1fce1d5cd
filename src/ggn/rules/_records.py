"""The records of a rule system: what the legality walk and the game's hooks pass around.

The walk works on the compact form of positions (integer piece codes by square index, see
:mod:`ggn.position`); these are its values:

- :data:`Change`: one square index and the code it gets (0: empty);
- :data:`Effect`: one play of a move, compactly: ``(choice, changes, hand)``, the piece
  chosen (a promotion) or None, the square changes in order (the last change of a square
  wins), and the count changes of the mover's hand;
- :class:`MoveInfo`: what the walk knows of a pseudo-legal move, worked out once per
  :class:`~ggn.move.Move` object and kept per board shape;
- :class:`Play`: a legal move made readable, whose STN transition is built when first read;
- :class:`Ending` and :class:`Outcome`: how a game ended.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ggn._types import Side, expect
from ggn.cell import Cell, Hand
from ggn.errors import GGNError
from ggn.move import Move
from ggn.position import Position, piece_of
from ggn.qpi import Qpi
from ggn.stn import Transition

__all__ = ["PLAIN", "SPECIAL", "TERMINAL", "Change", "Effect", "Ending", "HandChange", "MoveInfo", "Outcome",
           "Play", "PlayContext"]

Change = tuple[int, int]
"""A square index and the code it gets (0: empty)."""

HandChange = tuple[tuple[Qpi, int], ...]
"""Count changes of the Active Player's hand."""

Effect = tuple[Qpi | None, tuple[Change, ...], HandChange]
"""One play of a move, compactly: the chosen piece (or None), square changes (last wins), hand
changes of the Active Player."""

PLAIN, TERMINAL, SPECIAL = 0, 1, 2
"""The kinds of :attr:`MoveInfo.kind`: a displacement from board to board of a piece that is
not terminal, of a terminal (``^``) piece, or a move the game's hooks must see (a drop, a move
to the hand, a move onto its own source, or one :meth:`RuleSystem._special` names)."""


class MoveInfo(NamedTuple):
    """What the walk knows of one pseudo-legal move, worked out once per :class:`~ggn.move.Move`.

    A tuple, so the hooks may read it by field or by index (``info.source`` is ``info[1]``).
    """

    move: Move
    source: int
    """The source's square index, -1 for the hand."""
    destination: int
    """The destination's square index, -1 for the hand."""
    code: int
    """The moving piece's code."""
    kind: int
    """:data:`PLAIN`, :data:`TERMINAL` (both made by the walk itself) or :data:`SPECIAL`
    (made by the hooks ``_effects`` and ``_allowed``)."""
    placed: int
    """The code a plain displacement leaves on the destination (``_becomes``), or the stand-in's
    code when plays are only counted (``_stand_in``)."""
    tally: int
    """The kind the move counts as when plays are only counted: :attr:`kind`, or
    :data:`PLAIN`/:data:`TERMINAL` for a special move that ``_stand_in`` stands in for."""
    plays: int
    """How many plays the move counts for when only counted (1, or the stand-in's number)."""


class Ending(enum.Enum):
    """How a game ended; the value is the words :class:`Outcome` writes."""

    CHECKMATE = "checkmate"
    """The player to move has no legal play and is in check."""
    STALEMATE = "stalemate"
    """The player to move has no legal play and is not in check, in a game where that draws."""
    NO_LEGAL_MOVE = "no legal move"
    """The player to move has no legal play and is not in check, in a game where that loses."""
    EXTINCTION = "extinction"
    """A player has lost every piece of the kinds the game names (or all but a given number)."""
    FLAG = "reaching the goal"
    """A piece reached its side's goal region (king of the hill, racing kings)."""
    CHECKS = "checks"
    """A player has given the number of checks the game asks for (three-check)."""
    CONNECTION = "a connection"
    """A player has connected its pieces: so many in a row, a chain between two regions, a
    square block (tic-tac-toe, connect four, gomoku)."""
    BARE_KING = "bare king"
    """A player has nothing left but its royal piece (shatranj's baring)."""
    MOVE_RULE = "the n-move rule"
    """The n-move rule (chess's fifty moves): so many moves without a capture, a drop, a
    promotion or a pawn's move (:class:`ggn.game.Game`, claimed)."""
    REPETITION = "repetition"
    """The same position for the n-th time (:class:`ggn.game.Game`, claimed)."""
    PERPETUAL_CHECK = "perpetual check"
    """A repetition in which one player checked at every move, and loses for it
    (shogi, xiangqi; :class:`ggn.game.Game`, claimed)."""
    CHASING = "perpetual chasing"
    """A repetition in which one player chased an unprotected piece at every move, and loses
    for it (xiangqi's rules of the Asian Xiangqi Federation; :class:`ggn.game.Game`, claimed)."""
    MOVE_REPETITION = "repeated moves"
    """A piece moved back and forth while the other player passed or did the same (janggi's
    rule; :class:`ggn.game.Game`, claimed)."""
    COUNTING = "counting"
    """The count of moves of makruk, cambodian or ASEAN chess ran out (:class:`ggn.game.Game`,
    claimed)."""
    BIKJANG = "bikjang"
    """The royal pieces faced each other on an open line (janggi's bikjang) and the player who
    had to end it passed (:class:`ggn.game.Game`); decided by material where the game counts it."""
    PASSES = "two passes"
    """Both players passed, one after the other (:class:`ggn.game.Game`); decided by material
    where the game counts it."""
    FULL_BOARD = "a full board"
    """No empty square is left, and the game is adjudicated (:class:`ggn.game.Game`)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (None for a draw) and the :class:`Ending`.

    >>> str(Outcome("first", Ending.CHECKMATE)), str(Outcome(None, Ending.STALEMATE))
    ('first player wins by checkmate', 'draw by stalemate')
    """

    winner: Side | None
    ending: Ending

    def __post_init__(self) -> None:
        expect(self.ending, Ending, "ending", "an Ending")
        if self.winner is not None:
            expect(self.winner, str, "winner", "'first', 'second' or None")
            if self.winner not in ("first", "second"):
                raise GGNError(f"winner must be 'first', 'second' or None, got {self.winner[:40]!r}")

    def __str__(self) -> str:
        if self.winner is None:
            return f"draw by {self.ending.value}"
        return f"{self.winner} player wins by {self.ending.value}"


class PlayContext:
    """What the plays of one position share to make their transitions when asked: the
    position, the changes every play makes first (``_prepare``'s), and the rule system's
    ``_captured`` hook (what a capture puts in the mover's hand)."""

    __slots__ = ("captured", "position", "prefix")

    def __init__(self, position: Position, prefix: tuple[Change, ...],
                 captured: Callable[[int, Qpi], Qpi]) -> None:
        self.position = position
        self.prefix = prefix
        self.captured = captured

    def effect(self, recipe: MoveInfo | tuple[Move, Effect] | tuple[Move, Effect, Cell]) -> Effect:
        """The effect of a play: the one its recipe holds, or, for a plain displacement the
        walk made (a MoveInfo), the displacement leaving its ``placed`` code on the destination."""
        if type(recipe) is not MoveInfo:
            return recipe[1]  # type: ignore[return-value]
        move, source, destination, _, _, placed, _, _ = recipe
        taken = self.position._codes[destination]
        hand: HandChange = ((self.captured(taken, move.piece), 1),) if taken else ()
        return (None, (*self.prefix, (source, 0), (destination, placed)), hand)

    def transition(self, recipe: MoveInfo | tuple[Move, Effect] | tuple[Move, Effect, Cell]) -> Transition:
        """The full STN transition of a play."""
        return transition_of(self.position, self.effect(recipe))


def transition_of(position: Position, effect: Effect) -> Transition:
    """The STN transition of ``effect`` played on ``position``."""
    cells = position._geometry.cells
    _, changes, hand = effect
    board = {cells[number]: piece_of(code) if code else None for number, code in changes}
    delta: dict[Qpi, int] = {}
    for piece, count in hand:
        delta[piece] = delta.get(piece, 0) + count
    delta = {piece: count for piece, count in delta.items() if count}
    if position.active == "first":
        return Transition(board, delta, None, True)
    return Transition(board, None, delta, True)


_new = object.__new__


class Play:
    """A legal move: the piece, its source and destination (``*`` for the hand), the piece
    chosen among several (a promotion), the square walled off with it (``wall``, in games
    with walls: duck chess, amazons), and the full STN transition of the move.

    ``str()`` reads ``PIECE SOURCE-DESTINATION``, followed by ``=CHOICE`` when there is one,
    and by ``,WALL`` when it places a wall: ``C:P e7-e8=C:Q``, ``S:P *-e5``, ``A:Q d1-a1,b1``.
    A play is a value: its fields cannot be set, and two plays are equal when their piece,
    source, destination, choice, wall and transition are (the
    :class:`~ggn.move.Move` it comes from aside). The rule system makes the transition when
    it is first read, so listing the legal moves costs no transition that is never read.
    """

    # What the play is made from (``_recipe``): for a plain displacement the walk made, the
    # move's MoveInfo; else ``(move, effect)``. ``_context``: what the plays of one position
    # share to make their transitions (None once the transition is given).
    __slots__ = ("_context", "_recipe", "_transition")
    _recipe: MoveInfo | tuple[Move, Effect] | tuple[Move, Effect, Cell]
    _context: PlayContext | None
    _transition: Transition

    def __init__(self, piece: Qpi, source: Cell | Hand, destination: Cell | Hand,  # noqa: PLR0917
                 choice: Qpi | None, transition: Transition, move: Move, wall: Cell | None = None) -> None:
        # The fields of the dataclass this once was, in its order: piece, source and
        # destination must be the move's.
        expect(move, Move, "move", "a Move")
        expect(transition, Transition, "transition", "a Transition")
        expect(piece, Qpi, "piece", "a Qpi")
        expect(source, (Cell, Hand), "source", "a Cell or a Hand")
        expect(destination, (Cell, Hand), "destination", "a Cell or a Hand")
        if choice is not None:
            expect(choice, Qpi, "choice", "a Qpi or None")
        if wall is not None:
            expect(wall, Cell, "wall", "a Cell or None")
        if (piece, source, destination) != (move.piece, move.source, move.destination):
            raise GGNError(f"a play's piece, source and destination are its move's: {move}, not "
                           f"{piece} {source}-{destination}")
        self._recipe = (move, (choice, (), ())) if wall is None else (move, (choice, (), ()), wall)
        self._context = None
        self._transition = transition

    @property
    def piece(self) -> Qpi:
        return self._recipe[0].piece

    @property
    def source(self) -> Cell | Hand:
        return self._recipe[0].source

    @property
    def destination(self) -> Cell | Hand:
        return self._recipe[0].destination

    @property
    def choice(self) -> Qpi | None:
        recipe = self._recipe
        return None if type(recipe) is MoveInfo else recipe[1][0]  # type: ignore[index]

    @property
    def wall(self) -> Cell | None:
        """The square the play walls off (games with walls), else None."""
        recipe = self._recipe
        return recipe[2] if len(recipe) == 3 else None

    @property
    def move(self) -> Move:
        return self._recipe[0]

    @property
    def transition(self) -> Transition:
        """The full STN transition of the play (made on first read, then kept)."""
        try:
            return self._transition
        except AttributeError:
            pass
        context = self._context
        assert context is not None
        made = self._transition = context.transition(self._recipe)
        return made

    def _key(self) -> tuple[Qpi, Cell | Hand, Cell | Hand, Qpi | None, Transition, Cell | None]:
        move = self._recipe[0]
        return (move.piece, move.source, move.destination, self.choice, self.transition, self.wall)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __copy__(self) -> Play:
        return self  # a value: a copy is the same play

    def __deepcopy__(self, memo: dict[int, object]) -> Play:
        return self

    def __reduce__(self) -> tuple[type[Play], tuple[Any, ...]]:
        return (Play, (*self._key()[:4], self.transition, self._recipe[0], self.wall))

    def __repr__(self) -> str:
        piece, source, destination, choice, transition, wall = self._key()
        walled = "" if wall is None else f", wall={wall!r}"
        return (f"Play(piece={piece!r}, source={source!r}, destination={destination!r}, "
                f"choice={choice!r}, transition={transition!r}{walled})")

    def __str__(self) -> str:
        move, choice, wall = self._recipe[0], self.choice, self.wall
        text = f"{move.piece} {move.source}-{move.destination}"
        if choice is not None:
            text = f"{text}={choice}"
        return text if wall is None else f"{text},{wall}"


def made_play(move: Move, effect: Effect, context: PlayContext, wall: Cell | None = None) -> Play:
    """A play the walk found legal, its transition left to be made from ``effect`` when read
    (``wall``: the square it walls off, in a game with walls)."""
    play: Play = _new(Play)
    play._recipe = (move, effect) if wall is None else (move, effect, wall)
    play._context = context
    return play
