"""The native kernel's side in Python: flat tables from a rule system, and the switch.

The C kernel (``ggn._native``, built from ``src/ggn/_native``) plays a game from flat integer
tables made here from what the rule system already has: the document's moves with their
conditions, and the effects :class:`~ggn.rules.variant.VariantRules` gives them (promotions,
castling and its rights, double steps and en passant, captures to hand with demotion and
side change, drops, the pawn-drop mate). It owns whole searches: perft (and divide), counting
and listing the legal plays of a position. What it cannot express falls back to the pure
path, for the whole game, with a reason (:func:`native_support`); the pure path is the
reference the kernel is tested against (tests/test_native.py).

The kernel is loaded on first use, never by ``import ggn``. It is off when the environment
says ``GGN_PURE=1``, or after :func:`use_native` ``(False)``.

The tables (int32 values; the kernel checks every one again as it reads them)::

    magic 0x474B4E31, N squares, K kinds (0 the empty square), M moves, flags (1: hands count),
    the total possibilities, conditions and extra values of the moves
    per kind 0..K-1: side, terminal, unmarked kind (a '-' mark cleared by any move: itself if
        none), plain kind of a rook with a castling right (0 none), plain kind of a castling
        king (0 none), whether a drop of it may not mate, the promotion-limited type it counts as
        (0 none, else numbered from 1)
    with flags & 1, K*K: per (taken, mover), the kind the capture puts in the mover's hand (0 none)
    per side: castling king kind (0 none), homes (count, squares), castling rank (count, squares)
    the promotion limits: count, then the limit of each limited type
    per move (sorted by kind, then source; -1 a drop): kind, source, destination, type (0 plain
        or promotion or drop, 1 a castling king's move, 2 a castling rook's move), the kind it
        leaves by a plain move, plays (count, kinds), en passant victims (count, square+kind),
        a castling king's plain play (0/1), rooks (count, rook square+square beside), squares
        to be safe (count, squares), shielded (0/1), how many of its first plays no promotion
        limit applies to, possibilities (count, each: must (count,
        square+state), deny (count, square+state)); a state: -1 empty, -2 enemy, a kind.
        (type 3: a pass, janggi's royal piece onto its own square, which changes nothing; type
        4: sittuyin's promotion, section SITT.)
    then sections, to the end: (tag, length, values), each a feature's own, at most one of a tag:
    WALL (0x57414C4C), a game whose moves place walls: the wall's kind, the walling rule (1
        static, 2 past, 3 edge, 4 arrow, 5 duck), one step forward of each side (a difference
        of squares), per square its flags (1: the first player may wall it, 2: the second, 4:
        beside an edge or a hole), per square its four orthogonal neighbours (-1 none), then
        the arrows' groups (count, each: kind, square, paths (count, each: target, squares to
        be empty (count, squares), squares to hold a piece (count, squares))), sorted by kind
        and square. A play number is then the move's play number times N plus its wall's square.
    CANN (0x43414E4E), janggi's cannons: per kind whether it is one, then for each move of one,
        by move number: the move, the squares strictly between its source and destination
        (count, squares, nearest the source first). A cannon neither takes a cannon nor hops
        over one (the first piece between), in its moves and in the attack tests.
    LEAP (0x4C454150), cambodian chess's first moves: per side the kind of its king with its
        leap and that king's plain kind (0, 0: none), per square its file and rank, per move its
        flags (1: the king's leap, not made out of check; 2: a rook's move, which takes the
        other king's leap where it ends on that king's file or rank).
    GATE (0x47415445), seirawan's gating: whether captures go to hand, per side the pieces that
        may enter (count, each: kind, squares (count, squares)), the rank whose gating rights an
        emptied hand takes (count, squares), the castling king's home (-1 none) and the rook
        homes (count, squares); per kind the plain kind of a piece holding a gating right (0
        none); per move whether its piece holds one. A gating game's hands are always counted.
    BLST (0x424C5354), explosions and mutually immune types: whether captures explode, per kind
        its flags (1 immune to explosions, 2 spared by them unless it captures: a pawn, 4 may not
        take its own type) and its type (numbered from 1), per square the squares around it
        (count, squares, in the rule system's order).
    BIKJ (0x42494B4A), janggi's bikjang: files, ranks, per square its file and rank, per kind
        whether it is royal. While the royal pieces face each other (the first of each side, on
        a file or rank with nothing between), a play must end that, and the pass is legal even
        in check (listed last, where no pass was legal).
    ENDS (0x454E4453), the game's ends and legality rules beyond the terminal pieces' (without it:
        none, and castling tested): flags (1 extinction, 2 flag regions, 4 captures forced, 8
        pseudo-royal pieces, 16 duple check, 32 no move may give check, 64 no drop may give check,
        128 flag move, 256 flag piece safe, 512 flag blocked win, 1024 the royal type is a flag
        piece, 2048 drops forced, 4096 atomic's legality: with explosions, the mover's
        pseudo-royal pieces must all stand after a play, which is legal if one of the other side's
        is gone, else none of the mover's may be attacked unless beside one of the other side's; a
        castling king's squares to be safe are then its source and those it crosses, tested so on
        the board before the play with its source emptied), castling's safety test (0 none, 1
        always, 2 where the king is pseudo-royal), extinction types L, extinction count, opponent
        count, claim (0/1), the extinction's result for the side that lost its pieces (-1 a loss,
        0 a draw, 1 a win), flag count, per side the flag region (count, squares), the
        pseudo-royal limit (a type's pieces are royal while a side has at most this many), the
        no-doubled count (0 none; else the file of each square follows, -1 none: a drop of a
        no-doubled kind is refused where its file holds that many of its kind), per kind: the
        extinction types it counts as (a bit each, of L), its flags (1 a flag piece, 2 of the
        royal type, 4 a makpong king: in check it moves only to take its one checker, 8 no doubled
        drops, 16 its drops forced), its pseudo-royal group (0 none, else 1..L); then the moves
        promoted only by a capture (count, each: move number, 1 its last play only when it takes,
        or 3 that and its first play only when it does not), by move number.
    DRPS (0x44525053), placement's drop rules: per side the kind of its bishops dropped on both
        colours (0 none: Fairy-Stockfish's dropOppositeColoredBishop), per square its colour (0,
        1; -1 none), per side its drop region (count, squares); per side the castling home of
        its king (-1 none), the corners of its castling rank (count, squares) and its castling
        king's kind (castlingDroppedPiece); per kind its castling drop (0 none, 1 the plain
        king, 2 a plain rook) and the kind it becomes with its right. A bishop may not be
        dropped on a colour holding half its side's bishops (on the board and in hand, rounded
        up), another piece not where the bishops still to come would lack room; a king dropped
        on its home with a rook in a corner takes its right and the rooks' (plain rooks there
        take theirs), a rook dropped in a corner with the king at home takes its right and the
        king's.
    PTRF (0x50545246), petrified's walls: the wall's kind, per kind its flags (1 of a petrifying
        type: a capture of one leaving one on its destination leaves a wall there, 2 stands as
        a wall where a move's legality asks whether the other side's pseudo-royal pieces can be
        taken). A pseudo-royal piece may not turn into a wall.
    SITT (0x53495454), sittuyin's promotions, moves of type 4 (the pawn replaced by the new
        piece where it stands or a step away; their conditions are the move's): per square its
        promotion zones (1 the first player's, 2 the second's), per kind whether it is a pawn
        that promotes so. Only a pawn in its zone while its side has more than one pawn; the
        promotion's limit applies; such a play may not give check.
"""

from __future__ import annotations

import marshal
import os
import sys
import threading
import weakref
from array import array
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Final

from ggn._types import expect
from ggn.cell import HAND, Cell, Hand
from ggn.errors import GGNError
from ggn.lcn import EMPTY, ENEMY
from ggn.move import Move
from ggn.position import Geometry, Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules._records import SPECIAL, Effect, Play, PlayContext, made_play
from ggn.rules._system import RuleSystem
from ggn.rules._walk import describe
from ggn.variants.description import Variant
from ggn.variants.document import castling_rank

if TYPE_CHECKING:
    from ggn.game import Game
    from ggn.rules._cplayout import _Games
    from ggn.rules.variant import VariantRules
    from ggn.ruleset import Possibility

