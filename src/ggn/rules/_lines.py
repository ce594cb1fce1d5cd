"""The legal plays of many positions by the native kernel, in the pure path's order and words.

:func:`ggn.batch.legal` asks this module for each line's plays. The kernel lists a position's
legal plays as (move, play) numbers of its tables, in an order of its own; the pure path
(:meth:`RuleSystem.legal_moves`) lists them square by square (ascending), then the mover's
hand (in the hand's order), each (piece, source) in the order its compiled generator
(:mod:`ggn.compiled`) adds its moves, each move's plays in the rule system's order. The
kernel's side (``lines.c``) sorts the plays by (source, rank, play number), with the rank of
each move worked out here, once per (piece, source), from the generator's code: the generator
is a decision tree, and an order of its destinations that every path through it keeps is a
topological order of "added before" over its control-flow graph. A generator with no such
order (or not a plain tree: one that falls back to the interpreter) has no rank, and a line
with one of its moves is answered by the pure path.

The moves written in a context-free notation (UCI, USI) are kept per (move, play number),
written once by the pure writer from a real position; the kernel then writes a line's list
itself. A move whose play numbers depend on the position (``_Game.fixed``) is written for
each line.
"""

from __future__ import annotations

import dis
import sys
import weakref
from array import array
from collections.abc import Callable, Iterable, Iterator
from types import CodeType, ModuleType
from typing import Any, Final, Protocol

from ggn._types import Side
from ggn.cell import HAND, Cell, Hand
from ggn.epin import Epin
from ggn.move import Move
from ggn.position import Geometry, Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules._native import _STATE, _encode, _Game, _game, _kernel, _plays
from ggn.rules._records import Play
from ggn.rules._system import RuleSystem
from ggn.variants.description import Variant

__all__ = ["Lister", "Reader", "emission_order", "fen_table", "lister"]

