"""The generic rule system: legal moves, their full transitions, playing them, the end of a game.

A GGN document lists pseudo-legal moves. A rule system, on top of it:

- gives each pseudo-legal move its full effect, as one or more *plays* (one per choice, such
  as a promotion piece), each with its complete STN transition;
- keeps the legal ones: a play is illegal if, after it, the opponent has a pseudo-legal move
  onto one of the mover's terminal (``^``) pieces (games add their own rules on top);
- says how the game ends when the player to move has no legal play.

The inner loop works on the compact form of positions (integer piece codes by square): a play
is a tuple of square changes and hand changes, made readable (:class:`Play`, with its
:class:`~ggn.stn.Transition`) only when asked for. Whether a square is attacked is answered by
code generated once per (board shape, attacking side, square) from the document's reverse
index: every (source, piece) that can arrive on the square, and the conditions it needs.
"""

from __future__ import annotations

import enum
from bisect import insort
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from ggn._decimal import shown_tuple
from ggn._types import Side, expect
from ggn.cell import HAND, Cell, Hand
from ggn.errors import GGNError, IllegalMoveError
from ggn.feen import Feen
from ggn.lcn import EMPTY, ENEMY, StateValue
from ggn.move import Move
from ggn.position import Geometry, Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.ruleset import Possibilities, Ruleset
from ggn.stn import Transition

# IllegalMoveError is defined in ggn.errors with every other error, and re-exported here.
__all__ = ["Ending", "IllegalMoveError", "Outcome", "Play", "RuleSystem"]

Change = tuple[int, int]
"""A square index and the code it gets (0: empty)."""

HandChange = tuple[tuple[Qpi, int], ...]
"""Count changes of the Active Player's hand."""

Effect = tuple[Qpi | None, tuple[Change, ...], HandChange]
"""One play of a move, compactly: the chosen piece (or None), square changes (last wins), hand
changes of the Active Player."""

Attack = Callable[[list[int]], bool]
Term = tuple[int, StateValue]  # a condition on a square, by index

# The fields of a move's compact description: the move, source index (-1: hand), destination
# index (-1: hand), the piece's code, its kind (a plain displacement from board to board,
# checked and made inline, of a terminal piece or not; or one the game's hooks must see), the
# code a plain displacement leaves on the destination, and, when plays are only counted, the
# kind it counts as and how many plays it counts for (see ``RuleSystem._stand_in``).
MoveInfo = tuple[Move, int, int, int, int, int, int, int]
_PLAIN, _TERMINAL, _SPECIAL = 0, 1, 2


def _UNKNOWN(b: list[int]) -> bool:  # noqa: N802  (a sentinel: a test not compiled yet)
    raise AssertionError("a sentinel, never called")


_INFO_BOUND: Final = 1 << 16  # move descriptions kept per board shape before starting afresh


@dataclass(frozen=True, slots=True)
class Play:
    """A legal move: the piece, its source and destination (``*`` for the hand), the piece
    chosen among several (a promotion), and the full STN transition of the move.

    ``str()`` reads ``PIECE SOURCE-DESTINATION``, followed by ``=CHOICE`` when there is one:
    ``C:P e7-e8=C:Q``, ``S:P *-e5``.
    """

    piece: Qpi
    source: Cell | Hand
    destination: Cell | Hand
    choice: Qpi | None
    transition: Transition
    move: Move = field(compare=False, repr=False)

    def __str__(self) -> str:
        text = f"{self.piece} {self.source}-{self.destination}"
        return text if self.choice is None else f"{text}={self.choice}"


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
    BARE_KING = "bare king"
    """A player has nothing left but its royal piece (shatranj's baring)."""

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


# --- attacks ---------------------------------------------------------------------------------
def _term(cell_index: int, state: StateValue, enemy_below: bool) -> str:
    if state == EMPTY:
        return f"b[{cell_index}] == 0"
    if state == ENEMY:
        return f"b[{cell_index}] {'<' if enemy_below else '>'} 0"
    assert isinstance(state, Qpi)
    return f"b[{cell_index}] == {code_of(state)}"


