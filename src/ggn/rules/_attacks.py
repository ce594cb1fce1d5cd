"""The attack compiler: whether a side can move onto a square, as code made per board shape.

A rule system asks one question again and again: after this play, can the opponent make a
pseudo-legal move onto one of the mover's terminal (``^``) pieces? The document answers it
through its reverse index: every (source, piece) that lists the square as a destination, and
the conditions each possibility needs. :class:`Tables` turns that index, once per (board shape,
attacking side, square), into a small Python function of the board's codes, written out and
compiled on first use; its variants read only what a play can have changed:

- :meth:`Tables.attack_through` keeps the possibilities whose conditions read one given square
  (a piece leaving it can uncover only those);
- :meth:`Tables.attack_arriving` keeps, of those, the ones that can still hold once a piece of
  the attacked side stands on that square (a piece arriving can complete only those);
- :meth:`Tables.attack_bare` reads the attacked side's pieces as absent, but on the square
  itself (no attack then means that no piece of that side is pinned).

Every name and constant in the generated code is made here from integers (square indices and
the numbers of the pieces it names); no text of a document reaches it. A piece is named in
the code by a constant (``P0``, ``P1``...) that is replaced, when the code is made into a
function, by the code this process gives the piece: each process numbers pieces in the order
it meets them (:func:`~ggn.position.code_of`), and processes share the compile cache's code
whatever their numbering.
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType
from typing import Any, Final

from ggn import cache
from ggn.cell import HAND, Cell
from ggn.compiled import _function_of, _piece_codes
from ggn.lcn import EMPTY, ENEMY, StateValue
from ggn.position import Geometry, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules._records import MoveInfo
from ggn.ruleset import Possibilities, Ruleset

__all__ = ["INFO_BOUND", "UNKNOWN", "Attack", "Tables", "holds"]

Attack = Callable[[list[int]], bool]
"""A compiled test: whether a side can move onto one square of the board ``b`` (codes by index)."""

Term = tuple[int, StateValue]  # a condition on a square, by index


def UNKNOWN(b: list[int]) -> bool:  # noqa: N802  (a sentinel: a test not compiled yet)
    """A sentinel for a test not compiled yet; never called."""
    raise AssertionError("a sentinel, never called")


INFO_BOUND: Final = 1 << 16
"""Move descriptions (:class:`MoveInfo`) kept per board shape before starting afresh."""


def _term(cell_index: int, state: StateValue, enemy_below: bool, bare: int,
          name: Callable[[int], str]) -> str | None:
    """The test of one condition as Python source; None when it can never hold. With ``bare``
    at 0 or more, the attacked side's pieces read as absent on every square but ``bare``.
    ``name`` gives the constant that stands for a piece's code."""
    if state == EMPTY:
        if bare >= 0 and cell_index != bare:
            return f"b[{cell_index}] {'<=' if enemy_below else '>='} 0"
        return f"b[{cell_index}] == 0"
    if state == ENEMY:
        if bare >= 0 and cell_index != bare:
            return None
        return f"b[{cell_index}] {'<' if enemy_below else '>'} 0"
    assert isinstance(state, Qpi)
    code = code_of(state)
    if bare >= 0 and cell_index != bare and (code < 0) == enemy_below:
        return None  # a piece of the attacked side, read as absent
    return f"b[{cell_index}] == {name(code)}"


def _expression(must: list[Term], deny: list[Term], enemy_below: bool, bare: int,
                name: Callable[[int], str]) -> str | None:
    """The test of one possibility as Python source; None when it can never hold."""
    parts = []
    for number, state in must:
        term = _term(number, state, enemy_below, bare, name)
        if term is None:
            return None
        parts.append(term)
    denied = [term for number, state in deny
              if (term := _term(number, state, enemy_below, bare, name)) is not None]
    if denied:
        parts.append("not (" + " or ".join(denied) + ")")
    return " and ".join(parts) if parts else "True"


def killed(must: list[Term], deny: list[Term], side: int, read: int) -> bool:
    """Whether a possibility of a move of ``side`` fails once a piece of the other side stands
    on ``read``: it needs that square empty or holding a piece of ``side``, or denies an enemy
    there."""
    return any(number == read and (state == EMPTY or (
        isinstance(state, Qpi) and (state.side == "first") == (side == 0))) for number, state in must) or any(
        number == read and state == ENEMY for number, state in deny)


def holds(state: StateValue, code: int, enemy_sign: int) -> bool:
    """Whether a condition holds on a square holding ``code`` (``enemy_sign``: the sign of the
    codes of the mover's enemies)."""
    if state == EMPTY:
        return code == 0
    if state == ENEMY:
        return code * enemy_sign > 0
    assert isinstance(state, Qpi)
    return code == code_of(state)


