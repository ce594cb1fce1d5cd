"""The GGN document of a variant, made from its description.

:func:`build` writes every piece of a :class:`~ggn.variants.description.Variant` in every
state it can be in, with every destination of every square it may stand on. The states are
the marks FEEN writes on a piece, the same ones :mod:`ggn.variants.fen` reads and writes
(:func:`token` names them for it):

- the PIN letter of a type is ``(type.pin or type.letter).upper()`` for the first player and
  lowercase for the second; the style letter is :func:`style`'s; the royal type
  (``Variant.king``) is terminal: ``K^``;
- ``+`` on the castling king and on a castling rook standing on their castling squares: that
  castling right remains (``+K^``, ``+R``); the ``+K^`` has the castling moves, written as
  the king's move onto its castling square, every square both pieces cross empty and the
  rook there (``{"f1": "empty", "g1": "empty", "h1": "C:+R"}``);
- ``-`` on a piece of a double-step type: it has just made a double step, and a piece of
  ``DoubleStep.en_passant`` may take it en passant, moving onto the empty square it passed
  over (``{"d6": "empty", "d5": "c:-p"}``); the mark lasts one move;
- ``+`` on an initial mover whose initial moves pass squares diagonally (berolina's pawn,
  ``Layout.crossed_letters``): it has just made such a move and passed over squares on later
  files (toward the last file) than the one it stands on, where ``-`` says it passed over
  squares on earlier files (toward the a-file), both in the board's frame whoever moved
  (``-p`` on e5 came from c7 over d6, ``+p`` on e5 from g7 over f6): the en passant capture
  takes the pawn of the one mark only (``{"d6": "empty", "e5": "c:-p"}``,
  ``{"f6": "empty", "e5": "c:+p"}``), as Fairy-Stockfish's en passant squares say;
- ``+X``, the shogi-style promoted form of ``X``, moving as the type
  ``Promotion.promoted`` names;
- ``+`` on cambodian chess's king and met standing on their first rank
  (``Variant.cambodian_moves``): the first-move leap remains (``+K^`` also leaps as a knight
  two files aside and one rank forward, ``+M`` two squares forward, onto an empty square);
- ``-X`` on a type that does not double-step: a piece promoted from a pawn in a game where
  captured pieces go to hand (Fairy-Stockfish's ``X~``): captured, it goes to hand as the pawn;
- drops (source ``*``) of every type but the royal one (that too in a setup phase,
  ``Drops.must_drop``) where the variant has drops: onto
  the empty squares of the side's drop region where the piece may stand and, where the
  variant says so, could still move, with the pawns' rules (first rank, promotion zone) and
  the no-doubled rule written as a ``deny`` on the file.

The moves along the variant's diagonal lines (janggi's palace, :meth:`Layout.diagonal`) are
movements from one of their squares onto another; a pass (``Variant.passing``) is the royal
piece's move onto its own square, on no condition. A janggi cannon hops as xiangqi's, over
any screen and onto any enemy piece: that it may neither hop over nor take a cannon is the
rule system's (a possibility holds one condition a square).

What a document cannot say is the rule system's (:mod:`ggn.rules.variant`): promotion, the
castling rook's move and the attacked squares, the marks changing, captures to hand, the
no-doubled count beyond one, the ends of the game. A move into a square a piece could never
move from again (a shogi pawn onto the last rank) is listed, the piece is not listed as
standing there: the rule system completes the move with its forced promotion, or refuses it.

Frames: movements are in the mover's frame, and the second player's are the first's turned
half a circle, as Fairy-Stockfish plays them (:class:`~ggn.variants.pieces.View` with
``rotate=True``). A piece type's ``stands`` (Fairy-Stockfish's mobility region, in the
mover's frame) limits its sources and its destinations; the regions of the rules
(promotion, double steps, drops, flags) are in the board's frame, one a side.

The token helpers, for :mod:`ggn.variants.fen` and the rule system: :func:`style`,
:func:`pin` (a type's PIN letter), :func:`token` (the QPI of a type for a side, with its
marks), and :class:`Layout` (a variant's letters, frames and regions, worked out once).

>>> from ggn.variants.betza import parse
>>> from ggn.variants.description import PieceType, Variant
>>> rook, king = PieceType("r", parse("R")), PieceType("k", parse("K"))
>>> tiny = Variant("tiny", 3, 3, (rook, king), "k2/3/R1K w - - 0 1")
>>> document = build(tiny)
>>> list(document)
['T:K^', 'T:R', 't:k^', 't:r']
>>> document["T:R"]["a1"]["a3"]
[{'must': {'a2': 'empty', 'a3': 'empty'}}, {'must': {'a2': 'empty', 'a3': 'enemy'}}]
>>> token(tiny, "k", "second")
't:k^'
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ggn._json import quote
from ggn._types import Side, check_fields, expect
from ggn.cell import Cell
from ggn.errors import GGNError
from ggn.ruleset import Ruleset, load_packed, store_packed
from ggn.variants.description import PieceType, Variant
from ggn.variants.pieces import Drop, Movement, Piece, Square, View, destinations, drops

__all__ = [
    "Castle", "Layout", "Mark", "build", "canonical", "castling_rank", "castling_squares", "castlings",
    "layout", "pin", "ruleset_of", "style", "token",
]

Mark = Literal["normal", "castling", "dashed", "promoted", "tilde", "leap", "crossed"]
"""A state a piece can be in: plain; ``+`` for a castling right (or a gating right, in a game
with seirawan's gating); ``-`` after a double step;
``+`` for a shogi-style promoted form; ``-`` for a piece promoted from a pawn where captures
go to hand; ``+`` for cambodian chess's first-move leap (``Variant.cambodian_moves``); ``+``
after an initial move that passed over squares on later files than its destination
(``crossed``: berolina's pawn from g7 to e5; ``-`` when from c7)."""

_PREFIX: Final[dict[Mark, str]] = {
    "normal": "", "castling": "+", "dashed": "-", "promoted": "+", "tilde": "-", "leap": "+",
    "crossed": "+",
}
_ORTHOGONAL: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))
_WALL_LETTERS: Final = "WZYXVUTSQOMLJIHGFEDCBANKRP"  # a wall's letter: the first no type has
_DIAGONALS: Final = ((1, 1), (-1, 1), (1, -1), (-1, -1))
# The moves along diagonal lines of Fairy-Stockfish's types that have them: the vectors, the
# most steps (None: a ride) and the pieces hopped over.
_DIAGONAL: Final[dict[str, tuple[tuple[tuple[int, int], ...], int | None, int]]] = {
    "wazir": (_DIAGONALS, 1, 0),
    "soldier": (((1, 1), (-1, 1)), 1, 0),
    "rook": (_DIAGONALS, None, 0),
    "janggiCannon": (_DIAGONALS, None, 1),
}

