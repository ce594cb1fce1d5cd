"""The compiled move generator: a ruleset turned, once per board shape, into Python code.

For each (piece, source, active side) the possibilities of every destination become a
decision tree over the squares their conditions read, one square at a time: is it empty,
one of the exact pieces the conditions name, another enemy, another friend? A ready-made
:class:`~ggn.move.Move` is added where the tests settle it (a rider's move to a square just
after that square is found empty), or a tuple of them where several settle at once.
Destinations whose conditions share no square are independent and get trees of their own,
side by side, so a rider's rays cost the sum of their lengths, not the product.

The tree is written out as Python source and compiled on first use of each (piece,
source), so loading stays cheap. Every name and constant in the generated code is made
here from integers (square indices, piece codes, table numbers); no text of a document
ever reaches it. A tree that would grow past a budget falls back to direct evaluation of
its possibilities, so any document compiles, only less fast.

Listing moves is bound by memory more than by the interpreter's work: a position calls a
generator per piece, each from its own code and tables, and a board of random placements
meets most of them. So the code is kept small (a test that cannot change what is added is
left out, a square is read in its first test, "empty" is a truth test), a move or table is
a constant of the function (no dictionary of globals), a move is added where it is settled
(not copied into a table of each path below: chess has no table left), and a move listed by
several tables is one object.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType, FunctionType
from typing import Any, Final

from ggn import cache
from ggn._types import Side, expect
from ggn.cell import HAND, Cell, Hand
from ggn.errors import PositionError
from ggn.lcn import EMPTY, ENEMY, StateValue
from ggn.move import Move
from ggn.position import Geometry, Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.ruleset import Possibilities, Possibility, Ruleset

__all__ = ["CompiledRuleset"]

Generator = Callable[[list[int], list[Move], Callable[[Move], None]], None]
"""A compiled (piece, source): reads the codes ``b``, adds moves to the list ``out`` (``ap`` is
its ``append``)."""

_MAX_NODES = 4000  # decision-tree nodes per group before falling back (tests lower it)
_MAX_DEPTH: Final = 60  # nesting of the generated code, well inside Python's limit
# The work of writing a tree: at each node, every condition of every rule still pending is
# read, and copied once per class of the square's content. A budget on nodes alone let one
# node copy 64,000 rules (19 s and 1.15 GB for one source of a 6 MB document), so the work
# is budgeted too, per group, in conditions copied (about 2 us each): the built-in games'
# largest group, one file of shogi's pawn drops, takes 50,000; a group past the budget
# falls back to the interpreter, a huge one at its first node, before any copy is made.
_NODE_WORK: Final = 16  # a node's own cost (its lines, its leaf), in conditions copied
_MAX_WORK = 200_000  # per group (tests lower it)

# A test on one square: 0 empty, 1 enemy, 2 an exact piece (with its code).
_EMPTY, _ENEMY, _EXACT = 0, 1, 2
Test = tuple[int, int]  # (kind, code)


@dataclass(slots=True)
class _Rule:
    """One possibility of one destination, its conditions as square index -> test."""

    destination: int  # index in the function's destination table
    order: int  # position of the possibility in its destination's array
    must: dict[int, Test]
    deny: dict[int, Test]


def _test(state: StateValue) -> Test:
    if state == EMPTY:
        return (_EMPTY, 0)
    if state == ENEMY:
        return (_ENEMY, 0)
    assert isinstance(state, Qpi)
    return (_EXACT, code_of(state))


def _meets(test: Test, code: int, enemy_sign: int) -> bool:
    kind, exact = test
    if kind == _EMPTY:
        return code == 0
    if kind == _ENEMY:
        return code * enemy_sign > 0
    return code == exact


class _TooBig(Exception):  # noqa: N818  (control flow)
    pass


class _Writer:
    """Writes one generator function's source from its rules."""

    def __init__(
        self, moves: list[tuple[Cell | Hand, list[Possibility]]], piece: Qpi, source: Cell | Hand,
        enemy_sign: int,
    ) -> None:
        self.destinations = moves
        self.piece = piece
        self.source = source
        self.enemy_sign = enemy_sign
        self.lines: list[str] = []
        self.sizes: dict[str, int] = {}
        self.leaves: dict[tuple[tuple[int, int], ...], str] = {}
        self.pieces: dict[int, int] = {}  # piece code -> its number in the plan (see piece_name)
        self.nodes = 0
        self.work = 0

    def leaf(self, rules: list[_Rule], indent: str) -> list[str]:
        """The line adding the moves of ``rules`` (all of which hold), from a shared table."""
        chosen = tuple(sorted((r.destination, r.order) for r in rules))
        if not chosen:
            return []
        name = self.leaves.get(chosen)
        if name is None:
            name = f"T{len(self.leaves)}"
            self.leaves[chosen] = name
            self.sizes[name] = len({destination for destination, _ in chosen})
        # The name is written as a string constant, which _make replaces by the table itself
        # in the function's constants: a table costs a LOAD_CONST, not a global's lookup.
        if self.sizes[name] == 1:
            return [f"{indent}ap({name!r})"]
        return [f"{indent}out += {name!r}"]

    def tree(self, rules: list[_Rule], settled: list[_Rule], indent: str, depth: int) -> list[str]:
        """Lines adding the moves of ``settled`` plus those of ``rules`` that hold."""
        self.nodes += 1
        self.work += _NODE_WORK
        if self.nodes > _MAX_NODES or depth > _MAX_DEPTH:
            raise _TooBig
        pending = [r for r in rules if r.must or r.deny]
        settled = settled + [r for r in rules if not (r.must or r.deny)]
        if not pending:
            return self.leaf(settled, indent)
        # A move is added where it is settled, unless a possibility of its destination is
        # still pending below (the move lists all that hold): no table of the moves of a
        # whole path, each a tuple of its own, only the move itself.
        waiting = {r.destination for r in pending}
        now = [r for r in settled if r.destination not in waiting]
        settled = [r for r in settled if r.destination in waiting]
        first = self.leaf(now, indent)
        # Branch on the square most rules read; ties go to the first read, which follows
        # the order conditions are written in (a ray's squares from near to far).
        counts: dict[int, int] = {}
        for rule in pending:
            for square in (*rule.must, *rule.deny):
                counts[square] = counts.get(square, 0) + 1
        square = max(counts, key=lambda s: counts[s])
        exact = sorted({t[1] for r in pending for t in (r.must.get(square), r.deny.get(square))
                        if t is not None and t[0] == _EXACT})
        sign = self.enemy_sign
        # The classes of the square's content: empty, each exact piece named, another enemy,
        # another friend; each with a sample code and the test that picks it in the chain.
        other = max([abs(c) for c in exact] + [0]) + 1
        classes: list[tuple[int, str]] = [(0, "==")]  # (sample code, operator against 0 or it)
        classes += [(code, "==") for code in exact]
        classes.append((sign * other, "<" if sign < 0 else ">"))
        classes.append((-sign * other, ""))  # the rest: else
        # Counted before it is done, so that a node of a huge group is refused, not made.
        work = sum(len(r.must) + len(r.deny) for r in pending) * (1 + len(classes))
        if self.work + work > _MAX_WORK:
            raise _TooBig
        self.work += work
        survivors_by_class: list[list[_Rule]] = []
        for sample, _ in classes:
            survivors: list[_Rule] = []
            for rule in pending:
                must = rule.must.get(square)
                deny = rule.deny.get(square)
                if must is not None and not _meets(must, sample, sign):
                    continue
                if deny is not None and _meets(deny, sample, sign):
                    continue
                survivors.append(_Rule(
                    rule.destination, rule.order,
                    {s: t for s, t in rule.must.items() if s != square},
                    {s: t for s, t in rule.deny.items() if s != square},
                ))
            survivors_by_class.append(survivors)
        if survivors_by_class[-2] and survivors_by_class[-2] == survivors_by_class[-1]:
            # Another enemy and another friend leave the same rules (only 'deny' of exact
            # pieces read the square, as in a pawn drop's "no pawn of mine on this file"):
            # one branch, the else, serves both, instead of two copies of one subtree.
            del classes[-2], survivors_by_class[-2]
        branches = [
            (sample, operator, self.tree(survivors, settled, indent + " ", depth + 1))
            for (sample, operator), survivors in zip(classes, survivors_by_class, strict=True)
        ]
        return first + _chain(branches, square, f"c{depth}", indent, self.piece_name)

    def piece_number(self, code: int) -> int:
        """The number of a piece in the plan's list of the pieces its tests name."""
        return self.pieces.setdefault(code, len(self.pieces))

    def piece_name(self, code: int) -> str:
        """The constant standing for a piece's code in the code: a name that :func:`_make`
        replaces by the code this process gives the piece, so that code made by a process that
        numbered the pieces otherwise (:func:`~ggn.position.code_of`) still compares right."""
        return f"P{self.piece_number(code)}"


