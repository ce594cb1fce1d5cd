"""Moves as Fairy-Stockfish writes them for players: SAN and its other named notations.

Fairy-Stockfish (its ``SAN`` namespace, src/apiutil.h; pyffish's ``get_san``) writes a move of
any of its variants in one of nine notations, each named here as in :data:`NOTATIONS`:

- ``san``: Standard Algebraic Notation (``Nf3``, ``exd5``, ``O-O``, ``e8=Q+``, ``N@f7``);
- ``lan``: the long form, with the source square always (``Ng1-f3``, ``e7xd8=Q#``);
- ``shogi-hosking``: shogi's western notation after Hosking (``P76``, ``S'34``);
- ``shogi-hodges``: Hodges' shogi notation, ranks as letters (``P-7f``, ``S*3d``);
- ``shogi-hodges-number``: Hodges' with numbered ranks (``P-76``, ``S*34``, ``Bx22+``);
- ``janggi``: janggi's, rank then file, both numbered (``N87-66``);
- ``wxf``: the World Xiangqi Federation's (``C2=5``, ``H2+3``);
- ``thai-san`` and ``thai-lan``: makruk's, in Thai letters (``ม-ง๒``, ``ม ข๑-ง๒``).

Fairy-Stockfish writes any of them for any variant; its default (``get_san`` without a
notation) is ``shogi-hodges-number`` for the games of its shogi template and ``san`` for every
other (:func:`default`). This module writes exactly what it writes, from a rule system's plays:
the piece's letter (Fairy-Stockfish's letter of the type the piece moves as, its synonym first:
xiangqi's horse is ``H``), the disambiguation (only where another piece of the same type has the
same legal move, and with walls the same wall), the capture mark, the promotion, the wall a
move places (``,d5`` after the move: duck chess's ``e4,d5``), and the check (``+``) and mate
(``#``) marks that the ``san``, ``lan``, ``janggi`` and Thai notations carry.

:func:`write` names one play, :func:`moves` every legal play of a position, :func:`parse` finds
the play a text names, tolerant the way python-chess's ``parse_san`` is: check and mate marks
and ``!``/``?`` annotations may be left out or added, ``0-0`` is ``O-O``, ``e8Q`` is ``e8=Q``,
a source square may be given where none is needed (``Ng1f3``, or the long form ``Ng1-f3``), and
a pawn may be named ``P``. A text that names no legal play, or several, is an
:class:`~ggn.errors.IllegalMoveError` quoting it and naming the candidates.

>>> from ggn.variants import registry
>>> rules = registry.rules("chess")
>>> start = rules.position()
>>> sorted(moves(rules, start))[:5]
['Na3', 'Nc3', 'Nf3', 'Nh3', 'a3']
>>> play = parse(rules, start, "Ng1f3")
>>> str(play), write(rules, start, play), write(rules, start, play, "lan")
('C:N g1-f3', 'Nf3', 'Ng1-f3')
>>> shogi = registry.rules("shogi")
>>> default(shogi.variant)
'shogi-hodges-number'
>>> play = parse(shogi, shogi.position(), "P-7f", "shogi-hodges")
>>> write(shogi, shogi.position(), play, "shogi-hodges-number"), write(shogi, shogi.position(), play)
('P-76', 'Pc4')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from ggn._json import quote
from ggn._types import expect
from ggn.cell import Cell
from ggn.errors import GGNError, IllegalMoveError
from ggn.position import Position
from ggn.qpi import Qpi
from ggn.rules import Play, RuleSystem
from ggn.variants import _checks as checks
from ggn.variants.description import Variant
from ggn.variants.document import Layout, layout
from ggn.variants.fen import _table, from_feen
from ggn.variants.uci import _gate_of

__all__ = ["NOTATIONS", "Notation", "default", "moves", "parse", "write"]

Notation = Literal["san", "lan", "shogi-hosking", "shogi-hodges", "shogi-hodges-number", "janggi", "wxf",
                   "thai-san", "thai-lan"]
"""A notation of Fairy-Stockfish's, by name."""

NOTATIONS: Final[tuple[Notation, ...]] = (
    "san", "lan", "shogi-hosking", "shogi-hodges", "shogi-hodges-number", "janggi", "wxf", "thai-san",
    "thai-lan")