Possibility = dict[str, dict[str, str]]
Destinations = dict[str, list[Possibility]]


def style(variant: Variant) -> str:
    """The first player's style letter (SIN) of a variant: its ``style``, else the first ASCII
    letter of its name uppercased, else ``V`` (the second player's is its lowercase).

    >>> style(Variant("3check", 8, 8, (), "8/8/8/8/8/8/8/8 w - - 0 1"))
    'C'
    """
    expect(variant, Variant, "variant", "a Variant")
    if variant.style:
        return variant.style.upper()
    return next((ch.upper() for ch in variant.name if ch.isascii() and ch.isalpha()), "V")


def pin(variant: Variant, letter: str) -> str:
    """The PIN letter (uppercase) of the piece type of FEN letter ``letter``."""
    return layout(variant).pins[_known(variant, letter)]


def token(variant: Variant, letter: str, side: Side, mark: Mark = "normal") -> str:
    """The QPI of a piece of the type of FEN letter ``letter`` for ``side``, with ``mark``.

    >>> from ggn.variants.description import PieceType, Variant
    >>> chess = Variant("chess", 8, 8, (PieceType("k", ()), PieceType("r", ())), "8/8/8/8/8/8/8/8 w - - 0 1")
    >>> token(chess, "k", "first", "castling"), token(chess, "r", "second", "dashed")
    ('C:+K^', 'c:-r')
    """
    return layout(variant).token(_known(variant, letter), _player(side), mark)


def _player(side: object) -> Side:
    """``side`` checked: ``"first"`` or ``"second"``."""
    if side not in ("first", "second"):
        expect(side, str, "side", "'first' or 'second'")
        raise GGNError(f"a side is 'first' or 'second', not {quote(str(side))}")
    return side


def _colour(side: object) -> int:
    """``side`` checked: 0 (the first player) or 1 (the second)."""
    if type(side) is not int or side not in (0, 1):
        expect(side, int, "side", "0 (the first player) or 1 (the second)")
        raise GGNError(f"a side is 0 (the first player) or 1 (the second), not {side}")
    return side


def _layout(made: object) -> Layout:
    return expect(made, Layout, "made", "a Layout")  # type: ignore[no-any-return]


def _known(variant: Variant, letter: str) -> str:
    expect(variant, Variant, "variant", "a Variant")
    expect(letter, str, "letter", "a str")
    lowered = letter.lower()
    if lowered not in layout(variant).types:
        raise GGNError(f"{letter!r} is not a piece letter of {variant.name}")
    return lowered


def _turn(files: int, ranks: int, squares: Iterable[Square]) -> frozenset[Square]:
    """Squares seen from the other side: turned half a circle."""
    return frozenset((files - 1 - file, ranks - 1 - rank) for file, rank in squares)