class Tables:
    """What a rule system precomputes for one board shape: the reverse index of the document,
    the terminal pieces' codes, the compiled attack tests, and the walk's move descriptions.

    ``attacks[side][square]`` is the test of whether ``side`` (0 first, 1 second) can move
    onto ``square`` from the board (compiled on its first call); ``terminal[side]`` the codes
    of that side's terminal pieces. The hooks may read both.
    """

    __slots__ = ("_arrivals", "_cannons", "_ruleset", "_saved", "arriving", "attacks", "bare", "calm",
                 "counted", "fragile_squares", "geometry", "hand_arrivals", "info", "terminal", "through")

    def __init__(self, ruleset: Ruleset, geometry: Geometry, cannons: frozenset[Qpi] = frozenset()) -> None:
        """``cannons``: pieces that neither hop over nor move onto a piece of the set (janggi's
        cannons, ``RuleSystem._cannons``): the tests of their
        moves read their screens and their destination as such."""
        self.geometry = geometry
        self._ruleset = ruleset
        self._cannons = cannons
        self._saved: cache.Entries | None = None  # the compiled tests in the compile cache
        index = geometry.index
        # Per attacking side (0 first, 1 second), per square: (source, code, possibilities);
        # made on first use (a warm compile cache may never need it: see arrivals).
        self._arrivals: tuple[list[list[tuple[int, int, Possibilities]]], ...] | None = None
        self.hand_arrivals: tuple[dict[int, list[tuple[Qpi, Possibilities]]], ...] = ({}, {})
        terminal: tuple[set[int], set[int]] = (set(), set())
        for piece, sources in ruleset.items():
            side = 0 if piece.side == "first" else 1
            if piece.terminal:
                terminal[side].add(code_of(piece))
            if HAND not in sources:
                continue
            for destination, possibilities in sources[HAND].items():
                if not isinstance(destination, Cell) or not possibilities:
                    continue
                target = index.get(destination)
                if target is None:
                    continue
                # Only drops that could land on an occupied square can take a piece.
                kept = tuple(p for p in possibilities if p.must.get(destination) != EMPTY)
                if kept:
                    self.hand_arrivals[side].setdefault(target, []).append((piece, kept))
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
        self.bare: tuple[dict[int, Attack], dict[int, Attack]] = ({}, {})
        self.calm: tuple[dict[int, tuple[frozenset[int], Attack | None]], ...] = ({}, {})
        self.fragile_squares: tuple[dict[int, frozenset[int]], dict[int, frozenset[int]]] = ({}, {})
        # The walk's description of each move object it met (by id: the cache holds the move),
        # and, for the moves counted as plain displacements, (destination, plays, source, placed).
        self.info: dict[int, MoveInfo] = {}
        self.counted: dict[int, tuple[int, int, int, int] | None] = {}

    @property
    def arrivals(self) -> tuple[list[list[tuple[int, int, Possibilities]]], ...]:
        """Per attacking side, per square: the board moves onto it, as (source, code,
        possibilities); the reverse index of the document, made on first use."""
        made = self._arrivals
        if made is None:
            geometry = self.geometry
            index = geometry.index
            made = ([[] for _ in range(geometry.size)], [[] for _ in range(geometry.size)])
            for piece, sources in self._ruleset.items():
                side = 0 if piece.side == "first" else 1
                code = code_of(piece)
                for source, destinations in sources.items():
                    number = index.get(source) if isinstance(source, Cell) else None
                    if number is None:
                        continue
                    for destination, possibilities in destinations.items():
                        target = index.get(destination) if isinstance(destination, Cell) else None
                        if target is not None and possibilities:
                            made[side][target].append((number, code, possibilities))
            self._arrivals = made
        return made

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

    def attack_bare(self, side: int, square: int) -> Attack:
        """The test of the moves of ``side`` onto ``square`` on the board with every piece of
        the other side gone but the one on ``square``."""
        known = self.bare[side]
        test = known.get(square)
        if test is None:
            made = self._compile(side, square, bare=True)
            assert made is not None
            test = known[square] = made
        return test

    def calm_tests(self, side: int, square: int) -> tuple[frozenset[int], Attack | None]:
        """What the walk needs of a square holding the other side's one terminal piece: its
        :meth:`fragile` squares, and, when none is fragile but the square itself, the
        :meth:`attack_bare` test of ``side`` onto it (else None). Kept in ``calm``."""
        fragile = self.fragile(side, square)
        bare = None
        if not fragile or (len(fragile) == 1 and square in fragile):
            bare = self.attack_bare(side, square)
        found = self.calm[side][square] = (fragile, bare)
        return found

    def fragile(self, side: int, square: int) -> frozenset[int]:
        """The squares ``read`` whose :meth:`attack_arriving` test of ``side`` onto ``square``
        is not None: where a piece of the other side arriving could let ``side`` move onto it."""
        known = self.fragile_squares[side]
        found = known.get(square)
        if found is None:
            saved = self._entries()
            name = ("fragile", side, square)
            kept = saved.get(name)
            if type(kept) is frozenset:
                found = known[square] = kept
                return found
            squares: set[int] = set()
            for _, _, must, deny in self._conditions(side, square):
                for read in {number for number, _ in must + deny}:
                    if not killed(must, deny, side, read):
                        squares.add(read)
            found = known[square] = frozenset(squares)
            saved.put(name, found)
        return found

    def _entries(self) -> cache.Entries:
        """The compiled tests and fragile squares of this document and board shape in the
        compile cache (read on first use)."""
        saved = self._saved
        if saved is None:
            shape = ",".join(map(str, self.geometry.shape))
            # No piece code is kept (see _function): the key is the document's and the shape's
            # (and the cannons', whose tests differ).
            key = self._ruleset.digest() + f"|{shape}|".encode()
            if self._cannons:
                key += ("cannons:" + ",".join(sorted(map(str, self._cannons))) + "|").encode()
            saved = self._saved = cache.Entries("attacks", key)
        return saved

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
                ok = True
                for cell, state in possibility.must.items():
                    number = index.get(cell)
                    if number is None or (number == square and state == EMPTY):
                        ok = False
                        break
                    must.append((number, state))
                if ok:
                    deny = [(index[cell], state) for cell, state in possibility.deny.items() if cell in index]
                    out.append((source, code, must, deny))
        return out

    def _compile(self, side: int, square: int, read: int = -1, filled: bool = False,
                 bare: bool = False) -> Attack | None:
        """Whether a board piece of ``side`` can move onto ``square``, which holds a piece of the
        other side (so possibilities that need the square empty are left out); with ``read``,
        only by the possibilities whose conditions read that square (None if there are none);
        with ``filled`` too, only those that can hold with a piece of the other side on ``read``;
        with ``bare``, reading the other side's pieces as absent but on ``square``."""
        saved = self._entries()
        name = (side, square, read, filled, bare)
        made = saved.get(name)
        if made is False:  # saved: there is no test
            return None
        if made is not None:
            try:
                return _function(made)
            except Exception:  # noqa: BLE001, S110  (an entry that does not fit: made again below)
                pass
        made = self._code(side, square, read, filled, bare)
        saved.put(name, False if made is None else made)  # False: no test, kept as such
        return None if made is None else _function(made)

    def _code(self, side: int, square: int, read: int, filled: bool, bare: bool) -> Any:
        """The code of :meth:`_compile`'s test and the pieces it names, as QPI text (None:
        there is no test)."""
        enemy_below = side == 0  # the attacker's enemies are second-side pieces: negative codes
        pieces: dict[int, int] = {}  # code -> its number in the list of pieces named

        def name(code: int) -> str:
            return repr(f"P{pieces.setdefault(code, len(pieces))}")

        cannons = [code_of(piece) for piece in sorted(self._cannons, key=str)]
        by_source: dict[int, dict[int, list[str]]] = {}
        for source, code, must, deny in self._conditions(side, square):
            if read >= 0 and all(number != read for number, _ in must + deny):
                continue
            if filled and killed(must, deny, side, read):
                continue
            expression = _expression(must, deny, enemy_below, square if bare else -1, name)
            if expression is not None and code in cannons:
                # Neither over a cannon (the screens: the squares that must not be empty) nor
                # onto one.
                barred = [number for number, state in deny if state == EMPTY] + [square]
                expression += "".join(f" and b[{number}] != {name(cannon)}"
                                      for number in barred for cannon in cannons)
            if expression is not None:
                by_source.setdefault(source, {}).setdefault(code, []).append(expression)
        if read >= 0 and not by_source:
            return None
        lines = ["def attacked(b):"]
        for source, codes in by_source.items():
            lines.append(f" c = b[{source}]")
            keyword = "if"
            for code, expressions in codes.items():
                lines.append(f" {keyword} c == {name(code)}:")
                lines.append(f"  if {' or '.join(f'({e})' for e in expressions)}: return True")
                keyword = "elif"
        lines.append(" return False")
        module = compile("\n".join(lines), "<ggn attacks>", "exec")
        return module, tuple(str(piece_of(number)) for number in pieces)


def _function(made: tuple[CodeType, tuple[str, ...]]) -> Attack:
    """The test of :meth:`Tables._code`'s code and pieces: the module's function, each piece's
    constant (``P0``...) replaced by the code this process gives it."""
    code, named = made
    function: Attack = _function_of(code, _piece_codes(named))
    return function
