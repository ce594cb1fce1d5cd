"""The generic rule system: legal moves, their full transitions, playing them, the end of a game.

A GGN document lists pseudo-legal moves. A rule system, on top of it:

- gives each pseudo-legal move its full effect, as one or more *plays* (one per choice, such
  as a promotion piece), each with its complete STN transition;
- keeps the legal ones: a play is illegal if, after it, the opponent has a pseudo-legal move
  onto one of the mover's terminal (``^``) pieces (games add their own rules on top);
- says how the game ends: when it has ended before the player to move plays (``_ended``), or
  when the player to move has no legal play (``_no_move``).

The work is split along its jobs:

- :mod:`ggn.rules._records`: the values passed around (``MoveInfo``, ``Effect``, ``Play``,
  ``Ending``, ``Outcome``);
- :mod:`ggn.rules._attacks`: the attack compiler (whether a side can move onto a square, as
  code generated once per board shape from the document's reverse index);
- :mod:`ggn.rules._walk`: the legality walk, in named steps;
- this module: :class:`RuleSystem`, its public methods and the hooks a game overrides.

The hooks, their arguments and what the walk expects of them are the *hook contract*, written
out in docs/ARCHITECTURE.md ("Rule systems: the hook contract") and in each hook's docstring
below. The inner loop works on the compact form of positions (integer piece codes by square);
a play is made readable (:class:`Play`, with its :class:`~ggn.stn.Transition`) only when asked.
"""

from __future__ import annotations

import threading
from bisect import insort
from collections.abc import Iterator
from typing import Any, ClassVar

from ggn._decimal import shown_tuple
from ggn._types import Side, expect
from ggn.cell import Cell
from ggn.errors import GGNError, IllegalMoveError, PositionError
from ggn.feen import Feen
from ggn.move import Move
from ggn.position import TERMINAL_CODES, Geometry, Position, piece_of
from ggn.qpi import Qpi
from ggn.rules._attacks import Attack, Tables, holds
from ggn.rules._records import (
    PLAIN,
    SPECIAL,
    TERMINAL,
    Change,
    Effect,
    Ending,
    HandChange,
    MoveInfo,
    Outcome,
    Play,
    PlayContext,
    made_play,
)
from ggn.rules._walk import describe, walk
from ggn.ruleset import COMPILED_KEPT, COMPILED_SQUARES_KEPT, Ruleset
from ggn.sin import Sin

# IllegalMoveError is defined in ggn.errors with every other error, and re-exported here.
__all__ = ["Ending", "IllegalMoveError", "Outcome", "Play", "RuleSystem"]

_KEEPING = threading.Lock()  # guards every rule system's kept tables

# The names the games' modules import from here, kept under the names they had.
_Tables = Tables
_PLAIN, _TERMINAL, _SPECIAL = PLAIN, TERMINAL, SPECIAL
_holds = holds
__all__ += ["Attack", "Change", "Effect", "HandChange", "MoveInfo"]  # for the games' modules


def _native_count(rules: RuleSystem, position: Position) -> int | None:
    from ggn.rules._native import count  # noqa: PLC0415  (it imports this module)

    return count(rules, position)