__all__ = ["engine", "native_available", "native_support", "use_native"]

MAGIC: Final = 0x474B4E31
ABI: Final = 5
MAX_SQUARES: Final = 4096
MAX_KINDS: Final = 4096
SECTION_WALLS: Final = 0x57414C4C  # "WALL"
SECTION_CANNONS: Final = 0x43414E4E  # "CANN"
SECTION_BIKJANG: Final = 0x42494B4A  # "BIKJ"
SECTION_LEAPS: Final = 0x4C454150  # "LEAP"
SECTION_GATING: Final = 0x47415445  # "GATE"
SECTION_BLAST: Final = 0x424C5354  # "BLST"
SECTION_ENDS: Final = 0x454E4453  # "ENDS"
SECTION_DROPS: Final = 0x44525053  # "DRPS"
SECTION_PETRIFY: Final = 0x50545246  # "PTRF"
SECTION_SITTUYIN: Final = 0x53495454  # "SITT"
_MAX_LETTERS: Final = 30  # extinction types the kernel counts (a bit each)
_WALLING: Final = {"static": 1, "past": 2, "edge": 3, "arrow": 4, "duck": 5}


class _State:
    enabled = True
    kernel: ModuleType | None = None
    tried = False
    why = ""


_STATE = _State()
_LOCK = threading.Lock()


class use_native:  # noqa: N801  (used as a function: ggn.rules.use_native(False))
    """Turn the native kernel on or off for this process (it is on by default, where it is
    built and ``GGN_PURE`` is not set): ``use_native(False)`` forces the pure-Python path.
    Used in a ``with`` statement, the previous setting comes back at its end."""

    __slots__ = ("_before",)

    def __init__(self, enabled: bool) -> None:
        expect(enabled, bool, "enabled", "a bool")
        self._before = _STATE.enabled
        _STATE.enabled = enabled

    def __enter__(self) -> use_native:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        _STATE.enabled = self._before


def _kernel() -> ModuleType | None:
    """The kernel module if it may run now (built, of our tables' layout, and switched on)."""
    if not _STATE.enabled or os.environ.get("GGN_PURE", "") not in ("", "0"):
        return None
    if not _STATE.tried:
        with _LOCK:
            if not _STATE.tried:
                try:
                    import ggn._native as kernel  # noqa: PLC0415  (loaded on first use)
                except ImportError as error:
                    _STATE.why = f"the C kernel is not built ({error})"
                else:
                    # Where nothing was compiled, the folder of the C sources (ggn/_native)
                    # imports as a namespace package: no kernel either.
                    version = getattr(kernel, "abi_version", None)
                    abi = version() if callable(version) else None
                    if abi is None:
                        _STATE.why = "the C kernel is not built (ggn/_native holds its C sources only)"
                    elif abi == ABI and hasattr(kernel, "perft"):
                        _STATE.kernel = kernel
                    else:
                        _STATE.why = f"the C kernel's tables layout {abi} is not {ABI}"
                _STATE.tried = True
    return _STATE.kernel


def native_available() -> bool:
    """Whether the native kernel runs in this process: built, and not switched off
    (``GGN_PURE=1`` or :func:`use_native` ``(False)``)."""
    return _kernel() is not None


# --- what the kernel cannot express: the reason, per game -----------------------------------
def _refusal(rules: RuleSystem) -> str:
    """Why the kernel cannot play ``rules``' game ("" if it can)."""
    from ggn.rules.variant import VariantRules, _Bikjang  # noqa: PLC0415

    if type(rules) is RuleSystem:
        return "" if not rules._ends and not rules._own_walk else "a rule system with rules of its own"
    if not isinstance(rules, VariantRules) or type(rules) not in (VariantRules, _Bikjang):
        return f"the rule system {type(rules).__name__} walks positions its own way"
    return _variant_refusal(rules)  # (_Bikjang's walk is the kernel's too)


def _variant_refusal(rules: VariantRules) -> str:
    variant = rules.variant
    checks: list[tuple[bool, str]] = [
        (variant.walling is not None and variant.drops is not None,
         "walls with drops"),
        (variant.blast_on_capture and rules._pseudo and _arrives(variant, rules._pseudo_kinds),
         _ARRIVING),
        (rules._connects, "connectN"),
        (rules._ends and not (rules._extinction or rules._flags_on), "an end before the last move"),
        (len(variant.ends.extinction_types) > _MAX_LETTERS, f"over {_MAX_LETTERS} extinction types"),
        (bool(rules._petrify) and variant.blast_on_capture, "petrifyOnCapture with blastOnCapture"),
    ]
    castling = variant.castling
    if castling is not None and castling.king in rules.layout.types:
        checks.append((castling.opposite, "oppositeCastling"))
    for refused, reason in checks:
        if refused:
            return reason
    return ""


_ARRIVING: Final = "blastOnCapture with extinctionPseudoRoyal pieces dropped or promoted to"


def _arrives(variant: Variant, kinds: frozenset[str]) -> bool:
    """Whether a piece of the pseudo-royal types ``kinds`` may come onto the board by a drop or a
    promotion (the rule system's _blast_legal then counts it among the mover's: not the kernel's)."""
    promotion = variant.promotion
    if variant.drops is not None:
        return True
    if promotion is None:
        return False
    letters = {letter for choices in promotion.choices for letter in choices}
    letters |= {letter for pair in promotion.promoted for letter in pair}
    return bool(letters & kinds)


def description_refusal(variant: Variant) -> str:
    """Why the kernel cannot play ``variant`` ("" if it can), from its description alone (the
    answer :func:`native_support` gives from its rule system, without building it: the
    differential tests hold the two to the same answer)."""
    ends, castling = variant.ends, variant.castling
    letters = {piece.letter for piece in variant.pieces}
    pseudo = ends.extinction_pseudo_royal and bool(ends.extinction_types - {"*"})
    checks: list[tuple[bool, str]] = [
        (variant.walling is not None and variant.drops is not None,
         "walls with drops"),
        (variant.blast_on_capture and pseudo and _arrives(variant, ends.extinction_types & letters),
         _ARRIVING),
        (ends.connect_n > 0 or ends.collinear_n > 0 or ends.connect_square > 0, "connectN"),
        (len(ends.extinction_types) > _MAX_LETTERS, f"over {_MAX_LETTERS} extinction types"),
        (variant.walls is not None and bool(variant.walls.petrify & letters) and variant.blast_on_capture,
         "petrifyOnCapture with blastOnCapture"),
    ]
    if castling is not None and castling.king in letters:
        checks.append((castling.opposite, "oppositeCastling"))
    checks.append((variant.files * variant.ranks > MAX_SQUARES, f"a board of over {MAX_SQUARES} squares"))
    for refused, reason in checks:
        if refused:
            return reason
    return ""


def engine(variant: Variant) -> tuple[str, str]:
    """Which engine plays ``variant`` in this process: ``("native", "")``, or ``("pure", why)``
    (the kernel is not built or is switched off, or the game has a rule it cannot express)."""
    expect(variant, Variant, "variant", "a Variant")
    if _kernel() is None:
        if not _STATE.enabled:
            return "pure", "the kernel is switched off (use_native(False))"
        if os.environ.get("GGN_PURE", "") not in ("", "0"):
            return "pure", "GGN_PURE is set"
        return "pure", _STATE.why or "the C kernel is not built"
    reason = description_refusal(variant)
    return ("pure", reason) if reason else ("native", "")


def playout_engine(variant: Variant) -> tuple[str, str]:
    """Which engine plays ``variant``'s playouts in this process (:func:`ggn.rules.playout`):
    ``("native", "")``, or ``("pure", why)``: where :func:`engine` says the pure path, for the
    same reason, and where the kernel plays the game but its playout cannot end the game's
    games as :class:`ggn.game.Game` does (xiangqi's chasing, shatar's mate...)."""
    used, why = engine(variant)
    if used != "native":
        return used, why
    from ggn.rules._cplayout import description_playout_refusal  # noqa: PLC0415

    reason = description_playout_refusal(variant)
    return ("pure", reason) if reason else ("native", "")