def _expression(
    possibility_must: list[tuple[int, StateValue]], deny: list[tuple[int, StateValue]], enemy_below: bool
) -> str:
    parts = [_term(i, s, enemy_below) for i, s in possibility_must]
    if deny:
        parts.append("not (" + " or ".join(_term(i, s, enemy_below) for i, s in deny) + ")")
    return " and ".join(parts) if parts else "True"


class _Tables:
    """What a rule system precomputes for one board shape."""

    __slots__ = ("arrivals", "arriving", "attacks", "fragile_squares", "geometry", "hand_arrivals", "info",
                 "terminal", "through")

    def __init__(self, ruleset: Ruleset, geometry: Geometry) -> None:
        self.geometry = geometry
        index = geometry.index
        # Per attacking side (0 first, 1 second), per square: (source, code, possibilities).
        self.arrivals: tuple[list[list[tuple[int, int, Possibilities]]], ...] = (
            [[] for _ in range(geometry.size)], [[] for _ in range(geometry.size)])
        self.hand_arrivals: tuple[dict[int, list[tuple[Qpi, Possibilities]]], ...] = ({}, {})
        terminal: tuple[set[int], set[int]] = (set(), set())
        for piece, sources in ruleset.items():
            side = 0 if piece.side == "first" else 1
            code = code_of(piece)
            if piece.terminal:
                terminal[side].add(code)
            for source, destinations in sources.items():
                number = -1 if source is HAND else index.get(source)  # type: ignore[arg-type]
                if number is None:
                    continue
                for destination, possibilities in destinations.items():
                    if not isinstance(destination, Cell) or not possibilities:
                        continue
                    target = index.get(destination)
                    if target is None:
                        continue
                    if number < 0:
                        # Only drops that could land on an occupied square can take a piece.
                        kept = tuple(p for p in possibilities if p.must.get(destination) != EMPTY)
                        if kept:
                            self.hand_arrivals[side].setdefault(target, []).append((piece, kept))
                    else:
                        self.arrivals[side][target].append((number, code, possibilities))
        self.terminal = (frozenset(terminal[0]), frozenset(terminal[1]))
        self.attacks: tuple[list[Attack], list[Attack]] = (
            [self._lazy(0, d) for d in range(geometry.size)],
            [self._lazy(1, d) for d in range(geometry.size)],
        )
        # Per attacking side: (square * size + read) -> the test of the moves onto ``square``
        # whose conditions read the square ``read`` (None: there are none). Made on first use.
        self.through: tuple[dict[int, Attack | None], dict[int, Attack | None]] = ({}, {})
        # The same, once a piece of the attacked side stands on ``read``: the moves whose
        # conditions on ``read`` can then still hold (None: there are none).
        self.arriving: tuple[dict[int, Attack | None], dict[int, Attack | None]] = ({}, {})
        self.fragile_squares: tuple[dict[int, frozenset[int]], dict[int, frozenset[int]]] = ({}, {})
        self.info: dict[int, MoveInfo] = {}

    def attack_through(self, side: int, square: int, read: int) -> Attack | None:
        """The test of the moves of ``side`` onto ``square`` that read the square ``read``."""
        key = square * self.geometry.size + read
        known = self.through[side]
        if key not in known:
            known[key] = self._compile(side, square, read)
        return known[key]

    def attack_arriving(self, side: int, square: int, read: int) -> Attack | None:
        """The test of the moves of ``side`` onto ``square`` that read the square ``read`` and
        can still be made once a piece of the other side stands there (a condition that it be
        empty, or hold a piece of ``side``, or not hold an enemy, then fails)."""
        key = square * self.geometry.size + read
        known = self.arriving[side]
        if key not in known:
            known[key] = self._compile(side, square, read, filled=True)
        return known[key]

    def _lazy(self, side: int, square: int) -> Attack:
        def first_call(b: list[int]) -> bool:
            made = self._compile(side, square)
            assert made is not None
            self.attacks[side][square] = made
            return made(b)

        return first_call

    def _conditions(self, side: int, square: int) -> list[tuple[int, int, list[Term], list[Term]]]:
        """The possibilities of board moves of ``side`` onto ``square`` that can hold when it
        holds a piece of the other side: (source, code, must, deny), by square index."""
        index = self.geometry.index
        out: list[tuple[int, int, list[Term], list[Term]]] = []
        for source, code, possibilities in self.arrivals[side][square]:
            for possibility in possibilities:
                must: list[Term] = []
                holds = True
                for cell, state in possibility.must.items():
                    number = index.get(cell)
                    if number is None or (number == square and state == EMPTY):
                        holds = False
                        break
                    must.append((number, state))
                if holds:
                    deny = [(index[cell], state) for cell, state in possibility.deny.items() if cell in index]
                    out.append((source, code, must, deny))
        return out

    def fragile(self, side: int, square: int) -> frozenset[int]:
        """The squares ``read`` whose :meth:`attack_arriving` test of ``side`` onto ``square``
        is not None: where a piece of the other side arriving could let ``side`` move onto it."""
        known = self.fragile_squares[side]
        found = known.get(square)
        if found is None:
            squares: set[int] = set()
            for _, _, must, deny in self._conditions(side, square):
                for read in {number for number, _ in must + deny}:
                    if not _killed(must, deny, side, read):
                        squares.add(read)
            found = known[square] = frozenset(squares)
        return found

    def _compile(self, side: int, square: int, read: int = -1, filled: bool = False) -> Attack | None:
        """Whether a board piece of ``side`` can move onto ``square``, which holds a piece of the
        other side (so possibilities that need the square empty are left out); with ``read``,
        only by the possibilities whose conditions read that square (None if there are none);
        with ``filled`` too, only those that can hold with a piece of the other side on ``read``."""
        enemy_below = side == 0  # the attacker's enemies are second-side pieces: negative codes
        by_source: dict[int, dict[int, list[str]]] = {}
        for source, code, must, deny in self._conditions(side, square):
            if read >= 0 and all(number != read for number, _ in must + deny):
                continue
            if filled and _killed(must, deny, side, read):
                continue
            by_source.setdefault(source, {}).setdefault(code, []).append(_expression(must, deny, enemy_below))
        if read >= 0 and not by_source:
            return None
        lines = ["def attacked(b):"]
        for source, codes in by_source.items():
            lines.append(f" c = b[{source}]")
            keyword = "if"
            for code, expressions in codes.items():
                lines.append(f" {keyword} c == {code}:")
                lines.append(f"  if {' or '.join(f'({e})' for e in expressions)}: return True")
                keyword = "elif"
        lines.append(" return False")
        namespace: dict[str, Any] = {}
        # The source is made above from integers only (square indices and piece codes).
        exec(compile("\n".join(lines), "<ggn attacks>", "exec"), namespace)  # noqa: S102
        function: Attack = namespace["attacked"]
        return function