"""Fairy-Stockfish's notations, in the order of its ``Notation`` enum (``NOTATION_SAN`` first)."""

_SHOGI: Final = frozenset({"shogi-hosking", "shogi-hodges", "shogi-hodges-number"})
_THAI: Final = frozenset({"thai-san", "thai-lan"})
_LONG: Final = frozenset({"lan", "thai-lan", "janggi"})  # the source square always written
_MARKED: Final = frozenset({"san", "lan", "janggi", "thai-san", "thai-lan"})  # with check marks

THAI_FILES: Final = ("ก", "ข", "ค", "ง", "จ", "ฉ", "ช", "ญ", "ต", "ถ", "ธ", "น")
THAI_RANKS: Final = ("๑", "๒", "๓", "๔", "๕", "๖", "๗", "๘", "๙", "๑๐", "๑๑", "๑๒")
# Fairy-Stockfish's Thai letter of a piece type, by its name (anything else is "X").
_THAI_PIECES: Final = {"king": "ข", "khon": "ค", "silver": "ค", "knight": "ม", "rook": "ร", "pawn": "บ",
                       "aiwok": "ว"}
_THAI_MET: Final = ("ม็", "ง")  # a met (fers): not promoted, promoted from a pawn

# Fairy-Stockfish's internal board (the largeboards build pyffish is): 12 files by 10 ranks,
# squares numbered rank * 12 + file. Its xiangqi notation finds one square by adding a
# difference of those numbers, so it is worked out the same way.
_FILE_NB: Final = 12
_SQUARE_NB: Final = 120
_NONE_RANK: Final = 10  # the rank of SQ_NONE, which a drop has for its source

_SHOWN: Final = 12  # candidates named in an error
_LIMIT: Final = 40  # characters of the input quoted in an error
_MAX_TEXT: Final = 200  # longer text is no move of any notation: refused before it is read

Square = tuple[int, int]
Kind = Literal["normal", "drop", "castling", "promotion", "piece-promotion", "piece-demotion", "en-passant"]


def default(variant: Variant) -> Notation:
    """Fairy-Stockfish's default notation of a variant: ``shogi-hodges-number`` for the games of
    its shogi template (``variantTemplate = shogi``), ``san`` for every other."""
    expect(variant, Variant, "variant", "a Variant")
    return "shogi-hodges-number" if variant.template == "shogi" else "san"


# --- what Fairy-Stockfish knows of a piece and a move ------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Man:
    """A piece on the board, as Fairy-Stockfish sees it."""

    side: int  # 0: the first player (white), 1: the second
    base: str  # its FEN letter (a promoted piece's: the piece it was)
    kind: str  # the letter of the type it is (moves as): Fairy-Stockfish's piece type
    promoted: bool  # a shogi-style promoted piece (``unpromoted_piece_on``)
    tilde: bool  # promoted from a pawn where captures go to hand (``is_promoted``)


@dataclass(frozen=True, slots=True)
class _Move:
    """One legal play, as Fairy-Stockfish's move: its type and what the notations read."""

    play: Play
    kind: Kind
    source: Square | None  # None: a drop
    destination: Square
    type: str  # the moved (or dropped) piece's type letter
    base: str  # its FEN letter (for a promoted piece: the piece it was)
    promoted: bool  # a shogi-style promoted piece moves (or is dropped)
    tilde: bool
    capture: bool
    promotion: str | None  # the letter of a pawn's promotion
    kingside: bool  # a castling's side
    gate: str | None = None  # the letter of the piece a gating puts on the board (seirawan's)
    gate_square: Square | None = None  # where it puts it