def _catches(operator: str, sample: int, code: int) -> bool:
    """Whether the branch of a class (its operator and sample code) takes the code ``code``."""
    if operator == "==":
        return code == sample
    if operator == "<":
        return code < 0
    if operator == ">":
        return code > 0
    return True  # else


def _chain(branches: list[tuple[int, str, list[str]]], square: int, var: str, indent: str,
           piece_name: Callable[[int], str]) -> list[str]:
    """The if/elif/else chain on the content of ``square`` that runs each class's lines.

    The classes come in the order empty, exact pieces, another enemy, another friend (else),
    and a later test never splits an earlier class: the content of a class meets the same
    later tests. So a branch can go when the contents it takes would, without it, reach a
    later branch of the same lines, or no branch while it has none: fewer tests run, and a
    test whose every branch does the same goes, with the square's read.
    """
    kept = list(branches)
    dropped = True
    while dropped:
        dropped = False
        for number, (sample, _, lines) in enumerate(kept):
            later = next((body for other, operator, body in kept[number + 1:]
                          if _catches(operator, other, sample)), [])
            if later == lines:
                del kept[number]
                dropped = True
                break
    if not kept:
        return []
    if not kept[0][1]:  # only the else is left: every content runs the same lines
        return [line[1:] for line in kept[0][2]]
    out: list[str] = []
    for number, (sample, operator, lines) in enumerate(kept):
        if not operator:
            out.append(f"{indent}else:")
        else:
            # The first test reads the square (kept in the variable when a later one needs
            # it); 0 is the only false code, so "empty" is a truth test.
            needed = any(operator for _, operator, _ in kept[1:])
            read = f"({var} := b[{square}])" if needed else f"b[{square}]"
            subject = read if number == 0 else var
            if operator == "==":
                test = f"not {subject}" if sample == 0 else f"{subject} == {piece_name(sample)!r}"
            else:
                test = f"{subject} {operator} 0"
            out.append(f"{indent}{'if' if number == 0 else 'elif'} {test}:")
        out.extend(lines or [f"{indent} pass"])  # an empty branch that must still be taken
    return out


