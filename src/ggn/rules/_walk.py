"""The legality walk: the legal plays of one position, in named steps.

:func:`walk` is what :meth:`RuleSystem._walk` runs (and ``legal_moves``, ``count``,
``outcome`` and perft with it). For one position it:

1. asks the game whether it has already ended (:meth:`RuleSystem._ended`): then there is no
   legal play;
2. sets the scene (:class:`Scene`): the board every play starts from (the position's, after
   the changes :meth:`RuleSystem._prepare` says every play makes first), the mover's terminal
   pieces, and whether the position is *calm*: one terminal piece, no drop that could reach
   it, and not attacked. In a calm position, a plain move (not of the terminal piece, not
   one the hooks must see) can only expose the terminal piece through the two squares it
   changes, so only the attack tests that read those squares run (:mod:`ggn.rules._attacks`);
   and if, with every other piece of the mover gone, the terminal piece is still not
   attacked, no piece is pinned at all;
3. describes each pseudo-legal move once (:func:`describe`, a :class:`MoveInfo` kept per move
   object), asking the hooks ``_special``, ``_stand_in`` and ``_becomes``;
   where captures are forced (:attr:`RuleSystem._capture_forced`), keeps only the moves
   that capture when one of them has a legal play (:func:`forced_captures`); where drops
   are forced (:attr:`RuleSystem._drops_forced`), only the forced drops while one is legal
   (:func:`forced_drops`);
4. tests every move by its kind: a plain move of a piece not pinned is legal; a plain move
   of a pinned piece must keep the line it blocks (:meth:`Scene.pinned_exposes`); any other
   displacement is made on a scratch board and tested (:meth:`Scene.displacement_legal`); a
   special move goes to the game's hooks, ``_effects`` for its plays and ``_allowed`` for the
   game's own rules, each play tested after it is made (:meth:`Scene.special_plays`), unless
   a stand-in (``_stand_in``) says its plays are legal exactly when its plain displacement is;
5. hands the legal plays on in one of three forms, each with a loop of its own:
   :func:`count_plays` only counts them (``count``, perft's last ply: in a calm position
   :func:`count_unpinned` counts the plain moves of pieces not pinned without more);
   :func:`find_plays` gives ``(move, effect, board after)`` (perft's inner nodes, or the
   first few plays: does the player have one?); :func:`list_plays` makes each a
   :class:`Play` whose transition is made when first read (``legal_moves``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ggn.cell import HAND
from ggn.move import Move
from ggn.position import Position, code_of
from ggn.rules._attacks import INFO_BOUND, UNKNOWN, Attack, Tables
from ggn.rules._records import PLAIN, SPECIAL, TERMINAL, Change, Effect, MoveInfo, Play, PlayContext

if TYPE_CHECKING:
    from ggn.rules._system import RuleSystem

__all__ = ["Scene", "count_plays", "count_unpinned", "describe", "find_plays", "forced_captures",
           "forced_drops", "list_plays", "pseudo_plays", "takes", "walk"]

Found = tuple[Move, Effect, list[int]]
"""A legal play for perft's inner nodes: the move, its effect and the board codes after it."""

_new = object.__new__
_NOTHING: frozenset[int] = frozenset()


def describe(rules: RuleSystem, tables: Tables, move: Move) -> MoveInfo:
    """The walk's description of ``move`` (kept in ``tables.info`` by the move object's id)."""
    index = tables.geometry.index
    source = -1 if move.source is HAND else index[move.source]  # type: ignore[index]
    destination = -1 if move.destination is HAND else index[move.destination]  # type: ignore[index]
    code = code_of(move.piece)
    terminal = code in tables.terminal[0] or code in tables.terminal[1]
    plays = 1
    # A move onto its own source takes nothing: it goes the general way, not the inline
    # paths, which read the destination's piece as a capture.
    if (source < 0 or destination < 0 or source == destination
            or rules._special(move, source, destination, code)):
        kind = tally = SPECIAL
        placed = code
        stand_in = None
        if source >= 0 and destination >= 0:
            stand_in = rules._stand_in(move, source, destination, code)
        if stand_in is not None:
            placed, plays = stand_in
            tally = TERMINAL if terminal else PLAIN
    else:
        kind = tally = TERMINAL if terminal else PLAIN
        placed = rules._becomes(move, source, destination, code)
    info = MoveInfo(move, source, destination, code, kind, placed, tally, plays)
    if len(tables.info) >= INFO_BOUND:
        tables.info.clear()
        tables.counted.clear()
    tables.info[id(move)] = info
    tables.counted[id(move)] = (destination, plays, source, placed) if tally == PLAIN else None
    return info


