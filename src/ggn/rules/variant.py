"""One rule system for every variant description: :class:`VariantRules`.

A :class:`~ggn.variants.description.Variant` says how its pieces move, and
:func:`ggn.variants.document.build` writes that as a GGN document; this rule system plays the
rest of the description on top of it, through the hooks of
:class:`~ggn.rules._system.RuleSystem` only, with every square and rank taken from the
description's tables:

- promotion: a piece of a pawn type ending a move in its side's region becomes one of the
  side's choices (one play each, ``=C:Q``), while fewer than the limit of that type stand on
  the board; it may also stay, where promotion is optional and it could still move. A piece
  with a shogi-style promoted form may take it (``=S:+P``) when it moves into, within or out
  of its region (only when capturing, with ``on_capture``); it must where the description
  says so or where it could never move again; a promoted piece may demote the same way
  (``demotion``);
- castling: the document's castling move of the ``+`` king also moves its rook beside it; the
  royal king may not castle out of check, nor cross or reach an attacked square (the facing
  royal pieces of ``flying_general`` included); the ``+`` marks go as Fairy-Stockfish's
  castling rights do (the king moves: all of its side's; a rook moves or is taken: its own,
  and the king's with the last one);
- double steps: a piece of a double-step type that moves two squares straight forward (or an
  initial mover by its initial move) is marked ``-``; every ``-`` mark goes with the next
  move; an en passant capture takes the piece beside the destination, which the document
  names;
- captures: with ``Drops.captures_to_hand``, the captured piece goes into the capturer's hand
  demoted (a ``+X`` as ``X``, a ``-X`` promoted from a pawn as the pawn) and turned to the
  capturer's side; with drops but without it, the captured piece leaves the game; without
  drops, it goes as it stood into the capturer's hand (the Game Protocol's default);
- explosions (``blast_on_capture``, atomic chess): a capture also removes the capturing piece
  and the pieces around its destination that are not pawns (not those of
  ``blast_immune_types``); with pseudo-royal pieces, Fairy-Stockfish's atomic legality (none
  of the mover's may explode, one beside the other side's is never in check); and types that
  may not take their own type (``mutually_immune_types``);
- drops: what the document does not say (the no-doubled rule for counts above one, a drop
  that may not give check, the pawn-drop mate), and with ``Drops.promoted`` a second play of
  each drop of a piece with a promoted form, which puts it down promoted (``=S:+P``);
- moves that may not give check (``checking=False``);
- cambodian chess's first moves (``cambodian_moves``): a ``+`` king or met becomes plain by
  any move of its own, the king's leap is not made out of check, and a rook's move onto the
  rank or file of the other side's ``+`` king takes its ``+``; makpong (``makpong``): a king in
  check moves only to take its one checker;
- forced captures (``Variant.must_capture``): while a capture is legal, no other move is
  (the walk's :func:`~ggn.rules._walk.forced_captures`);
- janggi: a janggi cannon's move over or onto another janggi cannon is refused (the document
  lists it; the attack tests read it so, ``RuleSystem._cannons``); a pass (the royal
  piece onto its own square) changes no square; with ``bikjang``, while the royal pieces face
  each other, a play must end that and the pass is legal even in check (a subclass with a
  walk of its own, which :class:`VariantRules` makes for such a variant);
- the ends (:meth:`VariantRules.outcome`): extinction of piece types (with counts, and
  Fairy-Stockfish's claim), a flag region reached (with the flag move), and with no legal
  move, ``Ends.checkmate`` in check, else ``Ends.stalemate`` (decided by the pieces on the
  board with ``Ends.stalemate_piece_count``), as results for the player to move.

- pseudo-royal pieces (``Ends.extinction_pseudo_royal``): while a side has at most one more
  piece of an extinction type than ``extinction_count``, no move may leave one attacked (unless
  it takes one of the other side's), and with no legal move it counts as in check.

No per-game hook is left: chess, shogi, xiangqi and makruk are descriptions played by this
class (:mod:`ggn.rules.chess` and the others only name their records).

Counting (perft) keeps the fast path of the walk: a promotion, a move of a ``+`` piece that
does not castle and a shogi promotion stand in for their plays (``_stand_in``) wherever the
attacks on a royal piece cannot depend on the piece chosen and no rule of the variant can
refuse one of them.

>>> from ggn.variants.betza import parse
>>> from ggn.variants.description import PieceType, Variant
>>> rook, king = PieceType("r", parse("R")), PieceType("k", parse("K"))
>>> rules = VariantRules(Variant("tiny", 3, 3, (rook, king), "k2/3/R1K w - - 0 1"))
>>> rules.count(rules.position())
5
>>> str(rules.outcome(rules.position("k^2/2K^/R2 / t/T")))
'first player wins by checkmate'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Final

from ggn._types import Side, expect
from ggn.cell import Cell
from ggn.errors import GGNError
from ggn.move import Move
from ggn.pin import Pin
from ggn.position import Geometry, Position, code_of, piece_of
from ggn.qpi import Qpi
from ggn.rules._connect import Connection
from ggn.rules._records import Change, Effect, Ending, HandChange, MoveInfo, Outcome
from ggn.rules._system import RuleSystem, _Tables
from ggn.rules._walk import Found, walk
from ggn.ruleset import Ruleset
from ggn.variants.description import Value, Variant
from ggn.variants.document import Layout, Mark, castling_rank, castling_squares, layout, ruleset_of

__all__ = ["VariantRules"]

# What a piece code may need the hooks for (a bit each).
_PROMOTES: Final = 1  # a pawn type: promotion by its region
_SHOGI: Final = 2  # has a shogi-style promoted form
_DEMOTES: Final = 4  # a promoted form that may demote
_CASTLES: Final = 8  # the castling king, with its right
_ROOK: Final = 16  # a castling rook, with its right
_TAKES: Final = 32  # may take en passant
_GATES: Final = 64  # holds a gating right (seirawan's gating)
_NOTES_KEPT: Final = 1 << 16  # move objects whose conditions are kept read
_ORTHOGONAL: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))


class VariantRules(RuleSystem):
    """The rule system of a :class:`~ggn.variants.description.Variant` (see the module's doc)."""

    name: ClassVar[str] = "variant"

    # A game's document names every piece of its positions, royal or not (and a piece marked
    # terminal where the game has no such piece is not one of its positions).
    _unnamed_terminals: ClassVar[bool] = False

    def __new__(cls, *args: Any, **kwargs: Any) -> VariantRules:
        # A game with janggi's bikjang walks positions its own way (_Bikjang).
        variant = args[0] if args else kwargs.get("variant")
        made = _Bikjang if cls is VariantRules and isinstance(variant, Variant) and variant.bikjang else cls
        return super().__new__(made)

    def __init__(self, variant: Variant, *, ruleset: Ruleset | None = None) -> None:
        """``ruleset``: the variant's GGN document (:func:`~ggn.variants.document.build`'s),
        when the caller has it already (a game's module keeps one); else it is made here."""
        expect(variant, Variant, "variant", "a Variant")
        from ggn.variants.fen import to_feen  # noqa: PLC0415  (fen reads the document's tokens)

        self.variant = variant
        self.layout = made = layout(variant)
        if ruleset is None:
            ruleset = ruleset_of(variant)
        expect(ruleset, Ruleset, "ruleset", "a Ruleset or None")
        super().__init__(ruleset, to_feen(variant, variant.start), (variant.files, variant.ranks))
        self.name = variant.name  # type: ignore[misc]  # each instance names its variant
        geometry = Geometry((variant.files, variant.ranks))
        self._index = {square: geometry.index[Cell(square)] for square in made.squares}
        self._square = {number: square for square, number in self._index.items()}
        # One step forward, as a difference of square indices, per side.
        self._forward = (self._step((0, 0), (0, 1)), self._step((0, 1), (0, 0)))
        self._file_step = self._step((0, 0), (1, 0))
        self._codes: dict[tuple[str, int, Mark], int] = {}
        self._qpis: dict[int, Qpi] = {}
        self._kind: dict[int, str] = {}  # code -> the type it counts as (a promoted form: its own)
        self._flags: dict[int, int] = {}
        self._noted: dict[int, tuple[Move, tuple[list[int] | None, list[tuple[int, int]], bool]]] = {}
        for letter in made.types:
            for side in (0, 1):
                for mark in _marks(made, letter):
                    qpi = Qpi.parse(made.token(letter, side, mark))
                    code = code_of(qpi)
                    self._codes[(letter, side, mark)] = code
                    self._qpis[code] = qpi
                    self._kind[code] = made.moves_as(letter, mark)
        self._setup_promotion()
        self._setup_castling()
        self._setup_double_steps()
        self._setup_captures()
        self._setup_blast()
        self._setup_ends()
        self._setup_leaps()
        self._capture_forced = variant.must_capture
        self._setup_gating()
        self._setup_walls()
        self._setup_janggi()
        # Whether a special move's plays may be counted as one plain displacement.
        self._stand_ins = variant.checking and not self._pseudo and not self._petrify and not (
            variant.promotion is not None and variant.promotion.limits)

    def __repr__(self) -> str:
        return f"<VariantRules of {self.variant.name}>"

    def _step(self, start: tuple[int, int], end: tuple[int, int]) -> int:
        geometry = Geometry((self.variant.files, self.variant.ranks))
        return geometry.index[Cell(end)] - geometry.index[Cell(start)]

    def _code(self, letter: str, side: int, mark: Mark = "normal") -> int:
        return self._codes[(letter, side, mark)]

    def _flag(self, code: int, flag: int) -> None:
        self._flags[code] = self._flags.get(code, 0) | flag

    def _indices(self, squares: Iterable[tuple[int, int]]) -> frozenset[int]:
        return frozenset(self._index[square] for square in squares if square in self._index)

    # --- set up -----------------------------------------------------------------------------
    def _setup_promotion(self) -> None:
        made, promotion = self.layout, self.variant.promotion
        self._zone: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
        # Per pawn-type code: the choices (QPI, code, type); per shogi base code: its promoted
        # form; per promoted code: its base (for demotion).
        self._choices: dict[int, list[tuple[Qpi, int, str]]] = {}
        self._promotes_to: dict[int, tuple[Qpi, int, str]] = {}
        self._demotes_to: dict[int, tuple[Qpi, int, str]] = {}
        self._limits: dict[str, int] = {}
        self._dead: dict[int, frozenset[int]] = {}
        # Sittuyin's promotions: per side the pawn codes; per (letter, side, square) the squares
        # one step of the choice reaches; the moves made so far, by (code, source, destination).
        self._sittuyin_pawns: tuple[set[int], set[int]] = (set(), set())
        self._steps: dict[tuple[str, int, int], tuple[int, ...]] = {}
        self._sittuyin_moves: dict[tuple[int, int, int, int], Move] = {}
        self._sittuyin_ids: dict[int, tuple[Qpi, int]] = {}
        if self.variant.immobility_illegal:
            # Where each piece could never move again: no plain move may leave it there.
            for (letter, side, state), number in self._codes.items():
                if state == "normal":
                    self._dead[number] = self._indices(made.board(side, made.dead(letter, side)))
        if promotion is None:
            return
        self._zone = (self._indices(promotion.regions[0]), self._indices(promotion.regions[1]))
        self._limits = {letter: count for letter, count in promotion.limits if letter in made.types}
        if promotion.sittuyin:
            self._setup_sittuyin()
        for side in (0, 1):
            mark: Mark = "tilde" if made.tilde else "normal"
            choices = [(self._qpis[self._code(letter, side, mark)], self._code(letter, side, mark), letter)
                       for letter in promotion.choices[side] if letter in made.types]
            for letter in promotion.pawn_types[side] & made.types.keys():
                if promotion.sittuyin:  # no promotion on entering the region: _extra_moves
                    self._sittuyin_pawns[side].add(self._code(letter, side))
                    self._choices[self._code(letter, side)] = choices
                    continue
                for pawn_mark in ("normal", "dashed", "crossed"):
                    code = self._codes.get((letter, side, pawn_mark))
                    if code is not None:
                        self._choices[code] = choices
                        self._flag(code, _PROMOTES)
            for base, promoted in made.promoted.items():
                code, raised = self._code(base, side), self._code(base, side, "promoted")
                self._promotes_to[code] = (self._qpis[raised], raised, promoted)
                self._flag(code, _SHOGI)
                if promotion.demotion:
                    self._demotes_to[raised] = (self._qpis[code], code, base)
                    self._flag(raised, _DEMOTES)


    def _setup_sittuyin(self) -> None:
        """Sittuyin's promotion: the squares each choice reaches by one step, from each square."""
        promotion, made = self.variant.promotion, self.layout
        assert promotion is not None
        self._more_moves = True
        for side in (0, 1):
            sign = 1 if side == 0 else -1
            for letter in promotion.choices[side]:
                if letter not in made.types:
                    continue
                movements = made.types[letter].movements
                if any(movement.last != 1 or movement.hops or movement.also
                       or movement.sources is not None for movement in movements):
                    raise GGNError(f"variant {self.variant.name!r}: sittuyin's promotion to {letter!r}, "
                                   "which does not move by single steps only: not supported")
                vectors = {(sign * file, sign * rank)
                           for movement in movements for file, rank in movement.vectors}
                for (file, rank), number in self._index.items():
                    self._steps[(letter, side, number)] = tuple(
                        self._index[(file + df, rank + dr)] for df, dr in sorted(vectors)
                        if (file + df, rank + dr) in self._index)

    def _extra_moves(self, position: Position) -> list[Move]:
        """Sittuyin's promotions (Fairy-Stockfish's movegen): each pawn of the player to move
        (only those in its region while it has more than one), into each choice still below
        its limit, where it stands or one step of the choice away onto an empty square, the
        new piece attacking no piece of the other side."""
        side = 0 if position.active == "first" else 1
        codes = position._codes
        pawns = [number for number, code in enumerate(codes) if code in self._sittuyin_pawns[side]]
        if len(pawns) > 1:
            pawns = [number for number in pawns if number in self._zone[side]]
        found: list[Move] = []
        sign = 1 if side == 0 else -1
        for number in pawns:
            code = codes[number]
            for choice, chosen, letter in self._choices[code]:
                if not self._below_limit(codes, letter, side):
                    continue
                steps = self._steps[(letter, side, number)]
                for target in (number, *(step for step in steps if not codes[step])):
                    # The new piece on the target (its pawn gone) attacks no enemy piece.
                    if any(codes[square] * sign < 0 for square in self._steps[(letter, side, target)]):
                        continue
                    found.append(self._sittuyin_move(code, number, target, choice, chosen))
        return found

    def _sittuyin_move(self, code: int, source: int, destination: int, choice: Qpi, chosen: int) -> Move:
        key = (code, source, destination, chosen)
        move = self._sittuyin_moves.get(key)
        if move is None:
            move = Move(self._qpis[code], Cell(self._square[source]), Cell(self._square[destination]), ())
            self._sittuyin_moves[key] = move
            self._sittuyin_ids[id(move)] = (choice, chosen)
        return move

    def _setup_castling(self) -> None:
        made, castling = self.layout, self.variant.castling
        self._castling_king: tuple[int, int] = (0, 0)
        self._king: tuple[int, int] = (0, 0)
        self._rook_rights: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self._special_taken = frozenset()
        self._opposite = False
        if castling is None or castling.king not in made.types:
            return
        self._castling_king = (self._code(castling.king, 0, "castling"),
                               self._code(castling.king, 1, "castling"))
        self._king = (self._code(castling.king, 0), self._code(castling.king, 1))
        for side in (0, 1):
            self._flag(self._castling_king[side], _CASTLES)
            for letter in castling.rooks & made.types.keys():
                right = self._code(letter, side, "castling")
                self._rook_rights[side][right] = self._code(letter, side)
                self._flag(right, _ROOK)
        self._royal_castling = castling.king == made.royal
        self._opposite = castling.opposite
        self._rook_homes = tuple(
            tuple(self._index[(file, castling_rank(made, side))] for file in castling_squares(made, side)[1])
            for side in (0, 1))
        self._rank_squares = tuple(
            sorted(number for (_, rank), number in self._index.items() if rank == castling_rank(made, side))
            for side in (0, 1))
        self._special_taken = frozenset((*self._rook_rights[0], *self._rook_rights[1], *self._castling_king))

    def _setup_double_steps(self) -> None:
        made, double = self.layout, self.variant.double_step
        self._dashed: dict[int, int] = {}  # dashed code -> its plain code (cleared by the next move)
        self._dash: dict[int, int] = {}  # a double-step type's code -> its dashed code
        # An initial mover's code: per source, the destinations only its initial moves reach,
        # each with the code the piece becomes there ('-' or, past later files, '+').
        self._initial: dict[int, dict[int, dict[int, int]]] = {}
        self._dashed_codes: frozenset[int] = frozenset()
        if double is None:
            return
        for letter in made.double_letters | made.initial_letters:
            for side in (0, 1):
                plain, dashed = self._code(letter, side), self._code(letter, side, "dashed")
                self._dashed[dashed] = plain
                self._dash[plain] = self._dash[dashed] = dashed
                if letter in made.crossed_letters:
                    crossed = self._code(letter, side, "crossed")
                    self._dashed[crossed] = plain
                    self._dash[crossed] = dashed
                if letter in made.initial_letters and letter not in made.double_letters:
                    table = self._initial_targets(letter, side)
                    self._initial[plain] = self._initial[dashed] = table
                    if letter in made.crossed_letters:
                        self._initial[self._code(letter, side, "crossed")] = table
        for letter in double.en_passant & made.types.keys():
            for side in (0, 1):
                for mark in ("normal", "dashed", "crossed"):
                    code = self._codes.get((letter, side, mark))
                    if code is not None:
                        self._flag(code, _TAKES)
        self._dashed_codes = frozenset(self._dashed)

    def _initial_targets(self, letter: str, side: int) -> dict[int, dict[int, int]]:
        """For each source, the destinations an initial mover reaches only by its initial moves,
        each with the code of the mark the piece then has (:meth:`Layout.passing_mark`)."""
        from ggn.variants.pieces import destinations  # noqa: PLC0415

        made = self.layout
        view = made.views[side]
        movements = made.types[letter].movements
        initial = [movement for movement in movements if movement.sources is not None]
        other = [movement for movement in movements if movement.sources is None]
        names = {name: square for square, name in view.names.items()}
        table: dict[int, dict[int, int]] = {}
        for square in view.names:
            only = set(destinations(view, initial, square)) - set(destinations(view, other, square))
            if only:
                source = next(iter(made.board(side, (square,))))
                ends = made.board(side, (names[name] for name in only))
                table[self._index[source]] = {
                    self._index[end]: self._code(letter, side, made.passing_mark(letter, source, end))
                    for end in ends if end in self._index}
        return table

    def _setup_captures(self) -> None:
        drops = self.variant.drops
        self._to_hand = drops is not None and drops.captures_to_hand
        self._lost = drops is not None and not drops.captures_to_hand  # captures leave the game
        self._in_hand: dict[tuple[int, Side], Qpi] = {}
        if self._lost:
            self._special_taken = frozenset(self._qpis)
        promotion = self.variant.promotion
        pawns = sorted(promotion.pawn_types[0] | promotion.pawn_types[1]) if promotion is not None else []
        self._pawn_letter = pawns[0] if pawns else None
        made = self.layout
        self._drop_mate: frozenset[int] = frozenset()
        self._setup_setup_phase()
        # With dropPromoted, a hand piece's code -> its promoted form (QPI, code): a second play.
        self._drops_raised: dict[int, tuple[Qpi, int]] = {}
        if drops is not None and drops.promoted:
            self._drops_raised = {code: (qpi, raised) for code, (qpi, raised, _) in self._promotes_to.items()}
        self._no_doubled: tuple[frozenset[int], int] | None = None
        if drops is not None:
            named = [letter for letter, piece in made.types.items() if piece.name == "shogiPawn"]
            pawn = named or ([drops.no_doubled] if drops.no_doubled else ["p"])
            if drops.pawn_drop_mate_illegal:
                self._drop_mate = frozenset(self._code(letter, side) for letter in pawn
                                            if letter in made.types for side in (0, 1))
            if drops.no_doubled in made.types and drops.no_doubled_count > 1:
                codes = frozenset(self._code(drops.no_doubled, side) for side in (0, 1))
                self._no_doubled = (codes, drops.no_doubled_count)

    def _setup_blast(self) -> None:
        variant, made = self.variant, self.layout
        kind = self._kind
        self._blast = variant.blast_on_capture
        # Per square: the squares around it (a king's step away), which an explosion there reaches.
        self._around: dict[int, tuple[int, ...]] = {}
        # Fairy-Stockfish's pawns (its own type: neither a custom pawn nor a promoted form) stay
        # when an explosion reaches them, unless they made the capture; immune pieces stay always.
        self._blast_spared = frozenset(code for code, letter in kind.items()
                                       if made.types[letter].name == "pawn")
        self._blast_immune = frozenset(code for code, letter in kind.items()
                                       if letter in variant.blast_immune_types)
        # Codes of the types that may not take their own type, and the castling pieces, if any.
        self._mutual = frozenset(code for code, letter in kind.items()
                                 if letter in variant.mutually_immune_types)
        self._castles = variant.castling is not None and variant.castling.king in made.types
        if self._blast:
            for (file, rank), number in self._index.items():
                self._around[number] = tuple(
                    self._index[(file + df, rank + dr)] for dr in (-1, 0, 1) for df in (-1, 0, 1)
                    if (df or dr) and (file + df, rank + dr) in self._index)
            self._special_taken = frozenset((*self._special_taken, *self._qpis))  # every capture explodes
        elif self._mutual:
            self._special_taken = frozenset((*self._special_taken, *self._mutual))
    def _setup_gating(self) -> None:
        """Seirawan's gating: the '+' codes that hold a gating right (each with its plain code),
        and per side the pieces of the hand that may enter, each with the squares it may enter."""
        made, variant = self.layout, self.variant
        self._gating = variant.gating
        self._gated: dict[int, int] = {}
        self._gate_pieces: tuple[list[tuple[Qpi, int, frozenset[int]]], ...] = ([], [])
        self._gate_rank: tuple[tuple[int, ...], ...] = ((), ())
        if not variant.gating or variant.drops is None:
            self._gating = False
            return
        for letter in made.gating_letters:
            for side in (0, 1):
                code = self._code(letter, side, "castling")
                self._gated[code] = self._code(letter, side)
                self._flag(code, _GATES)
        for side in (0, 1):
            for letter in made.order():
                if letter == made.royal:
                    continue
                code = self._code(letter, side)
                squares = self._indices(made.board(side, made.drop_squares(letter, side)))
                self._gate_pieces[side].append((self._qpis[code], code, squares))
        castling = variant.castling
        rank = castling.rank if castling is not None else 0
        self._gate_rank = tuple(
            tuple(number for (_, row), number in sorted(self._index.items())
                  if row == (rank if side == 0 else variant.ranks - 1 - rank))
            for side in (0, 1))
        self._castle_pairs = tuple(
            (self._index.get((castling.king_file, castling_rank(made, side))), self._rook_homes[side])
            if castling is not None and castling.king in made.types else (None, ())
            for side in (0, 1))

    def _setup_setup_phase(self) -> None:
        """Forced drops, sittuyin's rook drops, bishops dropped on both colours and castling
        rights given by drops (Fairy-Stockfish's mustDrop and friends)."""
        drops, made = self.variant.drops, self.layout
        self._first_rank_only: frozenset[int] = frozenset()
        self._bishops: tuple[int, int] | None = None
        self._castling_drops: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self._castling_dropped: frozenset[int] = frozenset()
        if drops is None:
            return
        if drops.must_drop and drops.piece_drops:
            letters = (made.types.keys() if drops.must_drop_type == "*"
                       else {drops.must_drop_type} & made.types.keys())
            self._drops_forced = (frozenset(self._code(letter, 0) for letter in letters),
                                  frozenset(self._code(letter, 1) for letter in letters))
        if drops.first_rank_only in made.types:
            self._first_rank_only = frozenset(self._code(drops.first_rank_only, side) for side in (0, 1))
        if drops.opposite_bishops in made.types:
            self._bishops = (self._code(drops.opposite_bishops, 0), self._code(drops.opposite_bishops, 1))
        castling = self.variant.castling
        if drops.castling_dropped and castling is not None and castling.king in made.types:
            # Per side: a plain code dropped -> the code that holds the right.
            for side in (0, 1):
                self._castling_drops[side][self._king[side]] = self._castling_king[side]
                for right, plain in self._rook_rights[side].items():
                    self._castling_drops[side][plain] = right
            self._castling_dropped = frozenset((*self._castling_drops[0], *self._castling_drops[1]))

    def _setup_janggi(self) -> None:
        """Janggi's cannons (Fairy-Stockfish's ``janggiCannon``): neither over nor onto one
        another; and the pass, a move of the royal piece onto its own square."""
        made = self.layout
        self._cannon_codes = frozenset(code for code, kind in self._kind.items()
                                       if made.types[kind].name == "janggiCannon")
        self._cannons = frozenset(self._qpis[code] for code in self._cannon_codes)
        self._between: dict[tuple[int, int], tuple[int, ...]] = {}
        self._passing = any(self.variant.passing)
        self._royal_codes = frozenset(code for code, kind in self._kind.items()
                                      if kind == made.royal and not self._flags.get(code, 0) & _CASTLES)
        royal = [code for code, kind in self._kind.items() if kind == made.royal]
        self._royal_sides = (frozenset(code for code in royal if code > 0),
                             frozenset(code for code in royal if code < 0))

    def _facing(self, codes: list[int]) -> bool:
        """Whether the two sides' royal pieces face each other on a file or a rank with nothing
        between them (janggi's bikjang; Fairy-Stockfish's rook attack from one onto the other)."""
        squares = []
        for royals in self._royal_sides:
            found = next((number for number, code in enumerate(codes) if code in royals), None)
            if found is None:
                return False
            squares.append(found)
        (file, rank), (other_file, other_rank) = self._square[squares[0]], self._square[squares[1]]
        if file != other_file and rank != other_rank:
            return False
        step = ((other_file > file) - (other_file < file), (other_rank > rank) - (other_rank < rank))
        file, rank = file + step[0], rank + step[1]
        while (file, rank) != (other_file, other_rank):
            number = self._index.get((file, rank))
            if number is None or codes[number]:  # a hole stops the line as a piece does
                return False
            file, rank = file + step[0], rank + step[1]
        return True

    def _barred(self, codes: list[int], source: int, destination: int) -> bool:
        """Whether a janggi cannon's move takes a cannon or hops over one (its screen: the
        first piece between its squares, which the document says is there)."""
        cannons = self._cannon_codes
        if codes[destination] in cannons:
            return True
        between = self._between.get((source, destination))
        if between is None:
            between = self._between[(source, destination)] = self._line(source, destination)
        for number in between:
            if codes[number]:
                return codes[number] in cannons
        return False

    def _line(self, source: int, destination: int) -> tuple[int, ...]:
        """The board squares strictly between two squares of one line, nearest the source first."""
        (file, rank), (to_file, to_rank) = self._square[source], self._square[destination]
        step = ((to_file > file) - (to_file < file), (to_rank > rank) - (to_rank < rank))
        found = []
        file, rank = file + step[0], rank + step[1]
        while (file, rank) != (to_file, to_rank):
            if (file, rank) in self._index:  # a hole is hopped over, never a cannon
                found.append(self._index[(file, rank)])
            file, rank = file + step[0], rank + step[1]
        return tuple(found)

    def _setup_ends(self) -> None:
        ends, made = self.variant.ends, self.layout
        # Pseudo-royal pieces (Fairy-Stockfish's extinctionPseudoRoyal): a side's pieces of an
        # extinction type are royal while it has at most one more of them than the count, and
        # the extinction itself then never comes (they cannot be taken).
        self._pseudo = ends.extinction_pseudo_royal and bool(ends.extinction_types - {"*"})
        self._pseudo_kinds = frozenset(ends.extinction_types & made.types.keys())
        self._duple = self._pseudo and ends.duple_check
        # Pseudo-royal pieces cannot be taken, so their extinction never comes, unless explosions
        # may take them (Fairy-Stockfish's atomic).
        self._blast_royal = self._blast and self._pseudo
        self._extinction = ends.extinction is not None and bool(ends.extinction_types) and (
            not self._pseudo or self._blast)
        self._flag_regions = (self._indices(ends.flag_regions[0]), self._indices(ends.flag_regions[1]))
        self._flag_kinds = frozenset(ends.flag_pieces & made.types.keys())
        self._flags_on = bool(self._flag_kinds) and any(self._flag_regions)
        connect = ends.connect_types
        self._connection = Connection(
            ends, self.variant.files, self.variant.ranks, self._index,
            lambda code: "*" in connect or self._kind.get(code) in connect)
        self._connects = self._connection.active
        self._ends = self._extinction or self._flags_on or self._connects
        self._all_special = not self.variant.checking or self._pseudo
        drops = self.variant.drops
        # Whether a drop may be refused by a rule the document does not write.
        self._drop_rules = drops is not None and (
            self._no_doubled is not None or not drops.checks or not self.variant.checking
            or bool(self._drop_mate) or self._pseudo or bool(self._first_rank_only)
            or self._bishops is not None)

    def _setup_leaps(self) -> None:
        """Cambodian chess's first moves (``Variant.cambodian_moves``): the ``+`` king and met,
        which become plain by any move of theirs; the king's leap, which may not be made out of
        check; and the rooks, whose every move may take the other king's right. And makpong's
        kings (``Variant.makpong``), whose every move goes to the hooks."""
        made = self.layout
        self._leap_plain: dict[int, int] = {}  # a '+' code -> its plain code
        self._leap_kings: tuple[int, int] = (0, 0)  # each side's '+' king, 0: none
        self._leap_rooks: frozenset[int] = frozenset()
        # Makpong's kings (Fairy-Stockfish's KING type), whose moves its rule may refuse.
        self._makpong_kings: frozenset[int] = frozenset()
        king = made.royal
        if self.variant.makpong and king is not None and made.types[king].name == "king":
            self._makpong_kings = frozenset(code for (letter, _, _), code in self._codes.items()
                                            if letter == king)
        for letter in made.leap_letters:
            for side in (0, 1):
                self._leap_plain[self._code(letter, side, "leap")] = self._code(letter, side)
        if king in made.leap_letters:
            self._leap_kings = (self._code(king, 0, "leap"), self._code(king, 1, "leap"))
            self._leap_rooks = frozenset(code for (letter, _, _), code in self._codes.items()
                                         if made.types[letter].name == "rook")

    def _king_leap(self, source: int, destination: int) -> bool:
        """Whether a move of a ``+`` king from ``source`` to ``destination`` is its leap (two
        files aside), not a king's step."""
        return abs(self._square[destination][0] - self._square[source][0]) == 2

    def _setup_walls(self) -> None:
        walls, made = self.variant.walls, self.layout
        self._walling = self.variant.walling
        self._wall = 0  # a wall's code
        self._petrify: dict[int, frozenset[str]] = {}  # a petrifying code -> the types it petrifies as
        self._unattacking: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
        if walls is None:
            return
        wall = Qpi.parse(made.wall_token())
        self._wall = code_of(wall)
        self._qpis[self._wall] = wall
        petrify = walls.petrify & made.types.keys()
        for code in self._codes.values():
            if self._kind[code] in petrify:
                self._petrify[code] = frozenset(petrify)
        if self._petrify:
            self._all_special = True  # a capture by one of them is the hooks'
            # Fairy-Stockfish: a pseudo-royal piece that would turn into a wall by taking never
            # attacks (its pieces of a type both petrifying and of extinction, whatever their count).
            guarded = petrify & self.variant.ends.extinction_types
            self._unattacking = tuple(  # type: ignore[assignment]
                frozenset(code for (letter, side, _), code in self._codes.items()
                          if side == colour and self._kind[code] in guarded) for colour in (0, 1))
        if self._walling is None:
            return
        if self._walling != "duck":
            # Walls that stay and pieces kept in hand could outnumber the squares, which FEEN
            # forbids: here a captured piece leaves the game (as in Fairy-Stockfish, which keeps
            # no hands without drops), so the hooks see every capture.
            self._lost = True
            self._special_taken = frozenset({*self._special_taken, *self._qpis})
        # Every legal play of a move is one play per square its wall may go to: a walk of its own.
        self._own_walk = True
        self._walk = self._walk_walls  # type: ignore[method-assign]
        squares = sorted(self._index.values())
        self._wall_squares = squares
        self._wall_regions = tuple(
            None if region is None else self._indices(region) for region in walls.regions)
        files, ranks = self.variant.files, self.variant.ranks
        self._edge = frozenset(number for (file, rank), number in self._index.items()
                               if file in (0, files - 1) or rank in (0, ranks - 1))
        # Orthogonal neighbours of each square, and those of the holes (walls that are always there).
        self._beside = {number: [self._index[(file + x, rank + y)] for x, y in _ORTHOGONAL
                                 if (file + x, rank + y) in self._index]
                        for (file, rank), number in self._index.items()}
        self._by_holes = frozenset(self._index[(file + x, rank + y)] for file, rank in self.variant.holes
                                   for x, y in _ORTHOGONAL if (file + x, rank + y) in self._index)
        self._arrows: dict[tuple[int, int], list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = {}

    # --- walls --------------------------------------------------------------------------------
    def _walk_walls(self, position: Position, out: list[tuple[Move, Effect, list[int]]] | None,
                    stop: int) -> int:
        """The walk of a game whose moves place walls: the legal plays of the pieces' moves
        (the plain walk's, legal or not as Fairy-Stockfish's are, on the board without the new
        wall), each made once for every square its wall may go to."""
        base: list[tuple[Move, Effect, list[int]]] = []
        walk(self, position, base, 0)
        found = 0
        limit = stop or 1 << 62
        for move, effect, child in base:
            squares = self._wall_targets(position, move, child)
            if out is None:
                found += len(squares)
            else:
                for square in squares:
                    out.append((move, *self._walled(position, effect, child, square)))
                    found += 1
                    if found >= limit:
                        return limit
            if found >= limit:
                return limit
        return found

    def _wall_targets(self, position: Position, move: Move, child: list[int]) -> list[int]:
        """The squares the wall of a move may go to (Fairy-Stockfish's make_move_and_gating):
        empty after the move, in the mover's region, and as the walling rule says."""
        side = 0 if position.active == "first" else 1
        region = self._wall_regions[side]
        rule = self._walling
        index = position._geometry.index
        if rule == "past":
            source = index[move.source]  # type: ignore[index]
            ok = not child[source] and (region is None or source in region)
            return [source] if ok else []
        found = [number for number in self._wall_squares if not child[number]]
        if region is not None:
            found = [number for number in found if number in region]
        if rule == "edge":
            codes, wall, beside = position._codes, self._wall, self._beside
            near = self._edge | self._by_holes
            found = [number for number in found
                     if number in near or any(codes[other] == wall for other in beside[number])]
        elif rule == "arrow":
            source, destination = index[move.source], index[move.destination]  # type: ignore[index]
            board = position._codes.copy()
            board[source] = 0
            code = code_of(move.piece)
            reached = set()
            for target, empty, full in self._arrow_paths(code, destination):
                if all(not board[number] for number in empty) and all(board[number] for number in full):
                    reached.add(target)
            found = [number for number in found if number in reached]
        return found

    def _arrow_paths(self, code: int, square: int) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Where a piece of ``code`` could move without capture from ``square`` (Fairy-
        Stockfish's moves_bb of its type): each destination with the squares that must be empty
        (its path and itself) and those that must hold a piece (a hopper's screens)."""
        key = (code, square)
        found = self._arrows.get(key)
        if found is not None:
            return found
        from ggn.variants.pieces import destinations  # noqa: PLC0415

        side = 0 if code > 0 else 1
        made = self.layout
        view = made.views[side]
        movements = [movement for movement in made.types[self._kind[code]].movements
                     if movement.mode != "capture" and movement.sources is None]
        names = {name: self._index[board] for relative, name in view.names.items()
                 for board in made.board(side, (relative,))}
        at = next(relative for relative, name in view.names.items() if names[name] == square)
        found = []
        for name, ways in destinations(view, movements, at).items():
            for way in ways:
                must, deny = way["must"], way.get("deny", {})
                if must.get(name) != "empty" or any(state != "empty" for state in (*must.values(),
                                                                                   *deny.values())):
                    continue
                found.append((names[name], tuple(names[cell] for cell in must),
                              tuple(names[cell] for cell in deny)))
        self._arrows[key] = found
        return found

    def _walled(self, position: Position, effect: Effect, child: list[int],
                square: int) -> tuple[Effect, list[int]]:
        """A play of a move with its wall on ``square``: the move's effect, then (the duck's
        rule) every wall before it taken away, then the new wall, always the play's last change."""
        changes = list(effect[1])
        board = child.copy()
        wall = self._wall
        if self._walling == "duck":
            codes = position._codes
            for number in position._occupied[1]:
                if codes[number] == wall and board[number] == wall:
                    changes.append((number, 0))
                    board[number] = 0
        if self._dashed:
            # A double step whose wall stands on the square it passed over may not be taken en
            # passant (Fairy-Stockfish sets no en passant square).
            passed = square + self._forward[0 if position.active == "first" else 1]
            value = board[passed] if 0 <= passed < len(board) else 0
            if value in self._dashed and any(number == passed for number, _ in effect[1]):
                changes.append((passed, self._dashed[value]))
                board[passed] = self._dashed[value]
        changes.append((square, wall))
        board[square] = wall
        return (effect[0], tuple(changes), effect[2]), board

    def _wall_of(self, position: Position, effect: Effect) -> Cell | None:
        if self._walling is None:
            return None
        return Cell(self._square[effect[1][-1][0]])

    # --- the hooks: which moves need them ----------------------------------------------------
    def _special(self, move: Move, source: int, destination: int, code: int) -> bool:
        if self._all_special or id(move) in self._sittuyin_ids or code in self._cannon_codes:
            return True
        if self._makpong_kings and code in self._makpong_kings:
            return True  # makpong: a king in check may only take its one checker
        if self._leap_plain and (code in self._leap_rooks or (
                code in self._leap_kings and self._king_leap(source, destination))):
            return True  # a rook's move may take the other king's right; a leap not out of check
        dead = self._dead.get(self._plain(code))
        if dead and destination in dead:  # it could never move again there: promote, or no move
            return True
        flags = self._flags.get(code)
        if not flags:
            return False
        side = 0 if code > 0 else 1
        zone = self._zone[side]
        if flags & _PROMOTES and destination in zone:
            return True
        if flags & (_SHOGI | _DEMOTES) and (source in zone or destination in zone):
            return True
        if flags & (_CASTLES | _ROOK | _GATES):
            return True
        return bool(flags & _TAKES) and self._victims(move) != []

    def _stand_in(self, move: Move, source: int, destination: int, code: int) -> tuple[int, int] | None:
        # The opponent's moves onto a royal piece read where pieces stand, and the royal piece,
        # never which piece a promotion chose nor a '+' mark (see the module's doc).
        if not self._stand_ins or code in self._cannon_codes:
            return None
        flags = self._flags.get(code, 0)
        if flags & _GATES:
            return None  # its gating plays depend on the hand
        # (A rook's move that takes the other king's leap has no stand-in: a '+' king off its
        # home square, where the document lists no move of it, attacks nothing until its mark
        # goes, so the mark taken may expose the mover's king.)
        side = 0 if code > 0 else 1
        if flags & _CASTLES:
            return None if self._castling_rook(move) is not None else (self._king[side], 1)
        if flags & _ROOK:
            return self._rook_rights[side][code], 1
        if flags & _TAKES and self._victims(move):
            return None
        zone = self._zone[side]
        if flags & _PROMOTES and destination in zone:
            if flags & _SHOGI:
                return None
            choices = self._choices[code]
            stays = self._may_stay(code, destination)
            plays = len(choices) + stays
            return (choices[0][1] if choices else code, plays) if plays else None
        promotion = self.variant.promotion
        if flags & (_SHOGI | _DEMOTES) and promotion is not None and not promotion.on_capture:
            other = self._promotes_to.get(code) or self._demotes_to.get(code)
            if other is None or other[2] in self._limits:
                return None
            if promotion.mandatory_piece or destination in self._dead.get(code, ()):
                return other[1], 1
            return code, 2
        return None

    def _may_stay(self, code: int, destination: int) -> bool:
        """Whether a pawn type entering its promotion region may stay unpromoted."""
        promotion = self.variant.promotion
        assert promotion is not None
        return not promotion.mandatory_pawn and destination not in self._dead.get(self._plain(code), ())

    def _plain(self, code: int) -> int:
        return self._dashed.get(code, code)

    def _becomes(self, move: Move, source: int, destination: int, code: int) -> int:
        if self._leap_plain:
            plain = self._leap_plain.get(code)
            if plain is not None:
                return plain  # a first-move right ends with the piece's first move
        dashed = self._dash.get(code)
        if dashed is None:
            return code
        initial = self._initial.get(code)
        if initial is not None:
            mark = initial.get(source)
            return self._dashed[dashed] if mark is None else mark.get(destination, self._dashed[dashed])
        side = 0 if code > 0 else 1
        return dashed if destination - source == 2 * self._forward[side] else self._dashed[dashed]

    def _captured(self, taken: int, mover: Qpi) -> Qpi:
        if not self._to_hand:
            return piece_of(taken)
        key = (taken, mover.side)
        piece = self._in_hand.get(key)
        if piece is None:
            letter = self._hand_letter(taken)
            name = self.layout.pins[letter]
            piece = Qpi(mover.sin, Pin(name, mover.side, "normal", letter == self.layout.royal))
            self._in_hand[key] = piece
        return piece

    def _hand_letter(self, taken: int) -> str:
        """The type a captured piece goes to hand as: demoted, unless drops loop."""
        qpi = piece_of(taken)
        letter = self._kind[taken]
        made = self.layout
        if qpi.state == "enhanced" and letter not in made.castling_letters | made.gating_letters:
            drops = self.variant.drops
            if drops is not None and drops.loop:
                return letter
            return next(base for base, to in made.promoted.items() if made.pins[base] == qpi.name)
        if qpi.state == "diminished" and letter in made.tilde_letters and self._pawn_letter is not None:
            return self._pawn_letter
        return letter

    def _prepare(self, position: Position, tables: _Tables) -> tuple[Change, ...]:
        # Every '-' mark of a double step goes with this move; these changes come first in
        # every play, so that the play's own (a capture of that piece) win.
        dashed = self._dashed
        if not dashed:
            return ()
        codes = position._codes
        changes: list[Change] = []
        for mark, plain in dashed.items():
            if mark in codes:
                number = -1
                for _ in range(codes.count(mark)):
                    number = codes.index(mark, number + 1)
                    changes.append((number, plain))
        return tuple(sorted(changes))

    # --- the hooks: the plays of a move --------------------------------------------------------
    def _hand(self, taken: int, mover: Qpi) -> HandChange:
        if not taken or self._lost:
            return ()
        return ((self._captured(taken, mover), 1),)

    def _effects(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> list[Effect]:
        plays = self._plays(position, prefix, info)
        if self._gating and self._flags.get(info.code, 0) & _GATES:
            plays = self._gate(position, info, plays)
        if info.source < 0 or info.destination < 0:
            return plays
        if info.code in self._petrify:
            # Which plays turn the piece into a wall is read before any explosion takes it.
            petrified = [self._petrifies(position, info, play) for play in plays]
            if self._blast:
                plays = [self._explode(position, info, play) for play in plays]
            wall = (info.destination, self._wall)
            return [(play[0], (*play[1], wall), play[2]) if turned else play
                    for play, turned in zip(plays, petrified, strict=True)]
        if self._blast:
            return [self._explode(position, info, play) for play in plays]
        return plays

    def _explode(self, position: Position, info: MoveInfo, effect: Effect) -> Effect:
        """A play of a board move, with its explosion if it captures (Fairy-Stockfish's
        ``blastOnCapture``): the capturing piece on the destination and every piece around it
        that is not a pawn leave the board, but for the immune ones. The other side's pieces
        go to the mover's hand as a capture's piece does; the mover's own leave the game. A
        castling piece gone takes its side's rights with it, as a capture does."""
        choice, changes, hand = effect
        codes = position._codes
        destination = info.destination
        sign = 1 if info.code > 0 else -1
        if codes[destination] * sign >= 0 and not any(
                value == 0 and codes[number] * sign < 0 for number, value in changes):
            return effect  # not a capture (en passant's victim is emptied)
        board = codes.copy()
        for number, value in changes:
            board[number] = value
        immune, spared = self._blast_immune, self._blast_spared
        removed = [number for number in (destination, *self._around[destination])
                   if board[number] and board[number] not in immune
                   and (number == destination or board[number] not in spared)]
        if not removed:
            return effect
        exploded = [(number, 0) for number in removed]
        taken = list(hand)
        for number in removed:
            if board[number] * sign < 0:
                taken.extend(self._hand(codes[number], info.move.piece))
        before = [board[number] for number in removed]
        for number in removed:
            board[number] = 0
        if self._castles:
            exploded.extend(self._rights_after(board, before))
        return (choice, (*changes, *exploded), tuple(taken))

    def _rights_after(self, board: list[int], removed: list[int]) -> list[Change]:
        """The ``+`` marks to clear once an explosion removed the pieces ``removed`` (their
        codes): a castling king gone takes its rooks' rights, and a king whose last rook with a
        right is gone loses its own."""
        changes: list[Change] = []
        for side in (0, 1):
            king, rights = self._castling_king[side], self._rook_rights[side]
            homes = self._rook_homes[side]
            if king in removed:
                changes.extend((number, rights[board[number]]) for number in homes if board[number] in rights)
            elif king in board and not any(board[number] in rights for number in homes):
                plain = self._king[side]
                changes.extend((number, plain) for number in self._rank_squares[side]
                               if board[number] == king)
        return changes

    def _petrifies(self, position: Position, info: MoveInfo, effect: Effect) -> bool:
        """Whether a play of a piece that turns into a wall where it captures
        (``Walls.petrify``) does: it captures, and the piece it leaves on the destination (a
        promotion's choice) is of a petrifying type too."""
        codes, destination = position._codes, info.destination
        sign = 1 if info.code > 0 else -1
        changes = effect[1]
        if codes[destination] * sign >= 0 and not any(
                not value and codes[number] * sign < 0 for number, value in changes):
            return False  # not a capture (en passant's victim is emptied)
        last = next((value for number, value in reversed(changes) if number == destination), 0)
        return self._kind.get(last) in self._petrify[info.code]

    def _plays(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo) -> list[Effect]:
        """The plays of a move, before any explosion."""
        move, source, destination, code = info.move, info.source, info.destination, info.code
        codes = position._codes
        promoting = self._sittuyin_ids.get(id(move)) if self._more_moves else None
        if promoting is not None:
            return [(promoting[0], (*prefix, (source, 0), (destination, promoting[1])), ())]
        if source < 0:  # a drop
            if code in self._castling_dropped:
                return [(None, (*prefix, *self._castling_drop(position, code, destination)),
                         ((move.piece, -1),))]
            dropped: Effect = (None, (*prefix, (destination, code)), ((move.piece, -1),))
            raised = self._drops_raised.get(code)
            if raised is None:
                return [dropped]
            return [dropped, (raised[0], (*prefix, (destination, raised[1])), ((move.piece, -1),))]
        if destination < 0:
            return [self._default(position, prefix, info)]
        if code in self._cannon_codes and self._barred(codes, source, destination):
            return []
        side = 0 if code > 0 else 1
        if destination == source and self._passing and code in self._royal_codes:
            return [(None, prefix, ())]  # a pass: nothing moves
        taken = codes[destination] if destination != source else 0
        hand = self._hand(taken, move.piece)
        clear = prefix
        if taken in self._rook_rights[1 - side]:
            if not self._gating or not self._live(position, 1 - side):
                clear = (*clear, *self._rook_leaves(codes, 1 - side, destination))
        elif taken and taken == self._castling_king[1 - side]:  # a castling king that is not royal, taken
            theirs = self._rook_rights[1 - side]
            clear = (*clear, *((number, theirs[codes[number]]) for number in self._rook_homes[1 - side]
                               if codes[number] in theirs))
        if code in self._leap_rooks:
            clear = (*clear, *self._aimed(codes, side, destination))
        flags = self._flags.get(code, 0)
        if flags & _CASTLES:
            return self._king_move(position, clear, info, hand)
        if flags & _ROOK:
            live = self._gating and self._live(position, side)
            rights = () if live else self._rook_leaves(codes, side, source)
            plain = self._rook_rights[side][code]
            return [(None, (*clear, *rights, (source, 0), (destination, plain)), hand)]
        gated = self._gated.get(code)
        if gated is not None:  # a gating right goes as its piece moves
            code = gated
            info = info._replace(code=gated)
            flags = self._flags.get(code, 0)
        placed = self._becomes(move, source, destination, code)
        if flags & _TAKES and not taken:
            for victim, victim_code in self._victims(move):
                if codes[victim] == victim_code:
                    return [(None, (*clear, (source, 0), (destination, placed), (victim, 0)),
                             self._hand(victim_code, move.piece))]
        plays: list[Effect] = []
        zone = self._zone[side]
        stays = True
        if flags & _PROMOTES and destination in zone:
            stays = self._may_stay(code, destination)
            for choice, chosen, letter in self._choices[code]:
                if self._below_limit(codes, letter, side):
                    plays.append((choice, (*clear, (source, 0), (destination, chosen)), hand))
        if flags & (_SHOGI | _DEMOTES) and (source in zone or destination in zone):
            promotion = self.variant.promotion
            assert promotion is not None
            other = self._promotes_to.get(code) or self._demotes_to.get(code)
            assert other is not None
            if self._below_limit(codes, other[2], side) and (taken or not promotion.on_capture):
                plays.append((other[0], (*clear, (source, 0), (destination, other[1])), hand))
                if promotion.mandatory_piece:
                    stays = False
        if destination in self._dead.get(self._plain(code), ()):
            stays = False  # Fairy-Stockfish's immobility: no piece left where it could never move
        if stays:
            plays.insert(0, (None, (*clear, (source, 0), (destination, placed)), hand))
        return plays

    def _live(self, position: Position, side: int) -> bool:
        """Whether a side's gating rights count: always where captures go to hand, else while its
        hand holds a piece."""
        return self._to_hand or bool(position._hands[side])

    def _gate(self, position: Position, info: MoveInfo, plays: list[Effect]) -> list[Effect]:
        """A move's plays with their gatings: each piece of the mover's hand that may enter the
        square its piece leaves (for a castling, the king's or its rook's), onto it when the play
        leaves it empty. The gating changes come before the play's last change (which names a
        castling: the rook beside the king). A gating that empties the hand, where captures do
        not go to hand, takes every gating right of the mover but its castling rights."""
        side = 0 if info.code > 0 else 1
        held = position._hands[side]
        if not held:
            return plays
        codes = position._codes
        rights = self._rook_rights[side]
        source = info.source
        found = list(plays)
        for choice, changes, hand in plays:
            if choice is not None:
                continue
            squares = [source]
            if self._flags.get(info.code, 0) & _CASTLES:  # a castling also frees its rook's square
                squares.extend(number for number, placed in changes
                               if placed == 0 and number != source and codes[number] in rights)
            last: dict[int, int] = dict(changes)
            for square in squares:
                if last.get(square, codes[square]) != 0:
                    continue  # the king or the rook stands there: no gating (Fairy-Stockfish's)
                for piece, code, allowed in self._gate_pieces[side]:
                    count = held.get(piece, 0)
                    if count <= 0 or square not in allowed:
                        continue
                    made = (*changes[:-1], (square, code), changes[-1])
                    if count == 1 and len(held) == 1 and not self._to_hand:
                        made = self._gates_lost(codes, made, side)
                    # The gate is the last change but one (_gate_safe reads it there).
                    found.append((piece, made, (*hand, (piece, -1))))
        return found

    def _gates_lost(self, codes: list[int], changes: tuple[Change, ...], side: int) -> tuple[Change, ...]:
        """``changes`` with every gating right of ``side`` taken but its castling rights (a '+'
        king on its castling square with a '+' rook on a rook's, and those rooks)."""
        after = {number: codes[number] for number in self._gate_rank[side]}
        for number, placed in changes:
            if number in after:
                after[number] = placed
        gated, rights = self._gated, self._rook_rights[side]
        king, rooks = self._castle_pairs[side]
        kept = [number for number in rooks if after.get(number) in rights]
        castles = king is not None and bool(kept) and after.get(king) == self._castling_king[side]
        lost = tuple((number, gated[code]) for number, code in after.items()
                     if code in gated and not (castles and (number == king or number in kept)))
        return (*changes[:-2], *lost, *changes[-2:]) if lost else changes

    def _gate_safe(self, position: Position, effect: Effect, child: list[int], side: int) -> bool:
        """Whether a gating play leaves the mover's royal pieces unattacked with its gated piece
        taken away: Fairy-Stockfish tests a gating's legality without it (so a piece entering
        behind a king shields nothing)."""
        gate = effect[1][-2][0]
        trial = child.copy()
        trial[gate] = 0
        tables = self._tables_for(position)
        attacks = tables.attacks[1 - side]
        for royal in tables.terminal[side]:
            number = -1
            for _ in range(trial.count(royal)):
                number = trial.index(royal, number + 1)
                if attacks[number](trial):
                    return False
        return True

    def _castling_drop(self, position: Position, code: int, destination: int) -> tuple[Change, ...]:
        """The changes of a drop of a castling king or rook (Fairy-Stockfish's
        castlingDroppedPiece): a king dropped on its castling square takes the right with each
        castling rook on the first or last file of the rank, a rook dropped on one of those
        takes it with the castling king on its square; else a plain drop."""
        side = 0 if code > 0 else 1
        castling = self.variant.castling
        assert castling is not None
        file, rank = self._square[destination]
        plain: tuple[Change, ...] = ((destination, code),)
        if rank != castling_rank(self.layout, side):
            return plain
        codes, rights = position._codes, self._rook_rights[side]
        corners = [self._index[(edge, rank)] for edge in (0, self.variant.files - 1)]
        king, castling_king = self._king[side], self._castling_king[side]
        if code == king:
            if file != castling.king_file:
                return plain
            held = {*rights, *rights.values()}
            rooks = [number for number in corners if codes[number] in held]
            if not rooks:
                return plain
            to_right = {plain_rook: right for right, plain_rook in rights.items()}
            return ((destination, castling_king),
                    *((number, to_right[codes[number]]) for number in rooks if codes[number] in to_right))
        home = self._index.get((castling.king_file, rank))
        if destination not in corners or home is None or codes[home] not in (king, castling_king):
            return plain
        return ((destination, self._castling_drops[side][code]), (home, castling_king))

    def _below_limit(self, codes: list[int], letter: str, side: int) -> bool:
        limit = self._limits.get(letter)
        if limit is None:
            return True
        kind = self._kind
        count = sum(1 for code in codes if code and (code > 0) == (side == 0) and kind.get(code) == letter)
        return count < limit

    def _victims(self, move: Move) -> list[tuple[int, int]]:
        """The squares and codes of the pieces an en passant move may take (none: not one)."""
        return self._notes(move)[1]

    def _castling_rook(self, move: Move) -> list[int] | None:
        """The squares of the rooks a castling move may move (None: not a castling)."""
        return self._notes(move)[0]

    def _notes(self, move: Move) -> tuple[list[int] | None, list[tuple[int, int]], bool]:
        """What a move's conditions say: the castling rooks it needs (a castling reads its rook,
        on its destination too in chess960), the pieces en passant may take, and whether a
        possibility of it is neither (a plain move of the king, in chess960, may go where a
        castling goes). Worked out once per move object."""
        kept = self._noted.get(id(move))
        if kept is not None and kept[0] is move:
            return kept[1]
        rooks: list[int] = []
        victims: list[tuple[int, int]] = []
        plain = False
        rights = self._rook_rights[0 if move.piece.side == "first" else 1]
        dashed = self._dashed_codes
        for possibility in move.possibilities:
            castles = False
            for cell, state in possibility.must.items():
                if isinstance(state, Qpi):
                    code = code_of(state)
                    number = self._index[(cell.indices[0], cell.indices[1])]
                    if code in rights:
                        rooks.append(number)
                        castles = True
                    elif code in dashed and cell != move.destination:
                        victims.append((number, code))
            plain = plain or not castles
        notes = (rooks or None, victims, plain)
        if len(self._noted) >= _NOTES_KEPT:
            self._noted.clear()
        self._noted[id(move)] = (move, notes)
        return notes

    def _rook_leaves(self, codes: list[int], side: int, square: int) -> tuple[Change, ...]:
        """When the castling rook of ``side`` on ``square`` loses its right: the king's ``+``
        too, if no other rook of the side keeps one."""
        rights = self._rook_rights[side]
        if any(codes[number] in rights for number in self._rook_homes[side] if number != square):
            return ()
        king = self._castling_king[side]
        if king not in codes:  # a search in C: the king has mostly lost its right already
            return ()
        plain = self._king[side]
        return tuple((number, plain) for number in self._rank_squares[side] if codes[number] == king)

    def _king_move(self, position: Position, clear: tuple[Change, ...], info: MoveInfo,
                   hand: HandChange) -> list[Effect]:
        """The plays of a move of the king that keeps its castling right: castling, a plain move,
        or both (chess960); either way every right of its side goes."""
        move, source, destination = info.move, info.source, info.destination
        codes = position._codes
        side = 0 if info.code > 0 else 1
        king, rights = self._king[side], self._rook_rights[side]
        lost = () if self._gating and self._live(position, side) else tuple(
            (number, rights[codes[number]]) for number in self._rook_homes[side] if codes[number] in rights)
        rooks, _, plain = self._notes(move)
        plays: list[Effect] = []
        if plain:
            plays.append((None, (*clear, *lost, (source, 0), (destination, king)), hand))
        for rook in sorted(set(rooks or ())):
            if codes[rook] not in rights:
                continue
            # The rook goes beside the king's destination, on the inner side; the squares both
            # leave are emptied first (in chess960 one may arrive where the other stood).
            beside = destination - self._file_step if rook > source else destination + self._file_step
            opposite = self._opposite_wing(codes, side, rook > source) if self._opposite else ()
            plays.append((None, (*clear, *lost, *opposite, (source, 0), (rook, 0), (destination, king),
                                 (beside, rights[codes[rook]])), ()))
        return plays

    def _opposite_wing(self, codes: list[int], side: int, kingside: bool) -> tuple[Change, ...]:
        """Fairy-Stockfish's oppositeCastling: ``side`` castles, on the kingside (toward the
        last file) or not, and the other side's rooks on that wing lose their rights (its king
        its own too, with the last of them)."""
        other = 1 - side
        rights, king = self._rook_rights[other], self._castling_king[other]
        if king not in codes:
            return ()
        king_square = codes.index(king)
        wing = [number for number in self._rook_homes[other]
                if codes[number] in rights and (number > king_square) == kingside]
        if not wing:
            return ()
        changes = [(number, rights[codes[number]]) for number in wing]
        if not any(codes[number] in rights for number in self._rook_homes[other] if number not in wing):
            changes.append((king_square, self._king[other]))
        return tuple(changes)

    # --- the hooks: the variant's own legality rules ---------------------------------------------
    def _makpong_allowed(self, position: Position, info: MoveInfo) -> bool:
        """Makpong's rule (Fairy-Stockfish's ``makpongRule``): a king in check moves only to take
        the one piece checking it. The piece taken stands in for a piece of the king's own (the
        squares taken stay taken): the king is then not attacked only if it was the one
        checker."""
        codes = position._codes
        side = 0 if info.code > 0 else 1
        attacks = self._tables_for(position).attacks[1 - side]
        if self._calm is position or not attacks[info.source](codes):
            return True
        taken = codes[info.destination]
        if not taken or (taken > 0) == (side == 0):
            return False
        trial = codes.copy()
        trial[info.destination] = info.code
        return not attacks[info.source](trial)

    def _aimed(self, codes: list[int], side: int, destination: int) -> tuple[Change, ...]:
        """A rook of ``side`` moving to ``destination``: the other king loses its leap if it
        keeps one on that square's rank or file, whatever stands between (Fairy-Stockfish's
        rook attacks on an empty board)."""
        king = self._leap_kings[1 - side]
        if not king or king not in codes:
            return ()
        square = codes.index(king)
        (file, rank), (to_file, to_rank) = self._square[square], self._square[destination]
        if file != to_file and rank != to_rank:
            return ()
        return ((square, self._leap_plain[king]),)

    def _no_play(self, position: Position, info: MoveInfo) -> bool:
        """Fairy-Stockfish's mutuallyImmuneTypes: no capture of one's own type."""
        code = info.code
        return code in self._mutual and info.destination != info.source \
            and self._kind.get(position._codes[info.destination]) == self._kind[code]

    def _allowed(self, position: Position, prefix: tuple[Change, ...], info: MoveInfo, effect: Effect,
                 child: list[int]) -> bool:
        if info.source < 0:  # a drop: most variants have no rule of their own for it
            return not self._drop_rules or self._drop_allowed(position, effect, child, info)
        code = info.code
        side = 0 if code > 0 else 1
        if self._more_moves and id(info.move) in self._sittuyin_ids \
                and self._gives_check(position, child, side):
            return False  # sittuyin's promotion may not give check
        if code in self._leap_kings and self._king_leap(info.source, info.destination) \
                and self._calm is not position \
                and self._tables_for(position).attacks[1 - side][info.source](position._codes):
            return False  # cambodian chess's king may not leap out of check
        if self._makpong_kings and code in self._makpong_kings and not self._makpong_allowed(position, info):
            return False
        if self._mutual and self._no_play(position, info):
            return False
        if self._blast_royal:
            return (self.variant.checking or not self._gives_check(position, child, side)) and \
                self._blast_legal(position, info, effect, child)
        if self._gating and effect[0] is not None and self._flags.get(code, 0) & _GATES \
                and not self._gate_safe(position, effect, child, side):
            return False
        # A castling's last change puts the rook beside the king; a king's move ends on the king.
        if self._flags.get(code, 0) & _CASTLES and effect[1][-1][0] != info.destination \
                and (self._royal_castling or (self._pseudo and info.source in self._pseudo_royals(
                    position._codes, side))) and not self._castling_safe(position, info):
            return False  # a royal king, or a pseudo-royal one, castles neither out of nor through check
        if not self.variant.checking and self._gives_check(position, child, side):
            return False
        if self._pseudo:
            if self._petrify and child[info.destination] == self._wall \
                    and info.source in self._pseudo_royals(position._codes, side):
                return False  # Fairy-Stockfish: a pseudo-royal piece may not turn into a wall
            if not self._pseudo_taken(position, effect, side) \
                    and self._pseudo_attacked(position, child, side, guarded=True):
                return False
            return not self._duple or not self._duple_attacked(position, child, side)
        return True

    def _duple_attacked(self, position: Position, board: list[int], side: int, dropped: int = -1) -> bool:
        """Fairy-Stockfish's duple check: whether every piece of ``side`` of an extinction type
        on ``board`` (there being one; a piece just dropped on ``dropped`` aside) can be taken
        by the other side."""
        kind, kinds = self._kind, self._pseudo_kinds
        sign = 1 if side == 0 else -1
        mine = [number for number, code in enumerate(board)
                if code * sign > 0 and kind.get(code) in kinds and number != dropped]
        attacks = self._tables_for(position).attacks[1 - side]
        return bool(mine) and all(attacks[number](board) for number in mine)

    def _pseudo_royals(self, board: list[int], side: int) -> list[int]:
        """The squares of ``side``'s pseudo-royal pieces on ``board``."""
        found: list[int] = []
        kind, limit = self._kind, self.variant.ends.extinction_count + 1
        for letter in self._pseudo_kinds:
            mine = [number for number, code in enumerate(board)
                    if code and (code > 0) == (side == 0) and kind.get(code) == letter]
            if len(mine) <= limit:
                found.extend(mine)
        return found

    def _pseudo_attacked(self, position: Position, board: list[int], side: int, *,
                         guarded: bool = False) -> bool:
        """Whether the other side can move onto a pseudo-royal piece of ``side`` on ``board``
        (``guarded``: as a move's legality sees it, its pieces that would turn into walls by
        taking and are of an extinction type standing there as walls do, attacking nothing)."""
        attacks = self._tables_for(position).attacks[1 - side]
        unattacking = self._unattacking[1 - side]
        if guarded and unattacking and any(code in unattacking for code in board):
            board = [self._wall if code in unattacking else code for code in board]
        return any(attacks[number](board) for number in self._pseudo_royals(board, side))

    def _pseudo_taken(self, position: Position, effect: Effect, side: int) -> bool:
        """Whether a play takes a pseudo-royal piece of the other side off the board, leaving its
        square empty (en passant): then it is legal whatever it leaves attacked, as in
        Fairy-Stockfish. A capture onto the piece's square is not: the capturer stands there."""
        theirs = set(self._pseudo_royals(position._codes, 1 - side))
        return any(number in theirs and value == 0 for number, value in effect[1])

    def in_check(self, position: Position) -> bool:
        """Whether the opponent has a pseudo-legal move onto a royal piece of the player to move
        (with pseudo-royal pieces, onto one of those too: Fairy-Stockfish scores a position
        without a legal move where either is attacked as checkmate)."""
        if super().in_check(position):
            return True
        if not self._pseudo:
            return False
        side = 0 if self._checked(position).active == "first" else 1
        if self._blast_royal:
            codes = position._codes
            theirs = self._pseudo_royals(codes, 1 - side)
            return any(self._blast_checked(position, codes, number, theirs, side)
                       for number in self._pseudo_royals(codes, side))
        return self._pseudo_attacked(position, position._codes, side) or (
            self._duple and self._duple_attacked(position, position._codes, side))

    def _blast_checked(self, position: Position, board: list[int], square: int, theirs: list[int],
                       side: int) -> bool:
        """With explosions, whether ``side``'s pseudo-royal piece on ``square`` of ``board`` is
        in check: attacked, and not beside a pseudo-royal piece of the other side's (taking it
        would explode that piece too)."""
        around = self._around[square]
        if any(number in around for number in theirs):
            return False
        return self._tables_for(position).attacks[1 - side][square](board)

    _royals: tuple[Position, list[int], list[int]] | None = None

    def _royals_of(self, position: Position, side: int) -> tuple[list[int], list[int]]:
        """The squares of the pseudo-royal pieces of ``side`` and of the other side in
        ``position``, kept for the position whose plays are being tried."""
        kept = self._royals
        if kept is None or kept[0] is not position:
            codes = position._codes
            kept = self._royals = (position, self._pseudo_royals(codes, 0), self._pseudo_royals(codes, 1))
        return (kept[1], kept[2]) if side == 0 else (kept[2], kept[1])

    def _blast_legal(self, position: Position, info: MoveInfo, effect: Effect, child: list[int]) -> bool:
        """Fairy-Stockfish's legality of a play with explosions and pseudo-royal pieces (atomic):
        the mover's pseudo-royal pieces (those of the position, the moving one where it goes)
        must all stand after the play; if one of the other side's is gone, the play is legal;
        else none of the mover's may be in check after it (:meth:`_blast_checked`), nor may a
        castling king start on or cross a square in check."""
        codes = position._codes
        code, source, destination = info.code, info.source, info.destination
        side = 0 if code > 0 else 1
        sign = 1 if side == 0 else -1
        mine, theirs = self._royals_of(position, side)
        after = [destination if number == source else number for number in mine]
        kind = self._kind
        chosen = effect[0]
        arriving = kind.get(code_of(chosen)) if chosen is not None else kind.get(code) if source < 0 else None
        if arriving in self._pseudo_kinds:  # a pseudo-royal type promoted to or dropped
            held = sum(1 for held in codes if held * sign > 0 and kind.get(held) == arriving)
            if source >= 0 and held > self.variant.ends.extinction_count:
                after = [number for number in after if kind.get(codes[number]) != arriving]
            else:
                after.append(destination)
        if any(child[number] * sign <= 0 for number in after):
            return False  # one of the mover's own exploded
        if any(child[number] * sign >= 0 for number in theirs):
            return True  # one of the other side's is gone
        if self._flags.get(code, 0) & _CASTLES and source >= 0 and effect[1][-1][0] != destination:
            # A castling: the king may not start on nor cross a square in check (its source
            # empty, the rook still on its own).
            trial = codes.copy()
            trial[source] = 0
            (start, rank), end = self._square[source], self._square[destination][0]
            files = [start] if start == end else range(start, end, 1 if end > start else -1)
            for file in files:
                number = self._index[(file, rank)]
                kept, trial[number] = trial[number], code
                checked = self._blast_checked(position, trial, number, theirs, side)
                trial[number] = kept
                if checked:
                    return False
        return not any(self._blast_checked(position, child, number, theirs, side) for number in after)

    def _castling_safe(self, position: Position, info: MoveInfo) -> bool:
        """Not out of check, nor over or onto an attacked square (Fairy-Stockfish's test: the
        king on each square from its destination back to its source, its source still held,
        and on its destination with the rook gone)."""
        source, destination, code = info.source, info.destination, info.code
        side = 0 if code > 0 else 1
        tables = self._tables_for(position)
        attacks = tables.attacks[1 - side]
        board = position._codes
        if self._calm is not position and attacks[source](board):
            return False
        rooks = self._castling_rook(info.move)
        assert rooks is not None
        # The walk tests the king on its destination after the play (its rook beside it, its
        # source empty), which finds the attacks Fairy-Stockfish's tests find there unless the
        # rook could shield that square: then they are made here.
        shielded = self.variant.chess960 or any(self._rook_may_shield(rook) for rook in rooks)
        rank = self._square[source][1]
        start, end = self._square[source][0], self._square[destination][0]
        step = 1 if end > start else -1
        trial = board.copy()
        for file in range(end if shielded else end - step, start, -step):
            number = self._index[(file, rank)]
            kept, trial[number] = trial[number], code
            attacked = attacks[number](trial)
            trial[number] = kept
            if attacked:
                return False
        if not shielded:
            return True
        for rook in rooks:
            trial[rook] = 0
        trial[destination] = code
        return not attacks[destination](trial)

    def _rook_may_shield(self, rook: int) -> bool:
        """Whether a castling rook may stand between the king's destination and an attacker
        along the rank (Fairy-Stockfish tests the destination with the rook gone): not when
        it stands on the rank's first or last square."""
        file, rank = self._square[rook]
        return (file - 1, rank) in self._index and (file + 1, rank) in self._index

    def _gives_check(self, position: Position, child: list[int], side: int) -> bool:
        """Whether, on board ``child``, ``side`` can move onto a royal piece of the other side."""
        tables = self._tables_for(position)
        attacks = tables.attacks[side]
        for royal in tables.terminal[1 - side]:
            if royal in child:  # found by a search in C, one royal code at a time
                number = -1
                for _ in range(child.count(royal)):
                    number = child.index(royal, number + 1)
                    if attacks[number](child):
                        return True
        return False

    def _drop_allowed(self, position: Position, effect: Effect, child: list[int], info: MoveInfo) -> bool:
        code, destination = info.code, info.destination
        side = 0 if code > 0 else 1
        drops = self.variant.drops
        assert drops is not None
        if self._blast_royal:
            if not self._blast_legal(position, info, effect, child):
                return False
        elif self._pseudo and not self._pseudo_taken(position, effect, side) \
                and self._pseudo_attacked(position, child, side, guarded=True):
            return False
        elif self._duple and self._duple_attacked(position, child, side, destination):
            return False  # the piece dropped is none of Fairy-Stockfish's candidates
        if code in self._first_rank_only and self._square[destination][1] != (
                0 if side == 0 else self.variant.ranks - 1):
            return False
        if self._bishops is not None and not self._bishops_placeable(position, code, destination, side):
            return False
        doubled = self._no_doubled
        if doubled is not None and code in doubled[0]:
            file = self._square[destination][0]
            same = sum(1 for number, held in enumerate(position._codes)
                       if held == code and self._square.get(number, (-1, -1))[0] == file)
            if same >= doubled[1]:
                return False
        checks = None
        if not drops.checks or not self.variant.checking:
            checks = self._gives_check(position, child, side)
            if checks:
                return False
        if code in self._drop_mate:
            if checks is None:
                checks = self._gives_check(position, child, side)
            if checks:
                after = self._child(position, effect, child)
                return bool(self._walk(after, None, 1))
        return True

    def _bishops_placeable(self, position: Position, code: int, destination: int, side: int) -> bool:
        """Fairy-Stockfish's dropOppositeColoredBishop: a bishop may not be dropped on a colour
        that already holds half of the player's bishops (on board and in hand, rounded up);
        another piece may not take a square the bishops still to come would need."""
        assert self._bishops is not None
        bishop = self._bishops[side]
        codes = position._codes
        held = sum(count for piece, count in position._hands[side].items() if code_of(piece) == bishop)
        placed = [number for number, found in enumerate(codes) if found == bishop]
        total = held + len(placed)

        def colour(number: int) -> int:
            file, rank = self._square[number]
            return (file + rank) % 2

        if code == bishop:
            same = sum(1 for number in placed if colour(number) == colour(destination))
            return same + 1 <= (total + 1) // 2
        drops = self.variant.drops
        assert drops is not None
        region = drops.regions[side]
        open_squares = [number for number in self._square
                        if not codes[number] and number != destination
                        and (region is None or self._square[number] in region)]
        for shade in (0, 1):
            room = sum(1 for number in (*placed, *open_squares) if colour(number) == shade)
            if room < total // 2:
                return False
        return True

    # --- the ends ----------------------------------------------------------------------------
    def _ended(self, position: Position) -> Outcome | None:
        if self._extinction:
            ended = self._extinct(position)
            if ended is not None:
                return ended
        if self._flags_on:
            ended = self._flag_end(position)
            if ended is not None:
                return ended
        if self._connects and self._connection.made(position, 1 if position.active == "first" else 0):
            # The player who has just moved connected (Fairy-Stockfish's connectValue is its result).
            return _outcome(position, _opposite(self.variant.ends.connect_value), Ending.CONNECTION)
        return None

    def _counts(self, position: Position) -> tuple[dict[str, int], dict[str, int]]:
        counts: tuple[dict[str, int], dict[str, int]] = ({}, {})
        kind = self._kind
        wall = self._wall
        for code in position._codes:
            if code and code != wall:  # a wall is no one's piece
                held = counts[0 if code > 0 else 1]
                letter = kind.get(code, "?")
                held[letter] = held.get(letter, 0) + 1
        for side in (0, 1):
            for piece, count in position._hands[side].items():
                code = code_of(piece)
                if (code > 0) != (side == 0):
                    # A piece taken in a game without drops stays the opponent's, out of play in
                    # the taker's hand (the Game Protocol's displacement): it is no one's to count
                    # (Fairy-Stockfish's hands hold only their holder's pieces, those of drops).
                    continue
                letter = kind.get(code, "?")
                counts[side][letter] = counts[side].get(letter, 0) + count
        return counts

    def _extinct(self, position: Position) -> Outcome | None:
        ends = self.variant.ends
        counts = self._counts(position)
        mover = 0 if position.active == "first" else 1
        for side in (1 - mover, mover):
            for letter in sorted(ends.extinction_types):
                mine = sum(counts[side].values()) if letter == "*" else counts[side].get(letter, 0)
                theirs = sum(counts[1 - side].values()) if letter == "*" else counts[1 - side].get(letter, 0)
                claim = 1 if ends.extinction_claim and side == mover else 0
                if mine <= ends.extinction_count and theirs >= ends.extinction_opponent_count + claim:
                    assert ends.extinction is not None
                    value = ends.extinction if side == mover else _opposite(ends.extinction)
                    bare = letter == "*" and ends.extinction_count == 1
                    return _outcome(position, value, Ending.BARE_KING if bare else Ending.EXTINCTION)
        return None

    def _reached(self, position: Position, side: int) -> bool:
        """Whether ``side`` has reached its flag region: with one of its flag pieces there (with
        ``flag_count`` of them; or fewer, with ``flag_blocked_win``, once no square of the region
        is empty)."""
        region, kinds, kind = self._flag_regions[side], self._flag_kinds, self._kind
        codes, first = position._codes, side == 0
        there = [number for number in region
                 if codes[number] and (codes[number] > 0) == first and kind.get(codes[number]) in kinds]
        ends = self.variant.ends
        reached = bool(there) and (len(there) >= ends.flag_count
                                   or (ends.flag_blocked_win and all(codes[number] for number in region)))
        if reached and ends.flag_safe and len(there) == ends.flag_count \
                and (not ends.flag_move or side != (0 if position.active == "first" else 1)):
            # Fairy-Stockfish's flagPieceSafe: exactly as many as needed, each safe from the
            # other side (with flagMove, only for the side that has just moved).
            attacks = self._tables_for(position).attacks[1 - side]
            return not any(attacks[number](codes) for number in there)
        return reached

    def _flag_end(self, position: Position) -> Outcome | None:
        """Fairy-Stockfish's capture the flag: the player who reached its region wins, unless
        ``flag_move`` gives the second player one more move to reach its own (a draw); with
        ``flag_safe``, a piece there counts only where it cannot be taken, and the player to
        move whose piece stands there safe wins (a draw if both do)."""
        ends = self.variant.ends
        mover = 0 if position.active == "first" else 1
        if (ends.flag_move or ends.flag_safe) and self._reached(position, mover):
            royal_first = ends.flag_move and mover == 0 and self.layout.royal in self._flag_kinds
            both = ((royal_first or (ends.flag_safe and not ends.flag_move))
                    and self._reached(position, 1 - mover))
            return _outcome(position, "draw" if both else "win", Ending.FLAG)
        royal = self.layout.royal in self._flag_kinds
        if (not ends.flag_move or ends.flag_safe or royal) and self._reached(position, 1 - mover):
            if ends.flag_move and royal and mover == 1 and self._can_reach(position):
                return None
            return _outcome(position, "loss", Ending.FLAG)
        return None

    def _can_reach(self, position: Position) -> bool:
        """Whether the second player's royal piece, not in check, can move into its flag
        region (Fairy-Stockfish's flag move: the game goes on)."""
        if self.in_check(position):
            return False
        self._ends = False
        try:
            region = self._flag_regions[1]
            royal = self.layout.royal
            cells = self._cells(region)
            return any(play.destination in cells and self._kind.get(code_of(play.piece)) == royal
                       for play in self.legal_moves(position))
        finally:
            self._ends = True

    def _cells(self, numbers: frozenset[int]) -> set[Cell]:
        return {Cell(self._square[number]) for number in numbers}

    def _no_move(self, position: Position, in_check: bool) -> Outcome:
        ends = self.variant.ends
        if in_check:
            if ends.shatar_mate:
                return _outcome(position, self._shatar(position), Ending.CHECKMATE)
            return _outcome(position, ends.checkmate, Ending.CHECKMATE)
        value = ends.stalemate
        if ends.stalemate_piece_count:
            # Fairy-Stockfish's stalematePieceCount: the pieces on the board decide (fewer wins).
            codes = position._codes
            mine = sum(1 for code in codes if code > 0) if position.active == "first" else \
                sum(1 for code in codes if code < 0)
            theirs = sum(1 for code in codes if code) - mine
            value = "draw" if mine == theirs else value if mine < theirs else _opposite(value)
        if value == "draw" and self.variant.history.material_counting is not None:
            # Fairy-Stockfish's stalemate value: a draw is decided by material where it is counted.
            winner = self._material_winner(position)
            return Outcome(winner, Ending.STALEMATE)
        return _outcome(position, value, Ending.NO_LEGAL_MOVE if value == "loss" else Ending.STALEMATE)

    def _material_winner(self, position: Position) -> Side | None:
        """Who wins a draw decided by material (Fairy-Stockfish's ``material_counting_result``:
        the pieces on the board, weighted in janggi's counting)."""
        counting = self.variant.history.material_counting
        if counting == "whitedrawodds":
            return "first"
        if counting == "blackdrawodds":
            return "second"
        weights = {"rook": 13, "janggiCannon": 7, "horse": 5, "janggiElephant": 3, "wazir": 3, "soldier": 2}
        types, kind = self.layout.types, self._kind
        totals = [0, 0]
        for code in position._codes:
            if code:
                name = types[kind[code]].name if kind.get(code) in types else None
                totals[0 if code > 0 else 1] += weights.get(name or "", 0) if counting == "janggi" else 1
        if counting == "janggi":
            return "first" if totals[0] - totals[1] - 1 > 0 else "second"
        return None if totals[0] == totals[1] else "first" if totals[0] > totals[1] else "second"

    def _shatar(self, position: Position) -> Value:
        """Shatar's mate, from the position alone (Fairy-Stockfish's ``checkmate_value`` with
        ``shatarMateRule``, a FEN's position having no checks before it): by knights alone, a
        win for the mated player; with a knight, a rook or a bers among the checking pieces, a
        loss; else a draw."""
        side = 0 if position.active == "first" else 1
        names = [self.layout.types[self._kind[position._codes[number]]].name
                 for number in self._checkers(position, side)]
        if names and all(name == "knight" for name in names):
            return "win"
        return "loss" if any(name in ("knight", "rook", "bers") for name in names) else "draw"

    def _shak(self, position: Position) -> bool:
        """Whether a knight, a rook or a bers checks the player to move (shatar's shak)."""
        side = 0 if position.active == "first" else 1
        return any(self.layout.types[self._kind[position._codes[number]]].name in ("knight", "rook", "bers")
                   for number in self._checkers(position, side))

    def _checkers(self, position: Position, side: int) -> list[int]:
        """The squares of the pieces of the other side that can move onto a royal piece of
        ``side`` (its checkers)."""
        from ggn.rules._attacks import holds  # noqa: PLC0415

        tables = self._tables_for(position)
        board = position._codes
        index = position._geometry.index
        sign = 1 if side == 0 else -1  # the checkers' enemies
        found: list[int] = []
        for royal in tables.terminal[side]:
            for square, code in enumerate(board):
                if code != royal:
                    continue
                for source, mover, possibilities in tables.arrivals[1 - side][square]:
                    if board[source] != mover or source in found:
                        continue
                    for possibility in possibilities:
                        if all(cell in index and holds(state, board[index[cell]], sign)
                               for cell, state in possibility.must.items()) and not any(
                                cell in index and holds(state, board[index[cell]], sign)
                                for cell, state in possibility.deny.items()):
                            found.append(source)
                            break
        return found


class _Bikjang(VariantRules):
    """The rule system of a variant with janggi's bikjang (``Variant.bikjang``): while the
    royal pieces face each other, a play must end that (Fairy-Stockfish's flying general for
    that move), and the pass is legal even in check. :class:`VariantRules` makes one for such
    a variant."""

    def _walk(self, position: Position, out: list[Found] | None, stop: int) -> int:
        if not self._facing(position._codes):
            return walk(self, position, out, stop)
        found: list[Found] = []
        walk(self, position, found, 0)
        kept = [(move, effect, child) for move, effect, child in found
                if self._passes(move) or not self._facing(child)]
        if not any(self._passes(move) for move, _, _ in kept) and not (self._ends and self._ended(position)):
            kept.extend(self._pass(position))
        if stop:
            kept = kept[:stop]
        if out is not None:
            out.extend(kept)
        return len(kept)

    def _passes(self, move: Move) -> bool:
        return move.source == move.destination and code_of(move.piece) in self._royal_codes

    def _pass(self, position: Position) -> list[Found]:
        """The pass of the player to move, if it may pass, even in check."""
        for move in self.ruleset.moves(position):
            if self._passes(move):
                prefix = self._prepare(position, self._tables_for(position))
                child = position._codes.copy()
                for number, value in prefix:
                    child[number] = value
                return [(move, (None, prefix, ()), child)]
        return []


def _marks(made: Layout, letter: str) -> list[Mark]:
    found = list(made.marks(letter))
    if letter in made.promoted:
        found.append("promoted")
    if letter in made.tilde_letters:
        found.append("tilde")
    return found


def _opposite(value: Value) -> Value:
    return "win" if value == "loss" else "loss" if value == "win" else "draw"


def _outcome(position: Position, value: Value, ending: Ending) -> Outcome:
    """The outcome of a result ``value`` for the player to move."""
    if value == "draw":
        return Outcome(None, ending)
    return Outcome(position.active if value == "win" else position.inactive, ending)