class _Reader:
    """Square indices and tests of a document's conditions, each found once per object.

    The document shares its Cell and Qpi objects (its parsers memoise them), so the same
    few squares and pieces come back thousands of times; looked up by identity, they cost
    an int's hash instead of a Cell's or a Qpi's (Python-level) hash and comparison.
    """

    __slots__ = ("index", "squares", "tests")

    def __init__(self, geometry: Geometry) -> None:
        self.index = geometry.index
        self.squares: dict[int, int | None] = {}
        self.tests: dict[int, Test] = {}

    def conditions(self, possibility: Possibility) -> tuple[dict[int, Test], dict[int, Test]] | None:
        squares, tests = self.squares, self.tests
        must: dict[int, Test] = {}
        for cell, state in possibility.must.items():
            number = squares.get(id(cell), -1)
            if number == -1:
                number = squares[id(cell)] = self.index.get(cell)
            if number is None:
                return None  # a must on a square off the board never holds
            test = tests.get(id(state))
            if test is None:
                test = tests[id(state)] = _test(state)
            must[number] = test
        deny: dict[int, Test] = {}
        for cell, state in possibility.deny.items():
            number = squares.get(id(cell), -1)
            if number == -1:
                number = squares[id(cell)] = self.index.get(cell)
            if number is not None:  # a deny off the board never fires
                test = tests.get(id(state))
                if test is None:
                    test = tests[id(state)] = _test(state)
                deny[number] = test
        return must, deny


def _components(rules: list[_Rule]) -> list[list[_Rule]]:
    """Group rules that share a square or a destination; groups are independent."""
    # Squares are numbered as they are (0 and up), destinations below 0.
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for rule in rules:
        anchor = find(-1 - rule.destination)
        for square in (*rule.must, *rule.deny):
            other = find(square)
            if other != anchor:
                parent[other] = anchor
    groups: dict[int, list[_Rule]] = {}
    for rule in rules:
        groups.setdefault(find(-1 - rule.destination), []).append(rule)
    return list(groups.values())