class RuleSystem:
    """Legal moves, their full effects and the end of the game, on top of a GGN ruleset.

    The generic rule: a play is illegal if, after it, the opponent has a pseudo-legal move
    onto one of the mover's terminal pieces. A play's effect is the Game Protocol's default
    displacement (a captured piece goes, unchanged, into the mover's hand). A player with no
    legal play loses. Games change this by overriding the hooks (``_ended``, ``_prepare``,
    ``_special``, ``_becomes``, ``_stand_in``, ``_special_taken``, ``_captured``, ``_effects``,
    ``_allowed``, ``_no_move``): docs/ARCHITECTURE.md, "Rule systems: the hook contract", says
    when the walk asks each and what it must promise.
    """

    name: ClassVar[str] = "generic"

    _last_tables: tuple[Geometry, Tables] | None = None  # the board geometry met last, its tables

    _ends: bool = False
    """Whether :meth:`_ended` is asked at all: set on each subclass that overrides it (so a game
    that never ends early pays nothing); an instance may set it False when its game has no
    such end."""

    _own_walk: bool = False
    """Whether the class has a :meth:`_walk` of its own: then every count and listing goes
    through it, else straight to :func:`ggn.rules._walk.walk`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_ended" in cls.__dict__:
            cls._ends = True
        if "_walk" in cls.__dict__:
            cls._own_walk = True

    def __init__(
        self, ruleset: Ruleset, start: str | None = None, shape: tuple[int, ...] | None = None
    ) -> None:
        expect(ruleset, Ruleset, "ruleset", "a Ruleset")
        if start is not None:
            expect(start, str, "start", "a FEEN string or None")
        if shape is not None:
            expect(shape, tuple, "shape", "a tuple of ints or None")
            for size in shape:
                expect(size, int, "shape", "a tuple of ints or None")
        self.ruleset = ruleset
        self.start = start
        self.shape = shape
        self.styles: tuple[Sin, Sin] | None = None if start is None else Feen.parse(start).styles
        """The players' styles (first, second) of the game's positions, those of its start
        position; None (a rule system without a start): any."""
        self._tables: dict[tuple[int, ...], Tables] = {}
        self._start_position: tuple[str, Position] | None = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} rule system>"

    # -- public ---------------------------------------------------------------------------
    def position(self, feen: str | Feen | Position | None = None) -> Position:
        """A position from FEEN (or the start position when None).

        The board's shape is checked against the game's before the board is built: a FEEN
        of millions of squares is refused at once, not after building them. A position in
        other styles than the game's (shogi's ``S/s`` given to chess) is a
        :class:`~ggn.errors.PositionError`, here and wherever a Position is given.
        """
        if isinstance(feen, Position):
            return self._checked(feen)
        if feen is None:
            if self.start is None:
                raise GGNError(f"the {self.name} rule system has no start position; give one in FEEN")
            # The start, read once (a Position is immutable): every batch call asks for it.
            kept = self._start_position
            if kept is None or kept[0] is not self.start:
                kept = self._start_position = (self.start, self._position(self.start, "feen"))
            else:
                self._admit(kept[1])  # (as every public call admits its position)
            return kept[1]
        return self._position(feen, "feen")

    def _position(self, feen: str | Feen | Position | None, parameter: str) -> Position:
        """:meth:`position`, a wrong type named as ``parameter`` (perft's ``position``)."""
        if isinstance(feen, Position):
            return self._checked(feen)
        if feen is None:
            return self.position()
        if isinstance(feen, str):
            feen = Feen.parse(feen)
        expect(feen, Feen, parameter, "a Position, a FEEN string or None")
        self._check_shape(feen.shape)
        self._check_styles(feen.styles)
        position = Position.from_feen(feen)
        self._admit(position)
        return position

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        if self.shape is not None and shape != self.shape:
            board = "x".join(map(str, self.shape))
            raise PositionError(f"{self.name} is played on a board of {board} squares, not one of shape "
                                f"{shown_tuple(shape)}")

    def _check_styles(self, styles: tuple[Sin, Sin]) -> None:
        # Sin objects are interned: a position of the game compares its styles by identity.
        if self.styles is not None and styles != self.styles:
            raise PositionError(f"{self.name} is played in the styles {self.styles[0]}/{self.styles[1]} "
                                f"(first player/second player), not {styles[0]}/{styles[1]}")

    def _checked(self, position: Position) -> Position:
        """``position``, once known to be a Position of the game's board shape and styles
        (asked once per public call, never in the walk)."""
        self._check_shape(expect(position, Position, "position", "a Position").shape)
        self._check_styles(position.styles)
        self._admit(position)
        return position

    _unnamed_terminals: ClassVar[bool] = True
    """Whether the terminal pieces a position holds and the document does not name are
    terminal to the rule too (see :meth:`_admit`): a game whose document names every piece its
    positions hold sets it False, and pays nothing for it."""

    def _admit(self, position: Position) -> None:
        """Make the terminal pieces of ``position``'s board that the document does not name
        terminal to the rule as well: such a piece never moves, but a play that lets the
        opponent move onto it is illegal all the same. Their codes join the terminal codes of
        the tables of the board's shape (``Tables.terminal``, made from the pieces the document
        names). Asked once a public call, of the position it is given: the plays of a game
        bring no other piece onto the board (only the document's pieces move or are dropped),
        so the walk below it never meets one it has not been told of."""
        if not self._unnamed_terminals:
            return
        found = TERMINAL_CODES.intersection(position._codes)
        if not found:
            return
        tables = self._tables_for(position)
        new = found.difference(*tables.terminal)
        if new:
            with _KEEPING:
                first, second = tables.terminal
                tables.terminal = (first.union(code for code in new if code > 0),
                                   second.union(code for code in new if code < 0))

    def legal_moves(self, position: Position) -> list[Play]:
        """Every legal play of ``position``, each with its full STN transition (made when
        first read)."""
        self._checked(position)
        plays: list[Play] = []
        if not self._own_walk:
            walk(self, position, None, 0, plays)
            return plays
        # A game with a walk of its own: its plays, as it gives them.
        context = PlayContext(position, (), self._captured)
        wall = self._wall_of
        return [made_play(move, effect, context, wall(position, effect))
                for move, effect, _ in self._legal(position)]

    def count(self, position: Position) -> int:
        """The number of legal plays of ``position``."""
        checked = self._checked(position)
        # The native kernel counts where it plays the game (2.5 times faster on chess, the
        # boundary included); else the pure walk.
        counted = _native_count(self, checked)
        return self._count(checked) if counted is None else counted

    def play(self, position: Position, play: Play | str) -> Position:
        """The position after a legal play, given as a :class:`Play` or its ``str()``; raise
        :class:`IllegalMoveError` if it is not one of the position's legal plays.

        A :class:`Play` is found by its value (its transition too): two legal plays may have one
        ``str()``, as a chess960 castling that moves the king one square and the king's step
        there. A ``str()`` that names several plays with different transitions is a
        :class:`GGNError` naming them: give the play itself."""
        wanted = str(expect(play, (Play, str), "play", "a Play or its str()"))
        legal = self.legal_moves(position)
        named = [candidate for candidate in legal if str(candidate) == wanted]
        if type(play) is Play and len(named) > 1:
            named = [candidate for candidate in named if candidate == play]
        if named:
            if len({candidate.transition for candidate in named}) > 1:
                raise GGNError(f"{wanted!r} names {len(named)} legal moves of {position.to_feen()!r}, with "
                               f"different effects: give the Play itself")
            return position.apply(named[0].transition)
        shown = ", ".join(str(p) for p in legal[:8]) + (", ..." if len(legal) > 8 else "")
        raise IllegalMoveError(
            f"{wanted!r} is not a legal move of {position.to_feen()!r}; legal moves: {shown or 'none'}"
        )

    def in_check(self, position: Position) -> bool:
        """Whether the opponent has a pseudo-legal move onto a terminal piece of the player to move."""
        tables = self._tables_for(self._checked(position))
        side = 0 if position.active == "first" else 1
        return self._threatened(position, tables, position._codes, side)

    def outcome(self, position: Position) -> Outcome | None:
        """How the game ended if it has (see :meth:`_ended`), else how it ends here if the
        player to move has no legal play, else None."""
        if self._ends:
            ended = self._ended(self._checked(position))
            if ended is not None:
                return ended
        if self._walk(self._checked(position), None, 1):
            return None
        return self._no_move(position, self.in_check(position))

    # -- the machinery (see ggn.rules._walk and ggn.rules._attacks) -----------------------
    def _tables_for(self, position: Position) -> Tables:
        """The tables of ``position``'s board shape (made on first use)."""
        geometry = position._geometry
        last = self._last_tables
        if last is not None and last[0] is geometry:
            return last[1]
        kept = self._tables
        tables = kept.get(geometry.shape)
        if tables is None:
            self._check_shape(position.shape)
            tables = Tables(self.ruleset, geometry, self._cannons)
        with _KEEPING:
            # A rule system of no fixed shape keeps the tables of the shapes used last, as a
            # ruleset keeps its compiled forms: at most COMPILED_KEPT, and COMPILED_SQUARES_KEPT
            # squares beyond the one used now (the least recently used go).
            tables = kept.pop(geometry.shape, tables)
            kept[geometry.shape] = tables  # the most recently used last
            squares = sum(made.geometry.size for made in kept.values())
            while len(kept) > COMPILED_KEPT or (squares > COMPILED_SQUARES_KEPT and len(kept) > 1):
                squares -= kept.pop(next(iter(kept))).geometry.size
        self._last_tables = (geometry, tables)
        return tables

    def _threatened(self, position: Position, tables: Tables, codes: list[int], side: int) -> bool:
        """Whether the other side can move onto a terminal piece of ``side`` on board ``codes``."""
        terminal = tables.terminal[side]
        attacks = tables.attacks[1 - side]
        for number, code in enumerate(codes):
            if code in terminal and (attacks[number](codes) or self._hand_attack(
                    position, tables, codes, side, number)):
                return True
        return False

    def _hand_attack(self, position: Position, tables: Tables, codes: list[int], side: int,
                     square: int) -> bool:
        """Whether the other side can drop a piece from its hand onto ``square``."""
        arrivals = tables.hand_arrivals[1 - side].get(square)
        if not arrivals:
            return False
        hand = position._hands[1 - side]
        index = tables.geometry.index
        enemy_sign = 1 if side == 0 else -1
        for piece, possibilities in arrivals:
            if hand.get(piece, 0) <= 0:
                continue
            for possibility in possibilities:
                if all(cell in index and holds(state, codes[index[cell]], enemy_sign)
                       for cell, state in possibility.must.items()) and not any(
                        cell in index and holds(state, codes[index[cell]], enemy_sign)
                        for cell, state in possibility.deny.items()):
                    return True
        return False

    def _legal(self, position: Position, stop: int = 0) -> list[tuple[Move, Effect, list[int]]]:
        """The legal plays of ``position``: (move, effect, board codes after); with ``stop``, at
        most that many."""
        out: list[tuple[Move, Effect, list[int]]] = []
        if self._own_walk:
            self._walk(position, out, stop)
        else:
            walk(self, position, out, stop)
        return out

    def _count(self, position: Position) -> int:
        """The number of legal plays of ``position``, without making their effects."""
        return self._walk(position, None, 0) if self._own_walk else walk(self, position, None, 0)

    def _walk(self, position: Position, out: list[tuple[Move, Effect, list[int]]] | None, stop: int) -> int:
        """Find the legal plays of ``position``: append them to ``out`` (unless None), return how
        many (at most ``stop``, if given). The steps are in :mod:`ggn.rules._walk`."""
        return walk(self, position, out, stop)

    def _info(self, tables: Tables, move: Move) -> MoveInfo:
        """The walk's description of ``move`` (see :func:`ggn.rules._walk.describe`)."""
        return describe(self, tables, move)

    def _exposed(self, position: Position, child: list[int], side: int, targets: list[int]) -> bool:
        """Whether the other side of ``side`` can move onto one of the squares ``targets`` of
        board ``child`` (the hands: those of ``position``)."""
        tables = self._tables_for(position)
        attacks = tables.attacks[1 - side]
        hand_attacks = bool(position._hands[1 - side]) and bool(tables.hand_arrivals[1 - side])
        for target in targets:
            if attacks[target](child) or (
                    hand_attacks and self._hand_attack(position, tables, child, side, target)):
                return True
        return False

    def _child(self, position: Position, effect: Effect, child: list[int]) -> Position:
        """The position after a play, from its effect and board codes (no checks: the effect
        comes from :meth:`_legal`)."""
        hands = position._hands
        # (Read-only views of dicts: copy() copies the dict, faster than dict() of the view.)
        first_hand, second_hand = hands[0].copy(), hands[1].copy()  # type: ignore[attr-defined]
        hand = effect[2]
        if hand:
            mine = first_hand if position.active == "first" else second_hand
            for piece, count in hand:
                total = mine.get(piece, 0) + count
                if total:
                    mine[piece] = total
                else:
                    del mine[piece]
        active: Side = "second" if position.active == "first" else "first"
        # Each side's occupied squares: the parent's, updated for the squares whose side the
        # play changes (a square changed twice is put right twice, the second time idly).
        occupied = position._occupied
        before = position._codes
        first: list[int] | None = None
        second: list[int] = []
        for number, _ in effect[1]:
            old, new = before[number], child[number]
            if (old > 0) is (new > 0) and (old < 0) is (new < 0):
                continue
            if first is None:
                first, second = list(occupied[0]), list(occupied[1])
            if number in first:
                first.remove(number)
            elif number in second:
                second.remove(number)
            if new > 0:
                insort(first, number)
            elif new < 0:
                insort(second, number)
        if first is not None:
            occupied = (tuple(first), tuple(second))
        return Position._make_known(position._geometry, child, (first_hand, second_hand), active,
                                    position.styles, occupied=occupied)

    def _children(self, position: Position) -> Iterator[Position]:
        for _, effect, child in self._legal(position):
            yield self._child(position, effect, child)

    # -- hooks ----------------------------------------------------------------------------
    _calm: Position | None = None
    """While the hooks of a position's plays run: that position if its one terminal piece is
    known not to be attacked (on its board after :meth:`_prepare`'s changes), else None or
    another position (a hook that walks a position of its own resets it): a hint only, to
    spare a test whose answer is known."""

    _capture_forced: bool = False
    """Whether captures are forced: while the player to move has a legal play that captures
    (its destination held a piece of the other side, or it takes one elsewhere), only such
    plays are legal (:func:`ggn.rules._walk.forced_captures`). A game sets it once, for the
    whole game: the walk of the others pays one test a position."""

    _more_moves: bool = False
    """Whether the game has moves its document does not list (:meth:`_extra_moves`); set once
    for the whole game, so that the walk of the others pays one test a position."""

    def _extra_moves(self, position: Position) -> list[Move]:
        """Moves of ``position`` that the document does not list (sittuyin's promotions), each a
        special move that the hooks play; asked only where :attr:`_more_moves` is set."""
        return []

    _drops_forced: tuple[frozenset[int], frozenset[int]] | None = None
    """Where drops are forced (Fairy-Stockfish's ``mustDrop``), per side, the codes of the
    pieces in hand whose drops are: while the player to move holds one of them, it may drop
    only those, and while it has such a drop that is legal it has no other legal play
    (:func:`ggn.rules._walk.forced_drops`). None (most games): no such rule, and the walk
    pays nothing."""

    _special_taken: frozenset[int] = frozenset()
    """Codes of pieces whose capture has effects of the game's own (the hooks see the move)."""

    _cannons: frozenset[Qpi] = frozenset()
    """Pieces that neither hop over nor move onto a piece of the set (janggi's cannons): the
    attack tests read their moves so (:class:`~ggn.rules._attacks.Tables`); the game's hooks
    must refuse such moves themselves (the document lists them). Set before the first use of
    the tables."""

    def _special(self, move: Move, source: int, destination: int, code: int) -> bool:
        """Whether a board-to-board move needs the game's hooks (``_effects``, ``_allowed``);
        asked once per move of the compiled generator (drops always do)."""
        return False

    def _stand_in(self, move: Move, source: int, destination: int, code: int) -> tuple[int, int] | None:
        """For a board-to-board move that :meth:`_special` names, when plays are only counted:
        ``(code, plays)`` if its plays are legal exactly when its plain displacement leaving
        ``code`` on the destination is (the game's other changes never make or break a move
        onto a terminal piece, nor do its own rules forbid a play), and it makes ``plays``
        plays; None (the default) when the hooks must see it. Captures of the pieces
        ``_special_taken`` names still go to the hooks."""
        return None

    def _becomes(self, move: Move, source: int, destination: int, code: int) -> int:
        """The code a move that is not special leaves on its destination (by default the
        moving piece's own); asked once per move of the compiled generator."""
        return code

    def _captured(self, taken: int, mover: Qpi) -> Qpi:
        """The piece that a capture of ``taken`` puts into the mover's hand: by default the
        piece as it stood (the Game Protocol's default)."""
        return piece_of(taken)

    def _prepare(self, position: Position, tables: Tables) -> tuple[Change, ...]:
        """Changes that every play of ``position`` makes first (the game's own bookkeeping)."""
        return ()

    def _effects(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> list[Effect]:
        """The plays of one pseudo-legal move; by default its Game Protocol displacement."""
        return [self._default(position, prefix, info)]

    def _default(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> Effect:
        """The Game Protocol's displacement of a move, after ``prefix``, compactly (see
        :meth:`ggn.move.Move.transition`)."""
        move, source, destination, code = info[0], info[1], info[2], info[3]
        if source >= 0:
            if destination >= 0:
                taken = position._codes[destination] if destination != source else 0
                hand = ((self._captured(taken, move.piece), 1),) if taken else ()
                return (None, (*prefix, (source, 0), (destination, code)), hand)
            return (None, (*prefix, (source, 0)), ((move.piece, 1),))
        taken = position._codes[destination]
        if taken:  # a drop onto a piece takes it, as a board move would
            return (None, (*prefix, (destination, code)),
                    ((move.piece, -1), (self._captured(taken, move.piece), 1)))
        return (None, (*prefix, (destination, code)), ((move.piece, -1),))

    def _allowed(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo, effect: Effect,
                 child: list[int]) -> bool:
        """A game's own legality rules beyond the terminal-piece rule (``child``: the board after);
        asked only of the moves ``_special`` names, and of drops."""
        return True

    def _no_play(self, position: Position, info: MoveInfo) -> bool:
        """Whether a pseudo-legal move has no play at all on ``position``, whatever its effects
        (a capture a rule forbids outright); :meth:`_allowed` refuses its plays, and
        :func:`ggn.rules._walk.pseudo_plays` lists none, as the kernel's listing. False, the
        default."""
        return False

    def _wall_of(self, position: Position, effect: Effect) -> Cell | None:
        """The square a play walls off, in a game whose moves place walls (its :class:`Play`'s
        ``wall``); None, the default, in every other."""
        return None

    def _ended(self, position: Position) -> Outcome | None:
        """How the game has ended before the player to move plays (extinction, a piece on its
        goal, ...), else None (the default: a game ends only when a player has no legal play).
        A position whose game has ended has no legal plays, and :meth:`outcome` is this answer.
        Overriding it sets :attr:`_ends`, so games that do not pay nothing for it."""
        return None

    def _no_move(self, position: Position, in_check: bool) -> Outcome:
        """The end of the game when the player to move has no legal play."""
        return Outcome(position.inactive, Ending.CHECKMATE if in_check else Ending.NO_LEGAL_MOVE)