class Layout:
    """A variant's letters, frames and regions, as the document and the rule system need them
    (made once per variant by :func:`layout`).

    Squares are ``(file, rank)``; ``side`` is 0 for the first player, 1 for the second. The
    second player's frame is the board turned half a circle (:meth:`mover`, :meth:`board`).
    """

    def __init__(self, variant: Variant) -> None:
        expect(variant, Variant, "variant", "a Variant")
        self.variant = variant
        self.files, self.ranks = variant.files, variant.ranks
        self.style = style(variant)
        self.squares: frozenset[Square] = frozenset(
            (file, rank) for file in range(self.files) for rank in range(self.ranks)) - variant.holes
        self.views = tuple(View(self.files, self.ranks, self.style, second, rotate=True, holes=variant.holes)
                           for second in (False, True))
        self._dead: dict[tuple[str, int], frozenset[Square]] = {}
        self.types: dict[str, PieceType] = {}
        self.pins: dict[str, str] = {}
        letters: dict[str, str] = {}
        for piece in variant.pieces:
            letter = piece.letter.lower()
            name = (piece.pin or letter).upper()
            if letter in self.types:
                raise GGNError(f"variant {variant.name!r}: two piece types have the letter {letter!r}")
            if name in letters:
                raise GGNError(f"variant {variant.name!r}: the piece types {letters[name]!r} and {letter!r} "
                               f"have the same PIN letter {name!r}")
            self.types[letter], self.pins[letter], letters[name] = piece, name, letter
        # A wall (a square walled off during play): a piece of the second player's that no move
        # takes, of a letter no type has (see wall_token).
        self.wall: str | None = None
        if variant.walls is not None:
            self.wall = next((ch for ch in _WALL_LETTERS if ch not in letters), None)
            if self.wall is None:
                raise GGNError(f"variant {variant.name!r}: every letter is a piece type's, and a wall "
                               "needs one")
        self.royal = variant.king if variant.king in self.types else None
        promotion, castling = variant.promotion, variant.castling
        double, drops_ = variant.double_step, variant.drops
        self.promoted: dict[str, str] = {}
        if promotion is not None:
            self.promoted = {base: to for base, to in promotion.promoted
                             if base in self.types and to in self.types}
        self.castling_letters = frozenset(
            {castling.king, *castling.rooks} & self.types.keys()) if castling is not None else frozenset()
        self.double_letters = (frozenset(double.types & self.types.keys()) if double is not None
                               else frozenset())
        self.initial_letters = (frozenset(double.initial_movers & self.types.keys()) if double is not None
                                else frozenset())
        # Initial movers whose initial moves pass squares diagonally: '-' or '+' by the way it went.
        self.crossed_letters = frozenset(letter for letter in self.initial_letters - self.double_letters
                                         if _diagonal_passes(self.types[letter]))
        for letter in sorted(self.crossed_letters):
            if letter in self.double_letters or _straight_passes(self.types[letter]):
                raise GGNError(f"variant {variant.name!r}: the type {letter!r} passes over squares both "
                               "straight and diagonally by its initial moves: its marks '-' and '+' cannot "
                               "say which")
        # Fairy-Stockfish marks a piece promoted from a pawn ('~') where it would go to a hand as
        # a pawn: to the capturer's (without dropLoop), or to the partner's on the other board.
        self.tilde = bool(drops_ is not None
                          and ((drops_.captures_to_hand and not drops_.loop) or drops_.two_boards)
                          and promotion is not None and any(promotion.pawn_types))
        self.tilde_letters: frozenset[str] = frozenset()
        if self.tilde:
            assert promotion is not None
            self.tilde_letters = frozenset(promotion.choices[0] + promotion.choices[1]) & self.types.keys()
        # Seirawan's gating: a right ('+') any piece of the castling rank may hold, but a pawn
        # (which never stands there) and a type whose '+' is its promoted form.
        self.gating_letters: frozenset[str] = frozenset()
        if variant.gating:
            pawns = (promotion.pawn_types[0] | promotion.pawn_types[1]) if promotion else frozenset()
            self.gating_letters = frozenset(
                letter for letter in self.types if letter not in self.promoted and letter not in pawns
                and letter not in self.double_letters | self.initial_letters)
        # Cambodian chess's first moves: the king's leap and the met's (fers) double step.
        self.leap_letters: frozenset[str] = frozenset()
        if variant.cambodian_moves:
            self.leap_letters = frozenset(
                letter for letter, piece in self.types.items()
                if (piece.name == "king" and letter == self.royal) or piece.name in ("fers", "met"))
        plus = (self.castling_letters | self.promoted.keys() | self.leap_letters) & self.crossed_letters
        if plus:
            raise GGNError(f"variant {variant.name!r}: the type {min(plus)!r} would need '+' both for a "
                           "diagonal initial move and for castling, a promoted form or a first-move leap")
        plus = self.castling_letters & self.promoted.keys()
        if plus:
            raise GGNError(f"variant {variant.name!r}: the type {min(plus)!r} would need '+' both for "
                           "castling and for its promoted form")
        plus = (self.castling_letters | self.promoted.keys()) & self.leap_letters
        if plus:
            raise GGNError(f"variant {variant.name!r}: the type {min(plus)!r} would need '+' both for its "
                           "first-move leap and for castling or a promoted form")
        minus = (self.double_letters | self.initial_letters) & self.tilde_letters
        if minus:
            raise GGNError(f"variant {variant.name!r}: the type {min(minus)!r} would need '-' both for a "
                           "double step and for a piece promoted from a pawn")

    def wall_token(self) -> str:
        """The QPI of a wall: its letter (:attr:`wall`, ``W`` unless a piece type has it), the
        second player's (lowercase), in the second player's style (``c:w``)."""
        if self.wall is None:
            raise GGNError(f"{self.variant.name} has no walls")
        return f"{self.style.lower()}:{self.wall.lower()}"

    # --- checks of the arguments ------------------------------------------------------------------
    def _letter(self, letter: object) -> str:
        """``letter`` checked: a piece type's letter (lowercase) of the variant."""
        if letter not in self.types:
            expect(letter, str, "letter", "a str")
            raise GGNError(f"{quote(str(letter))} is not a piece letter (lowercase) of {self.variant.name}")
        return letter

    @staticmethod
    def _mark(mark: object) -> Mark:
        if mark not in _PREFIX:
            expect(mark, str, "mark", "a str")
            raise GGNError(f"a mark is one of {', '.join(_PREFIX)}, not {quote(str(mark))}")
        return mark

    # --- frames -------------------------------------------------------------------------------
    def mover(self, side: int, squares: Iterable[Square]) -> frozenset[Square]:
        """Board squares in ``side``'s frame."""
        expect(squares, Iterable, "squares", "an iterable of squares")
        return frozenset(squares) if _colour(side) == 0 else _turn(self.files, self.ranks, squares)

    def board(self, side: int, squares: Iterable[Square]) -> frozenset[Square]:
        """Squares of ``side``'s frame on the board."""
        return self.mover(side, squares)  # turning half a circle is its own inverse

    def name(self, square: Square) -> str:
        """The name of a board square (``a1``)."""
        expect(square, tuple, "square", "a (file, rank) tuple")
        return str(Cell(square))

    # --- letters and tokens -----------------------------------------------------------------------
    def token(self, letter: str, side: Side | int, mark: Mark = "normal") -> str:
        """The QPI of a piece: its type's letter (lowercase), its side, its mark."""
        second = (_colour(side) if type(side) is int else _player(side)) in ("second", 1)
        letter = self._letter(letter)
        text = _PREFIX[self._mark(mark)] + self.pins[letter] + ("^" if letter == self.royal else "")
        return f"{self.style.lower()}:{text.lower()}" if second else f"{self.style}:{text}"

    def template(self, letter: str, mark: Mark = "normal", *, enemy: bool = False) -> str:
        """A PIN template as :class:`~ggn.variants.pieces.View` reads one (uppercase: the
        mover's piece, lowercase: the opponent's)."""
        expect(enemy, bool, "enemy", "a bool")
        letter = self._letter(letter)
        text = _PREFIX[self._mark(mark)] + self.pins[letter] + ("^" if letter == self.royal else "")
        return text.lower() if enemy else text

    def marks(self, letter: str) -> tuple[Mark, ...]:
        """The states a piece of the type can be in, in the document's order."""
        letter = self._letter(letter)
        found: list[Mark] = ["normal"]
        if letter in self.castling_letters or letter in self.gating_letters:
            found.append("castling")
        if letter in self.double_letters or letter in self.initial_letters:
            found.append("dashed")
        if letter in self.crossed_letters:
            found.append("crossed")
        if letter in self.leap_letters:
            found.append("leap")
        return tuple(found)

    def order(self) -> list[str]:
        """The types in the document's order: the royal one first, then as the variant lists them."""
        letters = list(self.types)
        if self.royal is not None:
            letters.remove(self.royal)
            letters.insert(0, self.royal)
        return letters

    def moves_as(self, letter: str, mark: Mark) -> str:
        """The type whose movements a piece of ``letter`` with ``mark`` has."""
        letter = self._letter(letter)
        if self._mark(mark) != "promoted":
            return letter
        if letter not in self.promoted:
            raise GGNError(f"{letter!r} has no promoted form in {self.variant.name}")
        return self.promoted[letter]

    def pawn_type(self, letter: str) -> bool:
        """Whether a type is Fairy-Stockfish's pawn (whose drops have rules of their own)."""
        piece = self.types[self._letter(letter)]
        return piece.name == "pawn" if piece.name else letter == "p"

    # --- regions -------------------------------------------------------------------------------
    def mobility(self, letter: str, side: int) -> frozenset[Square] | None:
        """Where a type of ``side`` may stand and move to, in the mover's frame (None: anywhere)."""
        return self.types[self._letter(letter)].region(_colour(side))

    def dead(self, letter: str, side: int = 0) -> frozenset[Square]:
        """The squares (``side``'s frame) from which a type has no move without capture on an
        empty board: where it could never move again (Fairy-Stockfish's immobility). A hopper
        counts as the rider it is on an empty board, from the first square on, as in
        Fairy-Stockfish's tables of moves (a cannon is never immobile). Worked out once a type
        and side."""
        letter, side = self._letter(letter), _colour(side)
        found = self._dead.get((letter, side))
        if found is None:
            view = self.views[side]
            quiet = [replace(movement, also=(), within=None, hops=0, grasshopper=False, first=1)
                     if movement.hops else replace(movement, also=(), within=None)
                     for movement in self.types[letter].movements
                     if movement.mode != "capture" and movement.sources is None]
            found = self._dead[(letter, side)] = frozenset(
                square for square in view.names if not destinations(view, quiet, square))
        return found

    def stands(self, letter: str, side: int, mark: Mark = "normal") -> frozenset[Square]:
        """The squares (mover's frame) a piece of ``letter`` with ``mark`` may be a source on."""
        kind = self.moves_as(letter, mark)
        side = _colour(side)
        found = self.mover(side, self.squares)
        mobility = self.mobility(kind, side)
        if mobility is not None:
            found &= mobility
        if self.variant.immobility_illegal:
            found -= self.dead(kind, side)
        # A pawn that must promote never stands in its promotion region, unless dropped there
        # (promotionZonePawnDrops): it then moves, and promotes, as from any other square.
        promotion, drops_ = self.variant.promotion, self.variant.drops
        # (Nor with sittuyin's promotion, where entering the region promotes nothing.)
        if (mark in ("normal", "dashed", "crossed") and promotion is not None
                and promotion.mandatory_pawn
                and not promotion.sittuyin and letter in promotion.pawn_types[side]
                and (drops_ is None or not drops_.promotion_zone_pawn_drops)):
            found -= self.mover(side, promotion.regions[side])
        return found

    def drop_squares(self, letter: str, side: int) -> frozenset[Square]:
        """Where a piece of ``letter`` may be dropped (mover's frame), the no-doubled rule aside."""
        drops_ = self.variant.drops
        letter, side = self._letter(letter), _colour(side)
        if drops_ is None:
            raise GGNError(f"{self.variant.name} has no drops")
        if drops_.no_doubled == letter and drops_.no_doubled_count <= 0:
            return frozenset()  # every file holds that many of them already: never dropped
        region = drops_.regions[side]
        found = self.mover(side, self.squares if region is None else region & self.squares)
        mobility = self.mobility(letter, side)
        if mobility is not None:
            found &= mobility
        if self.variant.immobility_illegal:
            found -= self.dead(letter, side)
        if self.pawn_type(letter):
            promotion = self.variant.promotion
            if promotion is not None and not drops_.promotion_zone_pawn_drops:
                found -= self.mover(side, promotion.regions[side])
            if not drops_.first_rank_pawn_drops:
                found = frozenset(square for square in found if square[1] != 0)
        return found

    def passing_mark(self, letter: str, source: Square, destination: Square) -> Mark:
        """The mark a piece of ``letter`` has after its double step or initial move from
        ``source`` to ``destination`` (board squares): ``crossed`` (``+``) when it passed over
        squares on later files than ``destination``'s, else ``dashed`` (``-``)."""
        letter = self._letter(letter)
        expect(source, tuple, "source", "a (file, rank) tuple")
        expect(destination, tuple, "destination", "a (file, rank) tuple")
        return "crossed" if letter in self.crossed_letters and destination[0] < source[0] else "dashed"

    def double_region(self, side: int) -> frozenset[Square]:
        """Where a double-step type of ``side`` may make its double step (mover's frame)."""
        double = self.variant.double_step
        side = _colour(side)
        return self.mover(side, double.regions[side]) if double is not None else frozenset()

    def movements(self, letter: str, side: int, mark: Mark = "normal") -> tuple[Movement, ...]:
        """The movements of a piece (mover's frame), the double step and the moves along the
        diagonal lines included; castling, en passant and the flying general are written
        apart."""
        kind = self.moves_as(letter, mark)
        side = _colour(side)
        found = self.types[kind].movements
        if mark in ("normal", "dashed") and letter in self.double_letters:
            region = self.double_region(side)
            if region:
                found = (*found, Movement(((0, 1),), first=2, last=2, mode="move", sources=region))
        if mark == "leap":
            found = (*found, _leap_movement(self, letter))
        diagonal = self.diagonal(kind, side)
        if diagonal is not None:
            found = (*found, diagonal)
        return found

    def diagonal(self, letter: str, side: int) -> Movement | None:
        """The moves of a type along the variant's diagonal lines (Fairy-Stockfish's
        ``diagonalLines``, janggi's palace), from one of their squares onto another, in
        ``side``'s frame, as Fairy-Stockfish gives them by type: its wazir (and a royal piece
        of ``king_type`` wazir) steps, its soldier steps forward, its rook rides and its janggi
        cannon hops; None for the other types and where the variant has no such lines."""
        piece, side = self.types[self._letter(letter)], _colour(side)
        lines = self.variant.diagonal_lines & self.squares
        if not lines:
            return None
        name = piece.name
        if letter == self.royal and name == "king" and self.variant.king_type is not None:
            name = self.variant.king_type
        shape = _DIAGONAL.get(name or "")
        if shape is None:
            return None
        vectors, last, hops = shape
        region = self.mover(side, lines)
        return Movement(vectors, last=last, hops=hops, sources=region, within=region)