Plan = tuple[
    Any, tuple[tuple[int, tuple[int, ...]], ...], tuple[tuple[str, tuple[tuple[int, int], ...]], ...],
    tuple[tuple[int, int, tuple[tuple[int, Test], ...], tuple[tuple[int, Test], ...]], ...],
    tuple[str, ...],
]
"""What a generator is made from, in values :mod:`marshal` writes (the compile cache keeps it):
the code object; per destination slot, the destination's place among the source's and the
places of the possibilities kept; per table of moves, its name and (slot, possibility) pairs;
the rules left to the interpreter, as (slot, possibility, must, deny); and the pieces the
tests name, as QPI text. No piece code is in a plan: the code names the pieces ``P0``,
``P1``..., the interpreter's rules by their number in that list, and :func:`_make` puts in
the codes of the process that loads it (each process numbers pieces in the order it meets
them), so that processes share plans whatever their numbering."""


def _compile(
    ruleset: Ruleset, geometry: Geometry, piece: Qpi, source: Cell | Hand, active: Side
) -> Generator | None:
    plan = _plan(ruleset, geometry, piece, source, active)
    return None if plan is None else _make(plan, ruleset, piece, source, active)


def _plan(
    ruleset: Ruleset, geometry: Geometry, piece: Qpi, source: Cell | Hand, active: Side
) -> Plan | None:
    """The plan of the generator of (piece, source) for the side to move; None when no move
    can ever come from it."""
    destinations: list[tuple[Cell | Hand, list[Possibility]]] = []
    places: list[tuple[int, tuple[int, ...]]] = []
    rules: list[_Rule] = []
    reader = _Reader(geometry)
    for place, (destination, possibilities) in enumerate(ruleset[piece][source].items()):
        if destination is not HAND and destination not in geometry.index:
            continue
        slot = len(destinations)
        kept: list[Possibility] = []
        kept_places: list[int] = []
        for order, possibility in enumerate(possibilities):
            tests = reader.conditions(possibility)
            if tests is None:
                continue
            rules.append(_Rule(slot, len(kept), tests[0], tests[1]))
            kept.append(possibility)
            kept_places.append(order)
        destinations.append((destination, kept))
        places.append((place, tuple(kept_places)))
    if not rules:
        return None
    enemy_sign = -1 if active == "first" else 1
    writer = _Writer(destinations, piece, source, enemy_sign)
    writer.lines.append("def generate(b, out, ap):")
    fallback: list[list[_Rule]] = []
    for group in _components(rules):
        writer.nodes = writer.work = 0
        try:
            writer.lines.extend(writer.tree(group, [], " ", 0))
        except _TooBig:
            fallback.append(group)
    if fallback:
        writer.lines.append(" slow(b, out, ap)")
    if len(writer.lines) == 1:  # every tree came out empty: no condition set can ever hold
        writer.lines.append(" pass")
    code = compile("\n".join(writer.lines), "<ggn compiled moves>", "exec")

    def numbered(tests: dict[int, Test]) -> tuple[tuple[int, Test], ...]:
        return tuple((square, (kind, writer.piece_number(exact) if kind == _EXACT else exact))
                     for square, (kind, exact) in tests.items())

    slow = tuple((rule.destination, rule.order, numbered(rule.must), numbered(rule.deny))
                 for group in fallback for rule in group)
    return (
        code, tuple(places), tuple((name, chosen) for chosen, name in writer.leaves.items()), slow,
        tuple(str(piece_of(code)) for code in writer.pieces),
    )