class Scene:
    """One position as the walk sees it: the board plays start from, the mover's terminal
    pieces, and, in a calm position, what is known of its pins."""

    __slots__ = ("arriving", "attacks", "base", "codes", "fragile", "free", "hand_attacks", "king", "kings",
                 "lone", "pinned", "position", "prefix", "row", "rules", "scratch", "side", "tables",
                 "through", "unpinned")

    def __init__(self, rules: RuleSystem, position: Position) -> None:
        self.rules = rules
        self.position = position
        self.tables = tables = rules._tables_for(position)
        self.codes = codes = position._codes
        self.side = side = 0 if position.active == "first" else 1
        self.attacks = tables.attacks[1 - side]
        terminal = tables.terminal[side]
        self.kings = kings = [number for number in position._occupied[side] if codes[number] in terminal]
        self.prefix, self.base = self._start()
        # A board to try moves on in place (each try puts back what it changed): made when
        # first needed.
        self.scratch: list[int] | None = None
        self.hand_attacks = bool(position._hands[1 - side]) and bool(tables.hand_arrivals[1 - side])
        self.lone = len(kings) == 1 and not self.hand_attacks
        # Set for a calm position only (see _settle).
        self.through: dict[int, Attack | None] | None = None
        # Calm, the sources whose plain moves need a test each, with the test of the attack
        # each one blocks, and those known to need none (looked at on a source's first plain
        # move); ``unpinned``: none needs one.
        self.pinned: dict[int, Attack] = {}
        self.free: set[int] = set()
        self.unpinned = False
        self.fragile = _NOTHING
        rules._calm = None
        if self.lone:
            self._settle(kings[0])

    def _start(self) -> tuple[tuple[Change, ...], list[int]]:
        """The changes every play makes first (``_prepare``), and the board after them."""
        prefix = self.rules._prepare(self.position, self.tables)
        base = self.codes
        if prefix:
            base = base.copy()
            for number, value in prefix:
                base[number] = value
        return prefix, base

    def _settle(self, king: int) -> None:
        """One terminal piece, which no drop can reach: whether the position is calm (the
        piece is not attacked), and whether, calm, no source is pinned."""
        tables, side = self.tables, self.side
        # A fragile square is one that some move onto the terminal piece needs to hold a piece
        # of the mover's: a piece arriving there can let an attack through, so a plain move
        # onto it is tested even from a source not pinned. With none but the piece's own, no
        # move onto the terminal piece reads a square holding one of the mover's pieces
        # unless that piece stops it: an attack on the board is there too with all of them
        # gone, and so is any that emptying one source would uncover. Not attacked so (the
        # bare test), the piece is not attacked, nor is any source pinned.
        known = tables.calm[1 - side].get(king)
        if known is None:
            known = tables.calm_tests(1 - side, king)
        fragile, bare = known
        if bare is not None and not bare(self.base):
            self.unpinned = True
            self._set_calm(king, fragile)
            return
        if not self.attacks[king](self.base):
            self._set_calm(king, fragile)

    def _set_calm(self, king: int, fragile: frozenset[int]) -> None:
        """The position is calm: only the attack tests reading what a plain move changes need
        to run."""
        side = self.side
        self.king = king
        self.fragile = fragile
        self.row = king * self.tables.geometry.size
        self.through = self.tables.through[1 - side]
        self.arriving = self.tables.arriving[1 - side]
        self.rules._calm = self.position

    def _scratch(self) -> list[int]:
        """The scratch board, made on first use."""
        scratch = self.scratch = self.base.copy()
        return scratch

    def test_pin(self, source: int) -> bool:
        """Calm, for a source not looked at yet: whether emptying it uncovers an attack on the
        terminal piece (its plain moves must then keep the line it blocks); the answer is kept
        in ``pinned`` or ``free``."""
        assert self.through is not None
        left = self.through.get(self.row + source, UNKNOWN)
        if left is UNKNOWN:
            left = self.tables.attack_through(1 - self.side, self.king, source)
        if left is not None:
            scratch = self.scratch or self._scratch()
            scratch[source] = 0
            uncovers = left(scratch)
            scratch[source] = self.base[source]
            if uncovers:
                self.pinned[source] = left
                return True
        self.free.add(source)
        return False

    def pinned_exposes(self, source: int, destination: int, placed: int) -> bool:
        """Whether a plain move of a pinned piece uncovers the attack its source blocked."""
        scratch = self.scratch or self._scratch()
        kept = scratch[destination]
        scratch[source] = 0
        scratch[destination] = placed
        exposed = self.pinned[source](scratch)
        scratch[destination] = kept
        scratch[source] = self.base[source]
        return exposed

    def plain_legal(self, source: int, destination: int, placed: int, kind: int) -> bool:
        """Whether a displacement leaving ``placed`` on the destination leaves the mover's
        terminal pieces unattacked, by the fast path when it can take it."""
        if self.through is not None and kind == PLAIN and destination not in self.fragile:
            if self.unpinned or source in self.free or not (source in self.pinned or self.test_pin(source)):
                return True
            return not self.pinned_exposes(source, destination, placed)
        return self.displacement_legal(source, destination, placed, kind)

    def displacement_legal(self, source: int, destination: int, placed: int, kind: int) -> bool:
        """Whether a displacement the walk makes itself (not through the hooks), off the fast
        path, leaves the mover's terminal pieces unattacked (``kind``: :data:`PLAIN` or
        :data:`TERMINAL`, as the move is made or counted). It is tried on the scratch board,
        then taken back."""
        scratch = self.scratch or self._scratch()
        kept = scratch[destination]
        scratch[source] = 0
        scratch[destination] = placed
        through = self.through
        if through is not None and kind == PLAIN:
            # Calm: the tests that read the source (a piece left it) and the destination (a
            # piece of the mover's arrived: only the tests it cannot fail).
            row = self.row
            left = through.get(row + source, UNKNOWN)
            if left is UNKNOWN:
                left = self.tables.attack_through(1 - self.side, self.king, source)
            arrived = self.arriving.get(row + destination, UNKNOWN)
            if arrived is UNKNOWN:
                arrived = self.tables.attack_arriving(1 - self.side, self.king, destination)
            exposed = (left is not None and left(scratch)) or (arrived is not None and arrived(scratch))
        elif kind == TERMINAL and self.lone:  # the only terminal piece moves: onto an attacked square?
            exposed = self.attacks[destination](scratch)
        else:
            exposed = self.exposed(scratch, self.kings if kind == PLAIN else [
                destination if number == source else number for number in self.kings])
        scratch[destination] = kept
        scratch[source] = self.base[source]
        return not exposed

    def special_plays(self, info: MoveInfo) -> list[tuple[Effect, list[int]]]:
        """The legal plays of a move the hooks must see: each play ``_effects`` gives, made on
        a board of its own, kept if it leaves the mover's terminal pieces unattacked and
        ``_allowed`` allows it."""
        rules, position, prefix, base = self.rules, self.position, self.prefix, self.base
        code, source = info[3], info[1]
        terminal = self.tables.terminal[self.side]
        moved = code in terminal  # the terminal piece itself moves
        sign = 1 if self.side == 0 else -1  # the sign of the mover's codes
        found = []
        for effect in rules._effects(position, prefix, info):
            changes = effect[1]
            child = base.copy()
            for number, value in changes:
                child[number] = value
            if moved and self.lone:  # the one terminal piece moved (no drop can reach it)
                exposed = self._lone_exposed(changes, child, terminal)
            elif moved:
                exposed = self.exposed(child, self._terminal_after(changes, child, terminal))
            elif self.through is not None and all(value * sign >= 0 for _, value in changes):
                exposed = self._changes_expose(changes, child, source)
            else:
                exposed = self.exposed(child, self.kings)
            if not exposed and rules._allowed(position, prefix, info, effect, child):
                found.append((effect, child))
        return found

    def _lone_exposed(self, changes: tuple[Change, ...], child: list[int], terminal: frozenset[int]) -> bool:
        """After a play that moves the one terminal piece: whether it is attacked where it
        stands now (as :meth:`_terminal_after` finds it, without the lists)."""
        attacks, king = self.attacks, self.kings[0]
        if child[king] in terminal and attacks[king](child):
            return True
        for number, value in changes:
            if value in terminal and number != king and child[number] == value and attacks[number](child):
                return True
        return False

    def _terminal_after(self, changes: tuple[Change, ...], child: list[int],
                        terminal: frozenset[int]) -> list[int]:
        """Where the mover's terminal pieces stand after a play that moves one: those that
        stayed, and the squares the play put one on (and left it there)."""
        targets = [number for number in self.kings if child[number] in terminal]
        for number, value in changes:
            if value in terminal and child[number] == value and number not in targets:
                targets.append(number)
        return targets

    def exposed(self, board: list[int], targets: list[int]) -> bool:
        """Whether the other side can move onto one of the squares ``targets`` of ``board``
        (from its hand too: the position's)."""
        attacks = self.attacks
        hand_attacks = self.hand_attacks
        for target in targets:
            if attacks[target](board) or (hand_attacks and self.rules._hand_attack(
                    self.position, self.tables, board, self.side, target)):
                return True
        return False

    def _changes_expose(self, changes: tuple[Change, ...], child: list[int], source: int) -> bool:
        """In a calm position, after a play in which only the mover's pieces moved or left:
        whether the attack tests reading the squares it changed find the terminal piece."""
        base, tables, side, row = self.base, self.tables, self.side, self.row
        assert self.through is not None
        for number, value in changes:
            if value != base[number] or number == source:
                if value:  # a piece of the mover's arrives: the tests it cannot fail
                    test = self.arriving.get(row + number, UNKNOWN)
                    if test is UNKNOWN:
                        test = tables.attack_arriving(1 - side, self.king, number)
                else:
                    test = self.through.get(row + number, UNKNOWN)
                    if test is UNKNOWN:
                        test = tables.attack_through(1 - side, self.king, number)
                if test is not None and test(child):
                    return True
        return False