_LAYOUTS: dict[int, Layout] = {}
_LAYOUTS_LOCK: Final = threading.Lock()


def layout(variant: Variant) -> Layout:
    """The :class:`Layout` of a variant (made once, kept while the variant is in use)."""
    made = _LAYOUTS.get(id(variant))
    if made is not None and made.variant is variant:
        return made
    made = Layout(variant)
    with _LAYOUTS_LOCK:
        if len(_LAYOUTS) > 64:
            _LAYOUTS.clear()
        _LAYOUTS[id(variant)] = made
    return made


# --- the document ------------------------------------------------------------------------------
def ruleset_of(variant: Variant) -> Ruleset:
    """The variant's document (:func:`build`) as a validated :class:`~ggn.ruleset.Ruleset`: from
    the compile cache (:mod:`ggn.cache`) when a process made it before, else made and kept
    there. Its key is the variant's canonical description, with the cache's fingerprint of
    the code that builds and checks documents. The squares where each type could never move
    again (:meth:`Layout.dead`), which building the document works out, are kept with it."""
    expect(variant, Variant, "variant", "a Variant")
    key = _described(variant).encode()
    made_layout = layout(variant)
    kept = load_packed("document", key)
    if kept is not None and isinstance(kept[1], dict):  # else not this version's form: made again
        ruleset, dead = kept
        for found, squares in dead.items():
            made_layout._dead.setdefault(found, squares)
        return ruleset
    made = Ruleset.from_value(build(variant))
    for letter in made_layout.types:  # what the rule system asks for next, worked out now
        for side in (0, 1):
            if variant.immobility_illegal:
                made_layout.dead(letter, side)
    store_packed("document", key, made, dict(made_layout._dead))
    return made