def _make(
    plan: Plan, ruleset: Ruleset, piece: Qpi, source: Cell | Hand, active: Side, *,
    shared: dict[Possibilities, Possibilities] | None = None,
) -> Generator:
    """The generator of a plan: its tables of moves made from the ruleset, its code run.

    ``shared`` holds the tuples of possibilities made so far (by value): a move's tuple is the
    one already there when equal (chess: 1,870 tuples for 15,500 moves), so that reading the
    moves of a position touches few objects."""
    code, places, leaves, fallback, named = plan
    codes = _piece_codes(named)
    listed = list(ruleset[piece][source].items())
    destinations = [(listed[place][0], [listed[place][1][order] for order in kept]) for place, kept in places]
    tables: dict[str, object] = {}
    # A move is made once and shared by every table that lists it (a rider's ray lists its
    # near squares' moves in the table of each farther stop): fewer objects, and the tables
    # a position reads stay in fewer cache lines.
    moves: dict[tuple[int, tuple[int, ...]], Move] = {}
    for name, chosen in leaves:
        by_destination: dict[int, list[int]] = {}
        for destination, order in chosen:
            by_destination.setdefault(destination, []).append(order)
        made: list[Move] = []
        for d, orders in sorted(by_destination.items()):
            key = (d, tuple(orders))
            move = moves.get(key)
            if move is None:
                why = tuple(destinations[d][1][o] for o in orders)
                if shared is not None:
                    why = shared.setdefault(why, why)
                move = moves[key] = Move(piece, source, destinations[d][0], why)
            made.append(move)
        tables[name] = made[0] if len(made) == 1 else tuple(made)
    namespace = _GLOBALS
    if fallback:

        def coded(tests: tuple[tuple[int, Test], ...]) -> dict[int, Test]:
            return {square: (kind, codes[number] if kind == _EXACT else number)
                    for square, (kind, number) in tests}

        rules = [_Rule(slot, order, coded(must), coded(deny)) for slot, order, must, deny in fallback]
        slow = _interpreter(rules, destinations, piece, source, -1 if active == "first" else 1)
        namespace = {"__builtins__": {}, "slow": slow}
    function: Generator = _function_of(code, codes, tables, namespace)
    return function


_GLOBALS: Final[dict[str, object]] = {"__builtins__": {}}
"""The globals of every generator and attack test: the code reads none, not even a builtin."""


def _piece_codes(named: tuple[str, ...]) -> list[int]:
    """The codes this process gives the pieces a plan names (QPI text), in the plan's order."""
    return [code_of(Qpi.parse(text)) for text in named]


def _function_of(module: CodeType, codes: list[int], tables: dict[str, object] | None = None,
                 namespace: dict[str, object] = _GLOBALS) -> Any:
    """The function a module of generated code defines (a generator here, an attack test in
    :mod:`ggn.rules._attacks`), its string constants put in: each piece's (``P0``...) replaced
    by its code in ``codes``, each table's (``T0``...) by the table in ``tables``."""
    named = {} if tables is None else tables
    inner = next(const for const in module.co_consts if isinstance(const, CodeType))
    inner = inner.replace(co_consts=tuple(
        (named[const] if const[0] == "T" else codes[int(const[1:])]) if type(const) is str else const
        for const in inner.co_consts))
    return FunctionType(inner, namespace)


def _interpreter(
    rules: list[_Rule], destinations: list[tuple[Cell | Hand, list[Possibility]]], piece: Qpi,
    source: Cell | Hand, enemy_sign: int,
) -> Generator:
    """Direct evaluation of the rules that did not fit a decision tree."""

    def slow(b: list[int], _: list[Move], ap: Callable[[Move], None]) -> None:
        held: dict[int, list[int]] = {}
        for rule in rules:
            if all(_meets(t, b[s], enemy_sign) for s, t in rule.must.items()) and not any(
                _meets(t, b[s], enemy_sign) for s, t in rule.deny.items()
            ):
                held.setdefault(rule.destination, []).append(rule.order)
        for destination, orders in sorted(held.items()):
            target, possibilities = destinations[destination]
            ap(Move(piece, source, target, tuple(possibilities[o] for o in orders)))

    return slow


def _cache_key(ruleset: Ruleset, geometry: Geometry) -> bytes:
    """The compile cache's key of a ruleset's plans for a board shape (the budgets included:
    tests lower them). A plan holds no piece code (see :data:`Plan`): processes that number
    the pieces otherwise share it."""
    shape = ",".join(map(str, geometry.shape))
    return ruleset.digest() + f"|{shape}|{_MAX_NODES}|{_MAX_WORK}|".encode()


def _unpickle(ruleset: Ruleset, shape: tuple[int, ...]) -> CompiledRuleset:
    return CompiledRuleset(ruleset, Geometry(shape))


def _nothing(b: list[int], out: list[Move], ap: Callable[[Move], None]) -> None:
    """The generator of a (piece, source) from which no move can ever come."""


_Arrival = tuple[
    Qpi, Cell | Hand, int, int, Possibilities,
    tuple[tuple[tuple[tuple[int, Test], ...], tuple[tuple[int, Test], ...]], ...],
]
"""A (piece, source) that lists a destination: the source's index (-1: the hand), the
piece's code, the possibilities that can hold on this board and their tests by index."""