def count_unpinned(scene: Scene, moves: list[Move]) -> tuple[int, list[MoveInfo]]:
    """Only counting, in a calm position: the plays of the plain moves of pieces not pinned
    (counted here without more), and the descriptions of the other moves (to be tested)."""
    rules, tables = scene.rules, scene.tables
    infos, counted, codes = tables.info, tables.counted, scene.codes
    # Plain moves onto a fragile square, taking a piece whose capture the hooks must see, or
    # from a pinned source, are looked at further.
    fragile, special_taken, pinned = scene.fragile, rules._special_taken, scene.pinned
    rest: list[MoveInfo] = []
    keep = rest.append
    found = 0
    king = scene.king
    if scene.unpinned and fragile <= {king}:
        # The common case: only a capture the hooks must see (or, in an odd document, a
        # move onto the terminal piece's own square) is looked at further.
        for move in moves:
            # The caches hold each move they describe, so an id in them is never another's.
            key = id(move)
            try:
                plain = counted[key]
            except KeyError:
                describe(rules, tables, move)
                plain = counted[key]
            if plain is not None and plain[0] != king and codes[plain[0]] not in special_taken:
                found += plain[1]
            else:
                keep(infos[key])
        return found, rest
    # Else each plain move is tested here, as Scene.test_pin, pinned_exposes and
    # displacement_legal would (inline: this loop is perft's innermost): a source is looked at
    # on its first plain move; a move from a pinned one must keep the line it blocks; a move
    # onto a fragile square runs the tests that read its two squares.
    free, through, arriving, row, base = scene.free, scene.through, scene.arriving, scene.row, scene.base
    assert through is not None
    attack_through, attack_arriving, attacker = tables.attack_through, tables.attack_arriving, 1 - scene.side
    scratch = scene.scratch or scene._scratch()
    for move in moves:
        key = id(move)
        try:
            plain = counted[key]
        except KeyError:
            describe(rules, tables, move)
            plain = counted[key]
        if plain is None:
            keep(infos[key])
            continue
        destination, plays, source, placed = plain
        if codes[destination] in special_taken:
            keep(infos[key])
            continue
        arrived: Attack | None = None
        if destination not in fragile:
            if source in free:
                found += plays
                continue
            left = pinned.get(source)
            if left is None:  # the source's first plain move: does emptying it uncover an attack?
                left = through.get(row + source, UNKNOWN)
                if left is UNKNOWN:
                    left = attack_through(attacker, king, source)
                if left is not None:
                    scratch[source] = 0
                    if left(scratch):
                        pinned[source] = left
                    else:
                        left = None
                    scratch[source] = base[source]
                if left is None:
                    free.add(source)
                    found += plays
                    continue
        else:
            left = through.get(row + source, UNKNOWN)
            if left is UNKNOWN:
                left = attack_through(attacker, king, source)
            arrived = arriving.get(row + destination, UNKNOWN)
            if arrived is UNKNOWN:
                arrived = attack_arriving(attacker, king, destination)
        kept = scratch[destination]
        scratch[source] = 0
        scratch[destination] = placed
        exposed = (left is not None and left(scratch)) or (arrived is not None and arrived(scratch))
        scratch[destination] = kept
        scratch[source] = base[source]
        if not exposed:
            found += plays
    return found, rest