class _Scene:
    """A position and its legal plays, read once for writing or reading any number of them."""

    def __init__(self, rules: RuleSystem, position: Position) -> None:
        variant = getattr(rules, "variant", None)
        if not isinstance(variant, Variant):
            raise GGNError(f"the {rules.name} rule system has no Fairy-Stockfish variant: its moves "
                           "have only GGN's notation")
        self.rules = rules
        self.variant = variant
        self.table = _table(variant)
        self.made: Layout = layout(variant)
        self.position = position
        self.side = 0 if position.active == "first" else 1
        self.files, self.ranks = variant.files, variant.ranks
        self.board: dict[Square, _Man] = {}
        wall = self.made.wall
        for cell, qpi in position.board.items():
            if wall is not None and qpi.pin.name == wall:
                continue  # a wall, no one's piece
            file, rank = cell.indices
            self.board[(file, rank)] = self._man(qpi)
        index = position._geometry.index
        self.kings = [index[Cell(square)] for square, man in self.board.items()
                      if man.side != self.side and self._piece_type(man.kind) == "king"]
        self.plays = rules.legal_moves(position)
        self.moves = [self._move(play) for play in self.plays]
        self._after: dict[int, tuple[bool, bool]] = {}
        self._texts: dict[Notation, dict[str, list[_Move]]] = {}

    # --- pieces ---------------------------------------------------------------------------
    def _letter(self, qpi: Qpi) -> str:
        letter = self.table.letters.get(qpi.pin.name)
        if letter is None:
            raise GGNError(f"{str(qpi)!r} is no piece of {self.variant.name}")
        return letter

    def _man(self, qpi: Qpi) -> _Man:
        base = self._letter(qpi)
        promoted = qpi.state == "enhanced" and base in self.made.promoted
        kind = self.made.promoted[base] if promoted else base
        tilde = qpi.state == "diminished" and base in self.made.tilde_letters
        return _Man(0 if qpi.side == "first" else 1, base, kind, promoted, tilde)

    def _move(self, play: Play) -> _Move:
        destination = play.destination
        if not isinstance(destination, Cell):
            raise GGNError(f"{play} does not end on the board: Fairy-Stockfish has no such move")
        target: Square = (destination.indices[0], destination.indices[1])
        source = play.source
        if not isinstance(source, Cell):
            dropped = self._man(play.choice if play.choice is not None else play.piece)
            return _Move(play, "drop", None, target, dropped.kind, dropped.base, dropped.promoted,
                         dropped.tilde, False, None, False)
        start: Square = (source.indices[0], source.indices[1])
        man = self.board.get(start) or self._man(play.piece)
        kind: Kind = "normal"
        promotion: str | None = None
        kingside = False
        transition = play.transition.board
        gate_cell = _gate_of(play)
        gate = None if gate_cell is None else (gate_cell.indices[0], gate_cell.indices[1])
        castling = self.variant.castling
        if castling is not None and man.base == castling.king:
            # The rook's square after a castling to this destination (a Chess960 castling may
            # leave it where it stood: then only its state changes, as its right is spent).
            rank = castling.rank if play.piece.side == "first" else self.variant.ranks - 1 - castling.rank
            beside = None
            if start[1] == rank == target[1] and start[0] != target[0]:
                if target[0] == castling.kingside_file:
                    beside = Cell((target[0] - 1, rank))
                elif target[0] == castling.queenside_file:
                    beside = Cell((target[0] + 1, rank))
            for cell, placed in transition.items():
                if placed is None or cell in (destination, gate_cell) or placed.side != play.piece.side:
                    continue
                if self.table.letters.get(placed.pin.name) not in castling.rooks:
                    continue
                was = self.position.piece_at(cell)
                if was is None or was.side != placed.side \
                        or self.table.letters.get(was.pin.name) not in castling.rooks or cell == beside:
                    kind = "castling"
                    kingside = cell.indices[0] < target[0]
                    break
        choice = play.choice
        if gate is not None:
            assert choice is not None
            return _Move(play, kind, start, target, man.kind, man.base, man.promoted, man.tilde,
                         kind != "castling" and target in self.board and start != target, None, kingside,
                         self._letter(choice), gate)
        if kind == "normal" and choice is not None and choice != play.piece:
            chosen = self._letter(choice)
            if chosen != man.base:
                kind, promotion = "promotion", chosen
            elif choice.state == "enhanced" and play.piece.state != "enhanced":
                kind = "piece-promotion"
            elif choice.state == "normal" and play.piece.state == "enhanced":
                kind = "piece-demotion"
        if kind == "normal":
            for cell, placed in transition.items():
                if placed is None and cell not in (source, destination):
                    was = self.position.piece_at(cell)
                    if was is not None and was.side != play.piece.side and was.pin.name != self.made.wall:
                        kind = "en-passant"
                        break
        capture = kind == "en-passant" or (kind != "castling" and target in self.board and start != target)
        return _Move(play, kind, start, target, man.kind, man.base, man.promoted, man.tilde, capture,
                     promotion, kingside)

    def _piece_type(self, letter: str) -> str | None:
        """Fairy-Stockfish's name of a type (``None``: a type it would number as a custom piece)."""
        piece = self.made.types[letter]
        if piece.name is not None:
            return piece.name
        return "king" if letter == self.variant.king else None

    def _is_pawn(self, letter: str) -> bool:
        return self.made.pawn_type(letter)

    def _char(self, letter: str) -> str:
        """Fairy-Stockfish's letter of a type in SAN: its synonym where it has one."""
        piece = self.made.types[letter]
        return (piece.synonym or letter).upper()

    # --- squares --------------------------------------------------------------------------
    def _relative(self, rank: int) -> int:
        return rank if self.side == 0 else self.ranks - 1 - rank

    def _ahead(self, square: Square, other: Square) -> bool:
        """Whether ``other`` is in front of ``square`` for the player to move."""
        return other[1] > square[1] if self.side == 0 else other[1] < square[1]

    def file(self, notation: Notation, file: int) -> str:
        if notation in _SHOGI:
            return str(self.files - file)
        if notation == "janggi":
            return str(file + 1)
        if notation == "wxf":
            return str((self.files - 1 - file if self.side == 0 else file) + 1)
        if notation in _THAI:
            return THAI_FILES[file]
        return chr(ord("a") + file)

    def rank(self, notation: Notation, square: Square) -> str:
        rank = square[1]
        if notation in ("shogi-hosking", "shogi-hodges-number"):
            return str(self.ranks - rank)
        if notation == "shogi-hodges":
            return chr(ord("a") + self.ranks - 1 - rank)
        if notation == "janggi":
            return str((self.ranks - rank) % 10)
        if notation == "wxf":
            man = self.board.get(square)
            if man is None:  # a drop's destination
                return str(self._relative(rank) + 1)
            same = self._of_type(man.kind)
            return "-" if any(other[0] == square[0] and self._ahead(square, other) for other in same) else "+"
        if notation in _THAI:
            return THAI_RANKS[rank]
        return str(rank + 1)

    def square(self, notation: Notation, square: Square) -> str:
        if notation == "janggi":
            return self.rank(notation, square) + self.file(notation, square[0])
        return self.file(notation, square[0]) + self.rank(notation, square)

    def _of_type(self, kind: str) -> list[Square]:
        """The squares of the mover's pieces of a type."""
        return [square for square, man in self.board.items() if man.side == self.side and man.kind == kind]

    @staticmethod
    def _multi_tandem(squares: Iterable[Square]) -> bool:
        """Whether two or more files hold more than one of the pieces."""
        files: dict[int, int] = {}
        for square in squares:
            files[square[0]] = files.get(square[0], 0) + 1
        return sum(1 for count in files.values() if count > 1) >= 2

    # --- the parts of a move's text -----------------------------------------------------------
    def piece(self, notation: Notation, move: _Move) -> str:
        drop = move.kind == "drop"
        if notation in ("san", "lan", "thai-san") and not drop and self._is_pawn(move.type):
            return ""
        if notation == "wxf":
            same = self._of_type(move.type)
            # A drop has no source: Fairy-Stockfish reads its SQ_NONE (file a, past the last rank).
            file, rank = move.source if move.source is not None else (0, _NONE_RANK)
            on_file = [square for square in same if square[0] == file]
            if len(on_file) >= 3 - self._multi_tandem(same):
                return str(sum(1 for square in on_file if self._ahead((file, rank), square)) + 1)
        if notation in _SHOGI and move.promoted:
            return "+" + move.base.upper()
        if notation in _THAI:
            name = self._piece_type(move.type)
            if name in ("fers", "met"):
                return _THAI_MET[move.tilde]
            return _THAI_PIECES.get(name or "", "X")
        return self._char(move.type)

    def _others(self, notation: Notation, move: _Move) -> list[_Move]:
        """The other pieces of the type with the same legal move to the same square."""
        assert move.source is not None
        shogi = notation in _SHOGI
        found: list[_Move] = []
        for other in self.moves:
            if (other.source is None or other.source == move.source or other.destination != move.destination
                    or other.type != move.type or other.kind != move.kind
                    or other.promotion != move.promotion or other.play.wall != move.play.wall):
                continue
            if shogi and (other.promoted, other.base if other.promoted else "") != (
                    move.promoted, move.base if move.promoted else ""):
                continue
            if all(found_move.source != other.source for found_move in found):
                found.append(other)
        return found

    def disambiguation(self, notation: Notation, move: _Move) -> Literal["", "file", "rank", "square"]:
        if move.source is None:
            return ""
        if move.gate is not None and notation not in _LONG and notation != "wxf" and not (
                notation in ("san", "thai-san") and self._is_pawn(move.type) and move.capture):
            # Fairy-Stockfish looks for the same move from another square with the same gating
            # square, which no piece has: a gating is never disambiguated.
            return ""
        if notation in _LONG:
            return "square"
        if notation == "wxf":
            same = self._of_type(move.type)
            on_file = [square for square in same if square[0] == move.source[0]]
            if len(on_file) == 2 and not self._multi_tandem(same):
                other = on_file[0] if on_file[1] == move.source else on_file[1]
                if self._shifted_on_board(move, other):
                    return "rank"
            return "file"
        if notation in ("san", "thai-san") and self._is_pawn(move.type) and move.capture:
            return "file"
        promotion = self.variant.promotion
        if notation in ("san", "thai-san") and self._is_pawn(move.type) and move.kind == "promotion" \
                and move.source != move.destination and promotion is not None and promotion.sittuyin:
            return "square"  # sittuyin's promotion by a step: Fairy-Stockfish writes its source
        others = self._others(notation, move)
        if not others:
            return ""
        if notation in _SHOGI:
            return "square"
        if all(other.source is not None and other.source[0] != move.source[0] for other in others):
            return "file"
        if all(other.source is not None and other.source[1] != move.source[1] for other in others):
            return "rank"
        return "square"

    def _shifted_on_board(self, move: _Move, other: Square) -> bool:
        """Fairy-Stockfish's xiangqi test: the other piece of the file, moved as this one moves
        (a difference of its square numbers), lands where a piece of the type may stand."""
        assert move.source is not None
        number = (other[1] * _FILE_NB + other[0] + (move.destination[1] - move.source[1]) * _FILE_NB
                  + move.destination[0] - move.source[0])
        if not 0 <= number < _SQUARE_NB:
            return False
        square = (number % _FILE_NB, number // _FILE_NB)
        if square not in self.made.squares:
            return False
        stands = self.made.mobility(move.type, self.side)
        return stands is None or square in self.made.board(self.side, stands)

    def _promotable(self, move: _Move) -> bool:
        """Whether the same move may promote, shogi-style."""
        return any(other.kind == "piece-promotion" and other.source == move.source
                   and other.destination == move.destination for other in self.moves)

    def checks(self, move: _Move) -> tuple[bool, bool]:
        """Whether the move gives check, and whether the opponent then has no legal move (or
        the game has ended at once, when Fairy-Stockfish lists no move either)."""
        key = id(move.play)
        known = self._after.get(key)
        if known is not None:
            return known
        check = mate = False
        # Fairy-Stockfish gives check only to a king (its KING type), not to the other royal or
        # pseudo-royal pieces a rule system guards (coregal's queen).
        if self.kings:
            after = self.position.apply(move.play.transition)
            check = self._king_attacked(after)
            mate = check and self.rules.outcome(after) is not None
        self._after[key] = (check, mate)
        return check, mate

    def _king_attacked(self, after: Position) -> bool:
        """Whether the player who has just moved can move onto a king of the other's in
        ``after`` (the rule system's attack tables, as its own check test reads them). No move
        takes a king, so the kings stand where they stood."""
        attacks = self.rules._tables_for(after).attacks[self.side]
        codes = after._codes
        return any(attacks[number](codes) for number in self.kings)

    def write(self, notation: Notation, move: _Move, *, marks: bool = True) -> str:
        """The move in ``notation``; without its check mark unless ``marks``."""
        if move.kind == "castling":
            text = "O-O" if move.kingside else "O-O-O"
            if move.gate is not None and move.gate_square is not None:
                text += "/" + move.gate.upper() + self.square(notation, move.gate_square)
        else:
            text = self.piece(notation, move)
            if notation == "thai-lan":
                text += " "
            level = self.disambiguation(notation, move)
            if level and move.source is not None:
                text += (self.file(notation, move.source[0]) if level == "file"
                         else self.rank(notation, move.source) if level == "rank"
                         else self.square(notation, move.source))
            source, destination = move.source, move.destination
            if source is None:
                text += "'" if notation == "shogi-hosking" else "*" if notation in _SHOGI else "@"
            elif notation == "wxf":
                if source[1] == destination[1]:
                    text += "="
                else:
                    text += "+" if self._relative(destination[1]) > self._relative(source[1]) else "-"
            elif move.capture:
                text += "x"
            elif (notation in ("lan", "thai-lan", "janggi", "shogi-hodges", "shogi-hodges-number")
                  or (notation == "shogi-hosking" and level == "square")
                  or (notation == "thai-san" and not self._is_pawn(move.type))):
                text += "-"
            if notation == "wxf" and source is not None:
                text += (str(abs(destination[1] - source[1])) if source[0] == destination[0]
                         else self.file(notation, destination[0]))
            else:
                text += self.square(notation, destination)
            if move.kind == "promotion":
                assert move.promotion is not None
                text += "=" + move.promotion.upper()
            elif move.kind == "piece-promotion":
                text += "+" if notation in _SHOGI else "=" + self.made.promoted[move.base].upper()
            elif move.kind == "piece-demotion":
                text += "-" if notation in _SHOGI else "=" + move.base.upper()
            elif move.kind == "normal" and notation in _SHOGI and self._promotable(move):
                text += "="
            if move.gate is not None:
                text += "/" + move.gate.upper()
        wall = move.play.wall
        if wall is not None:
            text += "," + self.square(notation, (wall.indices[0], wall.indices[1]))
        if marks and notation in _MARKED:
            check, mate = self.checks(move)
            if check:
                text += "#" if mate or self._last_check() else "+"
        return text

    def _last_check(self) -> bool:
        """Whether a check by the player to move wins the game at once: check counting, where a
        position stands for the checks its start has left (``ggn.game.Game`` writes the game's
        own), and the mover has one left (checkshogi)."""
        variant = self.made.variant
        if not variant.history.check_counting:
            return False
        return checks.start(variant)[self.side] == 1

    def texts(self, notation: Notation) -> dict[str, list[_Move]]:
        """The moves by their text in ``notation``, without check marks (made once a notation:
        reading a move is then one look-up)."""
        made = self._texts.get(notation)
        if made is None:
            made = {}
            for move in self.moves:
                made.setdefault(self.write(notation, move, marks=False), []).append(move)
            self._texts[notation] = made
        return made

    def find(self, play: Play) -> _Move:
        for move in self.moves:
            if move.play == play:
                return move
        raise IllegalMoveError(f"{play} is not a legal move of {self.variant.name} in {self.fen()!r}")

    def fen(self) -> str:
        return from_feen(self.variant, self.position)


# --- the public functions ----------------------------------------------------------------------
_SCENES: dict[tuple[int, Position], _Scene] = {}
_SCENES_KEPT: Final = 8  # a reader of a game writes and reads each position a few times in a row


def _scene(rules: RuleSystem, position: Position | str) -> _Scene:
    expect(rules, RuleSystem, "rules", "a RuleSystem")
    current = rules._position(position, "position")
    key = (id(rules), current)
    scene = _SCENES.get(key)
    if scene is not None and scene.rules is rules:
        return scene
    scene = _Scene(rules, current)
    if len(_SCENES) >= _SCENES_KEPT:
        _SCENES.clear()
    _SCENES[key] = scene
    return scene


def _notation(notation: object) -> Notation:
    if notation not in NOTATIONS:
        expect(notation, str, "notation", "a str")
        raise GGNError(f"{quote(str(notation))} is not a notation of Fairy-Stockfish's; expected one of "
                       f"{', '.join(NOTATIONS)}")
    return notation


def write(rules: RuleSystem, position: Position | str, play: Play, notation: Notation = "san") -> str:
    """A legal play of ``position`` in a notation of Fairy-Stockfish's (``notation``, one of
    :data:`NOTATIONS`; ``san`` is plain SAN here, whatever the game's :func:`default`), as
    pyffish's ``get_san`` writes it.

    ``rules`` is a rule system with a Fairy-Stockfish variant (``rules.variant``: every
    built-in game and ``--ini`` variant); ``position`` a :class:`~ggn.position.Position` or
    FEEN. A play that is not legal there is an :class:`~ggn.errors.IllegalMoveError`.
    """
    kind = _notation(notation)
    expect(play, Play, "play", "a Play")
    scene = _scene(rules, position)
    return scene.write(kind, scene.find(play))


def moves(rules: RuleSystem, position: Position | str, notation: Notation = "san") -> dict[str, Play]:
    """Every legal play of ``position`` by its text in ``notation`` (see :func:`write`), in the
    order of the rule system's legal moves."""
    kind = _notation(notation)
    scene = _scene(rules, position)
    return {scene.write(kind, move): move.play for move in scene.moves}


# --- reading -------------------------------------------------------------------------------------
_ANNOTATION: Final = re.compile(r"(?:[!?]{1,2}|[+#]{1,2}|\s*e\.p\.)+$")
_CASTLING: Final = re.compile(r"([O0o])-\1(-\1)?")
# The algebraic form: a piece letter (or none), a source (file, rank or both), a capture or
# separator mark, the destination, a promotion with or without "=".
_ALGEBRAIC: Final = re.compile(
    r"(?P<piece>\+?[A-Z])?(?P<file>[a-l])?(?P<rank>1[0-2]|[1-9])?(?P<mark>[-x:])?"
    r"(?P<to>[a-l](?:1[0-2]|[1-9]))(?:=?(?P<promotion>\+?[A-Z])|(?P<shogi>[+=-]))?")
_DROP: Final = re.compile(r"(?P<piece>\+?[A-Z])?[@*](?P<to>[a-l](?:1[0-2]|[1-9]))")


def _square_of(text: str) -> Square:
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def parse(rules: RuleSystem, position: Position | str, text: str,
          notations: Notation | Iterable[Notation] = "san") -> Play:
    """The legal play of ``position`` that ``text`` names in one of ``notations`` (a name of
    :data:`NOTATIONS` or several).

    A text written as :func:`write` writes it is found whatever its check marks; an algebraic
    text (``san`` or ``lan``) is read the way python-chess's ``parse_san`` reads it: ``0-0`` or
    ``O-O``, ``e8Q`` or ``e8=Q``, a source given where none is needed (``Ng1f3``, ``Ng1-f3``),
    ``P`` for a pawn, annotations (``!``, ``?``, ``e.p.``) left over. A text that names no legal
    play, or more than one, is an :class:`~ggn.errors.IllegalMoveError` quoting it and naming
    the candidates.
    """
    expect(text, str, "text", "a str")
    chosen = (_notation(notations),) if isinstance(notations, str) else tuple(
        _notation(one) for one in expect(notations, Iterable, "notations", "a notation's name or several"))
    scene = _scene(rules, position)
    found = _found(scene, text, chosen)
    if len(found) == 1:
        return found[0].play
    raise _refused(scene, text, found, chosen[0])


def _found(scene: _Scene, text: str, chosen: tuple[Notation, ...]) -> list[_Move]:
    """The moves ``text`` names, in any of the notations (none, one or several)."""
    if len(text) > _MAX_TEXT:
        return []
    squeezed = " ".join(text.split())
    bare = _ANNOTATION.sub("", squeezed)
    found: list[_Move] = []

    def add(move: _Move) -> None:
        if all(move.play is not other.play for other in found):
            found.append(move)

    for notation in chosen:
        # The check marks are left out on both sides: written without them, a move costs no
        # look at the position after it.
        for move in scene.texts(notation).get(bare if notation in _MARKED else squeezed, ()):
            add(move)
    if len(found) > 1:
        # Texts that differ by their check marks only: the one written with the text's marks.
        exact = [move for move in found
                 if any(scene.write(notation, move) == squeezed for notation in chosen)]
        found = exact or found
    if found:
        return found
    if squeezed[-1:] not in ("+", "=", "-"):
        # Shogi's promotion mark left out: the move that must promote, or every way to make it.
        for notation in chosen:
            if notation in _SHOGI:
                for written, moves in scene.texts(notation).items():
                    if written[-1:] in ("+", "=") and written[:-1] == squeezed:
                        for move in moves:
                            add(move)
    if found:
        return found
    if any(notation in ("san", "lan") for notation in chosen):
        for move in _algebraic(scene, bare.replace(" ", "")):
            add(move)
    return found


def _algebraic(scene: _Scene, text: str) -> list[_Move]:
    """The moves an algebraic text names, read tolerantly (see :func:`parse`)."""
    gate: str | None = None
    if "/" in text:  # seirawan's gating: "/H", after a castling "/Hh1"
        text, gate = text.split("/", 1)
    castling = _CASTLING.fullmatch(text)
    if castling:
        kingside = castling.group(2) is None
        return [move for move in scene.moves if move.kind == "castling" and move.kingside == kingside
                and _gates_as(scene, move, gate)]
    drop = _DROP.fullmatch(text)
    if drop and gate is None:
        target = _square_of(drop["to"])
        letter = drop["piece"] or "P"
        return [move for move in scene.moves if move.kind == "drop" and move.destination == target
                and _named(scene, move, letter)]
    match = _ALGEBRAIC.fullmatch(text)
    if match is None:
        return []
    target = _square_of(match["to"])
    letter = match["piece"]
    found = []
    for move in scene.moves:
        if move.kind in ("drop", "castling") or move.destination != target or move.source is None:
            continue
        if letter is None:
            if not scene._is_pawn(move.type):
                continue
        elif not _named(scene, move, letter):
            continue
        if match["file"] and move.source[0] != ord(match["file"]) - ord("a"):
            continue
        if match["rank"] and move.source[1] != int(match["rank"]) - 1:
            continue
        if not _promotes_as(scene, move, match["promotion"], match["shogi"]):
            continue
        if not _gates_as(scene, move, gate):
            continue
        found.append(move)
    return found


def _gates_as(scene: _Scene, move: _Move, gate: str | None) -> bool:
    """Whether the move's gating is the one the text writes (``H``, or ``Hh1`` after a
    castling; none: none)."""
    if gate is None or move.gate is None:
        return gate is None and move.gate is None
    written = move.gate.upper()
    if move.kind == "castling" and move.gate_square is not None:
        return gate in (written, written + scene.square("san", move.gate_square))
    return gate == written


def _named(scene: _Scene, move: _Move, letter: str) -> bool:
    """Whether a piece letter of the text (``N``, ``P``, ``+P``) names the moved piece."""
    if letter.startswith("+"):
        return move.promoted and move.base.upper() == letter[1:]
    if letter == "P" and scene._is_pawn(move.type):
        return True
    return scene._char(move.type) == letter or move.type.upper() == letter


def _promotes_as(scene: _Scene, move: _Move, promotion: str | None, shogi: str | None) -> bool:
    """Whether the move's promotion is the one the text writes (none: none)."""
    if move.kind == "promotion":
        assert move.promotion is not None
        return promotion is not None and promotion.lstrip("+") == move.promotion.upper()
    if move.kind == "piece-promotion":
        return shogi == "+" or (promotion is not None and promotion in (
            scene.made.promoted[move.base].upper(), "+" + move.base.upper()))
    if move.kind == "piece-demotion":
        return shogi == "-" or (promotion is not None and promotion == move.base.upper())
    return promotion is None and shogi in (None, "=")


def _refused(scene: _Scene, text: str, found: list[_Move], notation: Notation) -> IllegalMoveError:
    where = f"{scene.variant.name} in {scene.fen()!r}"
    if found:
        named = ", ".join(sorted(scene.write(notation, move) for move in found)[:_SHOWN])
        return IllegalMoveError(f"{quote(text, _LIMIT)} is ambiguous in {where}: it could be {named}")
    listed = sorted(scene.write(notation, move) for move in scene.moves)
    shown = ", ".join(listed[:_SHOWN]) + (", ..." if len(listed) > _SHOWN else "")
    return IllegalMoveError(f"{quote(text, _LIMIT)} is not a legal move of {where}; legal moves: "
                            f"{shown or 'none'}")


def _candidates(rules: RuleSystem, position: Position | str, text: str,
               notations: Iterable[Notation]) -> list[Play]:
    """Every legal play ``text`` may name in one of ``notations`` (for :mod:`ggn.notation`,
    which weighs them against other notations)."""
    scene = _scene(rules, position)
    return [move.play for move in _found(scene, text, tuple(_notation(one) for one in notations))]