def _killed(must: list[Term], deny: list[Term], side: int, read: int) -> bool:
    """Whether a possibility of a move of ``side`` fails once a piece of the other side stands
    on ``read``: it needs that square empty or holding a piece of ``side``, or denies an enemy
    there."""
    return any(number == read and (state == EMPTY or (
        isinstance(state, Qpi) and (state.side == "first") == (side == 0))) for number, state in must) or any(
        number == read and state == ENEMY for number, state in deny)


def _holds(state: StateValue, code: int, enemy_sign: int) -> bool:
    if state == EMPTY:
        return code == 0
    if state == ENEMY:
        return code * enemy_sign > 0
    assert isinstance(state, Qpi)
    return code == code_of(state)


# --- the rule system -------------------------------------------------------------------------
class RuleSystem:
    """Legal moves, their full effects and the end of the game, on top of a GGN ruleset.

    The generic rule: a play is illegal if, after it, the opponent has a pseudo-legal move
    onto one of the mover's terminal pieces. A play's effect is the Game Protocol's default
    displacement (a captured piece goes, unchanged, into the mover's hand). A player with no
    legal play loses. Games change this by overriding the hooks ``_prepare``, ``_effects``,
    ``_allowed`` and ``_no_move``.
    """

    name: ClassVar[str] = "generic"

    _ends: bool = False
    """Whether :meth:`_ended` is asked at all: set on each subclass that overrides it (so a game
    that never ends early pays nothing); an instance may set it False when its game has no
    such end."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_ended" in cls.__dict__:
            cls._ends = True

    def __init__(
        self, ruleset: Ruleset, start: str | None = None, shape: tuple[int, ...] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.start = start
        self.shape = shape
        self._tables: dict[tuple[int, ...], _Tables] = {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} rule system>"

    # -- public ---------------------------------------------------------------------------
    def position(self, feen: str | Feen | Position | None = None) -> Position:
        """A position from FEEN (or the start position when None).

        The board's shape is checked against the game's before the board is built: a FEEN
        of millions of squares is refused at once, not after building them.
        """
        if isinstance(feen, Position):
            return self._checked(feen)
        if feen is None:
            if self.start is None:
                raise GGNError(f"the {self.name} rule system has no start position; give one in FEEN")
            feen = self.start
        if isinstance(feen, str):
            feen = Feen.parse(feen)
        expect(feen, Feen, "feen", "a Position, a FEEN string or None")
        self._check_shape(feen.shape)
        return Position.from_feen(feen)

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        if self.shape is not None and shape != self.shape:
            board = "x".join(map(str, self.shape))
            raise GGNError(f"{self.name} is played on a board of {board} squares, not one of shape "
                           f"{shown_tuple(shape)}")

    def _checked(self, position: Position) -> Position:
        """``position``, once known to be a Position of the game's board shape."""
        self._check_shape(expect(position, Position, "position", "a Position").shape)
        return position

    def legal_moves(self, position: Position) -> list[Play]:
        """Every legal play of ``position``, each with its full STN transition."""
        self._checked(position)
        cells = position._geometry.cells
        first = position.active == "first"
        plays = []
        for move, effect, _ in self._legal(position):
            choice, changes, hand = effect
            board = {cells[i]: piece_of(c) if c else None for i, c in changes}
            delta: dict[Qpi, int] = {}
            for piece, count in hand:
                delta[piece] = delta.get(piece, 0) + count
            delta = {piece: count for piece, count in delta.items() if count}
            transition = Transition(board, delta if first else None, None if first else delta, True)
            plays.append(Play(move.piece, move.source, move.destination, choice, transition, move))
        return plays

    def count(self, position: Position) -> int:
        """The number of legal plays of ``position``."""
        return self._count(self._checked(position))

    def play(self, position: Position, play: Play | str) -> Position:
        """The position after a legal play, given as a :class:`Play` or its ``str()``; raise
        :class:`IllegalMoveError` if it is not one of the position's legal plays."""
        wanted = str(expect(play, (Play, str), "play", "a Play or its str()"))
        legal = self.legal_moves(position)
        for candidate in legal:
            if str(candidate) == wanted:
                return position.apply(candidate.transition)
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

    # -- the fast path --------------------------------------------------------------------
    def _tables_for(self, position: Position) -> _Tables:
        tables = self._tables.get(position._geometry.shape)
        if tables is None:
            self._check_shape(position.shape)
            tables = self._tables[position._geometry.shape] = _Tables(self.ruleset, position._geometry)
        return tables

    def _info(self, tables: _Tables, move: Move) -> MoveInfo:
        index = tables.geometry.index
        source = -1 if move.source is HAND else index[move.source]  # type: ignore[index]
        destination = -1 if move.destination is HAND else index[move.destination]  # type: ignore[index]
        code = code_of(move.piece)
        terminal = code in tables.terminal[0] or code in tables.terminal[1]
        plays = 1
        # A move onto its own source takes nothing: it goes the general way, not the inline
        # paths, which read the destination's piece as a capture.
        if (source < 0 or destination < 0 or source == destination
                or self._special(move, source, destination, code)):
            kind = tally = _SPECIAL
            placed = code
            stand_in = None
            if source >= 0 and destination >= 0:
                stand_in = self._stand_in(move, source, destination, code)
            if stand_in is not None:
                placed, plays = stand_in
                tally = _TERMINAL if terminal else _PLAIN
        else:
            kind = tally = _TERMINAL if terminal else _PLAIN
            placed = self._becomes(move, source, destination, code)
        info = (move, source, destination, code, kind, placed, tally, plays)
        if len(tables.info) >= _INFO_BOUND:
            tables.info.clear()
        tables.info[id(move)] = info
        return info

    def _threatened(self, position: Position, tables: _Tables, codes: list[int], side: int) -> bool:
        """Whether the other side can move onto a terminal piece of ``side`` on board ``codes``."""
        terminal = tables.terminal[side]
        attacks = tables.attacks[1 - side]
        for number, code in enumerate(codes):
            if code in terminal and (attacks[number](codes) or self._hand_attack(
                    position, tables, codes, side, number)):
                return True
        return False

    def _hand_attack(self, position: Position, tables: _Tables, codes: list[int], side: int,
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
                if all(cell in index and _holds(state, codes[index[cell]], enemy_sign)
                       for cell, state in possibility.must.items()) and not any(
                        cell in index and _holds(state, codes[index[cell]], enemy_sign)
                        for cell, state in possibility.deny.items()):
                    return True
        return False

    def _legal(self, position: Position, stop: int = 0) -> list[tuple[Move, Effect, list[int]]]:
        """The legal plays of ``position``: (move, effect, board codes after); with ``stop``, at
        most that many."""
        out: list[tuple[Move, Effect, list[int]]] = []
        self._walk(position, out, stop)
        return out

    def _count(self, position: Position) -> int:
        """The number of legal plays of ``position``, without making their effects."""
        return self._walk(position, None, 0)

    def _walk(self, position: Position, out: list[tuple[Move, Effect, list[int]]] | None, stop: int) -> int:
        """Find the legal plays of ``position``: append them to ``out`` (unless None), return how
        many (at most ``stop``, if given)."""
        if self._ends and self._ended(position) is not None:
            return 0
        tables = self._tables_for(position)
        codes = position._codes
        side = 0 if position.active == "first" else 1
        sign = 1 if side == 0 else -1
        terminal = tables.terminal[side]
        kings = [number for number in position._occupied[side] if codes[number] in terminal]
        attacks = tables.attacks[1 - side]
        hand_attacks = bool(position._hands[1 - side]) and bool(tables.hand_arrivals[1 - side])
        prefix = self._prepare(position, tables)
        # The board every play starts from: the position's, after the changes all plays make.
        base = codes
        if prefix:
            base = codes.copy()
            for number, value in prefix:
                base[number] = value
        # The common case: one terminal piece, no drop that could reach it, and not attacked on
        # the base board. Then a play that moves neither it nor an opponent's piece can only
        # uncover an attack through the squares it changes: only the tests reading those run.
        through: dict[int, Attack | None] | None = None
        king = row = 0
        lone = len(kings) == 1 and not hand_attacks
        self._calm = None
        if len(kings) == 1 and not hand_attacks and not attacks[kings[0]](base):
            through = tables.through[1 - side]
            king = kings[0]
            row = king * tables.geometry.size
            self._calm = position
        attack_through = tables.attack_through
        arriving = tables.arriving[1 - side]
        attack_arriving = tables.attack_arriving
        # Then, once per source: if emptying it uncovers no attack, no plain move from it does
        # (its piece arriving elsewhere can only block), unless it arrives on a fragile square,
        # one that some move onto the terminal piece needs to hold a piece of the mover's.
        # Sources are looked at on their first plain move: ``free`` or ``pinned``.
        fast = -1  # the kind of move that takes the fast path (none when in check)
        free: set[int] = set()
        pinned: set[int] = set()
        fragile: frozenset[int] = frozenset()
        scratch: list[int] | None = None
        if through is not None:
            fast = _PLAIN
            fragile = tables.fragile(1 - side, king)
            if not fragile or (len(fragile) == 1 and king in fragile):
                # No move onto the terminal piece reads a square holding one of the mover's
                # pieces unless that piece stops it: then an attack that emptying one source
                # would uncover is there too with all of them gone. Not attacked so, no source
                # is pinned.
                bare = base.copy()
                for number in position._occupied[side]:
                    bare[number] = 0
                for number, value in prefix:
                    if value * sign > 0:
                        bare[number] = 0
                bare[king] = base[king]
                if not attacks[king](bare):
                    free.update(position._occupied[side])
        infos = tables.info
        special_taken = self._special_taken
        counting = out is None
        limit = stop or 1 << 62
        found = 0
        moves = self.ruleset.moves(position)
        items: list[MoveInfo] = []
        if counting and not stop and through is not None:
            # Only counting (perft's last ply), not in check: the plain moves from sources
            # known not to be pinned are counted here; the loop below sees the others.
            keep = items.append
            for move in moves:
                # The cache holds each move it describes, so an id in it is never another's.
                try:
                    info = infos[id(move)]
                except KeyError:
                    info = self._info(tables, move)
                if info[6] == _PLAIN and info[2] not in fragile and codes[info[2]] not in special_taken:
                    source = info[1]
                    if source in free:
                        found += info[7]
                        continue
                    if source not in pinned:  # its first move: does emptying it uncover an attack?
                        left = through.get(row + source, _UNKNOWN)
                        if left is _UNKNOWN:
                            left = attack_through(1 - side, king, source)
                        if left is not None:
                            if scratch is None:
                                scratch = base.copy()
                            scratch[source] = 0
                            uncovers = left(scratch)
                            scratch[source] = base[source]
                            if uncovers:
                                pinned.add(source)
                                keep(info)
                                continue
                        free.add(source)
                        found += info[7]
                        continue
                keep(info)
        else:
            for move in moves:
                try:
                    items.append(infos[id(move)])
                except KeyError:
                    items.append(self._info(tables, move))
        for info in items:
            move, source, destination, code, kind, placed, tally, plays = info
            if counting:
                kind = tally
            if kind == fast and destination not in fragile and codes[destination] not in special_taken:
                child = None
                if source not in free:
                    left = through.get(row + source, _UNKNOWN)  # type: ignore[union-attr]
                    if left is _UNKNOWN:
                        left = attack_through(1 - side, king, source)
                    if source not in pinned:  # its first move: does emptying it uncover an attack?
                        uncovers = False
                        if left is not None:
                            if scratch is None:
                                scratch = base.copy()
                            scratch[source] = 0
                            uncovers = left(scratch)
                            scratch[source] = base[source]
                        (pinned if uncovers else free).add(source)
                    if source in pinned:  # the piece must stay on the line it blocks
                        child = base.copy()
                        child[source] = 0
                        child[destination] = placed
                        if left(child):  # type: ignore[misc]
                            continue
                found += plays
                if out is not None:
                    if child is None:
                        child = base.copy()
                        child[source] = 0
                        child[destination] = placed
                    taken = codes[destination]
                    hand = ((self._captured(taken, move.piece), 1),) if taken else ()
                    out.append((move, (None, (*prefix, (source, 0), (destination, placed)), hand), child))
                if found >= limit:
                    return limit
                continue
            if kind != _SPECIAL and codes[destination] not in special_taken:
                # A plain displacement: tested before any effect is built.
                child = None
                if through is not None and kind == _PLAIN:
                    left = through.get(row + source, _UNKNOWN)
                    if left is _UNKNOWN:
                        left = attack_through(1 - side, king, source)
                    # The mover's piece arrives on the destination: only the tests it cannot fail.
                    arrived = arriving.get(row + destination, _UNKNOWN)
                    if arrived is _UNKNOWN:
                        arrived = attack_arriving(1 - side, king, destination)
                    if left is not None or arrived is not None:
                        child = base.copy()
                        child[source] = 0
                        child[destination] = placed
                        if (left is not None and left(child)) or (arrived is not None and arrived(child)):
                            continue
                elif kind == _TERMINAL and lone:  # the only terminal piece moves: onto an attacked square?
                    child = base.copy()
                    child[source] = 0
                    child[destination] = placed
                    if attacks[destination](child):
                        continue
                else:
                    child = base.copy()
                    child[source] = 0
                    child[destination] = placed
                    targets = kings if kind == _PLAIN else [
                        destination if number == source else number for number in kings]
                    if self._exposed(position, child, side, targets):
                        continue
                found += plays
                if out is not None:
                    if child is None:
                        child = base.copy()
                        child[source] = 0
                        child[destination] = placed
                    taken = codes[destination]
                    hand = ((self._captured(taken, move.piece), 1),) if taken else ()
                    out.append((move, (None, (*prefix, (source, 0), (destination, placed)), hand), child))
                if found >= limit:
                    return limit
                continue
            for effect in self._effects(position, prefix, info):
                changes = effect[1]
                child = base.copy()
                for number, value in changes:
                    child[number] = value
                if through is not None and code not in terminal and all(
                        value * sign >= 0 for _, value in changes):
                    # Only the mover's pieces moved or left: the tests reading what changed.
                    exposed = False
                    for number, value in changes:
                        if value != base[number] or number == source:
                            if value:  # a piece of the mover's arrives: the tests it cannot fail
                                test = arriving.get(row + number, _UNKNOWN)
                                if test is _UNKNOWN:
                                    test = attack_arriving(1 - side, king, number)
                            else:
                                test = through.get(row + number, _UNKNOWN)
                                if test is _UNKNOWN:
                                    test = attack_through(1 - side, king, number)
                            if test is not None and test(child):
                                exposed = True
                                break
                    if exposed:
                        continue
                else:
                    targets = kings
                    if code in terminal:  # the terminal piece moved: where it (and any other) stands now
                        targets = [number for number in kings if child[number] in terminal]
                        targets += [number for number, value in changes
                                    if value in terminal and number not in targets]
                    if self._exposed(position, child, side, targets):
                        continue
                if not self._allowed(position, prefix, info, effect, child):
                    continue
                found += 1
                if out is not None:
                    out.append((move, effect, child))
                if found >= limit:
                    return limit
        return found

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
        first_hand, second_hand = dict(position._hands[0]), dict(position._hands[1])
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
        # Each side's occupied squares: the parent's, updated for the squares the play changes.
        first, second = list(position._occupied[0]), list(position._occupied[1])
        for number, _ in effect[1]:
            if number in first:
                first.remove(number)
            elif number in second:
                second.remove(number)
            value = child[number]
            if value > 0:
                insort(first, number)
            elif value < 0:
                insort(second, number)
        return Position._make_known(position._geometry, child, (first_hand, second_hand), active,
                                    position.styles, occupied=(tuple(first), tuple(second)))

    def _children(self, position: Position) -> Iterator[Position]:
        for _, effect, child in self._legal(position):
            yield self._child(position, effect, child)

    # -- hooks ----------------------------------------------------------------------------
    _calm: Position | None = None
    """While the hooks of a position's plays run: that position if its one terminal piece is
    known not to be attacked (on its board after :meth:`_prepare`'s changes), else None or
    another position (a hook that walks a position of its own resets it): a hint only, to
    spare a test whose answer is known."""

    _special_taken: frozenset[int] = frozenset()
    """Codes of pieces whose capture has effects of the game's own (the hooks see the move)."""

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

    def _prepare(self, position: Position, tables: _Tables) -> tuple[Change, ...]:
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

    def _ended(self, position: Position) -> Outcome | None:
        """How the game has ended before the player to move plays (extinction, a piece on its
        goal, ...), else None (the default: a game ends only when a player has no legal play).
        A position whose game has ended has no legal plays, and :meth:`outcome` is this answer.
        Overriding it sets :attr:`_ends`, so games that do not pay nothing for it."""
        return None

    def _no_move(self, position: Position, in_check: bool) -> Outcome:
        """The end of the game when the player to move has no legal play."""
        return Outcome(position.inactive, Ending.CHECKMATE if in_check else Ending.NO_LEGAL_MOVE)