def list_plays(scene: Scene, moves: list[Move], plays: list[Play]) -> None:
    """Listing (``legal_moves``): append to ``plays`` the legal plays of ``moves``, in their
    order, each a :class:`Play` whose transition is made when first read."""
    rules, tables, position = scene.rules, scene.tables, scene.position
    known = tables.info.get
    codes, prefix = scene.codes, scene.prefix
    special_taken = rules._special_taken
    context = PlayContext(position, prefix, rules._captured)
    calm = scene.through is not None
    fragile, pinned, free = scene.fragile, scene.pinned, scene.free
    unpinned = scene.unpinned
    new, append = _new, plays.append
    for move in moves:
        info = known(id(move)) or describe(rules, tables, move)
        _, source, destination, _, kind, placed, tally, _ = info
        if kind == SPECIAL or codes[destination] in special_taken:
            if tally == SPECIAL or codes[destination] in special_taken:
                for effect, _ in scene.special_plays(info):
                    play: Play = new(Play)
                    play._recipe = (move, effect)
                    play._context = context
                    append(play)
                continue
            # A stand-in (RuleSystem._stand_in): its plays are legal exactly when its plain
            # displacement is; they are the hooks' own.
            if not scene.plain_legal(source, destination, placed, tally):
                continue
            for effect in rules._effects(position, prefix, info):
                play = new(Play)
                play._recipe = (move, effect)
                play._context = context
                append(play)
            continue
        if calm and kind == PLAIN and destination not in fragile:
            # Most sources are known not to be pinned; the others are tested once.
            if not (unpinned or source in free) and (source in pinned or scene.test_pin(source)) and (
                    scene.pinned_exposes(source, destination, placed)):
                continue
        elif not scene.displacement_legal(source, destination, placed, kind):
            continue
        play = new(Play)
        play._recipe = info
        play._context = context
        append(play)