# The opcodes that jump (3.11's two lists; 3.12 has one more name for them).
_JUMPS: Final = frozenset(dis.hasjrel) | frozenset(dis.hasjabs) | frozenset(getattr(dis, "hasjump", ()))
_ENDS: Final = frozenset({"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})
_CONTEXT_FREE: Final = frozenset({"uci", "usi"})


def emission_order(function: Callable[..., None] | None) -> list[Cell | Hand] | None:
    """The destinations a compiled generator (:mod:`ggn.compiled`) adds, in an order every run
    of it keeps (each run adds a subsequence of it); None where no one order does, or where
    the code is not a plain decision tree (a jump backwards, the interpreter's fallback)."""
    if function is None:
        return []
    code: CodeType = function.__code__
    if "slow" in code.co_names:
        return None
    constants = code.co_consts
    instructions = _decoded(code)
    starts = {0}
    for number, (offset, name, _, target) in enumerate(instructions):
        if target is not None or name in _ENDS:
            if target is not None:
                if target <= offset:
                    return None
                starts.add(target)
            if number + 1 < len(instructions):
                starts.add(instructions[number + 1][0])
    offsets = sorted(starts)
    block_of = {offset: number for number, offset in enumerate(offsets)}
    added: list[list[Cell | Hand]] = [[] for _ in offsets]
    after: list[list[int]] = [[] for _ in offsets]  # the blocks each block may go on to
    block = 0
    for number, (offset, name, argument, target) in enumerate(instructions):
        block = block_of.get(offset, block)
        if name == "LOAD_CONST" and argument is not None:
            value = constants[argument]
            if type(value) is Move:
                added[block].append(value.destination)
            elif type(value) is tuple and value and all(type(item) is Move for item in value):
                added[block].extend(item.destination for item in value)
        last = number + 1 == len(instructions) or instructions[number + 1][0] in block_of
        if not last:
            continue
        if target is not None:
            jump = block_of.get(target)
            if jump is None:
                return None
            after[block].append(jump)
            conditional = "IF" in name or name in ("FOR_ITER", "SEND")
            if conditional and block + 1 < len(offsets):
                after[block].append(block + 1)
        elif name not in _ENDS and block + 1 < len(offsets):
            after[block].append(block + 1)
    # What may be added after each block (every jump goes forward: later blocks first).
    numbers: dict[Cell | Hand, int] = {}
    for found in added:
        for destination in found:
            numbers.setdefault(destination, len(numbers))
    later = [0] * len(offsets)
    for number in range(len(offsets) - 1, -1, -1):
        bits = 0
        for target in after[number]:
            bits |= later[target]
            for destination in added[target]:
                bits |= 1 << numbers[destination]
        later[number] = bits
    before = [0] * len(numbers)  # per destination: those that may come after it
    for at, found in enumerate(added):
        for place, cell in enumerate(found):
            bits = later[at]
            for next_cell in found[place + 1:]:
                bits |= 1 << numbers[next_cell]
            before[numbers[cell]] |= bits
    # A topological order (the first added first among those free), or None on a cycle.
    names = list(numbers)
    waiting = [0] * len(names)
    for item, bits in enumerate(before):
        if bits >> item & 1:
            return None
        for other in range(len(names)):
            if bits >> other & 1:
                waiting[other] += 1
    order: list[Cell | Hand] = []
    ready = [item for item in range(len(names)) if not waiting[item]]
    while ready:
        ready.sort()
        item = ready.pop(0)
        order.append(names[item])
        bits = before[item]
        for other in range(len(names)):
            if bits >> other & 1:
                waiting[other] -= 1
                if not waiting[other]:
                    ready.append(other)
    return order if len(order) == len(names) else None


Decoded = list[tuple[int, str, int | None, int | None]]
"""A code object's instructions: (offset, name, argument, jump target or None)."""


def _decoded(code: CodeType) -> Decoded:
    """The instructions of ``code`` (see :data:`Decoded`): read by :mod:`dis`, or on CPython
    3.11 by its bytecode walker alone (dis makes an Instruction, and a constant's repr, of
    each: the repr of a table of moves costs more than the rest), checked once against dis."""
    fast = _FAST[0]
    if fast is not None:
        try:
            found: Decoded | None = fast(code)
        except Exception:  # noqa: BLE001  (an interpreter whose internals differ: dis from now on)
            found = None
        if _FAST[1] or found is None:
            if found is not None and found == _slow(code):
                _FAST[1] = False
                return found
            _FAST[0] = None
        else:
            return found
    return _slow(code)


def _slow(code: CodeType) -> Decoded:
    # Each constant replaced by its number (dis writes a constant's repr), mapped back by the caller.
    numbered = code.replace(co_consts=tuple(range(len(code.co_consts))))
    found: Decoded = [(instruction.offset, instruction.opname, instruction.arg,
                       instruction.argval if instruction.opcode in _JUMPS
                       and isinstance(instruction.argval, int) else None)
                      for instruction in dis.get_instructions(numbered)]
    return found


def _walker(code: CodeType) -> Decoded:
    """CPython 3.11's bytecode read as dis reads it (dis._unpack_opargs; a relative jump's
    target is the offset past it plus twice its argument, backwards for JUMP_BACKWARD)."""
    unpack = dis._unpack_opargs  # type: ignore[attr-defined]
    deopt = dis._deoptop  # type: ignore[attr-defined]
    names, relative, absolute = dis.opname, _RELATIVE, _ABSOLUTE
    found: Decoded = []
    for offset, op, arg in unpack(code.co_code):
        base = deopt(op)
        name = names[base]
        target = None
        if base in relative:
            target = offset + 2 + (-arg if "JUMP_BACKWARD" in name else arg) * 2
        elif base in absolute:
            target = arg * 2
        found.append((offset, name, arg, target))
    return found


_RELATIVE: Final = frozenset(dis.hasjrel)
_ABSOLUTE: Final = frozenset(dis.hasjabs)
# [the walker, whether it is still to be checked against dis]
_FAST: list[Any] = [_walker if sys.version_info[:2] == (3, 11) and hasattr(dis, "_unpack_opargs")
                    and hasattr(dis, "_deoptop") else None, True]


class Reader(Protocol):
    """The kernel's reader of a game's FEN lines (``ggn._native.reader``, made by
    :meth:`Lister.reader`)."""

    def read(self, text: str, /) -> list[str] | None:
        """The plays of the position of ``text`` (a line of FEN, stripped) written, or None
        where the Python reader and writer must answer it."""

    def listed(self, text: str, /) -> Any:
        """The kernel's listing of ``text``: the plays written, or what it lacks to write them
        (a move without its rank: its number; plays without their strings: their pairs as
        bytes of int32), or None."""

    def answers(self, lines: Iterable[Any], fallback: Callable[[int, Any], Any], result: type, /
                ) -> Iterator[Any]:
        """The answers to ``lines`` (numbered from 1) as ggn.batch reads them: a line that is
        a str of ASCII (of at most ggn.batch.MAX_LINE characters) that :meth:`read` answers
        becomes ``result((number, text, None, None, plays))`` (``text`` the line stripped); a
        blank one none; ``fallback(number, line)`` answers any other (None: no answer)."""


class Lister:
    """One game's (its kernel tables') legal plays of positions, in the pure path's order, and
    written in a notation where it is context-free (see the module's doc)."""

    __slots__ = ("bases", "codes", "failed", "fen", "game", "geometry", "groups", "hands", "kernel", "made",
                 "notation", "orders", "position", "ranks", "rules", "search", "start", "strings", "writer")

    def __init__(self, rules: RuleSystem, game: _Game, kernel: ModuleType, notation: str | None, *,
                 writer: Callable[[Position, Play], str] | None, geometry: Geometry) -> None:
        self.rules = rules
        self.game = game
        self.geometry = geometry
        self.codes: list[int] | None = None
        self.orders: Any = None  # the compile cache's entry of the generators' orders, on first use
        self.start = rules.position() if rules.start is not None else None
        variant = getattr(rules, "variant", None)
        readable = isinstance(variant, Variant) and self.start is not None
        self.fen = fen_table(variant, game, geometry) if readable else None  # type: ignore[arg-type]
        self.kernel = kernel
        self.search = kernel.searcher(game.capsule)
        self.notation = notation
        self.writer = writer
        count = len(game.places) // 3
        self.ranks = array("i", [-1]) * count
        self.failed: set[tuple[int, int]] = set()
        self.groups: dict[tuple[int, int], list[int]] = {}
        places = game.places  # per move: kind, source, destination (the moves are found on use)
        for number in range(count):
            self.groups.setdefault((places[3 * number], places[3 * number + 1]), []).append(number)
        bases = array("i", [0])
        cached = notation in _CONTEXT_FREE and writer is not None
        for plays in game.fixed:
            bases.append(bases[-1] + (plays if cached else 0))
        self.bases = bases
        self.strings: list[str | None] = [None] * bases[-1]
        self.hands = array("i", [-1]) * len(game.kind_of)
        self.position = array("i", [0]) * (1 + game.squares + 2 * len(game.kind_of))
        self.made: Reader | bool | None = None  # the reader (False: none), made on first use

    def _group(self, number: int) -> tuple[int, int]:
        places = self.game.places
        return places[3 * number], places[3 * number + 1]

    def _square(self, cell: Cell | Hand) -> int:
        return -1 if cell is HAND else _INDEX[self.game.shape].get(cell, -1)  # type: ignore[arg-type]

    def _rank(self, number: int) -> bool:
        """Work out the ranks of the group of move ``number``; False where it has none."""
        move = self.game.move(self.rules, number)
        if move is None:
            return False
        key = self._group(number)
        if key in self.failed:
            return False
        order = self._order(move.piece, move.source, key[1])
        members = self.groups[key]
        if order is not None:
            place = {destination: rank for rank, destination in enumerate(order)}
            places = self.game.places  # per move: kind, source, destination
            ranks = [place.get(places[3 * member + 2], -1) for member in members]
            if -1 not in ranks:
                for member, rank in zip(members, ranks, strict=True):
                    self.ranks[member] = rank
                return True
        self.failed.add(key)
        return False

    def _order(self, piece: Qpi, source: Cell | Hand, square: int) -> list[int] | None:
        """The order of a generator's destinations (square numbers, -1 the hand): kept in the
        compile cache beside the generator's plan (made by the same code from the same plan),
        else worked out from its code (:func:`emission_order`)."""
        from ggn import cache  # noqa: PLC0415
        from ggn.compiled import _cache_key  # noqa: PLC0415

        geometry = self.geometry
        compiled = self.rules.ruleset._compiled_for(geometry.shape, geometry)
        saved = self.orders
        if saved is None:
            saved = self.orders = cache.Entries("orders", _cache_key(self.rules.ruleset, geometry))
        name = (str(piece), square, piece.side == "first")
        known = saved.get(name)
        if known is False:
            return None
        if type(known) is tuple:
            return list(known)
        if source is HAND:
            function = compiled._hand_generator(piece, piece.side)
        else:
            with compiled._lock:
                function = compiled._generator(piece, source, square, piece.side)
        order = emission_order(function)
        found = None if order is None else [self._square(destination) for destination in order]
        saved.put(name, False if found is None else tuple(found))
        return found

    def _ordered(self, position: Position) -> list[Any] | None:
        """The kernel's answer for ``position``: the plays written (a list of str), the plays
        in order (a list of (move, play) pairs, to be written here), or None (the pure path)."""
        game = self.game
        encoded = _encode(game, position)
        if encoded is None:
            return None
        hands = self.hands
        for number in range(len(hands)):
            hands[number] = -1
        kind_of = game.kind_of
        for place, piece in enumerate(position._hands[0 if position.active == "first" else 1]):
            kind = kind_of.get(code_of(piece))
            if kind is not None:
                hands[kind] = place
        while True:
            got = self.kernel.listed(self.search, encoded, hands, self.ranks, self.bases, self.strings)
            if type(got) is list:
                return got
            if type(got) is int:
                if not self._rank(got):
                    return None
                continue
            raw = array("i")
            raw.frombytes(got)
            return list(zip(raw[0::2], raw[1::2], strict=True))

    def reader(self) -> Reader | None:
        """The kernel's reader of lines of FEN (:class:`Reader`, made once): a line's plays
        written in the lister's notation, read, listed and written in C (``lines.c``), or None
        where the Python reader and writer must (a line the C reader is not sure of, a
        generator without a rank); None for a game whose FEN the C reader does not read."""
        made = self.made
        if made is None:
            made = self.made = self._reader() or False
        return None if isinstance(made, bool) else made

    def _reader(self) -> Reader | None:
        table = self.fen
        make = getattr(self.kernel, "reader", None)
        if table is None or make is None:
            return None
        rank, missing = self._rank, self._missing
        listed: Callable[[str], Any] | None = None

        def resolve(text: str, got: Any) -> list[str] | None:
            # A move whose group has no rank yet, or a play whose string is not known yet.
            assert listed is not None
            while type(got) is int and rank(got):
                got = listed(text)
            if type(got) is bytes:
                return missing(got)
            return got if type(got) is list else None

        made: Reader = make(self.search, table, self.ranks, self.bases, self.strings, self.position,
                            self.hands, resolve)
        listed = made.listed
        return made

    def _missing(self, pairs: bytes) -> list[str] | None:
        """The plays of the position the C reader read last (in ``self.position``), ordered
        as ``pairs`` names them, written by the pure writer (a string not known yet): the
        position made from the kernel's, as the Python reader makes it (tests hold the two
        readers to the same positions)."""
        game, encoded = self.game, self.position
        codes = self.codes
        if codes is None:
            codes = self.codes = [0] * len(game.kind_of)
            for code, kind in game.kind_of.items():
                codes[kind] = code
        squares = game.squares
        count = len(codes)
        board = [codes[kind] for kind in encoded[1:1 + squares]]
        held: tuple[dict[Qpi, int], dict[Qpi, int]] = ({}, {})
        for side in (0, 1):
            base = 1 + squares + side * count
            # (the hand's order as FEEN's: a drop's place is the kernel's already)
            for kind in range(1, count):
                if encoded[base + kind]:
                    held[side][piece_of(codes[kind])] = encoded[base + kind]
        start = self.start
        if start is None:
            return None
        active: Side = "second" if encoded[0] else "first"
        position = Position._make(self.geometry, board, held, active, start.styles)
        raw = array("i")
        raw.frombytes(pairs)
        found = list(zip(raw[0::2], raw[1::2], strict=True))
        return self.write(position, found)

    def write(self, position: Position, found: list[tuple[int, int]]) -> list[str] | None:
        """The plays ``found`` (move, play) of ``position`` written: those known already as
        they are, the others by the pure writer (and kept, where the move's play numbers are
        fixed, for the lines to come)."""
        writer = self.writer
        assert writer is not None
        bases, fixed, strings = self.bases, self.game.fixed, self.strings
        texts: list[str | None] = []
        wanted: list[tuple[int, int]] = []
        for number, ordinal in found:
            text = strings[bases[number] + ordinal] if ordinal < fixed[number] and \
                bases[number] + ordinal < bases[number + 1] else None
            texts.append(text)
            if text is None:
                wanted.append((number, ordinal))
        plays = _plays(self.rules, self.game, position, wanted)
        if plays is None:
            return None
        made = iter(plays)
        for place, (number, ordinal) in enumerate(found):
            if texts[place] is None:
                text = texts[place] = writer(position, next(made))
                if ordinal < fixed[number] and bases[number] + ordinal < bases[number + 1]:
                    strings[bases[number] + ordinal] = text
        return texts  # type: ignore[return-value]

    def plays(self, position: Position) -> list[Play] | None:
        """The legal plays of ``position`` as the pure path lists them, or None."""
        found = self._ordered(position)
        if found is None:
            return None
        if found and type(found[0]) is str:  # a lister that writes its notation: not asked so
            return None
        try:
            return _plays(self.rules, self.game, position, found)
        except RecursionError:
            return None

    def written(self, position: Position) -> list[str] | None:
        """The legal plays of ``position`` written in the lister's notation, or None."""
        found = self._ordered(position)
        if found is None or not found or type(found[0]) is str:
            return found
        return self.write(position, found)


# The FEN reader's table (GFN1), int32 values: magic, files, ranks, N squares, K kinds, flags (1
# drops, 2 castling, 4 chess960), the first side's castling rank, the king's file, the rooks'
# files (kingside, queenside; -1: the last file); each square's number by rank then file; per
# FEN letter a..z, side (white, black) and state (none, '+', '-'): the kind (0: none); per letter:
# the letter of the type it reads as (a synonym's; -1: no piece); per type letter: flags (1 it has
# a '+' form, 2 it takes '~', 4 a double step's '-', 8 a castling rook, 16 its double step may be
# crossed, 32 the castling king); per kind: its place in FEEN's hand order, its count aside.
_FEN_MAGIC: Final = 0x47464E31


def fen_table(variant: Variant, game: _Game, geometry: Geometry) -> array[int] | None:
    """The C FEN reader's table of ``variant`` for the kernel's ``game`` (see above), or None
    where the reader does not read the game's FEN (holes, walls, gating, cambodian's gates,
    checks counted, more than 26 files: the Python reader does)."""
    from ggn.feen import _hand_key  # noqa: PLC0415
    from ggn.variants import fen  # noqa: PLC0415

    if (variant.holes or variant.walls is not None or variant.gating or variant.cambodian_moves
            or variant.history.check_counting or len(geometry.shape) != 2 or variant.files > 26
            or geometry.shape != (variant.files, variant.ranks)):
        return None
    table = fen._table(variant)
    castling = variant.castling
    flags = (1 if variant.drops is not None else 0) | (2 if castling is not None else 0) | (
        4 if variant.chess960 else 0)
    head = [_FEN_MAGIC, variant.files, variant.ranks, game.squares, len(game.kind_of), flags]
    if castling is not None:
        head += [castling.rank, castling.king_file,
                 -1 if castling.rook_files[0] is None else castling.rook_files[0],
                 -1 if castling.rook_files[1] is None else castling.rook_files[1]]
    else:
        head += [0, 0, -1, -1]
    head.append(0)  # (reserved)
    index = geometry.index
    squares = [index[Cell((file, rank))] for rank in range(variant.ranks) for file in range(variant.files)]
    letters = "abcdefghijklmnopqrstuvwxyz"
    kinds: list[int] = []
    types: list[int] = []
    marks: list[int] = []
    for letter in letters:
        piece_type = table.types.get(letter)
        types.append(-1 if piece_type is None else letters.index(piece_type.letter.lower()))
        for side in ("first", "second"):
            for state in ("normal", "enhanced", "diminished"):
                if piece_type is None or piece_type.letter.lower() != letter:
                    kinds.append(0)
                    continue
                code = code_of(fen._qpi(table, letter, side, state))
                kinds.append(game.kind_of.get(code, 0))
        marks.append((1 if letter in table.promoted else 0) | (2 if letter in table.tilde else 0)
                     | (4 if letter in table.double_step else 0)
                     | (8 if castling is not None and letter in castling.rooks else 0)
                     | (16 if letter in table.crossed else 0)
                     | (32 if castling is not None and letter == castling.king else 0))
    keys = sorted(game.kind_of.items(), key=lambda item: _hand_key(Epin.from_qpi(piece_of(item[0])), 0)
                  if item[0] else (0, "", False, 0, False, False))
    ranks = [0] * len(game.kind_of)
    for place, (_, kind) in enumerate(keys):
        ranks[kind] = place
    return array("i", head + squares + kinds + types + marks + ranks)


_INDEX: dict[tuple[int, ...], dict[Cell, int]] = {}
_LISTERS: weakref.WeakKeyDictionary[_Game, dict[str | None, Lister]] = weakref.WeakKeyDictionary()


def lister(rules: RuleSystem, position: Position, notation: str | None,
           writer: Callable[[Position, Play], str] | None) -> Lister | None:
    """The lister of ``rules``' game on ``position``'s board for ``notation`` (kept with the
    kernel's game), or None where the kernel does not play it."""
    if _kernel() is None:
        return None
    game = _game(rules, position)
    if game is None or game.walls:  # a walled play's number holds its wall: the pure path lists those
        return None
    kept = _LISTERS.setdefault(game, {})
    made = kept.get(notation)
    if made is None:
        _INDEX.setdefault(game.shape, dict(position._geometry.index))
        kernel = _STATE.kernel
        assert kernel is not None
        made = kept[notation] = Lister(rules, game, kernel, notation, writer=writer,
                                          geometry=position._geometry)
    return made