class CompiledRuleset:
    """A ruleset compiled for one board shape: :meth:`moves` lists every move, :meth:`select`
    those of one piece, source or destination. :meth:`Ruleset.moves` makes and keeps one."""

    __slots__ = (
        "_arrivals", "_board", "_drops", "_hand", "_lock", "_saved", "_shared", "board_only", "geometry",
        "ruleset",
    )

    def __init__(self, ruleset: Ruleset, geometry: Geometry) -> None:
        self.ruleset = ruleset
        self.geometry = geometry
        # Held while a (piece, source) compiles: threads that meet the same one at once wait
        # for the first to finish, then use its function (or find there is none).
        self._lock = threading.Lock()
        # Per square index: piece code -> generator (compiled on first use). The squares no
        # source names share one empty dict, never written to: a board of millions of squares
        # costs a list, not a dict a square.
        nothing: dict[int, Generator] = {}
        self._board: list[dict[int, Generator]] = [nothing] * geometry.size
        self._hand: dict[tuple[Qpi, Side], Generator | None] = {}
        # Whether a piece can ever move from a hand: if not, a position's hands go unread.
        self._drops = any(HAND in sources for sources in ruleset.values())
        self.board_only: list[dict[int, Generator]] | None = None if self._drops else self._board
        """The generators by square index and piece code when no piece ever moves from a hand
        (else None): :meth:`Ruleset.moves` runs them itself, as :meth:`moves` does."""
        self._shared: dict[Possibilities, Possibilities] = {}  # see _make
        self._arrivals: dict[Cell | Hand, list[_Arrival]] | None = None
        self._saved: cache.Entries | None = None  # the plans in the compile cache, on first use
        for piece, sources in ruleset.items():
            code = code_of(piece)
            for source in sources:
                if isinstance(source, Cell):
                    number = geometry.index.get(source)
                    if number is not None:
                        slot = self._board[number]
                        if slot is nothing:
                            slot = self._board[number] = {}
                        slot[code] = self._lazy(piece, source, number, code)

    def _lazy(self, piece: Qpi, source: Cell, number: int, code: int) -> Generator:
        slot = self._board[number]

        def first_call(b: list[int], out: list[Move], ap: Callable[[Move], None]) -> None:
            with self._lock:
                made = slot[code]
                if made is first_call:  # not compiled yet: this thread compiles it
                    # None: no move can ever come from it
                    made = self._generator(piece, source, number, piece.side) or _nothing
                    slot[code] = made
            made(b, out, ap)

        return first_call

    def __reduce__(self) -> tuple[Any, tuple[Ruleset, tuple[int, ...]]]:
        # Pickled as its ruleset and board shape: made again where it is unpickled (a process
        # pool's worker), its generators loaded from the compile cache as they are used.
        return (_unpickle, (self.ruleset, self.geometry.shape))

    def _generator(self, piece: Qpi, source: Cell | Hand, number: int, active: Side) -> Generator | None:
        """The generator of (piece, source) for the side to move: its plan from the compile
        cache, else made (and kept there). Called with the lock held."""
        saved = self._saved
        if saved is None:
            saved = self._saved = cache.Entries("moves", _cache_key(self.ruleset, self.geometry))
        name = (str(piece), number, active == "first")
        plan = saved.get(name)
        if plan is False:  # saved: no move can ever come from it
            return None
        if plan is not None:
            try:
                return _make(plan, self.ruleset, piece, source, active, shared=self._shared)
            except Exception:  # noqa: BLE001, S110  (a plan that does not fit: made again below)
                pass
        plan = _plan(self.ruleset, self.geometry, piece, source, active)
        saved.put(name, plan if plan is not None else False)
        return None if plan is None else _make(plan, self.ruleset, piece, source, active, shared=self._shared)

    def _check(self, position: Position) -> None:
        if not isinstance(position, Position):
            expect(position, Position, "position", "a Position")
        if position._geometry is not self.geometry:
            raise PositionError(
                f"compiled for a board of shape {self.geometry.shape}, given one of {position.shape}"
            )

    def _hand_generator(self, piece: Qpi, active: Side) -> Generator | None:
        key = (piece, active)
        try:
            return self._hand[key]
        except KeyError:
            pass
        with self._lock:
            if key not in self._hand:
                has = piece in self.ruleset and HAND in self.ruleset[piece]
                self._hand[key] = self._generator(piece, HAND, -1, active) if has else None
            return self._hand[key]

    def select(
        self,
        position: Position,
        piece: Qpi | None = None,
        source: Cell | Hand | None = None,
        destination: Cell | Hand | None = None,
    ) -> list[Move]:
        """The moves of ``position`` of one piece, from one source, or to one destination
        (any combination), without listing the others."""
        self._check(position)
        if destination is not None:
            return [
                move for move in self._moves_to(position, destination)
                if (piece is None or move.piece == piece) and (source is None or move.source == source)
            ]
        codes = position._codes
        active = position.active
        out: list[Move] = []
        ap = out.append
        side = 0 if active == "first" else 1
        if source is None or source is HAND:
            hand = position._hands[side]
            for held in hand if piece is None else ([piece] if piece in hand else []):
                generate = self._hand_generator(held, active)
                if generate is not None:
                    generate(codes, out, ap)
            if source is HAND:
                return out
        if source is not None:
            assert isinstance(source, Cell)
            numbers: tuple[int, ...] = ()
            number = self.geometry.index.get(source)
            if number is not None:
                numbers = (number,)
        else:
            numbers = position._occupied[side]
        wanted = None if piece is None else code_of(piece)
        board = self._board
        for number in numbers:
            code = codes[number]
            if (code > 0) is not (side == 0) or code == 0 or (wanted is not None and code != wanted):
                continue
            generate = board[number].get(code)
            if generate is not None:
                generate(codes, out, ap)
        return out

    def _moves_to(self, position: Position, destination: Cell | Hand) -> list[Move]:
        """Evaluate only the possibilities of one destination, through a reverse index: for
        each (piece, source) that lists it, the piece's code and its possibilities' tests by
        square index, made on first use."""
        if destination is not HAND and destination not in self.geometry.index:
            return []
        arrivals = self._arrivals
        if arrivals is None:
            arrivals = self._arrivals = self._index_arrivals()
        active = position.active
        hand = position.hand(active)
        codes = position._codes
        sign = -1 if active == "first" else 1
        out: list[Move] = []
        for piece, source, number, code, possibilities, tests in arrivals.get(destination, ()):
            if number < 0:
                if hand.get(piece, 0) <= 0:
                    continue
            elif codes[number] != code or piece.side != active:
                continue
            allowed = tuple(
                possibility for possibility, (must, deny) in zip(possibilities, tests, strict=True)
                if all(_meets(test, codes[square], sign) for square, test in must)
                and not any(_meets(test, codes[square], sign) for square, test in deny)
            )
            if allowed:
                out.append(Move(piece, source, destination, allowed))
        return out

    def _index_arrivals(self) -> dict[Cell | Hand, list[_Arrival]]:
        arrivals: dict[Cell | Hand, list[_Arrival]] = {}
        index = self.geometry.index
        reader = _Reader(self.geometry)
        for piece, sources in self.ruleset.items():
            code = code_of(piece)
            for source, destinations in sources.items():
                number = -1 if isinstance(source, Hand) else index.get(source, -2)
                if number == -2:
                    continue
                for target, possibilities in destinations.items():
                    kept: list[Possibility] = []
                    tests: list[tuple[tuple[tuple[int, Test], ...], tuple[tuple[int, Test], ...]]] = []
                    for possibility in possibilities:
                        conditions = reader.conditions(possibility)
                        if conditions is not None:  # else a must off the board: never holds
                            kept.append(possibility)
                            tests.append((tuple(conditions[0].items()), tuple(conditions[1].items())))
                    if kept:
                        arrivals.setdefault(target, []).append(
                            (piece, source, number, code, tuple(kept), tuple(tests)))
        return arrivals

    def moves(self, position: Position) -> list[Move]:
        """Every pseudo-legal move of ``position``."""
        if type(position) is not Position or position._geometry is not self.geometry:
            self._check(position)  # TypeError for a non-Position, PositionError for another shape
        codes = position._codes
        out: list[Move] = []
        ap = out.append
        board = self._board
        side = 0 if position.active == "first" else 1
        try:
            for number in position._occupied[side]:
                board[number][codes[number]](codes, out, ap)
        except KeyError:  # a piece where the ruleset lists no source for it: the slower loop
            out.clear()
            for number in position._occupied[side]:
                generate = board[number].get(codes[number])
                if generate is not None:
                    generate(codes, out, ap)
        if self._drops:
            hand = position._hands[side]
            if hand:
                active = position.active
                for piece in hand:
                    generate = self._hand_generator(piece, active)
                    if generate is not None:
                        generate(codes, out, ap)
        return out