def count_plays(scene: Scene, moves: list[Move]) -> int:
    """Only counting (``count``, perft's last ply): the number of legal plays of ``moves``,
    special moves that have a stand-in counted as their plain displacement."""
    if scene.through is not None:
        found, rest = count_unpinned(scene, moves)
        if not rest:  # most often: nothing left to test
            return found
    else:
        known, tables, rules = scene.tables.info.get, scene.tables, scene.rules
        found, rest = 0, [known(id(move)) or describe(rules, tables, move) for move in moves]
    codes, special_taken = scene.codes, scene.rules._special_taken
    calm, fragile, pinned = scene.through is not None, scene.fragile, scene.pinned
    displacement_legal = scene.displacement_legal
    for info in rest:
        _, source, destination, _, _, placed, kind, plays = info  # the kind it counts as
        if kind == SPECIAL or codes[destination] in special_taken:
            found += len(scene.special_plays(info))
        elif calm and kind == PLAIN and destination not in fragile and source in pinned:
            if not scene.pinned_exposes(source, destination, placed):
                found += plays
        elif displacement_legal(source, destination, placed, kind):
            found += plays
    return found


def find_plays(scene: Scene, moves: list[Move], out: list[Found] | None, stop: int) -> int:
    """The legal plays of ``moves``: appended to ``out`` as ``(move, effect, board after)``
    (perft's inner nodes) unless it is None; how many (at most ``stop``, if given)."""
    rules, tables = scene.rules, scene.tables
    known = tables.info.get
    limit = stop or 1 << 62
    found = 0
    counting = out is None
    codes, base, prefix = scene.codes, scene.base, scene.prefix
    special_taken = rules._special_taken
    fast = PLAIN if scene.through is not None else -1  # the kind that takes the fast path
    fragile, pinned, free, unpinned = scene.fragile, scene.pinned, scene.free, scene.unpinned
    captured = rules._captured
    for move in moves:
        info = known(id(move)) or describe(rules, tables, move)
        _, source, destination, _, kind, placed, tally, weight = info
        if counting:
            kind = tally
        if kind == SPECIAL or codes[destination] in special_taken:
            for effect, child in scene.special_plays(info):
                found += 1
                if out is not None:
                    out.append((move, effect, child))
                if found >= limit:
                    return limit
            continue
        if kind == fast and destination not in fragile:
            # Most sources are known not to be pinned; the others are tested once.
            if unpinned or source in free:
                pass
            elif (source in pinned or scene.test_pin(source)) and scene.pinned_exposes(
                    source, destination, placed):
                continue
        elif not scene.displacement_legal(source, destination, placed, kind):
            continue
        found += weight
        if out is not None:
            child = base.copy()
            child[source] = 0
            child[destination] = placed
            taken = codes[destination]
            hand = ((captured(taken, move.piece), 1),) if taken else ()
            out.append((move, (None, (*prefix, (source, 0), (destination, placed)), hand), child))
        if found >= limit:
            return limit
    return found