# --- the tables -----------------------------------------------------------------------------
class _Game:
    """A game as the kernel reads it, with what maps its answers back to plays: each move's
    kind, source (-1: the hand) and destination (``places``) and the piece of each kind
    (``pieces``), from which a move named by number is found in the document when an answer
    is decoded (tables read from the compile cache bring no ``Move``: a perft needs none)."""

    __slots__ = ("__weakref__", "_moves", "capsule", "counted_hands", "fixed", "hands", "kind_of", "pieces",
                 "places", "shape", "squares", "walls")

    def __init__(self, capsule: object, kind_of: dict[int, int], pieces: tuple[Qpi | None, ...],
                 places: array[int], *, hands: bool, squares: int, shape: tuple[int, ...],
                 walls: bool = False, fixed: list[int] | None = None,
                 moves: list[Move] | None = None, counted_hands: bool = False) -> None:
        self.capsule = capsule
        # The hands are not tracked (no drops), but an extinction counts a side's own pieces in
        # its hand: a position with one there is the pure path's.
        self.counted_hands = counted_hands
        self.walls = walls  # a play number is then the play's times the squares plus its wall's square
        # Per move: how many plays it has, each always under the same play number (0 where the
        # numbers depend on the position: a castling with several rooks, a limited promotion).
        self.fixed = fixed if fixed is not None else [0] * (len(places) // 3)
        self.kind_of = kind_of
        self.pieces = pieces  # by kind (None: the empty square)
        self.places = places  # per move: kind, source, destination
        self.hands = hands
        self.squares = squares
        self.shape = shape  # the board's shape the tables were made for
        self._moves: dict[int, Move] = dict(enumerate(moves)) if moves is not None else {}

    def move(self, rules: RuleSystem, number: int) -> Move | None:
        """The move numbered ``number`` in the tables, from ``rules``' document (None: not
        there, which a cache entry of these rules cannot give: the caller falls back)."""
        found = self._moves.get(number)
        if found is not None:
            return found
        places = self.places
        if not 0 <= number < len(places) // 3:
            return None
        kind, src, dst = places[3 * number], places[3 * number + 1], places[3 * number + 2]
        piece = self.pieces[kind] if 0 < kind < len(self.pieces) else None
        cells = Geometry(self.shape).cells
        if piece is None or not (-1 <= src < self.squares and 0 <= dst < self.squares):
            return None
        source: Cell | Hand = HAND if src < 0 else cells[src]
        destination = cells[dst]
        try:
            possibilities = rules.ruleset[piece][source][destination]
        except (KeyError, TypeError):
            return None
        found = self._moves[number] = Move(piece, source, destination, possibilities)
        return found


_Record = tuple[int, int, int, Move, list[list[int]]]  # a move: kind, source, destination, move, terms


class _Refused(Exception):  # noqa: N818  (control flow: the reason a game falls back)
    pass


class _Builder:
    """The flat tables of one rule system (see the module's doc for their layout)."""

    def __init__(self, rules: RuleSystem, start: Position) -> None:
        """The tables of ``rules`` on the board of ``start`` (a game's start, or the position
        asked about: a GGN document's rule system has no start, and any board shape)."""
        self.rules = rules
        self.tables = rules._tables_for(start)
        self.geometry = start._geometry
        if self.geometry.size > MAX_SQUARES:
            raise _Refused(f"a board of over {MAX_SQUARES} squares")
        self.codes: list[int] = [0]
        self.kind_of: dict[int, int] = {0: 0}
        self.variant_rules = _variant(rules)
        from ggn.rules import variant  # noqa: PLC0415  (its flags)

        self.flags = variant
        # Squares by the id of their Cell (a document's cells are few objects, each read many
        # times: Cell's own hash and equality are Python code); the document keeps them alive.
        self.cells: dict[int, int | None] = {}
        self.groups: dict[str, int] = {}  # promotion-limited types, numbered from 1
        self.on_capture: list[int] = []  # per move (in the tables' order) its promotion by capture

    def square(self, cell: object) -> int | None:
        known = self.cells.get(id(cell), -1)
        if known == -1:
            known = self.cells[id(cell)] = self.geometry.index.get(cell)  # type: ignore[call-overload]
        return known

    def kind(self, code: int) -> int:
        kind = self.kind_of.get(code)
        if kind is None:
            kind = self.kind_of[code] = len(self.codes)
            self.codes.append(code)
            if kind >= MAX_KINDS:
                raise _Refused(f"over {MAX_KINDS} kinds of pieces")
        return kind

    def castles(self, code: int) -> bool:
        """Whether ``code`` is a castling king with its right (its castling may leave it where
        it stands, in chess960)."""
        variant_rules = self.variant_rules
        return variant_rules is not None and bool(variant_rules._flags.get(code, 0) & self.flags._CASTLES)

    def passes(self, code: int) -> bool:
        """Whether a move of ``code`` onto its own square is a pass (janggi's royal piece)."""
        r = self.variant_rules
        return r is not None and r._passing and code in r._royal_codes

    def state(self, value: object) -> int:
        if value == EMPTY:
            return -1
        if value == ENEMY:
            return -2
        assert isinstance(value, Qpi)
        return self.kind(code_of(value))

    def terms(self, possibility: Possibility) -> list[int] | None:
        """A possibility's conditions as the tables hold them (None: a ``must`` on a square the
        board lacks, so it never holds)."""
        must: list[int] = []
        for cell, value in possibility.must.items():
            square = self.square(cell)
            if square is None:
                return None
            must += [square, self.state(value)]
        deny: list[int] = []
        for cell, value in possibility.deny.items():
            square = self.square(cell)
            if square is not None:
                deny += [square, self.state(value)]
        return [len(must) // 2, *must, len(deny) // 2, *deny]

    def build(self) -> tuple[array[int], list[Move], bool]:
        rules = self.rules
        # The encoded conditions of each possibility, by its identity: a document shares its
        # possibilities among pieces and squares (shogi's 44,922 are 3,442 objects). Each is
        # held with its terms, so that no identity is reused while the tables are made.
        encoded: dict[int, tuple[Possibility, list[int] | None]] = {}
        records: list[tuple[int, int, int, Move, list[list[int]]]] = []
        has_drops = False
        for piece, sources in rules.ruleset.items():
            code = code_of(piece)
            kind = self.kind(code)
            for source, destinations in sources.items():
                if source is HAND:
                    src = -1
                else:
                    found = self.square(source)
                    if found is None:
                        continue
                    src = found
                for destination, possibilities in destinations.items():
                    if destination is HAND:
                        raise _Refused("moves into the hand")
                    dst = self.square(destination)
                    if dst is None:
                        continue
                    if dst == src and not self.castles(code) and not self.passes(code):
                        raise _Refused("moves onto their own square (passes)")
                    if src < 0 and not self.dropped(code, dst):
                        continue
                    kept = []
                    for possibility in possibilities:
                        held = encoded.get(id(possibility))
                        if held is None:
                            held = encoded[id(possibility)] = (possibility, self.terms(possibility))
                        terms = held[1]
                        if terms is not None:
                            kept.append(terms)
                    if not kept:
                        continue
                    has_drops = has_drops or src < 0
                    move = Move(piece, source, destination, possibilities)
                    records.append((kind, src, dst, move, kept))
        records += self.promotions()
        records.sort(key=lambda record: (record[0], record[1]))
        if self.variant_rules is not None and self.variant_rules._gating:
            has_drops = True  # gating takes its pieces from the hands
        made = [self.effects(record[3], record[1], record[2]) for record in records]
        effects = [effect[:9] for effect in made]
        # Per move its promotion by capture (the ENDS section), whose plays the position decides.
        self.on_capture = [effect[9] for effect in made]
        self.fixed = [0 if on_capture else self.fixed_plays(effect)
                      for effect, on_capture in zip(effects, self.on_capture, strict=True)]
        castling = self.castling()
        body: list[int] = []
        total = conditions = extra = 0
        for (kind, src, dst, _, kept), effect in zip(records, effects, strict=True):
            mtype, becomes, placed, victims, plain, rooks, safe, shielded, stays = effect
            body += [kind, src, dst, mtype, becomes, len(placed), *placed, len(victims) // 2, *victims,
                     plain, len(rooks) // 2, *rooks, len(safe), *safe, shielded, stays, len(kept)]
            extra += len(placed) + len(victims) + len(rooks) + len(safe)
            for terms in kept:
                body += terms
                total += 1
                conditions += (len(terms) - 2) // 2
        # Kinds (and the capture map, and the sections, which may hold a value per kind) last:
        # the moves' effects and the sections may have named new ones.
        while True:
            known = len(self.codes)
            sections = self.sections(records, has_drops)
            kinds = self.kinds()
            capmap = self.capmap() if has_drops else []
            if len(self.codes) == known:
                break
        header = [MAGIC, self.geometry.size, len(self.codes), len(records), 1 if has_drops else 0,
                  total, conditions, extra]
        try:  # every value an int of 32 bits (the kernel checks their meaning as it reads them)
            values = array("i", header)
            for part in (kinds, capmap, castling, self.limits(), body, sections):
                values.extend(part)
        except (OverflowError, TypeError) as error:
            raise _Refused(f"a table value out of the int32 range ({error})") from None
        self.places = array("i", [value for record in records for value in record[:3]])
        return values, [record[3] for record in records], has_drops

    def sections(self, records: list[_Record], has_drops: bool) -> list[int]:
        """The sections of the features the game has, after the moves (see the module's doc)."""
        found: list[int] = []
        for tag, section in ((SECTION_WALLS, self.walls(records, has_drops)),
                             (SECTION_CANNONS, self.cannons(records)),
                             (SECTION_BIKJANG, self.bikjang()),
                             (SECTION_LEAPS, self.leaps(records)),
                             (SECTION_GATING, self.gating(records)),
                             (SECTION_BLAST, self.blast()),
                             (SECTION_ENDS, self.ends()),
                             (SECTION_DROPS, self.drop_rules()),
                             (SECTION_PETRIFY, self.petrify()),
                             (SECTION_SITTUYIN, self.sittuyin())):
            if section:
                found += [tag, len(section), *section]
        return found

    def walls(self, records: list[_Record], has_drops: bool) -> list[int]:
        """The WALL section (see the module's doc), or none: the game places no walls."""
        r = self.variant_rules
        if r is None or r._walling is None:
            return []
        if has_drops:
            raise _Refused("walls with drops")
        size = self.geometry.size
        flags = [0] * size
        for side in (0, 1):
            region = r._wall_regions[side]
            for number in r._wall_squares:
                if region is None or number in region:
                    flags[number] |= 1 << side
        for number in r._edge | r._by_holes:
            flags[number] |= 4
        beside = [-1] * (4 * size)
        for number, others in r._beside.items():
            beside[4 * number:4 * number + len(others)] = others
        groups: list[int] = []
        count = 0
        if r._walling == "arrow":
            wanted = sorted({(kind, dst) for kind, src, dst, _, _ in records if src >= 0})
            for kind, dst in wanted:
                paths = r._arrow_paths(self.codes[kind], dst)
                groups += [kind, dst, len(paths)]
                for target, empty, full in paths:
                    groups += [target, len(empty), *empty, len(full), *full]
                count += 1
        rule = _WALLING[r._walling]
        return [self.kind(r._wall), rule, *r._forward, *flags, *beside, count, *groups]

    def fixed_plays(self, effect: tuple[int, int, list[int], list[int], int, list[int], list[int], int, int]
                    ) -> int:
        """How many plays a move has, each always under one play number (the kernel numbers
        the plays it finds in order, skipping a castling rook not there or a promotion past its
        limit); 0 where a position may skip one."""
        mtype, _, placed, victims, plain, rooks, _, _, stays = effect
        if mtype == 1:
            return plain + len(rooks) // 2 if len(rooks) <= 2 else 0
        if mtype == 2:
            return 1
        if victims:  # en passant: one play; onto a piece, the move's plays
            return 1 if len(placed) == 1 else 0
        variant_rules = self.variant_rules
        if variant_rules is not None and variant_rules._limits:
            for kind in placed[stays:]:
                if variant_rules._kind.get(self.codes[kind]) in variant_rules._limits:
                    return 0
        return len(placed)

    def cannons(self, records: list[_Record]) -> list[int]:
        """The CANN section (see the module's doc), or none: the game has no janggi cannons."""
        r = self.variant_rules
        if r is None or not r._cannon_codes:
            return []
        cannon = [self.kind(code) for code in sorted(r._cannon_codes)]
        entries: list[int] = []
        for number, (kind, src, dst, _, _) in enumerate(records):
            if kind in cannon and src >= 0:
                between = r._line(src, dst)
                entries += [number, len(between), *between]
        # The kinds last: every cannon's kind is known by now (each was named above).
        flags = [1 if self.codes[kind] in r._cannon_codes else 0 for kind in range(len(self.codes))]
        return [*flags, *entries]

    def leaps(self, records: list[_Record]) -> list[int]:
        """The LEAP section (see the module's doc), or none: no first-move leaps of cambodian
        chess (whose '+' marks the moves' own effects already clear: ``_becomes``)."""
        r = self.variant_rules
        if r is None or not r._leap_plain:
            return []
        kings: list[int] = []
        for side in (0, 1):
            king = r._leap_kings[side]
            kings += [self.kind(king), self.kind(r._leap_plain[king])] if king else [0, 0]
        cells: list[int] = []
        for number in range(self.geometry.size):
            file, rank = r._square.get(number, (self.geometry.size, self.geometry.size))
            cells += [file, rank]
        flags: list[int] = []
        for kind, src, dst, _, _ in records:
            code = self.codes[kind]
            flag = 0
            if src >= 0 and src != dst:
                if code in r._leap_kings and r._king_leap(src, dst):
                    flag |= 1
                if code in r._leap_rooks:
                    flag |= 2
            flags.append(flag)
        return [*kings, *cells, *flags]

    def gating(self, records: list[_Record]) -> list[int]:
        """The GATE section (see the module's doc), or none: no gating."""
        r = self.variant_rules
        if r is None or not r._gating:
            return []
        values = [1 if r._to_hand else 0]
        for side in (0, 1):
            pieces = r._gate_pieces[side]
            values.append(len(pieces))
            for _, code, squares in pieces:
                values += [self.kind(code), len(squares), *sorted(squares)]
            rank = r._gate_rank[side]
            home, rooks = r._castle_pairs[side]
            values += [len(rank), *rank, -1 if home is None else home, len(rooks), *rooks]
        for code in r._gated.values():
            self.kind(code)
        kinds = [self.kind(r._gated[code]) if code in r._gated else 0 for code in self.codes]
        flags = [1 if src >= 0 and r._flags.get(self.codes[kind], 0) & self.flags._GATES else 0
                 for kind, src, _, _, _ in records]
        return [*values, *kinds, *flags]

    def blast(self) -> list[int]:
        """The BLST section (see the module's doc), or none: no explosions, no mutually immune
        types."""
        r = self.variant_rules
        if r is None or not (r._blast or r._mutual):
            return []
        for code in (*r._blast_spared, *r._blast_immune, *r._mutual):
            self.kind(code)
        letters = sorted(set(r._kind.values()))
        kinds: list[int] = []
        for code in self.codes:
            flags = (1 if code in r._blast_immune else 0) | (2 if code in r._blast_spared else 0) | (
                4 if code in r._mutual else 0)
            letter = r._kind.get(code)
            kinds += [flags, 0 if letter is None else letters.index(letter) + 1]
        around: list[int] = []
        for number in range(self.geometry.size):
            ring = r._around.get(number, ()) if r._blast else ()
            around += [len(ring), *ring]
        return [1 if r._blast else 0, *kinds, *around]

    def drop_rules(self) -> list[int]:
        """The DRPS section (see the module's doc), or none: no bishops dropped on both colours,
        no castling rights given by drops."""
        r = self.variant_rules
        if r is None or (r._bishops is None and not r._castling_dropped):
            return []
        drops = r.variant.drops
        assert drops is not None
        size = self.geometry.size
        values = [self.kind(r._bishops[side]) if r._bishops is not None else 0 for side in (0, 1)]
        values += [(r._square[number][0] + r._square[number][1]) % 2 if number in r._square else -1
                   for number in range(size)]
        for side in (0, 1):
            region = drops.regions[side]
            squares = sorted(number for number, cell in r._square.items() if region is None or cell in region)
            values += [len(squares), *squares]
        castling = r.variant.castling
        for side in (0, 1):
            if not r._castling_dropped or castling is None:
                values += [-1, 0, 0]
                continue
            rank = castling_rank(r.layout, side)
            home = r._index.get((castling.king_file, rank))
            corners = [r._index[(edge, rank)] for edge in (0, r.variant.files - 1)
                       if (edge, rank) in r._index]
            values += [-1 if home is None else home, len(corners), *corners,
                       self.kind(r._castling_king[side])]
        kinds = [0, 0]
        for code in self.codes[1:]:
            side = 0 if code > 0 else 1
            right = r._castling_drops[side].get(code)
            if right is None:
                kinds += [0, 0]
                continue
            kinds += [1 if code == r._king[side] else 2, self.kind(right)]
        return [*values, *kinds]

    def dropped(self, code: int, dst: int) -> bool:
        """Whether a drop of ``code`` onto ``dst`` is in the tables: sittuyin's rooks
        (``sittuyinRookDrop``) only onto their first rank (the rule system's _drop_allowed)."""
        r = self.variant_rules
        if r is None or code not in r._first_rank_only:
            return True
        return r._square[dst][1] == (0 if code > 0 else r.variant.ranks - 1)

    def promotions(self) -> list[_Record]:
        """Sittuyin's promotions (the rule system's _extra_moves), moves the document does not
        list: each pawn on each square into each choice, where it stands or a step of the choice
        away (that square empty), no piece of the other side a step of the new piece away; the
        pawns that may and the promotion's limit are the kernel's (section SITT)."""
        r = self.variant_rules
        if r is None or not r._more_moves:
            return []
        found: list[_Record] = []
        for side in (0, 1):
            for code in sorted(r._sittuyin_pawns[side]):
                kind = self.kind(code)
                for number in sorted(r._square):
                    for choice, chosen, letter in r._choices[code]:
                        for target in (number, *r._steps[(letter, side, number)]):
                            must = [] if target == number else [target, -1]
                            deny = [value for step in r._steps[(letter, side, target)]
                                    for value in (step, -2)]
                            move = r._sittuyin_move(code, number, target, choice, chosen)
                            found.append((kind, number, target, move,
                                          [[len(must) // 2, *must, len(deny) // 2, *deny]]))
        return found

    def sittuyin(self) -> list[int]:
        """The SITT section (see the module's doc), or none: no sittuyin promotions."""
        r = self.variant_rules
        if r is None or not r._more_moves:
            return []
        zones = [(1 if number in r._zone[0] else 0) | (2 if number in r._zone[1] else 0)
                 for number in range(self.geometry.size)]
        pawns = r._sittuyin_pawns[0] | r._sittuyin_pawns[1]
        return [*zones, *(1 if code in pawns else 0 for code in self.codes)]

    def petrify(self) -> list[int]:
        """The PTRF section (see the module's doc), or none: no piece turns into a wall."""
        r = self.variant_rules
        if r is None or not r._petrify:
            return []
        if r._blast:
            raise _Refused("petrifyOnCapture with blastOnCapture")
        wall = self.kind(r._wall)
        guarded = r._unattacking[0] | r._unattacking[1]
        flags = [(1 if code in r._petrify else 0) | (2 if code in guarded else 0) for code in self.codes[1:]]
        return [wall, 0, *flags]

    def bikjang(self) -> list[int]:
        """The BIKJ section (see the module's doc), or none: the game has no bikjang."""
        r = self.variant_rules
        if r is None or not r.variant.bikjang:
            return []
        files, ranks = r.variant.files, r.variant.ranks
        cells: list[int] = []
        for number in range(self.geometry.size):
            file, rank = r._square.get(number, (-1, -1))
            if file < 0:
                raise _Refused("bikjang on a board with squares off its files and ranks")
            cells += [file, rank]
        royal = r._royal_sides[0] | r._royal_sides[1]
        for code in royal:
            self.kind(code)
        flags = [1 if self.codes[kind] in royal else 0 for kind in range(len(self.codes))]
        return [files, ranks, *cells, *flags]

    def kinds(self) -> list[int]:
        terminal = self.tables.terminal
        values = [0] * 7
        variant_rules = self.variant_rules
        number = 1
        while number < len(self.codes):
            code = self.codes[number]
            side = 0 if code > 0 else 1
            unmark = rook = king = mate = 0
            if variant_rules is not None:
                unmark = self.kind(variant_rules._dashed.get(code, code))
                plain_rook = variant_rules._rook_rights[side].get(code)
                rook = self.kind(plain_rook) if plain_rook is not None else 0
                if variant_rules.variant.castling is not None and code == variant_rules._castling_king[side] \
                        and code != variant_rules._king[side]:
                    king = self.kind(variant_rules._king[side])
                mate = 1 if code in variant_rules._drop_mate else 0
            else:
                unmark = number
            group = 0
            if variant_rules is not None:
                letter = variant_rules._kind.get(code)
                if letter in variant_rules._limits:
                    group = self.groups.setdefault(letter, len(self.groups) + 1)
            values += [side, 1 if code in terminal[side] else 0, unmark, rook, king, mate, group]
            number += 1
        return values

    def _letters(self) -> list[str]:
        """The extinction types, in the order their bits and groups are numbered."""
        r = self.variant_rules
        if r is None or not (r._extinction or r._pseudo):
            return []
        return sorted(r.variant.ends.extinction_types)

    def ends(self) -> list[int]:
        """The ENDS section (see the module's doc), or none: the game has no such rule."""
        r = self.variant_rules
        if r is None:  # no rule but the terminal pieces'
            return []
        ends = r.variant.ends
        drops = r.variant.drops
        flags = (1 if r._extinction else 0) | (2 if r._flags_on else 0) | (4 if r._capture_forced else 0) \
            | (8 if r._pseudo else 0) | (16 if r._duple else 0) | (32 if not r.variant.checking else 0) \
            | (64 if drops is not None and not drops.checks else 0) \
            | (2048 if r._drops_forced is not None else 0) | (4096 if r._blast_royal else 0)
        if r._flags_on:
            flags |= (128 if ends.flag_move else 0) | (256 if ends.flag_safe else 0) \
                | (512 if ends.flag_blocked_win else 0) | (1024 if r.layout.royal in r._flag_kinds else 0)
        castle = 1  # the kernel's default: a castling king is tested (where there is one)
        if r.variant.castling is not None and r._castling_king != (0, 0):
            castle = 1 if r._royal_castling else 2 if r._pseudo and not r._blast_royal else 0
        value = {"loss": -1, "draw": 0, "win": 1}[ends.extinction] if ends.extinction is not None else 0
        values = [flags, castle, len(self._letters()), ends.extinction_count, ends.extinction_opponent_count,
                  1 if ends.extinction_claim else 0, value, ends.flag_count if r._flags_on else 0]
        for side in (0, 1):
            region = sorted(r._flag_regions[side]) if r._flags_on else []
            values += [len(region), *region]
        values.append(ends.extinction_count + 1)
        doubled = r._no_doubled
        values.append(doubled[1] if doubled is not None else 0)
        if doubled is not None:
            values += [r._square[number][0] if number in r._square else -1
                       for number in range(self.geometry.size)]
        kinds = self.end_kinds()
        captured = [(number, rule) for number, rule in enumerate(self.on_capture) if rule]
        if not flags and castle == 1 and not self._letters() and doubled is None and not any(kinds) \
                and not captured:
            return []
        values += kinds
        values.append(len(captured))
        for number, rule in captured:
            values += [number, rule]
        return values

    def end_kinds(self) -> list[int]:
        """Per kind: the extinction types it counts as (a bit each), its flags (1 a flag piece, 2
        of the royal type, 4 a makpong king, 8 no doubled drops, 16 its drops forced), its
        pseudo-royal group (0 none, else its type's number from 1)."""
        r = self.variant_rules
        values = [0] * 3
        letters = self._letters()
        for code in self.codes[1:]:
            if r is None:
                values += [0, 0, 0]
                continue
            letter = r._kind.get(code, "?")
            mask = 0
            if r._extinction:
                for bit, wanted in enumerate(letters):
                    if wanted in ("*", letter):
                        mask |= 1 << bit
            flag = 0
            if r._flags_on:
                flag = (1 if letter in r._flag_kinds else 0) | (2 if letter == r.layout.royal else 0)
            flag |= 4 if code in r._makpong_kings else 0
            flag |= 8 if r._no_doubled is not None and code in r._no_doubled[0] else 0
            forced = r._drops_forced
            flag |= 16 if forced is not None and code in forced[0 if code > 0 else 1] else 0
            group = letters.index(letter) + 1 if r._pseudo and letter in r._pseudo_kinds else 0
            values += [mask, flag, group]
        return values

    def capmap(self) -> list[int]:
        rules = self.rules
        variant_rules = self.variant_rules
        while True:
            count = len(self.codes)
            values = [0] * (count * count)
            for taken in range(1, count):
                taken_code = self.codes[taken]
                for mover in range(1, count):
                    mover_code = self.codes[mover]
                    if (taken_code > 0) == (mover_code > 0):
                        continue
                    if variant_rules is not None:
                        hand = variant_rules._hand(taken_code, piece_of(mover_code))
                        piece = hand[0][0] if hand else None
                    else:
                        piece = rules._captured(taken_code, piece_of(mover_code))
                    if piece is not None:
                        values[taken * count + mover] = self.kind(code_of(piece))
            if len(self.codes) == count:
                return values

    def castling(self) -> list[int]:
        variant_rules = self.variant_rules
        values: list[int] = []
        for side in (0, 1):
            if variant_rules is None or variant_rules.variant.castling is None or \
                    variant_rules._castling_king == (0, 0):
                values += [0, 0, 0]
                continue
            homes = list(variant_rules._rook_homes[side])
            rank = list(variant_rules._rank_squares[side])
            values += [self.kind(variant_rules._castling_king[side]), len(homes), *homes, len(rank), *rank]
        return values

    def limits(self) -> list[int]:
        variant_rules = self.variant_rules
        limits = variant_rules._limits if variant_rules is not None else {}
        ordered = sorted(self.groups.items(), key=lambda item: item[1])
        return [len(ordered), *(limits[letter] for letter, _ in ordered)]

    def effects(self, move: Move, src: int, dst: int) -> tuple[int, int, list[int], list[int], int,
                                                               list[int], list[int], int, int, int]:
        """(type, kind left by a plain move, plays' kinds, victims, plain, rooks, safe squares,
        shielded, unlimited plays, promotion by capture) of a move (see the module's doc)."""
        code = code_of(move.piece)
        r = self.variant_rules
        if r is None:
            return 0, self.kind(code), [self.kind(code)], [], 0, [], [], 0, 1, 0
        v = self.flags
        promoting = r._sittuyin_ids.get(id(move)) if r._more_moves else None
        if promoting is not None:  # sittuyin's promotion (type 4): its one play, limited as promotions are
            new = self.kind(promoting[1])
            return 4, new, [new], [], 0, [], [], 0, 0, 0
        if src == dst and self.passes(code):
            return 3, self.kind(code), [self.kind(code)], [], 0, [], [], 0, 1, 0
        if src < 0:
            placed = [code]
            raised = r._drops_raised.get(code)
            if raised is not None:
                placed.append(raised[1])
            return 0, self.kind(code), [self.kind(c) for c in placed], [], 0, [], [], 0, len(placed), 0
        flags = r._flags.get(code, 0)
        side = 0 if code > 0 else 1
        if flags & v._CASTLES:
            rooks, _, plain = r._notes(move)
            pairs: list[int] = []
            chosen = sorted(set(rooks or ()))
            for rook in chosen:
                beside = dst - r._file_step if rook > src else dst + r._file_step
                pairs += [rook, beside]
            safe: list[int] = []
            shielded = 0
            if chosen and r._blast_royal:
                # atomic: the squares from the king's source towards its destination, that one
                # left out (_blast_legal); the usual test (castle 0 in ENDS) is not made
                (start, rank), end = r._square[src], r._square[dst][0]
                files = [start] if start == end else range(start, end, 1 if end > start else -1)
                safe = [r._index[(file, rank)] for file in files]
            elif chosen:
                shielded = int(r.variant.chess960 or any(r._rook_may_shield(rook) for rook in chosen))
                rank = r._square[src][1]
                start, end = r._square[src][0], r._square[dst][0]
                step = 1 if end > start else -1
                first = end if shielded else end - step
                safe = [r._index[(file, rank)] for file in range(first, start, -step)]
            return 1, self.kind(code), [], [], 1 if plain else 0, pairs, safe, shielded, 0, 0
        if flags & v._ROOK:
            return 2, self.kind(code), [], [], 0, [], [], 0, 0, 0
        gated = r._gated.get(code)
        if gated is not None:  # a gating right goes as its piece moves
            code = gated
            flags = r._flags.get(code, 0)
        becomes = r._becomes(move, src, dst, code)
        victims: list[int] = []
        if flags & v._TAKES:
            for square, victim in r._victims(move):
                victims += [square, self.kind(victim)]
        zone = r._zone[side]
        stays = True
        on_capture = 0  # 1: its last play only when it takes, 3: and its first (staying) only when not
        plays: list[int] = []
        if flags & v._PROMOTES and dst in zone:
            stays = r._may_stay(code, dst)
            plays += [chosen_code for _, chosen_code, _ in r._choices[code]]
        if flags & (v._SHOGI | v._DEMOTES) and (src in zone or dst in zone):
            promotion = r.variant.promotion
            assert promotion is not None
            other = r._promotes_to.get(code) or r._demotes_to.get(code)
            assert other is not None
            plays.append(other[1])
            if promotion.on_capture:  # promoted only by a capture, which a mandatory promotion then makes
                on_capture = 3 if promotion.mandatory_piece else 1
            elif promotion.mandatory_piece:
                stays = False
        if dst in r._dead.get(r._plain(code), ()):
            stays = False
        if stays:
            plays.insert(0, becomes)
        elif on_capture:
            on_capture = 1
        return (0, self.kind(becomes), [self.kind(c) for c in plays], victims, 0, [], [], 0, int(stays),
                on_capture)


def _variant(rules: RuleSystem) -> VariantRules | None:
    from ggn.rules.variant import VariantRules  # noqa: PLC0415

    return rules if isinstance(rules, VariantRules) else None


# The kernel's games of each rule system, by board shape (a game's one shape; a GGN document's
# rule system plays on any board: the shapes used last are kept, as its tables are).
_Kept = dict[tuple[int, ...], "_Game | str"]
_GAMES: weakref.WeakKeyDictionary[RuleSystem, _Kept] = weakref.WeakKeyDictionary()
_SHAPES_KEPT: Final = 4


def _game(rules: RuleSystem, position: Position, *, build: bool = True) -> _Game | None:
    """The kernel's game of ``rules`` on ``position``'s board (made on first use, or read from
    the compile cache), or None: the pure path plays it. With ``build`` False, None also when
    neither this process nor the cache has its tables yet (they are not made)."""
    kernel = _kernel()
    if kernel is None:
        return None
    shape = position._geometry.shape
    kept = _GAMES.get(rules)
    made = None if kept is None else kept.get(shape)
    if made is None:
        made = _make(rules, kernel, position, build=build)
        if made is None:
            return None
        with _LOCK:
            kept = _GAMES.setdefault(rules, {})
            kept[shape] = made
            while len(kept) > _SHAPES_KEPT:
                del kept[next(iter(kept))]
    return made if isinstance(made, _Game) else None


def _make(rules: RuleSystem, kernel: ModuleType, start: Position, *,
          build: bool = True) -> _Game | str | None:
    """The kernel's game of ``rules`` on ``start``'s board, or why the pure path plays it: from
    the compile cache where a process made it before, else made (and kept there). With
    ``build`` False, None when the cache holds neither."""
    reason = _refusal(rules)
    if reason:
        return reason
    key = _cache_key(rules, start._geometry, kernel)
    if key is not None:
        found = _load(key, rules, kernel, start._geometry)
        if found is not None:
            return found
    if not build:
        return None
    try:
        builder = _Builder(rules, start)
        values, moves, hands = builder.build()
    except _Refused as refused:
        return _keep(key, str(refused))
    try:
        capsule = kernel.game(values)
    except ValueError as error:  # the kernel's own check of the tables: the pure path plays it
        return _keep(key, f"the kernel refused the tables ({error})")
    pieces = (None, *map(piece_of, builder.codes[1:]))
    game = _Game(capsule, builder.kind_of, pieces, builder.places, hands=hands,
                 squares=builder.geometry.size, shape=builder.geometry.shape, walls=_walled(rules),
                 fixed=builder.fixed, moves=moves, counted_hands=_counted_hands(rules, hands))
    if key is not None:
        _store(key, values, game)
    return game


# --- the tables in the compile cache (ggn.cache) ----------------------------------------------
_CACHE_KIND: Final = "native-tables"
_ENTRY_FORMAT: Final = 1  # the layout of an entry's payload (below); the key holds it too
_KEYS: weakref.WeakKeyDictionary[RuleSystem, dict[tuple[int, ...], bytes | None]] = \
    weakref.WeakKeyDictionary()


def _cache_key(rules: RuleSystem, geometry: Geometry, kernel: ModuleType) -> bytes | None:
    """The compile cache's key of ``rules``' tables on ``geometry``'s board: what they are made
    from (the rule system's class; its document's hash; a variant's canonical description,
    whose rules add the effects) and what reads them (the tables' magic number and layout
    version, the kernel's, the entry's format, the machine's byte order); ggn's version and
    the hash of its sources are the cache's own part of every key. None: not kept."""
    keys = _KEYS.get(rules)
    if keys is None:
        keys = _KEYS.setdefault(rules, {})
    shape = geometry.shape
    if shape in keys:
        return keys[shape]
    from ggn.rules.variant import VariantRules  # noqa: PLC0415

    if rules._more_moves:  # moves the document does not list: a cached entry could not name them
        keys[shape] = None
        return None
    described = b""
    if isinstance(rules, VariantRules):  # and its subclasses (_Bikjang): the class is in the key too
        from ggn.variants.document import _described as description  # noqa: PLC0415

        try:
            described = description(rules.variant).encode()
        except (TypeError, UnicodeEncodeError):  # no canonical form: nothing kept
            keys[shape] = None
            return None
    version = getattr(kernel, "abi_version", None)
    head = (f"{MAGIC:x}|{ABI}|{version() if callable(version) else '?'}|{_ENTRY_FORMAT}|{sys.byteorder}|"
            f"{type(rules).__module__}.{type(rules).__qualname__}|{','.join(map(str, shape))}|")
    key = keys[shape] = head.encode() + rules.ruleset.digest() + b"|" + described
    return key


def _load(key: bytes, rules: RuleSystem, kernel: ModuleType, geometry: Geometry) -> _Game | str | None:
    """The game (or the reason for the pure path) kept under ``key``, or None: no entry, or one
    that does not read back whole and consistent (then made again and written over)."""
    from ggn import cache  # noqa: PLC0415

    data = cache.load(_CACHE_KIND, key)
    if data is None:
        return None
    try:
        found = marshal.loads(data)  # noqa: S302  (plain values of a checked file: see ggn.cache)
    except (ValueError, EOFError, TypeError):
        return None
    if type(found) is not tuple or not found or found[0] != _ENTRY_FORMAT:
        return None
    if len(found) == 2 and type(found[1]) is str:
        return found[1]  # a reason the pure path plays these rules
    if len(found) != 6:
        return None
    _, packed, pieces, places, hands, plays = found
    if type(packed) is not bytes or type(places) is not bytes or type(pieces) is not tuple \
            or type(hands) is not bool or type(plays) is not bytes:
        return None
    try:
        values = array("i")
        values.frombytes(_inflate(packed))
        moves = array("i")
        moves.frombytes(_inflate(places))  # ValueError unless whole int32s
        fixed = array("i")
        fixed.frombytes(_inflate(plays))
        if len(moves) % 3 or len(fixed) != len(moves) // 3 or (fixed and min(fixed) < 0):
            return None
        codes = [0]
        for text in pieces:
            if type(text) is not str:
                return None
            codes.append(code_of(Qpi.parse(text)))
    except (ValueError, GGNError):  # zlib.error is a ValueError's kin: see _inflate
        return None
    kind_of = {code: kind for kind, code in enumerate(codes)}
    if len(values) < 8 or values[0] != MAGIC or values[1] != geometry.size or values[2] != len(codes) \
            or values[3] != len(moves) // 3 or values[4] != int(hands) or len(kind_of) != len(codes):
        return None
    try:
        capsule = kernel.game(values)  # checks every value again, as for tables just made
    except ValueError:
        return None
    return _Game(capsule, kind_of, (None, *map(piece_of, codes[1:])), moves, hands=hands,
                 squares=geometry.size, shape=geometry.shape, walls=_walled(rules), fixed=fixed.tolist(),
                 counted_hands=_counted_hands(rules, hands))


def _walled(rules: RuleSystem) -> bool:
    """Whether the plays of ``rules`` place walls (the kernel's play numbers then hold the wall's
    square): the rule system's, never read from the cache."""
    variant_rules = _variant(rules)
    return variant_rules is not None and variant_rules._walling is not None


def _counted_hands(rules: RuleSystem, hands: bool) -> bool:
    """Whether an extinction counts pieces in the hands the kernel does not keep (no drops):
    the rule system's, never read from the cache."""
    variant_rules = _variant(rules)
    return not hands and variant_rules is not None and variant_rules._extinction


def _deflate(raw: bytes) -> bytes:
    """The tables compressed (a tenth of their size: faster to read and hash than to store
    whole), marked by their first byte; whole where this Python has no zlib."""
    try:
        import zlib  # noqa: PLC0415  (loaded when tables are kept: import ggn does not need it)
    except ImportError:  # pragma: no cover  (a Python built without zlib)
        return b"r" + raw
    return b"z" + zlib.compress(raw, 6)


def _inflate(packed: bytes) -> bytes:
    """The tables :func:`_deflate` kept (ValueError: not such bytes)."""
    if packed[:1] == b"r":
        return packed[1:]
    if packed[:1] != b"z":
        raise ValueError("not kept tables")
    try:
        import zlib  # noqa: PLC0415
    except ImportError:  # pragma: no cover
        raise ValueError("kept compressed, and this Python has no zlib") from None
    try:
        return zlib.decompress(packed[1:])
    except zlib.error as error:
        raise ValueError(str(error)) from None


def _keep(key: bytes | None, reason: str) -> str:
    """Keep in the cache why the kernel does not play these rules (the tables' making found it)."""
    if key is not None:
        from ggn import cache  # noqa: PLC0415

        cache.store(_CACHE_KIND, key, marshal.dumps((_ENTRY_FORMAT, reason)))
    return reason


def _store(key: bytes, values: array[int], game: _Game) -> None:
    from ggn import cache  # noqa: PLC0415

    packed = _deflate(values.tobytes())
    pieces = tuple(str(piece) for piece in game.pieces[1:])
    cache.store(_CACHE_KIND, key, marshal.dumps((_ENTRY_FORMAT, packed, pieces,
                                                 _deflate(game.places.tobytes()), game.hands,
                                                 _deflate(array("i", game.fixed).tobytes()))))


def native_support(game: str | RuleSystem) -> tuple[bool, str]:
    """Whether the native kernel plays ``game`` (a rule system or a built-in game's name):
    ``(True, "")``, or ``(False, reason)`` when the game falls back to the pure-Python path
    (a feature the kernel's tables cannot express yet, such as ``"blastOnCapture"``). Answered
    from the game's rules alone, whether or not the kernel is built or switched on."""
    from ggn.rules import rule_system  # noqa: PLC0415

    expect(game, (RuleSystem, str), "game", "a RuleSystem or a game's name")
    rules = rule_system(game) if isinstance(game, str) else game
    reason = _refusal(rules)
    if reason or rules.start is None:  # a rule system with no start: its boards decide the rest
        return (not reason), reason
    start = rules.position()
    made = _GAMES.get(rules, {}).get(start._geometry.shape)
    if made is None and _kernel() is not None:  # kept in the cache by an earlier process?
        _game(rules, start, build=False)
        made = _GAMES.get(rules, {}).get(start._geometry.shape)
    if isinstance(made, _Game):
        return True, ""
    if isinstance(made, str):
        return False, made
    try:
        _Builder(rules, start).build()
    except _Refused as refused:
        reason = str(refused)
    return (not reason), reason


# --- the kernel's answers ---------------------------------------------------------------------
def _encode(game: _Game, position: Position) -> array[int] | None:
    """The position as the kernel reads it, or None if it holds a piece the tables lack."""
    kind_of = game.kind_of
    codes = position._codes
    if len(codes) != game.squares or position._geometry.shape != game.shape:
        return None
    encoded = array("i", (0 if position.active == "first" else 1,))
    try:
        encoded.extend(map(kind_of.__getitem__, codes))
    except KeyError:
        return None
    count = len(kind_of)
    hands = array("i", bytes(8 * count))
    if game.hands:
        for side in (0, 1):
            for piece, number in position._hands[side].items():
                kind = kind_of.get(code_of(piece))
                if kind is None:
                    return None
                hands[side * count + kind] = number
    elif game.counted_hands:
        for side in (0, 1):
            if any((code_of(piece) > 0) == (side == 0) for piece in position._hands[side]):
                return None
    encoded += hands
    return encoded


# Making a game's tables costs a process 0.1 to 1 s (makruk, grand): more than the pure path
# takes to count a tree of two plies; reading them from the compile cache costs a few
# milliseconds. So a shallow count is the kernel's once its tables are in this process or in
# the cache (looked for once a rule system and board), else once a deeper perft made them or
# after so many shallow counts of the rule system.
_SHALLOW: Final = 2
_SHALLOW_CALLS: Final = 64
_ASKED: weakref.WeakKeyDictionary[RuleSystem, int] = weakref.WeakKeyDictionary()
_LOOKED: weakref.WeakKeyDictionary[RuleSystem, set[tuple[int, ...]]] = weakref.WeakKeyDictionary()


def _worth(rules: RuleSystem, position: Position, depth: int) -> bool:
    """Whether the kernel should count ``depth`` plies of ``rules`` from ``position``."""
    if depth > _SHALLOW:
        return True
    shape = position._geometry.shape
    kept = _GAMES.get(rules)
    if kept is not None and shape in kept:
        return True
    looked = _LOOKED.get(rules)
    if looked is None:
        looked = _LOOKED.setdefault(rules, set())
    if shape not in looked:
        looked.add(shape)
        _game(rules, position, build=False)  # from the cache, if a process kept them
        kept = _GAMES.get(rules)
        if kept is not None and shape in kept:
            return True
    asked = _ASKED[rules] = _ASKED.get(rules, 0) + 1
    return asked > _SHALLOW_CALLS


def _asked(rules: RuleSystem, position: Position) -> tuple[ModuleType, _Game, array[int]] | None:
    """The kernel, its game of ``rules`` and ``position`` encoded for it, or None where the pure
    path must answer (no kernel, a game it does not play, a piece its tables lack)."""
    game = _game(rules, position)
    if game is None:
        return None
    encoded = _encode(game, position)
    if encoded is None:
        return None
    kernel = _STATE.kernel
    assert kernel is not None
    return kernel, game, encoded


def perft(rules: RuleSystem, position: Position, depth: int) -> int | None:
    """Perft by the kernel, or None where the pure path must count (see :func:`_worth`)."""
    if _kernel() is None or not _worth(rules, position, depth):
        return None
    asked = _asked(rules, position)
    if asked is None:
        return None
    kernel, game, encoded = asked
    try:
        return int(kernel.perft(game.capsule, encoded, depth))
    except RecursionError:  # the kernel's bounds (a chain of pawn-drop mate tests): the pure path
        return None


def count(rules: RuleSystem, position: Position) -> int | None:
    """The number of legal plays by the kernel, or None."""
    return perft(rules, position, 1)


def _plays(rules: RuleSystem, game: _Game, position: Position,
           pairs: list[tuple[int, int]]) -> list[Play] | None:
    """The plays the kernel named (move number, play number), made as the pure walk makes them
    (None: a move the document does not hold, which tables of these rules never name)."""
    if game.walls:
        return _walled_plays(rules, game, position, pairs)
    tables = rules._tables_for(position)
    prefix = rules._prepare(position, tables)
    context = PlayContext(position, prefix, rules._captured)
    codes = position._codes
    special_taken = rules._special_taken
    new = object.__new__
    plays: list[Play] = []
    effects: dict[int, list[Effect]] = {}
    known = tables.info.get
    for number, ordinal in pairs:
        move = game.move(rules, number)
        if move is None:
            return None
        info = known(id(move)) or describe(rules, tables, move)
        play: Play = new(Play)
        if info[4] == SPECIAL or codes[info[2]] in special_taken:
            made = effects.get(number)
            if made is None:
                made = effects[number] = rules._effects(position, prefix, info)
            if not 0 <= ordinal < len(made):
                return None
            play._recipe = (move, made[ordinal])
        else:
            play._recipe = info
        play._context = context
        plays.append(play)
    return plays


def _walled_plays(rules: RuleSystem, game: _Game, position: Position,
                  pairs: list[tuple[int, int]]) -> list[Play] | None:
    """The plays of a game whose moves place walls: a play number is the number of the move's
    play (among those ``_effects`` lists) times the board's squares, plus its wall's square;
    made as the rule system's own walk makes them (``_walled``)."""
    from ggn.rules.variant import VariantRules  # noqa: PLC0415

    assert isinstance(rules, VariantRules)
    tables = rules._tables_for(position)
    prefix = rules._prepare(position, tables)
    context = PlayContext(position, (), rules._captured)
    base = position._codes.copy()
    for number, value in prefix:
        base[number] = value
    known = tables.info.get
    size = game.squares
    effects: dict[int, list[Effect]] = {}
    plays: list[Play] = []
    for number, ordinal in pairs:
        move = game.move(rules, number)
        if move is None:
            return None
        made = effects.get(number)
        if made is None:
            info = known(id(move)) or describe(rules, tables, move)
            made = effects[number] = rules._effects(position, prefix, info)
        if not 0 <= ordinal // size < len(made):
            return None
        effect = made[ordinal // size]
        child = base.copy()
        for square, value in effect[1]:
            child[square] = value
        walled, _ = rules._walled(position, effect, child, ordinal % size)
        plays.append(made_play(move, walled, context, rules._wall_of(position, walled)))
    return plays


def legal(rules: RuleSystem, position: Position) -> list[Play] | None:
    """The legal plays of ``position`` by the kernel (in its order), or None."""
    asked = _asked(rules, position)
    if asked is None:
        return None
    kernel, game, encoded = asked
    try:
        raw = array("i")
        raw.frombytes(kernel.legal(game.capsule, encoded))
    except RecursionError:
        return None
    pairs = list(zip(raw[0::2], raw[1::2], strict=True))
    return _plays(rules, game, position, pairs)


def divide(rules: RuleSystem, position: Position, depth: int) -> list[tuple[Play, int]] | None:
    """Perft split by first play, by the kernel, or None."""
    asked = _asked(rules, position)
    if asked is None:
        return None
    kernel, game, encoded = asked
    try:
        found: list[tuple[int, int, int]] = kernel.divide(game.capsule, encoded, depth)
    except RecursionError:
        return None
    plays = _plays(rules, game, position, [(number, ordinal) for number, ordinal, _ in found])
    if plays is None:
        return None
    return [(play, below) for play, (_, _, below) in zip(plays, found, strict=True)]


def playout(rules: RuleSystem, game: Game, *, games: int, seed: int, policy: str, max_plies: int,
            moves: bool) -> _Games | None:
    """A playout's games played by the kernel (ggn.rules._cplayout), or None where the pure path
    plays them: no kernel, a game it does not play, or one whose ends its playout does not
    replay (:func:`ggn.rules._cplayout.playout_refusal`)."""
    if _kernel() is None:
        return None
    asked = _asked(rules, game.start)
    if asked is None:
        return None
    kernel, made, encoded = asked
    from ggn.rules._cplayout import native_playout  # noqa: PLC0415

    try:
        return native_playout(kernel, made, encoded, rules, game, games=games, seed=seed, policy=policy,
                              max_plies=max_plies, moves=moves)
    except (RecursionError, OverflowError):  # the kernel's bounds (a chain of pawn-drop mate tests...)
        return None
