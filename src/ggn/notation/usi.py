"""USI moves and SFEN positions: shogi's notations, for the shogi family and every game as
Fairy-Stockfish speaks them over USI.

USI names a square by its file, numbered from the first player's right (``1`` to ``9`` on a
shogi board, ``10`` and up on wider ones), and its rank, lettered from the second player's side
(``a`` is the top rank of a FEN diagram): shogi's ``7g`` is Fairy-Stockfish's UCI ``c3``. A
move is its source and destination (``7g7f``), ``+`` after a move that promotes (``8h2b+``;
declining a promotion is the plain move), and a drop the piece's uppercase letter, ``*`` and
the square (``P*5e``). The rest is what Fairy-Stockfish writes in its USI mode for any game: a
chess-style promotion's lowercase letter (``2b2a+`` but ``7b7aq``), ``-`` for a demotion.

SFEN holds a position as ``<placement> <side> <hands> <move number>``: the placement as FEN
writes it (promoted pieces ``+P``), ``b`` when the first player (sente, uppercase) is to move
and ``w`` for the second, the pieces in hand with their counts (``2P``; sente's first, each in
shogi's order: rook, bishop, gold, silver, knight, lance, pawn, then any other piece in
Fairy-Stockfish's order) or ``-``, and the number of the next ply (1 at the start). SFEN has no
castling rights and no en passant square, so it is refused for games that have them.

>>> from ggn.variants import registry
>>> rules = registry.rules("shogi")
>>> position = rules.position()
>>> play = parse(rules, position, "7g7f")
>>> str(play), write(rules, position, play)
('S:P c3-c4', '7g7f')
>>> position = rules.play(position, play)
>>> to_sfen(rules, position, move_number=2)
'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
>>> from_sfen(rules, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2") == (position, 2)
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Final

from ggn._json import quote
from ggn._types import expect
from ggn.errors import GGNError, IllegalMoveError, NotationError
from ggn.feen import Feen
from ggn.position import Position
from ggn.rules import Play, RuleSystem
from ggn.variants import fen as _fen
from ggn.variants import uci
from ggn.variants.description import Variant

__all__ = ["from_sfen", "moves", "parse", "to_sfen", "write"]

_N: Final = "SFEN"
_SHOWN: Final = 12  # legal moves listed in an error
_UCI_SQUARES: Final = re.compile(r"([a-z])([0-9]+)([a-z])([0-9]+)(.*)")
_USI_SQUARE: Final = re.compile(r"([1-9][0-9]?)([a-z])")
_HAND_TOKEN: Final = re.compile(r"([1-9][0-9]{0,5})?([A-Za-z])")
_FEN_RANK: Final = re.compile(r"^rank ([0-9]+)")
_MOVE_NUMBER: Final = re.compile(r"[1-9][0-9]{0,17}")
# Shogi's order of the pieces in hand (the USI protocol's, python-shogi's and cshogi's), by
# Fairy-Stockfish's names of the pieces.
_SHOGI_ORDER: Final = ("rook", "bishop", "gold", "silver", "shogiKnight", "lance", "shogiPawn")


def _variant(rules: RuleSystem) -> Variant:
    expect(rules, RuleSystem, "rules", "a RuleSystem")
    variant = getattr(rules, "variant", None)
    if not isinstance(variant, Variant):
        raise TypeError("rules must be the rule system of a variant (with a variant description)")
    return variant


def _square(variant: Variant, file: int, rank: int) -> str:
    """The USI name of the square of indices ``(file, rank)`` (``(0, 0)``, FEN's ``a1``, is
    shogi's ``9i``)."""
    return f"{variant.files - file}{chr(ord('a') + variant.ranks - 1 - rank)}"


def _from_uci(variant: Variant, text: str) -> str:
    """The USI string of Fairy-Stockfish's UCI string of a move (its squares renamed, ``@``
    written ``*``)."""
    def named(file: str, rank: str) -> str:
        return _square(variant, ord(file) - ord("a"), int(rank) - 1)

    if "@" in text:
        piece, _, where = text.partition("@")
        return f"{piece}*{named(where[0], where[1:])}"
    match = _UCI_SQUARES.fullmatch(text)
    if match is None:  # pragma: no cover - ggn.variants.uci writes no other shape
        raise GGNError(f"{text!r} is not a UCI move string")
    return named(match[1], match[2]) + named(match[3], match[4]) + match[5]


def write(rules: RuleSystem, position: Position, play: Play) -> str:
    """The USI string of ``play``, a legal play of ``position`` (``7g7f``, ``P*5e``, ``8h2b+``).

    It is Fairy-Stockfish's UCI string (:mod:`ggn.variants.uci`) with USI's squares: the position
    tells which rook a castling moves in the games that have one.
    """
    variant = _variant(rules)
    expect(position, Position, "position", "a Position")
    return _from_uci(variant, uci.write(variant, play, position=position))


def moves(rules: RuleSystem, position: Position | Feen | str) -> Mapping[str, Play]:
    """Every legal play of ``position`` by its USI string."""
    variant = _variant(rules)
    current = rules._position(position, "position")
    written = uci.moves(rules, current, variant=variant)
    return {_from_uci(variant, text): play for text, play in written.items()}


def parse(rules: RuleSystem, position: Position | Feen | str, text: str) -> Play:
    """The legal play of ``position`` that the USI string ``text`` names.

    A move that declines a promotion may end in ``=`` (``2c2b=``), as Fairy-Stockfish reads it.
    A string that names no legal play is an :class:`~ggn.errors.IllegalMoveError` quoting it
    and listing the legal moves (those from its source square first, when it names one).
    """
    variant = _variant(rules)
    expect(text, str, "text", "a str")
    strings = moves(rules, position)
    found = strings.get(text)
    if found is None and text.endswith("=") and "*" not in text:
        found = strings.get(text[:-1])
    if found is not None:
        return found
    current = rules._position(position, "position")
    listed = sorted(strings)
    source = _USI_SQUARE.match(text)
    if source is not None:
        # The moves of the piece the string starts from, first: the likely intended ones.
        same = [move for move in listed if move.startswith(source[0]) and "*" not in move]
        listed = same + [move for move in listed if move not in same]
    shown = ", ".join(listed[:_SHOWN]) + (", ..." if len(listed) > _SHOWN else "")
    raise IllegalMoveError(f"{quote(text)} is not a legal USI move of {variant.name} in "
                           f"{to_sfen(rules, current) if _sfen_able(variant) else current.to_feen()!r}; "
                           f"legal moves: {shown or 'none'}")


# --- SFEN -------------------------------------------------------------------------------------
def _sfen_able(variant: Variant) -> bool:
    return variant.castling is None and variant.double_step is None


def _check_sfen_able(variant: Variant) -> None:
    if variant.castling is not None:
        raise GGNError(f"SFEN cannot hold the castling rights of {variant.name}: use its FEN")
    if variant.double_step is not None:
        raise GGNError(f"SFEN cannot hold the en passant square of {variant.name}: use its FEN")


def _hand_order(variant: Variant) -> dict[str, int]:
    """FEN letter (lowercase) -> its place in an SFEN hand: shogi's order for shogi's pieces,
    then Fairy-Stockfish's (which writes its piece types from the king's number down)."""
    fsf = _fen._hand_order(variant)
    order: dict[str, int] = {}
    for piece in variant.pieces:
        letter = piece.letter.lower()
        if piece.name in _SHOGI_ORDER:
            order[letter] = _SHOGI_ORDER.index(piece.name)
        else:
            order[letter] = len(_SHOGI_ORDER) + 1000 - fsf.get(letter, 0)
    return order


def to_sfen(rules: RuleSystem, position: Position | Feen | str, move_number: int = 1) -> str:
    """The SFEN of ``position`` (a :class:`~ggn.position.Position` or FEEN), ``move_number`` its
    last field: the number of the next ply, 1 at the start of a game.

    Games with castling or en passant are refused (:class:`~ggn.errors.GGNError`): SFEN has no
    field for them.
    """
    variant = _variant(rules)
    current = rules._position(position, "position")
    if expect(move_number, int, "move_number", "an int") < 1:
        raise GGNError(f"an SFEN's move number is 1 or more, not {move_number}")
    _check_sfen_able(variant)
    fen = _fen.from_feen(variant, current)
    placement, turn = fen.split(" ", 2)[:2]
    hands = ""
    bracket = placement.find("[")
    if bracket >= 0:
        placement, held = placement[:bracket], placement[bracket + 1 : -1]
        order = _hand_order(variant)
        counts = Counter(held)
        for upper in (True, False):
            mine = sorted((letter for letter in counts if letter.isupper() == upper),
                          key=lambda letter: order.get(letter.lower(), len(order) + 2000))
            for letter in mine:
                count = counts[letter]
                hands += (str(count) if count > 1 else "") + letter
    return f"{placement} {'b' if turn == 'w' else 'w'} {hands or '-'} {move_number}"


def from_sfen(rules: RuleSystem, sfen: str) -> tuple[Position, int]:
    """The position an SFEN holds, and its move number (the number of its next ply; 1 when the
    SFEN has no fourth field).

    Every error is a :class:`~ggn.errors.NotationError` of SFEN pointing at the field at fault.
    """
    variant = _variant(rules)
    expect(sfen, str, "sfen", "a str")
    _check_sfen_able(variant)
    fields = sfen.split(" ", 4)
    starts = [0]
    for field in fields[:-1]:
        starts.append(starts[-1] + len(field) + 1)

    def error(number: int, reason: str, start: int = 0, end: int | None = None) -> NotationError:
        stop = len(fields[number]) if end is None else end
        return NotationError(_N, sfen, reason, starts[number] + start, starts[number] + stop)

    if len(fields) < 3 or not all(fields[:3]):
        raise NotationError(_N, sfen, "expected the placement, the side to move ('b' or 'w') and the "
                                      "pieces in hand ('-' for none), separated by single spaces")
    if len(fields) > 4:
        raise error(4, "unexpected field after the move number")
    placement, side, hand = fields[:3]
    for mark in "[]~":
        at = placement.find(mark)
        if at >= 0:
            raise error(0, f"{mark!r} is not part of an SFEN placement (the pieces in hand are its "
                           "third field)", at, at + 1)
    if side not in ("b", "w"):
        raise error(1, f"the side to move is 'b' (the first player, sente) or 'w' (the second, gote), "
                       f"not {quote(side)}")
    held = _read_hand(variant, hand, lambda reason, start, end: error(2, reason, start, end))
    move_number = 1
    if len(fields) == 4:
        if not _MOVE_NUMBER.fullmatch(fields[3]):
            raise error(3, "the move number is a positive number without leading zeros, not "
                           f"{quote(fields[3])}")
        move_number = int(fields[3])
    if held and variant.drops is None:
        raise error(2, f"{variant.name} has no pieces in hand")
    brackets = f"[{held}]" if variant.drops is not None else ""
    fen = f"{placement}{brackets} {'w' if side == 'b' else 'b'} 0 1"
    try:
        feen = _fen.to_feen(variant, fen)
    except NotationError as failure:
        # The placement is the FEN's first characters: a fault in it is at the same place.
        if failure.end <= len(placement):
            # The FEN reader numbers the ranks from the bottom, USI letters them from the top.
            reason = _FEN_RANK.sub(lambda rank: f"rank {chr(ord('a') + variant.ranks - int(rank[1]))}",
                                   failure.reason, count=1)
            raise error(0, reason, failure.start, failure.end) from None
        if failure.start > len(placement) + len(brackets):  # pragma: no cover - side and counters are ours
            raise error(1, failure.reason) from None
        raise error(2, failure.reason) from None
    return rules._position(feen, "sfen"), move_number


def _read_hand(variant: Variant, hand: str, error: Callable[[str, int, int], NotationError]) -> str:
    """The letters of an SFEN's hands (``2P3p`` -> ``PPppp``), their count bounded by the board's
    squares (the pieces of a game fit on its board at the start)."""
    if hand == "-":
        return ""
    most = variant.files * variant.ranks
    letters: list[str] = []
    total = at = 0
    while at < len(hand):
        match = _HAND_TOKEN.match(hand, at)
        if match is None:
            raise error(f"expected a piece letter, with its count before it when more than one "
                        f"('2P'), not {hand[at]!r}", at, at + 1)
        total += int(match[1]) if match[1] else 1
        if total > most:
            raise error(f"{total:,} pieces in hand: more than the {most} squares of {variant.name}'s board",
                        at, match.end())
        letters.append(match[2] * (int(match[1]) if match[1] else 1))
        at = match.end()
    return "".join(letters)