def takes(codes: list[int], changes: tuple[Change, ...], side: int) -> bool:
    """Whether a play of ``side`` whose square changes are ``changes`` takes a piece of the
    other side from board ``codes``: turns one of its squares to empty or to one of the
    mover's (a mark of the other side's changed, a right lost, is no capture)."""
    sign = 1 if side == 0 else -1
    return any(codes[number] * sign < 0 and value * sign >= 0 for number, value in changes)


def forced_captures(scene: Scene, moves: list[Move]) -> list[Move]:
    """Captures are forced (:attr:`RuleSystem._capture_forced`): of ``moves``, those that
    capture if one of them has a legal play, else all of them.

    A move captures when its destination holds a piece of the other side (whatever it does
    besides), or when it is a special move (the hooks make its plays) one of whose plays
    takes a piece elsewhere (:func:`takes`: en passant); castling takes none. The other moves
    are not looked at further, so a game without a capture to make pays one pass over the
    moves' descriptions."""
    rules, tables, position = scene.rules, scene.tables, scene.position
    known = tables.info.get
    codes, prefix, side = scene.codes, scene.prefix, scene.side
    sign = 1 if side == 0 else -1
    taking: list[Move] = []
    for move in moves:
        info = known(id(move)) or describe(rules, tables, move)
        source, destination = info[1], info[2]
        if destination < 0 or source == destination:
            continue
        # A piece of the other side on the destination; else a special move may take one elsewhere.
        if codes[destination] * sign < 0 or (info[4] == SPECIAL and source >= 0 and any(
                takes(codes, effect[1], side) for effect in rules._effects(position, prefix, info))):
            taking.append(move)
    if taking and find_plays(scene, taking, None, 1):
        return taking
    return moves