_DESCRIBED: dict[int, tuple[Variant, str]] = {}  # by the variant's identity (held: no reuse of it)
_DESCRIBED_KEPT: Final = 256


def _described(variant: Variant) -> str:
    """:func:`canonical` of a variant, worked out once per variant object: the compile cache's
    keys of its document and of the native kernel's tables both hold it (grand's takes 10 ms)."""
    found = _DESCRIBED.get(id(variant))
    if found is not None and found[0] is variant:
        return found[1]
    text = canonical(variant)
    if len(_DESCRIBED) >= _DESCRIBED_KEPT:
        _DESCRIBED.clear()
    _DESCRIBED[id(variant)] = (variant, text)
    return text


def canonical(value: object) -> str:
    """A variant description (or any of its parts) as text that is the same in every process:
    sets sorted, each record with its type's name and every field by name."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ",".join(f"{field.name}={canonical(getattr(value, field.name))}"
                          for field in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    if isinstance(value, tuple | list):
        return "(" + ",".join(map(canonical, value)) + ")"
    if isinstance(value, frozenset | set):
        return "{" + ",".join(sorted(map(canonical, value))) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canonical(k)}:{canonical(v)}" for k, v in value.items())) + "}"
    if value is None or isinstance(value, str | int | float):
        return repr(value)
    raise TypeError(f"no canonical form for {type(value).__name__}")


def build(variant: Variant) -> dict[str, Any]:
    """The complete GGN 1.0.0 document of a variant, as plain JSON-ready values (a new copy).

    Pieces come in this order for each side, the first player's first: the royal type, then
    the others as ``variant.pieces`` lists them, each followed by its castling (``+``) and
    double-step (``-``) forms; then the shogi-style promoted forms (``+X``) and the pieces
    promoted from pawns where captures go to hand (``-X``).
    """
    made = layout(variant)
    document: dict[str, Any] = {}
    memo: dict[tuple[int, tuple[Movement, ...], Square], Destinations] = {}
    for side in (0, 1):
        for letter, mark in _pieces(made):
            document[made.token(letter, side, mark)] = _sources(made, side, letter, mark, memo)
    if made.wall is not None:
        _walled(made, document)
    return document


def _walled(made: Layout, document: dict[str, Any]) -> None:
    """A wall is the second player's piece: no move of the first player's takes it, nor
    counts it as an enemy (``deny`` the wall wherever a possibility needs an enemy)."""
    wall = made.wall_token()
    for name, sources in document.items():
        if not name[0].isupper():
            continue
        for destinations_ in sources.values():
            for ways in destinations_.values():
                for way in ways:
                    enemies = [cell for cell, state in way["must"].items() if state == "enemy"]
                    if enemies:
                        way.setdefault("deny", {}).update(dict.fromkeys(enemies, wall))


def _pieces(made: Layout) -> list[tuple[str, Mark]]:
    found: list[tuple[str, Mark]] = []
    for letter in made.order():
        found.extend((letter, mark) for mark in made.marks(letter))
    found.extend((letter, "promoted") for letter in made.order() if letter in made.promoted)
    found.extend((letter, "tilde") for letter in made.order() if letter in made.tilde_letters)
    return found


@dataclass(frozen=True, slots=True)
class _Piece:
    letter: str
    mark: Mark
    side: int


def _reached(memo: dict[tuple[int, tuple[Movement, ...], Square], Destinations], view: View, side: int,
             movements: tuple[Movement, ...], square: Square) -> Destinations:
    """The destinations of ``movements`` from ``square``, worked out once a document (pieces of
    one type in several states, and promoted forms, share them), each time a copy."""
    key = (side, movements, square)
    found = memo.get(key)
    if found is None:
        found = memo[key] = destinations(view, movements, square)
    return {name: [{part: dict(squares) for part, squares in way.items()} for way in ways]
            for name, ways in found.items()}


def _sources(made: Layout, side: int, letter: str, mark: Mark,
             memo: dict[tuple[int, tuple[Movement, ...], Square], Destinations]) -> dict[str, Destinations]:
    view = made.views[side]
    piece = _Piece(letter, mark, side)
    movements = made.movements(letter, side, mark)
    mobility = made.mobility(made.moves_as(letter, mark), side)
    allowed = None if mobility is None else {
        view.names[square] for square in mobility if square in view.names}
    flying = _flying(made, letter, side)
    passes = letter == made.royal and made.variant.passing[side]
    takes = _takes_en_passant(made, letter, mark)
    found: dict[str, Destinations] = {}
    stands = made.stands(letter, side, mark)
    for square in view.names:  # in the board's order: a1, b1, ..., a2, ...
        if square not in stands:
            continue
        if mark == "castling" and not _on_castling_square(made, piece, square):
            continue
        if mark == "leap" and square[1] != 0:
            continue  # a right is kept on the first rank only
        reached = _reached(memo, view, side, movements, square)
        if allowed is not None:
            reached = {name: ways for name, ways in reached.items() if name in allowed}
        if takes:
            _add_en_passant(made, piece, square, reached)
        if mark == "castling" and letter == _castling_king(made) and _castles_from(made, piece, square):
            _add_castling(made, side, square, reached)
        if flying:
            for name, ways in destinations(view, flying, square).items():
                listed = reached.setdefault(name, [])
                listed.extend(way for way in ways if way not in listed)
        if passes:
            # A pass: the royal piece's move onto its own square, on no condition.
            listed = reached.setdefault(view.names[square], [])
            if {} not in listed:
                listed.append({})
        if reached:
            found[view.names[square]] = reached
    drops_ = made.variant.drops
    # The royal type is dropped only in a setup phase (mustDrop), the one way it starts in hand.
    if drops_ is not None and drops_.piece_drops and mark == "normal" \
            and (letter != made.royal or drops_.must_drop):
        dropped = _drops(made, side, letter)
        if dropped:
            found["*"] = dropped
    return found


def _flying(made: Layout, letter: str, side: int) -> tuple[Movement, ...]:
    """The flying general: the royal piece's capture of the other royal piece along an open
    line, which makes facing royal pieces illegal by the rule that no move may leave a royal
    piece to be taken (one movement for each state the other royal piece can be in: with its
    castling right too, synochess's)."""
    if not made.variant.flying_general or letter != made.royal:
        return ()
    # Only onto squares the other royal piece may stand on (its region, seen from this side).
    mobility = made.mobility(letter, 1 - side)
    within = None if mobility is None else _turn(made.files, made.ranks, mobility)
    return tuple(Movement(_ORTHOGONAL, last=None, mode="capture", within=within,
                          target=made.template(letter, mark, enemy=True))
                 for mark in made.marks(letter))


def _drops(made: Layout, side: int, letter: str) -> Destinations:
    drops_ = made.variant.drops
    assert drops_ is not None
    deny = made.template(letter) if drops_.no_doubled == letter and drops_.no_doubled_count == 1 else None
    squares = made.drop_squares(letter, side)
    return drops(made.views[side], Piece(made.template(letter), ()), Drop(squares=squares, file_deny=deny))


def _leap_movement(made: Layout, letter: str) -> Movement:
    """Cambodian chess's first move of a type of :attr:`Layout.leap_letters` (mover's frame):
    the king's leap as a knight two files aside and one rank forward, the met's two squares
    straight forward, onto an empty square."""
    if _layout(made).types[made._letter(letter)].name == "king":
        return Movement(((2, 1), (-2, 1)), mode="move")
    return Movement(((0, 2),), mode="move")


# --- castling ----------------------------------------------------------------------------------
def _castling_king(made: Layout) -> str | None:
    castling = made.variant.castling
    return castling.king if castling is not None and castling.king in made.types else None


def castling_rank(made: Layout, side: int) -> int:
    """The board rank a side castles on."""
    castling = _layout(made).variant.castling
    if castling is None:
        raise GGNError(f"{made.variant.name} has no castling")
    return castling.rank if _colour(side) == 0 else made.ranks - 1 - castling.rank


def castling_squares(made: Layout, side: int) -> tuple[list[int], list[int]]:
    """The files a side's castling king and castling rooks stand on at the start: every file
    of the castling rank in chess960."""
    rank = castling_rank(made, side)
    castling = made.variant.castling
    assert castling is not None  # castling_rank says so
    files = [file for file in range(made.files) if (file, rank) in made.squares]
    if made.variant.chess960:
        return files, files
    kingside = castling.rook_files[0] if castling.rook_files[0] is not None else made.files - 1
    rooks = [file for file in (kingside, castling.rook_files[1]) if file in files]
    return [castling.king_file] if castling.king_file in files else [], rooks


def _gate_rank(made: Layout, side: int) -> int:
    """The board rank whose pieces may hold gating rights (Fairy-Stockfish's castling rank,
    whether the game castles or not)."""
    castling = _layout(made).variant.castling
    rank = castling.rank if castling is not None else 0
    return rank if _colour(side) == 0 else made.ranks - 1 - rank


def _on_castling_square(made: Layout, piece: _Piece, square: Square) -> bool:
    """Whether a piece may hold a right ('+') on ``square``: a castling right on its castling
    square, a gating right anywhere on the castling rank."""
    _, rank = next(iter(made.board(piece.side, (square,))))
    if made.variant.gating and piece.letter in made.gating_letters:
        return rank == _gate_rank(made, piece.side)
    return _castles_from(made, piece, square)


def _castles_from(made: Layout, piece: _Piece, square: Square) -> bool:
    """Whether a castling piece on ``square`` stands where it castles from."""
    file, rank = next(iter(made.board(piece.side, (square,))))
    if made.variant.castling is None or rank != castling_rank(made, piece.side):
        return False
    kings, rooks = castling_squares(made, piece.side)
    return file in (kings if piece.letter == _castling_king(made) else rooks)


@dataclass(frozen=True, slots=True)
class Castle:
    """One castling of a king standing on file ``king`` of its castling rank: the king's
    destination file, the rook's file and destination file, and the files both cross bar the
    two pieces' own, nearest the king first."""

    def __post_init__(self) -> None:
        check_fields(self)

    king: int
    to: int
    rook: int
    rook_to: int
    crossed: tuple[int, ...]


def castlings(made: Layout, side: int, king: int) -> list[Castle]:
    """The castlings of a king standing on file ``king`` of its castling rank. In chess960
    the king or the rook may stay where it is, or go where the other stood."""
    rank = castling_rank(made, side)
    castling = made.variant.castling
    assert castling is not None  # castling_rank says so
    expect(king, int, "king", "an int (a file)")
    _, rooks = castling_squares(made, side)
    outer = castling.rook_files[0] if castling.rook_files[0] is not None else made.files - 1
    found = []
    for rook in rooks:
        if rook == king:
            continue
        kingside = rook > king
        if not made.variant.chess960 and rook != (outer if kingside else castling.rook_files[1]):
            continue
        to = castling.kingside_file if kingside else castling.queenside_file
        rook_to = to - 1 if kingside else to + 1
        crossed = (set(_between(king, to)) | set(_between(rook, rook_to))) - {king, rook}
        if any((file, rank) not in made.squares for file in crossed | {to, rook_to}):
            continue
        nearest = tuple(sorted(crossed, key=lambda file: abs(file - king)))
        found.append(Castle(king, to, rook, rook_to, nearest))
    return found


def _between(start: int, end: int) -> list[int]:
    """The files from ``start`` to ``end``, both included."""
    step = 1 if end >= start else -1
    return list(range(start, end + step, step))


def _add_castling(made: Layout, side: int, square: Square, reached: Destinations) -> None:
    view = made.views[side]
    castling = made.variant.castling
    assert castling is not None
    file, rank = next(iter(made.board(side, (square,))))
    for castle in castlings(made, side, file):
        # In chess960 the king may stay (its move is onto its own square) or go where its rook
        # stands (that square's condition is the rook).
        for letter in sorted(castling.rooks & made.types.keys()):
            must = {made.name((crossed, rank)): "empty" for crossed in castle.crossed}
            must[made.name((castle.rook, rank))] = view.qpi(made.template(letter, "castling"))
            listed = reached.setdefault(made.name((castle.to, rank)), [])
            possibility: Possibility = {"must": must}
            if possibility not in listed:
                listed.append(possibility)


# --- en passant --------------------------------------------------------------------------------
def _takes_en_passant(made: Layout, letter: str, mark: Mark) -> bool:
    double = made.variant.double_step
    return (double is not None and mark in ("normal", "dashed", "crossed") and letter in double.en_passant
            and bool(made.double_letters or made.initial_letters))


def _add_en_passant(made: Layout, piece: _Piece, square: Square, reached: Destinations) -> None:
    """The en passant captures of a piece from ``square``: onto the empty square a piece of
    the other side passed over with its double step (or its initial move), that piece taken."""
    double = made.variant.double_step
    assert double is not None
    side, view = piece.side, made.views[piece.side]
    passing = None if double.passant_regions is None else made.mover(side, double.passant_regions[side])
    victims = _victims(made, side)
    for movement in made.movements(piece.letter, side, piece.mark):
        if not movement.en_passant:
            continue
        capture = replace(movement, en_passant=False)
        for name, ways in destinations(view, (capture,), square).items():
            if any(way["must"].get(name) == "empty" and "deny" not in way and len(way["must"]) == 1
                   for way in reached.get(name, ())):
                continue  # a move without capture goes there: no en passant (Fairy-Stockfish's)
            target = next(key for key, value in view.names.items() if value == name)
            if passing is not None and target not in passing:
                continue
            for way in ways:
                if way["must"].get(name) != "enemy" or "deny" in way:
                    continue
                for offset, victim in victims.get(target, ()):
                    stands = (target[0] + offset[0], target[1] + offset[1])
                    must = {**way["must"], name: "empty", view.names[stands]: victim}
                    listed = reached.setdefault(name, [])
                    possibility: Possibility = {"must": must}
                    if possibility not in listed:
                        listed.append(possibility)


def _victims(made: Layout, side: int) -> dict[Square, list[tuple[Square, str]]]:
    """For each square (``side``'s frame) a piece of the other side may pass over with a double
    step or an initial move: where that piece then stands (an offset from the square) and its
    ``-`` token. A double step goes two squares straight forward from the side's region; an
    initial move (an initial mover's movement limited to its sources) passes the squares
    strictly between its ends when they are on one line, as Fairy-Stockfish's en passant
    squares are."""
    view = made.views[side]
    other = 1 - side
    found: dict[Square, list[tuple[Square, str]]] = {}

    def add(start: Square, step: tuple[int, int], steps: int, letter: str) -> None:
        end = (start[0] + step[0] * steps, start[1] + step[1] * steps)
        if end not in view.names:
            return
        board_start, board_end = (next(iter(made.board(side, (square,)))) for square in (start, end))
        token = view.qpi(made.template(letter, made.passing_mark(letter, board_start, board_end), enemy=True))
        for passed in range(1, steps):
            over = (start[0] + step[0] * passed, start[1] + step[1] * passed)
            listed = found.setdefault(over, [])
            entry = ((end[0] - over[0], end[1] - over[1]), token)
            if over in view.names and entry not in listed:
                listed.append(entry)

    # The other side's forward is this side's backward (its frame is turned half a circle).
    starts = made.mover(side, made.board(other, made.double_region(other)))
    for letter in sorted(made.double_letters):
        for start in starts:
            add(start, (0, -1), 2, letter)
    for letter in sorted(made.initial_letters - made.double_letters):
        for movement in made.types[letter].movements:
            if movement.sources is None or movement.mode == "capture":
                continue
            sources = made.mover(side, made.board(other, movement.sources))
            for file, rank in movement.vectors:
                longest = max(abs(file), abs(rank))
                if file and rank and abs(file) != abs(rank):
                    continue  # not on one line: it passes over no square
                unit = (-file // longest, -rank // longest)
                for steps in range(movement.first, (movement.last or 1) + 1):
                    for start in sources:
                        add(start, unit, steps * longest, letter)
    return found


def _passes(piece: PieceType) -> list[tuple[int, int]]:
    """The vectors (first player's frame) of a type's initial moves (Betza's ``i``) that pass
    over squares: along a line, longer than one step."""
    found: list[tuple[int, int]] = []
    for movement in piece.movements:
        if movement.sources is None or movement.mode == "capture":
            continue
        for file, rank in movement.vectors:
            if file and rank and abs(file) != abs(rank):
                continue
            if max(abs(file), abs(rank)) > 1 or movement.last is None or movement.last > 1:
                found.append((file, rank))
    return found


def _diagonal_passes(piece: PieceType) -> bool:
    return any(file for file, _ in _passes(piece))


def _straight_passes(piece: PieceType) -> bool:
    return any(not file for file, _ in _passes(piece))