def forced_drops(scene: Scene, moves: list[Move], forced: frozenset[int]) -> list[Move]:
    """Drops are forced (:attr:`RuleSystem._drops_forced`; ``forced``: the mover's codes whose
    drops are): while the mover holds a piece of ``forced``, no drop of another piece is legal,
    and while a drop of one of them is legal, no move of a piece on the board is (Fairy-Stockfish's
    ``mustDrop``: a setup phase, koedem's kings)."""
    if not any(code_of(piece) in forced for piece in scene.position._hands[scene.side]):
        return moves
    drops = [move for move in moves if move.source is HAND and code_of(move.piece) in forced]
    if drops and find_plays(scene, drops, None, 1):
        return drops
    return [move for move in moves if move.source is not HAND]


def _tested(rules: RuleSystem, position: Position) -> list[Move]:
    """The moves the walk tests before the game's own filters: the document's pseudo-legal
    moves of ``position``, and the game's own (:meth:`RuleSystem._extra_moves`)."""
    moves = rules.ruleset.moves(position)
    if rules._more_moves:
        moves = [*moves, *rules._extra_moves(position)]
    return moves


def walk(rules: RuleSystem, position: Position, out: list[Found] | None, stop: int,
         plays: list[Play] | None = None) -> int:
    """Find the legal plays of ``position``: append them to ``out`` as ``(move, effect, board
    after)`` or to ``plays`` as :class:`Play` (unless both are None: only counted); return how
    many (at most ``stop``, if given; ``plays`` takes them all)."""
    if rules._ends and rules._ended(position) is not None:
        return 0
    scene = Scene(rules, position)
    moves = _tested(rules, position)
    if rules._capture_forced:
        moves = forced_captures(scene, moves)
    if rules._drops_forced is not None:
        moves = forced_drops(scene, moves, rules._drops_forced[scene.side])
    if plays is not None:
        before = len(plays)
        list_plays(scene, moves, plays)
        return len(plays) - before
    if out is None and not stop:
        return count_plays(scene, moves)
    return find_plays(scene, moves, out, stop)


def pseudo_plays(rules: RuleSystem, position: Position) -> list[tuple[Move, int, Play]]:
    """The pseudo-legal plays of ``position``, legal or not, for a game whose plays are each
    legal alone (no forced captures or drops, no walk of its own): each play of each move
    :func:`walk` would test (the document's moves, and the game's own), as ``(move, its
    number among the move's plays, Play)``, the moves in the walk's order and the plays of one
    move in ``_effects``' order (a plain displacement is its move's one play). A game that has
    ended (:meth:`RuleSystem._ended`) has none. The plays are not checked: no caller may hand
    one out as legal."""
    if rules._ends and rules._ended(position) is not None:
        return []
    tables = rules._tables_for(position)
    prefix = rules._prepare(position, tables)
    context = PlayContext(position, prefix, rules._captured)
    known, codes, special_taken = tables.info.get, position._codes, rules._special_taken
    found: list[tuple[Move, int, Play]] = []
    for move in _tested(rules, position):
        info = known(id(move)) or describe(rules, tables, move)
        if rules._no_play(position, info):
            continue  # no play at all (the kernel lists none either)
        play: Play
        if info[4] == SPECIAL or codes[info[2]] in special_taken:
            for number, effect in enumerate(rules._effects(position, prefix, info)):
                play = _new(Play)
                play._recipe = (move, effect)
                play._context = context
                found.append((move, number, play))
            continue
        play = _new(Play)
        play._recipe = info
        play._context = context
        found.append((move, 0, play))
    return found
